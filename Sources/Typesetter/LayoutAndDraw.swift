import DocumentModel
import Foundation
import Layout
internal import PangoCairoBackend
internal import ProcessMemory
import Styling
internal import TaggedPDF
import WorkQueues

/// The layout and draw stage: the document styled again block by block (``LayoutBlocks``),
/// the front matter's blocks inserted, broken into lines and pages, and drawn. Passes that
/// draw nothing come first when the page count or the pages headings land on are needed.
struct LayoutAndDraw {
    /// The page numbers known before the drawing pass.
    struct PageNumbers {
        /// The number of pages, for `{pages}`; nil when no running text needs it.
        var pageCount: Int?
        /// The page each destination (anchor) lands on, for the contents' page numbers.
        var destinations: [String: Int] = [:]
    }

    /// What the drawing pass produced.
    struct Drawn {
        /// Pages drawn.
        let pageCount: Int
        /// The finished renderer (its preview files, when a preview).
        let renderer: CairoPDFRenderer
        /// Warnings from layout (words wider than the measure, glyphs taller than the text
        /// area, tables made to fit), their subjects placed in the source.
        let diagnostics: [Diagnostic]
    }

    let document: Document
    let settings: ResolvedSettings
    let survey: DocumentSurvey
    let frontMatter: FrontMatter
    let shaper: PangoShaper
    /// Style the document on a producer thread beside layout.
    let threaded: Bool

    /// Passes that draw nothing, only when something needs the page count or the pages
    /// headings land on: `{pages}` in a running text, or a table of contents. The contents'
    /// own page numbers can change its length, so it is laid out again until the pages
    /// headings land on stop changing (at most three passes); a pass is not made when the
    /// contents with the numbers found take the same room as with those the last pass set
    /// (``Paginator/geometry(of:)``), since it would find the same pages. They keep only
    /// numbers: the page count and the page of each destination.
    func countPages() throws -> PageNumbers {
        var numbers = PageNumbers()
        guard frontMatter.running.needsPageCount || frontMatter.contents != nil else { return numbers }
        for _ in 0..<3 {
            let pass = try layOut(pages: numbers.destinations, pageCount: nil, into: PageCounter()).paginator
            numbers.pageCount = pass.pageCount
            guard frontMatter.contents != nil, pass.destinations != numbers.destinations else { break }
            let laidOut = numbers.destinations
            numbers.destinations = pass.destinations
            let geometry = Paginator(shaper: shaper, options: layoutOptions(pageCount: nil), renderer: PageCounter())
            let sameRoom =
                geometry.geometry(of: frontMatter.blocks(pages: laidOut))
                == geometry.geometry(of: frontMatter.blocks(pages: pass.destinations))
            // Words those layouts found wider than the measure are the drawing pass's to report.
            shaper.overwideWords.removeAll()
            if sameRoom { break }
        }
        if settings.options.tunesHeap { FreedMemory.release() }
        return numbers
    }

    /// The drawing pass: lays the pages out with `numbers` and draws them into `file`'s
    /// temporary path, tagged for accessibility when `tagged` (and not a preview).
    /// - Throws: `BackendError.tagging` when the structure tree cannot be written. Its warnings
    ///   are returned, strict or not: the render judges them with the others.
    func draw(numbers: PageNumbers, into file: OutputFile, tagged: Bool) throws -> Drawn {
        let options = settings.options
        let standards = options.preview == nil ? options.pdfStandards ?? [] : []
        if !tagged, !standards.isEmpty {
            throw TypesetError.renderingFailed(
                "pdf-standard \(standards.map(\.rawValue).sorted().joined(separator: ", ")) with --no-tags: "
                    + PDFStandard.untaggedProblem(standards))
        }
        let tagging =
            tagged && options.preview == nil
            ? try PDFStandard.tagging(standards, language: FrontMatterSettings.language(document.metadata.lang))
            : nil
        let renderer = try CairoPDFRenderer(
            path: file.temporaryPath, info: frontMatter.info,
            creationDate: options.creationDate ?? Typesetter.defaultCreationDate(),
            tagging: tagging)
        if let preview = options.preview { renderer.startPreview(preview, base: file.destination) }
        // Cairo's copies of a large CFF table (a CJK face's, twice: when the first page that
        // draws it is shown, and when the file is finished) land on huge pages: thousands of
        // page faults fewer. Documents without such a face leave the heap as it is.
        if options.tunesHeap { renderer.beforeLargeFontTableCopy = { HugePageHeap.prepare() } }
        if options.tunesHeap { renderer.beforeTaggingPass = { FreedMemory.release() } }
        let pass = try layOut(pages: numbers.destinations, pageCount: numbers.pageCount, into: renderer)
        // The last pass has read the document: its last window of blocks and its source text
        // (set aside in a temporary file, read back only if the document is rendered again) go
        // before Cairo finishes the file, and so do the heap pages layout freed, on which
        // Cairo's finish and the tagging pass would stack.
        document.releaseSource()
        if options.tunesHeap { FreedMemory.release() }
        // The heap's top is on huge pages again for Cairo's second copy of each large CFF
        // table, which finishing allocates (``HugePageHeap``).
        if options.tunesHeap, renderer.drewLargeFontTable { HugePageHeap.prepare() }
        try options.cancellation?.check()
        try renderer.finish()
        let diagnostics = document.source.placingSubjects(of: pass.diagnostics)
        return Drawn(pageCount: pass.paginator.pageCount, renderer: renderer, diagnostics: diagnostics)
    }

    /// One layout pass into `renderer`, with the contents' page numbers from `pages` and
    /// `{pages}` from `pageCount`. Warnings are collected only when the pass draws.
    private func layOut(
        pages: [String: Int], pageCount: Int?,
        into renderer: PageRenderer
    ) throws -> (paginator: Paginator, diagnostics: [Diagnostic]) {
        let theme = settings.theme
        let options = settings.options
        let layout = layoutOptions(pageCount: pageCount)
        let paginator = Paginator(shaper: shaper, options: layout, renderer: renderer)
        var styling = settings.styling
        styling.droppedLinks = survey.links.droppedTargets
        styling.mathLabels = survey.mathLabels
        let blocks = LayoutBlocks(
            stream: StyleStream(document, theme: theme, options: styling),
            links: survey.links, page: theme.page, front: frontMatter.blocks(pages: pages),
            insertionIndex: frontMatter.insertionIndex)
        let draws = renderer is CairoPDFRenderer
        var diagnostics: [Diagnostic] = []
        // A word set twice from one place in the source (a heading and its contents entry, a
        // table's first column repeated beside each part of its columns) is one word there:
        // said once.
        var reportedWords = Set<String>()
        func report(_ block: StyledBlock, words: [ParagraphLayout.OverwideWord], formulas: [OverwideFormula]) {
            guard draws else { return }
            var inCell = false
            if case .table = block.content { inCell = true }
            if !formulas.isEmpty {
                for formula in formulas {
                    diagnostics.append(
                        Self.overwideFormula(
                            formula, measure: theme.page.measure, inCell: inCell, at: formula.location ?? block.location
                        ))
                }
                return
            }
            for word in words
            where reportedWords.insert("\(block.location?.description ?? "")\u{0}\(word.text)").inserted {
                diagnostics.append(Self.overwideWord(word, inCell: inCell, at: block.location))
            }
        }
        if threaded, document.source.byteCount >= Self.aheadFromBytes {
            try layOutAhead(blocks, options: layout, into: paginator, report: report)
        } else {
            _ = try StyledBlockPipe.forEach(blocks, threaded: threaded) { chunk in
                for block in chunk {
                    // An asynchronous render whose task was cancelled stops here, between blocks.
                    try options.cancellation?.check()
                    let formulas = shaper.overwideFormulas.count
                    try paginator.add(block)
                    let overwide = shaper.takeOverwide(formulasFrom: formulas)
                    report(block, words: overwide.words, formulas: overwide.formulas)
                }
            }
        }
        try paginator.finish()
        if draws {
            var seen = Set<String>()
            for overflow in paginator.inkOverflows where seen.insert(overflow.location?.description ?? "").inserted {
                diagnostics.append(Self.diagnostic(for: overflow))
            }
            for adjustment in paginator.tableAdjustments {
                diagnostics.append(Diagnostic(.warning, adjustment.message, at: adjustment.location))
            }
        }
        return (paginator, diagnostics)
    }

    /// A batch of a block's items laid out ahead (``LaidOutBatch``), and with the block's last
    /// batch the words and formulas its layout found too wide.
    private struct AheadBatch: @unchecked Sendable {
        var batch: LaidOutBatch
        var words: [ParagraphLayout.OverwideWord] = []
        var formulas: [OverwideFormula] = []
    }

    /// Batches of laid-out items that may wait for the paginator: about three pages' worth. A
    /// line of many runs (a paragraph of 50,000 code spans) holds kilobytes, so more ahead
    /// raises the peak (32 batches: 79 MiB against 69 MiB on one thread; 8: 69 MiB).
    static let batchesAhead = 8

    /// The shortest source laid out ahead on a thread of its own, bytes: about 20 pages of
    /// prose. A shorter document is set in a few tens of milliseconds, where the thread's start
    /// and the turns the two threads take with the font map cost what they save, and a server
    /// rendering many short documents at once keeps its cores for them (``layOutAhead``).
    static let aheadFromBytes = 64 << 10

    /// Lays `blocks` out on a thread of their own (``LayoutAhead``: styling on another thread
    /// before it, ``StyledBlockPipe``) while this thread places the items and draws the pages
    /// (``Paginator/add(_:)-(LaidOutBatch)``): the same pages and PDF as laying each block out
    /// in turn, with shaping and line breaking beside pagination and drawing. The two threads
    /// share the shaper's font map and take turns with it (``SharedFontMap``). `report` gets
    /// each block's too-wide words and formulas once its last items are placed.
    /// - Throws: what placing and drawing throw, and ``TypesetError`` when the render is
    ///   cancelled; the layout thread is stopped and joined first.
    private func layOutAhead(
        _ blocks: LayoutBlocks, options layoutOptions: LayoutOptions, into paginator: Paginator,
        report: (StyledBlock, [ParagraphLayout.OverwideWord], [OverwideFormula]) -> Void
    ) throws {
        let shared = SharedFontMap()
        let queue = WorkQueue<AheadBatch>(capacity: Self.batchesAhead)
        // A block the paginator lays out itself (a table) is laid out while the layout thread
        // waits: the shaper's words and formulas found too wide are then that block's.
        let placedInPlace = WorkQueue<Bool>(capacity: 1)
        let shaper = shaper
        struct Stopped: Error {}
        queue.startProducer(stackSize: StyledBlockPipe.stackSize) { queue in
            try shared.sharing(with: shaper) {
                var ahead = LayoutAhead(shaper: shaper, options: layoutOptions)
                var formulas = shaper.overwideFormulas.count
                _ = try StyledBlockPipe.forEach(blocks, threaded: true) { chunk in
                    for block in chunk {
                        if LayoutAhead.laysOutInPlace(block) {
                            let going = ahead.layOut(block) { queue.put(AheadBatch(batch: $0)) }
                            guard going else { throw Stopped() }
                            guard (try? placedInPlace.take()) != nil else { throw Stopped() }
                            formulas += shaper.takeOverwide(formulasFrom: formulas).formulas.count
                            continue
                        }
                        var last: LaidOutBatch?
                        let going = ahead.layOut(block) { batch in
                            guard !batch.isLast else {
                                last = batch
                                return true
                            }
                            return queue.put(AheadBatch(batch: batch))
                        }
                        guard going, let last else { throw Stopped() }
                        let overwide = shaper.takeOverwide(formulasFrom: formulas)
                        formulas += overwide.formulas.count
                        let batch = AheadBatch(batch: last, words: overwide.words, formulas: overwide.formulas)
                        guard queue.put(batch) else { throw Stopped() }
                    }
                }
            }
        }
        try shared.sharing(with: shaper) {
            do {
                while let next = try queue.take() {
                    // An asynchronous render whose task was cancelled stops here, between batches.
                    try settings.options.cancellation?.check()
                    guard next.batch.inPlace else {
                        try paginator.add(next.batch)
                        if next.batch.isLast { report(next.batch.block, next.words, next.formulas) }
                        continue
                    }
                    let formulas = shaper.overwideFormulas.count
                    try shared.alone { try paginator.add(next.batch) }
                    let overwide = shaper.takeOverwide(formulasFrom: formulas)
                    report(next.batch.block, overwide.words, overwide.formulas)
                    _ = placedInPlace.put(true)
                }
            } catch {
                queue.cancel()
                // The layout thread may wait for a block laid out in place.
                placedInPlace.cancel()
                queue.join()
                throw error
            }
            queue.join()
        }
    }

    /// The page, widows, orphans and running texts of a layout pass, `{pages}` read as
    /// `pageCount`.
    private func layoutOptions(pageCount: Int?) -> LayoutOptions {
        let options = settings.options
        var layout = LayoutOptions(
            page: settings.theme.page, widows: options.widows ?? 2, orphans: options.orphans ?? 2,
            header: frontMatter.running.header(pageCount: pageCount),
            footer: frontMatter.running.footer(pageCount: pageCount),
            language: FrontMatterSettings.language(document.metadata.lang))
        layout.cancellation = options.cancellation
        return layout
    }

    /// The warning for text whose glyphs reach past the text area even alone at the top of a
    /// page (a line height far below the glyphs' height, a tall stack of marks), at its block.
    static func diagnostic(for overflow: InkOverflow) -> Diagnostic {
        let reach =
            overflow.crossesPageEdge
            ? "past the bottom edge of the page, where they are cut" : "into the bottom margin"
        let message =
            "glyphs taller than the text area: even at the top of a page they reach "
            + "\(overflow.excess.wholePointsText) pt below it, \(reach); "
            + "a larger line height or a smaller size fits them (a formula of many rows: several displays)"
        return Diagnostic(.warning, message, at: overflow.location, kind: .overfull)
    }

    /// The warning for a displayed formula wider than the measure at 80 % of the text's size
    /// with no place to break: the size it was set at to fit, and whether that is too small to
    /// read; the width named is the one it was fitted to, its table cell's when `inCell`.
    static func overwideFormula(
        _ formula: OverwideFormula, measure pageMeasure: Double, inCell: Bool = false, at location: SourceLocation?
    ) -> Diagnostic {
        // What it was too wide for: the measure, or in a table its cell's.
        let width = formula.width > 0 ? formula.width : pageMeasure
        let measure =
            inCell ? "its table cell (\(width.wholePointsText) pt)" : "the measure (\(width.wholePointsText) pt)"
        let source = formula.source
        let shown = source.count > 60 ? source.prefix(60) + "…" : Substring(source)
        let percent = Int((formula.scale * 100).rounded(.down))
        let size = percent >= 1 ? "\(percent) %" : "under 1 %"
        let done =
            formula.scale >= InlineFormula.smallestLegibleScale
            ? "is set at \(size) of the text's size to fit it"
            : "is set at \(size) of the text's size to fit it, too small to read"
        let kind = formula.display ? "a displayed formula" : "an inline formula"
        let message =
            switch (formula.display, formula.hasBreaks) {
            case _ where formula.tall:
                "\(kind) is taller than the text area: '\(shown)' \(done); "
                    + (formula.display ? "break it into several displays" : "display it between $$, in several parts")
            case (true, false):
                "a displayed formula is wider than \(measure) and has no relation "
                    + "or operator to break at outside braces, \\left…\\right or an environment: '\(shown)' \(done); "
                    + "break it by hand (\\\\ in an aligned environment)"
            case (true, true):
                "a displayed formula is wider than \(measure), and a part of it "
                    + "between the places it may break (after a relation or operator outside braces, \\left…\\right "
                    + "or an environment) is wider still: '\(shown)' \(done); break it by hand (\\\\ in an aligned "
                    + "environment)"
            case (false, _):
                "an inline formula is wider than \(measure) and has no relation or "
                    + "operator to break at outside braces or \\left…\\right: '\(shown)' \(done); display it between "
                    + "$$, or break it after a relation"
            }
        return Diagnostic(.warning, message, at: location, kind: .overfull, subject: String(source.prefix(24)))
    }

    /// The warning for `word`, wider than its measure (a table cell's when `inCell`): what was
    /// done with it, quoted (its first 60 characters) and placed where it is written (at its
    /// first formula, or where its first 24 characters are found in the source).
    static func overwideWord(
        _ word: ParagraphLayout.OverwideWord, inCell: Bool, at location: SourceLocation?
    ) -> Diagnostic {
        let measure =
            inCell
            ? "its table cell (\(word.measure.wholePointsText) pt)"
            : "the measure (\(word.measure.wholePointsText) pt)"
        let done =
            switch word.treatment {
            case .hyphenated: "is hyphenated"
            case .brokenBetweenParts: "is broken between its parts"
            case .brokenBetweenLetters: "is broken between letters"
            case .overfull: "runs past its edge"
            }
        let shown = word.text.count > 60 ? word.text.prefix(60) + "…" : Substring(word.text)
        let message = "a word is wider than \(measure): '\(shown)' \(done)"
        if let formulaLocation = word.formulaLocation {
            return Diagnostic(.warning, message, at: formulaLocation, kind: .overfull)
        }
        return Diagnostic(.warning, message, at: location, kind: .overfull, subject: String(word.text.prefix(24)))
    }
}

/// Counts pages and forgets them (the passes before the drawing pass).
final class PageCounter: PageRenderer {
    func render(_ page: Page) throws {}
}
