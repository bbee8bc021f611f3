import Styling
import Typography

/// Code blocks (``StyledBlock/isCode``): set smaller before wrapping, kept whole when short,
/// split with enough lines on each side and a `(continued)` cue when long (``CodeBlockRules``).
extension BlockLayout {
    /// `paragraph` made to fit its longest line without wrapping, as far as it can: first the
    /// block widens into the page margins (equally on both sides, leaving at least
    /// ``CodeBlockRules/smallestMargin``), then it is set smaller, down to
    /// ``CodeBlockRules/smallestScale``. Unchanged when its lines already fit the measure.
    func fittedCode(_ paragraph: StyledParagraph, padding: Double) -> StyledParagraph {
        let available = max(12, measure - paragraph.style.leftIndent - paragraph.style.rightIndent)
        let natural = shaper.shape(paragraph, width: nil).naturalWidth
        guard natural > available, natural > 0 else { return paragraph }
        let margins = options.page.margins
        let spare = max(0, min(margins.left, margins.right) - CodeBlockRules.smallestMargin - padding)
        // A hair over the exact width, so rounding in the shaper never wraps the longest line.
        let widening = min(2 * spare, natural * 1.002 - available)
        var fitted = paragraph
        fitted.style.leftIndent -= widening / 2
        fitted.style.rightIndent -= widening / 2
        let scale = max(CodeBlockRules.smallestScale, min(1, (available + widening) / natural * 0.998))
        guard scale < 1 else { return fitted }
        fitted.style.baseFont.size *= scale
        fitted.style.hangingIndent *= scale
        for i in fitted.runs.indices {
            fitted.runs[i].style.font.size *= scale
            fitted.runs[i].style.letterSpacing *= scale
            fitted.runs[i].style.baselineOffset *= scale
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
}
