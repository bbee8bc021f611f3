import Foundation

/// Pandoc's implicit heading references (Pandoc's manual, "Extension:
/// implicit_header_references"): a heading is a reference link's definition of its own text, so
/// `[Heading text]`, `[Heading text][]` and `[see this][Heading text]` link to it. A label two
/// headings share links to the first, and a definition the document writes itself wins, as
/// CommonMark's first definition of a label does. A label also written as a bracketed span
/// (`[Heading text]{.smallcaps}`) is left undefined, so the span stays a span, as Pandoc reads
/// a span before a link.
///
/// The headings are found in the source before the parse: ATX headings (`## Text`, a closing
/// run of `#` and an attribute list `{#id .class}` left out) and one-line setext headings
/// (`Text` over `===` or `---`), outside fenced code and the HTML blocks that run to an end
/// condition (``RawHTMLBlock``: `<pre>`, comments), at the text's own level (not in a quote or
/// a list item). Each that a bracketed label in the text names becomes a definition appended
/// after the text, `[Text]: <#Text>`, or `<#id>` when the heading names its id, which resolves
/// to the heading as a link to its text does. Nothing is appended to a text that ends inside a
/// fenced code block or such an HTML block, where the definitions would be text.
enum HeadingReferences {
    /// The definitions to append to `text`, from a blank line; nil when it has no heading to
    /// define or ends where definitions would be text.
    static func definitions(for text: String) -> String? {
        var text = text
        return text.withUTF8(definitions(in:))
    }

    /// ``definitions(for:)`` read from the text's bytes: each line is looked at by its first
    /// bytes, and only a heading's is made a string.
    private static func definitions(in bytes: UnsafeBufferPointer<UInt8>) -> String? {
        // Each heading's definition by its key, in the order of the headings.
        var definitions: [(key: String, line: String)] = []
        var keys = Set<String>()
        var fence: (character: UInt8, length: Int)?
        // The closer of the HTML block open that runs to an end condition (`</pre>`, `-->`…).
        var rawBlock: [UInt8]?
        // The line before, when it may be a setext heading's text.
        var previous: Range<Int>?
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            defer { start = end + 1 }
            if let open = rawBlock {
                if RawHTMLBlock.closes(open, bytes, start, end) { rawBlock = nil }
                previous = nil
                continue
            }
            var first = start
            while first < end, first - start < 4, bytes[first] == 0x20 { first += 1 }
            let blank = bytes[first..<end].allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
            guard first - start <= 3, !blank else {
                previous = nil
                continue
            }
            let lead = bytes[first]
            if lead == UInt8(ascii: "`") || lead == UInt8(ascii: "~") {
                var run = first
                while run < end, bytes[run] == lead { run += 1 }
                if let open = fence {
                    let rest = bytes[run..<end].allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
                    if lead == open.character, run - first >= open.length, rest { fence = nil }
                } else if run - first >= 3 {
                    fence = (lead, run - first)
                }
                previous = nil
                continue
            }
            guard fence == nil else { continue }
            if let block = RawHTMLBlock.opening(bytes, first, end) {
                rawBlock = block.closed ? nil : block.closer
                previous = nil
                continue
            }
            var heading: Substring?
            if lead == UInt8(ascii: "#") {
                heading = atxText(Substring(decoding: UnsafeBufferPointer(rebasing: bytes[first..<end]), as: UTF8.self))
            } else if lead == UInt8(ascii: "=") || lead == UInt8(ascii: "-"), let line = previous,
                isUnderline(Substring(decoding: UnsafeBufferPointer(rebasing: bytes[first..<end]), as: UTF8.self))
            {
                let text = Substring(decoding: UnsafeBufferPointer(rebasing: bytes[line]), as: UTF8.self)
                heading = isParagraphLine(text) ? text : nil
            }
            previous = lead == UInt8(ascii: "#") ? nil : first..<end
            guard let heading, let definition = definition(of: heading) else { continue }
            if keys.insert(definition.key).inserted { definitions.append(definition) }
        }
        guard !definitions.isEmpty, fence == nil, rawBlock == nil else { return nil }
        // Only the headings a bracketed label names are defined: each definition is parsed
        // again before every window of a long text.
        let cited = bracketedLabels(in: bytes, among: keys)
        let used = definitions.filter { cited.contains($0.key) }
        guard !used.isEmpty else { return nil }
        return "\n\n" + used.map(\.line).joined(separator: "\n") + "\n"
    }

    /// The keys among `keys` that a `[label]` on one line of `bytes` names, but for those also
    /// written as a bracketed span (`[label]{.class}`), which a definition would make a link.
    private static func bracketedLabels(in bytes: UnsafeBufferPointer<UInt8>, among keys: Set<String>) -> Set<String> {
        let longest = keys.map(\.utf8.count).max() ?? 0
        // The first byte of each key, ASCII letters in both cases: most labels start otherwise.
        var firstBytes = Set<UInt8>()
        for key in keys {
            guard let first = key.utf8.first else { continue }
            firstBytes.insert(first)
            if (0x61...0x7A).contains(first) { firstBytes.insert(first - 0x20) }
        }
        var found = Set<String>()
        var spans = Set<String>()
        var open: Int?
        for index in bytes.indices {
            switch bytes[index] {
            case UInt8(ascii: "["): open = index + 1
            case 0x0A: open = nil
            case UInt8(ascii: "]"):
                guard let start = open else { continue }
                open = nil
                // A label with its spaces collapsed is no longer than it is written.
                guard index - start <= 4 * longest + 8, index > start, firstBytes.contains(bytes[start]) else {
                    continue
                }
                let label = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                let key = label.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
                guard keys.contains(key) else { continue }
                if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "{") {
                    spans.insert(key)
                } else {
                    found.insert(key)
                }
            default: break
            }
        }
        return found.subtracting(spans)
    }

    /// The text of an ATX heading line (`## Text ##`), without its closing `#` run; nil when
    /// the line is no heading.
    private static func atxText(_ line: Substring) -> Substring? {
        let level = line.prefix { $0 == "#" }.count
        let rest = line.dropFirst(level)
        guard (1...6).contains(level), let space = rest.first, space == " " || space == "\t" else { return nil }
        var text = rest.trimmingCharacters(in: CharacterSet(charactersIn: " \t\r"))[...]
        let closing = text.reversed().prefix { $0 == "#" }.count
        if closing > 0, closing == text.count || text.dropLast(closing).last == " " {
            text = text.dropLast(closing)
        }
        return text.trimmingCharacters(in: CharacterSet(charactersIn: " \t"))[...]
    }

    /// Whether `line` is a setext heading's underline: `=` or `-` only, then spaces.
    private static func isUnderline(_ line: Substring) -> Bool {
        let trimmed = line.trimmingCharacters(in: CharacterSet(charactersIn: " \t\r"))
        guard let first = trimmed.first, first == "=" || first == "-" else { return false }
        return trimmed.allSatisfy { $0 == first }
    }

    /// Whether `line` reads as a paragraph's text, not as another block's opening.
    private static func isParagraphLine(_ line: Substring) -> Bool {
        guard let first = line.first else { return false }
        if ">#|-*+<".contains(first) { return false }
        let digits = line.prefix { $0.isASCII && $0.isNumber }
        if !digits.isEmpty, let after = line.dropFirst(digits.count).first, after == "." || after == ")" {
            return false
        }
        return !line.allSatisfy { $0 == " " || $0 == "\t" || $0 == "\r" }
    }

    /// The definition of a heading written `heading`: its key (the label as CommonMark
    /// compares labels) and its line; nil for a heading whose text cannot be a label or a
    /// destination (brackets, angle brackets, a backslash) or is empty.
    private static func definition(of heading: Substring) -> (key: String, line: String)? {
        var text = heading
        var id: Substring?
        if text.last == "}", let open = text.lastIndex(of: "{") {
            let attributes = text[text.index(after: open)..<text.index(before: text.endIndex)]
            id = attributes.split(separator: " ").first { $0.hasPrefix("#") }?.dropFirst()
            text = text[..<open]
        }
        let label = text.trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
        guard !label.isEmpty, label.count <= 500, !label.contains(where: { "[]<>\\".contains($0) }) else { return nil }
        let plain = label.filter { !"*_`".contains($0) }
        let destination = id.map(String.init) ?? plain
        guard !destination.isEmpty else { return nil }
        let key = label.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
        return (key, "[\(label)]: <#\(destination)>")
    }
}
