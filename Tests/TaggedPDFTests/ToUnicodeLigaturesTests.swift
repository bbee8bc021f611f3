import Foundation
import Testing

@testable import TaggedPDF

/// ToUnicode CMaps as Cairo writes them, with presentation forms mapped to their letters and
/// a text face's entries set.
@Suite struct ToUnicodeLigaturesTests {
    static func cmap(_ entries: [String]) -> [UInt8] {
        let lines =
            [
                "/CIDInit /ProcSet findresource begin", "12 dict begin", "begincmap", "1 begincodespacerange",
                "<0000> <ffff>", "endcodespacerange", "\(entries.count) beginbfchar",
            ] + entries + [
                "endbfchar", "endcmap", "CMapName currentdict /CMap defineresource pop", "end", "end",
            ]
        return Array(lines.joined(separator: "\n").utf8)
    }

    /// The entries of `plain`'s `bfchar` blocks, in order.
    static func entries(_ plain: [UInt8]) -> [String] {
        var inBlock = false
        var found: [String] = []
        for line in String(decoding: plain, as: UTF8.self).split(separator: "\n").map(String.init) {
            if line.hasSuffix("beginbfchar") {
                inBlock = true
            } else if line == "endbfchar" {
                inBlock = false
            } else if inBlock {
                found.append(line)
            }
        }
        return found
    }

    /// A literal string's escapes and a hexadecimal string's digits read as PDF 1.7 §7.3.4 says.
    @Test func glyphStringsAreReadAsTheirBytes() {
        let text = #"(T\(\)\\\101\n) <00050006> <1>"#
        let bytes = Array(text.utf8)
        let read: [[UInt8]?] = bytes.withUnsafeBufferPointer { buffer in
            var lexer = PDFLexer(buffer)
            var strings: [[UInt8]?] = []
            while let token = lexer.next() { strings.append(lexer.stringBytes(token.range)) }
            return strings
        }
        #expect(read == [[0x54, 0x28, 0x29, 0x5C, 0x41, 0x0A], [0x00, 0x05, 0x00, 0x06], [0x10]])
    }

    @Test func presentationFormsReadAsTheirLetters() throws {
        let plain = Self.cmap([
            "<0001> <fb00>", "<0002> <fb01>", "<0003> <fb04>", "<0004> <fb05>", "<0005> <fb06>", "<0006> <0079>",
            "<0007> <fefb>",
        ])
        #expect(ToUnicodeLigatures.isCMap(plain))
        let decomposed = try #require(ToUnicodeLigatures.decomposed(plain))
        #expect(
            Self.entries(decomposed) == [
                "<0001> <00660066>", "<0002> <00660069>", "<0003> <00660066006c>", "<0004> <017f0074>",
                "<0005> <00730074>", "<0006> <0079>", "<0007> <06440627>",
            ])
        // A CMap without presentation forms is left as it is, one whose destinations begin
        // `<f` but are none too, and one whose codes look like forms.
        #expect(ToUnicodeLigatures.decomposed(Self.cmap(["<0001> <0041>", "<0002> <fffd>"])) == nil)
        #expect(ToUnicodeLigatures.decomposed(Self.cmap(["<0001> <ff10>", "<0002> <f8ff>", "<fb01> <0041>"])) == nil)
        // Digits in capitals are found too.
        let capitals = try #require(ToUnicodeLigatures.decomposed(Self.cmap(["<0001> <0041>", "<0002> <FB01>"])))
        #expect(Self.entries(capitals) == ["<0001> <0041>", "<0002> <00660069>"])
    }

    @Test func aTextFaceSaysEachGlyphsReplacementText() {
        let plain = Self.cmap(["<0001> <0054>", "<0002> <0068>"])
        let overridden = ToUnicodeLigatures.overriding(
            plain,
            with: [([0x00, 0x01], [0x00, 0x74]), ([0x00, 0x09], [0x00, 0xAD]), ([0x00, 0x01], [0x00, 0x58])])
        // The code the CMap has is replaced; a code it lacks joins a block of its own; the
        // first text given for a code is the one kept.
        #expect(Self.entries(overridden) == ["<0001> <0074>", "<0002> <0068>", "<0009> <00ad>"])
        let text = String(decoding: overridden, as: UTF8.self)
        #expect(text.contains("1 beginbfchar\n<0009> <00ad>\nendbfchar\nendcmap"))
        #expect(ToUnicodeLigatures.overriding(plain, with: []) == plain)
    }
}
