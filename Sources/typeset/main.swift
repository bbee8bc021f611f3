import Foundation
import Typesetter

// The `typeset` command line. Exit status: 0 success, 1 input/output error (or warnings with
// --strict), 2 usage error.

let version = "0.1.0"

let usage = """
usage: typeset render INPUT [-o OUTPUT] [options]   Markdown → PDF (INPUT or OUTPUT '-': stdin/stdout)
       typeset specimen [-o OUTPUT] [options]       a specimen sheet of a theme's type scale
       typeset theme import TOKENS.json -o THEME.json [--map TOKEN=ROLE]...
       typeset theme check FILE.json                validate a theme or design-token file
       typeset fonts [--fonts DIR]...                list font families and faces
       typeset --help | --version

render and specimen options:
  -o, --output PATH        output PDF (default: output/<input name>.pdf)
  --theme NAME|PATH        built-in theme (default, hig, pretendard) or a theme JSON file
  --paper SIZE             a4, a5, letter, legal or 'W x H' with units (210mm x 297mm)
  --fonts DIR              register the font files in DIR (repeatable)
  --family NAME            set every role in family NAME (fallbacks kept)
  --size-adjust N|x-height add N pt to every size, or match x-heights, after --family
  --size-category CAT      Dynamic Type size: xSmall … xxxLarge, AX1 … AX5 (default large)
  --bold-text              Bold Text: every role one available weight heavier
  --justify                justify paragraphs (render)
  --no-tags                no structure tags, language or alt text: a smaller, inaccessible PDF (render)
  --strict                 treat warnings as errors (exit 1, nothing written)
  -q, --quiet              print no warnings
specimen only:
  --text TEXT              the sample line
  --guides                 draw baseline, x-height, cap-height, ascent/descent and half-leading guides
  --template PATH          the specimen template (default templates/specimen.md)
"""

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("typeset: \(message)\n".utf8))
    exit(status)
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    guard let command = arguments.first else { throw UsageError("no command given") }
    let rest = Array(arguments.dropFirst())
    switch command {
    case "--help", "-h", "help":
        print(usage)
    case "--version":
        print("typeset \(version)")
    case "specimen": try SpecimenCommand.run(rest)
    case "render":
        try RenderCommand.run(rest)
    case "theme":
        try ThemeCommand.run(rest)
    case "fonts":
        try FontsCommand.run(rest)
    default:
        throw UsageError("unknown command '\(command)'")
    }
} catch let error as UsageError {
    fail("\(error.description) (see 'typeset --help')", status: 2)
} catch let error as TypesetError {
    fail(error.description, status: 1)
} catch {
    fail(String(describing: error), status: 1)
}
