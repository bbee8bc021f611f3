import DocumentModel
import Testing

@testable import MarkdownParser

/// Pandoc's ordered lists of letters, Roman numerals and `#`, and lists counted in Hangul
/// (``PandocListMarkers``, ``ListNumbering``): each numbering, delimiter and parenthesised
/// form read as a list with its first number; the places a list opens and those where the
/// same characters stay text or code, byte for byte.
@Suite struct PandocListMarkerTests {
    private func blocks(_ text: String) -> [Block] {
        Array(MarkdownParser.parse(text, file: "t.md").document.blocks)
    }

    /// The lists among `blocks`, nested ones after their parents', depth first.
    private func lists(_ blocks: [Block]) -> [ListBlock] {
        blocks.flatMap { block -> [ListBlock] in
            switch block.kind {
            case .list(let list): [list] + list.items.flatMap { lists($0.blocks) }
            case .blockQuote(let content): lists(content)
            default: []
            }
        }
    }

    /// The markers of a list as they are set.
    private func markers(_ list: ListBlock) -> [String] {
        list.items.indices.map(list.marker(at:))
    }

    @Test func everyNumberingAndDelimiterIsAList() throws {
        let cases: [(String, ListNumbering, Int, [String])] = [
            ("a. one\nb. two\nc. three", .lowerAlpha, 1, ["a.", "b.", "c."]),
            ("c) three\nd) four", .lowerAlpha, 3, ["c)", "d)"]),
            ("(b) two\n(c) three", .lowerAlpha, 2, ["(b)", "(c)"]),
            ("B.  two\nC.  three", .upperAlpha, 2, ["B.", "C."]),
            ("i. one\nii. two\niii. three\niv. four\nv. five", .lowerRoman, 1, ["i.", "ii.", "iii.", "iv.", "v."]),
            ("(iv) four\n(v) five", .lowerRoman, 4, ["(iv)", "(v)"]),
            ("IX) nine\nX) ten", .upperRoman, 9, ["IX)", "X)"]),
            ("#. one\n#. two\n#. three", .decimal, 1, ["1.", "2.", "3."]),
            ("가. 첫째\n나. 둘째\n다. 셋째", .hangul, 1, ["가.", "나.", "다."]),
            ("(다) 셋째\n(라) 넷째", .hangul, 3, ["(다)", "(라)"]),
        ]
        for (markdown, numbering, start, expected) in cases {
            for text in [
                "Lead.\n\n" + markdown + "\n", markdown + "\n", "Lead.\n\n" + markdown.replacing("\n", with: "\n\n"),
            ] {
                let found = lists(blocks(text))
                #expect(found.count == 1, "\(text.debugDescription): \(found)")
                let list = try #require(found.first)
                #expect(list.ordered && list.numbering == numbering && list.start == start, "\(text.debugDescription)")
                #expect(markers(list) == expected, "\(text.debugDescription): \(markers(list))")
            }
        }
    }

    /// Pandoc's lists nest in items (directly under their text or after a blank line), and
    /// open in quotes; a marker of another numbering or form opens a list of its own.
    @Test func listsNestAndChangeWhereTheirMarkersDo() throws {
        let nested = lists(blocks("1. Outer\n   a. inner one\n   b. inner two\n2. Outer two\n"))
        #expect(nested.map(\.numbering) == [.decimal, .lowerAlpha] && nested.first?.items.count == 2, "\(nested)")
        let deeper = lists(blocks("- bullet\n\n    i. roman\n    ii. roman two\n"))
        #expect(deeper.map(\.numbering) == [.decimal, .lowerRoman] && deeper.last.map(markers) == ["i.", "ii."])
        let quoted = lists(blocks("> (a) in a quote\n> (b) second\n"))
        #expect(quoted.map(\.numbering) == [.lowerAlpha] && quoted.first.map(markers) == ["(a)", "(b)"], "\(quoted)")
        let changing = lists(blocks("a) one\nb) two\n\n(i) roman\n(ii) roman two\n\n가. 하나\n\n1. figures\n"))
        #expect(changing.map(\.numbering) == [.lowerAlpha, .lowerRoman, .hangul, .decimal], "\(changing)")
        #expect(changing.map(\.tight) == [true, true, true, true], "\(changing.map(\.tight))")
        #expect(changing.map(\.enclosed) == [false, true, false, false])
        // In a Roman list `v.` and `x.` are numerals; opening a list they are letters.
        #expect(lists(blocks("iv. four\nv. five\n")).first.map(markers) == ["iv.", "v."])
        #expect(lists(blocks("v. vee\nw. double\n")).first?.numbering == .lowerAlpha)
    }

    /// Where a marker opens no list its characters stay as written: directly after a line of
    /// text, a capital and a period with one space (a name's initial), a letter without a
    /// space or text after it, and in fenced code, indented code and a definition.
    @Test func markersThatOpenNoListStayAsWritten() throws {
        for text in [
            "Prose line\na) not a list\nb) still text\n", "B. Russell wrote it.\n", "a)b) no space\n",
            "ab. two letters\n", "(a)\n", "Q.  \n",
        ] {
            let parsed = blocks(text)
            #expect(lists(parsed).isEmpty, "\(text.debugDescription): \(parsed)")
            let first = text.split(separator: "\n")[0].prefix(2)
            #expect(parsed.flatMap(\.plainTexts).joined(separator: "\n").contains(first), "\(text.debugDescription)")
        }
        for (text, literal) in [
            ("```\na) code stays\n(iv) as written\n```\n", "a) code stays\n(iv) as written"),
            ("Lead.\n\n    (a) indented code\n    b) too\n", "(a) indented code\nb) too"),
            ("- item\n\n      a) code in an item\n", "a) code in an item"),
            ("~~~~\n가. 코드\n~~~~\n", "가. 코드"),
        ] {
            let codes = blocks(text).flatMap(\.codeLiterals)
            #expect(codes.contains { $0.hasPrefix(literal) }, "\(text.debugDescription): \(codes)")
        }
    }

    /// The HTML blocks that run to an end condition (CommonMark §4.6 types 1 to 5: `<pre>`,
    /// `<script>`, `<style>`, `<textarea>` in any case, comments, processing instructions,
    /// declarations, CDATA), blank lines and all, keep their text as written; the same lines
    /// after the block, or after a block that ends on its first line, are lists.
    @Test func markersInHTMLBlocksThatRunToAnEndStayAsWritten() {
        let body = "Conditions:\n\n(a) first\n\n(iv) fourth\n\n#. step\n\nB)  two\n"
        let blocks: [(open: String, close: String)] = [
            ("<pre>", "</pre>"), ("<PRE>", "</PRE>"), ("<pre><code>", "</code></pre>"),
            ("<script type=\"text/x-notes\">", "</script>"), ("<style>", "</style>"), ("<textarea>", "</textarea>"),
            ("<!--", "-->"), ("<?notes", "?>"), ("<!NOTES", ">"), ("<![CDATA[", "]]>"),
        ]
        for (open, close) in blocks {
            for (before, after) in [("", ""), ("Lead.\n", ""), ("> ", "> "), ("- item\n\n  ", "  ")] {
                let lines =
                    ([open] + body.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) + [close])
                let text = lines.enumerated().map { $0.offset == 0 ? before + $0.element : after + $0.element }
                    .joined(separator: "\n")
                #expect(PandocListMarkers.rewriting(text + "\n", firstLine: 1) == nil, "\(text.debugDescription)")
                let listed = PandocListMarkers.rewriting(text + "\n\n" + body, firstLine: 1)
                #expect(listed?.markers.count == 4, "\(text.debugDescription): \(String(describing: listed?.markers))")
            }
            let oneLine = open + " x " + close + "\n\n" + body
            #expect(
                PandocListMarkers.rewriting(oneLine, firstLine: 1)?.markers.count == 4, "\(oneLine.debugDescription)")
        }
        let pre = MarkdownParser.parse("<pre>\n" + body + "</pre>\n", file: "t.md").document.blocks
        #expect(Array(pre).flatMap(\.codeLiterals).joined().contains("(a) first\n\n(iv) fourth\n\n#. step"))
    }

    /// Pandoc's examples count on through the document, from list to list and form to form;
    /// `@label` in the text is its example's number, but after a letter (an address), in code,
    /// and for a label no example has, it stays as written; a label of any length is read.
    @Test func examplesCountOnAndTheirLabelsAreTheirNumbers() throws {
        let text = """
            Lead.

            (@) first
            (@) second

            Between.

            (@good) third, labelled

            As (@good) shows, and @good; not me@good.org, `@good` or @missing.

            *See (@good)* and [**@good**]{.smallcaps}.

            @. fourth
            @) fifth

            (@a_much_longer_label) a long label

            See @a_much_longer_label.
            """
        let parsed = MarkdownParser.parse(text + "\n", file: "t.md")
        let found = lists(Array(parsed.document.blocks))
        #expect(
            found.map { markers($0) } == [["(1)", "(2)"], ["(3)"], ["4."], ["5)"], ["(6)"]],
            "\(found.map { markers($0) })")
        let paragraphs = parsed.document.blocks.compactMap { block -> String? in
            guard case .paragraph(let inlines) = block.kind else { return nil }
            return inlines.map(\.plainText).joined()
        }
        #expect(paragraphs.contains("As (3) shows, and 3; not me@good.org, @good or @missing."), "\(paragraphs)")
        #expect(paragraphs.contains("See 6."), "\(paragraphs)")
        #expect(paragraphs.contains("See (3) and 3."), "inside emphasis and spans: \(paragraphs)")
        let item = found.last?.items.first?.blocks.first.flatMap { block -> String? in
            guard case .paragraph(let inlines) = block.kind else { return nil }
            return inlines.map(\.plainText).joined()
        }
        #expect(item == "a long label", "\(String(describing: item))")
        #expect(ExampleReferences(numbers: ["x": 7]).replacing(in: "@x, (@x) and a@x") == "7, (7) and a@x")
    }

    /// An HTML `<ol type>` numbers its items as HTML does; another value is figures, warned.
    @Test func anHTMLListsTypeIsItsNumbering() throws {
        let cases: [(String, ListNumbering)] = [
            ("a", .lowerAlpha), ("A", .upperAlpha), ("i", .lowerRoman), ("I", .upperRoman),
        ]
        for (type, numbering) in cases {
            let parsed = MarkdownParser.parse(
                "<ol type=\"\(type)\" start=\"3\"><li>x</li><li>y</li></ol>\n", file: "t.md")
            let list = try #require(lists(Array(parsed.document.blocks)).first)
            #expect(list.numbering == numbering && list.start == 3, "\(type): \(list)")
            #expect(parsed.diagnostics.isEmpty, "\(type): \(parsed.diagnostics)")
        }
        let odd = MarkdownParser.parse("<ol type=\"disc\"><li>x</li></ol>\n", file: "t.md")
        #expect(odd.diagnostics.contains { $0.message.contains("HTML's types are 1, a, A, i and I") })
    }

    /// The counters of each numbering, past the end of their symbols and outside their range.
    @Test func countersWriteEveryNumber() {
        let cases: [(ListNumbering, Int, String)] = [
            (.lowerAlpha, 1, "a"), (.lowerAlpha, 26, "z"), (.lowerAlpha, 27, "aa"), (.lowerAlpha, 703, "aaa"),
            (.upperAlpha, 52, "AZ"), (.lowerRoman, 4, "iv"), (.lowerRoman, 1994, "mcmxciv"),
            (.upperRoman, 3999, "MMMCMXCIX"), (.upperRoman, 4000, "4000"), (.lowerAlpha, 0, "0"),
            (.lowerRoman, -2, "-2"), (.hangul, 14, "하"), (.hangul, 15, "가가"), (.decimal, 12, "12"),
        ]
        for (numbering, number, counter) in cases {
            #expect(numbering.counter(number) == counter, "\(numbering) \(number)")
            if Int(counter) == nil, counter.count == 1 || numbering == .lowerRoman || numbering == .upperRoman {
                #expect(numbering.number(of: Substring(counter)) == number, "\(counter)")
            }
        }
        let notCounters: [(ListNumbering, String)] = [
            (.lowerRoman, "iiii"), (.upperRoman, "IC"), (.lowerRoman, "IV"), (.lowerAlpha, "aa"), (.hangul, "가가"),
        ]
        for (numbering, written) in notCounters {
            #expect(numbering.number(of: Substring(written)) == nil, "\(written)")
        }
    }
}

extension Block {
    /// The literal text of each code block in this block and those inside it.
    fileprivate var codeLiterals: [String] {
        switch kind {
        case .codeBlock(_, let text): [text]
        case .list(let list): list.items.flatMap { $0.blocks.flatMap(\.codeLiterals) }
        case .blockQuote(let content): content.flatMap(\.codeLiterals)
        default: []
        }
    }

    /// The plain text of each paragraph in this block.
    fileprivate var plainTexts: [String] {
        guard case .paragraph(let inlines) = kind else { return [] }
        return [inlines.map(\.plainText).joined()]
    }
}
