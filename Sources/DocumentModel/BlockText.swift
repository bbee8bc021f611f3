/// The text a tree of blocks holds, gathered with a stack of its own rather than by recursion,
/// so that a tree of any depth (a document built in code) is read without overflowing a
/// thread's stack: for content flattened past ``NestingLimit/maximumDepth`` and for the
/// sample of prose ``TextLanguage`` reads.
enum BlockText {
    /// The text of `blocks` and all they hold, in order.
    static func text(of blocks: [Block]) -> String {
        var text = ""
        collect(blocks, into: &text, prose: false, limit: .max)
        return text
    }

    /// The prose of `blocks` — their text but for code, formulas and raw HTML — appended to
    /// `text` until it holds `limit` bytes (UTF-8).
    static func prose(_ blocks: [Block], into text: inout String, limit: Int) {
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
