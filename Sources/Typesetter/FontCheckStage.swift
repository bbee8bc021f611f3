import DocumentModel
import Styling

extension FontCheck {
    /// The font check stage: every text the pages draw is checked for faces and characters its
    /// fonts lack — the title block, the contents and the running texts too, in the order they
    /// print. The survey checked the document's blocks; the front matter's blocks go before the
    /// first block or after it (after an opening title heading). A running text is placed at
    /// the front matter field it came from, if it did (not when the render options gave it).
    static func diagnostics(
        survey: DocumentSurvey, frontMatter: FrontMatter, settings: ResolvedSettings,
        metadata: Metadata
    ) -> [Diagnostic] {
        var fonts = FontCheck(fonts: settings.fonts)
        var frontFonts = FontCheck(fonts: settings.fonts)
        for block in frontMatter.blocks(pages: [:]) { frontFonts.visit(block) }
        if frontMatter.insertionIndex == 0 {
            fonts = frontFonts
            fonts.append(survey.fontsOfOpening)
        } else {
            fonts = survey.fontsOfOpening
            fonts.append(frontFonts)
        }
        fonts.append(survey.fontsOfRest)
        let running = frontMatter.running
        let requested = settings.requested
        let runningSamples = [
            (running.header(pageCount: 2)?(2), "header", requested.header),
            (running.footer(pageCount: 2)?(2), "footer", requested.footer),
        ]
        for case (let sample?, let key, let given) in runningSamples {
            fonts.visit(sample, at: given == nil ? metadata.fieldLocations[key] : nil, running: true)
        }
        return fonts.diagnostics(theme: settings.theme, chosenFamily: settings.options.themeRequest.family)
    }
}
