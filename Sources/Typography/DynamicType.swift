/// Apple's Dynamic Type tables for iOS/iPadOS and the scaling rule Typeset applies to roles.
///
/// Source: Apple Human Interface Guidelines › Typography › Specifications, "iOS, iPadOS Dynamic Type
/// sizes" and "Larger accessibility type sizes" (sizes and leading).
/// The tables are reproduced exactly as published, oddities included:
/// Subhead xxxLarge leading 28, Caption 1 jumping 11/13 → 12/16 at Large, Caption 2 at 11 pt for
/// xSmall…Large. Styles Apple does not scale (none) are absent.
public enum DynamicType {
    /// Column order of the tables: xSmall … xxxLarge, AX1 … AX5 (``SizeCategory/allCases``).
    private static func column(_ category: SizeCategory) -> Int { SizeCategory.allCases.firstIndex(of: category)! }

    /// Font size in pt, HIG iOS table.
    static let sizes: [DynamicTypeStyle: [Double]] = [
        .largeTitle: [31, 32, 33, 34, 36, 38, 40, 44, 48, 52, 56, 60],
        .title: [25, 26, 27, 28, 30, 32, 34, 38, 43, 48, 53, 58],
        .title2: [19, 20, 21, 22, 24, 26, 28, 34, 39, 44, 50, 56],
        .title3: [17, 18, 19, 20, 22, 24, 26, 31, 37, 43, 49, 55],
        .headline: [14, 15, 16, 17, 19, 21, 23, 28, 33, 40, 47, 53],
        .body: [14, 15, 16, 17, 19, 21, 23, 28, 33, 40, 47, 53],
        .callout: [13, 14, 15, 16, 18, 20, 22, 26, 32, 38, 44, 51],
        .subheadline: [12, 13, 14, 15, 17, 19, 21, 25, 30, 36, 42, 49],
        .footnote: [12, 12, 12, 13, 15, 17, 19, 23, 27, 33, 38, 44],
        .caption: [11, 11, 11, 12, 14, 16, 18, 22, 26, 32, 37, 43],
        .caption2: [11, 11, 11, 11, 13, 15, 17, 20, 24, 29, 34, 40],
    ]

    /// Leading (baseline-to-baseline) in pt, HIG iOS table.
    static let leadings: [DynamicTypeStyle: [Double]] = [
        .largeTitle: [38, 39, 40, 41, 43, 46, 48, 52, 57, 61, 66, 70],
        .title: [31, 32, 33, 34, 37, 39, 41, 46, 51, 57, 62, 68],
        .title2: [24, 25, 26, 28, 30, 32, 34, 41, 47, 52, 59, 66],
        .title3: [22, 23, 24, 25, 28, 30, 32, 38, 44, 51, 58, 65],
        .headline: [19, 20, 21, 22, 24, 26, 29, 34, 40, 48, 56, 62],
        .body: [19, 20, 21, 22, 24, 26, 29, 34, 40, 48, 56, 62],
        .callout: [18, 19, 20, 21, 23, 25, 28, 32, 39, 46, 52, 60],
        .subheadline: [16, 18, 19, 20, 22, 24, 28, 31, 37, 43, 50, 58],
        .footnote: [16, 16, 16, 18, 20, 22, 24, 29, 33, 40, 46, 52],
        .caption: [13, 13, 13, 16, 19, 21, 23, 28, 32, 39, 44, 51],
        .caption2: [13, 13, 13, 13, 18, 20, 22, 25, 30, 35, 41, 48],
    ]

    /// The font size in pt Apple's system font uses for `style` in `category` (HIG iOS
    /// table). Body: 14 at xSmall, 17 at Large, 53 at AX5.
    public static func size(of style: DynamicTypeStyle, in category: SizeCategory) -> Double {
        sizes[style]![column(category)]
    }

    /// The leading (baseline-to-baseline step) in pt for `style` in `category` (HIG iOS
    /// table). Body: 19 at xSmall, 22 at Large, 62 at AX5. Design targets: what a renderer
    /// produces for a font other than SF also depends on that font's own metrics.
    public static func leading(of style: DynamicTypeStyle, in category: SizeCategory) -> Double {
        leadings[style]![column(category)]
    }

    /// The factor a size `relativeTo: style` is multiplied by in `category`:
    /// `size(style, category) / size(style, .large)` — the ratio of Apple's own sizes (Apple does not
    /// publish its interpolation for custom sizes; the ratio reproduces the per-style curves).
    /// 1 at ``SizeCategory/large``.
    public static func scaleFactor(for style: DynamicTypeStyle, in category: SizeCategory) -> Double {
        size(of: style, in: category) / size(of: style, in: .large)
    }

    /// The weight of Apple's system text style (HIG Typography › Specifications): Semibold for Headline, Regular
    /// otherwise.
    /// Unchanged across categories.
    public static func weight(of style: DynamicTypeStyle) -> FontWeight {
        style == .headline ? .semibold : .regular
    }

    /// SF Pro tracking in pt that Apple's system font applies automatically at `size` pt (HIG iOS
    /// tracking table), or nil for a size the table does not list
    /// (listed: 11, 12, 13, 14, 15, 16, 17, 20, 22, 24, 28, 34). Custom fonts get no automatic
    /// tracking, so a theme mirroring SF must carry these values itself (the `hig` theme does).
    public static func sfTracking(atSize size: Double) -> Double? {
        let table: [Double: Double] = [
            11: 0.06, 12: 0, 13: -0.08, 14: -0.15, 15: -0.23, 16: -0.31, 17: -0.43,
            20: -0.45, 22: -0.26, 24: 0.07, 28: 0.38, 34: 0.40,
        ]
        return table[size]
    }
}

extension TextStyle {
    /// This style as Dynamic Type sets it in `category`.
    ///
    /// - Fixed styles (``relativeTo`` nil, Apple `Font.custom(_:fixedSize:)`) are returned unchanged.
    /// - Otherwise the size is multiplied by ``DynamicType/scaleFactor(for:in:)`` of ``relativeTo``
    ///   (Apple `Font.custom(_:size:relativeTo:)`), not rounded.
    /// - Line height: multiples and size-relative factors are unchanged; an absolute step scales
    ///   proportionally (``LineHeight/scaled(from:to:)``) — except when the style *is* Apple's text
    ///   style (its size and absolute leading equal HIG's Large values for ``relativeTo``), where
    ///   the HIG leading of `category` is used, as published.
    /// - Letter spacing in % of size scales with the size by construction; in pt it scales
    ///   proportionally too (our choice: keeps the em-relative spacing the designer chose; Apple's
    ///   own SF tracking table is not proportional, but custom fonts get no automatic tracking).
    public func scaled(to category: SizeCategory) -> TextStyle {
        guard let style = relativeTo, category != .large else { return self }
        var result = self
        let newSize = size * DynamicType.scaleFactor(for: style, in: category)
        result.size = newSize
        if case .absolute(let pt) = lineHeight, size == DynamicType.size(of: style, in: .large),
            pt == DynamicType.leading(of: style, in: .large)
        {
            result.lineHeight = .absolute(DynamicType.leading(of: style, in: category))
        } else {
            result.lineHeight = lineHeight?.scaled(from: size, to: newSize)
        }
        result.kerning = kerning?.scaled(from: size, to: newSize)
        result.tracking = tracking?.scaled(from: size, to: newSize)
        return result
    }
}

extension LetterSpacing {
    /// The same spacing for a face scaled from `size` to `newSize` pt: a percentage is unchanged
    /// (it already follows the size); points scale proportionally (`pt × newSize / size`).
    public func scaled(from size: Double, to newSize: Double) -> LetterSpacing {
        guard case .points(let pt) = self, size > 0 else { return self }
        return .points(pt * newSize / size)
    }
}

extension Theme {
    /// This theme with every role set as Dynamic Type sets it in `category`
    /// (``TextStyle/scaled(to:)``: roles with `relativeTo` scale by Apple's ratio for their style,
    /// fixed roles stay). Page, colours and families are unchanged. `.large` returns an equal theme.
    public func applying(sizeCategory category: SizeCategory) -> Theme {
        var result = self
        for role in TextRole.allCases { result.styles[role] = self[role].scaled(to: category) }
        return result
    }
}
