import Typography

/// Pandoc's title block (Pandoc's User's Guide, "Extension: pandoc_title_block"): a file that
/// begins with lines starting with `%` gives its title, its authors and its date there,
///
/// ```
/// % The title
/// % Ada Lovelace; Charles Babbage
/// % 6 December 2026
/// ```
///
/// a field a line, in that order. A field may be left empty (`%` alone) or out from the end; a
/// line that starts with a space goes on with the field above it: more of the title or the
/// date, or more authors, one a line. Authors are also parted by semicolons.
enum PandocTitleBlock {
    /// The title block at the start of `input` (whose lines, without their line feeds, are
    /// `lines`) as YAML front matter, its title, author list and date each on the line of the
    /// field's `%` line (so that a warning about a value names its line), and the index of the
    /// first line after the block; nil when the first line does not start with `%`.
    static func frontMatter(_ input: [UInt8], lines: [Range<Int>]) -> (yaml: [UInt8], bodyLine: Int)? {
        guard let first = lines.first, input[first].first == UInt8(ascii: "%") else { return nil }
        // Each field: the 0-based line of its `%`, and its lines' text.
        var fields: [(line: Int, parts: [String])] = []
        var index = 0
        while index < lines.count, fields.count < 3, input[lines[index]].first == UInt8(ascii: "%") {
            var parts = [text(input[lines[index]].dropFirst())]
            let line = index
            index += 1
            while index < lines.count, let lead = input[lines[index]].first,
                lead == UInt8(ascii: " ") || lead == UInt8(ascii: "\t"), !text(input[lines[index]]).isEmpty
            {
                parts.append(text(input[lines[index]]))
                index += 1
            }
            fields.append((line, parts))
        }
        var yaml: [String] = Array(repeating: "", count: index)
        for (number, field) in fields.enumerated() {
            let parts = field.parts.filter { !$0.isEmpty }
            guard !parts.isEmpty else { continue }
            switch number {
            case 0: yaml[field.line] = "title: " + OrderedJSON.quoted(parts.joined(separator: " "))
            case 1:
                let authors = parts.flatMap { $0.split(separator: ";") }.map(trimmed).filter { !$0.isEmpty }
                guard !authors.isEmpty else { continue }
                yaml[field.line] = "author: [" + authors.map(OrderedJSON.quoted).joined(separator: ", ") + "]"
            default: yaml[field.line] = "date: " + OrderedJSON.quoted(parts.joined(separator: " "))
            }
        }
        return (Array(yaml.joined(separator: "\n").utf8), index)
    }

    /// `bytes` as text without the white space at its ends.
    private static func text(_ bytes: ArraySlice<UInt8>) -> String {
        trimmed(Substring(decoding: bytes, as: UTF8.self))
    }

    /// `text` without the spaces and tabs at its ends.
    private static func trimmed(_ text: Substring) -> String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = text.firstIndex(where: { !isBlank($0) }), let end = text.lastIndex(where: { !isBlank($0) })
        else { return "" }
        return String(text[start...end])
    }
}
