import Foundation
import Typesetter
import Typography

/// `typeset theme import TOKENS -o THEME [--map TOKEN=ROLE]…` and `typeset theme check FILE`.
enum ThemeCommand {
    static func run(_ arguments: [String]) throws {
        guard let sub = arguments.first, ["import", "check", "list", "show"].contains(sub) else {
            if let sub = arguments.first, sub != "--help", sub != "-h" { throw UsageError("unknown theme command '\(sub)' (import, check, list, show)") }
            if arguments.first == nil { throw UsageError("theme needs 'import', 'check', 'list' or 'show'") }
            print(["import", "check", "list", "show"].map { OptionTable.helpText(OptionTable.command("theme " + $0)) }.joined(separator: "\n"), terminator: "")
            return
        }
        let spec = OptionTable.command("theme " + sub)
        let args = try OptionTable.parse(Array(arguments.dropFirst()), for: spec)
        if args.has("--help") { print(OptionTable.helpText(spec), terminator: ""); return }
        switch sub {
        case "list":
            guard args.positional.isEmpty else { throw UsageError("theme list takes no arguments") }
            for name in ThemeLoader.builtInNames {
                let theme = ThemeLoader.builtIn(named: name)!
                let body = theme[.body]
                print("\(name)\t\(body.primaryFamily) \(String(format: "%g", body.size)) pt Body")
            }
            return
        case "show":
            guard args.positional.count == 1 else { throw UsageError("theme show takes one NAME (\(ThemeLoader.builtInNames.joined(separator: ", ")))") }
            let name = args.positional[0]
            guard let theme = ThemeLoader.builtIn(named: name) else {
                throw UsageError("unknown built-in theme '\(name)' (\(ThemeLoader.builtInNames.joined(separator: ", ")))")
            }
            print(ThemeWriter.json(for: theme, comment: "The built-in theme '\(name)', printed by `typeset theme show \(name)`."), terminator: "")
            return
        default: break
        }
        guard args.positional.count == 1 else { throw UsageError("theme \(sub) takes one FILE") }
        let path = args.positional[0]
        let data = try read(path)
        switch sub {
        case "import":
            guard let output = args.value("--output") else { throw UsageError("theme import needs -o THEME.json") }
            var mapping: [String: TextRole] = [:]
            for pair in args.all("--map") {
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2, let role = TextRole(name: parts[1]) else {
                    throw UsageError("--map takes TOKEN=ROLE with a role such as body or large-title, not '\(pair)'")
                }
                mapping[parts[0]] = role
            }
            let (theme, warnings) = try load { try TokenImporter.importTokens(data, file: path, mapping: mapping) }
            if theme.styles == Theme.default.styles {
                throw TypesetError.invalidTheme(problems: ["\(path): no typography tokens found (a token with $type \"typography\" and a $value with fontFamily, fontSize, …)"])
            }
            if !args.has("--quiet") { warnings.forEach(Messages.error) }
            let json = ThemeWriter.json(for: theme, comment: "Imported by `typeset theme import` from \((path as NSString).lastPathComponent).")
            try Typesetter.write(json, to: output)
            if !args.has("--quiet") { Messages.error("\(output): theme '\(theme.name)' with \(TextRole.allCases.count) roles") }
        case "check":
            let problems = check(data, path: path)
            problems.forEach(Messages.error)
            if problems.contains(where: { !$0.contains(": warning: ") }) { exit(1) }
            if !args.has("--quiet") { Messages.error("\(path): ok") }
        default:
            break
        }
    }

    /// Every problem of a theme or design-token file, as `file:line:column: message` lines:
    /// JSON syntax, unknown roles and keys, wrong types and units, and families that are not
    /// installed. A file with `$type`/`$value` tokens is checked as design tokens.
    static func check(_ data: Data, path: String) -> [String] {
        let text = String(decoding: data, as: UTF8.self)
        if text.contains("\"$value\"") || text.contains("\"$type\"") {
            do {
                let (theme, warnings) = try TokenImporter.importTokens(data, file: path)
                return warnings + missingFamilies(theme, path: path, text: text)
            } catch let error as ThemeError { return error.problems.map(\.description) } catch { return ["\(path): \(error)"] }
        }
        let (theme, problems) = ThemeLoader.decode(data, file: path)
        return problems.map(\.description) + (theme.map { missingFamilies($0, path: path, text: text) } ?? [])
    }

    /// Families the theme names that fontconfig does not know, each at the first place the
    /// file writes it (`file:line:column`).
    static func missingFamilies(_ theme: Theme, path: String, text: String) -> [String] {
        let installed = Set(FontListing.familyNames().map { $0.lowercased() })
        let generic: Set<String> = ["sans", "sans-serif", "serif", "monospace", "mono", "system-ui", "emoji"]
        return theme.familyNames.filter { !installed.contains($0.lowercased()) && !generic.contains($0.lowercased()) }.map { family in
            var position = ""
            if let range = text.range(of: "\"\(family)\"") {
                let before = text[..<range.lowerBound]
                let line = before.filter { $0 == "\n" }.count + 1
                let column = before.distance(from: before.lastIndex(of: "\n").map { before.index(after: $0) } ?? before.startIndex, to: before.endIndex) + 1
                position = ":\(line):\(column)"
            }
            return "\(path)\(position): unknown family '\(family)' (not installed; register its folder with fontFolders or --fonts)"
        }
    }

    static func load<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as ThemeError {
            throw TypesetError.invalidTheme(problems: error.problems.map(\.description))
        }
    }

    static func read(_ path: String) throws -> Data {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw TypesetError.unreadableInput(path: path, reason: "it is a folder")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TypesetError.unreadableInput(path: path, reason: FileManager.default.fileExists(atPath: path) ? "permission denied" : "no such file")
        }
        return data
    }

}

/// `typeset fonts [--fonts DIR]…`: every family with its faces.
enum FontsCommand {
    static func run(_ arguments: [String]) throws {
        let spec = OptionTable.command("fonts")
        let args = try OptionTable.parse(arguments, for: spec)
        if args.has("--help") { print(OptionTable.helpText(spec), terminator: ""); return }
        guard args.positional.isEmpty else { throw UsageError("fonts takes no arguments") }
        for folder in args.all("--fonts") { try FontListing.register(folder) }
        for family in FontListing.families() {
            print("\(family.name)\t\(family.faces)")
        }
    }
}
