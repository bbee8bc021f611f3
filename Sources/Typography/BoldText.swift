extension Theme {
    /// This theme as the Bold Text accessibility setting (`LegibilityWeight.bold`) sets it: each
    /// role moves to the next heavier weight its primary family really has.
    ///
    /// Apple gives no rule for custom fonts (reference §1.6, §8 #6); this is the community default
    /// "+1 available weight" of seed 004 (CustomFont: "include the font of the next boldest weight").
    /// Inter (nine weights) goes 400 → 500, 600 → 700; a family with only 400 and 700 goes 400 → 700.
    ///
    /// - Parameter availableWeights: the weights a family name really has (from fontconfig), in any
    ///   order; called once per distinct primary family.
    /// - Returns: the theme, and one warning per role that could not get heavier, e.g.
    ///   `Title: 'X' has no face heavier than Bold 700` (the role keeps its weight), or
    ///   `Body: no faces known for 'X'; weight unchanged` when the closure returns none.
    public func applyingBoldText(availableWeights: (String) -> [FontWeight]) -> (Theme, [String]) {
        var result = self, warnings: [String] = [], cache: [String: [FontWeight]] = [:]
        for role in TextRole.allCases {
            var style = self[role]
            let family = style.primaryFamily
            let weights = cache[family] ?? availableWeights(family).sorted()
            cache[family] = weights
            if weights.isEmpty {
                warnings.append("\(role.displayName): no faces known for '\(family)'; weight unchanged")
            } else if let next = weights.first(where: { $0 > style.weight }) {
                style.weight = next
            } else {
                warnings.append("\(role.displayName): '\(family)' has no face heavier than \(style.weight)")
            }
            result.styles[role] = style
        }
        return (result, warnings)
    }
}
