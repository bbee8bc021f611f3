/// Where an unwrapped layout of text that mixes directions must be cut to stay linear.
///
/// Pango 1.50 orders a line's runs for display (`pango_layout_line_reorder`) in one pass when
/// they all go one way, but when the line holds runs of both directions it rebuilds the list
/// with `g_slist_append` and `g_slist_concat`, each of which walks the list built so far
/// (`reorder_runs_recurse`): O(r²) in the line's runs r. A line cut to the measure holds few
/// runs, but the composer's measurement is one unwrapped line of the whole paragraph, so a
/// paragraph alternating Latin and Hebrew in short runs (`aשaש…`) cost time quadratic in its
/// length: 120,000 characters took 8.3 s against 0.45 s for 15,000. Cutting such a paragraph's
/// unwrapped layouts into pieces of at most ``ParagraphPieces/maximumRuns`` items keeps it
/// linear.
extension ParagraphPieces {
    /// The byte offsets (ascending) of `bytes`, UTF-8 text, at which a new Pango item is
    /// estimated to start — a change of direction, or of script or face among the letters of
    /// one direction — when the text holds a right-to-left letter or a right-to-left mark,
    /// embedding, override or isolate; empty when it holds none (its runs all go one way, which
    /// Pango orders in linear time). Spaces, punctuation, digits and combining marks start no
    /// item here: they join the letters around them. An estimate only: it decides where pieces
    /// are cut, never what is drawn.
    static func mixedDirectionItemStarts(_ bytes: [UInt8]) -> [Int] {
        // Most text has no byte that can start a right-to-left character (U+0590 and up).
        guard bytes.contains(where: { $0 >= 0xD6 }) else { return [] }
        var starts: [Int] = []
        var rightToLeft = false
        var previous: UInt32? = nil
        var index = 0
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        while true {
            let start = index
            guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { break }
            index += UTF8.width(scalar)
            guard let key = itemKey(scalar.value) else { continue }
            if key == rightToLeftKey { rightToLeft = true }
            if let previous, previous != key { starts.append(start) }
            previous = key
        }
        return rightToLeft ? starts : []
    }

    /// The key shared by every right-to-left letter and mark.
    private static let rightToLeftKey: UInt32 = 0xFFFF_FFFF

    /// Which item a scalar is estimated to fall in: ``rightToLeftKey`` for right-to-left
    /// letters and marks (Hebrew, Arabic, Syriac, Thaana, N'Ko … and their presentation forms;
    /// U+200F, U+202B, U+202E, U+2067), one key for Latin letters, one for CJK ideographs, else
    /// the scalar's 256-code-point block; nil for what joins its neighbours' item (ASCII other
    /// than letters, Latin-1 punctuation, combining marks, general punctuation and spaces,
    /// variation selectors, CJK punctuation).
    private static func itemKey(_ value: UInt32) -> UInt32? {
        switch value {
        case 0x41...0x5A, 0x61...0x7A: return 0
        case 0..<0x80, 0xA0..<0xC0, 0x0300..<0x0370, 0xFE00..<0xFE10, 0x3000..<0x3040, 0xE0100..<0xE01F0:
            return nil
        case 0x200F, 0x202B, 0x202E, 0x2067: return rightToLeftKey
        case 0x2000..<0x2070: return nil
        case 0x0590..<0x0900, 0xFB1D..<0xFE00, 0xFE70..<0xFF00, 0x10800..<0x11000, 0x1E800..<0x1F000:
            return rightToLeftKey
        case 0xC0..<0x0250, 0x1E00..<0x1F00: return 0
        case 0x3400..<0xA000, 0x20000..<0x40000: return 0x4E
        default: return value >> 8
        }
    }
}
