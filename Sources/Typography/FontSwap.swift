/// How sizes change when a theme's primary family is swapped for another (a per-font size
/// adjustment so that different fonts look the same size, e.g. −2 pt for one family;
/// docs/themes.md, "Fonts, Dynamic Type and Bold Text").
public enum SizeAdjust: Hashable, Sendable {
    /// Add this many pt to every role's size (negative shrinks), e.g. `−2`.
    case points(Double)
    /// Scale every size by `originalRatio / newRatio`, where each ratio is the family's
    /// x-height ÷ em (measured by the caller from the fonts, e.g. Inter ≈ 0.546): equal x-heights
    /// after the swap (the CSS `font-size-adjust` idea).
    case xHeight(originalRatio: Double, newRatio: Double)

    /// The adjusted size in pt for a role of `size` pt; never below 1 pt.
    public func apply(to size: Double) -> Double {
        switch self {
        case .points(let points): return max(1, size + points)
        case .xHeight(let original, let new):
            guard original > 0, new > 0 else { return size }
            return max(1, size * original / new)
        }
    }
}

extension Theme {
    /// This theme with every role's primary (first) family replaced by `family`, its fallbacks kept
    /// (a swapped Latin family still falls back to the CJK family for Hangul), and sizes adjusted by
    /// `sizeAdjust` (nil: sizes unchanged).
    ///
    /// Absolute line heights and letter spacing in pt scale proportionally with each size
    /// (``LineHeight/scaled(from:to:)``, ``LetterSpacing/scaled(from:to:)``); multiples and %
    /// follow the size by construction. Named ``families`` lists whose first entry was a role's
    /// primary family are swapped too; ``monospaceFamilies`` is left alone (code keeps its face).
    public func swappingFamily(to family: String, sizeAdjust: SizeAdjust?) -> Theme {
        var result = self
        func swapped(_ list: [String]) -> [String] {
            [family] + list.dropFirst().filter { $0 != family }
        }
        let primaries = Set(TextRole.allCases.map { self[$0].primaryFamily })
        for role in TextRole.allCases {
            var style = self[role]
            style.families = swapped(style.families)
            if let sizeAdjust {
                let newSize = sizeAdjust.apply(to: style.size)
                style.lineHeight = style.lineHeight?.scaled(from: style.size, to: newSize)
                style.kerning = style.kerning?.scaled(from: style.size, to: newSize)
                style.tracking = style.tracking?.scaled(from: style.size, to: newSize)
                style.size = newSize
            }
            result.styles[role] = style
        }
        for (key, list) in families where list.first.map(primaries.contains) == true {
            result.families[key] = swapped(list)
        }
        return result
    }

    /// ``swappingFamily(to:sizeAdjust:)`` with the adjustment this theme records for `family` in
    /// ``sizeAdjustments`` (none when it records none).
    public func swappingFamily(to family: String) -> Theme {
        swappingFamily(to: family, sizeAdjust: sizeAdjustments[family])
    }
}
