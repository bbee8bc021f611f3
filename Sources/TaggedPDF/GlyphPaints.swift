/// The tagging pass's painting of glyphs in the fill colours the renderer recorded for a run
/// (``StructureRecords/addPaint(_:)``): a highlighted code block is drawn in one colour, as a
/// plain block is (one text object, no change of colour), and its tokens' colours are set here,
/// inside the text object, by splitting its text-showing operators where the colour changes:
/// `[(def)] TJ` … `0.627 0.118 0.169 rg [(area)] TJ`. The glyphs, their order in the content
/// stream and their positions stay as Cairo wrote them, so the text reads and copies the same.
///
/// Glyphs are counted as the renderer recorded them: each code of a string shown by `Tj` or
/// `TJ` in the run, one byte a code in a literal string (Cairo 1.16 writes literal strings for
/// its one-byte Latin subsets) and two in a hexadecimal one (its composite fonts). Spaces keep
/// the colour in effect, and Cairo may leave a drawing of spaces alone out of the stream: a
/// space of a literal string (codes 32 and 160) takes a recorded space when one is next, and a
/// glyph that is not a space passes over recorded spaces the stream does not hold (a code of a
/// hexadecimal string, which may be a space of a CID-keyed font, takes whatever is next).
/// Cairo's own fill colour is set again before the text object ends (`ET`), so what Cairo
/// draws next is in the colour it set. A run whose painted glyphs run out is left in Cairo's
/// colour.
struct GlyphPainter {
    let structure: StructureRecords
    /// The run whose paints are being applied, and its stretches.
    private var run = -1
    private var segments: [(glyphs: Int32, color: Int32)] = []
    private var segment = 0
    private var used: Int32 = 0
    /// Cairo's fill colour as it last set it with `rg` (the operator's bytes, operands
    /// included), saved and restored with the graphics state; nil when set otherwise.
    private var cairoColor: [UInt8]?
    private var savedColors: [[UInt8]?] = []
    /// The colour in effect in the rewritten stream: a ``StructureRecords/paintColors`` index,
    /// or -1 for Cairo's.
    private var emitted: Int32 = -1

    init(structure: StructureRecords) {
        self.structure = structure
    }

    /// Whether the page has anything to paint.
    static func paints(_ structure: StructureRecords, runs: Range<Int>) -> Bool {
        !structure.paints.isEmpty && runs.contains { structure.paints[Int32($0)] != nil }
    }

    /// Run `run` begins or goes on (a continuation after `Q q`): its stretches apply next.
    mutating func enter(run: Int) {
        guard run != self.run else { return }
        self.run = run
        segments = structure.paints[Int32(run)] ?? []
        segment = 0
        used = 0
    }

    /// What the operator `name` (its `operands`, the operator and its operands spanning
    /// `whole` of `bytes`) changes in the stream: the bytes that replace a range. It follows
    /// the graphics state (`q`, `Q`) and Cairo's fill colour (`rg` and the others); before `ET`
    /// it sets Cairo's colour again when another is in effect; in a run that is open
    /// (`runOpen`) it paints `Tj` and `TJ` (``painted(_:in:)``).
    mutating func edit(
        _ name: PDFLexer.Operator?, operands: [Range<Int>], whole: Range<Int>, runOpen: Bool,
        in bytes: UnsafeBufferPointer<UInt8>
    ) -> (range: Range<Int>, bytes: [UInt8])? {
        switch name {
        case .q:
            savedColors.append(cairoColor)
        case .Q:
            cairoColor = savedColors.popLast() ?? nil
        case .rg:
            cairoColor = Array(bytes[whole]) + [0x0A]
            emitted = -1
        case .otherFillColor:
            cairoColor = nil
            emitted = -1
        case .ET:
            guard emitted >= 0, let cairoColor else { return nil }
            emitted = -1
            return (whole.lowerBound..<whole.lowerBound, cairoColor)
        case .Tj, .TJ:
            guard runOpen, let replacement = painted(operands, in: bytes) else { return nil }
            return (whole, replacement)
        default:
            break
        }
        return nil
    }

    /// The text-showing operator `Tj` or `TJ` with `operands` (their byte ranges in `bytes`)
    /// rewritten in its glyphs' colours, or nil when it stays as written.
    mutating func painted(_ operands: [Range<Int>], in bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard cairoColor != nil, segment < segments.count || emitted >= 0 else { return nil }
        // The elements of every piece of one colour, one after another in `body` (a piece:
        // its colour and where its elements end), so that no element is an array of its own.
        var body: [UInt8] = []
        body.reserveCapacity((operands.last?.upperBound ?? 0) - (operands.first?.lowerBound ?? 0) + 16)
        var pieces: [(color: Int32, start: Int, end: Int)] = []
        func begin(_ color: Int32) {
            if let last = pieces.last, last.color == color {
                body.append(0x20)
            } else {
                pieces.append((color, body.count, body.count))
            }
        }
        var current = emitted
        for operand in operands {
            let first = bytes[operand.lowerBound]
            if first == 0x5B || first == 0x5D { continue }
            if first == 0x28 || first == 0x3C {
                for (range, color) in colouredParts(of: operand, in: bytes, color: &current) {
                    begin(color)
                    body.append(first)
                    body.append(contentsOf: bytes[range])
                    body.append(first == 0x28 ? 0x29 : 0x3E)
                    pieces[pieces.count - 1].end = body.count
                }
            } else {
                // A number moves the next glyph: it goes with the glyphs before it.
                begin(pieces.last?.color ?? current)
                body.append(contentsOf: bytes[operand])
                pieces[pieces.count - 1].end = body.count
            }
        }
        guard pieces.contains(where: { $0.color != emitted }) else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(body.count + pieces.count * 24)
        for piece in pieces {
            if piece.color != emitted {
                out += piece.color < 0 ? cairoColor ?? [] : structure.paintColors[Int(piece.color)]
                emitted = piece.color
            }
            out.append(0x5B)
            out.append(contentsOf: body[piece.start..<piece.end])
            out.append(contentsOf: Self.showOperator)
        }
        return out
    }

    /// `]TJ` and a line end, after each piece's elements.
    private static let showOperator: [UInt8] = Array("]TJ\n".utf8)

    /// The string token `operand` cut where its glyphs' colour changes: the byte ranges of
    /// each part (between the delimiters) and their colour. `color` is the colour in effect,
    /// which spaces keep.
    private mutating func colouredParts(
        of operand: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>, color: inout Int32
    )
        -> [(Range<Int>, Int32)]
    {
        let literal = bytes[operand.lowerBound] == 0x28
        let inner = (operand.lowerBound + 1)..<max(operand.lowerBound + 1, operand.upperBound - 1)
        var parts: [(Range<Int>, Int32)] = []
        var partStart = inner.lowerBound
        var partColor = color
        var index = inner.lowerBound
        while index < inner.upperBound {
            let codeStart = index
            var isSpace = false
            if literal {
                var code = bytes[index]
                index += 1
                if code == 0x5C, index < inner.upperBound {
                    let escaped = bytes[index]
                    index += 1
                    if escaped >= 0x30 && escaped <= 0x37 {
                        var value = Int(escaped - 0x30)
                        var digits = 1
                        while digits < 3, index < inner.upperBound, bytes[index] >= 0x30, bytes[index] <= 0x37 {
                            value = value * 8 + Int(bytes[index] - 0x30)
                            index += 1
                            digits += 1
                        }
                        code = UInt8(truncatingIfNeeded: value)
                    } else if escaped == 0x0A || escaped == 0x0D {
                        // A line continuation: no code.
                        if escaped == 0x0D, index < inner.upperBound, bytes[index] == 0x0A { index += 1 }
                        continue
                    } else {
                        code = escaped
                    }
                }
                isSpace = code == 0x20 || code == 0xA0
            } else {
                var digits = 0
                while index < inner.upperBound, digits < 4 {
                    if PDFLexer.isSpace(bytes[index]) == false { digits += 1 }
                    index += 1
                }
            }
            let glyphColor = nextColor(literal: literal, space: isSpace) ?? color
            if glyphColor != partColor {
                if codeStart > partStart { parts.append((partStart..<codeStart, partColor)) }
                partStart = codeStart
                partColor = glyphColor
            }
            color = glyphColor
        }
        if inner.upperBound > partStart || parts.isEmpty { parts.append((partStart..<inner.upperBound, partColor)) }
        return parts
    }

    /// The colour of the run's next glyph, a code of a `literal` string or not, a `space` or
    /// not: -1 (Cairo's) once its stretches are used up, nil for a space (the colour in effect
    /// stays).
    private mutating func nextColor(literal: Bool, space: Bool) -> Int32? {
        if literal, !space {
            // Spaces recorded that the stream left out.
            while segment < segments.count, segments[segment].color == -2 { take() }
        }
        guard segment < segments.count else { return space ? nil : -1 }
        let color = segments[segment].color
        if literal, space, color != -2 { return nil }
        take()
        return color == -2 ? nil : color
    }

    /// Takes one glyph of the current stretch.
    private mutating func take() {
        used += 1
        if used >= segments[segment].glyphs {
            segment += 1
            used = 0
        }
    }
}
