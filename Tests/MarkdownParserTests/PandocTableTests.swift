import DocumentModel
import TestSupport
import Testing

@testable import MarkdownParser

/// Pandoc's simple, multiline and grid tables (Pandoc's manual, "Tables") read as tables, each
/// column aligned as Pandoc aligns it, and what only looks like one (a setext heading, rules
/// between paragraphs, a table in code) left as it was.
@Suite struct PandocTableTests {
    /// The scan for a line a table must have judges each line as the line judge does, whatever
    /// stands before it (quote markers, indents, tabs) and wherever it stands in the text: it
    /// reads a line whole only when its first byte may open a table, and skips no line the
    /// judge would take.
    @Test func theScanForTableLinesSkipsNoLineTheJudgeTakes() {
        let lines = [
            "---- ----", "----  -----  ---", "------", "+---+---+", "+===+", "+:--+", ": A caption", "Table: Sales",
            "Table:x", "-- --", "- item", "+ item", "T", ":", "text ---- ----", "| a | b |", "----\r",
            "---- ----" + String(repeating: "-", count: 5_000), "+" + String(repeating: "-", count: 5_000) + "+",
        ]
        var wrong: [String] = []
        for line in lines {
            for prefix in ["", "  ", "    ", "> ", ">> ", "\t", " > \t"] {
                let written = prefix + line
                let judged = PandocTables.mayOpenTable(inContainer: Array(written.utf8)[...])
                for text in [written, "Before.\n" + written, written + "\nAfter.", "가\n" + written + "\n"]
                where PandocTables.mayHoldTables(text) != judged {
                    wrong.append(text.prefix(40).debugDescription)
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong)")
    }

    private func parsed(_ text: String) -> [Block] {
        Array(MarkdownParser.parse(text, file: "t.md").document.blocks)
    }

    private func parsedTable(_ text: String) -> Table? {
        for block in parsed(text) { if case .table(let table) = block.kind { return table } }
        return nil
    }

    private func texts(_ cells: [[Inline]]) -> [String] { cells.map(\.plainText) }

    static let simple = """
          Right     Left     Center     Default
        -------     ------ ----------   -------
             12     12        12            12
            123     123       123          123
              1     1          1             1
        """

    static let multiline = """
        -------------------------------------------------------------
         Centered   Default           Right Left
          Header    Aligned         Aligned Aligned
        ----------- ------- --------------- -------------------------
           First    row                12.0 Example of a row that
                                            spans multiple lines.

          Second    row                 5.0 Here's another one. Note
                                            the blank line between
                                            rows.
        -------------------------------------------------------------
        """

    static let headerless = """
        -------     ------ ----------   -------
             12     12        12             12
            123     123       123           123
        -------     ------ ----------   -------
        """

    static let grid = """
        +---------------+---------------+--------------------+
        | Fruit         | Price         | Advantages         |
        +===============+===============+====================+
        | Bananas       | $1.34         | built-in wrapper   |
        |               |               | bright color       |
        +---------------+---------------+--------------------+
        | Oranges       | $2.10         | cures scurvy       |
        +---------------+---------------+--------------------+
        """

    @Test func aSimpleTableIsATableAlignedByItsHeader() throws {
        let table = try #require(parsedTable("Lead.\n\n" + Self.simple + "\n\nAfter.\n"))
        #expect(texts(table.header) == ["Right", "Left", "Center", "Default"])
        #expect(table.alignments == [.right, .left, .center, .none])
        #expect(
            table.rows.map(texts) == [["12", "12", "12", "12"], ["123", "123", "123", "123"], ["1", "1", "1", "1"]])
    }

    @Test func aMultilineTableJoinsEachCellsLines() throws {
        let table = try #require(parsedTable(Self.multiline + "\n"))
        #expect(texts(table.header) == ["Centered Header", "Default Aligned", "Right Aligned", "Left Aligned"])
        #expect(table.alignments == [.center, .none, .right, .left])
        #expect(table.rows.count == 2)
        #expect(table.rows.first.map(texts) == ["First", "row", "12.0", "Example of a row that spans multiple lines."])
        #expect(table.rows.last?.last?.plainText.hasSuffix("the blank line between rows.") == true)
    }

    /// A headerless table (simple or multiline) has an empty header, which is no header row.
    @Test func aHeaderlessTableHasNoHeaderCells() throws {
        let simple = try #require(parsedTable(Self.headerless + "\n"))
        #expect(texts(simple.header).allSatisfy { $0.isEmpty })
        #expect(simple.rows.map(texts) == [["12", "12", "12", "12"], ["123", "123", "123", "123"]])
        // Opened and closed by the dashed line of its columns.
        let lines = Self.multiline.split(separator: "\n", omittingEmptySubsequences: false)
        let body = lines.dropFirst(3).dropLast() + [lines[3]]
        let multiline = try #require(parsedTable(body.joined(separator: "\n") + "\n"))
        #expect(texts(multiline.header).allSatisfy { $0.isEmpty })
        #expect(multiline.rows.count == 2)
    }

    @Test func aGridTableIsATableAlignedByItsColons() throws {
        let table = try #require(parsedTable(Self.grid + "\n"))
        #expect(texts(table.header) == ["Fruit", "Price", "Advantages"])
        #expect(
            table.rows.map(texts) == [
                ["Bananas", "$1.34", "built-in wrapper bright color"], ["Oranges", "$2.10", "cures scurvy"],
            ])
        let rule = "+-----+-----+-----+\n"
        let aligned = try #require(
            parsedTable(rule + "| a   | b   | c   |\n+====:+:====+:===:+\n| 1   | 2   | 3   |\n" + rule))
        #expect(aligned.alignments == [.right, .left, .center])
    }

    /// The table takes as many lines as it was written on: what follows keeps its line, and a
    /// pipe in a cell stays the cell's text.
    @Test func whatFollowsATableKeepsItsLine() throws {
        for (name, source) in [("simple", Self.simple), ("multiline", Self.multiline), ("grid", Self.grid)] {
            let blocks = parsed(source + "\n\nAfter *this*.\n")
            let after = try #require(blocks.last)
            #expect(
                after.location?.line == source.split(separator: "\n", omittingEmptySubsequences: false).count + 2,
                "\(name)")
        }
        let piped = try #require(parsedTable("  a     b\n----- -----\n x|y    2\n"))
        #expect(piped.rows.first.map(texts) == ["x|y", "2"])
    }

    /// A table inside a quote, an alert, a list item or containers inside one another is a
    /// table in that container, as Pandoc reads it; the container goes on after it, and a
    /// table-like quote in code stays code.
    @Test(arguments: [
        ("quote", "> " + simple.replacingOccurrences(of: "\n", with: "\n> ") + "\n>\n> After.\n", ["quote"]),
        ("alert", "> [!NOTE]\n> " + grid.replacingOccurrences(of: "\n", with: "\n> ") + "\n", ["alert"]),
        (
            "list item", "1. Step\n\n   " + multiline.replacingOccurrences(of: "\n", with: "\n   ") + "\n2. Next\n",
            ["list"]
        ),
        ("item's first line", "- Right  Left\n  -----  ----\n  12     12\n  3      4\n", ["list"]),
        ("nested quote", "> > " + grid.replacingOccurrences(of: "\n", with: "\n> > ") + "\n", ["quote", "quote"]),
        (
            "list in a quote", "> - A\n>\n>   " + headerless.replacingOccurrences(of: "\n", with: "\n>   ") + "\n",
            ["quote", "list"]
        ),
        (
            "nested list", "- A\n  - B\n\n    " + simple.replacingOccurrences(of: "\n", with: "\n    ") + "\n",
            ["list", "list"]
        ),
    ])
    func aTableInAContainerIsATable(name: String, markdown: String, path: [String]) throws {
        func table(in blocks: some Collection<Block>, path: ArraySlice<String>) -> Table? {
            for block in blocks {
                switch block.kind {
                case .table(let table) where path.isEmpty: return table
                case .blockQuote(let children) where path.first == "quote",
                    .alert(_, let children) where path.first == "alert":
                    if let found = table(in: children, path: path.dropFirst()) { return found }
                case .list(let list) where path.first == "list":
                    for item in list.items {
                        if let found = table(in: item.blocks, path: path.dropFirst()) { return found }
                    }
                default: continue
                }
            }
            return nil
        }
        let blocks = parsed(markdown)
        let found = try #require(table(in: blocks, path: path[...]), "\(name): \(blocks)")
        #expect(found.rows.count >= 2, "\(name)")
        #expect(!found.rows.joined().contains { $0.plainText.contains("---") || $0.plainText.contains("|") }, "\(name)")
        if name == "list item" {
            guard case .list(let list)? = blocks.first?.kind else {
                Issue.record("\(blocks)")
                return
            }
            #expect(list.items.count == 2)
        }
        if name == "quote" {
            guard case .blockQuote(let children)? = blocks.first?.kind else {
                Issue.record("\(blocks)")
                return
            }
            guard case .paragraph(let after)? = children.last?.kind else {
                Issue.record("\(children)")
                return
            }
            #expect(after.plainText == "After.")
            #expect(blocks.count == 1)
        }
    }

    /// A caption beside a table in a list item is its caption, and lines after a table in a
    /// quote keep their numbers.
    @Test func aCaptionAndTheLinesAfterATableInAContainer() throws {
        let markdown =
            "- Item\n\n  " + Self.simple.replacingOccurrences(of: "\n", with: "\n  ")
            + "\n\n  Table: In the item.\n\n> " + Self.multiline.replacingOccurrences(of: "\n", with: "\n> ")
            + "\n>\n> Quoted after.\n"
        let rewritten = try #require(PandocTables.rewriting(markdown))
        let lines = rewritten.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == markdown.split(separator: "\n", omittingEmptySubsequences: false).count)
        #expect(lines.contains("  [In the item.]{.caption .table-caption}"), "\(rewritten)")
        #expect(lines.last(where: { !$0.isEmpty }) == "> Quoted after.")
        #expect(lines.allSatisfy { !$0.hasPrefix(">") || $0 == ">" || $0.hasPrefix("> ") }, "\(rewritten)")
    }

    /// Only a table is read as one: a setext heading, a rule between paragraphs, a dashed line
    /// with no rows under it, and tables inside code stay what CommonMark reads.
    @Test func whatOnlyLooksLikeATableStaysAsWritten() {
        let untouched = [
            "Title\n-----\n\nText.\n", "One.\n\n-----------\n\nTwo.\n", "Lead\n----- -----\n\nText.\n",
            "```\n" + Self.simple + "\n```\n", "    +---+---+\n    | a | b |\n    +---+---+\n",
            "<pre>\n" + Self.grid + "\n</pre>\n", "```\n| a |\n|---|\n| 1 |\n\n: not a caption\n\n```\n",
            "```markdown\n> " + Self.simple.replacingOccurrences(of: "\n", with: "\n> ") + "\n```\n",
            "- Item\n\n      " + Self.simple.replacingOccurrences(of: "\n", with: "\n      ") + "\n",
            "> Lead\n> ----- -----\n>\n> Text.\n",
        ]
        for markdown in untouched {
            #expect(
                MarkdownParser.parse(markdown, file: "t.md").document.blocks.allSatisfy {
                    if case .table = $0.kind { false } else { true }
                }, "\(markdown)")
            #expect(PandocTables.rewriting(markdown) == nil, "\(markdown)")
        }
    }

    /// A caption in Pandoc's syntax, `Table:` or `:` on a line of its own beside a table,
    /// before or after it, is set in the Caption role without its prefix, not as a
    /// definition; away from a table it is left as written.
    @Test func aTablesCaptionBesideItIsACaption() throws {
        for markdown in [
            "Para.\n\n: Caption first.\n\n| A | B |\n|---|---|\n| 1 | 2 |\n",
            "| A | B |\n|---|---|\n| 1 | 2 |\n\nTable: Caption first.\n",
            Self.simple + "\n\nTable:  Caption first.\n",
        ] {
            let blocks = parsed(markdown)
            #expect(!blocks.contains { if case .definitionList = $0.kind { true } else { false } }, "\(markdown)")
            let caption = try #require(
                blocks.first { block in
                    guard case .paragraph(let inlines) = block.kind,
                        case .span(let attributes, let content)? = inlines.first
                    else { return false }
                    return attributes.classes.contains("caption") && content.plainText == "Caption first."
                }, "\(markdown): \(blocks)")
            _ = caption
        }
        #expect(PandocTables.rewriting("Term\n\n: A definition.\n") == nil)
    }

    /// A caption written over several lines, as Pandoc's manual writes one, is one caption,
    /// before or after its table; a line in it that would open a block of its own (a list item,
    /// a heading, a quote, a table row) leaves the text as written. It was a caption only on
    /// one line, and the rest was set as text under a warning.
    @Test(arguments: [
        ("| A | B |\n|---|---|\n| 1 | 2 |\n\nTable: Here is the caption. It, too, may span\nmultiple lines.\n", true),
        ("Table: A caption written\nover two lines.\n\n| A | B |\n|---|---|\n| 1 | 2 |\n", true),
        ("| A |\n|---|\n| 1 |\n\n: One\ntwo\nthree [a link](https://example.com) lines.\n", true),
        ("| A |\n|---|\n| 1 |\n\nTable: Sales for\n2024 by month, in lines.\n", true),
        ("Table: Not a caption\n- a list item\n\n| A |\n|---|\n| 1 |\n", false),
        ("Table: Not a caption\n2. a list item\n\n| A |\n|---|\n| 1 |\n", false),
        ("| A |\n|---|\n| 1 |\n\nTable: Not a caption\n# A heading\n", false),
    ])
    func aCaptionOverSeveralLinesIsOneCaption(markdown: String, isCaption: Bool) throws {
        let blocks = parsed(markdown)
        let caption = blocks.first { block in
            guard case .paragraph(let inlines) = block.kind, case .span(let attributes, _)? = inlines.first else {
                return false
            }
            return attributes.classes.contains("caption")
        }
        #expect((caption != nil) == isCaption, "\(markdown): \(blocks)")
        guard case .paragraph(let inlines)? = caption?.kind else { return }
        #expect(inlines.count == 1, "the whole paragraph in the caption's span: \(inlines)")
        let text = inlines.plainText.replacingOccurrences(of: "\n", with: " ")
        #expect(!text.hasPrefix("Table:") && !text.hasPrefix(":"), "\(text)")
        #expect(text.hasSuffix("lines."), "\(text)")
    }

    /// pandoc-crossref's and Quarto's label after a caption (`{#tbl:sizes}`, `{#tbl-q .striped}`,
    /// on its last line) is the caption span's id, not text; braces that open no attribute
    /// (`{x}`, a brace not after a space) stay text.
    @Test(arguments: [
        ("Table: Sample sizes. {#tbl:sizes}", "Sample sizes.", "tbl:sizes"),
        (": Quarto form {#tbl-q .striped}  ", "Quarto form", "tbl-q"),
        ("Table: Over two\nlines. {#tbl:two}", "Over two lines.", "tbl:two"),
        ("Table: Values of {x} in {y}", "Values of {x} in {y}", nil),
        ("Table: glued{#tbl:no}", "glued{#tbl:no}", nil),
    ])
    func aLabelAfterACaptionIsItsID(line: String, text: String, id: String?) throws {
        let blocks = parsed("| A |\n|---|\n| 1 |\n\n\(line)\n")
        let span = blocks.lazy.compactMap { block -> (Attributes, [Inline])? in
            guard case .paragraph(let inlines) = block.kind, case .span(let attributes, let children)? = inlines.first,
                attributes.classes.contains("caption")
            else { return nil }
            return (attributes, children)
        }.first
        let (attributes, children) = try #require(span, "\(line): \(blocks)")
        #expect(children.plainText.replacingOccurrences(of: "\n", with: " ") == text, "\(children)")
        #expect(attributes.id == id, "\(attributes)")
    }

    /// A caption holding a link, a span, a note or an inline note is a caption, its brackets
    /// paired inside the caption's span; one whose brackets do not pair is left as written.
    @Test(arguments: [
        ("Table: see [the link](https://example.com) now", "see the link now"),
        ("Table: a [marked]{.mark} word", "a marked word"),
        ("Table: with a note[^1]", "with a note"),
        ("Table: with an inline^[inline note] note", "with an inline note"),
        (": `a[` code and \\[ escaped", "a[ code and [ escaped"),
    ])
    func aCaptionMayHoldBracketedText(line: String, text: String) throws {
        let markdown = "| A |\n|---|\n| 1 |\n\n\(line)\n\n[^1]: The note.\n"
        let blocks = parsed(markdown)
        let caption = blocks.first { block in
            guard case .paragraph(let inlines) = block.kind, case .span(let attributes, _)? = inlines.first else {
                return false
            }
            return attributes.classes.contains("caption")
        }
        guard case .paragraph(let inlines)? = caption?.kind else {
            Issue.record("\(line): \(blocks)")
            return
        }
        #expect(inlines.plainText.replacingOccurrences(of: "1", with: "") == text, "\(inlines)")
        #expect(!PandocTables.pairsBrackets("see [unpaired and {braces"))
        #expect(!PandocTables.pairsBrackets("a ] b ["))
    }

    /// What opens a table and never closes it, what a grid table's rules would be if they were
    /// read column by column, one wide grid table, captions, a row of tabs (each four columns
    /// wide, held as one), quotes inside one another, list items that open tables and a long
    /// quote that opens none, 2,000 and 16,000 times: eight times the input takes well under
    /// sixteen times as long.
    @Test(arguments: [
        "unclosed", "grid rule", "wide grid", "captions", "tabs", "deep quotes", "many items", "long quote",
    ])
    func tableLikeTextIsReadInLinearTime(kind: String) {
        func source(_ count: Int) -> String {
            switch kind {
            case "unclosed": String(repeating: "--- ---\nx\n\n", count: count)
            case "grid rule":
                String(repeating: "+-", count: count) + "+\n" + String(repeating: "| ", count: count) + "|\n"
            case "wide grid":
                String(repeating: "+-", count: count) + "+\n" + String(repeating: "|a", count: count) + "|\n"
                    + String(repeating: "+-", count: count) + "+\n"
            case "tabs": "  a     b\n----- -----\n x" + String(repeating: "\t", count: count * 8) + "y\n"
            case "deep quotes":
                String(repeating: "> ", count: count) + "a   b\n" + String(repeating: "> ", count: count) + "--- ---\n"
            case "long quote": String(repeating: "> text\n", count: count * 4) + "\n--- ---\nx   y\n"
            case "many items": String(repeating: "- a\n\n  --- ---\n  x   y\n", count: count)
            default: String(repeating: "| a |\n|---|\n| 1 |\n\n: Caption.\n\n", count: count)
            }
        }
        func seconds(_ count: Int) -> Double {
            let text = source(count)
            return Timing.bestSeconds { _ = PandocTables.rewriting(text) }
        }
        let figures = Timing.eightfold(seconds)
        #expect(figures[1] < 16 * figures[0], "\(kind): \(figures) s for 2,000 and 16,000")
    }
}
