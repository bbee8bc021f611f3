import Foundation
import TestSupport
import Testing

@testable import PangoCairoBackend
@testable import TaggedPDF

/// Each page's content stream is rewritten as Cairo shows the page (``EarlyContentRewrites``),
/// and the tagging pass takes those results instead of rewriting the streams again: the file is
/// the same with the overlap on or off, and no stream is rewritten twice.
@Suite struct EarlyContentRewritesTests {
    /// A tagged file of `pages` pages (``TaggedPDFRewriterTests/page(_:paragraphs:)``: an
    /// artifact, paragraphs continued across pages, a link a page), completed by the tagging
    /// pass; with `early` false every content stream is left to the pass.
    static func drawn(pages: Int, early: Bool, at path: String) throws -> (inPass: Int, taken: Int, ahead: Int) {
        let renderer = try CairoPDFRenderer(
            path: path, info: DocumentInfo(title: "Pages"), creationDate: TaggedPDFRewriterTests.date,
            tagging: PDFTagging())
        if !early { renderer.rewritesContentEarly = false }
        for p in 0..<pages { try renderer.render(TaggedPDFRewriterTests.page(p, paragraphs: 4)) }
        try renderer.finish()
        return renderer.contentRewrites
    }

    @Test func theFileIsTheSameAndNoPageIsRewrittenTwice() throws {
        let pages = 40
        let withOverlap = TaggedPDFRewriterTests.temporaryPath("early-on")
        let without = TaggedPDFRewriterTests.temporaryPath("early-off")
        defer {
            unlink(withOverlap)
            unlink(without)
        }
        let on = try Self.drawn(pages: pages, early: true, at: withOverlap)
        let off = try Self.drawn(pages: pages, early: false, at: without)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: withOverlap))
        #expect(bytes == (try Data(contentsOf: URL(fileURLWithPath: without))))
        #expect(try PDFProbe.run("pdfinfo", [withOverlap]).output.contains("Tagged:          yes"))
        // Off: the pass rewrites every page. On: every page rewritten as it was shown is taken,
        // and the pass rewrites only the others (those skipped while the thread was behind).
        #expect(off == (pages, 0, 0))
        #expect(on.ahead > 0, "\(on)")
        #expect(on.taken == on.ahead, "a page rewritten early is taken, not rewritten again: \(on)")
        #expect(on.inPass + on.taken == pages, "\(on)")
    }

    /// A page's content stream is found among the bytes Cairo wrote for the page: its length
    /// written as an object after it, or in its dictionary; a `/Pages` node is not a page, and
    /// a stream whose length is not among the bytes is left to the tagging pass.
    @Test func thePagesContentStreamIsFoundByItsPagesContents() {
        let data = "0 0 m 10 10 l S\nendstream"
        let indirect = """
            %PDF-1.5
            7 0 obj
            << /Length 8 0 R >>
            stream
            0 0 m 10 10 l S
            endstream
            endobj
            8 0 obj
               15
            endobj
            3 0 obj
            << /Type /Pages /Kids [] >>
            endobj
            4 0 obj
            << /Type /Page % 1
               /Contents 7 0 R >>
            endobj

            """
        let found = Array(indirect.utf8).withUnsafeBufferPointer { EarlyContentRewrites.contentStream(in: $0) }
        #expect(found?.number == 7)
        if let found {
            let bytes = Array(indirect.utf8)[found.data]
            #expect(String(decoding: bytes, as: UTF8.self) + "\nendstream" == data)
        }
        let direct =
            "17 0 obj\n<< /Length 15 >>\nstream\n0 0 m 10 10 l S\nendstream\nendobj\n"
            + "4 0 obj\n<< /Type /Page /Contents 17 0 R >>\nendobj\n"
        #expect(Array(direct.utf8).withUnsafeBufferPointer { EarlyContentRewrites.contentStream(in: $0) }?.number == 17)
        let lengthElsewhere =
            "7 0 obj\n<< /Length 8 0 R >>\nstream\n0 0 m 10 10 l S\nendstream\nendobj\n"
            + "4 0 obj\n<< /Type /Page /Contents 7 0 R >>\nendobj\n"
        #expect(
            Array(lengthElsewhere.utf8).withUnsafeBufferPointer { EarlyContentRewrites.contentStream(in: $0) } == nil)
        let onlyPages = "3 0 obj\n<< /Type /Pages /Contents 7 0 R >>\nendobj\n"
        #expect(Array(onlyPages.utf8).withUnsafeBufferPointer { EarlyContentRewrites.contentStream(in: $0) } == nil)
    }

    /// A result is taken only for the stream it was made from: another page, a stream at
    /// another place in the file, or a second asking give nothing (the pass rewrites the
    /// stream itself).
    @Test func aResultIsTakenOnlyForTheSameStreamAndOnce() throws {
        var structure = StructureRecords()
        structure.beginPage()
        _ = structure.addRun(owner: -1)
        let marker = ContentMarker.position(0)
        let content = "\(marker.x) \(marker.y) 0.004 0.004 re f\n0 0 m 10 10 l S\n"
        let page = Array(
            ("7 0 obj\n<< /Length \(content.utf8.count) >>\nstream\n\(content)endstream\nendobj\n"
                + "4 0 obj\n<< /Type /Page /Contents 7 0 R >>\nendobj\n").utf8)
        let found = try #require(page.withUnsafeBufferPointer { EarlyContentRewrites.contentStream(in: $0) })
        let offset = 1000
        let inFile = (found.data.lowerBound + offset)..<(found.data.upperBound + offset)
        for asked in ["same", "other page", "other place", "twice"] {
            let early = try #require(EarlyContentRewrites())
            let extract = structure.pageExtract(0)
            early.pageWritten(page, at: offset, page: 0, structure: extract.records, firstRun: extract.firstRun)
            early.finishWriting()
            if asked == "twice" { _ = early.reused(number: 7, page: 0, data: inFile) }
            let result = early.reused(
                number: 7, page: asked == "other page" ? 1 : 0,
                data: asked == "other place" ? inFile.lowerBound + 1..<inFile.upperBound + 1 : inFile)
            #expect((result != nil) == (asked == "same"), "\(asked)")
            #expect(early.counts.reused == (asked == "same" || asked == "twice" ? 1 : 0), "\(asked)")
            if let result {
                let plain = result.compressed.withUnsafeBufferPointer { Inflate.decompressed($0) } ?? []
                #expect(String(decoding: plain, as: UTF8.self).hasPrefix("/Artifact BMC\n"), "\(asked)")
            }
        }
    }
}
