import Foundation
import Layout
import Styling
import TestSupport
import Testing
import Typography

@testable import PangoCairoBackend
@testable import TaggedPDF

/// Colour glyphs (emoji, drawn as images) in tagged PDF, and the file an abandoned tagged
/// surface leaves behind when the PDF is written again untagged.
@Suite struct ColorGlyphTaggingTests {
    let shaper = PangoShaper()
    let date = Date(timeIntervalSince1970: 1_700_000_000)

    /// One line of `text` in Inter with Noto Color Emoji behind it, at 17 pt.
    func line(_ text: String) -> ShapedLine {
        let style = Support.style(["Inter", "Noto Sans CJK KR", "Noto Color Emoji"])
        return shaper.shape(Support.paragraph(text, style), width: 300).lines[0]
    }

    /// A page whose paragraph (structure `P`, block `id`) holds `text` on one line.
    func page(_ number: Int, _ text: String, id: Int) -> Page {
        var page = Page(number: number, size: .a5)
        page.elements.append(.structure([StructureElement(.paragraph, id: id)]))
        page.elements.append(.text(line(text), x: 20, baseline: 40))
        page.elements.append(.structure([]))
        return page
    }

    /// An emoji drawn before anything else on a page used to be an unclipped paint on a blank
    /// page, on which Cairo 1.16 drops the commands recorded before it (the open tags): the
    /// tags no longer balanced and the tagged render failed. Each page here starts with one.
    @Test(arguments: ["😀", "👍🏽", "😀😀 가나다", "😀 word"])
    func emojiFirstOnAPageStaysTagged(_ text: String) throws {
        let dir = try Support.tempDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let pdf = dir.appendingPathComponent("emoji.pdf").path
        let renderer = try CairoPDFRenderer(
            path: pdf, info: DocumentInfo(title: "Emoji"), creationDate: date,
            tagging: PDFTagging())
        try renderer.render(page(1, text, id: 1))
        try renderer.render(page(2, text, id: 2))
        try renderer.finish()
        let (status, check) = try PDFProbe.run("qpdf", ["--check", pdf])
        #expect(status == 0 && !check.contains("WARNING"), "\(check)")
        let (_, info) = try PDFProbe.run("pdfinfo", [pdf])
        let tagged = info.split(separator: "\n").first { $0.hasPrefix("Tagged:") }
        #expect(tagged?.dropFirst("Tagged:".count).trimmingCharacters(in: .whitespaces) == "yes", "\(info)")
    }

    /// The fallback's sequence: a tagged renderer fails (its surface is abandoned, unfinished),
    /// then an untagged one writes the same path. Whatever the abandoned surface still had
    /// buffered must never reach the file — not even when every C stream is flushed, as at exit.
    @Test func abandonedTaggedSurfaceNeverWritesIntoTheUntaggedFile() throws {
        let dir = try Support.tempDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let pdf = dir.appendingPathComponent("fallback.pdf").path
        let text = "Hello 가나다 😀 " + String(repeating: "word ", count: 20)
        do {
            let tagged = try CairoPDFRenderer(
                path: pdf, info: DocumentInfo(title: "T"), creationDate: date,
                tagging: PDFTagging())
            for number in 1...3 { try tagged.render(page(number, text, id: number)) }
            tagged.unbalancesNextPageForTesting = true
            #expect(throws: BackendError.self) { try tagged.render(page(4, text, id: 4)) }
        }
        let plain = try CairoPDFRenderer(path: pdf, info: DocumentInfo(title: "T"), creationDate: date)
        for number in 1...4 { try plain.render(page(number, text, id: number)) }
        try plain.finish()
        let written = try Data(contentsOf: URL(fileURLWithPath: pdf))
        fflush(nil)
        #expect(try Data(contentsOf: URL(fileURLWithPath: pdf)) == written, "bytes written after the file was complete")
        let (status, check) = try PDFProbe.run("qpdf", ["--check", pdf])
        #expect(status == 0 && !check.contains("WARNING"), "\(check)")
        #expect(try PDFProbe.words(pdf).filter { $0.text == "Hello" }.count == 4)
    }

    /// The sink refuses every write once abandoned and drops what it buffered.
    @Test func abandonedSinkDropsItsBufferAndRefusesWrites() throws {
        let dir = try Support.tempDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("sink").path
        let sink = try PDFFileSink(path: path)
        let bytes: [UInt8] = Array("%PDF-1.5\n".utf8)
        #expect(bytes.withUnsafeBufferPointer { sink.append($0.baseAddress!, length: $0.count) })
        sink.abandon()
        #expect(!sink.isOpen)
        #expect(!bytes.withUnsafeBufferPointer { sink.append($0.baseAddress!, length: $0.count) })
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).isEmpty)

        let kept = try PDFFileSink(path: path)
        let large = [UInt8](repeating: 0x41, count: PDFFileSink.bufferSize + 17)
        #expect(bytes.withUnsafeBufferPointer { kept.append($0.baseAddress!, length: $0.count) })
        #expect(large.withUnsafeBufferPointer { kept.append($0.baseAddress!, length: $0.count) })
        #expect(kept.close())
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(bytes + large))
    }
}
