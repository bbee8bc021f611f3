import Foundation
import Layout
@testable import PangoCairoBackend
import Styling
import Testing

/// Issue 15: the tagging pass (``PDFAccessibility``) reads Cairo's file one object at a time
/// and writes each object once it is final, so its memory does not grow with the document.
/// The files here are written in Cairo 1.16's layout by ``CairoLayoutPDF``: every page has a
/// footer drawn as an artifact and paragraphs, the last paragraph of a page continues on the
/// next (Cairo splits it into two elements, which the pass merges).
@Suite struct TaggedPDFRewriterTests {
    /// A tagged PDF as Cairo 1.16 writes it (classic cross-reference table, struct elements with
    /// `/K` marked-content ids, a parent tree of one array per page), with the tag records the
    /// renderer would have kept.
    enum CairoLayoutPDF {
        static func make(pages: Int, paragraphs: Int) -> (bytes: [UInt8], records: TagRecords) {
            var records = TagRecords()
            records.append(.document)
            // Object numbers: 1 pages, 2 catalog, 3 tree root, 4 parent tree, 5 Document; then
            // per page: page, content, parent-tree array, artifact, paragraphs.
            let perPage = 4 + paragraphs
            func page(_ p: Int) -> Int { 6 + p * perPage }
            let size = 6 + pages * perPage
            var offsets = [Int](repeating: 0, count: size)
            var out = Array("%PDF-1.5\n%\u{B5}\u{ED}\u{AE}\u{FB}\n".utf8)
            func object(_ n: Int, _ text: String, stream: [UInt8]? = nil) {
                offsets[n] = out.count
                out += Array("\(n) 0 obj\n".utf8) + Array(text.utf8)
                if let stream { out += Array("\nstream\n".utf8) + stream + Array("\nendstream".utf8) }
                out += Array("\nendobj\n".utf8)
            }
            object(1, "<< /Type /Pages\n   /Kids [ \((0..<pages).map { "\(page($0)) 0 R" }.joined(separator: " ")) ]\n   /Count \(pages)\n>>")
            object(2, "<< /Type /Catalog\n   /Pages 1 0 R\n   /StructTreeRoot 3 0 R\n   /MarkInfo << /Marked true >>\n>>")
            object(3, "<< /Type /StructTreeRoot\n   /ParentTree 4 0 R\n   /K [ 5 0 R ]\n>>")
            object(4, "<< /Nums [\n\((0..<pages).map { "   \($0) \(page($0) + 2) 0 R" }.joined(separator: "\n"))\n  ]\n>>")
            var documentKids: [String] = []
            var block = 0
            for p in 0..<pages {
                let n = page(p)
                object(n, "<< /Type /Page % \(p + 1)\n   /Parent 1 0 R\n   /MediaBox [ 0 0 595.2756 841.8898 ]\n   /Contents \(n + 1) 0 R\n   /Resources << >>\n   /StructParents \(p)\n>>")
                var content = "/Private << /MCID 0 >> BDC 0 0 m EMC\n/Span << /ActualText <feff0020> >> BDC\nEMC\n"
                for k in 1...paragraphs { content += "/P << /MCID \(k) >> BDC 10 \(k) m EMC\n" }
                let data = Deflate.compressed(Array(content.utf8))!
                object(n + 1, "<< /Length \(data.count)\n   /Filter /FlateDecode\n>>", stream: data)
                object(n + 2, "[\n\((0...paragraphs).map { "  \(n + 3 + $0) 0 R" }.joined(separator: "\n"))\n]")
                object(n + 3, "<< /Type /StructElem\n   /S /Private\n   /P 5 0 R\n   /Pg \(n) 0 R\n   /K 0\n>>")
                records.append(.artifact)
                documentKids.append("\(n + 3) 0 R")
                for k in 1...paragraphs {
                    // The first paragraph of a page (after the first) continues the last one.
                    if !(k == 1 && p > 0) { block += 1 }
                    object(n + 3 + k, "<< /Type /StructElem\n   /S /P\n   /P 5 0 R\n   /Pg \(n) 0 R\n   /K \(k)\n>>")
                    records.append(.element(.paragraph), block: block)
                    documentKids.append("\(n + 3 + k) 0 R")
                }
            }
            object(5, "<< /Type /StructElem\n   /S /Document\n   /P 3 0 R\n   /K [ \(documentKids.joined(separator: " ")) ]\n>>")
            let xref = out.count
            out += Array("xref\n0 \(size)\n0000000000 65535 f \n".utf8)
            for n in 1..<size { out += Array(String(format: "%010d 00000 n \n", offsets[n]).utf8) }
            out += Array("trailer\n<< /Size \(size)\n   /Root 2 0 R\n>>\nstartxref\n\(xref)\n%%EOF\n".utf8)
            return (out, records)
        }
    }

    /// Runs a tool through the suite's shared helper, naming the result's parts.
    static func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let (status, output) = try Support.run(tool, arguments)
        return (status, output)
    }

    static func temporaryPath(_ name: String) -> String {
        NSTemporaryDirectory() + "typeset-tagstream-\(getpid())-\(name).pdf"
    }

    /// Kilobytes of `field` (`VmHWM`, `VmRSS`) in /proc/self/status.
    static func status(_ field: String) -> Int {
        let text = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = text.split(separator: "\n").first { $0.hasPrefix(field + ":") } ?? ""
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
    }

    /// The tagging pass's peak above the resident size it started at, in KiB (Linux: writing 5
    /// to /proc/self/clear_refs resets the peak, `VmHWM`, to the current size).
    static func postPassPeakKiB(pages: Int) throws -> Int {
        let path = temporaryPath("peak-\(pages)")
        defer { unlink(path) }
        let records: TagRecords
        do {
            let made = CairoLayoutPDF.make(pages: pages, paragraphs: 40)
            try Data(made.bytes).write(to: URL(fileURLWithPath: path))
            records = made.records
        }
        try "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
        let before = status("VmRSS")
        try PDFAccessibility.complete(path: path, records: records, tagging: PDFTagging(), info: DocumentInfo(title: "Peak"), claimsUA: true)
        return status("VmHWM") - before
    }

    /// A renderer keeps one record per structure tag it begins until the file is finished (a
    /// 20 MB document: about 280,000): each is 16 bytes, not the 24 a one-byte field stored
    /// before the 8-byte one would pad it to.
    @Test func aTagRecordIsSixteenBytes() {
        #expect(MemoryLayout<TagRecord>.stride == 16)
        var records = TagRecords()
        records.append(.element(.paragraph), block: 7, part: 2)
        #expect(records.items == [TagRecord(name: .element(.paragraph), block: 7, part: 2)])
    }

    @Test func splitParagraphsMergeArtifactsLeaveAndTheFileChecksClean() throws {
        let path = Self.temporaryPath("three")
        defer { unlink(path) }
        let made = CairoLayoutPDF.make(pages: 3, paragraphs: 4)
        try Data(made.bytes).write(to: URL(fileURLWithPath: path))
        #expect(try Self.run("qpdf", ["--check", path]).status == 0, "the generated input is a valid PDF")
        try PDFAccessibility.complete(path: path, records: made.records, tagging: PDFTagging(language: "ko"),
                                      info: DocumentInfo(title: "Three pages"), claimsUA: true)
        let check = try Self.run("qpdf", ["--check", path])
        #expect(check.status == 0, "\(check.output)")
        #expect(try Self.run("pdfinfo", [path]).output.contains("Tagged:          yes"))
        // Structure: 3 × 4 paragraphs, two continued on the next page → 10 P elements, no
        // artifact elements; the merged ones hold marked content from two pages.
        let structure = try Self.run("pdfinfo", ["-struct", path]).output
        let lines = structure.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.filter { $0.hasPrefix("P") }.count == 10, "\(structure)")
        #expect(!structure.contains("Private"))
        let json = try Self.run("qpdf", ["--json", "--json-key=qpdf", path]).output
        #expect(json.components(separatedBy: "\"/Type\": \"/MCR\"").count - 1 == 4, "two merged paragraphs, two parts each")
        #expect(json.contains("\"/Lang\": \"u:ko\""))
        #expect(json.contains("\"/DisplayDocTitle\": true"))
        // Marked content: the footers are artifacts; the empty span is gone.
        let qdf = path + ".qdf"
        defer { unlink(qdf) }
        #expect(try Self.run("qpdf", ["--qdf", "--object-streams=disable", path, qdf]).status == 0)
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: qdf)), as: UTF8.self)
        #expect(text.components(separatedBy: "/Artifact BMC").count - 1 == 3)
        #expect(!text.contains("/Private <<"))
        #expect(!text.contains("/ActualText <feff0020>"))
    }

    /// Content streams rewritten ahead on a second thread give the file rewritten in line,
    /// byte for byte, and no more than the window of results waits for the writer.
    @Test func contentStreamsRewrittenAheadGiveTheSameFileInBoundedMemory() throws {
        let made = CairoLayoutPDF.make(pages: 60, paragraphs: 3)
        var outputs: [[UInt8]] = []
        for threaded in [false, true] {
            let path = Self.temporaryPath("ahead-\(threaded)")
            defer { unlink(path) }
            try made.bytes.withUnsafeBufferPointer {
                try TaggedPDFRewriter.rewrite(source: $0, to: path, records: made.records, tagging: PDFTagging(),
                                              info: DocumentInfo(title: "Ahead"), claimsUA: true, threaded: threaded)
            }
            outputs.append(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
            #expect(try Self.run("qpdf", ["--check", path]).status == 0)
        }
        #expect(outputs[0] == outputs[1])

        try made.bytes.withUnsafeBufferPointer { source in
            let file = try CairoPDFFile(bytes: source)
            var jobs: [(number: Int32, object: CairoPDFFile.Object)] = []
            for n in 1..<file.size { let object = try file.object(n); if object.streamData != nil { jobs.append((n, object)) } }
            #expect(jobs.count == 60)
            let ahead = ContentRewrites(jobs, source: source, threaded: true)
            defer { ahead.stop() }
            // The thread runs ahead until the window is full, and no further.
            let deadline = Date().addingTimeInterval(5)
            while ahead.waiting < ContentRewrites.window, Date() < deadline { usleep(1000) }
            usleep(50_000)
            #expect(ahead.waiting == ContentRewrites.window)
            for i in jobs.indices {
                let inLine = ContentRewrites.rewrite(jobs[i].object, source: source)
                switch (ahead.outcome(i), inLine) {
                case (.stream(let d1, let b1), .stream(let d2, let b2)): #expect(b1 == b2 && "\(d1)" == "\(d2)")
                default: Issue.record("stream \(i) was not rewritten both ways")
                }
                #expect(ahead.waiting <= ContentRewrites.window)
            }
        }
    }

    @Test func aFileNotInCairosLayoutIsCompletedByQPDF() throws {
        // The same file with its objects in qpdf's layout (object streams, a cross-reference
        // stream): the pass falls back to qpdf and still completes it.
        let path = Self.temporaryPath("qpdf-layout")
        let input = path + ".in"
        defer { unlink(path); unlink(input) }
        let made = CairoLayoutPDF.make(pages: 2, paragraphs: 3)
        try Data(made.bytes).write(to: URL(fileURLWithPath: input))
        #expect(try Self.run("qpdf", ["--object-streams=generate", input, path]).status == 0)
        #expect(throws: CairoPDFFile.Unsupported.self) {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            try data.withUnsafeBytes { _ = try CairoPDFFile(bytes: $0.bindMemory(to: UInt8.self)) }
        }
        try PDFAccessibility.complete(path: path, records: made.records, tagging: PDFTagging(), info: DocumentInfo(), claimsUA: false)
        #expect(try Self.run("qpdf", ["--check", path]).status == 0)
        #expect(!(try Self.run("pdfinfo", ["-struct", path]).output.contains("Private")))
    }

    @Test func aTreeThatDoesNotMatchTheRecordsIsAnError() throws {
        let path = Self.temporaryPath("mismatch")
        defer { unlink(path) }
        let made = CairoLayoutPDF.make(pages: 1, paragraphs: 2)
        try Data(made.bytes).write(to: URL(fileURLWithPath: path))
        var records = made.records
        records.append(.element(.paragraph), block: 99)
        #expect(throws: PDFAccessibility.Failure.self) {
            try PDFAccessibility.complete(path: path, records: records, tagging: PDFTagging(), info: DocumentInfo(), claimsUA: false)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(made.bytes), "the file is left as Cairo wrote it")
    }

    /// The pass's peak on 200 pages (8,400 structure elements) and on 600 pages (25,200) differs by
    /// under 15 MiB, measured in a child process. (With qpdf holding every parsed object, about
    /// 1.7 KB an element, the difference was about 30 MiB.)
    @Test func thePostPassPeakDoesNotGrowWithPages() async {
        await #expect(processExitsWith: .success) {
            let one = try TaggedPDFRewriterTests.postPassPeakKiB(pages: 200)
            let three = try TaggedPDFRewriterTests.postPassPeakKiB(pages: 600)
            FileHandle.standardError.write(Data("post-pass peak: 200 pages \(one) KiB, 600 pages \(three) KiB\n".utf8))
            if three - one >= 15 * 1024 { exit(1) }
        }
    }
}
