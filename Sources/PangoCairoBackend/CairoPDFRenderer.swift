internal import CPangoCairo
internal import CRsvg
import Foundation
import Layout
import Styling
import TaggedPDF
import Typography

/// Writes pages to a PDF file with Cairo as they arrive (``PageRenderer``): text lines shaped by
/// ``PangoShaper``, rectangles, rules, images, links, named destinations and outline entries.
///
/// The whole document is wrapped in a `Document` structure tag (Cairo 1.16 corrupts link
/// annotations without one). Call ``finish()`` once after the last page; it reports any error
/// Cairo deferred (malformed tag attributes, write failures).
///
/// With ``PDFTagging`` the PDF is tagged (PDF 1.7 §14.8): the structure marks layout puts on
/// the page (``PageElement/structure(_:)``) become elements of ``StructureRecords``, each run
/// of content they hold begins with a ``ContentMarker``, and ``finish()`` completes the file
/// (``PDFAccessibility``). Without it only the `Document` tag and links are written.
public final class CairoPDFRenderer: PageRenderer {
    private let path: String
    /// The PDF surface, or the current page's picture surface in preview mode.
    var surface: OpaquePointer
    var cr: OpaquePointer
    /// The file the PDF surface writes into (``PDFFileSink``).
    private let sink: PDFFileSink
    /// A tagged PDF's content streams rewritten as their pages are shown, for the tagging pass
    /// to take (nil untagged, or with `TYPESET_THREADS=1`).
    private var earlyContent: EarlyContentRewrites?
    /// For tests: how many content streams the tagging pass rewrote itself, how many it took
    /// from those rewritten as their pages were shown, and how many were rewritten so.
    private(set) var contentRewrites = (inPass: 0, taken: 0, ahead: 0)
    /// For tests: false leaves every content stream to the tagging pass, as
    /// `TYPESET_THREADS=1` does. Set before the first page.
    var rewritesContentEarly: Bool {
        get { earlyContent != nil }
        set {
            guard !newValue else { return }
            earlyContent?.stop()
            earlyContent = nil
            sink.capturing = false
        }
    }
    private var pageCount = 0
    private var finished = false
    /// The last external link target and its URI as a tag attribute value.
    private var lastURI = (uri: "", attribute: "''")
    /// The named destinations met, by id (``destinationName(for:)``), and the last one asked for.
    private var destinationNames = DestinationNames()
    /// Set by ``startPreview(_:base:)``: each page goes to its own PNG or SVG file instead.
    var previewSink: PreviewSink?
    private var documentTagOpen = false
    /// Open outline entries by level: (level, Cairo outline id).
    private var outlineStack: [(level: Int, id: Int32)] = []
    private let info: DocumentInfo
    private let tagging: PDFTagging?
    /// The document's structure as drawn so far (tagged PDFs only).
    private var structure = StructureRecords()
    /// The structure elements open under `Document`, outermost first, and their indices in
    /// ``structure``.
    private var openElements: [StructureElement] = []
    private var openIndices: [Int32] = []
    /// The element the content drawn now belongs to (0: the document; -1: an artifact).
    private var contentOwner: Int32 = 0
    /// Whether the current page has a run open for ``contentOwner``.
    private var runOpen = false
    /// Content markers drawn on the current page.
    private var markersOnPage = 0
    /// The `Link` elements of the links of the line drawn last, for the `.link` elements that
    /// follow it (their annotations), in order.
    private var pendingLinks: [Int32] = []
    /// The last link drawn: its target, the element it is in, its `Link` element, and whether
    /// it was its line's last link (a link going on at the next line's start continues it).
    private var lastLink: (target: LinkTarget, parent: Int32, element: Int32, endsLine: Bool)?
    /// The added hyphens and primed spaces marked on the page so far
    /// (``ContentMarker/hyphenSides``, ``ContentMarker/primeSides``).
    private var inlineArtifactsOnPage = 0
    /// The Cairo font faces (`cairo_font_face_t`) whose space glyph the document has drawn as
    /// a space before any stand-in drew it (``primeSpaces(of:x:baseline:)``).
    private var primedFaces: Set<OpaquePointer> = []
    /// Elements entered lately, by identity (role, block, part), with the page each was last
    /// entered on: an element entered again (a paragraph after the running foot, a list after
    /// a footnote) goes on, as one element. Entries untouched for ``reentryPages`` pages go.
    private var recentElements: [ElementKey: (index: Int32, page: Int)] = [:]
    /// How many pages an element can be left before it is entered again as one element.
    static let reentryPages = 8
    /// Called before Cairo shows a page that is the first to draw a face whose `CFF ` table is
    /// at least ``largeFontTable`` bytes: Cairo 1.16 copies that whole table when it shows the
    /// page (to tell whether the face is CID-keyed) and again when it finishes the file (to
    /// subset it). nil: nothing is called.
    public var beforeLargeFontTableCopy: (() -> Void)?
    /// Called after Cairo has finished a tagged file and before the tagging pass reads it:
    /// the memory Cairo freed finishing it (its copies of the fonts it subset) can go back to
    /// the system first. nil: nothing is called.
    public var beforeTaggingPass: (() -> Void)?
    /// Whether a page drew a face with a `CFF ` table of at least ``largeFontTable`` bytes, so
    /// that finishing the file copies it again (``beforeLargeFontTableCopy``).
    public private(set) var drewLargeFontTable = false
    /// What counts as a large `CFF ` table, bytes: 4 MiB (Noto Sans CJK's is 15.5 MiB; a Latin
    /// face's well under 1 MiB).
    public static let largeFontTable = 4 << 20
    /// The fonts drawn so far (Pango's font objects, which its font map keeps), each looked at once.
    private var fontsSeen: Set<UnsafeMutableRawPointer> = []
    /// The page being drawn is the first to draw a face with a large `CFF ` table.
    private var pageDrawsNewLargeFontTable = false
    /// Whether every figure had alternative text (a condition of claiming PDF/UA).
    private var figuresHaveAlt = true

    /// Creates the PDF at `path` and writes `info` as its metadata. `creationDate` becomes both
    /// the creation and modification date (pass one derived from `SOURCE_DATE_EPOCH` for
    /// byte-identical output); nil leaves Cairo's default (now). `tagging` nil writes an
    /// untagged PDF (only `Document` and links).
    /// - Throws: ``BackendError/cannotCreate(path:message:)`` when the file cannot be written;
    ///   ``BackendError/tagging(path:message:)`` with `tagging` when this Cairo does not write
    ///   the PDF the tagging pass reads (``CairoLayoutCheck``).
    public init(path: String, info: DocumentInfo, creationDate: Date?, tagging: PDFTagging? = nil) throws {
        CairoFaces.lock.lock()
        defer { CairoFaces.lock.unlock() }
        self.path = path
        self.info = info
        self.tagging = tagging
        RenderPictures.current.embedsCMYK = tagging?.archive == nil
        // The tagging pass reads the file Cairo writes: a Cairo that writes another is told
        // before anything is drawn.
        if tagging != nil, let problem = CairoLayoutCheck.problem {
            throw BackendError.tagging(path: path, message: problem)
        }
        let sink = try PDFFileSink(path: path)
        self.sink = sink
        let surface = cairo_pdf_surface_create_for_stream(
            PDFFileSink.writeFunction, Unmanaged.passUnretained(sink).toOpaque(),
            PaperSize.a4.width, PaperSize.a4.height)!
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            throw BackendError.cannotCreate(path: path, message: String(cString: cairo_status_to_string(status)))
        }
        self.surface = surface
        cr = cairo_create(surface)
        func meta(_ key: cairo_pdf_metadata_t, _ value: String?) {
            if let value, !value.isEmpty { cairo_pdf_surface_set_metadata(surface, key, PDFText.safe(value)) }
        }
        meta(CAIRO_PDF_METADATA_TITLE, info.title)
        meta(CAIRO_PDF_METADATA_AUTHOR, info.author)
        meta(CAIRO_PDF_METADATA_SUBJECT, info.subject)
        meta(CAIRO_PDF_METADATA_KEYWORDS, info.keywords.isEmpty ? nil : info.keywords.joined(separator: ", "))
        meta(CAIRO_PDF_METADATA_CREATOR, info.creator)
        if let creationDate {
            let stamp = Self.iso8601(creationDate)
            meta(CAIRO_PDF_METADATA_CREATE_DATE, stamp)
            meta(CAIRO_PDF_METADATA_MOD_DATE, stamp)
        }
        if tagging != nil, getenv("TYPESET_THREADS").map({ String(cString: $0) }) != "1" {
            earlyContent = EarlyContentRewrites()
            sink.capturing = earlyContent != nil
        }
    }

    deinit {
        earlyContent?.stop()
        CairoFaces.lock.lock()
        defer { CairoFaces.lock.unlock() }
        if tagging != nil, cairo_status(cr) != CAIRO_STATUS_SUCCESS {
            // Cairo 1.16 crashes finishing a tagged surface that has failed (a tag error):
            // the surface is left unfinished (its memory is not reclaimed; the temporary file
            // is removed or rewritten by the caller). Its file is closed here with what Cairo
            // still buffered dropped, and the sink outlives it, refusing every later write: the
            // abandoned surface can never write into the file again.
            sink.abandon()
            _ = Unmanaged.passRetained(sink)
            cairo_destroy(cr)
            return
        }
        if !finished {
            if documentTagOpen { cairo_tag_end(cr, "Document") }
            cairo_surface_finish(surface)
        }
        cairo_destroy(cr)
        cairo_surface_destroy(surface)
        sink.close()
    }

    /// `YYYY-MM-DDThh:mm:ssZ` in UTC, the form Cairo 1.16 accepts for PDF dates.
    static func iso8601(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let components = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ component: Int?) -> String {
            let digits = String(component ?? 0)
            return digits.count < 2 ? "0" + digits : digits
        }
        var year = String(components.year ?? 1970)
        while year.count < 4 { year = "0" + year }
        let day = "\(year)-\(two(components.month))-\(two(components.day))"
        return day + "T\(two(components.hour)):\(two(components.minute)):\(two(components.second))Z"
    }

    /// Draws `page` (sized to `page.size`) and emits it. Unreadable images draw nothing.
    /// - Throws: ``BackendError/cairo(path:message:)`` when Cairo enters an error state,
    ///   ``BackendError/tagging(path:message:)`` when it rejects the structure tags.
    public func render(_ page: Page) throws {
        try CairoFaces.lock.run { try renderLocked(page) }
    }

    private func renderLocked(_ page: Page) throws {
        guard try drawElements(of: page) else { return }
        if previewSink != nil {
            try endPreviewPage()
        } else {
            cairo_show_page(cr)
            handOverShownPage()
        }
        let status = cairo_status(cr)
        if status == CAIRO_STATUS_TAG_ERROR, tagging != nil {
            throw BackendError.tagging(path: path, message: String(cString: cairo_status_to_string(status)))
        }
        if status != CAIRO_STATUS_SUCCESS {
            throw BackendError.cairo(path: path, message: String(cString: cairo_status_to_string(status)))
        }
    }

    /// `body`'s result, in a turn with the render's Pango objects when a thread laying out
    /// paragraphs ahead shares them (``SharedFontMap``): for each element drawn through Pango.
    /// Lines whose glyphs that thread read out (``LineGlyphs``), and all that Cairo draws alone,
    /// take no turn.
    private func withFonts<T>(_ body: () throws -> T) rethrows -> T {
        guard let shared = SharedFontMap.current else { return try body() }
        return try shared.lock.run(body)
    }

    /// Draws `page`'s elements (``render(_:)``); false when a preview leaves the page out.
    private func drawElements(of page: Page) throws -> Bool {
        guard !finished else { throw BackendError.finished(path: path) }
        pageCount += 1
        if previewSink != nil {
            guard try beginPreviewPage(pageCount, size: page.size) else { return false }
        } else {
            cairo_pdf_surface_set_size(surface, page.size.width, page.size.height)
        }
        if !documentTagOpen {
            // Opened only after the first page's size is set: Cairo 1.16 writes a broken
            // structure tree (qpdf: object not found) when the size changes inside the tag
            // before anything was drawn.
            cairo_tag_begin(cr, "Document", nil)
            documentTagOpen = true
        }
        if tagging != nil {
            beginStructurePage()
            drawPageExtentMarker(page.size)
        }
        let rules = RuleBatches(page.elements)
        let linkAreas = Self.linkAreas(page.elements)
        for (index, element) in page.elements.enumerated() where !rules.skipped.contains(index) {
            switch element {
            case .text(let line, let x, let baseline):
                drawLine(line, x: x, baseline: baseline, at: index, of: page.elements)
            case .addedHyphen:
                // Drawn with the line before it (``hideAddedHyphen(of:)``).
                break
            case .wordSpace(let line, let x, let baseline):
                // Only for text read back from the PDF: a picture of the page shows nothing of it.
                guard previewSink == nil else { break }
                markContent()
                if tagging != nil { structure.addWordSpacePaint() }
                if let glyphs = line.glyphs as? LineGlyphs {
                    drawWordSpace(glyphs.space, x: x, baseline: baseline)
                } else {
                    withFonts { drawWordSpace(after: line, x: x, baseline: baseline) }
                }
            case .ornament(let line, let x, let baseline, let color):
                guard let handle = line.handle as? PangoLineHandle else { break }
                markContent()
                cairo_new_path(cr)
                cairo_move_to(cr, x, baseline)
                withFonts { pango_cairo_layout_line_path(cr, handle.line) }
                setColor(color)
                cairo_fill(cr)
            case .fill(let rect, let color):
                markContent()
                setColor(color)
                cairo_rectangle(cr, rect.x, rect.y, rect.width, rect.height)
                cairo_fill(cr)
            case .line(let from, let to, let width, let color):
                markContent()
                setColor(color)
                cairo_set_line_width(cr, width)
                cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT)
                for segment in rules.batches[index] ?? [(from, to)] {
                    cairo_move_to(cr, segment.from.x, segment.from.y)
                    cairo_line_to(cr, segment.to.x, segment.to.y)
                }
                cairo_stroke(cr)
            case .leader(let x, let baseline, let count, let dot, let pitch, let color):
                markContent()
                drawLeader(x: x, baseline: baseline, count: count, dot: dot, pitch: pitch, color: color)
            case .link(_, let target):
                let drawnLink = pendingLinks.isEmpty ? nil : pendingLinks.removeFirst()
                // One annotation for the rectangles of a link's lines on this page.
                guard let rects = linkAreas[index] else { break }
                let rectText =
                    "rect=["
                    + rects.map {
                        "\(PDFNames.number($0.x)) \(PDFNames.number($0.y)) \(PDFNames.number($0.width)) "
                            + "\(PDFNames.number($0.height))"
                    }.joined(separator: " ") + "]"
                let attributes: String
                switch target {
                case .external(let uri):
                    // Encoded once for the annotations of its pages.
                    if uri != lastURI.uri { lastURI = (uri, PDFNames.quoted(PDFNames.encodeURI(uri))) }
                    attributes = "uri=\(lastURI.attribute) \(rectText)"
                case .internal(let id):
                    attributes = "dest=\(destinationNames.quotedName(for: id)) \(rectText)"
                }
                cairo_tag_begin(cr, CAIRO_TAG_LINK, attributes)
                cairo_tag_end(cr, CAIRO_TAG_LINK)
                if tagging != nil { addAnnotation(of: drawnLink) }
            case .destination(let name, let point):
                let attributes =
                    "name=\(destinationNames.quotedName(for: name)) "
                    + "x=\(PDFNames.number(point.x)) y=\(PDFNames.number(point.y))"
                cairo_tag_begin(cr, CAIRO_TAG_DEST, attributes)
                cairo_tag_end(cr, CAIRO_TAG_DEST)
            case .outline(let entry, let point):
                addOutline(entry, at: point)
            case .image(let path, let rect):
                markContent()
                withFonts { drawImage(path: path, rect: rect) }
            case .structure(let path):
                if tagging != nil { enter(path) }
            }
        }
        if pageDrawsNewLargeFontTable {
            pageDrawsNewLargeFontTable = false
            drewLargeFontTable = true
            beforeLargeFontTableCopy?()
        }
        if unbalancesNextPageForTesting {
            unbalancesNextPageForTesting = false
            cairo_tag_end(cr, "Document")
            cairo_tag_end(cr, "Document")
        }
        return true
    }

    /// Closes the `Document` tag and the file; a tagged PDF is then completed by
    /// ``PDFAccessibility``.
    /// - Throws: ``BackendError/cairo(path:message:)`` for any error Cairo reports on finishing;
    ///   ``BackendError/tagging(path:message:)`` when the tagged file cannot be completed.
    public func finish() throws {
        guard !finished else { return }
        try CairoFaces.lock.run { try finishSurface() }
        // The tagging pass reads and writes the file alone: other renders' Pango and Cairo
        // work goes on meanwhile.
        try completeTagging()
    }

    /// Hands the bytes Cairo wrote for the page just shown, with the page's structure, to
    /// ``earlyContent``.
    private func handOverShownPage() {
        guard let earlyContent, let captured = sink.takeCaptured(), structure.pageCount > 0 else { return }
        let page = structure.pageCount - 1
        let extract = structure.pageExtract(page)
        earlyContent.pageWritten(
            captured.bytes, at: captured.offset, page: page, structure: extract.records, firstRun: extract.firstRun)
    }

    /// Ends the `Document` tag and finishes Cairo's surface and the file.
    private func finishSurface() throws {
        finished = true
        if documentTagOpen { cairo_tag_end(cr, "Document") }
        cairo_surface_finish(surface)
        // The pictures drawn are in the file: the next render reads its files afresh.
        ImageDecoder.releaseDecoded()
        ImageDecoder.releaseDrawnSVGs()
        var status = cairo_surface_status(surface)
        if status == CAIRO_STATUS_SUCCESS { status = cairo_status(cr) }
        if status != CAIRO_STATUS_SUCCESS {
            throw BackendError.cairo(path: path, message: String(cString: cairo_status_to_string(status)))
        }
        // The PDF is complete in the file before the tagging pass reads it.
        guard sink.close() else {
            throw BackendError.cairo(path: path, message: String(cString: strerror(sink.failure)))
        }
    }

    /// Completes a tagged file with ``PDFAccessibility`` (no Pango or Cairo call).
    private func completeTagging() throws {
        earlyContent?.finishWriting()
        if tagging == nil, completesTagging {
            // An untagged file gets its fonts' exact widths as an incremental update (the
            // tagging pass writes them itself). The file is complete without it: one not in
            // Cairo's layout, or that cannot be appended to, is left as Cairo wrote it.
            try? ExactWidths.update(path: path)
        }
        if let tagging, documentTagOpen, completesTagging {
            beforeTaggingPass?()
            let claimsUA = figuresHaveAlt && !(info.title ?? "").isEmpty
            do {
                let inPass = try PDFAccessibility.complete(
                    path: path, structure: structure, tagging: tagging, info: info, claimsUA: claimsUA,
                    early: earlyContent)
                let counts = earlyContent?.counts
                contentRewrites = (inPass, counts?.reused ?? 0, counts?.rewrittenAhead ?? 0)
            } catch let error as PDFAccessibility.Unmet {
                throw BackendError.unmetStandard(path: path, message: error.description)
            } catch {
                throw BackendError.tagging(path: path, message: String(describing: error))
            }
        }
    }

    /// For tests of the tagging pass: false leaves a tagged file as Cairo wrote it, markers and
    /// all, for ``PDFAccessibility`` to complete with ``recordedStructure``.
    var completesTagging = true
    /// The structure recorded so far (tagged PDFs only).
    var recordedStructure: StructureRecords { structure }

    /// For tests of the untagged fallback: the next page ends the `Document` tag twice, a
    /// nesting Cairo rejects when it emits the page, as it rejects any invalid tag; that
    /// ``render(_:)`` then throws ``BackendError/tagging(path:message:)``.
    var unbalancesNextPageForTesting = false

    // MARK: Structure

    /// Identity of an element: two marks with the same role, block and part are one element.
    struct ElementKey: Hashable {
        var role: StructureElement.Role
        var id: Int
        var index: Int
        init(_ element: StructureElement) {
            role = element.role
            id = element.id
            index = element.index
        }
    }

    /// Makes `requested` the open path: elements it leaves close, elements it adds open (an
    /// element entered lately goes on as the same element). An artifact leaves the open
    /// elements as they are: the furniture drawn next belongs to none of them.
    private func enter(_ requested: [StructureElement]) {
        if requested.last?.role == .artifact {
            setContentOwner(-1)
            return
        }
        var common = 0
        while common < openElements.count, common < requested.count, openElements[common].isSame(as: requested[common])
        { common += 1 }
        openElements.removeLast(openElements.count - common)
        openIndices.removeLast(openIndices.count - common)
        for element in requested[common...] {
            let key = ElementKey(element)
            let index: Int32
            if let recent = recentElements[key] {
                index = recent.index
            } else {
                index = structure.addElement(
                    .role(element.role), parent: openIndices.last ?? 0,
                    alternativeText: element.alternativeText, language: element.language,
                    headerScope: element.headerScope?.rawValue,
                    listNumbering: element.listNumbering?.structureAttributeName)
                if element.role == .figure, (element.alternativeText ?? "").trimmingCharacters(in: .whitespaces).isEmpty
                {
                    figuresHaveAlt = false
                }
            }
            recentElements[key] = (index, pageCount)
            openElements.append(element)
            openIndices.append(index)
        }
        setContentOwner(openIndices.last ?? 0)
    }

    private func setContentOwner(_ owner: Int32) {
        guard owner != contentOwner else { return }
        contentOwner = owner
        runOpen = false
    }

    /// A new page: its first content opens a run again; elements left for
    /// ``reentryPages`` pages are forgotten.
    private func beginStructurePage() {
        structure.beginPage()
        runOpen = false
        markersOnPage = 0
        inlineArtifactsOnPage = 0
        for element in openElements { recentElements[ElementKey(element)]?.page = pageCount }
        if pageCount % Self.reentryPages == 0 {
            recentElements = recentElements.filter { $0.value.page > pageCount - Self.reentryPages }
        }
    }

    /// The rectangles of each link annotation of a page, by the index of its first `.link`
    /// element: a link element that ends its line and those following it at the start of the
    /// next lines to the same target in the same structure element (the lines of one link
    /// wrapped over several lines, each line's `Link` element the same) are one annotation
    /// (Cairo's `rect` array, written as the annotation's `/QuadPoints`). A link's URI is then
    /// written once a page, not once a line: a URI of n bytes wrapped over n / c lines cost
    /// time and a file quadratic in n.
    static func linkAreas(_ elements: [PageElement]) -> [Int: [Rect]] {
        var areas: [Int: [Rect]] = [:]
        var open: (index: Int, target: LinkTarget, path: [StructureElement], endsLine: Bool)? = nil
        var path: [StructureElement] = []
        // The links of the line drawn last that hold its first and last glyph, and how many of
        // its links were met since (the `.link` elements after a line are its links in order).
        var edges: (first: Int?, last: Int?) = (nil, nil)
        var linkOfLine = 0
        for (index, element) in elements.enumerated() {
            switch element {
            case .text(let line, _, _):
                edges = line.links.isEmpty ? (nil, nil) : edgeLinks(of: line)
                linkOfLine = 0
            case .link(let rect, let target):
                if let current = open, current.endsLine, current.target == target, current.path == path,
                    edges.first == linkOfLine
                {
                    areas[current.index]!.append(rect)
                    open!.endsLine = edges.last == linkOfLine
                } else {
                    areas[index] = [rect]
                    open = (index, target, path, edges.last == linkOfLine)
                }
                linkOfLine += 1
            case .structure(let next):
                path = next
                if let current = open, current.path != next { open = nil }
            default:
                continue
            }
        }
        return areas
    }

    /// The link annotation just tagged belongs to `link`, the `Link` element its glyphs were
    /// drawn in; without one (a link drawn in furniture) to a new `Link` in the element open.
    private func addAnnotation(of link: Int32?) {
        structure.addAnnotation(of: link ?? structure.addLink(parent: openIndices.last ?? 0))
    }

    /// The structure paths of the `count` links of the line drawn at `elements[index]`: each
    /// `.link` that follows it is preceded by its path (``StructureMarks``), the block's
    /// element or a footnote marker's `Reference`.
    static func linkPaths(after index: Int, in elements: [PageElement], count: Int) -> [[StructureElement]] {
        var paths: [[StructureElement]] = []
        var path: [StructureElement] = []
        for element in elements[(index + 1)...] {
            guard paths.count < count else { break }
            switch element {
            case .structure(let next): path = next
            case .link: paths.append(path)
            case .addedHyphen, .wordSpace: continue
            default: return paths
            }
        }
        return paths
    }

    /// Draws a tagged line that holds links or pictures, or runs read in another order than
    /// they are drawn (`runsOutOfOrder`, ``ReadingOrder``), in pieces: its text outside the links
    /// in the open element, each link's glyphs in a run of its own `Link` element (PDF/UA-1
    /// §7.18.5), opened in the link's path (`linkPaths`, by link), and each picture
    /// (`pictures`, ``InlineImageShapes/pictures(of:)``) in a `Figure` of its own. A link that
    /// goes on from the end of the line before, to the same target in the same element, goes
    /// on in that line's `Link`. The `Link` elements wait in ``pendingLinks`` for their
    /// annotations.
    private func drawTextInPieces(
        _ line: ShapedLine, x: Double, baseline: Double, linkPaths: [[StructureElement]],
        pictures: [(range: Range<Double>, alternativeText: String)], runsOutOfOrder: [ReadingOrder.Run]?
    ) {
        let linePath = openElements
        let glyphs = Self.glyphMidpoints(of: line)
        // Sorted, so that whether a piece holds a glyph is a binary search.
        let midpoints = glyphs.map(\.middle).sorted()
        let spans = (line.handle as? PangoLineHandle).flatMap { LineRunSpans($0.line) }
        // A line set right to left is read from its right end: its pieces are drawn that way.
        let handle = line.handle as? PangoLineHandle
        let rightToLeft = handle?.line.pointee.resolved_dir == PANGO_DIRECTION_RTL.rawValue
        // A line that ends in a link (but for the space at its end) gives it that space too.
        let lastInk = glyphs.filter { !$0.space }.map(\.middle).max() ?? 0
        // Links are placed on the page scaled with a line's font expansion; the glyphs'
        // midpoints are the shaped advances, before that scale.
        let scale = line.horizontalScale
        // The links left to right (a line set right to left lists them from its right end).
        let leftToRight = line.links.indices.sorted { line.links[$0].x < line.links[$1].x }
        let endsInLink =
            !rightToLeft
            && leftToRight.last.map { (line.links[$0].x - line.x + line.links[$0].width) / scale > lastInk }
                == true
        var pieces: [(range: Range<Double>, link: Int?)] = []
        var position = -Double.infinity
        for k in leftToRight {
            let link = line.links[k]
            let start = max(position, (link.x - line.x) / scale)
            var end = max(start, (link.x - line.x + link.width) / scale)
            if endsInLink, k == leftToRight.last { end = .infinity }
            if start > position { pieces.append((position..<start, nil)) }
            pieces.append((start..<end, k))
            position = end
        }
        if position < .infinity { pieces.append((position..<Double.infinity, nil)) }
        // Drawn in the order they are read (``ReadingOrder``).
        let read: [ReadingOrder.Piece] =
            runsOutOfOrder.map { ReadingOrder.inReadingOrder(pieces, runs: $0) }
            ?? (rightToLeft ? pieces.reversed() : pieces).map { ($0.range, $0.link, rightToLeft) }
        let edges = Self.edgeLinks(of: line, glyphs: glyphs, rightToLeft: rightToLeft)
        // A stretch in the language its element reads in already (a paragraph that is one span
        // of another language reads in it whole) is no span of its own.
        let elementLanguage = (linePath.last { $0.language != nil }?.language ?? tagging?.language)?.lowercased()
        let languages = line.languages.filter { $0.language.lowercased() != elementLanguage }.map {
            (range: ($0.x - line.x) / scale..<($0.x - line.x + $0.width) / scale, language: $0.language)
        }.sorted { $0.range.lowerBound < $1.range.lowerBound }
        var linkElements = [Int32?](repeating: nil, count: line.links.count)
        for piece in read {
            var link: (target: LinkTarget, element: Int32)?
            if let linkIndex = piece.link {
                enter(linkIndex < linkPaths.count ? linkPaths[linkIndex] : linePath)
                let parent = openIndices.last ?? 0
                let target = line.links[linkIndex].target
                let element: Int32
                if let drawn = linkElements[linkIndex] {
                    // A link cut in two where a run ends (``ReadingOrder``): one element.
                    element = drawn
                } else if linkIndex == edges.first, let last = lastLink, last.endsLine, last.target == target,
                    last.parent == parent
                {
                    element = last.element
                } else {
                    element = structure.addLink(parent: parent)
                }
                lastLink = (target, parent, element, linkIndex == edges.last)
                linkElements[linkIndex] = element
                link = (target, element)
            } else {
                enter(linePath)
            }
            guard midpoints.sortedContains(in: piece.range) else { continue }
            if let link { setContentOwner(link.element) }
            drawPiece(
                line, x: x, baseline: baseline, range: piece.range, midpoints: midpoints, spans: spans,
                pictures: pictures, languages: languages, rightToLeft: piece.rightToLeft)
        }
        pendingLinks = linkElements.compactMap { $0 }
        // A line whose last glyph is a link's leaves that link's run open: the space after the
        // line (``PageElement/wordSpace(after:x:baseline:)``) is between two of its words when
        // it goes on at the next line.
        if !(endsInLink && runOpen && contentOwner == pendingLinks.last) { enter(linePath) }
    }

    /// The links of `line` (indices into its `links`) that hold its first and its last glyph
    /// of ink in reading order (from the right end of a line set `rightToLeft`), nil where
    /// text outside a link comes first or last: only a link that ends its line may go on at
    /// the start of the next, so two links to one target in one paragraph, each inside its
    /// line, stay two. `glyphs` are the line's (``glyphMidpoints(of:)``).
    static func edgeLinks(
        of line: ShapedLine, glyphs: [(middle: Double, space: Bool)], rightToLeft: Bool
    ) -> (first: Int?, last: Int?) {
        let ink = glyphs.filter { !$0.space }.map(\.middle)
        guard let low = ink.min(), let high = ink.max() else { return (nil, nil) }
        let scale = line.horizontalScale
        func link(at middle: Double) -> Int? {
            line.links.firstIndex { link in
                let start = (link.x - line.x) / scale
                return middle >= start && middle < start + link.width / scale
            }
        }
        return rightToLeft ? (link(at: high), link(at: low)) : (link(at: low), link(at: high))
    }

    /// ``edgeLinks(of:glyphs:rightToLeft:)`` of a line as it is drawn.
    static func edgeLinks(of line: ShapedLine) -> (first: Int?, last: Int?) {
        let rightToLeft = (line.handle as? PangoLineHandle)?.line.pointee.resolved_dir == PANGO_DIRECTION_RTL.rawValue
        return edgeLinks(of: line, glyphs: glyphMidpoints(of: line), rightToLeft: rightToLeft)
    }

    /// Draws the glyphs of `line` whose middle (`midpoints`, sorted) is in `range` as content
    /// of the content's owner, each picture among them (`pictures`) in a `Figure` of its own
    /// inside it, with its alternative text as `/Alt` (PDF/UA-1 §7.3), and each stretch in
    /// another language (`languages`, from ``ShapedLine/languages``) in a `Span` with that
    /// `/Lang` (PDF/UA-1 §7.2); from the right end of a line set `rightToLeft`. `spans` (nil:
    /// none) lets each part be drawn from its own runs.
    private func drawPiece(
        _ line: ShapedLine, x: Double, baseline: Double, range: Range<Double>, midpoints: [Double],
        spans: LineRunSpans?, pictures: [(range: Range<Double>, alternativeText: String)],
        languages: [(range: Range<Double>, language: String)], rightToLeft: Bool
    ) {
        let owner = contentOwner
        // A picture is drawn whole by the piece that holds its middle: a piece cut where a run
        // ends (``ReadingOrder``) may hold the end of a picture another piece holds (the last
        // part of a formula set in parts), whose glyphs it must leave alone.
        var range = range
        for picture in pictures where picture.range.overlaps(range) {
            let middle = (picture.range.lowerBound + picture.range.upperBound) / 2
            if middle < range.lowerBound {
                range = min(picture.range.upperBound, range.upperBound)..<range.upperBound
            } else if middle >= range.upperBound {
                range = range.lowerBound..<max(picture.range.lowerBound, range.lowerBound)
            }
        }
        var cuts: [(range: Range<Double>, alternativeText: String?)] = []
        var position = range.lowerBound
        // The end of the last picture cut: a picture this piece holds is drawn whole, from its
        // own start, even where it begins in the piece before.
        var pictureEnd = -Double.infinity
        for picture in pictures where range.contains((picture.range.lowerBound + picture.range.upperBound) / 2) {
            let start = max(pictureEnd, picture.range.lowerBound)
            let end = max(start, picture.range.upperBound)
            if start > position { cuts.append((position..<start, nil)) }
            cuts.append((start..<end, picture.alternativeText))
            position = max(position, end)
            pictureEnd = end
        }
        if position < range.upperBound { cuts.append((position..<range.upperBound, nil)) }
        var pieces: [(range: Range<Double>, alternativeText: String?, language: String?)] = []
        for cut in cuts {
            guard cut.alternativeText == nil else {
                pieces.append((cut.range, cut.alternativeText, nil))
                continue
            }
            var start = cut.range.lowerBound
            for span in languages where span.range.overlaps(cut.range) {
                let inside = span.range.clamped(to: cut.range)
                if inside.lowerBound > start { pieces.append((start..<inside.lowerBound, nil, nil)) }
                pieces.append((max(start, inside.lowerBound)..<inside.upperBound, nil, span.language))
                start = max(start, inside.upperBound)
            }
            if start < cut.range.upperBound { pieces.append((start..<cut.range.upperBound, nil, nil)) }
        }
        for cut in rightToLeft ? pieces.reversed() : pieces where midpoints.sortedContains(in: cut.range) {
            if let language = cut.language, owner >= 0 {
                setContentOwner(structure.addElement(.role(.span), parent: owner, language: language))
            } else if let text = cut.alternativeText, text.hasPrefix("\u{0}"), owner >= 0 {
                // A formula (``MathShapes``): a `Formula` whose `/Alt` is its TeX source, and
                // whose glyphs read as that source when copied (`/ActualText`).
                let source = String(text.dropFirst())
                let formula = structure.addElement(
                    .role(.formula), parent: owner, alternativeText: source, actualText: source)
                setContentOwner(formula)
            } else if let text = cut.alternativeText, owner >= 0 {
                let figure = structure.addElement(
                    .role(.figure), parent: owner, alternativeText: text.isEmpty ? nil : text)
                if text.isEmpty { figuresHaveAlt = false }
                setContentOwner(figure)
            } else {
                setContentOwner(owner)
            }
            markContent()
            drawText(line, x: x, baseline: baseline, only: cut.range, spans: spans)
        }
        setContentOwner(owner)
    }

    /// Draws the line `elements[index]` (``PageElement/text(_:x:baseline:)``): when tagged, in
    /// pieces around its links and pictures (``drawTextInPieces(_:x:baseline:linkPaths:pictures:runsOutOfOrder:)``),
    /// and with an added hyphen that follows it drawn on its own (``hideAddedHyphen(of:)``).
    private func drawLine(_ line: ShapedLine, x: Double, baseline: Double, at index: Int, of elements: [PageElement]) {
        let tagged = tagging != nil && previewSink == nil
        if let glyphs = line.glyphs as? LineGlyphs,
            !(tagged && contentOwner >= 0 && !(line.links.isEmpty && line.languages.isEmpty)),
            glyphs.paints == nil || tagged
        {
            var hyphen: LineGlyphs.Hyphen?
            if tagged, index + 1 < elements.count, case .addedHyphen = elements[index + 1] { hyphen = glyphs.hyphen }
            pendingLinks.removeAll()
            markContent()
            let copies = beginCopyText(of: line)
            drawGlyphs(glyphs, x: x, baseline: baseline, scale: line.horizontalScale, hiding: hyphen)
            if copies { endCopyText() }
            if let paints = glyphs.paints { structure.addPaint(paints) }
            if let hyphen {
                let run = glyphs.runs[hyphen.run]
                drawAddedHyphen(
                    (run.glyphs[hyphen.glyph].index, hyphen.xOffset, hyphen.yOffset), of: run.scaledFont.raw,
                    color: run.color, origin: x + hyphen.offset * line.horizontalScale, baseline: baseline,
                    scale: line.horizontalScale)
            }
            return
        }
        withFonts { drawLineWithFonts(line, x: x, baseline: baseline, at: index, of: elements) }
    }

    /// Draws a line through Pango (``drawLine(_:x:baseline:at:of:)``).
    private func drawLineWithFonts(
        _ line: ShapedLine, x: Double, baseline: Double, at index: Int, of elements: [PageElement]
    ) {
        if line.readsAsNothing, previewSink == nil, let handle = line.handle as? PangoLineHandle {
            markContent()
            drawReadingAsNothing(handle.line, x: x, baseline: baseline)
            return
        }
        pendingLinks.removeAll()
        let tagged = tagging != nil && previewSink == nil
        var hyphen: HiddenHyphen?
        if tagged, index + 1 < elements.count, case .addedHyphen = elements[index + 1] {
            hyphen = hideAddedHyphen(of: line)
        }
        if let handle = line.handle as? PangoLineHandle, let paints = handle.paints, !paints.backgrounds.isEmpty {
            drawTokenBackgrounds(of: handle.line, paints: paints, x: x, baseline: baseline)
        }
        let pictures =
            tagged && contentOwner >= 0
            ? (line.handle as? PangoLineHandle).map { InlineImageShapes.pictures(of: $0.line) } ?? [] : []
        let runsOutOfOrder =
            tagged && contentOwner >= 0
            ? (line.handle as? PangoLineHandle).flatMap { ReadingOrder.runsOutOfOrder(of: $0.line) } : nil
        if tagged, contentOwner >= 0,
            !line.links.isEmpty || !line.languages.isEmpty || !pictures.isEmpty || runsOutOfOrder != nil
        {
            let paths = Self.linkPaths(after: index, in: elements, count: line.links.count)
            drawTextInPieces(
                line, x: x, baseline: baseline, linkPaths: paths, pictures: pictures, runsOutOfOrder: runsOutOfOrder)
        } else {
            markContent()
            if tagged, line.copyText != nil, let handle = line.handle as? PangoLineHandle {
                primeSpaces(of: Self.fonts(of: handle.line), x: x, baseline: baseline)
            }
            let copies = beginCopyText(of: line)
            drawText(line, x: x, baseline: baseline)
            if copies { endCopyText() }
        }
        if let hyphen {
            hyphen.restore()
            if let font = hyphen.run.pointee.item.pointee.analysis.font,
                let scaled = pango_cairo_font_get_scaled_font(OpaquePointer(font))
            {
                let geometry = hyphen.glyph.geometry
                drawAddedHyphen(
                    (UInt(hyphen.glyph.glyph), geometry.x_offset, geometry.y_offset), of: scaled,
                    color: Self.foreground(of: hyphen.run), origin: x + hyphen.offset * line.horizontalScale,
                    baseline: baseline, scale: line.horizontalScale)
            }
        }
    }

    /// Fills the backgrounds of a highlighted code line's tokens (``CodePaints/backgrounds``)
    /// behind its glyphs, each as tall as the line's logical extents: furniture (an artifact,
    /// as the code's panel is), after which the line's own element goes on in a run of its own.
    private func drawTokenBackgrounds(
        of line: UnsafeMutablePointer<PangoLayoutLine>, paints: CodePaints, x: Double, baseline: Double
    ) {
        let rects = paints.backgroundRects(of: line)
        guard !rects.isEmpty else { return }
        var logical = PangoRectangle()
        pango_layout_line_get_extents(line, nil, &logical)
        let top = baseline + Double(logical.y) / Double(PANGO_SCALE)
        let height = Double(logical.height) / Double(PANGO_SCALE)
        let owner = contentOwner
        if tagging != nil {
            setContentOwner(-1)
            markContent()
        }
        for rect in rects {
            setColor(rect.color)
            cairo_rectangle(cr, x + rect.x, top, rect.width, height)
            cairo_fill(cr)
        }
        if tagging != nil { setContentOwner(owner) }
    }

    /// The middle of each glyph of `line` that draws (a picture's box among them), pt from the
    /// line's start, and whether it stands for a space.
    private static func glyphMidpoints(of line: ShapedLine) -> [(middle: Double, space: Bool)] {
        guard let handle = line.handle as? PangoLineHandle, let layout = handle.line.pointee.layout,
            let text = pango_layout_get_text(layout)
        else { return [] }
        var midpoints: [(middle: Double, space: Bool)] = []
        var advance: Int32 = 0
        var node = handle.line.pointee.runs
        while let current = node {
            let run = current.pointee.data.assumingMemoryBound(to: PangoGlyphItem.self)
            let glyphs = run.pointee.glyphs.pointee
            let shaped = hasAttribute(PANGO_ATTR_SHAPE, run)
            for index in 0..<Int(glyphs.num_glyphs) {
                let info = glyphs.glyphs[index]
                if info.glyph != PANGO_GLYPH_EMPTY || shaped {
                    let byte = Int(run.pointee.item.pointee.offset) + Int(glyphs.log_clusters[index])
                    midpoints.append(
                        ((Double(advance) + Double(info.geometry.width) / 2) / Double(PANGO_SCALE), text[byte] == 0x20))
                }
                advance += info.geometry.width
            }
            node = current.pointee.next
        }
        return midpoints
    }

    /// Before drawing: when no run is open for the content's owner, opens one with a
    /// ``ContentMarker``.
    private func markContent() {
        guard tagging != nil, !runOpen else { return }
        runOpen = true
        structure.addRun(owner: contentOwner)
        let corner = ContentMarker.position(markersOnPage)
        markersOnPage += 1
        cairo_save(cr)
        cairo_new_path(cr)
        cairo_set_source_rgb(cr, 0, 0, 0)
        cairo_rectangle(cr, corner.x, corner.y, ContentMarker.side, ContentMarker.side)
        cairo_fill(cr)
        cairo_restore(cr)
    }

    /// Before the page's first content (tagged PDFs only): the page's extent marker
    /// (``ContentMarker/pageExtentCorner``), two ``ContentMarker/side`` squares at opposite
    /// corners filled as one path. Cairo 1.16 analyses a page before writing it, adding each
    /// drawing's bounding box (whole points) to a region of what it can write natively; adding
    /// a box costs a walk over the region's rectangles, which a page of many small drawings (a
    /// run a footnote reference, a link, an emphasis span) splits into thousands, so a page's
    /// analysis grows with the square of its drawings. With the page's whole box in the region
    /// first, every later box lies inside it and adds in constant time. The tagging pass
    /// removes the path: the pages read as they would without it.
    private func drawPageExtentMarker(_ size: PaperSize) {
        let side = ContentMarker.side
        cairo_save(cr)
        cairo_new_path(cr)
        cairo_set_source_rgb(cr, 0, 0, 0)
        cairo_rectangle(cr, 0, 0, side, side)
        // Inside the page's whole points: a drawing reaching past them is clipped by Cairo.
        let corner = (x: max(0, size.width.rounded(.down) - 1), y: max(0, size.height.rounded(.down) - 1))
        cairo_rectangle(cr, corner.x, corner.y, side, side)
        cairo_fill(cr)
        cairo_restore(cr)
    }

    // MARK: Drawing

    /// Sets `cr`'s source to `color` (16 bits a channel, as Pango's attributes give it), opaque,
    /// outside any saved state: the colour stays set for what is drawn next.
    private func setSource(_ color: PangoColor) {
        cairo_set_source_rgb(cr, Double(color.red) / 65535, Double(color.green) / 65535, Double(color.blue) / 65535)
    }

    private func setColor(_ color: RGBAColor) {
        if color.alpha >= 1 {
            cairo_set_source_rgb(cr, color.red, color.green, color.blue)
        } else {
            cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
        }
    }

    /// Draws a dot leader (``PageElement/leader(x:baseline:count:dot:pitch:color:)``) as one
    /// stroke along the dots' middle, `dot` pt wide with butt caps and a dash of `dot` pt on,
    /// `pitch − dot` off (PDF 1.7 §8.4.3.6): each dash is one square dot, and the page holds one
    /// path for the row, not a rectangle and a fill a dot.
    private func drawLeader(x: Double, baseline: Double, count: Int, dot: Double, pitch: Double, color: RGBAColor) {
        guard count > 0 else { return }
        cairo_save(cr)
        setColor(color)
        cairo_set_line_width(cr, dot)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT)
        var dashes = [dot, max(0, pitch - dot)]
        cairo_set_dash(cr, &dashes, 2, 0)
        cairo_move_to(cr, x, baseline - dot / 2)
        cairo_line_to(cr, x + Double(count - 1) * pitch + dot, baseline - dot / 2)
        cairo_stroke(cr)
        cairo_restore(cr)
    }

    /// Draws the line with its left edge at `x` and its baseline at `baseline`: only the
    /// glyphs whose middle is in `only` (pt from the line's start), the others left empty for
    /// the drawing (``PANGO_GLYPH_EMPTY`` keeps their advance). Stroked runs get their glyph
    /// outlines stroked first; the normal fill goes on top, so the text stays selectable and
    /// half the stroke shows outside the glyphs. A run's background, underline and
    /// strikethrough are drawn with the part that holds its first glyph, so that a piece of a
    /// line drawn in pieces never covers another piece's glyphs with a background.
    ///
    /// With `spans`, a part is drawn from the runs that reach into `only` alone
    /// (``LineRunSpans``), so that drawing a line in pieces costs its glyphs once.
    private func drawText(
        _ line: ShapedLine, x: Double, baseline: Double, only: Range<Double> = -Double.infinity..<Double.infinity,
        spans: LineRunSpans? = nil
    ) {
        guard let handle = line.handle as? PangoLineHandle else { return }
        if let spans, only != -Double.infinity..<Double.infinity {
            spans.withRuns(touching: only, of: handle.line) {
                drawRuns(of: handle, x: x, baseline: baseline, only: only, scale: line.horizontalScale)
            }
        } else {
            drawRuns(of: handle, x: x, baseline: baseline, only: only, scale: line.horizontalScale)
        }
    }

    /// Draws the runs in `handle`'s line list (``drawText(_:x:baseline:only:spans:)``), scaled
    /// horizontally by `scale` (the line's font expansion) from `x`.
    private func drawRuns(
        of handle: PangoLineHandle, x: Double, baseline: Double, only: Range<Double>, scale: Double
    ) {
        let whole = only == -Double.infinity..<Double.infinity
        let undecorated = whole ? [] : Self.withoutDecorations(handle.line, outside: only)
        defer {
            for (run, attributes) in undecorated {
                g_slist_free(run.pointee.item.pointee.analysis.extra_attrs)
                run.pointee.item.pointee.analysis.extra_attrs = attributes
            }
        }
        var hidden: [(glyphs: UnsafeMutablePointer<PangoGlyphInfo>, glyph: PangoGlyph)] = []
        if !whole {
            var advance: Int32 = 0
            var node = handle.line.pointee.runs
            while let current = node {
                let glyphs = current.pointee.data.assumingMemoryBound(to: PangoGlyphItem.self).pointee.glyphs.pointee
                for index in 0..<Int(glyphs.num_glyphs) {
                    let info = glyphs.glyphs + index
                    let middle = (Double(advance) + Double(info.pointee.geometry.width) / 2) / Double(PANGO_SCALE)
                    if info.pointee.glyph != PANGO_GLYPH_EMPTY, !only.contains(middle) {
                        hidden.append((info, info.pointee.glyph))
                        info.pointee.glyph = PANGO_GLYPH_EMPTY
                    }
                    advance += info.pointee.geometry.width
                }
                node = current.pointee.next
            }
        }
        let inPieces = !whole
        if inPieces { InlineImageShapes.setDrawnRange((x + only.lowerBound)..<(x + only.upperBound), on: cr) }
        defer {
            for entry in hidden { entry.glyphs.pointee.glyph = entry.glyph }
            if inPieces { InlineImageShapes.setDrawnRange(nil, on: cr) }
        }
        // Font expansion: the glyphs drawn scaled from the line's left edge (the text matrix
        // carries the scale, so the glyphs stay text and extraction reads the same letters).
        cairo_save(cr)
        defer { cairo_restore(cr) }
        Self.scaleHorizontally(cr, by: scale, from: x)
        if !handle.strokes.isEmpty {
            cairo_save(cr)
            for run in handle.strokes {
                cairo_new_path(cr)
                cairo_move_to(cr, x + run.x, baseline - run.rise)
                pango_cairo_glyph_string_path(
                    cr, run.glyphItem.pointee.item.pointee.analysis.font,
                    run.glyphItem.pointee.glyphs)
                setColor(run.stroke.color)
                cairo_set_line_width(cr, run.stroke.width)
                cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
                cairo_stroke(cr)
            }
            cairo_restore(cr)
        }
        if previewSink == nil { noteFonts(of: handle.line) }
        if let paints = handle.paints {
            drawPainted(handle.line, paints: paints, x: x, baseline: baseline)
            return
        }
        let standIns = ColorGlyphRuns.draw(
            handle.line, cr: cr, x: x, baseline: baseline, standIns: previewSink == nil, tagged: tagging != nil,
            primeSpaces: { primeSpaces(of: $0, x: x, baseline: baseline) },
            draw: {
                cairo_move_to(cr, x, baseline)
                pango_cairo_show_layout_line(cr, handle.line)
                cairo_new_path(cr)
            })
        noteStandIns(standIns)
    }

    /// Draws a highlighted code line (``CodePaints``). In a tagged PDF the line is drawn in its
    /// one colour, as a plain line is, and its stretches of other colours are recorded with the
    /// open run for the tagging pass to paint (``StructureRecords/addPaint(_:)``). Otherwise
    /// (a picture of the page, an untagged PDF, a line with a glyph its fonts lack, which the
    /// tagging pass could not count) each stretch of one colour is drawn on its own, in order,
    /// the other glyphs hidden.
    private func drawPainted(
        _ line: UnsafeMutablePointer<PangoLayoutLine>, paints: CodePaints, x: Double, baseline: Double
    ) {
        func show() {
            let standIns = ColorGlyphRuns.draw(
                line, cr: cr, x: x, baseline: baseline, standIns: previewSink == nil, tagged: tagging != nil,
                primeSpaces: { primeSpaces(of: $0, x: x, baseline: baseline) },
                draw: {
                    cairo_move_to(cr, x, baseline)
                    pango_cairo_show_layout_line(cr, line)
                    cairo_new_path(cr)
                })
            noteStandIns(standIns)
        }
        if tagging != nil, previewSink == nil, runOpen, let runPaints = paints.runPaints(of: line) {
            show()
            structure.addPaint(runPaints)
            return
        }
        // Each stretch of glyphs of one colour, in drawing order, the others hidden.
        var glyphs: [(info: UnsafeMutablePointer<PangoGlyphInfo>, glyph: PangoGlyph, color: RGBAColor)] = []
        var node = line.pointee.runs
        while let current = node {
            node = current.pointee.next
            let run = current.pointee.data.assumingMemoryBound(to: PangoGlyphItem.self)
            let offset = Int(run.pointee.item.pointee.offset)
            let string = run.pointee.glyphs.pointee
            for index in 0..<Int(string.num_glyphs) where string.glyphs[index].glyph != PANGO_GLYPH_EMPTY {
                let color = paints.color(atByte: offset + Int(string.log_clusters[index]))
                glyphs.append((string.glyphs + index, string.glyphs[index].glyph, color))
            }
        }
        defer {
            for entry in glyphs { entry.info.pointee.glyph = entry.glyph }
            CodePaints.setForeground(paints.base, of: line)
        }
        var start = 0
        while start < glyphs.count {
            let color = glyphs[start].color
            var end = start + 1
            while end < glyphs.count, glyphs[end].color == color { end += 1 }
            for (index, entry) in glyphs.enumerated() {
                entry.info.pointee.glyph = (start..<end).contains(index) ? entry.glyph : PANGO_GLYPH_EMPTY
            }
            CodePaints.setForeground(color, of: line)
            show()
            start = end
        }
    }

    /// Draws `line`'s glyphs as Pango places them, each run in its font and foreground colour,
    /// with `cairo_show_text_glyphs` and one cluster of no text for all of a run's glyphs:
    /// Cairo then writes them inside a span whose replacement text is empty
    /// (`/Span << /ActualText <feff> >> BDC`, PDF 1.7 §14.9.4), which text extraction and
    /// copying read as nothing.
    private func drawReadingAsNothing(_ line: UnsafeMutablePointer<PangoLayoutLine>, x: Double, baseline: Double) {
        var advance = 0.0
        for run in line.glyphItems {
            let string = run.pointee.glyphs.pointee
            guard let font = run.pointee.item.pointee.analysis.font,
                let scaled = pango_cairo_font_get_scaled_font(OpaquePointer(font))
            else { continue }
            var glyphs: [cairo_glyph_t] = []
            for index in 0..<Int(string.num_glyphs) {
                let info = string.glyphs[index]
                defer { advance += Double(info.geometry.width) / Double(PANGO_SCALE) }
                guard info.glyph != PANGO_GLYPH_EMPTY, info.glyph & 0x1000_0000 == 0 else { continue }
                glyphs.append(
                    cairo_glyph_t(
                        index: UInt(info.glyph), x: x + advance + Double(info.geometry.x_offset) / Double(PANGO_SCALE),
                        y: baseline + Double(info.geometry.y_offset) / Double(PANGO_SCALE)))
            }
            guard !glyphs.isEmpty else { continue }
            if let colour = Self.foreground(of: run) { setSource(colour) }
            cairo_set_scaled_font(cr, scaled)
            var cluster = cairo_text_cluster_t(num_bytes: 0, num_glyphs: Int32(glyphs.count))
            cairo_show_text_glyphs(cr, "", 0, &glyphs, Int32(glyphs.count), &cluster, 1, cairo_text_cluster_flags_t(0))
        }
    }

    /// Draws a line from the glyphs read out of it (``LineGlyphs``), as ``drawText(_:x:baseline:only:spans:)``
    /// draws it whole through Pango, with the added hyphen `hiding` left out.
    private func drawGlyphs(
        _ glyphs: LineGlyphs, x: Double, baseline: Double, scale: Double, hiding: LineGlyphs.Hyphen?
    ) {
        cairo_save(cr)
        defer { cairo_restore(cr) }
        Self.scaleHorizontally(cr, by: scale, from: x)
        if previewSink == nil {
            for (font, cffBytes) in glyphs.fonts
            where fontsSeen.insert(font).inserted && cffBytes >= Self.largeFontTable {
                pageDrawsNewLargeFontTable = true
            }
        }
        cairo_move_to(cr, x, baseline)
        glyphs.draw(on: cr, hiding: hiding)
        cairo_new_path(cr)
    }

    /// Notes the texts of colour clusters drawn as stand-ins (``ColorGlyphRuns``) for the
    /// tagging pass, which gives each its own text face.
    private func noteStandIns(_ clusters: [(text: String, extra: Double)]) {
        guard tagging != nil else { return }
        for cluster in clusters { structure.addStandIn(cluster.text, extra: cluster.extra) }
    }

    /// Scales what is drawn next on `cr` horizontally by `scale` about the vertical line at
    /// `x` (nothing when `scale` is 1).
    private static func scaleHorizontally(_ cr: OpaquePointer, by scale: Double, from x: Double) {
        guard scale != 1 else { return }
        cairo_translate(cr, x, 0)
        cairo_scale(cr, scale, 1)
        cairo_translate(cr, -x, 0)
    }

    /// The last glyph of a line that ends in an added hyphenation hyphen, hidden from the
    /// line's drawing (``PANGO_GLYPH_EMPTY`` keeps its advance) to be drawn on its own.
    private struct HiddenHyphen {
        let run: UnsafeMutablePointer<PangoGlyphItem>
        let index: Int
        let glyph: PangoGlyphInfo
        /// Its origin's distance from the line's start, pt.
        let offset: Double

        func restore() { run.pointee.glyphs.pointee.glyphs[index] = glyph }
    }

    /// Hides the hyphen `line` ends in: its last drawn glyph, when the text it stands for is
    /// `-` and the line runs left to right; nil otherwise (the line is then drawn whole).
    private func hideAddedHyphen(of line: ShapedLine) -> HiddenHyphen? {
        guard let handle = line.handle as? PangoLineHandle, let layout = handle.line.pointee.layout,
            let text = pango_layout_get_text(layout)
        else { return nil }
        var found: (run: UnsafeMutablePointer<PangoGlyphItem>, index: Int, offset: Int32)?
        var advance: Int32 = 0
        var node = handle.line.pointee.runs
        while let current = node {
            let run = current.pointee.data.assumingMemoryBound(to: PangoGlyphItem.self)
            let glyphs = run.pointee.glyphs.pointee
            for index in 0..<Int(glyphs.num_glyphs) {
                let info = glyphs.glyphs[index]
                if info.glyph != PANGO_GLYPH_EMPTY, info.glyph & PANGO_GLYPH_UNKNOWN_FLAG == 0, info.geometry.width > 0
                {
                    found = (run, index, advance)
                }
                advance += info.geometry.width
            }
            node = current.pointee.next
        }
        guard let found, found.run.pointee.item.pointee.analysis.level % 2 == 0 else { return nil }
        let glyphs = found.run.pointee.glyphs.pointee
        let byte = Int(found.run.pointee.item.pointee.offset) + Int(glyphs.log_clusters[found.index])
        guard UInt8(bitPattern: text[byte]) == 0x2D else { return nil }
        let hidden = HiddenHyphen(
            run: found.run, index: found.index, glyph: glyphs.glyphs[found.index],
            offset: Double(found.offset) / Double(PANGO_SCALE))
        glyphs.glyphs[found.index].glyph = PANGO_GLYPH_EMPTY
        return hidden
    }

    /// Draws the added hyphen `glyph` of `font` (its offsets in Pango units) with its origin at
    /// `origin` on `baseline`, scaled horizontally by `scale` from there, in `color` (nil: the
    /// colour in effect), between the squares the tagging pass makes its own marked content
    /// (``ContentMarker/hyphenSides``).
    private func drawAddedHyphen(
        _ glyph: (index: UInt, x: Int32, y: Int32), of font: OpaquePointer, color: PangoColor?, origin: Double,
        baseline: Double, scale: Double
    ) {
        markInlineArtifact(ContentMarker.hyphenSides.before)
        if let color { setSource(color) }
        cairo_save(cr)
        Self.scaleHorizontally(cr, by: scale, from: origin)
        cairo_move_to(cr, origin, baseline)
        LineGlyphs.show(glyph.index, x: glyph.x, y: glyph.y, of: font, on: cr)
        cairo_restore(cr)
        markInlineArtifact(ContentMarker.hyphenSides.after)
        inlineArtifactsOnPage += 1
    }

    /// In a tagged PDF, when `line` copies as another text than its glyphs read as
    /// (``ShapedLine/copyText``) and is drawn in a run of an element: records the text and
    /// fills the square before the line's glyphs (``ContentMarker/copySides``), which the
    /// tagging pass makes the start of marked content with that `/ActualText` (PDF 1.7
    /// §14.9.4). Returns whether it did; ``endCopyText()`` then follows the glyphs.
    private func beginCopyText(of line: ShapedLine) -> Bool {
        guard tagging != nil, previewSink == nil, runOpen, contentOwner >= 0, let text = line.copyText else {
            return false
        }
        structure.addCopyText(text)
        markInlineArtifact(ContentMarker.copySides.before)
        return true
    }

    /// Fills the square after the glyphs of a line that copies as another text
    /// (``beginCopyText(of:)``).
    private func endCopyText() {
        markInlineArtifact(ContentMarker.copySides.after)
        inlineArtifactsOnPage += 1
    }

    /// Fills the square of `side` (pt) at the place of the page's next added hyphen or primed
    /// space (``ContentMarker/position(_:)``), which the tagging pass makes the start or the
    /// end of an artifact in the line's run.
    private func markInlineArtifact(_ side: Double) {
        let corner = ContentMarker.position(inlineArtifactsOnPage)
        cairo_save(cr)
        cairo_new_path(cr)
        cairo_set_source_rgb(cr, 0, 0, 0)
        cairo_rectangle(cr, corner.x, corner.y, side, side)
        cairo_fill(cr)
        cairo_restore(cr)
    }

    /// Draws the space glyph of each of `fonts` (the faces whose space a line's stand-ins are
    /// about to draw) as a space, at the line's origin `x` on `baseline`, once a document for
    /// each Cairo font face. Cairo 1.16 gives a glyph of a font subset, as its ToUnicode entry,
    /// the text it is first drawn with when that text is one character
    /// (`_cairo_sub_font_map_glyph`): a stand-in drawn first would make every later space of
    /// its face read as the stand-in's emoji or missing character. Drawn first as a space, the
    /// glyph keeps U+0020, and each stand-in is written inside its span of replacement text. In
    /// a tagged PDF the space is an artifact of the line's run (``ContentMarker/primeSides``);
    /// the space shows nothing, and poppler's text extraction skips space glyphs. A line that
    /// copies as another text (``ShapedLine/copyText``) has all its faces primed before the
    /// square that opens its copy text: an artifact among those glyphs would end their marked
    /// content.
    private func primeSpaces(of fonts: [UnsafeMutablePointer<PangoFont>], x: Double, baseline: Double) {
        for font in fonts {
            guard let scaled = pango_cairo_font_get_scaled_font(OpaquePointer(font)),
                let face = cairo_scaled_font_get_font_face(scaled), !primedFaces.contains(face),
                let space = ColorGlyphStandIns.spaceGlyph(font)
            else { continue }
            if tagging != nil {
                guard runOpen else { continue }
                markInlineArtifact(ContentMarker.primeSides.before)
            }
            ColorGlyphStandIns.showSpace(space, of: font, on: cr, x: x, baseline: baseline)
            if tagging != nil {
                markInlineArtifact(ContentMarker.primeSides.after)
                inlineArtifactsOnPage += 1
            }
            primedFaces.insert(face)
        }
    }

    /// Draws a space glyph of `line`'s last face (one that is not a colour font) with its
    /// origin at `x` on `baseline` and no advance: it shows nothing, and text extraction reads
    /// a space there (``PageElement/wordSpace(after:x:baseline:)``). Nothing is drawn when no
    /// face of the line has a space.
    private func drawWordSpace(after line: ShapedLine, x: Double, baseline: Double) {
        guard let handle = line.handle as? PangoLineHandle else { return }
        var chosen: (font: UnsafeMutablePointer<PangoFont>, glyph: hb_codepoint_t)?
        var colour: PangoColor?
        var node = handle.line.pointee.runs
        while let current = node {
            let run = current.pointee.data.assumingMemoryBound(to: PangoGlyphItem.self)
            var glyph: hb_codepoint_t = 0
            if let font = run.pointee.item.pointee.analysis.font, !ColorFonts.isColorFont(font),
                let hb = pango_font_get_hb_font(font), hb_font_get_nominal_glyph(hb, 0x20, &glyph) != 0
            {
                chosen = (font, glyph)
                colour = Self.foreground(of: run)
            }
            node = current.pointee.next
        }
        guard let chosen else { return }
        // In the run's own colour: the text's colour stays set, so the page's content stream
        // names no colour for the space and none again for the next line.
        if let colour { setSource(colour) }
        ColorGlyphStandIns.showSpace(PangoGlyph(chosen.glyph), of: chosen.font, on: cr, x: x, baseline: baseline)
    }

    /// Draws the word space read out of a line (``LineGlyphs/space``), as
    /// ``drawWordSpace(after:x:baseline:)`` draws it through Pango.
    private func drawWordSpace(_ space: LineGlyphs.Space?, x: Double, baseline: Double) {
        guard let space else { return }
        if let colour = space.color { setSource(colour) }
        ColorGlyphStandIns.moveToSpaceOrigin(on: cr, x: x, baseline: baseline)
        LineGlyphs.show(space.glyph, of: space.scaledFont.raw, on: cr)
    }

    /// Takes the backgrounds, underlines, strikethroughs and overlines off the runs of `line`
    /// whose first glyph's middle is not in `range` (pt from the line's start; each such run's
    /// attribute list replaced by a filtered copy); returns each run changed with its own
    /// list, to be put back (the copy freed) after drawing.
    private static func withoutDecorations(
        _ line: UnsafeMutablePointer<PangoLayoutLine>, outside range: Range<Double>
    ) -> [(
        run: UnsafeMutablePointer<PangoGlyphItem>, attributes: UnsafeMutablePointer<GSList>?
    )] {
        let dropped = [
            PANGO_ATTR_BACKGROUND, PANGO_ATTR_UNDERLINE, PANGO_ATTR_STRIKETHROUGH, PANGO_ATTR_OVERLINE,
        ]
        var changed: [(run: UnsafeMutablePointer<PangoGlyphItem>, attributes: UnsafeMutablePointer<GSList>?)] = []
        var node = line.pointee.runs
        var advance: Int32 = 0
        while let current = node {
            let run = current.pointee.data.assumingMemoryBound(to: PangoGlyphItem.self)
            let glyphs = run.pointee.glyphs.pointee
            let first = glyphs.num_glyphs > 0 ? glyphs.glyphs[0].geometry.width : 0
            let middle = (Double(advance) + Double(first) / 2) / Double(PANGO_SCALE)
            for index in 0..<Int(glyphs.num_glyphs) { advance += glyphs.glyphs[index].geometry.width }
            node = current.pointee.next
            if range.contains(middle) { continue }
            let original = run.pointee.item.pointee.analysis.extra_attrs
            var kept: UnsafeMutablePointer<GSList>?
            var attributes = original
            while let current = attributes {
                let type = current.pointee.data.assumingMemoryBound(to: PangoAttribute.self).pointee.klass.pointee.type
                if !dropped.contains(type) { kept = g_slist_prepend(kept, current.pointee.data) }
                attributes = current.pointee.next
            }
            run.pointee.item.pointee.analysis.extra_attrs = g_slist_reverse(kept)
            changed.append((run, original))
        }
        return changed
    }

    /// Whether `run` carries an attribute of `type` (a picture's shape: ``InlineImageShapes``).
    private static func hasAttribute(_ type: PangoAttrType, _ run: UnsafeMutablePointer<PangoGlyphItem>) -> Bool {
        var node = run.pointee.item.pointee.analysis.extra_attrs
        while let current = node {
            if current.pointee.data.assumingMemoryBound(to: PangoAttribute.self).pointee.klass.pointee.type == type {
                return true
            }
            node = current.pointee.next
        }
        return false
    }

    /// The foreground colour Pango draws `run` in (or its colour of `part`, a colour
    /// attribute's type), nil when it has none of its own.
    static func foreground(
        of run: UnsafeMutablePointer<PangoGlyphItem>, part: PangoAttrType = PANGO_ATTR_FOREGROUND
    ) -> PangoColor? {
        var node = run.pointee.item.pointee.analysis.extra_attrs
        while let current = node {
            let attribute = current.pointee.data.assumingMemoryBound(to: PangoAttribute.self)
            if attribute.pointee.klass.pointee.type == part {
                return UnsafeMutableRawPointer(attribute).assumingMemoryBound(to: PangoAttrColor.self).pointee.color
            }
            node = current.pointee.next
        }
        return nil
    }

    /// The fonts of `line`'s runs, in order, each as often as it has runs.
    static func fonts(of line: UnsafeMutablePointer<PangoLayoutLine>) -> [UnsafeMutablePointer<PangoFont>] {
        var fonts: [UnsafeMutablePointer<PangoFont>] = []
        var node = line.pointee.runs
        while let current = node {
            let run = current.pointee.data.assumingMemoryBound(to: PangoGlyphItem.self)
            if let font = run.pointee.item.pointee.analysis.font { fonts.append(font) }
            node = current.pointee.next
        }
        return fonts
    }

    /// Looks at each font of `line` not drawn before: one with a large `CFF ` table marks the
    /// page (``beforeLargeFontTableCopy``).
    private func noteFonts(of line: UnsafeMutablePointer<PangoLayoutLine>) {
        var node = line.pointee.runs
        while let current = node {
            let run = current.pointee.data.assumingMemoryBound(to: PangoGlyphItem.self)
            if let font = run.pointee.item.pointee.analysis.font,
                fontsSeen.insert(UnsafeMutableRawPointer(font)).inserted,
                Self.cffTableBytes(font) >= Self.largeFontTable
            {
                pageDrawsNewLargeFontTable = true
            }
            node = current.pointee.next
        }
    }

    /// The length of `font`'s `CFF ` table, bytes (0: none), as HarfBuzz reads it from the
    /// face's file (a view of the mapped file, not a copy).
    static func cffTableBytes(_ font: UnsafeMutablePointer<PangoFont>) -> Int {
        guard let hb = pango_font_get_hb_font(font), let face = hb_font_get_face(hb) else { return 0 }
        // HB_TAG('C','F','F',' ')
        let blob = hb_face_reference_table(face, 0x4346_4620)
        defer { hb_blob_destroy(blob) }
        return Int(hb_blob_get_length(blob))
    }

    private func addOutline(_ entry: OutlineEntry, at point: Point) {
        guard previewSink == nil else { return }
        while let last = outlineStack.last, last.level >= entry.level { outlineStack.removeLast() }
        let parent = outlineStack.last?.id ?? Int32(CAIRO_PDF_OUTLINE_ROOT)
        let link = "page=\(pageCount) pos=[\(PDFNames.number(point.x)) \(PDFNames.number(point.y))]"
        let flags = entry.level <= 1 ? CAIRO_PDF_OUTLINE_FLAG_OPEN : cairo_pdf_outline_flags_t(rawValue: 0)
        let id = cairo_pdf_surface_add_outline(surface, parent, PDFText.safe(entry.title), link, flags)
        outlineStack.append((entry.level, id))
    }

    private func drawImage(path: String, rect: Rect) {
        ImageDecoder.draw(path, in: rect, on: cr)
    }
}
