import Foundation

/// Where a run of marked content begins, as the renderer draws it into a page's content
/// stream: a filled square of 1/256 pt (Cairo's smallest fill that is not dropped, written
/// `x y 0.004 0.004 re f`) at the top left of the page. ``MarkedContentRewrite`` replaces each
/// with the run's `BDC` (PDF 1.7 §14.6), so no marker is left in a tagged file; a page whose
/// markers are not all found, in order, fails the tagging pass (and the document is written
/// untagged, with a warning). Only a tagged PDF's pages carry markers.
///
/// The `k`-th marker of a page sits at ``position(_:)``: one of 64 × 64 places a quarter point
/// apart within 17 pt of the corner. A square of that size anywhere else, or inside a nested
/// graphics state (a dot in an SVG picture, drawn inside `q … Q`), is content, not a marker.
package enum ContentMarker {
    /// The square's side, pt.
    package static let side = 1.0 / 256
    /// The side as Cairo 1.16 prints it in the content stream.
    package static let printedSide = Array("0.004".utf8)

    /// The sides of the squares around an added hyphenation hyphen, pt, drawn at
    /// ``position(_:)`` of the page's `k`-th such hyphen: before it and after it.
    package static let hyphenSides = (before: 2.0 / 256, after: 3.0 / 256)
    /// ``hyphenSides`` as Cairo 1.16 prints them.
    package static let printedHyphenSides = (before: Array("0.008".utf8), after: Array("0.012".utf8))

    /// The sides of the squares around a space glyph drawn only so that Cairo maps the glyph to
    /// U+0020 before any stand-in draws it (the renderer's primed space), pt, drawn at
    /// ``position(_:)`` of the page's `k`-th added hyphen or primed space: before it and after
    /// it. The space is an artifact.
    package static let primeSides = (before: 4.0 / 256, after: 5.0 / 256)
    /// ``primeSides`` as Cairo 1.16 prints them.
    package static let printedPrimeSides = (before: Array("0.016".utf8), after: Array("0.02".utf8))

    /// The sides of the squares around glyphs that copy as another text than they read as (a
    /// code line whose source has tabs, ``StructureRecords/addCopyText(_:)``), pt, drawn at
    /// ``position(_:)`` of the page's `k`-th added hyphen, primed space or such span: before
    /// the glyphs and after them.
    package static let copySides = (before: 6.0 / 256, after: 7.0 / 256)
    /// ``copySides`` as Cairo 1.16 prints them.
    package static let printedCopySides = (before: Array("0.023".utf8), after: Array("0.027".utf8))

    /// The top left corner of the first square of a page's extent marker, pt from the page's
    /// top left: a path of two squares of ``side``, this one and one at the page's bottom right
    /// corner, filled before anything else is drawn on a tagged page (so that Cairo's analysis
    /// of the page adds each later drawing's box to one rectangle; see the renderer). Cairo
    /// writes it `0 0 m … h X Y m … h X Y m f`; ``MarkedContentRewrite`` removes it.
    package static let pageExtentCorner = (x: 0.0, y: 0.0)

    /// The top left corner of the page's `k`-th marker, pt from the page's top left.
    package static func position(_ k: Int) -> (x: Double, y: Double) {
        (0.5 + Double(k % 64) * 0.25, 0.5 + Double(k / 64 % 64) * 0.25)
    }
}

/// The tagging pass's rewrite of one page's content stream (``TaggedPDFRewriter``):
/// - each ``ContentMarker`` becomes the `BDC` of the page's next run (`/P << /MCID 3 >> BDC`,
///   or `/Artifact BMC` for furniture), after an `EMC` closing the run before it; a run open at
///   the `Q` that ends the graphics state it began in is closed before it (marked content and
///   `q … Q` nest);
/// - Cairo's `/Link << /MCID n >> BDC` and its `EMC` go: Cairo writes them, empty, with each
///   link annotation; the link's glyphs are runs of the `Link` element, begun by markers;
/// - Cairo's `/Document << /MCID n >> BDC` and its `EMC` go (the document holds no content
///   of its own);
/// - a run closed by the `Q` that ends its graphics state goes on after the `q` that follows at
///   the same depth (Cairo's `Q q`, which resets the clip before an image or a clipped
///   drawing) as a *continuation*: more marked content of the same element (or artifact), with
///   an MCID after the page's own (``Rewritten/continued``), so that what Cairo draws there is
///   not left outside every run (PDF/UA-1 ISO 14289-1 §7.1: content is tagged or an artifact);
/// - the squares around an added hyphenation hyphen (``ContentMarker/hyphenSides``) end the
///   open run before the hyphen and go on with a continuation after it; the hyphen itself is
///   an artifact whose `/ActualText` is the soft hyphen U+00AD (PDF 1.7 §14.8.2.2.1 and
///   §14.9.4), so the word reads whole through the structure tree, and as the word with a soft
///   hyphen at the line's end from the content stream;
/// - the squares around a primed space (``ContentMarker/primeSides``) do the same, and the
///   space between them is an artifact without replacement text;
/// - the squares around the glyphs of a code line that copies as its source
///   (``ContentMarker/copySides``) end the open run before the glyphs; the glyphs are a
///   continuation whose `/ActualText` is the line's copy text (``StructureRecords/addCopyText(_:)``,
///   PDF 1.7 §14.9.4), and the run goes on after them as another continuation;
/// - an empty `/Span << /ActualText … >> BDC EMC` goes (Cairo writes one for the added
///   hyphen the line's drawing leaves out);
/// - any other `/Span << /ActualText … >> BDC` of Cairo's inside a run of an element (a
///   ligature glyph, a small capital drawn with a capital's glyph: a glyph that stands for
///   other characters than its ToUnicode entry says) ends the run; what it holds is a
///   continuation whose property list carries the `/ActualText` (PDF 1.7 §14.9.4), and the
///   run goes on after it as another continuation. Nested in the run, it would end the run
///   early for readers that pair `EMC` with the nearest `BDC` (poppler's structure text);
/// - `/Span << /ActualText <feff0020> >> BDC` and its `EMC` go: Cairo writes this marked
///   content for the space Pango leaves at a line's end; it is empty, or holds the space
///   glyph the renderer draws after a line that breaks between words (which then reads as the
///   space). Inside a run it would end that run early for readers that pair `EMC` with the
///   nearest `BDC`.
///
/// The stream is read token by token (strings, names, arrays and dictionaries skipped as PDF
/// 1.7 §7.2 reads them), so glyph codes in a string never pass for an operator.
enum MarkedContentRewrite {
    struct Mismatch: Error, CustomStringConvertible { var description: String }

    /// A page's content stream rewritten, and the runs it continues.
    struct Rewritten {
        var bytes: [UInt8]
        /// The run each continuation with an MCID goes on, in order: the `k`-th has MCID
        /// `mcids + k`, where `mcids` is the number of the page's runs with an MCID.
        var continued: [Int32]
        /// The glyphs drawn, in the continuations that carry Cairo's replacement text, with
        /// the text face of their font (``GlyphSubstitution``), in order.
        var substitutions: [GlyphSubstitution] = []
    }

    /// Glyphs drawn in a span of replacement text: a glyph that stands for other characters
    /// than its font's ToUnicode entry says (a small capital drawn with the capital's glyph
    /// stands for the small letter). They are drawn with the font's *text face*: the resource
    /// named ``textFaceSuffix`` after the font's (`/f-1-0-t` for `/f-1-0`), a copy of the font
    /// whose ToUnicode maps the glyph to the replacement text, which the pass adds to the page's
    /// resources, so that readers of ToUnicode alone (pypdf, poppler's structure text) read
    /// the characters too.
    struct GlyphSubstitution: Equatable {
        /// The font's resource name, without its solidus.
        var font: String
        /// The codes shown (one byte each for a simple font, two for Identity-H).
        var codes: [UInt8]
        /// The replacement text as UTF-16BE code units after the byte-order mark.
        var text: [UInt8]
        /// The suffix of the text face's resource name after the font's: ``textFaceSuffix``,
        /// or a stand-in's (``standInFaceSuffix(_:)``).
        var face = MarkedContentRewrite.textFaceSuffix
    }

    /// The suffix of a text face's resource name (``GlyphSubstitution``).
    static let textFaceSuffix = "-t"

    /// The suffix of the resource name of the text face that draws the stand-in glyphs of a
    /// colour cluster (an emoji) whose text is `text` (UTF-16BE code units,
    /// ``StructureRecords/standIns``): `-e` and the code units in hexadecimal digits
    /// (`/f-1-0-ed83cdfb5` for U+1F3B5). One face a text, so that one glyph (the space a
    /// stand-in draws) maps to a different emoji in each, whatever emoji a page shows: a
    /// ToUnicode CMap maps a code to one text.
    static func standInFaceSuffix(_ text: [UInt8]) -> String {
        "-e" + Hexadecimal.digits(text)
    }

    /// `bytes` (a page's decoded content stream) rewritten for `runs` of `structure`.
    /// - Throws: ``Mismatch`` when the markers and links found are not the page's runs.
    static func rewritten(_ bytes: UnsafeBufferPointer<UInt8>, runs: Range<Int>, structure: StructureRecords) throws
        -> [UInt8]
    {
        try rewrittenWithContinuations(bytes, runs: runs, structure: structure).bytes
    }

    /// `bytes` (a page's decoded content stream) rewritten for `runs` of `structure`, with the
    /// continuations it needed.
    /// - Throws: ``Mismatch`` when the markers and links found are not the page's runs.
    static func rewrittenWithContinuations(
        _ bytes: UnsafeBufferPointer<UInt8>, runs: Range<Int>, structure: StructureRecords
    ) throws -> Rewritten {
        var page = PageRewrite(bytes, runs: runs, structure: structure)
        var lexer = PDFLexer(bytes)
        while let token = lexer.next() {
            guard token.isOperator else {
                page.operands.append(token.range)
                continue
            }
            try page.take(token.range, lexer: lexer)
        }
        return try page.finished()
    }

    /// The rewrite of one page's content stream as its operators are read.
    private struct PageRewrite {
        let bytes: UnsafeBufferPointer<UInt8>
        let runs: Range<Int>
        var out: [UInt8] = []
        /// The source's bytes before this are in `out`, rewritten.
        var copied = 0
        var operatorCount = 0
        var stack: [Open] = []
        var state: RunCursor
        var markers = 0
        /// The graphics-state depth (`q` … `Q`), and the depth at which the open run began.
        var depth = 0
        var runDepth = 0
        /// The run closed by a `Q`, to go on after a `q` back at its depth.
        var closedRun: Int?
        /// The operands of the operator being read.
        var operands: [Range<Int>] = []
        /// The operands of the last operator when it was `re`, and where they began.
        var rectangle: (operands: [Range<Int>], start: Int)?
        /// The page's extent marker (``ContentMarker/pageExtentCorner``) while its path is
        /// read: where the path began and its `m` operators so far; nil once it is removed or
        /// anything else was drawn first.
        var extentPath: (start: Int?, moves: Int)? = (nil, 0)
        /// Cairo's `/Span << /ActualText … >> BDC` in an open run with an MCID, held until its
        /// first operator shows whether it is empty: its range and replacement text.
        var pendingSpan: (range: Range<Int>, actualText: String)?
        var faces: TextFaces
        /// The advance of a colour cluster's stand-in glyph (``StandInAdvance``).
        var standIn = StandInAdvance()
        /// The glyphs' own colours, painted inside the text objects (code blocks), when the
        /// page's runs record any.
        var painter: GlyphPainter?
        /// Between the markers of an inline artifact (an added hyphen, a primed space): its
        /// glyphs are none of the run's, which the painter counts.
        var insideInlineArtifact = false

        init(_ bytes: UnsafeBufferPointer<UInt8>, runs: Range<Int>, structure: StructureRecords) {
            self.bytes = bytes
            self.runs = runs
            state = RunCursor(runs: runs, structure: structure)
            faces = TextFaces(bytes: bytes)
            painter = GlyphPainter.paints(structure, runs: runs) ? GlyphPainter(structure: structure) : nil
            out.reserveCapacity(bytes.count + runs.count * 24)
        }

        mutating func replace(_ range: Range<Int>, with replacement: [UInt8]) {
            out.append(contentsOf: bytes[copied..<range.lowerBound])
            out.append(contentsOf: replacement)
            copied = range.upperBound
        }

        /// Reads the operator at `range`, whose operands are ``operands``.
        mutating func take(_ range: Range<Int>, lexer: PDFLexer) throws {
            let start = operands.first?.lowerBound ?? range.lowerBound
            let whole = start..<range.upperBound
            operatorCount += 1
            defer { operands.removeAll(keepingCapacity: true) }
            let previous = rectangle
            rectangle = nil
            let name = lexer.operatorName(range)
            if extentPath != nil, extentMarker(name, start: start, end: range.upperBound, lexer: lexer) { return }
            if let span = pendingSpan, name != .EMC {
                // The span holds content: the run ends before it, the span's content is a
                // continuation of the run that carries the replacement text, and the run goes on
                // after it as another continuation. Inside glyphs that copy as another text, the
                // span goes instead: nested in the continuation that carries the copy text, its
                // replacement text would stand in for that text with readers of `/ActualText`
                // (poppler), and ending that continuation would leave the glyphs after the span
                // without copy text.
                if state.insideCopy {
                    replace(span.range, with: [])
                } else {
                    let continued = state.continuation(of: state.cursor - 1, actualText: span.actualText)
                    replace(span.range, with: Array("EMC".utf8) + continued)
                }
                pendingSpan = nil
                let text = MarkedContentRewrite.utf16(span.actualText)
                let standIn = text.map { state.structure.standIns.contains($0) } ?? false
                if standIn {
                    self.standIn.extra = self.standIn.next(
                        in: Int32(state.cursor - 1), of: state.structure.standInExtras)
                }
                faces.begin(
                    text,
                    face: standIn ? MarkedContentRewrite.standInFaceSuffix(text!) : MarkedContentRewrite.textFaceSuffix)
            }
            // The adjustment after a stand-in's span becomes the stand-in's own advance.
            var standInCut: Range<Int>?
            // (Two clusters in a row: the adjustment comes in the next one's span.)
            if let shown = standIn.ended, name != .BDC {
                if name == .TJ, let adjustment = StandInAdvance.leadingAdjustment(operands, lexer: lexer),
                    let size = faces.font.flatMap({ Double($0.size) })
                {
                    StandInAdvance.insertSpacing(-adjustment.value / 1000 * size, around: shown, in: &out)
                    standInCut = adjustment.cut
                    operands.removeSubrange(1...2)
                    standIn.ended = nil
                } else if name == .Tj || name == .TJ {
                    // Text goes on from the stand-in's own advance: nothing to move.
                    standIn.ended = nil
                } else if name == .ET || lexer.positionsText(range) {
                    // The text object ends, or the next text is placed anew: the stand-in takes
                    // the advance recorded for it, which moves nothing after it.
                    if let extra = standIn.endedExtra, extra > 0, let size = faces.font.flatMap({ Double($0.size) }) {
                        StandInAdvance.insertSpacing(extra * size, around: shown, in: &out)
                    }
                    standIn.ended = nil
                }
            }
            let showsStandIn = (name == .Tj || name == .TJ) && faces.showsStandIn
            switch name {
            case .Tf:
                if let renamed = faces.fontSet(operands, lexer: lexer) { replace(operands[0], with: renamed) }
            case .Tj, .TJ:
                if let switched = faces.shown(operands, lexer: lexer) { replace(start..<start, with: switched) }
            case .re:
                rectangle = (operands, start)
            case .m:
                break
            case .f:
                try filled(previous, end: range.upperBound, lexer: lexer)
            case .q:
                depth += 1
                if let run = closedRun, depth == runDepth {
                    replace(range.upperBound..<range.upperBound, with: state.continuation(of: run))
                    painter?.enter(run: run)
                    state.runOpen = true
                    closedRun = nil
                }
            case .Q:
                // A run ends inside the `q … Q` it began in (the page's last run, before the
                // page's closing `Q`): marked content and graphics states nest.
                if state.runOpen, depth == runDepth {
                    replace(range.lowerBound..<range.lowerBound, with: Array("EMC\n".utf8))
                    state.runOpen = false
                    closedRun = state.cursor - 1
                }
                depth -= 1
            case .BDC:
                opened(whole, lexer: lexer)
            case .BMC:
                stack.append(.kept)
            case .EMC:
                try closed(range)
            case .rg, .otherFillColor, .ET, nil:
                break
            }
            // After the text face's `Tf`, which goes before the operands of a `Tj` or `TJ`.
            if showsStandIn { replace(start..<start, with: []) }
            let before = out.count
            // A colour cluster's stand-in and an inline artifact's glyphs are not the run's
            // glyphs the renderer recorded paints for (`CodePaints.runPaints(of:)`).
            let paintsRun = state.runOpen && !insideInlineArtifact && !showsStandIn
            if let edit = painter?.edit(name, operands: operands, whole: whole, runOpen: paintsRun, in: bytes) {
                replace(edit.range, with: edit.bytes)
            } else if showsStandIn || standInCut != nil {
                var shown = Array(bytes[whole])
                if let cut = standInCut { shown.removeSubrange((cut.lowerBound - start)..<(cut.upperBound - start)) }
                replace(whole, with: shown)
            }
            if showsStandIn { standIn.shown = (before, out.count) }
        }

        /// Reads an operator named `name` (from `start` to `end`) while the page's extent marker
        /// may still come: true when it ended the marker's path, which is then removed. The
        /// marker is a path of two squares (three `m`, the last one before `f`) that begins at
        /// ``ContentMarker/pageExtentCorner``, at the page's own graphics state, before any
        /// run's marker; anything else drawn first means the page has none.
        mutating func extentMarker(_ name: PDFLexer.Operator?, start: Int, end: Int, lexer: PDFLexer) -> Bool {
            guard var path = extentPath else { return false }
            switch (name, path.start) {
            case (.m, nil):
                let corner = ContentMarker.pageExtentCorner
                guard depth <= 1, markers == 0, operands.count == 2,
                    let x = lexer.number(operands[0]), let y = lexer.number(operands[1]),
                    abs(x - corner.x) < 0.001, abs(y - corner.y) < 0.001
                else {
                    extentPath = nil
                    return false
                }
                path = (start, 1)
            case (.q, nil), (.rg, nil), (.otherFillColor, nil), (.BDC, nil), (nil, _):
                // What Cairo writes before the path (its graphics state, colour and document
                // tag), and the path's segments (`l`, `h`), are read on.
                break
            case (.m, _):
                path.moves += 1
            case (.f, let pathStart?) where path.moves == 3 && operands.isEmpty:
                // With the line break after it, so that the stream is the one drawn without it.
                let lineEnd = end < bytes.count && bytes[end] == 0x0A ? end + 1 : end
                replace(pathStart..<lineEnd, with: [])
                extentPath = nil
                return true
            default:
                extentPath = nil
                return false
            }
            extentPath = path
            return false
        }

        /// After `f`: the squares around an added hyphen or a primed space, or a run's marker
        /// (`previous` is the `re` before, if any; the `f` ends at `end`).
        mutating func filled(_ previous: (operands: [Range<Int>], start: Int)?, end: Int, lexer: PDFLexer) throws {
            if let previous,
                let mark = MarkedContentRewrite.inlineArtifactMark(
                    previous.operands, lexer: lexer, expected: state.inlineArtifacts),
                operands.isEmpty, depth <= 1, state.runOpen, state.cursor > runs.lowerBound
            {
                // The hyphen is drawn with its font's text face, whose ToUnicode reads it as the
                // soft hyphen, for readers of ToUnicode alone (pypdf).
                insideInlineArtifact = mark.before
                var restore: [UInt8] = []
                if mark.hyphen {
                    if mark.before { faces.begin([0x00, 0xAD]) } else { restore = faces.end(leading: false) }
                }
                replace(
                    previous.start..<end,
                    with: state.inlineArtifactBoundary(before: mark.before, hyphen: mark.hyphen) + restore)
                return
            }
            if let previous, operands.isEmpty, depth <= 1, state.openRunHasMCID,
                let before = MarkedContentRewrite.copyMark(
                    previous.operands, lexer: lexer, expected: state.inlineArtifacts)
            {
                replace(previous.start..<end, with: state.copyBoundary(before: before))
                return
            }
            // A marker: the square, at the page's own graphics state (a picture's content is
            // drawn inside `q … Q`), where the page's next marker goes. Anything else of that
            // size (a dot in an SVG picture) is content.
            guard let previous, operands.isEmpty, depth <= 1,
                MarkedContentRewrite.isRunMarker(previous.operands, lexer: lexer, expected: markers)
            else { return }
            markers += 1
            replace(previous.start..<end, with: try state.next())
            painter?.enter(run: state.cursor - 1)
            state.runOpen = true
            runDepth = depth
            closedRun = nil
        }

        /// A `BDC` whose operands and operator span `whole`.
        mutating func opened(_ whole: Range<Int>, lexer: PDFLexer) {
            let tag = operands.first.map { lexer.text($0) } ?? ""
            let actualText = tag == "/Span" && operands.count == 5 && lexer.text(operands[2]) == "/ActualText"
            if tag == "/Document" || tag == "/Link" || (actualText && lexer.text(operands[3]) == "<feff0020>") {
                // Cairo's document and link tags, and its span around a line's end space: their
                // operators go; what Cairo drew inside the span (the word space that follows in
                // the same text object) stays.
                replace(whole, with: [])
                stack.append(.dropped)
            } else if actualText, state.runOpen, depth == runDepth, state.openRunHasMCID {
                pendingSpan = (whole, lexer.text(operands[3]))
                stack.append(
                    .actualText(start: whole.lowerBound, operators: operatorCount, insideCopy: state.insideCopy))
            } else {
                stack.append(tag == "/Span" ? .span(start: whole.lowerBound, operators: operatorCount) : .kept)
            }
        }

        /// An `EMC` at `range`.
        mutating func closed(_ range: Range<Int>) throws {
            guard let open = stack.popLast() else {
                throw Mismatch(description: "a page's content has an EMC without BDC")
            }
            if open == .dropped { replace(range, with: []) }
            // An empty span (Cairo's `/ActualText` of a hidden added hyphen) goes whole.
            if case .span(let start, let operators) = open, operators == operatorCount - 1, start >= copied {
                replace(start..<range.upperBound, with: [])
            }
            if case .actualText(let start, let operators, let insideCopy) = open {
                if operators == operatorCount - 1, start >= copied {
                    replace(start..<range.upperBound, with: [])
                    faces.active = nil
                } else {
                    // The text state's font goes back to the font itself.
                    let restore = faces.end(leading: true)
                    standIn.ended = standIn.shown
                    standIn.endedExtra = standIn.extra
                    if insideCopy {
                        replace(range, with: restore)
                    } else {
                        replace(range, with: Array("EMC".utf8) + restore + state.continuation(of: state.cursor - 1))
                    }
                }
                pendingSpan = nil
                standIn.shown = nil
            }
        }

        /// The rewritten stream, once every operator is read.
        mutating func finished() throws -> Rewritten {
            guard state.cursor == runs.upperBound else {
                throw Mismatch(
                    description:
                        "a page has \(runs.count) runs of content, \(state.cursor - runs.lowerBound) were found")
            }
            out.append(contentsOf: bytes[copied...])
            if state.runOpen { out.append(contentsOf: Array("\nEMC\n".utf8)) }
            return Rewritten(bytes: out, continued: state.continued, substitutions: faces.substitutions)
        }
    }

    /// The text state's font as a page's operators set it, and the glyphs drawn with its text
    /// face (``GlyphSubstitution``) inside a span of replacement text.
    private struct TextFaces {
        /// The page's decoded content stream.
        let bytes: UnsafeBufferPointer<UInt8>
        /// The text state's font (`Tf`): where its resource name, solidus included, and size
        /// lie in ``bytes`` (read as text only when a span of replacement text needs them: a
        /// page sets its font thousands of times).
        var fontOperands: (name: Range<Int>, size: Range<Int>)?
        /// Inside a span of replacement text: the text (UTF-16BE after the byte-order mark, nil
        /// when it is not written so), whether its glyphs are drawn with the text face yet, and
        /// the face's suffix.
        var active: (text: [UInt8]?, switched: Bool, face: String)?
        var substitutions: [GlyphSubstitution] = []

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        /// The text state's font: its resource name, solidus included, and size.
        var font: (name: String, size: String)? {
            let lexer = PDFLexer(bytes)
            return fontOperands.map { (lexer.text($0.name), lexer.text($0.size)) }
        }

        /// Whether the open span draws a colour cluster's stand-in (a face of its own).
        var showsStandIn: Bool {
            active.map { $0.text != nil && $0.face != MarkedContentRewrite.textFaceSuffix } ?? false
        }

        /// A span of replacement text `text` begins, drawn with the text face named `face`
        /// after the font.
        mutating func begin(_ text: [UInt8]?, face: String = MarkedContentRewrite.textFaceSuffix) {
            active = (text, false, face)
        }

        /// `Tf` with `operands`: the name that replaces the font's, inside a span.
        mutating func fontSet(_ operands: [Range<Int>], lexer: PDFLexer) -> [UInt8]? {
            guard operands.count == 2 else { return nil }
            fontOperands = (operands[0], operands[1])
            guard let face = active?.face, active?.text != nil else { return nil }
            active?.switched = true
            return Array((lexer.text(operands[0]) + face).utf8)
        }

        /// `Tj` or `TJ` with `operands`: inside a span, the glyphs are noted, and the `Tf` that
        /// switches to the text face goes before them when the span has not switched yet.
        mutating func shown(_ operands: [Range<Int>], lexer: PDFLexer) -> [UInt8]? {
            guard let span = active, let text = span.text, let font else { return nil }
            let codes = operands.flatMap { lexer.stringBytes($0) ?? [] }
            substitutions.append(
                GlyphSubstitution(font: String(font.name.dropFirst()), codes: codes, text: text, face: span.face))
            guard !span.switched else { return nil }
            active?.switched = true
            return Array("\(font.name)\(span.face) \(font.size) Tf\n".utf8)
        }

        /// The span ends: the `Tf` that goes back to the font itself when the span switched to
        /// its text face (after a line break when `leading`, else followed by one).
        mutating func end(leading: Bool) -> [UInt8] {
            defer { active = nil }
            guard active?.switched == true, let font else { return [] }
            let text = "\(font.name) \(font.size) Tf"
            return Array((leading ? "\n" + text : text + "\n").utf8)
        }
    }

    /// A replacement text written `<feff…>` (Cairo's form): its UTF-16BE bytes after the
    /// byte-order mark; nil for any other form.
    fileprivate static func utf16(_ text: String) -> [UInt8]? {
        let lower = text.lowercased()
        guard lower.hasPrefix("<feff"), lower.hasSuffix(">"), lower.count > 6 else { return nil }
        let digits = Array(lower.dropFirst(5).dropLast())
        guard digits.count % 4 == 0 else { return nil }
        let bytes = stride(from: 0, to: digits.count, by: 2).compactMap {
            UInt8(String(digits[$0...$0 + 1]), radix: 16)
        }
        return bytes.count * 2 == digits.count ? bytes : nil
    }

    /// What a `BDC` or `BMC` opened: `span` is Cairo's `/Span << /ActualText … >> BDC` that
    /// began at `start`, after `operators` operators of the stream.
    private enum Open: Equatable {
        case dropped, kept
        case span(start: Int, operators: Int)
        /// A span whose replacement text becomes a continuation of the open run; inside glyphs
        /// that copy as another text (`insideCopy`), a span that goes, its glyphs kept in the
        /// continuation that carries the copy text.
        case actualText(start: Int, operators: Int, insideCopy: Bool)
    }

    /// Whether the operands of an `re` are a square of side `side` (as printed) at the page's
    /// `expected`-th marker corner (``ContentMarker/position(_:)``).
    private static func isSquare(
        _ operands: [Range<Int>], side: [UInt8], lexer: PDFLexer, expected: Int
    ) -> Bool {
        guard operands.count == 4, lexer.equals(operands[2], side), lexer.equals(operands[3], side),
            let x = lexer.number(operands[0]), let y = lexer.number(operands[1])
        else { return false }
        let corner = ContentMarker.position(expected)
        return abs(x - corner.x) < 0.01 && abs(y - corner.y) < 0.01
    }

    /// Whether the operands of an `re` are the page's `expected`-th ``ContentMarker``.
    private static func isRunMarker(_ operands: [Range<Int>], lexer: PDFLexer, expected: Int) -> Bool {
        isSquare(operands, side: ContentMarker.printedSide, lexer: lexer, expected: expected)
    }

    /// Whether the operands of an `re` are the square before (true) or after (false) the
    /// glyphs of the page's `expected`-th span of copy text (``ContentMarker/copySides``);
    /// nil for any other rectangle.
    private static func copyMark(_ operands: [Range<Int>], lexer: PDFLexer, expected: Int) -> Bool? {
        if isSquare(operands, side: ContentMarker.printedCopySides.before, lexer: lexer, expected: expected) {
            return true
        }
        if isSquare(operands, side: ContentMarker.printedCopySides.after, lexer: lexer, expected: expected) {
            return false
        }
        return nil
    }

    /// The printed sides of the squares around an added hyphen and a primed space, and which
    /// each marks.
    private static let inlineArtifactSides: [(side: [UInt8], before: Bool, hyphen: Bool)] = [
        (ContentMarker.printedHyphenSides.before, true, true),
        (ContentMarker.printedHyphenSides.after, false, true),
        (ContentMarker.printedPrimeSides.before, true, false),
        (ContentMarker.printedPrimeSides.after, false, false),
    ]

    /// Whether the operands of an `re` are the square before or after the page's
    /// `expected`-th added hyphen or primed space, and which of the two it marks; nil for any
    /// other rectangle.
    private static func inlineArtifactMark(_ operands: [Range<Int>], lexer: PDFLexer, expected: Int) -> (
        before: Bool, hyphen: Bool
    )? {
        for mark in inlineArtifactSides where isSquare(operands, side: mark.side, lexer: lexer, expected: expected) {
            return (mark.before, mark.hyphen)
        }
        return nil
    }

    /// The page's runs as its content stream is read: the next one to begin, whether one is
    /// open, and the continuations given so far.
    private struct RunCursor {
        let runs: Range<Int>
        let structure: StructureRecords
        /// The next run to begin.
        var cursor: Int
        var runOpen = false
        /// The runs continued, in order (``Rewritten/continued``).
        var continued: [Int32] = []
        /// The first MCID after the page's own.
        let firstFreeMCID: Int32

        init(runs: Range<Int>, structure: StructureRecords) {
            self.runs = runs
            self.structure = structure
            cursor = runs.lowerBound
            firstFreeMCID = runs.reduce(Int32(0)) { structure.runOwner[$1] >= 0 ? $0 + 1 : $0 }
        }

        /// Takes the next run: its `BDC` (or `BMC`), after an `EMC` closing the open run.
        mutating func next() throws -> [UInt8] {
            guard cursor < runs.upperBound else {
                throw Mismatch(description: "a page has more marked content than was drawn (\(runs.count) runs)")
            }
            let owner = structure.runOwner[cursor]
            copiesInRun = 0
            // Written byte by byte: a page has a marker for each of its runs.
            var text: [UInt8] = []
            text.reserveCapacity(40)
            if runOpen { PDFValue.appendUTF8("EMC\n", to: &text) }
            if owner < 0 {
                PDFValue.appendUTF8("/Artifact BMC\n", to: &text)
            } else if let actualText = structure.actualTexts[owner] {
                // Readers take `/ActualText` from a `Span`'s property list (PDF 1.7 §14.9.4).
                PDFValue.appendUTF8(
                    "/Span << /MCID \(structure.runMCID[cursor]) /ActualText \(Self.pdfText(actualText)) >> BDC\n",
                    to: &text)
            } else {
                Self.appendMarkedContent(
                    structure.types[Int(owner)].structureType, mcid: structure.runMCID[cursor], to: &text)
            }
            cursor += 1
            return text
        }

        /// Appends `/type << /MCID mcid >> BDC` and a line break.
        static func appendMarkedContent(_ type: String, mcid: Int32, to text: inout [UInt8]) {
            text.append(0x2F)
            PDFValue.appendUTF8(type, to: &text)
            PDFValue.appendUTF8(" << /MCID ", to: &text)
            PDFValue.writeDecimal(Int(mcid), to: &text)
            PDFValue.appendUTF8(" >> BDC\n", to: &text)
        }

        /// `text` as a PDF text string, as written in a content stream.
        static func pdfText(_ text: String) -> String {
            guard case .string(let bytes) = PDFValue.text(text) else { return "()" }
            return String(decoding: bytes, as: UTF8.self)
        }

        /// The added hyphens and primed spaces met on the page so far.
        var inlineArtifacts = 0

        /// What replaces the square before (`before`) or after an added hyphen (`hyphen`) or a
        /// primed space: the open run ends, what the squares hold is an artifact (a hyphen's
        /// with U+00AD SOFT HYPHEN as its `/ActualText`), and the run goes on after it as a
        /// continuation.
        mutating func inlineArtifactBoundary(before: Bool, hyphen: Bool) -> [UInt8] {
            let softHyphen = hyphen ? "/Span << /ActualText <FEFF00AD> >> BDC\n" : ""
            if before { return Array("EMC\n/Artifact BMC\n\(softHyphen)".utf8) }
            inlineArtifacts += 1
            return Array((hyphen ? "EMC\nEMC" : "EMC").utf8) + continuation(of: cursor - 1)
        }

        /// The copy texts of the open run used so far (``StructureRecords/copyTexts``).
        var copiesInRun = 0
        /// Whether the glyphs read now copy as another text (between a line's copy squares).
        var insideCopy = false

        /// What replaces the square before (`before`) or after glyphs that copy as another
        /// text: the open run ends, the glyphs are a continuation of it whose `/ActualText` is
        /// the run's next copy text, and the run goes on after them as another continuation.
        mutating func copyBoundary(before: Bool) -> [UInt8] {
            let run = cursor - 1
            insideCopy = before
            guard before else {
                inlineArtifacts += 1
                return Array("EMC".utf8) + continuation(of: run)
            }
            let texts = structure.copyTexts[Int32(run)] ?? []
            let text = copiesInRun < texts.count ? texts[copiesInRun] : ""
            copiesInRun += 1
            return Array("EMC".utf8) + continuation(of: run, actualText: Self.pdfText(text))
        }

        /// Whether the open run is marked content of an element (not an artifact).
        var openRunHasMCID: Bool { runOpen && cursor > runs.lowerBound && structure.runOwner[cursor - 1] >= 0 }

        /// The `BDC` (or `BMC`) of a continuation of `run`, with the next free MCID, and with
        /// `actualText` (a PDF string, as written) as its replacement text (PDF 1.7 §14.9.4).
        mutating func continuation(of run: Int, actualText: String? = nil) -> [UInt8] {
            let owner = structure.runOwner[run]
            guard owner >= 0 else { return Array("\n/Artifact BMC\n".utf8) }
            let mcid = firstFreeMCID + Int32(continued.count)
            continued.append(Int32(run))
            // Readers take `/ActualText` from a `Span`'s property list (PDF 1.7 §14.9.4), and
            // the tag of marked content with an MCID is free: its element says what it is.
            // An element's own replacement text stands for all its glyphs, so a continuation
            // of its run reads as nothing.
            guard let actualText = actualText ?? structure.actualTexts[owner].map({ _ in "()" }) else {
                var text: [UInt8] = [0x0A]
                Self.appendMarkedContent(structure.types[Int(owner)].structureType, mcid: mcid, to: &text)
                return text
            }
            return Array("\n/Span << /MCID \(mcid) /ActualText \(actualText) >> BDC\n".utf8)
        }
    }
}
