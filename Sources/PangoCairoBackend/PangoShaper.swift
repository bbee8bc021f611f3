internal import CPangoCairo
import Foundation
import Layout
import Styling
import Typography

/// The Pango implementation of ``TextShaper``: one Pango context (pangocairo font map at 72 dpi,
/// unhinted metrics, unrounded glyph positions), font descriptions and metrics cached per
/// ``FontSpec``, one `PangoLayout` per paragraph. Each ``ShapedLine`` keeps its layout alive, so
/// ``CairoPDFRenderer`` draws exactly what was measured.
///
/// Use one instance from one thread at a time (Pango objects are not thread-safe). Several
/// shapers may work in parallel; each owns its font map.
public final class PangoShaper: TextShaper {
    let setup: PangoSetup
    private var descriptions: [FontSpec: FontDescription] = [:]
    private var metricsCache: [FontSpec: FontMetrics] = [:]

    /// Creates a shaper with its own Pango context and pangocairo font map.
    public init() {
        setup = FontState.lock.reading { PangoSetup() }
        InlineImageShapes.install(on: setup.context.opaque)
    }

    // MARK: Metrics

    /// Metrics of the first family of `font` alone at its size, weight and style: ascent and
    /// descent from `pango_font_get_metrics`, x-height and cap height from the face's OS/2
    /// table (HarfBuzz `hb_ot_metrics`, which falls back to measuring glyphs).
    public func metrics(of font: FontSpec) -> FontMetrics {
        FontState.lock.reading {
            refresh()
            return primaryMetrics(font)
        }
    }

    private func refresh() {
        if setup.refreshIfNeeded() {
            descriptions.removeAll()
            metricsCache.removeAll()
        }
    }

    private func description(_ font: FontSpec) -> FontDescription {
        if let d = descriptions[font] { return d }
        let d = FontDescription(families: font.families, weight: font.weight, italic: font.italic, size: font.size)
        descriptions[font] = d
        return d
    }

    /// Call under the font lock.
    func primaryMetrics(_ font: FontSpec) -> FontMetrics {
        let key = FontSpec(families: Array(font.families.prefix(1)), weight: font.weight, italic: font.italic, size: font.size)
        if let m = metricsCache[key] { return m }
        var result = FontMetrics(ascent: font.size * 0.8, descent: font.size * 0.2, xHeight: font.size * 0.5,
                                 capHeight: font.size * 0.7)
        if let loaded = setup.loadFont(description(key)) {
            let pangoFont = loaded.typed(PangoFont.self)
            if let pm = pango_font_get_metrics(pangoFont, nil) {
                result.ascent = Double(pango_font_metrics_get_ascent(pm)) / Double(PANGO_SCALE)
                result.descent = Double(pango_font_metrics_get_descent(pm)) / Double(PANGO_SCALE)
                pango_font_metrics_unref(pm)
            }
            if let hb = pango_font_get_hb_font(pangoFont) {
                // Pango scales its hb_font to Pango units of the device size.
                var position: hb_position_t = 0
                hb_ot_metrics_get_position_with_fallback(hb, HB_OT_METRICS_TAG_X_HEIGHT, &position)
                result.xHeight = Double(position) / Double(PANGO_SCALE)
                hb_ot_metrics_get_position_with_fallback(hb, HB_OT_METRICS_TAG_CAP_HEIGHT, &position)
                result.capHeight = Double(position) / Double(PANGO_SCALE)
            }
        }
        metricsCache[key] = result
        return result
    }

    // MARK: Shaping

    /// Breaks `paragraph` into lines (see ``TextShaper/shape(_:width:)``). Wrapping is always
    /// `PANGO_WRAP_WORD_CHAR` so a long word or URL breaks rather than overflowing; Hangul words
    /// are kept whole under `.keepAll` when they fit the width.
    public func shape(_ paragraph: StyledParagraph, width: Double?) -> ShapedParagraph {
        FontState.lock.reading {
            refresh()
            return shapeLocked(paragraph, width: width)
        }
    }

    private func shapeLocked(_ paragraph: StyledParagraph, width: Double?) -> ShapedParagraph {
        let runs = paragraph.runs
        // Byte offsets of each run in the concatenated UTF-8 text.
        var starts: [Int] = []
        starts.reserveCapacity(runs.count)
        var text = ""
        var offset = 0
        for run in runs {
            starts.append(offset)
            text += run.text
            offset += run.text.utf8.count
        }
        let byteCount = offset

        let layoutPointer = pango_layout_new(setup.context.opaque)!
        let layout = GObjectRef(owning: UnsafeMutableRawPointer(layoutPointer))
        pango_layout_set_text(layoutPointer, text, Int32(byteCount))
        pango_layout_set_font_description(layoutPointer, description(paragraph.style.baseFont).pointer)
        pango_layout_set_wrap(layoutPointer, PANGO_WRAP_WORD_CHAR)

        let attrs = AttrList()
        for (index, run) in runs.enumerated() where !run.text.isEmpty {
            addAttributes(run.style, to: attrs, start: starts[index], end: starts[index] + run.text.utf8.count)
        }
        if paragraph.style.breakAnywhere, byteCount > 0 {
            // Code breaks between characters without the hyphen Pango would insert (a hyphen
            // would read as part of the code); the continuation mark shows the wrap instead.
            attrs.insert(pango_attr_insert_hyphens_new(0), 0, byteCount)
        }
        pango_layout_set_attributes(layoutPointer, attrs.pointer)

        if paragraph.style.hangulLineBreak == .keepAll {
            let words = hangulWords(in: text)
            if !words.isEmpty {
                // Measure unwrapped first: a word wider than the measure stays breakable.
                let limit = width.map { $0 * Double(PANGO_SCALE) + 1 }
                let keep = AttrList(copying: attrs)
                var added = false
                // A word certainly fits when even 1.5 em per character (plus tracking) fits:
                // only the others need the (costly) unwrapped measuring pass.
                let widest = runs.reduce(0.0) { max($0, $1.style.font.size * 1.5 + abs($1.style.letterSpacing)) }
                for word in words {
                    if let limit, Double(word.count) * widest * Double(PANGO_SCALE) > limit {
                        var a = PangoRectangle(), b = PangoRectangle()
                        pango_layout_index_to_pos(layoutPointer, Int32(word.lowerBound), &a)
                        pango_layout_index_to_pos(layoutPointer, Int32(word.upperBound), &b)
                        if Double(abs(Int(b.x) - Int(a.x))) > limit { continue }
                    }
                    keep.insert(pango_attr_allow_breaks_new(0), word.lowerBound, word.upperBound)
                    added = true
                }
                if added { pango_layout_set_attributes(layoutPointer, keep.pointer) }
            }
        }

        if let width {
            pango_layout_set_width(layoutPointer, max(0, PangoUnits.from(width, rounding: .down)))
        } else {
            pango_layout_set_width(layoutPointer, -1)
        }
        if paragraph.style.hangingIndent > 0 {
            pango_layout_set_indent(layoutPointer, -PangoUnits.from(paragraph.style.hangingIndent))
        }
        switch paragraph.style.alignment {
        case .left: pango_layout_set_alignment(layoutPointer, PANGO_ALIGN_LEFT)
        case .center: pango_layout_set_alignment(layoutPointer, PANGO_ALIGN_CENTER)
        case .right: pango_layout_set_alignment(layoutPointer, PANGO_ALIGN_RIGHT)
        case .justify:
            pango_layout_set_alignment(layoutPointer, PANGO_ALIGN_LEFT)
            pango_layout_set_justify(layoutPointer, 1)
        }

        return ShapedParagraph(lines: collectLines(layout: layout, paragraph: paragraph, text: text, starts: starts))
    }

    private func addAttributes(_ style: RunStyle, to list: AttrList, start: Int, end: Int) {
        list.insert(pango_attr_font_desc_new(description(style.font).pointer), start, end)
        if let image = style.inlineImage {
            list.insert(InlineImageShapes.attribute(image, box: InlineImageShapes.box(image, shaper: self, style: style)), start, end)
        }
        if style.letterSpacing != 0 {
            // Any letter-spacing attribute, even 0, turns ligatures off: emit only when non-zero.
            list.insert(pango_attr_letter_spacing_new(PangoUnits.from(style.letterSpacing)), start, end)
        }
        let (r, g, b, a) = style.color.pango16
        list.insert(pango_attr_foreground_new(r, g, b), start, end)
        if a < 65535 { list.insert(pango_attr_foreground_alpha_new(a), start, end) }
        if let underline = style.underline {
            list.insert(pango_attr_underline_new(PANGO_UNDERLINE_SINGLE), start, end)
            let (r, g, b, _) = underline.pango16
            list.insert(pango_attr_underline_color_new(r, g, b), start, end)
        }
        if let strike = style.strikethrough {
            list.insert(pango_attr_strikethrough_new(1), start, end)
            let (r, g, b, _) = strike.pango16
            list.insert(pango_attr_strikethrough_color_new(r, g, b), start, end)
        }
        if style.baselineOffset != 0 {
            list.insert(pango_attr_rise_new(PangoUnits.from(style.baselineOffset)), start, end)
        }
        var features = style.features
        // Small caps through Pango's variant attribute: it uses the font's `smcp`/`c2sc` when
        // the font has them and synthesizes them (upper-cased, scaled by x-height/cap-height)
        // when not (Pango 1.50 itemize.c). `c2sc` alone has no variant: a font feature, which
        // fonts without it ignore.
        switch style.smallCaps {
        case .none: break
        case .lowercase: list.insert(pango_attr_variant_new(PANGO_VARIANT_SMALL_CAPS), start, end)
        case .uppercase: features.append("c2sc")
        case .all: list.insert(pango_attr_variant_new(PANGO_VARIANT_ALL_SMALL_CAPS), start, end)
        }
        if !features.isEmpty {
            list.insert(pango_attr_font_features_new(features.joined(separator: ", ")), start, end)
        }
        if let background = style.background {
            let (r, g, b, a) = background.pango16
            list.insert(pango_attr_background_new(r, g, b), start, end)
            if a < 65535 { list.insert(pango_attr_background_alpha_new(a), start, end) }
        }
    }

    /// Byte ranges of the maximal runs of non-space characters that contain Hangul.
    private func hangulWords(in text: String) -> [Range<Int>] {
        var result: [Range<Int>] = []
        var start = 0, position = 0
        var inWord = false, hasHangul = false
        for scalar in text.unicodeScalars {
            let length = UTF8.width(scalar)
            if scalar.properties.isWhitespace {
                if inWord && hasHangul { result.append(start..<position) }
                inWord = false; hasHangul = false
            } else {
                if !inWord { inWord = true; start = position }
                if isHangul(scalar) { hasHangul = true }
            }
            position += length
        }
        if inWord && hasHangul { result.append(start..<position) }
        return result
    }

    private func isHangul(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x1100...0x11FF, 0x3130...0x318F, 0xA960...0xA97F, 0xAC00...0xD7AF, 0xD7B0...0xD7FF: return true
        default: return false
        }
    }

    private func runIndex(atByte byte: Int, starts: [Int]) -> Int? {
        // Last run whose start is <= byte (skips empty runs, which share their start).
        var low = 0, high = starts.count
        while low < high {
            let mid = (low + high) / 2
            if starts[mid] <= byte { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? nil : low - 1
    }

    private func collectLines(layout: GObjectRef, paragraph: StyledParagraph, text: String,
                              starts: [Int]) -> [ShapedLine] {
        let runs = paragraph.runs
        let bytes = Array(text.utf8)
        let base = primaryMetrics(paragraph.style.baseFont)
        let linkRuns = runs.indices.filter { runs[$0].style.link != nil && !runs[$0].text.isEmpty }
        var lines: [ShapedLine] = []
        let iter = pango_layout_get_iter(layout.opaque)!
        defer { pango_layout_iter_free(iter) }
        let scale = Double(PANGO_SCALE)
        repeat {
            guard let line = pango_layout_iter_get_line_readonly(iter) else { break }
            var logical = PangoRectangle()
            pango_layout_iter_get_line_extents(iter, nil, &logical)
            let lineStart = Int(line.pointee.start_index)
            let lineEnd = lineStart + Int(line.pointee.length)

            var ascent = -Double.infinity, descent = -Double.infinity
            var strokes: [PangoLineHandle.StrokeRun] = []
            var x = 0.0
            var node = line.pointee.runs
            while let n = node {
                let glyphItem = n.pointee.data.assumingMemoryBound(to: PangoGlyphItem.self)
                let item = glyphItem.pointee.item!
                let runWidth = Double(pango_glyph_string_get_width(glyphItem.pointee.glyphs)) / scale
                if let index = runIndex(atByte: Int(item.pointee.offset), starts: starts) {
                    let style = runs[index].style
                    let m = primaryMetrics(style.font)
                    ascent = max(ascent, m.ascent + style.baselineOffset)
                    descent = max(descent, m.descent - style.baselineOffset)
                    if let image = style.inlineImage {
                        ascent = max(ascent, InlineImageShapes.box(image, shaper: self, style: style).height + style.baselineOffset)
                    }
                    if let stroke = style.stroke {
                        strokes.append(.init(x: x, rise: Double(glyphItem.pointee.y_offset) / scale,
                                             glyphItem: glyphItem, stroke: stroke))
                    }
                }
                x += runWidth
                node = n.pointee.next
            }
            if ascent == -.infinity {
                // No glyph runs (empty paragraph or an empty line after a hard break): the
                // line holds the style of the text just before it, or the paragraph's face.
                if lineStart > 0, let index = runIndex(atByte: lineStart - 1, starts: starts) {
                    let style = runs[index].style
                    let m = primaryMetrics(style.font)
                    ascent = m.ascent + style.baselineOffset
                    descent = m.descent - style.baselineOffset
                } else {
                    ascent = base.ascent; descent = base.descent
                }
            }

            let lineX = Double(logical.x) / scale
            var links: [LinkSpan] = []
            for index in linkRuns {
                let run = runs[index]
                guard let target = run.style.link else { continue }
                let s = max(starts[index], lineStart)
                let e = min(starts[index] + run.text.utf8.count, lineEnd)
                guard s < e else { continue }
                var last = e - 1
                while last > s && (bytes[last] & 0xC0) == 0x80 { last -= 1 }
                var x1: Int32 = 0, x2: Int32 = 0
                pango_layout_line_index_to_x(line, Int32(s), 0, &x1)
                pango_layout_line_index_to_x(line, Int32(last), 1, &x2)
                let left = Double(min(x1, x2)) / scale, right = Double(max(x1, x2)) / scale
                if let previous = links.last, previous.target == target,
                   abs(previous.x + previous.width - (lineX + left)) < 0.01 {
                    links[links.count - 1].width = lineX + right - previous.x
                } else {
                    links.append(LinkSpan(x: lineX + left, width: right - left, target: target))
                }
            }

            let lineText = String(decoding: bytes[lineStart..<lineEnd], as: UTF8.self)
            let handle = PangoLineHandle(layout: layout, line: line, strokes: strokes)
            var shaped = ShapedLine(handle: handle, x: lineX, width: Double(logical.width) / scale,
                                    ascent: ascent, descent: descent, links: links, text: lineText)
            shaped.isWrapContinuation = line.pointee.is_paragraph_start == 0 && lineStart > 0
                && bytes[lineStart - 1] != 0x0A && !(lineStart >= 3 && bytes[lineStart - 3..<lineStart] == [0xE2, 0x80, 0xA8])
            lines.append(shaped)
        } while pango_layout_iter_next_line(iter) != 0
        if lines.isEmpty {
            lines.append(ShapedLine(handle: nil, x: 0, width: 0, ascent: base.ascent, descent: base.descent))
        }
        return lines
    }
}

/// The drawable line behind a ``ShapedLine``: a `PangoLayoutLine` and a strong reference to
/// the layout that owns it, plus the runs that need an outline stroked under their fill.
final class PangoLineHandle {
    struct StrokeRun {
        /// Run origin from the line's left edge, pt.
        var x: Double
        /// Baseline shift, pt, positive up.
        var rise: Double
        var glyphItem: UnsafeMutablePointer<PangoGlyphItem>
        var stroke: Stroke
    }
    let layout: GObjectRef
    let line: UnsafeMutablePointer<PangoLayoutLine>
    let strokes: [StrokeRun]

    init(layout: GObjectRef, line: UnsafeMutablePointer<PangoLayoutLine>, strokes: [StrokeRun]) {
        self.layout = layout
        self.line = pango_layout_line_ref(line)
        self.strokes = strokes
    }
    deinit { FontState.lock.reading { pango_layout_line_unref(line) } }
}
