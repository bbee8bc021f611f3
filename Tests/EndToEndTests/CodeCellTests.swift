import Foundation
import TestSupport
import Testing

/// East Asian wide characters in a code block take two cells of the code face, as a terminal
/// and a code editor count them (UAX #11), so that columns line up after Korean, Chinese and
/// Japanese text as after Latin text; read back from the PDF's glyph positions. Set at their
/// fallback face's advance, Hangul took about 1.5 cells and CJK ideographs 1.7, and the bar
/// closing each line below stood up to 10 pt left of the reference line's.
@Suite struct CodeCellTests {
    /// Lines that each end in `|` at column 10 (or 9), counting a wide character as two:
    /// Hangul syllables, CJK ideographs with kana, fullwidth Latin, CJK punctuation, each
    /// between bars and at the line's start (where Pango trims letter spacing), Hangul
    /// compatibility jamo, and tabs after wide characters (tab stops every 4 columns).
    static let lines = [
        "|abcdefgh|", "|가나다라|", "|日本語で|", "|ｆｕｌｌ|", "|「」、。|", "가나다라 |", "日本語で |",
        "ｆｕｌｌ |", "ㄱㄴㄷㄹ |", "ab가\t|", "가\tㄱㄴ|", "abcdefgh|",
    ]

    /// The right edge of each line's last glyph (the closing bar), pt, in the order of `lines`,
    /// from an untagged render (a tagged code line with a wide character is one word carrying
    /// its source text, so its glyphs are read from the same lines drawn alike untagged).
    static func barEdges(language: String, theme: String?, name: String) throws -> [Double] {
        let code = lines.joined(separator: "\n")
        let markdown = "Before.\n\n```\(language)\n\(code)\n```\n\nAfter.\n"
        let source = Render.folder + "/code-cells-\(name).md"
        let pdf = Render.folder + "/code-cells-\(name).pdf"
        try Data(markdown.utf8).write(to: URL(fileURLWithPath: source))
        let result = try typeset(["render", source, "-o", pdf, "--no-tags"] + (theme.map { ["--theme", $0] } ?? []))
        #expect(result.status == 0 && !result.output.contains("warning"), "\(name): \(result.output)")
        let words = try PDFProbe.words(pdf)
        let before = try #require(words.first { $0.text == "Before." })
        let after = try #require(words.first { $0.text == "After." })
        // Rows by the words' vertical centres (poppler parts a line at wide gaps, and boxes
        // differ in height between the Latin and the CJK face); lines are 11.4 pt apart.
        let drawn = words.filter { $0.yMin > before.yMax && $0.yMax < after.yMin }
            .sorted { $0.yMin + $0.yMax < $1.yMin + $1.yMax }
        var rows: [[PDFWord]] = []
        for word in drawn {
            let centre = (word.yMin + word.yMax) / 2
            if let first = rows.last?.first, abs((first.yMin + first.yMax) / 2 - centre) < 4 {
                rows[rows.count - 1].append(word)
            } else {
                rows.append([word])
            }
        }
        #expect(rows.count == lines.count, "\(name): \(rows.map { $0.map(\.text) })")
        return rows.map { $0.map(\.xMax).max() ?? 0 }
    }

    @Test(arguments: [("", nil), ("python", nil), ("", "hig"), ("python", "hig")] as [(String, String?)])
    func wideCharactersTakeTwoCells(language: String, theme: String?) throws {
        let name = "\(language.isEmpty ? "plain" : language)-\(theme ?? "default")"
        let edges = try Self.barEdges(language: language, theme: theme, name: name)
        guard edges.count == Self.lines.count else { return }
        let reference = edges[0]
        for (line, edge) in zip(Self.lines, edges).prefix(9) {
            #expect(
                abs(edge - reference) < 0.02, "\(name): '\(line)' ends at \(edge) pt, '|abcdefgh|' at \(reference) pt")
        }
        // Tab stops count a wide character as two columns: the bars after the tabs stand where
        // `abcdefgh|` ends its bar.
        for (line, edge) in zip(Self.lines, edges).suffix(3) {
            #expect(abs(edge - edges[edges.count - 1]) < 0.02, "\(name): '\(line)' ends at \(edge) pt")
        }
    }
}
