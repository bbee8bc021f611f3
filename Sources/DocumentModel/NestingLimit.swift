/// Content nested deeper than the parser ever nests it, made shallow, for a document built in
/// code: styling and layout walk the tree recursively, and a tree thousands of levels deep
/// would overflow a thread's stack. Past ``maximumDepth`` levels of blocks or inlines, what is
/// deeper is kept as its plain text (a paragraph of it, or a run of it), as the parser
/// flattens Markdown nested that deep; the text is gathered without recursion.
public enum NestingLimit {
    /// The deepest nesting kept: the parser's own limit for Markdown (64 levels).
    public static let maximumDepth = 64

    /// `document` with its blocks and notes nested at most ``maximumDepth`` deep, and whether
    /// any were deeper (then the caller warns). A parsed document, nested no deeper by its
    /// parser, comes back as it is, unread.
    public static func limited(_ document: Document) -> (document: Document, flattened: Bool) {
        guard document.source.isEmpty, !document.blocks.isProvided else { return (document, false) }
        var flattened = false
        var result = document
        let blocks = Array(document.blocks)
        let limitedBlocks = blocks.map { limit($0, depth: 1, flattened: &flattened) }
        var notes = document.footnotes
        for (number, blocks) in document.footnotes {
            notes[number] = blocks.map { limit($0, depth: 1, flattened: &flattened) }
        }
        guard flattened else { return (document, false) }
        result.blocks = BlockList(limitedBlocks)
        result.footnotes = notes
        return (result, true)
    }

    static func limit(_ block: Block, depth: Int, flattened: inout Bool) -> Block {
        guard depth <= maximumDepth else {
            flattened = true
            var flat = block
            flat.kind = .paragraph([.text(plainText(of: [block]))])
            return flat
        }
        return block.mappingChildren(
            blocks: { $0.map { limit($0, depth: depth + 1, flattened: &flattened) } },
            inlines: { $0.map { limit($0, depth: depth + 1, flattened: &flattened) } })
    }

    static func limit(_ inline: Inline, depth: Int, flattened: inout Bool) -> Inline {
        guard depth <= maximumDepth else {
            flattened = true
            return .text(plainText(of: [Block(.paragraph([inline]))]))
        }
        func inlines(_ children: [Inline]) -> [Inline] {
            children.map { limit($0, depth: depth + 1, flattened: &flattened) }
        }
        switch inline {
        case .emphasis(let children): return .emphasis(inlines(children))
        case .strong(let children): return .strong(inlines(children))
        case .strikethrough(let children): return .strikethrough(inlines(children))
        case .link(let destination, let title, let children):
            return .link(destination: destination, title: title, children: inlines(children))
        case .image(let source, let title, let alt, let location):
            return .image(source: source, title: title, alt: inlines(alt), location: location)
        case .span(let attributes, let children): return .span(attributes, inlines(children))
        case .presentation(let presentation, let children): return .presentation(presentation, inlines(children))
        case .text, .softBreak, .lineBreak, .code, .footnoteReference, .rawHTML, .anchor, .math: return inline
        }
    }

    /// The text of `blocks` and all they hold, in order, gathered with a stack of its own.
    static func plainText(of blocks: [Block]) -> String {
        var text = ""
        collect(blocks, into: &text, prose: false, limit: .max)
        return text
    }

    /// The prose of `blocks` — their text but for code, formulas and raw HTML — appended to
    /// `text` until it holds `limit` bytes (UTF-8).
    static func collectProse(_ blocks: [Block], into text: inout String, limit: Int) {
        collect(blocks, into: &text, prose: true, limit: limit)
    }

    /// The text of `blocks` appended to `text`, without code, formulas and raw HTML when
    /// `prose`, until it holds `limit` bytes (UTF-8).
    private static func collect(_ blocks: [Block], into text: inout String, prose: Bool, limit: Int) {
        enum Node {
            case block(Block)
            case inline(Inline)
            case separator
        }
        var stack: [Node] = blocks.reversed().map(Node.block)
        func push(_ inlines: [Inline]) { stack += inlines.reversed().map(Node.inline) }
        func push(_ blocks: [Block]) {
            for block in blocks.reversed() {
                stack.append(.separator)
                stack.append(.block(block))
            }
        }
        while text.utf8.count < limit, let node = stack.popLast() {
            switch node {
            case .separator:
                if !text.isEmpty, text.last != " " { text += " " }
            case .inline(let inline):
                switch inline {
                case .text(let string): text += string
                case .code(let string), .math(let string, _, _, _): if !prose { text += string }
                case .softBreak, .lineBreak: text += " "
                case .emphasis(let children), .strong(let children), .strikethrough(let children),
                    .span(_, let children), .presentation(_, let children), .link(_, _, let children):
                    push(children)
                case .image(_, _, let alt, _): push(alt)
                case .footnoteReference, .rawHTML, .anchor: break
                }
            case .block(let block):
                switch block.kind {
                case .paragraph(let children), .heading(_, let children): push(children)
                case .list(let list): push(list.items.flatMap(\.blocks))
                case .blockQuote(let children), .alert(_, let children), .div(let children): push(children)
                case .definitionList(let items):
                    for item in items.reversed() {
                        push(item.definitions.flatMap { $0 })
                        stack.append(.separator)
                        push(item.term)
                    }
                case .table(let table):
                    for cell in (table.header + table.rows.flatMap { $0 }).reversed() {
                        stack.append(.separator)
                        push(cell)
                    }
                case .codeBlock(_, let code): if !prose { text += code }
                case .html(let html): if !prose { text += html }
                case .thematicBreak, .pageBreak: break
                }
            }
        }
    }
}
