/// Lengths in Pandoc attributes (`size=12px`, `tracking=0.5pt`).
enum AttributeLength {
    /// `text` as a number: a bare number or one written with `pt`; where `unit` is pt, also
    /// `16px` (the CSS px, 1/96 in = 0.75 pt; CSS Values and Units Level 3, §5.2). nil otherwise.
    static func points(_ text: String, unit: String) -> Double? {
        if unit == "pt", text.hasSuffix("px") { return Double(text.dropLast(2)).map { $0 * 0.75 } }
        return Double(text.hasSuffix("pt") ? String(text.dropLast(2)) : text)
    }
}
