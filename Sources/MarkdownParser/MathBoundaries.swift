/// Where Markdown ends the text a `$…$` formula may span, read before math as GitHub and
/// Pandoc read it: a table row's cells (a formula stays in its cell, on its row), HTML tags and
/// comments (GitHub documents `<span>$</span>` as the way to write a dollar), the raw text of
/// `<pre>`, `<script>`, `<style>` and `<textarea>` and of HTML comments (CommonMark 0.31
/// §4.6, HTML blocks of kinds 1 and 2), and a link's title.
extension MathSyntax {

    /// Whether `byte` may continue an HTML tag's name (ASCII letters, digits, `-`).
    static func isNameByte(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || byte == 0x2D
    }

    /// Whether `content` (a line after its indentation) is a table's delimiter row
    /// (`|---|:--:|`, GitHub Flavored Markdown §4.10): pipes, hyphens, colons and spaces only,
    /// at least one hyphen and one pipe, after any block quote markers.
    static func isDelimiterRow(_ content: ArraySlice<UInt8>) -> Bool {
        let row = content.drop { $0 == UInt8(ascii: ">") || $0 == 0x20 || $0 == 0x09 }
        guard row.contains(UInt8(ascii: "-")), row.contains(UInt8(ascii: "|")) else { return false }
        return row.allSatisfy { "|:- \t\r\n".utf8.contains($0) }
    }

    /// The end of the HTML comment (`<!-- … -->`, also `<!-->` and `<!--->`) starting at
    /// `index`, before `limit` (its paragraph's end); nil when none starts or it is not closed.
    static func commentEnd(_ bytes: [UInt8], at index: Int, limit: Int) -> Int? {
        guard bytes[index..<limit].starts(with: "<!--".utf8) else { return nil }
        var next = index + 4
        if next < limit, bytes[next] == UInt8(ascii: ">") { return next + 1 }
        if next + 1 < limit, bytes[next] == UInt8(ascii: "-"), bytes[next + 1] == UInt8(ascii: ">") { return next + 2 }
        while next + 2 < limit {
            if bytes[next] == UInt8(ascii: "-"), bytes[next + 1] == UInt8(ascii: "-"),
                bytes[next + 2] == UInt8(ascii: ">")
            {
                return next + 3
            }
            next += 1
        }
        return nil
    }

    /// What opens at `index`, when it is an HTML comment (-3), a raw-text element's opening
    /// (-4 for `<pre`, -5, -6, -7 for the others of ``RawHTMLBlock/elements``), a processing
    /// instruction (-8), a CDATA section (-9) or a declaration (-10): the kind that
    /// ``rawEnd(_:_:at:lineEnd:limit:)`` ends; nil for anything else. Reads a dozen bytes.
    static func rawKind(_ bytes: [UInt8], at index: Int) -> Int? {
        guard let closer = RawHTMLBlock.closer(opening: bytes[index..<min(bytes.count, index + 12)]) else { return nil }
        switch closer {
        case Array("-->".utf8): return -3
        case Array("?>".utf8): return -8
        case Array("]]>".utf8): return -9
        case Array(">".utf8): return -10
        default: return -4 - (RawHTMLBlock.elements.firstIndex { closer.dropFirst(2).starts(with: $0.utf8) } ?? 0)
        }
    }

    /// The bytes that close a processing instruction (-8), a CDATA section (-9) or a
    /// declaration (-10) (``rawKind(_:at:)``); nil for the other kinds.
    static func markupCloser(_ kind: Int) -> [UInt8]? {
        switch kind {
        case -8: Array("?>".utf8)
        case -9: Array("]]>".utf8)
        case -10: Array(">".utf8)
        default: nil
        }
    }

    /// The end of the HTML comment, raw-text element, processing instruction, CDATA section or
    /// declaration of kind `kind` (``rawKind(_:at:)``) opening at `index`: after `-->`, its
    /// closing tag, `?>`, `]]>` or `>`, before `limit`; nil when it is not closed there, or a
    /// raw-text element's opening tag does not end on its line.
    static func rawEnd(_ kind: Int, _ bytes: [UInt8], at index: Int, lineEnd: Int, limit: Int) -> Int? {
        if kind == -3 { return commentEnd(bytes, at: index, limit: limit) }
        if let closer = markupCloser(kind) {
            // After the opener (`<?`, `<![CDATA[`, `<!` and a letter), the first closer.
            var next = index + (kind == -9 ? 9 : 2)
            while next + closer.count <= limit {
                if bytes[next] == closer[0], bytes[next..<(next + closer.count)].elementsEqual(closer) {
                    return next + closer.count
                }
                next += 1
            }
            return nil
        }
        guard let tagEnd = tagEnd(bytes, at: index, lineEnd: lineEnd) else { return nil }
        let closer = Array("</\(RawHTMLBlock.elements[-4 - kind])>".utf8)
        var next = tagEnd
        while next + closer.count <= limit {
            if bytes[next] == UInt8(ascii: "<"),
                zip(bytes[next..<(next + closer.count)], closer).allSatisfy({ RawHTMLBlock.asciiLowercase($0) == $1 })
            {
                return next + closer.count
            }
            next += 1
        }
        return nil
    }

    /// The end of a link's title after its destination, which ends at `start`: spaces, then
    /// `"…"`, `'…'` or `(…)` on the line (CommonMark 0.31 §6.3); `start` when none follows.
    static func titleEnd(_ bytes: [UInt8], from start: Int, lineEnd: Int) -> Int {
        var next = start
        while next < lineEnd, bytes[next] == 0x20 || bytes[next] == 0x09 { next += 1 }
        guard next < lineEnd, next > start else { return start }
        let open = bytes[next]
        let close: UInt8
        switch open {
        case UInt8(ascii: "\""), UInt8(ascii: "'"): close = open
        case UInt8(ascii: "("): close = UInt8(ascii: ")")
        default: return start
        }
        next += 1
        while next < lineEnd {
            if bytes[next] == UInt8(ascii: "\\") {
                next += 2
                continue
            }
            if bytes[next] == close { return next + 1 }
            next += 1
        }
        return start
    }

    /// Whether the formula searched for from a `$` must stop at `index`: at an HTML tag or
    /// comment, and in a table row at a cell's `|` (an escaped `\|` is skipped before).
    static func endsFormulaSearch(_ bytes: [UInt8], at index: Int, tableRow: Bool) -> Bool {
        switch bytes[index] {
        case UInt8(ascii: "|"): return tableRow
        case UInt8(ascii: "<"):
            // A tag is looked for within ``longestTag`` bytes, so each `<` costs that at most.
            let bound = min(bytes.count, index + longestTag)
            let lineEnd = bytes[index..<bound].firstIndex(of: 0x0A) ?? bound
            return tagEnd(bytes, at: index, lineEnd: lineEnd) != nil || bytes[index...].starts(with: "<!--".utf8)
        default: return false
        }
    }
}
