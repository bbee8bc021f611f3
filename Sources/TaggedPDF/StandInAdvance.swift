import Foundation

/// The advance of a colour cluster's stand-in glyph (``StructureRecords/standIns``), made the
/// cluster's own.
///
/// The renderer draws an emoji's stand-in as a space glyph at the emoji's origin; Cairo then
/// moves to the next glyph with a `TJ` adjustment (`[()-964(.txt)]TJ`), so readers that place
/// words by their glyphs' boxes (poppler, pypdf) see a gap as wide as the emoji less the space
/// after it and read a word space there. The tagging pass moves that adjustment into the
/// stand-in's own advance: the adjustment goes, and the stand-in is shown with character
/// spacing (`Tc`, PDF 1.7 §9.3.2) of the same amount, set just before it and reset to 0 just
/// after, so every later glyph lands where Cairo put it and the stand-in's box spans the
/// emoji's image. Cairo 1.16 sets no character spacing of its own. A stand-in that ends its
/// text object (a token of highlighted inline code, a line's last) or is followed by text
/// placed anew (`Td`, `Tm`: emphasis, a link) has no adjustment after it: its character spacing
/// is then the one the renderer recorded for it (``StructureRecords/standInExtras``), so its
/// box spans the image there too.
struct StandInAdvance {
    /// Where the rewritten stream shows the stand-in's glyph in the open span: the positions
    /// before and after its text-showing operator.
    var shown: (before: Int, after: Int)?
    /// The stand-in's span has just ended: where its glyph was shown, for the next operator.
    var ended: (before: Int, after: Int)?
    /// The recorded extra advance of the stand-in shown last, em of its font.
    var extra: Double?
    /// The recorded extra advance of the stand-in whose span has just ended (``ended``).
    var endedExtra: Double?
    /// By run, how many of its stand-ins have been read.
    private var taken: [Int32: Int] = [:]

    /// The recorded extra advance of the next stand-in of `run`, em; nil when none is left.
    mutating func next(in run: Int32, of extras: [Int32: [Double]]) -> Double? {
        let index = taken[run, default: 0]
        taken[run] = index + 1
        guard let list = extras[run], index < list.count else { return nil }
        return list[index]
    }

    /// The adjustment that begins the array of a `TJ` (`[`, an empty string, a number) and the
    /// byte range of the string and number, which the stand-in's advance takes over.
    static func leadingAdjustment(_ operands: [Range<Int>], lexer: PDFLexer) -> (value: Double, cut: Range<Int>)? {
        guard operands.count >= 4, operands[0].count == 1, lexer.equals(operands[0], [0x5B]),
            lexer.stringBytes(operands[1])?.isEmpty == true, let value = lexer.number(operands[2])
        else { return nil }
        return (value, operands[1].lowerBound..<operands[2].upperBound)
    }

    /// The operators that set the character spacing `spacing` (unscaled text space units) and
    /// reset it to 0, around a stand-in shown between `before` and `after` in `out`.
    static func insertSpacing(_ spacing: Double, around shown: (before: Int, after: Int), in out: inout [UInt8]) {
        out.insert(contentsOf: Array("\n0 Tc".utf8), at: shown.after)
        out.insert(contentsOf: Array((String(format: "%.5f", spacing) + " Tc\n").utf8), at: shown.before)
    }
}
