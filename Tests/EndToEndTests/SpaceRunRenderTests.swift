import Foundation
import TestSupport
import Testing

/// A run of spaces of any kind (Unicode Zs but the no-break ones: U+0020, U+1680, U+2000 to
/// U+200A, U+205F, U+3000, runs mixing them, and runs with invisible controls such as a
/// zero-width joiner, a variation selector or a combining mark inside) is one break
/// opportunity, wherever it stands:
/// the words after it are set on the page, read back from the PDF. A run wider than the measure
/// at the start of a paragraph takes a line of its own; at its end it adds nothing.
@Suite struct SpaceRunRenderTests {
    /// The kinds, by name: one space repeated, and a mixed run.
    static let runs: [(name: String, space: String)] = [
        ("U+3000", "\u{3000}"), ("U+2003", "\u{2003}"), ("U+2002", "\u{2002}"), ("U+2000", "\u{2000}"),
        ("U+1680", "\u{1680}"), ("U+205F", "\u{205F}"), ("U+200A", "\u{200A}"), ("U+2009", "\u{2009}"),
        ("mixed", "\u{3000}\u{2003} \u{2002}\u{205F}\u{2000}"),
        // Runs with invisible controls inside (zero-width space, non-joiner, joiner, word
        // joiner, zero-width no-break space), which split a run in two and kept the words after
        // it off the page.
        ("U+3000 with U+200D", "\u{3000}\u{200D}\u{3000}"), ("U+2003 with U+200B", "\u{2003}\u{2003}\u{200B}"),
        ("U+3000 with U+2060", "\u{2060}\u{3000}"), ("U+2002 with U+200C and U+FEFF", "\u{2002}\u{200C}\u{FEFF}"),
        // Runs with other default-ignorable characters inside, which modify nothing after a
        // space (variation selectors, combining grapheme joiner, soft hyphen, Hangul filler,
        // tag), and with marks that stay (a combining mark on a space, directional marks, which
        // a heading's tracking gives an advance): each split the run, and the words after it
        // went off the page (make fuzz, seed 3221031939201412000, case 16421: U+2001 with U+FE0F).
        ("U+2001 with U+FE0F", "\u{2001}\u{FE0F}\u{2001}"),
        ("U+3000 with U+FE00 and U+034F", "\u{3000}\u{FE00}\u{034F}"),
        ("U+2003 with U+00AD and U+3164", "\u{2003}\u{00AD}\u{3164}"), ("U+2002 with U+E0041", "\u{2002}\u{E0041}"),
        ("U+2001 with U+0301", "\u{2001}\u{0301}\u{2001}"), ("U+3000 with U+200E", "\u{3000}\u{200E}"),
        ("U+2003 with U+200F", "\u{2003}\u{200F}\u{2003}"),
    ]

    /// The words each document sets, in order (but for the table's second cell, which a reader
    /// may place before the first's second line).
    static let expected = [
        "xstart", "after", "mid", "one", "xmiddle", "after", "end", "one", "xend", "xitem", "after",
        "xhead", "after", "xcell", "after", "xbreak", "after",
    ]

    /// Paragraphs, a list item, a heading, a table cell and a line after a hard break, each
    /// with the run at its start, middle or end.
    static func document(run: String) -> String {
        """
        \(run)xstart after

        mid one\(run)xmiddle after

        end one xend\(run)

        - \(run)xitem after

        # \(run)xhead after

        | a | b |
        |---|---|
        | \(run)xcell after | two |

        before\\
        \(run)xbreak after
        """
    }

    /// Renders `markdown` and returns the words set inside the page (poppler reports words
    /// off the page too, with their boxes outside it), and the warnings.
    func wordsOnThePage(_ markdown: String, name: String) throws -> (words: [String], warnings: [String]) {
        let (pdf, report) = try Render.markdown(markdown, name: name)
        let size = try #require(try PDFProbe.info(pdf)["Page size"])
        let parts = size.split(separator: " ")
        let width = try #require(Double(String(parts[0])))
        let height = try #require(Double(String(parts[2])))
        let words = try PDFWord.read(pdf).filter {
            $0.xMin >= 0 && $0.xMax <= width && $0.yMin >= 0 && $0.yMax <= height
        }
        return (words.map(\.text), report.diagnostics.map(\.message))
    }

    @Test(arguments: [1, 60])
    func everyWordAfterARunOfSpacesIsOnThePage(count: Int) throws {
        for (name, space) in Self.runs {
            let run = String(repeating: space, count: count)
            let (words, warnings) = try wordsOnThePage(Self.document(run: run), name: "space-run-\(name)-\(count)")
            // The expected words in order, among the others (the table header, a bullet, the
            // page number, U+1680's visible marks); poppler may join two words a narrow space
            // separates into one.
            let text = words.joined(separator: " ")
            var position = text.startIndex
            var missing: String? = nil
            for word in Self.expected {
                guard let found = text.range(of: word, range: position..<text.endIndex) else {
                    missing = word
                    break
                }
                position = found.upperBound
            }
            #expect(missing == nil, "\(name) × \(count): missing from \(missing ?? ""); set: \(text)")
            #expect(!warnings.contains { $0.contains("wider than the measure") }, "\(name) × \(count): \(warnings)")
        }
    }

    /// A line never ends inside a glyph cluster of several characters: Inter draws `->` and
    /// `-->` as one arrow, and a break allowed after the hyphen (UAX #14) fell inside it; when a
    /// run of spaces wider than the measure followed, the line after it was lost with the words
    /// on it (make fuzz, seed 1558601524242621459, case 10252: em quads around `-->`).
    @Test(arguments: ["->", "-->", "x->", "\u{2013}>"])
    func wordsAfterALigatureAndARunOfSpacesAreSet(ligature: String) throws {
        let markdown =
            String(repeating: "\u{2001}", count: 30) + ligature + String(repeating: "\u{2001}", count: 50)
            + "xjuliet after juliet\n"
        let (words, _) = try wordsOnThePage(markdown, name: "ligature-\(ligature.unicodeScalars.count)")
        let text = words.joined(separator: " ")
        #expect(text.contains(">") && text.contains("xjuliet after juliet"), "set: \(text)")
    }

    /// The no-break spaces (U+00A0, U+202F, U+2007) never break: the words they join stay on
    /// one line however many lines the paragraph takes.
    @Test(arguments: ["\u{A0}", "\u{202F}", "\u{2007}"])
    func noBreakSpacesJoinTheirWords(space: String) throws {
        let pairs = (0..<80).map { "left\($0)\(space)\(space)right\($0)" }.joined(separator: " ")
        let (pdf, _) = try Render.markdown(pairs, name: "no-break-\(space.unicodeScalars.first!.value)")
        let words = try PDFWord.read(pdf)
        // Poppler may read a no-break space as a space between two words or inside one.
        func holds(_ word: PDFWord, _ token: String) -> Bool {
            word.text.split(whereSeparator: \.isWhitespace).contains { $0 == token }
        }
        for index in 0..<80 {
            let left = words.first { holds($0, "left\(index)") }
            let right = words.first { holds($0, "right\(index)") }
            let sameLine =
                left.flatMap { left in right.map { left.page == $0.page && abs(left.yMax - $0.yMax) < 0.5 } } ?? false
            #expect(sameLine, "pair \(index): \(String(describing: left)), \(String(describing: right))")
        }
        #expect(Set(words.map { Int($0.yMax) }).count > 5, "the paragraph takes several lines")
    }
}

/// Read back from the PDF: a line written with runs of spaces (two after a full stop, names
/// aligned in columns, spaces around emphasis) sets every word where the same line with single
/// spaces sets it, and extracts with single spaces.
@Suite struct WordSpaceRenderTests {
    @Test func runsOfSpacesSetAsOneWordSpace() throws {
        let lines = [
            ("Two  spaces after a period.  Next sentence.", "Two spaces after a period. Next sentence."),
            ("- Khaled Hosny             <khaled@example.org>", "- Khaled Hosny <khaled@example.org>"),
            (
                "A **bold**   *word*   and  [a   link](https://example.org).",
                "A **bold** *word* and [a link](https://example.org)."
            ),
        ]
        for (spaced, single) in lines {
            let (pdf, _) = try Render.markdown(spaced + "\n\n---\n\n" + single, name: "word-spaces")
            defer { try? FileManager.default.removeItem(atPath: pdf) }
            let words = try PDFProbe.words(pdf)
            let rows = Dictionary(grouping: words, by: \.line).sorted { $0.key < $1.key }.map(\.value)
            try #require(rows.count >= 3, "\(words)")
            let (first, second) = (rows[0], rows[1])  // then the page number
            #expect(first.map(\.text) == second.map(\.text), "\(spaced)")
            for (a, b) in zip(first, second) {
                #expect(abs(a.xMin - b.xMin) < 0.01, "'\(a.text)' at \(a.xMin) and \(b.xMin): \(spaced)")
            }
        }
    }
}
