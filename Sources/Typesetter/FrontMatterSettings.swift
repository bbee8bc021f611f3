import DocumentModel
import Foundation
import Styling
import Typography

/// Reads the front matter keys that change rendering (`theme`, `paper`, `margins`, `header`,
/// `footer`, `toc`, `size-category`, `bold-text`, `justify`, `line-break`, `widows`, `orphans`) into
/// ``RenderOptions``, without overriding what the command line set. A bad value is a warning
/// at its key's position, and is ignored — except `paper`, `margins` (and `margins.top` …) and
/// `size-category`, which are judged as `--paper`, `--margins` and `--size-category` are: a bad
/// value is an error at the key (the render stops; an option that sets the same key wins first).
enum FrontMatterSettings {
    static func merge(_ options: RenderOptions, with metadata: Metadata, diagnostics: inout [Diagnostic])
        -> RenderOptions
    {
        var options = options
        let fields = metadata.fields
        // A key with no position was set on the command line (`-V KEY=VALUE`, Metadata.set):
        // the message names the option, and carries no file position.
        func source(_ key: String) -> String {
            metadata.fieldLocations[key] == nil ? "-V \(key)" : "front matter '\(key)'"
        }
        func warn(_ key: String, _ message: String) {
            diagnostics.append(
                Diagnostic(.warning, "\(source(key)): \(message)", at: metadata.fieldLocations[key], kind: .frontMatter)
            )
        }
        func refuse(_ key: String, _ message: String) {
            diagnostics.append(
                Diagnostic(.error, "\(source(key)): \(message)", at: metadata.fieldLocations[key], kind: .frontMatter))
        }
        func flag(_ key: String) -> Bool? {
            guard let value = fields[key] else { return nil }
            switch value.lowercased() {
            case "true", "yes", "on", "1": return true
            case "false", "no", "off", "0": return false
            default:
                warn(key, "expected true or false, not '\(value)'")
                return nil
            }
        }
        if options.themeRequest.theme == nil, let theme = fields["theme"] {
            let path = besideDocument(theme, options: options, file: metadata.fieldLocations["theme"]?.file)
            if let sandbox = options.sandbox, !ThemeLoader.builtInNames.contains(path) {
                // Refused unopened: the message names the path as written and nothing of the file.
                if sandbox.permits(path) {
                    options.themeRequest.theme = path
                    options.themeRequest.sandbox = sandbox
                } else {
                    refuse(
                        "theme",
                        "'\(theme)' is outside the folders this render may read (\(sandbox.description)); not read")
                }
            } else {
                options.themeRequest.theme = path
            }
        }
        let paperKey = fields["paper"] == nil && fields["papersize"] != nil ? "papersize" : "paper"
        let paperFromCommandLine = options.paper != nil
        var paperNamed: String?
        if !paperFromCommandLine, let written = fields[paperKey] {
            let paper = paperKey == "papersize" ? PandocLayoutKeys.paperName(written) : written
            do {
                options.paper = try PaperSize(parsing: paper)
                paperNamed = paper
            } catch {
                refuse(paperKey, error.description)
            }
        }
        for key in fields.keys.sorted()
        where key.hasPrefix("margins.") && !["top", "right", "bottom", "left"].contains(String(key.dropFirst(8))) {
            warn(key, "unknown side '\(key.dropFirst(8))'; margins takes top, right, bottom and left (ignored)")
        }
        if options.margins == nil { options.margins = margins(fields, warn: refuse) }
        // After `margins`, which `-V geometry` becomes: the command line's margins win.
        readGeometry(
            fields, into: &options, paperNamed: paperNamed, paperFromCommandLine: paperFromCommandLine, warn: warn,
            refuse: refuse)
        readPandocLayoutKeys(&options, fields: fields, warn: warn, refuse: refuse)
        if options.header == nil { options.header = fields["header"] }
        if options.footer == nil { options.footer = fields["footer"] }
        for key in ["header", "footer"] {
            guard let template = fields[key] else { continue }
            let unknown = RunningText.unknownFields(in: template)
            if !unknown.isEmpty {
                warn(
                    key,
                    "unknown field\(unknown.count == 1 ? "" : "s") "
                        + "\(unknown.map { "{\($0)}" }.joined(separator: ", ")) (known: {title}, {page}, {pages}, "
                        + "{date})\(metadata.fieldLocations[key] == nil ? "" : "; printed as written")"
                )
            }
        }
        if options.tableOfContents == nil { options.tableOfContents = flag("toc") }
        readSectionSettings(&options, fields: fields, flag: flag, warn: warn)
        if options.justify == nil { options.justify = flag("justify") }
        if options.hyphenate == nil { options.hyphenate = flag("hyphenate") }
        if options.themeRequest.sizeCategory == nil, let category = fields["size-category"] {
            if let sizeCategory = SizeCategory(name: category) {
                options.themeRequest.sizeCategory = sizeCategory
            } else {
                refuse("size-category", "unknown size category '\(category)' (xSmall … xxxLarge, AX1 … AX5)")
            }
        }
        if !options.themeRequest.boldText, flag("bold-text") == true { options.themeRequest.boldText = true }
        for key in ["widows", "orphans"] {
            guard let value = fields[key] else { continue }
            guard let lines = Int(value), (1...10).contains(lines) else {
                warn(key, "expected a number of lines from 1 to 10, not '\(value)'")
                continue
            }
            if key == "widows" {
                options.widows = options.widows ?? lines
            } else {
                options.orphans = options.orphans ?? lines
            }
        }
        if options.pdfStandards == nil, let list = fields["pdf-standard"] {
            do { options.pdfStandards = try PDFStandard.standards(list) } catch {
                refuse("pdf-standard", error.description)
            }
        }
        if options.hangulLineBreak == nil, let mode = fields["line-break"] {
            switch mode.lowercased() {
            case "anywhere": options.hangulLineBreak = .anywhere
            case "keep-all", "keepall": options.hangulLineBreak = .keepAll
            case "normal", "auto": options.hangulLineBreak = .auto
            default: warn("line-break", "expected auto, keep-all or anywhere, not '\(mode)'")
            }
        }
        return options
    }

    /// Pandoc's variables for the page and the type, as its users write them in front matter
    /// (``PandocLayoutKeys``, `geometry` apart): `fontsize`, `linestretch`, `mainfont` (or `sansfont`)
    /// and `monofont` set the type where the command line did not, and warn when bad.
    private static func readPandocLayoutKeys(
        _ options: inout RenderOptions, fields: [String: String], warn: (String, String) -> Void,
        refuse: (String, String) -> Void
    ) {
        var type = options.themeRequest.pandocVariables
        if type.bodySize == nil, let value = fields["fontsize"] {
            do { type.bodySize = try PandocLayoutKeys.bodySize(value) } catch { warn("fontsize", error.description) }
        }
        if type.lineStretch == nil, let value = fields["linestretch"] {
            do { type.lineStretch = try PandocLayoutKeys.lineStretch(value) } catch {
                warn("linestretch", error.description)
            }
        }
        if type.monospaceFamily == nil { type.monospaceFamily = fields["monofont"] }
        options.themeRequest.pandocVariables = type
        if options.themeRequest.family == nil { options.themeRequest.family = fields["mainfont"] ?? fields["sansfont"] }
    }

    /// `geometry` (``PandocLayoutKeys/geometry(_:)``), a string, a list or a YAML mapping
    /// (`geometry: {margin: 1in}`, read as the options it lists): the margins when `margins`
    /// did not set them (the sides it leaves unset the theme's, ``RenderOptions/marginSides``);
    /// the paper when neither the command line nor `paper` or `papersize` (`paperNamed`) did,
    /// turned by `landscape` or `portrait` (which turn `paperNamed` too); a warning for the
    /// options it does not apply, an error for a bad length or paper.
    private static func readGeometry(
        _ fields: [String: String], into options: inout RenderOptions, paperNamed: String?,
        paperFromCommandLine: Bool, warn: (String, String) -> Void, refuse: (String, String) -> Void
    ) {
        let mapping = fields.keys.filter { $0.hasPrefix("geometry.") }.sorted()
        let listed = mapping.isEmpty ? nil : mapping.map { "\($0.dropFirst(9))=\(fields[$0]!)" }.joined(separator: ",")
        guard let value = fields["geometry"] ?? listed else { return }
        do {
            let geometry = try PandocLayoutKeys.geometry(value)
            if options.margins == nil, !geometry.sides.isEmpty {
                if geometry.sides.count == 4 {
                    options.margins = Margins(css: try PandocLayoutKeys.margins(geometry.sides))
                } else {
                    options.marginSides = geometry.sides.compactMapValues { Length.pointsWithUnit($0) }
                }
            }
            if !paperFromCommandLine {
                if let paper = try paperNamed ?? geometry.paper() {
                    options.paper = try PaperSize(parsing: geometry.turning(paper))
                } else if let message = geometry.unturnedMessage {
                    warn("geometry", message)
                }
            }
            if let message = PandocLayoutKeys.ignoredGeometryMessage(geometry.ignored) { warn("geometry", message) }
        } catch {
            refuse("geometry", "\(error)")
        }
    }

    /// `number-sections` (Pandoc's variable `numbersections` too) and `toc-depth` (1 to 6).
    private static func readSectionSettings(
        _ options: inout RenderOptions, fields: [String: String], flag: (String) -> Bool?,
        warn: (String, String) -> Void
    ) {
        if options.numberSections == nil {
            options.numberSections = fields["number-sections"] != nil ? flag("number-sections") : flag("numbersections")
        }
        let depthKey = fields["toc-depth"] != nil ? "toc-depth" : "tocdepth"
        if let value = fields[depthKey] {
            if let depth = Int(value), (1...6).contains(depth) {
                options.tableOfContentsDepth = options.tableOfContentsDepth ?? depth
            } else {
                warn(depthKey, "expected a heading level from 1 to 6, not '\(value)'")
            }
        }
    }

    /// A theme file named in front matter, relative to the document's folder (or to
    /// ``RenderOptions/baseDirectory`` when set), as images are; built-in names and absolute
    /// paths unchanged.
    static func besideDocument(_ theme: String, options: RenderOptions, file: String?) -> String {
        guard !ThemeLoader.builtInNames.contains(theme), !theme.hasPrefix("/") else { return theme }
        // A theme no document names (`-V theme=…`) is read from where the command runs.
        guard let file else {
            return options.baseDirectory.map { ($0 as NSString).appendingPathComponent(theme) } ?? theme
        }
        return (ResolvedSettings.documentFolder(options, file: file) as NSString).appendingPathComponent(theme)
    }

    /// `margins: 20mm` (all sides), `margins: 20mm 25mm` (vertical, horizontal, as CSS),
    /// or `margins: {top: …, right: …, bottom: …, left: …}`; sides not given keep the default.
    static func margins(_ fields: [String: String], warn: (String, String) -> Void) -> Margins? {
        let base = PageSetup().margins
        if let value = fields["margins"] {
            // The same reading as --margins and -V margins: 1 to 4 lengths, each with a unit.
            guard let margins = Margins(css: value) else {
                warn(
                    "margins",
                    "expected 1 to 4 lengths, each with a unit (mm, cm, in, pt), such as 20mm, not '\(value)'")
                return nil
            }
            return margins
        }
        var margins = base
        var any = false
        for side in ["top", "right", "bottom", "left"] {
            guard let value = fields["margins.\(side)"] else { continue }
            guard let points = Length.pointsWithUnit(value) else {
                warn("margins.\(side)", "expected a length with a unit (mm, cm, in, pt) such as 20mm, not '\(value)'")
                continue
            }
            any = true
            switch side {
            case "top": margins.top = points
            case "right": margins.right = points
            case "bottom": margins.bottom = points
            default: margins.left = points
            }
        }
        return any ? margins : nil
    }
}

extension FrontMatterSettings {
    /// The error of a document that asks for PDF/UA-1 (`--pdf-standard ua-1`, or front matter
    /// `pdf-standard`) and has no title (PDF/UA-1, ISO 14289-1 §7.1: the title is shown in the
    /// window's title bar); nil otherwise. The title is the front matter's, else the first
    /// heading's, as the PDF's document information takes it, so a document opening with a
    /// heading has one. A document's own check, made once its front matter is merged: values
    /// given with `-V` alone are judged by ``merge(_:with:diagnostics:)``.
    static func missingTitle(_ options: RenderOptions, document: Document) -> Diagnostic? {
        let metadata = document.metadata
        guard options.pdfStandards?.contains(.ua1) == true, (metadata.title ?? "").isEmpty else { return nil }
        let hasHeading = document.blocks.contains { block in
            guard case .heading(_, let inlines) = block.kind else { return false }
            return !inlines.plainText.trimmingCharacters(in: .whitespaces).isEmpty
        }
        if hasHeading { return nil }
        let message = "PDF/UA-1 needs a document title: add `title:` to the front matter, or a heading"
        if let location = metadata.fieldLocations["pdf-standard"] {
            return Diagnostic(.error, "front matter 'pdf-standard': \(message)", at: location, kind: .frontMatter)
        }
        if metadata.fields["pdf-standard"] != nil {
            return Diagnostic(.error, "-V pdf-standard: \(message)", at: nil, kind: .frontMatter)
        }
        return Diagnostic(.error, "--pdf-standard ua-1: \(message)", at: nil, kind: .frontMatter)
    }
}
