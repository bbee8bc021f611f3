internal import CPangoCairo
import DocumentModel
import Foundation
import Styling
import TeXMath
import Typography

/// An OpenType MATH font read through HarfBuzz (`hb_ot_math_*`, HarfBuzz ≥ 1.3.3): the
/// ``MathFont`` the pure-Swift layout asks, in font units, and the Cairo face that draws its
/// glyphs.
final class HarfBuzzMathFont: MathFont, @unchecked Sendable {
    let font: OpaquePointer
    let face: OpaquePointer
    let cairoFace: OpaquePointer
    let unitsPerEm: Double
    let minimumConnectorOverlap: Double

    /// The font of `family` among `configuration`'s fonts (nil: fontconfig's current
    /// configuration, the installed fonts); nil when no font of that family is there (fontconfig
    /// would give another family's face, ``match(_:config:)``) or its face has no MATH table.
    init?(family: String, config configuration: OpaquePointer?) {
        guard let match = Self.match(family, config: configuration) else { return nil }
        defer { FcPatternDestroy(match) }
        var file: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(match, FC_FILE, 0, &file) == FcResultMatch, let file else { return nil }
        var index: Int32 = 0
        FcPatternGetInteger(match, FC_INDEX, 0, &index)
        let path = String(cString: UnsafeRawPointer(file).assumingMemoryBound(to: CChar.self))
        let blob = hb_blob_create_from_file(path)
        defer { hb_blob_destroy(blob) }
        face = hb_face_create(blob, UInt32(index))
        guard hb_ot_math_has_data(face) != 0 else {
            hb_face_destroy(face)
            return nil
        }
        font = hb_font_create(face)
        unitsPerEm = Double(hb_face_get_upem(face))
        hb_font_set_scale(font, Int32(unitsPerEm), Int32(unitsPerEm))
        minimumConnectorOverlap = Double(hb_ot_math_get_min_connector_overlap(font, HB_DIRECTION_TTB))
        cairoFace = cairo_ft_font_face_create_for_pattern(match)
    }

    /// The face fontconfig matches for `family` in `configuration`, only when it is a face of
    /// that family: for a family it does not have, fontconfig's match is another family's face
    /// (its default sans-serif), which is no face the theme asked for. The caller destroys it.
    static func match(_ family: String, config configuration: OpaquePointer?) -> OpaquePointer? {
        guard let pattern = FcNameParse(family) else { return nil }
        defer { FcPatternDestroy(pattern) }
        FcConfigSubstitute(configuration, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultMatch
        guard let match = FcFontMatch(configuration, pattern, &result) else { return nil }
        // Family names compared as fontconfig compares them (``UnknownFamilies/normalized(_:)``).
        let asked = UnknownFamilies.normalized(family)
        var position: Int32 = 0
        var name: UnsafeMutablePointer<FcChar8>?
        while FcPatternGetString(match, FC_FAMILY, position, &name) == FcResultMatch, let name {
            let named = String(cString: UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self))
            if UnknownFamilies.normalized(named) == asked { return match }
            position += 1
        }
        FcPatternDestroy(match)
        return nil
    }

    /// Whether `configuration` has a face of `family` (``match(_:config:)``).
    static func isInstalled(_ family: String, in configuration: OpaquePointer?) -> Bool {
        guard let match = match(family, config: configuration) else { return false }
        FcPatternDestroy(match)
        return true
    }

    deinit {
        cairo_font_face_destroy(cairoFace)
        hb_font_destroy(font)
        hb_face_destroy(face)
    }

    func constant(_ constant: MathConstant) -> Double {
        Double(hb_ot_math_get_constant(font, hb_ot_math_constant_t(UInt32(constant.rawValue))))
    }

    func glyph(for scalar: Unicode.Scalar) -> UInt32? {
        var glyph: hb_codepoint_t = 0
        return hb_font_get_nominal_glyph(font, scalar.value, &glyph) != 0 ? glyph : nil
    }

    private let lock = NSLock()
    nonisolated(unsafe) private var scriptGlyphs: [UInt64: UInt32] = [:]
    /// The glyphs the font's character map gives, by glyph: made at the first glyph that is
    /// not a character's own (a script, size or assembly form).
    nonisolated(unsafe) private var nominalCharacters: [UInt32: Unicode.Scalar]?
    /// The character each script, size and assembly form the layout has asked for stands for,
    /// by glyph, for the glyphs the character map does not give: without it, Cairo writes
    /// U+FFFD for them in the font's `/ToUnicode` map (PDF 1.7 §9.10.3), and text extraction
    /// that reads no `/ActualText` loses them.
    nonisolated(unsafe) private var formCharacters: [UInt32: Unicode.Scalar] = [:]

    func scriptGlyph(for scalar: Unicode.Scalar, level: Int) -> UInt32? {
        let key = UInt64(scalar.value) << 2 | UInt64(level)
        lock.lock()
        if let known = scriptGlyphs[key] {
            lock.unlock()
            return known
        }
        lock.unlock()
        var feature = hb_feature_t()
        guard hb_feature_from_string("ssty=\(level)", -1, &feature) != 0,
            let glyph = shape(String(Character(scalar)), features: [feature]).first?.glyph, glyph != 0
        else { return self.glyph(for: scalar) }
        lock.lock()
        scriptGlyphs[key] = glyph
        recordForms([glyph], of: scalar)
        lock.unlock()
        return glyph
    }

    /// The character `glyph` stands for when the font's character map does not give it: the
    /// character of the glyph it is a script, size or assembly form of.
    func formCharacter(of glyph: UInt32) -> Unicode.Scalar? {
        lock.lock()
        defer { lock.unlock() }
        return formCharacters[glyph]
    }

    /// Records `forms` as standing for `character`, each unless the character map gives it.
    /// Called with `lock` held.
    private func recordForms(_ forms: [UInt32], of character: Unicode.Scalar?) {
        guard let character else { return }
        let nominal = nominalCharacterMap()
        for form in forms where nominal[form] == nil {
            formCharacters[form] = character
        }
    }

    /// The character `glyph` stands for, from the character map or as a form. Called with
    /// `lock` held.
    private func character(of glyph: UInt32) -> Unicode.Scalar? {
        nominalCharacterMap()[glyph] ?? formCharacters[glyph]
    }

    /// The font's character map by glyph (a glyph of several characters keeps the lowest).
    /// Called with `lock` held.
    private func nominalCharacterMap() -> [UInt32: Unicode.Scalar] {
        if let nominalCharacters { return nominalCharacters }
        var map: [UInt32: Unicode.Scalar] = [:]
        let set = hb_set_create()
        defer { hb_set_destroy(set) }
        hb_face_collect_unicodes(face, set)
        var codePoint = hb_codepoint_t.max
        while hb_set_next(set, &codePoint) != 0 {
            var glyph: hb_codepoint_t = 0
            if hb_font_get_nominal_glyph(font, codePoint, &glyph) != 0, map[glyph] == nil,
                let scalar = Unicode.Scalar(codePoint)
            {
                map[glyph] = scalar
            }
        }
        nominalCharacters = map
        return map
    }

    func shape(_ text: String) -> [MathShapedGlyph] { shape(text, features: []) }

    func shape(_ text: String, features: [hb_feature_t]) -> [MathShapedGlyph] {
        guard let buffer = hb_buffer_create() else { return [] }
        defer { hb_buffer_destroy(buffer) }
        hb_buffer_add_utf8(buffer, text, Int32(text.utf8.count), 0, Int32(text.utf8.count))
        hb_buffer_guess_segment_properties(buffer)
        // Math fonts register their math features (`ssty`) under the script tag `math`.
        if !features.isEmpty { hb_buffer_set_script(buffer, HB_SCRIPT_MATH) }
        hb_shape(font, buffer, features, UInt32(features.count))
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
            let positions = hb_buffer_get_glyph_positions(buffer, &count)
        else { return [] }
        return (0..<Int(count)).map {
            MathShapedGlyph(
                glyph: infos[$0].codepoint, advance: Double(positions[$0].x_advance),
                offset: Double(positions[$0].x_offset))
        }
    }

    func advance(of glyph: UInt32) -> Double { Double(hb_font_get_glyph_h_advance(font, glyph)) }

    func bounds(of glyph: UInt32) -> (ascent: Double, descent: Double) {
        var extents = hb_glyph_extents_t()
        guard hb_font_get_glyph_extents(font, glyph, &extents) != 0 else { return (0, 0) }
        return (Double(extents.y_bearing), -Double(extents.y_bearing + extents.height))
    }

    func italicsCorrection(of glyph: UInt32) -> Double {
        Double(hb_ot_math_get_glyph_italics_correction(font, glyph))
    }

    func topAccentAttachment(of glyph: UInt32) -> Double? {
        let value = hb_ot_math_get_glyph_top_accent_attachment(font, glyph)
        // HarfBuzz answers half the advance for a glyph without one.
        return Double(value)
    }

    func variants(of glyph: UInt32, vertical: Bool) -> [(glyph: UInt32, advance: Double)] {
        let direction = vertical ? HB_DIRECTION_TTB : HB_DIRECTION_LTR
        var records = [hb_ot_math_glyph_variant_t](repeating: .init(), count: 32)
        var count: UInt32 = 32
        _ = hb_ot_math_get_glyph_variants(font, glyph, direction, 0, &count, &records)
        let variants = records.prefix(Int(count)).map { ($0.glyph, Double($0.advance)) }
        lock.lock()
        recordForms(variants.map(\.0), of: character(of: glyph))
        lock.unlock()
        return variants
    }

    func assembly(of glyph: UInt32, vertical: Bool) -> [MathGlyphPart] {
        let direction = vertical ? HB_DIRECTION_TTB : HB_DIRECTION_LTR
        var parts = [hb_ot_math_glyph_part_t](repeating: .init(), count: 16)
        var count: UInt32 = 16
        var italics: hb_position_t = 0
        _ = hb_ot_math_get_glyph_assembly(font, glyph, direction, 0, &count, &parts, &italics)
        lock.lock()
        recordForms(parts.prefix(Int(count)).map(\.glyph), of: character(of: glyph))
        lock.unlock()
        return parts.prefix(Int(count)).map {
            MathGlyphPart(
                glyph: $0.glyph, startConnector: Double($0.start_connector_length),
                endConnector: Double($0.end_connector_length), fullAdvance: Double($0.full_advance),
                isExtender: ($0.flags.rawValue & HB_OT_MATH_GLYPH_PART_FLAG_EXTENDER.rawValue) != 0)
        }
    }
}

/// Formulas inside lines of text through Pango shape attributes, as ``InlineImageShapes`` does
/// for pictures: the run's U+FFFC gets a box the size of the laid-out formula (its height
/// above the baseline, its depth below), and the shape renderer draws the formula's glyphs and
/// rules with Cairo at the box's baseline origin.
///
/// A shape attribute holds the piece it draws (``FormulaShape``, a ``ShapeData``), which holds
/// the formula laid out (``LaidOutFormula``): they live while a layout or line names them and
/// go when it does. The shaper's ``ShapeHold`` keeps the last thousand or so laid out, found by
/// their layout key, so a formula is laid out once however often its paragraph is measured,
/// shaped and described, a formula repeated nearby is laid out once, and a render holds the
/// formulas of the lines not yet drawn, not those of the whole document.
enum MathShapes {
    /// What a formula's layout depends on: its source (by digest and length), family, size,
    /// display, frame, a broken display's line starts, the face of its `\text` and the
    /// render's fonts. Hashing it hashes a digest of them all, taken once when it is made
    /// (a few short strings, whatever the formula's length), however often it is looked up.
    struct LayoutKey: Hashable {
        /// A digest of the rest, compared first.
        private let digest: Int
        /// The math font's family.
        let family: String
        /// The size it is set at, pt.
        let size: Double
        let display: Bool
        let frame: InlineFormula.TaggedFrame?
        /// The `\text` face's families, weight and style (its size follows the math style).
        let textFamilies: [String]
        let textWeight: FontWeight
        let textItalic: Bool
        let monospaceFamilies: [String]
        /// The render's fonts.
        let fonts: ObjectIdentifier
        /// A broken display's line starts, by number and digest: a formula of n pieces is
        /// looked up n times, and hashing the whole list at each would take n² steps.
        let lineStartCount: Int
        let lineStartDigest: Int
        /// The source, by digest (``InlineFormula/sourceDigest``) and length in UTF-8 bytes: a
        /// false match would need two sources of one length whose 64-bit SipHash digests,
        /// keyed afresh in each process, agree.
        let sourceDigest: Int
        let sourceLength: Int

        init(
            family: String, size: Double, display: Bool, frame: InlineFormula.TaggedFrame?, textFamilies: [String],
            textWeight: FontWeight, textItalic: Bool, monospaceFamilies: [String], fonts: ObjectIdentifier,
            lineStartCount: Int, lineStartDigest: Int, sourceDigest: Int, sourceLength: Int
        ) {
            self.family = family
            self.size = size
            self.display = display
            self.frame = frame
            self.textFamilies = textFamilies
            self.textWeight = textWeight
            self.textItalic = textItalic
            self.monospaceFamilies = monospaceFamilies
            self.fonts = fonts
            self.lineStartCount = lineStartCount
            self.lineStartDigest = lineStartDigest
            self.sourceDigest = sourceDigest
            self.sourceLength = sourceLength
            var hasher = Hasher()
            hasher.combine(family)
            hasher.combine(size)
            hasher.combine(display)
            hasher.combine(frame)
            hasher.combine(textFamilies)
            hasher.combine(textWeight)
            hasher.combine(textItalic)
            hasher.combine(monospaceFamilies)
            hasher.combine(fonts)
            hasher.combine(lineStartCount)
            hasher.combine(lineStartDigest)
            hasher.combine(sourceDigest)
            hasher.combine(sourceLength)
            digest = hasher.finalize()
        }

        func hash(into hasher: inout Hasher) { hasher.combine(digest) }
    }

    /// A formula's layout key and one of its pieces (whose alternative text follows from the
    /// source, as its nodes do).
    struct PieceKey: Hashable {
        let layout: LayoutKey
        let piece: Int
    }

    /// A piece of an inline formula cut into pieces (``InlineFormula/pieceNodes``): what tells
    /// the pieces of one formula side by side on a line, which are tagged as one `Formula`.
    struct FormulaPiece {
        /// The formula's layout key (its source's digest, size and faces), shared by its pieces.
        let formulaKey: LayoutKey
        /// The parsed formula.
        let formula: MathFormula
        /// The nodes the piece sets.
        let nodes: Range<Int>

        /// This piece and `next` as one, when `next` is the piece that follows it in the same
        /// formula; else nil.
        func joined(with next: FormulaPiece) -> FormulaPiece? {
            guard next.formulaKey == formulaKey, next.nodes.lowerBound == nodes.upperBound else { return nil }
            return FormulaPiece(
                formulaKey: formulaKey, formula: formula, nodes: nodes.lowerBound..<next.nodes.upperBound)
        }

        /// The source of the piece's nodes, without amsmath's numbering commands (as a piece's
        /// ``InlineFormula/alternativeText``).
        var source: String { MathFormula.removingNumbering(from: formula.source(ofNodes: nodes)) }
    }
    /// The math font of `family` among `fonts`, loaded once for that configuration; the
    /// default family's (``InlineFormula/defaultFamily``) when `fonts` has no face of `family`
    /// or its face has no MATH table; nil when neither is there.
    static func font(_ family: String, in fonts: FontConfiguration) -> HarfBuzzMathFont? {
        fonts.mathFont(family) ?? fonts.mathFont(InlineFormula.defaultFamily)
    }

    /// The laid-out box of `formula` (its piece) at `size` pt and the shape a shape attribute
    /// holds to draw it, found in `hold` when it was laid out lately. A formula is laid out
    /// all its pieces at once.
    static func layout(
        _ formula: InlineFormula, size textSize: Double, fonts: FontConfiguration, hold: ShapeHold
    ) -> (box: MathBox, shape: FormulaShape)? {
        let size = textSize * formula.scale
        let text = PangoMathText(
            font: formula.textFont, configuration: fonts, monospaceFamilies: formula.monospaceFamilies)
        let starts = formula.displayLineStarts
        let key = LayoutKey(
            family: formula.family, size: size, display: formula.display, frame: formula.taggedFrame,
            textFamilies: text.font.families, textWeight: text.font.weight, textItalic: text.font.italic,
            monospaceFamilies: text.monospaceFamilies, fonts: ObjectIdentifier(fonts), lineStartCount: starts.count,
            lineStartDigest: formula.displayLineStartsDigest, sourceDigest: formula.sourceDigest,
            sourceLength: formula.source.utf8.count)
        let pieceKey = PieceKey(layout: key, piece: formula.piece)
        if let known = hold.formulaPieces.value(for: pieceKey) { return (known.box, known) }
        let laidOut: LaidOutFormula
        if let known = hold.formulas.value(for: key) {
            laidOut = known
        } else {
            guard let font = font(formula.family, in: fonts) else { return nil }
            laidOut = hold.formulas.add(
                LaidOutFormula(
                    boxes: layoutPieces(formula, size: size, font: font, text: text), font: font, text: text),
                for: key)
        }
        guard laidOut.boxes.indices.contains(formula.piece) else { return nil }
        let piece = formula.pieceNodes.map { FormulaPiece(formulaKey: key, formula: formula.formula, nodes: $0) }
        let shape = hold.formulaPieces.add(
            FormulaShape(laidOut, piece: formula.piece, source: formula.alternativeText, nodes: piece), for: pieceKey)
        return (shape.box, shape)
    }

    /// `paragraph` with each displayed formula wider than `width` pt shrunk to fit, down to
    /// ``InlineFormula/smallestDisplayScale`` of the text's size; one still too wide there is
    /// set at the text's size broken into lines after its relations and binary operations,
    /// each line as full as fits (``InlineFormula/displayLineStarts``), its lines' runs apart
    /// by line separators, and one with no such break is shrunk further, down to
    /// whatever fits: a formula wider than the page would run off it, its text lost to every
    /// reader of the page. A piece of an inline formula (the formula cut after its relations
    /// and operations) wider than `width` has nowhere to break: it is shrunk to fit as well.
    /// Those shrunk below the first scale are listed.
    ///
    /// A formula taller than `height` pt (a `cases` of hundreds of rows inline, a long
    /// `aligned`), which would reach past the page's bottom edge, its line's text with it, is
    /// shrunk to that height (and listed), however it fits the measure.
    static func fittingWideFormulas(
        _ paragraph: StyledParagraph, width: Double, height: Double = .infinity, fonts: FontConfiguration,
        hold: ShapeHold
    ) -> (paragraph: StyledParagraph, overwide: [OverwideFormula]) {
        guard paragraph.runs.contains(where: { $0.style.inlineFormula != nil }) else { return (paragraph, []) }
        var fitted = paragraph
        var overwide: [OverwideFormula] = []
        var broken: [(index: Int, runs: [StyledRun])] = []
        for index in fitted.runs.indices {
            let style = fitted.runs[index].style
            guard var formula = style.inlineFormula, formula.scale == 1, formula.displayLineStarts.isEmpty,
                let box = layout(formula, size: style.font.size, fonts: fonts, hold: hold)?.box,
                box.width > width || box.height + box.depth > height
            else { continue }
            if box.height + box.depth > height {
                formula.scale = min(width / box.width, height / (box.height + box.depth))
                overwide.append(
                    OverwideFormula(
                        source: formula.display ? formula.source : formula.alternativeText, scale: formula.scale,
                        display: formula.display, location: formula.location, tall: true, width: width))
                fitted.runs[index].style.inlineFormula = formula
                continue
            }
            if !formula.display {
                formula.scale = width / box.width
                overwide.append(
                    OverwideFormula(
                        source: formula.alternativeText, scale: formula.scale, display: false,
                        location: formula.location, width: width))
                fitted.runs[index].style.inlineFormula = formula
                continue
            }
            formula.scale = max(InlineFormula.smallestDisplayScale, width / box.width)
            // A `\\tag` label (two em spaces, then the label) keeps room on the last line:
            // an em a space and at most 0.6 em a character of the label.
            let labelled = index + 1 < fitted.runs.count && fitted.runs[index + 1].text.hasPrefix("\u{2003}\u{2003}")
            // A labelled formula too wide for the measure is broken, where it may be, rather
            // than set smaller, which leaves its label no room beside it.
            if box.width * formula.scale > width + 0.01 || labelled {
                var room = width
                if labelled {
                    let label = fitted.runs[index + 1]
                    room -= label.style.font.size * (2 + 0.6 * Double(label.text.count - 2))
                }
                if let lines = brokenIntoLines(fitted.runs[index], width: room, fonts: fonts) {
                    broken.append((index, lines))
                    continue
                }
            }
            if box.width * formula.scale > width + 0.01 {
                formula.scale = width / box.width
                overwide.append(
                    OverwideFormula(
                        source: formula.source, scale: formula.scale, location: formula.location,
                        hasBreaks: !formula.formula.breakIndices.isEmpty, width: width))
            }
            fitted.runs[index].style.inlineFormula = formula
        }
        for (index, runs) in broken.reversed() { fitted.runs.replaceSubrange(index...index, with: runs) }
        return (fitted, overwide)
    }

    /// The runs of the displayed formula `run` broken into lines at most `width` pt wide at
    /// the text's size (a run a line, line separators between); nil when it has no break or
    /// one of its pieces alone is wider.
    private static func brokenIntoLines(_ run: StyledRun, width: Double, fonts: FontConfiguration) -> [StyledRun]? {
        guard let formula = run.style.inlineFormula, let font = font(formula.family, in: fonts) else { return nil }
        let cuts = formula.formula.breakIndices
        guard !cuts.isEmpty else { return nil }
        let text = PangoMathText(
            font: formula.textFont, configuration: fonts, monospaceFamilies: formula.monospaceFamilies)
        let widths = mathLayout(formula, size: run.style.font.size, font: font, text: text)
            .layoutPieces(formula.formula, style: .display).map(\.width)
        guard widths.count == cuts.count + 1, widths.allSatisfy({ $0 <= width + 0.01 }) else { return nil }
        let starts = balancedLineStarts(widths, width: width)
        // The nodes each piece holds: a piece ends after the node its cut follows.
        let nodeBounds = [0] + cuts.map { $0 + 1 } + [formula.formula.nodes.count]
        let lineBounds = [0] + starts + [widths.count]
        var runs: [StyledRun] = []
        var separator = run.style
        separator.inlineFormula = nil
        // The starts set once (their digest made once), each line's piece a copy.
        var broken = formula
        broken.displayLineStarts = starts
        for line in 0..<(lineBounds.count - 1) {
            var piece = broken
            piece.piece = line
            piece.alternativeText = MathFormula.removingNumbering(
                from: formula.formula.source(ofNodes: nodeBounds[lineBounds[line]]..<nodeBounds[lineBounds[line + 1]]))
            var style = run.style
            style.inlineFormula = piece
            if line > 0 { runs.append(StyledRun("\u{2028}", style: separator)) }
            runs.append(StyledRun(run.text, style: style))
        }
        return runs
    }

    /// The pieces of `formula` laid out with `font` at `size` pt: the whole for a displayed
    /// formula, one box a piece for an inline one (``MathLayout/layoutPieces(_:style:)``).
    private static func layoutPieces(
        _ formula: InlineFormula, size: Double, font: HarfBuzzMathFont, text: PangoMathText
    )
        -> [MathBox]
    {
        let layout = mathLayout(formula, size: size, font: font, text: text)
        if formula.display, !formula.displayLineStarts.isEmpty {
            // A line a box: its pieces side by side.
            let pieces = layout.layoutPieces(formula.formula, style: .display)
            let bounds = [0] + formula.displayLineStarts + [pieces.count]
            return (0..<(bounds.count - 1)).map { line in
                var box = MathBox()
                for piece in pieces[bounds[line]..<min(bounds[line + 1], pieces.count)] { box.append(piece) }
                // The last line's label frame (``PangoShaper/placingTags(_:width:)``).
                guard line == bounds.count - 2, let frame = formula.taggedFrame else { return box }
                var framed = MathBox(width: frame.width)
                framed.place(box, x: frame.inset, y: 0)
                return framed
            }
        }
        if formula.display {
            guard let frame = formula.taggedFrame else { return [layout.layout(formula.formula, style: .display)] }
            if !frame.rowLabels.isEmpty {
                return [rowLabelled(formula, frame: frame, size: size, layout: layout, text: text)]
            }
            let box = layout.layout(formula.formula, style: .display)
            var framed = MathBox(width: frame.width)
            framed.place(box, x: frame.inset, y: 0)
            if let label = frame.labelBelow {
                // The label's line under the formula, a third of an em below its depth.
                let extent = text.measure(label, face: .regular, size: size)
                let baseline = -(box.depth + size / 3 + extent.ascent)
                framed.items.append(
                    .text(label, face: .regular, x: frame.width - extent.width, y: baseline, size: size, color: nil))
                framed.depth = max(framed.depth, -baseline + extent.descent)
            }
            return [framed]
        }
        return layout.layoutPieces(formula.formula, style: .text)
    }

    /// The box of a displayed formula numbered by row (``InlineFormula/TaggedFrame/rowLabels``):
    /// the formula `frame.inset` pt into a box `frame.width` pt wide, each row's label at the
    /// text's size (``fittedLabelSize(_:frame:size:layout:text:)``) flush right at the box's right edge,
    /// on its row's baseline, or for a row that leaves it no room on a line of its own under the
    /// row, a third of an em below it, the rows after it moved down to make room (amsmath's
    /// placement of a tag that does not fit beside its row).
    private static func rowLabelled(
        _ formula: InlineFormula, frame: InlineFormula.TaggedFrame, size: Double, layout: MathLayout,
        text: PangoMathText
    ) -> MathBox {
        let labelSize = fittedLabelSize(formula, frame: frame, size: size, layout: layout, text: text)
        let gap = labelSize / 3
        var spaced = formula.formula
        for label in frame.rowLabels where label.below {
            let extent = text.measure(label.text, face: .regular, size: labelSize)
            // A formula set smaller keeps its labels at the text's size: the next row, whose
            // own label stands on its baseline, may be shorter than that label is tall (its
            // strut is 0.84 of its size, amsmath's \strut), and moves down by the difference too.
            let taller = max(0, extent.ascent - 0.84 * size)
            spaced = spaced.spacingRow(label.row, by: (gap + extent.ascent + extent.descent + taller) / size)
        }
        let box = layout.layout(spaced, style: .display)
        var framed = MathBox(width: frame.width)
        framed.place(box, x: frame.inset, y: 0)
        for label in frame.rowLabels where box.rows.indices.contains(label.row) {
            let row = box.rows[label.row]
            let extent = text.measure(label.text, face: .regular, size: labelSize)
            let baseline = label.below ? row.baseline - row.depth - gap - extent.ascent : row.baseline
            framed.items.append(
                .text(
                    label.text, face: .regular, x: frame.width - extent.width, y: baseline, size: labelSize,
                    color: nil))
            framed.height = max(framed.height, baseline + extent.ascent)
            framed.depth = max(framed.depth, -baseline + extent.descent)
        }
        return framed
    }

    /// The size of a row-labelled formula's labels, pt: the text's (the formula's own, not
    /// shrunk with it), unless the rows whose labels stand on their baselines are closer than a
    /// label of that size is tall (a formula set smaller to fit the text area's height), where
    /// the labels are set smaller, to nine tenths of the closest two rows' distance, so that
    /// they do not run into one another.
    private static func fittedLabelSize(
        _ formula: InlineFormula, frame: InlineFormula.TaggedFrame, size: Double, layout: MathLayout,
        text: PangoMathText
    ) -> Double {
        let labelSize = size / formula.scale
        guard formula.scale < 1 else { return labelSize }
        let rows = layout.layout(formula.formula, style: .display).rows
        let onBaselines = frame.rowLabels.filter { !$0.below && rows.indices.contains($0.row) }.map(\.row).sorted()
        let pitch = zip(onBaselines, onBaselines.dropFirst()).map { rows[$0].baseline - rows[$1].baseline }.min()
        guard let pitch, pitch > 0, let tallest = frame.rowLabels.max(by: { $0.text.count < $1.text.count }) else {
            return labelSize
        }
        let extent = text.measure(tallest.text, face: .regular, size: labelSize)
        let height = extent.ascent + extent.descent
        // A tenth of the distance kept clear between two labels.
        let room = pitch * 0.9
        return height > room ? labelSize * room / height : labelSize
    }

    /// The frame of a displayed formula numbered by row (``MathFormula/rowTags``) set in a
    /// measure `width` pt wide at `textSize` pt: the formula centred in the measure, each
    /// row's label at the measure's right edge on the row's baseline, or under the row when
    /// the row does not end an em before the label. Nil for another formula, or when its rows
    /// are not found in its box.
    static func rowLabelFrame(
        _ formula: InlineFormula, textSize: Double, width: Double, fonts: FontConfiguration, hold: ShapeHold
    ) -> InlineFormula.TaggedFrame? {
        let tags = formula.formula.rowTags
        guard formula.display, !tags.isEmpty, formula.taggedFrame == nil, formula.displayLineStarts.isEmpty,
            let box = layout(formula, size: textSize, fonts: fonts, hold: hold)?.box, box.rows.count == tags.count
        else { return nil }
        let text = PangoMathText(
            font: formula.textFont, configuration: fonts, monospaceFamilies: formula.monospaceFamilies)
        let inset = max(0, (width - box.width) / 2)
        var labels: [InlineFormula.TaggedFrame.RowLabel] = []
        for (row, tag) in tags.enumerated() {
            guard let tag else { continue }
            let labelWidth = text.measure(tag, face: .regular, size: textSize).width
            let fits = inset + box.rows[row].end + textSize <= width - labelWidth
            labels.append(InlineFormula.TaggedFrame.RowLabel(row: row, text: tag, below: !fits))
        }
        return InlineFormula.TaggedFrame(width: max(width, inset + box.width), inset: inset, rowLabels: labels)
    }

    /// Where lines begin when pieces `widths` (pt, each at most `width`) are set in as few
    /// lines of at most `width` pt as hold them, as evenly full as can be: the breaks that
    /// make the fewest lines with the least sum of squared differences from the measure,
    /// so that no last line holds a lone term. The indices of the second and later lines'
    /// first pieces.
    static func balancedLineStarts(_ widths: [Double], width: Double) -> [Int] {
        let count = widths.count
        // best[i]: the cheapest (lines, squared slack) setting pieces i… and where its first line ends.
        var best = [(lines: Int, slack: Double, next: Int)](repeating: (Int.max, 0, count), count: count + 1)
        best[count] = (0, 0, count)
        for start in stride(from: count - 1, through: 0, by: -1) {
            var lineWidth = 0.0
            for end in (start + 1)...count {
                lineWidth += widths[end - 1]
                guard lineWidth <= width + 0.01 else { break }
                let rest = best[end]
                guard rest.lines != Int.max else { continue }
                let slack = rest.slack + (width - lineWidth) * (width - lineWidth)
                let candidate = (lines: rest.lines + 1, slack: slack, next: end)
                if (candidate.lines, candidate.slack) < (best[start].lines, best[start].slack) {
                    best[start] = candidate
                }
            }
        }
        var starts: [Int] = []
        var index = best[0].next
        while index < count {
            starts.append(index)
            index = best[index].next
        }
        return starts
    }

    /// The layout of `formula`'s nodes with `font` at `size` pt, its `\\text` measured by `text`.
    private static func mathLayout(
        _ formula: InlineFormula, size: Double, font: HarfBuzzMathFont, text: PangoMathText
    ) -> MathLayout {
        let error = formula.errorColor
        let colors = formula.colors
        return MathLayout(
            font: font, size: size, errorColor: MathColor(red: error.red, green: error.green, blue: error.blue),
            colors: { name in
                let color =
                    colors[name] ?? CSSColors.color(named: name) ?? (name.hasPrefix("#") ? RGBAColor(hex: name) : nil)
                return color.map { MathColor(red: $0.red, green: $0.green, blue: $0.blue, alpha: $0.alpha) }
            }, textMeasurer: text)
    }

    /// What the formula of a run of `style` reaches above and below the baseline, pt (zero for
    /// text): a formula grows its line by what it needs beyond the face's ascent and descent,
    /// as a picture does.
    static func extents(of style: RunStyle, fonts: FontConfiguration, hold: ShapeHold) -> (
        height: Double, depth: Double
    ) {
        guard let formula = style.inlineFormula,
            let box = layout(formula, size: style.font.size, fonts: fonts, hold: hold)?.box
        else {
            return (0, 0)
        }
        return (box.height, box.depth)
    }

    /// A shape attribute holding the formula's box.
    static func attribute(
        _ formula: InlineFormula, size: Double, fonts: FontConfiguration, hold: ShapeHold
    ) -> UnsafeMutablePointer<PangoAttribute>? {
        guard let (box, shape) = layout(formula, size: size, fonts: fonts, hold: hold) else { return nil }
        let rect = PangoRectangle(
            x: 0, y: -PangoUnits.from(box.height), width: PangoUnits.from(box.width),
            height: PangoUnits.from(box.height + box.depth))
        return shape.attribute(ink: rect, logical: rect)
    }

    /// Draws `shape`'s formula piece with its origin at (`x`, `baseline`) on `cr`.
    static func draw(_ shape: FormulaShape, x: Double, baseline: Double, on cr: OpaquePointer) {
        let font = shape.formula.font
        let text = shape.formula.text
        cairo_save(cr)
        defer { cairo_restore(cr) }
        let textColor = cairo_get_source(cr)
        cairo_set_font_face(cr, font.cairoFace)
        // Consecutive glyphs of one size and colour go to Cairo in one call: Cairo records,
        // analyses and replays each call it is given, and a formula's script, run of digits or
        // stretched delimiter is several glyphs.
        var glyphs: [cairo_glyph_t] = []
        var forms = FormText()
        var glyphStyle: (size: Double, color: MathColor?)?
        func showGlyphs() {
            guard let style = glyphStyle, !glyphs.isEmpty else { return }
            setColor(style.color, fallback: textColor, on: cr)
            cairo_set_font_size(cr, style.size)
            forms.show(glyphs, on: cr)
            glyphs.removeAll(keepingCapacity: true)
            forms.removeAll()
        }
        for item in shape.box.drawnItems {
            if case .glyph(let glyph, let gx, let gy, let size, let color) = item {
                if let style = glyphStyle, style.size != size || style.color != color { showGlyphs() }
                glyphStyle = (size, color)
                glyphs.append(cairo_glyph_t(index: UInt(glyph), x: x + gx, y: baseline - gy))
                forms.append(font.formCharacter(of: glyph))
                continue
            }
            showGlyphs()
            switch item {
            case .glyph, .group:
                break
            case .rule(let rx, let ry, let width, let height, let color):
                setColor(color, fallback: textColor, on: cr)
                cairo_rectangle(cr, x + rx, baseline - ry - height, width, height)
                cairo_fill(cr)
            case .text(let string, let face, let tx, let ty, let size, let color):
                setColor(color, fallback: textColor, on: cr)
                text.draw(string, face: face, size: size, x: x + tx, baseline: baseline - ty, on: cr)
                cairo_set_font_face(cr, font.cairoFace)
            case .stroke(let sx, let sy, let toX, let toY, let width, let color):
                setColor(color, fallback: textColor, on: cr)
                cairo_set_line_width(cr, width)
                cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT)
                cairo_move_to(cr, x + sx, baseline - sy)
                cairo_line_to(cr, x + toX, baseline - toY)
                cairo_stroke(cr)
            }
        }
        showGlyphs()
    }

    /// A run of glyphs with the character of each script, size or assembly form among them
    /// (``HarfBuzzMathFont/formCharacter(of:)``). The forms go to Cairo with their characters
    /// (`cairo_show_text_glyphs`, a cluster a glyph), which Cairo writes in the font's
    /// `/ToUnicode` map; the other glyphs go as glyphs alone (`cairo_show_glyphs`), their
    /// characters found by Cairo in the font's character map. A glyph with a cluster of no text
    /// would be written inside an empty `/ActualText` span instead.
    private struct FormText {
        private var characters: [Unicode.Scalar?] = []

        mutating func append(_ character: Unicode.Scalar?) { characters.append(character) }

        mutating func removeAll() { characters.removeAll(keepingCapacity: true) }

        func show(_ glyphs: [cairo_glyph_t], on cr: OpaquePointer) {
            var start = 0
            while start < glyphs.count {
                let isForm = characters[start] != nil
                var end = start + 1
                while end < glyphs.count, (characters[end] != nil) == isForm { end += 1 }
                let run = Array(glyphs[start..<end])
                if isForm {
                    let utf8 = characters[start..<end].map { String($0!) }.joined().utf8.map { CChar(bitPattern: $0) }
                    let clusters = characters[start..<end].map {
                        cairo_text_cluster_t(num_bytes: Int32(String($0!).utf8.count), num_glyphs: 1)
                    }
                    cairo_show_text_glyphs(
                        cr, utf8, Int32(utf8.count), run, Int32(run.count), clusters, Int32(clusters.count),
                        cairo_text_cluster_flags_t(0))
                } else {
                    cairo_show_glyphs(cr, run, Int32(run.count))
                }
                start = end
            }
        }
    }

    private static func setColor(_ color: MathColor?, fallback: OpaquePointer?, on cr: OpaquePointer) {
        if let color {
            cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
        } else if let fallback {
            cairo_set_source(cr, fallback)
        }
    }
}

/// A formula laid out at one size with its faces: each piece's box (the whole formula's, for a
/// formula in one piece) and what draws them. Held by its pieces' shapes (``FormulaShape``)
/// and, for a while, by the shaper's ``ShapeHold``.
final class LaidOutFormula: @unchecked Sendable {
    /// The boxes of the formula's pieces, in order (one for a formula in one piece; a line
    /// each for a displayed formula broken into lines).
    let boxes: [MathBox]
    /// The math font its glyphs are drawn in.
    let font: HarfBuzzMathFont
    /// What measures and draws its `\text`.
    let text: PangoMathText

    init(boxes: [MathBox], font: HarfBuzzMathFont, text: PangoMathText) {
        self.boxes = boxes
        self.font = font
        self.text = text
    }
}

/// A piece of a formula laid out (the whole formula, for one in one piece), as the data of the
/// shape attributes over its run: what the shape renderer draws and the tagging reads.
final class FormulaShape: ShapeData, @unchecked Sendable {
    /// The formula laid out.
    let formula: LaidOutFormula
    /// Which of its pieces this is.
    let index: Int
    /// The piece's TeX source, without amsmath's numbering (``InlineFormula/alternativeText``).
    let source: String
    /// The piece among the formula's pieces (nil for a formula in one piece): what joins pieces
    /// side by side on a line into one `Formula`.
    let piece: MathShapes.FormulaPiece?

    init(_ formula: LaidOutFormula, piece index: Int, source: String, nodes piece: MathShapes.FormulaPiece?) {
        self.formula = formula
        self.index = index
        self.source = source
        self.piece = piece
    }

    /// The piece's box.
    var box: MathBox { formula.boxes[index] }
}

/// A theme's math family whose face has no OpenType MATH table (a text face such as Inter or
/// DejaVu Sans), and the family formulas are set in instead.
public struct MathFamilyFallback: Hashable, Sendable {
    /// Why the theme's family is not used.
    public enum Reason: Hashable, Sendable {
        /// No font of the family is installed or registered (`--fonts`, the theme's font folders).
        case notInstalled
        /// Its face has no OpenType MATH table (a text face).
        case noMathTable
    }

    /// The family the theme names for math.
    public var family: String
    /// Why it is not used.
    public var reason: Reason
    /// The family formulas are set in: ``InlineFormula/defaultFamily``; nil when that has no
    /// MATH table either (formulas are then left out of the drawing).
    public var fallback: String?
}

extension FontLibrary {
    /// Nil when `fonts` (the render's installed and registered fonts) has a face of `family`
    /// with an OpenType MATH table (the constants, glyph variants and assemblies formulas are
    /// laid out with); else why not, and what formulas are set in instead.
    public static func mathFallback(for family: String, in fonts: FontSession) -> MathFamilyFallback? {
        let configuration = fonts.configuration
        return SharedFontMap.run {
            guard configuration.mathFont(family) == nil else { return nil }
            // Not loaded: the face has no MATH table, or there is no face of the family.
            let reason: MathFamilyFallback.Reason =
                HarfBuzzMathFont.isInstalled(family, in: configuration.config) ? .noMathTable : .notInstalled
            let fallback = InlineFormula.defaultFamily
            return MathFamilyFallback(
                family: family, reason: reason,
                fallback: configuration.mathFont(fallback) == nil ? nil : fallback)
        }
    }
}

/// A displayed formula wider than the measure at ``InlineFormula/smallestDisplayScale`` of
/// the text's size that has no place to break (``MathFormula/breakIndices``).
public struct OverwideFormula: Hashable, Sendable {
    /// Its TeX source.
    public var source: String
    /// The factor on the text's size it is set at to fit the measure.
    public var scale: Double
    /// Whether it is displayed; false: a piece of an inline formula.
    public var display = true
    /// Where the formula is written.
    public var location: SourceLocation?
    /// Whether it has places to break (a part between them being wider than the measure).
    public var hasBreaks = false
    /// Whether it is taller than the text area (set smaller for that, however wide).
    public var tall = false
    /// The width it was fitted to, pt: the measure, or a table cell's.
    public var width = 0.0
}
