import Foundation
import Layout
import PangoCairoBackend
import Styling
import TaggedPDF
import TestSupport
import Testing
import Typography

@Suite struct CairoPDFRendererTests {
    let shaper = PangoShaper()
    let date = Date(timeIntervalSince1970: 1_700_000_000)

    /// A two-page document with Latin + Hangul text, links, destinations, nested outlines,
    /// rules, fills and images.
    func renderSample(to path: String, imageFolder: URL) throws {
        let png = imageFolder.appendingPathComponent("a.png")
        let jpg = imageFolder.appendingPathComponent("b.jpg")
        try Support.tinyPNG.write(to: png)
        try Support.tinyJPEG.write(to: jpg)
        let renderer = try CairoPDFRenderer(
            path: path, info: DocumentInfo(title: "조판 Test", author: "A. Author", keywords: ["pdf", "test"]),
            creationDate: date)
        let heading = shaper.shape(
            Support.paragraph("개요 Overview", Support.style(Support.interKR, size: 24)), width: 400)
        var linkStyle = Support.style()
        linkStyle.link = .external("https://example.com/a (b)'c/한")
        let body = shaper.shape(
            StyledParagraph(
                runs: [
                    StyledRun("Hello ", style: Support.style(Support.interKR)), StyledRun("world", style: linkStyle),
                    StyledRun(" 안녕하세요", style: Support.style(Support.interKR)),
                ],
                style: ParagraphStyle(baseFont: linkStyle.font)), width: 400)
        var page1 = Page(number: 1, size: .a4)
        page1.elements.append(.destination(name: "개요", at: Point(x: 72, y: 72)))
        page1.elements.append(.outline(OutlineEntry(title: "개요 Overview", level: 1), at: Point(x: 72, y: 72)))
        page1.elements.append(.text(heading.lines[0], x: 72, baseline: 100))
        page1.elements.append(.outline(OutlineEntry(title: "Sub", level: 2), at: Point(x: 72, y: 120)))
        page1.elements.append(.text(body.lines[0], x: 72, baseline: 140))
        let link = body.lines[0].links[0]
        page1.elements.append(.link(Rect(x: 72 + link.x, y: 140 - 16.5, width: link.width, height: 20.6), link.target))
        page1.elements.append(
            .fill(Rect(x: 72, y: 200, width: 100, height: 10), RGBAColor(red: 0.9, green: 0.9, blue: 0.9)))
        page1.elements.append(.line(from: Point(x: 72, y: 220), to: Point(x: 300, y: 220), width: 0.5, color: .black))
        page1.elements.append(.image(path: png.path, rect: Rect(x: 72, y: 240, width: 32, height: 32)))
        page1.elements.append(.image(path: jpg.path, rect: Rect(x: 120, y: 240, width: 80, height: 40)))
        page1.elements.append(
            .image(path: "/nonexistent/missing.png", rect: Rect(x: 220, y: 240, width: 80, height: 40)))
        try renderer.render(page1)
        var page2 = Page(number: 2, size: .a5)
        page2.elements.append(.outline(OutlineEntry(title: "Second", level: 1), at: Point(x: 0, y: 0)))
        page2.elements.append(.link(Rect(x: 50, y: 50, width: 100, height: 20), .internal("개요")))
        page2.elements.append(.text(body.lines[0], x: 50, baseline: 70))
        try renderer.render(page2)
        try renderer.finish()
    }

    @Test func documentIsValidAndEmbedsFonts() throws {
        let dir = try Support.tempDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let pdf = dir.appendingPathComponent("sample.pdf").path
        try renderSample(to: pdf, imageFolder: dir)

        let (status, check) = try PDFProbe.run("qpdf", ["--check", pdf])
        #expect(status == 0, "\(check)")
        #expect(check.contains("No syntax or stream encoding errors"))

        let (_, fonts) = try PDFProbe.run("pdffonts", [pdf])
        #expect(fonts.contains("Inter-Regular"))
        #expect(fonts.contains("NotoSansCJKkr"))
        for line in fonts.split(separator: "\n").dropFirst(2) {
            #expect(line.contains(" yes "), "not embedded: \(line)")
        }

        let (_, info) = try PDFProbe.run("pdfinfo", [pdf])
        #expect(info.contains("조판 Test"))
        #expect(info.contains("A. Author"))
        #expect(info.split(separator: "\n").contains { $0.hasPrefix("Pages:") && $0.hasSuffix(" 2") })
        #expect(info.contains("2023"))  // CreationDate from the given date (2023-11-14)

        let (_, images) = try PDFProbe.run("pdfimages", ["-list", pdf])
        #expect(images.contains("jpeg"))  // JPEG embedded as is (DCTDecode)
        #expect(images.split(separator: "\n").count >= 4)  // header ×2 + PNG + JPEG
    }

    @Test func textLandsWhereItWasPlaced() throws {
        let dir = try Support.tempDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let pdf = dir.appendingPathComponent("sample.pdf").path
        try renderSample(to: pdf, imageFolder: dir)
        let words = try PDFProbe.words(pdf)
        let hello = try #require(words.first { $0.text == "Hello" })
        #expect(abs(hello.xMin - 72) < 1.5)
        // poppler's box spans the font's ascent/descent around the baseline.
        #expect(abs(hello.yMax - 140) < 6 && hello.yMin < 140 && hello.yMin > 115)
        #expect(words.contains { $0.text == "안녕하세요" })
        #expect(words.contains { $0.text == "개요" })
    }

    @Test func linksDestinationsAndOutlinesAreWritten() throws {
        let dir = try Support.tempDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let pdf = dir.appendingPathComponent("sample.pdf").path
        try renderSample(to: pdf, imageFolder: dir)
        let qdf = dir.appendingPathComponent("qdf.pdf").path
        try PDFProbe.run("qpdf", ["--qdf", "--object-streams=disable", pdf, qdf])
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: qdf)), as: UTF8.self)
        let name = PDFNames.destination(for: "개요")
        #expect(text.contains("(https://example.com/a%20%28b%29%27c/%ED%95%9C)"))
        #expect(text.contains(name))
        #expect(text.contains("/Outlines"))
        #expect(text.contains("/Count"))
        #expect(text.contains("/Dests") || text.contains("/Names"))
    }

    @Test func reproducibleWithAFixedDate() throws {
        let dir = try Support.tempDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("a.pdf").path
        let b = dir.appendingPathComponent("b.pdf").path
        try renderSample(to: a, imageFolder: dir)
        try renderSample(to: b, imageFolder: dir)
        let da = try Data(contentsOf: URL(fileURLWithPath: a))
        let db = try Data(contentsOf: URL(fileURLWithPath: b))
        #expect(da == db)
    }

    @Test func strokedTextStrokesOutlinesUnderTheFill() throws {
        let dir = try Support.tempDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let pdf = dir.appendingPathComponent("stroke.pdf").path
        var outline = Support.style(size: 40)
        outline.stroke = Stroke(color: RGBAColor(red: 1, green: 0, blue: 0), width: 2.5)
        outline.color = .white
        let line = shaper.shape(Support.paragraph("Outline", outline), width: nil).lines[0]
        let renderer = try CairoPDFRenderer(path: pdf, info: DocumentInfo(), creationDate: date)
        try renderer.render(Page(number: 1, size: .a4, elements: [.text(line, x: 72, baseline: 200)]))
        try renderer.finish()
        let qdf = dir.appendingPathComponent("qdf.pdf").path
        try PDFProbe.run("qpdf", ["--qdf", "--object-streams=disable", pdf, qdf])
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: qdf)), as: UTF8.self)
        #expect(text.contains("2.5 w"))
        #expect(text.contains(" S\n") || text.contains(" S "))
        #expect(text.contains("1 0 0 RG"))
        // The text is still there (selectable).
        #expect(try PDFProbe.words(pdf).contains { $0.text == "Outline" })
    }

    /// The renderer calls ``CairoPDFRenderer/beforeLargeFontTableCopy`` once, before the first
    /// page that draws a face with a large `CFF ` table (the Hangul fallback, Noto Sans CJK) is
    /// shown, and never for pages of Latin text alone.
    @Test func aLargeFontTableIsAnnouncedBeforeItsFirstPage() throws {
        let dir = try Support.tempDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let latin = shaper.shape(
            Support.paragraph("Latin text alone", Support.style(Support.interKR, size: 12)), width: nil
        ).lines[0]
        let hangul = shaper.shape(
            Support.paragraph("한국어 문장 and Latin", Support.style(Support.interKR, size: 12)), width: nil
        ).lines[0]
        let renderer = try CairoPDFRenderer(
            path: dir.appendingPathComponent("large.pdf").path, info: DocumentInfo(), creationDate: nil)
        var calls: [Int] = []
        var page = 0
        renderer.beforeLargeFontTableCopy = { calls.append(page) }
        for line in [latin, latin, hangul, hangul, latin] {
            page += 1
            try renderer.render(Page(number: page, size: .a5, elements: [.text(line, x: 40, baseline: 100)]))
            #expect(renderer.drewLargeFontTable == (page >= 3), "page \(page)")
        }
        try renderer.finish()
        #expect(calls == [3])
    }

    @Test func unwritablePathThrows() {
        #expect(throws: BackendError.self) {
            _ = try CairoPDFRenderer(path: "/nonexistent-dir/x.pdf", info: DocumentInfo(), creationDate: nil)
        }
    }

    @Test func iso8601DateFromSourceDateEpoch() throws {
        let dir = try Support.tempDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let pdf = dir.appendingPathComponent("d.pdf").path
        let renderer = try CairoPDFRenderer(
            path: pdf, info: DocumentInfo(title: "T"), creationDate: Date(timeIntervalSince1970: 0))
        try renderer.render(Page(number: 1, size: .a5))
        try renderer.finish()
        let (_, info) = try PDFProbe.run("pdfinfo", ["-isodates", pdf])
        #expect(info.contains("1970-01-01T00:00:00"))
        #expect(info.contains("419.528 x 595.276 pts"))
    }
}

@Suite struct PDFNamesTests {
    @Test func destinationNamesAreASCIIAndInjective() {
        let hangul = PDFNames.destination(for: "개요")
        #expect(hangul == "~EA~B0~9C~EC~9A~94")
        #expect(PDFNames.destination(for: "intro-1.2_a") == "intro-1.2_a")
        #expect(PDFNames.destination(for: "a~b") != PDFNames.destination(for: "a b"))
        let ascii = PDFNames.destination(for: "a b").allSatisfy { $0.isASCII }
        #expect(ascii)
    }

    /// A long id (a heading of many words) is named short, one to one with every other id.
    @Test func longDestinationIdsAreNamedShortAndApart() {
        var names = DestinationNames()
        let long = String(repeating: "word-", count: 2_000)
        let other = long + "x"
        let first = names.quotedName(for: long)
        #expect(first == PDFNames.quoted("~~0"))
        #expect(names.quotedName(for: other) == PDFNames.quoted("~~1"))
        #expect(names.quotedName(for: "intro") == PDFNames.quoted("intro"))
        #expect(names.quotedName(for: long) == first)
        let limit = String(repeating: "a", count: DestinationNames.longestName)
        #expect(names.quotedName(for: limit) == PDFNames.quoted(limit))
        // `~~` is never a name of an id's own: a tilde is written `~7E`.
        #expect(names.quotedName(for: "~~0") == PDFNames.quoted("~7E~7E0"))
    }

    @Test func urisArePercentEncoded() {
        #expect(PDFNames.encodeURI("https://x.org/a b(c)'d\\e") == "https://x.org/a%20b%28c%29%27d%5Ce")
        #expect(PDFNames.encodeURI("https://x.org/%20ok%zz") == "https://x.org/%20ok%25zz")
        #expect(PDFNames.encodeURI("https://ko.wikipedia.org/wiki/한") == "https://ko.wikipedia.org/wiki/%ED%95%9C")
    }
}
