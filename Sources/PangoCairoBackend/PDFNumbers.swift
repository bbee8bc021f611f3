internal import CNumberFormatting

/// The numbers Cairo writes into a PDF's content streams (coordinates, matrices, glyph
/// adjustments): formatted by `CNumberFormatting`'s `__snprintf_chk`, exactly as glibc formats
/// them (`%f`, `%.Nf`, `%.*f`: correctly rounded, C11 7.21.6.1) in about a tenth of glibc's
/// instructions, when that definition is the one the process uses.
enum PDFNumbers {
    /// True when Cairo's calls of `__snprintf_chk` reach `CNumberFormatting`'s definition; asked once.
    static let formattedByTypeset = typeset_number_formatting_in_effect() != 0

    /// `value` with `digits` (0…18) digits after the point, as `CNumberFormatting` writes it for
    /// Cairo; nil where it leaves the value to glibc (not finite, |value| ≥ 2^63).
    static func fixed(_ value: Double, digits: Int) -> String? {
        var buffer = [CChar](repeating: 0, count: 64)
        let length = typeset_format_fixed(&buffer, buffer.count, value, Int32(digits))
        guard length >= 0 else { return nil }
        return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
