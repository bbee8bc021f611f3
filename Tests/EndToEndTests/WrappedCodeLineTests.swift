import Foundation
import TestSupport
import Testing
import Typesetter

/// A code line too long for the measure wraps behind the continuation mark, its later lines at
/// the hanging indent; the lines after it start at the block's left edge again, wherever the
/// block's text is cut into the pieces it is laid out in (``PangoShaper``: 512-byte pieces, a
/// piece that goes on with a wrapped line ending with it).
@Suite struct WrappedCodeLineTests {
    /// A block of `before` short lines, one line of about 300 characters, then `after` short
    /// lines; highlighted (`python`) or not.
    static func block(before: Int, after: Int, language: String) -> String {
        let head = (0..<before).map { "a\($0) = \($0)" }
        let long = "x = [" + (0..<40).map { "item_\($0)" }.joined(separator: ", ") + "]"
        let tail = (0..<after).map { "b\($0) = \($0)" }
        return "```\(language)\n" + (head + [long] + tail).joined(separator: "\n") + "\n```\n"
    }

    /// Members of the kind: the long line early, in the first piece, across a piece's end and
    /// in a later piece; short and long tails; plain and highlighted; and two long lines.
    @Test(arguments: [(0, 40), (19, 15), (20, 3), (24, 40), (25, 3), (50, 3), (70, 60)])
    func linesAfterAWrappedLineStartAtTheLeftEdge(before: Int, after: Int) throws {
        for language in ["", "python"] {
            var markdown = Self.block(before: before, after: after, language: language)
            markdown += "\n" + Self.block(before: after, after: before, language: language)
            let name = "wrapped-code-\(before)-\(after)-\(language)"
            // Untagged: poppler's words are the glyphs where they are drawn. Tagged, the wrapped
            // line's text is its first drawn line's replacement text (it copies as one line).
            var options = RenderOptions()
            options.tagged = false
            let (pdf, report) = try Render.markdown(markdown, name: name, options: options)
            #expect(report.diagnostics.isEmpty, "\(report.diagnostics)")
            let words = try PDFProbe.words(pdf)
            let starts = words.filter { $0.text.hasPrefix("a") || $0.text.hasPrefix("b") }
                .filter { $0.text.dropFirst().allSatisfy(\.isNumber) && $0.text.count > 1 }
            let left = try #require(words.first { $0.text == "x" }).xMin
            #expect(starts.count == 2 * (before + after), "\(name): \(starts.count) short lines found")
            for word in starts {
                #expect(abs(word.xMin - left) < 0.01, "\(name): \(word) starts off the left edge \(left)")
            }
            // The wrapped line's later lines sit at the hanging indent, right of the edge.
            let continued = words.filter { $0.text.hasPrefix("item_") && $0.xMin < left + 30 }
            #expect(!continued.isEmpty, "\(name): the long line wraps")
            for word in continued {
                #expect(word.xMin > left + 5, "\(name): \(word) continues at the hanging indent")
            }
        }
    }

    /// The structure tree reads a block's lines apart, each once, wherever they stand: after a
    /// blank line, indented, and a long indented line wrapped at a space (the space it broke at
    /// kept). Reading stopped at the first blank or indented line: `b1 b2b3`, and a wrapped
    /// line's `890,` ran into its next word.
    @Test func theStructureTreeReadsEveryLineApart() throws {
        for language in ["", "python"] {
            let long = (0..<24).map { "\"key_\($0)\": \($0)" }.joined(separator: ", ")
            let markdown = "```\(language)\nb1\n\nb2\nb3\n  if x:\n      y = 1\n\n\n    d = {\(long)}\nz\n```\n"
            let (pdf, report) = try Render.markdown(markdown, name: "code-structure-\(language)")
            #expect(report.diagnostics.isEmpty, "\(report.diagnostics)")
            let tree = try PDFProbe.run("pdfinfo", ["-struct-text", pdf]).output
            let words = tree.split { $0 == " " || $0 == "\n" || $0 == "\"" }.map(String.init)
            let expected = "b1 b2 b3 if x: y = 1 d = {\(long)} z".split { $0 == " " || $0 == "\"" }.map(String.init)
            #expect(words.drop { $0 != "b1" }.prefix(expected.count).elementsEqual(expected), "\(language): \(tree)")
        }
    }
}
