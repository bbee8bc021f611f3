import Typography

/// The type settings Pandoc's LaTeX template reads from `-V` (Pandoc manual, "Variables for
/// LaTeX"), as a theme adaptation: `fontsize`, `linestretch` and `monofont`.
public struct PandocTypeVariables: Sendable, Equatable {
    /// `fontsize`: the Body size in pt; every role is scaled by the same factor, so the type
    /// scale keeps its proportions (as LaTeX's size commands follow `\normalsize`).
    public var bodySize: Double?
    /// `linestretch`: a factor on every role's line height (LaTeX `\linespread`, setspace's
    /// `\setstretch`).
    public var lineStretch: Double?
    /// `monofont`: the family code is set in, ahead of the theme's monospaced fallbacks.
    public var monospaceFamily: String?

    /// Nothing set.
    public init(bodySize: Double? = nil, lineStretch: Double? = nil, monospaceFamily: String? = nil) {
        self.bodySize = bodySize
        self.lineStretch = lineStretch
        self.monospaceFamily = monospaceFamily
    }

    /// `theme` with these settings applied.
    func applied(to theme: Theme) -> Theme {
        var theme = theme
        if let bodySize, theme[.body].size > 0 {
            let factor = bodySize / theme[.body].size
            for role in TextRole.allCases {
                var style = theme[role]
                let newSize = style.size * factor
                style.lineHeight = style.lineHeight?.scaled(from: style.size, to: newSize)
                style.size = newSize
                theme.styles[role] = style
            }
        }
        if let lineStretch {
            for role in TextRole.allCases {
                var style = theme[role]
                switch style.lineHeight {
                case .multiple(let multiple)?: style.lineHeight = .multiple(multiple * lineStretch)
                case .relativeToSize(let fraction)?: style.lineHeight = .relativeToSize(fraction * lineStretch)
                case .absolute(let points)?: style.lineHeight = .absolute(points * lineStretch)
                case nil: style.lineHeight = .multiple(lineStretch)
                }
                theme.styles[role] = style
            }
        }
        if let monospaceFamily { theme.monospaceFamilies = [monospaceFamily] + theme.monospaceFamilies }
        return theme
    }
}
