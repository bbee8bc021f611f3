internal import CodeHighlighting
import DocumentModel
internal import PangoCairoBackend
import Styling
import Typography

/// A first pass over a document that styles it block by block and keeps only what must be
/// known before any page is laid out — every destination and link target (links may point
/// forward), the first heading and first styled block (the title and the title block), the
/// headings a table of contents lists, and every warning (so `--strict` writes nothing) — then
/// drops each block. Layout passes style the document again, block by block
/// (``LayoutBlocks``): memory holds the document tree and a bounded window of styled blocks,
/// never the whole styled document.
struct DocumentSurvey {
    /// Styling warnings, internal links to missing destinations included, in the order found.
    let stylingDiagnostics: [Diagnostic]
    /// The first heading's plain text.
    let firstHeading: String?
    /// Every formula label of the document, for the passes that draw
    /// (``StylingOptions/mathLabels``): a reference may come before its label.
    let mathLabels: [String: String]
    /// The opening block's outline entry (the title block looks for an opening title heading):
    /// the entry alone, since a first block may be a paragraph of 100,000 runs.
    let firstOutline: OutlineEntry?
    /// The index of the opening block among the styled blocks: the first that is no page
    /// break (a book whose chapters open on right-hand pages starts with one).
    let openingIndex: Int
    /// How many level-1 headings the document has (not counting notes'): an opening one is the
    /// document's title only when it is the only one (``SectionNumbering/levelOneHeadingCount(_:)``).
    let levelOneHeadings: Int
    /// Headings a table of contents lists, with their index among the styled blocks; empty
    /// unless the survey was asked to list them (each keeps its styled text until the file is
    /// finished: about 380 bytes a heading, 3 MiB for a 20 MB document).
    let headings: [(index: Int, entry: TableOfContents.Entry)]
    /// What each internal link becomes (a matched destination, or plain text).
    let links: LinkSurvey.Resolution
    /// Image files that will draw as placeholders, and text too large for the page.
    let imageDiagnostics: [Diagnostic]
    let sizeDiagnostics: [Diagnostic]
    /// Faces and characters of the styled blocks up to the opening one, and of the rest: the
    /// title block and contents print between them or before both.
    let fontsOfOpening: FontCheck
    let fontsOfRest: FontCheck
    /// The languages of the code blocks the survey set without their tokens, loading on
    /// another thread for the passes that highlight (``DeferredCodeTokens``); nil when it
    /// highlighted as it went. The render cancels it when it ends.
    var definitionLoader: DefinitionLoader?

    /// Surveys `document` styled against `theme`; the styling runs on a producer thread when
    /// `threaded`, the checks on this one. The headings are kept only when `listsHeadings`
    /// (a table of contents will list them), down to level `contentsDepth`. Once `cancellation`
    /// is set the survey stops at the next block, its findings partial (the caller checks
    /// `cancellation` and throws). Faces are resolved on `fonts`, the render's font map.
    init(
        _ document: Document, theme: Theme, options: StylingOptions, threaded: Bool, listsHeadings: Bool = true,
        contentsDepth: Int = TableOfContents.defaultDepth, cancellation: Cancellation? = nil,
        fonts: FontSession = FontSession()
    ) {
        var links = LinkSurvey()
        var first: OutlineEntry?
        var opening: Int?
        var levelOneHeadings = 0
        var headings: [(index: Int, entry: TableOfContents.Entry)] = []
        var images: [Diagnostic] = []
        var sizes: [Diagnostic] = []
        var fontsOfOpening = FontCheck(source: document.source, fonts: fonts)
        var fontsOfRest = FontCheck(source: document.source, fonts: fonts)
        var index = 0
        let source = SurveyBlocks(stream: StyleStream(document, theme: theme, options: options))
        // The closure throws only when the render is cancelled; then nothing ended is read.
        let ended = try? StyledBlockPipe.forEach(source, threaded: threaded) { chunk in
            try cancellation?.check()
            for var block in chunk {
                // Made to fit the page as each layout pass will (``LayoutBlocks``); the warnings once, here.
                sizes += SizeCheck.fit(&block, page: theme.page)
                links.visit(block)
                if block.outline?.level == 1 { levelOneHeadings += 1 }
                if opening == nil {
                    if case .pageBreak = block.content {
                    } else {
                        first = block.outline
                        opening = index
                    }
                    fontsOfOpening.visit(block)
                } else {
                    fontsOfRest.visit(block)
                }
                if listsHeadings, block.outline != nil,
                    let entry = TableOfContents.entry(for: block, depth: contentsDepth)
                {
                    headings.append((index, entry))
                }
                if let warning = ImageCheck.diagnostic(for: block) { images.append(warning) }
                images += ImageCheck.linkWarnings(for: block)
                index += 1
            }
        }
        stylingDiagnostics =
            (ended?.stream.diagnostics ?? []) + links.warnings(fallback: ended?.stream.currentLocation)
        firstHeading = ended?.stream.firstHeading
        mathLabels = ended?.stream.mathLabels ?? [:]
        firstOutline = first
        openingIndex = opening ?? 0
        self.levelOneHeadings = levelOneHeadings
        self.headings = headings
        self.links = links.resolution
        imageDiagnostics = images
        sizeDiagnostics = sizes
        self.fontsOfOpening = fontsOfOpening
        self.fontsOfRest = fontsOfRest
    }

    /// The contents' entries, without the heading at `titleIndex` (the document's title).
    func contentsEntries(excluding titleIndex: Int?) -> [TableOfContents.Entry] {
        headings.filter { $0.index != titleIndex }.map(\.entry)
    }
}

/// The survey's source: the styled blocks as styled, links unchecked.
struct SurveyBlocks: StyledBlockSource {
    var stream: StyleStream
    mutating func next() -> [StyledBlock]? { stream.next() }
}

/// A layout pass's source: the document styled again block by block, each block's internal
/// links resolved as the survey found, and the front matter's blocks (title block, contents)
/// inserted before the styled block at `insertionIndex` — the same sequence of blocks the
/// whole styled document would give.
struct LayoutBlocks: StyledBlockSource {
    var stream: StyleStream
    let links: LinkSurvey.Resolution
    /// The page each block is made to fit (``SizeCheck``).
    let page: PageSetup
    let front: [StyledBlock]
    let insertionIndex: Int
    private var index = 0
    private var inserted = false

    init(stream: StyleStream, links: LinkSurvey.Resolution, page: PageSetup, front: [StyledBlock], insertionIndex: Int)
    {
        self.stream = stream
        self.links = links
        self.page = page
        self.front = front
        self.insertionIndex = insertionIndex
        inserted = front.isEmpty
    }

    mutating func next() -> [StyledBlock]? {
        guard var chunk = stream.next() else {
            guard !inserted else { return nil }
            inserted = true
            return front
        }
        for i in chunk.indices {
            links.apply(to: &chunk[i])
            _ = SizeCheck.fit(&chunk[i], page: page)
        }
        let start = index
        index += chunk.count
        if !inserted, insertionIndex < index {
            chunk.insert(contentsOf: front, at: max(0, insertionIndex - start))
            inserted = true
        }
        return chunk
    }
}
