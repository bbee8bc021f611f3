import DocumentModel
import Foundation
import Typesetter
import Typography

/// `typeset theme import TOKENS -o THEME [--map TOKEN=ROLE]… [--map-file ROLES]`, `theme check FILE`,
/// `theme list`, `theme show NAME|FILE`, `theme export NAME|FILE --format FORMAT` and
/// `theme diff A B`.
enum ThemeCommand {
    static func run(_ arguments: [String]) throws {
        let commands = ["import", "check", "list", "show", "export", "diff"]
        guard let sub = arguments.first, commands.contains(sub) else {
            if let sub = arguments.first, sub != "--help", sub != "-h" {
                let error = UsageError.unknown("theme command", sub, among: commands)
                throw UsageError(error.description + " (import, check, list, show, export, diff)")
            }
            if arguments.first == nil {
                throw UsageError("theme needs 'import', 'check', 'list', 'show', 'export' or 'diff'")
            }
            print(OptionTable.helpText(named: "theme") ?? "", terminator: "")
            return
        }
        let spec = OptionTable.command("theme " + sub)
        let args = try OptionTable.parse(Array(arguments.dropFirst()), for: spec)
        if args.has("--help") {
            print(OptionTable.helpText(spec), terminator: "")
            return
        }
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
            guard args.positional.count == 1 else {
                throw UsageError(
                    "theme show takes one NAME (\(ThemeLoader.builtInNames.joined(separator: ", "))) or FILE")
            }
            try show(args.positional[0])
            return
        case "diff":
            guard args.positional.count == 2 else { throw UsageError("theme diff takes two themes: A B") }
            let first = try resolvedTheme(args.positional[0])
            let second = try resolvedTheme(args.positional[1])
            let lines = ThemeDiff.lines(
                first, second, firstMetrics: Typesetter.exportMetrics(of: first),
                secondMetrics: Typesetter.exportMetrics(of: second))
            print("--- \(args.positional[0])\n+++ \(args.positional[1])")
            print(lines.isEmpty ? "no differences" : lines.joined(separator: "\n"))
            return
        case "export":
            guard args.positional.count == 1 else { throw UsageError("theme export takes one NAME or FILE") }
            try export(args.positional[0], format: args.value("--format"))
            return
        default: break
        }
        guard args.positional.count == 1 else { throw UsageError("theme \(sub) takes one FILE") }
        let path = args.positional[0]
        let data = try read(path)
        switch sub {
        case "import":
            guard let given = args.value("--output") else { throw UsageError("theme import needs -o THEME.json") }
            let output = try OutputTargets.file(given, named: path, ext: "json")
            try OutputTargets.refuseOverwriting([(path, "the tokens file being imported")], with: output)
            let (mapping, placed) = try mapping(args)
            try refuseMappingsOfNoOneToken(mapping, placed: placed, tokens: data, path: path)
            // The judgement `theme check` and `render` make: what one refuses, all refuse.
            let (read, problems) = ThemeJudgement.read(data, file: path, asTokens: true, mapping: mapping)
            guard let theme = read, !problems.contains(where: { $0.severity == .error }) else {
                throw TypesetError.invalidTheme(problems: problems.map(\.description))
            }
            let fonts = ThemeJudgement.fontProblems(
                of: theme, file: path, text: String(decoding: data, as: UTF8.self),
                isFamilyAvailable: ThemeJudgement.installedFamilies())
            let all = problems + fonts
            if all.contains(where: { $0.severity == .error }) {
                throw TypesetError.invalidTheme(problems: all.map(\.description))
            }
            if !args.has("--quiet") { lines(all).forEach(Messages.error) }
            let json = ThemeWriter.json(
                for: theme, comment: "Imported by `typeset theme import` from \((path as NSString).lastPathComponent).")
            try Typesetter.write(json, to: output)
            if !args.has("--quiet") {
                Messages.error("\(output): theme '\(theme.name)' with \(TextRole.allCases.count) roles")
            }
        case "check":
            let problems = check(data, path: path)
            // With `--quiet`, the errors alone: they say why the exit status is 1.
            let shown = args.has("--quiet") ? problems.filter { $0.severity == .error } : problems
            lines(shown).forEach(Messages.error)
            if problems.contains(where: { $0.severity == .error }) { exit(1) }
            if !args.has("--quiet") { Messages.error("\(path): ok") }
        default:
            break
        }
    }

    /// Every problem of a theme or design-token file, as `file:line:column: message` lines:
    /// JSON syntax, unknown roles and keys, wrong types and units, then the one validation every
    /// theme passes (``Theme/validate(file:isFamilyAvailable:)``: limits, page, families — a
    /// family that is not installed is a warning naming its fallback, a list with no installed
    /// family an error). A file with `$type`/`$value` tokens is checked as design tokens, by
    /// importing it: what `theme import` would refuse, this reports as an error.
    static func check(_ data: Data, path: String) -> [ThemeProblem] {
        let (theme, problems) = ThemeJudgement.read(data, file: path)
        guard let theme else { return problems }
        let fonts = ThemeJudgement.fontProblems(
            of: theme, file: path, text: String(decoding: data, as: UTF8.self),
            isFamilyAvailable: ThemeJudgement.installedFamilies())
        let weights = ThemeJudgement.weightProblems(
            of: theme, file: path, text: String(decoding: data, as: UTF8.self))
        return problems + fonts + weights
    }

    /// `problems` as the lines printed for them: warnings at a position that say the same thing
    /// said once, with their count and next places (``Diagnostic/coalesced(_:)``, as `render`
    /// says them); errors each on its own line; problems of the whole file last.
    static func lines(_ problems: [ThemeProblem]) -> [String] {
        var placed: [Diagnostic] = []
        var unplaced: [String] = []
        for problem in problems {
            guard problem.line > 0 else {
                unplaced.append(problem.description)
                continue
            }
            let location = SourceLocation(file: problem.file, line: problem.line, column: problem.column)
            let severity: Diagnostic.Severity = problem.severity == .warning ? .warning : .error
            placed.append(Diagnostic(severity, problem.message, at: location, kind: .theme))
        }
        return Diagnostic.coalesced(placed).map(\.description) + unplaced
    }

    /// Token path → role from `--map-file` (``TokenImporter/mapping(fromFile:file:)``), then each
    /// `--map TOKEN=ROLE` over it.
    /// - Throws: ``UsageError`` for a `--map` that is no `TOKEN=ROLE` (listing the roles);
    ///   ``TypesetError`` for a mapping file that cannot be read or holds a problem.
    static func mapping(_ args: ParsedArguments) throws -> (
        mapping: [String: TextRole], placed: [String: (file: String, line: Int, column: Int)]
    ) {
        var mapping: [String: TextRole] = [:]
        var placed: [String: (file: String, line: Int, column: Int)] = [:]
        if let path = args.value("--map-file") {
            let data = try read(path)
            let read = try load { try TokenImporter.placedMapping(fromFile: data, file: path) }
            mapping = read.mapping
            for (token, place) in read.places { placed[token] = (path, place.line, place.column) }
        }
        for pair in args.all("--map") {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty, let role = TextRole(name: parts[1]) else {
                let problem =
                    pair.contains("=")
                    ? "'\(pair.split(separator: "=", maxSplits: 1).last ?? "")' is no role"
                    : "'\(pair)' is not TOKEN=ROLE"
                throw UsageError("--map \(pair): \(problem); roles are \(TokenImporter.roleNames)")
            }
            mapping[parts[0]] = role
            placed[parts[0]] = nil
        }
        return (mapping, placed)
    }

    /// Refuses a mapping key that names no typography token of `tokens` (it would change
    /// nothing), or that is the last part of two (it reads two ways): one from `--map` is a
    /// usage error; one from `--map-file` (`placed`) is an error at its line and column there.
    /// - Throws: ``UsageError`` or ``TypesetError/invalidTheme(problems:)``.
    static func refuseMappingsOfNoOneToken(
        _ mapping: [String: TextRole], placed: [String: (file: String, line: Int, column: Int)], tokens: Data,
        path: String
    ) throws {
        func refuse(_ key: String, _ problem: String) throws -> Never {
            if let place = placed[key] {
                throw TypesetError.invalidTheme(problems: ["\(place.file):\(place.line):\(place.column): \(problem)"])
            }
            throw UsageError("--map \(key)=…: \(problem)")
        }
        if let unmatched = TokenImporter.unmatchedMappings(mapping, in: tokens).first {
            let names = TokenImporter.typographyTokenNames(in: tokens)
            let list = names.prefix(8).joined(separator: ", ") + (names.count > 8 ? ", …" : "")
            try refuse(
                unmatched,
                "\(path) has no typography token '\(unmatched)' (a token path or its last part; its tokens: "
                    + "\(names.isEmpty ? "none" : list))")
        }
        if let ambiguous = TokenImporter.ambiguousMappings(mapping, in: tokens).first {
            try refuse(
                ambiguous.key,
                "'\(ambiguous.key)' is the last part of \(ambiguous.tokens.count) typography tokens of \(path) "
                    + "(\(ambiguous.tokens.prefix(4).joined(separator: ", "))); write the token's full path")
        }
    }

    /// `theme export NAME|FILE --format swiftui|css`: the theme's type scale as code, on standard
    /// output (``ThemeExport``), with each role's natural line height and Bold Text weight from
    /// the installed fonts.
    /// - Throws: ``UsageError`` for a missing or unknown format or a theme that is neither built
    ///   in nor a file; ``TypesetError`` when the file has an error.
    static func export(_ name: String, format: String?) throws {
        let names = ThemeExport.Format.allCases.map(\.rawValue).joined(separator: ", ")
        guard let format else { throw UsageError("theme export needs --format (\(names))") }
        guard let chosen = ThemeExport.Format(rawValue: format.lowercased()) else {
            throw UsageError("--format \(format): not a format theme export writes (\(names))")
        }
        let theme = try resolvedTheme(name)
        print(
            ThemeExport.code(
                for: theme, format: chosen, metrics: Typesetter.exportMetrics(of: theme),
                source: (name as NSString).lastPathComponent),
            terminator: "")
    }

    /// A built-in theme, or the theme a theme or token file gives (its warnings to standard error).
    /// - Throws: ``TypesetError`` when `name` is neither (as `render --theme` says it) or the
    ///   file has an error.
    static func resolvedTheme(_ name: String) throws -> Theme {
        if let theme = ThemeLoader.builtIn(named: name) { return theme }
        guard FileManager.default.fileExists(atPath: name) else {
            throw TypesetError.invalidTheme(problems: [ThemeLoader.noSuchTheme(name).description])
        }
        let data = try read(name)
        let (resolved, problems) = ThemeJudgement.read(data, file: name)
        guard let theme = resolved, !problems.contains(where: { $0.severity == .error }) else {
            throw TypesetError.invalidTheme(problems: problems.map(\.description))
        }
        problems.map(\.description).forEach(Messages.error)
        return theme
    }

    /// `theme show NAME|FILE`: a built-in theme, or a theme or token file resolved (with what it
    /// `extends`, or imported from tokens), printed as a theme file.
    /// - Throws: ``TypesetError`` when `name` is neither a built-in theme nor an existing file,
    ///   or when the file has an error (every problem, as `theme check` gives them).
    static func show(_ name: String) throws {
        if let theme = ThemeLoader.builtIn(named: name) {
            print(
                ThemeWriter.json(
                    for: theme, comment: "The built-in theme '\(name)', printed by `typeset theme show \(name)`."),
                terminator: "")
            return
        }
        let theme = try resolvedTheme(name)
        let file = (name as NSString).lastPathComponent
        print(
            ThemeWriter.json(
                for: theme, comment: "\(file) resolved (every role, with what it extends), by `typeset theme show`."),
            terminator: "")
    }

    static func load<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as ThemeError {
            throw TypesetError.invalidTheme(problems: error.problems.map(\.description))
        }
    }

    static func read(_ path: String) throws -> Data {
        do { return try FileReader.read(path, limit: FileReader.themeLimit, what: "a theme or token file") } catch {
            throw TypesetError.unreadableInput(path: path, reason: error.reason)
        }
    }

}

/// `typeset fonts [--fonts DIR]…`: every family with its faces.
enum FontsCommand {
    static func run(_ arguments: [String]) throws {
        let spec = OptionTable.command("fonts")
        let args = try OptionTable.parse(arguments, for: spec)
        if args.has("--help") {
            print(OptionTable.helpText(spec), terminator: "")
            return
        }
        guard args.positional.isEmpty else { throw UsageError("fonts takes no arguments") }
        for family in try FontListing.families(including: args.all("--fonts")) {
            print("\(family.name)\t\(family.faces)")
        }
    }
}
