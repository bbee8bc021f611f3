import DocumentModel
import Foundation
import Typesetter

/// A defaults file (`--defaults FILE`, `-d FILE`) as Pandoc reads one: a YAML mapping of
/// option names (without `--`) to values, applied before the command line, so the command
/// line wins (repeatable options, such as `-V`, add to the file's). Pandoc's names for the
/// same things are read too: `input-file`, `input-files`, `output-file`, `metadata`,
/// `variables`, `metadata-files`, `table-of-contents`, `fail-if-warnings`; `from`/`reader`
/// naming Markdown, `to`/`writer` naming PDF, `standalone` and `pdf-engine` are accepted and
/// change nothing. `${.}` in a value is the defaults file's folder.
enum DefaultsFile {
    /// Pandoc's names for Typeset's options.
    static let pandocNames = [
        "output-file": "--output", "table-of-contents": "--toc", "fail-if-warnings": "--strict",
        "metadata-files": "--metadata-file", "variable": "--variable",
    ]
    /// Pandoc keys that change nothing in a PDF-only renderer, with whether a value says so
    /// (the readers and writer the command line accepts too, ``PandocOptions``).
    static let harmless: [String: @Sendable (String) -> Bool] = [
        "from": PandocOptions.isMarkdownReader, "reader": PandocOptions.isMarkdownReader,
        "to": { $0.lowercased() == "pdf" }, "writer": { $0.lowercased() == "pdf" },
        "standalone": { _ in true }, "pdf-engine": { _ in true },
    ]

    /// Where each option a defaults file set is written, by the words a usage error about its
    /// value starts with (`--paper`, `-V fontsize`): read by ``placed(_:)``. Set once, before
    /// any work starts, by the main thread.
    nonisolated(unsafe) static var origins: [String: SourceLocation] = [:]

    /// `error` placed at the defaults file's key when it is about a value that file set and the
    /// command line did not: `file:line:column: defaults: …` first on the line.
    static func placed(_ error: UsageError) -> UsageError {
        for (prefix, location) in origins where error.description.hasPrefix(prefix) {
            let next = error.description.dropFirst(prefix.count).first
            guard next == " " || next == ":" else { continue }
            return UsageError("\(location): defaults: \(error.description)")
        }
        return error
    }

    /// `arguments` with each `--defaults FILE` (or `-d FILE`, `--defaults=FILE`) replaced by
    /// the options the file sets, placed before the command line's own.
    /// - Throws: ``UsageError`` at `file:line:column` for a key that names no option, or a
    ///   value of the wrong shape (a flag set to something other than true or false, a list or
    ///   mapping given to an option that takes one value); ``TypesetError`` when the file
    ///   cannot be read or is not a YAML mapping.
    static func expand(_ arguments: [String], for command: CommandSpec) throws -> [String] {
        var files: [String] = []
        var rest: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                rest += arguments[(index - 1)...]
                break
            }
            if argument == "--defaults" || argument == "-d" {
                guard index < arguments.count else { throw UsageError("option \(argument) needs a value") }
                files.append(arguments[index])
                index += 1
            } else if argument.hasPrefix("--defaults=") {
                files.append(String(argument.dropFirst("--defaults=".count)))
            } else {
                rest.append(argument)
            }
        }
        var expanded: [String] = []
        let given = Set(rest.filter { $0.hasPrefix("-") }.map { $0.split(separator: "=")[0] }.map(String.init))
        for file in files {
            guard !file.isEmpty, FileManager.default.fileExists(atPath: file) else {
                throw UsageError("--defaults '\(file)': no such file")
            }
            let entries = try Typesetter.settingsMapping(file)
            expanded += try options(in: entries, file: file, for: command)
            for entry in entries {
                if let name = command.options.first(where: { $0.name == pandocNames[entry.key] ?? "--" + entry.key }),
                    !given.contains(name.name), !(name.short.map(given.contains) ?? false)
                {
                    origins[name.name] = entry.location
                }
                if ["metadata", "variables"].contains(entry.key), case .mapping(let pairs) = entry.value.kind {
                    for pair in pairs { origins["-V \(pair.key)"] = pair.location }
                }
            }
        }
        return expanded + rest
    }

    /// The command-line arguments the entries of a defaults file stand for.
    static func options(in entries: [SettingsValue.Entry], file: String, for command: CommandSpec) throws -> [String] {
        let folder = (file as NSString).deletingLastPathComponent
        func text(_ value: String) -> String {
            value.replacingOccurrences(of: "${.}", with: folder.isEmpty ? "." : folder)
        }
        var arguments: [String] = []
        var inputs: [String] = []
        for entry in entries {
            let key = entry.key
            if let accepts = harmless[key] {
                let value = scalar(entry.value)
                if !accepts(value ?? "") {
                    throw problem(
                        entry,
                        "'\(key): \(value ?? "…")' asks for what Typeset does not do; it reads "
                            + "Markdown and writes PDF")
                }
                continue
            }
            switch key {
            case "input-file", "input-files":
                inputs += try strings(entry).map(text)
                continue
            case "metadata", "variables":
                guard case .mapping(let pairs) = entry.value.kind else {
                    throw problem(entry, "'\(key)' takes a mapping of keys to values")
                }
                for pair in pairs {
                    let value = try strings(pair).joined(separator: ", ")
                    arguments += [key == "metadata" ? "--metadata" : "--variable", "\(pair.key)=\(text(value))"]
                }
                continue
            default: break
            }
            let name = pandocNames[key] ?? "--" + key
            guard let option = command.options.first(where: { $0.name == name }), name != "--help" else {
                let near = command.options.map { String($0.name.dropFirst(2)) }.first {
                    EditDistance.withinOne(key, $0)
                }
                throw problem(
                    entry,
                    "'\(key)' is not an option of typeset \(command.name)"
                        + (near.map { "; did you mean '\($0)'?" } ?? " (see 'typeset \(command.name) --help')"))
            }
            if option.value == nil {
                guard let value = scalar(entry.value), let flag = boolean(value) else {
                    throw problem(entry, "'\(key)' takes true or false")
                }
                if flag { arguments.append(name) }
                continue
            }
            let values = try strings(entry)
            let repeatable = ["--fonts", "--variable", "--metadata", "--metadata-file"].contains(name)
            if values.count != 1, !repeatable {
                throw problem(entry, "'\(key)' takes one value, not a list")
            }
            for value in values { arguments += [name, text(value)] }
        }
        return arguments + inputs
    }

    /// The scalar `value` holds; nil for a list or mapping.
    static func scalar(_ value: SettingsValue) -> String? {
        if case .scalar(let text, _) = value.kind { return text }
        return nil
    }

    /// YAML's true and false.
    static func boolean(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "true", "yes", "on": true
        case "false", "no", "off": false
        default: nil
        }
    }

    /// A scalar entry's value, or a list's scalars.
    /// - Throws: ``UsageError`` at the entry for a mapping or a nested list.
    static func strings(_ entry: SettingsValue.Entry) throws -> [String] {
        switch entry.value.kind {
        case .scalar(let text, _): return [text]
        case .list(let items):
            return try items.map { item in
                guard let text = scalar(item) else { throw problem(entry, "'\(entry.key)' takes values, not mappings") }
                return text
            }
        case .mapping: throw problem(entry, "'\(entry.key)' takes a value, not a mapping")
        }
    }

    /// A usage error at `entry`'s key, `file:line:column` first as compilers write it.
    static func problem(_ entry: SettingsValue.Entry, _ message: String) -> UsageError {
        UsageError("\(entry.location): defaults: \(message)")
    }
}
