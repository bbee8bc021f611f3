internal import CPangoCairo
import Styling
import TeXMath

/// The `\text{…}` of a formula (``MathNucleus/prose(_:_:)``) shaped by Pango in the surrounding
/// text's face, with the same font description and fallback as running text: Hangul, CJK,
/// accented letters and emoji the math font lacks are drawn from the faces that have them, and
/// spaces keep their width. Measured for the layout, shaped again to draw.
struct PangoMathText: MathTextMeasurer {
    /// The surrounding run's font (its size is replaced by the math style's).
    let font: FontSpec
    /// The fonts of the render the formula is set in (its font folders included).
    let configuration: FontConfiguration
    /// The families of `\texttt`.
    let monospaceFamilies: [String]

    /// The font request for `face` at `size` pt: the surrounding font, made italic or bold, or
    /// the monospaced families.
    func request(_ face: MathTextFace, size: Double) -> FontSpec {
        var request = font
        request.size = size
        switch face {
        case .regular: break
        case .italic: request.italic = true
        case .bold: request.weight = .bold
        case .monospace: request.families = monospaceFamilies
        }
        return request
    }

    /// A one-line Pango layout of `text` (line breaks read as spaces), on a font map of
    /// ``configuration`` borrowed for as long as the layout lives. Call inside
    /// ``SharedFontMap/run(_:)``.
    private func layout(_ text: String, face: MathTextFace, size: Double) -> GObjectRef {
        let session = FontSession(configuration)
        let setup = session.setup
        let pointer = pango_layout_new(setup.context(forPictures: false).opaque)!
        let layout = GObjectRef(owning: UnsafeMutableRawPointer(pointer), session: session)
        let line = String(text.map { $0.isNewline ? " " : $0 })
        pango_layout_set_text(pointer, line, Int32(line.utf8.count))
        pango_layout_set_single_paragraph_mode(pointer, 1)
        pango_layout_set_font_description(pointer, setup.description(request(face, size: size)).pointer)
        return layout
    }

    func measure(_ text: String, face: MathTextFace, size: Double) -> MathTextExtent {
        SharedFontMap.run {
            let made = layout(text, face: face, size: size)
            guard let line = pango_layout_get_line_readonly(made.opaque, 0) else {
                return MathTextExtent(width: 0, ascent: 0, descent: 0)
            }
            var ink = PangoRectangle()
            var logical = PangoRectangle()
            pango_layout_line_get_extents(line, &ink, &logical)
            let scale = Double(PANGO_SCALE)
            guard ink.height > 0 else {
                return MathTextExtent(width: Double(logical.width) / scale, ascent: 0, descent: 0)
            }
            return MathTextExtent(
                width: Double(logical.width) / scale, ascent: max(0, -Double(ink.y) / scale),
                descent: max(0, Double(ink.y + ink.height) / scale))
        }
    }

    /// Draws `text` with its baseline origin at (`x`, `baseline`) on `cr` in the current source
    /// colour, colour glyphs as running text draws them (``ColorGlyphRuns``).
    func draw(_ text: String, face: MathTextFace, size: Double, x: Double, baseline: Double, on cr: OpaquePointer) {
        SharedFontMap.run {
            let made = layout(text, face: face, size: size)
            guard let line = pango_layout_get_line_readonly(made.opaque, 0) else { return }
            ColorGlyphRuns.draw(line, cr: cr, x: x, baseline: baseline) {
                cairo_move_to(cr, x, baseline)
                pango_cairo_show_layout_line(cr, line)
                cairo_new_path(cr)
            }
        }
    }
}
