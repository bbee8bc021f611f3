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
/// - an empty `/Span << /ActualText … >> BDC EMC` goes (Cairo writes one for the added
///   hyphen the line's drawing leaves out);
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
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + runs.count * 24)
        var copied = 0
        func replace(_ range: Range<Int>, with replacement: [UInt8]) {
            out.append(contentsOf: bytes[copied..<range.lowerBound])
            out.append(contentsOf: replacement)
            copied = range.upperBound
        }
        var operatorCount = 0
        var stack: [Open] = []
        var state = RunCursor(runs: runs, structure: structure)
        var markers = 0
        /// The graphics-state depth (`q` … `Q`), and the depth at which the open run began.
        var depth = 0
        var runDepth = 0
        /// The run closed by a `Q`, to go on after a `q` back at its depth.
        var closedRun: Int?

        var painter = GlyphPainter.paints(structure, runs: runs) ? GlyphPainter(structure: structure) : nil
        var lexer = PDFLexer(bytes)
        var operands: [Range<Int>] = []
        /// The operands of the last operator when it was `re`, and where they began.
        var rectangle: (operands: [Range<Int>], start: Int)?
        while let token = lexer.next() {
            guard token.isOperator else {
                operands.append(token.range)
                continue
            }
            let start = operands.first?.lowerBound ?? token.range.lowerBound
            let whole = start..<token.range.upperBound
            operatorCount += 1
            defer { operands.removeAll(keepingCapacity: true) }
            let previous = rectangle
            rectangle = nil
            let name = lexer.operatorName(token.range)
            if let edit = painter?.edit(name, operands: operands, whole: whole, runOpen: state.runOpen, in: bytes) {
                replace(edit.range, with: edit.bytes)
            }
            switch name {
            case .re:
                rectangle = (operands, start)
            case .f:
                if let previous, let before = hyphenMark(previous.operands, lexer: lexer, expected: state.hyphens),
                    operands.isEmpty, depth <= 1, state.runOpen, state.cursor > runs.lowerBound
                {
                    replace(previous.start..<token.range.upperBound, with: state.hyphenBoundary(before: before))
                    break
                }
                // A marker: the square, at the page's own graphics state (a picture's content is
                // drawn inside `q … Q`), where the page's next marker goes. Anything else of that
                // size (a dot in an SVG picture) is content.
                guard let previous, operands.isEmpty, depth <= 1,
                    isRunMarker(previous.operands, lexer: lexer, expected: markers)
                else { break }
                markers += 1
                replace(previous.start..<token.range.upperBound, with: try state.next())
                painter?.enter(run: state.cursor - 1)
                state.runOpen = true
                runDepth = depth
                closedRun = nil
            case .q:
                depth += 1
                if let run = closedRun, depth == runDepth {
                    let at = token.range.upperBound
                    replace(at..<at, with: state.continuation(of: run))
                    painter?.enter(run: run)
                    state.runOpen = true
                    closedRun = nil
                }
            case .Q:
                // A run ends inside the `q … Q` it began in (the page's last run, before the
                // page's closing `Q`): marked content and graphics states nest.
                if state.runOpen, depth == runDepth {
                    replace(token.range.lowerBound..<token.range.lowerBound, with: Array("EMC\n".utf8))
                    state.runOpen = false
                    closedRun = state.cursor - 1
                }
                depth -= 1
            case .BDC:
                let open = Self.opened(byBDC: operands, lexer: lexer, start: whole.lowerBound, operators: operatorCount)
                if open == .dropped { replace(whole, with: []) }
                stack.append(open)
            case .BMC:
                stack.append(.kept)
            case .EMC:
                guard let open = stack.popLast() else {
                    throw Mismatch(description: "a page's content has an EMC without BDC")
                }
                if open == .dropped { replace(token.range, with: []) }
                // An empty span (Cairo's `/ActualText` of a hidden added hyphen) goes whole.
                if case .span(let start, let operators) = open, operators == operatorCount - 1, start >= copied {
                    replace(start..<token.range.upperBound, with: [])
                }
            case .rg, .otherFillColor, .ET, .Tj, .TJ, nil:
                break
            }
        }
        guard state.cursor == runs.upperBound else {
            throw Mismatch(
                description: "a page has \(runs.count) runs of content, \(state.cursor - runs.lowerBound) were found")
        }
        out.append(contentsOf: bytes[copied...])
        if state.runOpen { out.append(contentsOf: Array("\nEMC\n".utf8)) }
        return Rewritten(bytes: out, continued: state.continued)
    }

    /// What the `BDC` with `operands`, beginning at `start` after `operators` operators of the
    /// stream, opens: Cairo's `/Document`, `/Link` and word-space `/Span` go (``Open/dropped``;
    /// what Cairo drew inside the span, the word space that follows in the same text object,
    /// stays); another `/Span` is noted, to go whole when empty.
    private static func opened(byBDC operands: [Range<Int>], lexer: PDFLexer, start: Int, operators: Int) -> Open {
        let tag = operands.first.map { lexer.text($0) } ?? ""
        if tag == "/Document" || tag == "/Link" { return .dropped }
        guard tag == "/Span" else { return .kept }
        if operands.count == 5, lexer.text(operands[2]) == "/ActualText", lexer.text(operands[3]) == "<feff0020>" {
            return .dropped
        }
        return .span(start: start, operators: operators)
    }

    /// What a `BDC` or `BMC` opened: `span` is Cairo's `/Span << /ActualText … >> BDC` that
    /// began at `start`, after `operators` operators of the stream.
    private enum Open: Equatable {
        case dropped, kept
        case span(start: Int, operators: Int)
    }

    /// Whether the operands of an `re` are the page's `expected`-th ``ContentMarker``.
    private static func isRunMarker(_ operands: [Range<Int>], lexer: PDFLexer, expected: Int) -> Bool {
        let corner = ContentMarker.position(expected)
        guard operands.count == 4, lexer.equals(operands[2], ContentMarker.printedSide),
            lexer.equals(operands[3], ContentMarker.printedSide),
            let x = lexer.number(operands[0]), let y = lexer.number(operands[1])
        else { return false }
        return abs(x - corner.x) < 0.01 && abs(y - corner.y) < 0.01
    }

    /// Whether the operands of an `re` are the square before (true) or after (false) the
    /// page's `expected`-th added hyphen; nil for any other rectangle.
    private static func hyphenMark(_ operands: [Range<Int>], lexer: PDFLexer, expected: Int) -> Bool? {
        guard operands.count == 4 else { return nil }
        let sides = ContentMarker.printedHyphenSides
        let before = lexer.equals(operands[2], sides.before) && lexer.equals(operands[3], sides.before)
        let after = lexer.equals(operands[2], sides.after) && lexer.equals(operands[3], sides.after)
        let corner = ContentMarker.position(expected)
        guard before || after, let x = lexer.number(operands[0]), let y = lexer.number(operands[1]),
            abs(x - corner.x) < 0.01, abs(y - corner.y) < 0.01
        else { return nil }
        return before
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
            var text = runOpen ? "EMC\n" : ""
            if owner < 0 {
                text += "/Artifact BMC\n"
            } else {
                text += "/\(structure.types[Int(owner)].structureType) << /MCID \(structure.runMCID[cursor]) >> BDC\n"
            }
            cursor += 1
            return Array(text.utf8)
        }

        /// The added hyphens met on the page so far.
        var hyphens = 0

        /// What replaces the square before (`before`) or after an added hyphen: the open run
        /// ends, the hyphen is an artifact whose `/ActualText` is U+00AD SOFT HYPHEN, and the
        /// run goes on after it as a continuation.
        mutating func hyphenBoundary(before: Bool) -> [UInt8] {
            if before { return Array("EMC\n/Artifact BMC\n/Span << /ActualText <FEFF00AD> >> BDC\n".utf8) }
            hyphens += 1
            return Array("EMC\nEMC".utf8) + continuation(of: cursor - 1)
        }

        /// The `BDC` (or `BMC`) of a continuation of `run`, with the next free MCID.
        mutating func continuation(of run: Int) -> [UInt8] {
            let owner = structure.runOwner[run]
            guard owner >= 0 else { return Array("\n/Artifact BMC\n".utf8) }
            let mcid = firstFreeMCID + Int32(continued.count)
            continued.append(Int32(run))
            return Array("\n/\(structure.types[Int(owner)].structureType) << /MCID \(mcid) >> BDC\n".utf8)
        }
    }
}
