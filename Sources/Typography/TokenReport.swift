import Foundation

/// What ``TokenReader`` reads besides single tokens (Tokens Studio sets, groups of property
/// tokens, colours) and what it reports once for the whole file (guessed roles, tokens not used,
/// roles kept from the base theme, a scale out of order).
extension TokenReader {
    /// The property tokens a group may hold in place of one `typography` token (Material 3's
    /// `md.sys.typescale.body-large.size`, `.line-height`, `.tracking`, `.weight`, `.font`), by
    /// the typography field each one gives.
    static let propertyFields: [String: String] = [
        "font": "fontFamily", "fontfamily": "fontFamily", "family": "fontFamily", "typeface": "fontFamily",
        "size": "fontSize", "fontsize": "fontSize", "lineheight": "lineHeight", "leading": "lineHeight",
        "tracking": "letterSpacing", "letterspacing": "letterSpacing", "weight": "fontWeight",
        "fontweight": "fontWeight", "textcase": "textCase", "texttransform": "textCase",
        "textdecoration": "textDecoration", "paragraphspacing": "paragraphSpacing", "fontstyle": "fontStyle",
    ]

    /// Reads the whole file. A Tokens Studio multi-set file (`$metadata.tokenSetOrder` or
    /// `$themes` at the top) is read set by set: paths leave out the set name, a later set's
    /// token replaces an earlier one's, and only the sets the first `$themes` entry enables (or
    /// uses as `source`) are read, all of them when there is no theme. Then groups of property
    /// tokens become typography tokens.
    mutating func collectRoot() {
        if let meta = Self.figmaVariables(root) {
            collectFigmaVariables(meta)
            return
        }
        let order = root["$metadata"]?["tokenSetOrder"]?.array?.compactMap(\.string)
        let themes = root["$themes"]?.array ?? []
        guard order != nil || !themes.isEmpty, let members = root.members else {
            collect(root, path: [], inheritedType: nil)
            synthesizePropertyGroups()
            return
        }
        let setNames = members.filter { !$0.key.hasPrefix("$") && $0.value.members != nil }.map(\.key)
        // A set the order or the first theme names that the file does not hold is said, where
        // it is named: its tokens are not there to read.
        let orderNodes = root["$metadata"]?["tokenSetOrder"]?.array ?? []
        let themeSets = themes.first?["selectedTokenSets"]?.members ?? []
        let named =
            orderNodes.compactMap { node in node.string.map { ($0, node.position) } }
            + themeSets.filter { $0.value.string != "disabled" }.map { ($0.key, $0.keyPosition) }
        for (name, position) in named where !setNames.contains(name) {
            warn(position, "token set '\(name)' is named but the file holds no such set; nothing is read for it")
        }
        var sets = (order ?? []).filter { setNames.contains($0) }
        sets += setNames.filter { !sets.contains($0) }
        var active = Set(sets)
        var themeName: String?
        if let first = themes.first, let selected = first["selectedTokenSets"]?.members {
            let enabled = selected.filter { $0.value.string != "disabled" }.map(\.key)
            if !enabled.isEmpty {
                active = Set(enabled)
                themeName = first["name"]?.string ?? "the first"
            }
        }
        for name in sets {
            guard active.contains(name), let node = root[name] else {
                skippedSets.append(name)
                continue
            }
            currentSet = name
            collect(node, path: [], inheritedType: nil)
        }
        currentSet = nil
        let read = sets.filter { active.contains($0) }
        let position = members.first { $0.key == "$themes" || $0.key == "$metadata" }?.keyPosition ?? root.position
        warn(
            position,
            "Tokens Studio sets read in order, later ones overriding earlier ones: \(read.joined(separator: ", "))"
                + (themeName.map { " (as theme '\($0)' of $themes enables them)" } ?? "")
                + (skippedSets.isEmpty ? "" : "; not read: \(skippedSets.joined(separator: ", "))"))
        synthesizePropertyGroups()
    }

    /// Each group holding a size token and other property tokens (``propertyFields``) but no
    /// typography token of its own becomes one `typography` token whose fields are aliases of
    /// the property tokens, placed where the group's first property token is.
    mutating func synthesizePropertyGroups() {
        var groups: [String: [(field: String, index: Int)]] = [:]
        var groupOrder: [String] = []
        for (index, token) in tokens.enumerated() where token.path.count >= 2 {
            if let type = token.type, TextRole.normalizedKey(type) == "typography" { continue }
            guard let field = Self.propertyFields[TextRole.normalizedKey(token.path.last!)] else { continue }
            let group = token.path.dropLast().joined(separator: ".")
            if groups[group] == nil { groupOrder.append(group) }
            groups[group, default: []].append((field, index))
        }
        for group in groupOrder {
            let fields = groups[group]!
            guard fields.contains(where: { $0.field == "fontSize" }), byPath[group] == nil else { continue }
            let first = tokens[fields[0].index]
            let members = fields.map { field, index in
                JSONNode.Member(
                    key: field, keyPosition: tokens[index].keyPosition,
                    value: JSONNode(value: .string("{\(tokens[index].name)}"), position: tokens[index].value.position))
            }
            synthesized.insert(tokens.count)
            add(
                DesignToken(
                    path: Array(first.path.dropLast()), keyPosition: first.keyPosition,
                    value: JSONNode(value: .object(members), position: first.value.position), type: "typography"))
        }
    }

    /// Theme colour names and the last token path components that mean them (Material 3's
    /// `on-surface` is the text colour, `primary` the accent and link colour, …).
    static let colorNames: [(name: String, keys: Set<String>)] = [
        ("text", ["text", "foreground", "fg", "onsurface", "onbackground", "textprimary", "textdefault", "fontbase"]),
        ("secondary", ["secondary", "textsecondary", "onsurfacevariant", "muted", "textmuted", "fontsecondary"]),
        ("accent", ["accent", "primary", "brand", "brandprimary"]),
        ("link", ["link", "textlink", "linkdefault", "primary"]),
        ("rule", ["rule", "border", "divider", "outline", "outlinevariant", "borderdefault"]),
        ("codeBackground", ["codebackground", "surfacevariant", "surfacecontainer", "codebg"]),
        ("quote", ["quote", "blockquote"]),
    ]

    /// Every `color` token becomes a theme colour named by its path (`md.sys.color.error`), or,
    /// in a top-level `color` group, by its path in the group (`color.brand.500` → `brand.500`,
    /// `color.accent` → `accent`, the names a theme's colours use; ``Theme/color(named:)`` still
    /// finds it by the whole path). One whose last path component means a colour Typeset uses
    /// (``colorNames``) also sets that colour, the first such token winning. A colour that cannot
    /// be read stays unused (and listed).
    mutating func importColors(into theme: inout Theme) {
        var set = Set<String>()
        for (index, token) in tokens.enumerated() {
            // Style Dictionary v3 gives no type: its `color` category (the first path component) does.
            let category = token.type ?? (["color", "colors"].contains(token.path.first?.lowercased()) ? "color" : "")
            guard TextRole.normalizedKey(category) == "color" else { continue }
            guard let value = resolvedValue(of: index) else { continue }
            guard let color = Self.color(value) else {
                // Never left silently: a hexadecimal colour written wrong (`#12`, `#zzzzzz`) or a
                // colour object without sRGB components refuses the import, as a theme's colour
                // does; another form (`rgb()` in percentages or past 255, a CSS name, `hsl()`, a
                // gradient: CSS colours Typeset does not read) is named in a warning and the
                // theme's colour stays.
                markUsed(index)
                let forms =
                    "#RGB, #RRGGBB, #RRGGBBAA, rgb(r, g, b) or rgba(r, g, b, a) with 0–255 and an alpha 0–1, "
                    + "or a colour object with 'hex' or sRGB 'components' 0–1"
                let text = value.string?.trimmingCharacters(in: .whitespaces).lowercased()
                if let text, !text.hasPrefix("#") {
                    warn(
                        value.position,
                        "token '\(token.name)': \(Self.shown(value)) is a colour Typeset does not read (it reads "
                            + "\(forms)); the theme's colour stays")
                } else {
                    refuse(value.position, "token '\(token.name)': \(Self.shown(value)) is not a colour (\(forms))")
                }
                continue
            }
            markUsed(index)
            if token.path.count > 1, Theme.colorGroups.contains(TextRole.normalizedKey(token.path[0])) {
                let inGroup = token.path.dropFirst().joined(separator: ".")
                if set.insert(inGroup).inserted { theme.colors[inGroup] = color }
            } else {
                theme.colors[token.name] = color
            }
            let key = TextRole.normalizedKey(token.path.last ?? "")
            let twoLast = TextRole.normalizedKey(token.path.suffix(2).joined())
            for (name, keys) in Self.colorNames where keys.contains(key) || keys.contains(twoLast) {
                if set.insert(name).inserted { theme.colors[name] = color }
            }
        }
    }

    /// The last path components of a font-family token that names the family code is set in
    /// (`font.family.mono`, Tokens Studio's `fontFamilies.code`).
    static let codeFamilyNames: Set<String> = ["mono", "monospace", "monospaced", "code", "fontmono", "familymono"]

    /// The theme's code families from the first font-family token (DTCG `fontFamily`, Tokens
    /// Studio `fontFamilies`) named for code (``codeFamilyNames``), as Typeset's own exports
    /// write them, so that a theme exported and imported again keeps its code face.
    mutating func importCodeFamilies(into theme: inout Theme) {
        for (index, token) in tokens.enumerated() {
            guard let type = token.type.map(TextRole.normalizedKey), type == "fontfamily" || type == "fontfamilies",
                let last = token.path.last, Self.codeFamilyNames.contains(TextRole.normalizedKey(last)),
                let value = resolvedValue(of: index)
            else { continue }
            let families = TokenReader.familyList(value)
            guard !families.isEmpty else { continue }
            markUsed(index)
            // The base's fallbacks after its first family (a Hangul face) stay, as a typography
            // token's family keeps them; the named list the code families were (the base's
            // `mono`) names the new ones, as a theme file's `families` override swaps it.
            let list = families + theme.monospaceFamilies.dropFirst().filter { !families.contains($0) }
            for (key, named) in theme.families where named == theme.monospaceFamilies { theme.families[key] = list }
            theme.monospaceFamilies = list
            return
        }
    }

    /// `node` as a message quotes it: a string in quotes, anything else by its JSON type.
    static func shown(_ node: JSONNode) -> String {
        if let text = node.string { return "'\(text.count > 40 ? text.prefix(40) + "…" : text)'" }
        if let number = node.number { return "\(number)" }
        return node.typeName
    }

    /// A colour from `#RGB`/`#RRGGBB`/`#RRGGBBAA`, `rgb(…)`/`rgba(…)` (0–255 and an alpha 0–1),
    /// or a DTCG 2025.10 colour object (`hex`, or sRGB `components` 0–1 and `alpha`).
    static func color(_ node: JSONNode) -> RGBAColor? {
        if let text = node.string?.trimmingCharacters(in: .whitespaces) {
            if let color = RGBAColor(hex: text) { return color }
            let lower = text.lowercased()
            guard lower.hasPrefix("rgb"), let open = lower.firstIndex(of: "("), lower.hasSuffix(")") else { return nil }
            let parts = lower[lower.index(after: open)..<lower.index(before: lower.endIndex)]
                .split(whereSeparator: { $0 == "," || $0 == " " || $0 == "/" }).compactMap { Double($0) }
            guard parts.count == 3 || parts.count == 4, parts.prefix(3).allSatisfy({ (0...255).contains($0) }) else {
                return nil
            }
            return RGBAColor(
                red: parts[0] / 255, green: parts[1] / 255, blue: parts[2] / 255,
                alpha: parts.count == 4 ? min(max(parts[3], 0), 1) : 1)
        }
        if let hex = node["hex"]?.string, let color = RGBAColor(hex: hex) {
            return RGBAColor(red: color.red, green: color.green, blue: color.blue, alpha: node["alpha"]?.number ?? 1)
        }
        if let space = node["colorSpace"]?.string, space.lowercased() == "srgb",
            let components = node["components"]?.array?.compactMap(\.number), components.count == 3,
            components.allSatisfy({ (0...1).contains($0) })
        {
            return RGBAColor(
                red: components[0], green: components[1], blue: components[2], alpha: node["alpha"]?.number ?? 1)
        }
        return nil
    }

    /// One warning naming every role the built-in guess gave (``TokenRoleGuess``).
    mutating func reportGuesses(_ guessed: [(token: Int, role: TextRole, scheme: TokenRoleGuess.Scheme)]) {
        guard let first = guessed.first else { return }
        let schemes = Array(Set(guessed.map(\.scheme.rawValue))).sorted().joined(separator: " and ")
        warn(
            tokens[first.token].keyPosition,
            "roles guessed from \(schemes) style names (a mapping file or --map sets others): "
                + guessed.map { "\(tokens[$0.token].name) → \($0.role.displayName)" }.joined(separator: ", "))
    }

    /// One warning listing every token the theme does not use: typography tokens that map to no
    /// role (with their positions), then every other token no used value refers to.
    mutating func reportUnused(unmappedTypography: [Int]) {
        let unmappedSet = Set(unmappedTypography)
        // A group of property tokens listed as one unmapped typography token is not listed again.
        let unmappedGroups = Set(unmappedTypography.filter { synthesized.contains($0) }.map { tokens[$0].name })
        let others = tokens.indices.filter {
            !used.contains($0) && !unmappedSet.contains($0) && !synthesized.contains($0)
                && !unmappedGroups.contains(tokens[$0].path.dropLast().joined(separator: "."))
        }
        guard let first = (unmappedTypography + others).min(by: { tokens[$0].keyPosition < tokens[$1].keyPosition })
        else { return }
        var parts: [String] = []
        if !unmappedTypography.isEmpty {
            parts.append(
                "typography tokens not mapped to a role (name them after a role or pass a mapping): "
                    + unmappedTypography.map { "\(tokens[$0].name) (\(tokens[$0].keyPosition))" }.joined(
                        separator: ", "))
        }
        if !others.isEmpty {
            parts.append(
                "\(others.count) other token\(others.count == 1 ? "" : "s") not used: "
                    + others.map { tokens[$0].name }.joined(separator: ", "))
        }
        problems.append(
            ThemeProblem(file: file, at: tokens[first].keyPosition, parts.joined(separator: "; "), severity: .warning))
    }

    /// One warning naming the roles no token set (they keep the base theme's style), and one
    /// when the scale is out of order (``TextRole/scaleInversions(_:)``), at the token of the
    /// first pair out of order: the one set larger, else the other's.
    mutating func reportBaseRoles(theme: Theme, base: Theme, assigned: [TextRole: Int]) {
        let kept = TextRole.allCases.filter { assigned[$0] == nil }
        if !kept.isEmpty {
            warn(
                root.position,
                "roles no token sets keep the base theme '\(base.name)': "
                    + kept.map { "\($0.displayName) \(theme[$0].size.pointsText) pt" }.joined(separator: ", "))
        }
        func named(_ role: TextRole) -> String {
            "\(role.displayName) (\(theme[role].size.pointsText) pt"
                + (assigned[role] == nil ? ", from the base theme)" : ")")
        }
        // A size outside the limits is an error of its own (``TypographicLimits``): the order
        // is judged among the sizes a theme may hold.
        let sizable = TextRole.allCases.filter { TypographicLimits.size.contains(theme[$0].size) }
        let inversions = TextRole.scaleInversions { theme[$0].size }.filter {
            sizable.contains($0.smaller) && sizable.contains($0.larger)
        }
        guard let first = inversions.first else { return }
        let culprit = assigned[first.larger] ?? assigned[first.smaller]
        let position = culprit.map { tokens[$0].keyPosition } ?? root.position
        warn(
            position,
            "the type scale is out of order (\(TextRole.scaleOrderRule)): "
                + inversions.map { "\(named($0.smaller)) is smaller than \(named($0.larger))" }.joined(
                    separator: "; "))
    }
}

extension Double {
    /// The value in pt as messages write it: up to two decimals, no trailing zeros (`12.5`, `17`).
    var pointsText: String { String(format: "%g", (self * 100).rounded() / 100) }
}
