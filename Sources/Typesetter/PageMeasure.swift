internal import PangoCairoBackend
import Styling
import Typography

extension Typesetter {
    /// English prose the average character of Body text is measured on: letters in the
    /// proportions of running text, spaces between words, commas and full stops.
    static let measureSample =
        "The measure is the length of a line of text. A reader's eye travels along it and then back "
        + "to the start of the next line, so a line that is too long tires the eye and one that is too "
        + "short breaks the sentence into pieces. Printers have long judged a comfortable column by "
        + "counting the characters it holds, spaces and punctuation included, in the face and size of "
        + "the running text."

    /// `theme` with its margins fitted to its measure in characters
    /// (``PageSetup/fittingMeasure(characterWidth:)``), the average character measured on
    /// ``measureSample`` set in the Body role's families, weight, size and tracking; unchanged
    /// when the theme fixes its margins.
    static func fittingMeasure(of theme: Theme, shaper: PangoShaper = PangoShaper()) -> Theme {
        guard theme.page.measureCharacters != nil else { return theme }
        var fitted = theme
        fitted.page = theme.page.fittingMeasure(characterWidth: bodyCharacterWidth(of: theme, shaper: shaper))
        return fitted
    }

    /// The page `theme` is set on when a render gives no paper or margins of its own: its
    /// margins fitted to its measure in characters (``PageSetup/fittingMeasure(characterWidth:)``)
    /// with the installed Body face, or its fixed margins.
    public static func fittedPage(of theme: Theme) -> PageSetup { fittingMeasure(of: theme).page }

    /// The average advance of one character of ``measureSample`` in `theme`'s Body role, pt.
    static func bodyCharacterWidth(of theme: Theme, shaper: PangoShaper) -> Double {
        let style = theme[.body]
        let font = FontSpec(families: style.families, weight: style.weight, italic: style.italic, size: style.size)
        let run = RunStyle(font: font, letterSpacing: style.letterSpacing, color: theme.textColor)
        let paragraph = StyledParagraph(
            runs: [StyledRun(measureSample, style: run)], style: ParagraphStyle(baseFont: font))
        let width = shaper.naturalWidth(of: paragraph, keepingLayout: false)
        return width / Double(measureSample.count)
    }
}
