import DocumentModel
import Foundation
import MarkdownParser
import TestSupport
import Testing
import Typesetter

/// Tagged PDF read back with poppler (`pdfinfo -struct-text`) and qpdf (`--json`):
/// the structure tree follows the source, furniture stays out of it, figures carry `/Alt`, the
/// catalog carries `/Lang`, `/MarkInfo`, `/ViewerPreferences` and XMP metadata.
@Suite(.serialized) struct AccessibilityTests {
    /// One element of `pdfinfo -struct-text`: its type, its text lines, its children.
    final class Node {
        let name: String
        var texts: [String] = []
        var children: [Node] = []
        /// The texts and children in the order `pdfinfo` lists them (a `Link` amid its
        /// paragraph's text).
        var parts: [Part] = []
        enum Part {
            case text(String)
            case child(Node)
        }
        weak var parent: Node?
        init(_ name: String, parent: Node?) {
            self.name = name
            self.parent = parent
        }
        /// All text below the node in order, whitespace removed (poppler joins lines without
        /// spaces).
        lazy var text: String = parts.map { part in
            switch part {
            case .text(let text): text
            case .child(let node): node.text
            }
        }.joined().filter { !$0.isWhitespace }
        /// The node and its descendants, depth first.
        var all: [Node] { [self] + children.flatMap(\.all) }
        var depthInLists: Int { (parent?.depthInLists ?? 0) + (name == "L" ? 1 : 0) }
    }

    /// Parses `pdfinfo -struct-text` (two spaces of indent per level; text lines in quotes).
    static func structure(_ pdf: String) throws -> Node {
        let output = try PDFProbe.run("pdfinfo", ["-struct-text", pdf]).output
        let root = Node("root", parent: nil)
        var stack: [(indent: Int, node: Node)] = [(-1, root)]
        for line in output.split(separator: "\n", omittingEmptySubsequences: true) {
            let indent = line.prefix { $0 == " " }.count
            let body = line.dropFirst(indent)
            while let last = stack.last, last.indent >= indent { stack.removeLast() }
            let parent = stack.last!.node
            if body.hasPrefix("\"") {
                parent.texts.append(String(body.dropFirst().dropLast()))
                parent.parts.append(.text(String(body.dropFirst().dropLast())))
            } else if body.hasPrefix("/") {
                // An attribute of the element above (`TH:` then `/Scope /Column`).
                stack.append((indent, parent))
            } else if !body.hasPrefix("Object ") {
                let name = body.split(separator: " ").first.map { $0.hasSuffix(":") ? $0.dropLast() : $0 } ?? ""
                let node = Node(String(name), parent: parent)
                parent.children.append(node)
                parent.parts.append(.child(node))
                stack.append((indent, node))
            }
        }
        return root
    }

    /// A document that names no language reads in the one its letters are written in: Korean
    /// text without `lang` is `/Lang ko` (and its alert labels Korean), an English text quoting
    /// a Korean word stays `en`, Japanese is `ja`; `lang: kr` (Kanuri) on Korean text is warned
    /// about at its line, and a `lang` given wins.
    @Test func aDocumentWithoutLangReadsInItsTextsLanguage() throws {
        for (markdown, language) in [
            ("# 시작하기\n\n이 문서는 한국어로 쓰였습니다. 설정 파일은 `config.yaml`입니다.\n", "ko"),
            ("English text with one Korean word, 한국어, in it.\n", "en"),
            ("# はじめに\n\nこの文書は日本語で書かれています。\n", "ja"),
            ("---\nlang: en\n---\n\n# 시작하기\n\n한국어 문장입니다.\n", "en"),
        ] {
            let (pdf, _) = try Render.markdown(markdown, name: "text-language")
            let (catalog, _, _) = try Self.catalogAndAlts(pdf)
            #expect(catalog["/Lang"] as? String == "u:\(language)", "\(markdown)")
        }
        let (alert, _) = try Render.markdown("> [!NOTE]\n> 참고하세요.\n", name: "text-language-alert")
        #expect(try PDFProbe.text(alert).contains("참고"))
        let (_, report) = try Render.markdown("---\nlang: kr\n---\n\n한국어 문장입니다.\n", name: "lang-kr")
        #expect(
            report.diagnostics.contains { $0.message.contains("'kr' is Kanuri") && $0.location?.line == 2 },
            "\(report.diagnostics)")
    }

    /// The catalog, the `/Alt` of every figure in structure-tree order, and the XMP metadata,
    /// from `qpdf --json` (strings there read `u:text`).
    static func catalogAndAlts(_ pdf: String) throws -> (catalog: [String: Any], alts: [String], xmp: String) {
        let json = try PDFProbe.run("qpdf", ["--json", "--json-key=qpdf", pdf]).output
        let top = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let parts = try #require(top["qpdf"] as? [Any])
        let objects = try #require(parts.last as? [String: Any])
        func resolve(_ value: Any?) -> Any? {
            guard let reference = value as? String, reference.hasSuffix(" R") else { return value }
            let object = objects["obj:" + reference] as? [String: Any]
            return object?["value"] ?? (object?["stream"] as? [String: Any])?["dict"]
        }
        let trailer = (objects["trailer"] as? [String: Any])?["value"] as? [String: Any]
        let catalog = resolve(trailer?["/Root"]) as? [String: Any] ?? [:]
        var alts: [String] = []
        func walk(_ value: Any?) {
            if let array = resolve(value) as? [Any] {
                array.forEach(walk)
                return
            }
            guard let element = resolve(value) as? [String: Any], element["/S"] != nil else { return }
            if element["/S"] as? String == "/Figure" {
                alts.append(String((element["/Alt"] as? String ?? "").dropFirst(2)))
            }
            walk(element["/K"])
        }
        walk((resolve(catalog["/StructTreeRoot"]) as? [String: Any])?["/K"])
        var xmp = ""
        if let reference = catalog["/Metadata"] as? String, let number = reference.split(separator: " ").first {
            xmp = try PDFProbe.run("qpdf", ["--show-object=\(number)", "--filtered-stream-data", pdf]).output
        }
        return (catalog, alts, xmp)
    }

    /// Whether the uncompressed content streams hold `marker` (bytes, not text: fonts are binary).
    static func contentContains(_ pdf: String, _ marker: String) throws -> Bool {
        let qdf = pdf + ".qdf"
        try PDFProbe.run("qpdf", ["--qdf", "--object-streams=disable", pdf, qdf])
        defer { try? FileManager.default.removeItem(atPath: qdf) }
        return try Data(contentsOf: URL(fileURLWithPath: qdf)).range(of: Data(marker.utf8)) != nil
    }

    /// What the source says the tree must hold, in order.
    struct Expected {
        var headings: [(level: Int, text: String)] = []
        var tableHeaders: [[String]] = []
        var figures: [String] = []
        var deepestList = 0
        var footnotes = 0
    }

    static func expected(from document: Document) -> Expected {
        var expected = Expected()
        expected.footnotes = document.footnotes.count
        func walk(_ blocks: [Block], listDepth: Int) {
            for block in blocks {
                switch block.kind {
                case .heading(let level, let inlines): expected.headings.append((level, inlines.plainText))
                case .table(let table): expected.tableHeaders.append(table.header.map { $0.plainText })
                case .paragraph(let inlines):
                    if inlines.count == 1, case .image(_, _, let alt, _) = inlines[0] {
                        expected.figures.append(alt.plainText)
                    }
                case .list(let list):
                    expected.deepestList = max(expected.deepestList, listDepth + 1)
                    for item in list.items { walk(item.blocks, listDepth: listDepth + 1) }
                case .blockQuote(let children), .div(let children), .alert(_, let children):
                    walk(children, listDepth: listDepth)
                default: break
                }
            }
        }
        walk(Array(document.blocks), listDepth: 0)
        return expected
    }

    static func squeezed(_ s: String) -> String { s.filter { !$0.isWhitespace } }

    @Test func handbookStructureFollowsItsSource() throws {
        let path = Render.packageRoot + "/templates/handbook.md"
        let source = try String(contentsOfFile: path, encoding: .utf8)
        let pdf = Render.folder + "/handbook-tagged.pdf"
        _ = try Typesetter.render(markdown: source, file: path, to: pdf)
        #expect(try PDFProbe.qpdfClean(pdf))
        let tree = try Self.structure(pdf)
        let document = try #require(tree.children.first)
        #expect(document.name == "Document" && tree.children.count == 1)
        let expected = Self.expected(from: MarkdownParser.parse(source, file: path).document)
        let nodes = document.all

        // Headings: every source heading, in order, at its level, with its text (the contents'
        // own title, not in the source, aside).
        let headings = nodes.filter { $0.name.count == 2 && $0.name.hasPrefix("H") && $0.text != "목차" }
        #expect(headings.map { Int($0.name.dropFirst())! } == expected.headings.map(\.level))
        #expect(headings.map(\.text) == expected.headings.map { Self.squeezed($0.text) })
        #expect(expected.headings.count > 30)

        // The contents: a TOC whose entries are the listed headings.
        let toc = try #require(nodes.first { $0.name == "TOC" })
        #expect(toc.children.count > 20 && toc.children.allSatisfy { $0.name == "TOCI" })
        // Each entry reads its title, a space and its page number: "Results 12", not "Results12".
        func read(_ node: Node) -> String {
            node.parts.map { part in
                switch part {
                case .text(let text): text
                case .child(let child): read(child)
                }
            }.joined()
        }
        let unspaced = toc.children.map(read).filter { $0.range(of: #"\S \d+$"#, options: .regularExpression) == nil }
        #expect(unspaced.isEmpty, "\(unspaced)")

        // Lists nest as deep as the source's, every item a label and a body.
        #expect(nodes.map(\.depthInLists).max() == expected.deepestList && expected.deepestList >= 3)
        for item in nodes where item.name == "LI" {
            #expect(item.children.map(\.name).prefix(2) == ["Lbl", "LBody"], "list item \(item.text)")
        }

        // Tables: one Table per source table (never split by a page), header cells TH by row.
        let tables = nodes.filter { $0.name == "Table" }
        #expect(tables.count == expected.tableHeaders.count)
        for (table, header) in zip(tables, expected.tableHeaders) {
            let rows = table.children.filter { $0.name == "TR" }
            #expect(rows.first?.children.map(\.name) == Array(repeating: "TH", count: header.count))
            #expect(rows.first?.children.map(\.text) == header.map(Self.squeezed))
            // A header repeated on a continued page is an artifact: no second TH row.
            #expect(rows.dropFirst().allSatisfy { $0.children.allSatisfy { $0.name == "TD" } })
        }
        // A table row by row: the dynamic-type table's second row.
        let dynamic = try #require(tables.first { $0.children.first?.children.first?.text == "Category" })
        #expect(dynamic.children[1].children.map(\.text) == ["xSmall", "14", "14", "25", "11"])

        // Figures with their alt text, each followed by its caption.
        let figures = nodes.filter { $0.name == "Figure" }
        #expect(figures.count == expected.figures.count && !figures.isEmpty)
        let (catalog, alts, xmp) = try Self.catalogAndAlts(pdf)
        #expect(alts == expected.figures)

        // Notes: one per footnote, each right after the element holding its reference.
        let notes = nodes.filter { $0.name == "Note" }
        #expect(notes.count == expected.footnotes && expected.footnotes > 0)
        for note in notes {
            let siblings = try #require(note.parent?.children)
            let index = try #require(siblings.firstIndex { $0 === note })
            let before = siblings[..<index].last { $0.name != "Note" }
            #expect(
                before?.all.contains { $0.name == "Reference" } == true,
                "note \(note.text.prefix(30)) follows its reference")
        }

        // Page furniture is not in the tree: running head (the title), folios "n / N".
        #expect(nodes.filter { $0.text == Self.squeezed("Typeset 조판 핸드북") }.map(\.name) == ["H1"])
        #expect(
            !nodes.contains { $0.texts.contains { $0.range(of: #"^\d+ / \d+$"#, options: .regularExpression) != nil } })
        #expect(!nodes.contains { $0.name == "Private" || $0.name == "Artifact" })

        // Document level.
        #expect(catalog["/Lang"] as? String == "u:ko")
        #expect((catalog["/MarkInfo"] as? [String: Any])?["/Marked"] as? Bool == true)
        #expect((catalog["/ViewerPreferences"] as? [String: Any])?["/DisplayDocTitle"] as? Bool == true)
        #expect(xmp.contains("<dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">Typeset 조판 핸드북</rdf:li>"))
        #expect(xmp.contains("<dc:language><rdf:Bag><rdf:li>ko</rdf:li>"))
        #expect(xmp.contains("<pdfuaid:part>1</pdfuaid:part>"))
        #expect(try Self.contentContains(pdf, "/Artifact BMC") && !Self.contentContains(pdf, "/Private"))
        // PDF/UA-1 details: notes carry an /ID, links a /Contents description.
        let json = try PDFProbe.run("qpdf", ["--json", "--json-key=qpdf", pdf]).output
        #expect(json.components(separatedBy: "\"/ID\": \"u:note-").count - 1 == expected.footnotes)
        // …and the structure tree's ID tree names each of them (PDF 1.7 Table 322).
        #expect(
            json.components(separatedBy: "\"u:note-").count - 1 == 2 * expected.footnotes,
            "each ID in its note and in the ID tree")
        #expect(json.contains("\"/IDTree\""))
        #expect(json.contains("\"/Contents\": \"u:Link within the document\""))
    }

    /// Marked content in every content stream of `pdf` (`qpdf --qdf`): each `BDC`/`BMC` closed
    /// by an `EMC` inside the `q … Q` it opened in, no MCID inside another. Returns what is
    /// wrong, or nil.
    static func markedContentNestingProblem(_ pdf: String) throws -> String? {
        let qdf = pdf + ".qdf"
        defer { unlink(qdf) }
        _ = try PDFProbe.run("qpdf", ["--qdf", "--object-streams=disable", pdf, qdf])
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: qdf)), as: UTF8.self)
        for stream in text.components(separatedBy: "stream\n").dropFirst() {
            let body = stream.components(separatedBy: "endstream").first ?? ""
            // Strings out of the way, then one token per word.
            let plain = body.replacingOccurrences(of: #"\((?:\\.|[^\\)])*\)"#, with: "()", options: .regularExpression)
            var open: [(depth: Int, mcid: Bool)] = []
            var depth = 0
            var lastMCID = false
            for token in plain.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
                switch token {
                case "q": depth += 1
                case "Q":
                    if let last = open.last, last.depth == depth { return "a marked-content sequence crosses a Q" }
                    depth -= 1
                case "/MCID": lastMCID = true
                case "BDC", "BMC":
                    let mcid = token == "BDC" && lastMCID
                    if mcid, open.contains(where: \.mcid) { return "an MCID inside another" }
                    open.append((depth, mcid))
                    lastMCID = false
                case "EMC":
                    guard let last = open.popLast() else { return "an EMC without BDC" }
                    if last.depth != depth { return "a marked-content sequence crosses a q" }
                default: break
                }
            }
            if !open.isEmpty { return "a marked-content sequence left open" }
        }
        return nil
    }

    /// A picture whose drawing holds squares of a content marker's size — one where a marker
    /// would go — is content: the document stays tagged, and marked content nests with the
    /// graphics states on every page.
    @Test func squaresOfAMarkersSizeInAPictureAreContent() throws {
        let svg = Render.folder + "/marker-sized.svg"
        let rects = ["0.5", "0.75", "3", "12"].map {
            "<rect x=\"\($0)\" y=\"0.5\" width=\"0.00533\" height=\"0.00533\"/>"
        }
        try "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"40\" height=\"20\">\(rects.joined())</svg>"
            .write(toFile: svg, atomically: false, encoding: .utf8)
        let markdown =
            "# Dots\n\n![Four dots](\(svg))\n\nA [link](https://example.com) after.\n\n"
            + String(repeating: "Words and more words. ", count: 400)
        let (pdf, report) = try Render.markdown(markdown, name: "marker-sized")
        #expect(!report.diagnostics.contains { $0.message.contains("could not be tagged") }, "\(report.diagnostics)")
        let tree = try Self.structure(pdf).all
        #expect(tree.contains { $0.name == "Figure" } && tree.contains { $0.name == "Link" })
        #expect(try Self.markedContentNestingProblem(pdf) == nil)
        #expect(try PDFProbe.info(pdf)["Pages"] != "1", "the text runs onto a second page")
    }

    /// A picture whose SVG holds links (`<a>`, as diagrams from Graphviz or draw.io do) is
    /// drawn with what its links hold, and no link of the PDF comes from it: librsvg made each a
    /// link annotation the structure could not account for, and the whole file was written
    /// untagged. Block and inline pictures, `href` and `xlink:href`, a prefixed `svg:a`.
    @Test func anSVGHoldingLinksLeavesTheDocumentTagged() throws {
        let svg = Render.folder + "/linked-diagram.svg"
        try """
        <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" \
        xmlns:svg="http://www.w3.org/2000/svg" width="200" height="60">
        <a xlink:href="https://svg.example/one"><rect width="90" height="60" fill="orange"/></a>
        <a href="https://svg.example/two"><rect x="100" width="40" height="60" fill="teal"/></a>
        <svg:a href="#inside"><rect x="150" width="40" height="60" fill="navy"/></svg:a>
        <!-- <a href="https://in.a.comment/"> --><text x="5" y="50">Diagram text</text>
        </svg>
        """.write(toFile: svg, atomically: false, encoding: .utf8)
        let markdown =
            "# Diagram\n\n![A linked diagram](\(svg))\n\nInline ![it](\(svg)) and a [link](https://example.com).\n"
        let (pdf, report) = try Render.markdown(markdown, name: "linked-diagram")
        #expect(!report.diagnostics.contains { $0.message.contains("could not be tagged") }, "\(report.diagnostics)")
        let tree = try Self.structure(pdf).all
        #expect(tree.filter { $0.name == "Figure" }.count == 2 && tree.filter { $0.name == "Link" }.count == 1)
        let links = try PDFProbe.run("pdfinfo", ["-url", pdf]).output
        #expect(links.contains("https://example.com") && !links.contains("svg.example"), "\(links)")
        // The linked shapes are drawn: orange, teal and navy are on the page.
        let content = try PDFProbe.run("qpdf", ["--qdf", "--object-streams=disable", pdf, "-"]).output
        for fill in ["1 0.647059 0 rg", "0 0.501961 0.501961 rg", "0 0 0.501961 rg"] {
            #expect(content.contains(fill), "\(fill)")
        }
    }

    /// Each element's type and the language it is read in (its `/Lang`, else its nearest
    /// ancestor's, else the catalog's), depth first.
    static func elementLanguages(_ pdf: String) throws -> [(type: String, language: String)] {
        let json = try PDFProbe.run("qpdf", ["--json", "--json-key=qpdf", pdf]).output
        let top = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let objects = try #require((top["qpdf"] as? [Any])?.last as? [String: Any])
        func resolve(_ value: Any?) -> Any? {
            guard let reference = value as? String, reference.hasSuffix(" R") else { return value }
            return (objects["obj:" + reference] as? [String: Any])?["value"]
        }
        let trailer = (objects["trailer"] as? [String: Any])?["value"] as? [String: Any]
        let catalog = resolve(trailer?["/Root"]) as? [String: Any] ?? [:]
        var found: [(type: String, language: String)] = []
        func walk(_ value: Any?, inherited: String) {
            if let array = resolve(value) as? [Any] {
                for item in array { walk(item, inherited: inherited) }
                return
            }
            guard let element = resolve(value) as? [String: Any], let type = element["/S"] as? String else { return }
            let language = (element["/Lang"] as? String).map { String($0.dropFirst(2)) } ?? inherited
            found.append((String(type.dropFirst()), language))
            walk(element["/K"], inherited: language)
        }
        let root = (catalog["/Lang"] as? String).map { String($0.dropFirst(2)) } ?? ""
        walk((resolve(catalog["/StructTreeRoot"]) as? [String: Any])?["/K"], inherited: root)
        return found
    }

    /// A note is read in the document's language wherever it is cited, also inside a quote or
    /// a list item of another language, whether the document names its language or not.
    @Test func aNoteCitedInAnotherLanguageReadsInTheDocuments() throws {
        for (front, document) in [("", "en"), ("---\nlang: de\n---\n\n", "de")] {
            let markdown = """
                \(front)::: {lang=fr}
                > Une citation[^a]

                - Un élément[^b]
                :::

                [^a]: The first note.

                [^b]: The second note.
                """
            let (pdf, _) = try Render.markdown(markdown, name: "note-language-\(document)")
            let elements = try Self.elementLanguages(pdf)
            let notes = elements.indices.filter { elements[$0].type == "Note" }
            #expect(notes.count == 2, "\(elements)")
            for note in notes {
                #expect(elements[note].language == document, "\(elements)")
                #expect(elements[note + 1].type == "P" && elements[note + 1].language == document, "\(elements)")
            }
            #expect(elements.contains { $0.type == "BlockQuote" && $0.language == "fr" }, "\(elements)")
        }
    }

    /// A figure's caption, beside the figure in the structure, reads in the figure's language,
    /// and a contents entry in its heading's: `Caption` and `TOCI` name the language of a
    /// `::: {lang=fr}` figure and of a `{lang=fr}` heading.
    @Test func aCaptionAndAContentsEntryReadInTheirElementsLanguage() throws {
        let folder = try Render.scratchFolder("caption-language")
        try FileManager.default.copyItem(
            atPath: Render.packageRoot + "/templates/images/line-height.png", toPath: folder + "/red.png")
        let markdown = """
            ---
            title: Languages
            ---

            # Résumé en français {lang=fr}

            Texte.

            # English

            ::: {lang=fr}
            ![Une image rouge](red.png)
            :::
            """
        var options = RenderOptions()
        options.baseDirectory = folder
        options.tableOfContents = true
        let (pdf, _) = try Render.markdown(markdown, name: "caption-language", options: options)
        let elements = try Self.elementLanguages(pdf)
        #expect(elements.filter { $0.type == "Caption" }.map(\.language) == ["fr"], "\(elements)")
        #expect(elements.filter { $0.type == "Figure" }.map(\.language) == ["fr"], "\(elements)")
        #expect(elements.filter { $0.type == "TOCI" }.map(\.language) == ["fr", "en"], "\(elements)")
    }

    /// A note's lists, quotes and code keep their structure inside its `Note`, as in the body:
    /// `L` > `LI` > `Lbl` and `LBody` (nested too), `BlockQuote`, `Code`; they were all `P`,
    /// their markers read as text.
    @Test func aNotesListsQuotesAndCodeKeepTheirStructure() throws {
        let markdown = """
            ---
            title: Notes
            ---

            Text[^a].

            [^a]: Note intro:

                1. first
                2. second

                > quoted in note

                ```python
                print(1)
                ```

                - nested
                    - deeper
            """
        let (pdf, report) = try Render.markdown(markdown, name: "note-structure")
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics)")
        let note = try #require(try Self.structure(pdf).all.first { $0.name == "Note" })
        #expect(note.children.map(\.name) == ["P", "L", "BlockQuote", "Code", "L"], "\(note.children.map(\.name))")
        let items = note.children[1].children
        #expect(items.map(\.name) == ["LI", "LI"] && items[0].children.map(\.name) == ["Lbl", "LBody"])
        #expect(items[0].children[0].text == "1." && items[1].children[1].text == "second")
        #expect(note.children[2].text == "quotedinnote" && note.children[3].text == "print(1)")
        #expect(note.children[4].all.filter { $0.name == "L" }.count == 2, "the nested list is a list in its item")
        let failures = try PDFValidationTests.validate([pdf])
        #expect(failures[pdf]?.isEmpty ?? true, "\(failures)")
    }

    @Test func aParagraphAndATableContinuedOnTheNextPageStayOneElement() throws {
        let long = String(repeating: "A paragraph long enough to cross the page, 문단은 다음 쪽으로 이어집니다. ", count: 60)
        let rows = (1...70).map { "| row \($0) | value \($0) |" }.joined(separator: "\n")
        let markdown = "# Continued\n\n\(long)\n\n| Name | Value |\n|---|---|\n\(rows)\n\nAfter.\n"
        let (pdf, report) = try Render.markdown(markdown, name: "continued")
        #expect(report.pageCount >= 3)
        #expect(try PDFProbe.qpdfClean(pdf))
        let document = try #require(try Self.structure(pdf).children.first)
        #expect(document.children.map(\.name) == ["H1", "P", "Table", "P"])
        #expect(document.children[1].text == Self.squeezed(long))
        let table = document.children[2]
        #expect(table.children.count == 71)
        #expect(table.all.filter { $0.name == "TH" }.count == 2)
        #expect(table.children.last?.children.map(\.text) == ["row70", "value70"])
    }

    @Test func quotesCodeAndLinksAreTaggedAndLanguageDefaultsToEnglish() throws {
        let markdown = """
            # Title

            > A quoted paragraph with a [link](https://example.com) inside.

            ```
            let x = 1
            ```

            1. first
            2. second

            ---

            ![](missing.png)
            """
        let (pdf, report) = try Render.markdown(markdown, name: "tagged-kinds")
        #expect(report.diagnostics.contains { $0.message.contains("has no alt text") })
        let document = try #require(try Self.structure(pdf).children.first)
        #expect(document.children.map(\.name) == ["H1", "BlockQuote", "Code", "L", "Figure"])
        let quote = document.children[1]
        #expect(quote.all.map(\.name).contains("Link") && quote.children.first?.name == "P")
        #expect(quote.text == "Aquotedparagraphwithalinkinside.")
        #expect(document.children[3].children.map { $0.children.first?.text } == ["1.", "2."])
        #expect(try Self.catalogAndAlts(pdf).catalog["/Lang"] as? String == "u:en")
        // A figure without alt text: no PDF/UA claim.
        let (_, alts, xmp) = try Self.catalogAndAlts(pdf)
        #expect(alts == [""] && xmp.contains("<dc:title>") && !xmp.contains("pdfuaid:part"))
    }

    @Test func noTagsWritesOnlyLinksAndNoLanguage() throws {
        let markdown = "---\nlang: de\n---\n# Titel\n\nEin [Link](https://example.com).\n"
        var options = RenderOptions()
        options.tagged = false
        let (plain, _) = try Render.markdown(markdown, name: "untagged", options: options)
        let (tagged, _) = try Render.markdown(markdown, name: "tagged-de")
        #expect(try PDFProbe.qpdfClean(plain) && PDFProbe.qpdfClean(tagged))
        let plainTree = try #require(try Self.structure(plain).children.first)
        #expect(plainTree.all.map(\.name) == ["Document", "Link"])
        #expect(try Self.catalogAndAlts(plain).catalog["/Lang"] == nil)
        #expect(try Self.catalogAndAlts(tagged).catalog["/Lang"] as? String == "u:de")
        // The command line's flag.
        let out = Render.folder + "/cli-untagged.pdf"
        let md = Render.folder + "/cli-untagged.md"
        try markdown.write(toFile: md, atomically: false, encoding: .utf8)
        let (status, _) = try PDFProbe.run(Render.binary, ["render", md, "-o", out, "--no-tags", "-q"])
        #expect(status == 0)
        #expect(try Self.structure(out).children.first?.all.map(\.name) == ["Document", "Link"])
    }

    @Test func aMalformedLanguageWarnsAndFallsBackToEnglish() throws {
        let (pdf, report) = try Render.markdown("---\nlang: \"not a tag!\"\n---\nText.\n", name: "bad-lang")
        #expect(report.diagnostics.contains { $0.message.contains("not a BCP 47 language tag") })
        #expect(try Self.catalogAndAlts(pdf).catalog["/Lang"] as? String == "u:en")
    }
}

/// A colour emoji opening a page (drawn as an image before any text) keeps the PDF tagged:
/// it once emptied Cairo 1.16's record of the page's open tags, so the tagged render failed and
/// fell back to untagged.
@Suite struct TaggingFallbackTests {
    @Test func emojiOpeningThePageIsTagged() throws {
        let (pdf, report) = try Render.markdown("# 🎉 Party\n\n🎉 opens this line.\n", name: "emoji-first")
        #expect(try PDFProbe.qpdfClean(pdf))
        #expect(try PDFProbe.info(pdf)["Pages"] == "1")
        #expect(!report.diagnostics.contains { $0.message.contains("could not be tagged") })
        let names = try AccessibilityTests.structure(pdf).all.map(\.name)
        #expect(names.contains("H1") && names.contains("P"))
        #expect(try PDFProbe.text(pdf).contains("Party"))
    }
}

extension AccessibilityTests {
    /// A link's words are the content of its `Link` element, next to its annotation
    /// (PDF/UA-1 §7.18.5): a link over two lines is one `Link` with a run on each line, links on
    /// one line are a `Link` each, a footnote marker's is inside its `Reference`, and the
    /// paragraph keeps the words around them, in order. A picture in a line is a `Figure` with
    /// its alternative text, inside the `Link` when linked.
    @Test func linksHoldTheirWordsAndPicturesInLinesTheirAlt() throws {
        let folder = try Render.scratchFolder("link-text")
        _ = try PDFValidationTests.constructsDocument(folder: folder)
        let long = TextFidelityTests.words(24, seed: 9)
        let markdown =
            "---\ntitle: Links\n---\n\nBefore the link [" + long.joined(separator: " ")
            + "](https://example.com/long) after it, two [short](https://a.example) and [tiny](https://a.example)"
            + " ones, a note.[^n] An inline ![a small type scale](type-scale.png) picture and a linked one"
            + " [![the press photo](press.jpg)](https://example.com/press) too.\n\n[^n]: The note.\n"
        let source = folder + "/links.md"
        try markdown.write(toFile: source, atomically: false, encoding: .utf8)
        let pdf = try PDFValidationTests.render(source, into: folder, name: "links")

        let tree = try Self.structure(pdf)
        let paragraph = try #require(tree.all.first { $0.name == "P" })
        let links = paragraph.all.filter { $0.name == "Link" }
        #expect(links.map(\.text) == [Self.squeezed(long.joined()), "short", "tiny", "1", ""])
        #expect(links[0].texts.count >= 2, "the long link has a run on each of its lines: \(links[0].texts)")
        #expect(links[3].parent?.name == "Reference")
        #expect(links[4].children.map(\.name) == ["Figure"], "the linked picture is a Figure inside its Link")
        #expect(paragraph.children.map(\.name) == ["Link", "Link", "Link", "Reference", "Figure", "Link"])
        #expect(
            Self.squeezed(paragraph.texts.joined())
                == Self.squeezed(
                    "Before the link after it, two and ones, a note. An inline picture and a linked one too."))
        #expect(try Self.catalogAndAlts(pdf).alts == ["a small type scale", "the press photo"])

        let expected =
            ["Links", "Before", "the", "link"] + long
            + [
                "after", "it", "two", "short", "and", "tiny", "ones", "a", "note", "An", "inline", "picture", "and",
                "a",
                "linked", "one", "too", "The", "note",
            ]
        let read = TextFidelityTests.words(of: try TextFidelityTests.structureText(pdf))
        #expect(
            TextFidelityTests.difference(read, expected) == nil, "\(TextFidelityTests.difference(read, expected) ?? "")"
        )
        #expect(try PDFProbe.run("qpdf", ["--check", pdf]).status == 0)
        try PDFValidationTests.expectValid([pdf])
        guard let python = PDFValidationTests.checker() else { return }
        let script = Render.packageRoot + "/Tests/Scripts/pdf-check.py"
        let pypdf = TextFidelityTests.words(
            of: try PDFProbe.run(python, [script, "text", pdf], standardErrorToo: false).output)
        #expect(
            TextFidelityTests.difference(pypdf, expected) == nil,
            "pypdf: \(TextFidelityTests.difference(pypdf, expected) ?? "")")
    }
}

extension AccessibilityTests {
    /// A tagged line drawn in pieces at its links and pictures draws the page an untagged one
    /// does: no glyph drawn twice or left out, no background of a later piece over an earlier
    /// piece's glyphs (inline code in a link at a line's start, a struck link, a link in a
    /// right-to-left line, a picture in a link). Only the tagging pass's markers, in the page's
    /// top-left 17 pt, may differ. (Hyphenation is off: an added hyphen, drawn on its own when
    /// tagged, can differ in a pixel's anti-aliasing.)
    @Test func linesDrawnInPiecesLookAsDrawnWhole() throws {
        let folder = try Render.scratchFolder("link-pieces")
        _ = try PDFValidationTests.constructsDocument(folder: folder)
        let words = TextFidelityTests.words(40, seed: 2)
        let markdown =
            "---\ntitle: Pieces\njustify: true\nhyphenate: false\nmargins: 20mm 70mm\n---\n\n"
            + words.prefix(20).joined(separator: " ")
            + " [`code link`](https://c.example) and ~~[struck link](https://s.example)~~"
            + " [" + words.suffix(20).joined(separator: " ") + "](https://long.example) and a picture"
            + " [![the press photo](press.jpg)](https://example.com/press) end.\n\n"
            + "שלום [קישור לדף](https://example.com/he) עולם.\n"
        let source = folder + "/pieces.md"
        try markdown.write(toFile: source, atomically: false, encoding: .utf8)
        let tagged = try PDFValidationTests.render(source, into: folder, name: "tagged")
        let untagged = try PDFValidationTests.render(source, into: folder, name: "untagged", options: ["--no-tags"])
        #expect(try Self.structure(tagged).all.filter { $0.name == "Link" }.count == 5)
        func picture(_ pdf: String) throws -> NetpbmImage {
            let out = folder + "/" + UUID().uuidString.prefix(6)
            _ = try PDFProbe.run("pdftoppm", ["-gray", "-r", "96", "-singlefile", pdf, out])
            return try #require(NetpbmImage(path: out + ".pgm"))
        }
        let (a, b) = (try picture(tagged), try picture(untagged))
        #expect(a.width == b.width && a.height == b.height)
        // Rows below the markers' corner (17 pt = 23 px at 96 dpi).
        let start = 24 * a.width
        let differing = zip(a.samples[start...], b.samples[start...]).filter { abs(Int($0) - Int($1)) > 24 }.count
        #expect(differing == 0, "\(differing) pixels differ between the tagged and untagged pages")
    }
}
