import DocumentModel
import Typography

/// Styles a document one top-level block at a time, so that a caller can lay out and release
/// each block before the next is styled: memory holds the document and one block's styled
/// form, never the whole styled document.
///
/// The blocks are exactly those ``Styler/style(_:theme:options:)`` produces (it is built on
/// this stream), except that internal links are not yet checked: that needs every destination
/// of the document (links may point forward). Collect them with a ``LinkSurvey`` on a first
/// pass, then apply its ``LinkSurvey/Resolution`` to each block of a later pass.
///
/// A value type: a copy taken between two calls of ``next()`` resumes from the same place, with
/// the same heading ids, footnote numbers, structure ids and warnings so far; two streams over
/// the same document give the same blocks.
public struct StyleStream: Sendable {
    var styler: Styler
    let blocks: BlockList
    let context: Styler.BlockContext
    /// Index of the next top-level block.
    public private(set) var position = 0
    private var finished = false
    /// The containers being styled a part at a time, outermost first (see ``ContainerFrame``).
    var frames: [ContainerFrame] = []
    /// Blocks styled inside ``frames`` and not yet handed out.
    var pending: [StyledBlock] = []
    /// Blocks styled inside ``frames`` and handed out.
    var handedOut = 0
    /// Where in ``pending`` the first block of a list item's second child will be, when that
    /// child opened a frame of its own: it keeps with the item's opening paragraph
    /// (``Styler/keepWithLeadIn(_:at:after:)``) once it is styled.
    var leadInFollower: Int?
    /// A container holding more blocks than this, counted through its nested containers, is
    /// styled a part at a time (a list item, a quote's or div's block) and handed out in
    /// chunks of about as many blocks; a smaller one is styled whole.
    let partsPerChunk: Int

    /// A stream over `document`'s top-level blocks, styled against `theme`.
    public init(_ document: Document, theme: Theme, options: StylingOptions = StylingOptions()) {
        self.init(document, theme: theme, options: options, partsPerChunk: 256)
    }

    /// A stream that styles containers of more than `partsPerChunk` blocks a part at a time
    /// (`Int.max`: every block whole, as one chunk).
    init(_ document: Document, theme: Theme, options: StylingOptions, partsPerChunk: Int) {
        self.partsPerChunk = partsPerChunk
        styler = Styler(theme: theme, options: options)
        var bodyCascade = Cascade(theme: theme, role: .body)
        bodyCascade.language = options.language
        bodyCascade.hyphenate = options.hyphenate
        context = Styler.BlockContext(
            cascade: bodyCascade, indent: 0, rightIndent: 0, quoteBars: [],
            alignment: options.justify ? .justify : .left)
        styler.footnoteDefinitions = document.footnotes
        if let written = document.metadata.fields["tab-size"] {
            if let columns = Int(written), (1...16).contains(columns) {
                styler.tabSize = columns
            } else {
                styler.warn(
                    "front matter 'tab-size' is a whole number of columns from 1 to 16, not '\(written)'",
                    document.metadata.fieldLocations["tab-size"],
                    kind: .frontMatter)
            }
        }
        styler.readHighlightSetting(document.metadata)
        blocks = document.blocks
    }

    /// The styled blocks of the next top-level block (a list or quote gives several, an empty
    /// raw HTML block none), or of the next part of a long one (see ``ContainerFrame``), their
    /// footnotes attached; after the last, the notes no drawn marker
    /// cites (once, if any); then nil. The end of the document also adds
    /// the warnings that sum up the whole document (images inside lines, links into other
    /// Markdown files) to ``diagnostics``.
    public mutating func next() -> [StyledBlock]? {
        if !frames.isEmpty { return nextPart() }
        guard position < blocks.count else {
            guard !finished else { return nil }
            // Notes whose marker is never drawn are set after the last block, with a warning.
            var notes: [StyledBlock] = []
            styler.attachUnreachedFootnotes(to: &notes, context: context)
            finishDocument()
            return notes.isEmpty ? nil : notes
        }
        var block = blocks[position]
        if opensFrame(for: block, in: context) {
            position += 1
            return nextPart()
        }
        var consumed = 1
        if let captioned = Self.tableWithPandocCaption(blocks, at: position) {
            block = captioned
            consumed = 2
        }
        var styled: [StyledBlock] = []
        styler.append(block, context: context, to: &styled)
        // A block that sets nothing (an empty heading of a note reference alone) leaves its
        // notes to the next block that does.
        if !styled.isEmpty { styler.attachFootnotes(to: &styled, from: 0) }
        position += consumed
        return styled
    }

    /// A table and the Pandoc caption written beside it (`Table: …` above or below, read as a
    /// paragraph of one ``Attributes/tableCaptionClass`` span) as one table with that caption,
    /// as Pandoc reads them: set above the table, kept with it and tagged as its `Caption`
    /// (the caption's paragraph was a `P` of its own, and a page could turn between the two).
    /// Nil when the blocks at `index` are not a caption and a table without one.
    static func tableWithPandocCaption(_ blocks: BlockList, at index: Int) -> Block? {
        guard index + 1 < blocks.count else { return nil }
        // The caption's inlines; an id written with it (`{#tbl:sizes}`) stays on a span around
        // them, so the table's caption is the link's destination.
        func caption(_ block: Block) -> [Inline]? {
            guard case .paragraph(let inlines) = block.kind, inlines.count == 1,
                case .span(let attributes, let children) = inlines[0],
                attributes.classes.contains(Attributes.tableCaptionClass)
            else { return nil }
            guard let id = attributes.id else { return children }
            var labelled = Attributes()
            labelled.id = id
            labelled.location = attributes.location
            return [.span(labelled, children)]
        }
        let first = blocks[index]
        let second = blocks[index + 1]
        let (tableBlock, captionInlines): (Block, [Inline]?) =
            if case .table = first.kind { (first, caption(second)) } else { (second, caption(first)) }
        guard let captionInlines, case .table(var table) = tableBlock.kind, table.caption.isEmpty else { return nil }
        table.caption = captionInlines
        var captioned = tableBlock
        captioned.kind = .table(table)
        return captioned
    }

    private mutating func finishDocument() {
        finished = true
        styler.warnTalliedExamples()
        styler.warnUnansweredMathReferences()
        if let (first, location) = styler.otherFileLinks.first {
            let count = styler.otherFileLinks.count
            styler.warn(
                count == 1
                    ? "a link into another Markdown file ('\(first)'), which is not beside the document; kept as a "
                        + "relative link, which goes nowhere"
                    : "\(count) links into other Markdown files (the first: '\(first)'), which are not beside the "
                        + "document; kept as relative links, which go nowhere",
                location,
                kind: .link, subject: first)
        }
    }

    /// The first heading's plain text so far.
    public var firstHeading: String? { styler.firstHeading }
    /// The formula labels of the document read so far (``StylingOptions/mathLabels``).
    public var mathLabels: [String: String] { styler.mathLabels }
    /// Warnings so far, in the order found (internal links not included: see ``LinkSurvey``).
    public var diagnostics: [Diagnostic] { styler.diagnostics }
    /// Where the last block styled starts (the position of warnings that have none of their own).
    public var currentLocation: SourceLocation? { styler.currentLocation }
}

/// The internal links of a document and the destinations they may reach, gathered one styled
/// block at a time: only strings are kept (each destination, and each distinct link target with
/// where it is first used), never the blocks.
///
/// After the last block, ``resolution`` says what each link that names no destination as
/// written becomes — the destination GitHub's rules match (``AnchorMatcher``) or plain text —
/// and ``warnings`` names those that become plain text, as ``Styler/style(_:theme:options:)``
/// does.
public struct LinkSurvey: Sendable {
    /// Named destinations so far: heading and element ids, `<a id>` anchors, footnotes `fn-N`.
    public private(set) var anchors = Set<String>()
    /// Each internal link target, once, with the position of the block first linking to it.
    private var targets: [(id: String, location: SourceLocation?)] = []
    private var seenTargets = Set<String>()

    /// An empty survey.
    public init() {}

    /// Notes the destinations `block` provides and the internal links its runs hold
    /// (paragraphs, cells, captions, entries, footnotes).
    public mutating func visit(_ block: StyledBlock) {
        anchors.formUnion(block.destinationNames)
        func note(_ paragraph: StyledParagraph) {
            for run in paragraph.runs {
                if case .internal(let id)? = run.style.link, seenTargets.insert(id).inserted {
                    targets.append((id, block.location))
                }
            }
        }
        for paragraph in block.paragraphs { note(paragraph) }
        for number in block.footnotes.keys.sorted() {
            for noteBlock in block.footnotes[number]! { for paragraph in noteBlock.paragraphs { note(paragraph) } }
        }
    }

    /// What each link target that is not a destination as written becomes: a matched
    /// destination, or nil for plain text. Applied with ``Resolution/apply(to:)``.
    public struct Resolution: Sendable {
        /// Target → the destination it is rewritten to (nil: the link is dropped).
        let rewrites: [String: String?]
        /// The targets whose links are dropped: set as plain text.
        public var droppedTargets: Set<String> { Set(rewrites.filter { $0.value == nil }.keys) }
        /// Rewrites the internal links of `block`; does nothing when every link resolved as written.
        public func apply(to block: inout StyledBlock) {
            guard !rewrites.isEmpty else { return }
            block.updateParagraphs { paragraph in
                for index in paragraph.runs.indices {
                    guard case .internal(let id)? = paragraph.runs[index].style.link, let rewrite = rewrites[id] else {
                        continue
                    }
                    paragraph.runs[index].style.link = rewrite.map { .internal($0) }
                }
            }
        }
    }

    /// The resolution of every target seen (call after the last block).
    public var resolution: Resolution {
        let missing = targets.filter { !anchors.contains($0.id) }
        guard !missing.isEmpty else { return Resolution(rewrites: [:]) }
        let matcher = AnchorMatcher(anchors: anchors)
        var rewrites: [String: String?] = [:]
        for (id, _) in missing { rewrites[id] = .some(matcher.match(id)) }
        return Resolution(rewrites: rewrites)
    }

    /// Warnings for the targets no destination matches, in the order first linked, each at the
    /// block that first links to it, its subject the `#id` (so the renderer places it at the
    /// link); a target without a position takes `fallback` (the last block's position).
    public func warnings(fallback: SourceLocation?) -> [Diagnostic] {
        let missing = targets.filter { !anchors.contains($0.id) }
        guard !missing.isEmpty else { return [] }
        let matcher = AnchorMatcher(anchors: anchors)
        return missing.compactMap { id, location in
            guard matcher.match(id) == nil else { return nil }
            // Placed at the `#id` the link writes, looked for from its block's start.
            return Diagnostic(
                .warning, Styler.missingDestinationMessage(id), at: location ?? fallback, kind: .link,
                subject: "#\(id)")
        }
    }
}

extension Styler {
    /// The warning for an internal link to `id` that matches no destination.
    static func missingDestinationMessage(_ id: String) -> String {
        id.hasPrefix("fn-")
            ? "footnote \(id.dropFirst(3)) is referenced only from another footnote; it is not set"
            : "link to '#\(id)' matches no heading id or anchor; it is not made clickable"
    }
}
