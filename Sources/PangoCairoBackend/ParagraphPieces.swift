import Styling

/// Where a long paragraph is cut into the pieces ``PangoShaper`` lays out one at a time.
///
/// A piece holds at most ``maximumWidth`` pt of text (and, unwrapped, ``maximumRuns`` runs) at an upper bound of 2 em +
/// tracking per
/// byte — far inside the 2³¹ Pango units (≈ 2,097,152 pt at 1024 units per pt) a layout can
/// measure — and, when lines wrap, at most ``maximumBytes`` of UTF-8 text: Pango 1.50 shapes
/// the rest of an item again after every line it breaks, so one layout costs O(n²) in its
/// length (a 100,000-character word took 32.7 s, a 500 KB keep-all Korean paragraph 28.5 s);
/// pieces of a few lines keep it O(n). Measured on a 40,000-character word: 4096-byte pieces
/// 1.15 s, 1024 0.58 s, 512 0.51 s, 256 0.48 s; ordinary paragraphs cost the same at each size.
/// Unwrapped, a piece of text that mixes directions also holds at most ``maximumRuns`` of the
/// items Pango is estimated to make of it (``mixedDirectionItemStarts(_:)``): Pango orders one
/// line's runs of both directions in time quadratic in their number.
struct ParagraphPieces {
    /// UTF-8 bytes per piece when lines wrap: about six lines of Body text.
    static let maximumBytes = 512
    /// UTF-8 bytes per piece when they do not (natural-width measuring): one piece is one line,
    /// so only the width bound should cut it.
    static let maximumUnwrappedBytes = 1 << 20
    /// Estimated unwrapped width per piece, pt.
    static let maximumWidth = 1_000_000.0
    /// Runs per piece when lines do not wrap: Pango applies a layout's colours, underlines and
    /// backgrounds to each run by walking its attribute list from the start
    /// (`pango_glyph_item_apply_attrs`, Pango 1.50), so one layout of n runs that differ in
    /// colour (a paragraph of links) costs O(n²); a piece of at most this many keeps it O(n).
    /// Each run costs a walk over half a piece's attributes, so smaller pieces cost less: a
    /// paragraph of 8,000 links takes 9 % fewer instructions at 64 than at 256.
    /// Also the runs of one layout of chosen lines (``ParagraphShaping/maximumRunsPerShaping``).
    static let maximumRuns = 64

    let runs: [StyledRun]
    let starts: [Int]
    let bytes: [UInt8]
    /// Lines wrap (a width was given).
    let wraps: Bool
    /// When lines do not wrap and the text mixes directions: the bytes where an item of
    /// Pango's is estimated to start (``mixedDirectionItemStarts(_:)``), ascending; else empty.
    let itemStarts: [Int]

    init(runs: [StyledRun], starts: [Int], bytes: [UInt8], wraps: Bool) {
        self.runs = runs
        self.starts = starts
        self.bytes = bytes
        self.wraps = wraps
        itemStarts = wraps ? [] : Self.mixedDirectionItemStarts(bytes)
    }

    /// The end (exclusive) of the piece that starts at byte `start`: the whole rest when it is
    /// within both limits, else a cut just after a space when there is one in the piece's second
    /// half, else a cut between two characters there (never inside a UTF-8 sequence, never
    /// before a combining mark, joiner or variation selector), else (one cluster fills the
    /// piece's second half) a cut between two scalars of that cluster.
    func end(from start: Int) -> Int {
        var limit = min(bytes.count, start + (wraps ? Self.maximumBytes : Self.maximumUnwrappedBytes))
        var index = runIndex(atByte: start)
        if !wraps, index + Self.maximumRuns < starts.count {
            limit = min(limit, max(start + 1, starts[index + Self.maximumRuns]))
        }
        // At most ``maximumRuns`` items of mixed directions.
        let item = Self.firstIndex(in: itemStarts, after: start)
        if item + Self.maximumRuns - 1 < itemStarts.count {
            limit = min(limit, max(start + 1, itemStarts[item + Self.maximumRuns - 1]))
        }
        // The width bound, run by run.
        var width = 0.0
        var position = start
        while position < limit, index < runs.count {
            let runEnd = index + 1 < starts.count ? starts[index + 1] : bytes.count
            let perByte = 2 * runs[index].style.font.size + abs(runs[index].style.letterSpacing)
            let take = min(runEnd, limit) - position
            if perByte > 0, width + Double(take) * perByte > Self.maximumWidth {
                limit = position + max(1, Int((Self.maximumWidth - width) / perByte))
                break
            }
            width += Double(take) * perByte
            position += take
            index += 1
        }
        guard limit < bytes.count else { return bytes.count }
        // Each search looks back at most half the piece, so every piece but the last holds at
        // least half its limit and the cuts cost time linear in the text.
        let floor = start + (limit - start) / 2
        var cut = limit
        while cut > floor, bytes[cut - 1] != 0x20 { cut -= 1 }
        if bytes[cut - 1] == 0x20, cut > start { return cut }
        cut = limit
        while cut > floor, !isBoundary(cut) { cut -= 1 }
        if cut > floor { return cut }
        // One cluster longer than half the piece (a letter with thousands of combining marks):
        // cut it between two of its scalars.
        cut = limit
        while cut > start + 1, bytes[cut] & 0xC0 == 0x80 { cut -= 1 }
        return cut
    }

    /// A cut at `byte` falls between two characters: not inside a UTF-8 sequence, not before a
    /// combining mark, zero-width joiner or variation selector.
    private func isBoundary(_ byte: Int) -> Bool {
        guard bytes[byte] & 0xC0 != 0x80 else { return false }
        var iterator = bytes[byte..<min(bytes.count, byte + 4)].makeIterator()
        var decoder = UTF8()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return true }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return false
        default:
            return
                !(scalar.value == 0x200D || (0xFE00...0xFE0F).contains(scalar.value)
                || (0xE0100...0xE01EF).contains(scalar.value))
        }
    }

    /// The index of the first of the ascending `offsets` greater than `byte` (`offsets.count`
    /// when none is).
    private static func firstIndex(in offsets: [Int], after byte: Int) -> Int {
        var low = 0
        var high = offsets.count
        while low < high {
            let mid = (low + high) / 2
            if offsets[mid] <= byte { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The run holding byte `byte`: the last whose start is at or before it.
    private func runIndex(atByte byte: Int) -> Int {
        max(0, Self.firstIndex(in: starts, after: byte) - 1)
    }
}
