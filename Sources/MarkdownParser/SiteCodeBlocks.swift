import Foundation

/// The code blocks of site generators' templates: Jekyll's Liquid `{% highlight ruby %}` …
/// `{% endhighlight %}` (Jekyll's documentation, "Code snippet highlighting") and Hugo's
/// shortcode `{{< highlight go >}}` … `{{< /highlight >}}` (Hugo's documentation, "highlight
/// shortcode"). Markdown reads their lines as a paragraph, joined and reflowed; before the parse
/// each opening and closing line is written as a code fence of the same length in bytes
/// (```` ```ruby ```` and spaces), so the code between them is a fenced code block in its
/// language, line for line. `linenos` (Jekyll) and `linenos=true` or `table` (Hugo) number the
/// lines (`.numberLines`). Other options, and tags inside fenced or indented code, are left as
/// they are.
enum SiteCodeBlocks {
    /// `text` with the opening and closing lines of such blocks written as fences; nil when it
    /// has none.
    static func rewriting(_ text: String) -> String? {
        // Most texts have neither tag: found in the text's own bytes, it is copied only when one is.
        guard mayHoldHighlightTag(text) else { return nil }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // The line of the block open, with what it said before it was made a fence.
        var open: (index: Int, written: String)?
        var changed = false
        // The Markdown code fence open (its character and length): tags inside it are code.
        var fence: (character: Character, length: Int)?
        for index in lines.indices {
            let line = lines[index]
            let trimmed = line.trimmingPrefix { $0 == " " }
            guard line.count - trimmed.count <= 3 else { continue }
            if open == nil, let lead = trimmed.first, lead == "`" || lead == "~" {
                let run = trimmed.prefix { $0 == lead }.count
                if let current = fence {
                    if lead == current.character, run >= current.length,
                        trimmed.dropFirst(run).allSatisfy(\.isWhitespace)
                    {
                        fence = nil
                    }
                } else if run >= 3 {
                    fence = (lead, run)
                }
                continue
            }
            guard fence == nil, trimmed.hasPrefix("{") else { continue }
            let words = Self.words(of: String(trimmed))
            guard let words else { continue }
            if open == nil, words.first == "highlight", words.count >= 2 {
                let options = words.dropFirst(2).flatMap { $0.split(separator: ",").map(String.init) }
                let numbered = options.contains {
                    ["linenos", "linenos=true", "linenos=table"].contains($0)
                }
                let language = words[1].filter { $0.isLetter || $0.isNumber || "+-_#.".contains($0) }
                let fence = numbered ? "``` {.\(language) .numberLines}" : "```\(language)"
                guard fence.utf8.count <= line.utf8.count, !language.isEmpty else { continue }
                lines[index] = fence + String(repeating: " ", count: line.utf8.count - fence.utf8.count)
                open = (index, line)
            } else if open != nil, words == ["endhighlight"] || words == ["/highlight"] {
                lines[index] = "```" + String(repeating: " ", count: line.utf8.count - 3)
                open = nil
                changed = true
            }
        }
        // A block never closed is left as written.
        if let open { lines[open.index] = open.written }
        return changed ? lines.joined(separator: "\n") : nil
    }

    /// Whether `text` holds `{%` or `{{<` followed by `highlight` after spaces: read from its
    /// bytes, as most texts hold neither.
    private static func mayHoldHighlightTag(_ text: String) -> Bool {
        var text = text
        let word = Array("highlight".utf8)
        return text.withUTF8 { bytes in
            var index = 0
            while index + 1 < bytes.count {
                defer { index += 1 }
                guard bytes[index] == UInt8(ascii: "{"),
                    bytes[index + 1] == UInt8(ascii: "%") || bytes[index + 1] == UInt8(ascii: "{")
                else { continue }
                var probe = index + 2
                if probe < bytes.count, bytes[probe] == UInt8(ascii: "<") { probe += 1 }
                while probe < bytes.count, bytes[probe] == 0x20 { probe += 1 }
                if probe + word.count <= bytes.count, bytes[probe..<(probe + word.count)].elementsEqual(word) {
                    return true
                }
            }
            return false
        }
    }

    /// The words of a line that is one Liquid tag (`{% … %}`) or Hugo shortcode (`{{< … >}}`,
    /// `{{% … %}}`) and nothing else; nil for any other line.
    private static func words(of line: String) -> [String]? {
        let body = line.trimmingCharacters(in: .init(charactersIn: " \t\r"))
        let forms = [("{%", "%}"), ("{{<", ">}}"), ("{{%", "%}}")]
        guard let (opening, closing) = forms.first(where: { body.hasPrefix($0.0) && body.hasSuffix($0.1) }),
            body.count >= opening.count + closing.count
        else { return nil }
        let inner = body.dropFirst(opening.count).dropLast(closing.count)
        return inner.split(whereSeparator: { $0 == " " || $0 == "\t" }).map {
            String($0.trimmingCharacters(in: .init(charactersIn: "\"")))
        }
    }
}
