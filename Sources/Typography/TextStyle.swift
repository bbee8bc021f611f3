/// How a style sets its baseline-to-baseline step (the line height).
///
/// Sources: Apple `NSParagraphStyle.lineHeightMultiple` (factor × the font's natural line
/// height, ascent + descent); Figma and CSS percentages (% of the font size); absolute points.
public enum LineHeight: Hashable, Sendable {
    /// The largest number written without a unit that a theme or design-token `lineHeight` is
    /// read as: a multiple of the size, as CSS reads a unitless `line-height: 1.5` (CSS 2.2
    /// §10.8.1) and the W3C design tokens format its typography `lineHeight`; a larger one can
    /// only be a length, pt (px in tokens).
    public static let largestUnitlessFactor = 5.0

    /// Factor × the natural line height (ascent + descent) of the style's primary face at its
    /// size — Apple's `lineHeightMultiple`. 1 is the font's own spacing.
    case multiple(Double)
    /// Factor × the font size (Figma "%", CSS unitless `line-height`): 1.5 at 10 pt is 15 pt.
    case relativeToSize(Double)
    /// A fixed step in pt.
    case absolute(Double)

    /// The step in pt for a face of `size` pt whose natural height (ascent + descent) is
    /// `naturalHeight` pt.
    public func step(size: Double, naturalHeight: Double) -> Double {
        switch self {
        case .multiple(let multiple): multiple * naturalHeight
        case .relativeToSize(let fraction): fraction * size
        case .absolute(let pt): pt
        }
    }

    /// The same rule for a face scaled from `size` to `newSize` (Dynamic Type, size adjustment):
    /// multiples and size-relative factors are unchanged, absolute steps scale proportionally.
    public func scaled(from size: Double, to newSize: Double) -> LineHeight {
        guard case .absolute(let pt) = self, size > 0 else { return self }
        return .absolute(pt * newSize / size)
    }
}

/// Letter spacing as a design tool writes it: points, or a percentage of the font size
/// (Figma's `letterSpacing` in %, Tokens Studio `-2%`).
public enum LetterSpacing: Hashable, Sendable {
    /// Space in pt.
    case points(Double)
    /// Space as a percentage of the font size (`-2%` at 20 pt is −0.4 pt).
    case percentOfSize(Double)

    /// The spacing in pt at a font size of `size` pt.
    public func points(atSize size: Double) -> Double {
        switch self {
        case .points(let pt): pt
        case .percentOfSize(let percent): percent / 100 * size
        }
    }
}

/// One role's typography: face, size, line height and letter spacing — what a design system's
/// type scale defines for Display … Caption2 (docs/markdown.md, "Attributes").
///
/// All lengths are in pt (1/72 in). A value type: modify a copy to override per block or span.
public struct TextStyle: Hashable, Sendable {
    /// Family names in fallback order, e.g. `["Inter", "Noto Sans CJK KR"]`: Latin from the
    /// first, Hangul from the first family that has it (Pango per-character fallback).
    public var families: [String]
    /// Weight on the OpenType/CSS scale (1…1000).
    public var weight: FontWeight
    /// Use an italic face.
    public var italic: Bool
    /// The em size in pt.
    public var size: Double
    /// nil: the face's natural line height (equivalent to `.multiple(1)`).
    public var lineHeight: LineHeight?
    /// Apple `kerning(_:)`: space added between characters, pt. Ignored when `tracking` is set
    /// (Core Text's rule: when both are set, tracking wins).
    public var kerning: LetterSpacing?
    /// Apple `tracking(_:)`: space added between characters, pt.
    public var tracking: LetterSpacing?
    /// OpenType feature settings, e.g. `["tnum", "ss01", "liga=0"]`.
    public var features: [String]
    /// The Dynamic Type text style this role scales with (`Font.custom(_:size:relativeTo:)`),
    /// or nil for a fixed size (`Font.custom(_:fixedSize:)`).
    public var relativeTo: DynamicTypeStyle?
    /// The case its letters are set in (upper, lower, capitalized, small caps); nil: as written.
    public var textCase: TextCase?
    /// A line drawn under or through the text; nil: none.
    public var textDecoration: TextDecoration?
    /// Space after a paragraph of this role, pt (Tokens Studio `paragraphSpacing`); nil: the
    /// page's block spacing.
    public var spaceAfter: Double?

    /// Creates a style from its parts (lengths in pt): regular, upright, natural line height,
    /// no letter spacing or features, fixed size by default.
    public init(
        families: [String], weight: FontWeight = .regular, italic: Bool = false, size: Double,
        lineHeight: LineHeight? = nil, kerning: LetterSpacing? = nil, tracking: LetterSpacing? = nil,
        features: [String] = [], relativeTo: DynamicTypeStyle? = nil
    ) {
        self.families = families
        self.weight = weight
        self.italic = italic
        self.size = size
        self.lineHeight = lineHeight
        self.kerning = kerning
        self.tracking = tracking
        self.features = features
        self.relativeTo = relativeTo
    }

    /// The space added between characters, pt: tracking when set (even when kerning is also
    /// set — Core Text: "kern is ignored unless tracking is 0"), else kerning, else 0.
    public var letterSpacing: Double {
        if let tracking { return tracking.points(atSize: size) }
        return kerning?.points(atSize: size) ?? 0
    }

    /// The family Latin text is set in (the first of ``families``).
    public var primaryFamily: String { families.first ?? "sans-serif" }
}
