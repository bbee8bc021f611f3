internal import CPangoCairo
import Foundation
import Styling
import TaggedPDF
import Typography

/// The fill colours of a code block's text by UTF-8 byte of one `PangoLayout`'s text, kept
/// beside the layout instead of inside its attributes.
///
/// A highlighted block's tokens differ only in colour. Given to Pango as colour attributes,
/// they split every line into one glyph run a token, and Cairo 1.16 writes each run as a text
/// object of its own (`ET`, `rg`, `BT`, `Tf`, `Tm`: Cairo ends the text object at every change
/// of fill colour): a document of many highlighted blocks drawn so costs twice its plain
/// rendering. The layout carries only the block's most common colour, so its lines are drawn
/// as the plain block's are, and the colours are painted afterwards: by the tagging pass, over
/// the glyphs of the content stream (``CodePaints/runPaints(of:)``), or, for a picture or an
/// untagged PDF, by drawing each stretch of one colour on its own.
final class CodePaints {
    /// A token background on a line: left edge and width, pt from the line's start, and colour.
    typealias BackgroundRect = (x: Double, width: Double, color: RGBAColor)

    /// Byte offsets into the layout's text where each colour starts, increasing; the first is 0.
    let starts: [Int]
    /// The colour from each start to the next.
    let colors: [RGBAColor]
    /// The colour the layout's attributes give every glyph.
    let base: RGBAColor
    /// The byte ranges of the layout's text drawn on a background of their own (tokens whose
    /// code style gives one), increasing, with that background: drawn by the renderer as
    /// rectangles behind the glyphs (``backgroundRects(of:)``), not by Pango.
    let backgrounds: [TokenColors.Background]

    init(
        starts: [Int], colors: [RGBAColor], base: RGBAColor, backgrounds: [TokenColors.Background] = []
    ) {
        self.starts = starts
        self.colors = colors
        self.base = base
        self.backgrounds = backgrounds
    }

    /// The colours `colors` (a slice of a block's ``TokenColors``) over glyphs drawn in
    /// `base`; nil when they are `base` alone.
    convenience init?(_ colors: TokenColors, base: RGBAColor) {
        guard colors.backgrounds.isEmpty, colors.colors.allSatisfy({ $0 == base }) else {
            self.init(
                starts: colors.starts, colors: colors.colors, base: base,
                backgrounds: colors.backgrounds)
            return
        }
        return nil
    }

    /// The colours of the code paragraph's `runs` over the bytes `range` of its text (`starts`:
    /// each run's first byte), offsets from `range.lowerBound`, and the runs' backgrounds; nil
    /// when the runs have one colour and no background, or a colour that is not opaque (painted
    /// with `rg`, which has no opacity).
    static func of(runs: [StyledRun], starts runStarts: [Int], firstRun: Int, range: Range<Int>) -> CodePaints? {
        var starts: [Int] = []
        var colors: [RGBAColor] = []
        starts.reserveCapacity(min(runs.count - firstRun, 256))
        colors.reserveCapacity(min(runs.count - firstRun, 256))
        var backgrounds: [TokenColors.Background] = []
        // The bytes of each colour: a block has a handful, so a list searched from its end (the
        // colours recur in runs) costs less than hashing four doubles a run.
        var bytesByColor: [(color: RGBAColor, bytes: Int)] = []
        var lastAppearance: RunAppearance?
        var color = RGBAColor.black
        var background: RGBAColor?
        for index in firstRun..<runs.count {
            if runStarts[index] >= range.upperBound { break }
            let run = runs[index]
            let start = max(runStarts[index], range.lowerBound)
            let end = min(runStarts[index] + run.text.utf8.count, range.upperBound)
            guard start < end else { continue }
            let style = run.style
            guard style.link == nil else { return nil }
            if style.appearance !== lastAppearance {
                // Runs of one token kind share one appearance: it is checked once.
                guard style.color.alpha >= 1, style.smallCaps == .none, style.inlineImage == nil else { return nil }
                lastAppearance = style.appearance
                color = style.color
                background = style.background
            }
            if let known = bytesByColor.lastIndex(where: { $0.color == color }) {
                bytesByColor[known].bytes += end - start
            } else {
                bytesByColor.append((color, end - start))
            }
            if let background {
                backgrounds.append(
                    TokenColors.Background(
                        bytes: (start - range.lowerBound)..<(end - range.lowerBound), color: background))
            }
            if colors.last == color { continue }
            starts.append(start - range.lowerBound)
            colors.append(color)
        }
        guard bytesByColor.count > 1 || !backgrounds.isEmpty,
            let base = bytesByColor.max(by: { $0.bytes < $1.bytes })?.color
        else {
            return nil
        }
        starts[0] = 0
        return CodePaints(starts: starts, colors: colors, base: base, backgrounds: backgrounds)
    }

    /// Whether two runs' styles differ in nothing but colour and background (runs of a code
    /// block whose ``CodePaints/of(runs:starts:firstRun:range:)`` is not nil: no link, small
    /// capitals or picture), which ``CodePaints`` draws.
    static func differOnlyInColor(_ first: RunStyle, _ second: RunStyle) -> Bool {
        first.appearance === second.appearance
            || (first.font == second.font && first.letterSpacing == second.letterSpacing
                && first.features == second.features && first.underline == second.underline
                && first.strikethrough == second.strikethrough && first.baselineOffset == second.baselineOffset
                && first.stroke == second.stroke && first.language == second.language
                && first.hyphenate == second.hyphenate)
    }

    /// The rectangles of ``backgrounds`` on `line`: each stretch of the line's glyphs, in
    /// drawing order, whose bytes have one background, as its left edge and width (pt from the
    /// line's start) and colour.
    func backgroundRects(of line: UnsafeMutablePointer<PangoLayoutLine>) -> [BackgroundRect] {
        guard !backgrounds.isEmpty else { return [] }
        var rects: [BackgroundRect] = []
        var advance: Int32 = 0
        for run in line.glyphItems {
            let glyphs = run.pointee.glyphs.pointee
            let offset = Int(run.pointee.item.pointee.offset)
            for index in 0..<Int(glyphs.num_glyphs) {
                let width = glyphs.glyphs[index].geometry.width
                defer { advance += width }
                let byte = offset + Int(glyphs.log_clusters[index])
                guard let color = background(atByte: byte) else { continue }
                let left = Double(advance) / Double(PANGO_SCALE)
                let right = Double(advance + width) / Double(PANGO_SCALE)
                if let last = rects.last, last.color == color, abs(last.x + last.width - left) < 1e-6 {
                    rects[rects.count - 1].width = right - last.x
                } else {
                    rects.append((left, right - left, color))
                }
            }
        }
        return rects
    }

    /// The background of the layout's byte `byte`, nil for none.
    private func background(atByte byte: Int) -> RGBAColor? {
        TokenColors.Background.color(atByte: byte, in: backgrounds)
    }

    /// The colour of the layout's byte `byte`.
    func color(atByte byte: Int) -> RGBAColor {
        colors[starts.stretchIndex(holding: byte)]
    }

    /// ``segments(of:)`` as the tagging pass paints them over the line drawn in ``base``
    /// (``StructureRecords/addPaint(_:)``): a stretch in the base colour names none.
    func runPaints(of line: UnsafeMutablePointer<PangoLayoutLine>) -> [RunPaint]? {
        segments(of: line)?.map {
            guard let color = $0.color else { return RunPaint(spaces: Int32($0.glyphs)) }
            return RunPaint(
                glyphs: Int32($0.glyphs), color: color == base ? nil : (color.red, color.green, color.blue))
        }
    }

    /// The glyphs of `line` that Cairo writes as text, in the order it writes them (its runs
    /// in visual order, each run's glyphs in order), as stretches of one colour: how many
    /// glyphs, and their colour, nil for space glyphs (U+0020, U+00A0), which keep the colour
    /// before them and which the tagging pass may not find (a run of spaces alone has no ink,
    /// and Cairo may leave it out). Hidden glyphs and colour-font runs (drawn as pictures) are
    /// not written. Nil when the line holds a glyph its fonts lack, which is not written where
    /// the line's glyphs are (Pango draws a box with the code in small glyphs; a PDF's line, a
    /// stand-in in a span of its own and the box as outlines, ``MissingGlyphStandIns``).
    func segments(of line: UnsafeMutablePointer<PangoLayoutLine>) -> [(glyphs: Int, color: RGBAColor?)]? {
        guard let text = pango_layout_get_text(line.pointee.layout) else { return nil }
        var segments: [(glyphs: Int, color: RGBAColor?)] = []
        // The colour stretch of the glyph before: a line's glyphs mostly come in the order of
        // their bytes, so the next glyph's stretch is found by stepping on, not by searching.
        var stretch = 0
        func color(at byte: Int) -> RGBAColor {
            if starts[stretch] > byte || (stretch + 1 < starts.count && starts[stretch + 1] <= byte) {
                if stretch + 2 < starts.count, starts[stretch + 1] <= byte, starts[stretch + 2] > byte {
                    stretch += 1
                } else {
                    stretch = starts.stretchIndex(holding: byte)
                }
            }
            return colors[stretch]
        }
        var node = line.pointee.runs
        while let current = node {
            node = current.pointee.next
            let run = current.pointee.data.assumingMemoryBound(to: PangoGlyphItem.self)
            if let font = run.pointee.item.pointee.analysis.font, ColorFonts.isColorFont(font) { continue }
            let glyphs = run.pointee.glyphs.pointee
            let offset = Int(run.pointee.item.pointee.offset)
            for index in 0..<Int(glyphs.num_glyphs) {
                let glyph = glyphs.glyphs[index].glyph
                if glyph == PANGO_GLYPH_EMPTY { continue }
                // PANGO_GLYPH_UNKNOWN_FLAG: a glyph the fonts lack, drawn as a box.
                if glyph & 0x1000_0000 != 0 { return nil }
                let byte = offset + Int(glyphs.log_clusters[index])
                let lead = UInt8(bitPattern: text[byte])
                let space = lead == 0x20 || (lead == 0xC2 && UInt8(bitPattern: text[byte + 1]) == 0xA0)
                let color: RGBAColor? = space ? nil : color(at: byte)
                if let last = segments.last, last.color == color {
                    segments[segments.count - 1].glyphs += 1
                } else {
                    segments.append((1, color))
                }
            }
        }
        return segments
    }

    /// Sets the colour of every glyph run of `line` (its foreground attribute, which Pango's
    /// Cairo renderer draws with) to `color`.
    static func setForeground(_ color: RGBAColor, of line: UnsafeMutablePointer<PangoLayoutLine>) {
        let (red, green, blue, _) = color.pango16
        var node = line.pointee.runs
        while let current = node {
            node = current.pointee.next
            let run = current.pointee.data.assumingMemoryBound(to: PangoGlyphItem.self)
            var attributes = run.pointee.item.pointee.analysis.extra_attrs
            while let entry = attributes {
                attributes = entry.pointee.next
                let attribute = entry.pointee.data.assumingMemoryBound(to: PangoAttribute.self)
                guard attribute.pointee.klass.pointee.type == PANGO_ATTR_FOREGROUND else { continue }
                let colorAttribute = UnsafeMutableRawPointer(attribute).assumingMemoryBound(to: PangoAttrColor.self)
                colorAttribute.pointee.color = PangoColor(red: red, green: green, blue: blue)
            }
        }
    }
}

extension PangoShaper {
    /// The attributes of a highlighted code block's `runs` over the bytes `range` of its text
    /// (`starts`: each run's first byte; from run `firstRun`): runs that differ only in colour
    /// share one set of attributes, in the block's base colour (``CodePaints``).
    func addPaintedAttributes(
        _ runs: [StyledRun], starts: [Int], firstRun: Int, range: Range<Int>, bytes: [UInt8], paints: CodePaints,
        to attrs: AttrList
    ) {
        var group: (style: RunStyle, start: Int, end: Int)?
        // Each group's style in the base colour, made once per appearance (a new appearance is
        // an allocation, and a block has a few styles for many groups), with its font's first
        // family looked up once (``PangoSetup/shapingDescription(_:for:)``).
        var restyled: [(appearance: RunAppearance, style: RunStyle, first: FirstFamily?)] = []
        func flush() {
            guard let group else { return }
            let known: (appearance: RunAppearance, style: RunStyle, first: FirstFamily?)
            if let found = restyled.first(where: { $0.appearance === group.style.appearance }) {
                known = found
            } else {
                var made = group.style
                made.color = paints.base
                if made.background != nil { made.background = nil }
                known = (group.style.appearance, made, setup.firstFamily(made.font))
                restyled.append(known)
            }
            let text = String(decoding: bytes[group.start..<group.end], as: UTF8.self)
            let description =
                known.first.flatMap { $0.covers(text) ? $0.description : nil } ?? setup.description(known.style.font)
            addAttributes(
                known.style, text: text, to: attrs, start: group.start - range.lowerBound,
                end: group.end - range.lowerBound, description: description)
        }
        for index in firstRun..<runs.count {
            if starts[index] >= range.upperBound { break }
            let run = runs[index]
            let runStart = max(starts[index], range.lowerBound)
            let runEnd = min(starts[index] + run.text.utf8.count, range.upperBound)
            guard runStart < runEnd else { continue }
            if let current = group, current.end == runStart, CodePaints.differOnlyInColor(current.style, run.style) {
                group?.end = runEnd
            } else {
                flush()
                group = (run.style, runStart, runEnd)
            }
        }
        flush()
    }
}
