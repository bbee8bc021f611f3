import DocumentModel
import Foundation
import Typesetter

/// The options Pandoc's users reach for to number sections, bound the contents, and bring
/// settings from files: `--number-sections`, `--toc-depth`, `--metadata-file` and `--defaults`.
enum SectionAndFileOptions {
    static let options: [OptionSpec] = [
        OptionSpec(
            name: "--number-sections", short: "-N",
            help: "number the sections 1, 1.1, … in headings, the contents and the bookmarks ({-} or {.unnumbered} "
                + "leaves a heading out)"),
        OptionSpec(
            name: "--toc-depth", value: "N",
            help: "the deepest heading level the contents list, 1–6 (default 3); the bookmarks list every level"),
        OptionSpec(
            name: "--metadata-file", value: "PATH",
            help: "front-matter keys from a YAML or JSON file (repeatable, a later file wins); the document's own "
                + "keys win over the file's, and -V/-M over both, as in Pandoc",
            choices: ["files"]),
        OptionSpec(
            name: "--defaults", short: "-d", value: "PATH",
            help: "options from a YAML file of option names and values, as Pandoc's defaults files (the command "
                + "line wins)",
            choices: ["files"]),
    ]

    /// Fills in what `document`'s front matter leaves unset from each `--metadata-file` (a later
    /// file wins over an earlier one); returns the files' warnings.
    /// - Throws: ``UsageError`` for a file that does not exist; ``TypesetError`` for one that
    ///   cannot be read or is not a mapping, at its position.
    static func fillMetadata(_ document: inout Document, from args: ParsedArguments) throws -> [Diagnostic] {
        var warnings: [Diagnostic] = []
        for path in args.all("--metadata-file").reversed() {
            guard FileManager.default.fileExists(atPath: path) else {
                throw UsageError("--metadata-file '\(path)': no such file")
            }
            let (metadata, diagnostics) = try Typesetter.metadataFile(path)
            document.metadata.fill(from: metadata)
            warnings = diagnostics + warnings
        }
        return warnings
    }

    /// Refuses a `--lang` or `-V lang` that is not a BCP 47 language tag, as every bad option
    /// value is refused (exit 2).
    /// - Throws: ``UsageError`` naming the option and what is wrong with the tag.
    static func checkLanguage(_ pairs: [(String, String)], option: String?) throws {
        for (key, value) in pairs where key.lowercased() == "lang" {
            let tag = value.trimmingCharacters(in: .whitespaces)
            guard !LanguageTag.isWellFormed(tag) else { continue }
            throw UsageError("\(option ?? "-V lang") '\(value)': \(LanguageTag.problem(value))")
        }
    }

    /// Sets the numbering and contents depth the command line asks for.
    /// - Throws: ``UsageError`` for a depth that is not 1 to 6.
    static func apply(_ args: ParsedArguments, to options: inout RenderOptions) throws {
        if args.has("--number-sections") { options.numberSections = true }
        if let text = args.value("--toc-depth") {
            guard let depth = Int(text), (1...6).contains(depth) else {
                throw UsageError("--toc-depth takes a heading level from 1 to 6, not '\(text)'")
            }
            options.tableOfContentsDepth = depth
        }
    }
}

/// The warnings `watch` prints: each once, until a render comes without it.
enum WatchWarnings {
    /// Leaves in `report` only the warnings `shown` (the last render's) does not hold, and makes
    /// `shown` this render's; returns how many were left out. JSON lines are all kept: a
    /// program reads each render whole.
    static func keepNew(_ report: inout RenderReport, format: Messages.Format, shown: inout Set<String>) -> Int {
        let lines = report.diagnostics.map(Messages.line)
        defer { shown = Set(lines) }
        guard format == .text else { return 0 }
        let before = report.diagnostics.count
        report.diagnostics = zip(report.diagnostics, lines).filter { !shown.contains($0.1) }.map(\.0)
        return before - report.diagnostics.count
    }
}
