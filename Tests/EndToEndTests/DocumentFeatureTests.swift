import Foundation
import TestSupport
import Testing
import Typesetter
import Typography

/// Document features — metadata, outline, links, footnotes, table of contents, running
/// heads, images, long tables, widows and orphans, Korean line breaking, justification, page
/// breaks, paper and margins — each read back from the PDF with poppler-utils and qpdf.
@Suite(.serialized) struct DocumentFeatureTests {
    // A4 with the default theme's margins (125 pt at the sides, 64 pt top, 72 pt bottom).
    static let pageWidth = 595.2756, pageHeight = 841.8898
    /// The default theme's text area on A4: its measure follows its Body face.
    static let page = Typesetter.fittedPage(of: .default)
    static let left = page.margins.left, right = page.paper.width - page.margins.right
    static let top = page.margins.top, bottom = page.paper.height - page.margins.bottom

    // MARK: - Helpers

    /// Words of the text area only (running head and foot dropped).
    static func bodyWords(_ words: [PDFProbe.Word]) -> [PDFProbe.Word] {
        words.filter { $0.yMin > top - 8 && $0.yMax < bottom + 8 }
    }

    /// Words grouped into lines: same page, baselines within 2 pt (Latin-only text: poppler's
    /// box for Hangul is taller, so mixed lines are grouped by their bottom edge).
    static func lines(_ words: [PDFProbe.Word]) -> [[PDFProbe.Word]] {
        var result: [[PDFProbe.Word]] = []
        for word in words.sorted(by: { ($0.page, $0.yMax, $0.xMin) < ($1.page, $1.yMax, $1.xMin) }) {
            if let last = result.last?.last, last.page == word.page, abs(last.yMax - word.yMax) < 2 {
                result[result.count - 1].append(word)
            } else {
                result.append([word])
            }
        }
        return result.map { $0.sorted { $0.xMin < $1.xMin } }
    }

    /// A paragraph of `count` words tagged with its index, `p12ab`, of varying lengths.
    static func taggedParagraph(_ index: Int, words count: Int) -> String {
        let tails = ["a", "bc", "def", "ghij", "klmno", "pq", "rstuvw", "xy", "zabcdefg", "hi"]
        return (0..<count).map { "p\(index)\(tails[($0 * 7 + index) % tails.count])" }.joined(separator: " ") + "."
    }

    static func paragraphIndex(_ word: String) -> Int? {
        guard word.first == "p" else { return nil }
        let digits = word.dropFirst().prefix { $0.isNumber }
        guard !digits.isEmpty, word.dropFirst(1 + digits.count).first?.isLetter == true else { return nil }
        return Int(digits)
    }

    // MARK: - Metadata

    @Test func metadataReadsBackIncludingKorean() throws {
        let markdown = """
            ---
            title: "조판 보고서: Annual Report 2025"
            subtitle: "연간 보고서 — the subtitle becomes the subject"
            author: "김하늘 and Jane Doe"
            keywords: [typography, 타이포그래피, PDF]
            ---

            # A heading that is not the title

            Body text.
            """
        let (pdf, _) = try Render.markdown(markdown, name: "feature-metadata")
        let info = try PDFProbe.info(pdf)
        #expect(info["Title"] == "조판 보고서: Annual Report 2025")
        #expect(info["Author"] == "김하늘 and Jane Doe")
        #expect(info["Subject"] == "연간 보고서 — the subtitle becomes the subject")
        let keywords = try #require(info["Keywords"])
        for keyword in ["typography", "타이포그래피", "PDF"] {
            #expect(keywords.contains(keyword), "\(keywords)")
        }
    }

    // MARK: - Outline

    @Test func outlineNestsHeadingsByLevel() throws {
        let markdown = """
            # 첫째 장: Getting started

            Intro.

            ## Installing

            Text.

            ### Debian packages

            Text.

            ## 설정하기

            Text.

            # Second chapter

            Text.

            #### Deep heading under a skipped level

            Text.
            """
        let (pdf, _) = try Render.markdown(markdown, name: "feature-outline")
        let qdf = try QDF(pdf)
        let roots = try #require(qdf.outline(), "the catalog has /Outlines")
        #expect(roots.map(\.title) == ["첫째 장: Getting started", "Second chapter"])
        let first = try #require(roots.first)
        #expect(first.children.map(\.title) == ["Installing", "설정하기"], "h2s are children of the h1")
        #expect(first.children.first?.children.map(\.title) == ["Debian packages"], "the h3 is a child of its h2")
        #expect(first.children.last?.children.isEmpty == true)
        let second = try #require(roots.last)
        #expect(
            second.children.map(\.title) == ["Deep heading under a skipped level"], "an h4 under an h1 nests under it")
    }

    // MARK: - Links

    @Test func externalLinksAreURIsAndInternalLinksResolveToNamedDestinations() throws {
        let markdown = """
            # Links

            Read [the CommonMark spec](https://spec.commonmark.org/0.31.2/) or jump to
            [the tables chapter](#tables) and [한글 제목](#한글-제목).

            \\newpage

            # Tables {#tables}

            Text.

            ## 한글 제목

            Text.
            """
        let (pdf, report) = try Render.markdown(markdown, name: "feature-links")
        #expect(report.pageCount == 2)
        let qdf = try QDF(pdf)
        let links = qdf.objects.values.filter { $0.contains("/Subtype /Link") }
        #expect(links.contains { $0.contains("/URI (https://spec.commonmark.org/0.31.2/)") }, "external URI action")

        let destinations = qdf.namedDestinations()
        let words = try PDFProbe.words(pdf)
        for (name, heading) in [("tables", "Tables"), ("한글-제목", "한글")] {
            let usesName = links.contains { link in
                QDF.destinationName(in: link).map { $0 == name } ?? false
            }
            #expect(usesName, "a link names the destination '\(name)'")
            let destination = try #require(destinations[name], "'\(name)' is in /Dests: \(destinations.keys.sorted())")
            let headingWord = try #require(words.first { $0.text == heading && $0.height > 18 })
            #expect(destination.page == headingWord.page, "'\(name)' lands on the heading's page")
            // The destination's top (PDF y, from the bottom) is at or just above the heading
            // (poppler's box for a Hangul word starts higher than the line: 1.45 em vs 1.21 em).
            let destinationTop = Self.pageHeight - destination.y
            #expect(
                destinationTop <= headingWord.yMin + 0.25 * headingWord.height
                    && destinationTop > headingWord.yMin - 40,
                "'\(name)' points at y \(destinationTop), heading at \(headingWord.yMin)")
        }
    }

    // MARK: - Footnotes

    @Test func footnoteSitsAtTheFootOfTheMarkersPage() throws {
        var markdown = "# Footnotes\n\n"
        for i in 1...30 {
            markdown += Self.taggedParagraph(i, words: 40 + (i * 13) % 50)
            if i == 9 { markdown += " Quokkamarker[^short]" }
            if i == 21 { markdown += " Wombatmarker[^long]" }
            markdown += "\n\n"
        }
        markdown += "[^short]: Shortnote text of the first footnote.\n\n"
        markdown +=
            "[^long]: Longnote "
            + String(repeating: "a long footnote that runs over several lines of the Caption role, ", count: 5)
            + "ending here.\n"
        let (pdf, report) = try Render.markdown(markdown, name: "feature-footnotes")
        #expect(report.pageCount >= 3)
        let words = try PDFProbe.words(pdf)
        for (marker, note) in [("Quokkamarker", "Shortnote"), ("Wombatmarker", "Longnote")] {
            let markerWord = try #require(words.first { $0.text.hasPrefix(marker) })
            let noteWord = try #require(words.first { $0.text == note })
            #expect(noteWord.page == markerWord.page, "\(note) on the page of \(marker): \(noteWord) vs \(markerWord)")
            // Below every body line of its page, and inside the text area.
            let body = words.filter { $0.page == noteWord.page && Self.paragraphIndex($0.text) != nil }
            let lowestBody = body.map(\.yMax).max() ?? 0
            #expect(noteWord.yMin > lowestBody, "\(note) sits below the body (lowest body line ends at \(lowestBody))")
            let noteLines = words.filter {
                $0.page == noteWord.page && $0.yMin >= noteWord.yMin - 1 && $0.yMax < Self.bottom + 8
            }
            #expect(noteLines.allSatisfy { $0.yMax <= Self.bottom + 2 }, "the note stays above the bottom margin")
            // Near the bottom: the notes end within a few lines of the text area's foot.
            let lastNoteLine = noteLines.map(\.yMax).max() ?? 0
            #expect(lastNoteLine > Self.bottom - 40, "\(note)'s block ends near the bottom (\(lastNoteLine))")
            // A superscript marker follows the marked word: a smaller number right after it.
            let markerNumber = words.first {
                $0.page == markerWord.page && abs($0.xMin - markerWord.xMax) < 2 && $0.height < markerWord.height
                    && Int($0.text) != nil
            }
            #expect(
                markerNumber != nil || markerWord.text.count > marker.count, "a superscript number follows \(marker)")
        }
    }

    /// A page's notes are set in the order of their numbers, whichever cites them: a note cited
    /// inside an earlier note (attached with it) comes after a lower number cited later on the
    /// page, at the top level, in a list and in a quote.
    @Test func notesAtTheFootAreInNumberOrder() throws {
        // Numbers by first citation in document order, a note's own citations where its
        // definition stands: the expected order at the foot.
        let cases = [
            (
                "Alpha[^a].\n\nBeta[^b].\n\n[^a]: Noteaa cites[^c].\n[^b]: Notebb.\n[^c]: Notecc.\n",
                ["Noteaa", "Notebb", "Notecc"]
            ),
            (
                "- Alpha[^a]\n- Beta[^b] and Gamma[^d]\n\n[^a]: Noteaa cites[^c] and[^e].\n[^b]: Notebb.\n[^c]: "
                    + "Notecc.\n[^d]: Notedd.\n[^e]: Noteee.\n",
                ["Noteaa", "Notebb", "Notedd", "Notecc", "Noteee"]
            ),
            (
                "> Alpha[^a]\n>\n> Beta[^b]\n\n[^a]: Noteaa cites[^c].\n[^b]: Notebb.\n[^c]: Notecc.\n",
                ["Noteaa", "Notebb", "Notecc"]
            ),
        ]
        for (i, (markdown, expected)) in cases.enumerated() {
            let (pdf, _) = try Render.markdown(markdown, name: "feature-note-order-\(i)")
            let words = try PDFProbe.words(pdf)
            let notes = words.filter { $0.text.hasPrefix("Note") }.sorted { $0.yMin < $1.yMin }.map {
                String($0.text.prefix(6))
            }
            #expect(notes == expected, "case \(i): \(notes)")
        }
    }

    // MARK: - Table of contents

    @Test func aNoteTallerThanHalfAPageFollowsItsParagraphAndLosesNothing() throws {
        let body = (0..<38).map {
            "Body paragraph \($0) with enough words to fill a line or two of text in the measure."
        }.joined(separator: "\n\n")
        let note = (0..<121).map { "fnpar\(String(format: "%03d", $0)) note paragraph text." }.joined(
            separator: "\n\n    ")
        let (pdf, _) = try Render.markdown(
            body + "\n\nMarker here[^big] after.\n\n[^big]: first " + note + "\n", name: "tallnote")
        let words = try PDFProbe.words(pdf)
        for i in 0..<121 { #expect(words.filter { $0.text == "fnpar" + String(format: "%03d", i) }.count == 1) }
        #expect(words.allSatisfy { $0.yMin >= 0 && $0.yMax <= Self.pageHeight }, "nothing off the page")
    }

    @Test func severalLongNotesOnOneLineNeverOverprint() throws {
        let note = String(repeating: "noteword ", count: 400)
        let (pdf, _) = try Render.markdown(
            "Line[^1][^2][^3].\n\n[^1]: one \(note)\n\n[^2]: two \(note)\n\n[^3]: three \(note)\n", name: "threenotes")
        let words = try PDFProbe.words(pdf)
        #expect(words.filter { $0.text == "noteword" }.count == 1200, "every word of every note is set")
        #expect(words.allSatisfy { $0.yMin >= Self.top - 8 || $0.yMax < Self.top }, "nothing above the text area")
        let line = try #require(words.first { $0.text.hasPrefix("Line") })
        #expect(
            !words.contains { $0.page == line.page && $0.text == "noteword" && abs($0.yMin - line.yMin) < 3 },
            "no note over the line")
    }

    @Test func aHeaderTallerThanAPageNeitherHangsNorLosesText() throws {
        let header = String(repeating: "word ", count: 900)
        let (pdf, _) = try Render.markdown("| \(header)| b |\n|---|---|\n| x | y |\n| z | w |\n", name: "hugeheader")
        let words = try PDFProbe.words(pdf)
        #expect(words.filter { $0.text == "word" }.count == 900)
        #expect(words.contains { $0.text == "x" } && words.contains { $0.text == "w" })
    }

    @Test func tableOfContentsPrintsThePageOfEachHeading() throws {
        let names = ["Alpha", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot", "Golf"]
        var markdown = "---\ntoc: true\n---\n\n# Report\n\n"
        for (i, name) in names.enumerated() {
            markdown += "## \(name) section\n\n"
            for j in 0..<(2 + (i * 5) % 9) { markdown += Self.taggedParagraph(i * 20 + j, words: 90) + "\n\n" }
            if i == 3 { markdown += "### \(name)sub detail\n\n" + Self.taggedParagraph(999, words: 30) + "\n\n" }
        }
        let (pdf, report) = try Render.markdown(markdown, name: "feature-toc")
        #expect(report.pageCount >= 6)
        let words = try PDFProbe.words(pdf)
        let lines = Self.lines(Self.bodyWords(words))
        for name in names.map({ $0 }) + ["Deltasub"] {
            let entries = lines.filter { line in line.contains { $0.text == name } && line.first!.height < 18 }
            let entry = try #require(entries.first, "a contents entry for \(name)")
            let number = try #require(
                entry.last.flatMap { Int($0.text) }, "\(name)'s entry ends with a page number: \(entry)")
            #expect(abs(entry.last!.xMax - Self.right) < 1, "the number is set flush right: \(entry.last!)")
            let heading = try #require(
                words.first {
                    $0.text == name && $0.height > entry.first!.height * 1.15
                        && ($0.page, $0.yMin) > (entry.first!.page, entry.first!.yMin)
                },
                "the heading \(name) after the contents")
            #expect(number == heading.page, "contents says \(name) is on page \(number); it is on page \(heading.page)")
        }
    }

    /// Each contents entry's leader is a row of dots 4 pt apart from its text to its number,
    /// drawn as one dashed stroke: the page holds a dash setting an entry, not a rectangle a dot.
    @Test func contentsLeadersAreRowsOfDotsDrawnAsOneStroke() throws {
        let names = ["Alpha", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot"]
        var markdown = "---\ntoc: true\n---\n\n"
        for name in names { markdown += "# \(name)\n\nText.\n\n" }
        let (pdf, _) = try Render.markdown(markdown, name: "feature-toc-leaders")
        let streams = try PDFProbe.contentStreams(pdf)
        let dashes = streams.components(separatedBy: "] 0 d\n").count - 1
        let rectangles = streams.components(separatedBy: " re\n").count - 1
        #expect(dashes == names.count, "one dash setting an entry: \(dashes)")
        #expect(rectangles < names.count, "no rectangle a dot: \(rectangles)")
        // Read at 144 dpi (2 px a pt): between each entry's text and number, a dot every 4 pt.
        let image = try PDFProbe.greyImage(pdf, page: 1, dpi: 144)
        let lines = Self.lines(Self.bodyWords(try PDFProbe.words(pdf)).filter { $0.page == 1 })
        for name in names {
            let entry = try #require(lines.first { $0.first?.text == name && $0.count == 2 }, "the entry of \(name)")
            let (text, number) = (entry[0], entry[1])
            let rows = Int((text.yMax - 3) * 2)...Int(text.yMax * 2)
            let columns = Int(text.xMax * 2)..<Int(number.xMin * 2)
            var dots = 0
            var inked = false
            for x in columns {
                let ink = rows.contains { image.samples[$0 * image.width + x] < 160 }
                if ink && !inked { dots += 1 }
                inked = ink
            }
            let expected = (number.xMin - text.xMax) / 4
            #expect(abs(Double(dots) - expected) < 4, "\(name): \(dots) dots where about \(expected) fit")
        }
    }

    /// A heading in a right-to-left script is listed as every entry is: its text from the
    /// left edge (at its level's indent), the leader dots after it, the number flush right.
    @Test func rightToLeftHeadingsAreListedFromTheLeft() throws {
        let markdown =
            "---\ntoc: true\n---\n\n# Introduction\n\nText.\n\n# שלום עולם and more\n\nText.\n\n"
            + "# مرحبا بالعالم\n\nText.\n"
        let (pdf, _) = try Render.markdown(markdown, name: "feature-toc-rtl")
        let lines = Self.lines(Self.bodyWords(try PDFProbe.words(pdf)).filter { $0.page == 1 && $0.height < 18 })
        let entries = lines.filter { $0.last.flatMap { Int($0.text) } != nil }
        #expect(entries.count == 3, "\(lines.map { $0.map(\.text) })")
        for entry in entries {
            #expect(abs(entry.first!.xMin - Self.left) < 1, "starts at the left edge: \(entry.map(\.text))")
            #expect(abs(entry.last!.xMax - Self.right) < 1, "the number is flush right: \(entry.map(\.text))")
        }
    }

    /// A tab in a heading is a space in its bookmark and in the document's title, as on the page.
    @Test func aTabInAHeadingIsASpaceInItsBookmark() throws {
        let (pdf, _) = try Render.markdown("# Charlie\ttab here\n\nText.\n", name: "feature-outline-tab")
        let roots = try #require(try QDF(pdf).outline())
        #expect(roots.map(\.title) == ["Charlie tab here"])
        #expect(try PDFProbe.info(pdf)["Title"] == "Charlie tab here")
    }

    // MARK: - Running heads

    @Test func headerAndFooterTemplatesAppearOnEveryPageButTheFirstHasNoHeader() throws {
        var markdown =
            "---\ntitle: Zeta Running Title\nheader: \"{title}\"\nfooter: \"{page} / {pages}\"\n---\n\n# Body\n\n"
        for i in 1...40 { markdown += Self.taggedParagraph(i, words: 70) + "\n\n" }
        let (pdf, report) = try Render.markdown(markdown, name: "feature-running")
        let pages = report.pageCount
        #expect(pages >= 4)
        let words = try PDFProbe.words(pdf)
        for page in 1...pages {
            let head = words.filter { $0.page == page && $0.yMax < Self.top }.map(\.text)
            // The first page carries the title block instead of a running head.
            #expect(head == (page == 1 ? [] : ["Zeta", "Running", "Title"]), "page \(page) header: \(head)")
            let foot = words.filter { $0.page == page && $0.yMin > Self.bottom }.sorted { $0.xMin < $1.xMin }.map(
                \.text)
            #expect(foot == ["\(page)", "/", "\(pages)"], "page \(page) footer: \(foot)")
        }
    }

    // MARK: - Images

    /// A figure is centred in its measure unless its paragraph or an enclosing div asks
    /// otherwise (`<p align="left">`, `<p align="right">`, `::: {align=right}`), as a browser
    /// places an image in an aligned block; its caption is aligned with it.
    @Test func figuresFollowAnExplicitAlign() throws {
        let markdown = """
            <p align="left"><img src="images/type-scale.png" width="100" alt="left"></p>

            <p align="right"><img src="images/type-scale.png" width="100" alt="right"></p>

            ::: {align=right}
            ![Rightcaption](images/type-scale.png){width=75pt}
            :::

            ![Centredcaption](images/type-scale.png){width=75pt}
            """
        var options = RenderOptions()
        options.baseDirectory = Render.packageRoot + "/templates"
        let (pdf, report) = try Render.markdown(markdown, name: "feature-image-align", options: options)
        #expect(!report.diagnostics.contains { "\($0)".contains("image") }, "\(report.diagnostics)")
        let boxes = try QDF(pdf).imagePlacements().sorted { $0.minY < $1.minY }
        try #require(boxes.count == 4, "\(boxes)")
        #expect(abs(boxes[0].minX - Self.left) < 0.5, "left: \(boxes[0])")
        #expect(abs(boxes[1].maxX - Self.right) < 0.5, "right: \(boxes[1])")
        #expect(abs(boxes[2].maxX - Self.right) < 0.5, "right in a div: \(boxes[2])")
        #expect(abs((boxes[3].minX + boxes[3].maxX) / 2 - (Self.left + Self.right) / 2) < 0.5, "centred: \(boxes[3])")
        let words = try PDFProbe.words(pdf)
        let right = try #require(words.first { $0.text == "Rightcaption" })
        let centred = try #require(words.first { $0.text == "Centredcaption" })
        #expect(abs(right.xMax - Self.right) < 1, "\(right)")
        #expect(abs((centred.xMin + centred.xMax) / 2 - (Self.left + Self.right) / 2) < 1, "\(centred)")
    }

    @Test func imagesAreEmbeddedAndPlacedInsideTheTextArea() throws {
        let markdown = """
            # Figures

            Text before the figure.

            ![A type scale diagram](images/type-scale.png)

            Text between.

            ![A photograph-like JPEG](images/press.jpg)

            Text after.
            """
        var options = RenderOptions()
        options.baseDirectory = Render.packageRoot + "/templates"
        let (pdf, report) = try Render.markdown(markdown, name: "feature-images", options: options)
        #expect(!report.diagnostics.contains { "\($0)".contains("image") }, "\(report.diagnostics)")
        let list = try PDFProbe.run("pdfimages", ["-list", pdf]).output
        let rows = list.split(separator: "\n").dropFirst(2).filter { $0.contains("image") }
        #expect(rows.count == 2, "\(list)")
        #expect(
            rows.contains { $0.split(separator: " ", omittingEmptySubsequences: true).contains("jpeg") },
            "the JPEG stays DCT-encoded: \(list)")

        let placements = try QDF(pdf).imagePlacements()
        #expect(placements.count == 2, "\(placements)")
        for box in placements {
            #expect(box.minX >= Self.left - 0.5 && box.maxX <= Self.right + 0.5, "image \(box) inside the side margins")
            #expect(
                box.minY >= Self.top - 0.5 && box.maxY <= Self.bottom + 0.5,
                "image \(box) inside top and bottom margins")
            #expect(abs(box.width - (Self.right - Self.left)) < 1, "image scaled to the measure: \(box)")
        }
        // Captions are the alt text, below their image.
        let words = try PDFProbe.words(pdf)
        let caption = try #require(words.first { $0.text == "photograph-like" })
        let photo = try #require(placements.last)
        #expect(caption.yMin >= photo.maxY - 1, "caption \(caption) below the image \(photo)")
    }

    // MARK: - Long tables

    @Test func longTableRepeatsItsHeaderOnEveryPage() throws {
        var markdown = "# Inventory\n\nA table of eighty rows.\n\n| Zuluhead | Yankeehead | Amount |\n|:--|:--|--:|\n"
        for row in 1...80 {
            markdown +=
                "| row\(row) | "
                + (row % 7 == 0
                    ? "a longer cell that wraps onto a second line within its column because it is long enough"
                    : "item \(row)") + " | \(row * 37) |\n"
        }
        markdown += "\nAfter the table.\n"
        let (pdf, report) = try Render.markdown(markdown, name: "feature-table")
        let words = try PDFProbe.words(pdf)
        let rowPages = Set(words.filter { $0.text.hasPrefix("row") && Int($0.text.dropFirst(3)) != nil }.map(\.page))
        #expect(rowPages.count >= 3, "80 rows span several pages: \(rowPages.sorted())")
        #expect(report.pageCount >= rowPages.count)
        for page in rowPages.sorted() {
            let header = words.filter { $0.page == page && $0.text == "Zuluhead" }
            #expect(header.count == 1, "page \(page) repeats the header row")
            let firstRow =
                words.filter { $0.page == page && $0.text.hasPrefix("row") && Int($0.text.dropFirst(3)) != nil }.map(
                    \.yMin
                ).min() ?? 0
            #expect((header.first?.yMax ?? .infinity) <= firstRow, "the header is above the rows on page \(page)")
            #expect(words.contains { $0.page == page && $0.text == "Amount" })
        }
        // Every row appears exactly once (none split or lost).
        for row in 1...80 { #expect(words.filter { $0.text == "row\(row)" }.count == 1, "row\(row)") }
    }

    // MARK: - Widows, orphans, headings at the foot

    @Test func noPageEndsWithAHeadingAndNoParagraphLeavesASingleLine() throws {
        try checkSplits(minimum: 2, frontMatter: "")
    }

    @Test func widowsAndOrphansAreConfigurableInFrontMatter() throws {
        try checkSplits(minimum: 4, frontMatter: "---\nwidows: 4\norphans: 4\n---\n\n")
    }

    /// Renders 70 tagged paragraphs of varied lengths under headings and checks every page
    /// break: no page ends with a heading; a split paragraph leaves `minimum` lines each side.
    func checkSplits(minimum: Int, frontMatter: String) throws {
        var markdown = frontMatter + "# Pagination\n\n"
        for i in 1...70 {
            if i % 4 == 1 { markdown += "## Headingmark \(i)\n\n" }
            markdown += Self.taggedParagraph(i, words: [12, 25, 40, 55, 18, 90, 33, 8, 70][i % 9]) + "\n\n"
        }
        let (pdf, report) = try Render.markdown(markdown, name: "feature-widows-\(minimum)")
        #expect(report.pageCount >= 6)
        let lines = Self.lines(Self.bodyWords(try PDFProbe.words(pdf)))
        var checkedBreaks = 0
        for page in 1..<report.pageCount {
            let here = lines.filter { $0[0].page == page }
            let next = lines.filter { $0[0].page == page + 1 }
            guard let last = here.last, let first = next.first else { continue }
            #expect(
                !last.contains { $0.text == "Headingmark" }, "page \(page) ends with a heading: \(last.map(\.text))")
            guard let a = Self.paragraphIndex(last[0].text), let b = Self.paragraphIndex(first[0].text), a == b else {
                continue
            }
            checkedBreaks += 1
            let before = here.reversed().prefix { Self.paragraphIndex($0[0].text) == a }.count
            let after = next.prefix { Self.paragraphIndex($0[0].text) == a }.count
            #expect(before >= minimum, "orphan: paragraph \(a) leaves \(before) lines at the foot of page \(page)")
            #expect(after >= minimum, "widow: paragraph \(a) carries \(after) lines to the top of page \(page + 1)")
        }
        #expect(checkedBreaks >= 1, "a paragraph is split across pages, so the rule is exercised")
    }

    // MARK: - Korean line breaking

    static let koreanParagraph = """
        한국어 문장은 띄어쓰기로 어절을 나누며 인쇄물에서는 어절 중간에서 줄을 바꾸지 않는 것이 원칙입니다. \
        어절은 체언에 조사가 붙거나 용언의 어간에 어미가 붙은 단위이므로 읽는 사람은 어절을 하나의 덩어리로 인식합니다. \
        따라서 조판 프로그램은 긴 어절이 줄 끝에 걸리면 어절 전체를 다음 줄로 넘기고 남은 공간을 비워 둡니다. \
        이렇게 하면 글줄의 오른쪽 끝이 고르지 않게 되지만 읽는 흐름은 끊기지 않습니다. \
        신문이나 좁은 단에서는 음절 단위로 줄을 바꾸어 오른쪽 끝을 가지런하게 맞추는 방식도 여전히 쓰입니다. \
        두 방식은 각각 장점과 단점이 있으므로 문서의 성격에 맞게 골라 쓰는 것이 좋습니다. \
        타이포그래피는 정보 전달의 기본이며 효과적인 전달을 위해서는 위계와 스타일이 필요합니다.
        """

    @Test func koreanLinesBreakOnlyBetweenEojeolsByDefault() throws {
        let eojeols = Set(Self.koreanParagraph.split(separator: " ").map(String.init))
        let (pdf, _) = try Render.markdown("# 어절\n\n" + Self.koreanParagraph, name: "feature-keepall")
        let lines = Self.lines(Self.bodyWords(try PDFProbe.words(pdf)).filter { $0.height < 18 })
        #expect(lines.count >= 4, "the paragraph wraps")
        for line in lines {
            for word in line { #expect(eojeols.contains(word.text), "'\(word.text)' is not a whole eojeol") }
        }
    }

    @Test func lineBreakAnywhereBreaksBetweenSyllables() throws {
        let eojeols = Set(Self.koreanParagraph.split(separator: " ").map(String.init))
        let (pdf, _) = try Render.markdown(
            "---\nline-break: anywhere\n---\n\n# 음절\n\n" + Self.koreanParagraph, name: "feature-anywhere")
        let lines = Self.lines(Self.bodyWords(try PDFProbe.words(pdf)).filter { $0.height < 18 })
        #expect(lines.count >= 4)
        let broken = lines.dropLast().filter { !eojeols.contains($0.last!.text) }
        #expect(!broken.isEmpty, "at least one line ends inside a word")
        // Lines filled to the margin: each non-final line's end is within one syllable of it.
        for line in lines.dropLast() {
            #expect(line.last!.xMax > Self.right - 22, "line ends at \(line.last!.xMax), not near the margin")
        }
    }

    /// `line-break: keep-all` keeps every eojeol whole in justified text too, as CSS's
    /// `word-break: keep-all` does, and so does `hyphenate: false`; the default (`auto`) may
    /// break a word between two syllables where every break between words would leave a very
    /// loose line. And a justified line with no word space (one word, `시간표(07:40,`) spreads
    /// its syllables no wider than 0.08 em, so it copies back as one word: it falls short of
    /// the measure instead. Members: four measures, each setting, two paragraphs.
    @Test func keepAllKeepsWordsWholeInJustifiedText() throws {
        let text =
            "오늘은 하루 종일 비가 내렸다. 우산을 챙기지 못한 사람들은 처마 밑에서 비가 그치기를 기다렸다. "
            + "나는 창가에 앉아 그 모습을 한참 바라보았다. 끝.\n\n다음 날 아침, 기차 시간표(07:40, 09:15, 11:30)를 "
            + "확인했다. 역무원은 승강장 번호를 알려 주었다."
        let eojeols = Set(text.split(whereSeparator: \.isWhitespace).map(String.init))
        var brokenByDefault = 0
        for margins in ["45mm", "50mm", "55mm", "60mm"] {
            for setting in ["", "line-break: keep-all\n", "hyphenate: false\n"] {
                let front = "---\nlang: ko\njustify: true\npaper: a5\nmargins: \(margins)\n\(setting)---\n\n"
                let (pdf, _) = try Render.markdown(front + text, name: "feature-keepall-justified")
                let words = try PDFProbe.words(pdf).filter { $0.height < 18 && !$0.text.allSatisfy(\.isNumber) }
                let whole = words.filter { eojeols.contains($0.text) }
                if setting.isEmpty {
                    brokenByDefault += words.count - whole.count
                    // A word is parted only at a line's end, never by letters spread apart: within
                    // a line every word is whole, the first may be an eojeol's end, the last its start.
                    for line in Self.lines(words) {
                        for (index, word) in line.enumerated() where !eojeols.contains(word.text) {
                            let part =
                                index == 0 && eojeols.contains { $0.hasSuffix(word.text) }
                                || index == line.count - 1 && eojeols.contains { $0.hasPrefix(word.text) }
                            #expect(part, "'\(word.text)' in \(line.map(\.text)) at \(margins)")
                        }
                    }
                } else {
                    #expect(whole.count == words.count, "\(setting) \(margins): \(words.map(\.text))")
                }
            }
        }
        #expect(brokenByDefault > 0, "the default breaks some word between syllables")
    }

    // MARK: - Justification

    @Test func justifiedLinesReachTheRightMarginExceptTheLast() throws {
        var body = "# Justified\n\n"
        for i in 1...6 { body += Self.taggedParagraph(i, words: 45 + 17 * i) + "\n\n" }
        let (justified, _) = try Render.markdown("---\njustify: true\n---\n\n" + body, name: "feature-justify")
        let (ragged, _) = try Render.markdown(body, name: "feature-ragged")
        let justifiedLines = Self.lines(Self.bodyWords(try PDFProbe.words(justified))).filter {
            Self.paragraphIndex($0[0].text) != nil
        }
        let raggedLines = Self.lines(Self.bodyWords(try PDFProbe.words(ragged))).filter {
            Self.paragraphIndex($0[0].text) != nil
        }
        // Natural word space: the commonest gap of the ragged rendering.
        let raggedGaps = raggedLines.flatMap { zip($0, $0.dropFirst()).map { ($1.xMin - $0.xMax) } }.sorted()
        let natural = raggedGaps[raggedGaps.count / 2]
        for i in 1...6 {
            let paragraph = justifiedLines.filter { Self.paragraphIndex($0[0].text) == i }
            #expect(paragraph.count >= 2)
            for line in paragraph.dropLast() {
                // Flush with the margin; a final period, comma or hyphen hangs past it by part of its width.
                let hangs = [".", ",", "-"].contains(line.last!.text.last!)
                #expect(
                    line.last!.xMax >= Self.right - 0.5 && line.last!.xMax <= Self.right + (hangs ? 3 : 0.5),
                    "paragraph \(i): line ends at \(line.last!.xMax), not \(Self.right)")
                #expect(abs(line.first!.xMin - Self.left) <= 0.5)
            }
            // The last line is never stretched (natural word spaces, or shrunk when the line
            // breaker chose to fit one more word) and never passes the margin.
            let last = try #require(paragraph.last)
            for (a, b) in zip(last, last.dropFirst()) {
                #expect((b.xMin - a.xMax) - natural < 0.3, "paragraph \(i)'s last line is not stretched")
            }
            #expect(last.last!.xMax <= Self.right + 0.5, "paragraph \(i)'s last line stays inside the margin")
        }
        // The ragged rendering really is ragged, so the comparison above means something.
        #expect(raggedLines.dropLast().contains { $0.last!.xMax < Self.right - 5 })
    }

    // MARK: - Page breaks

    @Test func newpageForcesAPageBreak() throws {
        let (pdf, report) = try Render.markdown(
            "# Breaks\n\nFirstpage text.\n\n\\newpage\n\nSecondpage text.\n", name: "feature-newpage")
        #expect(report.pageCount == 2)
        let words = try PDFProbe.words(pdf)
        #expect(words.first { $0.text == "Firstpage" }?.page == 1)
        let second = try #require(words.first { $0.text == "Secondpage" })
        #expect(second.page == 2)
        #expect(second.yMin < Self.top + 20, "the second page starts at the top of the text area: \(second)")
        #expect(!(try PDFProbe.text(pdf)).contains("newpage"))
    }

    // MARK: - Paper, margins, unknown keys

    @Test func frontMatterPaperAndMarginsChangeThePage() throws {
        let body = "# Paper\n\n" + Self.taggedParagraph(1, words: 120) + "\n"
        let (a5, _) = try Render.markdown("---\npaper: a5\nmargins: 20mm 30mm\n---\n\n" + body, name: "feature-a5")
        let size = try #require(try PDFProbe.info(a5)["Page size"])
        #expect(size.hasPrefix("419.528 x 595.276"), "\(size)")
        let mm = 72 / 25.4
        let words = Self.lines(try PDFProbe.words(a5)).filter { Self.paragraphIndex($0[0].text) != nil }
        #expect(words.count >= 4)
        for line in words {
            #expect(abs(line.first!.xMin - 30 * mm) < 0.5, "left margin 30 mm: \(line.first!)")
            #expect(line.last!.xMax <= 419.528 - 30 * mm + 0.5, "right margin 30 mm: \(line.last!)")
        }
        let heading = try #require(try PDFProbe.words(a5).first { $0.text == "Paper" })
        #expect(heading.yMin > 20 * mm - 2 && heading.yMin < 20 * mm + 20, "top margin 20 mm: \(heading)")

        let (custom, _) = try Render.markdown(
            "---\nmargins: {top: 40mm, left: 50mm}\n---\n\n" + body, name: "feature-margins")
        #expect(try PDFProbe.info(custom)["Page size"]?.hasPrefix("595.276 x 841.89") == true)
        let customWords = try PDFProbe.words(custom)
        let customHeading = try #require(customWords.first { $0.text == "Paper" })
        #expect(abs(customHeading.xMin - 50 * mm) < 0.5, "left margin 50 mm: \(customHeading)")
        #expect(
            customHeading.yMin > 40 * mm - 2 && customHeading.yMin < 40 * mm + 20, "top margin 40 mm: \(customHeading)")
    }

    /// Pandoc's `abstract` is set after the title, author and date, under an "Abstract" label
    /// ("초록" in a Korean document), a paragraph for each of its paragraphs, read as Markdown;
    /// before the contents and the document's text.
    @Test(arguments: [("en", "Abstract"), ("ko", "초록")])
    func theAbstractFollowsTheTitle(lang: String, label: String) throws {
        let (pdf, report) = try Render.markdown(
            "---\ntitle: A Paper\nauthor: Ada\nlang: \(lang)\nabstract: |\n  This paper shows *one* thing.\n\n"
                + "  A second paragraph.\n---\n\n# Introduction\n\nText.\n", name: "feature-abstract-\(lang)",
            options: {
                var options = RenderOptions()
                options.tableOfContents = true
                return options
            }())
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics)")
        let lines = try PDFProbe.text(pdf).split(separator: "\n").map(String.init).filter { !$0.isEmpty }
        let order = ["A Paper", "Ada", label, "This paper shows one thing.", "A second paragraph."]
        #expect(Array(lines.prefix(5)) == order, "\(lines)")
    }

    /// Pandoc's `toc-title` and `abstract-title` name the contents' and the abstract's headings,
    /// in front matter or by `-V` (they were ignored, without a word: "Contents" and
    /// "Abstract" stood); smart punctuation applies; blank, the language's words stand.
    @Test(arguments: [
        ("toc-title: \"What's Inside\"\nabstract-title: Summary\n", "What’s Inside", "Summary"),
        ("lang: de\ntoc-title: Übersicht\n", "Übersicht", "Zusammenfassung"),
        ("toc-title: \"  \"\n", "Contents", "Abstract"),
    ])
    func contentsAndAbstractTakeTheTitlesGiven(front: String, contents: String, abstract: String) throws {
        var options = RenderOptions()
        options.tableOfContents = true
        let (pdf, report) = try Render.markdown(
            "---\ntitle: A Paper\n\(front)abstract: The summary.\n---\n\n# Introduction\n\nText.\n",
            name: "feature-titles-\(contents.count)", options: options)
        #expect(!report.diagnostics.contains { $0.message.contains("title") }, "\(report.diagnostics)")
        let lines = try PDFProbe.text(pdf).split(separator: "\n").map(String.init).filter { !$0.isEmpty }
        #expect(lines.contains(contents) && lines.contains(abstract), "\(lines)")
        #expect(lines.firstIndex(of: abstract)! < lines.firstIndex(of: contents)!, "\(lines)")
    }

    /// The abstract is Markdown blocks, as Pandoc reads it: a quote, a list, an ordered list,
    /// code and a table are set as in the document (no `>`, `-`, fence or `|` printed as text,
    /// the lists tagged `L`), a paragraph's blank lines inside fenced code kept, and a note after
    /// them numbered before the body's.
    @Test func theAbstractKeepsItsBlocks() throws {
        let abstract = [
            "First *paragraph*.", "> A quoted line.", "- bullet one\n- bullet two", "1. first\n2. second",
            "```\ncode line\n\ncode after a blank line\n```", "| a | b |\n|---|---|\n| 1 | 2 |",
            "Last paragraph.^[An abstract note.]",
        ].joined(separator: "\n\n")
        let indented = abstract.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }
        let (pdf, report) = try Render.markdown(
            "---\ntitle: A Paper\nabstract: |\n" + indented.joined(separator: "\n")
                + "\n---\n\nBody text.[^b]\n\n[^b]: A body note.\n", name: "feature-abstract-blocks")
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics)")
        let text = try PDFProbe.text(pdf)
        for expected in [
            "First paragraph.", "A quoted line.", "bullet one", "bullet two", "first", "second", "code line",
            "code after a blank line", "Last paragraph.1", "1 An abstract note.", "Body text.2", "2 A body note.",
        ] {
            #expect(text.contains(expected), "\(expected) in \(text)")
        }
        for marker in ["> A quoted", "- bullet", "```", "| a |"] {
            #expect(!text.contains(marker), "\(marker) printed in \(text)")
        }
        let tree = try AccessibilityTests.structure(pdf).all
        #expect(tree.filter { $0.name == "L" }.count == 2, "\(tree.map(\.name))")
        #expect(tree.contains { $0.name == "Table" })
        #expect(try PDFProbe.qpdfClean(pdf))
    }

    @Test func unknownRunningTextFieldsWarn() throws {
        let (pdf, report) = try Render.markdown(
            "---\nfooter: \"{page} of {total}\"\n---\n# Hi\n", name: "feature-footer-field")
        #expect(
            report.diagnostics.contains {
                $0.description.hasPrefix("feature-footer-field.md:2:9:") && $0.message.contains("{total}")
            })
        #expect(try PDFProbe.text(pdf).contains("1 of {total}"))
    }

    /// A running text takes one line: a title too long for it is shortened at a word with an
    /// ellipsis, in a header and in a footer, with a warning at the front matter field; a long
    /// text without a title is named; a short one is left alone.
    @Test func aRunningTitleTooLongForItsLineEndsWithAnEllipsis() throws {
        let title = (0..<60).map { "word\($0)" }.joined(separator: " ")
        let body = (0..<30).map { "Paragraph \($0) " + String(repeating: "text ", count: 80) }.joined(separator: "\n\n")
        for (key, template) in [("header", "{title}"), ("footer", "{page} of {pages} — {title}")] {
            let (pdf, report) = try Render.markdown(
                "---\ntitle: \(title)\n\(key): \"\(template)\"\n---\n\n\(body)\n", name: "feature-running-\(key)")
            let warning = report.diagnostics.first { $0.message.contains("running \(key)") }
            #expect(
                warning?.location?.line == 3 && warning?.message.contains("ellipsis") == true, "\(report.diagnostics)")
            // The last page: the title block's lines of this long title fill the first pages.
            let all = try PDFProbe.words(pdf)
            let last = all.map(\.page).max() ?? 1
            let words = all.filter { $0.page == last && $0.text.hasPrefix("word") }
            let runningLine = Set(words.map { ($0.yMin * 10).rounded() })
            #expect(runningLine.count == 1, "one line of running text: \(words.prefix(3))")
            #expect(words.last?.text.hasSuffix("…") == true, "\(words.last?.text ?? "")")
            #expect(words.allSatisfy { $0.xMax <= HostileInputTests.rightEdge + 1 })
        }
        let (_, short) = try Render.markdown(
            "---\ntitle: Short\nheader: \"{title}\"\n---\n\n\(body)\n", name: "feature-running-short")
        #expect(!short.diagnostics.contains { $0.message.contains("running") })
        let long = String(repeating: "literal ", count: 80)
        let (_, literal) = try Render.markdown(
            "---\nfooter: \"\(long){page}\"\n---\n\n\(body)\n", name: "feature-running-literal")
        #expect(
            literal.diagnostics.contains {
                $0.message.contains("running footer") && $0.message.contains("the words that fit and an ellipsis")
            }, "\(literal.diagnostics)")
        // A template too long even without its title keeps the title whole and is cut after
        // the last word that fits, with an ellipsis, on every page.
        let (fixed, fixedReport) = try Render.markdown(
            "---\ntitle: Short\nheader: \"{title} — \(long)\"\n---\n\n\(body)\n", name: "feature-running-fixed")
        #expect(fixedReport.diagnostics.contains { $0.message.contains("running header") })
        let heads = try PDFProbe.words(fixed).filter { $0.yMax < 60 }
        for page in Set(heads.map(\.page)) {
            let line = heads.filter { $0.page == page }.sorted { $0.xMin < $1.xMin }.map(\.text)
            #expect(line.first == "Short" && line.last?.hasSuffix("literal…") == true, "page \(page): \(line)")
        }
        #expect(Set(heads.map(\.page)).count > 1)
    }

    /// Front matter text values read as Markdown inline text, as Pandoc reads metadata: the
    /// title block sets their emphasis and code, the PDF's metadata and a running head take
    /// their plain text; smart punctuation follows the document's setting; a value that is not
    /// one paragraph is set as written.
    @Test func frontMatterTitlesReadAsMarkdown() throws {
        let body = (0..<20).map { "Paragraph \($0) " + String(repeating: "text ", count: 80) }.joined(separator: "\n\n")
        let markdown =
            "---\ntitle: \"A *styled* title with `code`\"\nsubtitle: \"It's **bold**\"\nauthor: \"Ann "
            + "*Author*\"\nheader: \"{title}\"\n---\n\n\(body)\n"
        let (pdf, _) = try Render.markdown(markdown, name: "feature-title-markdown")
        let info = try PDFProbe.info(pdf)
        #expect(info["Title"] == "A styled title with code", "\(info)")
        #expect(info["Subject"] == "It\u{2019}s bold" && info["Author"] == "Ann Author", "\(info)")
        let first = try PDFProbe.run("pdftotext", ["-f", "1", "-l", "1", pdf, "-"]).output
        #expect(first.contains("A styled title with code") && !first.contains("*"), "\(first)")
        let fonts = try PDFProbe.run("pdffonts", [pdf]).output
        #expect(fonts.contains("Italic") && fonts.contains("Mono"), "\(fonts)")
        let second = try PDFProbe.run("pdftotext", ["-f", "2", "-l", "2", pdf, "-"]).output
        #expect(second.hasPrefix("A styled title with code"), "the running head: \(second.prefix(60))")
        // Straight quotes kept with smart punctuation off; a value that reads as a heading is
        // set as written.
        let (plain, _) = try Render.markdown(
            "---\nsmart: false\ntitle: \"# It's *one*\"\n---\n\nBody.\n", name: "feature-title-plain")
        #expect(try PDFProbe.info(plain)["Title"] == "# It's *one*")
        #expect(try PDFProbe.run("pdftotext", ["-f", "1", "-l", "1", plain, "-"]).output.contains("# It's *one*"))
    }

    @Test func misspeltFrontMatterKeyIsAWarningNamingItsLine() throws {
        let markdown = "---\ntitle: Keys\nauthor: Someone\nautor: red\nlayout: post\n---\n\nBody.\n"
        let (pdf, report) = try Render.markdown(markdown, name: "feature-unknown-key")
        #expect(report.diagnostics.count == 1, "\(report.diagnostics)")
        let warning = try #require(report.diagnostics.first { "\($0)".contains("autor") }, "\(report.diagnostics)")
        #expect("\(warning)".hasPrefix("feature-unknown-key.md:4:"), "\(warning)")
        #expect("\(warning)".contains("warning"))
        #expect(try PDFProbe.info(pdf)["Title"] == "Keys", "the known keys still apply")
    }

    // MARK: - The handbook

    @Test func handbookRendersAsALongCleanDocument() throws {
        let source = try String(contentsOfFile: Render.packageRoot + "/templates/handbook.md", encoding: .utf8)
        var options = RenderOptions()
        options.baseDirectory = Render.packageRoot + "/templates"
        let (pdf, report) = try Render.markdown(source, name: "handbook", options: options)
        #expect(report.pageCount >= 15)
        #expect(try PDFProbe.info(pdf)["Pages"] == String(report.pageCount))
        #expect(try PDFProbe.info(pdf)["Title"] == "Typeset 조판 핸드북")
        #expect(try PDFProbe.qpdfClean(pdf))
        let fonts = try PDFProbe.fonts(pdf)
        #expect(fonts.contains { $0.hasPrefix("Inter-") }, "\(fonts)")
        #expect(fonts.contains { $0.hasPrefix("NotoSansCJKkr") }, "\(fonts)")
        // Three real images and exactly one placeholder, which warns.
        let images = try PDFProbe.run("pdfimages", ["-list", pdf]).output.split(separator: "\n").dropFirst(2)
        #expect(images.count == 3, "\(images)")
        let imageWarnings = report.diagnostics.filter { "\($0)".contains("image") }
        #expect(imageWarnings.count == 1, "\(imageWarnings)")
        // Every page carries the folio, and every page but the first (the title block) the running head.
        let words = try PDFProbe.words(pdf)
        for page in 1...report.pageCount {
            let head = words.contains { $0.page == page && $0.yMax < Self.top && $0.text == "핸드북" }
            #expect(head == (page > 1), "header on page \(page)")
            #expect(
                words.contains { $0.page == page && $0.yMin > Self.bottom && $0.text == "\(page)" },
                "folio on page \(page)")
        }
        // Headings and outline: every chapter is a bookmark.
        let titles = try QDF(pdf).outline()?.flatMap { [$0.title] + $0.children.map(\.title) } ?? []
        for chapter in ["타입 스케일 — The type scale", "한국어 타이포그래피", "표", "접근성 — Accessibility", "Dynamic Type sizes"] {
            #expect(titles.contains(chapter), "outline has '\(chapter)': \(titles)")
        }
    }
}

/// A PDF rewritten by `qpdf --qdf` (uncompressed, one key per line) and split into objects.
struct QDF {
    struct OutlineItem {
        var title: String
        var children: [OutlineItem]
    }
    struct Destination {
        var page: Int
        var y: Double
    }
    struct Box: CustomStringConvertible {
        var minX: Double, minY: Double, maxX: Double, maxY: Double
        var width: Double { maxX - minX }
        var description: String { "[\(minX), \(minY), \(maxX), \(maxY)]" }
    }

    /// Every line of the file that is text (ASCII); lines of binary stream data are left out.
    let lines: [String]
    let objects: [Int: String]

    init(_ pdf: String) throws {
        let qdf = pdf + ".qdf"
        try PDFProbe.run("qpdf", ["--qdf", "--object-streams=disable", pdf, qdf])
        defer { try? FileManager.default.removeItem(atPath: qdf) }
        let bytes = [UInt8](FileManager.default.contents(atPath: qdf) ?? Data())
        // One pass over the bytes, `N 0 obj` … `endobj`; image data (not ASCII) is skipped so
        // that no large binary string is ever built (that took half a minute in debug builds).
        var lines: [String] = []
        var objects: [Int: String] = [:]
        var current: Int?
        var body: [String] = []
        var start = 0
        for i in bytes.indices where bytes[i] == 0x0A {
            defer { start = i + 1 }
            let slice = bytes[start..<i]
            guard slice.count < 4096, !slice.contains(where: { $0 >= 0x80 }) else { continue }
            let line = String(decoding: slice, as: UTF8.self)
            lines.append(line)
            if current == nil {
                if line.hasSuffix(" 0 obj"), let number = Int(line.dropLast(6)) {
                    current = number
                    body = []
                }
            } else if line == "endobj" {
                objects[current!] = body.joined(separator: "\n")
                current = nil
            } else {
                body.append(line)
            }
        }
        self.lines = lines
        self.objects = objects
    }

    /// The object number `/Key N 0 R` refers to in `object`.
    static func reference(_ key: String, in object: String) -> Int? {
        guard let range = object.range(of: "/\(key) (\\d+) 0 R", options: .regularExpression) else { return nil }
        return Int(object[range].split(separator: " ")[1])
    }

    /// A PDF text string: `(literal)` or `<FEFF…>` UTF-16BE hex.
    static func string(_ key: String, in object: String) -> String? {
        for line in object.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("/\(key) ") else { continue }
            return decode(String(trimmed.dropFirst(key.count + 2)))
        }
        return nil
    }

    static func decode(_ value: String) -> String {
        if value.hasPrefix("<") {
            var bytes: [UInt8] = []
            var hex = value.dropFirst().prefix { $0 != ">" }
            while hex.count >= 2 {
                bytes.append(UInt8(hex.prefix(2), radix: 16) ?? 0)
                hex = hex.dropFirst(2)
            }
            if bytes.starts(with: [0xFE, 0xFF]) {
                let units = stride(from: 2, to: bytes.count - 1, by: 2).map {
                    UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1])
                }
                return String(decoding: units, as: UTF16.self)
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        var out = ""
        var escaped = false
        for c in value.dropFirst().dropLast() {
            if escaped {
                out.append(c)
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else {
                out.append(c)
            }
        }
        return out
    }

    var catalog: String? { objects.values.first { $0.contains("/Type /Catalog") } }

    /// The outline tree from the catalog's `/Outlines`, following `/First` and `/Next`.
    func outline() -> [OutlineItem]? {
        guard let catalog, let root = Self.reference("Outlines", in: catalog), let rootObject = objects[root] else {
            return nil
        }
        func children(of object: String, depth: Int) -> [OutlineItem] {
            var items: [OutlineItem] = []
            var next = Self.reference("First", in: object)
            while let number = next, let item = objects[number], depth < 10, items.count < 1000 {
                items.append(
                    OutlineItem(
                        title: Self.string("Title", in: item) ?? "", children: children(of: item, depth: depth + 1)))
                next = Self.reference("Next", in: item)
            }
            return items
        }
        return children(of: rootObject, depth: 0)
    }

    /// Page object numbers in page order (flat `/Kids`, as Cairo writes them).
    var pages: [Int] {
        guard let catalog, let root = Self.reference("Pages", in: catalog), let tree = objects[root],
            let kids = tree.range(of: #"/Kids \[[^\]]*\]"#, options: .regularExpression)
        else { return [] }
        return String(tree[kids]).matches(of: /(\d+) 0 R/).compactMap { Int($0.output.1) }
    }

    /// Named destinations from `/Names /Dests` (a flat name tree) or `/Dests` in the catalog.
    func namedDestinations() -> [String: Destination] {
        guard let catalog else { return [:] }
        var treeObject: String?
        if let names = Self.reference("Names", in: catalog), let nameObject = objects[names],
            let dests = Self.reference("Dests", in: nameObject)
        {
            treeObject = objects[dests]
        }
        guard let tree = treeObject else { return [:] }
        let pages = self.pages
        var result: [String: Destination] = [:]
        let entry = try! NSRegularExpression(
            pattern: #"(\((?:[^()\\]|\\.)*\)|<[0-9A-Fa-f]+>)\s*\[\s*(\d+) 0 R\s*/XYZ\s*([-\d.]+)\s*([-\d.]+)"#)
        let ns = tree as NSString
        for match in entry.matches(in: tree, range: NSRange(location: 0, length: ns.length)) {
            let name = Self.destinationName(Self.decode(ns.substring(with: match.range(at: 1))))
            let page = (pages.firstIndex(of: Int(ns.substring(with: match.range(at: 2)))!) ?? -1) + 1
            result[name] = Destination(page: page, y: Double(ns.substring(with: match.range(at: 4))) ?? 0)
        }
        return result
    }

    /// The named destination a link annotation jumps to (`/Dest (name)` or a GoTo action's `/D (name)`).
    static func destinationName(in link: String) -> String? {
        (string("Dest", in: link) ?? string("D", in: link)).map(destinationName)
    }

    /// Cairo writes a non-ASCII destination name byte by byte as `~XX` (hex); the same form
    /// is used in the link and in the name tree, so they match. Decoded here for comparison.
    static func destinationName(_ raw: String) -> String {
        guard raw.contains("~") else { return raw }
        var bytes: [UInt8] = []
        var scalars = Array(raw.utf8)[...]
        while let byte = scalars.first {
            if byte == UInt8(ascii: "~"), scalars.count >= 3,
                let value = UInt8(String(decoding: scalars.dropFirst().prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                scalars = scalars.dropFirst(3)
            } else {
                bytes.append(byte)
                scalars = scalars.dropFirst()
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Image boxes in top-left page coordinates: a `a 0 0 d e f cm` right before `/xN Do`,
    /// under Cairo's initial `1 0 0 -1 0 H cm` flip.
    func imagePlacements() -> [Box] {
        var boxes: [Box] = []
        for (i, line) in lines.enumerated() where line.hasSuffix(" Do") && line.contains("/x") && i > 0 {
            let numbers = lines[i - 1].split(separator: " ")
            guard numbers.last == "cm", numbers.count == 7 else { continue }
            let m = numbers.prefix(6).compactMap { Double($0) }
            guard m.count == 6 else { continue }
            boxes.append(
                Box(
                    minX: min(m[4], m[4] + m[0]), minY: min(m[5], m[5] + m[3]),
                    maxX: max(m[4], m[4] + m[0]), maxY: max(m[5], m[5] + m[3])))
        }
        return boxes
    }
}
