/// The exact advance widths of the glyphs of an embedded font program, in thousandths of an
/// em (PDF 1.7 §9.2.4, glyph space): what a font dictionary's `/Widths` or `/W` should say.
///
/// Cairo 1.16 writes those arrays as whole thousandths (the advance truncated), while it places
/// the glyphs of a text-showing operator from the exact advances: a reader that adds up
/// `/Widths` (text extraction, a glyph's box, the last glyph's right edge) ends each line short
/// by up to a thousandth of an em a glyph, about 0.3 pt on a 90 mm line of 10.5 pt text.
enum FontProgramWidths {
    /// Advance widths by glyph index of a TrueType font program (`/FontFile2`): `hmtx`
    /// advances (glyphs after the last long metric repeat its advance) × 1000 / `head`'s
    /// units per em (OpenType, tables `head`, `hhea`, `hmtx`); nil when a table is missing.
    static func trueType(_ program: [UInt8]) -> [Double]? {
        func uint16(_ at: Int) -> Int? { at + 2 <= program.count ? Int(program[at]) << 8 | Int(program[at + 1]) : nil }
        func uint32(_ at: Int) -> Int? {
            guard let high = uint16(at), let low = uint16(at + 2) else { return nil }
            return high << 16 | low
        }
        guard let tableCount = uint16(4) else { return nil }
        var tables: [String: Int] = [:]
        for k in 0..<tableCount {
            let record = 12 + 16 * k
            guard record + 16 <= program.count, let offset = uint32(record + 8) else { return nil }
            tables[String(decoding: program[record..<(record + 4)], as: UTF8.self)] = offset
        }
        guard let head = tables["head"], let hhea = tables["hhea"], let hmtx = tables["hmtx"],
            let maxp = tables["maxp"], let unitsPerEm = uint16(head + 18), unitsPerEm > 0,
            let metrics = uint16(hhea + 34), metrics > 0, let glyphCount = uint16(maxp + 4)
        else { return nil }
        var widths: [Double] = []
        widths.reserveCapacity(glyphCount)
        var last = 0
        for glyph in 0..<glyphCount {
            if glyph < metrics {
                guard let advance = uint16(hmtx + 4 * glyph) else { return nil }
                last = advance
            }
            widths.append(Double(last) * 1000 / Double(unitsPerEm))
        }
        return widths
    }

    /// The glyph of each character of a TrueType font program's Unicode character map
    /// (`cmap` platform 3 encoding 1, format 4: segments of characters, each mapped by a delta
    /// or through the glyph array; OpenType `cmap`); nil when it has none.
    static func trueTypeCharacters(_ program: [UInt8]) -> [Int: Int]? {
        func uint16(_ at: Int) -> Int { at + 2 <= program.count ? Int(program[at]) << 8 | Int(program[at + 1]) : 0 }
        let tableCount = uint16(4)
        var cmap: Int?
        for k in 0..<tableCount where 12 + 16 * k + 16 <= program.count {
            let record = 12 + 16 * k
            if program[record..<(record + 4)].elementsEqual("cmap".utf8) {
                cmap = uint16(record + 8) << 16 | uint16(record + 10)
            }
        }
        guard let cmap else { return nil }
        var subtable: Int?
        for k in 0..<uint16(cmap + 2) where uint16(cmap + 4 + 8 * k) == 3 && uint16(cmap + 6 + 8 * k) == 1 {
            subtable = cmap + (uint16(cmap + 8 + 8 * k) << 16 | uint16(cmap + 10 + 8 * k))
        }
        guard let table = subtable, uint16(table) == 4 else { return nil }
        let segments = uint16(table + 6) / 2
        let ends = table + 14
        let starts = ends + 2 * segments + 2
        let deltas = starts + 2 * segments
        let rangeOffsets = deltas + 2 * segments
        guard rangeOffsets + 2 * segments <= program.count else { return nil }
        var characters: [Int: Int] = [:]
        for segment in 0..<segments {
            let start = uint16(starts + 2 * segment)
            let end = uint16(ends + 2 * segment)
            let delta = uint16(deltas + 2 * segment)
            let rangeOffset = uint16(rangeOffsets + 2 * segment)
            guard start <= end, end != 0xFFFF else { continue }
            for character in start...end {
                if rangeOffset == 0 {
                    characters[character] = (character + delta) & 0xFFFF
                } else {
                    let at = rangeOffsets + 2 * segment + rangeOffset + 2 * (character - start)
                    let glyph = uint16(at)
                    if glyph != 0 { characters[character] = (glyph + delta) & 0xFFFF }
                }
            }
        }
        return characters
    }

    /// The character of code `code` in WinAnsiEncoding (PDF 1.7 Annex D.2): Latin-1 but for
    /// 128–159, which hold the Windows code page 1252 punctuation; nil for an unused code.
    static func winAnsi(_ code: Int) -> Int? {
        let high: [Int?] = [
            0x20AC, nil, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152,
            nil, 0x017D, nil, nil, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161,
            0x203A, 0x0153, nil, 0x017E, 0x0178,
        ]
        switch code {
        case 32...127, 160...255: return code
        case 128...159: return high[code - 128]
        default: return nil
        }
    }

    /// A CFF font program's advance widths by glyph index (its charstrings' widths, Adobe
    /// Technical Note #5177 §4.2: the first operand before the first stem, move or `endchar`
    /// when there is one more than the operator takes, added to the private dictionary's
    /// `nominalWidthX`, else its `defaultWidthX`), × the font matrix × 1000, once for each
    /// reading of a CID-keyed font's two matrices (the font dictionary's concatenated with the
    /// top one, or either alone: producers differ; the caller keeps the reading that agrees
    /// with the widths it has); and for a name-keyed font with an encoding of its own
    /// (format 0, as Cairo writes its subsets), the code of each glyph (0 for none; nil for
    /// another encoding). Nil when the program is not one this reader follows (a charstring
    /// whose width cannot be told).
    static func compactFontFormat(_ program: [UInt8]) -> (readings: [[Double]], codes: [Int]?)? {
        var reader = CFFCharset.Reader(bytes: program)
        guard program.count > 4, program[0] == 1 else { return nil }
        reader.position = Int(program[2])
        guard reader.skipIndex(), let topDictionary = reader.index()?.first, reader.skipIndex(),
            let globalSubroutines = reader.index()
        else { return nil }
        let top = Self.dictionary(program[topDictionary])
        guard let charStringsOffset = top[17]?.first.map(Int.init) else { return nil }
        reader.position = charStringsOffset
        guard let charStrings = reader.index(), !charStrings.isEmpty else { return nil }
        // Private dictionaries (default and nominal width) by font dictionary, and the font
        // dictionary of each glyph (CID-keyed fonts: FDArray and FDSelect).
        var privates: [PrivateWidths] = []
        var select = [Int](repeating: 0, count: charStrings.count)
        let topScale = top[1207]?.first ?? 0.001
        if top[1230] != nil {
            guard let fdArray = top[1236]?.first, let fdSelect = top[1237]?.first else { return nil }
            reader.position = Int(fdArray)
            guard let fonts = reader.index() else { return nil }
            for font in fonts {
                let dictionary = Self.dictionary(program[font])
                // The font dictionary's matrix is concatenated with the top one (TN #5176 §19).
                let own = dictionary[1207]?.first
                let scales = own.map { [$0 * topScale * 1000, $0, topScale] } ?? [topScale]
                guard let entry = privateWidths(program, dictionary[18], scales: scales) else { return nil }
                privates.append(entry)
            }
            guard fdSelectionRead(program, at: Int(fdSelect), into: &select) else { return nil }
        } else {
            guard let entry = privateWidths(program, top[18], scales: [topScale]) else { return nil }
            privates.append(entry)
        }
        let readingCount = privates.map(\.scales.count).max() ?? 1
        var readings = [[Double]](repeating: [], count: readingCount)
        for (glyph, range) in charStrings.enumerated() {
            guard select[glyph] < privates.count else { return nil }
            let font = privates[select[glyph]]
            guard
                let width = charStringWidth(
                    program, range, subroutines: (font.subroutines, globalSubroutines))
            else { return nil }
            let units = width.map { font.nominalWidth + $0 } ?? font.defaultWidth
            for reading in 0..<readingCount {
                readings[reading].append(units * exactScale(font.scales[min(reading, font.scales.count - 1)]) * 1000)
            }
        }
        var codes: [Int]?
        if top[1230] == nil, let encoding = top[16]?.first.map(Int.init), encoding > 1,
            encoding + 2 <= program.count, program[encoding] == 0
        {
            let count = Int(program[encoding + 1])
            guard encoding + 2 + count <= program.count else { return nil }
            var glyphCodes = [Int](repeating: 0, count: charStrings.count)
            for k in 0..<min(count, charStrings.count - 1) { glyphCodes[k + 1] = Int(program[encoding + 2 + k]) }
            codes = glyphCodes
        }
        return (readings, codes)
    }

    /// A font matrix's scale as the font meant it: `1 / unitsPerEm` when the written value
    /// (five significant digits, 0.00035511 for 2816 units: 1.1 × 10⁻⁵ off) is that to within
    /// 1/10,000.
    private static func exactScale(_ scale: Double) -> Double {
        guard scale > 0 else { return 0.001 }
        let units = (1 / scale).rounded()
        return abs(units * scale - 1) < 1e-4 ? 1 / units : scale
    }

    /// What a private dictionary gives the widths of its glyphs.
    private struct PrivateWidths {
        /// `defaultWidthX` and `nominalWidthX`, font units.
        var defaultWidth: Double, nominalWidth: Double
        /// The font matrix scales to try (``compactFontFormat(_:)``).
        var scales: [Double]
        /// The local subroutines (byte ranges in the program).
        var subroutines: [Range<Int>]
    }

    /// The default and nominal widths and the local subroutines of the private dictionary at
    /// `entry` (`[size offset]`).
    private static func privateWidths(_ program: [UInt8], _ entry: [Double]?, scales: [Double]) -> PrivateWidths? {
        guard let entry, entry.count == 2 else { return nil }
        let size = Int(entry[0])
        let offset = Int(entry[1])
        guard size >= 0, offset >= 0, offset + size <= program.count else { return nil }
        let dictionary = Self.dictionary(program[offset..<(offset + size)])
        var subroutines: [Range<Int>] = []
        if let local = dictionary[19]?.first {
            var reader = CFFCharset.Reader(bytes: program)
            reader.position = offset + Int(local)
            guard let index = reader.index() else { return nil }
            subroutines = index
        }
        return PrivateWidths(
            defaultWidth: dictionary[20]?.first ?? 0, nominalWidth: dictionary[21]?.first ?? 0, scales: scales,
            subroutines: subroutines)
    }

    /// Reads an FDSelect (formats 0 and 3) at `offset` into `select`, by glyph.
    private static func fdSelectionRead(_ program: [UInt8], at offset: Int, into select: inout [Int]) -> Bool {
        guard offset < program.count else { return false }
        let glyphs = select.count
        if program[offset] == 0 {
            guard offset + 1 + glyphs <= program.count else { return false }
            for glyph in 0..<glyphs { select[glyph] = Int(program[offset + 1 + glyph]) }
            return true
        }
        guard program[offset] == 3, offset + 3 <= program.count else { return false }
        let ranges = Int(program[offset + 1]) << 8 | Int(program[offset + 2])
        guard offset + 3 + 3 * ranges + 2 <= program.count else { return false }
        for range in 0..<ranges {
            let at = offset + 3 + 3 * range
            let first = Int(program[at]) << 8 | Int(program[at + 1])
            let next = Int(program[at + 3]) << 8 | Int(program[at + 4])
            guard first <= next, next <= glyphs else { return false }
            for glyph in first..<next { select[glyph] = Int(program[at + 2]) }
        }
        return true
    }

    /// The width operand of the Type 2 charstring at `range` of `program` (nil inside: none,
    /// the default width), read up to its first stem, move or `endchar` through the local and
    /// global `subroutines` it calls (numbered with the bias of TN #5177 §4.7); nil when that
    /// operator is not reached (another operator first, a call nested deeper than 10).
    private static func charStringWidth(
        _ program: [UInt8], _ range: Range<Int>, subroutines: (local: [Range<Int>], global: [Range<Int>])
    ) -> Double?? {
        func bias(_ count: Int) -> Int { count < 1240 ? 107 : count < 33900 ? 1131 : 32768 }
        var operands: [Double] = []
        var calls: [(position: Int, end: Int)] = []
        var position = range.lowerBound
        var end = range.upperBound
        func byte(_ at: Int) -> Int { at < end ? Int(program[at]) : 0 }
        while position < end {
            let b0 = Int(program[position])
            switch b0 {
            case 32...246:
                operands.append(Double(b0 - 139))
                position += 1
            case 247...250:
                operands.append(Double((b0 - 247) * 256 + byte(position + 1) + 108))
                position += 2
            case 251...254:
                operands.append(Double(-(b0 - 251) * 256 - byte(position + 1) - 108))
                position += 2
            case 28:
                operands.append(Double(Int16(truncatingIfNeeded: byte(position + 1) << 8 | byte(position + 2))))
                position += 3
            case 255:
                let high = byte(position + 1) << 24 | byte(position + 2) << 16
                let fixed = high | byte(position + 3) << 8 | byte(position + 4)
                operands.append(Double(Int32(truncatingIfNeeded: fixed)) / 65536)
                position += 5
            case 10, 29:  // callsubr, callgsubr
                let list = b0 == 10 ? subroutines.local : subroutines.global
                guard let number = operands.popLast(), calls.count < 10 else { return nil }
                let index = Int(number) + bias(list.count)
                guard list.indices.contains(index) else { return nil }
                calls.append((position + 1, end))
                position = list[index].lowerBound
                end = list[index].upperBound
            case 11:  // return
                guard let call = calls.popLast() else { return nil }
                (position, end) = call
            default:
                let count = operands.count
                let hasWidth: Bool
                switch b0 {
                case 1, 3, 18, 23, 19, 20: hasWidth = count % 2 == 1  // stems, hint and counter masks
                case 21: hasWidth = count == 3  // rmoveto
                case 4, 22: hasWidth = count == 2  // vmoveto, hmoveto
                case 14: hasWidth = count == 1 || count == 5  // endchar
                default: return nil
                }
                return .some(hasWidth ? operands.first : nil)
            }
            if position >= end, let call = calls.popLast() { (position, end) = call }
        }
        return nil
    }

    /// A CFF DICT's operands by operator (two-byte operators as 1200 + second byte), integers
    /// and reals (TN #5176 §4).
    static func dictionary(_ data: ArraySlice<UInt8>) -> [Int: [Double]] {
        var result: [Int: [Double]] = [:]
        var operands: [Double] = []
        var position = data.startIndex
        func byte(_ at: Int) -> Int { at < data.endIndex ? Int(data[at]) : 0 }
        while position < data.endIndex {
            let b0 = Int(data[position])
            position += 1
            switch b0 {
            case 0...21:
                var key = b0
                if b0 == 12 {
                    key = 1200 + byte(position)
                    position += 1
                }
                result[key] = operands
                operands.removeAll()
            case 28:
                operands.append(Double(Int16(truncatingIfNeeded: byte(position) << 8 | byte(position + 1))))
                position += 2
            case 29:
                let high = byte(position) << 24 | byte(position + 1) << 16
                let value = high | byte(position + 2) << 8 | byte(position + 3)
                operands.append(Double(Int32(truncatingIfNeeded: value)))
                position += 4
            case 30:
                var text = ""
                reading: while position < data.endIndex {
                    let pair = Int(data[position])
                    position += 1
                    for nibble in [pair >> 4, pair & 0x0F] {
                        switch nibble {
                        case 0...9: text += String(nibble)
                        case 0xA: text += "."
                        case 0xB: text += "E"
                        case 0xC: text += "E-"
                        case 0xE: text += "-"
                        case 0xF: break reading
                        default: break
                        }
                    }
                }
                operands.append(Double(text) ?? 0)
            case 32...246: operands.append(Double(b0 - 139))
            case 247...250:
                operands.append(Double((b0 - 247) * 256 + byte(position) + 108))
                position += 1
            case 251...254:
                operands.append(Double(-(b0 - 251) * 256 - byte(position) - 108))
                position += 1
            default: return result
            }
        }
        return result
    }
}
