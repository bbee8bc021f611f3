import DocumentModel

/// An HTML table whose cells hold Markdown, as READMEs write a "before | after" layout: the
/// table's tags in HTML blocks, blank lines around the Markdown of each cell, which CommonMark
/// reads as blocks of their own between the HTML blocks (GitHub renders the Markdown inside the
/// cells). While an HTML block leaves a `<table>` open, ``RawHTML/blocks(_:location:)`` keeps
/// each HTML block as written (a ``tableMarker`` block); ``nestTables(_:)`` then reads the
/// HTML of the whole table at once, each Markdown block in it standing where it is written, as
/// an element (``embeddedTag``) that a cell sets as its blocks' inlines (a paragraph's text,
/// each line of code, each list item on a line of its own), and that a place outside the cells
/// sets as the blocks themselves.
extension RawHTML {
    /// The prefix of an HTML block kept as written while a table is open.
    static let tableMarker = "\u{0}table "
    /// The element standing for a Markdown block inside a table's HTML.
    static let embeddedTag = "typeset-markdown-block"

    /// `<table>` elements opened minus closed in `html`, comments aside.
    static func tableBalance(_ html: String) -> Int { tagBalance(html, of: ["table"])["table"] ?? 0 }

    /// `blocks` with each run from an HTML block that opens a table to the one that closes it
    /// read as one table, its Markdown blocks inside it (see the extension's summary). A table
    /// never closed in `blocks` is read as far as they go.
    mutating func nestTables(_ blocks: [Block]) -> [Block] {
        guard blocks.contains(where: Self.isTablePart) else { return blocks }
        var result: [Block] = []
        var index = 0
        while index < blocks.count {
            guard Self.isTablePart(blocks[index]) else {
                result.append(blocks[index])
                index += 1
                continue
            }
            let location = blocks[index].location
            let start = index
            var html = ""
            var embedded: [[Block]] = []
            var balance = 0
            while index < blocks.count, index - start <= CmarkConverter.TopLevelNesting.longestTableSpan {
                let block = blocks[index]
                index += 1
                guard Self.isTablePart(block), case .html(let fragment) = block.kind else {
                    html += "<\(Self.embeddedTag) n=\"\(embedded.count)\"></\(Self.embeddedTag)>\n"
                    embedded.append([block])
                    continue
                }
                let written = String(fragment.dropFirst(Self.tableMarker.count))
                html += written + "\n"
                balance += Self.tableBalance(written)
                if balance <= 0 { break }
            }
            guard balance <= 0 else {
                // Not closed here: the first HTML block is set alone, as any HTML block is, and
                // what follows it is read again.
                guard case .html(let fragment) = blocks[start].kind else { continue }
                result += self.blocks(
                    String(fragment.dropFirst(Self.tableMarker.count)), location: location, keepingOpenTables: false)
                index = start + 1
                continue
            }
            let outer = embeddedBlocks
            embeddedBlocks = embedded
            result += self.blocks(html, location: location, keepingOpenTables: false)
            embeddedBlocks = outer
        }
        return result
    }

    static func isTablePart(_ block: Block) -> Bool {
        if case .html(let fragment) = block.kind { fragment.hasPrefix(tableMarker) } else { false }
    }

    /// The Markdown blocks an ``embeddedTag`` element with these attributes stands for.
    func embedded(_ attributes: [String: String]) -> [Block]? {
        guard let number = attributes["n"].flatMap({ Int($0) }), embeddedBlocks.indices.contains(number) else {
            return nil
        }
        return embeddedBlocks[number]
    }

    /// `blocks` as the inlines of a table cell: a paragraph's inlines, a heading's in bold, each
    /// line of code as code, each list item on a line of its own behind its bullet or number,
    /// the blocks of a quote, alert or div in turn; blocks apart by line breaks.
    static func cellInlines(_ blocks: [Block]) -> [Inline] {
        var result: [Inline] = []
        for block in blocks {
            let inlines = cellInlines(block)
            guard !inlines.isEmpty else { continue }
            if !result.isEmpty { result.append(.lineBreak) }
            result += inlines
        }
        return result
    }

    private static func cellInlines(_ block: Block) -> [Inline] {
        switch block.kind {
        case .paragraph(let inlines): return inlines
        case .heading(_, let inlines): return [.strong(inlines)]
        case .codeBlock(_, let text):
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if lines.last?.isEmpty == true { lines.removeLast() }
            var result: [Inline] = []
            for (index, line) in lines.enumerated() {
                if index > 0 { result.append(.lineBreak) }
                result.append(.code(line.isEmpty ? "\u{00A0}" : line))
            }
            return result
        case .list(let list):
            var result: [Inline] = []
            for (index, item) in list.items.enumerated() {
                if index > 0 { result.append(.lineBreak) }
                let marker = list.ordered ? "\(list.marker(at: index))\u{00A0}" : "•\u{00A0}"
                result += [.text(marker)] + cellInlines(item.blocks)
            }
            return result
        case .blockQuote(let blocks), .alert(_, let blocks), .div(let blocks): return cellInlines(blocks)
        case .table(let table):
            let caption = table.caption.isEmpty ? [] : [table.caption.plainText]
            return
                (caption + ([table.header] + table.rows).map { row in row.map(\.plainText).joined(separator: " | ") })
                .enumerated().flatMap { index, line in index == 0 ? [Inline.text(line)] : [.lineBreak, .text(line)] }
        case .definitionList(let items):
            return cellInlines(
                items.flatMap { item in
                    [Block(.paragraph([.strong(item.term)]))] + item.definitions.flatMap { $0 }
                })
        case .thematicBreak, .html, .pageBreak: return []
        }
    }
}
