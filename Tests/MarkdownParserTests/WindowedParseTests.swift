import DocumentModel
import Foundation
import Testing

@testable import MarkdownParser

/// A parsed document holds its text, not its blocks: each read parses the text again one
/// window of top-level segments at a time (``SourceWindows``). It must give exactly the
/// blocks, footnotes and diagnostics of converting the whole tree at once
/// (`parse(_:file:lazily: false)`), with windows of one segment (every boundary a window
/// boundary) and of the default size, read forwards and backwards, on any thread.
@Suite struct WindowedParseTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Documents that exercise what spans top-level nodes or windows: div fences (nested,
    /// unclosed, stray, over the nesting limit, spanning many blocks), HTML containers across
    /// blocks, footnotes defined before and after use and holding code, link reference
    /// definitions at the end and inside a quote or list, inline notes, tables, smart punctuation on and off,
    /// front matter, deep nesting, line endings.
    static let constructed: [String] = [
        "# Title {#t .x}\n\n::: note\nOne \"quoted\" -- text...\n\n| a | b |\n|---|:-:|\n| 1 | 'two' |\n| 3 | 4 "
            + "|\n:::\n\nAfter.\n",
        "::: outer\n::: inner\ntext\n:::\nmore\n",  // unclosed outer
        "text\n\n:::\n\nstray close\n\n::: a\n\n::: b\n\nx\n\n:::\n\n:::\n",
        "<div align=\"center\">\n\n# "
            + "Centered\n\ntext\n\n</div>\n\nafter\n\n<details>\n<summary>S</summary>\n\nhidden\n\n</details>\n",
        "<div>\n\nopen never closed\n\n- item\n",
        "Note[^a] and again[^b] and [^a].\n\n[^a]: First \"note\".\n\n    code in note\n\n[^b]: Second.\n\n| x "
            + "|\n|---|\n| [^a] |\n",
        "[^early]: Defined before use.\n\n    indented code after a note\n\nUse[^early] then[^late].\n\n[^late]: "
            + "Defined after.\n\n    code\n",
        "See [one][] and [two] and [three][x].\n\n> quote\n\n[one]: /one \"One\"\n\n- item\n\n  [two]: </two>\n\n> "
            + "[x]: /three\n> more quote\n",
        "[ref]: /at-start\n\n[ref] here.\n\n[ref]: /duplicate-ignored\n\n    indented code\n",
        "Para [a]: not a definition.\n\n[a]\n\n[a]: /later\n",
        "---\nsmart: false\ntitle: T\n---\n\n\"straight\" -- quotes...\n\n| a |\n|---|\n| \"b\" |\n",
        "---\nsmart: maybe\n---\n\ntext\n",
        String(repeating: "> ", count: 80) + "deep\n\n" + String(repeating: "::: d\n", count: 70) + "x\n"
            + String(repeating: ":::\n", count: 70),
        "\\newpage\n\n```{=latex}\n\\foo\n```\n\n<!-- comment -->\n\n<b>bold</b> and "
            + "<sup>1</sup>\n\n<script>x</script>\n",
        "- a\n- b\n\n  ::: box\n  inside item\n  :::\n\n1. one\n2. two\n",
        "::: wide\n"
            + (0..<40).map { "## Part \($0)\n\nText of part \($0) with *emphasis*.\n\n<div>\n\nraw \($0)\n\n</div>\n" }
            .joined() + ":::\n\nafter the div\n",
        "| h1 | h2 |\n|----|----|\n" + (0..<300).map { "| r\($0) *e* | [l](#t) |\n" }.joined() + "\nend\n",
        "Lines\r\nwith CR LF\r\n\r\n# Heading\r\n\r\n- item\r\n",
        "Lone\rcarriage\rreturns\r\r# Heading\r\rtext\n\nand [^n]\n\n[^n]: note\n",
        "```\nunclosed fence\n\n# not a heading\n",
        "<!--\nunclosed comment\n\n# not a heading\n",
        "",
        "   \n\n",
        "Inline^[note *one* [x](#t)] and[^a] then^[two ^[nested]].\n\n" + String(repeating: "filler\n\n", count: 20)
            + "Last^[three] and[^a].\n\n[^a]: Written.\n",
    ]

    /// Div fences whose decision turns on the block structure around them, far apart so that
    /// chunks of the text end between them: a fence continuing a paragraph (text), one after a
    /// fence accepted (a block then starts), fences in fenced code and in an HTML block spanning
    /// many lines, in a quote and a list item, unclosed and stray.
    static let fences: [String] = {
        let filler = (0..<60).map { "Filler paragraph \($0) with *some* words." }.joined(separator: "\n\n")
        return [
            "Para\n::: continues\n:::\n\n" + filler + "\n\n::: {.caption}\nA caption.\n:::\n",
            "::: a\n::: b\ntext\n:::\n:::\n\n" + filler + "\n\nlast\n::: x\n::: y\ny\n:::\n:::\n",
            "```\n" + (0..<200).map { "::: in code \($0)\n:::" }.joined(separator: "\n") + "\n```\n\n" + filler
                + "\n\n::: real\nbody\n:::\n",
            "<div>\n" + (0..<100).map { "::: html \($0)\n" }.joined() + "</div>\n\n" + filler
                + "\n\n::: after\nok\n:::\n",
            "> ::: quoted\n> in quote\n> :::\n\n" + filler + "\n\n- item\n\n  ::: listed\n  in item\n  :::\n\n" + filler
                + "\n\n::: open only\n",
            filler + "\n:::\n\n::: {.note}\n" + filler + "\n:::\n\n" + filler + "\n::: late\ntext\n:::\n",
        ]
    }()

    /// Notes far apart, so that windows end between references and definitions: defined after
    /// use and before, at the end, inside a quote and a list item, holding code, a list and raw
    /// HTML, cited from a table, a heading and a div, cited twice and in another case, uncited,
    /// defined twice, a label with spaces.
    static let notes: [String] = {
        let filler = (0..<50).map { "Filler paragraph \($0) with *some* words." }.joined(separator: "\n\n")
        return [
            "First[^a] then[^b].\n\n" + filler
                + "\n\nAgain[^A] and [^b].\n\n[^a]: Note a.\n\n    code in a\n\n[^b]: Note b with <b>bold</b>.\n",
            "[^early]: Early note.\n\n" + filler + "\n\nUse[^early].\n\n" + filler
                + "\n\n| t |\n|---|\n| cell[^t] |\n\n[^t]: Table note.\n",
            "# Heading[^h]\n\n" + filler
                + "\n\n::: note\nIn a div[^d].\n:::\n\n> [^h]: Quoted heading note.\n\n- item\n\n  [^d]: Listed div "
                + "note.\n",
            "One[^x].\n\n[^x]: First x.\n\n" + filler
                + "\n\n[^x]: Second x.\n\n[^unused]: Never cited.\n\n[^my label]: Spaced.\n\nSpaced[^My  Label].\n",
            (0..<200).map {
                "Paragraph \($0) cites[^n\($0)].\n\n[^n\($0)]: Note \($0) with `code` and a list:\n\n    - one\n    - "
                    + "two\n"
            }.joined(separator: "\n"),
        ]
    }()

    /// A note citing another, one cited only by itself, one whose only citation is in an uncited
    /// note: numbered by where definitions stand in the whole text, so the whole text decides.
    @Test func notesCitingNotesAreNumberedOnTheWholeText() {
        for text in [
            "A[^1] b[^2].\n\n[^1]: Cites[^3].\n\n[^2]: Two.\n\n[^3]: Three.\n",
            "A[^1].\n\n" + String(repeating: "filler\n\n", count: 50) + "[^1]: One[^2].\n\n[^2]: Two.\n",
            "Body.\n\n[^1]: Cited only by itself.[^1]\n", "[^1]: Uncited, citing[^2].\n\n[^2]: Two.\n",
        ] {
            var diagnostics: [Diagnostic] = []
            var source = SourceText(text, file: "n.md")
            #expect(
                MarkdownParser.windowedScan(
                    &source, file: "n.md", metadata: Metadata(), windowBytes: 0, diagnostics: &diagnostics) == nil)
            Self.expectSame(text, "n.md")
        }
    }

    /// A paragraph whose last line is a table's header row: cmark-gfm makes a table of that
    /// line on and splits the lines above it off as a paragraph without a source position; at
    /// the top level, in a div, a quote and a list item, once and many times over, far apart.
    static let splitParagraphs: [String] = {
        let filler = (0..<40).map { "Filler paragraph \($0) with *some* words." }.joined(separator: "\n\n")
        let table = "| a | b |\n|---|---|\n| 1 | 2 |\n"
        return [
            "Lines above\n" + table,
            "First line above\nsecond line above\n" + table + "\n" + filler + "\n\nMore above\n" + table + "\nafter\n",
            (0..<60).map { "Paragraph \($0) runs into\n" + table }.joined(separator: "\n"),
            "::: note\nInside a div\n" + table + ":::\n\n" + filler + "\n",
            "> Quoted above\n> " + table.replacingOccurrences(of: "\n|", with: "\n> |") + "\n" + filler
                + "\n\n- Listed above\n  " + table.replacingOccurrences(of: "\n|", with: "\n  |"),
        ]
    }()

    static func specExamples() -> [String] {
        let path =
            ProcessInfo.processInfo.environment["TYPESET_COMMONMARK_SPEC"] ?? root.path + "/.build/spec/commonmark.json"
        guard let data = FileManager.default.contents(atPath: path),
            let json = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]]
        else { return [] }
        return json.compactMap { $0["markdown"] as? String }
    }

    static func fixtures() -> [String] {
        let folders = [
            root.path + "/templates", root.deletingLastPathComponent().path + "/shared/fixtures/real",
            root.path + "/Tests/EndToEndTests/Fixtures",
        ]
        var texts: [String] = []
        for folder in folders {
            for name in ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
            where name.hasSuffix(".md") {
                if let text = try? String(contentsOfFile: folder + "/" + name, encoding: .utf8) { texts.append(text) }
            }
        }
        return texts
    }

    static func windows(_ document: Document) -> SourceWindows? { document.blocks.provider as? SourceWindows }

    /// Windowed (one segment a window, and the default size) and eager parses of `text` agree:
    /// blocks, footnotes, metadata, diagnostics. Returns how many windows had to be made from
    /// a whole-document parse.
    @discardableResult
    static func expectSame(_ text: String, _ name: String) -> Int {
        let eager = MarkdownParser.parse(text, file: name, lazily: false)
        var fallbacks = 0
        for size in [0, MarkdownParser.windowBytes] {
            let lazy = MarkdownParser.parse(text, file: name, lazily: true, windowBytes: size)
            #expect(Array(lazy.document.blocks) == Array(eager.document.blocks), "\(name) window \(size)")
            #expect(lazy.document == eager.document, "\(name)")
            #expect(lazy.diagnostics == eager.diagnostics, "\(name): \(lazy.diagnostics) vs \(eager.diagnostics)")
            // Read backwards: every window made again.
            #expect(Array(lazy.document.blocks.reversed()) == Array(eager.document.blocks.reversed()), "\(name)")
            if size == 0 { fallbacks = windows(lazy.document)?.wholeDocumentParses ?? 0 }
        }
        return fallbacks
    }

    @Test func specExamplesConvertAlike() {
        let examples = Self.specExamples()
        if ProcessInfo.processInfo.environment["TYPESET_REQUIRE_SPEC"] == "1" { #expect(examples.count > 600) }
        var fallbacks = 0
        for (i, markdown) in examples.enumerated() { fallbacks += Self.expectSame(markdown, "example-\(i + 1).md") }
        // Windows parse on their own: a whole-document parse is the rare exception.
        #expect(fallbacks * 20 < max(examples.count, 1), "\(fallbacks) whole-document parses")
    }

    @Test func fixturesAndConstructedDocumentsConvertAlike() {
        let texts = Self.fixtures()
        #expect(texts.count >= 3)
        for (i, text) in (texts + Self.constructed + Self.fences + Self.splitParagraphs + Self.notes).enumerated() {
            let fallbacks = Self.expectSame(text, "doc-\(i).md")
            // Only lone carriage returns (cmark-gfm counts other lines) and the specimen template
            // (its setext headings of template comments) need the whole document.
            if !text.contains("\rc") { #expect(fallbacks == 0, "doc-\(i): \(fallbacks) whole-document parses") }
        }
    }

    @Test func parsedDocumentsHoldWindowsNotBlocks() {
        // (Smart punctuation off: its transform would wrap the windows.)
        let text =
            "---\nsmart: false\n---\n\n"
            + (0..<2_000).map { "## Heading \($0)\n\nA paragraph with *emphasis* and `code` number \($0).\n" }.joined(
                separator: "\n")
        let r = MarkdownParser.parse(text, file: "w.md")
        #expect(r.document.blocks.isProvided)
        #expect(r.document.blocks.count == 4_000)
        let windows = Self.windows(r.document)
        #expect((windows?.windowCount ?? 0) >= 1)
        let small = Self.windows(MarkdownParser.parse(text, file: "w.md", lazily: true, windowBytes: 4_096).document)
        #expect((small?.windowCount ?? 0) > 20, "\(small?.windowCount ?? 0) windows of 4 KB")
        guard case .heading(_, let inlines) = r.document.blocks[3_998].kind else {
            Issue.record("no heading")
            return
        }
        #expect(inlines == [.text("Heading 1999")])
        #expect(r.document.blocks[3_999].location == SourceLocation(file: "w.md", line: 8_003, column: 1))
    }

    /// Text is scanned without cmark-gfm's tree of the whole text — chunks find the top-level
    /// nodes and decide the div fences, windows convert them (one node a window here), one parse
    /// of the definitions converts the notes — unless a note cites another.
    @Test func textIsScannedInWindows() {
        let texts =
            Self.fixtures().filter { !$0.contains("Typeset type specimen template") }
            + [0, 1, 2, 5, 6, 7, 8, 9, 12, 13, 14, 15, 16, 17, 19, 20, 23].map { Self.constructed[$0] } + Self.fences
            + Self.notes
            + [(0..<300).map { "## H\($0)\n\ntext \($0) [r]\n" }.joined(separator: "\n") + "\n[r]: /end\n"]
        #expect(texts.count >= 20)
        #expect(texts.filter { $0.contains(":::") }.count >= 10)
        #expect(texts.filter { $0.contains("[^") }.count >= 8)
        for (i, text) in texts.enumerated() {
            var diagnostics: [Diagnostic] = []
            var source = SourceText(text, file: "s.md")
            let windowed = MarkdownParser.windowedScan(
                &source, file: "s.md", metadata: Metadata(), windowBytes: 0, diagnostics: &diagnostics)
            #expect(windowed != nil, "text \(i) was scanned whole")
        }
    }

    /// The lines above a table's header row in the same paragraph are kept: cmark-gfm gives the
    /// paragraph it splits off no position, and the windowed scan, matching nodes by line, once
    /// dropped it with its text (`Lines above` then a table lost `Lines above`).
    @Test func linesAboveATableHeaderAreKept() {
        for (i, text) in Self.splitParagraphs.enumerated() {
            for size in [0, 64, MarkdownParser.windowBytes] {
                let document = MarkdownParser.parse(text, file: "t.md", lazily: true, windowBytes: size).document
                var words: [String] = []
                func visit(_ blocks: [Block]) {
                    for block in blocks {
                        switch block.kind {
                        case .paragraph(let inlines):
                            words += inlines.compactMap { if case .text(let t) = $0 { return t } else { return nil } }
                        case .div(let children), .blockQuote(let children), .alert(_, let children): visit(children)
                        case .list(let list): for item in list.items { visit(item.blocks) }
                        case .definitionList(let items):
                            for item in items {
                                visit([Block(.paragraph(item.term))])
                                visit(Array(item.definitions.joined()))
                            }
                        default: break
                        }
                    }
                }
                visit(Array(document.blocks))
                let joined = words.joined(separator: " ")
                for above in [
                    "Lines above", "First line above", "second line above", "More above", "Paragraph 59 runs into",
                    "Inside a div", "Quoted above", "Listed above",
                ]
                where text.contains(above) {
                    #expect(joined.contains(above), "text \(i), windows of \(size) bytes: '\(above)' lost")
                }
            }
        }
    }

    /// A segment longer than ``SourceWindows/heldSegmentBytes`` (a 12,000-row table) keeps the
    /// scan's blocks instead of being parsed again during layout; the blocks are the same.
    @Test func longSegmentsKeepTheScansBlocks() {
        let table = "| a | b |\n|---|--:|\n" + (0..<12_000).map { "| row \($0) *e* | \($0) |\n" }.joined()
        let text = "---\nsmart: false\n---\n\n# Before\n\n" + table + "\nafter\n\n::: note\ninside\n:::\n"
        #expect(table.utf8.count > SourceWindows.heldSegmentBytes)
        for size in [0, MarkdownParser.windowBytes] {
            let lazy = MarkdownParser.parse(text, file: "h.md", lazily: true, windowBytes: size)
            let eager = MarkdownParser.parse(text, file: "h.md", lazily: false)
            #expect(Array(lazy.document.blocks) == Array(eager.document.blocks))
            #expect(lazy.diagnostics == eager.diagnostics)
            #expect(Self.windows(lazy.document)?.heldWindowCount == 1)
        }
        let plain = MarkdownParser.parse("# Before\n\n" + table, file: "p.md", lazily: true, windowBytes: 0)
        #expect(Self.windows(plain.document)?.heldWindowCount == 1)
        #expect(
            Array(plain.document.blocks)
                == Array(MarkdownParser.parse("# Before\n\n" + table, file: "p.md", lazily: false).document.blocks))
    }

    @Test func diagnosticsComeOnceWhateverIsRead() {
        let text = "::: a\ntext\n\n<marquee>x</marquee>\n\n:::\n:::\n\n<marquee>y</marquee>\n"
        let r = MarkdownParser.parse(text, file: "d.md", lazily: true, windowBytes: 0)
        let before = r.diagnostics
        #expect(before.count == 2, "\(before)")  // the stray fence and the one <marquee> warning
        for _ in 0..<2 { _ = Array(r.document.blocks) }
        let again = MarkdownParser.parse(text, file: "d.md")
        #expect(again.diagnostics == before)
    }

    @Test func releasedWindowIsMadeAgainAlike() {
        let text = Self.constructed[0] + Self.constructed[16] + Self.constructed[5]
        let eager = MarkdownParser.parse(text, file: "r.md", lazily: false).document
        let lazy = MarkdownParser.parse(text, file: "r.md", lazily: true, windowBytes: 0).document
        let kept = lazy.blocks[0]
        lazy.releaseSource()
        #expect(kept == eager.blocks[0])
        #expect(Array(lazy.blocks) == Array(eager.blocks))
        lazy.releaseSource()
        #expect(Array(lazy.blocks.reversed()) == Array(eager.blocks.reversed()))
    }

    @Test func concurrentReadersGetTheSameBlocks() async {
        let text = Self.fixtures().joined(separator: "\n\n") + Self.constructed[0] + Self.constructed[16]
        let document = MarkdownParser.parse(text, file: "c.md", lazily: true, windowBytes: 2_048).document
        let expected = MarkdownParser.parse(text, file: "c.md", lazily: false).document
        await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<4 { group.addTask { document == expected } }
            for await same in group { #expect(same) }
        }
    }
}
