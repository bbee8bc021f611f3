import DocumentModel
import Foundation
import Typesetter
import Typography

/// `typeset render INPUT… [-o OUTPUT] [options]`: one input in this process; several in
/// parallel, one child process per file (Pango and Cairo work is serialized inside a process,
/// so processes are what use every core).
enum RenderCommand {
    static let spec = OptionTable.command("render")

    static func run(_ arguments: [String]) throws {
        let pandoc = try PandocOptions.strip(arguments)
        var args = try OptionTable.parse(DefaultsFile.expand(pandoc.arguments, for: spec), for: spec)
        if args.has("--help") {
            print(OptionTable.helpText(spec), terminator: "")
            return
        }
        if args.has("--strict"), let first = pandoc.warnings.first {
            throw UsageError(first + " (an error with --strict)")
        }
        // Said once by this process, whatever the number of inputs.
        for warning in pandoc.warnings where !args.has("--quiet") { Messages.error("typeset: warning: " + warning) }
        try takePositionalOutput(&args)
        let inputs = args.positional
        guard !inputs.isEmpty else { throw UsageError("render needs an INPUT file (see 'typeset render --help')") }
        var options = try renderOptions(from: args)
        let variableWarnings = try applyPandocVariables(args, to: &options)
        let variables = try variables(from: args)
        let format = try Messages.Format(args)

        let output = args.value("--output")
        let outputDir = args.value("--output-dir")
        // Every option is judged whatever the number of inputs.
        let jobs = try jobCount(args)
        if output != nil, outputDir != nil {
            throw UsageError("-o and --output-dir both name where to write; give one of them")
        }
        let book = BookInputs.makeBook(inputs, output: output, outputDir: outputDir)
        if inputs.count > 1 || outputDir != nil, inputs.contains("-") {
            throw UsageError(
                inputs.count > 1
                    ? "standard input ('-') cannot be one of several INPUTs"
                    : "standard input ('-') has no name to write into --output-dir; name the output with -o FILE")
        }
        if !book, inputs.count > 1 || outputDir != nil {
            let folder = outputDir ?? output
            try Batch.run(
                inputs: inputs, folder: folder, jobs: jobs, forwarded: forwardedArguments(args),
                quiet: args.has("--quiet"), format: format,
                fileExtension: options.preview?.format.rawValue ?? "pdf")
            return
        }
        let input = inputs[0]
        var target = output ?? defaultOutput(for: input, format: options.preview?.format.rawValue ?? "pdf")
        if target != "-", isFolder(target) {
            target = try inFolder(target, for: input, format: options.preview?.format.rawValue ?? "pdf")
        }
        if target == "-", options.preview != nil {
            throw UsageError("--format png and svg write one file per page; name them with -o NAME, not -o -")
        }
        if let problem = options.preview?.problem(writingTo: target) { throw UsageError(problem) }
        if target == "-", isatty(STDOUT_FILENO) == 1 {
            throw TypesetError.unwritableOutput(
                path: "-", reason: "standard output is a terminal; redirect it (> file.pdf) or name a file with -o")
        }
        try OutputTargets.refuseOverwriting(
            [(input, "the input file"), (args.value("--theme"), "the theme file")], with: target)
        try checkOutputExtension(
            output, format: options.preview?.format.rawValue ?? "pdf", explicit: args.value("--format") != nil)
        if input == "-", options.baseDirectory == nil {
            options.baseDirectory = FileManager.default.currentDirectoryPath
        }
        try confine(&options, inputs: inputs, args: args)
        Typesetter.tuneHeap(for: options)
        Typesetter.startLoadingFonts(for: options)
        let definitionLoading = Typesetter.startLoadingCodeDefinitions(
            forInputs: inputs, highlight: variables.last { $0.0 == "highlight" }?.1)
        defer { definitionLoading?.cancel() }
        // The text is not kept past the parse: the document holds its own copy of the source.
        var parsed = try BookInputs.load(
            inputs, book: book, args: args, variables: variables, target: target, sandbox: options.sandbox)
        parsed.diagnostics =
            try SectionAndFileOptions.fillMetadata(&parsed.document, from: args) + parsed.diagnostics
        for (key, value) in variables { parsed.document.metadata.set(key, to: value) }
        var report: RenderReport
        do {
            report = try Typesetter.render(
                document: parsed.document, diagnostics: parsed.diagnostics, to: target, options: options)
        } catch let error as TypesetError {
            if let usage = Self.usageError(adapting: error, options: options) { throw usage }
            throw ThemeOptions.namingOption(of: error, request: options.themeRequest, variables: variables)
        }
        report.diagnostics = variableWarnings + report.diagnostics
        if args.has("--verbose"), !parsed.document.metadata.unusedKeys.isEmpty {
            let keys = parsed.document.metadata.unusedKeys
            Messages.error(
                "\(input == "-" ? "<stdin>" : input): front matter key\(keys.count == 1 ? "" : "s") Typeset does not "
                    + "read: \(keys.joined(separator: ", "))")
        }
        if let text = args.value("--pages"), let selected = options.preview?.pages {
            let name = input == "-" ? "standard input" : input
            if let warning = try pageSelectionWarning(
                text, selected: selected, pageCount: report.pageCount, written: report.files.count, document: name)
            {
                report.diagnostics.append(warning)
            }
        }
        Messages.report(report, output: target, quiet: args.has("--quiet"), format: format)
    }

    /// A theme pushed past its limits by a size the command line asked for (`-V fontsize`,
    /// `-V linestretch`, `--size-category`) is a bad option value: a usage error, as every `-V`
    /// value is, naming the option; nil for any other error.
    static func usageError(adapting error: TypesetError, options: RenderOptions) -> UsageError? {
        guard case .invalidTheme(let problems) = error, let first = problems.first, first.contains(" adapted to ")
        else { return nil }
        let request = options.themeRequest
        let option: String? =
            if request.pandocVariables.bodySize != nil, first.contains("fontsize ") {
                "-V fontsize"
            } else if request.pandocVariables.lineStretch != nil, first.contains("linestretch ") {
                "-V linestretch"
            } else if request.sizeCategory != nil, first.contains("size category ") {
                "--size-category"
            } else {
                nil
            }
        return option.map { UsageError("\($0): \(first)") }
    }

    /// Sets the folders the document may read (``RenderOptions/root``): `--root DIR`, else each
    /// input's folder and the current folder — but for a current folder that is `/` (where
    /// system services start), which would allow every file (standard input read there may
    /// read no file the document names); `--resource-path` is allowed as
    /// well, since the user named it. Files named on the command line (`--theme`, `--fonts`)
    /// are not confined.
    /// - Throws: ``UsageError`` when `--root` is not a folder.
    static func confine(_ options: inout RenderOptions, inputs: [String], args: ParsedArguments) throws {
        let current = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        var allowed: [URL] = []
        if let root = args.value("--root") {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw UsageError("--root '\(root)' is not a folder")
            }
            options.root = URL(fileURLWithPath: root)
        } else {
            // Standard input's folder is the current one, and `/` is no folder to allow.
            let currentAllowed = current.standardizedFileURL.path != "/"
            let folders = inputs.compactMap {
                $0 == "-" ? (currentAllowed ? current : nil) : URL(fileURLWithPath: $0).deletingLastPathComponent()
            }
            // With no folder left, a root no path lies inside (a file, not a folder): the
            // document reads nothing but what `--resource-path` names.
            options.root = folders.first ?? (currentAllowed ? current : URL(fileURLWithPath: "/dev/null"))
            allowed = Array(folders.dropFirst()) + (currentAllowed ? [current] : [])
        }
        if let resources = args.value("--resource-path") { allowed.append(URL(fileURLWithPath: resources)) }
        options.allowedFolders = allowed
    }

    /// Typst's `render in.md out.pdf`: a last positional argument with an output extension
    /// (`.pdf`, `.png`, `.svg`) is the output when that reads one way only — exactly two
    /// positional arguments, no `-o` or `--output-dir`, and no such file yet. Any other
    /// positional argument with an output extension is a usage error that suggests `-o`,
    /// rather than a PDF read as Markdown.
    /// - Throws: ``UsageError`` naming the argument and `-o`.
    static func takePositionalOutput(_ args: inout ParsedArguments) throws {
        let positional = args.positional
        guard let last = positional.last, positional.count >= 2,
            formats.contains((last as NSString).pathExtension.lowercased())
        else { return }
        let exists = FileManager.default.fileExists(atPath: last)
        if positional.count == 2, args.value("--output") == nil, args.value("--output-dir") == nil, !exists {
            args.values["--output"] = [last]
            args.positional.removeLast()
            return
        }
        let why =
            exists
            ? "'\(last)' exists, so it could be an input or the output"
            : positional.count > 2
                ? "'\(last)' looks like an output, and an output after several INPUTs is ambiguous"
                : "'\(last)' looks like an output, but -o or --output-dir names one already"
        throw UsageError("\(why); name the output with -o \(last) (see 'typeset render --help')")
    }

    /// Checks `--pages TEXT` (the page numbers `selected`) against the document's `pageCount`
    /// once it is laid out. A selection that writes no page is a usage error, never a silent
    /// exit 0; pages past the end (not counting an open range `N-`) are a warning.
    /// - Throws: ``UsageError`` when `written` is 0.
    static func pageSelectionWarning(_ text: String, selected: Set<Int>, pageCount: Int, written: Int, document: String)
        throws -> Diagnostic?
    {
        let pages = "\(pageCount) page\(pageCount == 1 ? "" : "s")"
        guard written > 0 else {
            throw UsageError("--pages \(text) selects no page: \(document) has \(pages); nothing written")
        }
        let openStart = text.split(separator: ",").filter { $0.trimmingCharacters(in: .whitespaces).hasSuffix("-") }
            .compactMap { Int($0.trimmingCharacters(in: .whitespaces).dropLast()) }.min()
        let missing = selected.filter { page in page > pageCount && openStart.map { page < $0 } ?? true }
        guard let first = missing.min(), let last = missing.max() else { return nil }
        let which = first == last ? "page \(first) does" : "pages \(first)–\(last) do"
        return Diagnostic(
            .warning,
            "--pages \(text): \(document) has \(pages); \(which) not exist and \(first == last ? "is" : "are") not "
                + "written",
            kind: .output)
    }

    /// The render options the flags set (front matter fills in the rest).
    /// - Throws: ``UsageError`` for a malformed value.
    static func renderOptions(from args: ParsedArguments) throws -> RenderOptions {
        var options = RenderOptions(
            themeRequest: try ThemeOptions.request(from: args), paper: try ThemeOptions.paper(from: args),
            strict: args.has("--strict"))
        // The command owns its process (RenderOptions.tunesHeap).
        options.tunesHeap = true
        if args.has("--justify") { options.justify = true }
        if args.has("--no-tags") { options.tagged = false }
        if let list = args.value("--pdf-standard") {
            do { options.pdfStandards = try PDFStandard.standards(list) } catch {
                throw UsageError("--pdf-standard: \(error.description)")
            }
            if args.has("--no-tags") {
                throw UsageError(
                    "--pdf-standard with --no-tags: \(PDFStandard.untaggedProblem(options.pdfStandards ?? []))")
            }
        }
        if args.has("--toc") { options.tableOfContents = true }
        try SectionAndFileOptions.apply(args, to: &options)
        if let margins = args.value("--margins") { options.margins = try self.margins(margins, from: "--margins") }
        options.header = args.value("--header")
        options.footer = args.value("--footer")
        for name in ["--header", "--footer"] {
            if let template = args.value(name) { try checkRunningTemplate(template, from: name) }
        }
        let format = outputFormat(args)
        if format != "pdf" {
            guard let previewFormat = PagePreview.Format(rawValue: format) else {
                throw UsageError("--format takes pdf, png or svg, not '\(format)'")
            }
            var preview = PagePreview(format: previewFormat)
            if let pages = args.value("--pages") {
                guard let set = PagePreview.pages(pages) else {
                    throw UsageError("--pages takes page numbers and ranges such as 1-3,7 or 2-, not '\(pages)'")
                }
                preview.pages = set
            }
            if let dpi = args.value("--dpi") {
                guard let resolution = Double(dpi), (1...2400).contains(resolution) else {
                    throw UsageError("--dpi takes a resolution from 1 to 2400, not '\(dpi)'")
                }
                if previewFormat != .png { throw UsageError("--dpi goes with --format png") }
                preview.dpi = resolution
            }
            options.preview = preview
        } else if args.value("--pages") != nil || args.value("--dpi") != nil {
            throw UsageError("--pages and --dpi go with --format png or svg")
        }
        if let folder = args.value("--resource-path") {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue
            else {
                throw UsageError("--resource-path '\(folder)' is not a folder")
            }
            options.baseDirectory = folder
        }
        try checkPage(
            paper: options.paper, margins: options.margins, theme: args.value("--theme"),
            named: [
                args.value("--paper").map { "--paper '\($0)'" }, args.value("--margins").map { "--margins '\($0)'" },
            ].compactMap { $0 })
        return options
    }

    /// The formats `-f` takes; an output named with one of them as its extension is written in
    /// that format when `-f` is not given.
    static let formats = ["pdf", "png", "svg"]

    /// The format to write: `-f`'s, else the one `-o FILE`'s extension names (`shot.png` → png,
    /// as Typst and ImageMagick infer it), else pdf (no `-o`, `-o -`, a folder, a name with no
    /// extension or one no format has — refused later by ``checkOutputExtension(_:format:)``).
    static func outputFormat(_ args: ParsedArguments) -> String {
        if let given = args.value("--format") { return given }
        guard let output = args.value("--output"), output != "-", !isFolder(output) else { return "pdf" }
        let ext = (output as NSString).pathExtension.lowercased()
        return formats.contains(ext) ? ext : "pdf"
    }

    /// Refuses an output file whose extension says another format than the one written: one
    /// that contradicts `-f` (`-f svg -o a.png`), or one no format has (`-o a.jpg`). A name with
    /// no extension (`/dev/stdout`, `-o out`) is written in the chosen format.
    /// - Parameters:
    ///   - target: the `-o` value as given (`-` and folders are not checked).
    ///   - format: the format being written (pdf, png or svg).
    ///   - explicit: `-f` was given (the extension then contradicts it, rather than naming no format).
    /// - Throws: ``UsageError`` naming the extension and what is accepted.
    static func checkOutputExtension(_ target: String?, format: String, explicit: Bool) throws {
        guard let target, target != "-", !isFolder(target) else { return }
        let ext = (target as NSString).pathExtension
        guard !ext.isEmpty, ext.lowercased() != format else { return }
        if explicit {
            throw UsageError(
                "-o \(target) names a .\(ext) file but -f asks for \(format); name it .\(format), or drop -f to write "
                    + "what the extension names"
            )
        }
        throw UsageError(
            "-o \(target): .\(ext) is not a format typeset writes; name the file .pdf, .png or .svg (the format "
                + "follows the extension), or give -f"
        )
    }

    /// A running head or foot template given on the command line (`--header`, `-V footer=`):
    /// a `{name}` that is none of its fields would print as written, so it is refused.
    /// - Throws: ``UsageError`` naming the unknown fields and the four there are.
    static func checkRunningTemplate(_ template: String, from source: String) throws {
        let unknown = Typesetter.unknownRunningFields(in: template)
        guard !unknown.isEmpty else { return }
        throw UsageError(
            "\(source) '\(template)': unknown field\(unknown.count == 1 ? "" : "s") "
                + "\(unknown.map { "{\($0)}" }.joined(separator: ", ")); a running text takes {title}, {page}, "
                + "{pages} and {date}"
        )
    }

    /// Margins written as CSS `margin` (1 to 4 lengths, each with a unit: Typst and CSS want
    /// units, and a bare number is refused rather than guessed), from an option or `-V`.
    static func margins(_ text: String, from source: String) throws -> Margins {
        guard let margins = Margins(css: text) else {
            throw UsageError(
                "\(source) takes 1 to 4 lengths, each with a unit (mm, cm, in, pt), as CSS margin ('20mm', '20mm "
                    + "25mm'), not '\(text)'"
            )
        }
        return margins
    }

    /// Paper and margins given on the command line must leave a text area, as every theme's
    /// page must (at least 72 × 72 pt, the paper at most 14 400 pt a side): a usage error
    /// naming the options, not the input file.
    static func checkPage(paper: PaperSize?, margins: Margins?, theme: String?, named: [String]) throws {
        guard paper != nil || margins != nil,
            var page = (try? ThemeLoader.resolve(nameOrPath: theme ?? "default"))?.page
        else { return }
        if let paper { page.paper = paper }
        if let margins {
            page.margins = margins
            page.measureCharacters = nil
        }
        // A theme whose measure is counted in characters fits its margins to the paper given:
        // the widest text area it can leave is what must hold.
        let (width, height) = page.widestTextArea
        guard !(width >= 72 && height >= 72 && page.paper.width <= 14_400 && page.paper.height <= 14_400)
        else { return }
        page = page.fittingMeasure(characterWidth: page.paper.width)
        let margins = page.margins
        let sides = [margins.top, margins.right, margins.bottom, margins.left].map(\.wholePointsText)
        throw UsageError(
            "\(named.joined(separator: " with ")): paper \(page.paper.width.wholePointsText) × "
                + "\(page.paper.height.wholePointsText) pt less margins "
                + "\(sides.joined(separator: " ")) pt leaves a "
                + "text area of "
                + "\(page.measure.wholePointsText) × \(page.textHeight.wholePointsText) pt; it must be at least 72 × "
                + "72 pt (1 in) (--margins sets narrower margins)"
        )
    }

    /// `-V`/`-M KEY=VALUE` pairs in order, then `--lang`. `paper`, `margins`, `header` and
    /// `footer` are judged as `--paper`, `--margins` and `--header` are (a bad value is a usage
    /// error), whichever way they come.
    static func variables(from args: ParsedArguments) throws -> [(String, String)] {
        var pairs = try PandocVariables.translate(listingRepeatedAuthors(rawVariables(args))).pairs
        var paper: PaperSize?
        var margins: Margins?
        for (key, value) in pairs {
            switch key.lowercased() {
            case "paper":
                do { paper = try PaperSize(parsing: value) } catch {
                    throw UsageError("-V paper: \(error.description)")
                }
            case "margins": margins = try self.margins(value, from: "-V margins")
            case "header", "footer": try checkRunningTemplate(value, from: "-V \(key.lowercased())")
            default: break
            }
        }
        if args.value("--paper") == nil, args.value("--margins") == nil {
            try checkPage(
                paper: paper, margins: margins, theme: args.value("--theme"),
                named: [paper.map { _ in "-V paper" }, margins.map { _ in "-V margins" }].compactMap { $0 })
        }
        try SectionAndFileOptions.checkLanguage(pairs, option: nil)
        if let lang = args.value("--lang") { pairs.append(("lang", lang)) }
        try SectionAndFileOptions.checkLanguage(pairs.suffix(1), option: "--lang")
        return pairs
    }

    /// `pairs` with a repeated `author` (or `authors`) and `keywords` each made one list, at
    /// the first's place: Pandoc collects a key given several times into a list (`-M
    /// author=Alice -M author=Bob` is two authors), and Typeset lists authors as `, ` does in
    /// front matter.
    static func listingRepeatedAuthors(_ pairs: [(String, String)]) -> [(String, String)] {
        var listed: [(String, String)] = []
        var first: [String: Int] = [:]
        for (key, value) in pairs {
            let canonical = key.lowercased() == "authors" ? "author" : key.lowercased()
            guard canonical == "author" || canonical == "keywords" else {
                listed.append((key, value))
                continue
            }
            if let index = first[canonical] {
                listed[index].1 += ", " + value
            } else {
                first[canonical] = listed.count
                listed.append((canonical, value))
            }
        }
        return listed
    }

    /// `-V`/`-M` pairs as given, in order, read as Pandoc reads them (`-V KEY[=VAL]`,
    /// `--variable=KEY[:VAL]`): the key ends at the first `=` or `:` (`-V geometry:margin=1in`
    /// is `geometry` = `margin=1in`), and a key alone is `true` (`-V toc`).
    /// - Throws: ``UsageError`` for a pair with no key.
    static func rawVariables(_ args: ParsedArguments) throws -> [(String, String)] {
        try (args.all("--variable") + args.all("--metadata")).map { pair in
            guard let end = pair.firstIndex(where: { $0 == "=" || $0 == ":" }) else {
                guard !pair.isEmpty else { throw UsageError("-V takes KEY=VALUE, not an empty argument") }
                return (pair, "true")
            }
            guard end > pair.startIndex else { throw UsageError("-V takes KEY=VALUE, not '\(pair)'") }
            return (String(pair[..<end]), String(pair[pair.index(after: end)...]))
        }
    }

    /// Applies Pandoc's `-V` type settings (``PandocVariables``) to `options`; returns the
    /// warnings about keys Typeset does not read.
    /// - Throws: ``UsageError`` for a bad value, or for an unknown key with `--strict`.
    static func applyPandocVariables(_ args: ParsedArguments, to options: inout RenderOptions) throws -> [Diagnostic] {
        let translation = try PandocVariables.translate(rawVariables(args))
        options.themeRequest.pandocVariables = translation.type
        if options.themeRequest.family == nil, let family = translation.family {
            options.themeRequest.family = family
            options.themeRequest.familyOption = translation.familyKey.map { "-V \($0)" }
        }
        if options.strict, let first = translation.warnings.first {
            throw UsageError(first.replacingOccurrences(of: "; ignored", with: "") + " (an error with --strict)")
        }
        if let problem = Typesetter.commandLineValueProblems(translation.pairs, options: options).first {
            throw UsageError(problem)
        }
        return translation.warnings.map { Diagnostic(.warning, $0, kind: .content) }
    }

    static func jobCount(_ args: ParsedArguments) throws -> Int {
        guard let text = args.value("--jobs") else { return ProcessInfo.processInfo.activeProcessorCount }
        guard let count = Int(text), (1...256).contains(count) else {
            throw UsageError("-j takes a number of jobs from 1 to 256, not '\(text)'")
        }
        return count
    }

    /// The options a child process gets: every option given, except those that choose outputs
    /// and jobs (the parent chooses one output per child).
    static func forwardedArguments(_ args: ParsedArguments) -> [String] {
        var forwarded: [String] = []
        for option in spec.options where !["--output", "--output-dir", "--jobs", "--help"].contains(option.name) {
            if option.value != nil {
                for value in args.all(option.name) { forwarded += [option.name, value] }
            } else if args.has(option.name) {
                forwarded.append(option.name)
            }
        }
        return forwarded
    }

    /// An output naming a folder: ends with `/` or is an existing folder.
    static func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return path.hasSuffix("/")
            || (FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue)
    }

    /// `FOLDER/<input name>.pdf` (or `.png`, `.svg`); the folder is created when missing.
    static func inFolder(_ folder: String, for input: String, format: String = "pdf") throws -> String {
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            throw TypesetError.unwritableOutput(
                path: folder, reason: "cannot create the folder: \((error as NSError).localizedDescription)")
        }
        let name = input == "-" ? "stdin" : URL(fileURLWithPath: input).deletingPathExtension().lastPathComponent
        return (folder as NSString).appendingPathComponent(name + "." + format)
    }

    /// The input's path with its extension replaced (`dir/doc.md` → `dir/doc.pdf`), beside the
    /// input as Typst writes; standard output for standard input (`stdin.png` for pictures).
    static func defaultOutput(for input: String, format: String = "pdf") -> String {
        if input == "-" { return format == "pdf" ? "-" : "stdin.\(format)" }
        return (input as NSString).deletingPathExtension + "." + format
    }
}

/// What the CLI prints on standard error: text lines, or JSON lines with `--diagnostics json`.
enum Messages {
    /// How diagnostics are printed.
    enum Format: Equatable {
        case text, json
        init(_ args: ParsedArguments) throws {
            switch args.value("--diagnostics") ?? "text" {
            case "text": self = .text
            case "json": self = .json
            case let other: throw UsageError("--diagnostics takes text or json, not '\(other)'")
            }
        }
        /// From the raw command line (for errors thrown before options are parsed).
        static func of(_ arguments: [String]) -> Format {
            for (i, a) in arguments.enumerated() {
                if a == "--diagnostics=json"
                    || (a == "--diagnostics" && arguments.indices.contains(i + 1) && arguments[i + 1] == "json")
                {
                    return .json
                }
            }
            return .text
        }
    }

    static func error(_ line: String) { FileHandle.standardError.write(Data((line + "\n").utf8)) }

    /// One JSON object: file, line, column (null when unknown), severity, message.
    static func json(_ problem: TypesetProblem) -> String {
        struct Line: Encodable {
            var file: String?, line: Int?, column: Int?, severity: String, kind: String, message: String
            func encode(to encoder: Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(file, forKey: .file)
                try container.encode(line, forKey: .line)
                try container.encode(column, forKey: .column)
                try container.encode(severity, forKey: .severity)
                try container.encode(kind, forKey: .kind)
                try container.encode(message, forKey: .message)
            }
            enum CodingKeys: String, CodingKey { case file, line, column, severity, kind, message }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let value = Line(
            file: problem.file, line: problem.line, column: problem.column, severity: problem.severity.rawValue,
            kind: problem.kind.rawValue, message: problem.message)
        return String(decoding: (try? encoder.encode(value)) ?? Data("{}".utf8), as: UTF8.self)
    }

    /// One run's diagnostics in source order: by file, line and column, ties in the order found
    /// (a stable sort); those with no position — from the command line, the theme, the fonts —
    /// first, as the run met them before the document.
    static func sorted(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        func key(_ diagnostic: Diagnostic) -> (String, Int, Int) {
            (diagnostic.location?.file ?? "", diagnostic.location?.line ?? 0, diagnostic.location?.column ?? 0)
        }
        return diagnostics.enumerated().sorted { lhs, rhs in
            let (lhsKey, rhsKey) = (key(lhs.element), key(rhs.element))
            return lhsKey != rhsKey ? lhsKey < rhsKey : lhs.offset < rhs.offset
        }.map(\.element)
    }

    /// The line printed for `diagnostic`: `file:line:column: warning: …`, or for one with no
    /// position `typeset: warning: …`, so every line says where it comes from.
    static func line(_ diagnostic: Diagnostic) -> String {
        diagnostic.location == nil ? "typeset: \(diagnostic.description)" : diagnostic.description
    }

    /// Each warning on its own line in source order, then `OUTPUT: N pages` (nothing with
    /// `--quiet`; only the JSON lines with `--diagnostics json`).
    static func report(_ report: RenderReport, output: String, quiet: Bool, format: Format = .text) {
        guard !quiet else { return }
        if format == .json {
            for diagnostic in sorted(report.diagnostics) { error(json(TypesetProblem(diagnostic))) }
            return
        }
        for diagnostic in sorted(report.diagnostics) { error(line(diagnostic)) }
        if !report.files.isEmpty {
            error(
                "\(report.files.joined(separator: ", ")): \(report.files.count) of \(report.pageCount) "
                    + "page\(report.pageCount == 1 ? "" : "s")"
            )
        } else if output != "-" {
            error("\(output): \(report.pageCount) page\(report.pageCount == 1 ? "" : "s")")
        }
    }

    /// A failure: its problems as JSON lines, or its one-line (per problem) description. Strict
    /// mode's verdict names the flag. Printed whatever `--quiet` says: quiet silences warnings,
    /// never the errors `--strict` makes of them.
    static func failure(_ error: TypesetError, format: Format) {
        if format == .json {
            // In source order too (stable: ties keep the order found).
            let problems = error.problems.enumerated().sorted { lhs, rhs in
                let (lhsKey, rhsKey) = (
                    (lhs.element.file ?? "", lhs.element.line ?? 0, lhs.element.column ?? 0),
                    (rhs.element.file ?? "", rhs.element.line ?? 0, rhs.element.column ?? 0)
                )
                return lhsKey != rhsKey ? lhsKey < rhsKey : lhs.offset < rhs.offset
            }
            for problem in problems { self.error(json(problem.element)) }
            return
        }
        if case .invalidInput(let diagnostics) = error {
            for diagnostic in sorted(diagnostics) { self.error(line(diagnostic)) }
            return
        }
        if case .warningsAreErrors(let diagnostics) = error {
            for diagnostic in sorted(diagnostics) { self.error(line(diagnostic)) }
            let count = diagnostics.count
            self.error(
                "typeset: \(count) warning\(count == 1 ? "" : "s") treated as error\(count == 1 ? "" : "s") "
                    + "(--strict); nothing written"
            )
            return
        }
        self.error(error.description)
    }
}
