import DocumentModel

/// Pandoc's ordered-list markers that CommonMark lacks (Pandoc's manual, "Ordered lists",
/// extension `fancy_lists`): a letter, a Roman numeral or `#`, followed by `.` or `)` or
/// between parentheses (`a.`, `B)`, `iv.`, `(ix)`, `#.`), and the syllables Korean counts items
/// with (`가.`, `나)`, ``ListNumbering/hangul``). cmark-gfm reads only figures, so before the
/// parse each such marker that opens a list item is written as figures of the same length in
/// bytes (`a)` → `1)`, `(iv)` → `001)`, `가.` → `001.`), which keeps every column, and its
/// numbering, first number and parentheses are kept by line for the converter (``Marker``).
///
/// Pandoc's example lists (extension `example_lists`) are read the same way: `(@)`, `@.` and
/// a labelled `(@good)` count on from one example list to the next through the document, and
/// `@good` in the text is the number of the example it labels (``ExampleReferences``). A label
/// is letters, figures, `_` and `-`. A marker longer than nine figures and a delimiter
/// (`(@a_long_label)`) is written `1)`, its line's text moved up behind it and the line filled
/// out with spaces: that line's columns in warnings are then the moved text's.
///
/// As in Pandoc, a list opens after a blank line (or in a list item, directly under its
/// text); a capital letter with a period needs two spaces after it (`B.  Russell`), since
/// `B. Russell` is a name; the first marker decides the list's numbering (`i.` is a Roman one,
/// `c.` a letter), and later markers are read in it (`v.` is 5 in a Roman list). Lines in
/// fenced or indented code, and in the HTML blocks that run to an end condition
/// (``RawHTMLBlock``: `<pre>`, comments), are left as written.
enum PandocListMarkers {
    /// What an ordered-list marker rewritten as figures was.
    struct Marker: Equatable, Sendable {
        var numbering: ListNumbering
        /// The number the marker writes (`c)` is 3); `#` is 1.
        var start: Int
        /// Whether the marker was between parentheses (`(c)`).
        var enclosed: Bool
        /// Whether the marker was an example's (`(@)`): numbered on through the document.
        var example = false
    }

    /// What the rewriting gives: the text, the markers by line, and the number of each
    /// labelled example.
    struct Rewritten {
        var text: String
        var markers: [Int: Marker]
        var exampleLabels: [String: Int]
    }

    /// `text` with its Pandoc list markers written as figures, the markers by line
    /// (`firstLine` is the line of `text`'s first) and the examples' labels; nil when `text`
    /// has no such marker.
    static func rewriting(_ text: String, firstLine: Int) -> Rewritten? {
        // Most texts have no such marker: found in the text's own bytes, it is copied only when
        // one is.
        var text = text
        var labels: [String: Int] = [:]
        let found = text.withUTF8 { markers(in: $0, exampleLabels: &labels) }
        guard !found.isEmpty else { return nil }
        var bytes = Array(text.utf8)
        var byLine: [Int: Marker] = [:]
        for marker in found {
            let length = marker.end - marker.offset
            if length <= 10 {
                let digits = Array(repeating: UInt8(ascii: "0"), count: length - 2) + [UInt8(ascii: "1")]
                bytes.replaceSubrange(marker.offset..<marker.end, with: digits + [marker.delimiter])
            } else {
                var lineEnd = marker.end
                while lineEnd < bytes.count, bytes[lineEnd] != 0x0A { lineEnd += 1 }
                let text = bytes[marker.end..<lineEnd].drop { $0 == 0x20 }
                var moved = [UInt8(ascii: "1"), marker.delimiter, 0x20] + text
                moved += Array(repeating: 0x20, count: lineEnd - marker.offset - moved.count)
                bytes.replaceSubrange(marker.offset..<lineEnd, with: moved)
            }
            byLine[firstLine + marker.line] = marker.marker
        }
        return Rewritten(text: String(decoding: bytes, as: UTF8.self), markers: byLine, exampleLabels: labels)
    }

    /// A marker found: its bytes, the delimiter its figures take, its line (from 0) and what it was.
    private struct Found {
        let offset: Int
        let end: Int
        let delimiter: UInt8
        let line: Int
        let marker: Marker
    }

    /// A list item open at a line: the column of its content, the marker when it is one of
    /// Pandoc's (nil for bullets and figures), and the delimiter as written.
    private struct OpenItem {
        let contentColumn: Int
        let marker: Marker?
        let delimiter: UInt8
    }

    /// What a line opens with, after its quote markers and indentation.
    private enum Opening {
        case blank
        case fence(character: UInt8, length: Int)
        /// A bullet or a figure marker (CommonMark's), its length in bytes.
        case commonMarkItem(length: Int)
        case pandocItem(length: Int, body: Range<Int>, enclosed: Bool, delimiter: UInt8)
        case other
    }

    /// The markers to rewrite in `bytes`, in order; each labelled example's number is put in
    /// `exampleLabels` (the first of a label written twice, as Pandoc numbers it).
    private static func markers(in bytes: UnsafeBufferPointer<UInt8>, exampleLabels: inout [String: Int]) -> [Found] {
        var found: [Found] = []
        var examples = 0
        var items: [OpenItem] = []
        // The fence open (its character, length and the content column of the item it is in).
        var fence: (character: UInt8, length: Int, container: Int)?
        // The closer of the HTML block open that runs to an end condition (`</pre>`, `-->`…).
        var rawBlock: [UInt8]?
        var previousBlank = true
        var previousQuoteDepth = 0
        var start = 0
        var line = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            defer {
                start = end + 1
                line += 1
            }
            let (contentStart, quoteDepth) = afterQuoteMarkers(bytes, start, end)
            // Another depth of quoting is another container: its lists are not these. A quote
            // that opens is a container's start, where a list may open as after a blank line.
            if quoteDepth != previousQuoteDepth {
                items.removeAll()
                fence = nil
                rawBlock = nil
                previousBlank = quoteDepth > previousQuoteDepth
                previousQuoteDepth = quoteDepth
            }
            let (column, first, tabbed) = indentation(bytes, contentStart, end)
            if let open = rawBlock {
                if RawHTMLBlock.closes(open, bytes, contentStart, end) { rawBlock = nil }
                previousBlank = false
                continue
            }
            let opening = self.opening(bytes, first, end)
            if let open = fence {
                if case .blank = opening { continue }
                previousBlank = false
                if column >= open.container {
                    if case .fence(let character, let length) = opening, character == open.character,
                        length >= open.length
                    {
                        fence = nil
                    }
                    continue
                }
                // A line outside the item ends the item, and its fence.
                fence = nil
            }
            if case .blank = opening {
                previousBlank = true
                continue
            }
            let opensBlock =
                switch opening {
                case .fence, .commonMarkItem, .pandocItem: true
                default: false
                }
            // A line after a blank one, or one that opens a block, closes the items it is not
            // indented into; a line of text directly after text continues it (lazily).
            var sibling: OpenItem?
            if previousBlank || opensBlock {
                while let last = items.last, last.contentColumn > column { sibling = items.removeLast() }
            }
            let base = items.last?.contentColumn ?? 0
            let inItem = !items.isEmpty || sibling != nil
            defer { previousBlank = false }
            // Four columns past the container's content is code (after a blank line) or text.
            guard column - base < 4 else { continue }
            if let block = RawHTMLBlock.opening(bytes, first, end) {
                rawBlock = block.closed ? nil : block.closer
                continue
            }
            switch opening {
            case .fence(let character, let length):
                fence = (character, length, base)
            case .commonMarkItem(let length):
                items.append(
                    item(bytes, column: column, at: first, length: length, end: end, marker: nil, delimiter: 0))
            case .pandocItem(let length, let body, let enclosed, let delimiter):
                // Pandoc opens a list after a blank line, or under an item's text.
                guard previousBlank || inItem, !tabbed else { continue }
                let written = Substring(decoding: UnsafeBufferPointer(rebasing: bytes[body]), as: UTF8.self)
                let marker: Marker
                if written.first == "@" {
                    examples += 1
                    let label = String(written.dropFirst())
                    if !label.isEmpty, exampleLabels[label] == nil { exampleLabels[label] = examples }
                    marker = Marker(numbering: .decimal, start: examples, enclosed: enclosed, example: true)
                } else {
                    let same = sibling.flatMap {
                        $0.marker?.enclosed == enclosed && $0.delimiter == delimiter && $0.marker?.example == false
                            ? $0 : nil
                    }
                    guard
                        let numbering = same?.marker?.numbering.number(of: written) != nil
                            ? same?.marker?.numbering : firstNumbering(of: written),
                        let number = numbering.number(of: written) ?? (written == "#" ? 1 : nil)
                    else { continue }
                    marker = Marker(numbering: numbering, start: number, enclosed: enclosed)
                }
                let rewritten: UInt8 = enclosed ? UInt8(ascii: ")") : delimiter
                found.append(
                    Found(offset: first, end: first + length, delimiter: rewritten, line: line, marker: marker))
                items.append(
                    item(
                        bytes, column: column, at: first, length: length, end: end, marker: marker, delimiter: delimiter
                    ))
            default:
                break
            }
        }
        return found
    }

    /// The numbering a list's first marker opens, as Pandoc reads it: `#` in figures; `i` and
    /// `I` Roman; another single letter a letter; more letters Roman numerals; a Hangul counter.
    private static func firstNumbering(of written: Substring) -> ListNumbering? {
        if written == "#" { return .decimal }
        if written == "i" { return .lowerRoman }
        if written == "I" { return .upperRoman }
        let order: [ListNumbering] = [.lowerAlpha, .lowerRoman, .upperAlpha, .upperRoman, .hangul]
        return order.first { $0.number(of: written) != nil }
    }

    /// An item opened by a marker of `length` bytes at `first` (column `column`): its content
    /// starts after the spaces that follow the marker, or one space past it when more than
    /// four follow (the content is then indented code, as CommonMark reads it).
    private static func item(
        _ bytes: UnsafeBufferPointer<UInt8>, column: Int, at first: Int, length: Int, end: Int, marker: Marker?,
        delimiter: UInt8
    ) -> OpenItem {
        var spaces = 0
        while first + length + spaces < end, bytes[first + length + spaces] == 0x20 { spaces += 1 }
        let gap = (1...4).contains(spaces) ? spaces : 1
        return OpenItem(contentColumn: column + length + gap, marker: marker, delimiter: delimiter)
    }

    /// Where a line's text starts after its block quote markers (`>`, each with up to three
    /// spaces before it and an optional space after), and how many there are.
    private static func afterQuoteMarkers(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> (Int, Int) {
        var position = start
        var depth = 0
        while true {
            var probe = position
            while probe < end, probe - position < 3, bytes[probe] == 0x20 { probe += 1 }
            guard probe < end, bytes[probe] == UInt8(ascii: ">") else { return (position, depth) }
            probe += 1
            if probe < end, bytes[probe] == 0x20 { probe += 1 }
            position = probe
            depth += 1
        }
    }

    /// The column a line's text starts at (a tab to the next multiple of four), its byte,
    /// and whether a tab came before it.
    private static func indentation(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> (Int, Int, Bool) {
        var column = 0
        var position = start
        var tabbed = false
        while position < end, bytes[position] == 0x20 || bytes[position] == 0x09 {
            if bytes[position] == 0x09 {
                column += 4 - column % 4
                tabbed = true
            } else {
                column += 1
            }
            position += 1
        }
        return (column, position, tabbed)
    }

    /// What the line from `first` to `end` opens with.
    private static func opening(_ bytes: UnsafeBufferPointer<UInt8>, _ first: Int, _ end: Int) -> Opening {
        func isBlank(_ offset: Int) -> Bool {
            bytes[offset..<end].allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
        }
        func spaceOrEnd(_ offset: Int) -> Bool {
            offset >= end || bytes[offset] == 0x20 || bytes[offset] == 0x09 || bytes[offset] == 0x0D
        }
        guard first < end, !isBlank(first) else { return .blank }
        let lead = bytes[first]
        if lead == UInt8(ascii: "`") || lead == UInt8(ascii: "~") {
            var run = first
            while run < end, bytes[run] == lead { run += 1 }
            return run - first >= 3 ? .fence(character: lead, length: run - first) : .other
        }
        if lead == UInt8(ascii: "-") || lead == UInt8(ascii: "*") || lead == UInt8(ascii: "+") {
            return spaceOrEnd(first + 1) ? .commonMarkItem(length: 1) : .other
        }
        var position = first
        while position < end, position - first < 9, (0x30...0x39).contains(bytes[position]) { position += 1 }
        if position > first {
            let delimited =
                position < end && (bytes[position] == UInt8(ascii: ".") || bytes[position] == UInt8(ascii: ")"))
            return delimited && spaceOrEnd(position + 1) ? .commonMarkItem(length: position + 1 - first) : .other
        }
        return pandocOpening(bytes, first, end)
    }

    /// A Pandoc list marker at `first` followed by a space (two after a capital letter with a
    /// period) and text: `#`, up to eight ASCII letters, one Hangul syllable, or `@` and a
    /// label of letters, figures, `_` and `-`, then `.` or `)`, or the same between
    /// parentheses; nine bytes at most before the delimiter, so that figures can stand for it.
    private static func pandocOpening(_ bytes: UnsafeBufferPointer<UInt8>, _ first: Int, _ end: Int) -> Opening {
        let enclosed = bytes[first] == UInt8(ascii: "(")
        let bodyStart = first + (enclosed ? 1 : 0)
        var bodyEnd = bodyStart
        func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
        if bodyEnd < end, bytes[bodyEnd] == UInt8(ascii: "#") {
            bodyEnd += 1
        } else if bodyEnd < end, bytes[bodyEnd] == UInt8(ascii: "@") {
            bodyEnd += 1
            while bodyEnd < end,
                isLetter(bytes[bodyEnd]) || (0x30...0x39).contains(bytes[bodyEnd])
                    || bytes[bodyEnd] == UInt8(ascii: "_") || bytes[bodyEnd] == UInt8(ascii: "-")
            {
                bodyEnd += 1
            }
        } else if bodyEnd + 2 < end, (0xEA...0xED).contains(bytes[bodyEnd]) {
            // A Hangul syllable is three bytes, U+AC00 to U+D7A3.
            bodyEnd += 3
        } else {
            while bodyEnd < end, bodyEnd - bodyStart < 8, isLetter(bytes[bodyEnd]) { bodyEnd += 1 }
        }
        guard bodyEnd > bodyStart, bodyEnd < end else { return .other }
        let delimiter = bytes[bodyEnd]
        guard delimiter == UInt8(ascii: ")") || (!enclosed && delimiter == UInt8(ascii: ".")) else { return .other }
        let length = bodyEnd + 1 - first
        guard length <= 10 || bytes[bodyStart] == UInt8(ascii: "@") else { return .other }
        var spaces = 0
        while first + length + spaces < end, bytes[first + length + spaces] == 0x20 { spaces += 1 }
        let capitalWithPeriod =
            !enclosed && delimiter == UInt8(ascii: ".") && bodyEnd - bodyStart == 1
            && (0x41...0x5A).contains(bytes[bodyStart])
        guard spaces >= (capitalWithPeriod ? 2 : 1), first + length + spaces < end,
            bytes[first + length + spaces] != 0x0D
        else { return .other }
        return .pandocItem(length: length, body: bodyStart..<bodyEnd, enclosed: enclosed, delimiter: delimiter)
    }
}
