import DocumentModel

/// Every source location a block holds, moved: the block's own, its attribute list's (the `{`,
/// each pair, each replaced id), and those of every block and inline inside it — images, raw
/// HTML and formulas, whose warnings (a missing picture, a formula that does not parse, an
/// unknown attribute) are given at them. A part of the text parsed on its own (a definition's
/// indented blocks) is located within that parse; moved, each location is the file's.
enum RelocatedBlocks {
    /// A location in the part's parse → the file's; nil when it has none there.
    typealias Move = (SourceLocation) -> SourceLocation?

    /// `blocks` with every location moved by `move`.
    static func relocated(_ blocks: [Block], _ move: Move) -> [Block] {
        blocks.map { relocated($0, move) }
    }

    /// `block` with every location moved by `move`.
    static func relocated(_ block: Block, _ move: Move) -> Block {
        var block = block
        block.location = block.location.flatMap(move)
        block.attributes = relocated(block.attributes, move)
        return block.mappingChildren(blocks: { relocated($0, move) }, inlines: { relocated($0, move) })
    }

    /// `attributes` with the `{`'s, each pair's and each replaced id's location moved.
    static func relocated(_ attributes: Attributes, _ move: Move) -> Attributes {
        var attributes = attributes
        attributes.location = attributes.location.flatMap(move)
        for index in attributes.pairs.indices {
            attributes.pairs[index].location = attributes.pairs[index].location.flatMap(move)
        }
        for index in attributes.replacedIDs.indices {
            attributes.replacedIDs[index].location = attributes.replacedIDs[index].location.flatMap(move)
        }
        return attributes
    }

    /// `inlines` with every image's, raw HTML's, formula's and span's location moved.
    static func relocated(_ inlines: [Inline], _ move: Move) -> [Inline] {
        inlines.map { inline in
            switch inline {
            case .image(let source, let title, let alt, let location):
                .image(source: source, title: title, alt: relocated(alt, move), location: location.flatMap(move))
            case .rawHTML(let html, let location): .rawHTML(html, location: location.flatMap(move))
            case .math(let source, let display, let location, let start):
                .math(source, display: display, location: location.flatMap(move), sourceStart: start.flatMap(move))
            case .span(let attributes, let children): .span(relocated(attributes, move), relocated(children, move))
            case .emphasis(let children): .emphasis(relocated(children, move))
            case .strong(let children): .strong(relocated(children, move))
            case .strikethrough(let children): .strikethrough(relocated(children, move))
            case .link(let destination, let title, let children):
                .link(destination: destination, title: title, children: relocated(children, move))
            case .presentation(let presentation, let children): .presentation(presentation, relocated(children, move))
            case .text, .softBreak, .lineBreak, .code, .footnoteReference, .anchor: inline
            }
        }
    }

    /// How many bytes of each line of `text` (a code block's literal: its lines without their
    /// indentation or container markers) stand before it on its line in the file: the line's
    /// bytes less the text line's when the file's line ends with it, else `fallback` (a tab
    /// only partly removed leaves spaces in the literal the file does not have). `fileLine(n)`
    /// gives line n of the text's (0 its first) as written in the file, nil when unknown.
    static func indentation(of text: String, fileLine: (Int) -> ArraySlice<UInt8>?, fallback: Int) -> [Int] {
        let lines = Array(text.utf8).split(separator: 0x0A, omittingEmptySubsequences: false)
        return lines.enumerated().map { index, line in
            guard var written = fileLine(index) else { return fallback }
            if written.last == 0x0D { written = written.dropLast() }
            guard written.count >= line.count, written.suffix(line.count).elementsEqual(line) else {
                return fallback
            }
            return written.count - line.count
        }
    }
}
