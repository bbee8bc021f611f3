import Foundation
import TestSupport
import Testing
import Typesetter

@testable import DocumentModel

/// A long input is held once. The text was held twice for the whole render (the decoded
/// string and the parser's buffer, ≈ 2 bytes a byte: 40 MB of a 20 MB file) and copied twice
/// more while it was read and parsed; now the parser's buffer is the only copy that outlives
/// the parse (the document's windows and its source positions share it), and the read makes no
/// intermediate copy.
///
/// The input is mostly raw blocks for a format Typeset does not write (` ```{=rtf} `), left
/// out as Pandoc leaves out formats it does not write: megabytes of source, a few pages. The peak resident size (a
/// subprocess's own, ``Render/peak(_:name:options:tagged:)``) of 13 MB is set beside
/// 1 MB's: it grew by about 3 MiB per MiB added before and by about 1.5 now (the string and
/// the parser's buffer meet only while the text is parsed).
@Suite(.serialized) struct LongInputMemoryTests {
    /// Twenty sections of prose, about `megabytes` MB of raw LaTeX blocks, and a last paragraph.
    static func document(megabytes: Double) -> String {
        var text = Prose.sections(20)
        let line = "\\newcommand{\\glyph}{" + Prose.words.joined(separator: " ") + "}\n"
        let block = "```{=rtf}\n" + String(repeating: line, count: 100) + "```\n\n"
        text += String(repeating: block, count: Int(megabytes * 1_000_000) / block.utf8.count)
        return text + "Last paragraph.\n"
    }

    /// The peak of `document` at 13 MB set beside its peak at 1 MB, in MiB per MiB of input
    /// added, with a description of both peaks and the 13 MB PDF's text.
    static func growth(of document: (Double) -> String, name: String) throws -> (
        perMiB: Double, peaks: String, text: String
    ) {
        let one = document(1)
        let thirteen = document(13)
        let added = Double(thirteen.utf8.count - one.utf8.count) / 1_048_576
        #expect(added > 11)
        let small = try Render.peak(one, name: name + "-1MB")
        let large = try Render.peak(thirteen, name: name + "-13MB")
        let perMiB = (large.mebibytes - small.mebibytes) / added
        let peaks = "1 MB \(small.mebibytes) MiB, 13 MB \(large.mebibytes) MiB: \(perMiB) MiB per MiB added"
        return (perMiB, peaks, try PDFProbe.text(large.pdf))
    }

    @Test(.slow) func thirteenTimesTheInputIsNotHeldThirteenTimes() throws {
        let (perMiB, peaks, text) = try Self.growth(of: { Self.document(megabytes: $0) }, name: "input")
        #expect(perMiB < 2, "\(peaks)")
        #expect(text.contains("Last paragraph."), "what follows the raw blocks is drawn")
        #expect(!text.contains("newcommand"), "the raw blocks are not drawn")
    }

    /// The file's bytes are decoded without a copy of them: a byte-order mark is still dropped,
    /// and a bad sequence still named by its line (counted after the mark).
    @Test func decodingDropsAByteOrderMarkAndNamesABadLine() throws {
        let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
        #expect(InputFile.decodeUTF8(Data(mark + Array("# Title\n".utf8)), path: "a.md").text == "# Title\n")
        #expect(
            InputFile.decodeUTF8(Data(Array("a\u{FEFF}b".utf8)), path: "a.md").text == "a\u{FEFF}b",
            "only a leading mark is dropped")
        let bad = InputFile.decodeUTF8(Data(mark + Array("one\ntwo\n".utf8) + [0x62, 0xFF, 0x0A, 0x63]), path: "a.md")
        #expect(bad.text == "one\ntwo\nb\u{FFFD}\nc")
        #expect(bad.diagnostics.map { $0.location } == [SourceLocation(file: "a.md", line: 3, column: 2)])
        #expect(bad.diagnostics.map(\.kind) == [.encoding], "a bad byte is an encoding problem, as a control is")
    }

    /// A file that opens with a UTF-16 or UTF-32 byte-order mark, either byte order, is
    /// decoded as the mark says (astral characters from surrogate pairs); an unpaired
    /// surrogate or a last odd byte is one U+FFFD, named by its line and UTF-8 column.
    @Test func wideEncodingsAreDecodedByTheirByteOrderMark() throws {
        let text = "# Title 한국어\n\nhello 😀\n"
        for encoding in [String.Encoding.utf16LittleEndian, .utf16BigEndian, .utf32LittleEndian, .utf32BigEndian] {
            let data = try #require(("\u{FEFF}" + text).data(using: encoding))
            let decoded = InputFile.decodeUTF8(data, path: "a.md")
            #expect(decoded.text == text && decoded.diagnostics.isEmpty, "\(encoding)")
        }
        var bad = Data([0xFF, 0xFE]) + "a\n😀b".data(using: .utf16LittleEndian)!
        bad += Data([0x00, 0xD8]) + "c".data(using: .utf16LittleEndian)! + Data([0x64])
        let decoded = InputFile.decodeUTF8(bad, path: "a.md")
        #expect(decoded.text == "a\n😀b\u{FFFD}c\u{FFFD}", "\(decoded.text)")
        #expect(decoded.diagnostics.map { $0.location } == [SourceLocation(file: "a.md", line: 2, column: 6)])
        #expect(decoded.diagnostics.first?.message.contains("2 bad code units") == true)
        // Lines that end with CR LF are counted as lines.
        let windows = Data([0xFF, 0xFE]) + "a\r\nbc\r\n".data(using: .utf16LittleEndian)! + Data([0x00, 0xD8])
        let decodedWindows = InputFile.decodeUTF8(windows, path: "a.md")
        #expect(decodedWindows.diagnostics.map { $0.location } == [SourceLocation(file: "a.md", line: 3, column: 1)])
    }

    /// Each bad sequence is one U+FFFD, as Unicode's "substitution of maximal subparts" and the
    /// WHATWG decoder count them (the examples of Unicode 15 §3.9, Tables 3-8 to 3-11), and the
    /// warning's count and column agree with the text.
    @Test func badSequencesAreReplacedByMaximalSubparts() throws {
        let cases: [(bytes: [UInt8], replacements: Int, column: Int)] = [
            ([0x61, 0xFF, 0x62], 1, 2),  // a byte that starts nothing
            ([0x61, 0x80, 0x80, 0x62], 2, 2),  // two lone continuation bytes
            ([0xC0, 0xAF], 2, 1),  // an overlong lead: each byte
            ([0xE0, 0x80, 0xAF], 3, 1),  // E0 needs A0–BF next
            ([0xED, 0xA0, 0x80], 3, 1),  // a surrogate: each byte
            ([0xF4, 0x90, 0x80, 0x80], 4, 1),  // past U+10FFFF
            ([0x78, 0xE2, 0x82, 0x79], 1, 2),  // a truncated € is one
            ([0x78, 0xF0, 0x9F, 0x98, 0x79], 1, 2),  // a truncated emoji is one
            ([0x61, 0x62, 0x63, 0xF1, 0x80, 0x80, 0xE1, 0x80, 0xC2, 0x62, 0x80, 0x63, 0x80, 0xBF, 0x64], 6, 4),
        ]
        for (bytes, replacements, column) in cases {
            let decoded = InputFile.decodeUTF8(Data(bytes), path: "a.md")
            #expect(decoded.text.unicodeScalars.filter { $0 == "\u{FFFD}" }.count == replacements, "\(bytes)")
            #expect(decoded.diagnostics.count == 1, "\(bytes)")
            #expect(decoded.diagnostics.first?.location?.column == column, "\(bytes)")
            let count = replacements == 1 ? "1 bad byte sequence" : "\(replacements) bad byte sequences"
            #expect(decoded.diagnostics.first?.message.contains(count) == true, "\(decoded.diagnostics)")
        }
        #expect(InputFile.decodeUTF8(Data("é€😀".utf8), path: "a.md").diagnostics.isEmpty)
    }

    /// Paragraphs, each followed by a 10 KB HTML comment (kept in the source, drawing nothing):
    /// about `megabytes` MB of source on a few hundred pages, with a Korean line so that the
    /// CJK face is subset when the file is finished.
    static func commentedDocument(megabytes: Double) -> String {
        let paragraph = Prose.words.map { String(repeating: $0 + " ", count: 6) }.joined() + "end.\n\n"
        let comment =
            "<!--\n"
            + String(repeating: "\\newcommand{\\glyph}{" + Prose.words.joined(separator: " ") + "}\n", count: 100)
            + "-->\n\n"
        let unit = paragraph + comment
        return "한국어 문단. Korean text.\n\n" + String(repeating: unit, count: Int(megabytes * 1_000_000) / unit.utf8.count)
            + "Last paragraph.\n"
    }

    /// The source is not held while the pages are drawn nor when Cairo finishes the file: the
    /// peak of 13 MB of source on about 230 pages is set beside 1 MB's. Held (before), it grew
    /// by about 1.3 MiB per MiB added; set aside, about 0.2 (what layout draws, and the
    /// parse, which still holds the text and its decoded string at once).
    @Test(.slow) func aLongSourceIsNotHeldWhilePagesAreDrawn() throws {
        let (perMiB, peaks, text) = try Self.growth(of: { Self.commentedDocument(megabytes: $0) }, name: "commented")
        #expect(perMiB < 0.6, "\(peaks)")
        #expect(text.contains("Last paragraph.") && text.contains("한국어"), "the whole document is drawn")
        #expect(!text.contains("newcommand"), "comments are not drawn")
    }

    /// A render sets a long source aside before Cairo finishes the file (whose font subsetting
    /// and structure tree stack on what is still held: at 20 MB, 20 MB of source), and the
    /// same document renders again the same, its source read back.
    @Test func aLongSourceIsSetAsideBeforeTheFileIsFinished() throws {
        let text = "한국어 문단. Korean text.\n\n" + Self.document(megabytes: 1.2)
        let parsed = Typesetter.parse(markdown: text, file: "long-source.md")
        let buffer = try #require(parsed.document.source.storage)
        #expect(!buffer.isSetAside)
        var pdfs: [String] = []
        for run in 1...2 {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent(
                "typeset-long-source-\(getpid())-\(run).pdf"
            ).path
            defer { try? FileManager.default.removeItem(atPath: path) }
            let report = try Typesetter.render(
                document: parsed.document, diagnostics: parsed.diagnostics, to: path, options: RenderOptions())
            #expect(report.pageCount > 1)
            #expect(buffer.isSetAside, "run \(run): the source is in a file once the pages are drawn")
            pdfs.append(try PDFProbe.run("pdftotext", [path, "-"]).output)
        }
        #expect(pdfs[0].contains("Last paragraph.") && pdfs[0].contains("한국어"))
        #expect(pdfs[1] == pdfs[0], "rendered again from the source read back")
    }
}
