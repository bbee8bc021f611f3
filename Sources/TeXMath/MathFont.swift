/// The constants of an OpenType MATH table, in the table's order (OpenType specification,
/// "MATH — The mathematical typesetting table", MathConstants; HarfBuzz's
/// `hb_ot_math_constant_t` numbers them the same way). Values are in font units, but for the
/// two script scale-downs and the degree raise, which are percentages.
public enum MathConstant: Int, CaseIterable, Sendable {
    case scriptPercentScaleDown, scriptScriptPercentScaleDown, delimitedSubFormulaMinHeight
    case displayOperatorMinHeight, mathLeading, axisHeight, accentBaseHeight, flattenedAccentBaseHeight
    case subscriptShiftDown, subscriptTopMax, subscriptBaselineDropMin, superscriptShiftUp
    case superscriptShiftUpCramped, superscriptBottomMin, superscriptBaselineDropMax, subSuperscriptGapMin
    case superscriptBottomMaxWithSubscript, spaceAfterScript, upperLimitGapMin, upperLimitBaselineRiseMin
    case lowerLimitGapMin, lowerLimitBaselineDropMin, stackTopShiftUp, stackTopDisplayStyleShiftUp
    case stackBottomShiftDown, stackBottomDisplayStyleShiftDown, stackGapMin, stackDisplayStyleGapMin
    case stretchStackTopShiftUp, stretchStackBottomShiftDown, stretchStackGapAboveMin, stretchStackGapBelowMin
    case fractionNumeratorShiftUp, fractionNumeratorDisplayStyleShiftUp, fractionDenominatorShiftDown
    case fractionDenominatorDisplayStyleShiftDown, fractionNumeratorGapMin, fractionNumDisplayStyleGapMin
    case fractionRuleThickness, fractionDenominatorGapMin, fractionDenomDisplayStyleGapMin
    case skewedFractionHorizontalGap, skewedFractionVerticalGap, overbarVerticalGap, overbarRuleThickness
    case overbarExtraAscender, underbarVerticalGap, underbarRuleThickness, underbarExtraDescender
    case radicalVerticalGap, radicalDisplayStyleVerticalGap, radicalRuleThickness, radicalExtraAscender
    case radicalKernBeforeDegree, radicalKernAfterDegree, radicalDegreeBottomRaisePercent
}

/// One part of a glyph assembly (OpenType MATH, GlyphPartRecord), font units.
public struct MathGlyphPart: Hashable, Sendable {
    /// The part's glyph.
    public var glyph: UInt32
    /// How far the part may overlap the part before it.
    public var startConnector: Double
    /// How far the part may overlap the part after it.
    public var endConnector: Double
    /// The part's full length along the stretch direction.
    public var fullAdvance: Double
    /// True for an extender, repeated as often as needed.
    public var isExtender: Bool

    /// Creates a part.
    public init(glyph: UInt32, startConnector: Double, endConnector: Double, fullAdvance: Double, isExtender: Bool) {
        self.glyph = glyph
        self.startConnector = startConnector
        self.endConnector = endConnector
        self.fullAdvance = fullAdvance
        self.isExtender = isExtender
    }
}

/// A glyph run shaped from text: glyph ids and advances, font units.
public struct MathShapedGlyph: Hashable, Sendable {
    /// The glyph id.
    public var glyph: UInt32
    /// Its advance.
    public var advance: Double
    /// Its offset along the run, relative to the pen position (kerning by positioning).
    public var offset: Double

    /// Creates a shaped glyph.
    public init(glyph: UInt32, advance: Double, offset: Double = 0) {
        self.glyph = glyph
        self.advance = advance
        self.offset = offset
    }
}

/// An OpenType font with a MATH table, as the layout reads it: every length in font units
/// (``unitsPerEm`` to the em). The backend implements it over HarfBuzz's `hb_ot_math_*`
/// functions; tests implement it with fixed numbers.
public protocol MathFont: Sendable {
    /// Font units to the em.
    var unitsPerEm: Double { get }
    /// A MATH constant (``MathConstant``): font units, or a percentage for the scale-downs.
    func constant(_ constant: MathConstant) -> Double
    /// The nominal glyph of `scalar` (the font's cmap), nil when the font has none.
    func glyph(for scalar: Unicode.Scalar) -> UInt32?
    /// The glyph of `scalar` for script level `level` (1: script, 2: scriptscript): the
    /// font's `ssty` alternate (OpenType feature "Math script style alternates"), which is drawn
    /// wider and bolder for small sizes; the nominal glyph when the font has none.
    func scriptGlyph(for scalar: Unicode.Scalar, level: Int) -> UInt32?
    /// `text` shaped with the font (its cmap, ligatures, kerning): for `\text` and for symbols
    /// of several scalars.
    func shape(_ text: String) -> [MathShapedGlyph]
    /// The glyph's advance width.
    func advance(of glyph: UInt32) -> Double
    /// The glyph's ink above (`ascent`) and below (`descent`, positive downwards) the baseline.
    func bounds(of glyph: UInt32) -> (ascent: Double, descent: Double)
    /// The glyph's italics correction (MathItalicsCorrectionInfo), 0 when it has none.
    func italicsCorrection(of glyph: UInt32) -> Double
    /// The glyph's top accent attachment (MathTopAccentAttachment), nil when it has none.
    func topAccentAttachment(of glyph: UInt32) -> Double?
    /// The glyph's size variants along one direction, smallest first (MathGlyphConstruction).
    func variants(of glyph: UInt32, vertical: Bool) -> [(glyph: UInt32, advance: Double)]
    /// The glyph's assembly along one direction, bottom to top or left to right; empty: none.
    func assembly(of glyph: UInt32, vertical: Bool) -> [MathGlyphPart]
    /// The least overlap between two connected parts of an assembly (MathVariants).
    var minimumConnectorOverlap: Double { get }
}

/// How far a run of text reaches: its advance and its ink above and below the baseline, pt.
public struct MathTextExtent: Hashable, Sendable {
    /// The advance width, spaces included, pt.
    public var width: Double
    /// The ink above the baseline, pt.
    public var ascent: Double
    /// The ink below the baseline, pt (positive downwards).
    public var descent: Double

    /// Creates an extent, pt.
    public init(width: Double, ascent: Double, descent: Double) {
        self.width = width
        self.ascent = ascent
        self.descent = descent
    }
}

/// Measures text set in the surrounding text's face (``MathNucleus/prose(_:_:)``) as the
/// renderer will draw it: the backend shapes it with its font fallback, so letters the math
/// font lacks are measured in the face that has them.
public protocol MathTextMeasurer: Sendable {
    /// The extent of `text` in `face` at `size` pt.
    func measure(_ text: String, face: MathTextFace, size: Double) -> MathTextExtent
}
