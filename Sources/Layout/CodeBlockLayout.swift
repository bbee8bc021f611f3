import DocumentModel
import Styling
import Typography

/// Code blocks (``StyledBlock/isCode``): set smaller before wrapping, kept whole when short,
/// split with enough lines on each side and a `(continued)` cue when long (``CodeBlockRules``).
extension BlockLayout {
    /// Hands the lines of the code block `block` (its paragraph `paragraph`) to `emit` in
    /// order: fitted to the measure (``fittedCode(_:padding:)``), numbered when asked
    /// (``CodeLines``), with the code's page-break rules and cue. A block of more than
    /// ``CodeBlockRules/linesPerPart`` source lines is laid out a part of that many lines at a
    /// time (its lines are independent: each source line breaks alone), so that it holds the
    /// lines of one part at once, not all of them.
    /// - Throws: what `emit` throws.
    func codeItems(
        _ paragraph: StyledParagraph, block: StyledBlock, path: [StructureElement], emit: (Item) throws -> Void
    ) rethrows {
        var paragraph = paragraph
        let padding = block.backgroundPadding
        if let numbers = block.codeLineNumbers {
            paragraph.style.leftIndent += lineNumberGutter(paragraph, numbers: numbers)
        }
        let (parts, asMeasured) = fittedCode(
            Self.parts(of: paragraph, lines: CodeBlockRules.linesPerPart), padding: padding)
        guard let first = parts.first else { return }
        var lines = CodeLines(layout: self, paragraph: first, numbers: block.codeLineNumbers, padding: padding)
        lines.copies = block.codeSource.flatMap { CodeCopyTexts(source: $0, drawn: paragraph.text) }
        for (index, part) in parts.enumerated() {
            // Set from the lines measured, as a block of one part is: the first part's were
            // measured last and kept; each later part is measured again, and kept.
            if index > 0, asMeasured { _ = shaper.naturalWidth(of: part, keepingLayout: true) }
            var edges: PanelEdges = []
            if index == 0 { edges.insert(.top) }
            if index == parts.count - 1 { edges.insert(.bottom) }
            try paragraphItems(part, background: block.background, padding: padding, path: path, edges: edges) {
                item in try lines.add(item, emit: emit)
            }
        }
        try lines.finish(emit: emit)
    }

    /// `paragraph` (a code block's) cut into paragraphs of `lines` source lines each (the last
    /// may have fewer), the line feed between two parts left out, each with its bytes' token
    /// colours; `paragraph` alone when it has no more lines than that. A part after the first
    /// has no list marker.
    static func parts(of paragraph: StyledParagraph, lines: Int) -> [StyledParagraph] {
        let feedCount = paragraph.runs.reduce(0) { count, run in count + run.text.utf8.count { $0 == 0x0A } }
        guard feedCount >= lines else { return [paragraph] }
        var parts: [StyledParagraph] = []
        var runs: [StyledRun] = []
        var feeds = 0
        // UTF-8 offsets into the paragraph's text: of the run's start, and of the part's.
        var runOffset = 0
        var partStart = 0
        func addPart(endingAt end: Int) {
            var part = paragraph
            part.runs = runs.filter { !$0.text.isEmpty }
            part.tokenColors = paragraph.tokenColors?.slice(partStart..<end)
            if !parts.isEmpty { part.marker = nil }
            parts.append(part)
        }
        for run in paragraph.runs {
            var start = run.text.utf8.startIndex
            for index in run.text.utf8.indices where run.text.utf8[index] == 0x0A {
                feeds += 1
                guard feeds == lines else { continue }
                runs.append(StyledRun(String(run.text[start..<index]), style: run.style))
                let feedOffset = runOffset + run.text.utf8.distance(from: run.text.utf8.startIndex, to: index)
                addPart(endingAt: feedOffset)
                runs = []
                feeds = 0
                partStart = feedOffset + 1
                start = run.text.utf8.index(after: index)
            }
            runs.append(StyledRun(String(run.text[start...]), style: run.style))
            runOffset += run.text.utf8.count
        }
        addPart(endingAt: runOffset)
        return parts
    }

    /// The parts of a code block (``parts(of:lines:)``) made to fit its longest line without
    /// wrapping, as far as they can: first the block widens into the page margins (equally on
    /// both sides, leaving at least ``CodeBlockRules/smallestMargin``; into the right margin
    /// only when it is inside a list item, quote or div, whose edge and bar are on its left),
    /// then it is set smaller, down to ``CodeBlockRules/smallestScale``. Unchanged when its
    /// lines already fit the measure (`asMeasured`): the shaper then keeps the first part's
    /// lines as it measured them (``TextShaper/naturalWidth(of:keepingLayout:)``, the parts
    /// measured last to first), and sets that part from them, so a block of one part is shaped
    /// once.
    func fittedCode(_ parts: [StyledParagraph], padding: Double) -> (parts: [StyledParagraph], asMeasured: Bool) {
        guard let paragraph = parts.first else { return (parts, true) }
        let available = max(12, measure - paragraph.style.leftIndent - paragraph.style.rightIndent)
        var natural = 0.0
        // A cancelled render stops measuring (a part is up to 2,000 lines); nothing of the
        // block is placed.
        for part in parts.reversed() where options.cancellation?.isCancelled != true {
            natural = max(natural, shaper.naturalWidth(of: part, keepingLayout: true))
        }
        guard natural > available, natural > 0 else { return (parts, true) }
        // Set otherwise than measured: what the shaper kept serves no one.
        shaper.forgetKeptLayouts()
        let margins = options.page.margins
        let spare = max(0, min(margins.left, margins.right) - CodeBlockRules.smallestMargin - padding)
        // A block inside a list item, quote or div (indented past its panel's padding) widens
        // to the right only: to the left lie its container's edge and a quote's bar.
        let contained = paragraph.style.leftIndent > padding + 0.01
        // A hair over the exact width, so rounding in the shaper never wraps the longest line.
        let widening = min(contained ? spare : 2 * spare, natural * 1.002 - available)
        let scale = max(CodeBlockRules.smallestScale, min(1, (available + widening) / natural * 0.998))
        // Each appearance scaled once: the runs of a highlighted block share a few (a token
        // kind each), and every setting changed makes a new one.
        var scaled: [(original: RunAppearance, scaled: RunAppearance)] = []
        let fitted = parts.map { part in
            var fitted = part
            fitted.style.leftIndent -= contained ? 0 : widening / 2
            fitted.style.rightIndent -= contained ? widening : widening / 2
            guard scale < 1 else { return fitted }
            fitted.style.baseFont.size *= scale
            fitted.style.hangingIndent *= scale
            for i in fitted.runs.indices {
                let original = fitted.runs[i].style
                if let known = scaled.first(where: { $0.original === original.appearance }) {
                    fitted.runs[i].style = RunStyle(appearance: known.scaled, link: original.link)
                    continue
                }
                var style = original
                style.font.size *= scale
                style.letterSpacing *= scale
                style.baselineOffset *= scale
                scaled.append((original.appearance, style.appearance))
                fitted.runs[i].style = style
            }
            return fitted
        }
        return (fitted, false)
    }

    /// A code block's lines as they pass to the page: each line that starts a line of the
    /// source numbered when the block asks (``CodeLineNumbers``), and the page-break rules of
    /// code: none inside a block of up to ``CodeBlockRules/keptWholeLines`` lines, else at
    /// least ``CodeBlockRules/linesAtSplit`` on each side, and every line after the first
    /// carrying the cue repeated at the top of a page that starts inside the block. Lines are
    /// held until their rule is known: the first ``CodeBlockRules/keptWholeLines`` until the
    /// block proves longer, then the last ``CodeBlockRules/linesAtSplit`` − 1 until it ends.
    struct CodeLines {
        let layout: BlockLayout
        /// The block's first part, whose face, size and indents every part shares.
        let paragraph: StyledParagraph
        let numbers: CodeLineNumbers?
        let padding: Double
        /// What each line copies as (nil: as its glyphs read).
        var copies: CodeCopyTexts?
        /// The number of the next source line.
        private var number = 0
        /// The lines passed in, and those held back, in order.
        private var count = 0
        private var held: [Item] = []
        /// The cue, once the block is known to be longer than a page keeps whole.
        private var cue: ItemBox?
        private var isLong = false

        init(layout: BlockLayout, paragraph: StyledParagraph, numbers: CodeLineNumbers?, padding: Double) {
            self.layout = layout
            self.paragraph = paragraph
            self.numbers = numbers
            self.padding = padding
            number = numbers?.first ?? 0
        }

        /// Numbers `item`, the next line, and passes on the lines whose rule is now known.
        mutating func add(_ item: Item, emit: (Item) throws -> Void) rethrows {
            var item = item
            copies?.setCopyText(of: &item)
            if let numbers {
                layout.number(&item, as: &number, paragraph: paragraph, numbers: numbers, padding: padding)
            }
            held.append(item)
            count += 1
            if !isLong, count > CodeBlockRules.keptWholeLines {
                isLong = true
                cue = layout.continuedCue(paragraph, padding: padding, panel: held[0].panel).map(ItemBox.init)
            }
            guard isLong else { return }
            while held.count >= CodeBlockRules.linesAtSplit { try emit(released(lineCount: nil)) }
        }

        /// Passes on the lines still held: the block has ended.
        mutating func finish(emit: (Item) throws -> Void) rethrows {
            while !held.isEmpty { try emit(released(lineCount: count)) }
        }

        /// The first line held, with its rule: a page may end before it when the block is
        /// long and it leaves enough lines above and below (`lineCount` nil: more lines than
        /// that follow).
        private mutating func released(lineCount: Int?) -> Item {
            let index = count - held.count
            var item = held.removeFirst()
            guard index > 0 else { return item }
            let enoughBelow = lineCount.map { $0 - index >= CodeBlockRules.linesAtSplit } ?? true
            // A source line wrapped behind ↪ is one line of code: a page never ends inside it.
            let continuesLine = item.elements.contains { element in
                if case .text(let line, _, _) = element { return line.isWrapContinuation }
                return false
            }
            item.breakBefore =
                isLong && index >= CodeBlockRules.linesAtSplit && enoughBelow && !continuesLine ? .allowed : .avoid
            if let cue { item.repeatedHeader = cue }
            return item
        }
    }

    /// `(continued)` (in the block's language: ``GeneratedText``) in the code's own colour and
    /// face at 80 % of its size, flush right on the block's panel, with the panel's top padding
    /// above it.
    func continuedCue(_ paragraph: StyledParagraph, padding: Double, panel: Panel?) -> Item? {
        guard var style = paragraph.runs.first?.style else { return nil }
        style.font.size *= 0.8
        style.letterSpacing = 0
        style.background = nil
        style.link = nil
        style.color = RGBAColor(
            red: style.color.red, green: style.color.green, blue: style.color.blue, alpha: style.color.alpha * 0.6)
        let words = GeneratedText.words(language: style.language ?? options.language)
        let cue = StyledParagraph(
            runs: [StyledRun(words.continued, style: style)], style: ParagraphStyle(baseFont: style.font))
        guard let line = shaper.shape(cue, width: nil).lines.first else { return nil }
        let right = left + measure - paragraph.style.rightIndent
        var item = Item(height: padding + line.ascent + line.descent)
        item.elements = [.ornament(line, x: right - line.width, baseline: padding + line.ascent, color: style.color)]
        item.panel = panel
        return item
    }

    /// The space a code block's line numbers take left of its panel, pt: the widest number
    /// at the code's size and a gap of half an em. `paragraph`'s text gives the line count.
    func lineNumberGutter(_ paragraph: StyledParagraph, numbers: CodeLineNumbers) -> Double {
        let lineCount = paragraph.runs.reduce(1) { count, run in count + run.text.utf8.count { $0 == 0x0A } }
        let widest = max(abs(numbers.first), abs(numbers.first + lineCount - 1))
        let label = (numbers.first < 0 ? "-" : "") + String(repeating: "8", count: String(widest).count)
        guard let line = numberLine(label, paragraph: paragraph, color: numbers.color) else { return 0 }
        return line.width + paragraph.style.baseFont.size * 0.5
    }

    /// Puts `number` beside `item` (a line of a code block set from `paragraph`) when it starts
    /// a line of the source, and counts it: right-aligned half an em left of the panel, on the
    /// line's baseline, drawn as an artifact so that the code's text and structure hold no
    /// numbers, and read as nothing (``ShapedLine/readsAsNothing``), so that no reader copies
    /// them with the code. A wrapped line's continuation (``ShapedLine/isWrapContinuation``)
    /// gets none.
    func number(
        _ item: inout Item, as number: inout Int, paragraph: StyledParagraph, numbers: CodeLineNumbers, padding: Double
    ) {
        let right = left + paragraph.style.leftIndent - padding - paragraph.style.baseFont.size * 0.5
        let text = item.elements.lazy.compactMap { element -> (ShapedLine, Double)? in
            if case .text(let line, _, let baseline) = element { return (line, baseline) }
            return nil
        }.first
        guard let (line, baseline) = text, !line.isWrapContinuation else { return }
        if var label = numberLine(String(number), paragraph: paragraph, color: numbers.color) {
            label.readsAsNothing = true
            item.elements.append(.structure([.artifact]))
            item.elements.append(.text(label, x: right - label.width, baseline: baseline))
        }
        number += 1
    }

    /// `label` shaped in `paragraph`'s code face and size, regular and upright, in `color`.
    private func numberLine(_ label: String, paragraph: StyledParagraph, color: RGBAColor) -> ShapedLine? {
        guard var style = paragraph.runs.first?.style else { return nil }
        style.font = paragraph.style.baseFont
        style.font.weight = .regular
        style.font.italic = false
        style.letterSpacing = 0
        style.background = nil
        style.link = nil
        style.color = color
        let numberParagraph = StyledParagraph(
            runs: [StyledRun(label, style: style)], style: ParagraphStyle(baseFont: style.font))
        return shaper.shape(numberParagraph, width: nil).lines.first
    }
}
