import Styling

/// A tagged PDF's logical structure (PDF 1.7 §14.7) as the renderer draws it, kept compactly
/// (a few integers an element and a run) until ``TaggedPDFRewriter`` writes it into the file.
///
/// Cairo 1.16 keeps a structure tag of its own for every element until the file is finished
/// (about 170 bytes each: 32 MiB for a document of 7,000 pages), so elements are not Cairo
/// tags: the renderer marks where marked content begins with a ``ContentMarker`` and records
/// here which element each run of content belongs to. Only `Document` and `Link` are Cairo
/// tags (Cairo writes the link annotations, and needs `Document` around them).
///
/// - An *element* has a role, a parent (`-1` for the document element, index 0) and optional
///   `/Alt` and `/Lang`.
/// - A *run* is one marked-content sequence on one page (`/P << /MCID 3 >> BDC … EMC`), owned
///   by an element, or an artifact (`/Artifact BMC … EMC`, owner `-1`, no MCID).
/// - An element's kids (`/K`), in order, are elements and the runs it owns.
package struct StructureRecords {
    /// What an element is.
    package enum ElementType: Equatable {
        /// `Document`, element 0, around everything.
        case document
        /// `Link`: the marked content of the link's glyphs and its link annotations (one a
        /// page the link is drawn on).
        case link
        /// A standard structure type (`P`, `TD`…).
        case role(StructureElement.Role)

        /// The structure type written in `/S` and in the marked content's tag.
        var structureType: String {
            switch self {
            case .document: return "Document"
            case .link: return "Link"
            case .role(let role): return role.rawValue
            }
        }
    }

    /// Each element's type.
    private(set) var types: [ElementType] = []
    /// Each element's parent, `-1` for the document element.
    private(set) var parents: [Int32] = []
    /// `/Alt` and `/Lang` by element, for the few elements that carry them.
    private(set) var attributes: [Int32: (alternativeText: String?, language: String?)] = [:]
    /// The `/Scope` of each `TH` that heads other than its column (`Row`, `Both`), by element.
    private(set) var headerScopes: [Int32: String] = [:]
    /// The `/ListNumbering` of each numbered `L` (PDF 1.7 §14.8.5.5, Table 347), by element.
    private(set) var listNumberings: [Int32: String] = [:]
    /// The replacement text (`/ActualText`, PDF 1.7 §14.9.4) of the marked content of the few
    /// elements whose glyphs do not read as their text (a formula's, whose text is its TeX
    /// source), by element.
    private(set) var actualTexts: [Int32: String] = [:]
    /// Kids in the order they were added: `kidOwner[k]` gains `kidValue[k]`, an element index
    /// (`>= 0`) or a run (`-1 - run`).
    private(set) var kidOwner: [Int32] = []
    private(set) var kidValue: [Int32] = []
    /// Each run's owner (`-1`: an artifact) and marked-content id on its page (`-1` for an
    /// artifact).
    private(set) var runOwner: [Int32] = []
    private(set) var runMCID: [Int32] = []
    /// The first run of each page: page `p`'s runs are `pageRuns[p]..<pageRuns[p + 1]` (or to
    /// the end for the last page).
    private(set) var pageRuns: [Int32] = []
    /// The `Link` element of each link annotation, in the order their Cairo `Link` tags began
    /// (a link drawn on two pages has two annotations, so its element is here twice).
    private(set) var links: [Int32] = []
    /// MCIDs given on the current page.
    private var nextMCID: Int32 = 0
    /// The fill colours the tagging pass paints over glyphs of a run (``RunPaint``), by run,
    /// as indices into ``paintColors`` (-1: the colour Cairo drew them in; -2: spaces).
    private(set) var paints: [Int32: [(glyphs: Int32, color: Int32)]] = [:]
    /// Each colour painted, as the operator that sets it (`0.627 0.118 0.169 rg`).
    private(set) var paintColors: [[UInt8]] = []
    private var paintColorIndex: [PaintColorKey: Int32] = [:]
    /// The texts of the colour clusters (emoji) the renderer drew as stand-in glyphs inside
    /// spans of replacement text, as UTF-16BE code units (the form of Cairo's `/ActualText
    /// <feff…>`): the tagging pass draws each with a text face of its own
    /// (``MarkedContentRewrite/GlyphSubstitution``).
    private(set) var standIns: Set<[UInt8]> = []
    /// By run, the stand-ins it draws, in order: how much wider than the stand-in's glyph each
    /// cluster's advance is, em of the stand-in's font (``StandInAdvance``).
    private(set) var standInExtras: [Int32: [Double]] = [:]
    /// By run, the texts its code lines copy as, in the order they are drawn: each the
    /// `/ActualText` (PDF 1.7 §14.9.4) of the glyphs the renderer drew between the squares of
    /// ``ContentMarker/copySides``.
    private(set) var copyTexts: [Int32: [String]] = [:]
    /// The level of the last heading added (0 before the first).
    private var headingLevel = 0

    /// The document element (index 0), created with the records.
    package init() {
        types.append(.document)
        parents.append(-1)
    }

    var elementCount: Int { types.count }
    var runCount: Int { runOwner.count }
    package var pageCount: Int { pageRuns.count }

    /// A new element of `type` under `parent`, with `/Alt` and `/Lang` when given, a `TH`'s
    /// `/Scope` when it is not `Column` (``headerScopes``), a numbered `L`'s `/ListNumbering`
    /// (``listNumberings``), and `actualText` as the
    /// replacement text of its marked content (``actualTexts``).
    ///
    /// Headings never skip a level in the tree (PDF/UA-1 ISO 14289-1 §7.4.2): a heading is
    /// tagged at most one level below the heading added before it, the first one `H1`, so
    /// `#` followed by `###` reads `H1`, `H2`. Elements are added in reading order.
    package mutating func addElement(
        _ type: ElementType, parent: Int32, alternativeText: String? = nil,
        language: String? = nil, headerScope: String? = nil, listNumbering: String? = nil, actualText: String? = nil
    ) -> Int32 {
        let element = Int32(types.count)
        var type = type
        if case .role(let role) = type, let level = role.headingLevel {
            headingLevel = min(level, headingLevel + 1)
            type = .role(.heading(level: headingLevel))
        }
        types.append(type)
        parents.append(parent)
        if alternativeText != nil || language != nil { attributes[element] = (alternativeText, language) }
        if let actualText { actualTexts[element] = actualText }
        if let headerScope { headerScopes[element] = headerScope }
        if let listNumbering { listNumberings[element] = listNumbering }
        kidOwner.append(parent)
        kidValue.append(element)
        return element
    }

    /// A new `Link` element under `parent`; its runs and annotations follow
    /// (``addRun(owner:)``, ``addAnnotation(of:)``).
    package mutating func addLink(parent: Int32) -> Int32 {
        addElement(.link, parent: parent)
    }

    /// The next Cairo `Link` tag's annotation belongs to `link`, a `Link` element.
    package mutating func addAnnotation(of link: Int32) {
        links.append(link)
    }

    /// A colour cluster whose text is `text` was drawn in the last run added as a stand-in
    /// glyph inside a span of replacement text (``standIns``), its advance `extra` em of the
    /// stand-in's font wider than the glyph's own (``standInExtras``).
    package mutating func addStandIn(_ text: String, extra: Double) {
        standIns.insert(text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })
        guard let run = runOwner.indices.last.map(Int32.init) else { return }
        standInExtras[run, default: []].append(extra)
    }

    /// The glyphs drawn next in the last run added, up to the square after them
    /// (``ContentMarker/copySides``), copy as `text`.
    package mutating func addCopyText(_ text: String) {
        guard let run = runOwner.indices.last.map(Int32.init) else { return }
        copyTexts[run, default: []].append(text)
    }

    /// Starts a page: its runs follow.
    package mutating func beginPage() {
        pageRuns.append(Int32(runOwner.count))
        nextMCID = 0
    }

    /// A new run on the current page owned by `owner` (`-1`: an artifact); returns its index.
    @discardableResult
    package mutating func addRun(owner: Int32) -> Int32 {
        let run = Int32(runOwner.count)
        runOwner.append(owner)
        if owner >= 0 {
            runMCID.append(nextMCID)
            nextMCID += 1
            kidOwner.append(owner)
            kidValue.append(-1 - run)
        } else {
            runMCID.append(-1)
        }
        return run
    }

    /// The glyphs the last run added shows next, in the fill colours the tagging pass paints
    /// them in: ``MarkedContentRewrite`` splits the run's text-showing operators where the
    /// colour changes and sets each colour with `rg` (PDF 1.7 §8.6.8), in the text object.
    package mutating func addPaint(_ segments: [RunPaint]) {
        guard let run = runOwner.indices.last.map(Int32.init) else { return }
        // Changed in place: a copy taken out and stored back would copy the list each line.
        var list = paints.removeValue(forKey: run) ?? []
        defer { paints[run] = list }
        // The colours met in these segments: a line's stretches alternate among a few, found
        // in this short list without hashing.
        var seen: [(key: PaintColorKey, index: Int32)] = []
        for segment in segments where segment.glyphs > 0 {
            let color: Int32
            if let fill = segment.color {
                let key = PaintColorKey(red: fill.red, green: fill.green, blue: fill.blue)
                if let known = seen.first(where: { $0.key == key }) {
                    color = known.index
                } else if let known = paintColorIndex[key] {
                    color = known
                    seen.append((key, known))
                } else {
                    color = Int32(paintColors.count)
                    let components = [fill.red, fill.green, fill.blue].map(Self.component)
                    paintColors.append(Array((components.joined(separator: " ") + " rg\n").utf8))
                    paintColorIndex[key] = color
                    seen.append((key, color))
                }
            } else {
                color = segment.isSpace ? -2 : -1
            }
            if let last = list.last, last.color == color {
                list[list.count - 1].glyphs += segment.glyphs
            } else {
                list.append((segment.glyphs, color))
            }
        }
    }

    /// Records the word space drawn after a line (a space glyph of its last face, which text
    /// extraction reads) in the open run, when the run's glyphs are painted: the tagging pass
    /// counts it among them, as a space, whatever font draws it.
    package mutating func addWordSpacePaint() {
        guard let run = runOwner.indices.last.map(Int32.init), paints[run] != nil else { return }
        addPaint([RunPaint(spaces: 1)])
    }

    /// A colour component 0…1 written with six decimals, as Cairo writes its own (three would
    /// move an 8-bit component by one: 0.627 is 159.9 of 255 where 0.627451 is 160).
    static func component(_ value: Double) -> String {
        let millionths = Int((min(max(value, 0), 1) * 1_000_000).rounded())
        if millionths == 1_000_000 { return "1" }
        if millionths == 0 { return "0" }
        var digits = String(millionths)
        digits = String(repeating: "0", count: 6 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "0." + digits
    }

    /// Page `p`'s share of the records, enough to rewrite its content stream apart from the
    /// rest (``MarkedContentRewrite``): its runs numbered from 0, with their MCIDs, paints, copy
    /// texts and owners (their types and replacement texts, numbered in the order the runs meet them);
    /// and the document's number of the page's first run. It costs the page's runs, so a copy
    /// per page does not grow with the document.
    package func pageExtract(_ p: Int) -> (records: StructureRecords, firstRun: Int) {
        let pageRunRange = runs(onPage: p)
        var extract = StructureRecords()
        extract.pageRuns = [0]
        var localOwner: [Int32: Int32] = [:]
        for run in pageRunRange {
            let owner = runOwner[run]
            var local: Int32 = -1
            if owner >= 0 {
                if let known = localOwner[owner] {
                    local = known
                } else {
                    local = Int32(extract.types.count)
                    localOwner[owner] = local
                    extract.types.append(types[Int(owner)])
                    extract.parents.append(-1)
                    if let text = actualTexts[owner] { extract.actualTexts[local] = text }
                }
            }
            extract.runOwner.append(local)
            extract.runMCID.append(runMCID[run])
            if let list = paints[Int32(run)] { extract.paints[Int32(run - pageRunRange.lowerBound)] = list }
            if let extras = standInExtras[Int32(run)] {
                extract.standInExtras[Int32(run - pageRunRange.lowerBound)] = extras
            }
            if let texts = copyTexts[Int32(run)] { extract.copyTexts[Int32(run - pageRunRange.lowerBound)] = texts }
        }
        extract.paintColors = paintColors
        extract.standIns = standIns
        return (extract, pageRunRange.lowerBound)
    }

    /// The runs of page `p`.
    func runs(onPage p: Int) -> Range<Int> {
        Int(pageRuns[p])..<(p + 1 < pageRuns.count ? Int(pageRuns[p + 1]) : runOwner.count)
    }
}

extension StructureElement.Role {
    /// 1…6 for `H1` … `H6`, nil for other roles.
    var headingLevel: Int? {
        switch self {
        case .heading1: return 1
        case .heading2: return 2
        case .heading3: return 3
        case .heading4: return 4
        case .heading5: return 5
        case .heading6: return 6
        default: return nil
        }
    }
}

/// A paint colour's sRGB components, to find the colour's index among those written.
struct PaintColorKey: Hashable {
    var red: Double
    var green: Double
    var blue: Double
}

/// Glyphs of a run that the tagging pass paints in one fill colour (``StructureRecords/addPaint(_:)``).
package struct RunPaint: Sendable {
    /// How many glyphs: codes of the run's strings, as ``MarkedContentRewrite`` reads them.
    package var glyphs: Int32
    /// sRGB components, each 0…1; nil for the colour the glyphs were drawn in, or for spaces.
    package var color: (red: Double, green: Double, blue: Double)?
    /// Whether the glyphs are spaces, which keep the colour in effect.
    package var isSpace = false

    /// `glyphs` glyphs in `color`.
    package init(glyphs: Int32, color: (red: Double, green: Double, blue: Double)?) {
        self.glyphs = glyphs
        self.color = color
    }

    /// `count` space glyphs (U+0020, U+00A0): they keep the colour in effect, and the content
    /// stream may leave them out (Cairo writes nothing for a drawing of spaces alone whose
    /// box rounds to nothing).
    package init(spaces count: Int32) {
        glyphs = count
        color = nil
        isSpace = true
    }
}
