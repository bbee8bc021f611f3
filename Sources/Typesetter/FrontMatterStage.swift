import DocumentModel
import Foundation
import Layout
import MarkdownParser
internal import PangoCairoBackend
import Styling
internal import TaggedPDF
import Typography

/// The front matter stage: what the front matter adds to the pages — the title block, the
/// table of contents, the running header and footer, and the PDF's document information —
/// with its warnings (a language that is not a language tag, a running text wider than the
/// measure).
struct FrontMatter {
    /// The document's title as plain text: the front matter's `title`, else the first heading.
    let title: String?
    /// The running header and footer, their titles shortened to fit one line.
    let running: RunningText
    /// The title block, when the render sets one.
    let titleBlock: TitleBlock?
    /// The table of contents, when asked for.
    let contents: TableOfContents?
    /// The index of the styled block the title block, then the contents, go before.
    let insertionIndex: Int
    /// The PDF's title, author, subject and keywords.
    let info: DocumentInfo
    /// The language warning, the title block's note warnings, then the running texts' warnings.
    let diagnostics: [Diagnostic]

    /// Builds the front matter of `document` in `settings`; `shaper` measures the running texts.
    init(of document: Document, settings: ResolvedSettings, survey: DocumentSurvey, shaper: TextShaper) {
        let metadata = document.metadata
        let theme = settings.theme
        // Front matter text values read as Markdown: the PDF's metadata and running heads take
        // their plain text (``FrontMatterText``).
        let conventions = FrontMatterText.Conventions(metadata)
        let title = metadata.title.map { FrontMatterText.plain($0, conventions: conventions) } ?? survey.firstHeading
        let renderDay = settings.options.creationDate ?? Typesetter.defaultCreationDate()
        let running = RunningText(
            theme: theme, title: title ?? "", date: metadata.date ?? Self.longDate(renderDay, lang: metadata.lang),
            header: settings.options.header, footer: settings.options.footer ?? "{page}")
        // A page sets one line of running text: a title too long for it is shortened with an
        // ellipsis; a text that still takes more lines is named.
        let fit = running.fitted(to: theme.page.measure, shaper: shaper)
        // With no title in the front matter, an opening level-1 heading is the title only when
        // it is the only one (``SectionNumbering/levelOneHeadingCount(_:)``).
        let hasTitle = !(metadata.title?.trimmingCharacters(in: .whitespaces).isEmpty ?? true)
        // The values answer `\eqref` and `\ref` with the numbers of the body's formulas, as the
        // body does: the title block is set after the survey has read every label.
        var styling = settings.styling
        styling.mathLabels = survey.mathLabels
        let titleBlock =
            settings.options.titleBlock
            ? TitleBlock(
                theme: theme, metadata: metadata, conventions: conventions,
                firstOutline: survey.levelOneHeadings > 1 && !hasTitle ? nil : survey.firstOutline,
                openingIndex: survey.openingIndex, styling: styling)
            : nil
        let insertionIndex = titleBlock?.insertionIndex ?? 0
        self.title = title
        self.running = fit.running
        self.titleBlock = titleBlock
        self.insertionIndex = insertionIndex
        contents =
            settings.options.tableOfContents == true
            ? TableOfContents(
                theme: theme, entries: survey.contentsEntries(excluding: titleBlock?.titleHeadingIndex),
                language: metadata.lang, insertionIndex: insertionIndex + (titleBlock?.blocks.count ?? 0),
                title: Self.writtenTitle(metadata, key: "toc-title", conventions: conventions))
            : nil
        info = DocumentInfo(
            title: title, author: metadata.author.map { FrontMatterText.plain($0, conventions: conventions) },
            subject: metadata.subtitle.map { FrontMatterText.plain($0, conventions: conventions) },
            keywords: metadata.keywords)
        diagnostics =
            Self.languageWarnings(metadata, textLanguage: document.textLanguage) + (titleBlock?.diagnostics ?? [])
            + Self.runningTextWarnings(
                fit, measure: theme.page.measure, metadata: metadata,
                requested: settings.requested)
    }

    /// `date` written out in the document's language (`lang`, English without one), as LaTeX's
    /// `\today` writes the day of the render: `December 6, 2026`, `2026년 12월 6일`. Read in UTC,
    /// so a render with `SOURCE_DATE_EPOCH` prints the same day wherever it runs.
    static func longDate(_ date: Date, lang: String?) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: (lang ?? "en").trimmingCharacters(in: .whitespaces))
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateStyle = .long
        formatter.timeStyle = .none
        return formatter.string(from: date)
    }

    /// `document` with its notes numbered after those of its title block
    /// (``TitleBlock/noteCount(_:conventions:)``), which come first, as Pandoc's LaTeX numbers a
    /// `\thanks` in the title before the body's notes: each reference's and definition's number
    /// raised by that count. The document itself when the render sets no title block or its
    /// title block holds no note.
    static func numberingNotesAfterTitleBlock(_ document: Document, options: RenderOptions) -> Document {
        guard options.titleBlock else { return document }
        let count = TitleBlock.noteCount(document.metadata, conventions: FrontMatterText.Conventions(document.metadata))
        guard count > 0 else { return document }
        let raise: @Sendable (Inline) -> Inline = { inline in
            guard case .footnoteReference(let label, let number) = inline else { return inline }
            return .footnoteReference(label: label, number: number + count)
        }
        let renumbered: @Sendable (Block) -> Block = { BookRewrite.block($0, visit: { _ in }, inline: raise) }
        var document = document
        document.blocks = document.blocks.mapped(renumbered)
        document.footnotes = Dictionary(
            uniqueKeysWithValues: document.footnotes.map { ($0.key + count, $0.value.map(renumbered)) })
        return document
    }

    /// The title block's, then the contents' blocks, with the contents' page numbers from
    /// `pages` (anchor → page).
    func blocks(pages: [String: Int]) -> [StyledBlock] {
        (titleBlock?.blocks ?? []) + (contents?.blocks(pages: pages) ?? [])
    }

    /// The heading front matter gives a part of the title block or the contents (Pandoc's
    /// `toc-title` and `abstract-title`), as plain text; nil when it gives none or a blank one.
    static func writtenTitle(_ metadata: Metadata, key: String, conventions: FrontMatterText.Conventions) -> String? {
        guard let written = metadata.fields[key]?.trimmingCharacters(in: .whitespacesAndNewlines), !written.isEmpty
        else { return nil }
        return FrontMatterText.plain(written, conventions: conventions)
    }

    /// The warning for a `lang` that is not a BCP 47 language tag, or that names Kanuri (`kr`,
    /// ISO 639-1) for a text written in Hangul (`ko`); without a position when set by `--lang`
    /// or `-V lang`, and named as such rather than placed at line 1.
    private static func languageWarnings(_ metadata: Metadata, textLanguage: String?) -> [Diagnostic] {
        guard let lang = metadata.lang else { return [] }
        let location = metadata.fieldLocations["lang"]
        let name = location == nil ? "--lang/-V lang" : "lang"
        let tag = lang.trimmingCharacters(in: .whitespaces)
        if textLanguage == "ko", tag.lowercased() == "kr" || tag.lowercased().hasPrefix("kr-") {
            return [
                Diagnostic(
                    .warning, "\(name): '\(tag)' is Kanuri (ISO 639-1 'kr'); the text is Korean, whose tag is 'ko'",
                    at: location, kind: .frontMatter)
            ]
        }
        guard !FrontMatterSettings.isLanguageTag(tag) else { return [] }
        return [
            Diagnostic(
                .warning, "\(name): \(LanguageTag.problem(lang)); the PDF says 'en'", at: location,
                kind: .frontMatter)
        ]
    }

    /// The warnings for running texts wider than the measure, each at the front matter field it
    /// came from (none when the render options gave it).
    private static func runningTextWarnings(
        _ fit: (running: RunningText, shortened: [String], overlong: [String]),
        measure: Double, metadata: Metadata,
        requested: RenderOptions
    ) -> [Diagnostic] {
        Set(fit.shortened + fit.overlong).sorted().map { key in
            let given = key == "header" ? requested.header : requested.footer
            let location = given == nil ? metadata.fieldLocations[key] : nil
            let what =
                fit.overlong.contains(key)
                ? "is wider than the measure (\(measure.wholePointsText) pt) even without its title: "
                    + "each page sets the words that fit and an ellipsis (…)"
                : "is wider than the measure (\(measure.wholePointsText) pt): its {title} is shortened "
                    + "with an ellipsis (…)"
            return Diagnostic(.warning, "the running \(key) \(what)", at: location, kind: .overfull)
        }
    }
}
