import Foundation

/// Pandoc's options that a Pandoc user passes out of habit and that change nothing in a
/// renderer that reads Markdown and writes PDF (Pandoc's User's Guide, "General options" and
/// "Options affecting specific writers"): `-s`/`--standalone` (a PDF is always whole),
/// `--pdf-engine=X` (Typeset is its own engine), `--from`/`-r`/`--read` naming a Markdown
/// reader, `--to`/`-t`/`--write`/`-w` naming PDF. They are taken out before the command line is
/// parsed. `--citeproc` (`-C`) is taken out with a warning, since citations are set as written.
/// Any other value of `--from` or `--to` is a usage error that says what Typeset reads and
/// writes; so is `-f` naming a Markdown reader, since Typeset's `-f` is its output format.
enum PandocOptions {
    /// The readers whose Markdown Typeset reads: Pandoc's names, with or without extensions
    /// (`markdown+smart`, `gfm-emoji`).
    static let markdownReaders: Set<String> = [
        "markdown", "markdown_strict", "markdown_phpextra", "markdown_github", "markdown_mmd", "commonmark",
        "commonmark_x", "gfm",
    ]

    /// `arguments` without the options that change nothing, and the warnings to print.
    /// - Throws: ``UsageError`` for `--from` or `--to` naming another format, and for `-f`
    ///   naming a Markdown reader.
    static func strip(_ arguments: [String]) throws -> (arguments: [String], warnings: [String]) {
        var kept: [String] = []
        var warnings: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                kept += arguments[(index - 1)...]
                break
            }
            let (name, inline) = split(argument)
            func value() throws -> String {
                if let inline { return inline }
                guard index < arguments.count else { throw UsageError("option \(name) needs a value") }
                index += 1
                return arguments[index - 1]
            }
            switch name {
            case "-s", "--standalone":
                continue
            case "--pdf-engine":
                _ = try value()
            case "--citeproc", "-C":
                warnings.append(
                    "\(name): citations are not processed; [@key] and the bibliography are set as written")
            case "--from", "-r", "--read":
                let reader = try value()
                guard isMarkdownReader(reader) else {
                    throw UsageError("\(name) \(reader): Typeset reads Markdown only (CommonMark, GFM and Pandoc's)")
                }
            case "--to", "-t", "--write", "-w":
                let writer = try value()
                guard writer == "pdf" else {
                    throw UsageError("\(name) \(writer): Typeset writes PDF (or pages as PNG or SVG with -f)")
                }
            case "-f", "--format":
                let format = try value()
                if isMarkdownReader(format) {
                    throw UsageError(
                        "\(name) \(format): Typeset's -f is its output format (pdf, png or svg); it reads Markdown "
                            + "always, so Pandoc's -f \(format) is not needed")
                }
                kept += inline == nil ? [argument, format] : [argument]
            default:
                kept.append(argument)
            }
        }
        return (kept, warnings)
    }

    /// Whether `reader` names a Markdown reader, extensions aside (`markdown+smart-emoji`).
    static func isMarkdownReader(_ reader: String) -> Bool {
        let base = reader.prefix { $0 != "+" && $0 != "-" }
        return markdownReaders.contains(base.lowercased())
    }

    /// `--name=value` as the name and the value; another argument as itself and nil.
    private static func split(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }
}
