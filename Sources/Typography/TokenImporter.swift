import Foundation

/// Imports typography from W3C Design Tokens (DTCG) files and Figma/Tokens Studio exports.
///
/// What is read (sources: DTCG Format Module 2025.10 and its 2022 draft, Tokens Studio docs,
/// tokens-studio/sd-transforms):
/// - Tokens: objects with `$value` (DTCG) or `value` plus `type` (Tokens Studio legacy). A token's
///   type is its `$type`/`type`, else the nearest enclosing group's `$type`. Keys starting with `$`
///   (`$themes`, `$metadata`, `$description`, …) are not tokens.
/// - Typography tokens (`typography` type, or an untyped object value with `fontSize`/`fontFamily`):
///   `fontFamily` (string, comma list or array), `fontSize`, `fontWeight`, `lineHeight`,
///   `letterSpacing`. Other fields (`textCase`, `textDecoration`, `paragraphSpacing`, …) are
///   ignored; unknown ones are warned about.
/// - Aliases `"{group.token}"` anywhere — the whole `$value` or one field — resolved recursively
///   with cycle detection. A reference matches a token's full path or, when unique, a path ending
///   in it (Tokens Studio set files refer without the set name: `{fontSize.17}` finds
///   `global.fontSize.17`). DTCG `{"$ref": "#/json/pointer"}` is followed too.
/// - Units: px = pt; pt; rem × 16; dimension objects `{"value": 16, "unit": "px"}` (2025.10) and
///   strings `"16px"` (2022 draft); bare numbers are px. Line height: a number or unitless string
///   is a multiplier of the font size (DTCG) → ``LineHeight/relativeToSize(_:)``, except above 5,
///   which can only be px (Tokens Studio: unitless = px) → ``LineHeight/absolute(_:)``; `"150%"` (Figma,
///   Tokens Studio) → `.relativeToSize(1.5)`; a dimension → ``LineHeight/absolute(_:)``;
///   `"AUTO"`/`"normal"` → natural. Letter spacing: px/pt/rem → points, `"-2%"` → % of size,
///   `"-0.02em"` → −2 %; zero → none. Weight: 1–1000, numeric strings, DTCG names and Figma style
///   names (`"Semi Bold"`, `"Bold Italic"` → 700 + italic).
/// - Roles: a token maps to the role named by its last path component, else the one before it
///   (`typography.body.regular` → Body), compared case/separator-insensitively with synonyms
///   (``role(forTokenName:)``). `mapping` (full token path or last component → role) wins.
///
/// Imported roles replace `base`'s; the token's families are followed by the base role's families
/// it does not list, so a Latin family keeps the CJK fallback. Roles no token maps to keep `base`'s.
public enum TokenImporter {
    /// The role a token name means: a role name (`body`, `large-title`, `largeTitle`, `Title 2`,
    /// `SubTitle`), an Apple style name (`title1` → Title, `subheadline`/`subhead` → SubTitle,
    /// `caption1` → Caption) or a heading (`h1` … `h6`, ``TextRole/forHeading(level:)``);
    /// case/separator-insensitive. nil otherwise.
    public static func role(forTokenName name: String) -> TextRole? {
        if let role = TextRole(name: name) { return role }
        let key = TextRole.normalizedKey(name)
        switch key {
        case "title1": return .title
        case "subheadline", "subhead": return .subTitle
        case "caption1": return .caption
        default: break
        }
        if key.count == 2, key.first == "h", let level = Int(key.dropFirst()), (1...6).contains(level) {
            return TextRole.forHeading(level: level)
        }
        return nil
    }

    /// Imports the typography tokens of `data` onto `base`.
    /// - Parameters:
    ///   - file: names the source in messages.
    ///   - mapping: token path (`typography.heading.xl`) or last path component (`xl`) → role;
    ///     overrides name matching.
    ///   - base: the theme whose roles, page, colours and families the result starts from.
    /// - Returns: the theme (named after the file) and warnings as `file:line:column: warning: message`
    ///   strings: unknown fields, two tokens for one role, an unresolvable alias in a token
    ///   that has no `$type` (it may not be typography), and one warning listing the typography
    ///   tokens that map to no role.
    /// - Throws: ``ThemeError`` when the data is not valid JSON (with the syntax error's position)
    ///   or not an object; when a typography token has a value it cannot use (a size that is no
    ///   dimension or not positive — `"12furlong"`, `"-3px"` —, a weight that is neither 1–1000
    ///   nor a weight name, a bad line height, letter spacing or family list, an alias that names
    ///   nothing or lies on a cycle); when a token sets a value outside ``TypographicLimits``; or
    ///   when the resulting theme fails ``Theme/validate(file:isFamilyAvailable:)``. A theme
    ///   Typeset would refuse is never imported; problems at the token's value, warnings included.
    public static func importTokens(
        _ data: Data, file: String, mapping: [String: TextRole] = [:], base: Theme = .default
    ) throws -> (theme: Theme, warnings: [String]) {
        let root: JSONNode
        do { root = try JSONSource.parse(data) } catch {
            throw ThemeError(problems: [ThemeProblem(file: file, at: error.position, "invalid JSON: \(error.message)")])
        }
        guard root.members != nil else {
            throw ThemeError(problems: [
                ThemeProblem(
                    file: file, at: root.position, "a design-token file must be a JSON object, not \(root.typeName)")
            ])
        }
        var importer = Importer(file: file, root: root)
        importer.collect(root, path: [], inheritedType: nil)
        let theme = importer.buildTheme(base: base, mapping: mapping)
        if importer.errors.isEmpty { importer.errors = theme.validate(file: file).filter { $0.severity == .error } }
        if !importer.errors.isEmpty {
            throw ThemeError(
                problems: (importer.errors + importer.problems).sorted { ($0.line, $0.column) < ($1.line, $1.column) })
        }
        return (theme, importer.warnings)
    }

    /// The keys of `mapping` that name no typography token of `data`: neither a token's full
    /// path (`typography.heading.xl`) nor the last component of one (`xl`), compared as
    /// ``importTokens(_:file:mapping:base:)`` compares them. Empty when `data` is not a token file
    /// (importing it reports that).
    public static func unmatchedMappings(_ mapping: [String: TextRole], in data: Data) -> [String] {
        guard !mapping.isEmpty, let root = try? JSONSource.parse(data), root.members != nil else { return [] }
        var importer = Importer(file: "", root: root)
        importer.collect(root, path: [], inheritedType: nil)
        _ = importer.buildTheme(base: .default, mapping: [:])
        let names = Set(importer.typographyNames)
        let lastComponents = Set(
            importer.typographyNames.compactMap {
                $0.split(separator: ".").last.map { TextRole.normalizedKey(String($0)) }
            })
        return mapping.keys.sorted().filter {
            !names.contains($0) && !lastComponents.contains(TextRole.normalizedKey($0))
        }
    }

    /// The full paths of `data`'s typography tokens, in file order (for naming what `--map` can take).
    public static func typographyTokenNames(in data: Data) -> [String] {
        guard let root = try? JSONSource.parse(data), root.members != nil else { return [] }
        var importer = Importer(file: "", root: root)
        importer.collect(root, path: [], inheritedType: nil)
        _ = importer.buildTheme(base: .default, mapping: [:])
        return importer.typographyNames
    }
}

private struct Token {
    var path: [String]
    var keyPosition: SourcePosition
    var value: JSONNode
    var type: String?
    var name: String { path.joined(separator: ".") }
}

private struct Importer {
    let file: String
    let root: JSONNode
    var tokens: [Token] = []
    var byPath: [String: Int] = [:]
    /// Warnings, in the order found.
    var problems: [ThemeProblem] = []
    /// Values no theme may hold (``TypographicLimits``): the import is refused.
    var errors: [ThemeProblem] = []
    /// The full paths of the typography tokens ``buildTheme(base:mapping:)`` met, in order.
    var typographyNames: [String] = []
    /// Each token's fully resolved value (nil: unresolvable), so an alias chain of n tokens
    /// costs O(n) in all, not O(n²) per token.
    var resolvedTokens: [Int: JSONNode?] = [:]
    /// Suffix index for references that name a token without its set prefix: every proper
    /// suffix of every token path → the token indices ending in it.
    var bySuffix: [String: [Int]] = [:]

    init(file: String, root: JSONNode) {
        self.file = file
        self.root = root
    }

    var warnings: [String] { problems.map(\.description) }

    mutating func warn(_ position: SourcePosition, _ message: String) {
        problems.append(ThemeProblem(file: file, at: position, message, severity: .warning))
    }

    /// A value a typography token cannot use (wrong type or unit, a name that is no weight, an
    /// alias that resolves to nothing or to itself): the import is refused, as a theme file
    /// with the same value would be (docs/themes.md, "Checking").
    mutating func refuse(_ position: SourcePosition, _ message: String) {
        errors.append(ThemeProblem(file: file, at: position, message))
    }

    /// Whether an unresolvable alias met now is an error (it feeds a typography token or one of
    /// its fields) or a warning (an untyped token that might not be typography at all).
    var aliasesAreErrors = false

    mutating func aliasProblem(_ position: SourcePosition, _ message: String) {
        if aliasesAreErrors { refuse(position, message) } else { warn(position, message) }
    }

    mutating func collect(_ node: JSONNode, path: [String], inheritedType: String?, keyPosition: SourcePosition? = nil)
    {
        guard let members = node.members else { return }
        if let tokenValue = node["$value"] {
            add(
                Token(
                    path: path, keyPosition: keyPosition ?? node.position, value: tokenValue,
                    type: node["$type"]?.string ?? inheritedType))
            return
        }
        let others = Set(members.map(\.key)).subtracting([
            "value", "type", "description", "$extensions", "$description",
        ])
        if let tokenValue = node["value"], node["type"] != nil || others.isEmpty {
            add(
                Token(
                    path: path, keyPosition: keyPosition ?? node.position, value: tokenValue,
                    type: node["type"]?.string ?? inheritedType))
            return
        }
        let groupType = node["$type"]?.string ?? inheritedType
        for member in members where !member.key.hasPrefix("$") {
            collect(member.value, path: path + [member.key], inheritedType: groupType, keyPosition: member.keyPosition)
        }
    }

    mutating func add(_ token: Token) {
        byPath[token.name] = tokens.count
        for start in 1..<max(1, token.path.count) {
            bySuffix[token.path[start...].joined(separator: "."), default: []].append(tokens.count)
        }
        tokens.append(token)
    }

    /// The token a `{reference}` names: exact path, else the unique token whose path ends in it.
    func lookup(_ reference: String) -> Int? {
        if let index = byPath[reference] { return index }
        let matches = bySuffix[reference] ?? []
        return matches.count == 1 ? matches[0] : nil
    }

    /// Token `index`'s value with every alias followed, computed once (memoized); nil when it
    /// cannot be resolved (a warning was given) or lies on a cycle.
    mutating func resolvedValue(of index: Int) -> JSONNode? {
        if let done = resolvedTokens[index] { return done }
        return follow(tokens[index].value, through: [index], visiting: [])
    }

    /// `node` with aliases and `$ref` pointers followed; nil (after a warning) when unresolvable.
    /// `visiting` names what led here, for the cycle message.
    mutating func resolve(_ node: JSONNode, visiting: [String]) -> JSONNode? {
        follow(node, through: [], visiting: visiting)
    }

    /// Follows `node` down its chain of aliases and pointers in a loop (no recursion: a chain of
    /// 100 000 aliases needs no stack), then records the result for every token on the chain
    /// (`pending`), so each token is resolved once: O(n) for n tokens however they chain.
    mutating func follow(_ node: JSONNode, through pending: [Int], visiting: [String]) -> JSONNode? {
        var node = node
        var pending = pending
        var onChain = Set(pending)
        var references = Set<String>()
        var result: JSONNode?? = nil
        func chainText(_ last: String) -> String {
            let names = visiting + pending.map { tokens[$0].name }
            return (names.count > 8 ? ["…"] + names.suffix(7) : names).joined(separator: " → ") + " → " + last
        }
        while result == nil {
            if let text = node.string?.trimmingCharacters(in: .whitespaces), text.hasPrefix("{"), text.hasSuffix("}"),
                !text.dropFirst().dropLast().contains(where: { "{}".contains($0) })
            {
                let reference = String(text.dropFirst().dropLast())
                guard let tokenIndex = lookup(reference) else {
                    aliasProblem(node.position, "alias {\(reference)} names no token")
                    result = .some(nil)
                    break
                }
                if let done = resolvedTokens[tokenIndex] {
                    result = .some(done)
                    break
                }
                if onChain.contains(tokenIndex) || visiting.last == tokens[tokenIndex].name {
                    aliasProblem(node.position, "alias cycle: \(chainText(tokens[tokenIndex].name))")
                    result = .some(nil)
                    break
                }
                pending.append(tokenIndex)
                onChain.insert(tokenIndex)
                node = tokens[tokenIndex].value
            } else if let text = node.string, text.contains("{") {
                aliasProblem(
                    node.position,
                    "unsupported expression '\(text)': only whole-value aliases like {group.token} are resolved")
                result = .some(nil)
            } else if let members = node.members, members.count == 1, let ref = node["$ref"]?.string {
                guard let target = pointer(ref) else {
                    aliasProblem(node.position, "$ref '\(ref)' points to nothing")
                    result = .some(nil)
                    break
                }
                if !references.insert(ref).inserted || visiting.contains(ref) {
                    aliasProblem(node.position, "reference cycle: \(chainText(ref))")
                    result = .some(nil)
                    break
                }
                node = target
            } else {
                result = .some(node)
            }
        }
        let value = result ?? nil
        for tokenIndex in pending { resolvedTokens[tokenIndex] = .some(value) }
        return value
    }

    /// RFC 6901 JSON Pointer (`#/a/b/0`) into the document.
    func pointer(_ ref: String) -> JSONNode? {
        guard ref.hasPrefix("#") else { return nil }
        var node = root
        for raw in ref.dropFirst().split(separator: "/", omittingEmptySubsequences: true) {
            let part = raw.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            if let next = node[part] {
                node = next
            } else if let items = node.array, let index = Int(part), items.indices.contains(index) {
                node = items[index]
            } else {
                return nil
            }
        }
        return node
    }

    func isTypography(_ token: Token, resolved: JSONNode?) -> Bool {
        if let type = token.type { return TextRole.normalizedKey(type) == "typography" }
        guard let typography = resolved, typography.members != nil else { return false }
        return typography["fontSize"] != nil || typography["fontFamily"] != nil
    }

    mutating func buildTheme(base: Theme, mapping: [String: TextRole]) -> Theme {
        var theme = base
        theme.name = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
        var assigned: [TextRole: String] = [:]
        var unmapped: [String] = []
        var firstUnmapped: SourcePosition?
        let normalizedMapping = Dictionary(
            mapping.map { (TextRole.normalizedKey($0.key), $0.value) }, uniquingKeysWith: { a, _ in a })
        for (index, token) in tokens.enumerated() {
            let typed = token.type.map { TextRole.normalizedKey($0) == "typography" } ?? false
            // Untyped tokens are only resolved when they could be typography (objects or aliases).
            guard typed || token.type == nil else { continue }
            guard token.value.members != nil || token.value.string?.hasPrefix("{") == true else { continue }
            aliasesAreErrors = typed
            let resolved = resolvedValue(of: index)
            aliasesAreErrors = true
            guard isTypography(token, resolved: resolved) else { continue }
            guard let value = resolved else { continue }
            guard value.members != nil else {
                refuse(
                    token.value.position,
                    "typography token '\(token.name)' must have an object value (fontFamily, fontSize, …), not "
                        + "\(value.typeName)"
                )
                continue
            }
            typographyNames.append(token.name)
            let role =
                mapping[token.name]
                ?? token.path.last.flatMap { normalizedMapping[TextRole.normalizedKey($0)] }
                ?? token.path.last.flatMap(TokenImporter.role(forTokenName:))
                ?? (token.path.count >= 2 ? TokenImporter.role(forTokenName: token.path[token.path.count - 2]) : nil)
            guard let role else {
                unmapped.append("\(token.name) (\(token.keyPosition))")
                firstUnmapped = firstUnmapped ?? token.keyPosition
                continue
            }
            if let first = assigned[role] {
                warn(
                    token.keyPosition,
                    "tokens '\(first)' and '\(token.name)' both map to \(role.displayName); using '\(first)'")
                continue
            }
            assigned[role] = token.name
            theme.styles[role] = style(from: value, token: token, base: theme[role])
        }
        if let firstUnmapped {
            // At the first such token, so the line reads `file:line:column: warning: …` like every other.
            problems.append(
                ThemeProblem(
                    file: file, line: firstUnmapped.line, column: firstUnmapped.column,
                    message:
                        "typography tokens not mapped to a role (name them after a role or pass a mapping): "
                        + "\(unmapped.joined(separator: ", "))",
                    severity: .warning))
        }
        return theme
    }

    static let knownFields: Set<String> = [
        "fontFamily", "fontSize", "fontWeight", "lineHeight", "letterSpacing",
        "textCase", "textDecoration", "paragraphSpacing", "paragraphIndent", "fontStyle",
    ]

    mutating func style(from value: JSONNode, token: Token, base: TextStyle) -> TextStyle {
        var style = base
        let name = token.name
        var field: [String: JSONNode] = [:]
        for member in value.members! where !member.key.hasPrefix("$") {
            if Self.knownFields.contains(member.key) {
                if let resolvedValue = resolve(member.value, visiting: [name]) { field[member.key] = resolvedValue }
            } else {
                warn(member.keyPosition, "token '\(name)': unknown typography field '\(member.key)' ignored")
            }
        }
        if let familyField = field["fontFamily"] {
            var families: [String] = []
            if let text = familyField.string {
                families = text.split(separator: ",").map {
                    $0.trimmingCharacters(in: CharacterSet(charactersIn: " \"'"))
                }
                .filter { !$0.isEmpty }
            } else if let items = familyField.array, items.allSatisfy({ $0.string != nil }) {
                families = items.compactMap(\.string)
            }
            if families.isEmpty {
                refuse(
                    familyField.position,
                    "token '\(name)': fontFamily must be a string or an array of strings, not \(familyField.typeName)"
                )
            } else {
                style.families = families + base.families.filter { !families.contains($0) }
            }
        }
        if let weightField = field["fontWeight"] {
            if let number = weightField.number, (1...1000).contains(number) {
                style.weight = FontWeight(Int(number.rounded()))
            } else if let text = weightField.string, let (weight, italic) = Self.weight(text) {
                style.weight = weight
                if italic { style.italic = true }
            } else {
                refuse(
                    weightField.position,
                    "token '\(name)': fontWeight must be 1–1000 or a weight name, not \(weightField.typeName)")
            }
        }
        if let fontStyle = field["fontStyle"]?.string?.lowercased(), fontStyle == "italic" || fontStyle == "oblique" {
            style.italic = true
        }
        if let sizeField = field["fontSize"] {
            if let pt = ValueParsing.points(sizeField), pt > 0 {
                if field["lineHeight"] == nil { style.lineHeight = style.lineHeight?.scaled(from: style.size, to: pt) }
                style.size = pt
            } else if ValueParsing.points(sizeField) != nil {
                refuse(sizeField.position, "token '\(name)': fontSize must be more than 0, not \(sizeField.typeName)")
            } else {
                refuse(
                    sizeField.position,
                    "token '\(name)': fontSize must be a dimension (16, \"16px\", \"12pt\", \"1rem\", {\"value\": 16, "
                        + "\"unit\": \"px\"}), not \(sizeField.typeName)"
                )
            }
        }
        if let lineHeightField = field["lineHeight"] {
            // Unitless: a multiplier of fontSize (DTCG); above 5 it can only be px (Tokens Studio
            // treats unitless as px, and no real multiplier is that large).
            if let number = lineHeightField.number, number > 0 {
                style.lineHeight = number > 5 ? .absolute(number) : .relativeToSize(number)
            } else if let text = lineHeightField.string, ["auto", "normal"].contains(text.lowercased()) {
                style.lineHeight = nil
            } else if let text = lineHeightField.string, let (amount, unit) = ValueParsing.splitUnit(text), amount > 0,
                unit == "%" || unit == ""
            {
                style.lineHeight =
                    unit == "%"
                    ? .relativeToSize(amount / 100) : amount > 5 ? .absolute(amount) : .relativeToSize(amount)
            } else if let pt = ValueParsing.points(lineHeightField), pt > 0 {
                style.lineHeight = .absolute(pt)
            } else {
                refuse(
                    lineHeightField.position,
                    "token '\(name)': lineHeight must be a multiplier (1.5), a percentage (\"150%\") or a dimension "
                        + "(\"24px\"), not \(lineHeightField.typeName)"
                )
            }
        }
        if let ls = field["letterSpacing"] {
            if let spacing = ValueParsing.letterSpacing(ls) {
                style.tracking = spacing.points(atSize: 1) == 0 ? nil : spacing
            } else {
                refuse(
                    ls.position,
                    "token '\(name)': letterSpacing must be a dimension (\"0.5px\") or a percentage (\"-2%\"), not "
                        + "\(ls.typeName)"
                )
            }
        }
        // The limits every theme obeys (Theme.validate): a value outside them is an error at
        // the field that set it, so `theme check` and `theme import` agree.
        for problem in style.limitProblems {
            let key =
                problem.hasPrefix("size") ? "fontSize" : problem.hasPrefix("tracking") ? "letterSpacing" : "lineHeight"
            let position =
                field[key]?.position ?? value.members?.first(where: { $0.key == key })?.value.position
                ?? token.keyPosition
            errors.append(ThemeProblem(file: file, at: position, "token '\(name)': \(problem)"))
        }
        return style
    }

    /// Weight from a DTCG name, a Figma style name (`Semi Bold`, `Bold Italic`) or a numeric string.
    static func weight(_ text: String) -> (FontWeight, Bool)? {
        var key = TextRole.normalizedKey(text)
        let italic = key.hasSuffix("italic")
        if italic { key = String(key.dropLast("italic".count)) }
        if key.isEmpty { return (.regular, italic) }
        if ["extrablack", "ultrablack"].contains(key) { return (FontWeight(950), italic) }
        return FontWeight(name: key).map { ($0, italic) }
    }
}
