import Testing

@testable import TaggedPDF

/// The one reader of PDF syntax: content-stream tokens as PDF 1.7 §7.2 splits them (a glyph
/// string holding operator-like bytes stays one string) and objects as §7.3 writes them.
@Suite struct PDFLexerTests {
    /// The tokens of `text`: each one's kind and bytes.
    static func tokens(_ text: String) -> [(PDFLexer.Kind, String)] {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { buffer in
            var lexer = PDFLexer(buffer)
            var tokens: [(PDFLexer.Kind, String)] = []
            while let token = lexer.next() { tokens.append((token.kind, lexer.text(token.range))) }
            return tokens
        }
    }

    /// The object `text` holds.
    static func value(_ text: String) throws -> PDFValue {
        let bytes = Array(text.utf8)
        return try bytes.withUnsafeBufferPointer { buffer in
            var lexer = PDFLexer(buffer)
            return try lexer.value()
        }
    }

    static func written(_ value: PDFValue) -> String {
        var out: [UInt8] = []
        value.write(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    @Test func contentStreamTokensAreSplitAsThePDFSpecificationReadsThem() {
        let stream =
            "q 1 0 0 -1 0 841.89 cm % a comment BDC\n/P <</MCID 3>> BDC BT /f-0-0 12 Tf [(a\\)BDC(b)) -20 <0102>] TJ "
            + "ET EMC Q"
        let tokens = Self.tokens(stream)
        #expect(
            tokens.map(\.1) == [
                "q", "1", "0", "0", "-1", "0", "841.89", "cm", "/P", "<<", "/MCID", "3", ">>", "BDC", "BT",
                "/f-0-0", "12", "Tf", "[", "(a\\)BDC(b))", "-20", "<0102>", "]", "TJ", "ET", "EMC", "Q",
            ])
        #expect(
            tokens.filter { $0.0 == .keyword }.map(\.1) == ["q", "cm", "BDC", "BT", "Tf", "TJ", "ET", "EMC", "Q"],
            "the comment and the string's bytes are no operators")
        #expect(tokens[19].0 == .literalString)
        #expect(tokens[21].0 == .hexString)
        #expect(tokens[8].0 == .name)
        #expect(tokens[6].0 == .number)
        #expect(Self.tokens("true false null T*").map(\.0) == [.constant, .constant, .constant, .keyword])
    }

    /// A number token reads as `Double` reads its text, whether it has Cairo's form (read
    /// from its bytes) or not: a sign, a leading or trailing point, more than 15 digits, two
    /// points.
    @Test func numbersReadAsDoubleReadsTheirText() {
        var texts = [
            "0", "0.004", "0.008", "0.012", "841.8898", ".5", "5.", "-3.25", "+2", "0.1", "123456789012345",
            "1234567890123456", "0.30000000000000004", "1.2.3", ".", "0.000001", "99999999999.9999",
        ]
        // Marker corners (a quarter point apart) and six-decimal numbers as Cairo prints them.
        for step in 0..<400 { texts.append(String(0.5 + Double(step) * 0.25)) }
        for seed in 0..<3000 { texts.append("\(seed * 37 % 1000).\(String(seed * 7919 % 1_000_000))") }
        let stream = Array(texts.joined(separator: " ").utf8)
        stream.withUnsafeBufferPointer { buffer in
            var lexer = PDFLexer(buffer)
            var index = 0
            while let token = lexer.next() {
                let text = lexer.text(token.range)
                #expect(text == texts[index])
                #expect(lexer.number(token.range) == Double(text), "\(text)")
                index += 1
            }
            #expect(index == texts.count)
        }
    }

    @Test func anUnclosedStringEndsTheStreamWithoutReadingPastIt() {
        #expect(Self.tokens("(never closed \\").map(\.0) == [.literalString])
        #expect(Self.tokens("<abc").map(\.0) == [.hexString])
        #expect(Self.tokens(") x").map(\.1) == [")", "x"])
    }

    @Test func objectsAreReadAndWrittenBackUnchanged() throws {
        let text =
            "<</Type /Page /Parent 3 0 R /MediaBox [0 0 595.276 841.89] /Annots [12 0 R 13 0 R] "
            + "/Contents 4 0 R /Group null /Tabs (a \\(b\\)) /ID <FEFF0041> /Marked true /Count -2 >>"
        let page = try Self.value(text)
        #expect(page["Parent"].map { if case .reference(3) = $0 { true } else { false } } == true)
        #expect(page["Type"]?.nameValue == "Page")
        #expect(page["Tabs"]?.literalText == "a (b)")
        #expect(
            Self.written(page) == "<</Type /Page /Parent 3 0 R /MediaBox [0 0 595.276 841.89] /Annots [12 0 R 13 0 R] "
                + "/Contents 4 0 R /Group null /Tabs (a \\(b\\)) /ID <FEFF0041> /Marked true /Count -2 >>")
    }

    @Test func malformedObjectsThrow() {
        for text in ["<</Type /Page", "[1 2", "(open", "<<1 2>>", "@", ""] {
            #expect(throws: PDFLexer.Malformed.self, "\(text)") { try Self.value(text) }
        }
    }

    @Test func keywordsAndIntegersAreReadOnlyWhenWhole() {
        let bytes = Array("12 0 obj\n<<>>\nendobjx 7a".utf8)
        bytes.withUnsafeBufferPointer { buffer in
            var lexer = PDFLexer(buffer)
            let number = lexer.integer()
            #expect(number == 12)
            lexer.skipSpace()
            let generation = lexer.integer()
            #expect(generation == 0)
            let partial = lexer.keyword("ob")
            #expect(!partial, "a keyword is a whole token")
            let whole = lexer.keyword("obj")
            #expect(whole)
            let value = try? lexer.value()
            #expect(value != nil)
            let longer = lexer.keyword("endobj")
            #expect(!longer, "endobjx is another token")
            _ = lexer.token()
            lexer.skipSpace()
            let notANumber = lexer.integer()
            #expect(notANumber == nil, "7a is no integer")
            #expect(lexer.index == buffer.count - 2, "the position is kept")
        }
    }
}
