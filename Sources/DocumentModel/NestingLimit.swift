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

    /// `block`, standing at `depth` (1: a top-level block), with what lies past
    /// ``maximumDepth`` made its plain text; `flattened` is set when any was.
    static func limit(_ block: Block, depth: Int, flattened: inout Bool) -> Block {
        guard depth <= maximumDepth else {
            flattened = true
            var flat = block
            flat.kind = .paragraph([.text(BlockText.text(of: [block]))])
            return flat
        }
        return block.mappingChildren(
            blocks: { $0.map { limit($0, depth: depth + 1, flattened: &flattened) } },
            inlines: { $0.map { limit($0, depth: depth + 1, flattened: &flattened) } })
    }

    /// `inline` at `depth`, limited as a block is (``limit(_:depth:flattened:)-(Block,_,_)``).
    static func limit(_ inline: Inline, depth: Int, flattened: inout Bool) -> Inline {
        guard depth <= maximumDepth else {
            flattened = true
            return .text(BlockText.text(of: [Block(.paragraph([inline]))]))
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
}
