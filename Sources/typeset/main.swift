import Foundation
import Typesetter

// The `typeset` command line. Exit status (OptionTable.exitStatus): 0 success, 1 an input,
// output, theme or font error (or warnings with --strict), 2 a usage error.

let version = "0.1.0"

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("typeset: \(message)\n".utf8))
    exit(status)
}

let arguments = Array(CommandLine.arguments.dropFirst())
// Ctrl-C, `timeout`, a closed terminal or SIGQUIT removes the temporary output and exits
// 128 + the signal. A reader that closes a pipe ends the process by SIGPIPE (status 141), as
// `cat` ends, even when the parent ignored it: the temporary file is unlinked before writing.
signal(SIGPIPE, SIG_DFL)
Typesetter.removeTemporaryFilesOnSignals()
let diagnosticsFormat = Messages.Format.of(arguments)
do {
    guard let command = arguments.first else { throw UsageError("no command given") }
    let rest = Array(arguments.dropFirst())
    switch command {
    case "--help", "-h":
        print(OptionTable.overview(version: version), terminator: "")
    case "help":
        switch rest.first {
        case nil, "--help", "-h": print(OptionTable.overview(version: version), terminator: "")
        case "man": print(OptionTable.manPage(version: version), terminator: "")
        case let name?:
            let full = rest.joined(separator: " ")
            guard let text = OptionTable.helpText(named: full) ?? OptionTable.helpText(named: name) else {
                let names = OptionTable.commands.map(\.name) + ["man"]
                let error = UsageError.unknown("command", full, among: names)
                // `help rendr extra`: the first word may be the misspelt one.
                throw error.description.contains("did you mean") || rest.count == 1
                    ? error : UsageError.unknown("command", name, among: names)
            }
            print(text, terminator: "")
        }
    case "--version":
        print("typeset \(version) (\(BuildInfo.commit))")
    case "completions":
        switch rest.first {
        case "bash": print(OptionTable.bashCompletion(), terminator: "")
        case "zsh": print(OptionTable.zshCompletion(), terminator: "")
        case "--help", "-h": print(OptionTable.helpText(OptionTable.command("completions")), terminator: "")
        default: throw UsageError("completions takes bash or zsh")
        }
    case "specimen": try SpecimenCommand.run(rest)
    case "render":
        try RenderCommand.run(rest)
    case "watch":
        try WatchCommand.run(rest)
    case "theme":
        try ThemeCommand.run(rest)
    case "fonts":
        try FontsCommand.run(rest)
    default:
        throw UsageError.unknown(
            "command", command, among: OptionTable.commands.map { String($0.name.prefix { $0 != " " }) })
    }
} catch let error as UsageError {
    let error = DefaultsFile.placed(error)
    // A problem in a file (a defaults file's key) leads with its `file:line:column`.
    if error.description.range(of: #"^[^\n]*?:\d+:\d+: "#, options: .regularExpression) != nil {
        Messages.error(error.description)
        exit(2)
    }
    // The help of the command the user ran (`typeset theme import --help`), else the overview.
    let named = arguments.prefix(2).joined(separator: " ")
    let topic =
        OptionTable.helpText(named: named) != nil
        ? named : arguments.first.flatMap { OptionTable.helpText(named: $0) != nil ? $0 : nil }
    let hint = error.description.contains("--help") ? "" : " (see 'typeset \(topic.map { $0 + " " } ?? "")--help')"
    fail("\(error.description)\(hint)", status: 2)
} catch let error as TypesetError {
    if diagnosticsFormat == .json {
        Messages.failure(error, format: .json)
        exit(1)
    }
    if case .warningsAreErrors = error {
        Messages.failure(error, format: .text)
        exit(1)
    }
    // `file:line:column: …` first on the line, as compilers print it, for editors.
    if case .invalidInput = error {
        Messages.failure(error, format: .text)
        exit(1)
    }
    // A problem that has its `file:line:column` leads with it, like every warning; only a
    // message with no position is introduced by the program's name.
    if error.description.range(of: #"^[^\n]*?:\d+:\d+: "#, options: .regularExpression) != nil {
        Messages.error(error.description)
        exit(1)
    }
    fail(error.description, status: 1)
} catch {
    fail(String(describing: error), status: 1)
}
