import DocumentModel
import Testing

@testable import MarkdownParser

/// A link reference whose long address would be copied into more links than fit in 16 MiB
/// (cmark-gfm copies a reference's address into each link it resolves: 65,000 bytes used
/// 19,000 times took 2.5 GB and 14 s) is given an empty address before the parse: its links are
/// set as their text, with one warning at the address. Shorter addresses, and long ones used a
/// few times, stay links.
@Suite struct RepeatedLinkAddressTests {
    /// The links of `text`'s first paragraph: each destination's length.
    func links(_ parsed: ParseResult) -> [Int] {
        guard let block = parsed.document.blocks.first else { return [] }
        return InlineNoteTests.inlines(of: block).compactMap {
            if case .link(let destination, _, _) = $0 { destination.utf8.count } else { nil }
        }
    }

    /// Members: full references, shortcut references, collapsed references, a label written in
    /// another case and spacing, each used 300 times to a 60,000-byte address (18 MB).
    @Test(arguments: ["[a][r]", "[r]", "[r][]", "[A][ R ]"])
    func anAddressRepeatedPastTheBudgetIsEmptied(use: String) {
        let address = "https://example.com/" + String(repeating: "a", count: 60_000)
        let text = Array(repeating: use, count: 300).joined(separator: " ") + "\n\n[r]: \(address)\n"
        let parsed = MarkdownParser.parse(text, file: "l.md")
        // Links of no address, which styling sets as their text (as `[a]()`).
        #expect(links(parsed).count == 300 && links(parsed).allSatisfy { $0 == 0 }, "emptied")
        let warnings = parsed.diagnostics.filter { $0.message.hasPrefix("link reference '[r]'") }
        #expect(warnings.count == 1, "\(parsed.diagnostics)")
        #expect(warnings.first?.location?.line == 3 && warnings.first?.location?.column == 6, "\(warnings)")
        #expect(warnings.first?.message.contains("60020 bytes that 300 links use") == true, "\(warnings)")
        let words = InlineNoteTests.inlines(of: parsed.document.blocks[0]).map(\.plainText).joined()
        #expect(!words.isEmpty && !words.contains("https"), "the links' text kept: \(words.prefix(40))")
    }

    /// A long address used a few times, and a short one used often, stay links, unwarned.
    @Test func addressesWithinTheBudgetStayLinks() {
        let long = "https://example.com/" + String(repeating: "b", count: 60_000)
        let few = Array(repeating: "[a][r]", count: 10).joined(separator: " ") + "\n\n[r]: \(long)\n"
        let short = Array(repeating: "[a][s]", count: 5_000).joined(separator: " ") + "\n\n[s]: https://e.com/s\n"
        for text in [few, short] {
            let parsed = MarkdownParser.parse(text, file: "l.md")
            #expect(!parsed.diagnostics.contains { $0.message.hasPrefix("link reference") })
            #expect(links(parsed).count == (text == few ? 10 : 5_000))
        }
    }
}
