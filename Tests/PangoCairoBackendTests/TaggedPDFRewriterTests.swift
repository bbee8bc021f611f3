import Foundation
import Layout
import Styling
import TestSupport
import Testing
import Typography

@testable import PangoCairoBackend
@testable import TaggedPDF

/// Tagging no longer grows Cairo's memory with the document. Elements are not Cairo
/// tags: the renderer records them (``StructureRecords``) and marks where each run of content
/// begins (``ContentMarker``); the tagging pass (``PDFAccessibility``) turns the markers into
/// marked content and writes the structure tree, reading and writing one object at a time.
/// The files here are drawn by the real renderer: every page has a footer drawn as an artifact
/// and paragraphs (filled rectangles), the last paragraph of a page continues on the next, and
/// the first paragraph holds a link.
@Suite struct TaggedPDFRewriterTests {
    static let date = Date(timeIntervalSince1970: 1_700_000_000)

    /// Page `p` of a document of `paragraphs` paragraphs a page.
    static func page(_ p: Int, paragraphs: Int) -> Page {
        var page = Page(number: p + 1, size: .a5)
        let color = RGBAColor(red: 0.2, green: 0.2, blue: 0.2, alpha: 1)
        page.elements.append(.structure([.artifact]))
        page.elements.append(.fill(Rect(x: 20, y: 560, width: 100, height: 4), color))
        for k in 0..<paragraphs {
            // Paragraph ids: the first of page p > 0 is the last of page p - 1, continued.
            let id = p * (paragraphs - 1) + k + 1
            page.elements.append(.structure([StructureElement(.paragraph, id: id)]))
            page.elements.append(.fill(Rect(x: 20, y: Double(40 + 30 * k), width: 200, height: 10), color))
            if k == 0 {
                page.elements.append(
                    .link(Rect(x: 20, y: 40, width: 30, height: 10), .external("https://example.com/\(p)")))
                page.elements.append(.fill(Rect(x: 20, y: 52, width: 200, height: 10), color))
            }
        }
        return page
    }

    /// A tagged file as Cairo leaves it (markers and all) and the structure the renderer
    /// recorded for it.
    static func drawn(pages: Int, paragraphs: Int, at path: String) throws -> StructureRecords {
        let renderer = try CairoPDFRenderer(
            path: path, info: DocumentInfo(title: "Pages"), creationDate: date, tagging: PDFTagging())
        renderer.completesTagging = false
        for p in 0..<pages { try renderer.render(page(p, paragraphs: paragraphs)) }
        try renderer.finish()
        return renderer.recordedStructure
    }

    static func temporaryPath(_ name: String) -> String {
        Scratch.path("tagstream-\(name).pdf")
    }

    /// The file's objects, uncompressed, as text (`qpdf --qdf`).
    static func qdf(_ path: String) throws -> String {
        let qdf = path + ".qdf"
        defer { unlink(qdf) }
        #expect(try PDFProbe.run("qpdf", ["--qdf", "--object-streams=disable", path, qdf]).0 == 0)
        return String(decoding: try Data(contentsOf: URL(fileURLWithPath: qdf)), as: UTF8.self)
    }

    /// Kilobytes of `field` (`VmHWM`, `VmRSS`) in /proc/self/status.
    static func status(_ field: String) -> Int {
        let text = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = text.split(separator: "\n").first { $0.hasPrefix(field + ":") } ?? ""
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
    }

    @Test func markersBecomeMarkedContentAndContinuedParagraphsStayOneElement() throws {
        let path = Self.temporaryPath("three")
        defer { unlink(path) }
        let structure = try Self.drawn(pages: 3, paragraphs: 4, at: path)
        // As Cairo left it: one marker per run, no element but Document and the links. A link
        // drawn over no text of its own holds only its annotation: its paragraph stays one run.
        let raw = try Self.qdf(path)
        #expect(raw.components(separatedBy: "0.004 0.004 re f").count - 1 == 3 * (1 + 4))
        try PDFAccessibility.complete(
            path: path, structure: structure, tagging: PDFTagging(language: "ko"),
            info: DocumentInfo(title: "Three pages"), claimsUA: true)
        let check = try PDFProbe.run("qpdf", ["--check", path])
        #expect(check.0 == 0 && !check.1.contains("WARNING"), "\(check.1)")
        #expect(try PDFProbe.run("pdfinfo", [path]).1.contains("Tagged:          yes"))
        // 3 × 4 paragraphs, two continued on the next page: 10 P, each link in its paragraph.
        let tree = try PDFProbe.run("pdfinfo", ["-struct", path]).1
        let lines = tree.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.filter { $0.hasPrefix("P ") || $0 == "P" }.count == 10, "\(tree)")
        #expect(lines.filter { $0.hasPrefix("Link") }.count == 3, "\(tree)")
        let text = try Self.qdf(path)
        #expect(!text.contains(" re f") || !text.contains("0.004 0.004 re f"), "no marker is left")
        #expect(text.components(separatedBy: "/Artifact BMC").count - 1 == 3)
        // A paragraph continued on the next page holds marked content of both: an MCR for its
        // run on the second page. Each link's annotation is in the parent tree and in its Link.
        #expect(text.components(separatedBy: "/Type /MCR").count - 1 == 2)
        #expect(text.components(separatedBy: "/Type /OBJR").count - 1 == 3)
        #expect(text.contains("/ParentTreeNextKey 6"))
        #expect(text.contains("/Lang (ko)") && text.contains("/DisplayDocTitle true"))
    }

    /// Every MCID drawn on a page names, through the parent tree, the element whose /K holds it
    /// (PDF 1.7 §14.7.4.4), on a document long enough for a parent tree of several leaves.
    @Test func theParentTreeNamesTheElementOfEveryMarkedContent() throws {
        let path = Self.temporaryPath("parent-tree")
        defer { unlink(path) }
        let pages = TaggedPDFRewriter.parentTreeLeaf + 10
        let structure = try Self.drawn(pages: pages, paragraphs: 3, at: path)
        try PDFAccessibility.complete(
            path: path, structure: structure, tagging: PDFTagging(), info: DocumentInfo(title: "T"), claimsUA: true)
        let json = try PDFProbe.run("qpdf", ["--json", "--json-key=qpdf", path]).1
        let top = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let objects = try #require((top["qpdf"] as? [Any])?.last as? [String: Any])
        func value(_ reference: Any?) -> Any? {
            guard let r = reference as? String else { return reference }
            let object = objects["obj:" + r] as? [String: Any]
            return object?["value"] ?? (object?["stream"] as? [String: Any])?["dict"]
        }
        let catalog = try #require(
            value((objects["trailer"] as? [String: Any]).flatMap { ($0["value"] as? [String: Any])?["/Root"] })
                as? [String: Any])
        let root = try #require(value(catalog["/StructTreeRoot"]) as? [String: Any])
        let parentTree = try #require(value(root["/ParentTree"]) as? [String: Any])
        let leaves = try #require(parentTree["/Kids"] as? [Any])
        #expect(leaves.count == (2 * pages + TaggedPDFRewriter.parentTreeLeaf - 1) / TaggedPDFRewriter.parentTreeLeaf)
        var entries: [Int: Any] = [:]
        for leaf in leaves {
            let nums = try #require((value(leaf) as? [String: Any])?["/Nums"] as? [Any])
            for k in stride(from: 0, to: nums.count, by: 2) { entries[nums[k] as! Int] = nums[k + 1] }
        }
        #expect(entries.count == pages + pages, "a key per page and per link")
        // Page 2 (key 1): its MCIDs 0… in order; each element's /K holds that MCID on that page.
        let pageObjects = try #require(
            catalog["/Pages"].flatMap { (value($0) as? [String: Any])?["/Kids"] as? [String] })
        for p in [0, 1, pages - 1] {
            let page = try #require(value(pageObjects[p]) as? [String: Any])
            #expect(page["/StructParents"] as? Int == p)
            let owners = try #require(entries[p] as? [String])
            #expect(owners.count == 3, "three paragraphs of a run each (the link holds only its annotation)")
            for (mcid, owner) in owners.enumerated() {
                let element = try #require(value(owner) as? [String: Any])
                let kids = (element["/K"] as? [Any]) ?? [element["/K"] as Any]
                let holds = kids.contains { kid in
                    if let n = kid as? Int { return n == mcid && element["/Pg"] as? String == pageObjects[p] }
                    if let mcr = kid as? [String: Any] {
                        return mcr["/MCID"] as? Int == mcid && mcr["/Pg"] as? String == pageObjects[p]
                    }
                    return false
                }
                #expect(holds, "page \(p) MCID \(mcid): \(element)")
            }
        }
    }

    /// Content streams rewritten ahead on a second thread give the file rewritten in line,
    /// byte for byte, and no more than the window of results waits for the writer.
    @Test func contentStreamsRewrittenAheadGiveTheSameFileInBoundedMemory() throws {
        let path = Self.temporaryPath("ahead")
        defer { unlink(path) }
        let structure = try Self.drawn(pages: 60, paragraphs: 3, at: path)
        let source = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        var outputs: [[UInt8]] = []
        for threaded in [false, true] {
            let out = Self.temporaryPath("ahead-\(threaded)")
            defer { unlink(out) }
            try source.withUnsafeBufferPointer {
                try TaggedPDFRewriter.rewrite(
                    source: $0, to: out, structure: structure, tagging: PDFTagging(),
                    info: DocumentInfo(title: "Ahead"), claimsUA: true, threaded: threaded)
            }
            outputs.append(Array(try Data(contentsOf: URL(fileURLWithPath: out))))
            #expect(try PDFProbe.run("qpdf", ["--check", out]).0 == 0)
        }
        #expect(outputs[0] == outputs[1])

        try source.withUnsafeBufferPointer { source in
            let file = try CairoPDFFile(bytes: source)
            var jobs: [(number: Int32, object: CairoPDFFile.Object, page: Int)] = []
            guard case .reference(let tree)? = try file.object(file.root).value["Pages"],
                case .array(let kids)? = try file.object(tree).value["Kids"]
            else { throw CairoPDFFile.Unsupported(description: "pages") }
            for kid in kids {
                guard case .reference(let page) = kid,
                    case .reference(let content)? = try file.object(page).value["Contents"]
                else { continue }
                jobs.append((content, try file.object(content), jobs.count))
            }
            #expect(jobs.count == 60)
            let ahead = ContentRewrites(jobs, source: source, structure: structure, threaded: true)
            defer { ahead.stop() }
            // The thread runs ahead until the window is full, and no further.
            let deadline = Date().addingTimeInterval(5)
            while ahead.waiting < ContentRewrites.window, Date() < deadline { usleep(1000) }
            usleep(50_000)
            #expect(ahead.waiting == ContentRewrites.window)
            for i in jobs.indices {
                let inLine = ContentRewrites.rewrite(
                    jobs[i].object, source: source, runs: structure.runs(onPage: i), structure: structure)
                switch (ahead.outcome(i), inLine) {
                case (.stream(let d1, let b1, let c1, let s1), .stream(let d2, let b2, let c2, let s2)):
                    #expect(b1 == b2 && "\(d1)" == "\(d2)" && c1 == c2 && s1 == s2)
                default: Issue.record("stream \(i) was not rewritten both ways")
                }
                #expect(ahead.waiting <= ContentRewrites.window)
            }
        }
    }

    /// Structure that does not match the file (a run more than the page's markers, a link
    /// missing) is an error, and the file is left as Cairo wrote it.
    @Test func structureThatDoesNotMatchTheFileIsAnError() throws {
        let path = Self.temporaryPath("mismatch")
        defer { unlink(path) }
        var structure = try Self.drawn(pages: 2, paragraphs: 2, at: path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        var extraRun = structure
        extraRun.addRun(owner: 1)
        #expect(throws: PDFAccessibility.Failure.self) {
            try PDFAccessibility.complete(
                path: path, structure: extraRun, tagging: PDFTagging(), info: DocumentInfo(), claimsUA: false)
        }
        structure.addAnnotation(of: structure.addLink(parent: 0))
        #expect(throws: PDFAccessibility.Failure.self) {
            try PDFAccessibility.complete(
                path: path, structure: structure, tagging: PDFTagging(), info: DocumentInfo(), claimsUA: false)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "the file is left as Cairo wrote it")
    }

    /// The rewrite reads a content stream token by token: glyph codes in a string that spell a
    /// marker or an operator are left alone, and so is a square of a marker's size that is not
    /// one (out of place, or inside a picture's `q … Q`). A run ends before the `Q` closing the
    /// graphics state it began in. Markers missing are an error.
    @Test func markersAreFoundByTokenNotByBytes() throws {
        var structure = StructureRecords()
        let p = structure.addElement(.role(.paragraph), parent: 0)
        structure.beginPage()
        structure.addRun(owner: p)
        structure.addRun(owner: -1)
        func rewritten(_ content: String) throws -> String {
            let bytes = Array(content.utf8)
            return String(
                decoding: try bytes.withUnsafeBufferPointer {
                    try MarkedContentRewrite.rewritten($0, runs: structure.runs(onPage: 0), structure: structure)
                }, as: UTF8.self)
        }
        let text = "BT [(0.5 0.5 0.004 0.004 re f) (EMC BDC)] TJ ET"
        let picture = "q 1 0 0 1 0 0 cm 0.75 0.5 0.004 0.004 re f Q"
        let out = try rewritten(
            "q\n0.5 0.5 0.004 0.004 re f\n\(text)\n\(picture)\n9 9 0.004 0.004 re f\n0.75 0.5 0.004 0.004 re f\n1 2 3 "
                + "4 re f\nQ\n"
        )
        #expect(
            out
                == "q\n/P << /MCID 0 >> BDC\n\n\(text)\n\(picture)\n9 9 0.004 0.004 re f\nEMC\n/Artifact BMC\n\n1 2 3 "
                + "4 re f\nEMC\nQ\n"
        )
        #expect(throws: MarkedContentRewrite.Mismatch.self) {
            try rewritten("0.75 0.5 0.004 0.004 re f\n0.5 0.5 0.004 0.004 re f\n")
        }
        #expect(throws: MarkedContentRewrite.Mismatch.self) { try rewritten("0.5 0.5 0.004 0.004 re f\n") }
    }

    /// A run's recorded paints colour its glyphs inside the text object: each text-showing
    /// operator is cut where the colour changes, spaces (codes 32 and 160 of a literal string)
    /// keep the colour in effect, a hexadecimal string counts two bytes a glyph, escapes count
    /// one code, kerning stays with the glyphs before it, and Cairo's own colour is set again
    /// before `ET`. The glyphs and their order are those Cairo wrote.
    @Test func paintsColourGlyphsInsideTheTextObject() throws {
        var structure = StructureRecords()
        let code = structure.addElement(.role(.code), parent: 0)
        structure.beginPage()
        structure.addRun(owner: code)
        let red = (red: 1.0, green: 0.0, blue: 0.0)
        let blue = (red: 0.0, green: 0.0, blue: 0.5)
        // `def f\(x\):` then a hexadecimal string of two glyphs: def (red) f( (drawn colour)
        // x (blue) ): (drawn colour), then 0041 0042 (red), open when the text object ends.
        structure.addPaint([
            RunPaint(glyphs: 3, color: red), RunPaint(glyphs: 2, color: nil), RunPaint(glyphs: 1, color: blue),
            RunPaint(glyphs: 2, color: nil), RunPaint(glyphs: 2, color: red),
        ])
        let content =
            "0.5 0.5 0.004 0.004 re f\n0.1 0.1 0.1 rg BT\n/f-0-0 1 Tf\n[(def f)-20(\\(x\\):)]TJ\n"
            + "/f-0-1 1 Tf\n<00410042>Tj\nET\n"
        let bytes = Array(content.utf8)
        let out = String(
            decoding: try bytes.withUnsafeBufferPointer {
                try MarkedContentRewrite.rewritten($0, runs: structure.runs(onPage: 0), structure: structure)
            }, as: UTF8.self)
        #expect(
            out
                == "/Code << /MCID 0 >> BDC\n\n0.1 0.1 0.1 rg BT\n/f-0-0 1 Tf\n1 0 0 rg\n[(def )]TJ\n"
                + "0.1 0.1 0.1 rg\n[(f) -20 (\\()]TJ\n0 0 0.5 rg\n[(x)]TJ\n0.1 0.1 0.1 rg\n[(\\):)]TJ\n\n"
                + "/f-0-1 1 Tf\n1 0 0 rg\n[<00410042>]TJ\n\n0.1 0.1 0.1 rg\nET\n\nEMC\n")
        // Spaces recorded but left out of the stream (a drawing of spaces alone) are passed over.
        var spaced = StructureRecords()
        let block = spaced.addElement(.role(.code), parent: 0)
        spaced.beginPage()
        spaced.addRun(owner: block)
        spaced.addPaint([RunPaint(glyphs: 2, color: red), RunPaint(spaces: 4), RunPaint(glyphs: 1, color: blue)])
        let spacedBytes = Array("0.5 0.5 0.004 0.004 re f\n0 g 0.1 0.1 0.1 rg BT\n(ab)Tj\n(c)Tj\nET\n".utf8)
        let spacedOut = String(
            decoding: try spacedBytes.withUnsafeBufferPointer {
                try MarkedContentRewrite.rewritten($0, runs: spaced.runs(onPage: 0), structure: spaced)
            }, as: UTF8.self)
        #expect(
            spacedOut
                == "/Code << /MCID 0 >> BDC\n\n0 g 0.1 0.1 0.1 rg BT\n1 0 0 rg\n[(ab)]TJ\n\n0 0 0.5 rg\n[(c)]TJ\n\n"
                + "0.1 0.1 0.1 rg\nET\n\nEMC\n")
        // Without paints the stream is left as it was.
        var plain = StructureRecords()
        let paragraph = plain.addElement(.role(.code), parent: 0)
        plain.beginPage()
        plain.addRun(owner: paragraph)
        let unpainted = String(
            decoding: try bytes.withUnsafeBufferPointer {
                try MarkedContentRewrite.rewritten($0, runs: plain.runs(onPage: 0), structure: plain)
            }, as: UTF8.self)
        #expect(
            unpainted == "/Code << /MCID 0 >> BDC\n\n0.1 0.1 0.1 rg BT\n/f-0-0 1 Tf\n[(def f)-20(\\(x\\):)]TJ\n"
                + "/f-0-1 1 Tf\n<00410042>Tj\nET\n\nEMC\n")
    }

    /// The pass's peak above the resident size it started at, in KiB (Linux: writing 5 to
    /// /proc/self/clear_refs resets the peak, `VmHWM`, to the current size).
    static func postPassPeakKiB(pages: Int) throws -> Int {
        let path = temporaryPath("peak-\(pages)")
        defer { unlink(path) }
        let structure = try drawn(pages: pages, paragraphs: 40, at: path)
        try "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
        let before = status("VmRSS")
        try PDFAccessibility.complete(
            path: path, structure: structure, tagging: PDFTagging(), info: DocumentInfo(title: "Peak"), claimsUA: true)
        return status("VmHWM") - before
    }

    /// The pass's peak on 600 pages is under twice its peak on 200 pages (8,600 elements and
    /// runs), measured in a child process: about 2 MiB each (×0.9 to ×1.05); a pass that held
    /// every page would take three times as much.
    @Test(.slow) func thePostPassPeakDoesNotGrowWithPages() async {
        await #expect(processExitsWith: .success) {
            let one = try TaggedPDFRewriterTests.postPassPeakKiB(pages: 200)
            let three = try TaggedPDFRewriterTests.postPassPeakKiB(pages: 600)
            FileHandle.standardError.write(Data("post-pass peak: 200 pages \(one) KiB, 600 pages \(three) KiB\n".utf8))
            if three >= 2 * one { exit(1) }
        }
    }
}
