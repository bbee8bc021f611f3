import DocumentModel
import MarkdownParser

extension Metadata {
    /// Sets front-matter `key` to `value` as if the document had written it — Pandoc's
    /// `-V`/`--metadata KEY=VALUE`. `title`, `subtitle`, `author`, `date`, `lang` and
    /// `keywords` (comma-separated) fill their properties; any other key goes to ``fields``
    /// (`toc`, `paper`, `margins`, `header`, …), where the stages that read front matter find it.
    public mutating func set(_ key: String, to value: String) {
        fieldLocations[key] = nil
        switch key {
        case "title": title = value
        case "subtitle": subtitle = value
        case "author": author = value
        case "date": date = value
        case "lang": lang = value
        case "keywords":
            keywords = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                !$0.isEmpty
            }
        default:
            fields[key] = value
        }
    }
}

extension Typesetter {
    /// What is wrong with front-matter values given on the command line (`-V KEY=VALUE`),
    /// judged as the front matter's would be (`widows=abc`, `line-break=q`): one message for
    /// each, naming the option. A command line makes these usage errors, as it makes a bad
    /// value of any option.
    public static func commandLineValueProblems(_ pairs: [(String, String)], options: RenderOptions) -> [String] {
        var metadata = Metadata()
        for (key, value) in pairs { metadata.set(key, to: value) }
        var diagnostics: [Diagnostic] = []
        _ = FrontMatterSettings.merge(options, with: metadata, diagnostics: &diagnostics)
        return diagnostics.map(\.message)
    }

    /// Whether front-matter `key` is one Typeset reads (`toc`, `margins.top`, `sizeCategory`),
    /// for a command line that sets keys to refuse or warn about the others.
    public static func readsFrontMatterKey(_ key: String) -> Bool { MarkdownParser.readsFrontMatterKey(key) }

    /// Parses Markdown (front matter, CommonMark with GitHub's extensions, Pandoc attributes)
    /// into a ``Document`` without rendering it, for programs that edit the document or its
    /// metadata first. Never throws: content problems are the returned diagnostics.
    public static func parse(markdown: String, file: String = "<memory>") -> (
        document: Document, diagnostics: [Diagnostic]
    ) {
        let parsed = MarkdownParser.parse(markdown, file: file)
        return (parsed.document, parsed.diagnostics)
    }

    /// ``parse(markdown:file:)`` with the command line's `-V KEY=VALUE` pairs that change how
    /// the text is read: `math` (`false`, `no` or `off` keeps dollars as text; any other value
    /// reads TeX math), which wins over the front matter's.
    public static func parse(markdown: String, file: String = "<memory>", variables: [(String, String)]) -> (
        document: Document, diagnostics: [Diagnostic]
    ) {
        let math = variables.last { $0.0 == "math" }.map { !["false", "no", "off"].contains($0.1.lowercased()) }
        let parsed = MarkdownParser.parse(markdown, file: file, math: math)
        return (parsed.document, parsed.diagnostics)
    }
}
