import Foundation

/// Reads theme files (JSON) and names built-in themes.
///
/// ## Theme file schema
/// An object; keys starting with `$` (e.g. `"$comment"`, `"$schema"`) are ignored. Every key is
/// optional; anything not given is inherited from the base theme.
/// - `name`: string; default: the file name without extension.
/// - `extends`: a built-in theme name (`default`, `hig`, `pretendard`); default `default`.
/// - `notes`: array of strings shown to the user (replaces the base's notes).
/// - `families`: `{"sans": ["Inter", "Noto Sans CJK KR"], "mono": [...]}` — named fallback lists
///   (a string is a one-family list). Overriding a key the base defines also swaps that list in
///   every inherited role (and the monospace list) that used the base's list for that key.
/// - `roles`: keyed by role name, case/separator-insensitive (`body`, `large-title`, `Title 2`;
///   ``TextRole/init(name:)``); each an object with
///   - `family`: a `families` key, a literal family name, or an array of either;
///   - `weight`: 1–1000 or a name (`thin` … `black`, `semibold`, ``FontWeight/init(name:)``);
///   - `size`: pt, as a number or `"17pt"` / `"17px"` (px = pt);
///   - `relativeTo`: a Dynamic Type style name (`body`, `largeTitle`, `subheadline`, …) or `"fixed"`;
///   - `lineHeightMultiple`: factor × natural height (Apple `lineHeightMultiple`), or
///     `lineHeight`: pt (`22`, `"22pt"`), `"150%"` of the size, or `"normal"`; not both.
///     When `size` changes and no line height is given, an inherited absolute line height scales
///     with the size;
///   - `tracking` (alias `letterSpacing`) and `kerning`: pt (`-0.4`, `"-0.4pt"`), `"-2%"` of the
///     size or `"-0.02em"`; `null` removes an inherited value;
///   - `italic`: boolean; `features`: array or space-separated string (`"tnum ss01"`);
///   - `textCase`: `uppercase`, `lowercase`, `capitalize`, `small-caps` or `none`;
///     `textDecoration`: `underline`, `line-through` or `none`; `spaceAfter`: a length after
///     each paragraph of the role (default: the page's `blockSpacing`).
/// - `colors`: name → `"#RGB"`, `"#RRGGBB"` or `"#RRGGBBAA"` (merged over the base's).
/// - `page`: `paper` (`a4`, `a5`, `letter`, `legal`, `"210mm x 297mm"`), `margins` (a length for
///   all sides, a CSS-like `"20mm 15mm"` list of 1–4 lengths, or `{top, right, bottom, left}`),
///   `blockSpacing` (a length). Lengths: a number in pt or a string with `pt`, `px`, `mm`, `cm`, `in`.
/// - `fontFolders`: paths relative to the theme file (appended to the base's).
/// - `monospace`: a `families` key, a family name, or an array.
/// - `sizeAdjust`: family → `-2` / `"-2pt"` (``SizeAdjust/points(_:)``) or
///   `{"originalRatio": 0.546, "newRatio": 0.52}` (``SizeAdjust/xHeight(originalRatio:newRatio:)``);
///   used by ``Theme/swappingFamily(to:)``.
///
/// Every problem — invalid JSON, unknown role, unknown key, wrong type, bad unit — carries the
/// `file:line:column` of the offending key or value (``ThemeProblem``). "Unknown family" is not
/// checked here (it needs fontconfig): check ``Theme/familyNames``.
public enum ThemeLoader {
    /// Names of the built-in themes, as ``builtIn(named:)`` accepts them.
    public static let builtInNames = ["default", "hig", "pretendard"]

    /// The built-in theme `name` (case/separator-insensitive: `default`, `hig`, `pretendard`), or nil.
    /// Each equals the decoded `templates/themes/<name>.json`.
    public static func builtIn(named name: String) -> Theme? {
        switch TextRole.normalizedKey(name) {
        case "default": .default
        case "hig": .hig
        case "pretendard": .pretendard
        default: nil
        }
    }

    /// Reads and decodes the theme file at `path`.
    /// - Throws: ``ThemeError`` with every error (and warning) found, or with one problem when the
    ///   file cannot be read.
    public static func load(contentsOf path: String) throws -> Theme {
        let data: Data
        do { data = try FileReader.read(path, limit: FileReader.themeLimit, what: "a theme file") } catch {
            throw ThemeError(problems: [
                ThemeProblem(file: path, line: 0, column: 0, message: "cannot read theme file: \(error.reason)")
            ])
        }
        let (theme, problems) = decode(data, file: path)
        guard let theme, !problems.contains(where: { $0.severity == .error }) else {
            throw ThemeError(problems: problems)
        }
        return theme
    }

    /// A built-in theme by name, else the theme file at the path.
    /// - Throws: ``ThemeError`` when `nameOrPath` is neither a built-in name nor a readable, valid
    ///   theme file (the message lists the built-in names when no such file exists).
    public static func resolve(nameOrPath: String) throws -> Theme {
        if let theme = builtIn(named: nameOrPath) { return theme }
        guard FileManager.default.fileExists(atPath: nameOrPath) else {
            throw ThemeError(problems: [noSuchTheme(nameOrPath)])
        }
        return try load(contentsOf: nameOrPath)
    }

    /// The problem of a theme name that is neither a built-in theme nor an existing file, as
    /// every command that takes a theme states it.
    public static func noSuchTheme(_ nameOrPath: String) -> ThemeProblem {
        ThemeProblem(
            file: nameOrPath, line: 0, column: 0,
            message:
                "no such theme: not a built-in theme (\(builtInNames.joined(separator: ", "))) nor an existing file")
    }

    /// Decodes theme JSON. `file` names the source in problems and anchors `fontFolders`.
    /// - Returns: the theme (nil when the JSON is invalid or not an object) and every problem found,
    ///   in source order. A non-nil theme with error problems is a best-effort result; callers
    ///   should refuse it (``load(contentsOf:)`` does).
    ///
    /// `codeStyles` are the styles `code.style` may name, by lowercased name: the built-in
    /// ``CodeStyle/builtIn`` unless the caller adds more (the highlighting library's themes,
    /// which this module cannot reach: the caller that can passes them in).
    ///
    /// `mayReadFolder` says whether a `fontFolders` entry (resolved) is a folder the render may
    /// read (``Sandbox/permits(_:)``); one it may not is an error, said before anything is
    /// looked up, so a theme cannot tell which paths outside exist.
    public static func decode(
        _ data: Data, file: String, codeStyles: [String: CodeStyle] = CodeStyle.builtIn,
        mayReadFolder: @escaping (String) -> Bool = { _ in true }
    ) -> (Theme?, [ThemeProblem]) {
        let root: JSONNode
        do { root = try JSONSource.parse(data) } catch {
            return (nil, [ThemeProblem(file: file, at: error.position, "invalid JSON: \(error.message)")])
        }
        var decoder = ThemeDecoder(file: file, codeStyles: codeStyles, mayReadFolder: mayReadFolder)
        let theme = decoder.decode(root)
        var problems = decoder.problems
        for repeated in root.repeatedKeys()
        where !problems.contains(where: { $0.line == repeated.again.line && $0.column == repeated.again.column }) {
            problems.append(
                ThemeProblem(
                    file: file, at: repeated.again, JSONNode.repeatedKeyMessage(repeated.key, first: repeated.first),
                    severity: .warning))
        }
        problems.sort { ($0.line, $0.column) < ($1.line, $1.column) }
        // What the file's own keys cannot show (inherited values, the page as a whole) is
        // caught by the one validation; when the keys already failed, those come first.
        if let theme, !problems.contains(where: { $0.severity == .error }) {
            problems += theme.validate(file: file)
        }
        return (theme, problems)
    }
}

/// Levenshtein distance, for "did you mean" hints.
func editDistance(_ first: String, _ second: String) -> Int {
    let source = Array(first)
    let target = Array(second)
    if source.isEmpty { return target.count }
    var row = Array(0...target.count)
    for sourceIndex in 1...source.count {
        var previous = row[0]
        row[0] = sourceIndex
        for targetIndex in stride(from: 1, through: target.count, by: 1) {
            let old = row[targetIndex]
            row[targetIndex] = min(
                row[targetIndex] + 1, row[targetIndex - 1] + 1,
                previous + (source[sourceIndex - 1] == target[targetIndex - 1] ? 0 : 1))
            previous = old
        }
    }
    return row[target.count]
}

/// `; did you mean 'x'?` when a candidate is close to `word`, else "".
func suggestion(for word: String, among candidates: [String]) -> String {
    let key = TextRole.normalizedKey(word)
    let best = candidates.map { ($0, editDistance(key, TextRole.normalizedKey($0))) }.min { $0.1 < $1.1 }
    guard let best, best.1 <= max(2, key.count / 3) else { return "" }
    return "; did you mean '\(best.0)'?"
}

private struct ThemeDecoder {
    let file: String
    /// The styles `code.style` may name (``ThemeLoader/decode(_:file:codeStyles:mayReadFolder:)``).
    let codeStyles: [String: CodeStyle]
    /// Whether a resolved `fontFolders` entry may be read (``ThemeLoader/decode(_:file:codeStyles:mayReadFolder:)``).
    let mayReadFolder: (String) -> Bool
    var problems: [ThemeProblem] = []

    init(file: String, codeStyles: [String: CodeStyle], mayReadFolder: @escaping (String) -> Bool) {
        self.file = file
        self.codeStyles = codeStyles
        self.mayReadFolder = mayReadFolder
    }

    mutating func error(_ position: SourcePosition, _ message: String) {
        problems.append(ThemeProblem(file: file, at: position, message))
    }

    /// Members of an object, reporting unknown keys (keys starting with `$` are ignored).
    mutating func members(of node: JSONNode, what: String, known: [String]) -> [JSONNode.Member] {
        guard let members = node.members else {
            error(node.position, "\(what) must be an object, not \(node.typeName)")
            return []
        }
        var result: [JSONNode.Member] = []
        for member in members where !member.key.hasPrefix("$") {
            if known.contains(member.key) {
                result.append(member)
            } else {
                error(
                    member.keyPosition,
                    "unknown key '\(member.key)' in \(what)\(suggestion(for: member.key, among: known)); expected "
                        + "one of: "
                        + "\(known.joined(separator: ", "))"
                )
            }
        }
        return result
    }

    mutating func string(_ node: JSONNode, _ what: String) -> String? {
        if let text = node.string { return text }
        error(node.position, "\(what) must be a string, not \(node.typeName)")
        return nil
    }

    mutating func stringList(_ node: JSONNode, _ what: String) -> [String]? {
        if let text = node.string { return [text] }
        if let items = node.array {
            var result: [String] = []
            for item in items {
                guard let text = item.string else {
                    error(item.position, "\(what) must be a list of strings; found \(item.typeName)")
                    return nil
                }
                result.append(text)
            }
            if result.isEmpty {
                error(node.position, "\(what) must not be empty")
                return nil
            }
            return result
        }
        error(node.position, "\(what) must be a string or an array of strings, not \(node.typeName)")
        return nil
    }

    mutating func length(_ node: JSONNode, _ what: String) -> Double? {
        if let points = ValueParsing.points(node, allowRem: false), node.members == nil { return points }
        error(
            node.position,
            "\(what): expected a length — a number in pt or a string with a unit pt, px, mm, cm or in (e.g. \"20mm\") "
                + "— not \(node.typeName)"
        )
        return nil
    }

    static let topKeys = [
        "name", "extends", "notes", "families", "roles", "colors", "page", "fontFolders", "monospace", "sizeAdjust",
        "code", "fontExpansion",
    ]
    static let roleKeys = [
        "family", "weight", "size", "relativeTo", "lineHeight", "lineHeightMultiple", "kerning", "tracking",
        "letterSpacing", "italic", "features", "textCase", "textDecoration", "spaceAfter",
    ]

    mutating func decode(_ root: JSONNode) -> Theme? {
        guard root.members != nil else {
            error(root.position, "a theme must be a JSON object, not \(root.typeName)")
            return nil
        }
        let written = (root.members ?? []).filter { !$0.key.hasPrefix("$") }
        if written.count > 1, !written.contains(where: { Self.topKeys.contains($0.key) }),
            written.allSatisfy({ $0.value.string != nil || $0.value.number != nil || $0.value.members != nil })
        {
            // No key of a theme at all: a generated file (Style Dictionary's build output, CSS
            // values by name) read as a theme, which one line says before each key's own.
            error(
                root.position,
                "none of the file's \(written.count) keys is a theme's "
                    + "(\(Self.topKeys.prefix(4).joined(separator: ", ")), …): if it is a build of design tokens "
                    + "(Style Dictionary's output, CSS values by name), import the tokens it was built from, which "
                    + "give each value as `value` or `$value`")
        }
        let top = Dictionary(
            members(of: root, what: "the theme", known: Self.topKeys).map { ($0.key, $0) }, uniquingKeysWith: { $1 })
        let base = top["extends"].map { baseTheme(named: $0.value) } ?? .default
        var theme = base
        theme.name =
            top["name"].flatMap { string($0.value, "name") }
            ?? ((file as NSString).lastPathComponent as NSString).deletingPathExtension
        if let notes = top["notes"] { theme.notes = stringList(notes.value, "notes") ?? base.notes }
        if let families = top["families"] { decodeFamilies(families.value, base: base, into: &theme) }
        if let monospace = top["monospace"], let list = stringList(monospace.value, "monospace") {
            theme.monospaceFamilies = expand(list, theme.families)
        }
        if let roles = top["roles"] { decodeRoles(roles.value, into: &theme) }
        if let colors = top["colors"] { decodeColors(colors.value, into: &theme.colors) }
        if let page = top["page"] { theme.page = decodePage(page.value, base: theme.page) }
        if let folders = top["fontFolders"] { theme.fontFolders += decodeFontFolders(folders.value) }
        if let adjustments = top["sizeAdjust"] { decodeSizeAdjustments(adjustments.value, into: &theme) }
        if let expansion = top["fontExpansion"] { theme.fontExpansion = decodeFontExpansion(expansion.value) }
        // The code section (ThemeCodeSection.swift), after the colours its contrast is checked against.
        var code = ThemeCodeSection(file: file, styles: codeStyles)
        if let section = top["code"] { theme.code = code.decode(section.value, base: theme.code) }
        code.checkContrast(of: theme, fallback: top["code"]?.keyPosition ?? root.position)
        problems += code.problems
        return theme
    }

    /// `fontExpansion`: a percentage from 0 to 5 (`2` is ±2 %), or `false` (none); an error
    /// and the default otherwise.
    mutating func decodeFontExpansion(_ node: JSONNode) -> Double {
        if case .bool(false) = node.value { return 0 }
        if let percent = node.number, (0...5).contains(percent) { return percent / 100 }
        error(node.position, "fontExpansion: expected a percentage from 0 to 5 or false, not \(node.typeName)")
        return Theme.default.fontExpansion
    }

    /// The built-in theme `extends` names; the default theme (and an error) when it names none.
    mutating func baseTheme(named node: JSONNode) -> Theme {
        guard let name = string(node, "extends") else { return .default }
        if let builtIn = ThemeLoader.builtIn(named: name) { return builtIn }
        error(
            node.position,
            "unknown built-in theme '\(name)' in extends; built-in themes are "
                + "\(ThemeLoader.builtInNames.joined(separator: ", "))"
        )
        return .default
    }

    /// `families`: each key's list, also swapped into every inherited role (and the monospace
    /// list) that used the base theme's list for that key.
    mutating func decodeFamilies(_ node: JSONNode, base: Theme, into theme: inout Theme) {
        if node.members == nil {
            error(node.position, "families must be an object of name → family list, not \(node.typeName)")
        }
        for member in node.members ?? [] where !member.key.hasPrefix("$") {
            guard let list = stringList(member.value, "families.\(member.key)") else { continue }
            if let inherited = base.families[member.key] {
                for role in TextRole.allCases where theme[role].families == inherited {
                    theme.styles[role]!.families = list
                }
                if theme.monospaceFamilies == inherited { theme.monospaceFamilies = list }
            }
            theme.families[member.key] = list
        }
    }

    /// `roles`: each role's style over the one `theme` has, reporting unknown and repeated roles.
    mutating func decodeRoles(_ node: JSONNode, into theme: inout Theme) {
        var seen: [TextRole: SourcePosition] = [:]
        if node.members == nil {
            error(node.position, "roles must be an object keyed by role name, not \(node.typeName)")
        }
        for member in node.members ?? [] where !member.key.hasPrefix("$") {
            guard let role = TextRole(name: member.key) else {
                let names = TextRole.allCases.map(\.displayName)
                error(
                    member.keyPosition,
                    "unknown role '\(member.key)'\(suggestion(for: member.key, among: names)); roles are "
                        + "\(names.joined(separator: ", "))"
                )
                continue
            }
            if let first = seen[role] {
                error(member.keyPosition, "role \(role.displayName) is already defined at \(first)")
                continue
            }
            seen[role] = member.keyPosition
            theme.styles[role] = decodeRole(member.value, role: role, base: theme[role], families: theme.families)
        }
    }

    /// `colors`: each name's colour, merged over `colors`.
    mutating func decodeColors(_ node: JSONNode, into colors: inout [String: RGBAColor]) {
        if node.members == nil {
            error(node.position, "colors must be an object of name → \"#RRGGBB\", not \(node.typeName)")
        }
        for member in node.members ?? [] where !member.key.hasPrefix("$") {
            guard let hex = string(member.value, "colors.\(member.key)") else { continue }
            if let color = RGBAColor(hex: hex) {
                colors[member.key] = color
            } else {
                error(
                    member.value.position,
                    "colors.\(member.key): invalid colour '\(hex)'; expected #RGB, #RRGGBB or #RRGGBBAA")
            }
        }
    }

    /// `fontFolders`: the paths resolved against the theme file's folder, each checked to be a
    /// folder of fonts.
    mutating func decodeFontFolders(_ node: JSONNode) -> [String] {
        guard let list = stringList(node, "fontFolders") else { return [] }
        let directory = (file as NSString).deletingLastPathComponent
        let resolved = list.map { path in
            path.hasPrefix("/")
                ? path
                : URL(fileURLWithPath: directory.isEmpty ? "." : directory).appendingPathComponent(path)
                    .standardizedFileURL.path
        }
        // A folder that is not there would fail only when rendering registers it; say so
        // here, at the entry, so `theme check`, `theme import --base` and render agree.
        for (index, path) in resolved.enumerated() {
            var isDirectory: ObjCBool = false
            let position =
                node.array.map { $0.indices.contains(index) ? $0[index].position : node.position } ?? node.position
            guard mayReadFolder(path) else {
                error(position, "fontFolders: '\(list[index])' is outside the folders this render may read; not read")
                continue
            }
            if let system = FontFolderScan.systemFolder(path) {
                let entry = list[index]
                error(position, "fontFolders: '\(entry)' is in \(system), the kernel's files, not a folder of fonts")
                continue
            }
            guard
                !(FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue)
            else { continue }
            error(
                position,
                "fontFolders: '\(list[index])' is not a folder (\(path) "
                    + "\(FileManager.default.fileExists(atPath: path) ? "is a file" : "does not exist"); paths "
                    + "are relative to the theme file)"
            )
        }
        return resolved
    }

    /// `sizeAdjust`: each family's adjustment, merged over the theme's.
    mutating func decodeSizeAdjustments(_ node: JSONNode, into theme: inout Theme) {
        if node.members == nil {
            error(node.position, "sizeAdjust must be an object of family → adjustment, not \(node.typeName)")
        }
        for member in node.members ?? [] where !member.key.hasPrefix("$") {
            if let adjustment = decodeSizeAdjustment(member) { theme.sizeAdjustments[member.key] = adjustment }
        }
    }

    /// One `sizeAdjust` entry: pt to add, or an x-height ratio pair; nil (and an error) when invalid.
    mutating func decodeSizeAdjustment(_ member: JSONNode.Member) -> SizeAdjust? {
        if let points = ValueParsing.points(member.value, allowRem: false), member.value.members == nil {
            return .points(points)
        }
        guard member.value.members != nil else {
            error(
                member.value.position,
                "sizeAdjust.\(member.key): expected pt to add (e.g. -2 or \"-2pt\") or {\"originalRatio\": …, "
                    + "\"newRatio\": …}, not \(member.value.typeName)"
            )
            return nil
        }
        let fields = Dictionary(
            members(of: member.value, what: "sizeAdjust.\(member.key)", known: ["originalRatio", "newRatio"]).map {
                ($0.key, $0.value)
            }, uniquingKeysWith: { $1 })
        guard let originalField = fields["originalRatio"], let newField = fields["newRatio"] else {
            error(
                member.value.position,
                "sizeAdjust.\(member.key): an x-height adjustment needs both originalRatio and newRatio "
                    + "(x-height ÷ em)"
            )
            return nil
        }
        guard let originalRatio = originalField.number, originalRatio > 0 else {
            error(originalField.position, "originalRatio must be a positive number (x-height ÷ em)")
            return nil
        }
        guard let newRatio = newField.number, newRatio > 0 else {
            error(newField.position, "newRatio must be a positive number (x-height ÷ em)")
            return nil
        }
        return .xHeight(originalRatio: originalRatio, newRatio: newRatio)
    }

    /// Family names with `families` keys replaced by their lists; duplicates dropped.
    func expand(_ names: [String], _ families: [String: [String]]) -> [String] {
        var result: [String] = []
        for name in names {
            for family in families[name] ?? [name] where !result.contains(family) { result.append(family) }
        }
        return result
    }

    /// A role's fields by key.
    typealias RoleFields = [String: JSONNode.Member]

    /// One role's style: `base` with the fields the object gives; `families` keys are expanded.
    mutating func decodeRole(_ node: JSONNode, role: TextRole, base: TextStyle, families: [String: [String]])
        -> TextStyle
    {
        let what = "role \(role.displayName)"
        let fields = Dictionary(
            members(of: node, what: what, known: Self.roleKeys).map { ($0.key, $0) }, uniquingKeysWith: { $1 })
        var style = base
        if let familyField = fields["family"], let list = stringList(familyField.value, "\(what): family") {
            style.families = expand(list, families)
        }
        if let weightField = fields["weight"]?.value, let weight = decodeWeight(weightField, what) {
            style.weight = weight
        }
        if let sizeField = fields["size"]?.value { decodeSize(sizeField, fields, what, into: &style) }
        if let relativeToField = fields["relativeTo"]?.value {
            decodeRelativeTo(relativeToField, what, into: &style)
        }
        decodeLineHeight(fields, what, into: &style)
        decodeSpacing(fields, what, into: &style)
        if let italicField = fields["italic"]?.value {
            if let isItalic = italicField.bool {
                style.italic = isItalic
            } else {
                error(italicField.position, "\(what): italic must be true or false, not \(italicField.typeName)")
            }
        }
        if let featuresField = fields["features"]?.value {
            if let list = ValueParsing.features(featuresField) {
                style.features = list
            } else {
                error(
                    featuresField.position,
                    "\(what): features must be an array of strings or a space-separated string (\"tnum ss01\"), not "
                        + "\(featuresField.typeName)"
                )
            }
        }
        decodeCaseAndSpaceAfter(fields, what, into: &style)
        reportLimitProblems(of: style, fields, what)
        return style
    }

    /// A role's `textCase` (``TextCase/init(name:)``), `textDecoration` (``TextDecoration/init(name:)``)
    /// and `spaceAfter` (a length); `"none"` or null removes an inherited value.
    mutating func decodeCaseAndSpaceAfter(_ fields: RoleFields, _ what: String, into style: inout TextStyle) {
        if let node = fields["textCase"]?.value {
            if node.isNull || node.string?.lowercased() == "none" {
                style.textCase = nil
            } else if let textCase = node.string.flatMap(TextCase.init(name:)) {
                style.textCase = textCase
            } else {
                error(node.position, "\(what): textCase must be uppercase, lowercase, capitalize, small-caps or none")
            }
        }
        if let node = fields["textDecoration"]?.value {
            if node.isNull || node.string?.lowercased() == "none" {
                style.textDecoration = nil
            } else if let decoration = node.string.flatMap(TextDecoration.init(name:)) {
                style.textDecoration = decoration
            } else {
                error(node.position, "\(what): textDecoration must be underline, line-through or none")
            }
        }
        if let node = fields["spaceAfter"]?.value {
            if node.isNull {
                style.spaceAfter = nil
            } else if let spaceAfter = length(node, "\(what): spaceAfter") {
                style.spaceAfter = spaceAfter
            }
        }
    }

    /// A role's `weight`: 1–1000 or a weight name; nil (and an error) otherwise.
    mutating func decodeWeight(_ node: JSONNode, _ what: String) -> FontWeight? {
        if let number = node.number {
            if number == number.rounded(), (1...1000).contains(number) { return FontWeight(Int(number)) }
            error(node.position, "\(what): weight must be a whole number 1–1000, not \(node.typeName)")
            return nil
        }
        if let text = node.string, let weight = FontWeight(name: text) { return weight }
        error(
            node.position,
            "\(what): weight must be 1–1000 or a name (thin, extralight, light, regular, medium, semibold, "
                + "bold, extrabold, black), not \(node.typeName)"
        )
        return nil
    }

    /// A role's `size` in pt; an inherited absolute line height scales with it unless the role
    /// sets its own line height.
    mutating func decodeSize(_ node: JSONNode, _ fields: RoleFields, _ what: String, into style: inout TextStyle) {
        if let size = ValueParsing.points(node, allowRem: false), node.members == nil, size > 0,
            node.number != nil || ["pt", "px", ""].contains(ValueParsing.splitUnit(node.string ?? "")?.1 ?? "?")
        {
            if fields["lineHeight"] == nil && fields["lineHeightMultiple"] == nil {
                style.lineHeight = style.lineHeight?.scaled(from: style.size, to: size)
            }
            style.size = size
        } else {
            error(
                node.position,
                "\(what): size must be a positive size in pt — a number or a string like \"17pt\" or \"17px\" — "
                    + "not \(node.typeName)"
            )
        }
    }

    /// A role's `relativeTo`: a Dynamic Type style, or `fixed`/`none`/null for none.
    mutating func decodeRelativeTo(_ node: JSONNode, _ what: String, into style: inout TextStyle) {
        if node.isNull {
            style.relativeTo = nil
        } else if let name = string(node, "\(what): relativeTo") {
            if ["fixed", "none"].contains(name.lowercased()) {
                style.relativeTo = nil
            } else if let dynamicStyle = DynamicTypeStyle(name: name) {
                style.relativeTo = dynamicStyle
            } else {
                error(
                    node.position,
                    "\(what): relativeTo '\(name)' is not a Dynamic Type "
                        + "style\(suggestion(for: name, among: DynamicTypeStyle.allCases.map(\.rawValue))); "
                        + "expected \(DynamicTypeStyle.allCases.map(\.rawValue).joined(separator: ", ")) or "
                        + "\"fixed\""
                )
            }
        }
    }

    /// A role's `lineHeightMultiple` or `lineHeight` (not both).
    mutating func decodeLineHeight(_ fields: RoleFields, _ what: String, into style: inout TextStyle) {
        if let lineHeight = fields["lineHeight"], let multiple = fields["lineHeightMultiple"] {
            error(
                max(lineHeight.keyPosition, multiple.keyPosition),
                "\(what): set either lineHeight or lineHeightMultiple, not both")
        } else if let multipleField = fields["lineHeightMultiple"]?.value {
            if let factor = multipleField.number, factor > 0 {
                style.lineHeight = .multiple(factor)
            } else if multipleField.isNull {
                style.lineHeight = nil
            } else {
                error(
                    multipleField.position,
                    "\(what): lineHeightMultiple must be a positive number (factor × the font's natural height), not "
                        + "\(multipleField.typeName)"
                )
            }
        } else if let lineHeightField = fields["lineHeight"]?.value {
            if lineHeightField.isNull || ["normal", "auto"].contains(lineHeightField.string?.lowercased() ?? "") {
                style.lineHeight = nil
            } else if let text = lineHeightField.string, let (percent, unit) = ValueParsing.splitUnit(text),
                unit == "%", percent > 0
            {
                style.lineHeight = .relativeToSize(percent / 100)
            } else if let factor = Self.unitlessNumber(lineHeightField), factor > 0,
                factor <= LineHeight.largestUnitlessFactor
            {
                // CSS's unitless line-height, as design tokens read it: a multiple of the size.
                style.lineHeight = .relativeToSize(factor)
            } else if let points = ValueParsing.points(lineHeightField, allowRem: false),
                lineHeightField.members == nil, points > 0
            {
                style.lineHeight = .absolute(points)
            } else {
                error(
                    lineHeightField.position,
                    "\(what): lineHeight must be pt (22 or \"22pt\"), a multiple of the size (1.5), a percentage of "
                        + "the size (\"150%\") or \"normal\", not \(lineHeightField.typeName)"
                )
            }
        }
    }

    /// `node`'s number when it is written without a unit: a JSON number or a string of one.
    static func unitlessNumber(_ node: JSONNode) -> Double? {
        if let number = node.number { return number }
        guard let text = node.string?.trimmingCharacters(in: .whitespaces) else { return nil }
        return Double(text)
    }

    /// A role's `kerning` and `tracking` (alias `letterSpacing`, not both); null removes the value.
    mutating func decodeSpacing(_ fields: RoleFields, _ what: String, into style: inout TextStyle) {
        if fields["tracking"] != nil, let letterSpacing = fields["letterSpacing"] {
            error(letterSpacing.keyPosition, "\(what): letterSpacing is an alias of tracking; set only one")
        }
        for key in ["kerning", "tracking", "letterSpacing"] {
            guard let spacingField = fields[key]?.value else { continue }
            let spacing: LetterSpacing?
            if spacingField.isNull {
                spacing = nil
            } else if let parsed = ValueParsing.letterSpacing(spacingField), spacingField.members == nil {
                spacing = parsed
            } else {
                error(
                    spacingField.position,
                    "\(what): \(key) must be pt (-0.4 or \"-0.4pt\"), a percentage of the size (\"-2%\") or em "
                        + "(\"-0.02em\"), not \(spacingField.typeName)"
                )
                continue
            }
            if key == "kerning" { style.kerning = spacing } else { style.tracking = spacing }
        }
    }

    /// The style's out-of-range values, each at the key it names (size, tracking, …), else at the role.
    mutating func reportLimitProblems(of style: TextStyle, _ fields: RoleFields, _ what: String) {
        for problem in style.limitProblems {
            let key = ["size", "tracking", "kerning", "lineHeight"].first { problem.hasPrefix($0) }
            let keyNode =
                key.flatMap { fields[$0] ?? ($0 == "tracking" ? fields["letterSpacing"] : nil) }
                ?? fields["lineHeightMultiple"] ?? fields["lineHeight"]
            error(
                keyNode?.value.position ?? fields.values.first?.keyPosition ?? SourcePosition(line: 1, column: 1),
                "\(what): \(problem)")
        }
        for (key, problem) in style.legibilityProblems {
            let keyNode = fields[key] ?? (key == "tracking" ? fields["letterSpacing"] : nil) ?? fields["size"]
            guard let position = keyNode?.value.position else { continue }
            problems.append(ThemeProblem(file: file, at: position, "\(what): \(problem)", severity: .warning))
        }
    }

    mutating func decodePage(_ node: JSONNode, base: PageSetup) -> PageSetup {
        var page = base
        let fields = Dictionary(
            members(of: node, what: "page", known: ["paper", "margins", "measure", "blockSpacing"]).map {
                ($0.key, $0.value)
            },
            uniquingKeysWith: { $1 })
        if let paperField = fields["paper"], let name = string(paperField, "page.paper") {
            do { page.paper = try PaperSize(parsing: name) } catch {
                self.error(paperField.position, "page.paper: \(error.description)")
            }
        }
        if let marginsField = fields["margins"] {
            // Margins given fix the page: the measure no longer follows the Body face.
            page.measureCharacters = nil
            if marginsField.members != nil {
                let sides = Dictionary(
                    members(of: marginsField, what: "page.margins", known: ["top", "right", "bottom", "left"]).map {
                        ($0.key, $0.value)
                    }, uniquingKeysWith: { $1 })
                if let side = sides["top"].flatMap({ length($0, "page.margins.top") }) { page.margins.top = side }
                if let side = sides["right"].flatMap({ length($0, "page.margins.right") }) { page.margins.right = side }
                if let side = sides["bottom"].flatMap({ length($0, "page.margins.bottom") }) {
                    page.margins.bottom = side
                }
                if let side = sides["left"].flatMap({ length($0, "page.margins.left") }) { page.margins.left = side }
            } else if let text = marginsField.string {
                let parts = text.split(separator: " ").map { ValueParsing.points(String($0), allowRem: false) }
                if (1...4).contains(parts.count), !parts.contains(where: { $0 == nil }) {
                    let lengths = parts.map { $0! }
                    // CSS order: top, right, bottom, left with the usual 1–3 value shorthands.
                    let (top, right, bottom, left): (Double, Double, Double, Double) =
                        lengths.count == 1
                        ? (lengths[0], lengths[0], lengths[0], lengths[0])
                        : lengths.count == 2
                            ? (lengths[0], lengths[1], lengths[0], lengths[1])
                            : lengths.count == 3
                                ? (lengths[0], lengths[1], lengths[2], lengths[1])
                                : (lengths[0], lengths[1], lengths[2], lengths[3])
                    page.margins = Margins(top: top, right: right, bottom: bottom, left: left)
                } else {
                    error(
                        marginsField.position,
                        "page.margins: expected 1–4 lengths with units (\"20mm\", \"20mm 15mm\"), not "
                            + "\(marginsField.typeName)"
                    )
                }
            } else if let all = length(marginsField, "page.margins") {
                page.margins = Margins(all: all)
            }
        }
        if let blockField = fields["blockSpacing"], let spacing = length(blockField, "page.blockSpacing") {
            page.blockSpacing = spacing
        }
        if let measureField = fields["measure"] {
            decodeMeasure(measureField, hasMargins: fields["margins"] != nil, into: &page)
        }
        let margins = page.margins
        if [margins.top, margins.right, margins.bottom, margins.left].contains(where: { $0 < 0 }) {
            error(fields["margins"]?.position ?? node.position, "page.margins: margins must not be negative")
        } else if let problem = page.textAreaProblem {
            error(fields["margins"]?.position ?? fields["paper"]?.position ?? node.position, problem)
        }
        return page
    }

    /// `page.measure`: the measure as a number of characters of Body text
    /// (``PageSetup/measureCharacters``), which makes the margins follow from paper and measure.
    /// An error beside `margins` (the two fix the same width) or outside
    /// ``PageSetup/measureCharactersRange``.
    mutating func decodeMeasure(_ node: JSONNode, hasMargins: Bool, into page: inout PageSetup) {
        let range = PageSetup.measureCharactersRange
        guard let characters = node.number, characters.isFinite else {
            error(node.position, "page.measure: expected a number of characters of Body text, not \(node.typeName)")
            return
        }
        if hasMargins {
            error(node.position, "page.measure: give either a measure in characters or margins, not both")
        } else if !range.contains(characters) {
            let bounds = "\(Int(range.lowerBound))–\(Int(range.upperBound))"
            error(node.position, "page.measure: \(characters.wholePointsText) characters is outside \(bounds)")
        } else {
            page.measureCharacters = characters
        }
    }
}
