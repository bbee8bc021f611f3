import Foundation
import TestSupport
import Testing
import Typesetter

/// The Markdown writers bring from GitHub and Pandoc, rendered and read back from the
/// PDF (poppler's text, word boxes and structure tree; the content streams' colours).
@Suite(.serialized) struct MarkdownConventionsRenderTests {
    static let alerts = """
        # Alerts

        > [!NOTE]
        > Useful information that users should know.

        > [!TIP]
        > Helpful advice.

        > [!IMPORTANT]
        > Key information.

        > [!WARNING]
        > Urgent info that needs **immediate** attention.

        > [!CAUTION]
        > Negative potential consequences.

        > An ordinary quote.

        """

    /// `pdfinfo -struct-text` lines, trimmed, in order.
    func structureLines(_ pdf: String) throws -> [String] {
        try PDFProbe.run("pdfinfo", ["-struct-text", pdf]).output.split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// A Pandoc table caption, `Table: …` above its table or `: …` below, is the table's
    /// caption, as Pandoc reads it: set above the table, tagged as the `Table`'s `Caption`,
    /// and never on another page than the table's first rows. It was a paragraph of its own,
    /// a `P` beside the `Table`, and a page could turn between the two. Members: above and
    /// below, each at the foot of a page.
    @Test(arguments: [(23, true), (19, false), (22, true), (20, false)])
    func aPandocTableCaptionIsTheTablesCaption(paragraphs: Int, above: Bool) throws {
        let lead = (0..<paragraphs).map { "Para \($0)." }.joined(separator: "\n\n")
        let table = "| Key | Val |\n|---|---|\n" + (0..<6).map { "| r\($0) | x |" }.joined(separator: "\n")
        let markdown =
            lead + "\n\n" + (above ? "Table: The caption\n\n\(table)\n" : "\(table)\n\n: The caption\n")
            + "\nAfter the table.\n"
        let (pdf, _) = try Render.markdown(markdown, name: "pandoc-caption-\(paragraphs)-\(above)")
        let structure = try structureLines(pdf)
        let element = try #require(structure.firstIndex(of: "Table (block)"), "\(structure)")
        #expect(structure.dropFirst(element + 1).first == "Caption", "\(structure)")
        #expect(structure.filter { $0.contains("The caption") }.count == 1, "\(structure)")
        let pages = try PDFProbe.run("pdfinfo", [pdf]).output
        let count =
            Int(pages.split(separator: "\n").first { $0.hasPrefix("Pages:") }?.split(separator: " ").last ?? "1") ?? 1
        let texts = try (1...count).map {
            try PDFProbe.run("pdftotext", ["-f", "\($0)", "-l", "\($0)", pdf, "-"]).output
        }
        let captioned = texts.filter { $0.contains("caption") }
        #expect(captioned.count == 1 && captioned[0].contains("r0"), "the caption with the first row: \(texts)")
    }

    /// A caption that does not fit on one line over its table is set flush left from the
    /// table's left edge across the measure, as a report sets a table's title; one that fits
    /// stays centred over the table. Members: a one-line caption over a table of two narrow
    /// columns (it was set a word or two a line, hyphenated, inside the table's 29 pt), a
    /// caption of several lines over it, and a short caption over a wide table.
    /// A table labelled after its caption (`Table: … {#tbl:dims}`, pandoc-crossref's form) is
    /// a link's destination, at its caption, and the label is no text of the page.
    @Test func aTableLabelledAfterItsCaptionIsALinksDestination() throws {
        let markdown = """
            See [the table](#tbl:dims).

            | a | b |
            |---|---|
            | 1 | 2 |

            Table: Sample dimensions. {#tbl:dims}
            """
        let (pdf, report) = try Render.markdown(markdown, name: "table-label")
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics)")
        #expect(!(try PDFProbe.text(pdf)).contains("{#"))
        let qdf = try QDF(pdf)
        let destination = try #require(qdf.namedDestinations()["tbl:dims"], "\(qdf.namedDestinations().keys)")
        let caption = try #require(try PDFProbe.words(pdf).first { $0.text == "Sample" })
        let top = DocumentFeatureTests.pageHeight - destination.y
        #expect(top <= caption.yMin + 0.25 * caption.height && top > caption.yMin - 40, "\(top) \(caption.yMin)")
    }

    @Test func aCaptionWiderThanItsTableIsSetAcrossTheMeasure() throws {
        let narrow = "| a | b |\n|---|---|\n| 1 | 2 |\n"
        let wide = "| Name | Value | Notes on the value of each row |\n|---|---|---|\n| alpha | 1 | the first |\n"
        let markdown = """
            Body text.

            \(narrow)
            Table: One-line caption after.

            \(narrow)
            Table: A longer caption that says what the narrow table above it shows, written over two
            lines as Pandoc's manual writes one, and long enough to need them.

            \(wide)
            Table: Short.

            """
        let (pdf, report) = try Render.markdown(markdown, name: "caption-wider-than-table")
        #expect(report.diagnostics.isEmpty, "no word broken to fit: \(report.diagnostics)")
        let words = try PDFProbe.words(pdf)
        let body = try #require(words.first { $0.text == "Body" })
        func line(of word: String) throws -> [PDFWord] {
            let number = try #require(words.first { $0.text == word }?.line, "\(word) in \(words)")
            return words.filter { $0.line == number }
        }
        let oneLine = try line(of: "One-line")
        #expect(oneLine.map(\.text) == ["One-line", "caption", "after."], "one line: \(oneLine)")
        #expect(abs((oneLine.first?.xMin ?? 0) - body.xMin) < 0.5, "flush left with the text: \(oneLine)")
        // Lines of the measure's width, each flush left with the text (inside the table's width
        // it took 29).
        let first = try line(of: "longer")[0].line
        let last = try line(of: "them.")[0].line
        #expect((2...4).contains(last - first + 1), "lines \(first) to \(last)")
        for number in first...last {
            let line = words.filter { $0.line == number }
            #expect(abs((line.map(\.xMin).min() ?? 0) - body.xMin) < 0.5, "flush left: \(line)")
        }
        let short = try #require(words.first { $0.text == "Short." })
        let header = words.filter { $0.line == words.first { $0.text == "Name" }?.line }
        let tableCentre = ((header.map(\.xMin).min() ?? 0) + (header.map(\.xMax).max() ?? 0)) / 2
        #expect(abs((short.xMin + short.xMax) / 2 - tableCentre) < 8, "centred over the table: \(short) \(header)")
    }

    /// The content streams' fill operator for a colour given as `0xRRGGBB` (Cairo writes six
    /// significant digits, as `%g` does).
    func fill(_ hex: UInt32) -> String {
        func component(_ shift: UInt32) -> String { String(format: "%g", Double((hex >> shift) & 0xFF) / 255) }
        return "\(component(16)) \(component(8)) \(component(0)) rg"
    }

    @Test func alertsShowTheirLabelInTheirColourAndAreTaggedAsNotes() throws {
        let (pdf, report) = try Render.markdown(Self.alerts, name: "conventions-alerts")
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics)")
        #expect(try PDFProbe.qpdfClean(pdf))
        let text = try PDFProbe.text(pdf)
        for label in ["Note", "Tip", "Important", "Warning", "Caution"] {
            #expect(text.contains(label + "\n"), "\(label) in \(text)")
        }
        #expect(!text.contains("[!"), "the markers are not printed")
        // Each label in GitHub's colour for its kind: the fill set before the label is drawn.
        let content = try PDFProbe.contentStreams(pdf)
        for colour: UInt32 in [0x0969DA, 0x1A7F37, 0x8250DF, 0x9A6700, 0xCF222E] {
            #expect(content.contains(fill(colour)), "\(fill(colour))")
        }
        // Five Note elements, each holding its label and then its content; the quote stays one.
        let lines = try structureLines(pdf)
        let notes = lines.indices.filter { lines[$0].hasPrefix("Note") }
        #expect(notes.count == 5, "\(lines)")
        for (index, label) in zip(notes, ["Note", "Tip", "Important", "Warning", "Caution"]) {
            #expect(lines[index + 1] == "P (block)" && lines[index + 2] == "\"\(label)\"", "\(lines[index...])")
            #expect(lines[index + 3] == "P (block)", "\(lines[index...])")
        }
        #expect(lines.contains { $0.hasPrefix("BlockQuote") })
    }

    /// The admonitions of other dialects are alerts: Pandoc's and VitePress's `::: warning`,
    /// Docusaurus's `:::tip Title` and `:::danger[Title]`, VitePress's `::: info Title`,
    /// Quarto's `.callout-important` with its `title`; each its kind's label or its title in its
    /// kind's colour, tagged as a Note. A div of another class stays a div, and a fence whose
    /// word is no admonition's but has words after it stays text, as in Pandoc.
    @Test func admonitionsOfOtherDialectsAreAlerts() throws {
        let markdown = """
            ::: warning
            Pandoc and VitePress.
            :::

            :::tip Pro tip
            Docusaurus with a title.
            :::

            :::danger[Take care]
            Docusaurus 3.
            :::

            ::: info Read this
            VitePress info.
            :::

            ::: {.callout-important title="Quarto says"}
            A callout.
            :::

            ::: aside
            A plain div.
            :::
            """
        let (pdf, report) = try Render.markdown(markdown, name: "conventions-admonitions")
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics)")
        let lines = try structureLines(pdf)
        let notes = lines.indices.filter { lines[$0].hasPrefix("Note") }
        #expect(notes.count == 5, "\(lines)")
        for (index, label) in zip(notes, ["Warning", "Pro tip", "Take care", "Read this", "Quarto says"]) {
            #expect(lines[index + 2] == "\"\(label)\"", "\(lines[index...])")
        }
        #expect(!lines.contains { $0.contains(":::") }, "no fence is printed")
        let content = try PDFProbe.contentStreams(pdf)
        // Warning, tip, caution (danger), note (info), important: each kind's colour.
        for colour: UInt32 in [0x9A6700, 0x1A7F37, 0xCF222E, 0x0969DA, 0x8250DF] {
            #expect(content.contains(fill(colour)), "\(fill(colour))")
        }
        let text = try PDFProbe.text(pdf)
        #expect(text.contains("A plain div.") && !text.contains("Aside"))
        let stray = try Render.markdown("::: aside with words\nText.\n:::\n", name: "conventions-not-admonition")
        #expect(try PDFProbe.text(stray.pdf).contains("::: aside with words"), "no fence: kept as text")
    }

    /// An alert's colour comes from the theme when the theme names one for its kind.
    @Test func alertColourFollowsTheTheme() throws {
        let folder = try Render.scratchFolder("alert-theme")
        let theme = folder + "/alerts.json"
        try ##"{"extends": "default", "colors": {"warning": "#12AB34"}}"##.write(
            toFile: theme, atomically: false, encoding: .utf8)
        var options = RenderOptions()
        options.themeRequest.theme = theme
        let (pdf, _) = try Render.markdown(
            "> [!WARNING]\n> Mind the step.\n", name: "conventions-alert-theme", options: options)
        let content = try PDFProbe.contentStreams(pdf)
        #expect(content.contains(fill(0x12AB34)))
        #expect(!content.contains(fill(0x9A6700)))
    }

    /// `~sub~` sits lower and `^sup^` higher than the text around them, both smaller; `~~x~~`
    /// stays struck through, not lowered.
    @Test func subscriptAndSuperscriptShiftTheBaselineAndShrink() throws {
        let (pdf, report) = try Render.markdown(
            "Base ~low~ base ^high^ base ~~gone~~ base H~2~O.\n", name: "conventions-subsup")
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics)")
        let words = try PDFProbe.words(pdf)
        let base = try #require(words.first { $0.text == "Base" })
        let low = try #require(words.first { $0.text == "low" })
        let high = try #require(words.first { $0.text == "high" })
        let gone = try #require(words.first { $0.text == "gone" })
        #expect(low.height < base.height * 0.9 && high.height < base.height * 0.9, "\(low) \(high) \(base)")
        #expect(low.yMax > base.yMax + 0.5, "subscript lowered: \(low) \(base)")
        #expect(high.yMax < base.yMax - 1, "superscript raised: \(high) \(base)")
        #expect(abs(gone.yMax - base.yMax) < 0.01 && abs(gone.height - base.height) < 0.01)
        #expect(try PDFProbe.text(pdf).contains("H2O"))
    }

    @Test func taskItemsWithNoTextDrawTheirBoxes() throws {
        let (pdf, _) = try Render.markdown("- [x]\n- [ ]\n- [x] done\n", name: "conventions-tasks")
        let text = try PDFProbe.text(pdf)
        #expect(!text.contains("[x]") && !text.contains("[ ]"), "\(text)")
        #expect(text.components(separatedBy: "☑").count == 3 && text.components(separatedBy: "☐").count == 2, "\(text)")
    }

    /// Classes Typeset does not know and front matter other tools read are silent; a class one
    /// edit from a role warns with the role.
    @Test func unknownClassesAndKeysAreSilentButTyposWarn() throws {
        let markdown = """
            ---
            title: Post
            layout: post
            category: news
            permalink: /2024/post/
            tags: [a, b]
            ---

            ::: warning
            A [note]{.note} in a [box]{.sidebar .wide}.
            :::

            ::: {.headlin}
            Misspelt.
            :::
            """
        let (pdf, report) = try Render.markdown(markdown, name: "conventions-silent")
        #expect(report.diagnostics.count == 1, "\(report.diagnostics)")
        #expect(
            report.diagnostics.first?.message == "unknown role '.headlin'; did you mean '.headline'?"
                && report.diagnostics.first?.location?.line == 13, "\(report.diagnostics)")
        #expect(try PDFProbe.text(pdf).contains("A note in a box."))
    }

    /// CSS colour names and CSS px (0.75 pt) in attributes.
    @Test func cssColourNamesAndPixelsAreAccepted() throws {
        let markdown = "[Red]{color=red} [Purple]{color=RebeccaPurple} [Twelve]{size=12pt} [Sixteen]{size=16px}\n"
        let (pdf, report) = try Render.markdown(markdown, name: "conventions-css")
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics)")
        let content = try PDFProbe.contentStreams(pdf)
        #expect(content.contains("1 0 0 rg") && content.contains(fill(0x663399)))
        let words = try PDFProbe.words(pdf)
        let twelve = try #require(words.first { $0.text == "Twelve" })
        let sixteen = try #require(words.first { $0.text == "Sixteen" })
        #expect(abs(twelve.height - sixteen.height) < 0.01, "16px is 12pt: \(twelve) \(sixteen)")
        let (_, refused) = try Render.markdown("[x]{color=reddish}\n", name: "conventions-css-bad")
        #expect(refused.diagnostics.first?.message.contains("a CSS colour name") == true, "\(refused.diagnostics)")
    }

    /// A definition list: the term bold at the text's edge, the definition indented 2 em below
    /// it, tagged as a list whose item's label is the term.
    @Test func definitionListsIndentTheirDefinitionsUnderABoldTerm() throws {
        let (pdf, report) = try Render.markdown(
            "Before.\n\nKerning\n: The space between two glyphs.\n: Also a verb.\n", name: "conventions-dl")
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics)")
        let words = try PDFProbe.words(pdf)
        let before = try #require(words.first { $0.text == "Before." })
        let term = try #require(words.first { $0.text == "Kerning" })
        let definition = try #require(words.first { $0.text == "The" })
        let verb = try #require(words.first { $0.text == "Also" })
        #expect(abs(term.xMin - before.xMin) < 0.01 && definition.yMin > term.yMax, "\(term) \(definition)")
        #expect(abs(definition.xMin - before.xMin - 21) < 0.5, "2 em of 10.5 pt: \(definition)")
        #expect(abs(verb.xMin - definition.xMin) < 0.01 && verb.yMin > definition.yMax)
        #expect(try PDFProbe.fonts(pdf).contains { $0.contains("Inter-Bold") || $0.contains("Inter-SemiBold") })
        let lines = try structureLines(pdf)
        let label = try #require(lines.firstIndex { $0.hasPrefix("Lbl") }, "\(lines)")
        #expect(lines[label + 1] == "\"Kerning\"" && lines[label - 1].hasPrefix("LI"), "\(lines)")
        #expect(lines[label + 2].hasPrefix("LBody") && lines[label - 2].hasPrefix("L "), "\(lines)")
    }

    /// A loose definition: its second paragraph indented as its first, its indented code set in
    /// the monospaced face inside the definition, every word set, the `:` marker gone.
    @Test func looseDefinitionsSetTheirIndentedBlocksInsideTheDefinition() throws {
        let markdown = """
            Before.

            Leading

            :   First paragraph of the definition.

                Second paragraph, indented four spaces.

                    let baseline = 12

            Tracking
            ~ Tilde marker here.
            """
        let (pdf, report) = try Render.markdown(markdown, name: "conventions-dl-loose")
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics)")
        let words = try PDFProbe.words(pdf)
        let before = try #require(words.first { $0.text == "Before." })
        let first = try #require(words.first { $0.text == "First" })
        let second = try #require(words.first { $0.text == "Second" })
        let code = try #require(words.first { $0.text == "baseline" })
        let tilde = try #require(words.first { $0.text == "Tilde" })
        #expect(abs(first.xMin - before.xMin - 21) < 0.5, "2 em of 10.5 pt: \(first)")
        #expect(abs(second.xMin - first.xMin) < 0.01 && second.yMin > first.yMax, "\(first) \(second)")
        #expect(code.xMin > first.xMin && code.yMin > second.yMax, "\(code)")
        #expect(abs(tilde.xMin - first.xMin) < 0.01, "\(tilde)")
        #expect(!words.contains { $0.text.hasPrefix(":") || $0.text == "~" }, "\(words.map(\.text))")
        let expected =
            "Before. Leading First paragraph of the definition. Second paragraph, indented four spaces. "
            + "let baseline = 12 Tracking Tilde marker here."
        // Every word in order, then the folio.
        #expect(words.map(\.text).joined(separator: " ") == expected + " 1")
        let fonts = try PDFProbe.fonts(pdf)
        #expect(fonts.contains { $0.localizedCaseInsensitiveContains("mono") }, "\(fonts)")
        // Monospaced: every letter of the code as wide as every other.
        let keyword = try #require(words.first { $0.text == "let" })
        #expect(abs(code.width / 8 - keyword.width / 3) < 0.05, "\(keyword) \(code)")
    }
}
