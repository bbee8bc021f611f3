import DocumentModel
import Foundation
import Layout
import MarkdownParser
internal import PangoCairoBackend
import Specimen
import Styling
import Typography

/// How `typeset specimen` renders (besides the theme request).
public struct SpecimenOptions: Sendable {
    /// The one-line Latin sample (`--text`); nil: the built-in pangram.
    public var sample: String?
    /// Draw baseline, x-height, cap-height, ascent/descent and half-leading guides on the samples.
    public var guides: Bool
    /// A specimen template to use instead of `templates/specimen.md`.
    public var templatePath: String?
    /// Paper override (`--paper`).
    public var paper: PaperSize?
    /// Treat warnings as errors.
    public var strict: Bool
    /// The date on the cover and in the PDF; nil: `SOURCE_DATE_EPOCH` when set, else now.
    public var date: Date?
    /// A second theme (built-in name or file, `--compare`) whose scale is set after the sheet,
    /// role by role face to face with the theme's; nil: none.
    public var compare: String?

    /// Creates options; nil leaves the built-in sample and template, the theme's paper and the default date.
    public init(
        sample: String? = nil, guides: Bool = false, templatePath: String? = nil, paper: PaperSize? = nil,
        strict: Bool = false, date: Date? = nil
    ) {
        self.sample = sample
        self.guides = guides
        self.templatePath = templatePath
        self.paper = paper
        self.strict = strict
        self.date = date
    }
}

extension Typesetter {
    /// The specimen template that ships with Typeset: `specimen.md` in ``templatesFolders()``'
    /// first folder that has one. nil when none does. No copy is embedded: the template is
    /// meant to be edited.
    public static func defaultSpecimenTemplatePath() -> String? {
        templatesFolders().map { $0 + "/specimen.md" }.first { FileManager.default.isReadableFile(atPath: $0) }
    }

    /// The folders Typeset's templates are looked for in, in order: `TYPESET_TEMPLATES`; the
    /// installed `share/typeset/templates` beside the executable's folder (`PREFIX/bin/typeset`
    /// → `PREFIX/share/typeset/templates`, as `make install` lays them out); `templates` in the
    /// current folder; `templates` in the folders above the executable (`.build/release/typeset`
    /// → the package); and the package this file was compiled from.
    public static func templatesFolders() -> [String] {
        var candidates: [String] = []
        if let folder = getenv("TYPESET_TEMPLATES").map({ String(cString: $0) }) {
            candidates.append(folder)
        }
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments.first ?? "."
        var dir = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
        candidates.append(dir.deletingLastPathComponent().appendingPathComponent("share/typeset/templates").path)
        candidates.append(FileManager.default.currentDirectoryPath + "/templates")
        for _ in 0..<5 {
            candidates.append(dir.appendingPathComponent("templates").path)
            dir = dir.deletingLastPathComponent()
        }
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        candidates.append(source.appendingPathComponent("templates").path)
        return candidates
    }

    /// Renders a type specimen of the theme `request` names to the PDF at `output`.
    ///
    /// The theme is prepared as for `render` (``prepareTheme(_:)``); the fonts are measured
    /// (natural heights for line heights in pt, faces, glyph coverage per role, the Bold Text
    /// faces); the template is expanded by ``SpecimenBuilder`` into Markdown, parsed by
    /// ``MarkdownParser`` and rendered by ``render(document:diagnostics:to:options:)``.
    /// - Throws: ``TypesetError`` (bad theme, unreadable template, unwritable output, strict).
    public static func renderSpecimen(request: ThemeRequest, options: SpecimenOptions, to output: String) throws
        -> RenderReport
    {
        var (theme, themeWarnings, fonts) = try prepareThemeAndFonts(request)
        var baseRequest = request
        baseRequest.sizeCategory = nil
        baseRequest.boldText = false
        var (base, _) = try prepareTheme(baseRequest)
        if let paper = options.paper { base.page.paper = paper }
        base = fittingMeasure(of: base, shaper: PangoShaper(session: fonts))
        var regularRequest = request
        regularRequest.boldText = false
        let (regular, _) = try prepareTheme(regularRequest)
        let catalog = FontCatalog(fonts)
        let (bold, boldWarnings) = regular.applyingBoldText(availableWeights: { catalog.weights(of: $0) })

        guard let templatePath = options.templatePath ?? defaultSpecimenTemplatePath() else {
            throw TypesetError.unreadableInput(
                path: "templates/specimen.md", reason: "specimen template not found (give --template PATH)")
        }
        let template: String
        do { template = try InputFile.read(templatePath).text } catch TypesetError.unreadableInput(let path, let reason)
        {
            // A template is a Markdown file of the specimen's, not a theme name.
            throw TypesetError.unreadableInput(
                path: path, reason: "\(reason) (the specimen template: a Markdown file, such as templates/specimen.md)")
        }

        let date = options.date ?? defaultCreationDate()
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "d MMMM yyyy"

        // The samples are set on the sheet's page: the base theme's, fitted to its Body.
        theme.page = base.page
        let facts = measureSpecimenFacts(
            theme: theme, regular: regular, bold: bold, boldWarnings: boldWarnings, base: base, fonts: fonts)
        // The sample is the caller's text, not the template's: a character no PDF can hold is
        // replaced here, with a warning about the option, not at each place the template sets it.
        let (sample, replaced) = TextSanitizer.sanitize(options.sample ?? SpecimenBuilder.Settings.defaultSample)
        var sampleWarnings: [Diagnostic] = []
        if let replaced {
            let what = replaced.count == 1 ? "a character" : "\(replaced.count) characters"
            sampleWarnings.append(
                Diagnostic(
                    .warning,
                    "the sample text (--text) holds \(what) no PDF can hold (the first "
                        + "\(TextSanitizer.codePoint(replaced.first)), a noncharacter or control character), "
                        + "replaced by U+FFFD", kind: .encoding))
        }
        let settings = SpecimenBuilder.Settings(
            sample: sample, guides: options.guides,
            date: formatter.string(from: date), sizeCategory: request.sizeCategory, boldText: request.boldText)
        var expansion: Template.Expansion
        do {
            expansion = try SpecimenBuilder.markdown(theme: theme, template: template, settings: settings, facts: facts)
        } catch let error as TemplateError {
            throw TypesetError.invalidTheme(problems: [
                "\(templatePath):\(error.line):\(error.column): \(error.message)"
            ])
        }
        if let compare = options.compare {
            let (other, _) = try prepareTheme(ThemeRequest(theme: compare))
            expansion.text += SpecimenBuilder.comparison(
                theme, exportMetrics(of: theme, fonts: fonts), with: other, exportMetrics(of: other), base: base,
                sample: settings.sample)
        }
        let parsed = MarkdownParser.parse(expansion.text, file: templatePath)
        let templateLines = template.lines()
        // A template position's column counts characters; a diagnostic's counts UTF-8 bytes.
        @Sendable func location(_ at: Template.Position) -> SourceLocation {
            let text = at.line <= templateLines.count ? templateLines[at.line - 1] : ""
            return SourceLocation(file: templatePath, line: at.line, column: text.prefix(at.column - 1).utf8.count + 1)
        }
        let unknownNames = zip(expansion.unknownNames, expansion.unknownNamePositions).map { name, at in
            Diagnostic(.warning, "unknown template name '\(name)'", at: location(at), kind: .structure)
        }
        // Warnings about the expanded Markdown point at the template as written.
        let expanded = expansion
        let inTemplate = Set(unknownNames)
        @Sendable func placedInTemplate(_ diagnostic: Diagnostic) -> Diagnostic {
            guard !inTemplate.contains(diagnostic), let found = diagnostic.location, found.file == templatePath,
                let at = expanded.templatePosition(line: found.line, column: found.column)
            else { return diagnostic }
            var placed = diagnostic
            placed.location = location(at)
            return placed
        }
        let diagnostics = themeWarnings + sampleWarnings + unknownNames + parsed.diagnostics
        var document = parsed.document
        if document.metadata.title == nil { document.metadata.title = "\(theme.name) — type specimen" }
        // The sheet itself is set in the base theme (Large, no Bold Text); the samples carry
        // the adapted styles as attributes (SpecimenBuilder.styleAttributes).
        var renderOptions = RenderOptions(
            theme: SpecimenBuilder.neutralSheet(base), paper: options.paper, strict: options.strict, creationDate: date,
            baseDirectory: FileManager.default.currentDirectoryPath)
        renderOptions.titleBlock = false
        renderOptions.placeDiagnostic = placedInTemplate
        return try render(document: document, diagnostics: diagnostics, to: output, options: renderOptions)
    }

    /// Measures what the specimen prints about fonts: per role the primary face's metrics at
    /// its size, the face fontconfig resolves it to, glyph coverage per sample class, and the
    /// faces without and with Bold Text, on the font map `fonts`.
    static func measureSpecimenFacts(
        theme: Theme, regular: Theme, bold: Theme, boldWarnings: [String], base: Theme, fonts: FontSession
    ) -> SpecimenFacts {
        let shaper = PangoShaper(session: fonts)
        var roles: [TextRole: SpecimenFacts.RoleFacts] = [:]
        var faces: [String] = []
        // The face as its style is named (`Inter Bold Italic`, `Inter Italic`): the weight, then
        // the slant the face really has.
        func faceName(_ families: [String], _ weight: FontWeight, italic: Bool) -> String {
            let spec = FontSpec(families: families, weight: weight, italic: italic, size: 12)
            let resolved = FontLibrary.resolve(spec, in: fonts)
            var name = "\(resolved.family) \(resolved.weight.name)"
            if resolved.italic { name = resolved.weight == .regular ? "\(resolved.family) Italic" : name + " Italic" }
            if resolved.italicSynthesized { name += " (synthesized italic)" }
            if resolved.boldSynthesized { name += " (synthesized bold)" }
            if !resolved.familyFound { name += " (for \(resolved.requestedFamily))" }
            return name
        }
        for role in TextRole.allCases {
            let style = theme[role]
            let font = FontSpec(families: style.families, weight: style.weight, italic: style.italic, size: style.size)
            let metrics = shaper.metrics(of: font)
            var coverage: [SampleClass: [CharacterCoverage]] = [:]
            for sampleClass in SampleClass.allCases {
                coverage[sampleClass] = FontLibrary.coverage(of: font, text: sampleClass.characters, in: fonts).map {
                    CharacterCoverage(character: $0.character, family: $0.family)
                }
            }
            let face = faceName(style.families, style.weight, italic: style.italic)
            if !faces.contains(face) { faces.append(face) }
            for family in Set((coverage[.hangul] ?? []).compactMap(\.family))
            where family.lowercased() != style.primaryFamily.lowercased() {
                let hangulFace = "\(family) (Hangul)"
                if !faces.contains(hangulFace) { faces.append(hangulFace) }
            }
            let regularWeight = regular[role].weight
            let boldWeight = bold[role].weight
            let note = boldWarnings.first { $0.hasPrefix(role.displayName + ":") }
                .map { String($0.dropFirst(role.displayName.count + 1)).trimmingCharacters(in: .whitespaces) }
            roles[role] = SpecimenFacts.RoleFacts(
                ascent: metrics.ascent, descent: metrics.descent, xHeight: metrics.xHeight,
                capHeight: metrics.capHeight, face: face,
                coverage: coverage, regularWeight: regularWeight, boldWeight: boldWeight,
                regularFace: faceName(regular[role].families, regularWeight, italic: regular[role].italic),
                boldFace: faceName(bold[role].families, boldWeight, italic: bold[role].italic), boldNote: note)
        }
        // Widths as the renderer shapes them (the samples are cut to what fits, at a word).
        let session = fonts
        let textColor = base.textColor
        let textWidth: @Sendable (String, TextStyle) -> Double = { text, style in
            let font = FontSpec(families: style.families, weight: style.weight, italic: style.italic, size: style.size)
            let run = RunStyle(font: font, letterSpacing: style.letterSpacing, color: textColor)
            let cased = style.textCase?.apply(to: text) ?? text
            let paragraph = StyledParagraph(runs: [StyledRun(cased, style: run)], style: ParagraphStyle(baseFont: font))
            let width = PangoShaper(session: session).naturalWidth(of: paragraph, keepingLayout: false)
            // Small capitals are wider than the lower case measured.
            return style.textCase == .smallCaps ? width * 1.2 : width
        }
        return SpecimenFacts(roles: roles, baseTheme: base, faces: faces, textWidth: textWidth)
    }
}
