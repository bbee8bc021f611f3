import DocumentModel

/// Pandoc's definition lists in their compact form (Pandoc manual, "Definition lists"): a
/// paragraph whose first line is the term and whose later lines start with `:` and a space or
/// tab, one definition each (a line without the marker continues the definition before it).
/// cmark-gfm has no extension for them, so they are recognised on the converted paragraph.
enum PandocDefinitions {
    /// The term and the definitions' inlines of `inlines`, a paragraph's; nil when it is no
    /// definition list. `lineStartsWithColon(n)` tells whether the paragraph's line n (0 its
    /// first) starts with `:` as written (not escaped).
    static func item(_ inlines: [Inline], lineStartsWithColon: (Int) -> Bool) -> (
        term: [Inline], definitions: [[Inline]]
    )? {
        let lines = inlines.split(omittingEmptySubsequences: false) { $0 == .softBreak }
        guard lines.count >= 2, !lines[0].isEmpty, !lines[0].contains(.lineBreak),
            definitionContent(Array(lines[0])) == nil || !lineStartsWithColon(0)
        else { return nil }
        var definitions: [[Inline]] = []
        for (offset, line) in lines.enumerated().dropFirst() {
            if let content = definitionContent(Array(line)), lineStartsWithColon(offset) {
                definitions.append(content)
            } else if definitions.isEmpty {
                return nil
            } else {
                definitions[definitions.count - 1] += [.softBreak] + line
            }
        }
        return (Array(lines[0]), definitions)
    }

    /// The line without its `: ` marker, or nil when it has none (or nothing follows it).
    static func definitionContent(_ line: [Inline]) -> [Inline]? {
        guard case .text(let text)? = line.first, text.hasPrefix(": ") || text.hasPrefix(":\t") else { return nil }
        let rest = text.dropFirst(2).drop { $0 == " " || $0 == "\t" }
        var content = Array(line.dropFirst())
        if !rest.isEmpty { content.insert(.text(String(rest)), at: 0) }
        return content.isEmpty ? nil : content
    }
}
