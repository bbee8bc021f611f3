/// The glyph names of a CFF font program (Adobe Technical Note #5176, "The Compact Font Format
/// Specification"): what a Type 1 font descriptor's `/CharSet` lists (PDF 1.7 Table 122), which
/// PDF/A-2 (ISO 19005-2 §6.2.11.4.2) checks against the embedded subset.
enum CFFCharset {
    /// The glyph names of the first font in `program`, a bare CFF table, in glyph order, without
    /// `.notdef`; nil when the data is not a name-keyed CFF font this reader follows (a
    /// CID-keyed font, a truncated table).
    static func glyphNames(_ program: [UInt8]) -> [String]? {
        var reader = Reader(bytes: program)
        guard program.count > 4, program[0] == 1 else { return nil }
        reader.position = Int(program[2])
        guard reader.skipIndex(), let topDictionary = reader.index()?.first else { return nil }
        guard let strings = reader.index() else { return nil }
        // Offsets and counts are integers; a real where one belongs (a damaged font) reads as 0.
        let operators = FontProgramWidths.dictionary(program[topDictionary]).mapValues {
            $0.map { Int(exactly: $0.rounded(.towardZero)) ?? 0 }
        }
        // A CID-keyed font (ROS, operator 12 30) names no glyphs.
        if operators[1230] != nil { return nil }
        guard let charStrings = operators[17]?.first else { return nil }
        reader.position = charStrings
        guard let glyphCount = reader.index()?.count, glyphCount > 0 else { return nil }
        let charset = operators[15]?.first ?? 0
        var identifiers: [Int] = []
        if charset == 0 {
            // ISOAdobe: glyph g has SID g.
            identifiers = Array(1..<glyphCount)
        } else if charset <= 2 {
            return nil
        } else {
            reader.position = charset
            guard let format = reader.card8() else { return nil }
            while identifiers.count < glyphCount - 1 {
                switch format {
                case 0:
                    guard let identifier = reader.card16() else { return nil }
                    identifiers.append(identifier)
                case 1, 2:
                    guard let first = reader.card16(), let left = format == 1 ? reader.card8() : reader.card16()
                    else { return nil }
                    identifiers.append(contentsOf: first...(first + left))
                default: return nil
                }
            }
        }
        let standard = CFFStandardStrings.names
        var names: [String] = []
        for identifier in identifiers.prefix(glyphCount - 1) {
            if identifier < standard.count {
                names.append(standard[identifier])
            } else if identifier - standard.count < strings.count {
                names.append(String(decoding: program[strings[identifier - standard.count]], as: UTF8.self))
            } else {
                return nil
            }
        }
        return names
    }

    /// Reads a CFF table's big-endian cards and INDEX structures.
    struct Reader {
        let bytes: [UInt8]
        var position = 0

        mutating func card8() -> Int? {
            guard position < bytes.count else { return nil }
            position += 1
            return Int(bytes[position - 1])
        }

        mutating func card16() -> Int? {
            guard position + 2 <= bytes.count else { return nil }
            position += 2
            return Int(bytes[position - 2]) << 8 | Int(bytes[position - 1])
        }

        private mutating func offset(size: Int) -> Int? {
            guard position + size <= bytes.count else { return nil }
            var value = 0
            for _ in 0..<size {
                value = value << 8 | Int(bytes[position])
                position += 1
            }
            return value
        }

        /// The byte ranges of an INDEX's items; the position moves past it.
        mutating func index() -> [Range<Int>]? {
            guard let count = card16() else { return nil }
            guard count > 0 else { return [] }
            guard let size = card8(), (1...4).contains(size) else { return nil }
            var offsets: [Int] = []
            for _ in 0...count {
                guard let value = offset(size: size) else { return nil }
                offsets.append(value)
            }
            let base = position - 1
            guard let last = offsets.last, base + last <= bytes.count else { return nil }
            var items: [Range<Int>] = []
            for item in 0..<count {
                guard offsets[item] <= offsets[item + 1] else { return nil }
                items.append((base + offsets[item])..<(base + offsets[item + 1]))
            }
            position = base + last
            return items
        }

        mutating func skipIndex() -> Bool { index() != nil }
    }
}
