import Foundation
import Typography

/// One command-line option: the single source of the parser, `--help`, the man page and the
/// shell completions.
struct OptionSpec: Sendable {
    /// The long name, `--output`.
    var name: String
    /// The short alias, `-o`, if any.
    var short: String? = nil
    /// The value's placeholder (`PATH`); nil for a flag.
    var value: String? = nil
    /// One line of help.
    var help: String
    /// The values a shell may complete (`pdf`, `png`, `svg`); `files`/`dirs` complete paths.
    var choices: [String] = []
}

/// One command (`render`, `theme check`) with its synopsis and options.
struct CommandSpec: Sendable {
    /// `render`, or `theme import` for a subcommand.
    var name: String
    /// What follows the name in the usage line: `INPUT… [options]`.
    var synopsis: String
    /// One line: what the command does.
    var summary: String
    var options: [OptionSpec]
    /// A few lines printed after the options.
    var notes: String = ""
    /// Positional arguments are files (for completion).
    var takesFiles = true
}

/// Every command and option of `typeset`.
enum OptionTable {
    static let help = OptionSpec(name: "--help", short: "-h", help: "print this help and exit")

    static let theme: [OptionSpec] = [
        OptionSpec(
            name: "--theme", value: "NAME|PATH",
            help: "a built-in theme (default, hig, pretendard) or a theme JSON file",
            choices: ["default", "hig", "pretendard", "files"]),
        OptionSpec(
            name: "--paper", value: "SIZE",
            help:
                "A0–A10, B0–B10, C4–C6, JIS-B4, JIS-B5, letter, legal, tabloid, ledger [landscape], or 'W x H' with "
                + "units (210mm x 297mm)",
            choices: ["a3", "a4", "a5", "b5", "jis-b5", "letter", "legal", "tabloid"]),
        OptionSpec(
            name: "--fonts", value: "DIR", help: "register the font files in DIR (repeatable)", choices: ["dirs"]),
        OptionSpec(name: "--family", value: "NAME", help: "set every role in family NAME (fallbacks kept)"),
        OptionSpec(
            name: "--size-adjust", value: "N|x-height",
            help: "with --family: add N pt to every size, or match x-heights"),
        OptionSpec(
            name: "--size-category", value: "CAT",
            help: "Dynamic Type size: xSmall … xxxLarge, AX1 … AX5 (default large)",
            choices: [
                "xSmall", "small", "medium", "large", "xLarge", "xxLarge", "xxxLarge", "AX1", "AX2", "AX3", "AX4",
                "AX5",
            ]),
        OptionSpec(name: "--bold-text", help: "Bold Text: every role one available weight heavier"),
    ]
    static let reporting: [OptionSpec] = [
        OptionSpec(name: "--strict", help: "treat warnings as errors (exit 1, nothing written)"),
        OptionSpec(name: "--quiet", short: "-q", help: "print no warnings or progress"),
        OptionSpec(name: "--verbose", help: "also list, once per file, the front-matter keys Typeset does not read"),
        OptionSpec(
            name: "--diagnostics", value: "FORMAT",
            help: "text (default) or json: one JSON object per line {file, line, column, severity, kind, message}; "
                + "a warning's kind is font, link, overfull, image, attribute, front-matter, encoding, html, theme, "
                + "footnote, structure, output or content",
            choices: ["text", "json"]),
    ]
    static let document: [OptionSpec] = [
        OptionSpec(name: "--justify", help: "justify paragraphs (never the last line)"),
        OptionSpec(name: "--toc", help: "a table of contents after the title block (or at the top when there is none)"),
        OptionSpec(
            name: "--no-tags",
            help: "no structure tags, language or alt text: an inaccessible PDF, and a larger one than the tagged"),
        OptionSpec(
            name: "--pdf-standard", value: "LIST",
            help: "standards the PDF must meet, comma-separated: ua-1, a-2b, a-2u, a-3b (an error when it cannot)",
            choices: ["ua-1", "a-2b", "a-2u", "a-3b"]),
        OptionSpec(
            name: "--margins", value: "LENGTHS",
            help: "page margins as CSS, each with a unit: '20mm', '20mm 25mm', '20mm 25mm 30mm 25mm'"),
        OptionSpec(name: "--header", value: "TEMPLATE", help: "running header: {title}, {page}, {pages}, {date}"),
        OptionSpec(name: "--footer", value: "TEMPLATE", help: "running footer (default '{page}')"),
        OptionSpec(
            name: "--lang", value: "LANG", help: "the document's language, a BCP 47 tag (ko titles the contents 목차)"),
        OptionSpec(
            name: "--variable", short: "-V", value: "KEY=VALUE",
            help:
                "set a front-matter key (repeatable; wins over the document's); KEY:VALUE too, and KEY alone is true, "
                + "as in Pandoc; Pandoc's papersize, geometry=margin=…, mainfont, sansfont, monofont, fontsize, "
                + "linestretch and lang are read too; another key warns"),
        OptionSpec(
            name: "--metadata", short: "-M", value: "KEY=VALUE", help: "the same as -V (Pandoc's spelling for metadata)"
        ),
        OptionSpec(
            name: "--resource-path", value: "DIR",
            help: "the folder relative paths resolve against (default: the input's folder)", choices: ["dirs"]),
        OptionSpec(
            name: "--root", value: "DIR",
            help: "read only files inside DIR (and --resource-path) that the document names: images, theme, includes "
                + "(default: the input's folder and the current folder)", choices: ["dirs"]),
    ]
    static let output: [OptionSpec] = [
        OptionSpec(
            name: "--output", short: "-o", value: "PATH",
            help: "the output file (default: beside the input, dir/doc.pdf), '-' for standard output, or a folder "
                + "(DIR/ or an existing folder); with several INPUTs, a file makes one book",
            choices: ["files"]),
        OptionSpec(
            name: "--output-dir", value: "DIR", help: "write each INPUT to DIR/<name>.pdf (one PDF per file)",
            choices: ["dirs"]),
        OptionSpec(
            name: "--jobs", short: "-j", value: "N", help: "render N files at once (default: the number of cores)"),
        OptionSpec(
            name: "--format", short: "-f", value: "FORMAT",
            help: "pdf (default), or png or svg: one picture per page, OUTPUT-1.png, OUTPUT-2.png…",
            choices: ["pdf", "png", "svg"]),
        OptionSpec(
            name: "--pages", value: "LIST", help: "with png or svg: the pages to write, e.g. 1-3,7 or 2- (default: all)"
        ),
        OptionSpec(
            name: "--dpi", value: "N",
            help: "with png: pixels per inch (default 96; a page is ⌈size in pt × N / 72⌉ pixels)"),
    ]

    static let commands: [CommandSpec] = [
        CommandSpec(
            name: "render", synopsis: "INPUT… [-o OUTPUT] [options] | INPUT OUTPUT.pdf [options]",
            summary: "typeset Markdown files as PDF ('-': standard input)",
            options: output + BookInputs.options + theme + document + SectionAndFileOptions.options + reporting
                + [help],
            notes: """
                With no -o, the output is beside the input: dir/doc.md writes dir/doc.pdf.
                Several INPUTs with -o FILE make one book: one outline, one contents, one page sequence, each
                chapter on a new page, links between the files (ch2.md#setup) inside the PDF. So does one INPUT whose
                front matter lists more under include:, or a book.yaml (front matter with include: and no text).
                Otherwise several INPUTs are rendered in parallel, each by its own process, into --output-dir (or
                -o DIR/), or each beside its input; one line per file, then a summary; exit 1 if any failed.
                'render in.md out.pdf' writes out.pdf when out.pdf does not exist yet (otherwise use -o).
                """ + "\n" + exitStatus),
        CommandSpec(
            name: "watch", synopsis: "INPUT [-o OUTPUT] [options]",
            summary: "render, then render again whenever the document, its images, theme or fonts change",
            options: [output[0], output[3], output[4], output[5]] + theme + document + SectionAndFileOptions.options
                + reporting
                + [
                    OptionSpec(
                        name: "--renders", value: "N",
                        help:
                            "stop after N renders, failed ones included (for scripts and tests; default: until "
                            + "interrupted)"
                    ), help,
                ],
            notes: "Each render is written atomically; errors are printed and watching goes on. Stop with Ctrl-C."),
        CommandSpec(
            name: "specimen", synopsis: "[-o OUTPUT] [options]", summary: "a specimen sheet of a theme's type scale",
            options: [
                OptionSpec(
                    name: "--output", short: "-o", value: "PATH",
                    help: "the output file (default: specimen-THEME.pdf in the current folder), '-' for standard "
                        + "output, or a folder (DIR/ or an existing folder)",
                    choices: ["files"])
            ] + theme + [
                OptionSpec(name: "--text", value: "TEXT", help: "the sample line"),
                OptionSpec(
                    name: "--compare", value: "THEME",
                    help: "set a second theme's scale face to face with the theme's, role by role",
                    choices: ThemeLoader.builtInNames + ["files"]),
                OptionSpec(
                    name: "--guides",
                    help: "draw baseline, x-height, cap height, ascent/descent and half-leading guides"),
                OptionSpec(
                    name: "--template", value: "PATH", help: "the specimen template (default templates/specimen.md)",
                    choices: ["files"]),
            ] + reporting + [help], takesFiles: false),
        CommandSpec(
            name: "theme import", synopsis: "TOKENS.json -o THEME.json [--map TOKEN=ROLE]… [--map-file ROLES.json]",
            summary: "turn design tokens (W3C DTCG, Tokens Studio, Style Dictionary) into a theme",
            options: [
                OptionSpec(
                    name: "--output", short: "-o", value: "PATH", help: "the theme file to write", choices: ["files"]),
                OptionSpec(name: "--map", value: "TOKEN=ROLE", help: "map a token to a role (repeatable)"),
                OptionSpec(
                    name: "--map-file", value: "PATH", help: "a JSON file mapping tokens to roles", choices: ["files"]),
                reporting[1], help,
            ]),
        CommandSpec(
            name: "theme check", synopsis: "FILE.json",
            summary: "validate a theme or design-token file (every problem as file:line:column)",
            options: [reporting[1], help]),
        CommandSpec(
            name: "theme list", synopsis: "", summary: "list the built-in themes", options: [help], takesFiles: false),
        CommandSpec(
            name: "theme show", synopsis: "NAME|FILE",
            summary: "print a theme, built-in or a file resolved with what it extends, as a theme file",
            options: [help], takesFiles: false),
        CommandSpec(
            name: "theme export", synopsis: "NAME|FILE --format swiftui|css|compose|dtcg|tokens-studio",
            summary:
                "write a theme's type scale as code (SwiftUI, CSS, Compose) or as design tokens (DTCG, Tokens Studio)",
            options: [
                OptionSpec(
                    name: "--format", value: "FORMAT", help: "swiftui, css, compose, dtcg or tokens-studio",
                    choices: ["swiftui", "css", "compose", "dtcg", "tokens-studio"]),
                help,
            ]),
        CommandSpec(
            name: "theme diff", synopsis: "A B", summary: "list what differs between two themes, role by role",
            options: [help], takesFiles: false),
        CommandSpec(
            name: "fonts", synopsis: "[--fonts DIR]…", summary: "list font families and their faces",
            options: [theme[2], help], takesFiles: false),
        CommandSpec(
            name: "completions", synopsis: "bash|zsh", summary: "print a shell completion script", options: [help],
            takesFiles: false),
        CommandSpec(
            name: "help", synopsis: "[COMMAND | man]", summary: "help on a command, or the man page (roff)",
            options: [], takesFiles: false),
    ]

    /// The exit-status rule every command follows, printed in the help and the man page.
    static let exitStatus = """
        Exit status: 0 success; 1 an input, output, theme or font error, or warnings with --strict;
        2 a usage error: an unknown option or command, a missing or bad option value (-V, --variable and
        --lang values and defaults files included), or arguments that read more than one way.
        """

    static func command(_ name: String) -> CommandSpec { commands.first { $0.name == name }! }

    /// The help for `name`: one command's (`render`, `theme check`), or for a group
    /// (`theme`) the help of each of its subcommands; nil when no command is named so.
    static func helpText(named name: String) -> String? {
        if let spec = commands.first(where: { $0.name == name }) { return helpText(spec) }
        let group = commands.filter { $0.name.hasPrefix(name + " ") }
        guard !group.isEmpty else { return nil }
        return group.map(helpText).joined(separator: "\n")
    }

    /// Parses `arguments` for `command`: value options, flags and aliases come from its table.
    /// - Throws: ``UsageError`` for an unknown option, a missing value, or an empty path given to
    ///   an option that takes a file or folder (`-o ''`, `--output-dir ''`).
    static func parse(_ arguments: [String], for command: CommandSpec) throws -> ParsedArguments {
        var values = Set<String>()
        var flags = Set<String>()
        var aliases: [String: String] = [:]
        for option in command.options {
            if option.value != nil { values.insert(option.name) } else { flags.insert(option.name) }
            if let short = option.short { aliases[short] = option.name }
        }
        let parsed: ParsedArguments
        do {
            parsed = try parseArguments(arguments, valueOptions: values, flagOptions: flags, aliases: aliases)
        } catch let error as UsageError {
            throw UsageError("\(error.description) (see 'typeset \(command.name) --help')")
        }
        // An empty path names no file: said as such, before any file system call answers with
        // a misleading reason ("no such file", "it is a folder").
        for option in command.options {
            guard let placeholder = option.value, placeholder.contains("PATH") || placeholder.contains("DIR"),
                parsed.all(option.name).contains("")
            else { continue }
            let what =
                placeholder == "DIR" ? "a folder" : placeholder.hasPrefix("NAME") ? "a theme or a file" : "a file"
            throw UsageError("\(option.short.map { "\($0)/" } ?? "")\(option.name) is an empty path; name \(what)")
        }
        return parsed
    }

    // MARK: Help, man page, completions — generated from the table

    static func usageLine(_ command: CommandSpec) -> String {
        "typeset \(command.name)\(command.synopsis.isEmpty ? "" : " " + command.synopsis)"
    }

    static func label(_ option: OptionSpec) -> String {
        (option.short.map { "\($0), " } ?? "    ") + option.name + (option.value.map { " \($0)" } ?? "")
    }

    /// `typeset COMMAND --help`.
    static func helpText(_ command: CommandSpec) -> String {
        var text = "usage: \(usageLine(command))\n\n\(command.summary).\n"
        if !command.options.isEmpty {
            let width = min(30, command.options.map { label($0).count }.max() ?? 0)
            text += "\noptions:\n"
            for option in command.options {
                let optionLabel = label(option)
                text +=
                    "  " + optionLabel + String(repeating: " ", count: max(1, width - optionLabel.count + 2))
                    + option.help + "\n"
            }
        }
        if !command.notes.isEmpty { text += "\n" + command.notes + "\n" }
        return text
    }

    /// `typeset help`, `typeset --help`.
    static func overview(version: String) -> String {
        var text =
            "typeset \(version) — Markdown to print-quality PDF with a design system's type scale\n\nusage: typeset "
            + "COMMAND [options]\n\ncommands:\n"
        for command in commands {
            text += "  " + usageLine(command) + "\n      " + command.summary + "\n"
        }
        text +=
            "\n'typeset COMMAND --help' or 'typeset help COMMAND' lists a command's options; 'typeset --version' "
            + "prints the version and commit.\n\n" + exitStatus + "\n"
        return text
    }

    /// The man page, `typeset.1`, in roff (man(7) macros).
    static func manPage(version: String) -> String {
        func roff(_ text: String) -> String {
            text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
                .split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.hasPrefix(".") || $0.hasPrefix("'") ? "\\&" + $0 : String($0) }.joined(separator: "\n")
        }
        var page =
            ".TH TYPESET 1 \"\" \"typeset \(version)\" \"User Commands\"\n.SH NAME\ntypeset \\- Markdown to "
            + "print\\-quality PDF with a design system's type scale\n.SH SYNOPSIS\n"
        for command in commands { page += ".B typeset \(roff(command.name))\n\(roff(command.synopsis))\n.br\n" }
        page +=
            ".SH DESCRIPTION\nTypesets Markdown (CommonMark with GitHub's extensions and Pandoc attributes) into PDF "
            + "with a theme's ten text roles.\n"
        page += ".SH COMMANDS\n"
        for command in commands {
            page += ".SS \"\(roff(usageLine(command)))\"\n\(roff(command.summary)).\n"
            for option in command.options {
                page +=
                    ".TP\n.B \(roff((option.short.map { "\($0), " } ?? "") + option.name))"
                    + "\(option.value.map { " \\fI\(roff($0))\\fR" } ?? "")\n\(roff(option.help))\n"
            }
            if !command.notes.isEmpty { page += ".PP\n\(roff(command.notes))\n" }
        }
        page +=
            ".SH EXIT STATUS\n\(roff(exitStatus.replacingOccurrences(of: "Exit status: ", with: "")))\n"
            + ".SH SEE ALSO\nThe README and the docs/ folder of the Typeset source.\n"
        return page
    }

    /// The words after `theme` that name a command (`import`, `check`, … `export`, `diff`).
    static var themeSubcommands: [String] {
        commands.compactMap { $0.name.hasPrefix("theme ") ? String($0.name.dropFirst("theme ".count)) : nil }
    }

    /// A bash completion script: commands, then each command's options and option values.
    static func bashCompletion() -> String {
        var cases = ""
        for command in commands {
            let words = command.options.flatMap { [$0.name] + ($0.short.map { [$0] } ?? []) }.joined(separator: " ")
            cases += "    \"\(command.name)\") opts=\"\(words)\" ;;\n"
        }
        // An option's values by command: `--format` is `pdf png svg` to render, `swiftui css …`
        // to `theme export`.
        var values = ""
        for command in commands {
            for spec in command.options where spec.value != nil {
                let names = ([spec.name] + (spec.short.map { [$0] } ?? [])).map { "\"\(command.name):\($0)\"" }
                let words = spec.choices.filter { $0 != "files" && $0 != "dirs" }.joined(separator: " ")
                let action =
                    spec.choices.contains("dirs")
                    ? "COMPREPLY=($(compgen -d -- \"$cur\"))"
                    : spec.choices.contains("files")
                        ? "COMPREPLY=($(compgen -W \"\(words)\" -- \"$cur\") $(compgen -f -- \"$cur\"))"
                        : "COMPREPLY=($(compgen -W \"\(words)\" -- \"$cur\"))"
                values += "    \(names.joined(separator: "|"))) \(action); return ;;\n"
            }
        }
        let top = Set(commands.map { String($0.name.split(separator: " ")[0]) }).sorted().joined(separator: " ")
        let themeCommands = themeSubcommands.joined(separator: " ")
        return """
            # bash completion for typeset (generated by `typeset completions bash`)
            _typeset() {
              local cur prev cmd opts
              cur="${COMP_WORDS[COMP_CWORD]}"; prev="${COMP_WORDS[COMP_CWORD-1]}"
              if [ "$COMP_CWORD" -eq 1 ]; then COMPREPLY=($(compgen -W "\(top) --help --version" -- "$cur")); return; fi
              cmd="${COMP_WORDS[1]}"
              if [ "$cmd" = theme ]; then
                if [ "$COMP_CWORD" -eq 2 ]; then COMPREPLY=($(compgen -W "\(themeCommands)" -- "$cur")); return; fi
                cmd="theme ${COMP_WORDS[2]}"
              fi
              case "$cmd:$prev" in
            \(values)  esac
              case "$cmd" in
            \(cases)    *) opts="" ;;
              esac
              if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "$opts" -- "$cur")); else COMPREPLY=($(compgen -f -- \
            "$cur")); fi
            }
            complete -o filenames -F _typeset typeset

            """
    }

    /// A zsh completion script (`#compdef typeset`), through `_arguments`.
    static func zshCompletion() -> String {
        func quote(_ text: String) -> String {
            text.replacingOccurrences(of: "'", with: "'\\''").replacingOccurrences(of: "[", with: "\\[")
                .replacingOccurrences(of: "]", with: "\\]").replacingOccurrences(of: ":", with: "\\:")
        }
        var functions = ""
        for command in commands {
            let fn = "_typeset_" + command.name.replacingOccurrences(of: " ", with: "_")
            var specs: [String] = []
            for option in command.options {
                let action: String
                if option.value == nil {
                    action = ""
                } else if option.choices.contains("dirs") {
                    action = ":\(quote(option.value!)):_files -/"
                } else if option.choices.contains("files") {
                    action = ":\(quote(option.value!)):_files"
                } else if !option.choices.isEmpty {
                    action = ":\(quote(option.value!)):(\(option.choices.joined(separator: " ")))"
                } else {
                    action = ":\(quote(option.value!)):"
                }
                let names = option.short.map { "(\($0) \(option.name))'{\($0),\(option.name)}'" } ?? option.name
                specs.append("'\(names)[\(quote(option.help))]\(action)'")
            }
            if command.takesFiles { specs.append("'*:file:_files'") }
            functions += "\(fn)() {\n  _arguments \\\n    " + specs.joined(separator: " \\\n    ") + "\n}\n"
        }
        let top = commands.filter { !$0.name.contains(" ") }.map { "'\($0.name):\(quote($0.summary))'" }.joined(
            separator: " ")
        return """
            #compdef typeset
            # zsh completion for typeset (generated by `typeset completions zsh`)
            \(functions)
            _typeset() {
              if (( CURRENT == 2 )); then _describe command "(\(top) 'theme:design tokens and themes')"; return; fi
              local cmd=${words[2]}
              if [[ $cmd == theme ]]; then
                if (( CURRENT == 3 )); then _values subcommand \(themeSubcommands.joined(separator: " ")); return; fi
                cmd="theme_${words[3]}"; shift 2 words; (( CURRENT -= 2 ))
              else
                shift words; (( CURRENT -= 1 ))
              fi
              (( $+functions[_typeset_$cmd] )) && _typeset_$cmd
            }
            _typeset "$@"

            """
    }
}
