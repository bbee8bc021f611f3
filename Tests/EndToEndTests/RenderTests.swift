import Foundation
import TestSupport
import Testing
import Typesetter
import Typography

/// Real Markdown files rendered end to end and read back from the PDF.
@Suite(.serialized) struct RenderTests {
    static let page = PageSetup()

    /// Every word's box lies inside the text area (the footer's page number, in the bottom
    /// margin, excepted). poppler sizes a word's box from its font's ascent and descent, not its
    /// ink; Noto Sans CJK KR's box (1.45 em) is taller than Inter's line (1.21 em), so the
    /// vertical check allows `slack` pt or 12% of the box height, whichever is larger.
    func assertInsideTextArea(
        _ words: [PDFProbe.Word], slack: Double = 2.5, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let p = RenderTests.page
        let left = p.margins.left
        let right = p.paper.width - p.margins.right
        let top = p.margins.top
        let bottom = p.paper.height - p.margins.bottom
        for word in words where word.yMin < bottom + 10 {  // the footer sits well below
            #expect(
                word.xMin >= left - 0.5 && word.xMax <= right + 0.5, "\(word) crosses a side margin",
                sourceLocation: sourceLocation)
            let allowance = max(slack, 0.12 * word.height)
            #expect(
                word.yMin >= top - allowance && word.yMax <= bottom + allowance,
                "\(word) crosses the top or bottom margin", sourceLocation: sourceLocation)
        }
    }

    @Test func showcaseRendersAsAWellFormedMultiPageDocument() throws {
        let source = try String(contentsOfFile: Render.packageRoot + "/templates/showcase.md", encoding: .utf8)
        let (pdf, report) = try Render.markdown(source, name: "showcase")
        #expect(report.pageCount >= 4)
        #expect(try PDFProbe.info(pdf)["Pages"] == String(report.pageCount))
        #expect(try PDFProbe.qpdfClean(pdf))
        let fonts = try PDFProbe.fonts(pdf)
        #expect(fonts.contains { $0.hasPrefix("Inter-") }, "\(fonts)")
        #expect(fonts.contains { $0.hasPrefix("NotoSansCJKkr") }, "\(fonts)")
        let words = try PDFProbe.words(pdf)
        assertInsideTextArea(words)

        // Reading order: headings appear in source order in the extracted text.
        let text = try PDFProbe.text(pdf)
        let headings = [
            "Why a type scale belongs in print", "The ten roles", "Code blocks", "Line height, leading",
            "A longer passage", "Closing",
        ]
        let positions = headings.map { text.range(of: $0)?.lowerBound }
        #expect(!positions.contains(nil), "every heading is extractable")
        #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted(), "headings in source order")
        #expect(text.contains("타이포그래피는 정보 전달의 기본입니다"))

        // Heading glyphs are larger than body glyphs.
        let heading = try #require(words.first { $0.text == "Why" })
        let body = try #require(words.first { $0.text == "contract" })
        #expect(heading.height > body.height * 1.6)
    }

    /// A report's warnings are in source order whichever stage finds them: styling (an
    /// attribute, a note, a link, raw HTML), the survey's pictures, the drawing pass (a word
    /// wider than the measure) and the tagging pass (a picture without alternative text).
    @Test func aReportsWarningsAreInSourceOrderWhicheverStageFindsThem() throws {
        let markdown = """
            # Title

            ![missing](no-such-picture.png)

            Text with a bad [span]{.headline tracking=abc} here.

            A footnote reference[^nope] and a [broken link](#no-such-heading).

            <blink>raw html</blink>

            \(String(repeating: "x", count: 400))

            ![](no-such-picture-either.png)
            """
        let (_, report) = try Render.markdown(markdown, name: "warnings-in-source-order")
        let places = report.diagnostics.compactMap { $0.location.map { ($0.line, $0.column) } }
        #expect(places.count >= 7, "\(report.diagnostics)")
        #expect(places.elementsEqual(places.sorted { $0 < $1 }, by: ==), "\(report.diagnostics)")
        #expect(report.diagnostics.first?.location?.line == 3, "\(report.diagnostics)")
    }

    @Test func titleComesFromTheFirstHeadingAndKoreanReadsBack() throws {
        let (pdf, _) = try Render.markdown("Intro text.\n\n# 보고서: Annual Report\n\nBody.", name: "title")
        #expect(try PDFProbe.info(pdf)["Title"] == "보고서: Annual Report")
    }

    @Test func longDocumentPaginatesWithoutCuttingLines() throws {
        var markdown = "# Long document\n\n"
        for i in 1...60 {
            markdown +=
                "## Section \(i)\n\n"
                + String(
                    repeating: "Paragraph \(i) 문단 text that runs on to fill several lines of the measure. ", count: 6)
                + "\n\n"
            if i % 7 == 0 {
                markdown +=
                    "| a | b |\n|---|--:|\n"
                    + (1...12).map { "| row \($0) of \(i) | \($0 * i) |" }.joined(separator: "\n") + "\n\n"
            }
            if i % 5 == 0 {
                markdown += "```\n" + (1...20).map { "let line\($0) = \($0)" }.joined(separator: "\n") + "\n```\n\n"
            }
        }
        let (pdf, report) = try Render.markdown(markdown, name: "long")
        #expect(report.pageCount > 10)
        #expect(try PDFProbe.qpdfClean(pdf))
        let words = try PDFProbe.words(pdf)
        assertInsideTextArea(words)
        // No page ends with a heading: the last body line of each page is not a "Section" heading.
        for page in 1...report.pageCount {
            let onPage = words.filter {
                $0.page == page && $0.yMax < RenderTests.page.paper.height - RenderTests.page.margins.bottom + 3
            }
            guard let lastY = onPage.map(\.yMin).max() else { continue }
            let lastLine = onPage.filter { abs($0.yMin - lastY) < 1 }.map(\.text)
            #expect(lastLine.first != "Section", "page \(page) ends with a heading: \(lastLine)")
        }
    }

    /// The README, every file under `docs/` and the real-world documents render with a clean
    /// `qpdf --check` and every word inside the text area.
    @Test func documentationAndRealWorldFixturesRenderCleanly() throws {
        var sources = [Render.packageRoot + "/README.md"]
        let docs = Render.packageRoot + "/docs"
        let documentation = try FileManager.default.contentsOfDirectory(atPath: docs).filter { $0.hasSuffix(".md") }
            .sorted()
        #expect(documentation.count >= 8, "\(documentation)")
        sources += documentation.map { docs + "/" + $0 }
        let fixtures = Render.packageRoot + "/Tests/EndToEndTests/Fixtures/real"
        let shared = Render.packageRoot + "/../shared/fixtures/real"
        for folder in [fixtures, shared] {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            where name.hasSuffix(".md") && name != "SOURCES.md" {
                sources.append(folder + "/" + name)
            }
        }
        #expect(sources.count >= 10)
        for (i, path) in sources.enumerated() {
            let markdown = try String(contentsOfFile: path, encoding: .utf8)
            let (pdf, report) = try Render.markdown(
                markdown, name: "fixture\(i)",
                options: RenderOptions(baseDirectory: (path as NSString).deletingLastPathComponent))
            #expect(report.pageCount >= 1, "\(path)")
            #expect(try PDFProbe.qpdfClean(pdf), "\(path)")
            assertInsideTextArea(try PDFProbe.words(pdf))
        }
    }

    @Test func longCodeLinesWrapBehindAContinuationMarkThatIsNotText() throws {
        let code = String(repeating: "abcdefghij0123456789", count: 6)
        let (pdf, _) = try Render.markdown("```\n\(code)\nshort\n```\n", name: "codewrap")
        // Where the glyphs are drawn, from an untagged render (tagged, the wrapped line reads
        // as its source line, one word on its first drawn line).
        var untagged = RenderOptions()
        untagged.tagged = false
        let (drawn, _) = try Render.markdown("```\n\(code)\nshort\n```\n", name: "codewrap-untagged", options: untagged)
        let words = try PDFProbe.words(drawn).filter { $0.yMax < 780 }
        assertInsideTextArea(words)
        let text = try PDFProbe.text(pdf)
        #expect(!text.contains("↪"), "the mark is drawn, not text")
        #expect(text.replacingOccurrences(of: "\n", with: "").contains(code), "no hyphen inserted: \(text)")
        let first = try #require(words.first)
        let second = try #require(words.dropFirst().first)
        // The block is set at 70 % (its line is far wider than the page), so the 1.5 em hanging
        // indent is 1.5 × 9.5 × 0.7 ≈ 10 pt.
        #expect(second.xMin > first.xMin + 9, "the continuation hangs behind the mark")
    }

    @Test func svgImagesAreDrawnAsVectors() throws {
        let fixtures = Render.packageRoot + "/Tests/EndToEndTests/Fixtures"
        let (pdf, report) = try Render.markdown(
            "# Figure\n\n![A vector figure](figure.svg)\n", name: "svg",
            options: RenderOptions(baseDirectory: fixtures))
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics)")
        #expect(try PDFProbe.qpdfClean(pdf))
        let words = try PDFProbe.words(pdf)
        // The SVG's own text is real text in the PDF, not pixels; no raster image is embedded.
        let vector = try #require(words.first { $0.text == "Vector" })
        #expect(words.contains { $0.text == "벡터" })
        #expect(
            try PDFProbe.run("pdfimages", ["-list", pdf]).output.split(separator: "\n").count == 2, "header lines only")
        // 480 × 160 CSS px = 360 × 120 pt, centred in the measure.
        let line = words.filter { abs($0.yMax - vector.yMax) < 2 }
        #expect(abs((line.map(\.xMin).min()! + line.map(\.xMax).max()!) / 2 - 595.2756 / 2) < 3, "\(line)")
        assertInsideTextArea(words)
    }

    @Test func deepNestingKeepsEveryWordInsideTheMargins() throws {
        let list = (0..<120).map { String(repeating: "  ", count: $0) + "- item\($0)" }.joined(separator: "\n")
        let quote = String(repeating: ">", count: 120) + " deepest quote"
        let (pdf, _) = try Render.markdown(list + "\n\n" + quote + "\n", name: "nesting")
        let words = try PDFProbe.words(pdf)
        assertInsideTextArea(words)
        for i in 0..<120 { #expect(words.contains { $0.text == "item\(i)" }, "item\(i) is in the PDF") }
        #expect(words.contains { $0.text == "deepest" })
    }

    @Test func unreadableImagesWarnAndDrawPlaceholders() throws {
        let dir = Render.folder
        try Data((0..<300).map { UInt8(truncatingIfNeeded: $0 &* 37) }).write(
            to: URL(fileURLWithPath: dir + "/corrupt.png"))
        try "not a jpeg".write(toFile: dir + "/fake.jpg", atomically: false, encoding: .utf8)
        // A real PNG cut short: a valid header, no IEND.
        let png = try Data(contentsOf: URL(fileURLWithPath: Render.packageRoot + "/templates/images/type-scale.png"))
        try png.prefix(300).write(to: URL(fileURLWithPath: dir + "/truncated.png"))
        // Each says what is wrong, not "cannot read": empty, no size, cut short; each is placed
        // where its address is written.
        try Data().write(to: URL(fileURLWithPath: dir + "/empty.png"))
        try #"<svg xmlns="http://www.w3.org/2000/svg"><rect x="1" y="1" width="8" height="8"/></svg>"#.write(
            toFile: dir + "/nosize.svg", atomically: false, encoding: .utf8)
        try #"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="8" height="8"/>"#.write(
            toFile: dir + "/cut.svg", atomically: false, encoding: .utf8)
        let (pdf, report) = try Render.markdown(
            "![Corrupt figure](corrupt.png)\n\n![f](fake.jpg)\n\n![m](missing.png)\n\n"
                + "![r](https://example.com/x.png)\n\n![t](truncated.png)\n"
                + "\n![e](empty.png)\n\n![n](nosize.svg)\n\n![c](cut.svg)\n",
            name: "badimages", options: RenderOptions(baseDirectory: dir))
        let messages = report.diagnostics.map(\.description)
        #expect(
            messages.contains {
                $0.hasPrefix("badimages.md:1:19:") && $0.contains("'corrupt.png'")
                    && $0.contains("is not in a format it reads")
            }, "\(messages)")
        #expect(
            messages.contains {
                $0.hasPrefix("badimages.md:9:6:") && $0.contains("'truncated.png'") && $0.contains("is a PNG cut short")
            }, "\(messages)")
        #expect(
            messages.contains {
                $0.hasPrefix("badimages.md:11:6:") && $0.contains("'empty.png'") && $0.contains("is empty (0 bytes)")
            }, "\(messages)")
        #expect(
            messages.contains {
                $0.hasPrefix("badimages.md:13:6:") && $0.contains("'nosize.svg'")
                    && $0.contains("is an SVG with no size")
                    && $0.contains("viewBox") && !$0.contains("read")
            }, "\(messages)")
        #expect(
            messages.contains {
                $0.hasPrefix("badimages.md:15:6:") && $0.contains("'cut.svg'") && $0.contains("is an SVG cut short")
            }, "\(messages)")
        #expect(messages.contains { $0.hasPrefix("badimages.md:3:6:") && $0.contains("'fake.jpg'") })
        #expect(messages.contains { $0.hasPrefix("badimages.md:5:6:") && $0.contains("'missing.png' not found") })
        #expect(messages.contains { $0.hasPrefix("badimages.md:7:") && $0.contains("remote image") })
        #expect(
            messages.contains { $0.hasPrefix("badimages.md:9:6:") && $0.contains("'truncated.png'") },
            "a file cut short")
        #expect(try PDFProbe.qpdfClean(pdf))
        #expect(try PDFProbe.text(pdf).contains("Corrupt figure"), "the placeholder shows the alt text")
    }

    /// An SVG whose root is an empty element (`<svg … />`, valid XML with no `</svg>`) is a
    /// picture of nothing at its size, not one "cut short"; with a prolog before it, too.
    @Test func anSVGWhoseRootClosesItselfIsAPicture() throws {
        let dir = try Render.scratchFolder("svg-empty-root")
        try #"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"/>"#.write(
            toFile: dir + "/empty.svg", atomically: false, encoding: .utf8)
        try #"<?xml version="1.0"?><!-- a comment --><svg xmlns="http://www.w3.org/2000/svg" width="40" height="20" />"#
            .write(toFile: dir + "/prolog.svg", atomically: false, encoding: .utf8)
        let (_, report) = try Render.markdown(
            "![e](empty.svg)\n\n![p](prolog.svg)\n", name: "svg-empty-root", options: RenderOptions(baseDirectory: dir))
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics)")
    }

    /// Pictures that open but cannot be drawn: an SVG librsvg refuses (an external entity, an
    /// entity bomb) is a placeholder with a warning, as a damaged PNG is; inside a line, it and
    /// a damaged PNG are set as their alt text with one warning, never as an empty gap. An SVG
    /// with internal entities only (as Illustrator writes its namespaces) is drawn.
    @Test func picturesThatOpenButCannotBeDrawnAreNamedAndShowTheirAltText() throws {
        let dir = try Render.scratchFolder("undrawable")
        let square = #"width="300" height="100"><rect width="300" height="100" fill="yellow"/>"#
        let svgs = [
            "external": #"<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/hostname">]>"#
                + #"<svg xmlns="http://www.w3.org/2000/svg" "# + square + #"<text y="20">A&x;B</text></svg>"#,
            "bomb": #"<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">"#
                + #"<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><svg xmlns="http://www.w3.org/2000/svg" "#
                + square + #"<text y="20">&c;</text></svg>"#,
            "illustrator": #"<!DOCTYPE svg [<!ENTITY ns_svg "http://www.w3.org/2000/svg">]>"#
                + #"<svg xmlns="&ns_svg;" "# + square + #"<text y="20">Drawn</text></svg>"#,
        ]
        for (name, svg) in svgs {
            try ("<?xml version=\"1.0\"?>\n" + svg).write(
                toFile: dir + "/\(name).svg", atomically: false, encoding: .utf8)
        }
        try "not a png".write(toFile: dir + "/bad.png", atomically: false, encoding: .utf8)
        let (pdf, report) = try Render.markdown(
            "![External alt](external.svg)\n\n![Bomb alt](bomb.svg)\n\n![ill](illustrator.svg)\n\n"
                + "Text ![bad png](bad.png) and ![bad svg](external.svg) inline.\n",
            name: "undrawable", options: RenderOptions(baseDirectory: dir))
        let messages = report.diagnostics.map(\.description)
        for (line, file) in [(1, "external.svg"), (3, "bomb.svg")] {
            #expect(
                messages.contains {
                    $0.hasPrefix("undrawable.md:\(line):") && $0.contains("'\(file)'") && $0.contains("librsvg")
                        && $0.contains("placeholder")
                }, "\(messages)")
        }
        #expect(!messages.contains { $0.contains("illustrator.svg") }, "\(messages)")
        #expect(
            messages.contains { $0.hasPrefix("undrawable.md:7:") && $0.contains("'bad.png' inside a line") },
            "\(messages)")
        let text = FuzzCampaign.normalized(try PDFProbe.text(pdf))
        for shown in ["externalalt", "bombalt", "drawn", "textbadpngandbadsvginline."] {
            #expect(text.contains(shown), "\(shown) in \(text)")
        }
        #expect(try PDFProbe.qpdfClean(pdf))
    }

    @Test func rendersFromSeveralThreadsAtOnce() throws {
        // The Pango/Cairo stack is serialized inside the backend: parallel renders must not crash.
        let source = "# 동시에 Concurrent\n\n" + String(repeating: "Text with 한글 and **bold** and `code`. ", count: 40)
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: 6) { i in
            do {
                let (pdf, report) = try Render.markdown(source, name: "parallel\(i)")
                let clean = try PDFProbe.qpdfClean(pdf)
                if report.pageCount < 1 || !clean { failures.add("render \(i)") }
            } catch { failures.add("\(error)") }
        }
        #expect(failures.list.isEmpty, "\(failures.list)")
    }

    @Test func aRowTallerThanAPageIsSplitAtLineBoundaries() throws {
        let cell = (0..<120).map { "line\($0) of a very tall cell" }.joined(separator: "<br>")
        let (pdf, report) = try Render.markdown(
            "| Key | Value |\n|---|---|\n| short | \(cell) |\n| after | row |\n", name: "tallrow")
        #expect(report.pageCount >= 3)
        let words = try PDFProbe.words(pdf)
        assertInsideTextArea(words)
        for i in 0..<120 { #expect(words.filter { $0.text == "line\(i)" }.count == 1, "line\(i) appears once") }
        for page in 1...report.pageCount {
            #expect(words.contains { $0.page == page && $0.text == "Value" }, "header on page \(page)")
        }
    }

    @Test func letterPaperIsHonoured() throws {
        let (pdf, _) = try Render.markdown("# Letter\n\nText.", name: "letter", options: RenderOptions(paper: .letter))
        #expect(try PDFProbe.info(pdf)["Page size"]?.hasPrefix("612 x 792") == true)
    }
}

/// Failures collected from concurrent work.
final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func add(_ item: String) {
        lock.lock()
        items.append(item)
        lock.unlock()
    }
    var list: [String] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }
}
