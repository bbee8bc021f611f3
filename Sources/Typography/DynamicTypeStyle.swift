import Foundation

/// Apple's Dynamic Type text styles (`Font.TextStyle` / `UIFont.TextStyle`): the styles a
/// role's size can be `relativeTo`, so that it scales with the reader's size category.
public enum DynamicTypeStyle: String, CaseIterable, Sendable, Hashable, Codable {
    /// The eleven iOS text styles, largest first (Apple `Font.TextStyle`).
    case largeTitle, title, title2, title3, headline, subheadline, body, callout, footnote, caption, caption2

    /// Reads a style name case- and separator-insensitively (`large-title`, `Title 2`, `subhead`).
    public init?(name: String) {
        let key = TextRole.normalizedKey(name)
        if key == "subhead" {
            self = .subheadline
            return
        }
        guard let style = DynamicTypeStyle.allCases.first(where: { TextRole.normalizedKey($0.rawValue) == key })
        else { return nil }
        self = style
    }
}

/// Apple's content size categories (`DynamicTypeSize`): seven standard sizes and five
/// accessibility sizes. ``large`` is the default.
public enum SizeCategory: String, CaseIterable, Sendable, Hashable, Codable {
    /// The seven standard sizes, smallest first.
    case xSmall, small, medium, large, xLarge, xxLarge, xxxLarge
    /// The five accessibility sizes (Larger Accessibility Sizes), written AX1 … AX5.
    case accessibility1 = "AX1"
    case accessibility2 = "AX2"
    case accessibility3 = "AX3"
    case accessibility4 = "AX4"
    case accessibility5 = "AX5"

    /// Reads `xSmall` … `xxxLarge`, `AX1` … `AX5` (also `accessibility1`, `x-small`, any case).
    public init?(name: String) {
        let key = TextRole.normalizedKey(name).replacingOccurrences(of: "accessibility", with: "ax")
        guard let category = SizeCategory.allCases.first(where: { TextRole.normalizedKey($0.rawValue) == key })
        else { return nil }
        self = category
    }
}
