import DocumentModel
import Foundation
import MarkdownParser
import Testing
import Typography

@testable import Styling

/// A long list, block quote or div is styled a part at a time (``ContainerFrame``): the blocks
/// are those of the container styled whole, in the same order with the same structure ids and
/// warnings, and the stream hands them out in chunks of about ``StyleStream/partsPerChunk``
/// blocks, so memory holds a chunk of a 100,000-item list, not the list.
@Suite struct LongContainerStreamingTests {
    /// Every chunk `markdown` streams in, with `partsPerChunk`, and the warnings.
    static func chunks(_ markdown: String, partsPerChunk: Int) -> (chunks: [[StyledBlock]], warnings: [String]) {
        let document = MarkdownParser.parse(markdown, file: "t.md").document
        var stream = StyleStream(document, theme: .default, options: StylingOptions(), partsPerChunk: partsPerChunk)
        var chunks: [[StyledBlock]] = []
        while let chunk = stream.next() { chunks.append(chunk) }
        return (chunks, stream.diagnostics.map(\.description))
    }

    /// Items of every shape a marker meets: text, empty, a rule first, code first, a quote
    /// first, a table first, a nested list first and after text, tasks, two paragraphs, an id
    /// alone first, a link to an anchor. (Notes are attached with each chunk, so their structure
    /// ids come earlier: ``notesGoWithTheBlockThatCitesThem()``.)
    static let itemShapes = [
        "- plain item with a [link](#target)",
        "-",
        "- ***\n  after the rule",
        "- ```\n  code first\n  ```",
        "- > quoted first\n  > twice",
        "- | a | b |\n  |---|---|\n  | 1 | 2 |",
        "- - nested first\n  - nested second",
        "- text first\n  - nested after\n  - and more",
        "- [ ] open task",
        "- [x] done task",
        "- <a id=\"target\"></a>\n\n  anchored paragraph",
        "- a [span]{.headlin} with an unknown role",
    ]

    static let documents: [(name: String, markdown: String)] = [
        (
            "bullets",
            (0..<40).map { itemShapes[$0 % itemShapes.count] }.joined(separator: "\n")
        ),
        (
            "ordered, loose",
            (0..<30).map { "\($0 + 7). item \($0)\n\n    second paragraph \($0)" }.joined(separator: "\n\n")
        ),
        (
            "nested long lists",
            (0..<6).map { top in
                "- top \(top)\n" + (0..<25).map { "  - inner \(top).\($0)\n    - deeper" }.joined(separator: "\n")
            }.joined(separator: "\n") + "\n- - first child is a list\n  - " + String(repeating: "x ", count: 3)
        ),
        (
            "quote",
            (0..<30).map { i in
                i % 7 == 0 ? "> ## Heading \(i)" : i % 5 == 0 ? "> - a\n> - b" : "> paragraph \(i)"
            }.joined(separator: "\n>\n") + "\n>\n> > nested\n> >\n> > quote\n>\n> [!NOTE]\n> not an alert here"
        ),
        (
            "div with a role",
            "::: {.caption #box}\n" + (0..<30).map { "para \($0)\n\n- item\n- item" }.joined(separator: "\n\n")
                + "\n:::\n\nAfter [box](#box)."
        ),
        (
            "alert and anchors",
            "> [!WARNING]\n" + (0..<30).map { "> line \($0)" }.joined(separator: "\n>\n")
                + "\n\n" + (0..<30).map { "- item \($0)" }.joined(separator: "\n")
                + "\n- <a id=\"end\"></a>\n\n[end](#end)"
        ),
    ]

    @Test(arguments: documents.map(\.name), [1, 2, 3, 7])
    func partsGiveTheBlocksOfTheWhole(name: String, partsPerChunk: Int) {
        let markdown = Self.documents.first { $0.name == name }!.markdown
        let whole = Self.chunks(markdown, partsPerChunk: .max)
        let parts = Self.chunks(markdown, partsPerChunk: partsPerChunk)
        let wholeBlocks = whole.chunks.flatMap { $0 }
        let partBlocks = parts.chunks.flatMap { $0 }
        #expect(parts.chunks.count > whole.chunks.count, "\(name): streamed in \(parts.chunks.count) chunks")
        #expect(partBlocks.count == wholeBlocks.count, "\(name)")
        for (index, (part, block)) in zip(partBlocks, wholeBlocks).enumerated() where part != block {
            let streamed = Array("\(part)")
            let styledWhole = Array("\(block)")
            let same = zip(streamed, styledWhole).prefix { $0 == $1 }.count
            let from = max(0, same - 80)
            let shown = String(streamed[from..<min(streamed.count, same + 200)])
            let expected = String(styledWhole[from..<min(styledWhole.count, same + 200)])
            Issue.record("\(name), block \(index) differs at character \(same): \(shown) against \(expected)")
            break
        }
        #expect(parts.warnings == whole.warnings, "\(name)")
    }

    /// Each kind of long container is handed out in chunks of about `partsPerChunk` blocks:
    /// never more than a block or two beyond it.
    @Test(arguments: [
        ("list", "- x\n"),
        ("numbered list", "1. x\n"),
        ("task list", "- [ ] x\n"),
        ("quote", "> x\n>\n"),
        ("div", ""),
        ("list in one item", "  - x\n"),
        ("quote in a list item", "  > x\n  >\n"),
    ])
    func chunksStayNearTheirSize(kind: String, part: String) {
        let parts = String(repeating: part, count: 3000)
        let markdown =
            switch kind {
            case "div": "::: note\n" + String(repeating: "x\n\n", count: 3000) + ":::\n"
            case "list in one item", "quote in a list item": "- opening\n\n" + parts
            default: parts
            }
        let streamed = Self.chunks(markdown, partsPerChunk: 50)
        let sizes = streamed.chunks.map(\.count)
        #expect(sizes.reduce(0, +) >= 3000, "\(kind)")
        #expect(sizes.count >= 3000 / 60, "\(kind): \(sizes.count) chunks")
        #expect(sizes.max()! <= 52, "\(kind): largest chunk \(sizes.max()!) blocks")
    }

    /// An id written at the very end of a list, quote or div names the container's last block,
    /// whether the container is styled whole or a part at a time; one before it, its first.
    @Test(arguments: [Int.max, 1])
    func idsAtAContainersEdgesNameItsEdgeBlocks(partsPerChunk: Int) {
        let containers = [
            "<a id=\"start\"></a>\n\n- a\n- b\n\n  <a id=\"end\"></a>\n",
            "<a id=\"start\"></a>\n\n> a\n>\n> b\n>\n> <a id=\"end\"></a>\n",
            "<a id=\"start\"></a>\n\n::: box\na\n\nb\n\n<a id=\"end\"></a>\n:::\n",
        ]
        for markdown in containers {
            let blocks = Self.chunks(markdown + "\nafter\n", partsPerChunk: partsPerChunk).chunks.flatMap { $0 }
            #expect(blocks.map(\.anchor) == ["start", "end", nil], "\(markdown)")
        }
    }

    /// Each note cited in a long list is attached to the block that cites it, as when the list
    /// is styled whole, with the same text.
    @Test func notesGoWithTheBlockThatCitesThem() {
        let markdown =
            (0..<60).map { $0 % 4 == 0 ? "- cited[^n\($0)] here" : "- item \($0)" }.joined(separator: "\n") + "\n\n"
            + (0..<60).filter { $0 % 4 == 0 }.map { "[^n\($0)]: Note \($0) cites[^m\($0)].\n\n[^m\($0)]: Inner." }
            .joined(separator: "\n\n")
        func notes(_ blocks: [StyledBlock]) -> [String] {
            blocks.enumerated().flatMap { index, block in
                block.footnotes.sorted { $0.key < $1.key }.map { number, note in
                    let text = note.flatMap(\.paragraphs).map(\.text)
                    return "block \(index): note \(number): " + text.joined(separator: " / ")
                }
            }
        }
        let whole = notes(Self.chunks(markdown, partsPerChunk: .max).chunks.flatMap { $0 })
        let parts = notes(Self.chunks(markdown, partsPerChunk: 3).chunks.flatMap { $0 })
        #expect(whole.count == 30)
        #expect(parts == whole)
    }

    /// A note cited in two chunks of one long list is set once, with the first chunk that cites it.
    @Test func aNoteCitedInTwoChunksIsSetOnce() {
        let markdown =
            "- first[^n]\n" + String(repeating: "- filler\n", count: 200) + "- again[^n]\n\n[^n]: The note."
        let streamed = Self.chunks(markdown, partsPerChunk: 20)
        let holders = streamed.chunks.flatMap { $0 }.filter { !$0.footnotes.isEmpty }
        #expect(holders.count == 1)
        #expect(holders.first?.footnotes.keys.sorted() == [1])
        #expect(streamed.chunks.first.map { $0.contains { !$0.footnotes.isEmpty } } == true)
    }
}
