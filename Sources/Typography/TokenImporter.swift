import Foundation

/// Imports typography from W3C Design Tokens (DTCG) files, Figma/Tokens Studio exports and
/// Figma REST API variables (``TokenReader/collectFigmaVariables(_:)``).
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
///   Tokens Studio) and `"1.5em"` → `.relativeToSize(1.5)`; a dimension → ``LineHeight/absolute(_:)``;
///   `"AUTO"`/`"normal"` → natural. Letter spacing: px/pt/rem → points, `"-2%"` → % of size,
///   `"-0.02em"` → −2 %; zero and `"normal"` → none. Weight: 1–1000, numeric strings, DTCG names and Figma style
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
    /// `caption1` → Caption) or a heading (`h1` … `h6`, `heading-1` … `heading-6`,
    /// ``TextRole/forHeading(level:)``);
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
        // `h1` … `h6`, and `heading-1` … `heading-6` as teams name them after HTML's elements
        // (Carbon's zero-padded `heading-01`, its smallest, is its own scheme: ``TokenRoleGuess``).
        for prefix in ["h", "heading"] where key.count == prefix.count + 1 && key.hasPrefix(prefix) {
            if let level = Int(key.dropFirst(prefix.count)), (1...6).contains(level) {
                return TextRole.forHeading(level: level)
            }
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
        var importer = TokenReader(file: file, root: root)
        for repeated in root.repeatedKeys() {
            importer.warn(repeated.again, JSONNode.repeatedKeyMessage(repeated.key, first: repeated.first))
        }
        importer.collectRoot()
        let theme = importer.buildTheme(base: base, mapping: mapping)
        if importer.errors.isEmpty { importer.errors = theme.validate(file: file).filter { $0.severity == .error } }
        if !importer.errors.isEmpty {
            throw ThemeError(
                problems: (importer.errors + importer.problems).sorted { ($0.line, $0.column) < ($1.line, $1.column) })
        }
        return (theme, importer.warnings)
    }

    /// How many roles the typography tokens of `data` set, with `mapping` and the built-in
    /// guess, as ``importTokens(_:file:mapping:base:)`` assigns them: 0 when the file has no
    /// typography token, none maps to a role, or it is no token file.
    public static func rolesSet(in data: Data, mapping: [String: TextRole] = [:]) -> Int {
        guard let root = try? JSONSource.parse(data), root.members != nil else { return 0 }
        var importer = TokenReader(file: "", root: root)
        importer.collectRoot()
        _ = importer.buildTheme(base: .default, mapping: mapping)
        return importer.rolesAssigned
    }

    /// The keys of `mapping` that name no typography token of `data`: neither a token's full
    /// path (`typography.heading.xl`) nor the last component of one (`xl`), compared as
    /// ``importTokens(_:file:mapping:base:)`` compares them. Empty when `data` is not a token file
    /// (importing it reports that).
    public static func unmatchedMappings(_ mapping: [String: TextRole], in data: Data) -> [String] {
        guard !mapping.isEmpty, let found = typographyPaths(in: data) else { return [] }
        let names = Set(found.names + found.withSets)
        let lastComponents = Set(
            found.names.compactMap {
                $0.split(separator: ".").last.map { TextRole.normalizedKey(String($0)) }
            })
        return mapping.keys.sorted().filter {
            !names.contains($0) && !lastComponents.contains(TextRole.normalizedKey($0))
        }
    }

    /// The keys of `mapping` that are no token's full path and the last part of two or more
    /// typography tokens of `data` (`body` for `typography.desktop.body` and
    /// `typography.mobile.body`), each with those tokens' paths: such a key reads more than one
    /// way, and the command line refuses it rather than map whichever comes first.
    public static func ambiguousMappings(_ mapping: [String: TextRole], in data: Data) -> [(
        key: String, tokens: [String]
    )] {
        guard !mapping.isEmpty, let found = typographyPaths(in: data) else { return [] }
        let names = Set(found.names + found.withSets)
        return mapping.keys.sorted().compactMap { key in
            guard !names.contains(key) else { return nil }
            let matches = found.names.filter {
                $0.split(separator: ".").last.map { TextRole.normalizedKey(String($0)) } == TextRole.normalizedKey(key)
            }
            return matches.count > 1 ? (key, matches) : nil
        }
    }

    /// Whether `data` is a design-token file rather than a theme file: it has a DTCG `$value` or
    /// `$type`, Tokens Studio `$themes` or `$metadata`, or (Tokens Studio legacy, Style Dictionary
    /// v3) an object with a `value` member while its top level has no theme `roles` or `extends`
    /// (no theme file holds a `value` key). `theme check`, `theme import` and `render --theme`
    /// all decide by this rule, so they accept and refuse the same files.
    public static func isTokenFile(_ data: Data) -> Bool {
        let text = String(decoding: data, as: UTF8.self)
        if ["\"$value\"", "\"$type\"", "\"$themes\"", "\"$metadata\""].contains(where: { text.contains($0) }) {
            return true
        }
        if text.contains("\"variableCollections\""), let root = try? JSONSource.parse(data),
            TokenReader.figmaVariables(root) != nil
        {
            return true
        }
        guard text.contains("\"value\"") else { return false }
        // JSON that does not parse is judged by its text, so both commands give the same syntax error.
        guard let root = try? JSONSource.parse(data) else {
            return !text.contains("\"roles\"") && !text.contains("\"extends\"")
        }
        guard let members = root.members, !members.contains(where: { $0.key == "roles" || $0.key == "extends" })
        else { return false }
        var nodes = members.map(\.value)
        while let node = nodes.popLast() {
            guard let children = node.members else { continue }
            if children.contains(where: { $0.key == "value" }) { return true }
            nodes += children.map(\.value)
        }
        return false
    }

    /// The full paths of `data`'s typography tokens, in file order (for naming what `--map` can take).
    public static func typographyTokenNames(in data: Data) -> [String] {
        typographyPaths(in: data)?.names ?? []
    }

    /// The paths of the typography tokens of `data`, and the same with their Tokens Studio set
    /// (`global.typography.body`); nil when `data` is no JSON object.
    static func typographyPaths(in data: Data) -> (names: [String], withSets: [String])? {
        guard let root = try? JSONSource.parse(data), root.members != nil else { return nil }
        var importer = TokenReader(file: "", root: root)
        importer.collectRoot()
        _ = importer.buildTheme(base: .default, mapping: [:])
        return (importer.typographyNames, importer.typographySetNames)
    }
}

struct DesignToken {
    var path: [String]
    var keyPosition: SourcePosition
    var value: JSONNode
    var type: String?
    /// The token's `$extensions` object, if any (vendor data, ``ThemeExport/extensionKey``).
    var extensions: JSONNode?
    /// The Tokens Studio set it comes from, when the file has sets (its path leaves the set out).
    var tokenSet: String?
    var name: String { path.joined(separator: ".") }
    /// The name with its set (`global.typography.body`), as a mapping may also write it.
    var nameWithSet: String? { tokenSet.map { $0 + "." + name } }
}

struct TokenReader {
    let file: String
    let root: JSONNode
    var tokens: [DesignToken] = []
    var byPath: [String: Int] = [:]
    /// Warnings, in the order found.
    var problems: [ThemeProblem] = []
    /// Values no theme may hold (``TypographicLimits``): the import is refused.
    var errors: [ThemeProblem] = []
    /// The full paths of the typography tokens ``buildTheme(base:mapping:)`` met, in order.
    var typographyNames: [String] = []
    /// The same with their Tokens Studio set names (`global.typography.body`), when the file has sets.
    var typographySetNames: [String] = []
    /// The Tokens Studio set being read, if any.
    var currentSet: String?
    /// Tokens a used value was resolved through (typography mapped to a role, colours).
    var used = Set<Int>()
    /// Whether ``follow(_:through:visiting:)`` records the tokens it passes as used.
    var markingUse = false
    /// Tokens made from a group of property tokens (Material 3 `…body-large.size`, `.weight`, …).
    var synthesized = Set<Int>()
    /// How many roles ``buildTheme(base:mapping:)`` gave a token.
    var rolesAssigned = 0
    /// Tokens Studio sets that were not read (disabled in the theme chosen), for the report.
    var skippedSets: [String] = []
    /// Each token's fully resolved value (nil: unresolvable), so an alias chain of n tokens
    /// costs O(n) in all, not O(n²) per token.
    var resolvedTokens: [Int: JSONNode?] = [:]
    /// Why a token resolved to nothing: the problem its chain met (an alias naming no token, a
    /// cycle), said as a warning then; a typography value that needs the token later says it
    /// again as the error, in its place.
    var unresolvedReasons: [Int: ThemeProblem] = [:]
    /// The last alias problem said (``aliasProblem(_:_:)``).
    var lastAliasProblem: ThemeProblem?
    /// How many aliases that name no token were given a suggestion (``aliasSuggestion(_:)``).
    var suggestionsGiven = 0
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

    /// How many expressions are being evaluated, each inside the one before (an expression's
    /// alias whose token is an expression in turn), and the most allowed: each level is a
    /// call within a call, so a file of 100,000 such tokens chained would overflow the stack.
    /// Design tools chain a handful (Tokens Studio's scale steps, `{size.3} * 1.25`).
    var expressionDepth = 0
    static let expressionDepthLimit = 100

    mutating func aliasProblem(_ position: SourcePosition, _ message: String) {
        if aliasesAreErrors { refuse(position, message) } else { warn(position, message) }
        lastAliasProblem = ThemeProblem(file: file, at: position, message)
    }

    mutating func collect(_ node: JSONNode, path: [String], inheritedType: String?, keyPosition: SourcePosition? = nil)
    {
        guard let members = node.members else { return }
        for key in ["$type", "type"] { checkType(node[key]) }
        if let tokenValue = node["$value"] {
            add(
                DesignToken(
                    path: path, keyPosition: keyPosition ?? node.position, value: tokenValue,
                    type: node["$type"]?.string ?? inheritedType, extensions: node["$extensions"]))
            return
        }
        // Style Dictionary v3 lets a token carry `comment`, `attributes`, `themeable` and what its
        // build adds (`name`, `path`, `original`, `filePath`, `isSource`).
        let others = Set(members.map(\.key)).subtracting([
            "value", "type", "description", "$extensions", "$description", "comment", "attributes", "themeable",
            "name", "path", "original", "filePath", "isSource",
        ])
        if let tokenValue = node["value"], node["type"] != nil || others.isEmpty {
            add(
                DesignToken(
                    path: path, keyPosition: keyPosition ?? node.position, value: tokenValue,
                    type: node["type"]?.string ?? inheritedType, extensions: node["$extensions"]))
            return
        }
        let groupType = node["$type"]?.string ?? inheritedType
        for member in members where !member.key.hasPrefix("$") {
            // A flat export writes a path as one key (`"md.sys.typescale.body-large.size"`); DTCG
            // names never hold a dot, so the key is a path.
            let components = member.key.split(separator: ".").map(String.init)
            collect(
                member.value, path: path + (components.isEmpty ? [member.key] : components), inheritedType: groupType,
                keyPosition: member.keyPosition)
        }
    }

    /// Warns at a `$type` (or `type`) one slip from a type DTCG or Tokens Studio defines
    /// (``TokenReader/TokenTypes``): `typograhpy` makes its token no typography, which was
    /// said only as a token not used, far from where it is written.
    mutating func checkType(_ node: JSONNode?) {
        guard let node, let type = node.string, !Self.TokenTypes.known.contains(type) else { return }
        let hint = suggestion(for: type, among: Array(Self.TokenTypes.known).sorted())
        guard !hint.isEmpty else { return }
        warn(node.position, "unknown token type '\(type)'\(hint) (its token is not read as that type)")
    }

    mutating func add(_ token: DesignToken) {
        var token = token
        token.tokenSet = currentSet
        if let existing = byPath[token.name] {
            // A later Tokens Studio set overrides a token of an earlier one (its paths carry no set name).
            tokens[existing] = token
            return
        }
        byPath[token.name] = tokens.count
        for start in 1..<max(1, token.path.count) {
            bySuffix[token.path[start...].joined(separator: "."), default: []].append(tokens.count)
        }
        tokens.append(token)
    }

    /// The token a `{reference}` names: exact path, else the unique token whose path ends in it.
    /// Style Dictionary v3 references name the token's `value` (`{font.size.base.value}`): that
    /// suffix is dropped when the path with it names nothing.
    /// `; did you mean {path}?` when a token's path is a slip away from `reference`, else "":
    /// looked for while the file has at most 2,000 tokens and for its first 16 aliases that name
    /// none, so that a file of many tokens and broken aliases costs no more than its size.
    mutating func aliasSuggestion(_ reference: String) -> String {
        guard tokens.count <= 2_000, suggestionsGiven < 16 else { return "" }
        suggestionsGiven += 1
        let best = byPath.keys.map { ($0, editDistance(reference, $0)) }.min { ($0.1, $0.0) < ($1.1, $1.0) }
        guard let best, best.1 <= min(2, max(1, reference.count / 4)) else { return "" }
        return "; did you mean {\(best.0)}?"
    }

    func lookup(_ reference: String) -> Int? {
        if let index = byPath[reference] { return index }
        let matches = bySuffix[reference] ?? []
        if matches.count == 1 { return matches[0] }
        if reference.hasSuffix(".value") { return lookup(String(reference.dropLast(".value".count))) }
        return nil
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
                    aliasProblem(node.position, "alias {\(reference)} names no token" + aliasSuggestion(reference))
                    result = .some(nil)
                    break
                }
                if let done = resolvedTokens[tokenIndex] {
                    if done == nil && aliasesAreErrors {
                        // Found unresolvable before, as a token that might not have been typography
                        // (a warning then); a typography value that needs it is refused, with the
                        // problem its chain met, where it is written, instead of that warning.
                        if let reason = unresolvedReasons[tokenIndex] {
                            problems.removeAll {
                                $0.line == reason.line && $0.column == reason.column && $0.message == reason.message
                            }
                            errors.append(reason)
                        } else {
                            refuse(
                                node.position,
                                "alias {\(reference)} cannot be resolved: '\(tokens[tokenIndex].name)' has no value")
                        }
                    }
                    // The tokens on this chain are unresolvable for the same reason.
                    if done == nil { lastAliasProblem = unresolvedReasons[tokenIndex] }
                    result = .some(done)
                    break
                }
                if onChain.contains(tokenIndex) || visiting.contains(tokens[tokenIndex].name) {
                    aliasProblem(node.position, "alias cycle: \(chainText(tokens[tokenIndex].name))")
                    result = .some(nil)
                    break
                }
                pending.append(tokenIndex)
                onChain.insert(tokenIndex)
                node = tokens[tokenIndex].value
            } else if let text = node.string, text.contains("{") || TokenExpressions.isArithmetic(text) {
                result = .some(
                    expression(text, at: node.position, visiting: visiting + pending.map { tokens[$0].name }))
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
        for tokenIndex in pending {
            resolvedTokens[tokenIndex] = .some(value)
            if value == nil, let reason = lastAliasProblem { unresolvedReasons[tokenIndex] = reason }
        }
        if markingUse { used.formUnion(pending) }
        return value
    }

    /// A value with aliases inside it (`{size.base} * 1.25`) or arithmetic without one
    /// (`16 * 1.25`, ``TokenExpressions/isArithmetic(_:)``): each alias replaced by its resolved
    /// number or dimension, then evaluated (``TokenExpressions``); nil (after a problem saying
    /// why) when an alias resolves to nothing or the result is no arithmetic.
    mutating func expression(_ text: String, at position: SourcePosition, visiting: [String]) -> JSONNode? {
        guard expressionDepth < Self.expressionDepthLimit else {
            aliasProblem(
                position, "expression '\(text)': expressions nest more than \(Self.expressionDepthLimit) deep")
            return nil
        }
        expressionDepth += 1
        defer { expressionDepth -= 1 }
        var substituted = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            substituted += rest[..<open]
            let reference = String(rest[rest.index(after: open)..<close])
            // `{a{b}`: no alias (and followed as one, it would be this expression again).
            guard !reference.contains("{") else {
                aliasProblem(position, "expression '\(text)': '{\(reference)}' is no alias (a brace inside braces)")
                return nil
            }
            let aliasNode = JSONNode(value: .string("{\(reference)}"), position: position)
            guard let value = follow(aliasNode, through: [], visiting: visiting) else { return nil }
            if let number = value.number {
                substituted += "\(number)"
            } else if let string = value.string {
                substituted += "(" + string + ")"
            } else if let amount = value["value"]?.number, let unit = value["unit"]?.string {
                substituted += "(\(amount)\(unit))"
            } else {
                aliasProblem(position, "expression '\(text)': {\(reference)} is \(value.typeName), not a number")
                return nil
            }
            rest = rest[rest.index(after: close)...]
        }
        substituted += rest
        switch TokenExpressions.evaluate(substituted) {
        case .success(let result):
            return JSONNode(value: .string(result), position: position)
        case .failure(let failure):
            aliasProblem(position, Self.expressionProblem(text, failure))
            return nil
        }
    }

    /// What is wrong with the expression `text`, and what it may hold instead.
    static func expressionProblem(_ text: String, _ failure: TokenExpressions.Failure) -> String {
        let rules = "(numbers and dimensions with + - * / and parentheses, one unit: px, pt, rem, em or %)"
        switch failure {
        case .divisionByZero:
            return "expression '\(text)' divides by zero"
        case .syntax:
            return "expression '\(text)' is not arithmetic \(rules)"
        case .unknownUnit(let unit):
            return "expression '\(text)' is not arithmetic: '\(unit)' is no unit \(rules)"
        case .mixedUnits(let first, let second):
            return "expression '\(text)' is not arithmetic: it mixes \(first) and \(second) (a sum's terms share "
                + "one unit; of a product or quotient, one operand has a unit)"
        case .outOfRange:
            return "expression '\(text)' gives a number too large to hold (beyond 1.8e308); write smaller factors"
        }
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

    /// The token a JSON pointer (`#/base/$value`, `#/size/body/$value/value`) points into: the
    /// longest run of its first parts that is a token's path; nil for none.
    func token(atPointer ref: String) -> Int? {
        guard ref.hasPrefix("#") else { return nil }
        let parts = ref.dropFirst().split(separator: "/", omittingEmptySubsequences: true).map {
            $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
        for count in stride(from: parts.count, through: 1, by: -1) {
            if let index = byPath[parts.prefix(count).joined(separator: ".")] { return index }
        }
        return nil
    }

    func isTypography(_ token: DesignToken, resolved: JSONNode?) -> Bool {
        if let type = token.type { return TextRole.normalizedKey(type) == "typography" }
        guard let typography = resolved, typography.members != nil else { return false }
        return typography["fontSize"] != nil || typography["fontFamily"] != nil
    }

    mutating func buildTheme(base: Theme, mapping: [String: TextRole]) -> Theme {
        var theme = base
        theme.name = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
        var assigned: [TextRole: Int] = [:]
        var unmapped: [Int] = []
        var guessed: [(token: Int, role: TextRole, scheme: TokenRoleGuess.Scheme)] = []
        var candidates: [(index: Int, role: TextRole, scheme: TokenRoleGuess.Scheme?, value: JSONNode)] = []
        let normalizedMapping = Dictionary(
            mapping.map { (TextRole.normalizedKey($0.key), $0.value) }, uniquingKeysWith: { first, _ in first })
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
            if let withSet = token.nameWithSet { typographySetNames.append(withSet) }
            guard let (role, scheme) = role(of: token, mapping: mapping, normalizedMapping: normalizedMapping) else {
                unmapped.append(index)
                continue
            }
            candidates.append((index, role, scheme, value))
        }
        // A mapping wins over names and guesses whatever the file order; otherwise the first token.
        let ordered =
            candidates.filter { isMapped(tokens[$0.index], mapping, normalizedMapping) }
            + candidates.filter { !isMapped(tokens[$0.index], mapping, normalizedMapping) }
        for (index, role, scheme, value) in ordered {
            let token = tokens[index]
            if let first = assigned[role] {
                warn(
                    token.keyPosition,
                    "tokens '\(tokens[first].name)' and '\(token.name)' both map to \(role.displayName); using "
                        + "'\(tokens[first].name)'")
                continue
            }
            assigned[role] = index
            if let scheme { guessed.append((index, role, scheme)) }
            markUsed(index)
            var imported = style(from: value, token: token, base: theme[role])
            applyTypesetExtension(of: token, to: &imported)
            theme.styles[role] = imported
        }
        importColors(into: &theme)
        importCodeFamilies(into: &theme)
        reportGuesses(guessed)
        reportUnused(unmappedTypography: unmapped)
        if !assigned.isEmpty { reportBaseRoles(theme: theme, base: base, assigned: assigned) }
        rolesAssigned = assigned.count
        return theme
    }

    /// The role `token` maps to, and the naming scheme when it was guessed: a mapping (full path,
    /// then last component), the last component as a role name, the built-in guess
    /// (``TokenRoleGuess``), then the component before the last as a role name
    /// (`typography.body.regular` → Body).
    func role(of token: DesignToken, mapping: [String: TextRole], normalizedMapping: [String: TextRole])
        -> (TextRole, TokenRoleGuess.Scheme?)?
    {
        if let role = mapping[token.name] ?? token.nameWithSet.flatMap({ mapping[$0] }) { return (role, nil) }
        guard let last = token.path.last else { return nil }
        if let role = normalizedMapping[TextRole.normalizedKey(last)] { return (role, nil) }
        if let role = TokenImporter.role(forTokenName: last) { return (role, nil) }
        if let (role, scheme) = TokenRoleGuess.guess(last) { return (role, scheme) }
        // `…title-small.regular`: a Material or Carbon style name without a role keeps none.
        if token.path.count >= 2, !TokenRoleGuess.isStyleName(token.path[token.path.count - 2]),
            let role = TokenImporter.role(forTokenName: token.path[token.path.count - 2])
        {
            return (role, nil)
        }
        return nil
    }

    /// Whether a mapping (full path, path with its set, or last component) names `token`.
    func isMapped(_ token: DesignToken, _ mapping: [String: TextRole], _ normalizedMapping: [String: TextRole]) -> Bool
    {
        mapping[token.name] != nil || token.nameWithSet.map { mapping[$0] != nil } == true
            || token.path.last.map { normalizedMapping[TextRole.normalizedKey($0)] != nil } == true
    }

    /// Marks token `index` and every token its value refers to (aliases, expressions, `$ref`
    /// pointers are followed by path) as used.
    mutating func markUsed(_ index: Int) {
        var pending = [index]
        while let next = pending.popLast() {
            guard used.insert(next).inserted else { continue }
            var nodes = [tokens[next].value]
            while let node = nodes.popLast() {
                if let members = node.members { nodes += members.map(\.value) }
                if let items = node.array { nodes += items }
                if let ref = node["$ref"]?.string, let target = token(atPointer: ref) { pending.append(target) }
                guard let text = node.string else { continue }
                var rest = Substring(text)
                while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
                    if let target = lookup(String(rest[rest.index(after: open)..<close])) { pending.append(target) }
                    rest = rest[rest.index(after: close)...]
                }
            }
        }
    }

    /// What is wrong with a dimension written as a DTCG object (`{"value": 16, "unit": "px"}`)
    /// that Typeset cannot read: its value that is no number, or its unit; nil for any other node.
    static func dimensionObjectProblem(_ node: JSONNode) -> String? {
        guard node.members != nil else { return nil }
        guard let value = node["value"] else { return "is an object without \"value\"" }
        guard value.number != nil else { return "has a \"value\" that is \(value.typeName), not a number" }
        guard let unit = node["unit"]?.string else { return "has no \"unit\" string (px or rem)" }
        guard ValueParsing.points("1\(unit)") != nil else {
            return "has the unit '\(unit)', which is not px or rem (DTCG's dimension units), pt, mm, cm or in"
        }
        return nil
    }

    /// `value` pt written as short as it reads: `10.5`, `12`.
    static func points(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%g", value)
    }

    /// The token an alias written as `node` ends at, through aliases to aliases (at most a
    /// thousand steps; a cycle is named where the value is resolved), with its `$type`; nil
    /// when `node` is no alias or names no token.
    func aliasTarget(of node: JSONNode) -> (name: String, type: String?)? {
        var node = node
        var target: (name: String, type: String?)?
        for _ in 0..<1000 {
            guard let text = node.string?.trimmingCharacters(in: .whitespaces), text.hasPrefix("{"),
                text.hasSuffix("}"),
                let index = lookup(String(text.dropFirst().dropLast()))
            else { break }
            target = (tokens[index].name, tokens[index].type)
            node = tokens[index].value
        }
        return target
    }

    /// The token types (DTCG's, and the Tokens Studio plugin's) and which of them a typography
    /// field may refer to: a `fontFamily` that is an alias of a colour token is refused, not
    /// read as a family named `#3355ff`. A type not known here (a tool's own) is not judged.
    enum TokenTypes {
        static let known: Set<String> = [
            "color", "dimension", "fontFamily", "fontWeight", "duration", "cubicBezier", "number", "strokeStyle",
            "border", "transition", "shadow", "gradient", "typography", "sizing", "spacing", "borderRadius",
            "borderWidth", "opacity", "fontFamilies", "fontWeights", "fontSizes", "lineHeights", "letterSpacing",
            "paragraphSpacing", "paragraphIndent", "textCase", "textDecoration", "boxShadow", "composition", "asset",
            "boolean", "text", "other", "fontSize", "lineHeight", "fontStyle", "string", "percentage",
        ]
        static let accepts: [String: Set<String>] = [
            "fontFamily": ["fontFamily", "fontFamilies", "text", "string", "other"],
            "fontWeight": ["fontWeight", "fontWeights", "number", "text", "string", "other"],
            "fontSize": ["dimension", "fontSize", "fontSizes", "number", "sizing", "spacing", "other"],
            "lineHeight": ["lineHeight", "lineHeights", "dimension", "number", "sizing", "percentage", "other"],
            "letterSpacing": ["letterSpacing", "dimension", "number", "sizing", "percentage", "other"],
        ]
        static let what: [String: String] = [
            "fontFamily": "a font family", "fontWeight": "a font weight", "fontSize": "a dimension",
            "lineHeight": "a line height", "letterSpacing": "a letter spacing",
        ]
    }

    static let knownFields: Set<String> = [
        "fontFamily", "fontSize", "fontWeight", "lineHeight", "letterSpacing",
        "textCase", "textDecoration", "paragraphSpacing", "paragraphIndent", "fontStyle",
    ]

    mutating func style(from value: JSONNode, token: DesignToken, base: TextStyle) -> TextStyle {
        var style = base
        let name = token.name
        var field: [String: JSONNode] = [:]
        for member in value.members! where !member.key.hasPrefix("$") {
            if Self.knownFields.contains(member.key) {
                if let target = aliasTarget(of: member.value), let type = target.type,
                    let accepted = Self.TokenTypes.accepts[member.key],
                    Self.TokenTypes.known.contains(type), !accepted.contains(type)
                {
                    refuse(
                        member.value.position,
                        "token '\(name)': \(member.key) refers to '\(target.name)', a \(type) token, not "
                            + Self.TokenTypes.what[member.key, default: member.key])
                    continue
                }
                if let resolvedValue = resolve(member.value, visiting: [name]) { field[member.key] = resolvedValue }
            } else {
                warn(member.keyPosition, "token '\(name)': unknown typography field '\(member.key)' ignored")
            }
        }
        if let familyField = field["fontFamily"] {
            let families = Self.familyList(familyField)
            if families.isEmpty {
                refuse(
                    familyField.position,
                    "token '\(name)': fontFamily must be a string or an array of strings, not \(familyField.typeName)"
                )
            } else {
                // The base's fallbacks after its primary family (a Hangul face), never its primary
                // family: a serif list stays serif.
                style.families = families + base.families.dropFirst().filter { !families.contains($0) }
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
        readSize(field, token: token, base: base, into: &style)
        if let lineHeightField = field["lineHeight"] {
            // Unitless: a multiplier of fontSize (DTCG); above 5 it can only be px (Tokens Studio
            // treats unitless as px, and no real multiplier is that large).
            if let number = lineHeightField.number, number > 0 {
                style.lineHeight =
                    number > LineHeight.largestUnitlessFactor ? .absolute(number) : .relativeToSize(number)
            } else if let text = lineHeightField.string, ["auto", "normal"].contains(text.lowercased()) {
                style.lineHeight = nil
            } else if let text = lineHeightField.string, let (amount, unit) = ValueParsing.splitUnit(text), amount > 0,
                unit == "%" || unit == "" || unit.lowercased() == "em"
            {
                // `1.5em` is 1.5 times the size, as CSS and Tokens Studio read it.
                style.lineHeight =
                    unit == "%"
                    ? .relativeToSize(amount / 100)
                    : amount > LineHeight.largestUnitlessFactor && unit.isEmpty
                        ? .absolute(amount) : .relativeToSize(amount)
            } else if let pt = ValueParsing.points(lineHeightField), pt > 0 {
                style.lineHeight = .absolute(pt)
            } else {
                refuse(
                    lineHeightField.position,
                    "token '\(name)': lineHeight must be a multiplier (1.5, \"1.5em\"), a percentage (\"150%\") or a "
                        + "dimension "
                        + "(\"24px\"), not \(lineHeightField.typeName)"
                )
            }
        }
        if field["letterSpacing"] == nil {
            // A design tool's style without letter spacing has none (CSS `normal`), whatever the base had.
            style.tracking = nil
            style.kerning = nil
        }
        if let ls = field["letterSpacing"] {
            if ls.string?.lowercased() == "normal" {
                // CSS's `normal`: the face's own spacing.
                style.tracking = nil
            } else if let spacing = ValueParsing.letterSpacing(ls) {
                style.tracking = spacing.points(atSize: 1) == 0 ? nil : spacing
            } else {
                refuse(
                    ls.position,
                    "token '\(name)': letterSpacing must be a dimension (\"0.5px\") or a percentage (\"-2%\"), not "
                        + "\(ls.typeName)"
                )
            }
        }
        readCaseAndSpacing(field, name: name, into: &style)
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
        for (key, problem) in style.legibilityProblems {
            let tokenKey = key == "lineHeight" || key == "lineHeightMultiple" ? "lineHeight" : "letterSpacing"
            guard let position = field[tokenKey]?.position else { continue }
            warn(position, "token '\(name)': \(problem)")
        }
        return style
    }

    /// `fontSize`: the style's size (and its line height in proportion when `lineHeight` is not
    /// given); a token that gives no `fontSize` or `lineHeight` is warned about at its name.
    mutating func readSize(
        _ field: [String: JSONNode], token: DesignToken, base: TextStyle, into style: inout TextStyle
    ) {
        let name = token.name
        if let sizeField = field["fontSize"] {
            if let pt = ValueParsing.points(sizeField), pt > 0 {
                if field["lineHeight"] == nil { style.lineHeight = style.lineHeight?.scaled(from: style.size, to: pt) }
                style.size = pt
            } else if let pt = ValueParsing.points(sizeField) {
                let written = sizeField.members == nil ? sizeField.typeName : "\(Self.points(pt)) pt"
                refuse(sizeField.position, "token '\(name)': fontSize must be more than 0, not \(written)")
            } else if let problem = Self.dimensionObjectProblem(sizeField) {
                refuse(sizeField.position, "token '\(name)': fontSize \(problem)")
            } else {
                refuse(
                    sizeField.position,
                    "token '\(name)': fontSize must be a dimension (16, \"16px\", \"12pt\", \"1rem\", {\"value\": 16, "
                        + "\"unit\": \"px\"}), not \(sizeField.typeName)"
                )
            }
        } else if !Self.writes("fontSize", in: token) {
            warn(
                token.keyPosition,
                "token '\(name)' gives no fontSize (a DTCG typography value has fontFamily, fontSize, fontWeight, "
                    + "letterSpacing and lineHeight); the base theme's \(Self.points(base.size)) pt is kept")
        }
        if field["lineHeight"] == nil, !Self.writes("lineHeight", in: token) {
            warn(
                token.keyPosition,
                "token '\(name)' gives no lineHeight; the base theme's line height is kept, in proportion to the size")
        }
    }

    /// The families a `fontFamily` value names: a CSS list in a string (`"Inter, 'Noto Sans'"`)
    /// or an array of strings; empty for any other value.
    static func familyList(_ node: JSONNode) -> [String] {
        if let text = node.string {
            return text.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " \"'")) }
                .filter { !$0.isEmpty }
        }
        if let items = node.array, items.allSatisfy({ $0.string != nil }) { return items.compactMap(\.string) }
        return []
    }

    /// Whether `token`'s typography value writes `key`, whatever it gives once its aliases are
    /// followed (an alias that names nothing is an error of its own, not a value left out).
    static func writes(_ key: String, in token: DesignToken) -> Bool {
        token.value.members?.contains { $0.key == key } ?? false
    }

    /// `textCase`, `textDecoration`, `paragraphSpacing` and `paragraphIndent`: `none` and 0
    /// (Figma's defaults) leave the style as it is; a value that is no case, line or dimension is
    /// refused; an indent other than 0 is a warning (roles have no first-line indent).
    mutating func readCaseAndSpacing(_ field: [String: JSONNode], name: String, into style: inout TextStyle) {
        if let caseField = field["textCase"], caseField.string?.lowercased() != "none" {
            if let text = caseField.string, let textCase = TextCase(name: text) {
                style.textCase = textCase
            } else if let text = caseField.string,
                ["smallcapsforced", "allsmallcaps"].contains(TextRole.normalizedKey(text))
            {
                // Tokens Studio's `small_caps_forced`, CSS's `all-small-caps`: capitals as small
                // capitals too (OpenType `c2sc`), which a role does not set; its lower case is.
                style.textCase = .smallCaps
                warn(
                    caseField.position,
                    "token '\(name)': textCase '\(text)' is set as small-caps: lower-case letters as small "
                        + "capitals, capitals as they are")
            } else {
                refuse(
                    caseField.position,
                    "token '\(name)': textCase must be none, uppercase, lowercase, capitalize or small-caps, not "
                        + "\(caseField.typeName)")
            }
        }
        if let decorationField = field["textDecoration"], decorationField.string?.lowercased() != "none" {
            if let text = decorationField.string, let decoration = TextDecoration(name: text) {
                style.textDecoration = decoration
            } else {
                refuse(
                    decorationField.position,
                    "token '\(name)': textDecoration must be none, underline or line-through, not "
                        + "\(decorationField.typeName)")
            }
        }
        if let spacingField = field["paragraphSpacing"] {
            if let points = ValueParsing.points(spacingField), points >= 0 {
                style.spaceAfter = points > 0 ? points : nil
            } else {
                refuse(
                    spacingField.position,
                    "token '\(name)': paragraphSpacing must be a dimension (\"12px\") of 0 or more, not "
                        + "\(spacingField.typeName)")
            }
        }
        if let indentField = field["paragraphIndent"], ValueParsing.points(indentField) != 0 {
            warn(indentField.position, "token '\(name)': paragraphIndent is not used (a role has no first-line indent)")
        }
    }

    /// Weight from a DTCG name, a Figma style name (`Semi Bold`, `Bold Italic`) or a numeric string.
    static func weight(_ text: String) -> (FontWeight, Bool)? {
        var key = TextRole.normalizedKey(text)
        // A style name's slant (Figma's `Medium Italic`, `Bold Oblique`); alone, the regular weight's.
        let slant = ["italic", "oblique"].first { key.hasSuffix($0) }
        if let slant { key = String(key.dropLast(slant.count)) }
        let italic = slant != nil
        // An empty or blank weight names none: refused, not read as Regular.
        if key.isEmpty { return italic ? (.regular, true) : nil }
        if ["extrablack", "ultrablack"].contains(key) { return (FontWeight(950), italic) }
        return FontWeight(name: key).map { ($0, italic) }
    }
}
