/// Where the bad sequences of a UTF-8 text are, found as Unicode's "U+FFFD Substitution of
/// Maximal Subparts" (Unicode 15 §3.9, Table 3-7 of well-formed byte sequences) counts them: a
/// lead byte followed by the longest run of bytes that could continue it is one bad sequence;
/// a byte that can start no sequence (0x80–0xC1, 0xF5–0xFF) is one. Swift's
/// `String(decoding:as:)` replaces exactly these with U+FFFD.
public enum UTF8Repair {
    /// The count of bad sequences and the 1-based line and column (bytes) of the first.
    public struct Scan: Equatable, Sendable {
        /// How many bad sequences there are.
        public var count = 0
        /// The 1-based line of the first.
        public var firstLine = 1
        /// The 1-based column of the first, in bytes.
        public var firstColumn = 1
        /// The byte offset of the first, and of the start of its line.
        public var firstOffset = 0, firstLineStart = 0
    }

    /// Scans `bytes` once. Lines end at LF, CR LF or (when `loneCarriageReturnEndsLine`, as in
    /// CommonMark) a lone CR.
    public static func scan(_ bytes: UnsafeRawBufferPointer, loneCarriageReturnEndsLine: Bool = true) -> Scan {
        var result = Scan()
        var line = 1
        var lineStart = 0
        var index = 0
        let end = bytes.count
        while index < end {
            let lead = bytes[index]
            if lead < 0x80 {
                if lead == 0x0A
                    || (loneCarriageReturnEndsLine && lead == 0x0D && (index + 1 == end || bytes[index + 1] != 0x0A))
                {
                    line += 1
                    lineStart = index + 1
                }
                index += 1
                continue
            }
            let length = sequenceLength(bytes, at: index)
            if length.isWellFormed {
                index += length.bytes
                continue
            }
            if result.count == 0 {
                result.firstLine = line
                result.firstColumn = index - lineStart + 1
                result.firstOffset = index
                result.firstLineStart = lineStart
            }
            result.count += 1
            index += length.bytes
        }
        return result
    }

    /// The length of the sequence starting at `index` (a byte ≥ 0x80) and whether it is well
    /// formed; an ill-formed one's length is its maximal subpart (at least 1).
    public static func sequenceLength(
        _ bytes: UnsafeRawBufferPointer, at index: Int
    ) -> (bytes: Int, isWellFormed: Bool) {
        let lead = bytes[index]
        // The allowed range of the second byte and the number of continuation bytes.
        let second: ClosedRange<UInt8>
        let continuations: Int
        switch lead {
        case 0xC2...0xDF:
            second = 0x80...0xBF
            continuations = 1
        case 0xE0:
            second = 0xA0...0xBF
            continuations = 2
        case 0xE1...0xEC, 0xEE...0xEF:
            second = 0x80...0xBF
            continuations = 2
        case 0xED:
            second = 0x80...0x9F
            continuations = 2
        case 0xF0:
            second = 0x90...0xBF
            continuations = 3
        case 0xF1...0xF3:
            second = 0x80...0xBF
            continuations = 3
        case 0xF4:
            second = 0x80...0x8F
            continuations = 3
        default: return (1, false)
        }
        var taken = 1
        while taken <= continuations {
            let position = index + taken
            guard position < bytes.count else { return (taken, false) }
            let allowed = taken == 1 ? second : 0x80...0xBF
            guard allowed.contains(bytes[position]) else { return (taken, false) }
            taken += 1
        }
        return (taken, true)
    }
}
