import Foundation
import TestSupport
import Testing

/// Tables, captions, formulas, notes and languages read back from the structure tree: each element's
/// type, `/Lang`, `/Scope` and `/Alt` from `qpdf --json`, its text from `pdfinfo -struct-text`
/// (both list the elements depth first in `/K` order).
@Suite(.serialized) struct StructureTaggingTests {
    /// One structure element: its type, its own `/Lang`, the language it reads in (its own or
    /// its nearest ancestor's, else the catalog's), its `TH` scope, `/Alt`, text and children.
    final class Element {
        let type: String
        let language: String?
        let readsIn: String
        let scope: String?
        let alternativeText: String?
        var text = ""
        var children: [Element] = []

        init(type: String, language: String?, readsIn: String, scope: String?, alternativeText: String?) {
            self.type = type
            self.language = language
            self.readsIn = readsIn
            self.scope = scope
            self.alternativeText = alternativeText
        }

        /// The element and its descendants, depth first.
        var all: [Element] { [self] + children.flatMap(\.all) }
        /// The element and its descendants but the notes placed among them, depth first.
        var allButNotes: [Element] { [self] + children.filter { $0.type != "Note" }.flatMap(\.allButNotes) }
    }

    /// The structure tree of `pdf` below its `Document` element.
    static func tree(_ pdf: String) throws -> Element {
        let json = try PDFProbe.run("qpdf", ["--json", "--json-key=qpdf", pdf]).output
        let top = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let objects = try #require((top["qpdf"] as? [Any])?.last as? [String: Any])
        func resolve(_ value: Any?) -> Any? {
            guard let reference = value as? String, reference.hasSuffix(" R") else { return value }
            let object = objects["obj:" + reference] as? [String: Any]
            return object?["value"] ?? (object?["stream"] as? [String: Any])?["dict"]
        }
        func string(_ value: Any?) -> String? { (resolve(value) as? String).map { String($0.dropFirst(2)) } }
        let trailer = (objects["trailer"] as? [String: Any])?["value"] as? [String: Any]
        let catalog = try #require(resolve(trailer?["/Root"]) as? [String: Any])
        let root = Element(
            type: "root", language: nil, readsIn: string(catalog["/Lang"]) ?? "", scope: nil, alternativeText: nil)
        func walk(_ value: Any?, into parent: Element) {
            if let array = resolve(value) as? [Any] {
                for item in array { walk(item, into: parent) }
                return
            }
            guard let dictionary = resolve(value) as? [String: Any], let type = dictionary["/S"] as? String else {
                return
            }
            let language = string(dictionary["/Lang"])
            let attributes = resolve(dictionary["/A"]) as? [String: Any]
            let element = Element(
                type: String(type.dropFirst()), language: language, readsIn: language ?? parent.readsIn,
                scope: (attributes?["/Scope"] as? String).map { String($0.dropFirst()) },
                alternativeText: string(dictionary["/Alt"]))
            parent.children.append(element)
            walk(dictionary["/K"], into: element)
        }
        walk((resolve(catalog["/StructTreeRoot"]) as? [String: Any])?["/K"], into: root)
        // Texts from poppler, element by element in the same order.
        let poppler = try AccessibilityTests.structure(pdf).all.dropFirst()
        let elements = root.all.dropFirst()
        #expect(poppler.map(\.name) == elements.map(\.type))
        for (node, element) in zip(poppler, elements) { element.text = node.text }
        return try #require(root.children.first)
    }

    @Test func blocksInALanguageDivReadInItsLanguage() throws {
        let markdown = """
            ---
            title: L
            lang: en
            ---

            ::: {lang=ko}
            ## 제목

            | 열 | 값 |
            |---|---|
            | 가 | 나 |

            ```
            코드 줄
            ```

            > 인용문 문단[^1]

            용어
            : 정의 문단

            - 목록 항목
            :::

            After the div.

            [^1]: An English note.
            """
        let (pdf, _) = try Render.markdown(markdown, name: "language-div-blocks")
        let document = try Self.tree(pdf)
        #expect(document.readsIn == "en")
        for type in ["Table", "Code", "BlockQuote", "L"] {
            let element = try #require(document.children.first { $0.type == type }, "\(type)")
            #expect(element.language == "ko", "\(type)")
            // The elements inside inherit the language and do not repeat it.
            #expect(element.allButNotes.dropFirst().allSatisfy { $0.readsIn == "ko" && $0.language == nil }, "\(type)")
        }
        let table = try #require(document.children.first { $0.type == "Table" })
        #expect(table.all.filter { ["TH", "TD"].contains($0.type) }.map(\.text) == ["열", "값", "가", "나"])
        #expect(document.all.first { $0.text == "제목" }?.readsIn == "ko")
        // The note, placed in the Korean quote that cites it, reads in the document's language.
        let quote = try #require(document.children.first { $0.type == "BlockQuote" })
        let note = try #require(quote.all.first { $0.type == "Note" })
        #expect(note.language == "en", "the Note names the document's language")
        #expect(note.all.first { $0.type == "P" }.map { $0.readsIn == "en" } == true)
        #expect(document.all.first { $0.text == "Afterthediv." }?.readsIn == "en")
    }

    @Test func spansInAnotherLanguageAreSpansInIt() throws {
        let markdown = """
            ---
            title: L
            lang: en
            pdf-standard: ua-1
            ---

            # Heading with [Überschrift]{lang=de}

            The committee wrote [une phrase assez longue en français qui doit forcément passer
            à la ligne suivante dans ce paragraphe]{lang=fr} and left.

            A link inside: [voir [la documentation](https://example.org/doc) ici]{lang=fr}. \
            A span in a link: [read [das Handbuch]{lang=de} now](https://example.org).

            Nested: [français [english again]{lang=en} fin]{lang=FR}. Korean: [안녕하세요]{lang=ko}.

            [Une phrase entière en français.]{lang=fr}

            | Term | Meaning |
            |---|---|
            | [Zeitgeist]{lang=de} | spirit of the age |
            """
        let (pdf, _) = try Render.markdown(markdown, name: "language-spans")
        let document = try Self.tree(pdf)
        func squeezed(_ text: String) -> String { text.filter { !$0.isWhitespace } }
        func spans(in element: StructureTaggingTests.Element) -> [(text: String, language: String?)] {
            element.all.filter { $0.type == "Span" }.map { (squeezed($0.text), $0.language) }
        }
        let heading = try #require(document.children.first { $0.type == "H1" && $0.text.hasPrefix("Heading") })
        #expect(spans(in: heading).map(\.text) == ["Überschrift"])
        #expect(spans(in: heading).map(\.language) == ["de"])
        let paragraphs = document.children.filter { $0.type == "P" }
        try #require(paragraphs.count == 4)
        // A span broken over lines is one Span a line, each in its language, its words in order.
        let french = spans(in: paragraphs[0])
        #expect(french.count >= 2, "the span crosses a line end at this measure")
        #expect(french.allSatisfy { $0.language == "fr" })
        #expect(
            french.map(\.text).joined()
                == squeezed(
                    "une phrase assez longue en français qui doit forcément passer à la ligne suivante "
                        + "dans ce paragraphe"
                ))
        // Links inside spans and spans inside links: the Span is where the text is.
        let links = paragraphs[1]
        // (A span a line: "das Handbuch" may be cut where the line ends.)
        #expect(spans(in: links).filter { $0.language == "fr" }.map(\.text) == ["voir", "ladocumentation", "ici"])
        #expect(spans(in: links).filter { $0.language == "de" }.map(\.text).joined() == "dasHandbuch")
        #expect(spans(in: links).allSatisfy { $0.language == "fr" || $0.language == "de" })
        let linkElements = links.children.filter { $0.type == "Link" }
        #expect(linkElements.count == 2)
        #expect(linkElements.first?.children.map(\.type) == ["Span"])
        // Text back in the block's language (any case of its tag) is no span.
        #expect(spans(in: paragraphs[2]).map(\.text) == ["français", "fin", "안녕하세요"])
        #expect(spans(in: paragraphs[2]).map(\.language) == ["FR", "FR", "ko"])
        // A paragraph that is one span reads in its language whole, with no Span inside.
        #expect(paragraphs[3].language == "fr")
        #expect(spans(in: paragraphs[3]).isEmpty)
        let cell = try #require(document.all.first { $0.type == "TD" })
        #expect(spans(in: cell).map(\.language) == ["de"])
    }

    @Test func htmlHeaderCellsInBodyRowsHeadTheirRows() throws {
        let markdown = """
            <table>
            <caption>Sales by quarter</caption>
            <tr><th>Quarter</th><th>Sales</th></tr>
            <tr><th>Q1</th><td>10</td></tr>
            <tr><th scope="row">Q2</th><td>12</td></tr>
            <tr><td>Q3</td><th scope="col">14</th></tr>
            </table>

            | Name | Value |
            |---|---|
            | a | 1 |
            """
        let (pdf, _) = try Render.markdown(markdown, name: "html-row-headers")
        let document = try Self.tree(pdf)
        let tables = document.children.filter { $0.type == "Table" }
        #expect(tables.count == 2)
        let cells = tables[0].all.filter { ["TH", "TD"].contains($0.type) }
        #expect(cells.map(\.text) == ["Quarter", "Sales", "Q1", "10", "Q2", "12", "Q3", "14"])
        #expect(cells.map(\.type) == ["TH", "TH", "TH", "TD", "TH", "TD", "TD", "TH"])
        #expect(cells.map { $0.scope ?? "-" } == ["Column", "Column", "Row", "-", "Row", "-", "-", "Column"])
        // A Markdown table has its header row alone.
        let markdownCells = tables[1].all.filter { ["TH", "TD"].contains($0.type) }
        #expect(markdownCells.map(\.type) == ["TH", "TH", "TD", "TD"])
    }

    @Test func anHTMLCaptionIsTheTablesFirstChildCentredOverIt() throws {
        let markdown = """
            <table>
            <caption>Sales by quarter</caption>
            <tr><th>Quarter</th><th>Sales</th></tr>
            <tr><td>Q1</td><td>10</td></tr>
            </table>
            """
        let (pdf, _) = try Render.markdown(markdown, name: "html-caption")
        let document = try Self.tree(pdf)
        #expect(document.children.map(\.type) == ["Table"])
        let table = try #require(document.children.first)
        #expect(table.children.first?.type == "Caption")
        #expect(table.children.first?.text == "Salesbyquarter")
        // Centred over the table, not over the measure: the caption's middle is the table's.
        let words = try PDFProbe.words(pdf)
        let header = try #require(words.first { $0.text == "Quarter" })
        let caption = words.filter { $0.yMax <= header.yMin }
        let cells = words.filter { $0.yMin >= header.yMin && ["Quarter", "Sales", "Q1", "10"].contains($0.text) }
        #expect(caption.map(\.text) == ["Sales", "by", "quarter"])
        #expect(cells.count == 4)
        let captionMiddle = ((caption.map(\.xMin).min() ?? 0) + (caption.map(\.xMax).max() ?? 0)) / 2
        let tableLeft = cells.map(\.xMin).min() ?? 0
        let tableRight = cells.map(\.xMax).max() ?? 0
        #expect(captionMiddle > tableLeft && captionMiddle < tableRight)
        #expect(abs(captionMiddle - (tableLeft + tableRight) / 2) < 3)
    }

    @Test func aFormulasTagIsReadOnceAsItsLabel() throws {
        let markdown = """
            $$ E = mc^2 \\tag{1} $$

            $$ a + b \\tag*{A} \\label{eq:a} $$

            $$
            \\begin{align}
            x &= 1 \\notag \\\\
            y &= 2 \\tag{3}
            \\end{align}
            $$
            """
        let (pdf, _) = try Render.markdown(markdown, name: "formula-tags")
        let document = try Self.tree(pdf)
        let alts = document.all.filter { $0.type == "Formula" }.compactMap(\.alternativeText)
        #expect(!alts.isEmpty)
        #expect(alts.allSatisfy { !$0.contains("\\tag") && !$0.contains("\\notag") && !$0.contains("\\label") })
        #expect(alts.first == "E = mc^2")
        let text = try PDFProbe.text(pdf)
        #expect(text.components(separatedBy: "(1)").count == 2)
        #expect(!text.contains("\\tag"))
    }

    /// A displayed formula too wide for the measure, broken into lines after its operators, is
    /// a `Formula` a line, each with the source of its part as `/Alt`: also a formula written
    /// as its own `equation`, `equation*` or `displaymath`, whose lines before the last had
    /// none (PDF/UA-1 §7.7) and whose last had the whole source.
    @Test(arguments: ["$$", "\\begin{equation}", "\\begin{equation*}", "\\begin{displaymath}"])
    func aDisplayBrokenIntoLinesIsAFormulaALineWithItsPart(_ opening: String) throws {
        let sum = (1...22).map { "a_{\($0)}" }.joined(separator: " + ")
        let closing = opening == "$$" ? "$$" : opening.replacingOccurrences(of: "begin", with: "end")
        let markdown = "---\ntitle: F\npdf-standard: ua-1\n---\n\n\(opening) F = \(sum) \(closing)\n"
        let (pdf, _) = try Render.markdown(markdown, name: "display-broken-\(abs(opening.hashValue) % 1000)")
        let alts = try Self.tree(pdf).all.filter { $0.type == "Formula" }.map { $0.alternativeText ?? "" }
        #expect(alts.count > 1, "broken into lines: \(alts)")
        #expect(alts.allSatisfy { !$0.isEmpty && !$0.contains("\\begin") && !$0.contains("\\end") }, "\(alts)")
        func squeezed(_ text: String) -> String { text.filter { !$0.isWhitespace } }
        #expect(squeezed(alts.joined()) == squeezed("F = " + sum), "\(alts)")
    }

    /// A formula of an accent over nothing (`$\hat{}$`) is a `Formula` with its source, and the
    /// text after it reads in order: it had no width, no element, and its combining mark was
    /// read on a line of its own after the paragraph.
    @Test func anAccentOverNothingIsAFormula() throws {
        let (pdf, _) = try Render.markdown("Hat $\\hat{}$ here and $\\tilde{}$ there.\n", name: "empty-accent")
        let alts = try Self.tree(pdf).all.filter { $0.type == "Formula" }.compactMap(\.alternativeText)
        #expect(alts == [#"\hat{}"#, #"\tilde{}"#], "\(alts)")
        #expect(try PDFProbe.text(pdf).contains(#"Hat \hat{} here and \tilde{} there."#))
        // One with no spacing form: the combining mark in room of its own.
        let (vector, _) = try Render.markdown("Vector $\\vec{}$ there.\n", name: "empty-accent-vector")
        #expect(try PDFProbe.text(vector).contains(#"Vector \vec{} there."#))
    }

    /// An inline formula is cut into pieces after its relations and operations so that a line
    /// may break there; the pieces side by side on one line are one `Formula` whose `/Alt` is
    /// their source, and copy as it without a space between them. A formula the line breaks
    /// inside is one element a line, whose sources together spell the whole.
    @Test func anInlineFormulaIsOneFormulaOnEachLine() throws {
        let formulas = ["a+b", "E = mc^2", "a = b = c", "x := 5", "\\frac{a}{b} + \\sqrt{2}", "f(x) - g(x) < 1"]
        let markdown = formulas.map { "Sum $\($0)$ here.\n" }.joined(separator: "\n")
        let (pdf, _) = try Render.markdown(markdown, name: "inline-formula-pieces")
        let alts = try Self.tree(pdf).all.filter { $0.type == "Formula" }.compactMap(\.alternativeText)
        #expect(alts == formulas, "\(alts)")
        let text = try PDFProbe.text(pdf)
        #expect(text.contains("Sum a+b here") && text.contains("Sum x := 5 here"), "\(text)")
        let long = (1...40).map { "x_{\($0)}" }.joined(separator: " + ")
        let (broken, _) = try Render.markdown("Then $\(long)$ ends.\n", name: "inline-formula-broken")
        let pieces = try Self.tree(broken).all.filter { $0.type == "Formula" }.compactMap(\.alternativeText)
        #expect(pieces.count > 1 && pieces.count < 10, "one element a line: \(pieces)")
        func squeezed(_ text: String) -> String { text.filter { !$0.isWhitespace } }
        #expect(squeezed(pieces.joined()) == squeezed(long))
    }

    /// A footnote's number, drawn in the margin of the note's paragraph, is read apart from
    /// the note's first word through the structure tree (each note, and one opening with a
    /// formula and one with a link).
    @Test func aNotesNumberIsReadApartFromItsText() throws {
        let markdown = """
            One[^1], two[^2] and three[^3].

            [^1]: The note.
            [^2]: $x$ is a formula.
            [^3]: [A link](https://example.org) opens it.
            """
        let (pdf, _) = try Render.markdown(markdown, name: "note-numbers")
        let tree = try PDFProbe.run("pdfinfo", ["-struct-text", pdf]).output
        for expected in ["\"1 The note.\"", "\"3 \"", "\"2 "] {
            #expect(tree.contains(expected), "\(expected) in \(tree)")
        }
        #expect(!tree.contains("1The") && !tree.contains("3A"), "\(tree)")
    }
}
