import DocumentModel
import Testing

@testable import MarkdownParser

/// A reference link whose label no definition names (`[text][label]`, `[label][]`) is set as
/// text, as cmark-gfm leaves it, and warned about where its `[` is written, once, in the whole
/// and the windowed parse; what is not a reference link is not.
@Suite struct UnresolvedReferenceTests {
    @Test(arguments: [false, true])
    func anUndefinedLabelIsWarnedAboutWhereItIsWritten(lazily: Bool) {
        let text = """
            See [text][nope], [collapsed][] and [ok][r].

            - item [deep *em*][missing]

            | h |
            |---|
            | [cell][gone] |

            Not links: a[i][j], x2[0][1], [shortcut], \\[escaped][x], [t][^n], `[code][y]`, [a][b](c).

            [r]: https://example.com/r
            """
        let parsed = MarkdownParser.parse(text, file: "r.md", lazily: lazily, windowBytes: 0)
        let warnings = parsed.diagnostics.filter { $0.message.hasPrefix("reference link") }
        let found = warnings.map { "\($0.location?.line ?? 0):\($0.location?.column ?? 0) \($0.kind.rawValue)" }
        #expect(found == ["1:5 link", "1:19 link", "3:8 link", "7:3 link"], "\(warnings)")
        #expect(warnings.first?.message.contains("'[text][nope]'") == true, "\(warnings)")
        #expect(warnings.contains { $0.message.contains("'[deep em][missing]'") }, "\(warnings)")
        let words = parsed.document.blocks.map { InlineNoteTests.inlines(of: $0).map(\.plainText).joined() }
        #expect(words.first == "See [text][nope], [collapsed][] and ok.", "\(words)")
    }
}
