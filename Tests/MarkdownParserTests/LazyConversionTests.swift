import DocumentModel
import Foundation
import Testing
@testable import MarkdownParser

/// A parsed document converts its top-level blocks and tables' rows from cmark-gfm's tree as
/// they are read: it must give exactly the blocks, footnotes and diagnostics of converting the
/// whole tree at once (`parse(_:file:lazily: false)`), in any order of reading, on any thread.
@Suite struct LazyConversionTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Documents that exercise what spans top-level nodes: div fences (nested, unclosed, stray,
    /// over the nesting limit), HTML containers across blocks, footnotes, tables, smart
    /// punctuation on and off, front matter, deep nesting.
    static let constructed: [String] = [
        "# Title {#t .x}\n\n::: note\nOne \"quoted\" -- text...\n\n| a | b |\n|---|:-:|\n| 1 | 'two' |\n| 3 | 4 |\n:::\n\nAfter.\n",
        "::: outer\n::: inner\ntext\n:::\nmore\n",  // unclosed outer
        "text\n\n:::\n\nstray close\n\n::: a\n\n::: b\n\nx\n\n:::\n\n:::\n",
        "<div align=\"center\">\n\n# Centered\n\ntext\n\n</div>\n\nafter\n\n<details>\n<summary>S</summary>\n\nhidden\n\n</details>\n",
        "<div>\n\nopen never closed\n\n- item\n",
        "Note[^a] and again[^b] and [^a].\n\n[^a]: First \"note\".\n\n    code in note\n\n[^b]: Second.\n\n| x |\n|---|\n| [^a] |\n",
        "---\nsmart: false\ntitle: T\n---\n\n\"straight\" -- quotes...\n\n| a |\n|---|\n| \"b\" |\n",
        "---\nsmart: maybe\n---\n\ntext\n",
        String(repeating: "> ", count: 80) + "deep\n\n" + String(repeating: "::: d\n", count: 70) + "x\n" + String(repeating: ":::\n", count: 70),
        "\\newpage\n\n```{=latex}\n\\foo\n```\n\n<!-- comment -->\n\n<b>bold</b> and <sup>1</sup>\n\n<script>x</script>\n",
        "- a\n- b\n\n  ::: box\n  inside item\n  :::\n\n1. one\n2. two\n",
        "| h1 | h2 |\n|----|----|\n" + (0..<300).map { "| r\($0) *e* | [l](#t) |\n" }.joined() + "\nend\n",
        "",
        "   \n\n",
    ]

    static func specExamples() -> [String] {
        let path = ProcessInfo.processInfo.environment["TYPESET_COMMONMARK_SPEC"] ?? root.path + "/.build/spec/commonmark.json"
        guard let data = FileManager.default.contents(atPath: path),
              let json = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]] else { return [] }
        return json.compactMap { $0["markdown"] as? String }
    }

    static func fixtures() -> [String] {
        let folders = [root.path + "/templates", root.deletingLastPathComponent().path + "/shared/fixtures/real",
                       root.path + "/Tests/EndToEndTests/Fixtures"]
        var texts: [String] = []
        for folder in folders {
            for name in ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted() where name.hasSuffix(".md") {
                if let text = try? String(contentsOfFile: folder + "/" + name, encoding: .utf8) { texts.append(text) }
            }
        }
        return texts
    }

    /// Lazy and eager parses of `text` agree: blocks (tables' rows included), footnotes,
    /// metadata, diagnostics.
    static func expectSame(_ text: String, _ name: String) {
        let lazy = MarkdownParser.parse(text, file: name, lazily: true)
        let eager = MarkdownParser.parse(text, file: name, lazily: false)
        #expect(Array(lazy.document.blocks) == Array(eager.document.blocks), "\(name)")
        #expect(lazy.document == eager.document, "\(name)")
        #expect(lazy.diagnostics == eager.diagnostics, "\(name): \(lazy.diagnostics) vs \(eager.diagnostics)")
        // Read backwards: every block still the same (segments converted again on demand).
        let backwards = Array(lazy.document.blocks.reversed())
        #expect(backwards == Array(eager.document.blocks.reversed()), "\(name)")
    }

    @Test func specExamplesConvertAlike() {
        let examples = Self.specExamples()
        if ProcessInfo.processInfo.environment["TYPESET_REQUIRE_SPEC"] == "1" { #expect(examples.count > 600) }
        for (i, markdown) in examples.enumerated() { Self.expectSame(markdown, "example-\(i + 1).md") }
    }

    @Test func fixturesAndConstructedDocumentsConvertAlike() {
        let texts = Self.fixtures()
        #expect(texts.count >= 3)
        for (i, text) in (texts + Self.constructed).enumerated() { Self.expectSame(text, "doc-\(i).md") }
    }

    @Test func parsedDocumentsAreLazyAndTablesRowByRow() {
        let r = MarkdownParser.parse(Self.constructed[11], file: "t.md")
        #expect(r.document.blocks.isProvided)
        guard case .table(let table)? = r.document.blocks.first?.kind else { Issue.record("no table"); return }
        #expect(table.rows.isProvided)
        #expect(table.rows.count == 300)
        #expect(table.rows[299].first?.first == .text("r299 "))
    }

    @Test func diagnosticsComeOnceWhateverIsRead() {
        let text = "::: a\ntext\n\n<marquee>x</marquee>\n\n:::\n:::\n\n<marquee>y</marquee>\n"
        let r = MarkdownParser.parse(text, file: "d.md")
        let before = r.diagnostics
        #expect(before.count == 2, "\(before)")  // the stray fence and the one <marquee> warning
        for _ in 0..<2 { _ = Array(r.document.blocks) }
        let again = MarkdownParser.parse(text, file: "d.md")
        #expect(again.diagnostics == before)
    }

    @Test func releasedTreeIsParsedAgainWithTheSameBlocks() {
        let text = "- item\n\n  | a | b |\n  |---|---|\n  | 1 | \"2\" |\n  | 3 | 4 |\n\n" + Self.constructed[11] + Self.constructed[0]
        let eager = MarkdownParser.parse(text, file: "r.md", lazily: false).document
        let lazy = MarkdownParser.parse(text, file: "r.md").document
        // A block (and its lazy table rows) kept from before the release still reads alike after it.
        let kept = lazy.blocks[0]
        guard case .table(let keptTable) = lazy.blocks[1].kind else { Issue.record("no table"); return }
        lazy.releaseSource()
        #expect(kept == eager.blocks[0])
        #expect(Array(keptTable.rows).count == 300)
        guard case .table(let eagerTable) = eager.blocks[1].kind else { Issue.record("no eager table"); return }
        #expect(Array(keptTable.rows) == Array(eagerTable.rows))
        #expect(Array(lazy.blocks) == Array(eager.blocks))
        lazy.releaseSource()
        #expect(Array(lazy.blocks.reversed()) == Array(eager.blocks.reversed()))
    }

    @Test func concurrentReadersGetTheSameBlocks() async {
        let text = Self.fixtures().joined(separator: "\n\n") + Self.constructed[0] + Self.constructed[11]
        let document = MarkdownParser.parse(text, file: "c.md").document
        let expected = MarkdownParser.parse(text, file: "c.md", lazily: false).document
        await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<4 { group.addTask { document == expected } }
            for await same in group { #expect(same) }
        }
    }
}
