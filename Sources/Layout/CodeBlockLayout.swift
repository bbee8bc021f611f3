import Styling
import Typography

/// Code blocks (``StyledBlock/isCode``): set smaller before wrapping, kept whole when short,
/// split with enough lines on each side and a `(continued)` cue when long (``CodeBlockRules``).
extension BlockLayout {
    /// `paragraph` made to fit its longest line without wrapping, as far as it can: first the
    /// block widens into the page margins (equally on both sides, leaving at least
    /// ``CodeBlockRules/smallestMargin``; into the right margin only when it is inside a list
    /// item, quote or div, whose edge and bar are on its left), then it is set smaller, down to
    /// ``CodeBlockRules/smallestScale``. Unchanged when its lines already fit the measure: the
    /// shaper may then set the block from the lines it measured (``TextShaper/naturalWidth(of:keepingLayout:)``),
    /// so a block that fits is shaped once.
    func fittedCode(_ paragraph: StyledParagraph, padding: Double) -> StyledParagraph {
        let available = max(12, measure - paragraph.style.leftIndent - paragraph.style.rightIndent)
        let natural = shaper.naturalWidth(of: paragraph, keepingLayout: true)
        guard natural > available, natural > 0 else { return paragraph }
        // Set otherwise than measured: what the shaper kept serves no one.
        shaper.forgetKeptLayouts()
        let margins = options.page.margins
        let spare = max(0, min(margins.left, margins.right) - CodeBlockRules.smallestMargin - padding)
        // A block inside a list item, quote or div (indented past its panel's padding) widens
        // to the right only: to the left lie its container's edge and a quote's bar.
        let contained = paragraph.style.leftIndent > padding + 0.01
        // A hair over the exact width, so rounding in the shaper never wraps the longest line.
        let widening = min(contained ? spare : 2 * spare, natural * 1.002 - available)
        var fitted = paragraph
        fitted.style.leftIndent -= contained ? 0 : widening / 2
        fitted.style.rightIndent -= contained ? widening : widening / 2
        let scale = max(CodeBlockRules.smallestScale, min(1, (available + widening) / natural * 0.998))
        guard scale < 1 else { return fitted }
        fitted.style.baseFont.size *= scale
        fitted.style.hangingIndent *= scale
        // Each appearance scaled once: the runs of a highlighted block share a few (a token
        // kind each), and every setting changed makes a new one.
        var scaled: [(original: RunAppearance, scaled: RunAppearance)] = []
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

    /// Page-break rules for the lines of a code block: none inside a block of up to
    /// ``CodeBlockRules/keptWholeLines`` lines, else at least ``CodeBlockRules/linesAtSplit`` on
    /// each side; every line after the first carries the cue repeated at the top of a page that
    /// starts inside the block.
    func applyCodeBreaks(to items: inout [Item], paragraph: StyledParagraph, padding: Double) {
        let lineCount = items.count
        for i in items.indices.dropFirst() {
            let allowed =
                lineCount > CodeBlockRules.keptWholeLines && i >= CodeBlockRules.linesAtSplit
                && lineCount - i >= CodeBlockRules.linesAtSplit
            items[i].breakBefore = allowed ? .allowed : .avoid
        }
        guard lineCount > CodeBlockRules.keptWholeLines,
            let cue = continuedCue(paragraph, padding: padding, panel: items[0].panel)
        else { return }
        let box = ItemBox(cue)
        for i in items.indices.dropFirst() { items[i].repeatedHeader = box }
    }

    /// `(continued)` in the code's own colour and face at 80 % of its size, flush right on the
    /// block's panel, with the panel's top padding above it.
    func continuedCue(_ paragraph: StyledParagraph, padding: Double, panel: Panel?) -> Item? {
        guard var style = paragraph.runs.first?.style else { return nil }
        style.font.size *= 0.8
        style.letterSpacing = 0
        style.background = nil
        style.link = nil
        style.color = RGBAColor(
            red: style.color.red, green: style.color.green, blue: style.color.blue, alpha: style.color.alpha * 0.6)
        let cue = StyledParagraph(
            runs: [StyledRun("(continued)", style: style)], style: ParagraphStyle(baseFont: style.font))
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

    /// Puts a number beside each line of `items` (a code block's lines, from `paragraph`) that
    /// starts a line of the source: right-aligned half an em left of the panel, on the line's
    /// baseline, drawn as an artifact so that the code's text and structure hold no numbers.
    /// A wrapped line's continuation (``ShapedLine/isWrapContinuation``) gets none.
    func numberLines(of items: inout [Item], paragraph: StyledParagraph, numbers: CodeLineNumbers, padding: Double) {
        let right = left + paragraph.style.leftIndent - padding - paragraph.style.baseFont.size * 0.5
        var number = numbers.first
        for index in items.indices {
            let text = items[index].elements.lazy.compactMap { element -> (ShapedLine, Double)? in
                if case .text(let line, _, let baseline) = element { return (line, baseline) }
                return nil
            }.first
            guard let (line, baseline) = text, !line.isWrapContinuation else { continue }
            if let label = numberLine(String(number), paragraph: paragraph, color: numbers.color) {
                items[index].elements.append(.structure([.artifact]))
                items[index].elements.append(.text(label, x: right - label.width, baseline: baseline))
            }
            number += 1
        }
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
