import DocumentModel
import Layout
internal import PangoCairoBackend
import Styling
import Typography

/// Text, line heights and inline pictures too large for the page, made to fit it, each with a
/// warning at its block's position (a footnote's: at its definition): nothing is cut by the
/// page edge, in silence or otherwise.
///
/// - A run whose glyphs cannot fit the text area at its size — wider than the measure or
///   taller than the text area, which no line break can help — is set at the largest size
///   that fits (``largestSize(for:)``), with its tracking and baseline offset scaled alike. A
///   word that fits letter by letter but not whole is the composer's to break between letters.
/// - A line step taller than the text area (`lineHeight=2000`, a large `lineHeightMultiple`)
///   is set to the text area's height: the half-leading would put the baseline below the page.
/// - An inline picture is bounded by the measure and the text area's height (its proportion
///   kept); one larger than that, as asked or as drawn, is reported.
///
/// The bounds are estimates from the em size alone (no shaping): a glyph is at most about
/// 1 em wide and a mid-word break adds a hyphen of about 0.4 em (Inter's widest capitals are
/// ~0.95 em, its hyphen 0.41 em), and a line box is about 1.25–1.45 em tall (Inter 1.21 em;
/// Noto Sans CJK KR 1.45 em). So a size is too large when 1.4 em passes the measure or 1.5 em
/// passes the text area's height.
enum SizeCheck {
    /// The largest font size, pt, whose glyphs fit the text area of `page`.
    static func largestSize(for page: PageSetup) -> Double { min(page.measure / 1.4, page.textHeight / 1.5) }

    /// Upper estimate of a face's natural line height (ascent + descent) in em: Noto Sans CJK KR.
    static let naturalHeight = 1.45

    /// Makes one block fit `page`; the warnings it needed. A block that fits is only read (a
    /// long table's compact rows are not rebuilt).
    static func fit(_ block: inout StyledBlock, page: PageSetup) -> [Diagnostic] {
        var fitter = Fitter(page: page)
        guard
            block.paragraphs.contains(where: fitter.needsFit)
                || block.hangingMarkers.contains(where: { $0.runs.contains { $0.style.font.size > fitter.largest } })
                || block.footnotes.values.contains(where: {
                    $0.contains { $0.paragraphs.contains(where: fitter.needsFit) }
                })
        else { return [] }
        let notes = block.footnotes
        block.footnotes = [:]
        let location = block.location
        block.updateParagraphs { fitter.fit(&$0, at: location) }
        for i in block.hangingMarkers.indices {
            for k in block.hangingMarkers[i].runs.indices { fitter.fit(&block.hangingMarkers[i].runs[k], at: location) }
        }
        // Set once: a block keeps its notes in storage shared on change, so setting them one
        // by one would copy them all for each note.
        var fitted = notes
        let locations = block.footnoteLocations
        for number in notes.keys.sorted() {
            let at = locations[number] ?? location
            for i in fitted[number]!.indices { fitted[number]![i].updateParagraphs { fitter.fit(&$0, at: at) } }
        }
        block.footnotes = fitted
        return fitter.diagnostics
    }

    /// Fits paragraphs, reporting each distinct case once.
    struct Fitter {
        let page: PageSetup
        let largest: Double
        var diagnostics: [Diagnostic] = []
        var reported = Set<String>()

        init(page: PageSetup) {
            self.page = page
            largest = SizeCheck.largestSize(for: page)
        }

        static func pt(_ points: Double) -> String { points.wholePointsText }

        var area: String { "the text area (\(Self.pt(page.measure)) × \(Self.pt(page.textHeight)) pt)" }

        mutating func warn(_ key: String, _ message: String, _ location: SourceLocation?) {
            if reported.insert(key + (location?.description ?? "")).inserted {
                diagnostics.append(Diagnostic(.warning, message, at: location, kind: .overfull))
            }
        }

        /// Whether `paragraph` has a size, line step or inline picture ``fit(_:at:)`` may change.
        func needsFit(_ paragraph: StyledParagraph) -> Bool {
            if paragraph.style.baseFont.size > largest || step(paragraph.style) > page.textHeight { return true }
            // Each list read where it is (joining them copied every run, some 400 bytes each).
            let changes = { (run: StyledRun) in run.style.font.size > largest || run.style.inlineImage != nil }
            return paragraph.runs.contains(where: changes) || (paragraph.marker ?? []).contains(where: changes)
        }

        /// The estimated line step of `style`, pt (the natural height an upper estimate).
        func step(_ style: ParagraphStyle) -> Double {
            let size = style.baseFont.size
            return
                (style.lineHeight?.step(size: size, naturalHeight: SizeCheck.naturalHeight * size)
                ?? SizeCheck.naturalHeight * size) + style.leadingAdjustment
        }

        mutating func fit(_ paragraph: inout StyledParagraph, at location: SourceLocation?) {
            for i in paragraph.runs.indices { fit(&paragraph.runs[i], at: location) }
            if paragraph.marker != nil {
                for i in paragraph.marker!.indices { fit(&paragraph.marker![i], at: location) }
            }
            var style = paragraph.style
            if style.baseFont.size > largest {
                style.lineHeight = style.lineHeight?.scaled(from: style.baseFont.size, to: largest)
                style.baseFont.size = largest
            }
            let step = step(style)
            if step > page.textHeight {
                style.lineHeight = .absolute(page.textHeight - style.leadingAdjustment)
                warn(
                    "step",
                    "a line height of \(Self.pt(step)) pt is taller than \(area): set at \(Self.pt(page.textHeight)) "
                        + "pt",
                    location)
            }
            paragraph.style = style
        }

        mutating func fit(_ run: inout StyledRun, at location: SourceLocation?) {
            let size = run.style.font.size
            if size > largest {
                let scale = largest / size
                run.style.font.size = largest
                run.style.letterSpacing *= scale
                run.style.baselineOffset *= scale
                if run.text.contains(where: { !$0.isWhitespace }) {
                    warn(
                        "size \(size)",
                        "text at \(Self.pt(size)) pt is too large for \(area): set at \(Self.pt(largest)) pt, "
                            + "the largest size whose glyphs fit", location)
                }
            }
            guard var image = run.style.inlineImage else { return }
            let font = run.style.font.size
            image.maxWidth = page.measure
            image.maxHeight = max(page.textHeight / 2, page.textHeight - 3 * font)
            run.style.inlineImage = image
            // The size it would have unbounded, as the backend computes it (line height estimated).
            var unbounded = image
            unbounded.maxWidth = nil
            unbounded.maxHeight = nil
            let natural = Self.naturalSize(ofFile: image.path) ?? (font, font)
            let asked = unbounded.size(natural: natural, lineHeight: 1.21 * font)
            if asked.width > image.maxWidth! + 0.01 || asked.height > image.maxHeight! + 0.01 {
                let fitted = image.size(natural: natural, lineHeight: 1.21 * font)
                warn(
                    "image \(image.path)",
                    "an image inside a line (\(Self.pt(asked.width)) × \(Self.pt(asked.height)) pt) is larger than "
                        + "\(area): "
                        + "scaled down to \(Self.pt(fitted.width)) × \(Self.pt(fitted.height)) pt", location)
            }
        }

        /// The picture's natural size, pt, as the backend reads it; nil when it cannot be read.
        static func naturalSize(ofFile path: String) -> (width: Double, height: Double)? {
            if ImageProbe.isSVG(path) {
                return ImageProbe.pixelSize(ofFile: path).map { (Double($0.width) * 0.75, Double($0.height) * 0.75) }
            }
            return ImageDecoder.info(ofFile: path)?.naturalSize
        }
    }
}
