import DocumentModel
import Foundation
import Testing

@testable import MarkdownParser

@Suite struct FixtureTests {
    /// `../shared/fixtures/real/` beside the package root: documents written by other people.
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/fixtures/real")

    @Test func largeDocumentParses() {
        let section =
            "## 제목 {#s .x}\n\nText with [span]{.a k=v} and *em* and `code`.\n\n- [x] one\n- two\n\n| a | b "
            + "|\n|---|:-:|\n| 1 | 2 |\n\n::: note\nBody.\n:::\n\n"
        let text = String(repeating: section, count: 5000)
        let r = MarkdownParser.parse(text, file: "big.md")
        #expect(r.document.blocks.count == 5 * 5000)
        #expect(r.diagnostics.isEmpty)
    }

    @Test func realDocumentsParse() throws {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: Self.folder.path)) ?? []
        for name in names where name.hasSuffix(".md") && name != "SOURCES.md" {
            let text = try String(contentsOf: Self.folder.appendingPathComponent(name), encoding: .utf8)
            let r = MarkdownParser.parse(text, file: name)
            #expect(!r.document.blocks.isEmpty, "\(name)")
            #expect(r.document.blocks.allSatisfy { $0.location != nil }, "\(name)")
            #expect(r.diagnostics.isEmpty, "\(r.diagnostics)")
        }
    }
}

/// cmark-gfm's inline special characters are process-wide: parsing on many threads at once must
/// still see every extension's syntax.
@Suite struct ConcurrentParseTests {
    @Test func parallelParsesKeepStrikethrough() {
        final class Count: @unchecked Sendable {
            let lock = NSLock()
            var misses = 0
            func miss() {
                lock.lock()
                misses += 1
                lock.unlock()
            }
        }
        let count = Count()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<40 {
                let blocks = MarkdownParser.parse("a ~~struck~~ b\n", file: "t.md").document.blocks
                guard case .paragraph(let inlines)? = blocks.first?.kind,
                    inlines.contains(where: { if case .strikethrough = $0 { return true } else { return false } })
                else {
                    count.miss()
                    continue
                }
            }
        }
        #expect(count.misses == 0)
    }
}
