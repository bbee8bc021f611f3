import Testing

@testable import TaggedPDF

/// PDF/A: The glyph names a Type 1 (CFF) subset's `/CharSet` lists, read from its
/// charset in each of the CFF formats; the document information's dates in PDF's and XMP's
/// forms; the XMP identification and extension schemas.
@Suite struct PDFArchiveTests {
    /// A CFF INDEX (Technical Note #5176 §5) of `items`, with one-byte offsets.
    static func index(_ items: [[UInt8]]) -> [UInt8] {
        guard !items.isEmpty else { return [0, 0] }
        var out: [UInt8] = [0, UInt8(items.count), 1, 1]
        var offset = 1
        for item in items {
            offset += item.count
            out.append(UInt8(offset))
        }
        return out + items.flatMap { $0 }
    }

    /// A 32-bit DICT operand (operator 29).
    static func operand(_ value: Int) -> [UInt8] {
        [29, UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// A name-keyed CFF font of `glyphCount` glyphs whose charset is `charset` (format byte and
    /// data), with `strings` in its String INDEX; `extra` goes first in the Top DICT.
    static func font(glyphCount: Int, charset: [UInt8], strings: [String], extra: [UInt8] = []) -> [UInt8] {
        let header: [UInt8] = [1, 0, 4, 1]
        let names = index([Array("F".utf8)])
        let stringIndex = index(strings.map { Array($0.utf8) })
        let globalSubroutines = index([])
        let charStrings = index(Array(repeating: [14], count: glyphCount))
        // The Top DICT's size does not depend on the offsets it holds (5-byte operands).
        let topSize = index([extra + operand(0) + [15] + operand(0) + [17]]).count
        let charStringsStart = header.count + names.count + topSize + stringIndex.count + globalSubroutines.count
        let charsetStart = charStringsStart + charStrings.count
        let top = index([extra + operand(charsetStart) + [15] + operand(charStringsStart) + [17]])
        return header + names + top + stringIndex + globalSubroutines + charStrings + charset
    }

    @Test func charsetFormatZeroNamesStandardAndCustomGlyphs() {
        // SIDs 1 (space), 34 (A), 391 (the first custom string).
        let program = Self.font(glyphCount: 4, charset: [0, 0, 1, 0, 34, 1, 135], strings: ["uni2010"])
        #expect(CFFCharset.glyphNames(program) == ["space", "A", "uni2010"])
    }

    @Test func charsetRangeFormatsExpandTheirRanges() {
        // Format 1: SIDs 17 … 19 (zero … two), then 391; format 2: the same with two-byte counts.
        let one = Self.font(glyphCount: 5, charset: [1, 0, 17, 2, 1, 135, 0], strings: ["f_f"])
        #expect(CFFCharset.glyphNames(one) == ["zero", "one", "two", "f_f"])
        let two = Self.font(glyphCount: 5, charset: [2, 0, 17, 0, 2, 1, 135, 0, 0], strings: ["f_f"])
        #expect(CFFCharset.glyphNames(two) == ["zero", "one", "two", "f_f"])
    }

    @Test func cidKeyedAndBrokenFontsNameNoGlyphs() {
        // ROS (12 30) makes a font CID-keyed: its charset holds CIDs, not names.
        let ros = Self.operand(391) + Self.operand(392) + Self.operand(0) + [12, 30]
        let cid = Self.font(glyphCount: 2, charset: [0, 0, 1], strings: ["Adobe", "Identity"], extra: ros)
        #expect(CFFCharset.glyphNames(cid) == nil)
        let truncated = Self.font(glyphCount: 4, charset: [0, 0, 1], strings: [])
        #expect(CFFCharset.glyphNames(truncated) == nil)
        #expect(CFFCharset.glyphNames([1, 0]) == nil)
        // A SID past the String INDEX.
        let unknown = Self.font(glyphCount: 2, charset: [0, 1, 200], strings: [])
        #expect(CFFCharset.glyphNames(unknown) == nil)
    }

    @Test func informationDatesInPDFAndXMPForms() {
        #expect(XMP.dates("20261202015748Z")?.pdf == "D:20261202015748Z")
        #expect(XMP.dates("20261202015748Z")?.xmp == "2026-12-02T01:57:48Z")
        #expect(XMP.dates("D:20261202015748+09'30'")?.xmp == "2026-12-02T01:57:48+09:30")
        #expect(XMP.dates("D:20261202015748-05")?.xmp == "2026-12-02T01:57:48-05:00")
        #expect(XMP.dates("2026-12-02") == nil)
    }

    @Test func packetDeclaresThePDFALevelAndDescribesPDFUA() {
        let archive = PDFArchive(part: 3, conformance: "B", outputProfile: [])
        let recorded = XMP.Recorded(producer: "cairo", created: "2026-12-02T01:57:48Z", modified: nil)
        let both = XMP.packet(
            info: DocumentInfo(title: "T"), language: "en", claimsUA: true, archive: archive, recorded: recorded)
        #expect(both.contains("<pdfaid:part>3</pdfaid:part>"))
        #expect(both.contains("<pdfaid:conformance>B</pdfaid:conformance>"))
        #expect(both.contains("<pdfaSchema:prefix>pdfuaid</pdfaSchema:prefix>"))
        #expect(both.contains("<xmp:CreateDate>2026-12-02T01:57:48Z</xmp:CreateDate>"))
        #expect(both.contains("<pdf:Producer>cairo</pdf:Producer>"))
        let plain = XMP.packet(
            info: DocumentInfo(title: "T"), language: "en", claimsUA: true, archive: nil, recorded: recorded)
        #expect(!plain.contains("pdfaid:part>"))
        #expect(!plain.contains("pdfaExtension"))
    }
}
