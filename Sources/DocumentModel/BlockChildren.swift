extension Block {
    /// This block with the content it holds directly replaced: each list of blocks (a list
    /// item's, a block quote's, an alert's, a div's, a definition's) by `blocks` of it, each
    /// list of inlines (a paragraph's or heading's text, a definition's term, a table cell or caption) by
    /// `inlines` of it. Code, thematic breaks, raw HTML and page breaks hold neither and are
    /// returned as they are. For passes that rewrite a whole tree, recursing through `blocks`.
    public func mappingChildren(blocks: ([Block]) -> [Block], inlines: ([Inline]) -> [Inline]) -> Block {
        var block = self
        switch kind {
        case .paragraph(let content): block.kind = .paragraph(inlines(content))
        case .heading(let level, let content): block.kind = .heading(level: level, inlines(content))
        case .list(var list):
            for index in list.items.indices { list.items[index].blocks = blocks(list.items[index].blocks) }
            block.kind = .list(list)
        case .blockQuote(let content): block.kind = .blockQuote(blocks(content))
        case .alert(let kind, let content): block.kind = .alert(kind, blocks(content))
        case .definitionList(let items):
            block.kind = .definitionList(
                items.map { DefinitionItem(term: inlines($0.term), definitions: $0.definitions.map(blocks)) })
        case .div(let content): block.kind = .div(blocks(content))
        case .table(var table):
            table.header = table.header.map(inlines)
            table.rows = table.rows.map { $0.map(inlines) }
            if !table.caption.isEmpty { table.caption = inlines(table.caption) }
            block.kind = .table(table)
        case .codeBlock, .thematicBreak, .html, .pageBreak: break
        }
        return block
    }
}

extension Document {
    /// This document with every sequence of inlines in its blocks and notes (a paragraph's, a
    /// heading's, a table cell's…, at any depth) replaced by `transform` of it: blocks made on
    /// demand are transformed as each is made (so `transform` must be safe to call from any
    /// thread). For passes over the text that keep the tree's shape (smart punctuation, example
    /// numbers).
    public func mappingInlines(_ transform: @escaping @Sendable ([Inline]) -> [Inline]) -> Document {
        @Sendable func apply(_ block: Block) -> Block {
            block.mappingChildren(blocks: { $0.map(apply) }, inlines: transform)
        }
        var document = self
        document.blocks = document.blocks.mapped(apply)
        for number in document.footnotes.keys { document.footnotes[number] = document.footnotes[number]!.map(apply) }
        return document
    }
}
