import CodeHighlighting
import DocumentModel
import Foundation
import TeXMath
import Typography

/// Options that change how a document is styled (front matter and command line).
public struct StylingOptions: Sendable {
    /// Justify body paragraphs (never the last line).
    public var justify: Bool
    /// Where Hangul lines may break (front matter `line-break`).
    public var hangulLineBreak: HangulLineBreak
    /// Folder that relative image paths are resolved against.
    public var baseDirectory: String
    /// The document's language (front matter `lang`, BCP 47), nil for English: hyphenation patterns.
    public var language: String? = nil
    /// Hyphenate (front matter `hyphenate`); nil: justified paragraphs only.
    public var hyphenate: Bool? = nil
    /// Number the sections (`--number-sections`); nil: no numbers.
    public var sectionNumbering: SectionNumbering? = nil
    /// The folders images may be read from (``RenderOptions/root``); nil: any file. An image
    /// outside them is drawn as a placeholder with a warning, never opened.
    public var sandbox: Sandbox? = nil
    /// Code blocks set as one run of their plain style, their languages loaded meanwhile on
    /// another thread, for a pass that reads nothing the tokens change (``DeferredCodeTokens``);
    /// nil: code is highlighted as it is styled.
    package var deferredCodeTokens: DeferredCodeTokens? = nil
    /// Why the renderer cannot draw the picture at a path, nil when it can (a file that opens
    /// may be one no decoder reads: `is damaged: no loader can decode it`): an inline image it
    /// cannot draw is set as its alt text, with a warning saying why. Nil: every file that opens.
    package var imageProblem: (@Sendable (String) -> String?)? = nil
    /// Internal link targets (`#id`) that name no destination, not even by GitHub's matching:
    /// set as plain text, not in the link colour (``LinkSurvey/Resolution/droppedTargets``,
    /// known from the survey before the layout pass styles the document again).
    package var droppedLinks: Set<String> = []
    /// Every formula label of the document (`\label{key}` beside a `\tag`), key → the tag as
    /// `\ref` prints it, known from the survey so that a reference may come before its label.
    package var mathLabels: [String: String] = [:]
    /// The structure element ids this styling hands out are above this one, so that blocks
    /// styled apart from the document (its title block's abstract) keep ids of their own.
    package var structureIDsAbove = 0
    /// Creates options: ragged right, keep-all, images resolved against the current folder by default.
    public init(justify: Bool = false, hangulLineBreak: HangulLineBreak = .auto, baseDirectory: String = ".") {
        self.justify = justify
        self.hangulLineBreak = hangulLineBreak
        self.baseDirectory = baseDirectory
    }
}

/// The styled form of a document: a flat sequence of blocks ready for layout.
public struct StyledDocument: Sendable {
    /// Blocks ready for layout, in document order.
    public var blocks: [StyledBlock]
    /// The first heading's text (the PDF Title when front matter gives none).
    public var firstHeading: String?
    /// Warnings from styling (unknown roles and attributes, bad values, raw HTML), in the order found.
    public var diagnostics: [Diagnostic]
}

/// Resolves a ``Document`` against a ``Theme``: every run gets a fully resolved ``RunStyle``.
///
/// The cascade is theme role style → div → block → span (Pandoc attributes). Rules:
/// - A role (`.headline`) replaces the font settings (family, weight, size, spacing, line
///   height) but keeps the inherited colour unless the same list sets one.
/// - Kerning and tracking both add space between characters (pt, or % of the size). When both
///   are set at one level, tracking applies and kerning is ignored (Core Text's rule). A span
///   that sets only kerning replaces inherited tracking.
/// - Line height (`lineHeightMultiple`, `lineHeight`, `leading`) and `align` belong to blocks; on
///   a span they are ignored with a warning: a paragraph's line-height rule applies to all its
///   lines, whatever runs they hold (as SwiftUI's concatenated `Text` does).
/// - Markdown: emphasis → italic; strong → CSS `bolder` (≤ 300 → 400, 400–500 → 700, ≥ 600 → 900);
///   code → the theme's monospaced families; headings h1…h6 → LargeTitle, Title, Title3,
///   Headline, Body, Caption.
/// - Emphasis around a role span is kept, as HTML `<strong>`/`<em>` around a `<span>` whose
///   class sets a font: each strong around it is one `bolder` step on the role's own weight,
///   emphasis keeps it italic. A `weight`/`bold` or `italic=false` on the span wins.
/// - Code blocks are 0.9 of the size of the paragraphs around them (Body, a div's role, a
///   footnote's Caption), as inline code is 0.92 of its line.
public struct Styler: Sendable {
    /// The theme the document is styled against.
    public let theme: Theme
    /// Justification, Hangul line breaking and the image folder.
    public let options: StylingOptions
    var diagnostics: [Diagnostic] = []
    var slugs = SlugGenerator()
    var firstHeading: String?
    /// Footnote definitions by number, and the numbers referenced in the block being styled.
    var footnoteDefinitions: [Int: [Block]] = [:]
    var referencedNotes: [Int] = []
    /// `#id`s of spans and divs, and anchors written in text (`<a id>`), met since the last block
    /// was added: destinations at the top of the block being built (or the next one, when they
    /// stand alone).
    var pendingAnchors: [String] = []
    /// Whether the block appended last is a paragraph ending in a colon (``endsWithColon(_:)``).
    var followsLeadIn = false
    var styledNotes = Set<Int>()
    /// Where the block being styled starts (inline warnings without a position of their own).
    var currentLocation: SourceLocation?
    /// Columns between tab stops in code blocks (front matter `tab-size`; CSS's default is 8,
    /// code editors' and CommonMark's block-structure tab stop 4).
    var tabSize = 4
    /// Colour code by its language (front matter `highlight: false` turns it off).
    var highlightsCode = true
    /// Whether a block asking for highlighting has checked that the highlighting library is
    /// there (``CodeHighlighter/isAvailable``): one warning a document when it is not.
    var askedForHighlighter = false
    /// The bytes of the code blocks highlighted so far (``highlightedCodeBudget``).
    var highlightedCodeBytes = 0
    /// The language a span's class names for the code span it holds (`` `x`{.python} ``).
    var inlineCodeLanguage: String?
    /// Images inside lines of text (badges, icons) shown as their alt text, by why: local
    /// images that could not be read, by reason (``UnreadImage``, in the order first met), and
    /// remote ones (never fetched). Each kind is one warning per document, at the first one's
    /// place, quoting it, with the count.
    var unreadInlineImages: [(reason: String, tally: ExampleTally)] = []
    var remoteInlineImages = ExampleTally()
    /// Paragraphs that are Pandoc's block syntax CommonMark does not have (grid tables with
    /// spanning cells, example lists, and lettered, Roman and Hangul list markers directly
    /// after text, where no list opens), kept as text: a tally for each kind
    /// (``pandocBlockName(_:)``), in the order first met.
    var pandocBlocks: [(name: String, tally: ExampleTally)] = []
    /// Links into other Markdown files (`other.md#part`): counted, one warning per document.
    var otherFileLinks: (count: Int, first: (String, SourceLocation?)?) = (0, nil)
    /// The font sizes written in attributes so far, and those set at a nearer one
    /// (``AttributeSizes``).
    var attributeSizes = AttributeSizes()
    /// The last structure element id handed out (``newElement(_:alternativeText:in:)``).
    var nextStructureID = 0
    /// One shared appearance box for each distinct run appearance met so far.
    var appearances = AppearanceTable()
    /// The section numbers handed out so far (``SectionNumbering``).
    var sectionCounters = SectionCounters()
    /// Headings styled so far: the first may be the document's title.
    var headingCount = 0
    /// A note's blocks are being styled (their headings are not sections).
    var inFootnote = false
    /// The commands the document's formulas have defined so far (`\newcommand`), for the
    /// formulas after them.
    var mathMacros: [String: MathMacro] = [:]
    /// What the definitions of the formulas still to come may expand to, characters.
    var mathExpansionBudget = MathExpansionBudget()
    /// The formula labels known so far (the survey's, and those met since), and the references
    /// no label answered when they were read, with their places.
    public internal(set) var mathLabels: [String: String] = [:]
    var unansweredMathReferences: [(key: String, location: SourceLocation?)] = []
    /// The labels the formulas styled so far gave (a second is warned about).
    var labelsGiven: Set<String> = []
    /// The automatic equation numbers the displayed formulas styled so far took (amsmath's
    /// `equation` counter): the next is one more.
    var equationNumbers = 0

    /// Creates a styler for `theme`; ``style(_:theme:options:)`` is the usual entry point.
    public init(theme: Theme, options: StylingOptions = StylingOptions()) {
        self.theme = theme
        self.options = options
        mathLabels = options.mathLabels
        nextStructureID = options.structureIDsAbove
    }

    /// Styles `document`. Never throws: problems are returned as diagnostics.
    public static func style(_ document: Document, theme: Theme, options: StylingOptions = StylingOptions())
        -> StyledDocument
    {
        var stream = StyleStream(document, theme: theme, options: options)
        var blocks: [StyledBlock] = []
        while let next = stream.next() { blocks += next }
        var styler = stream.styler
        styler.checkInternalLinks(&blocks)
        return StyledDocument(blocks: blocks, firstHeading: styler.firstHeading, diagnostics: styler.diagnostics)
    }

    // MARK: Blocks

    /// What a block inherits from its containers.
    struct BlockContext {
        var cascade: Cascade
        /// Role given by an enclosing div to its paragraphs.
        var paragraphRole: TextRole?
        /// The other settings of that div and of the divs inside it, re-applied after the role
        /// (the role would otherwise replace them: `::: {.display tracking=2}`).
        var paragraphOverrides: [StyleOverrides] = []
        var indent: Double
        var rightIndent: Double
        var quoteBars: [Double]
        var alignment: TextAlignment
        /// Set when an `align` attribute gave ``alignment`` (a figure follows it; it is
        /// otherwise centred).
        var alignedByAttribute = false

        /// Aligns what follows as `alignment` asks, when an `align` attribute gives one.
        mutating func align(_ alignment: TextAlignment?) {
            guard let alignment else { return }
            self.alignment = alignment
            alignedByAttribute = true
        }
        var tight = false
        /// Columns between tab stops in code, set by an enclosing div (`tab-size=2`).
        var tabSize: Int?
        /// Structure elements the block sits in (lists, items, quotes), from the root.
        var structure: [StructureElement] = []
        /// How many of ``structure``'s elements are admonitions' (a div drawn as an alert): a
        /// heading inside only those is a section, as inside a div.
        var admonitionElements = 0
    }

    /// A new structure element of `role` for the next block (ids count blocks from 1), inside
    /// `context`'s elements. It carries the language of `context`'s text when that differs from
    /// the language its parent element reads in (the innermost element of `context.structure`
    /// that names one, else the document's): a table, code block, quote or list in a
    /// `::: {lang=ko}` div is Korean, and the cells, lines and items inside it inherit that.
    mutating func newElement(
        _ role: StructureElement.Role, alternativeText: String? = nil, in context: BlockContext
    ) -> StructureElement {
        nextStructureID += 1
        let parentLanguage = context.structure.last(where: { $0.language != nil })?.language ?? options.language
        let language = context.cascade.language
        let differs = language.map { $0.lowercased() != parentLanguage?.lowercased() } ?? false
        return StructureElement(
            role, id: nextStructureID, alternativeText: alternativeText, language: differs ? language : nil)
    }

    var blockSpacing: Double { theme.page.blockSpacing }
    var quoteBarColor: RGBAColor { theme.color(named: "quote") ?? .black }
    var ruleColor: RGBAColor { theme.color(named: "rule") ?? .black }
    /// The deepest indent lists and quotes reach: half the measure. Deeper levels keep it.
    var maxIndent: Double { theme.page.measure * 0.5 }

    /// Whether `block` is a container of blocks: a list, quote, alert, div or definition list.
    static func holdsBlocks(_ block: Block) -> Bool {
        switch block.kind {
        case .list, .blockQuote, .alert, .div, .definitionList: true
        default: false
        }
    }

    /// Begins styling `block`: warnings that have no place of their own are placed at it.
    /// Returns its written settings, with a warning for each that is not understood.
    mutating func enter(_ block: Block) -> StyleOverrides {
        if let location = block.location { currentLocation = location }
        var overrides = StyleOverrides(block.attributes, theme: theme, diagnostics: &diagnostics)
        admitSize(&overrides)
        return overrides
    }

    mutating func append(_ block: Block, context: BlockContext, to blocks: inout [StyledBlock]) {
        // A paragraph that ends in a colon introduces what follows it (`Refs:` before a list,
        // `as an async iterable:` before code): a page does not turn between the two, as it
        // does not between a heading and its text.
        let introduced = followsLeadIn
        followsLeadIn = false
        let firstNew = blocks.count
        appendContent(block, context: context, to: &blocks)
        if introduced, blocks.count > firstNew, Styler.isIntroduced(block) {
            blocks[firstNew].keepWithPrevious = true
        }
        if case .paragraph(let inlines) = block.kind { followsLeadIn = Styler.endsWithColon(inlines) }
    }

    /// A paragraph: anchors alone, nothing shown, an image alone (a figure, or kept out of one),
    /// displayed formulas each on a line of their own, or text, with the warnings for Pandoc's
    /// and site generators' syntax it holds as text.
    private mutating func appendParagraph(
        _ inlines: [Inline], block: Block, overrides: StyleOverrides, context: BlockContext,
        to blocks: inout [StyledBlock]
    ) {
        var context = context
        if Styler.onlyAnchors(inlines) {
            // `<a id="x"></a>` alone: a destination for the next block, no empty line.
            for case .anchor(let id) in inlines { pendingAnchors.append(id) }
            return
        }
        var ids: [String] = []
        if Styler.showsNothing(inlines, ids: &ids) {
            // `[]{.headline}`, `**` around nothing: no line, as an empty `<p>` takes no room
            // (CSS 2.1 §9.4.1, §8.3.1); its ids name the next block.
            pendingAnchors += ids
            return
        }
        if let image = soleImage(inlines) {
            var context = context
            context.align(overrides.alignment)
            appendImage(image, context: context, location: block.location, to: &blocks)
            return
        }
        if let image = Styler.nonFigureImage(inlines) {
            // Pandoc's image kept out of a figure by a backslash after it: no caption, at
            // its own size (up to the measure), at the text's edge, as its paragraph sets it.
            var context = context
            context.align(overrides.alignment ?? .left)
            appendImage(image, context: context, location: block.location, to: &blocks)
            return
        }
        if let segments = Styler.displayMathSegments(inlines), segments.count > 1 || !segments[0].display {
            // Each displayed formula on a line of its own, the text around it a paragraph.
            for segment in segments {
                append(Block(.paragraph(segment.inlines), location: block.location), context: context, to: &blocks)
            }
            return
        }
        var inlines = inlines
        if !block.attributes.classes.contains(Attributes.escapedOpeningClass),
            let opening = Styler.pandocBlockOpening(inlines)
        {
            if opening == "| " {
                // Pandoc's line block: its lines as written.
                inlines = Styler.lineBlockLines(inlines)
            } else {
                tallyPandocBlock(opening, at: block.location)
            }
        }
        if let site = Styler.siteSyntax(inlines) {
            tallySiteSyntax(site.kind, written: site.written, at: block.location)
        }
        let displayed = Styler.displayMathSegments(inlines) != nil
        if displayed { context.alignment = .center }
        context.cascade = paragraphCascade(context)
        context.cascade.apply(overrides, theme: theme)
        let paragraph = makeParagraph(inlines, context: context, overrides: overrides)
        let after = context.tight ? blockSpacing * 0.3 : context.cascade.style.spaceAfter ?? blockSpacing
        blocks.append(
            StyledBlock(
                .paragraph(paragraph), spaceAfter: after, quoteBars: context.quoteBars,
                quoteBarColor: quoteBarColor, location: block.location))
        blocks[blocks.count - 1].structure = context.structure + [newElement(.paragraph, in: context)]
        // A displayed formula stays with the line that introduces it, as TeX's display
        // math, which is part of its paragraph, never begins a page.
        if displayed { blocks[blocks.count - 1].keepWithPrevious = true }
        // A `<details>` summary stays with what it sums up, as a heading does.
        if block.attributes.classes.contains(Attributes.summaryClass) {
            blocks[blocks.count - 1].keepWithNext = true
        }
    }

    /// What ``append(_:context:to:)`` appends of `block`, without what a lead-in before it asks.
    private mutating func appendContent(_ block: Block, context: BlockContext, to blocks: inout [StyledBlock]) {
        var context = context
        let overrides = enter(block)
        let firstNew = blocks.count
        // Ids still waiting when the block ends name its first block; in a container, ids
        // before its first block were taken by that block, and those left were written at its
        // very end (`<a id="x"></a>` as its last block): they name its last block.
        defer {
            attachPendingAnchors(
                to: &blocks, from: Styler.holdsBlocks(block) ? max(firstNew, blocks.count - 1) : firstNew)
        }
        switch block.kind {
        case .paragraph(let inlines):
            appendParagraph(inlines, block: block, overrides: overrides, context: context, to: &blocks)
        case .heading(let level, let inlines):
            appendHeading(level, inlines, block: block, overrides: overrides, context: context, to: &blocks)
        case .list(let list):
            appendList(list, context: context, to: &blocks)
        case .blockQuote(let children):
            let inside = quoteContext(context)
            for child in children { append(child, context: inside, to: &blocks) }
        case .alert, .definitionList: appendGitHubOrPandocBlock(block, in: context, to: &blocks)
        case .codeBlock(let info, let text):
            appendCodeBlock(
                text, info: CodeBlockInfo(info: info), block: block, context: context, overrides: overrides, to: &blocks
            )
        case .thematicBreak:
            blocks.append(
                StyledBlock(
                    .rule(
                        color: ruleColor, thickness: 0.6, leftIndent: context.indent, rightIndent: context.rightIndent),
                    spaceBefore: blockSpacing * 1.5, spaceAfter: blockSpacing * 1.5, quoteBars: context.quoteBars,
                    quoteBarColor: quoteBarColor, location: block.location))
            blocks[blocks.count - 1].structure = [.artifact]
            blocks[blocks.count - 1].quoteBarOwners = context.structure.filter {
                $0.role == .blockQuote || $0.role == .note
            }.map(\.id)
        case .table(let table):
            appendTable(table, context: context, location: block.location, to: &blocks)
        case .div(let children):
            let inside = divContext(block, overrides: overrides, in: context)
            if let kind = block.attributes.classes.lazy.compactMap(AlertKind.init(admonition:)).first {
                // An admonition (`::: warning`, `:::tip Title`, Quarto's `.callout-note`) is an alert.
                let title = block.attributes.pairs.first { $0.key.lowercased() == "title" }?.value.flatMap {
                    $0.isEmpty ? nil : $0
                }
                appendAlert(kind, children, title: title, admonition: true, in: inside, at: block.location, to: &blocks)
                return
            }
            for child in children { append(child, context: inside, to: &blocks) }
        case .html(let html):
            let text = HTMLText.visibleText(html)
            if text.isEmpty {
                warn("raw HTML block is not rendered; skipped", block.location, kind: .html)
            } else {
                warn("raw HTML block is not rendered; showing its text", block.location, kind: .html)
                context.cascade = paragraphCascade(context)
                let paragraph = makeParagraph([.text(text)], context: context, overrides: overrides)
                blocks.append(
                    StyledBlock(
                        .paragraph(paragraph), spaceAfter: blockSpacing, quoteBars: context.quoteBars,
                        quoteBarColor: quoteBarColor, location: block.location))
                blocks[blocks.count - 1].structure = context.structure + [newElement(.paragraph, in: context)]
            }
        case .pageBreak:
            var pageBreak = StyledBlock(.pageBreak, location: block.location)
            pageBreak.opensRightHandPage = block.attributes.classes.contains(Block.rightHandPageClass)
            blocks.append(pageBreak)
        }
    }

    /// The context of a block quote's blocks in `context`: indented beside a bar (deep nesting
    /// stops indenting at half the measure, so text never runs off the page), in the theme's
    /// `secondary` colour, inside a new quote element.
    mutating func quoteContext(_ context: BlockContext) -> BlockContext {
        var context = context
        if context.indent + 14 <= maxIndent {
            context.quoteBars.append(context.indent + 1)
            context.indent += 14
        }
        if let quote = theme.color(named: "secondary") { context.cascade.color = quote }
        context.tight = false
        context.structure.append(newElement(.blockQuote, in: context))
        return context
    }

    /// The context of a div's blocks in `context`, with the div's settings (`overrides`)
    /// applied; its id, if any, names its first block.
    mutating func divContext(_ div: Block, overrides: StyleOverrides, in context: BlockContext) -> BlockContext {
        var context = context
        if let id = div.attributes.id { registerAnchor(id, at: div.attributes.location ?? div.location) }
        if let role = overrides.role {
            context.paragraphRole = role
            context.paragraphOverrides = []
        }
        var divOverrides = overrides
        divOverrides.role = nil
        context.cascade.apply(divOverrides, theme: theme)
        if context.paragraphRole != nil { context.paragraphOverrides.append(divOverrides) }
        context.align(overrides.alignment)
        if let tab = overrides.tabSize { context.tabSize = tab }
        if let measure = overrides.measure {
            context.rightIndent = max(context.rightIndent, theme.page.measure - context.indent - measure)
        }
        return context
    }

    /// A heading: its role's style, an id (written or made from its title) and an outline entry;
    /// an empty heading adds nothing but its anchors, with a warning.
    mutating func appendHeading(
        _ level: Int, _ inlines: [Inline], block: Block, overrides: StyleOverrides, context: BlockContext,
        to blocks: inout [StyledBlock]
    ) {
        if inFootnote {
            appendNoteHeading(inlines, block: block, overrides: overrides, context: context, to: &blocks)
            return
        }
        var context = context
        let role = TextRole.forHeading(level: level)
        context.cascade.apply(role: role, theme: theme)
        // Levels 5 and 6 take running text's roles (Body, Caption): lighter than semibold, they
        // are set a step bolder, as GitHub and LaTeX's \paragraph set them, so they read as
        // headings and not as the text around them.
        if level >= 5, context.cascade.style.weight < .semibold { context.cascade.embolden(theme: theme) }
        // Headings are never justified by a document-wide `justify`: only by their own `align`.
        if context.alignment == .justify { context.alignment = .left }
        context.cascade.apply(overrides, theme: theme)
        var paragraph = makeParagraph(inlines, context: context, overrides: overrides)
        if Self.neverExpanded.contains(role) { paragraph.style.fontExpansion = 0 }
        paragraph.style.balancesLines = true
        // The bookmark and contents entry read as the heading does (`:rocket:` as 🚀); its id is
        // made of the text as written, below.
        let readable = readableTextInDocument(EmojiShortcodes.replacing(in: inlines))
        let title = readable.trimmingCharacters(in: .whitespaces)
        if firstHeading == nil, !title.isEmpty { firstHeading = title }
        headingCount += 1
        if title.isEmpty {
            // `##` alone: nothing to show in bookmarks or the contents.
            warn("empty heading (level \(level)): no bookmark or contents entry", block.location, kind: .structure)
            for case .anchor(let id) in inlines { pendingAnchors.append(id) }
            if let written = block.attributes.id, slugs.register(written) { pendingAnchors.append(written) }
            return
        }
        // The identifier is made of the text as written (a formula's TeX), as Pandoc makes it.
        var id: String? = block.attributes.id ?? slugs.slug(for: inlines.plainText.trimmingCharacters(in: .whitespaces))
        if let written = block.attributes.id, !slugs.register(written) {
            warn(
                "heading id '#\(written)' is already used; links go to the first heading with it",
                block.attributes.location ?? block.location, kind: .structure)
            id = nil
        }
        let size = context.cascade.style.size
        var outline = OutlineEntry(title: title, level: level)
        if let number = sectionNumber(level, block: block, context: context) {
            // The number leads the heading's text in the heading's own face, and is part of its
            // bookmark and contents entry; a no-break space keeps it on the title's line.
            var style = context.cascade.runStyle
            style.link = nil
            paragraph.runs.insert(StyledRun(number + "\u{00A0}", style: style), at: 0)
            outline.title = number + " " + outline.title
        }
        outline.listed = !block.attributes.classes.contains("unlisted")
        outline.runs = paragraph.runs
        blocks.append(
            StyledBlock(
                .paragraph(paragraph), spaceBefore: max(blockSpacing * 1.5, size * 1.0),
                spaceAfter: context.cascade.style.spaceAfter ?? max(blockSpacing * 0.6, size * 0.4),
                keepWithNext: true, quoteBars: context.quoteBars, quoteBarColor: quoteBarColor,
                anchor: id, outline: outline, location: block.location))
        blocks[blocks.count - 1].structure = context.structure + [newElement(.heading(level: level), in: context)]
    }

    /// A heading inside a footnote: a paragraph of the note's role set bold, as a note's
    /// run-in head, not a section (no bookmark, contents entry or number); its id is still a
    /// link target. A note is set at the foot of a page in one small size, and a heading there at
    /// a Title's size would be larger than the text it heads.
    mutating func appendNoteHeading(
        _ inlines: [Inline], block: Block, overrides: StyleOverrides, context: BlockContext,
        to blocks: inout [StyledBlock]
    ) {
        var context = context
        context.cascade.embolden(theme: theme)
        context.cascade.apply(overrides, theme: theme)
        let paragraph = makeParagraph(inlines, context: context, overrides: overrides)
        let title = inlines.plainText.trimmingCharacters(in: .whitespaces)
        var id = block.attributes.id ?? (title.isEmpty ? nil : slugs.slug(for: title))
        if let written = block.attributes.id, !slugs.register(written) {
            warn(
                "heading id '#\(written)' is already used; links go to the first heading with it",
                block.attributes.location ?? block.location, kind: .structure)
            id = nil
        }
        blocks.append(
            StyledBlock(
                .paragraph(paragraph), spaceAfter: blockSpacing, quoteBars: context.quoteBars,
                quoteBarColor: quoteBarColor, anchor: id, location: block.location))
        blocks[blocks.count - 1].structure = context.structure + [newElement(.paragraph, in: context)]
    }

    /// The number of a heading of `level` when sections are numbered and it is one
    /// (``SectionNumbering``): not in a quote, list or note, not the title, not unnumbered.
    mutating func sectionNumber(_ level: Int, block: Block, context: BlockContext) -> String? {
        guard let numbering = options.sectionNumbering, context.structure.count == context.admonitionElements,
            !inFootnote,
            !SectionNumbering.isUnnumbered(block.attributes)
        else { return nil }
        if headingCount == 1, level == 1, numbering.skipsOpeningHeading { return nil }
        return sectionCounters.next(level: level, topLevel: numbering.topLevel)
    }

    /// Records a span's or div's `#id` as a link target (a warning when the id is taken).
    mutating func registerAnchor(_ id: String, at location: SourceLocation?) {
        if slugs.register(id) {
            pendingAnchors.append(id)
        } else {
            warn("id '#\(id)' is already used; links go to the first element with it", location, kind: .structure)
        }
    }

    /// Gives the first block added since `first` the pending span and div ids.
    mutating func attachPendingAnchors(to blocks: inout [StyledBlock], from first: Int) {
        guard !pendingAnchors.isEmpty, first < blocks.count else { return }
        if blocks[first].anchor == nil { blocks[first].anchor = pendingAnchors.removeFirst() }
        blocks[first].extraAnchors += pendingAnchors
        pendingAnchors.removeAll()
    }

    /// A warning at `location`, or at the block being styled when the inline has none.
    /// `subject` is the source text the warning quotes, for the renderer to find its place.
    mutating func warn(
        _ message: String, _ location: SourceLocation?, kind: Diagnostic.Kind = .content,
        subject: String? = nil
    ) {
        diagnostics.append(Diagnostic(.warning, message, at: location ?? currentLocation, kind: kind, subject: subject))
    }

    /// The cascade of a paragraph in `context`: the role an enclosing div gives its paragraphs,
    /// then that div's other settings (a footnote's paragraphs are Caption).
    func paragraphCascade(_ context: BlockContext) -> Cascade {
        var cascade = context.cascade
        if let role = context.paragraphRole {
            cascade.apply(role: role, theme: theme)
            for divOverrides in context.paragraphOverrides { cascade.apply(divOverrides, theme: theme) }
        }
        return cascade
    }

    func paragraphStyle(_ context: BlockContext, overrides: StyleOverrides) -> ParagraphStyle {
        let style = context.cascade.style
        var paragraphStyle = ParagraphStyle(
            baseFont: context.cascade.font, lineHeight: style.lineHeight, leadingAdjustment: context.cascade.leading,
            alignment: overrides.alignment ?? context.alignment, leftIndent: context.indent,
            rightIndent: context.rightIndent,
            hangulLineBreak: options.hangulLineBreak, guides: context.cascade.guides)
        paragraphStyle.fontExpansion =
            (overrides.role ?? context.paragraphRole).map(Self.neverExpanded.contains) == true ? 0 : theme.fontExpansion
        return paragraphStyle
    }

    /// The roles whose lines are never expanded: display sizes, where a few percent of a
    /// glyph's width is visible as a distorted letter and a line holds too few words to gain
    /// from it.
    static let neverExpanded: Set<TextRole> = [.display, .largeTitle, .title]

    mutating func makeParagraph(_ inlines: [Inline], context: BlockContext, overrides: StyleOverrides)
        -> StyledParagraph
    {
        var runs: [StyledRun] = []
        appendRuns(inlines, cascade: context.cascade, to: &runs)
        RunMerger.tidy(&runs)
        return StyledParagraph(runs: runs, style: paragraphStyle(context, overrides: overrides))
    }

    // MARK: Lists

    static let bullets = ["•", "◦", "▪", "–"]

    mutating func appendList(_ list: ListBlock, context: BlockContext, to blocks: inout [StyledBlock]) {
        let frame = openList(list, context: context)
        // A long list's blocks are stored in one step rather than grown by doubling (a list of
        // 100,000 empty items holds one array of blocks, not a full one and its copy).
        if list.items.count > 1024, blocks.capacity < blocks.count + list.items.count {
            blocks.reserveCapacity(max(blocks.count + list.items.count, blocks.capacity * 2))
        }
        for index in list.items.indices {
            let item = openItem(index, of: frame)
            let first = blocks.count
            let children = list.items[index].blocks
            for (position, child) in children.enumerated() {
                let start = blocks.count
                append(child, context: item.context, to: &blocks)
                if position == 1 { Self.keepWithLeadIn(&blocks, at: start, after: children[0]) }
            }
            if !hangMarker(of: item, onBlockAt: first, in: &blocks) {
                addMarkerLine(of: item, at: first, to: &blocks)
            }
            closeItem(of: frame, in: &blocks)
        }
        closeList(in: &blocks)
    }

    /// Marks the block at `start` (the first of a list item's second child) to stay with the
    /// item's first child, `leadIn`, when that is a paragraph: the line that opens an item
    /// ("1. Install it:") is never left at a page's foot, its code block, table or nested list
    /// on the next page, as a heading is kept with what follows it.
    static func keepWithLeadIn(_ blocks: inout [StyledBlock], at start: Int, after leadIn: Block) {
        guard case .paragraph = leadIn.kind, start < blocks.count else { return }
        blocks[start].keepWithPrevious = true
    }

    /// What every item of one list shares: its context, structure element, indent and
    /// marker styles (an item costs its marker's text, not a style). A class, so that a
    /// ``StyleStream`` styling a long list a part at a time copies a reference at each step;
    /// it is never changed.
    final class ListFrame: Sendable {
        let list: ListBlock
        let context: BlockContext
        let element: StructureElement
        let indentStep: Double
        let markerStyle: RunStyle
        let taskMarkerStyle: RunStyle
        let bulletMarker: [StyledRun]

        init(
            list: ListBlock, context: BlockContext, element: StructureElement, indentStep: Double,
            markerStyle: RunStyle, taskMarkerStyle: RunStyle, bulletMarker: [StyledRun]
        ) {
            self.list = list
            self.context = context
            self.element = element
            self.indentStep = indentStep
            self.markerStyle = markerStyle
            self.taskMarkerStyle = taskMarkerStyle
            self.bulletMarker = bulletMarker
        }
    }

    /// One list item being styled: its context and its marker, and its list's (the marker
    /// line of an empty item hangs from the list's context). A class for the reason
    /// ``ListFrame`` is one; never changed.
    final class ListItemFrame: Sendable {
        let context: BlockContext
        let element: StructureElement
        let marker: [StyledRun]
        /// Runs that open the item's text: a numbered task's box.
        let leading: [StyledRun]
        let list: ListFrame

        init(
            context: BlockContext, element: StructureElement, marker: [StyledRun], leading: [StyledRun], list: ListFrame
        ) {
            self.context = context
            self.element = element
            self.marker = marker
            self.leading = leading
            self.list = list
        }
    }

    /// The frame of `list`, styled in `context`: markers and indents follow the items' text
    /// (a `.caption` div's list is Caption).
    mutating func openList(_ list: ListBlock, context: BlockContext) -> ListFrame {
        let depth = context.cascade.listDepth
        let textCascade = paragraphCascade(context)
        let font = textCascade.font
        let markerWidthEm = list.ordered ? Self.markerWidthEm(of: list) + 0.6 : 1.3
        var markerStyle = textCascade.runStyle
        markerStyle.font.families += ["DejaVu Sans"]  // bullets and ballot boxes
        markerStyle.link = nil
        let taskMarkerStyle = appearances.shared(markerStyle)
        if list.ordered { markerStyle.features.append("tnum") }
        markerStyle = appearances.shared(markerStyle)
        var element = newElement(.list, in: context)
        if list.ordered { element.listNumbering = list.numbering }
        return ListFrame(
            list: list, context: context, element: element,
            indentStep: max(font.size * 1.6, font.size * markerWidthEm), markerStyle: markerStyle,
            taskMarkerStyle: taskMarkerStyle,
            bulletMarker: [StyledRun(Styler.bullets[depth % Styler.bullets.count], style: markerStyle)])
    }

    /// About how wide, in em, an ordered list's widest marker is: the first's or the last's,
    /// or in Roman numerals any up to the last (`viii.` is wider than `x.`). Figures are
    /// tabular, 0.62 em, and so is a figure list's period or parenthesis; in other markers a
    /// parenthesis, period or narrow letter is 0.3 em, a Hangul syllable 1 em, `m` and `w`
    /// 0.9 em, another capital 0.7 em and another letter 0.58 em.
    static func markerWidthEm(of list: ListBlock) -> Double {
        let figures = list.numbering == .decimal && !list.enclosed
        func width(_ marker: String) -> Double {
            marker.unicodeScalars.reduce(0) { total, scalar in
                let character = Character(scalar)
                let width: Double =
                    switch character {
                    case _ where figures || character.isNumber: 0.62
                    case _ where scalar.value >= 0xAC00 && scalar.value <= 0xD7A3: 1
                    case "i", "j", "l", "I", ".", ")", "(": 0.3
                    case "f", "r", "t": 0.4
                    case "m", "w", "M", "W": 0.9
                    case _ where character.isUppercase: 0.7
                    default: 0.58
                    }
                return total + width
            }
        }
        let last = max(0, list.items.count - 1)
        let roman = list.numbering == .lowerRoman || list.numbering == .upperRoman
        let indices = roman ? Array(0...min(last, 64)) + (last > 64 ? [last] : []) : [0, last]
        let widest = indices.map { width(list.marker(at: $0)) }.max() ?? 0
        // A short marker of letters takes the room of a figure and its period (1.24 em), so the
        // items' text starts where a short numbered list's does.
        return figures ? widest : max(widest, 1.24)
    }

    /// The item at `index` of `frame`'s list, before its blocks are styled.
    mutating func openItem(_ index: Int, of frame: ListFrame) -> ListItemFrame {
        let list = frame.list
        var itemContext = frame.context
        let itemElement = newElement(.listItem, in: frame.context)
        itemContext.structure += [frame.element, itemElement, StructureElement(.listBody, id: itemElement.id)]
        itemContext.indent = min(maxIndent, itemContext.indent + frame.indentStep)
        itemContext.cascade.listDepth += 1
        itemContext.tight = list.tight
        let box = list.items[index].task.map { StyledRun($0 ? "☑" : "☐", style: frame.taskMarkerStyle) }
        // A task in an ordered list keeps its number as its marker, in the column of the other
        // numbers, and its box opens its text, as GitHub sets the box inside the item.
        let leading = list.ordered ? box.map { [$0, StyledRun("\u{00A0}", style: frame.taskMarkerStyle)] } ?? [] : []
        let marker: [StyledRun] =
            if let box, !list.ordered {
                [box]
            } else if list.ordered {
                [StyledRun(list.marker(at: index), style: frame.markerStyle)]
            } else {
                frame.bulletMarker
            }
        return ListItemFrame(
            context: itemContext, element: itemElement, marker: marker, leading: leading, list: frame)
    }

    /// Sets `item`'s marker on its first block, at `first`, when that block can carry it: in
    /// the line of a paragraph at the item's indent, or hanging beside a code block, quote,
    /// table, figure or nested list, outside its panel or bar. False when there is no such
    /// block (an empty item, one that opens with a rule): ``addMarkerLine(of:at:to:)`` then.
    func hangMarker(of item: ListItemFrame, onBlockAt first: Int, in blocks: inout [StyledBlock]) -> Bool {
        guard first < blocks.count else { return false }
        if case .paragraph(var paragraph) = blocks[first].content, !blocks[first].isCode,
            paragraph.style.leftIndent == item.context.indent, blocks[first].hangingMarkers.isEmpty
        {
            paragraph.marker = item.marker
            paragraph.runs.insert(contentsOf: item.leading, at: 0)
            blocks[first].content = .paragraph(paragraph)
            return true
        }
        guard Styler.canHangMarker(beside: blocks[first]) else { return false }
        let label = StructureElement(.label, id: item.element.id)
        blocks[first].hangingMarkers.insert(
            HangingMarker(
                runs: item.marker + item.leading, edge: item.context.indent,
                structure: item.list.context.structure + [item.list.element, item.element, label]), at: 0)
        return true
    }

    /// A line of `item`'s own for its marker, at `first`: the item is empty or opens with a rule.
    mutating func addMarkerLine(of item: ListItemFrame, at first: Int, to blocks: inout [StyledBlock]) {
        let empty = StyledParagraph(
            runs: item.leading, style: paragraphStyle(item.context, overrides: StyleOverrides()), marker: item.marker)
        blocks.insert(
            StyledBlock(
                .paragraph(empty), spaceAfter: blockSpacing * 0.3, quoteBars: item.list.context.quoteBars,
                quoteBarColor: quoteBarColor), at: first)
        blocks[first].structure = item.context.structure + [newElement(.paragraph, in: item.context)]
    }

    /// Ends an item: a tight list's items stand close.
    func closeItem(of frame: ListFrame, in blocks: inout [StyledBlock]) {
        if frame.list.tight, let last = blocks.indices.last {
            blocks[last].spaceAfter = min(blocks[last].spaceAfter, blockSpacing * 0.3)
        }
    }

    /// Ends a list: a block's space at least after it.
    func closeList(in blocks: inout [StyledBlock]) {
        if let last = blocks.indices.last { blocks[last].spaceAfter = max(blocks[last].spaceAfter, blockSpacing) }
    }

    /// Whether a list marker can hang beside `block`'s first line (``HangingMarker``): a
    /// block with a first line or a top to align it with — not a rule or a page break.
    static func canHangMarker(beside block: StyledBlock) -> Bool {
        switch block.content {
        case .paragraph, .table, .image: true
        case .rule, .pageBreak, .entry: false
        }
    }

    // MARK: Code

    /// A fenced or indented code block: the info string's problems named, a block GitHub draws
    /// (a Mermaid diagram) named as set from its source, its `#id` a destination, its code set.
    mutating func appendCodeBlock(
        _ text: String, info: CodeBlockInfo, block: Block, context: BlockContext, overrides: StyleOverrides,
        to blocks: inout [StyledBlock]
    ) {
        for problem in info.problems { warn(problem, block.location, kind: .attribute) }
        if let drawing = info.gitHubDrawing, let language = info.language {
            warn(
                "GitHub draws a ```\(language) block as \(drawing); it is set here as its source (draw it as an "
                    + "SVG or PNG picture and include that)", block.location, kind: .content)
        }
        if let id = info.id { registerAnchor(id, at: block.location) }
        appendCode(text, info: info, context: context, overrides: overrides, location: block.location, to: &blocks)
    }

    mutating func appendCode(
        _ text: String, info: CodeBlockInfo, context: BlockContext, overrides: StyleOverrides,
        location: SourceLocation?, to blocks: inout [StyledBlock]
    ) {
        var cascade = context.cascade
        cascade.style.families = theme.monospaceFamilies
        // 0.9 of the text around the block, as inline code is 0.92 of its line (CSS sizes
        // `pre` in `em`): 9.5 pt beside 10.5 pt Body, 8.1 pt in a 9 pt Caption footnote.
        cascade.style.size = Styler.codeBlockSize(besideTextOf: paragraphCascade(context).style.size)
        cascade.style.weight = .regular
        cascade.style.italic = false
        cascade.style.tracking = nil
        cascade.style.kerning = nil
        cascade.style.lineHeight = .multiple(1.2)
        cascade.apply(overrides, theme: theme)
        let padding = 8.0
        var style = ParagraphStyle(
            baseFont: cascade.font, lineHeight: cascade.style.lineHeight, alignment: .left,
            leftIndent: context.indent + padding, rightIndent: context.rightIndent + padding,
            hangulLineBreak: .anywhere, breakAnywhere: true)
        style.leadingAdjustment = cascade.leading
        style.hangingIndent = cascade.font.size * 1.5  // room for the ↪ continuation mark
        var body = Styler.expandingTabs(text, size: info.tabSize ?? overrides.tabSize ?? context.tabSize ?? tabSize)
        if body.hasSuffix("\n") { body.removeLast() }
        // A paragraph separator (U+2029) in a code line is drawn as a line separator (U+2028, as
        // many bytes): Pango breaks the line at either (UAX #14, class BK), and the drawn line
        // after it continues the source line behind ↪, but after U+2029 Pango would begin a new
        // paragraph, without the hanging indent that makes room for the mark.
        if body.containsUTF8Byte(0xA9) { body = body.replacingOccurrences(of: "\u{2029}", with: "\u{2028}") }
        var plain = cascade.runStyle
        // A block of code is in the code text colour wherever it stands (a quote's muted text
        // around it is not the code's), as GitHub sets `pre`; its own `color` attribute wins.
        if overrides.color == nil { plain.color = plainCodeColor(inherited: theme.textColor) }
        var highlights = highlightsCode && theme.code.highlights && info.highlight && info.language != nil
        if highlights {
            highlights = withinCodeHighlightingBudget(body.utf8.count, location: location)
        }
        if highlights, !askedForHighlighter {
            askedForHighlighter = true
            if !CodeHighlighter.isAvailable {
                warn(
                    "code is set plain: the highlighting library (libTypesetSyntaxHighlighting.so) is neither beside "
                        + "the typeset executable, nor in ../lib/typeset from it, nor where the dynamic loader looks; "
                        + "install it with 'make install', or copy it beside the executable", location, kind: .content)
            }
        }
        var paragraph = StyledParagraph(runs: [StyledRun(body, style: plain)], style: style)
        if highlights, info.highlight, let language = info.language, let deferred = options.deferredCodeTokens,
            deferred.covers(plain.font)
        {
            deferred.loader.load(language: language, sample: body)
        } else {
            // The definition is looked up only when code is highlighted: looking it up loads the library.
            (paragraph.runs, paragraph.tokenColors) = codeBlockRuns(
                body, definition: highlights ? info.definition : nil, base: plain)
        }
        var block = StyledBlock(
            .paragraph(paragraph), spaceBefore: blockSpacing * 0.5, spaceAfter: blockSpacing * 1.5,
            quoteBars: context.quoteBars, quoteBarColor: quoteBarColor, background: codeBackground,
            backgroundPadding: padding, location: location)
        block.isCode = true
        block.codeSource = text
        // A block without lines (a fence closed at once) has no line to number.
        if info.numberLines, !text.isEmpty {
            let color = theme.color(named: "secondary") ?? theme.textColor
            block.codeLineNumbers = CodeLineNumbers(first: info.startFrom, color: color)
        }
        block.structure = context.structure + [newElement(.code, in: context)]
        blocks.append(block)
    }

    /// The bytes of code blocks a document highlights at most: 256 KiB, about 5,000 lines of
    /// 50 characters. Syntax definitions take from about a microsecond a byte (ordinary code) to
    /// ten (Perl's substitutions, `s/a/` repeated), so a document's highlighting takes at most
    /// about a quarter of a second to a few seconds whatever its code.
    package static let highlightedCodeBudget = 256 << 10

    /// Whether a code block of `bytes` bytes at `location` is highlighted within
    /// ``highlightedCodeBudget``, counting it if so; the first block past the budget is warned
    /// about, and it and every block after it are set plain.
    mutating func withinCodeHighlightingBudget(_ bytes: Int, location: SourceLocation?) -> Bool {
        if highlightedCodeBytes + bytes <= Self.highlightedCodeBudget {
            highlightedCodeBytes += bytes
            return true
        }
        if highlightedCodeBytes <= Self.highlightedCodeBudget {
            warn(
                "the document's code passes \(Self.highlightedCodeBudget >> 10) KiB: this code block and the ones "
                    + "after it are set without syntax highlighting, which takes time growing with the code", location)
            highlightedCodeBytes = Self.highlightedCodeBudget + 1
        }
        return false
    }

    /// The size of a code block's text, pt: 0.9 of `textSize`, the size of the paragraphs
    /// around it, to a tenth of a point (9.5 pt beside the default theme's 10.5 pt Body).
    package static func codeBlockSize(besideTextOf textSize: Double) -> Double {
        (textSize * 0.9 * 10).rounded() / 10
    }

    /// Whether `inlines` end in a colon (white space after it allowed), inside emphasis or a
    /// link as well: a lead-in to the block after it.
    static func endsWithColon(_ inlines: [Inline]) -> Bool {
        for inline in inlines.reversed() {
            switch inline {
            case .text(let text):
                guard let last = text.unicodeScalars.last(where: { !$0.properties.isWhitespace }) else { continue }
                return last == ":" || last == "\u{FF1A}"
            case .softBreak, .lineBreak, .anchor: continue
            case .emphasis(let children), .strong(let children), .strikethrough(let children), .span(_, let children),
                .link(_, _, let children):
                return endsWithColon(children)
            default: return false
            }
        }
        return false
    }

    /// Whether `block` is one a lead-in paragraph introduces: a list, code, a table, a quote,
    /// an alert or a definition list.
    static func isIntroduced(_ block: Block) -> Bool {
        switch block.kind {
        case .list, .codeBlock, .table, .blockQuote, .alert, .definitionList: true
        default: false
        }
    }

    /// `text` with each tab replaced by the spaces that reach the next stop, every `size`
    /// columns (a column is a character).
    static func expandingTabs(_ text: String, size: Int) -> String {
        guard text.containsUTF8Byte(0x09) else { return text }
        var out = ""
        var column = 0
        for character in text {
            if character == "\t" {
                let spaces = size - column % size
                out += String(repeating: " ", count: spaces)
                column += spaces
            } else {
                out.append(character)
                column = character.isNewline ? 0 : column + 1
            }
        }
        return out
    }

    // MARK: Tables

    mutating func appendTable(
        _ table: Table, context: BlockContext, location: SourceLocation?, to blocks: inout [StyledBlock]
    ) {
        // Cells are set from the paragraphs around the table (a `.caption` div's role), a
        // point smaller, with tabular figures (OpenType `tnum`: every figure one width, so
        // the figures of a column stand in line, as tables are set).
        var cascade = paragraphCascade(context)
        cascade.style.size = max(7, cascade.style.size - 1)
        cascade.style.lineHeight = .multiple(1.2)
        if !cascade.style.features.contains("tnum") { cascade.style.features.append("tnum") }
        var headerCascade = cascade
        headerCascade.style.weight = .semibold
        func cell(_ inlines: [Inline], _ column: Int, _ cascade: Cascade) -> StyledParagraph {
            var runs: [StyledRun] = []
            appendRuns(inlines, cascade: cascade, to: &runs)
            let alignment: TextAlignment =
                switch table.alignments.indices.contains(column) ? table.alignments[column] : .none {
                case .center: .center
                case .right: .right
                default: .left
                }
            RunMerger.tidy(&runs)
            return StyledParagraph(
                runs: runs,
                style: ParagraphStyle(
                    baseFont: cascade.font, lineHeight: cascade.style.lineHeight, alignment: alignment,
                    hangulLineBreak: options.hangulLineBreak))
        }
        let columns = table.rows.reduce(table.header.count) { max($0, $1.count) }
        // A header cell in a body row (an HTML `<th>`) is set as the header row's cells are.
        func row(_ cells: [[Inline]], _ number: Int, _ cascade: Cascade) -> [StyledParagraph] {
            (0..<columns).map { column in
                let isHeader = number > 0 && table.headerScopes[TableCellPlace(row: number, column: column)] != nil
                return cell(column < cells.count ? cells[column] : [], column, isHeader ? headerCascade : cascade)
            }
        }
        // Row by row into compact storage: a long table never exists as paragraphs all at once.
        var rows = StyledTableRows()
        for (index, cells) in table.rows.enumerated() { rows.append(row(cells, index + 1, cascade)) }
        var styled = StyledTable(
            alignments: table.alignments, header: row(table.header, 0, headerCascade),
            rows: rows, ruleColor: ruleColor, cellPadding: 4)
        styled.headerScopes = table.headerScopes
        if !table.caption.isEmpty {
            // Set as a browser sets `<caption>`: the text around the table's, centred over it.
            var captionRuns: [StyledRun] = []
            let captionCascade = paragraphCascade(context)
            appendRuns(table.caption, cascade: captionCascade, to: &captionRuns)
            RunMerger.tidy(&captionRuns)
            styled.caption = StyledParagraph(
                runs: captionRuns,
                style: ParagraphStyle(
                    baseFont: captionCascade.font, lineHeight: captionCascade.style.lineHeight, alignment: .center,
                    hangulLineBreak: options.hangulLineBreak))
        }
        styled.leftIndent = context.indent
        // A table too wide for the measure is set no smaller than the theme's smallest role,
        // Caption2 (it follows the size category), and never below 6 pt.
        styled.smallestTextSize = max(6, theme[.caption2].size)
        blocks.append(
            StyledBlock(
                .table(styled), spaceBefore: blockSpacing * 0.5, spaceAfter: blockSpacing * 1.5,
                quoteBars: context.quoteBars, quoteBarColor: quoteBarColor, location: location))
        blocks[blocks.count - 1].structure = context.structure + [newElement(.table, in: context)]
    }

    // MARK: Images

    /// The image that is alone in a paragraph (Pandoc's implicit figure), with the attribute
    /// list written after it (`![alt](pic.png){width=50%}` arrives as a span around the image).
    /// The image of a paragraph that holds only an image and the line break a backslash after
    /// it makes (`![alt](file.png)\`, Pandoc's manual, "Extension: implicit_figures": "an
    /// image ... not ... a figure"), with `caption=none`; nil for any other paragraph.
    static func nonFigureImage(_ inlines: [Inline]) -> (image: Inline, attributes: Attributes)? {
        let meaningful = inlines.filter { inline in
            switch inline {
            case .text(let text): !text.allSatisfy(\.isWhitespace)
            case .softBreak, .anchor: false
            default: true
            }
        }
        guard meaningful.count == 2, case .lineBreak = meaningful[1] else { return nil }
        let none = Attributes.Pair(key: "caption", value: "none")
        switch meaningful[0] {
        case .image: return (meaningful[0], Attributes(pairs: [none]))
        case .span(var attributes, let children) where children.count == 1:
            guard case .image = children[0] else { return nil }
            attributes.pairs.append(none)
            return (children[0], attributes)
        default: return nil
        }
    }

    func soleImage(_ inlines: [Inline]) -> (image: Inline, attributes: Attributes)? {
        // One pass that stops at the second meaningful inline; a text is meaningful when it
        // holds anything but white space (Unicode's White_Space property: spaces, tabs and the
        // line and paragraph separators U+2028 and U+2029, which print nothing), which its
        // first letter usually shows.
        var sole: Inline?
        for inline in inlines {
            let meaningful: Bool
            switch inline {
            case .text(let text):
                meaningful = text.unicodeScalars.contains {
                    $0.value < 0x80
                        ? $0 != " " && $0 != "\t" && !(0x0A...0x0D).contains($0.value) : !$0.properties.isWhitespace
                }
            case .softBreak, .anchor: meaningful = false
            case .image(let source, _, _, _): meaningful = !Styler.isDarkModeOnly(source)
            default: meaningful = true
            }
            guard meaningful else { continue }
            if sole != nil { return nil }
            sole = inline
        }
        guard let sole else { return nil }
        if case .image = sole { return (sole, .none) }
        if case .span(let attributes, let children) = sole, children.count == 1, case .image = children[0] {
            return (children[0], attributes)
        }
        return nil
    }

    /// Whether `inlines` print nothing: collapsible white space (spaces, tabs, line ends — not a
    /// no-break space), anchors, and spans, emphasis, strong or struck text and links around
    /// nothing else. `ids` gathers the anchors and the spans' `#id`s met.
    static func showsNothing(_ inlines: [Inline], ids: inout [String]) -> Bool {
        for inline in inlines {
            switch inline {
            case .anchor(let id): ids.append(id)
            case .text(let text)
            where text.unicodeScalars.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }):
                continue
            case .softBreak: continue
            case .span(let attributes, let children):
                if let id = attributes.id { ids.append(id) }
                if !showsNothing(children, ids: &ids) { return false }
            case .emphasis(let children), .strong(let children), .strikethrough(let children),
                .link(_, _, let children):
                if !showsNothing(children, ids: &ids) { return false }
            default: return false
            }
        }
        return true
    }

    /// Whether `inlines` hold nothing but anchors and white space.
    static func onlyAnchors(_ inlines: [Inline]) -> Bool {
        var anchors = 0
        for inline in inlines {
            switch inline {
            case .anchor: anchors += 1
            case .text(let text) where text.allSatisfy(\.isWhitespace): continue
            case .softBreak, .lineBreak: continue
            default: return false
            }
        }
        return anchors > 0
    }

    /// An image wrapped in a span that only sizes it or drops its caption (`<img width=…
    /// height=…>`, `caption=none`): the image, the `width` and `height` values as written, and
    /// whether it takes a caption; nil for any other span.
    static func sizedImage(_ attributes: Attributes, _ children: [Inline]) -> (
        image: Inline, width: String?, height: String?, captioned: Bool
    )? {
        guard children.count == 1, case .image = children[0], attributes.id == nil, attributes.classes.isEmpty,
            !attributes.pairs.isEmpty,
            attributes.pairs.allSatisfy({ ["width", "height", "caption", "align"].contains($0.key) })
        else { return nil }
        func value(_ key: String) -> String? { attributes.pairs.last { $0.key == key }?.value }
        return (children[0], value("width"), value("height"), value("caption")?.lowercased() != "none")
    }

    /// A length asked for an image, pt: CSS pixels (1 px = 0.75 pt), `%` of `whole`, or a length
    /// with a unit (`pt`, `mm`, `cm`, `in`); nil when it is none of these.
    /// Read as ``ImageDimension`` reads a figure's: nil outside its ranges.
    static func imageLength(_ text: String?, whole: Double) -> Double? {
        text.flatMap(ImageDimension.init)?.points(whole: whole)
    }

    /// Why a picture inside a line is shown as its alt text: the words after its address in
    /// the warning (``warnTalliedExamples()``).
    struct UnreadImage: Error {
        var reason: String
    }

    /// A run drawing the local image `source` inside a line (one U+FFFC carrying the image),
    /// or why the file cannot be drawn (the caller shows the alt text): outside the folders the
    /// render may read, unreadable (with the reason), or no picture the decoder reads.
    func inlineImageRun(
        _ source: String, alternativeText: String, cascade: Cascade, asked: (width: String?, height: String?)
    ) -> Result<StyledRun, UnreadImage> {
        var path = Styler.localImagePath(source)
        if !path.hasPrefix("/") { path = (options.baseDirectory as NSString).appendingPathComponent(path) }
        if let sandbox = options.sandbox {
            guard let inside = sandbox.resolve(path) else {
                let reason = "is outside the folders this render may read (\(sandbox.description)), not read"
                return .failure(UnreadImage(reason: reason))
            }
            path = inside
        }
        // Only a regular file can be a picture: a folder, FIFO or device is refused unopened.
        let file: FileReader.OpenFile
        do {
            file = try FileReader.open(path, limit: FileReader.imageLimit, what: "an image")
        } catch {
            return .failure(UnreadImage(reason: "could not be read (\(error.reason))"))
        }
        close(file.descriptor)
        if let problem = options.imageProblem?(path) { return .failure(UnreadImage(reason: problem)) }
        var style = cascade.runStyle
        style.inlineImage = InlineImage(
            path: path, width: Styler.imageLength(asked.width, whole: theme.page.measure),
            height: Styler.imageLength(asked.height, whole: theme.page.textHeight), alternativeText: alternativeText)
        style.background = nil
        style.underline = nil
        style.strikethrough = nil
        return .success(StyledRun("\u{FFFC}", style: style))
    }

    /// A local image path as written, percent-escapes decoded and a `#fragment` dropped
    /// (GitHub's `#gh-light-mode-only` and the like name no part of a file).
    static func localImagePath(_ source: String) -> String {
        let path =
            source.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)
            ?? source
        return path.removingPercentEncoding ?? path
    }

    /// GitHub shows an image whose address ends in `#gh-dark-mode-only` only on a dark page:
    /// paper is light, so it is left out (its `#gh-light-mode-only` twin is shown).
    static func isDarkModeOnly(_ source: String) -> Bool { source.hasSuffix("#gh-dark-mode-only") }

    /// Warns about each `\eqref` or `\ref` whose key no formula of the document labels, at its
    /// place: it is set as `??`, as LaTeX sets it. (A reference read before its label, which
    /// the survey finds later, is answered in the passes that draw.)
    mutating func warnUnansweredMathReferences() {
        for (key, location) in unansweredMathReferences where mathLabels[key] == nil {
            warn(
                "no numbered formula has \\label{\(key)}: the reference is set as ?? (a label names the number or "
                    + "\\tag of its equation or row; $$…$$ and starred environments are not numbered)", location,
                kind: .content)
        }
        unansweredMathReferences = []
    }

    /// Names what was tallied as it was met: the font sizes set at a nearer one
    /// (``warnMovedSizes()``), the images set as alt text inside lines (those that could not be
    /// read, and remote ones) and each kind of Pandoc's block syntax. A
    /// warning for each of the first few of a kind, each quoting what is written (at most 60
    /// characters) and placed where it is written (``Diagnostic/subject``), the last standing
    /// for the rest (``Diagnostic/repeats``), so ``Diagnostic/coalesced(_:)`` says them as one
    /// warning with their count.
    mutating func warnTalliedExamples() {
        warnMovedSizes()
        let unread: [(ExampleTally, Diagnostic.Kind, (String) -> String)] = unreadInlineImages.map { kind in
            (kind.tally, .image, { "image '\($0)' inside a line of text \(kind.reason); shown as its alt text" })
        }
        let kinds: [(ExampleTally, Diagnostic.Kind, (String) -> String)] =
            unread + [
                (
                    remoteInlineImages, .image,
                    { "remote image '\($0)' inside a line of text is not fetched; shown as its alt text" }
                )
            ]
            + pandocBlocks.map { kind in
                (
                    kind.tally, .content,
                    { Styler.tallyMessage($0, kind: kind.name) }
                )
            }
        for (tally, kind, message) in kinds {
            for (index, example) in tally.examples.enumerated() {
                let shown = example.source.count > 60 ? example.source.prefix(60) + "…" : example.source
                var warning = Diagnostic(
                    .warning, message(String(shown)), at: example.location ?? currentLocation, kind: kind,
                    subject: example.source)
                if index == tally.examples.count - 1 { warning.repeats = tally.count - index }
                diagnostics.append(warning)
            }
        }
    }

    /// The cascade for text presented as an HTML element (sizes after CSS's `smaller` and the
    /// HTML Living Standard's rendering section: `sup`/`sub` at about 0.7 em).
    func presented(_ presentation: InlinePresentation, _ cascade: Cascade) -> Cascade {
        var result = cascade
        let size = result.style.size
        switch presentation {
        case .superscript:
            result.style.size = size * 0.7
            result.baselineOffset += size * 0.33
        case .subscript:
            result.style.size = size * 0.7
            result.baselineOffset -= size * 0.15
        case .keyboard:
            result.style.families = theme.monospaceFamilies
            result.style.size = (size * 0.85 * 10).rounded() / 10
            result.style.tracking = nil
            result.style.kerning = nil
            result.background = theme.color(named: "keyBackground") ?? RGBAColor(hex: "#E6E8EC")
        case .highlight:
            result.background = theme.color(named: "highlight") ?? RGBAColor(hex: "#FFF0A0")
        case .small:
            result.style.size = (size / 1.2 * 10).rounded() / 10
        case .underline:
            result.underline = .some(nil)
        }
        return result
    }

    /// A figure: the image, sized by its `width`/`height` attributes (else its own size), and
    /// its alt text as the caption (Pandoc's implicit figures; the title is not shown).
    mutating func appendImage(
        _ figure: (image: Inline, attributes: Attributes), context: BlockContext, location: SourceLocation?,
        to blocks: inout [StyledBlock]
    ) {
        guard case .image(let source, let title, let alt, let imageLocation) = figure.image,
            !Styler.isDarkModeOnly(source)
        else { return }
        // `<img>` in HTML arrives as a span that may ask for no caption (`caption=none`), as GitHub shows it.
        let captioned = figure.attributes.pairs.last { $0.key == "caption" }?.value?.lowercased() != "none"
        var dimensions: [String: ImageDimension] = [:]
        for pair in figure.attributes.pairs {
            let key = pair.key.lowercased()
            guard key == "width" || key == "height" else { continue }
            if let value = pair.value, let dimension = ImageDimension(value) {
                dimensions[key] = dimension
            } else {
                warn(
                    ImageDimension.problem(pair.value ?? "", key: pair.key), pair.location ?? imageLocation,
                    kind: .image)
            }
        }
        if let id = figure.attributes.id { registerAnchor(id, at: figure.attributes.location) }
        let altText = alt.plainText
        if altText.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            // Placed where the address is written, as a missing file's warning is: an `<img>` of
            // an HTML block knows only its block's place.
            warnNoAlternativeText(source, at: imageLocation ?? location)
        }
        var path = Styler.localImagePath(source)
        let isRemote = source.contains("://") || source.lowercased().hasPrefix("data:")
        if !isRemote && !path.hasPrefix("/") { path = (options.baseDirectory as NSString).appendingPathComponent(path) }
        // Local files are checked with the layout's image reader (Typesetter's ImageCheck).
        // An image with no address (`![x]()`, `<img>` without `src`) names no file at all: the
        // folder its empty path would resolve to is not one.
        var refused = source.trimmingCharacters(in: .whitespaces).isEmpty
        if refused {
            warn(
                "image has no address (an empty link destination or src); drawing a placeholder",
                imageLocation ?? location, kind: .image)
        }
        if !isRemote, !refused, let sandbox = options.sandbox {
            if let inside = sandbox.resolve(path) {
                path = inside
            } else {
                refused = true
                warn(
                    "image '\(source.prefix(60))\(source.count > 60 ? "…" : "")' is outside the folders this render "
                        + "may read (\(sandbox.description)); not read, drawing a placeholder",
                    imageLocation ?? location, kind: .image, subject: String(source.prefix(24)))
            }
        }
        if isRemote {
            warn(
                "remote image '\(source.prefix(60))\(source.count > 60 ? "…" : "")' is not fetched; drawing a "
                    + "placeholder",
                imageLocation ?? location, kind: .image, subject: String(source.prefix(24)))
        }
        var captionCascade = context.cascade
        captionCascade.apply(role: .caption, theme: theme)
        if let secondary = theme.color(named: "secondary") { captionCascade.color = secondary }
        // The caption keeps the alt text's emphasis, code, links and formulas, as Pandoc's
        // implicit figures do; alt text itself (the PDF's /Alt) is plain.
        var captionRuns: [StyledRun] = []
        if !altText.isEmpty {
            appendRuns(alt, cascade: captionCascade, to: &captionRuns)
            RunMerger.tidy(&captionRuns)
        }
        let label =
            altText.isEmpty
            ? nil
            : StyledParagraph(
                runs: captionRuns,
                style: ParagraphStyle(
                    baseFont: captionCascade.font, lineHeight: captionCascade.style.lineHeight,
                    alignment: context.alignedByAttribute ? context.alignment : .center,
                    leftIndent: context.indent, hangulLineBreak: options.hangulLineBreak))
        var styledImage = StyledImage(
            path: isRemote || refused ? "" : path, alt: altText, caption: captioned ? label : nil)
        if !captioned { styledImage.placeholderLabel = label }
        styledImage.source = source
        styledImage.width = dimensions["width"]
        styledImage.height = dimensions["height"]
        styledImage.leftIndent = context.indent
        styledImage.rightIndent = context.rightIndent
        if context.alignedByAttribute { styledImage.alignment = context.alignment }
        // `<img align="right">`: the picture at that side.
        if let align = figure.attributes.pairs.last(where: { $0.key == "align" })?.value,
            let alignment = TextAlignment(rawValue: align)
        {
            styledImage.alignment = alignment
            styledImage.caption?.style.alignment = alignment
        }
        blocks.append(
            StyledBlock(
                .image(styledImage),
                spaceBefore: blockSpacing, spaceAfter: blockSpacing * 1.5, keepTogether: true,
                quoteBars: context.quoteBars, quoteBarColor: quoteBarColor, location: location))
        blocks[blocks.count - 1].structure =
            context.structure + [newElement(.figure, alternativeText: altText.isEmpty ? title : altText, in: context)]
    }

    // MARK: Footnotes

    /// Gives the notes referenced since `first` to the block holding each reference, styled in
    /// the Caption role with their number; a note is set once, at its first reference. A note
    /// cited inside another note is set with it, at the foot of the same page.
    ///
    /// The block linking to each note is looked up in one pass over `blocks[first...]`
    /// (``lastLinkingBlocks(_:from:)``), not one pass per note: a div holding thousands of
    /// blocks and notes is one top-level block, and a pass per note made it quadratic.
    mutating func attachFootnotes(to blocks: inout [StyledBlock], from first: Int) {
        guard !referencedNotes.isEmpty else { return }
        var queue: [(number: Int, holder: Int?)] = referencedNotes.map { ($0, nil) }
        referencedNotes = []
        var next = 0
        // Attaching a note changes a block's `footnotes`, never its `paragraphs`: the
        // destinations found once hold for the whole call.
        var linking: [String: Int]?
        // The notes each holder gains, set on the block once at the end: a block keeps its
        // notes in storage shared on change, so setting them one by one would copy them all
        // for each note (quadratic in the notes of one paragraph).
        var attached: [Int: (notes: [Int: [StyledBlock]], locations: [Int: SourceLocation])] = [:]
        while next < queue.count {
            let (number, parentHolder) = queue[next]
            next += 1
            guard styledNotes.insert(number).inserted else { continue }
            let (noteBlocks, nested) = footnoteBlocks(number)
            // The last block whose runs link to the note (for a nested note, its parent's block).
            var holder = parentHolder
            if holder == nil {
                if linking == nil { linking = Self.lastLinkingBlocks(blocks, from: first) }
                holder = linking?["fn-\(number)"] ?? blocks.indices.last
            }
            if let holder {
                attached[holder, default: ([:], [:])].notes[number] = noteBlocks
                attached[holder]?.locations[number] = footnoteDefinitions[number]?.first?.location
            }
            queue += nested.map { ($0, holder) }
        }
        for (holder, gained) in attached {
            blocks[holder].footnotes.merge(gained.notes) { $1 }
            blocks[holder].footnoteLocations.merge(gained.locations) { $1 }
        }
    }

    /// For each internal destination (`fn-N`, a heading id) a run of `blocks[first...]` links
    /// to, the index of the last block holding such a run (``StyledBlock/paragraphs``, not
    /// its footnotes). One pass over the runs.
    static func lastLinkingBlocks(_ blocks: [StyledBlock], from first: Int) -> [String: Int] {
        var result: [String: Int] = [:]
        for index in blocks.indices.dropFirst(first) {
            for paragraph in blocks[index].paragraphs {
                for run in paragraph.runs {
                    if case .internal(let name)? = run.style.link { result[name] = index }
                }
            }
        }
        return result
    }

    /// Notes whose marker is never drawn — cited only from their own text, or from an image's
    /// alt text (a caption or alt text is plain text) — are set at the foot of the last page,
    /// with a warning at the definition: a note is never dropped in silence.
    mutating func attachUnreachedFootnotes(to blocks: inout [StyledBlock], context: BlockContext) {
        let left = footnoteDefinitions.keys.sorted().filter { !styledNotes.contains($0) }
        guard !left.isEmpty else { return }
        if blocks.isEmpty {
            blocks.append(
                StyledBlock(
                    .paragraph(StyledParagraph(runs: [], style: paragraphStyle(context, overrides: StyleOverrides())))))
        }
        for number in left {
            warn(
                "footnote \(number) is cited only where no marker is drawn (in its own text or an image's alt text); "
                    + "it is set at the foot of the last page",
                footnoteDefinitions[number]?.first?.location, kind: .footnote)
        }
        referencedNotes = left
        attachFootnotes(to: &blocks, from: blocks.count - 1)
    }

    /// A note's blocks, and the numbers of the notes cited inside it. Its paragraphs, list
    /// items, quoted paragraphs and code keep their bars and panels, shifted right by the
    /// width the note's number hangs in (``noteNumberHang(forNotesUpTo:)``); other blocks are
    /// left out with a warning.
    mutating func footnoteBlocks(_ number: Int) -> (blocks: [StyledBlock], nested: [Int]) {
        var noteCascade = Cascade(theme: theme, role: .caption)
        noteCascade.language = options.language
        noteCascade.hyphenate = options.hyphenate
        var context = BlockContext(cascade: noteCascade, indent: 0, rightIndent: 0, quoteBars: [], alignment: .left)
        context.paragraphRole = .caption
        context.tight = true
        var styled: [StyledBlock] = []
        let saved = referencedNotes
        referencedNotes = []
        let wasInFootnote = inFootnote
        inFootnote = true
        for block in footnoteDefinitions[number] ?? [] { append(block, context: context, to: &styled) }
        inFootnote = wasInFootnote
        let nested = referencedNotes
        referencedNotes = saved
        var noteBlocks: [StyledBlock] = []
        for block in styled {
            if case .paragraph = block.content {
                noteBlocks.append(block)
                continue
            }
            if case .table(let table) = block.content {
                // A table's rows as lines of text, so that no word or note marker is lost.
                var rows = Array(table.rows)
                if table.header.contains(where: { !$0.runs.isEmpty }) { rows.insert(table.header, at: 0) }
                if let caption = table.caption { rows.insert([caption], at: 0) }
                for row in rows {
                    var runs: [StyledRun] = []
                    for cell in row where !cell.runs.isEmpty {
                        if let last = runs.last { runs.append(StyledRun("\u{2002}|\u{2002}", style: last.style)) }
                        runs += cell.runs
                    }
                    guard !runs.isEmpty else { continue }
                    var line = StyledBlock(
                        .paragraph(
                            StyledParagraph(runs: runs, style: paragraphStyle(context, overrides: StyleOverrides()))),
                        quoteBars: block.quoteBars, quoteBarColor: quoteBarColor)
                    line.location = block.location
                    noteBlocks.append(line)
                }
                warn(
                    "footnote \(number): a table is set in a footnote as lines of text, a row a line (cells apart by "
                        + "'|')", block.location, kind: .footnote)
                continue
            }
            let kind =
                switch block.content {
                case .table: "a table"  // set as lines of text above
                case .image: "an image"
                case .rule: "a rule"
                case .pageBreak: "a page break"
                case .paragraph, .entry: "a block"
                }
            warn(
                "footnote \(number): \(kind) is not set in a footnote, which sets text (paragraphs, lists, quotes, "
                    + "code, math); left out",
                block.location, kind: .footnote)
        }
        func emptyBlock() -> StyledBlock {
            StyledBlock(
                .paragraph(StyledParagraph(runs: [], style: paragraphStyle(context, overrides: StyleOverrides()))),
                quoteBars: [], quoteBarColor: quoteBarColor)
        }
        let opensWithText: Bool = {
            guard let first = noteBlocks.first, case .paragraph(let paragraph) = first.content else { return false }
            return paragraph.marker == nil && first.quoteBars.isEmpty && first.background == nil
        }()
        if !opensWithText {
            // A note that is empty or opens with a list, a quote or code: the number on a line of
            // its own, as a note holding a list is drawn in HTML, the list's first marker, the
            // quote's bar or the code's panel below it.
            noteBlocks.insert(emptyBlock(), at: 0)
        }
        var numberStyle = context.cascade.runStyle
        numberStyle.features.append("tnum")
        let hang =
            context.cascade.style.size * Self.noteNumberHang(forNotesUpTo: footnoteDefinitions.keys.max() ?? number)
        for index in noteBlocks.indices {
            guard case .paragraph(var paragraph) = noteBlocks[index].content else { continue }
            paragraph.style.leftIndent += hang
            if index == 0 { paragraph.marker = [StyledRun("\(number)", style: numberStyle)] }
            noteBlocks[index].content = .paragraph(paragraph)
            noteBlocks[index].quoteBars = noteBlocks[index].quoteBars.map { $0 + hang }
        }
        return (noteBlocks, nested)
    }

    /// The width, in ems of the notes' size, that every note's number hangs in, so that the
    /// widest number of a document with notes up to `highest` stands inside the text block, as
    /// LaTeX sets a note's number in a box: 1.4 em for numbers of one figure, and 0.65 em more
    /// for each further figure (a tabular figure is about 0.55 to 0.65 em wide). Every note of
    /// the document hangs the same, so their texts align.
    static func noteNumberHang(forNotesUpTo highest: Int) -> Double {
        1.4 + 0.65 * Double(max(0, String(max(1, highest)).count - 1))
    }

    // MARK: Inlines

    /// The text of `inlines` as a reader reads it, for a bookmark, a running head or the PDF's
    /// metadata: a formula as its symbols (`$\alpha$` α), not its TeX source.
    /// Each tab or line separator is a space: these texts are one line.
    public static func readableText(_ inlines: [Inline]) -> String {
        oneLine(inlines.plainText(writingFormulas: { MathParser.parse($0).plainText }))
    }

    /// ``readableText(_:)`` with the document's definitions and formula labels known so far, as
    /// the page reads them (a heading's bookmark).
    func readableTextInDocument(_ inlines: [Inline]) -> String {
        var macros = mathMacros
        var budget = mathExpansionBudget
        return Self.oneLine(
            inlines.plainText(writingFormulas: {
                MathParser.parse($0, macros: &macros, labels: mathLabels, budget: &budget).plainText
            }))
    }

    /// The characters ``oneLine(_:)`` makes spaces.
    static let lineBreaks: Set<Unicode.Scalar> = ["\t", "\n", "\r", "\u{0B}", "\u{0C}", "\u{2028}", "\u{2029}"]

    /// `text` with each tab, line feed, carriage return, vertical tab, form feed and Unicode
    /// line or paragraph separator (U+2028, U+2029) a space, as running text sets them.
    static func oneLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: lineBreaks.contains) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { lineBreaks.contains($0) ? " " : $0 }))
    }

    /// Appends `run`, joining it to the last run when both hold text in one style (as
    /// ``RunMerger/merge(_:)`` would later): lines of text between hard breaks make one run,
    /// not two runs a line. The last run is read in place, never copied: a copy would share its
    /// text's storage and make the append copy the whole text (quadratic in a paragraph of many
    /// hard breaks).
    static func append(_ run: StyledRun, to runs: inout [StyledRun]) {
        if !run.text.isEmpty, let last = runs.indices.last, !runs[last].text.isEmpty, runs[last].style == run.style {
            runs[last].text += run.text
        } else {
            runs.append(run)
        }
    }

    /// The runs of a link to `destination` whose text is `children`: in the theme's link colour
    /// when it goes somewhere; a link that goes nowhere (an `#id` the survey found nothing for,
    /// a scheme a PDF link may not open) is plain text. A link with no text shows its address.
    mutating func appendLinkRuns(
        _ destination: String, _ children: [Inline], cascade: Cascade, to runs: inout [StyledRun]
    ) {
        var inner = cascade
        inner.link = linkTarget(destination)
        if case .internal(let id)? = inner.link, options.droppedLinks.contains(id) { inner.link = nil }
        if inner.link != nil, let link = theme.color(named: "link") { inner.color = link }
        let before = runs.count
        let lastLength = runs.last?.text.utf8.count
        appendRuns(children, cascade: inner, to: &runs)
        // No text from the children (text may have joined the last run, ``append(_:to:)``).
        if runs.count == before, runs.last?.text.utf8.count == lastLength {
            runs.append(StyledRun(destination, style: appearances.style(for: inner)))
        }
    }

    /// Appends a formula's runs, and its `\tag` label two em spaces after it; false, appending
    /// nothing, for an inline formula that only defines (it sets nothing).
    mutating func appendFormula(
        _ source: String, display: Bool, location: SourceLocation?, sourceStart: SourceLocation?, cascade: Cascade,
        to runs: inout [StyledRun]
    ) -> Bool {
        let formulaRuns = formulaRuns(
            source, display: display, location: location, sourceStart: sourceStart, cascade: cascade)
        if !display, let formula = formulaRuns.first?.style.inlineFormula?.formula, formula.nodes.isEmpty,
            formula.tag == nil, formula.problems.isEmpty
        {
            return false
        }
        runs += formulaRuns
        if let tag = formulaRuns.last?.style.inlineFormula?.formula.tag {
            Self.append(StyledRun("\u{2003}\u{2003}" + tag, style: appearances.style(for: cascade)), to: &runs)
        }
        return true
    }

    mutating func appendRuns(_ inlines: [Inline], cascade: Cascade, to runs: inout [StyledRun]) {
        // After a formula that only defines (`$\newcommand{\R}{…}$ Text`), which sets nothing:
        // the space after it is not set at a line's start nor beside another space.
        var afterDefinitions = false
        for inline in inlines {
            let dropsSpace = afterDefinitions && (runs.isEmpty || runs.last?.text.hasSuffix(" ") == true)
            afterDefinitions = false
            switch inline {
            case .text(let text):
                // A tab in running text is white space like any other (CommonMark §2.2).
                // (A byte test: `String.contains(String)` is Foundation's locale-aware search.)
                var text = text.containsUTF8Byte(0x09) ? text.replacingOccurrences(of: "\t", with: " ") : text
                text = EmojiShortcodes.replacing(in: text)
                if Self.endsInForcedBreak(runs) || dropsSpace {
                    text = String(text.drop { $0 == " " })
                    if text.isEmpty { continue }
                }
                Self.append(StyledRun(cascade.cased(text), style: appearances.style(for: cascade)), to: &runs)
            case .math(let source, let display, let location, let sourceStart):
                afterDefinitions = !appendFormula(
                    source, display: display, location: location, sourceStart: sourceStart, cascade: cascade,
                    to: &runs)
            case .softBreak:
                if Self.endsInForcedBreak(runs) { continue }
                Self.append(StyledRun(" ", style: appearances.style(for: cascade)), to: &runs)
            case .lineBreak:
                Self.trimSpacesBeforeForcedBreak(&runs)
                Self.append(StyledRun("\u{2028}", style: appearances.style(for: cascade)), to: &runs)
            case .emphasis(let children):
                var inner = cascade
                inner.emphasize()
                appendRuns(children, cascade: inner, to: &runs)
            case .strong(let children):
                var inner = cascade
                inner.embolden(theme: theme)
                appendRuns(children, cascade: inner, to: &runs)
            case .strikethrough(let children):
                var inner = cascade
                inner.strikethrough = .some(nil)
                appendRuns(children, cascade: inner, to: &runs)
            case .code(let code):
                var inner = cascade
                inner.style.families = theme.monospaceFamilies
                inner.style.size = (inner.style.size * 0.92 * 10).rounded() / 10
                inner.style.tracking = nil
                inner.style.kerning = nil
                inner.background = theme.code.background ?? theme.color(named: "codeBackground")
                var style = inner.runStyle
                style.isCode = true
                // A tab reaches the next stop counted from the span's start, as a block's tabs
                // do from the line's: drawn as itself it was a gap no reader of the text saw.
                let expanded = Styler.expandingTabs(code, size: tabSize)
                for run in inlineCodeRuns(expanded, base: style) {
                    runs.append(StyledRun(run.text, style: appearances.shared(run.style)))
                }
            case .link(let destination, _, let children):
                appendLinkRuns(destination, children, cascade: cascade, to: &runs)
            case .image(let source, _, _, _) where Styler.isDarkModeOnly(source):
                continue
            case .image(let source, _, let alt, let location):
                appendInlineImage(source, alt: alt, at: location ?? currentLocation, cascade: cascade, to: &runs)
            case .anchor(let id):
                pendingAnchors.append(id)
            case .presentation(let presentation, let children):
                appendRuns(children, cascade: presented(presentation, cascade), to: &runs)
            case .span(let attributes, let children) where Styler.sizedImage(attributes, children) != nil:
                for pair in attributes.pairs where ["width", "height"].contains(pair.key) {
                    if let value = pair.value, ImageDimension(value) != nil { continue }
                    warn(ImageDimension.problem(pair.value ?? "", key: pair.key), pair.location ?? attributes.location)
                }
                if let sized = Styler.sizedImage(attributes, children),
                    case .image(let source, _, let alt, let location) = sized.image,
                    case .success(let run) = inlineImageRun(
                        source, alternativeText: alt.plainText.trimmingCharacters(in: .whitespaces), cascade: cascade,
                        asked: (sized.width, sized.height))
                {
                    if alt.plainText.trimmingCharacters(in: .whitespaces).isEmpty {
                        warnNoAlternativeText(source, at: location ?? currentLocation)
                    }
                    runs.append(run)
                } else {
                    appendRuns(children, cascade: cascade, to: &runs)
                }
            case .span(let attributes, let children):
                appendSpan(attributes, children, cascade: cascade, to: &runs)
            case .footnoteReference(_, let number):
                var inner = cascade
                inner.style.size *= 0.7
                inner.baselineOffset += cascade.style.size * 0.33
                inner.link = .internal("fn-\(number)")
                inner.style.features.append("tnum")
                runs.append(StyledRun("\(number)", style: appearances.style(for: inner)))
                referencedNotes.append(number)
            case .rawHTML(let html, let location):
                if html.lowercased().hasPrefix("<br") {
                    Self.trimSpacesBeforeForcedBreak(&runs)
                    runs.append(StyledRun("\u{2028}", style: appearances.style(for: cascade)))
                } else {
                    warn("raw HTML '\(html.prefix(40))' is not rendered; skipped", location, kind: .html)
                }
            }
        }
    }

    /// Whether `runs` end in a forced line break (U+2028, from `<br>` or a hard break), after
    /// which a collapsible space would begin the next line. The spaces around a forced break
    /// end one line and begin the next, and a browser removes them (CSS Text 3 §4.1.2): `a <br>
    /// b` is `a`, then `b` (``trimSpacesBeforeForcedBreak(_:)``).
    static func endsInForcedBreak(_ runs: [StyledRun]) -> Bool {
        runs.last?.text.unicodeScalars.last == "\u{2028}"
    }

    /// Removes the spaces that end `runs` (a text run's, not a picture's or formula's) before a
    /// forced line break is appended (``endsInForcedBreak(_:)``).
    static func trimSpacesBeforeForcedBreak(_ runs: inout [StyledRun]) {
        guard let last = runs.indices.last, runs[last].text.hasSuffix(" "), runs[last].style.inlineFormula == nil,
            runs[last].style.inlineImage == nil
        else { return }
        while runs[last].text.hasSuffix(" ") { runs[last].text.removeLast() }
        if runs[last].text.isEmpty { runs.removeLast() }
    }

    /// The style of an image shown as its alt text inside a line: 0.85 of the text's size on
    /// the theme's code panel, in the secondary colour where it reads there (WCAG 2.1 AA,
    /// 4.5:1), else the text's colour or, failing that too, black or white, whichever reads.
    func placeholderCascade(_ cascade: Cascade) -> Cascade {
        var inner = cascade
        inner.style.size = (inner.style.size * 0.85 * 10).rounded() / 10
        let background = theme.color(named: "codeBackground") ?? RGBAColor(hex: "#F3F4F7")!
        inner.background = background
        let readable = [theme.color(named: "secondary"), inner.color].compactMap { $0 }.first {
            $0.contrastRatio(against: background) >= 4.5
        }
        let black = RGBAColor(red: 0, green: 0, blue: 0)
        let white = RGBAColor(red: 1, green: 1, blue: 1)
        inner.color =
            readable
            ?? (black.contrastRatio(against: background) >= white.contrastRatio(against: background) ? black : white)
        return inner
    }

    /// The runs of a span (`[text]{.role key=value}`): its attributes applied to the cascade,
    /// but not those that only whole paragraphs take (line height, alignment), which are
    /// reported.
    mutating func appendSpan(
        _ written: Attributes, _ children: [Inline], cascade: Cascade, to runs: inout [StyledRun]
    ) {
        var attributes = written
        let language = highlightsCode && theme.code.highlights ? Styler.inlineCodeLanguage(written, children) : nil
        if children.count == 1, case .code = children[0] {
            // A code span's other classes name its language (Pandoc): not roles.
            attributes.classes = attributes.classes.filter {
                TextRole(name: $0) != nil || StyleOverrides.pandocClasses.contains($0.lowercased())
            }
        }
        if children.count == 1, case .image = children[0] {
            attributes.pairs.removeAll { ["width", "height"].contains($0.key.lowercased()) }
        }
        if let id = attributes.id { registerAnchor(id, at: attributes.location) }
        var diagnosticsCopy: [Diagnostic] = []
        var overrides = StyleOverrides(attributes, theme: theme, diagnostics: &diagnosticsCopy)
        diagnostics += diagnosticsCopy
        admitSize(&overrides)
        if overrides.lineHeight != nil || overrides.leading != nil {
            warn(
                "line height applies to whole paragraphs; ignored on a span",
                overrides.lineHeightLocation ?? attributes.location, kind: .attribute)
        }
        if overrides.alignment != nil {
            warn(
                "'align' applies to whole paragraphs; ignored on a span",
                overrides.alignmentLocation ?? attributes.location, kind: .attribute)
        }
        var inner = cascade
        var spanOverrides = overrides
        spanOverrides.lineHeight = nil
        spanOverrides.leading = nil
        inner.apply(spanOverrides, theme: theme)
        if let spanLanguage = overrides.language {
            // Tagged in its language unless that is the block's (a span back in the block's
            // language inside another span is the block's text again).
            let block = cascade.spanContext.map(\.block) ?? cascade.language ?? options.language
            let differs = spanLanguage.lowercased() != block?.lowercased()
            inner.spanContext = (block, differs ? spanLanguage : nil)
        }
        inlineCodeLanguage = language
        appendRuns(children, cascade: inner, to: &runs)
        inlineCodeLanguage = nil
    }

    /// An image inside a line of text: drawn on the baseline, or, when it is remote or cannot
    /// be read, its alt text in a placeholder's style (each counted for its warning); one
    /// without alt text is warned about at `location`.
    mutating func appendInlineImage(
        _ source: String, alt: [Inline], at location: SourceLocation?, cascade: Cascade, to runs: inout [StyledRun]
    ) {
        let altText = alt.plainText.trimmingCharacters(in: .whitespaces)
        if source.contains("://") || source.lowercased().hasPrefix("data:") {
            remoteInlineImages.add(source, at: location)
        } else {
            switch inlineImageRun(source, alternativeText: altText, cascade: cascade, asked: (nil, nil)) {
            case .success(let run):
                if altText.isEmpty { warnNoAlternativeText(source, at: location) }
                runs.append(run)
                return
            case .failure(let unread):
                if !unreadInlineImages.contains(where: { $0.reason == unread.reason }) {
                    unreadInlineImages.append((unread.reason, ExampleTally()))
                }
                let index = unreadInlineImages.firstIndex { $0.reason == unread.reason }!
                unreadInlineImages[index].tally.add(source, at: location)
            }
        }
        let inner = placeholderCascade(cascade)
        runs.append(StyledRun(altText.isEmpty ? "image" : altText, style: appearances.style(for: inner)))
    }

    /// Warns that the image at `source` has no alternative text, at `location` (where its
    /// address is written): a figure or a picture inside a line alike, each of which PDF/UA-1
    /// asks a text of (ISO 14289-1 §7.3), and which a render for PDF/UA-1 refuses at this place.
    mutating func warnNoAlternativeText(_ source: String, at location: SourceLocation?) {
        warn(
            "image '\(source.prefix(60))' \(Self.noAlternativeText); screen readers can only say that there is "
                + "a figure",
            location, kind: .image, subject: source.isEmpty ? nil : source)
    }

    /// The words of the warning about an image with no alternative text, which PDF/UA-1 makes
    /// an error at the same place.
    public static let noAlternativeText = "has no alt text"

    /// Schemes a PDF link may open; anything else (`javascript:`, `data:`) is not made clickable.
    static let linkSchemes: Set<String> = ["http", "https", "mailto", "ftp", "ftps", "tel", "file"]

    /// The longest address a link may have, bytes: 64 KiB, eight times what HTTP asks every
    /// recipient to take (RFC 9110 §4.1, 8,000 octets).
    static let longestAddress = 65_536

    /// The target of a Markdown link: `#id` inside the document, a URI with an allowed scheme
    /// or a relative reference; nil (with a warning) for an empty or unsafe destination, or
    /// one longer than ``longestAddress``.
    mutating func linkTarget(_ destination: String) -> LinkTarget? {
        // Foundation's trimming and path parsing cost tens of thousands of instructions a link:
        // both run only where they can change something.
        let trimmed =
            Self.hasWhitespaceEnd(destination)
            ? destination.trimmingCharacters(in: .whitespaces) : destination
        if trimmed.isEmpty { return nil }
        if trimmed.utf8.count > Self.longestAddress {
            // Cairo writes a link's address in every annotation of the link (one a page it
            // spans), and a PDF reader would hand the address on as it is.
            warn(
                "a link's address is \(trimmed.utf8.count) bytes long, over the \(Self.longestAddress) a link may "
                    + "have: '\(trimmed.prefix(60))…' is not linked; its text is set", nil)
            return nil
        }
        if trimmed.hasPrefix("#") { return .internal(String(trimmed.dropFirst())) }
        // Byte tests: `String.contains(String)` is Foundation's locale-aware search.
        let hasColon = trimmed.utf8.contains(UInt8(ascii: ":"))
        if !hasColon, let path = trimmed.split(separator: "#", maxSplits: 1).first,
            path.utf8.contains(UInt8(ascii: ".")),
            ["md", "markdown", "mdown", "mkd"].contains((String(path) as NSString).pathExtension.lowercased())
        {
            // A link to a Markdown file beside the document (a README's CONTRIBUTING.md) works
            // from a PDF written beside it; one to a file that is not there goes nowhere.
            let file = String(path).removingPercentEncoding ?? String(path)
            let full = file.hasPrefix("/") ? file : (options.baseDirectory as NSString).appendingPathComponent(file)
            // Outside the sandbox it is never looked up: the warning is the same whether it exists.
            let outside = options.sandbox.map { !$0.permits(full) } ?? false
            if outside || !FileManager.default.fileExists(atPath: full) {
                otherFileLinks.count += 1
                if otherFileLinks.first == nil { otherFileLinks.first = (String(trimmed.prefix(60)), currentLocation) }
            }
        }
        if let colon = trimmed.firstIndex(of: ":"), !trimmed[..<colon].utf8.contains(UInt8(ascii: "/")) {
            let scheme = trimmed[..<colon].lowercased()
            // `<URL:http://…>`: the wrapper RFC 3986 (appendix C) and RFC 1738 suggest for URIs in
            // plain text; the URI inside is the link.
            if scheme == "url", trimmed.count > 4 { return linkTarget(String(trimmed.dropFirst(4))) }
            guard Styler.linkSchemes.contains(scheme) else {
                warn(
                    "link '\(trimmed.prefix(60))' uses the scheme '\(scheme):'; it is not made clickable", nil,
                    kind: .link, subject: trimmed)
                return nil
            }
        }
        return .external(trimmed)
    }

    /// Whether `text` begins or ends with a scalar of `CharacterSet.whitespaces` (general
    /// category Zs, or a tab): the only strings that trimming those changes.
    static func hasWhitespaceEnd(_ text: String) -> Bool {
        func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator
        }
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last else { return false }
        return isWhitespace(first) || isWhitespace(last)
    }

    /// A warning for each internal link whose `#id` names no heading, anchor or footnote — in
    /// paragraphs, table cells, captions and footnotes alike; such links are left as plain
    /// text (a PDF link to a missing destination does nothing). A fragment that matches no id
    /// as written is tried as GitHub resolves it (see ``AnchorMatcher``).
    mutating func checkInternalLinks(_ blocks: inout [StyledBlock]) {
        let anchors = Set(blocks.flatMap(\.destinationNames))
        let matcher = AnchorMatcher(anchors: anchors)
        var reported = Set<String>()
        var problems: [(id: String, location: SourceLocation?)] = []
        for blockIndex in blocks.indices {
            let location = blocks[blockIndex].location
            blocks[blockIndex].updateParagraphs { paragraph in
                for runIndex in paragraph.runs.indices {
                    guard case .internal(let id)? = paragraph.runs[runIndex].style.link, !anchors.contains(id) else {
                        continue
                    }
                    if let found = matcher.match(id) {
                        paragraph.runs[runIndex].style.link = .internal(found)
                        continue
                    }
                    if reported.insert(id).inserted {
                        problems.append((id, location))
                    }
                    paragraph.runs[runIndex].style.link = nil
                }
            }
        }
        for (id, location) in problems {
            warn(Styler.missingDestinationMessage(id), location, kind: .link, subject: "#\(id)")
        }
    }

    /// CSS `font-weight: bolder` (CSS Fonts 4 §2.2 relative weights table).
    public static func bolder(_ weight: FontWeight) -> FontWeight {
        switch weight.rawValue {
        case ..<350: .regular
        case ..<550: .bold
        default: .black
        }
    }
}

/// Things of one kind met in a document's text (images shown as alt text, footnote syntax left
/// as text): how many, and the first few with what is written and where.
extension Styler {
    /// The opening of a paragraph written in Pandoc's block syntax that CommonMark reads as
    /// text (Pandoc's manual, "Pandoc's Markdown"): a grid table (`+---+`), a line block
    /// (`| ` on every line), an example list (`(@)`), list markers of letters, Roman numerals,
    /// `#` or Korean counters (`a)`, `ii.`, `(a)`, `가.`) opening two lines or more of a
    /// paragraph (a list that follows text without a blank line, which the parser leaves as
    /// text, ``ListNumbering``), or a table's caption (`Table: …`); nil for any other paragraph.
    static func pandocBlockOpening(_ inlines: [Inline]) -> String? {
        // Most paragraphs open with none of the openings: they are let go before their lines
        // are gathered.
        guard case .text(let first)? = inlines.first, let lead = first.first else { return nil }
        guard lead == "+" || lead == "|" || lead == "(" || lead == "T" || listMarker(first) != nil else {
            return continuedListMarker(inlines)
        }
        if first.hasPrefix("Table: ") { return "Table:" }
        var lines: [String] = [""]
        for inline in inlines {
            if case .softBreak = inline { lines.append("") } else { lines[lines.count - 1] += inline.plainText }
        }
        // (Smart punctuation may have made the rule's hyphens dashes.)
        if lead == "+", let rule = first.dropFirst().first, "-–—=".contains(rule), lines.count > 1,
            first.hasSuffix("+")
        {
            return rule == "=" ? "+==" : "+--"
        }
        if lines.count > 1, lines.allSatisfy({ $0.hasPrefix("| ") || $0 == "|" }) { return "| " }
        if first.hasPrefix("(@") { return String(first.prefix { $0 != " " }) }
        let markers = lines.compactMap(listMarker)
        return markers.count >= 2 && listMarker(lines[0]) != nil ? markers[0] : nil
    }

    /// The first of two or more of Pandoc's list markers that open lines after the paragraph's
    /// first (`2. two` / `   a. nested` / `   b. more`: a list nested in an item, which
    /// CommonMark reads as the item's text), found from the inline after each soft break; nil
    /// when fewer lines open with one.
    private static func continuedListMarker(_ inlines: [Inline]) -> String? {
        var markers: [String] = []
        for (inline, next) in zip(inlines, inlines.dropFirst()) {
            guard case .softBreak = inline, case .text(let text) = next, let marker = listMarker(text) else { continue }
            markers.append(marker)
        }
        return markers.count >= 2 ? markers[0] : nil
    }

    /// The list marker `line` opens with when it is one of Pandoc's that CommonMark lacks: a
    /// letter, a Roman numeral or `#`, then `.` or `)`, or the same between parentheses, then
    /// text (`a)`, `ii.`, `#.`, `(b)`).
    private static func listMarker(_ line: String) -> String? {
        let marker = line.prefix(8).prefix { $0 != " " }
        guard (2...7).contains(marker.count), let last = marker.last, last == "." || last == ")",
            line.utf8.count > marker.utf8.count
        else { return nil }
        let parenthesized = marker.first == "(" && last == ")"
        let body = marker.dropFirst(parenthesized ? 1 : 0).dropLast()
        guard !body.isEmpty, body.count <= 5 else { return nil }
        if parenthesized, body.first == "@" { return String(marker) }
        let roman = body.allSatisfy { "ivxlcdm".contains($0) } || body.allSatisfy { "IVXLCDM".contains($0) }
        let letter = body.count == 1 && body.first!.isASCII && body.first!.isLetter
        let hangul = body.count == 1 && hangulCounters.contains(body.first!)
        return roman || letter || hangul || body == "#" ? String(marker) : nil
    }

    /// The syllables Korean counts list items with (가. 나. 다. …, the order of the Hangul
    /// consonants), which no Markdown reads as list markers.
    static let hangulCounters: Set<Character> = Set("가나다라마바사아자차카타파하")

    /// The name of a list counted in Hangul (``hangulCounters``) among the kinds tallied.
    static let hangulListName = "list counted in Hangul"

    /// Counts a paragraph holding site syntax of `kind` (``siteSyntax(_:)``), for its warning.
    mutating func tallySiteSyntax(_ kind: SiteSyntax, written: String, at location: SourceLocation?) {
        tally(written, kind: kind.rawValue, at: location)
    }

    /// Counts a paragraph opening with Pandoc's block syntax that is set as text, for its warning.
    mutating func tallyPandocBlock(_ opening: String, at location: SourceLocation?) {
        tally(opening, kind: Styler.pandocBlockName(opening), at: location)
    }

    /// Counts `written`, of the kind named `name`, among ``pandocBlocks``.
    private mutating func tally(_ written: String, kind name: String, at location: SourceLocation?) {
        if let kind = pandocBlocks.firstIndex(where: { $0.name == name }) {
            pandocBlocks[kind].tally.add(written, at: location)
        } else {
            var tally = ExampleTally()
            tally.add(written, at: location)
            pandocBlocks.append((name, tally))
        }
    }

    /// A line block's inlines (Pandoc's manual, "Line blocks": every line opening with `| `) as
    /// its lines are written: the `| ` dropped, each line ended by a line break, the spaces that
    /// open a line kept (as no-break spaces, which are not collapsed), for verse and addresses.
    static func lineBlockLines(_ inlines: [Inline]) -> [Inline] {
        var lines: [Inline] = []
        var atLineStart = true
        for inline in inlines {
            if case .softBreak = inline {
                lines.append(.lineBreak)
                atLineStart = true
                continue
            }
            defer { atLineStart = false }
            guard atLineStart, case .text(let text) = inline else {
                lines.append(inline)
                continue
            }
            let rest = text.hasPrefix("| ") ? text.dropFirst(2) : text == "|" ? "" : Substring(text)
            let indent = rest.prefix { $0 == " " }.count
            let line = String(repeating: "\u{00A0}", count: indent) + rest.dropFirst(indent)
            if !line.isEmpty { lines.append(.text(line)) }
        }
        return lines
    }

    /// Whether `name` (``pandocBlockName(_:)``) names a list whose markers Typeset reads when
    /// the list opens as Pandoc's lists do (``ListNumbering``).
    static func isListName(_ name: String) -> Bool {
        name == hangulListName || name == letteredListName || name == "example list"
    }

    /// The warning for `written`, syntax of a kind tallied in ``pandocBlocks``: site syntax,
    /// a list marker where no list opens, or Pandoc's block syntax set as text.
    static func tallyMessage(_ written: String, kind: String) -> String {
        if let site = SiteSyntax(rawValue: kind) { return site.message(written) }
        if isListName(kind) { return unopenedListMessage(written, kind: kind) }
        return "'\(written)' opens Pandoc's \(kind), which CommonMark and GitHub do not have; set as text"
    }

    /// The warning for `opening`, a marker of a list of `kind` (``isListName(_:)``) that opens
    /// no list where it stands.
    static func unopenedListMessage(_ opening: String, kind: String) -> String {
        let article = kind.first.map { "aeiou".contains($0) } == true ? "an" : "a"
        let rule = kind == "example list" ? "" : ", and a capital letter with a period needs two spaces after it"
        return "'\(opening)' starts a line as an item of \(article) \(kind) does, but no list opens there: as in "
            + "Pandoc, a list needs a blank line before it or an item's text above it\(rule); set as text"
    }

    /// The name of a list with letters, Roman numerals or `#` as markers among the kinds tallied.
    static let letteredListName = "list with letters, Roman numerals or # as markers"

    /// What the opening ``pandocBlockOpening(_:)`` found names.
    static func pandocBlockName(_ opening: String) -> String {
        if opening.contains(where: hangulCounters.contains) { return hangulListName }
        if opening.hasPrefix("+") { return "grid table with cells that span" }
        if opening.hasPrefix("|") { return "line block" }
        if opening.hasPrefix("(@") { return "example list" }
        if opening == "Table:" { return "table caption" }
        return letteredListName
    }
}

struct ExampleTally {
    var count = 0
    var examples: [(source: String, location: SourceLocation?)] = []

    mutating func add(_ source: String, at location: SourceLocation?) {
        count += 1
        if examples.count < 4 { examples.append((source, location)) }
    }
}
