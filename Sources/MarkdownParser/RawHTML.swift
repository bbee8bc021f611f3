import DocumentModel
import Foundation

/// Raw HTML as GitHub READMEs write it, turned into document values: the subset GitHub's own
/// renderer shows (comments, anchors, links, text-level elements, images, `<p align>`,
/// `<details>`, simple tables) becomes paragraphs, headings, tables and styled inlines; any
/// other element keeps its text and is named in **one** warning per element per document.
///
/// HTML blocks are parsed whole with libxml2's HTML parser (``HTMLFragment``). Inline HTML
/// reaches us from cmark-gfm one tag at a time (`<b>`, text, `</b>`), so tags are paired here
/// over one inline sequence and each opening tag's attributes are read by the same parser.
struct RawHTML {
    let file: String
    /// Warnings so far, in the order found.
    var diagnostics: [Diagnostic] = []
    /// Element names already warned about (one warning per kind per document).
    private var warned: Set<String> = []
    /// How many `<q>` elements of an HTML block hold the node being converted: a `<q>`'s
    /// quotation marks are double at even depths, single at odd ones (HTML's `q`, CSS `quotes`
    /// for English and Korean).
    private var quoteDepth = 0
    /// How many `<ul>` and `<ol>` elements the text being read is inside (``listInlines``).
    private var listDepth = 0
    /// How many `<table>` elements the HTML blocks read so far leave open: while one is, each
    /// HTML block is kept as written, for ``nestTables(_:)``.
    var openTables = 0
    /// The Markdown blocks of the table being read (``nestTables(_:)``), by number.
    var embeddedBlocks: [[Block]] = []
    /// The HTML block being read, so that each element's warnings stand at its own tag
    /// (``place(_:)``).
    private var block = PlacedBlock()

    /// An HTML block's text and its start, for placing its elements (``place(_:)``).
    private struct PlacedBlock {
        var bytes: [UInt8] = []
        var start: SourceLocation?
        /// Where each line of the block starts.
        var lineStarts: [Int] = [0]
        /// Where each opening tag starts, by lowercased element name, in order; read in one
        /// pass, so placing every element of a block costs time linear in its length.
        var tags: [String: [Int]] = [:]
        /// For each name, how many of its tags are placed.
        var placed: [String: Int] = [:]
        /// Where the tag last placed starts.
        var lastTag: Int?

        init() {}

        init(_ html: String, start: SourceLocation?) {
            bytes = Array(html.utf8)
            self.start = start
            for index in bytes.indices {
                if bytes[index] == 0x0A { lineStarts.append(index + 1) }
                guard bytes[index] == UInt8(ascii: "<"), index + 1 < bytes.count,
                    MathSyntax.isNameByte(bytes[index + 1]), bytes[index + 1] != 0x2D
                else { continue }
                let name = bytes[(index + 1)...].prefix(while: MathSyntax.isNameByte).map(RawHTMLBlock.asciiLowercase)
                tags[String(decoding: name, as: UTF8.self), default: []].append(index)
            }
        }
    }

    init(file: String) { self.file = file }

    // MARK: Element kinds

    /// Text-level elements with a presentation of their own.
    static let presentations: [String: InlinePresentation] = [
        "sup": .superscript, "sub": .subscript, "kbd": .keyboard, "mark": .highlight, "small": .small,
        "ins": .underline, "u": .underline,
    ]
    /// Elements whose content is simply their text: shown as is, no warning.
    static let transparent: Set<String> = [
        "span", "abbr", "picture", "font", "nobr", "bdi", "bdo", "time", "data", "q", "label", "var", "dfn", "cite",
    ]
    /// Elements that hold no text a reader sees (`<source>` of a picture, `<wbr>`): dropped silently.
    static let silent: Set<String> = ["source", "wbr", "track", "col", "colgroup", "caption-side", "param"]
    /// Elements that start blocks (HTML Living Standard "flow content" containers GitHub keeps).
    static let blockContainers: Set<String> = [
        "p", "div", "center", "section", "article", "header", "footer", "main", "nav", "aside", "figure", "figcaption",
        "address", "details", "dl", "dd", "dt", "body", "html", "form", "fieldset", "legend",
    ]

    /// What becomes of an unsupported element's text, as its warning says.
    enum Fate {
        /// Its text is set, without the element's presentation.
        case shown
        /// Its content is dropped, as a browser never shows it (a ``hidden`` element).
        case hidden
        /// An `<iframe>` or `<embed>`: the page or media it stands for cannot be set.
        case embedded
        /// A ``hidden`` element with no content in its HTML block (`<template>` alone, the
        /// Markdown after a blank line): the element is dropped, the Markdown blocks inside are set.
        case tagsOnly
        /// A form control's text (a button's label, a text area's or a field's text).
        case control
        /// A checkbox or radio button: its state as a character.
        case checkbox
        /// A form control with no text: nothing of it is drawn.
        case emptyControl
        /// An `<input>` with no text (an empty field, a file, range or colour control).
        case emptyField
        /// Media or a plugin (``fallbackElements``) with fallback content: that content is set.
        case fallback
        /// Media or a plugin without fallback content: nothing of it is drawn.
        case noFallback
        /// A drop-down `<select>`: the option it shows closed.
        case selected
        /// A list box `<select multiple>` or `<select size>`: every option.
        case listBox
        /// An `<svg>` with `<text>`: those words.
        case drawingText
        /// An `<svg>` with no `<text>` but a `<title>` (or `aria-label`): that name.
        case drawingTitle
        /// An `<svg>` with no text at all.
        case drawingOnly
        /// A `<math>` element that is not converted to a formula: its text.
        case mathText
        /// An element with no text (`<Badge text="v1.9" />`, a placeholder written `<filename>`).
        case empty

        /// The words of the warning that say what became of the element's text.
        var words: String {
            switch self {
            case .shown: "its text is shown; a tag meant as text is written \\<name\\> or in `code`"
            case .hidden: "it and its content are left out, as a browser shows none of it"
            case .embedded: "the page or media it embeds cannot be set in a PDF; it is left out"
            case .tagsOnly: "it is left out, but the Markdown blocks between its tags are shown"
            case .control: "its text is shown, without the control's box"
            case .checkbox: "it is shown as ☐ or ☑ (a radio button as ○ or ◉), as it is checked"
            case .emptyControl:
                "it holds no text of its own; its box is left out (Markdown blocks between its "
                    + "tags are shown)"
            case .emptyField: "it holds no text to show; its box is left out"
            case .fallback: "a PDF cannot play or run it; its fallback content is shown"
            case .noFallback:
                "a PDF cannot play or run it, and it holds no fallback text of its own; it is "
                    + "left out (Markdown blocks between its tags are shown)"
            case .selected:
                "it is set as the option it shows closed (the one selected, else the first); its "
                    + "other options are left out"
            case .listBox: "its options are shown one a line, without the list's box"
            case .drawingText: "its drawing is left out; the words of its <text> elements are shown"
            case .drawingTitle: "its drawing is left out; its <title> is shown in its place, as an image's alt text"
            case .drawingOnly: "its drawing is left out, and it holds no text to show"
            case .mathText: "its formula is not laid out; its text is shown in reading order"
            case .empty:
                "it holds no text, so nothing of it is shown: its attributes are not read (a component's "
                    + "text=\"…\" or label=\"…\"), and a tag meant as text is written \\<name\\> or in `code`"
            }
        }
    }

    /// One warning per element name and fate, so the words are true of every such element.
    mutating func warnUnsupported(_ name: String, at location: SourceLocation?, fate: Fate) {
        guard warned.insert(name + "\u{0}" + "\(fate)").inserted else { return }
        diagnostics.append(
            Diagnostic(
                .warning,
                "HTML element <\(name)> is not supported; "
                    + fate.words.replacingOccurrences(of: "\\<name\\>", with: "\\<\(name)\\>")
                    + " (one warning for all <\(name)> elements treated so)",
                at: location, kind: .html))
    }

    /// The one warning for an `<ol type>` other than figures (`a`, `A`, `i`, `I`: HTML, "The ol
    /// element"): the list is numbered 1. 2. 3.
    /// The numbering an `<ol>`'s `type` asks for (HTML, "The ol element": `1`, `a`, `A`, `i`,
    /// `I`); figures, with one warning for all such lists, for another value.
    private mutating func numbering(
        _ name: String, _ attributes: [String: String], at location: SourceLocation?
    ) -> ListNumbering {
        guard name == "ol", let type = attributes["type"] else { return .decimal }
        let numberings: [String: ListNumbering] = [
            "1": .decimal, "a": .lowerAlpha, "A": .upperAlpha, "i": .lowerRoman, "I": .upperRoman,
        ]
        if let numbering = numberings[type] { return numbering }
        if warned.insert("\u{0}oltype").inserted {
            diagnostics.append(
                Diagnostic(
                    .warning,
                    "<ol type=\"\(type.prefix(8))\">: HTML's types are 1, a, A, i and I; the list is numbered with "
                        + "figures (one warning for every such list)",
                    at: location, kind: .html))
        }
        return .decimal
    }

    /// The one warning for HTML libxml2 gave up on (nested too deep, a text node too long):
    /// its text is shown without its markup.
    private mutating func warnUnparsed(at location: SourceLocation?) {
        guard warned.insert("\u{0}unparsed").inserted else { return }
        diagnostics.append(
            Diagnostic(
                .warning,
                "raw HTML the HTML parser cannot read (nested too deep or too long): its text is shown without its "
                    + "markup (one warning for every such HTML block in the document)",
                at: location, kind: .html))
    }

    // MARK: Blocks

    /// The blocks of one HTML block (`location`: where it starts). A `<div>`, `<center>` or
    /// `<details>` left open at the end of the block (its Markdown content follows, its closing
    /// tag comes in a later HTML block) adds a marker that ``nestContainers(_:)`` resolves.
    mutating func blocks(_ html: String, location: SourceLocation?, keepingOpenTables: Bool = true) -> [Block] {
        if keepingOpenTables {
            let tables = Self.tableBalance(html)
            if openTables > 0 || tables > 0 {
                openTables = max(0, openTables + tables)
                return [Block(.html(Self.tableMarker + html), location: location)]
            }
        }
        warnIfUnclosedComment(html, at: location)
        let outer = block
        defer { block = outer }
        block = PlacedBlock(html, start: location)
        var builder = BlockBuilder(location: location)
        // The word joiner before a formula's marker (``MathSyntax``) is the marker's, not text.
        let marker = "\u{2060}<\(MathSyntax.tag) "
        let html =
            html.utf8.firstRange(of: marker.utf8) == nil
            ? html : html.replacingOccurrences(of: marker, with: "<\(MathSyntax.tag) ")
        let (nodes, complete) = HTMLFragment.parseChecked(html)
        if !complete { warnUnparsed(at: location) }
        appendBlocks(nodes, to: &builder, location: location, depth: 0)
        var result = builder.finish()
        let balance = Self.containerBalance(html)
        for (name, count) in balance where count < 0 {
            result += Array(repeating: Block(.html(Self.closeMarker + name), location: location), count: -count)
        }
        for (name, count) in balance where count > 0 {
            // The attributes of the last such element libxml2 saw (it closed it at the end).
            var attributes: [String: String] = [:]
            func find(_ nodes: [HTMLNode]) {
                for case .element(let elementName, let elementAttributes, let children) in nodes {
                    if elementName == name { attributes = elementAttributes }
                    find(children)
                }
            }
            find(nodes)
            let align = name == "center" ? "center" : attributes["align"]?.lowercased()
            var marker = Attributes(location: location)
            if let align, ["left", "center", "right", "justify"].contains(align) {
                marker.pairs.append(.init(key: "align", value: align, location: location))
            }
            result += Array(
                repeating: Block(.html(Self.openMarker + name), attributes: marker, location: location), count: count)
        }
        return result
    }

    /// An HTML block that opens a comment (`<!--`) without closing it runs to the end of its
    /// container — the document, or the quote or list item it is in (CommonMark 0.30 §4.6, HTML
    /// block type 2) — and a comment is never shown: every line after it would be lost in
    /// silence. Warns with the number of lines hidden, at the `<!--`.
    private mutating func warnIfUnclosedComment(_ html: String, at location: SourceLocation?) {
        let trimmed = html.drop { $0 == " " || $0 == "\t" }
        guard trimmed.hasPrefix("<!--"), !trimmed.contains("-->") else { return }
        let lineEnds = html.utf8.reduce(0) { count, byte in byte == 0x0A ? count + 1 : count }
        let hidden = max(0, lineEnds - (html.utf8.last == 0x0A ? 1 : 0))
        guard hidden > 0 else { return }
        let lines = hidden == 1 ? "the line" : "the \(hidden) lines"
        diagnostics.append(
            Diagnostic(
                .warning,
                "HTML comment '<!--' is never closed: \(lines) after it, to the end of the document or of the block "
                    + "it is in, are part of the comment and not set (close it with '-->')",
                at: location, kind: .html))
    }

    /// The language a `<pre>` names for its code, as GitHub reads it: its `lang` attribute
    /// (`<pre lang="python">`), else a `language-` or `lang-` class on it or on the one `<code>`
    /// inside it (`<pre><code class="language-js">`, HTML's convention, WHATWG HTML §4.4.3);
    /// nil for none, and the code is set plain.
    static func preLanguage(attributes: [String: String], children: [HTMLNode]) -> String? {
        func fromClass(_ classes: String?) -> String? {
            guard let classes else { return nil }
            for name in classes.split(whereSeparator: \.isWhitespace) {
                for prefix in ["language-", "lang-"] where name.hasPrefix(prefix) && name.count > prefix.count {
                    return String(name.dropFirst(prefix.count))
                }
            }
            return nil
        }
        if let lang = attributes["lang"]?.trimmingCharacters(in: .whitespaces), !lang.isEmpty,
            !lang.contains(where: \.isWhitespace)
        {
            return lang
        }
        if let named = fromClass(attributes["class"]) { return named }
        let elements = children.filter {
            if case .text(let text) = $0 { !text.allSatisfy(\.isWhitespace) } else { true }
        }
        guard elements.count == 1, case .element("code", let codeAttributes, _) = elements[0] else { return nil }
        return fromClass(codeAttributes["class"])
    }

    /// The attributes of a `<summary>`'s paragraph: the class ``Attributes/summaryClass``,
    /// which keeps it on the page of what it sums up, as a heading is kept.
    static let summary = Attributes(classes: [Attributes.summaryClass])
    static let openMarker = "\u{0}open ", closeMarker = "\u{0}close "
    static let containers = ["div", "center", "details"]

    /// Opening minus closing tags of each container element in `html`, comments aside (the
    /// parser closes what is left open, so the count is read from the source's tags).
    static func containerBalance(_ html: String) -> [(String, Int)] {
        let balance = tagBalance(html, of: Set(containers))
        return containers.compactMap { name in
            guard let count = balance[name], count != 0 else { return nil }
            return (name, count)
        }
    }

    /// Opening minus closing tags of each element of `names` in `html` (lower case), comments
    /// aside.
    static func tagBalance(_ html: String, of names: Set<String>) -> [String: Int] {
        let bytes = Array(html.utf8)
        var balance: [String: Int] = [:]
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            if bytes[index...].starts(with: "<!--".utf8) {
                // A comment's tags are not tags: skip to its end (or the fragment's).
                var end = index + 4
                while end < bytes.count, !bytes[end...].starts(with: "-->".utf8) { end += 1 }
                index = end + 3
                continue
            }
            let closing = index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "/")
            var nameEnd = index + (closing ? 2 : 1)
            let nameStart = nameEnd
            while nameEnd < bytes.count, isASCIILetterOrDigit(bytes[nameEnd]) { nameEnd += 1 }
            index = max(nameEnd, index + 1)
            guard nameEnd > nameStart, nameEnd < bytes.count else { continue }
            let next = bytes[nameEnd]
            let ends = next == UInt8(ascii: ">") || isASCIISpace(next) || (!closing && next == UInt8(ascii: "/"))
            let name = String(decoding: bytes[nameStart..<nameEnd].map { $0 | 0x20 }, as: UTF8.self)
            guard ends, names.contains(name) else { continue }
            balance[name, default: 0] += closing ? -1 : 1
        }
        return balance
    }

    private static func isASCIILetterOrDigit(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    private static func isASCIISpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
    }

    /// Resolves the markers of ``blocks(_:location:)`` in one container's blocks: what lies
    /// between an opening and its closing HTML block goes inside — a div carrying the opening
    /// tag's `align` (GitHub centres a README's `<div align="center">` content), or simply in
    /// place. An element never closed ends with its container, and is added to `unclosed`
    /// with where it opens; a stray closing tag is dropped.
    static func nestContainers(_ blocks: [Block], unclosed: inout [(name: String, location: SourceLocation?)])
        -> [Block]
    {
        guard blocks.contains(where: { if case .html(let html) = $0.kind { html.hasPrefix("\u{0}") } else { false } })
        else {
            return blocks
        }
        var stack: [(name: String, attributes: Attributes, location: SourceLocation?, blocks: [Block])] = [
            ("", .none, nil, [])
        ]
        func close() {
            let frame = stack.removeLast()
            if frame.attributes.pairs.isEmpty || frame.blocks.isEmpty {
                stack[stack.count - 1].blocks += frame.blocks
            } else {
                stack[stack.count - 1].blocks.append(
                    Block(.div(frame.blocks), attributes: frame.attributes, location: frame.location))
            }
        }
        for block in blocks {
            if case .html(let html) = block.kind, html.hasPrefix(openMarker) {
                stack.append((String(html.dropFirst(openMarker.count)), block.attributes, block.location, []))
            } else if case .html(let html) = block.kind, html.hasPrefix(closeMarker) {
                let name = String(html.dropFirst(closeMarker.count))
                guard let index = stack.lastIndex(where: { $0.name == name }), index > 0 else { continue }
                while stack.count > index { close() }
            } else {
                stack[stack.count - 1].blocks.append(block)
            }
        }
        while stack.count > 1 {
            unclosed.append((stack[stack.count - 1].name, stack[stack.count - 1].location))
            close()
        }
        return stack[0].blocks
    }

    /// Collects blocks, and the inline run of the paragraph being built.
    struct BlockBuilder {
        var blocks: [Block] = []
        var inlines: [Inline] = []
        var location: SourceLocation?
        var attributes: Attributes = .none

        mutating func flush() {
            let trimmed = RawHTML.trimmed(inlines)
            inlines = []
            guard !trimmed.isEmpty else { return }
            blocks.append(Block(.paragraph(trimmed), attributes: attributes, location: location))
        }

        mutating func finish() -> [Block] {
            flush()
            return blocks
        }
    }

    private mutating func appendBlocks(
        _ nodes: [HTMLNode], to builder: inout BlockBuilder, location: SourceLocation?, depth: Int
    ) {
        for node in nodes {
            if case .element(Self.embeddedTag, let attributes, _) = node, let blocks = embedded(attributes) {
                // A Markdown block of a table's HTML outside its cells: itself.
                builder.flush()
                builder.blocks += blocks
                continue
            }
            guard case .element(let name, let attributes, let children) = node, isBlockElement(name) else {
                builder.inlines += inlines(node, location: location, depth: depth + 1)
                continue
            }
            let location = place(name) ?? location
            builder.flush()
            let pageBreaks = Self.pageBreaks(style: attributes["style"])
            if pageBreaks.before { builder.blocks.append(Block(.pageBreak, location: location)) }
            defer { if pageBreaks.after { builder.blocks.append(Block(.pageBreak, location: location)) } }
            switch name {
            case "h1", "h2", "h3", "h4", "h5", "h6":
                appendHeading(name, attributes, children, to: &builder, location: location, depth: depth)
            case "details":
                // Paper cannot fold: the summary is a bold line, the body follows.
                var inner = BlockBuilder(location: location)
                for child in children {
                    if case .element("summary", _, let summary) = child {
                        inner.flush()
                        let content = Self.trimmed(inlines(summary, location: location, depth: depth + 1))
                        if !content.isEmpty {
                            inner.blocks.append(
                                Block(.paragraph([.strong(content)]), attributes: Self.summary, location: location))
                        }
                    } else {
                        appendBlocks([child], to: &inner, location: location, depth: depth + 1)
                    }
                }
                builder.blocks += inner.finish()
            case "table":
                let parts = table(children, location: location, depth: depth)
                // A browser moves content that is in no cell ahead of the table (HTML Living
                // Standard §13.2.6.1, "foster parenting"); the caption is the table's own, set
                // above it. A caption of a table without cells is a centred paragraph.
                if parts.table == nil {
                    var caption = BlockBuilder(location: location)
                    caption.attributes = Attributes(
                        pairs: [.init(key: "align", value: "center", location: location)],
                        location: location)
                    appendBlocks(parts.caption, to: &caption, location: location, depth: depth + 1)
                    builder.blocks += caption.finish()
                }
                appendBlocks(parts.outsideCells, to: &builder, location: location, depth: depth + 1)
                builder.flush()
                if var table = parts.table {
                    table.caption = Self.trimmed(inlines(parts.caption, location: location, depth: depth + 1))
                    builder.blocks.append(Block(.table(table), location: location))
                }
            case "ul", "ol":
                appendList(
                    name: name, attributes: attributes, children: children, to: &builder,
                    location: location, depth: depth)
            case "pre":
                var text = Self.text(children)
                if text.hasPrefix("\n") { text.removeFirst() }  // HTML drops a newline right after <pre>
                let info = Self.preLanguage(attributes: attributes, children: children) ?? ""
                builder.blocks.append(Block(.codeBlock(info: info, text: text), location: location))
            case "blockquote":
                var inner = BlockBuilder(location: location)
                appendBlocks(children, to: &inner, location: location, depth: depth + 1)
                builder.blocks.append(Block(.blockQuote(inner.finish()), location: location))
            case "hr":
                builder.blocks.append(Block(.thematicBreak, location: location))
            case "summary":
                // A summary in an HTML block of its own (its <details> opened in another).
                let content = Self.trimmed(inlines(children, location: location, depth: depth + 1))
                if !content.isEmpty {
                    builder.blocks.append(
                        Block(.paragraph([.strong(content)]), attributes: Self.summary, location: location))
                }
            default:
                // p, div, center and the other flow containers: their content as paragraphs,
                // aligned as `align` (or <center>) says.
                var inner = BlockBuilder(location: location)
                let align = name == "center" ? "center" : attributes["align"]?.lowercased()
                if let align, ["left", "center", "right", "justify"].contains(align) {
                    inner.attributes = Attributes(
                        pairs: [.init(key: "align", value: align, location: location)], location: location)
                }
                if let id = attributes["id"] { inner.inlines.append(.anchor(id)) }
                appendBlocks(children, to: &inner, location: location, depth: depth + 1)
                let content = inner.finish()
                let onlyParagraphs = content.allSatisfy { block in
                    if case .paragraph = block.kind { true } else { false }
                }
                if inner.attributes.isEmpty {
                    builder.blocks += content
                } else if onlyParagraphs {
                    // Paragraphs of their own (`<div align><p>…</p></div>`) take the container's
                    // alignment unless they have one.
                    builder.blocks += content.map { paragraph in
                        var aligned = paragraph
                        if !aligned.attributes.pairs.contains(where: { $0.key == "align" }) {
                            aligned.attributes.pairs += inner.attributes.pairs
                        }
                        return aligned
                    }
                } else {
                    builder.blocks.append(Block(.div(content), attributes: inner.attributes, location: location))
                }
            }
        }
    }

    /// A heading element `name` (`h1`…`h6`). A heading's start tag while a heading is the
    /// current node closes it (HTML's *"in body"* insertion mode): a heading among `children`
    /// and what follows it are blocks and text after this one.
    private mutating func appendHeading(
        _ name: String, _ attributes: [String: String], _ children: [HTMLNode],
        to builder: inout BlockBuilder, location: SourceLocation?, depth: Int
    ) {
        let level = Int(String(name.dropFirst())) ?? 1
        let nested = children.firstIndex {
            if case .element(let child, _, _) = $0 { Self.headings.contains(child) } else { false }
        }
        let own = nested.map { Array(children[..<$0]) } ?? children
        let content = Self.trimmed(inlines(own, location: location, depth: depth + 1))
        var headingAttributes = Attributes(id: attributes["id"], location: location)
        if let align = attributes["align"]?.lowercased(), ["left", "center", "right"].contains(align) {
            headingAttributes.pairs.append(.init(key: "align", value: align, location: location))
        }
        builder.blocks.append(Block(.heading(level: level, content), attributes: headingAttributes, location: location))
        if let nested {
            appendBlocks(Array(children[nested...]), to: &builder, location: location, depth: depth + 1)
        }
    }

    /// Whether a block element's `style` breaks the page before or after it, as a browser
    /// printing it does: `page-break-before: always` or `break-before: page` (CSS 2.1 §13.3.1,
    /// CSS Fragmentation Level 3 §3.1), and the same `-after` (as `<div style="page-break-after:
    /// always"></div>`, the page break Markdown-to-PDF tools document).
    static func pageBreaks(style: String?) -> (before: Bool, after: Bool) {
        guard let style else { return (false, false) }
        let declarations = style.lowercased().split(separator: ";").map { declaration in
            declaration.split(separator: ":", maxSplits: 1).map { $0.filter { !$0.isWhitespace } }
        }
        func breaks(_ side: String) -> Bool {
            declarations.contains { parts in
                parts.count == 2
                    && (parts[0] == "page-break-\(side)" && parts[1] == "always"
                        || parts[0] == "break-\(side)" && ["page", "always", "left", "right"].contains(parts[1]))
            }
        }
        return (breaks("before"), breaks("after"))
    }

    /// A `<ul>` or `<ol>`: each `<li>` an item. What stands in the list outside any `<li>` (text,
    /// a list nested directly in a list, as hand-written HTML often has it) is shown where a
    /// browser shows it: before the first item it comes before the list, after an item it joins
    /// that item.
    private mutating func appendList(
        name: String, attributes: [String: String], children: [HTMLNode],
        to builder: inout BlockBuilder, location: SourceLocation?, depth: Int
    ) {
        // `reversed` counts down, from the number of items when no `start` is given (HTML,
        // "The ol element").
        let reversed = name == "ol" && attributes["reversed"] != nil
        let written = Self.listStart(attributes["start"])
        var list = ListBlock(
            ordered: name == "ol", start: written ?? 1, tight: true, items: [], reversed: reversed,
            numbering: numbering(name, attributes, at: location))
        var outside = BlockBuilder(location: location)
        func placeOutside() {
            let blocks = outside.finish()
            outside = BlockBuilder(location: location)
            guard !blocks.isEmpty else { return }
            if list.items.isEmpty {
                builder.blocks += blocks
            } else {
                list.items[list.items.count - 1].blocks += blocks
            }
        }
        for child in children {
            guard case .element("li", _, let itemChildren) = child else {
                appendBlocks([child], to: &outside, location: location, depth: depth + 1)
                continue
            }
            placeOutside()
            var item = BlockBuilder(location: location)
            appendBlocks(itemChildren, to: &item, location: location, depth: depth + 1)
            list.items.append(ListItem(blocks: item.finish()))
        }
        placeOutside()
        if reversed, written == nil { list.start = list.items.count }
        if !list.items.isEmpty { builder.blocks.append(Block(.list(list), location: location)) }
    }

    /// The alignment an HTML table cell asks for: its `align` attribute (HTML 4, which GitHub
    /// keeps) or its `style`'s `text-align`; nil: none.
    static func cellAlignment(_ attributes: [String: String]) -> ColumnAlignment? {
        var value = attributes["align"]?.lowercased()
        if value == nil, let style = attributes["style"]?.lowercased(),
            let range = style.range(of: "text-align")
        {
            value = style[range.upperBound...].drop { $0 == ":" || $0 == " " }.prefix { $0.isLetter }.description
        }
        switch value {
        case "left", "start": return .left
        case "center", "middle": return .center
        case "right", "end": return .right
        default: return nil
        }
    }

    private func isBlockElement(_ name: String) -> Bool {
        Self.blockContainers.contains(name)
            || ["h1", "h2", "h3", "h4", "h5", "h6", "table", "ul", "ol", "pre", "blockquote", "hr", "summary"].contains(
                name)
    }

    /// The most slots (rows × columns) a table's grid holds for each cell written (`td`, `th`)
    /// when its spans are kept, beyond ``spanSlotFloor``: a table whose spans would make a
    /// larger grid, or one wider than ``MathSyntax/maximumTableColumns``, is set with each span
    /// taken as one slot, so that its cost grows with the cells written and not with the
    /// product of their spans (1,000 rows of `colspan=1000 rowspan=65534` make a grid of a
    /// billion slots in the HTML table model). A table whose short rows, filled with empty
    /// cells, make a larger grid is set as text (its rows as paragraphs), an HTML table's here
    /// and a Markdown one's as ``MathSyntax/sparseGrid(_:after:columns:headerCells:)`` finds it.
    static let slotsPerWrittenCell = 16

    /// The slots the grid of any table may hold with its spans kept, whatever its cells.
    static let spanSlotFloor = 4_096

    /// A `td` or `th` of a table row: whether it is a `th`, its attributes and its content.
    private struct WrittenCell {
        /// Whether the cell is a header cell (`th`).
        var isHeader: Bool
        /// The cell's attributes (`colspan`, `rowspan`, `align`, `scope`…).
        var attributes: [String: String]
        /// The cell's content.
        var content: [HTMLNode]
    }

    /// The value of a span attribute by the HTML rules for parsing non-negative integers
    /// (leading spaces and a `+` skipped, the digits up to the first other character read):
    /// nil when it has no digits; a value past `Int.max` is `Int.max`.
    static func spanValue(_ text: String?) -> Int? {
        guard let text else { return nil }
        var bytes = text.utf8.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0C || $0 == 0x0D }
        if bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
        let digits = bytes.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        guard !digits.isEmpty else { return nil }
        var value = 0
        for digit in digits {
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            guard !overflow, times <= Int.max - Int(digit - UInt8(ascii: "0")) else { return Int.max }
            value = times + Int(digit - UInt8(ascii: "0"))
        }
        return value
    }

    /// The columns and rows `cell` spans, as the HTML table model clamps them: `colspan` 1 to
    /// 1,000 (0 or none is 1), `rowspan` 1 to 65,534 and never past the last of its row
    /// group's rows, `rowspan=0` to the group's end. `rowsLeft` counts the cell's own row;
    /// `clamped` says a value was past HTML's caps.
    private static func spans(of cell: WrittenCell, rowsLeft: Int) -> (columns: Int, rows: Int, clamped: Bool) {
        let columnValue = spanValue(cell.attributes["colspan"]) ?? 1
        let rowValue = spanValue(cell.attributes["rowspan"]) ?? 1
        let columns = min(max(columnValue, 1), 1_000)
        let rows = min(rowValue == 0 ? rowsLeft : min(rowValue, 65_534), rowsLeft)
        return (columns, max(rows, 1), columnValue > 1_000 || rowValue > 65_534)
    }

    /// Where the cells of each row of each row group go in the table's grid: the column of
    /// each cell and the row's width in slots (a slot covered by a span from an earlier row,
    /// past the row's last cell, is the row's too). With `keepingSpans` false every cell takes
    /// one slot. Nil when spans are kept and the grid would be wider than
    /// ``MathSyntax/maximumTableColumns`` or hold more than `budget` slots: the work stops
    /// there, so it never passes the budget.
    private static func placements(
        of groups: [[[WrittenCell]]], keepingSpans: Bool, budget: Int
    ) -> (rows: [(columns: [Int], width: Int)], spans: Bool)? {
        var placed: [(columns: [Int], width: Int)] = []
        var widest = 0
        var spans = false
        for group in groups {
            // The last row of the group each column is covered to (spans end with their group).
            var coveredTo: [Int] = []
            for (index, row) in group.enumerated() {
                var columns: [Int] = []
                columns.reserveCapacity(row.count)
                var column = 0
                for cell in row {
                    while column < coveredTo.count, coveredTo[column] >= index { column += 1 }
                    columns.append(column)
                    guard keepingSpans else {
                        column += 1
                        continue
                    }
                    let span = Self.spans(of: cell, rowsLeft: group.count - index)
                    if span.columns > 1 || span.rows > 1 { spans = true }
                    guard column + span.columns <= MathSyntax.maximumTableColumns else { return nil }
                    if coveredTo.count < column + span.columns {
                        coveredTo += Array(repeating: -1, count: column + span.columns - coveredTo.count)
                    }
                    for covered in column..<(column + span.columns) { coveredTo[covered] = index + span.rows - 1 }
                    column += span.columns
                }
                let coveredWidth = (coveredTo.lastIndex { $0 >= index }).map { $0 + 1 } ?? 0
                let width = max(column, coveredWidth)
                widest = max(widest, width)
                placed.append((columns, width))
                if keepingSpans, placed.count * widest > budget { return nil }
            }
        }
        return (placed, spans)
    }

    /// A table of simple rows (`tr` of `th`/`td`, directly or under `thead`/`tbody`/`tfoot`):
    /// a first row of header cells is the header. A cell spanning columns or rows (`colspan`,
    /// `rowspan`) keeps the grid the HTML table model gives (HTML Living Standard §4.9.12,
    /// "forming a table", with its caps: `colspan` at most 1,000, `rowspan` at most 65,534 and
    /// never past its row group): its text is set in the first slot it covers, the others stay
    /// empty, so every later cell lands in its own column; one warning says the span is not
    /// drawn. A grid of more than ``slotsPerWrittenCell`` slots for each cell written (at least
    /// ``spanSlotFloor``) or wider than ``MathSyntax/maximumTableColumns`` keeps no span, with
    /// a warning.
    ///
    /// Returns the table (nil without a cell), the caption's nodes, and the nodes that stand in
    /// the table outside any cell (text, or an element where only rows or cells belong).
    private mutating func table(_ children: [HTMLNode], location: SourceLocation?, depth: Int)
        -> (table: Table?, caption: [HTMLNode], outsideCells: [HTMLNode])
    {
        var caption: [HTMLNode] = []
        var outsideCells: [HTMLNode] = []
        // The rows of each row group (`thead`, `tbody`, `tfoot`; rows directly in the table
        // make one group up to the next group element), each row its written cells.
        var groups: [[[WrittenCell]]] = []
        var inGroup = false
        func collect(_ nodes: [HTMLNode], group: Bool) {
            for node in nodes {
                guard case .element(let name, _, let inner) = node else {
                    outsideCells.append(node)
                    continue
                }
                switch name {
                case "thead", "tbody", "tfoot":
                    groups.append([])
                    collect(inner, group: true)
                    inGroup = false
                case "caption": caption += inner
                case "col", "colgroup": break
                case "tr":
                    if !group, !inGroup {
                        groups.append([])
                        inGroup = true
                    }
                    var row: [WrittenCell] = []
                    for cell in inner {
                        guard case .element(let cellName, let attributes, let content) = cell,
                            cellName == "td" || cellName == "th"
                        else {
                            outsideCells.append(cell)
                            continue
                        }
                        row.append(WrittenCell(isHeader: cellName == "th", attributes: attributes, content: content))
                    }
                    groups[groups.count - 1].append(row)
                default: outsideCells.append(node)
                }
            }
        }
        collect(children, group: false)
        let written = groups.reduce(0) { $0 + $1.reduce(0) { $0 + $1.count } }
        let budget = max(Self.spanSlotFloor, Self.slotsPerWrittenCell * written)
        let kept = Self.placements(of: groups, keepingSpans: true, budget: budget)
        let placement = kept ?? Self.placements(of: groups, keepingSpans: false, budget: budget)
        guard let placement else { return (nil, caption, outsideCells) }
        if kept == nil, warned.insert("\u{0}spangrid").inserted {
            diagnostics.append(
                Diagnostic(
                    .warning,
                    "an HTML table's cells span more columns or rows than its \(written) cells fill (a grid wider "
                        + "than \(MathSyntax.maximumTableColumns) columns or of more than \(budget) cells): its "
                        + "spans are not kept, each cell is set in the next column (one warning for every such "
                        + "table in the document)",
                    at: location, kind: .html))
        }
        let clamped = groups.joined().joined().contains { Self.spans(of: $0, rowsLeft: 1).clamped }
        if clamped, warned.insert("\u{0}spancap").inserted {
            diagnostics.append(
                Diagnostic(
                    .warning,
                    "an HTML table cell spans more than HTML's 1,000 columns (colspan) or 65,534 rows (rowspan): "
                        + "the span is cut there (one warning for every such table in the document)",
                    at: location, kind: .html))
        }
        if placement.spans, warned.insert("\u{0}span").inserted {
            diagnostics.append(
                Diagnostic(
                    .warning,
                    "an HTML table cell spans columns or rows (colspan, rowspan): its text is set in the first cell "
                        + "it covers and the others are left empty, so every cell stays in its column (one warning "
                        + "for every such table in the document)",
                    at: location, kind: .html))
        }
        var rows: [(header: Bool, cells: [[Inline]])] = []
        // Each row's `<th>` cells: their columns and the `scope` each gives (nil: none).
        var headerCells: [Int: [(column: Int, scope: HeaderScope?)]] = [:]
        // The alignments the cells of each column ask for (`align`, or CSS `text-align`).
        var asked: [Int: [ColumnAlignment]] = [:]
        var rowPlaces = placement.rows.makeIterator()
        for row in groups.joined() {
            guard let place = rowPlaces.next(), place.width > 0 else { continue }
            var cells = Array(repeating: [Inline](), count: place.width)
            for (cell, column) in zip(row, place.columns) {
                if cell.isHeader {
                    headerCells[rows.count, default: []].append((column, Self.headerScope(cell.attributes)))
                }
                if let alignment = Self.cellAlignment(cell.attributes) {
                    asked[column, default: []].append(alignment)
                }
                cells[column] = Self.trimmed(inlines(cell.content, location: location, depth: depth + 2))
            }
            rows.append((!row.contains { !$0.isHeader }, cells))
        }
        guard !rows.isEmpty else { return (nil, caption, outsideCells) }
        let columns = rows.map(\.cells.count).max() ?? 0
        if rows.count * columns > budget {
            let paragraphs = rowsAsParagraphs(groups, columns: columns, written: written, location: location)
            return (nil, caption, outsideCells + paragraphs)
        }
        func padded(_ cells: [[Inline]]) -> [[Inline]] { cells + Array(repeating: [], count: columns - cells.count) }
        let header = rows[0].header ? padded(rows[0].cells) : Array(repeating: [], count: columns)
        let body = rows.dropFirst(rows[0].header ? 1 : 0).map { padded($0.cells) }
        // A table's cells are aligned by column: each column as most of its cells ask.
        let alignments = (0..<columns).map { column -> ColumnAlignment in
            let counts = Dictionary((asked[column] ?? []).map { ($0, 1) }, uniquingKeysWith: +)
            return counts.max { $0.value < $1.value || $0.value == $1.value && "\($0.key)" > "\($1.key)" }?.key ?? .none
        }
        var table = Table(alignments: alignments, header: header, rows: Array(body))
        table.headerScopes = Self.headerScopes(headerCells, headerRow: rows[0].header)
        return (table, caption, outsideCells)
    }

    /// The rows of a table whose short rows, each filled with empty cells to its `columns`,
    /// would make a grid of more than ``slotsPerWrittenCell`` places for each of its `written`
    /// cells: each row a paragraph of its cells, a space between them, with a warning.
    private mutating func rowsAsParagraphs(
        _ groups: [[[WrittenCell]]], columns: Int, written: Int, location: SourceLocation?
    ) -> [HTMLNode] {
        let rows = groups.reduce(0) { $0 + $1.count }
        diagnostics.append(
            Diagnostic(
                .warning,
                "an HTML table of \(columns) columns and \(rows) rows writes \(written) cells: its "
                    + "\(columns * rows) places, the rest empty, are more than \(Self.slotsPerWrittenCell) for each "
                    + "cell written; each row is set as a paragraph",
                at: location, kind: .html))
        return groups.joined().map { row -> HTMLNode in
            let cells = row.enumerated().flatMap { index, cell in (index > 0 ? [.text(" ")] : []) + cell.content }
            return .element(name: "p", attributes: [:], children: cells)
        }
    }

    /// What `scope` on a `<th>` names (`row`, `col`, their groups), nil when none or another.
    static func headerScope(_ attributes: [String: String]) -> HeaderScope? {
        switch attributes["scope"]?.trimmingCharacters(in: .whitespaces).lowercased() {
        case "row", "rowgroup": .row
        case "col", "colgroup": .column
        default: nil
        }
    }

    /// The ``Table/headerScopes`` of the `<th>` cells of each row (`cells`, by source row):
    /// each heads what its `scope` says; without one, a header-row cell heads its column, a
    /// body-row cell among the row's first cells its row, and a body-row cell after a data
    /// cell its column. When the first row is not a header row, rows count from 1.
    static func headerScopes(_ cells: [Int: [(column: Int, scope: HeaderScope?)]], headerRow: Bool)
        -> [TableCellPlace: HeaderScope]
    {
        var scopes: [TableCellPlace: HeaderScope] = [:]
        for (row, list) in cells {
            let place = headerRow ? row : row + 1
            for (k, cell) in list.enumerated() {
                if place == 0 {
                    if let scope = cell.scope, scope != .column {
                        scopes[TableCellPlace(row: 0, column: cell.column)] = scope
                    }
                    continue
                }
                // Leading header cells (the first cells of the row, one after another) head the row.
                let leading = list[...k].enumerated().allSatisfy { $0.element.column == $0.offset }
                scopes[TableCellPlace(row: place, column: cell.column)] = cell.scope ?? (leading ? .row : .column)
            }
        }
        return scopes
    }

    /// Where the next element named `name` of the HTML block being read is written: at its
    /// tag's `<`, the tags of one name met in the order the parser hands their elements on
    /// (document order). Nil when the tag is not found (an element the parser made up, as
    /// `<tbody>`), or outside an HTML block. A line of a block inside a list item or quote is
    /// counted from the column its container's content starts at.
    private mutating func place(_ name: String) -> SourceLocation? {
        guard let start = block.start, let tags = block.tags[name] else { return nil }
        let count = block.placed[name] ?? 0
        guard count < tags.count else { return nil }
        block.placed[name] = count + 1
        block.lastTag = tags[count]
        return location(ofOffset: tags[count], in: start)
    }

    /// The place of the block's byte `offset`, in the block that starts at `start` (its first
    /// line at `start`'s column, after its leading spaces).
    private func location(ofOffset offset: Int, in start: SourceLocation) -> SourceLocation {
        // The last line start at or before the offset (a binary search: a block may hold
        // thousands of lines and elements).
        var line = 0
        var high = block.lineStarts.count
        while high - line > 1 {
            let middle = (line + high) / 2
            if block.lineStarts[middle] <= offset { line = middle } else { high = middle }
        }
        let lineStart = block.lineStarts[line]
        let lead = line == 0 ? block.bytes[lineStart...].prefix { $0 == 0x20 }.count : 0
        let column = line == 0 ? start.column + offset - lineStart - lead : offset - lineStart + 1
        return SourceLocation(file: start.file, line: start.line + line, column: column)
    }

    /// Where the attribute `key` of the tag last placed (``place(_:)``) is written: at its
    /// name; nil when it is not found there.
    private func placeAttribute(_ key: String) -> SourceLocation? {
        guard let start = block.start, let tag = block.lastTag else { return nil }
        let bytes = block.bytes
        let end = bytes[tag...].firstIndex(of: UInt8(ascii: ">")) ?? bytes.count
        let needle = Array(key.utf8)
        var index = tag + 1
        while index + needle.count <= end {
            defer { index += 1 }
            let before = bytes[index - 1]
            guard before == 0x20 || before == 0x09 || before == 0x0A || before == 0x0D,
                zip(bytes[index..<(index + needle.count)], needle).allSatisfy({ RawHTMLBlock.asciiLowercase($0) == $1 }
                ),
                index + needle.count == end || !MathSyntax.isNameByte(bytes[index + needle.count])
            else { continue }
            return location(ofOffset: index, in: start)
        }
        return nil
    }

    // MARK: Inlines

    /// The inlines of HTML nodes inside a block (whitespace collapsed as HTML does).
    mutating func inlines(_ nodes: [HTMLNode], location: SourceLocation?, depth: Int) -> [Inline] {
        var result: [Inline] = []
        // Markdown blocks one after another in a cell are a line break apart, not two.
        var afterEmbedded = false
        for node in nodes {
            var converted = inlines(node, location: location, depth: depth)
            if case .element(Self.embeddedTag, _, _) = node {
                if afterEmbedded, converted.first == .lineBreak { converted.removeFirst() }
                afterEmbedded = true
            } else if case .text(let text) = node, text.allSatisfy(\.isWhitespace) {
                // White space between two blocks keeps them adjacent.
            } else {
                afterEmbedded = false
            }
            result += converted
        }
        return result
    }

    private mutating func inlines(_ node: HTMLNode, location: SourceLocation?, depth: Int) -> [Inline] {
        switch node {
        case .hidden: return []
        case .text(let text): return [.text(Self.collapsed(text))]
        case .element(let name, let attributes, let children):
            if name == MathSyntax.tag, let formula = MathSyntax.formula({ attributes[$0] }) {
                // A formula written in the HTML block's text (`<td>$x^2$</td>`). The marker is an
                // element libxml2 does not know, so the text after it, up to its parent's end, is
                // its content: kept after the formula.
                let place = SourceLocation(file: file, line: formula.line, column: formula.column)
                let start = formula.sourceStart.map { SourceLocation(file: file, line: $0.line, column: $0.column) }
                return [.math(formula.source, display: formula.display, location: place, sourceStart: start)]
                    + inlines(children, location: location, depth: depth + 1)
            }
            let location = place(name) ?? location
            if name == Self.embeddedTag, let blocks = embedded(attributes) {
                // Markdown blocks in a cell: on lines of their own, as a block element's text.
                return [.lineBreak] + Self.cellInlines(blocks) + [.lineBreak]
            }
            if name == "ul" || name == "ol" {
                return listInlines(name, attributes, children, location: location, depth: depth)
            }
            if isBlockElement(name) || name == "li" || name == "tr" || name == "td" || name == "th" {
                // A block inside text (or table parts out of place): its text, on a line of its own.
                return [.lineBreak] + inlines(children, location: location, depth: depth + 1) + [.lineBreak]
            }
            if let shown = renderedElement(name, attributes, children, location: location, depth: depth) {
                return shown
            }
            let outer = quoteDepth
            if name == "q" { quoteDepth += 1 }
            let content = inlines(children, location: location, depth: depth + 1)
            quoteDepth = outer
            return element(name, attributes, content: content, quotes: outer, location: location)
        }
    }

    /// A `<ul>` or `<ol>` inside text (a table cell's): each item on a line of its own after its
    /// marker, numbered as ``appendList`` numbers a list (`start`, `reversed`), indented an em
    /// for each list it is inside, as inline HTML's lists are set.
    private mutating func listInlines(
        _ name: String, _ attributes: [String: String], _ children: [HTMLNode], location: SourceLocation?, depth: Int
    ) -> [Inline] {
        let ordered = name == "ol"
        let reversed = ordered && attributes["reversed"] != nil
        let numbering = numbering(name, attributes, at: location)
        let itemCount = children.count { if case .element("li", _, _) = $0 { true } else { false } }
        let written = Self.listStart(attributes["start"])
        let list = ListBlock(
            ordered: ordered, start: written ?? (reversed ? itemCount : 1), items: [], reversed: reversed,
            numbering: numbering)
        let indent = String(repeating: "\u{2003}", count: listDepth)
        listDepth += 1
        defer { listDepth -= 1 }
        var result: [Inline] = [.lineBreak]
        var index = 0
        for child in children {
            guard case .element("li", _, let itemChildren) = child else {
                result += inlines(child, location: location, depth: depth + 1)
                continue
            }
            if index > 0 { result.append(.lineBreak) }
            let marker = ordered ? list.marker(at: index) : "•"
            result +=
                [.text(indent + marker + "\u{00A0}")] + inlines(itemChildren, location: location, depth: depth + 2)
            index += 1
        }
        return result + [.lineBreak]
    }

    /// The inline form of a text-level element `name` around `content`, inside `quotes` `<q>`
    /// elements.
    private mutating func element(
        _ name: String, _ attributes: [String: String], content: [Inline], quotes: Int, location: SourceLocation?
    ) -> [Inline] {
        switch name {
        case "b", "strong": return [.strong(content)]
        case "i", "em": return [.emphasis(content)]
        case "s", "del", "strike": return [.strikethrough(content)]
        case "code", "tt", "samp": return [.code(content.plainText)]
        case "br": return [.lineBreak]
        case "q":
            let marks = quotes % 2 == 0 ? ("\u{201C}", "\u{201D}") : ("\u{2018}", "\u{2019}")
            return [.text(marks.0)] + content + [.text(marks.1)]
        case "img": return [Self.image(attributes, location: location, attributeLocation: placeAttribute)]
        case "a":
            var result: [Inline] = []
            if let id = attributes["id"] ?? attributes["name"], !id.isEmpty { result.append(.anchor(id)) }
            if let href = attributes["href"] {
                result.append(.link(destination: href, title: attributes["title"] ?? "", children: content))
            } else {
                result += content
            }
            return result
        default:
            if let presentation = Self.presentations[name] { return [.presentation(presentation, content)] }
            if Self.transparent.contains(name) {
                if let id = attributes["id"] { return [.anchor(id)] + content }
                return content
            }
            if Self.silent.contains(name) { return [] }
            if let shown = renderedElement(name, content: content, location: location) { return shown }
            let empty = content.allSatisfy { $0.plainText.allSatisfy(\.isWhitespace) }
            warnUnsupported(name, at: location, fate: empty ? .empty : .shown)
            return content
        }
    }

    /// `<img src alt title width height>`: an image in a span carrying `caption=none` (GitHub
    /// shows an HTML image without a caption) and any `width`/`height` (CSS pixels, or `%`), as
    /// Pandoc's `![alt](src){width=…}` carries them.
    static func image(
        _ attributes: [String: String], location: SourceLocation?,
        attributeLocation: (String) -> SourceLocation? = { _ in nil }
    ) -> Inline {
        let alt = attributes["alt"] ?? ""
        // A URL's leading and trailing spaces are not part of it (WHATWG URL Standard, "URL
        // parsing": they are stripped), as a browser reads `src=" logo.png "`.
        let image = Inline.image(
            source: (attributes["src"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines),
            title: attributes["title"] ?? "", alt: alt.isEmpty ? [] : [.text(alt)], location: location)
        var pairs: [Attributes.Pair] = [.init(key: "caption", value: "none", location: location)]
        for key in ["width", "height"] {
            guard var value = attributes[key]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { continue }
            if Double(value) != nil { value += "px" }  // HTML's bare numbers are CSS pixels
            pairs.append(.init(key: key, value: value, location: attributeLocation(key) ?? location))
        }
        // `align="right"` floats the picture in a browser; on paper it stands at that side.
        if let align = attributes["align"]?.lowercased(), ["left", "center", "right"].contains(align) {
            pairs.append(.init(key: "align", value: align, location: location))
        }
        return .span(Attributes(pairs: pairs, location: location), [image])
    }

    // MARK: Inline HTML from cmark-gfm

    /// `inlines` with each bracketed span's content nested on its own (``nest(_:markingHeadings:)``):
    /// spans take their content before a level's tags are paired (`[<kbd>K</kbd>]{.mark}`).
    private mutating func nestingInSpans(_ inlines: [Inline]) -> [Inline] {
        var inlines = inlines
        for index in inlines.indices {
            if case .span(let attributes, let children) = inlines[index],
                children.contains(where: {
                    switch $0 {
                    case .rawHTML, .span: true
                    default: false
                    }
                })
            {
                inlines[index] = .span(attributes, nest(children))
            }
        }
        return inlines
    }

    /// Pairs the inline HTML tags of one inline sequence: `<b>`…`</b>` becomes `.strong`, an
    /// `<a id>` an anchor, a comment nothing. Unclosed elements close at the end of the
    /// sequence (as in a browser); a closing tag with nothing open is dropped.
    ///
    /// With `markingHeadings` (a paragraph's inlines), an `<h1>`–`<h6>` start tag closes what is
    /// open and leaves a ``headingMarker`` inline, as does its end tag: HTML's *"in body"*
    /// insertion mode closes the `<p>` at a heading's start tag, so the heading is a block of its
    /// own (``splitAtHeadings(_:location:)``).
    mutating func nest(_ inlines: [Inline], markingHeadings: Bool = false) -> [Inline] {
        let inlines = nestingInSpans(inlines)
        guard inlines.contains(where: { if case .rawHTML = $0 { true } else { false } }) else { return inlines }
        typealias Frame = (name: String, attributes: [String: String], location: SourceLocation?, content: [Inline])
        var stack: [Frame] = [("", [:], nil, [])]
        func append(_ items: [Inline]) { stack[stack.count - 1].content += items }
        // A frame closed: its element, inside the `q` elements still open.
        func closeFrame(_ frame: Frame) {
            let quotes = stack.count(where: { $0.name == "q" })
            append(
                element(frame.name, frame.attributes, content: frame.content, quotes: quotes, location: frame.location))
        }
        // Lists written in a line (a table cell's `<ul><li>x</li><li>y</li></ul>`, as GitHub
        // shows them): each item a line of its own behind its bullet or number, indented an
        // em a level of nesting.
        var lists: [(ordered: Bool, next: Int)] = []
        var breakBeforeNext = false
        func startLine() {
            // The last inline so far: in the innermost open element that holds one.
            let last = stack.reversed().lazy.compactMap(\.content.last).first
            if let last, last != .lineBreak { append([.lineBreak]) }
            breakBeforeNext = false
        }
        // Set after a tag that leaves nothing (a comment): a space on both sides of it is one
        // space, as a browser collapses white space (`Text <!-- c --> more`).
        var droppedAfterSpace = false
        var openHeading = false
        var next = inlines.startIndex
        while next < inlines.endIndex {
            let inline = inlines[next]
            next += 1
            guard case .rawHTML(let html, let location) = inline else {
                if breakBeforeNext {
                    // The text after a list starts a line, without the space before it.
                    startLine()
                    if case .text(let text) = inline {
                        let trimmed = text.drop { $0 == " " }
                        if !trimmed.isEmpty { append([.text(String(trimmed))]) }
                        continue
                    }
                }
                if droppedAfterSpace, case .text(let text) = inline, text.hasPrefix(" ") {
                    if text.count > 1 { append([.text(String(text.dropFirst()))]) }
                } else {
                    append([inline])
                }
                droppedAfterSpace = false
                continue
            }
            droppedAfterSpace = false
            // The tag as HTML5's tokenizer reads it (`</br>` a `<br>`, `<image>` an `<img>`).
            let written = html.trimmingCharacters(in: .whitespacesAndNewlines)
            let tag = String(decoding: HTMLFiveTokens.normalized(Array(written.utf8), tag: true), as: UTF8.self)
            if let (end, content) = readWhole(tag, in: inlines, at: next - 1, location: location) {
                append(content)
                next = end
                continue
            }
            if tag.hasPrefix("</") {
                let name = String(tag.dropFirst(2).prefix { $0.isLetter || $0.isNumber || $0 == "-" }).lowercased()
                if markingHeadings, Self.headings.contains(name), openHeading {
                    while stack.count > 1 { closeFrame(stack.removeLast()) }
                    append([.rawHTML(Self.headingMarker, location: location)])
                    openHeading = false
                    continue
                }
                if name == "ul" || name == "ol" || name == "li" {
                    if name != "li", !lists.isEmpty {
                        lists.removeLast()
                        breakBeforeNext = true
                    }
                    continue
                }
                // The end of a block (`</summary>`, `</p>`, `</div>`): what follows starts a line.
                if isBlockElement(name) {
                    breakBeforeNext = true
                    continue
                }
                guard let open = stack.lastIndex(where: { $0.name == name }), open > 0 else { continue }
                while stack.count > open { closeFrame(stack.removeLast()) }
                continue
            }
            // A comment, declaration or processing instruction parses to no element: dropped.
            // Text inside an inline tag (`<span>x</span>` on one node) is kept.
            let (nodes, complete) = HTMLFragment.parseChecked(tag)
            if !complete { warnUnparsed(at: location) }
            if !nodes.contains(where: Self.isVisible), case .text(let text)? = stack[stack.count - 1].content.last,
                text.hasSuffix(" ")
            {
                droppedAfterSpace = true
            }
            for node in nodes {
                guard case .element(let name, let attributes, let children) = node else {
                    if case .text(let text) = node { append([.text(text)]) }
                    continue
                }
                if markingHeadings, children.isEmpty, Self.headings.contains(name) {
                    // A heading's start tag closes the paragraph, and a heading left open.
                    while stack.count > 1 { closeFrame(stack.removeLast()) }
                    if openHeading { append([.rawHTML(Self.headingMarker, location: location)]) }
                    append([.rawHTML(Self.headingMarker + name, location: location)])
                    openHeading = true
                } else if children.isEmpty, name == "ul" || name == "ol" {
                    startLine()
                    lists.append((name == "ol", Self.listStart(attributes["start"]) ?? 1))
                } else if children.isEmpty, name == "li" {
                    startLine()
                    append([.text(Self.nextItemMarker(&lists))])
                } else if Self.voidElements.contains(name) || !children.isEmpty || tag.hasSuffix("/>") {
                    append(self.inlines(node, location: location, depth: 0))
                } else if isBlockElement(name) || name == "li" {
                    startLine()  // a block tag inside a paragraph or cell: a line of its own
                } else if stack.count <= Self.maxInlineDepth {
                    stack.append((name, attributes, location, []))
                }  // deeper: the tag is dropped, its text kept (bounds the tree's depth)
            }
        }
        while stack.count > 1 { closeFrame(stack.removeLast()) }
        return stack[0].content
    }

    /// An `<ol start>` value as a number, within the nine digits CommonMark allows a list's start
    /// (§5.2): a larger one is held at ±999,999,999, so that counting on from it never
    /// overflows. Nil when there is no value or it is no whole number.
    static func listStart(_ value: String?) -> Int? {
        guard let value, let number = Int(value.trimmingCharacters(in: .whitespaces)) else { return nil }
        return min(max(number, -999_999_999), 999_999_999)
    }

    /// The marker of the next item of the innermost of the `lists` written in a line (a bullet,
    /// or its number, which it counts), indented an em for each list around it, with the
    /// no-break space after it.
    static func nextItemMarker(_ lists: inout [(ordered: Bool, next: Int)]) -> String {
        let depth = max(0, lists.count - 1)
        var marker = "•"
        if let list = lists.last, list.ordered {
            marker = "\(list.next)."
            lists[lists.count - 1].next += 1
        }
        return String(repeating: "\u{2003}", count: depth) + marker + "\u{00A0}"
    }

    /// Whether `node` leaves something in the text: an element or non-empty text.
    private static func isVisible(_ node: HTMLNode) -> Bool {
        switch node {
        case .element: true
        case .text(let text): !text.isEmpty
        case .hidden: false
        }
    }

    /// The heading elements.
    static let headings: Set<String> = ["h1", "h2", "h3", "h4", "h5", "h6"]

    /// The inline ``nest(_:markingHeadings:)`` leaves where a heading starts (followed by its
    /// element name) or ends (alone).
    static let headingMarker = "\u{0}heading "

    /// The blocks of a paragraph whose inlines hold ``headingMarker``s: the text between them
    /// paragraphs, each marked heading a heading; nil when there is no marker.
    static func splitAtHeadings(_ inlines: [Inline], location: SourceLocation?) -> [Block]? {
        guard
            inlines.contains(where: {
                if case .rawHTML(let text, _) = $0 { text.hasPrefix(headingMarker) } else { false }
            })
        else { return nil }
        var blocks: [Block] = []
        var level: Int?
        var place = location
        var pending: [Inline] = []
        func flush() {
            let content = trimmed(pending.filter { $0 != .softBreak })
            pending = []
            if let level {
                blocks.append(Block(.heading(level: level, content), location: place))
            } else if !content.isEmpty {
                blocks.append(Block(.paragraph(content), location: place))
            }
        }
        for inline in inlines {
            guard case .rawHTML(let text, let at) = inline, text.hasPrefix(headingMarker) else {
                pending.append(inline)
                continue
            }
            flush()
            level = Int(text.dropFirst(headingMarker.count + 1))
            place = at ?? location
        }
        flush()
        return blocks
    }

    /// Inline elements nested deeper than this (`<b><b><b>…` never closed) are not nested
    /// further: recursion over the tree stays shallow whatever the input.
    static let maxInlineDepth = 32

    /// HTML's void elements: they have no closing tag.
    static let voidElements = HTMLFragment.voidElements

    // MARK: Text

    /// HTML white space collapsing: every run of spaces, tabs and line endings is one space.
    /// (HTML's white space is ASCII, so the UTF-8 bytes are read one at a time: linear time.)
    static func collapsed(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        var space = false
        for byte in text.utf8 {
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C {
                space = true
                continue
            }
            if space {
                out.append(0x20)
                space = false
            }
            out.append(byte)
        }
        if space { out.append(0x20) }
        return String(decoding: out, as: UTF8.self)
    }

    /// `text` without the spaces (U+0020) at its start (`leading`) and its end (`trailing`).
    static func droppingSpaces(_ text: String, leading: Bool, trailing: Bool) -> String {
        let utf8 = text.utf8
        var start = utf8.startIndex
        var end = utf8.endIndex
        if leading {
            while start < end, utf8[start] == 0x20 { start = utf8.index(after: start) }
        }
        if trailing {
            while end > start, utf8[utf8.index(before: end)] == 0x20 { end = utf8.index(before: end) }
        }
        if start == utf8.startIndex, end == utf8.endIndex { return text }
        return String(Substring(utf8[start..<end]))
    }

    /// The inlines without white space at either end (and without collapsed doubles between
    /// text pieces); empty when there is nothing to see but anchors. Neighbouring text pieces
    /// are joined into one by appending, so the time is linear in the length of the text.
    static func trimmed(_ inlines: [Inline]) -> [Inline] {
        var result: [Inline] = []
        var text = ""
        var hasText = false
        func endText() {
            if hasText, !text.isEmpty { result.append(.text(text)) }
            text = ""
            hasText = false
        }
        for inline in inlines {
            guard case .text(let piece) = inline else {
                endText()
                result.append(inline)
                continue
            }
            if hasText, text.utf8.last == 0x20, piece.utf8.first == 0x20 {
                text += Substring(piece.utf8.dropFirst())
            } else {
                text += piece
            }
            hasText = true
        }
        endText()
        // No line break, and no space, at either end.
        while true {
            if case .lineBreak? = result.first {
                result.removeFirst()
            } else if case .text(let first)? = result.first {
                let kept = droppingSpaces(first, leading: true, trailing: false)
                if kept.isEmpty {
                    result.removeFirst()
                } else {
                    result[0] = .text(kept)
                    break
                }
            } else {
                break
            }
        }
        while true {
            if case .lineBreak? = result.last {
                result.removeLast()
            } else if case .text(let last)? = result.last {
                let kept = droppingSpaces(last, leading: false, trailing: true)
                if kept.isEmpty {
                    result.removeLast()
                } else {
                    result[result.count - 1] = .text(kept)
                    break
                }
            } else {
                break
            }
        }
        // Spaces next to a line break are not shown.
        for index in result.indices {
            guard case .text(let piece) = result[index] else { continue }
            let afterBreak = index > 0 && result[index - 1] == .lineBreak
            let beforeBreak = index + 1 < result.count && result[index + 1] == .lineBreak
            guard afterBreak || beforeBreak else { continue }
            result[index] = .text(droppingSpaces(piece, leading: afterBreak, trailing: beforeBreak))
        }
        result.removeAll { $0 == .text("") }
        return result
    }

    /// The text of nodes as written (a `<pre>`'s content: white space kept).
    static func text(_ nodes: [HTMLNode]) -> String {
        nodes.map { node -> String in
            switch node {
            case .text(let text): text
            case .element("br", _, _): "\n"
            case .element(_, _, let children): text(children)
            case .hidden: ""
            }
        }.joined()
    }
}
