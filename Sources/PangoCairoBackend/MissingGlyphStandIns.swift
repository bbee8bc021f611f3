internal import CPangoCairo
import Foundation

/// The glyphs of a line that its fonts lack, drawn so that the text keeps their characters.
///
/// Pango shapes a character no font covers as an unknown glyph (`PANGO_GLYPH_UNKNOWN_FLAG`
/// with the code point) and its Cairo renderer draws it as a *hex box*: a frame with the code
/// point's hexadecimal digits inside, shown as text (`cairo_show_text`) in a small font, so a
/// PDF's text there reads `0E2A` rather than `ส` (Pango's `pangocairo-render.c`,
/// `_pango_cairo_renderer_draw_unknown_glyph`). While Pango draws the line, each unknown glyph
/// is hidden instead (`PANGO_GLYPH_EMPTY` keeps its advance), and each stretch of consecutive
/// clusters of a run drawn with unknown glyphs alone (a word of a script without a font) is
/// drawn as one *stand-in*, the space glyph of the run's font at the stretch's start, as a
/// colour cluster is (``ColorGlyphStandIns``): its glyphs made one cluster, Pango hands Cairo
/// the stretch's text with the one glyph, and Cairo 1.16 writes it inside a span of
/// replacement text (`/Span << /ActualText <feff…> >> BDC`, PDF 1.7 §14.9.4), which the
/// tagging pass gives a text face of its own. One stand-in a stretch rather than a character
/// keeps a word whole for readers of an untagged PDF, which place each span's text where its
/// glyph is: the gap after a narrow space glyph would read as a word space. A cluster that also
/// draws a glyph the font has (a letter with a mark no font covers) keeps its text on that
/// glyph. The boxes are then drawn as outlines (``drawBoxes(cr:x:baseline:)``): the page shows
/// them as before, and their digits are not text.
final class MissingGlyphStandIns {
    private var changed: [(info: UnsafeMutablePointer<PangoGlyphInfo>, saved: PangoGlyphInfo)] = []
    private var changedClusters: [(cluster: UnsafeMutablePointer<Int32>, saved: Int32)] = []
    /// The glyphs drawn as stand-ins (until ``restore()``).
    private(set) var standInGlyphs: [UnsafeMutablePointer<PangoGlyphInfo>] = []
    /// The fonts whose space glyph the stand-ins draw, each once.
    private(set) var standInFonts: [UnsafeMutablePointer<PangoFont>] = []
    /// The runs with unknown glyphs, each with its origin's distance from the line's start
    /// (Pango units) and its unknown glyphs' indices.
    private var boxes: [(run: UnsafeMutablePointer<PangoGlyphItem>, x: Int32, glyphs: [Int])] = []
    /// The clusters drawn as stand-ins, in the line's order: each one's run, text and how
    /// much wider than the stand-in's space glyph its advance is, in em of the run's font.
    private var clusters: [(run: UnsafeMutablePointer<PangoGlyphItem>, text: String, extra: Double)] = []

    /// Whether each cluster of a stand-in's stretch draws a space glyph (``init(_:spaceEachCluster:standIns:)``).
    private let spaceEachCluster: Bool
    /// Whether stretches are drawn as stand-ins, or only hidden (``init(_:spaceEachCluster:standIns:)``).
    private let makesStandIns: Bool

    /// Sets the stand-ins of `line`'s unknown glyphs, except in runs set in a colour font;
    /// nil when the line has none (a glyph already hidden stays so). With `spaceEachCluster`
    /// (a PDF that no tagging pass rewrites), every cluster of a stretch draws a space glyph,
    /// all in the stretch's one span, the last moved to end where the stretch ends: readers of
    /// `/ActualText` place the span's text over the glyphs it holds, which then reach across
    /// the stretch (a stretch of one cluster, across its space glyph alone). (The
    /// tagging pass instead widens a stretch's one glyph to the stretch's advance,
    /// ``StandInAdvance``, as every glyph drawn in the text face would read as the text.)
    /// Without `standIns` (a picture of a page, a formula's text, whose element's replacement
    /// text carries its source) the unknown glyphs are only hidden, and their boxes drawn as
    /// outlines: the page has no text of hex digits.
    init?(_ line: UnsafeMutablePointer<PangoLayoutLine>, spaceEachCluster: Bool, standIns: Bool = true) {
        self.spaceEachCluster = spaceEachCluster
        makesStandIns = standIns
        guard let layout = line.pointee.layout, let text = pango_layout_get_text(layout) else { return nil }
        var x: Int32 = 0
        var node = line.pointee.runs
        while let current = node {
            node = current.pointee.next
            let run = current.pointee.data.assumingMemoryBound(to: PangoGlyphItem.self)
            defer { x += pango_glyph_string_get_width(run.pointee.glyphs) }
            guard let font = run.pointee.item.pointee.analysis.font, !ColorFonts.isColorFont(font) else { continue }
            let glyphs = run.pointee.glyphs.pointee
            let unknown = (0..<Int(glyphs.num_glyphs)).filter { Self.isUnknown(glyphs.glyphs[$0].glyph) }
            guard !unknown.isEmpty else { continue }
            boxes.append((run, x, unknown))
            set(run, font: font, text: text)
        }
        if boxes.isEmpty { return nil }
    }

    /// Whether `glyph` is one Pango draws as a hex box.
    private static func isUnknown(_ glyph: PangoGlyph) -> Bool {
        glyph != PANGO_GLYPH_EMPTY && glyph & PANGO_GLYPH_UNKNOWN_FLAG != 0
    }

    /// Hides the unknown glyphs of `run` and makes each stretch of clusters drawn with them
    /// alone one stand-in (``standIn(_:of:space:font:em:text:)``), noting its text.
    private func set(
        _ run: UnsafeMutablePointer<PangoGlyphItem>, font: UnsafeMutablePointer<PangoFont>,
        text: UnsafePointer<CChar>
    ) {
        let glyphs = run.pointee.glyphs!
        let count = Int(glyphs.pointee.num_glyphs)
        let space = ColorGlyphStandIns.spaceGlyph(font)
        let em = ColorGlyphStandIns.emSize(font)
        let offset = Int(run.pointee.item.pointee.offset)
        let length = Int(run.pointee.item.pointee.length)
        var stretch: Stretch?
        func close() {
            if let stretch, let space { standIn(stretch, of: run, space: space, font: font, em: em, text: text) }
            stretch = nil
        }
        var first = 0
        while first < count {
            // The cluster's glyphs: those after `first` that start no cluster of their own.
            var end = first + 1
            while end < count, glyphs.pointee.glyphs[end].attr.is_cluster_start == 0 { end += 1 }
            defer { first = end }
            let drawn = (first..<end).filter { glyphs.pointee.glyphs[$0].glyph != PANGO_GLYPH_EMPTY }
            let unknown = drawn.filter { Self.isUnknown(glyphs.pointee.glyphs[$0].glyph) }
            guard !unknown.isEmpty else {
                close()
                continue
            }
            for index in unknown {
                changed.append((glyphs.pointee.glyphs + index, glyphs.pointee.glyphs[index]))
                glyphs.pointee.glyphs[index].glyph = PANGO_GLYPH_EMPTY
            }
            guard makesStandIns, unknown.count == drawn.count, space != nil, em > 0 else {
                close()
                continue
            }
            // The cluster's bytes: from its start to the next cluster's, in either direction.
            let start = Int(glyphs.pointee.log_clusters[first])
            var stop = length
            for other in 0..<count {
                let cluster = Int(glyphs.pointee.log_clusters[other])
                if cluster > start, cluster < stop { stop = cluster }
            }
            let units = String(
                decoding: UnsafeRawBufferPointer(start: text + offset + start, count: stop - start),
                as: UTF8.self
            ).utf16.count
            let advance = (first..<end).reduce(0) { $0 + Int(glyphs.pointee.glyphs[$1].geometry.width) }
            if let open = stretch, spaceEachCluster || open.units + units <= Self.longestText {
                stretch = Stretch(
                    glyphs: open.glyphs.lowerBound..<end, standIns: open.standIns + [unknown[0]],
                    bytes: min(open.bytes.lowerBound, start)..<max(open.bytes.upperBound, stop),
                    units: open.units + units, advance: open.advance + advance)
            } else {
                close()
                stretch = Stretch(
                    glyphs: first..<end, standIns: [unknown[0]], bytes: start..<stop, units: units, advance: advance)
            }
        }
        close()
    }

    /// Consecutive clusters of a run drawn with unknown glyphs alone, made one stand-in.
    private struct Stretch {
        /// Their glyphs, indices in the run's glyph string.
        var glyphs: Range<Int>
        /// Each cluster's first unknown glyph, in glyph order: the first becomes the stand-in.
        var standIns: [Int]
        /// Their text, bytes of the run's item.
        var bytes: Range<Int>
        /// Their text's length, UTF-16 code units.
        var units: Int
        /// Their advance, Pango units.
        var advance: Int
    }

    /// The most UTF-16 code units one stand-in stands for in a tagged PDF: the tagging pass
    /// names its text face with four hexadecimal digits a unit (`MarkedContentRewrite`'s
    /// stand-in face suffix), and a PDF name is at most 127 bytes (PDF 1.7, Annex C.2).
    private static let longestText = 24

    /// Draws `stretch` of `run` as one stand-in: its first unknown glyph becomes `space`
    /// (already hidden, so its place is noted in ``changed``; each cluster's first, with
    /// ``spaceEachCluster``), and its glyphs one cluster for Pango (each given the stretch's
    /// first byte), so that Cairo receives the stretch's text with its space glyphs; notes the
    /// text and how much wider than `space` the stretch is.
    private func standIn(
        _ stretch: Stretch, of run: UnsafeMutablePointer<PangoGlyphItem>, space: PangoGlyph,
        font: UnsafeMutablePointer<PangoFont>, em: Double, text: UnsafePointer<CChar>
    ) {
        let glyphs = run.pointee.glyphs!
        for index in stretch.glyphs where Int(glyphs.pointee.log_clusters[index]) != stretch.bytes.lowerBound {
            changedClusters.append((glyphs.pointee.log_clusters + index, glyphs.pointee.log_clusters[index]))
            glyphs.pointee.log_clusters[index] = Int32(stretch.bytes.lowerBound)
        }
        for index in stretch.glyphs where index != stretch.glyphs.lowerBound {
            let info = glyphs.pointee.glyphs + index
            guard info.pointee.attr.is_cluster_start != 0 else { continue }
            changed.append((info, info.pointee))
            info.pointee.attr.is_cluster_start = 0
        }
        var logical = PangoRectangle()
        pango_font_get_glyph_extents(font, space, nil, &logical)
        for index in spaceEachCluster ? stretch.standIns : [stretch.standIns[0]] {
            let standIn = glyphs.pointee.glyphs + index
            standIn.pointee.glyph = space
            standIn.pointee.geometry.x_offset = 0
            standIn.pointee.geometry.y_offset = 0
            standInGlyphs.append(standIn)
        }
        if !standInFonts.contains(font) { standInFonts.append(font) }
        if spaceEachCluster, stretch.standIns.count > 1, let last = stretch.standIns.last {
            // The last space ends where the stretch does, so the span's glyphs reach across it.
            let rest = (last..<stretch.glyphs.upperBound).reduce(0) { $0 + glyphs.pointee.glyphs[$1].geometry.width }
            glyphs.pointee.glyphs[last].geometry.x_offset = max(0, rest - logical.width)
        }
        let offset = Int(run.pointee.item.pointee.offset)
        let bytes = UnsafeRawBufferPointer(start: text + offset + stretch.bytes.lowerBound, count: stretch.bytes.count)
        clusters.append(
            (run, String(decoding: bytes, as: UTF8.self), Double(stretch.advance - Int(logical.width)) / em))
    }

    /// Puts every glyph back, and returns the clusters drawn as stand-ins, in the line's order.
    func restore() -> [(run: UnsafeMutablePointer<PangoGlyphItem>, text: String, extra: Double)] {
        for entry in changed.reversed() { entry.info.pointee = entry.saved }
        for entry in changedClusters { entry.cluster.pointee = entry.saved }
        changed = []
        changedClusters = []
        standInGlyphs = []
        standInFonts = []
        return clusters
    }

    /// Draws the hex boxes of the line's unknown glyphs (after ``restore()``) as filled
    /// outlines, with the line's origin at `x`, `baseline`, in each run's foreground colour
    /// (Pango's renderer draws an outline pass with `cairo_text_path` for the digits and two
    /// rectangles of opposite windings for the frame). On a PDF the tagging pass rewrites,
    /// each box of a code point, face and colour is drawn once, as a form the page paints
    /// wherever the box stands (``BoxForms``): a box's outlines are some 2 KB of path, and a
    /// text of a script no font covers is a box a character.
    func drawBoxes(cr: OpaquePointer, x: Double, baseline: Double) {
        let forms =
            !spaceEachCluster && cairo_surface_get_type(cairo_get_target(cr)) == CAIRO_SURFACE_TYPE_PDF
            ? BoxForms.of(cairo_get_target(cr)) : nil
        for (run, runX, indices) in boxes {
            guard let font = run.pointee.item.pointee.analysis.font,
                let copy = pango_glyph_string_copy(run.pointee.glyphs)
            else { continue }
            defer { pango_glyph_string_free(copy) }
            let drawn = Set(indices)
            for index in 0..<Int(copy.pointee.num_glyphs) where !drawn.contains(index) {
                copy.pointee.glyphs[index].glyph = PANGO_GLYPH_EMPTY
            }
            cairo_save(cr)
            cairo_new_path(cr)
            Self.setForeground(of: run, on: cr)
            let unit = Double(PANGO_SCALE)
            let originX = x + Double(runX) / unit
            let originY = baseline - Double(run.pointee.y_offset) / unit
            if let forms {
                forms.paint(copy, of: font, on: cr, x: originX, baseline: originY)
            } else {
                cairo_move_to(cr, originX, originY)
                pango_cairo_glyph_string_path(cr, font, copy)
                cairo_fill(cr)
            }
            cairo_restore(cr)
            // Without stand-ins (a formula's text) a run drawn with boxes alone would draw no
            // glyph at all, and readers of `/ActualText` (poppler) place a span's replacement
            // text only over glyphs drawn inside it: the formula's source would be lost for
            // such a piece. The run's space glyph, with no text of its own, is drawn at its
            // first box.
            if !makesStandIns, let first = indices.first, let space = ColorGlyphStandIns.spaceGlyph(font) {
                let before = (0..<first).reduce(0) { $0 + Int(copy.pointee.glyphs[$1].geometry.width) }
                ColorGlyphStandIns.showSpace(
                    space, of: font, on: cr, x: x + Double(Int(runX) + before) / unit,
                    baseline: baseline - Double(run.pointee.y_offset) / unit)
            }
        }
    }

    /// The hex boxes drawn on one PDF surface, each code point's box in a face and colour
    /// recorded once (a recording surface, which Cairo writes as one form XObject however often
    /// it is painted: its source surfaces are keyed by the surface's unique id), kept as the
    /// surface's user data and freed with it. Cairo lists the form once per use in the page's
    /// resources; the tagging pass lists it once (`PDFRewriter`).
    final class BoxForms {
        /// A box: the glyph (its code point with `PANGO_GLYPH_UNKNOWN_FLAG`), the face's name
        /// (``ColorGlyphRuns/GlyphImages/name(of:)``: a font is not held), and the colour.
        private struct Key: Hashable {
            let font: String
            let glyph: PangoGlyph
            /// The glyph's advance, Pango units: Pango centres a box in it.
            let width: Int32
            let color: [Double]
        }

        /// Each box's recording (from its top left corner) and the rectangle it fills from the
        /// glyph's origin, pt.
        private var forms: [Key: (surface: OpaquePointer, extents: cairo_rectangle_t)] = [:]

        nonisolated(unsafe) private static let key = UnsafeMutablePointer<cairo_user_data_key_t>.allocate(capacity: 1)

        /// The most boxes a surface records, each a form of its code's outlined digits; the box
        /// of a code point met after them shows U+FFFD's code instead (the characters are still
        /// named in the font warning and read from the text), so that a document of tens of
        /// thousands of distinct characters no face has does not write as many forms.
        static let recordedBoxes = 1_000

        /// The boxes of `surface`, made the first time they are asked for.
        static func of(_ surface: OpaquePointer) -> BoxForms {
            SurfaceData.attached(to: surface, key: key) { BoxForms() }
        }

        deinit {
            for form in forms.values { cairo_surface_destroy(form.surface) }
        }

        /// Paints the boxes of `glyphs` (its other glyphs `PANGO_GLYPH_EMPTY`) of `font`, its
        /// origin at (`x`, `baseline`), in `cr`'s source colour.
        func paint(
            _ glyphs: UnsafeMutablePointer<PangoGlyphString>, of font: UnsafeMutablePointer<PangoFont>,
            on cr: OpaquePointer, x: Double, baseline: Double
        ) {
            var (red, green, blue, alpha) = (0.0, 0.0, 0.0, 1.0)
            if let source = cairo_get_source(cr) { _ = cairo_pattern_get_rgba(source, &red, &green, &blue, &alpha) }
            let color = [red, green, blue, alpha]
            let name = ColorGlyphRuns.GlyphImages.name(of: font)
            let unit = Double(PANGO_SCALE)
            var advance = 0
            for index in 0..<Int(glyphs.pointee.num_glyphs) {
                let info = glyphs.pointee.glyphs[index]
                defer { advance += Int(info.geometry.width) }
                guard info.glyph != PANGO_GLYPH_EMPTY else { continue }
                var boxed = info
                var key = Key(font: name, glyph: info.glyph, width: info.geometry.width, color: color)
                if forms[key] == nil, forms.count >= Self.recordedBoxes {
                    boxed.glyph = PANGO_GLYPH_UNKNOWN_FLAG | 0xFFFD
                    key = Key(font: name, glyph: boxed.glyph, width: info.geometry.width, color: color)
                }
                if forms[key] == nil { forms[key] = Self.record(boxed, of: font, color: color) }
                guard let form = forms[key] else { continue }
                cairo_save(cr)
                cairo_translate(
                    cr, x + Double(advance + Int(info.geometry.x_offset)) / unit,
                    baseline + Double(info.geometry.y_offset) / unit)
                cairo_set_source_surface(cr, form.surface, form.extents.x, form.extents.y)
                cairo_new_path(cr)
                cairo_rectangle(cr, form.extents.x, form.extents.y, form.extents.width, form.extents.height)
                cairo_fill(cr)
                cairo_restore(cr)
            }
        }

        /// The box of `glyph` (its glyph and advance, in which Pango centres the box) recorded in
        /// `color`, and the rectangle its outlines fill and a point more on each side, from the
        /// glyph's origin (measured on the path: Pango's extents of an unknown glyph are not
        /// where its renderer draws the box).
        private static func record(
            _ glyph: PangoGlyphInfo, of font: UnsafeMutablePointer<PangoFont>, color: [Double]
        ) -> (surface: OpaquePointer, extents: cairo_rectangle_t) {
            let single = pango_glyph_string_new()!
            defer { pango_glyph_string_free(single) }
            pango_glyph_string_set_size(single, 1)
            single.pointee.glyphs[0] = PangoGlyphInfo()
            single.pointee.glyphs[0].glyph = glyph.glyph
            single.pointee.glyphs[0].geometry.width = glyph.geometry.width
            single.pointee.glyphs[0].attr.is_cluster_start = 1
            single.pointee.log_clusters[0] = 0
            func outline(_ cr: OpaquePointer) {
                cairo_move_to(cr, 0, 0)
                pango_cairo_glyph_string_path(cr, font, single)
            }
            let scratch = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1)
            let measure = cairo_create(scratch)!
            outline(measure)
            var (x0, y0, x1, y1) = (0.0, 0.0, 0.0, 0.0)
            cairo_path_extents(measure, &x0, &y0, &x1, &y1)
            cairo_destroy(measure)
            cairo_surface_destroy(scratch)
            let extents = cairo_rectangle_t(x: x0 - 1, y: y0 - 1, width: x1 - x0 + 2, height: y1 - y0 + 2)
            // Recorded from its top left corner at (0, 0), and painted from the extents' start.
            var bounds = cairo_rectangle_t(x: 0, y: 0, width: extents.width, height: extents.height)
            let surface = cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, &bounds)!
            let recorder = cairo_create(surface)!
            defer { cairo_destroy(recorder) }
            cairo_set_source_rgba(recorder, color[0], color[1], color[2], color[3])
            cairo_translate(recorder, -extents.x, -extents.y)
            outline(recorder)
            cairo_fill(recorder)
            return (surface, extents)
        }
    }

    /// Sets `cr`'s source to `run`'s foreground colour and alpha, where its attributes give
    /// them (otherwise the source stays, as Pango's renderer leaves it).
    private static func setForeground(of run: UnsafeMutablePointer<PangoGlyphItem>, on cr: OpaquePointer) {
        var color: PangoColor?
        var alpha: UInt16?
        var attributes = run.pointee.item.pointee.analysis.extra_attrs
        while let entry = attributes {
            attributes = entry.pointee.next
            let attribute = entry.pointee.data.assumingMemoryBound(to: PangoAttribute.self)
            let raw = UnsafeMutableRawPointer(attribute)
            switch attribute.pointee.klass.pointee.type {
            case PANGO_ATTR_FOREGROUND: color = raw.assumingMemoryBound(to: PangoAttrColor.self).pointee.color
            case PANGO_ATTR_FOREGROUND_ALPHA:
                alpha = UInt16(truncatingIfNeeded: raw.assumingMemoryBound(to: PangoAttrInt.self).pointee.value)
            default: break
            }
        }
        guard color != nil || alpha != nil else { return }
        var red = 0.0
        var green = 0.0
        var blue = 0.0
        var opacity = 1.0
        if let color {
            (red, green, blue) = (Double(color.red) / 65535, Double(color.green) / 65535, Double(color.blue) / 65535)
        } else if let source = cairo_get_source(cr) {
            _ = cairo_pattern_get_rgba(source, &red, &green, &blue, &opacity)
        }
        if let alpha { opacity = Double(alpha) / 65535 }
        cairo_set_source_rgba(cr, red, green, blue, opacity)
    }
}
