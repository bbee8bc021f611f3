import Foundation
import TestSupport
import Testing

/// Footnotes longer than the room below their marker split at a line, as LaTeX and Typst split
/// them: the marker's page is filled, the note continues at the top of the next page's notes,
/// and nothing is lost. Read back with pdftotext's word boxes.
@Suite(.serialized) struct FootnoteSplitTests {
    /// Words from a fixed list, the same for the same seed.
    static func prose(_ count: Int, seed: Int) -> String {
        let words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa"]
        var state = UInt64(seed) &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return words[Int(state >> 33) % words.count]
        }.joined(separator: " ") + "."
    }

    /// `paragraphs` paragraphs of `length` words, a paragraph citing a note of 40 numbered
    /// sentences (`N0` … `N39`, then `NOTEEND`), then four more paragraphs.
    static func document(paragraphs: Int, length: Int) -> String {
        let body = (0..<paragraphs).map { "P\($0) " + prose(length, seed: $0) }.joined(separator: "\n\n")
        let note = (0..<40).map { "N\($0) " + prose(12, seed: 100 + $0) }.joined(separator: " ")
        let after = (0..<4).map { "Q\($0) " + prose(50, seed: 200 + $0) }.joined(separator: "\n\n")
        return body + "\n\nMarker here[^long] and more text after it " + prose(30, seed: 99) + "\n\n" + after
            + "\n\n[^long]: " + note + " NOTEEND\n"
    }

    /// The words of `markdown` rendered with `--strict` (no warning allowed) as `name`.pdf,
    /// which must be `qpdf --check` clean.
    func strictlyRenderedWords(_ markdown: String, name: String) throws -> [PDFWord] {
        let dir = try Render.scratchFolder("footnote-split")
        try markdown.write(toFile: dir + "/\(name).md", atomically: false, encoding: .utf8)
        let run = try typeset(["render", dir + "/\(name).md", "-o", dir + "/\(name).pdf", "--strict"])
        #expect(run.status == 0, "\(run.output)")
        #expect(try PDFProbe.qpdfClean(dir + "/\(name).pdf"))
        return try PDFProbe.words(dir + "/\(name).pdf")
    }

    @Test(arguments: [(4, 70), (5, 55), (5, 62), (5, 70), (6, 48), (6, 55), (6, 70), (7, 40)])
    func longNoteSplitsAtALineAndLosesNothing(paragraphs: Int, length: Int) throws {
        let words = try strictlyRenderedWords(
            Self.document(paragraphs: paragraphs, length: length), name: "n\(paragraphs)-\(length)")
        // Nothing lost, nothing doubled, in order.
        let marks = words.map(\.text).filter { $0.range(of: #"^N\d+$|^NOTEEND$"#, options: .regularExpression) != nil }
        #expect(marks == (0..<40).map { "N\($0)" } + ["NOTEEND"], "\(marks)")
        let marker = try #require(words.first { $0.text == "Marker" })
        let first = try #require(words.first { $0.text == "N0" })
        let last = try #require(words.first { $0.text == "NOTEEND" })
        #expect(first.page == marker.page, "the note starts on its marker's page: \(first) \(marker)")
        #expect(last.page <= marker.page + 1, "the note ends on the next page at the latest: \(last)")
        guard last.page > marker.page else { return }
        // Split: the marker's page is full — its notes reach as low as text goes on any page.
        let text = words.filter { $0.text.range(of: #"^\d+$"#, options: .regularExpression) == nil }
        let lowest = try #require(text.map(\.yMax).max())
        let markerPageLowest = try #require(text.filter { $0.page == marker.page }.map(\.yMax).max())
        #expect(markerPageLowest > lowest - 14, "marker page ends at \(markerPageLowest), text reaches \(lowest)")
        // The continuation is the first of the next page's notes, under the text on that page.
        let next = text.filter { $0.page == marker.page + 1 }
        let continued = next.filter { $0.text.hasPrefix("N") || $0.text == "NOTEEND" }
        let body = next.filter { $0.text.hasPrefix("Q") }
        #expect(!continued.isEmpty && !body.isEmpty)
        if let topNote = continued.map(\.yMin).min(), let lowBody = body.map(\.yMax).max() {
            #expect(topNote > lowBody, "the continued note sits in the note area below the text")
        }
    }

    /// Many notes cited in one paragraph whose lines must keep together at a page's end: a
    /// line whose note was split below it and that then moves to the next page takes the
    /// note with it, so the notes read in the order of their numbers on every page, each on
    /// its marker's page or after it. Notes of two lines, of one line, and of mixed lengths.
    @Test(arguments: [(40, 2), (80, 2), (60, 1), (70, 3)])
    func manyNotesInOneParagraphStayInOrder(count: Int, lines: Int) throws {
        let filler = ["", " Short.", " With a fairly long text that wraps onto a second line of the footnote area."]
        let body = (0..<count).map { "w\($0)[^n\($0)]" }.joined(separator: " ")
        let notes = (0..<count).map { index in
            let text = lines == 3 ? filler[index % 3] : lines == 1 ? filler[1] : filler[2]
            return "[^n\(index)]: NOTE\(index)\(text)\n"
        }
        let words = try strictlyRenderedWords("Para " + body + "\n\n" + notes.joined(), name: "many-\(count)-\(lines)")
        let order = words.compactMap { word -> (number: Int, page: Int)? in
            guard word.text.hasPrefix("NOTE"), let number = Int(word.text.dropFirst(4)) else { return nil }
            return (number, word.page)
        }
        #expect(order.map(\.number) == Array(0..<count), "\(order.map(\.number))")
        for note in order {
            let marker = try #require(
                words.first { ["w\(note.number)", "w\(note.number)\(note.number + 1)"].contains($0.text) })
            #expect(
                note.page >= marker.page, "note \(note.number + 1) on page \(note.page), its marker on \(marker.page)")
        }
    }

    @Test func aNoteLongerThanAPageRunsOverSeveralPages() throws {
        let dir = try Render.scratchFolder("footnote-split")
        let note = (0..<160).map { "N\($0) " + Self.prose(12, seed: $0) }.joined(separator: " ")
        try ("Short text[^1] here.\n\nAfter.\n\n[^1]: " + note + " NOTEEND\n").write(
            toFile: dir + "/huge.md", atomically: false, encoding: .utf8)
        let run = try typeset(["render", dir + "/huge.md", "-o", dir + "/huge.pdf"])
        #expect(run.status == 0, "\(run.output)")
        let marks = try PDFProbe.words(dir + "/huge.pdf").map(\.text).filter {
            $0.range(of: #"^N\d+$|^NOTEEND$"#, options: .regularExpression) != nil
        }
        #expect(marks == (0..<160).map { "N\($0)" } + ["NOTEEND"])
        #expect(try PDFProbe.qpdfClean(dir + "/huge.pdf"))
    }

    /// The same long note cited on the first line of a paragraph of eight lines (`W0` … `W79`):
    /// wherever the page ends, the marker's line is never alone at the foot of its page (the
    /// paragraph keeps at least two lines on each page it spans), and a split note keeps at
    /// least two of its lines on each page.
    static func markerFirstDocument(paragraphs: Int, length: Int) -> String {
        let body = (0..<paragraphs).map { "P\($0) " + prose(length, seed: $0) }.joined(separator: "\n\n")
        let note = (0..<40).map { "N\($0) " + prose(12, seed: 100 + $0) }.joined(separator: " ")
        let words = (0..<80).map { "W\($0)" }.joined(separator: " ")
        let after = (0..<4).map { "Q\($0) " + prose(50, seed: 200 + $0) }.joined(separator: "\n\n")
        return body + "\n\nMarker[^long] " + words + "\n\n" + after + "\n\n[^long]: " + note + " NOTEEND\n"
    }

    @Test(arguments: [
        (4, 60), (4, 75), (5, 50), (5, 58), (5, 66), (6, 44), (6, 52), (6, 60), (7, 38), (7, 46), (8, 35), (8, 40),
    ])
    func theMarkersLineIsNeverAloneAtThePageFoot(paragraphs: Int, length: Int) throws {
        let words = try strictlyRenderedWords(
            Self.markerFirstDocument(paragraphs: paragraphs, length: length), name: "m\(paragraphs)-\(length)")
        func lines(_ matching: [PDFWord], page: Int) -> Int {
            Set(matching.filter { $0.page == page }.map { ($0.yMax * 2).rounded() }).count
        }
        let paragraph = words.filter {
            $0.text.hasPrefix("Marker") || $0.text.range(of: #"^W\d+$"#, options: .regularExpression) != nil
        }
        let note = words.filter { $0.text.range(of: #"^N\d+$|^NOTEEND$"#, options: .regularExpression) != nil }
        #expect(note.map(\.text) == (0..<40).map { "N\($0)" } + ["NOTEEND"])
        #expect(paragraph.count == 81)
        let marker = try #require(paragraph.first)
        let pages = Set(paragraph.map(\.page)).sorted()
        if pages.count > 1 {
            for page in pages {
                #expect(lines(paragraph, page: page) >= 2, "paragraph lines on page \(page) of \(pages)")
            }
        }
        #expect(note.first?.page == marker.page, "the note starts on its marker's page")
        for page in Set(note.map(\.page)).sorted() {
            #expect(lines(note, page: page) >= 2, "note lines on page \(page)")
        }
    }

    /// Every note's number stands inside the text block, however many figures it has: notes 1
    /// to 105 on 20 mm margins, each note's number (`N<k>.` is its text) left of its text and
    /// right of the body's left edge, and all the notes' texts at one indent.
    @Test func noteNumbersOfEveryLengthStandInsideTheTextBlock() throws {
        let count = 105
        let body = (1...count).map { "W\($0).[^\($0)]" }.joined(separator: " ")
        let notes = (1...count).map { "[^\($0)]: N\($0)." }.joined(separator: "\n")
        let dir = try Render.scratchFolder("footnote-split")
        try (body + "\n\n" + notes + "\n").write(toFile: dir + "/numbers.md", atomically: false, encoding: .utf8)
        let run = try typeset(["render", dir + "/numbers.md", "-o", dir + "/numbers.pdf", "--margins", "20mm"])
        #expect(run.status == 0, "\(run.output)")
        let words = try PDFProbe.words(dir + "/numbers.pdf")
        let margin = 20 / 25.4 * 72
        var indents = Set<Int>()
        for number in [1, 9, 10, 99, 100, 105] {
            guard let text = words.first(where: { $0.text == "N\(number)." }),
                let mark = words.last(where: {
                    $0.text == "\(number)" && $0.page == text.page && abs($0.yMin - text.yMin) < 2
                })
            else {
                Issue.record("note \(number) not found")
                continue
            }
            #expect(mark.xMin >= margin - 0.5, "note \(number)'s number at \(mark.xMin) pt, the margin at \(margin)")
            #expect(mark.xMax < text.xMin, "note \(number)")
            indents.insert(Int(text.xMin.rounded()))
        }
        #expect(indents.count == 1, "the notes' texts at one indent: \(indents)")
    }
}
