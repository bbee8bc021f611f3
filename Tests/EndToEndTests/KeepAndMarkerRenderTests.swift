import Foundation
import TestSupport
import Testing
import Typesetter

/// A heading keeps with the first two lines that follow it whatever holds them (list items, a
/// `<details>` summary, a quote or div opening with a list, a raw HTML line), and a list
/// marker hangs outside a code panel, a quote bar or a table that opens its item — read back
/// from the PDF with `pdftotext -bbox-layout`.
@Suite struct KeepAndMarkerRenderTests {
    /// The bottom of the default theme's text area on A4 (841.89 − 72 pt): the page number
    /// below it is not a line of the text.
    static let textBottom = 841.8898 - 72

    static let followers: [(name: String, markdown: String)] = [
        ("bullets", "- li1\n- li2\n- li3\n"),
        ("task list", "- [ ] task one\n- [x] task two\n- [ ] task three\n"),
        ("nested list", "- outer\n  - inner one\n  - inner two\n"),
        (
            "details",
            "<details><summary>Summary</summary>\n\nbody " + String(repeating: "lorem ipsum dolor sit amet ", count: 12)
                + "\n\n</details>\n"
        ),
        ("quote of a list", "> - quoted one\n> - quoted two\n> - quoted three\n"),
        ("item opening with a quote", "- > quote in item\n- second item\n- third item\n"),
        (
            "raw HTML",
            "<div>a raw HTML line</div>\n\nthen " + String(repeating: "lorem ipsum dolor sit amet ", count: 8) + "\n"
        ),
    ]

    /// For filler of 34 to 41 hard-broken lines (the default A4 page holds 42), the heading
    /// lands at every height near the page's foot: wherever it is, the page it is on holds at
    /// least two lines after it.
    @Test(arguments: 0..<followers.count) func headingKeepsWithTwoLines(_ index: Int) throws {
        let follower = Self.followers[index]
        for count in 34...41 {
            let filler = (1...count).map { "filler line \($0)" }.joined(separator: "\\\n")
            let name = "keep-\(index)-\(count)"
            let (pdf, _) = try Render.markdown(filler + "\n\n## Keepme heading\n\n" + follower.markdown, name: name)
            defer { try? FileManager.default.removeItem(atPath: pdf) }
            let words = try PDFProbe.words(pdf)
            let heading = try #require(words.first { $0.text == "Keepme" })
            let below = words.filter { $0.page == heading.page && $0.yMin > heading.yMax && $0.yMax < Self.textBottom }
            let baselines = Set(below.map { ($0.yMax * 2).rounded() })
            #expect(baselines.count >= 2, "\(follower.name), \(count) filler lines: \(below.map(\.text))")
        }
    }

    /// A paragraph ending in a colon introduces what follows it: wherever the filler puts it
    /// near a page's foot, the page it ends on holds the first line of the list, code block,
    /// table or quote after it (`Refs:` stood alone at a page's foot, its list overleaf).
    @Test(arguments: [
        "- first item\n- second item\n", "```\nfirst code line\nsecond\n```\n",
        "| first | cell |\n| --- | --- |\n| a | b |\n",
        "> first quoted line\n",
    ])
    func aLeadInKeepsWithWhatItIntroduces(_ follower: String) throws {
        for count in 38...41 {
            let filler = (1...count).map { "filler line \($0)" }.joined(separator: "\\\n")
            let name = "lead-in-\(abs(follower.hashValue) % 1000)-\(count)"
            let (pdf, _) = try Render.markdown(
                filler + "\n\nThe steps are these, **in order**:\n\n" + follower, name: name)
            defer { try? FileManager.default.removeItem(atPath: pdf) }
            let words = try PDFProbe.words(pdf)
            let leadIn = try #require(words.first { $0.text == "order:" })
            let first = try #require(words.first { $0.text == "first" })
            #expect(
                first.page == leadIn.page, "\(count) filler lines: lead-in on \(leadIn.page), follower on \(first.page)"
            )
        }
    }

    /// A `<details>` summary keeps with the first lines of what it sums up, as a heading does:
    /// wherever the filler ends, the summary's page holds a line of the body below it — a
    /// summary in the block that opens `<details>` and one in an HTML block of its own.
    @Test(arguments: ["<details><summary>Sumline here</summary>", "<details>\n<summary>Sumline here</summary>"])
    func aSummaryKeepsWithItsBody(opening: String) throws {
        for count in 38...43 {
            let filler = (1...count).map { "filler line \($0)" }.joined(separator: "\\\n")
            let body = "Bodyline " + String(repeating: "lorem ipsum dolor sit amet ", count: 12)
            let name = "summary-\(opening.count)-\(count)"
            let (pdf, _) = try Render.markdown(
                filler + "\n\n" + opening + "\n\n" + body + "\n\n</details>\n", name: name)
            defer { try? FileManager.default.removeItem(atPath: pdf) }
            let words = try PDFProbe.words(pdf)
            let summary = try #require(words.first { $0.text == "Sumline" })
            let bodyStart = try #require(words.first { $0.text == "Bodyline" })
            #expect(
                summary.page == bodyStart.page,
                "\(count) filler lines: summary on \(summary.page), body on \(bodyStart.page)")
        }
    }

    /// The line that opens a list item stays with the code block, table, quote or nested list
    /// that follows it in the item, wherever the page ends near them (it was left alone at a
    /// page's foot, its code on the next page); numbered and bulleted items alike.
    @Test(arguments: [
        ("1. Install it:\n\n   ```sh\n   make install\n   ```\n", "make install"),
        ("- A table:\n\n  | a | b |\n  |---|---|\n  | cellx | y |\n", "cellx"),
        ("- A quote:\n\n  > quotedword\n", "quotedword"),
        ("1. Parent:\n   - childword\n", "childword"),
    ])
    func aListItemsOpeningLineStaysWithWhatFollows(item: String, follower: String) throws {
        var pages: [Int] = []
        for fillers in 32...41 {
            let lines = (0..<fillers).map { "Filler line \($0)." }.joined(separator: "  \n")
            let (pdf, _) = try Render.markdown(
                "# Keep\n\n\(lines)\n\n\(item)", name: "list-lead-in-\(follower)-\(fillers)")
            let text = try PDFProbe.run("pdftotext", ["-raw", pdf, "-"]).output.split(separator: "\u{0C}")
            let page = try #require(text.firstIndex { $0.contains(follower) })
            let leadIn = String(item.prefix { $0 != ":" }.drop { !$0.isLetter })
            #expect(
                text[page].contains(leadIn), "\(fillers) lines: \(follower) on page \(page + 1) without '\(leadIn)'")
            pages.append(page)
        }
        #expect(pages.first == 0 && pages.last == 1, "the page ends before and after the item: \(pages)")
    }

    @Test func markersHangOutsidePanelsBarsAndTables() throws {
        let markdown = """
            - plain item
            - ```
              code in item
              ```
            - > quote in item
            - | head | col |
              |------|-----|
              | a    | b   |

            1. ```
               numbered code
               ```
            2. plain numbered
            """
        let (pdf, _) = try Render.markdown(markdown, name: "hanging-markers")
        defer { try? FileManager.default.removeItem(atPath: pdf) }
        let words = try PDFProbe.words(pdf)
        let bullets = words.filter { $0.text == "•" }
        #expect(bullets.count == 4)
        // Every bullet ends where the plain item's does: at the items' edge, not inside a panel.
        for bullet in bullets { #expect(abs(bullet.xMax - bullets[0].xMax) < 0.01, "\(bullet)") }
        let numbers = words.filter { $0.text == "1." || $0.text == "2." }
        #expect(numbers.count == 2)
        if numbers.count == 2 { #expect(abs(numbers[0].xMax - numbers[1].xMax) < 0.01) }
        // Each marker shares a line with its item's first text, and code and quotes begin
        // clear of it (the panel's padding, the bar and its gap).
        for (marker, first) in [
            (bullets[1], "code"), (bullets[2], "quote"), (bullets[3], "head"), (numbers[0], "numbered"),
        ] {
            let text = try #require(words.first { $0.text == first })
            let markerMiddle = (marker.yMin + marker.yMax) / 2
            let textMiddle = (text.yMin + text.yMax) / 2
            #expect(abs(markerMiddle - textMiddle) < 3, "\(marker) beside \(text)")
            #expect(text.xMin - marker.xMax > 8, "\(marker) clear of \(text)")
        }
        #expect(try PDFProbe.qpdfClean(pdf))
    }

    @Test func aHangingMarkerTooLargeForThePageIsMadeToFit() throws {
        // The div's size reaches the marker; the code block sets its own size.
        let (pdf, report) = try Render.markdown(
            "::: {size=900}\n- ```\n  code\n  ```\n:::\n", name: "huge-hanging-marker")
        defer { try? FileManager.default.removeItem(atPath: pdf) }
        let bullet = try #require(try PDFProbe.words(pdf).first { $0.text == "•" })
        #expect(bullet.height < 841.8898 - 64 - 72, "\(bullet)")
        #expect(report.diagnostics.contains { $0.message.contains("too large") })
    }
}
