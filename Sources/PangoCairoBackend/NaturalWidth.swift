internal import CPangoCairo
import Layout
import Styling

/// Measuring without drawing: the natural (unwrapped) width of a paragraph, as
/// ``PangoShaper/shape(_:width:)`` with no width reports it, without building the drawable
/// lines — no line handles, line texts or link rectangles, which a table's measuring pass
/// would make for every cell and throw away — and, for the first cells of a table, the
/// measured layout kept so that drawing the cell does not shape it again.
extension PangoShaper {
    /// The widest line of `paragraph` laid out without wrapping, pt: the same number as
    /// `shape(paragraph, width: nil).naturalWidth`, to the bit. A paragraph laid out in several
    /// pieces (wider than one layout can measure), or with a hanging indent, takes that full
    /// path.
    ///
    /// With `keepingLayout`, a paragraph that the total-fit composer would measure in one
    /// unwrapped layout is measured in exactly that layout (``unwrappedLayout(text:paragraph:starts:)``),
    /// which is kept — while fewer than ``KeptCells/maximumCount`` layouts and
    /// ``KeptCells/maximumBytes`` of text are — for the next `shape(_:width:)` of an equal
    /// paragraph, at any width: the unwrapped layout does not depend on the width. Keep-all
    /// Hangul and line separators change that layout's breaks, so such paragraphs are not kept.
    /// A code block (`breakAnywhere`) is measured as `shape(paragraph, width: nil)` lays it out,
    /// and those lines are kept for setting it at a width they fit in (``KeptCode``).
    public func naturalWidth(of paragraph: StyledParagraph, keepingLayout: Bool) -> Double {
        SharedFontMap.run {
            keepingLayout && paragraph.style.breakAnywhere
                ? measureKeepingCode(paragraph) : measureNaturalWidth(paragraph, keep: keepingLayout)
        }
    }

    /// The natural width of `paragraph`, to the bit as ``naturalWidth(of:keepingLayout:)``
    /// measures (and keeps) it, and the advance width of each of `words` (UTF-8 byte ranges of
    /// the paragraph's text) read from that same layout: the sum of the widths of the glyphs
    /// whose clusters start in the range (Pango units, then pt). A word is shaped in its
    /// paragraph exactly as alone where nothing joins it to its neighbours: a space or a break
    /// between them, no letter spacing — Pango 1.50 trims a tracked run's outer half spaces
    /// only at a line's ends (`pango_layout_line_postprocess`), so letter-spaced paragraphs,
    /// and paragraphs too wide for one layout or with a hanging indent, report no word widths
    /// (nil: the caller measures each word alone).
    public func naturalWidths(of paragraph: StyledParagraph, words: [Range<Int>], keepingLayout: Bool) -> NaturalWidths
    {
        SharedFontMap.run {
            var widths: [Double]? = nil
            let natural = measureNaturalWidth(paragraph, keep: keepingLayout) { layout, byteCount in
                // A paragraph measured with its soft-hyphen runs cut (``StyledParagraph/collapsingSoftHyphenRuns()``)
                // has other byte offsets than `words`: no word widths.
                guard !words.isEmpty, !paragraph.runs.contains(where: { $0.style.letterSpacing != 0 }),
                    byteCount == paragraph.runs.reduce(0, { $0 + $1.text.utf8.count })
                else { return }
                widths = Self.advanceWidths(of: words, in: layout, byteCount: byteCount)
            }
            return NaturalWidths(paragraph: natural, words: words.isEmpty ? [] : widths)
        }
    }

    /// The advance width of each UTF-8 byte range of `layout`'s text, pt: the glyphs whose
    /// clusters start in it, over all lines. `ranges` are sorted and disjoint, within `byteCount`.
    static func advanceWidths(of ranges: [Range<Int>], in layout: GObjectRef, byteCount: Int) -> [Double] {
        // Which range each byte belongs to (-1: none), so that runs in any direction sum alike.
        var owner = [Int32](repeating: -1, count: byteCount + 1)
        for (k, range) in ranges.enumerated() where range.upperBound <= byteCount {
            for b in range { owner[b] = Int32(k) }
        }
        var sums = [Int](repeating: 0, count: ranges.count)
        var node = pango_layout_get_lines_readonly(layout.opaque)
        while let lineNode = node {
            var runNode = lineNode.pointee.data.assumingMemoryBound(to: PangoLayoutLine.self).pointee.runs
            while let current = runNode {
                let run = current.pointee.data.assumingMemoryBound(to: PangoGlyphItem.self)
                let offset = Int(run.pointee.item.pointee.offset)
                let glyphs = run.pointee.glyphs.pointee
                for g in 0..<Int(glyphs.num_glyphs) {
                    let byte = offset + Int(glyphs.log_clusters[g])
                    guard byte >= 0, byte < byteCount, owner[byte] >= 0 else { continue }
                    sums[Int(owner[byte])] += Int(glyphs.glyphs[g].geometry.width)
                }
                runNode = current.pointee.next
            }
            node = lineNode.pointee.next
        }
        return sums.map { Double($0) / Double(PANGO_SCALE) }
    }

    /// Releases the layouts ``naturalWidth(of:keepingLayout:)`` kept that no `shape` call took.
    public func forgetKeptLayouts() {
        SharedFontMap.run {
            keptCells.removeAll()
            keptCode = nil
        }
    }

    /// `measured` sees the layout measured, with its text's length in bytes, when the
    /// paragraph is measured in one layout of its own text.
    func measureNaturalWidth(
        _ paragraph: StyledParagraph, keep: Bool,
        measured: (GObjectRef, Int) -> Void = { _, _ in }
    ) -> Double {
        let paragraph = paragraph.collapsingSoftHyphenRuns()
        let runs = paragraph.runs
        var starts: [Int] = []
        starts.reserveCapacity(runs.count)
        var bytes: [UInt8] = []
        for run in runs {
            starts.append(bytes.count)
            bytes.append(contentsOf: run.text.utf8)
        }
        let pieces = ParagraphPieces(runs: runs, starts: starts, bytes: bytes, wraps: false)
        guard !bytes.isEmpty, paragraph.style.hangingIndent == 0, pieces.end(from: 0) == bytes.count else {
            return shapeWhole(paragraph, width: nil).naturalWidth
        }
        let layout: GObjectRef
        if keep, keptCells.hasRoom(for: bytes.count), canKeep(paragraph, bytes: bytes) {
            layout = unwrappedLayout(text: String(decoding: bytes, as: UTF8.self), paragraph: paragraph, starts: starts)
            keptCells.keep(layout, for: paragraph, bytes: bytes.count)
        } else {
            layout = rangeLayout(0..<bytes.count, paragraph: paragraph, bytes: bytes, starts: starts, width: nil).layout
        }
        var widest: Int32 = 0
        var node = pango_layout_get_lines_readonly(layout.opaque)
        while let lineNode = node {
            var logical = PangoRectangle()
            pango_layout_line_get_extents(
                lineNode.pointee.data.assumingMemoryBound(to: PangoLayoutLine.self), nil, &logical)
            widest = max(widest, logical.width)
            node = lineNode.pointee.next
        }
        measured(layout, bytes.count)
        return Double(widest) / Double(PANGO_SCALE)
    }

    /// Whether the composer's unwrapped layout of `paragraph` is the layout `shape(_:width: nil)`
    /// measures, but for alignment (which moves lines, not their widths): a paragraph the
    /// composer takes (not code, no hanging indent) in one layout, with no keep-all Hangul
    /// (whose unbreakable words are attributes of their own) and no line separator (an
    /// empty box in the composer's layout).
    private func canKeep(_ paragraph: StyledParagraph, bytes: [UInt8]) -> Bool {
        guard !paragraph.style.breakAnywhere, Self.unwrappedWidthBound(paragraph) < Self.composedWidth else {
            return false
        }
        for i in 0..<max(0, bytes.count - 2) where bytes[i] == 0xE2 && bytes[i + 1] == 0x80 && bytes[i + 2] == 0xA8 {
            return false
        }
        if paragraph.style.hangulLineBreak.keepsWords,
            paragraph.runs.contains(where: { $0.text.unicodeScalars.contains(where: ParagraphComposer.isHangul) })
        {
            return false
        }
        return true
    }
}

/// The unwrapped layouts of table cells measured and not yet drawn (``PangoShaper/naturalWidth(of:keepingLayout:)``),
/// by paragraph — text and every style, so a cell is only ever drawn from its own shaping —
/// and the font generation they were shaped in. Bounded, so a table's memory does not grow
/// with its rows: the first rows are kept, the rest shaped again when drawn.
struct KeptCells {
    /// At most this many layouts are kept.
    static let maximumCount = 512
    /// At most this much text (UTF-8 bytes) is kept.
    static let maximumBytes = 128 * 1024

    private var layouts: [StyledParagraph: GObjectRef] = [:]
    private var bytes = 0

    /// How many layouts are kept.
    var count: Int { layouts.count }

    func hasRoom(for count: Int) -> Bool { layouts.count < Self.maximumCount && bytes + count <= Self.maximumBytes }

    mutating func keep(_ layout: GObjectRef, for paragraph: StyledParagraph, bytes count: Int) {
        if layouts.updateValue(layout, forKey: paragraph) == nil { bytes += count }
    }

    /// The layout kept for `paragraph`, given up (each is drawn once); nil when none is.
    mutating func take(_ paragraph: StyledParagraph) -> GObjectRef? {
        guard !layouts.isEmpty else { return nil }
        return layouts.removeValue(forKey: paragraph)
    }

    mutating func removeAll() {
        layouts.removeAll()
        bytes = 0
    }
}

extension PangoShaper {
    /// What a line draws, glyph by glyph: for each run, its byte offset and length, then each
    /// glyph's id, advance and offsets (Pango units) and cluster. Two lines with equal
    /// summaries draw the same glyphs at the same places (for tests and diagnostics).
    static func glyphSummary(of line: ShapedLine) -> [Int64] {
        guard let handle = line.handle as? PangoLineHandle else { return [] }
        return SharedFontMap.run {
            var summary: [Int64] = [Int64(handle.line.pointee.start_index), Int64(handle.line.pointee.length)]
            var node = handle.line.pointee.runs
            while let current = node {
                let run = current.pointee.data.assumingMemoryBound(to: PangoGlyphItem.self)
                let item = run.pointee.item.pointee
                summary += [Int64(item.offset), Int64(item.length), Int64(run.pointee.y_offset)]
                let glyphs = run.pointee.glyphs.pointee
                for g in 0..<Int(glyphs.num_glyphs) {
                    let info = glyphs.glyphs[g]
                    summary += [
                        Int64(info.glyph), Int64(info.geometry.width), Int64(info.geometry.x_offset),
                        Int64(info.geometry.y_offset), Int64(glyphs.log_clusters[g]),
                    ]
                }
                node = current.pointee.next
            }
            return summary
        }
    }
}
