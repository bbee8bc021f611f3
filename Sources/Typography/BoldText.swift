extension Theme {
    /// This theme as the Bold Text accessibility setting (`LegibilityWeight.bold`) sets it: each
    /// role moves to the next heavier weight that makes *every* family of its fallback list that
    /// can get heavier really heavier, so a run never mixes weights (Latin from Inter, Hangul from
    /// Noto Sans CJK KR: Regular 400 → 600, where Inter has SemiBold and Noto Sans CJK KR's
    /// nearest face is Bold).
    ///
    /// Apple's Human Interface Guidelines (Accessibility › Text display, "Bold Text") describe the
    /// setting but give no rule for custom fonts; the rule here is the common one for custom fonts:
    /// the next heavier weight the font really has. Which face a family uses for a weight follows
    /// CSS Fonts 4 §5.2 (font matching, `font-weight`). Inter alone (nine weights) goes 400 → 500,
    /// 600 → 700; a family with only 400 and 700 goes 400 → 700.
    ///
    /// The returned theme remembers the weights it saw (``boldTextWeights``), so that runs made
    /// heavier inside a role — `**strong**`, a `weight=` span — move up too
    /// (``boldTextWeight(_:families:)``).
    ///
    /// - Parameter availableWeights: the weights a family name really has (from fontconfig), in any
    ///   order; called once per distinct family.
    /// - Returns: the theme, and one warning per role that could not get heavier, e.g.
    ///   `Title: 'X' has no face heavier than Bold 700` (the role keeps its weight), or
    ///   `Body: no faces known for 'X'; weight unchanged` when the closure returns none.
    public func applyingBoldText(availableWeights: (String) -> [FontWeight]) -> (Theme, [String]) {
        var result = self
        var warnings: [String] = []
        var table: [String: [FontWeight]] = [:]
        for role in TextRole.allCases {
            for family in self[role].families where table[family] == nil {
                table[family] = availableWeights(family).sorted()
            }
        }
        for family in monospaceFamilies where table[family] == nil { table[family] = availableWeights(family).sorted() }
        result.boldTextWeights = table
        for role in TextRole.allCases {
            var style = self[role]
            let family = style.primaryFamily
            if table[family, default: []].isEmpty {
                warnings.append("\(role.displayName): no faces known for '\(family)'; weight unchanged")
            } else if let next = Theme.nextHeavier(than: style.weight, families: style.families, table: table) {
                style.weight = next
            } else {
                warnings.append("\(role.displayName): '\(family)' has no face heavier than \(style.weight)")
            }
            result.styles[role] = style
        }
        return (result, warnings)
    }

    /// Under Bold Text (``boldTextWeights`` set), the weight a run asks for one step heavier by
    /// the rule of ``applyingBoldText(availableWeights:)``; otherwise, or when no family of the
    /// list has a heavier face, `weight` itself.
    public func boldTextWeight(_ weight: FontWeight, families: [String]) -> FontWeight {
        guard let table = boldTextWeights else { return weight }
        return Theme.nextHeavier(than: weight, families: families, table: table) ?? weight
    }

    /// The lightest weight above `weight` at which every family of `families` that has a face
    /// heavier than the one it uses at `weight` gets a heavier face; nil when none can.
    static func nextHeavier(than weight: FontWeight, families: [String], table: [String: [FontWeight]]) -> FontWeight? {
        let lists = families.compactMap { table[$0] }.filter { !$0.isEmpty }
        let current = lists.map { face(for: weight, in: $0) }
        let movable = lists.indices.filter { i in lists[i].contains { $0 > current[i] } }
        guard !movable.isEmpty else { return nil }
        // Candidates: every weight a family has above `weight`, lightest first.
        let candidates = Set(lists.flatMap { $0 }).filter { $0 > weight }.sorted()
        return candidates.first { w in movable.allSatisfy { face(for: w, in: lists[$0]) > current[$0] } }
            ?? candidates.first { w in face(for: w, in: lists[movable[0]]) > current[movable[0]] }
    }

    /// The face weight CSS Fonts 4 §5.2 picks for `weight` among `available` (sorted, non-empty):
    /// the weight itself; for 400–500, heavier faces up to 500, then lighter, then heavier; below
    /// 400, lighter then heavier; above 500, heavier then lighter.
    static func face(for weight: FontWeight, in available: [FontWeight]) -> FontWeight {
        if available.contains(weight) { return weight }
        let lighter = available.filter { $0 < weight }.reversed()
        let heavier = available.filter { $0 > weight }
        let weightValue = weight.rawValue
        if weightValue >= 400 && weightValue <= 500, let upTo500 = heavier.first(where: { $0.rawValue <= 500 }) {
            return upTo500
        }
        if weightValue <= 500 { return lighter.first ?? heavier.first! }
        return heavier.first ?? lighter.first!
    }
}
