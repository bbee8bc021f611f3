import Foundation
import TestSupport
import Testing
import Typesetter

/// Right-to-left text is read in the order it is written: the structure tree (what a screen
/// reader and `pdfinfo -struct-text` read) gives each paragraph's words as in the source,
/// whatever runs its lines are drawn in (ISO 32000-1 §14.8.2.3; Unicode's bidirectional
/// algorithm, UAX #9). Pango draws a line's runs from its left end; a line with a right-to-left
/// run among several is drawn in the order it is read.
@Suite struct RightToLeftReadingOrderTests {
    /// Members of the kind, each a line of several runs with one set right to left: a Hebrew
    /// sentence's full stop (a run of the Latin face), an Arabic paragraph with an English word
    /// in it, a Hebrew price (digits are a left-to-right run), emoji between Hebrew words (runs
    /// of the colour face), Arabic bold and italic, Hebrew words between slashes in English,
    /// Persian with its own digits and English, an Arabic heading and a tracked Arabic span, a
    /// Hebrew footnote, and a link whose text ends in Arabic.
    static let documents: [(name: String, markdown: String, reads: [String])] = [
        ("full-stop", "שלום עולם.\n", ["שלום עולם."]),
        ("english-in-arabic", "كلمات English في الوسط\n", ["كلمات English في الوسط"]),
        ("price", "המחיר הוא 100 שקלים בלבד.\n", ["המחיר הוא 100 שקלים בלבד."]),
        ("emoji", "שלום 👋 עולם 🎉 טוב\n", ["שלום 👋 עולם 🎉 טוב"]),
        ("emphasis", "اقتباس عربي مع **نص غامق** و*مائل*.\n", ["اقتباس عربي مع نص غامق ومائل."]),
        ("slashes", "Pronouns (he/him/הוא/אתה) in English.\n", ["Pronouns (he/him/הוא/אתה) in English."]),
        (
            "persian", "Persian: این یک متن فارسی است با عدد ۱۲۳ و English words.\n",
            ["Persian: این یک متن فارسی است با عدد ۱۲۳ و English words."]
        ),
        (
            "heading", "# دليل المستخدم الجديد\n\n[دليل المستخدم]{tracking=2}\n",
            ["دليل المستخدم الجديد", "دليل المستخدم"]
        ),
        ("note", "טקסט ארוך[^a] כאן.\n\n[^a]: הערה קצרה.\n", ["טקסט ארוך1 כאן.", "1 הערה קצרה."]),
        ("link", "See [the link مرحبا بكم](https://example.com) now.\n", ["See the link مرحبا بكم now."]),
    ]

    @Test(arguments: documents.map(\.name))
    func theStructureTreeReadsTheTextAsWritten(name: String) throws {
        let document = try #require(Self.documents.first { $0.name == name })
        let (pdf, _) = try Render.markdown(document.markdown, name: "right-to-left-\(name)")
        #expect(try PDFProbe.qpdfClean(pdf))
        let read = try TextFidelityTests.structureText(pdf, joiningRuns: true)
        // Compared without white space: the tree parts a paragraph's text at its links and
        // note references.
        let letters = { (text: String) in String(text.unicodeScalars.filter { !$0.properties.isWhitespace }) }
        #expect(letters(read) == letters(document.reads.joined()), "\(read)")
    }

    /// Characters that draw nothing between right-to-left letters (a zero-width non-joiner, as
    /// Persian spells `می‌خواهم`, a joiner, a soft hyphen, a word joiner, direction marks and
    /// isolates, a variation selector, a combining mark after a right-to-left letter) in tracked
    /// text — a heading, a tracked span, a link in a paragraph of the `hig` theme, whose body
    /// text is tracked — are set in a run of their own whose advance may fall below zero; the
    /// tagged line that reads its runs in order keeps every word (it trapped on a range whose
    /// end lay before its start).
    @Test func zeroWidthCharactersBetweenRightToLeftLettersInTrackedTextKeepEveryWord() throws {
        let controls = ["\u{200C}", "\u{200D}", "\u{00AD}", "\u{2060}", "\u{200E}", "\u{200F}", "\u{2066}", "\u{FE0F}"]
        let words = controls.map { "ب\($0)ب" } + ["ש\u{0301}a", "字\u{0301}ب", "می\u{200C}خواهم"]
        let markdown = words.enumerated().map { index, word in
            "# Heading\(index) \(word) end\(index)\n\nText\(index) [\(word)]{tracking=2} and "
                + "[link \(word)](https://example.com) tail\(index).\n"
        }.joined(separator: "\n")
        let source = Render.folder + "/right-to-left-zero-width.md"
        try Data(markdown.utf8).write(to: URL(fileURLWithPath: source))
        for theme in ["default", "hig"] {
            let pdf = Render.folder + "/right-to-left-zero-width-\(theme).pdf"
            let result = try typeset(["render", source, "--theme", theme, "-o", pdf])
            #expect(result.status == 0, "\(theme): \(result.output)")
            guard result.status == 0 else { continue }
            #expect(try PDFProbe.qpdfClean(pdf), "\(theme)")
            let text = try PDFProbe.text(pdf)
            for index in words.indices {
                for marker in ["Heading\(index)", "end\(index)", "Text\(index)", "tail\(index)"] {
                    #expect(text.contains(marker), "\(theme): \(marker) in \(text)")
                }
            }
        }
    }

    /// A link whose text changes direction is one `Link` whose annotation covers all of its
    /// text: the Arabic words at its end lie inside the link's rectangle.
    @Test func aLinkThatChangesDirectionCoversAllItsWords() throws {
        let (pdf, _) = try Render.markdown(
            "See [the link مرحبا](https://example.com) now.\n", name: "right-to-left-link-rectangle")
        let tree = try PDFProbe.run("pdfinfo", ["-struct-text", pdf]).output
        #expect(tree.components(separatedBy: "Link (inline)").count == 2, "\(tree)")
        let rectangles = try QDF(pdf).objects.values.filter { $0.contains("/Subtype /Link") }.compactMap {
            $0.firstMatch(of: /\/Rect \[\s*([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)/)
        }.map { [$0.output.1, $0.output.2, $0.output.3, $0.output.4].compactMap { Double($0) } }
        let rectangle = try #require(rectangles.first { $0.count == 4 })
        let arabic = try #require(
            try PDFProbe.words(pdf).first { $0.text.unicodeScalars.contains { $0.value >= 0x600 } })
        #expect(rectangle[0] <= arabic.xMin + 0.5 && arabic.xMax <= rectangle[2] + 0.5, "\(rectangle) \(arabic)")
    }

    /// In right-to-left text a formula set in parts and a code span keep their left-to-right
    /// order (each a left-to-right isolate, UAX #9 §2.7): `E = mc²`, not `mc² E =`; `x = 1;`, not
    /// `;x = 1`. The formula's parts are one `Formula` element only when the second is drawn
    /// right after the first, and `x` lies left of `1;` in the word boxes. Each formula is
    /// drawn once, and the two isolating controls read as nothing.
    @Test func formulasAndCodeStayLeftToRight() throws {
        let (pdf, _) = try Render.markdown(
            "שורה ועוד $E=mc^2$ נוסחה.\n\nשלום `x = 1;` עולם\n\nMath: $x + y$ and שלום.\n",
            name: "right-to-left-isolates")
        let words = try PDFProbe.words(pdf)
        func x(_ text: String) throws -> Double { try #require(words.first { $0.text.hasPrefix(text) }).xMin }
        #expect(try x("x") < x("1;"))
        let tree = try PDFProbe.run("pdfinfo", ["-struct-text", pdf]).output
        #expect(tree.components(separatedBy: "Formula").count == 3, "\(tree)")
        #expect(tree.contains("\"𝐸=𝑚𝑐"), "\(tree)")
        let text = try PDFProbe.text(pdf)
        #expect(!text.unicodeScalars.contains { (0x2066...0x2069).contains($0.value) })
        // The second formula's last part is drawn once, inside its formula: the text after the
        // formula starts with " and".
        #expect(tree.contains("\" and שלום.\""), "\(tree)")
    }
}
