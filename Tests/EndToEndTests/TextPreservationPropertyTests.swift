import DocumentModel
import Foundation
import TestSupport
import Testing
import Typesetter

@testable import MarkdownParser

/// A property of the whole pipeline: for random documents built from text, backslash escapes,
/// entity and numeric references, braces, brackets, colons and hashes, the PDF's text holds
/// every character of cmark-gfm's own plain-text rendering of the source, in order — the
/// attribute layer, fences, headings and front matter never lose or invent text.
///
/// The generator never writes a valid attribute list or div fence (a `{` is always followed by
/// a bare word that is not one of Typeset's flags; a `:::` line with a word after it has two),
/// so no syntax is meant to disappear: all of cmark's text must be set.
@Suite struct TextPreservationPropertyTests {

    static let words = ["alpha", "beta", "gamma", "delta", "kappa", "omega", "x1", "Ünï"]
    static let pieces = [
        "\\[", "\\]", "\\{", "\\}", "\\#", "\\\\", "\\:", "\\.",
        "&amp;", "&#123;", "&#125;", "&#91;", "&#93;", "&lt;", "&copy;", "&#35;", "&nosuch;",
        "{", "}", "[", "]", "]{", "[]", ":", "::", ":::", "1:2", "#", "##", "=", ".",
    ]

    static func document(_ rng: inout SeededRandom) -> String {
        var lines: [String] = []
        for _ in 0..<Int.random(in: 1...8, using: &rng) {
            var tokens: [String] = []
            var previous = ""
            for _ in 0..<Int.random(in: 1...8, using: &rng) {
                // After `{` a plain word: the group can never be an attribute list.
                let token =
                    previous.hasSuffix("{") || Bool.random(using: &rng)
                    ? words.randomElement(using: &rng)! : pieces.randomElement(using: &rng)!
                tokens.append(token)
                previous = token
            }
            var line = ""
            for (i, t) in tokens.enumerated() {
                if i > 0,
                    Bool.random(using: &rng)
                        || tokens[i - 1].hasSuffix("{") == false && t.hasPrefix("{") == false
                            && Bool.random(using: &rng)
                {
                    line += " "
                }
                line += t
            }
            switch Int.random(in: 0..<10, using: &rng) {
            case 0: line = "# " + line
            case 1: line = "## " + line + " ##"
            case 2: line = ":::"
            case 3:
                line = "::: " + words.randomElement(using: &rng)! + " " + line + " " + words.randomElement(using: &rng)!
            case 4: line = ""
            default: break
            }
            lines.append(line)
        }
        if Int.random(in: 0..<6, using: &rng) == 0 {
            lines.insert("---", at: 0)
            lines.insert("---", at: min(2, lines.count))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func everyCharacterOfCmarksPlainTextIsSet() throws {
        var rng = SeededRandom(seed: 0x7E57_5E7)
        let documents = (0..<150).map { _ in Self.document(&rng) }
        var blocks: [Block] = []
        for (n, markdown) in documents.enumerated() {
            blocks.append(Block(.paragraph([.text("PROPERTYDOC\(n)")])))
            blocks += MarkdownParser.parse(markdown, file: "doc-\(n).md").document.blocks
        }
        let pdf = Render.folder + "/text-preservation.pdf"
        var options = RenderOptions()
        options.footer = ""
        _ = try Typesetter.render(document: Document(blocks: blocks, file: "docs.md"), to: pdf, options: options)

        var actual: [Int: String] = [:]
        var current: Int?
        for word in CommonMarkSpecTests.readingOrder(try PDFProbe.words(pdf)) {
            if word.hasPrefix("PROPERTYDOC") {
                current = Int(word.dropFirst("PROPERTYDOC".count))
                if let current { actual[current] = "" }
            } else if let current {
                actual[current, default: ""] += word
            }
        }
        var failures: [String] = []
        for (n, markdown) in documents.enumerated() {
            // Front matter that is a YAML mapping is metadata, not text (`---`, `::: x: y`, `---`).
            var source = markdown
            if MarkdownParser.parse(markdown, file: "d.md").document.metadata != Metadata() {
                source = markdown.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(3).joined(
                    separator: "\n")
            }
            // In a Pandoc definition list, the `:` opening each definition's line is syntax.
            let parsed = MarkdownParser.parse(source, file: "d.md").document.blocks
            if parsed.contains(where: { if case .definitionList = $0.kind { true } else { false } }) {
                source = source.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                    line.hasPrefix(": ") || line.hasPrefix(":\t") ? String(line.dropFirst()) : String(line)
                }.joined(separator: "\n")
            }
            let expected = CmarkTree.plainText(of: source).filter { !$0.isWhitespace }
            // Smart punctuation (on by default) may turn `...` into an ellipsis.
            let got = (actual[n] ?? "").replacingOccurrences(of: "…", with: "...")
            if expected != got {
                failures.append("document \(n) \(markdown.debugDescription):\n  cmark '\(expected)'\n  pdf   '\(got)'")
            }
        }
        #expect(
            failures.isEmpty,
            "\(failures.count) of \(documents.count) documents differ:\n\(failures.prefix(8).joined(separator: "\n"))")
    }
}
