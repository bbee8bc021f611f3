import DocumentModel
import Foundation
import MarkdownParser
import Styling
import TestSupport
import Testing
import Typography

@testable import Typesetter

/// The document streams into layout (a survey pass, then each layout pass styles it again
/// block by block on a producer thread): the blocks laid out, the PDF bytes and the warnings
/// are those of the whole-document path, `--strict` still writes nothing, and peak memory does
/// not grow with the document's length.
@Suite(.serialized) struct StreamingTests {
    static let fixed = Date(timeIntervalSince1970: 1_700_000_000)

    /// Documents with what needs the whole document before layout: a front-matter title block,
    /// an opening title heading, a table of contents, footnotes, forward links, links matched
    /// the GitHub way and links to nothing, warning-bearing blocks (an unknown role, a missing
    /// image, text too large, a family not installed), lists, quotes, a table, code.
    static let documents: [(name: String, markdown: String)] = [
        (
            "front-matter",
            """
            ---
            title: The Streamed Book
            subtitle: Every block once
            author: A. Writer
            date: 2026-11-30
            ---
            Read [the second part](#second-part) first, or [this](#Second%20Part), or [nothing](#nowhere).[^a]

            # First part

            Text with a [span]{.headlin} and a note.[^b]

            ![missing](no-such-image.png)

            ## Second part

            - one [back](#first-part)
            - two
              > quoted [far](#last)

            | a | b |
            |---|---|
            | 1 | [x](#first-part) |

            ```
            code block
            ```

            Big [W]{size=900} and [odd]{family="No Such Family"}.

            ### Last {#last}

            End.[^a]

            [^a]: Note A, [to the top](#first-part).
            [^b]: Note B.
            """
        ),
        (
            "opening-heading",
            """
            # Opening Title

            Intro paragraph.

            ## Section one

            Body 1.[^n]

            ## Section two

            Body 2, see [one](#section-one).

            [^n]: A note.
            """
        ),
        ("no-headings", "Just a paragraph.[^x]\n\nAnother.\n\n[^x]: The note.\n"),
        ("empty", ""),
    ]

    /// The blocks the streamed passes lay out are exactly those of the whole styled document
    /// with the title block and contents inserted, and the survey's warnings are the whole
    /// document's.
    @Test(arguments: [false, true])
    func streamedBlocksEqualTheWholeDocument(threaded: Bool) throws {
        let theme = Theme.default
        for (name, markdown) in Self.documents {
            let document = MarkdownParser.parse(markdown, file: "\(name).md").document
            let styling = StylingOptions()
            // The whole-document path.
            let styled = Styler.style(document, theme: theme, options: styling)
            // Each block made to fit the page, as the streamed passes do.
            var fitted = styled.blocks
            for i in fitted.indices { _ = SizeCheck.fit(&fitted[i], page: theme.page) }
            let titleBlock = TitleBlock(
                theme: theme, metadata: document.metadata, conventions: FrontMatterText.Conventions(document.metadata),
                blocks: fitted, styling: styling)
            let body = titleBlock.inserted(into: fitted)
            let contents = TableOfContents(
                theme: theme, blocks: body, language: nil,
                insertionIndex: titleBlock.insertionIndex + titleBlock.blocks.count,
                titleIndex: titleBlock.titleHeadingIndex)
            let pages = Dictionary(
                uniqueKeysWithValues: contents.entries.enumerated().map { ($0.element.anchor, $0.offset + 2) })
            let whole = contents.inserted(into: body, pages: pages)
            // The streamed path.
            let survey = DocumentSurvey(document, theme: theme, options: styling, threaded: threaded)
            #expect(survey.firstOutline == fitted.first?.outline, "\(name)")
            let streamedTitle = TitleBlock(
                theme: theme, metadata: document.metadata, conventions: FrontMatterText.Conventions(document.metadata),
                firstOutline: survey.firstOutline, openingIndex: survey.openingIndex, styling: styling)
            let streamedContents = TableOfContents(
                theme: theme, entries: survey.contentsEntries(excluding: streamedTitle.titleHeadingIndex),
                language: nil, insertionIndex: 0)
            let source = LayoutBlocks(
                stream: StyleStream(document, theme: theme, options: styling), links: survey.links, page: theme.page,
                front: streamedTitle.blocks + streamedContents.blocks(pages: pages),
                insertionIndex: streamedTitle.insertionIndex)
            var streamed: [StyledBlock] = []
            var chunks = 0
            _ = try StyledBlockPipe.forEach(source, threaded: threaded) {
                streamed += $0
                chunks += 1
            }
            // Without a table of contents the survey keeps no headings (their styled text would
            // stay until the file is finished), and knows the same of everything else.
            let unlisted = DocumentSurvey(
                document, theme: theme, options: styling, threaded: threaded, listsHeadings: false)
            #expect(unlisted.headings.isEmpty)
            #expect(
                unlisted.firstHeading == survey.firstHeading && unlisted.firstOutline == survey.firstOutline, "\(name)")
            #expect(unlisted.stylingDiagnostics == survey.stylingDiagnostics, "\(name)")
            #expect(streamed.count == whole.count, "\(name)")
            #expect(
                streamed == whole,
                """
                \(name): first difference at \
                \(zip(streamed, whole).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? -1)
                """
            )
            #expect(survey.stylingDiagnostics == styled.diagnostics, "\(name)")
            #expect(survey.firstHeading == styled.firstHeading)
            #expect(chunks >= document.blocks.count, "one chunk per top-level block")
        }
        // The cases the documents are there for really happen.
        let first = MarkdownParser.parse(Self.documents[0].markdown, file: "f.md").document
        let styled = Styler.style(first, theme: theme, options: StylingOptions())
        #expect(styled.diagnostics.contains { $0.message.contains("'#nowhere'") })
        #expect(!styled.diagnostics.contains { $0.message.contains("'#Second%20Part'") }, "matched as GitHub does")
        #expect(styled.blocks.contains { !$0.footnotes.isEmpty })
    }

    /// Styling on the producer thread gives the same PDF bytes and the same warnings as styling
    /// in line, with a contents, `{pages}`, a running head, a title block, footnotes and
    /// warnings, tagged and untagged.
    @Test(arguments: [true, false])
    func threadedOutputIsByteIdentical(tagged: Bool) throws {
        for (name, markdown) in Self.documents {
            var options = RenderOptions(
                creationDate: Self.fixed, header: "{title}", footer: "{page} of {pages}", tableOfContents: true)
            options.tagged = tagged
            let parsed = MarkdownParser.parse(markdown, file: "\(name).md")
            let outputs = try Render.onOneThreadAndMore(parsed, options: options, name: "stream-\(name)-\(tagged)")
            #expect(outputs[0].0 == outputs[1].0, "\(name): PDF bytes differ")
            #expect(outputs[0].1 == outputs[1].1, "\(name): diagnostics differ")
        }
    }

    /// Warnings come out in source order whichever check found them (styling, links, fonts,
    /// images, sizes), those without a position last.
    @Test func diagnosticsKeepTheirOrder() throws {
        let (_, report) = try Render.markdown(
            Self.documents[0].markdown, name: "stream-order",
            options: RenderOptions(creationDate: Self.fixed))
        let positioned = report.diagnostics.map { ($0.location?.line ?? Int.max, $0.message) }
        #expect(positioned.map(\.0) == positioned.map(\.0).sorted(), "\(positioned)")
        let image = try #require(positioned.firstIndex { $0.1.contains("no-such-image.png") })
        let size = try #require(positioned.firstIndex { $0.1.contains("too large for the text area") })
        #expect(positioned[image].0 == 13 && positioned[size].0 == 29, "\(positioned)")
        for expected in ["'#nowhere'", "headlin", "No Such Family"] {
            #expect(positioned.contains { $0.1.contains(expected) }, "\(expected) in \(positioned)")
        }
    }

    /// `--strict` fails on a warning the last block of a long document holds, and on one only
    /// layout finds, with nothing written: no PDF, no temporary file, the old file kept.
    @Test func strictWritesNothing() throws {
        let folder = Render.folder + "/stream-strict"
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let long = (1...400).map { "Paragraph \($0) of a long document, set and released." }.joined(separator: "\n\n")
        for (last, kind) in [("A [span]{.headlin}.", "styling"), (String(repeating: "x", count: 3_000), "layout")] {
            let path = folder + "/out.pdf"
            try "old".write(toFile: path, atomically: false, encoding: .utf8)
            #expect(throws: TypesetError.self, "\(kind)") {
                _ = try Typesetter.render(
                    markdown: long + "\n\n" + last, file: "strict.md", to: path, options: RenderOptions(strict: true))
            }
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "old", "\(kind)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["out.pdf"], "\(kind)")
        }
    }

    /// Peak memory is flat in the document's length: rendering three times the text (about
    /// 120 pages against 40) peaks little higher than the shorter one (streamed: 35.5 → 36.6
    /// MiB, ×1.03; with the whole styled document held, about ×1.34). Measured on the command
    /// line in a child process (``Render/peak(_:name:options:tagged:)``), untagged so that only
    /// the streaming is measured.
    @Test(.slow) func peakMemoryIsFlatInLength() throws {
        var generator = SeededWords(seed: 15)
        let chapter = (1...12).map { section in
            "## Section \(section)\n\n" + (1...5).map { _ in generator.paragraph() }.joined(separator: "\n\n")
        }.joined(separator: "\n\n")
        var peaks: [Double] = []
        var pdf = ""
        for copies in [1, 3] {
            let text = (1...(copies * 4)).map { "# Chapter \($0)\n\n" + chapter }.joined(separator: "\n\n")
            let peak = try Render.peak(text, name: "stream-\(copies)")
            peaks.append(peak.mebibytes)
            pdf = peak.pdf
        }
        let pages = try PDFProbe.info(pdf)["Pages"].flatMap { Int($0) } ?? 0
        #expect(pages >= 90, "\(pages) pages")
        #expect(peaks[1] < 1.2 * peaks[0], "peak RSS \(peaks[0]) MiB for ×1, \(peaks[1]) MiB for ×3")
    }
}
