import DocumentModel
import Foundation

/// A parsed command line: positional arguments, options with values, and flags.
struct ParsedArguments {
    var positional: [String] = []
    var values: [String: [String]] = [:]
    var flags: Set<String> = []

    func value(_ name: String) -> String? { values[name]?.last }
    func all(_ name: String) -> [String] { values[name] ?? [] }
    func has(_ flag: String) -> Bool { flags.contains(flag) }
}

/// A usage error: printed with a hint to `--help`; exit status 2.
struct UsageError: Error, CustomStringConvertible {
    var description: String
    init(_ message: String) { description = message }

    /// "unknown \(what) '\(word)'", with "; did you mean '…'?" when one of `names` is one
    /// edit from `word` (a letter left out, added, changed or two swapped: `rendr`, `--tehme`).
    static func unknown(_ what: String, _ word: String, among names: [String]) -> UsageError {
        let near = names.first { EditDistance.withinOne(word, $0) }
        return UsageError("unknown \(what) '\(word)'" + (near.map { "; did you mean '\($0)'?" } ?? ""))
    }
}

/// Parses `arguments` given which options take a value (`-o`, `--theme`…) and which are flags.
/// `--name=value` is accepted too; `-` alone is a positional argument (standard input/output).
func parseArguments(
    _ arguments: [String], valueOptions: Set<String>, flagOptions: Set<String>, aliases: [String: String] = [:]
) throws -> ParsedArguments {
    var parsed = ParsedArguments()
    var index = 0
    while index < arguments.count {
        var argument = arguments[index]
        index += 1
        if argument == "-" || !argument.hasPrefix("-") {
            parsed.positional.append(argument)
            continue
        }
        if argument == "--" {
            parsed.positional += arguments[index...]
            break
        }
        var inlineValue: String?
        if let eq = argument.firstIndex(of: "="), argument.hasPrefix("--") {
            inlineValue = String(argument[argument.index(after: eq)...])
            argument = String(argument[..<eq])
        }
        let name = aliases[argument] ?? argument
        if valueOptions.contains(name) {
            guard let value = inlineValue ?? (index < arguments.count ? arguments[index] : nil) else {
                throw UsageError("option \(argument) needs a value")
            }
            if inlineValue == nil { index += 1 }
            parsed.values[name, default: []].append(value)
        } else if flagOptions.contains(name) {
            guard inlineValue == nil else { throw UsageError("option \(argument) takes no value") }
            parsed.flags.insert(name)
        } else {
            throw UsageError.unknown(
                "option", argument, among: (valueOptions.union(flagOptions).union(aliases.keys)).sorted())
        }
    }
    return parsed
}
