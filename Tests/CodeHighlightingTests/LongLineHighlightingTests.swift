import Foundation
import Testing

@testable import CodeHighlighting

/// A line longer than ``CodeHighlighter/longestHighlightedLine`` bytes is set plain: some
/// definitions took time growing faster than a line's length (HTML on `<a b="` repeated: 60 KB
/// on one line 0.5 s, 240 KB 3.9 s, 600 KB over 20 s), so highlighting now takes time linear in
/// the text whatever its lines.
@Suite struct LongLineHighlightingTests {
    /// The shortest processor time in s of highlighting `text` as `language`.
    func seconds(_ text: String, _ language: String) -> Double {
        let definition = CodeHighlighter.definition(forLanguage: language) ?? ""
        var best = Double.infinity
        for _ in 0..<2 {
            let start = DispatchTime.now().uptimeNanoseconds
            // Not through the cache of texts already highlighted: the library itself.
            _ = CodeHighlighter.highlight(text, definition: definition)
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return best
    }

    /// Four times the line takes about four times as long, not sixteen: HTML's attribute
    /// strings, XML's, and JavaScript's strings, each on one line.
    @Test(arguments: [("html", "<a b=\""), ("xml", "<a b=\""), ("js", "'a\\'+")])
    func aLongLineIsHighlightedInLinearTime(language: String, unit: String) {
        let count = 10_000
        var figures: [Double] = []
        for _ in 0..<3 {
            figures = [
                seconds(String(repeating: unit, count: count), language),
                seconds(String(repeating: unit, count: 4 * count), language),
            ]
            if figures[1] < 8 * figures[0] { break }
        }
        #expect(figures[1] < 8 * figures[0], "\(language): \(figures) s for \(count) and \(4 * count) repeats")
    }

    /// The long line has no tokens; the lines before and after it are highlighted as if it
    /// were not there (the state before it carries on), and a line at the limit still is.
    @Test func onlyTheLongLineIsPlain() throws {
        let limit = CodeHighlighter.longestHighlightedLine
        let definition = try #require(CodeHighlighter.definition(forLanguage: "python"))
        let long = "x = \"" + String(repeating: "a", count: limit) + "\""
        let atLimit = "y = \"" + String(repeating: "b", count: limit - 6) + "\""
        #expect(atLimit.utf8.count == limit && long.utf8.count > limit)
        let lines = ["def f():", long, "    return 1", atLimit]
        let text = lines.joined(separator: "\n")
        let spans = CodeHighlighter.tokens(in: text, definition: definition)
        let starts = lines.indices.map { index in lines[..<index].reduce(0) { $0 + $1.utf8.count + 1 } }
        func tokens(onLine index: Int) -> [TokenSpan] {
            let range = starts[index]..<(starts[index] + lines[index].utf8.count)
            return spans.filter { range.contains($0.start) }
        }
        #expect(!tokens(onLine: 0).isEmpty)
        #expect(tokens(onLine: 1).isEmpty)
        #expect(tokens(onLine: 2).contains { $0.token == .controlFlow || $0.token == .keyword })
        #expect(tokens(onLine: 3).contains { $0.token == .string })
    }
}
