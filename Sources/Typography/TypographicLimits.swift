import Foundation

/// The ranges typographic values must lie in. Beyond them text vanishes (a 10⁻⁹ pt size),
/// leaves the page (10⁹ pt tracking) or overflows the 32-bit fields Pango measures in, so
/// every value read from a document, theme or token file is checked against them.
public enum TypographicLimits {
    /// Font size, pt: 1 pt (below, text is invisible in print) to 1000 pt (a glyph wider than
    /// any paper).
    public static let size: ClosedRange<Double> = 1...1000
    /// Letter spacing (tracking, kerning), pt.
    public static let letterSpacing: ClosedRange<Double> = -100...100
    /// Letter spacing as a percentage of the size.
    public static let letterSpacingPercent: ClosedRange<Double> = -100...1000
    /// Baseline offset, pt.
    public static let baselineOffset: ClosedRange<Double> = -500...500
    /// Line height (step), pt.
    public static let lineHeight: ClosedRange<Double> = 0.5...2000
    /// Line-height multiple or percentage factor.
    public static let lineHeightFactor: ClosedRange<Double> = 0.1...20
    /// A side of a picture as asked for (`width=`, `height=`), pt: 1 pt to 14 400 pt (200 in,
    /// the largest page side PDF allows).
    public static let imageSide: ClosedRange<Double> = 1...14_400
    /// A side of a picture as a share of the measure or the text area's height, %.
    public static let imageShare: ClosedRange<Double> = 0.1...100
    /// Stroke width, pt.
    public static let strokeWidth: ClosedRange<Double> = 0...50

    /// "`name` must be between a and b `unit`" when `value` is outside `range` (or not a finite
    /// number), else nil.
    public static func problem(_ name: String, _ value: Double, _ range: ClosedRange<Double>, unit: String = "pt")
        -> String?
    {
        guard !value.isFinite || !range.contains(value) else { return nil }
        // Whole numbers without a fraction, others to six significant digits (1142.86, 1e-300).
        func text(_ value: Double) -> String {
            guard value.isFinite else { return String(value) }
            return value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(format: "%g", value)
        }
        return
            "\(name) must be between \(text(range.lowerBound)) and "
            + "\(text(range.upperBound))\(unit.isEmpty ? "" : " " + unit), not \(text(value))"
    }
}

extension TextStyle {
    /// Every value of this style outside ``TypographicLimits``, as messages naming the key.
    public var limitProblems: [String] {
        var problems: [String] = []
        if let problem = TypographicLimits.problem("size", size, TypographicLimits.size) { problems.append(problem) }
        for (name, spacing) in [("tracking", tracking), ("kerning", kerning)] {
            switch spacing {
            case .points(let pt)?:
                if let problem = TypographicLimits.problem(name, pt, TypographicLimits.letterSpacing) {
                    problems.append(problem)
                }
            case .percentOfSize(let percent)?:
                if let problem = TypographicLimits.problem(
                    name, percent, TypographicLimits.letterSpacingPercent, unit: "%")
                {
                    problems.append(problem)
                }
            case nil: break
            }
        }
        switch lineHeight {
        case .absolute(let pt)?:
            if let problem = TypographicLimits.problem("lineHeight", pt, TypographicLimits.lineHeight) {
                problems.append(problem)
            }
        case .multiple(let factor)?, .relativeToSize(let factor)?:
            if let problem = TypographicLimits.problem(
                "line height factor", factor, TypographicLimits.lineHeightFactor, unit: "")
            {
                problems.append(problem)
            }
        case nil: break
        }
        return problems
    }
}

extension TextStyle {
    /// Values within the limits that still spoil the text, by the key that sets them: a line
    /// height under 0.6 of the size (lines overprint: `"lineHeight": 1.5` meant as pt at 9 pt),
    /// and tracking or kerning whose magnitude passes half the size (glyphs run into each other
    /// or apart: `-50` for `-0.5`). Warnings, not errors: a display line may be set tight.
    public var legibilityProblems: [(key: String, message: String)] {
        var problems: [(key: String, message: String)] = []
        let step: Double? =
            switch lineHeight {
            case .absolute(let pt)?: pt
            case .relativeToSize(let factor)?: factor * size
            case .multiple, nil: nil
            }
        if let step, size > 0, step < 0.6 * size {
            let key = fieldName(of: lineHeight)
            problems.append(
                (
                    key,
                    "lineHeight \(Self.points(step)) pt is under 0.6 of the size \(Self.points(size)) pt: lines "
                        + "overprint (a multiple of the size is written 1.5, pt as \"15pt\")"
                ))
        }
        for (name, spacing) in [("tracking", tracking), ("kerning", kerning)] {
            let pt: Double? =
                switch spacing {
                case .points(let pt)?: pt
                case .percentOfSize(let percent)?: percent / 100 * size
                case nil: nil
                }
            if let pt, abs(pt) > 0.5 * size {
                problems.append(
                    (
                        name,
                        "\(name) \(Self.points(pt)) pt is more than half the size \(Self.points(size)) pt: glyphs "
                            + (pt < 0 ? "run into each other" : "stand apart")
                            + " (tracking is pt, or \"-2%\" of the size)"
                    ))
            }
        }
        return problems
    }

    private func fieldName(of lineHeight: LineHeight?) -> String {
        if case .multiple? = lineHeight { return "lineHeightMultiple" }
        return "lineHeight"
    }

    private static func points(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(format: "%g", value)
    }
}

extension Double {
    /// This length in whole points for a message (`595`), or as Swift writes it (`-1e+300`,
    /// `inf`, `nan`) when it has no whole-number form an `Int` can hold: a message about an
    /// absurd value must never trap while it is being written.
    public var wholePointsText: String {
        let whole = rounded()
        return whole.isFinite && abs(whole) < 1e15 ? String(Int(whole)) : String(self)
    }
}
