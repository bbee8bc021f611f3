import DocumentModel
import Foundation

/// TeX math in Markdown as GitHub and Pandoc (`tex_math_dollars`) read it, taken from the source
/// before CommonMark sees it so that escapes such as `\,` and `\{` reach the math as written:
/// inline `$…$` (no space after the opening or before the closing `$`, the closing `$` not
/// followed by a digit, nor, as on GitHub, by a letter: `$PATH:$HOME` stays text; `\$` a
/// literal dollar), inline `` $`…`$ ``, display `$$…$$`. Code spans,
/// fenced and indented code are left alone. Each formula becomes an inline HTML marker holding
/// its source (base64) and the line breaks it spanned, so that later lines keep their numbers;
/// the converter turns markers back into ``Inline/math(_:display:location:)``.
///
/// The same pass, with math on or off, rewrites the kinds of text below, which cmark-gfm 0.29 reads
/// in time quadratic in their number, into text it reads as the same thing in linear time:
/// - each `<?`, `<!` and a letter, or `<![CDATA[` inside a paragraph that nothing after it in
///   the paragraph closes is escaped: text, as CommonMark reads it, which cmark-gfm would
///   otherwise search the rest of the paragraph for at each;
/// - each `![` that no `]` closes, when a paragraph holds more than
///   ``unmatchedImageOpenerAllowance`` of them, is escaped: text either way, but cmark-gfm
///   walks every open image opener each time a link is made after it;
/// - each bare e-mail address (GitHub's extended e-mail autolink), when a paragraph holds more
///   than ``bareAddressAllowance`` `@`, is written as an autolink (`<name@example.com>`,
///   CommonMark 0.31 §6.5): the same link, where cmark-gfm's autolink extension would split
///   the paragraph's text once an address, in a recursion as deep as their number;
/// - a table wider than ``maximumTableColumns`` columns is set as text (its delimiter row
///   escaped, with a warning), and a row of a narrower table with more cells than that keeps
///   its cells past the limit in its last one (escaped `|`; GitHub drops cells past the
///   header's, and the converter warns of them): cmark-gfm appends each cell of a row to a
///   list by walking it.
enum MathSyntax {
    /// The marker's tag name.
    static let tag = FormulaMarkers.tag

    /// The most columns a table may have: a wider one is set as text, with a warning. A page
    /// sets a table part by part (its columns split across parts), but a table of more than a
    /// thousand columns is no table a reader follows across hundreds of parts.
    static let maximumTableColumns = 1000

    /// How many `![` no `]` closes a paragraph may hold before they are escaped (below it,
    /// cmark-gfm's walks over them cost little).
    static let unmatchedImageOpenerAllowance = 16

    /// How many `@` a paragraph may hold before its bare e-mail addresses are written as
    /// autolinks.
    static let bareAddressAllowance = 64

    /// What the pass found to report: each paragraph's first `$$` with no closing `$$` after
    /// it in its paragraph (left as text, as Pandoc and GitHub leave it), and each table wider
    /// than ``maximumTableColumns`` (set as text); places are the line in the file and the
    /// 1-based byte column.
    struct Findings {
        var unclosedDisplays: [(line: Int, column: Int)] = []
        /// Each `$` that opens TeX no `$` closes (``looksLikeTeX(_:)``), left as text: where it
        /// is written, and its first words.
        var unclosedInlines: [(line: Int, column: Int, written: String)] = []
        /// Formulas a letter after the closing dollar kept as text, where the letters are an
        /// English suffix (`$n$th`, `$x$s`): where each is written, and what it is.
        var suffixedFormulas: [(line: Int, column: Int, written: String)] = []
        /// Tables set as text: where each is written, its columns, and for one whose rows leave
        /// most of its grid empty (``sparseGrid(_:after:columns:headerCells:)``) its rows and
        /// the cells they write.
        var wideTables: [(line: Int, column: Int, columns: Int, sparse: (rows: Int, cells: Int)?)] = []
        /// The rows of narrower tables with more cells than that (line → cells written), whose
        /// cells past the limit the pass escaped.
        var wideRows: [Int: Int] = [:]
    }

    /// `text` with each formula replaced by its marker and the text cmark-gfm reads slowly
    /// rewritten (`text` itself when it holds neither), and what the pass found. `text` begins
    /// on line `firstLine` of its file (after front matter, the line after it), so that each
    /// marker names the formula's line in the file. With `math` false no formula is marked.
    static func marking(_ text: String, firstLine: Int = 1, math: Bool = true) -> (
        text: String, findings: Findings
    ) {
        guard Self.needsMarking(text, math: math) else { return (text, Findings()) }
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 64)
        var index = 0
        var fence: (byte: UInt8, count: Int)?
        // The closing bytes of the raw HTML block open (`</pre>`, `-->`), whose text is never math.
        var rawBlock: [UInt8]?
        // Whether the lines since the last blank one are a table's (a delimiter row seen), and
        // which of its rows the line is (0: the header, 1: the delimiter row).
        var inTable = false
        var tableRow = 0
        // Whether the table's header or delimiter row is too wide: set as text.
        var wideTable = false
        var previousBlank = true
        // The content indent of the list item or footnote the line is in (0 at the top level):
        // code is indented four columns past it, and a fence may be indented up to three.
        var base = 0
        var scan = Scan(bytes, firstLine: firstLine, math: math)
        while index < bytes.count {
            let lineEnd = bytes[index...].firstIndex(of: 0x0A).map { $0 + 1 } ?? bytes.count
            let line = bytes[index..<lineEnd]
            let indent = line.prefix { $0 == 0x20 }.count
            let content = line.dropFirst(indent)
            let blank = content.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
            if let open = fence {
                let run = content.prefix { $0 == open.byte }.count
                if run >= open.count, content.dropFirst(run).allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D }) {
                    fence = nil
                }
                output += line
                index = lineEnd
                continue
            }
            if let closer = rawBlock {
                if RawHTMLBlock.holds(line, closer) { rawBlock = nil }
                output += line
                index = lineEnd
                continue
            }
            if indent < base + 4, let closer = RawHTMLBlock.closer(opening: content) {
                // `<pre>`, `<script>`, `<style>`, `<textarea>` or a comment opening the line:
                // raw text to its closing tag, whatever blank lines it holds.
                if !RawHTMLBlock.holds(line.dropFirst(indent + 2), closer) { rawBlock = closer }
                output += line
                index = lineEnd
                previousBlank = false
                continue
            }
            if !blank, previousBlank, indent < base {
                // Back out of a list item or note to the container whose content starts here.
                base = indent
            }
            if indent < base + 4, let first = content.first, first == UInt8(ascii: "`") || first == UInt8(ascii: "~") {
                let run = content.prefix { $0 == first }.count
                if run >= 3 {
                    fence = (first, run)
                    output += line
                    index = lineEnd
                    previousBlank = false
                    continue
                }
            }
            if indent >= base + 4 && previousBlank || line.first == 0x09 && previousBlank && base == 0 {
                output += line
                index = lineEnd
                continue
            }
            if !blank, indent < base + 4, let opened = Self.contentIndent(opening: content) { base = indent + opened }
            previousBlank = blank
            // A table's rows: its header (the line before a delimiter row) and the lines after,
            // to a blank line; a formula in a row stays in its cell.
            if blank {
                inTable = false
            } else if inTable {
                tableRow += 1
            } else if content.contains(UInt8(ascii: "|")), lineEnd < bytes.count {
                let nextEnd = bytes[lineEnd...].firstIndex(of: 0x0A).map { $0 + 1 } ?? bytes.count
                let next = bytes[lineEnd..<nextEnd]
                inTable = Self.isDelimiterRow(next.drop { $0 == 0x20 })
                tableRow = 0
                wideTable = inTable && scan.findsWideTable(header: line, delimiter: next, after: nextEnd)
            }
            if inTable, wideTable, tableRow == 1 {
                // A backslash, which no delimiter row holds, before its first `|`: the table
                // is text, its rows one paragraph.
                let pipe = line.firstIndex(of: UInt8(ascii: "|")) ?? line.startIndex
                output += bytes[index..<pipe]
                output.append(UInt8(ascii: "\\"))
                output += bytes[pipe..<lineEnd]
                index = lineEnd
                inTable = false
                continue
            }
            if math, !blank, indent < base + 4, content.first == UInt8(ascii: "\\"),
                let end = Self.environmentEnd(
                    bytes, from: index + indent, limit: scan.paragraphEnd(from: index + indent))
            {
                output += bytes[index..<(index + indent)]
                index = markEnvironment(bytes, from: index + indent, to: end, into: &output, scan: &scan)
                continue
            }
            let rowStart = output.count
            let lineStart = index
            index = markLine(bytes, from: index, lineEnd: lineEnd, tableRow: inTable, into: &output, scan: &scan)
            if inTable, tableRow > 1, Self.cellBoundaries(in: output[rowStart...]) > Self.maximumTableColumns + 1 {
                scan.findings.wideRows[scan.position(of: lineStart).line] = Self.cellCount(in: line)
                Self.escapeCellBoundaries(in: &output, from: rowStart, after: Self.maximumTableColumns + 1)
            }
        }
        return (String(decoding: output, as: UTF8.self), scan.findings)
    }

    /// Whether `text` holds anything the pass rewrites: with `math`, a `$`, `\begin{`, or a
    /// formula reference in running text (`\eqref{`, `\ref{`); a
    /// processing instruction's, CDATA section's or declaration's opener (`<?`, `<![`, `<!` and
    /// a letter; comments are not looked for, so a text of comments is not copied); more `![`
    /// than a paragraph may leave open; or more `|` than a table row may hold. One read of its
    /// bytes.
    static func needsMarking(_ text: String, math: Bool) -> Bool {
        text.withUTF8Bytes { needsMarking(bytes: $0, math: math) }
    }

    private static func needsMarking(bytes: UnsafeBufferPointer<UInt8>, math: Bool) -> Bool {
        var previous: UInt8 = 0
        var beforePrevious: UInt8 = 0
        var imageOpeners = 0
        var pipes = 0
        var atSigns = 0
        // The last eight bytes read, the latest lowest.
        var recent: UInt64 = 0
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "$"):
                if math { return true }
            case UInt8(ascii: "?"):
                if previous == UInt8(ascii: "<") { return true }
            case UInt8(ascii: "["):
                if previous == UInt8(ascii: "!") {
                    imageOpeners += 1
                    if beforePrevious == UInt8(ascii: "<") { return true }
                    if imageOpeners > Self.unmatchedImageOpenerAllowance { return true }
                }
            case UInt8(ascii: "|"):
                pipes += 1
                if pipes > Self.maximumTableColumns { return true }
            case UInt8(ascii: "@"):
                atSigns += 1
                if atSigns > Self.bareAddressAllowance { return true }
            default:
                if beforePrevious == UInt8(ascii: "<"), previous == UInt8(ascii: "!"),
                    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
                {
                    return true
                }
            }
            recent = recent << 8 | UInt64(byte)
            if math, byte == UInt8(ascii: "{"), Self.mathOpeners.contains(where: { recent & $0.mask == $0.bytes }) {
                return true
            }
            beforePrevious = previous
            previous = byte
        }
        return false
    }

    /// `\begin{`, `\eqref{` and `\ref{` as the low bytes of a word of the last eight bytes read
    /// (``needsMarking(_:math:)``), with the mask that keeps as many.
    static let mathOpeners: [(bytes: UInt64, mask: UInt64)] = ["\\begin{", "\\eqref{", "\\ref{"].map { opener in
        let bytes = opener.utf8.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return (bytes, UInt64.max >> (64 - 8 * opener.utf8.count))
    }

    /// The `|` in `line` that split it into cells as a GitHub table row: those no backslash
    /// escapes (GitHub Flavored Markdown, "Tables (extension)": code spans included).
    static func cellBoundaries(in line: ArraySlice<UInt8>) -> Int {
        var count = 0
        var index = line.startIndex
        while index < line.endIndex {
            if line[index] == UInt8(ascii: "\\") {
                index += 2
                continue
            }
            if line[index] == UInt8(ascii: "|") { count += 1 }
            index += 1
        }
        return count
    }

    /// The rows of the table whose delimiter row ends at `start` and the cells they write (at
    /// most `columns` a row), the header's `headerCells` with them, when its grid of `columns`
    /// columns holds more than ``RawHTML/slotsPerWrittenCell`` slots for each cell written (and more
    /// than ``RawHTML/spanSlotFloor``), as an HTML table may; nil otherwise. The rows run to a
    /// blank line. GitHub fills a row's missing cells with empty ones, so a header of 1,000
    /// cells over 1,000 rows of one cell (8 KB) would be a million cells to lay out, tag and write.
    static func sparseGrid(_ bytes: [UInt8], after start: Int, columns: Int, headerCells: Int) -> (
        rows: Int, cells: Int
    )? {
        var rows = 1
        var cells = min(headerCells, columns)
        var index = start
        while index < bytes.count {
            let end = bytes[index...].firstIndex(of: 0x0A) ?? bytes.count
            let line = bytes[index..<end]
            guard !line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) else { break }
            rows += 1
            cells += min(Self.cellCount(in: line), columns)
            index = end + 1
        }
        let grid = columns * rows
        return grid > max(RawHTML.spanSlotFloor, RawHTML.slotsPerWrittenCell * cells) ? (rows, cells) : nil
    }

    /// The cells of `line` as a GitHub table row: one more than its ``cellBoundaries(in:)``,
    /// less a `|` that opens or closes the row (its indent, block quote and list markers, and
    /// trailing spaces aside).
    static func cellCount(in line: ArraySlice<UInt8>) -> Int {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        let row = line[Self.rowStart(in: line)...]
        let trimmed = row.prefix(row.count - row.reversed().prefix(while: isSpace).count)
        var cells = Self.cellBoundaries(in: trimmed) + 1
        if trimmed.first == UInt8(ascii: "|") { cells -= 1 }
        if trimmed.count > 1, trimmed.last == UInt8(ascii: "|"), trimmed.dropLast().last != UInt8(ascii: "\\") {
            cells -= 1
        }
        return max(cells, 0)
    }

    /// Where a table row on `line` starts: after its indent and the markers of the block quotes
    /// and list item it is in.
    static func rowStart(in line: ArraySlice<UInt8>) -> Int {
        var start = line.startIndex
        while true {
            while start < line.endIndex, line[start] == 0x20 || line[start] == 0x09 || line[start] == UInt8(ascii: ">")
            {
                start += 1
            }
            guard let marker = Self.contentIndent(opening: line[start...]), line[start] != UInt8(ascii: "[") else {
                return start
            }
            start = min(start + marker, line.endIndex)
        }
    }

    /// Escapes each `|` of `output` from `start` that splits cells, after the first `kept`.
    static func escapeCellBoundaries(in output: inout [UInt8], from start: Int, after kept: Int) {
        var rewritten: [UInt8] = []
        rewritten.reserveCapacity(2 * (output.count - start))
        var count = 0
        var index = start
        while index < output.count {
            let byte = output[index]
            if byte == UInt8(ascii: "\\") {
                rewritten += output[index..<min(index + 2, output.count)]
                index += 2
                continue
            }
            if byte == UInt8(ascii: "|") {
                count += 1
                if count > kept { rewritten.append(UInt8(ascii: "\\")) }
            }
            rewritten.append(byte)
            index += 1
        }
        output.replaceSubrange(start..., with: rewritten)
    }

    /// Whether the `<` at `index` may open an HTML block: only spaces, tabs, `>` and list
    /// markers (`-`, `*`, `+`, digits with `.` or `)`) are before it on its line.
    static func opensBlock(_ bytes: [UInt8], lineStart: Int, at index: Int) -> Bool {
        bytes[lineStart..<index].allSatisfy { byte in
            byte == 0x20 || byte == 0x09 || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: "*") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: ")") || (0x30...0x39).contains(byte)
        }
    }

    /// The columns from a line's first non-space byte to where the content of the list item
    /// or footnote it opens starts (`- `, `12. `, `[^note]: `: a note's blocks are indented
    /// four columns); nil for any other line.
    static func contentIndent(opening content: ArraySlice<UInt8>) -> Int? {
        let bytes = Array(content.prefix(16))
        guard let first = bytes.first else { return nil }
        if first == UInt8(ascii: "["), bytes.count > 1, bytes[1] == UInt8(ascii: "^"),
            content.firstRange(of: Array("]:".utf8)) != nil
        {
            return 4
        }
        var marker = 0
        if first == UInt8(ascii: "-") || first == UInt8(ascii: "*") || first == UInt8(ascii: "+") {
            marker = 1
        } else {
            let digits = bytes.prefix { (0x30...0x39).contains($0) }.count
            guard (1...9).contains(digits), digits < bytes.count,
                bytes[digits] == UInt8(ascii: ".") || bytes[digits] == UInt8(ascii: ")")
            else { return nil }
            marker = digits + 1
        }
        let spaces = bytes.dropFirst(marker).prefix { $0 == 0x20 }.count
        guard spaces >= 1 || marker == bytes.count || [0x09, 0x0A, 0x0D].contains(bytes[marker]) else { return nil }
        // CommonMark §5.2: five or more spaces after the marker open indented code, and the
        // content starts one space after it.
        return marker + (spaces > 4 ? 1 : max(1, spaces))
    }

    /// What the marking pass has learnt of the text so far, so that each question costs time
    /// in proportion to how far the pass has moved since the last one, not to the text's
    /// length: line numbers counted forward, and the ends of the paragraph and the line last
    /// asked about, which every later position in them shares.
    struct Scan {
        let bytes: [UInt8]
        /// Line feeds before `countedTo`.
        private var lineFeeds = 0
        private var countedTo = 0
        /// The offset after the last line feed before `countedTo` (0: none).
        private var lineStart = 0
        /// A paragraph's span and its end (``paragraphEnd(from:)``).
        private var paragraph: ClosedRange<Int>?
        /// A line's span and the offset after its line feed (``lineEnd(after:)``).
        private var line: ClosedRange<Int>?
        /// For each closing delimiter (a backtick run's length; ``displayCloser``,
        /// ``backtickCloser``), an offset from which the paragraph being marked holds none
        /// (``closerIsAbsent(_:from:limit:)``).
        private var absentFrom: [Int: Int] = [:]
        private var absentParagraphEnd = -1
        /// What the pass found to report.
        var findings = Findings()
        /// Whether formulas are marked.
        let math: Bool
        /// The `![` no `]` closes in the paragraph ending at ``openersParagraphEnd``, when it
        /// holds more than ``MathSyntax/unmatchedImageOpenerAllowance`` of them (else empty).
        private var unmatchedOpeners: Set<Int> = []
        private var openersParagraphEnd = -1
        /// Whether the paragraph ending at ``atSignsParagraphEnd`` holds more than
        /// ``MathSyntax/bareAddressAllowance`` `@`.
        private var manyAtSigns = false
        private var atSignsParagraphEnd = -1
        /// The keys of `$$` and of `` `$ `` in ``closerIsAbsent(_:from:limit:)``.
        static let displayCloser = -1
        static let backtickCloser = -2

        /// The end of the HTML comment or raw-text element (``MathSyntax/rawKind(_:at:)``, kind
        /// `kind`) opening at `index`, in its paragraph; nil when it is not closed there. Once
        /// one of a kind is found unclosed, a later one of that kind in the paragraph is not
        /// searched for (it cannot close either): many unclosed ones cost time linear in the
        /// paragraph, not quadratic.
        mutating func rawEnd(_ kind: Int, at index: Int, lineEnd: Int) -> Int? {
            let limit = paragraphEnd(from: index)
            guard !closerIsAbsent(kind, from: index, limit: limit) else { return nil }
            let end = MathSyntax.rawEnd(kind, bytes, at: index, lineEnd: lineEnd, limit: limit)
            if end == nil { noteAbsent(kind, from: index, limit: limit) }
            return end
        }

        /// The line the bytes begin on, 1-based.
        let firstLine: Int

        init(_ bytes: [UInt8], firstLine: Int = 1, math: Bool = true) {
            self.bytes = bytes
            self.firstLine = firstLine
            self.math = math
        }

        /// Whether the `![` at `index` is one that no `]` in its paragraph closes, in a
        /// paragraph of more than ``MathSyntax/unmatchedImageOpenerAllowance`` of them.
        /// Brackets pair as CommonMark's delimiter stack pairs them (each `]` closes the
        /// innermost open `[` or `![`; CommonMark 0.31 §6.3), read from the paragraph's first
        /// `![` on; escaped brackets and code spans are skipped.
        mutating func isUnmatchedImageOpener(at index: Int) -> Bool {
            let limit = paragraphEnd(from: index)
            if limit != openersParagraphEnd {
                openersParagraphEnd = limit
                unmatchedOpeners = MathSyntax.unmatchedImageOpeners(bytes, from: index, limit: limit)
            }
            return unmatchedOpeners.contains(index)
        }

        /// Whether the paragraph holding `index` holds more than
        /// ``MathSyntax/bareAddressAllowance`` `@` from `index` on.
        mutating func holdsManyAtSigns(from index: Int) -> Bool {
            let limit = paragraphEnd(from: index)
            if limit != atSignsParagraphEnd {
                atSignsParagraphEnd = limit
                manyAtSigns = bytes[index..<limit].count { $0 == UInt8(ascii: "@") } > MathSyntax.bareAddressAllowance
            }
            return manyAtSigns
        }

        /// The line (counted from ``firstLine``) and 1-based byte column of the byte at `index`.
        mutating func position(of index: Int) -> (line: Int, column: Int) {
            if index < countedTo {
                lineFeeds = 0
                countedTo = 0
                lineStart = 0
            }
            var position = countedTo
            while let feed = bytes[position..<index].firstIndex(of: 0x0A) {
                lineFeeds += 1
                lineStart = feed + 1
                position = feed + 1
            }
            countedTo = index
            return (firstLine + lineFeeds, index - lineStart + 1)
        }

        /// The offset of the line feed before the first blank line after `index` (a
        /// paragraph's end), or the end.
        mutating func paragraphEnd(from index: Int) -> Int {
            if let paragraph, paragraph.contains(index) { return paragraph.upperBound }
            let end = MathSyntax.paragraphEnd(bytes, from: index)
            paragraph = index...end
            return end
        }

        /// The offset after the line feed that ends the line holding `index`, or the end.
        mutating func lineEnd(after index: Int) -> Int {
            if let line, line.contains(index) { return line.upperBound }
            let end = MathSyntax.lineEndAfter(bytes, index)
            line = index...max(index, end - 1)
            return end
        }

        /// Whether a search from `from` to `limit` (the paragraph's end) for the closing
        /// delimiter `key` is known to find none: once a search from some offset found none,
        /// every later one in the same paragraph skips what it read.
        mutating func closerIsAbsent(_ key: Int, from: Int, limit: Int) -> Bool {
            if limit != absentParagraphEnd {
                absentFrom = [:]
                absentParagraphEnd = limit
            }
            return absentFrom[key].map { from >= $0 } ?? false
        }

        /// Notes that the paragraph ending at `limit` holds no closing delimiter `key` from `from` on.
        mutating func noteAbsent(_ key: Int, from: Int, limit: Int) {
            if limit != absentParagraphEnd {
                absentFrom = [:]
                absentParagraphEnd = limit
            }
            absentFrom[key] = min(absentFrom[key] ?? from, from)
        }

        /// Where a run of exactly `count` backticks starts at or after `from`, before `limit`
        /// (the paragraph's end).
        mutating func closingRun(of count: Int, from: Int, limit: Int) -> Int? {
            guard !closerIsAbsent(count, from: from, limit: limit) else { return nil }
            let found = MathSyntax.closingRun(bytes, of: count, from: from, limit: limit)
            if found == nil { noteAbsent(count, from: from, limit: limit) }
            return found
        }
    }

    /// Copies the line starting at `start` to `output` with its formulas marked; a display
    /// formula may run on over later lines (to the first blank line). Returns where the copy
    /// ended.
    static func markLine(
        _ bytes: [UInt8], from start: Int, lineEnd: Int, tableRow: Bool = false, into output: inout [UInt8],
        scan: inout Scan
    ) -> Int {
        var index = start
        var end = lineEnd
        // The `[` open on the line: an address in a link's text is left as written (a link
        // holds no other link).
        var openBrackets = 0
        let dollar = UInt8(ascii: "$")
        let backtick = UInt8(ascii: "`")
        while index < end {
            let byte = bytes[index]
            if scan.math, byte == UInt8(ascii: "\\"),
                let next = Self.markReference(bytes, at: index, lineEnd: end, into: &output, scan: &scan)
            {
                index = next
                continue
            }
            if byte == UInt8(ascii: "\\"), index + 1 < end {
                output += bytes[index...(index + 1)]
                index += 2
                continue
            }
            if byte == backtick {
                let run = bytes[index...].prefix { $0 == backtick }.count
                let limit = scan.paragraphEnd(from: index)
                if let close = scan.closingRun(of: run, from: index + run, limit: limit) {
                    output += bytes[index..<(close + run)]
                    index = close + run
                    end = max(end, scan.lineEnd(after: close))
                    continue
                }
                output += bytes[index..<(index + run)]
                index += run
                continue
            }
            if byte == UInt8(ascii: "<"), let kind = Self.rawKind(bytes, at: index) {
                if let rawEnd = scan.rawEnd(kind, at: index, lineEnd: end) {
                    // An HTML comment, `<pre>`-like element, processing instruction, CDATA section
                    // or declaration: its text is never math.
                    output += bytes[index..<rawEnd]
                    index = rawEnd
                    end = max(end, scan.lineEnd(after: rawEnd - 1))
                    continue
                }
                if Self.markupCloser(kind) != nil, !Self.opensBlock(bytes, lineStart: start, at: index),
                    index == 0 || bytes[index - 1] != UInt8(ascii: "(")
                {
                    // A `<?`, `<![CDATA[` or `<!` and a letter that nothing in its paragraph
                    // closes (and that opens no link destination, `](<?x>)`) is text:
                    // escaped, so that cmark-gfm 0.29, which looks for the
                    // closer from each such opener to the paragraph's end, does not read the
                    // paragraph once an opener (time quadratic in a paragraph of them).
                    output += [UInt8(ascii: "\\"), byte]
                    index += 1
                    continue
                }
            }
            if let verbatimEnd = Self.verbatimEnd(bytes, at: index, lineStart: start, lineEnd: end) {
                output += bytes[index..<verbatimEnd]
                index = verbatimEnd
                end = max(end, scan.lineEnd(after: verbatimEnd - 1))
                continue
            }
            if byte == UInt8(ascii: "[") { openBrackets += 1 }
            if byte == UInt8(ascii: "]") { openBrackets = max(0, openBrackets - 1) }
            if let next = Self.rewriteForCmark(
                bytes, at: index, lineStart: start, lineEnd: end, inLinkText: openBrackets > 0, into: &output,
                scan: &scan)
            {
                index = next
                continue
            }
            guard scan.math, byte == dollar,
                let formula = formula(in: bytes, at: index, tableRow: tableRow, scan: &scan)
            else {
                output.append(byte)
                index += 1
                continue
            }
            let position = scan.position(of: index)
            // A formula over several lines of a block quote: its later lines' `>` markers are
            // the quote's, not TeX.
            var source = formula.source
            if source.utf8.contains(0x0A) {
                let depth = quoteDepth(bytes, lineStart: index - (position.column - 1), before: index)
                if depth > 0 { source = droppingQuoteMarkers(source, depth: depth) }
            }
            // In a table row, `\|` is a `|` the cell keeps: GitHub takes the escape off before
            // the cell's math is read (a `|` alone would end the cell).
            if source.contains("\\|"), bytes[start...].drop(while: { $0 == 0x20 }).first == UInt8(ascii: "|") {
                source = source.replacingOccurrences(of: "\\|", with: "|")
            }
            // Where the source begins, after `$`, `` $` `` or `$$` and, for a display, the
            // spaces, line breaks and quote markers before its first character: the place its
            // problems are counted from.
            var sourceStart = index + (bytes[index + 1] == dollar || bytes[index + 1] == backtick ? 2 : 1)
            if formula.display {
                let quoted = quoteDepth(bytes, lineStart: index - (position.column - 1), before: index) > 0
                while sourceStart < formula.end - 2, isSpace(bytes[sourceStart]) || quoted && bytes[sourceStart] == 0x3E
                {
                    sourceStart += 1
                }
            }
            let sourcePosition = scan.position(of: sourceStart)
            let closing = scan.position(of: formula.end)
            output += marker(
                source: source, display: formula.display, bytes: bytes[index..<formula.end],
                line: position.line, column: position.column,
                endColumn: closing.line == position.line ? closing.column : nil, sourceStart: sourcePosition)
            index = formula.end
            end = max(end, scan.lineEnd(after: formula.end - 1))
        }
        return end
    }

    /// Marks the `\eqref{key}` (or `\ref`) at `index` in running text, as MathJax reads it in a
    /// notebook's text: the formula reference it is. Returns the offset after it; nil when none
    /// starts at `index`.
    static func markReference(
        _ bytes: [UInt8], at index: Int, lineEnd: Int, into output: inout [UInt8], scan: inout Scan
    ) -> Int? {
        guard let referenceEnd = Self.referenceEnd(bytes, at: index, lineEnd: lineEnd) else { return nil }
        // LaTeX's tie before a reference (`Eq.~\eqref{key}`): a no-break space, as TeX sets
        // `~`, so the reference keeps to the word before it. A `~` escaped or doubled is text.
        let tilde = UInt8(ascii: "~")
        if index > 0, bytes[index - 1] == tilde, output.last == tilde,
            index < 2 || (bytes[index - 2] != tilde && bytes[index - 2] != UInt8(ascii: "\\"))
        {
            output.removeLast()
            output += Self.noBreakSpace
        }
        let position = scan.position(of: index)
        let closing = scan.position(of: referenceEnd)
        output += marker(
            source: String(decoding: bytes[index..<referenceEnd], as: UTF8.self), display: false,
            bytes: bytes[index..<referenceEnd], line: position.line, column: position.column,
            endColumn: closing.column, sourceStart: position)
        return referenceEnd
    }

    /// U+00A0 NO-BREAK SPACE in UTF-8.
    static let noBreakSpace: [UInt8] = [0xC2, 0xA0]

    /// Writes a bare e-mail address whose `@` is at `index` as an autolink, or escapes the
    /// `![` at `index`, when its paragraph holds so many that cmark-gfm would read them in
    /// quadratic time or memory (see ``MathSyntax``); returns where the copy goes on, nil when
    /// neither applies. An address in a link's text (`inLinkText`) is left as written: a link
    /// holds no other link.
    static func rewriteForCmark(
        _ bytes: [UInt8], at index: Int, lineStart: Int, lineEnd: Int, inLinkText: Bool, into output: inout [UInt8],
        scan: inout Scan
    ) -> Int? {
        let byte = bytes[index]
        if byte == UInt8(ascii: "@"), !inLinkText, scan.holdsManyAtSigns(from: index),
            let address = Self.bareAddress(bytes, at: index, lineStart: lineStart, lineEnd: lineEnd),
            output.suffix(index - address.lowerBound).elementsEqual(bytes[address.lowerBound..<index])
        {
            output.insert(UInt8(ascii: "<"), at: output.count - (index - address.lowerBound))
            output += bytes[index..<address.upperBound]
            output.append(UInt8(ascii: ">"))
            return address.upperBound
        }
        if byte == UInt8(ascii: "!"), index + 1 < lineEnd, bytes[index + 1] == UInt8(ascii: "["),
            scan.isUnmatchedImageOpener(at: index)
        {
            output += [byte, UInt8(ascii: "\\"), UInt8(ascii: "[")]
            return index + 2
        }
        return nil
    }

    /// Where text that is never math ends, when such text starts at `index`: an HTML tag or an
    /// autolink (`<a href="…">`, `</a>`, `<https://…>`; CommonMark 0.31 §6.5, §6.6), a link's
    /// destination (after `](`), a reference definition's destination (`[x]: …` at the line's
    /// start), or a bare URL (GitHub's extended autolinks: `https://`, `http://`, `www.` at a
    /// word's start). A `$` inside them is part of the address, as GitHub and Pandoc read it
    /// (they parse links and HTML before math). Nil: none starts at `index`. Each look is
    /// bounded (a tag by ``longestTag`` bytes, the others by the line), and what it finds is
    /// skipped, so a line is read in time linear in its length.
    static func verbatimEnd(_ bytes: [UInt8], at index: Int, lineStart: Int, lineEnd: Int) -> Int? {
        switch bytes[index] {
        case UInt8(ascii: "<"):
            return tagEnd(bytes, at: index, lineEnd: lineEnd)
        case UInt8(ascii: "]"):
            guard index + 1 < lineEnd else { return nil }
            if bytes[index + 1] == UInt8(ascii: "(") {
                return destinationEnd(bytes, from: index + 2, lineEnd: lineEnd).map {
                    titleEnd(bytes, from: $0, lineEnd: lineEnd)
                }
            }
            // `[label]: destination` opening its line (after up to three spaces); `[^label]:`
            // opens a footnote, whose text follows.
            let opening = bytes[lineStart..<index].drop(while: { $0 == 0x20 })
            guard bytes[index + 1] == UInt8(ascii: ":"), opening.first == UInt8(ascii: "["),
                opening.dropFirst().first != UInt8(ascii: "^")
            else { return nil }
            var next = index + 2
            while next < lineEnd, bytes[next] == 0x20 || bytes[next] == 0x09 { next += 1 }
            return destinationEnd(bytes, from: next, lineEnd: lineEnd).map {
                titleEnd(bytes, from: $0, lineEnd: lineEnd)
            }
        case UInt8(ascii: "h"), UInt8(ascii: "w"):
            if index > lineStart, !" \t(*_~\"'".utf8.contains(bytes[index - 1]) { return nil }
            let prefixes = ["https://", "http://", "www."]
            guard prefixes.contains(where: { bytes[index...].starts(with: $0.utf8) }) else { return nil }
            var end = index
            while end < lineEnd, ![0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: "<")].contains(bytes[end]) { end += 1 }
            return end
        default:
            return nil
        }
    }

    /// The longest HTML tag or autolink looked for, bytes: a longer one is read as text.
    static let longestTag = 512

    /// The end of the HTML tag or autolink starting at the `<` at `index`, on its line.
    static func tagEnd(_ bytes: [UInt8], at index: Int, lineEnd: Int) -> Int? {
        let limit = min(lineEnd, index + longestTag)
        func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
        func isNameByte(_ byte: UInt8) -> Bool { isLetter(byte) || (0x30...0x39).contains(byte) || byte == 0x2D }
        var next = index + 1
        guard next < limit else { return nil }
        let closing = bytes[next] == UInt8(ascii: "/")
        if closing { next += 1 }
        guard next < limit, isLetter(bytes[next]) else { return nil }
        while next < limit, isNameByte(bytes[next]) || (!closing && bytes[next] == UInt8(ascii: "+")) { next += 1 }
        // An autolink: a scheme, `:`, then anything but spaces and angle brackets.
        if !closing, next < limit, bytes[next] == UInt8(ascii: ":") {
            while next < limit, ![0x20, 0x09, UInt8(ascii: "<"), UInt8(ascii: ">")].contains(bytes[next]) { next += 1 }
            return next < limit && bytes[next] == UInt8(ascii: ">") ? next + 1 : nil
        }
        // A tag: attributes (`name`, `name=value`, the value quoted or not), then `/>` or `>`.
        while next < limit {
            let byte = bytes[next]
            if byte == UInt8(ascii: ">") { return next + 1 }
            if byte == UInt8(ascii: "/"), !closing, next + 1 < limit, bytes[next + 1] == UInt8(ascii: ">") {
                return next + 2
            }
            if byte == 0x20 || byte == 0x09 {
                next += 1
                continue
            }
            guard !closing, isLetter(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":") else { return nil }
            while next < limit, isNameByte(bytes[next]) || "_.:".utf8.contains(bytes[next]) { next += 1 }
            while next < limit, bytes[next] == 0x20 { next += 1 }
            guard next < limit, bytes[next] == UInt8(ascii: "=") else { continue }
            next += 1
            while next < limit, bytes[next] == 0x20 { next += 1 }
            guard next < limit else { return nil }
            let quote = bytes[next]
            if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                guard let close = bytes[(next + 1)..<limit].firstIndex(of: quote) else { return nil }
                next = close + 1
            } else {
                let start = next
                while next < limit, !" \t\"'=<>`".utf8.contains(bytes[next]) { next += 1 }
                if next == start { return nil }
            }
        }
        return nil
    }

    /// The end of a link destination starting at `start`: `<…>`, or bytes up to a space or the
    /// `)` that balances the parentheses before it (CommonMark 0.31 §6.3).
    static func destinationEnd(_ bytes: [UInt8], from start: Int, lineEnd: Int) -> Int? {
        guard start < lineEnd else { return nil }
        if bytes[start] == UInt8(ascii: "<") {
            guard let close = bytes[start..<lineEnd].firstIndex(of: UInt8(ascii: ">")) else { return nil }
            return close + 1
        }
        var depth = 0
        var end = start
        while end < lineEnd {
            let byte = bytes[end]
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { break }
            if byte == UInt8(ascii: "\\"), end + 1 < lineEnd {
                end += 2
                continue
            }
            if byte == UInt8(ascii: "(") { depth += 1 }
            if byte == UInt8(ascii: ")") {
                if depth == 0 { break }
                depth -= 1
            }
            end += 1
        }
        return end > start ? end : nil
    }

    /// The end of the `\eqref{key}` or `\ref{key}` at `index`, on its line; nil for anything else.
    static func referenceEnd(_ bytes: [UInt8], at index: Int, lineEnd: Int) -> Int? {
        for command in ["\\eqref{", "\\ref{"] where bytes[index..<lineEnd].starts(with: command.utf8) {
            let keyStart = index + command.utf8.count
            guard let close = bytes[keyStart..<min(lineEnd, keyStart + 128)].firstIndex(of: UInt8(ascii: "}")),
                close > keyStart
            else { return nil }
            return close + 1
        }
        return nil
    }

    /// The display environments that Jupyter (MathJax) and Pandoc (`raw_tex`, passed to
    /// LaTeX) set as displayed math when written bare, without dollars, at a line's start.
    static let displayEnvironments: Set<String> = [
        "equation", "equation*", "align", "align*", "gather", "gather*", "multline", "multline*", "eqnarray",
        "eqnarray*", "alignat", "alignat*", "flalign", "flalign*", "displaymath",
    ]

    /// Where the bare display environment (``displayEnvironments``) whose `\begin{…}` starts at
    /// `start` ends: after its `\end{…}`, in the paragraph (before `limit`); nil when none
    /// starts there or it is not closed.
    static func environmentEnd(_ bytes: [UInt8], from start: Int, limit: Int) -> Int? {
        let opening = Array("\\begin{".utf8)
        guard bytes[start...].starts(with: opening) else { return nil }
        let nameStart = start + opening.count
        guard let close = bytes[nameStart..<min(limit, nameStart + 24)].firstIndex(of: UInt8(ascii: "}")) else {
            return nil
        }
        let name = String(decoding: bytes[nameStart..<close], as: UTF8.self)
        guard displayEnvironments.contains(name) else { return nil }
        let ending = Array("\\end{\(name)}".utf8)
        guard let found = bytes[(close + 1)..<limit].firstRange(of: ending) else { return nil }
        return found.upperBound
    }

    /// Marks the bare display environment from `start` to `end` as a displayed formula, then
    /// the rest of its last line; returns where the next line starts.
    static func markEnvironment(
        _ bytes: [UInt8], from start: Int, to end: Int, into output: inout [UInt8], scan: inout Scan
    ) -> Int {
        let position = scan.position(of: start)
        let closing = scan.position(of: end)
        output += marker(
            source: String(decoding: bytes[start..<end], as: UTF8.self), display: true, bytes: bytes[start..<end],
            line: position.line, column: position.column,
            endColumn: closing.line == position.line ? closing.column : nil, sourceStart: position)
        let restEnd = bytes[end...].firstIndex(of: 0x0A).map { $0 + 1 } ?? bytes.count
        return markLine(bytes, from: end, lineEnd: restEnd, into: &output, scan: &scan)
    }

    /// How many block quote markers (`>`) open the line starting at `lineStart`, before `limit`.
    static func quoteDepth(_ bytes: [UInt8], lineStart: Int, before limit: Int) -> Int {
        var depth = 0
        var index = lineStart
        while index < limit {
            if bytes[index] == UInt8(ascii: ">") {
                depth += 1
            } else if bytes[index] != 0x20 && bytes[index] != 0x09 {
                break
            }
            index += 1
        }
        return depth
    }

    /// `source` with up to `depth` block quote markers (`>` and one space after it, spaces
    /// before it) taken from the start of each of its lines (a display's source is trimmed, so
    /// its first line may be the one after `$$`), then trimmed again.
    static func droppingQuoteMarkers(_ source: String, depth: Int) -> String {
        let lines = source.lines().map { line -> Substring in
            var rest = line
            for _ in 0..<depth {
                let trimmed = rest.drop { $0 == " " || $0 == "\t" }
                guard trimmed.first == ">" else { break }
                rest = trimmed.dropFirst()
                if rest.first == " " { rest = rest.dropFirst() }
            }
            return rest
        }
        return lines.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The bare e-mail address whose `@` is at `index`, as GitHub's extended e-mail autolink
    /// reads it (GitHub Flavored Markdown, "Autolinks (extension)": letters, digits, `.`, `-`,
    /// `_`, `+` before the `@`, not after a `/` (nor a `<`: an autolink); after it, labels separated by `.`, at least
    /// one `.`, a final `.` not part of it), when it is also a CommonMark e-mail autolink
    /// (each label of the domain letters, digits and inner `-`, 63 bytes at most): nil for any
    /// other, left for cmark-gfm to read.
    static func bareAddress(_ bytes: [UInt8], at index: Int, lineStart: Int, lineEnd: Int) -> Range<Int>? {
        func isAlphanumeric(_ byte: UInt8) -> Bool {
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
        }
        var start = index
        while start > lineStart, isAlphanumeric(bytes[start - 1]) || ".-_+".utf8.contains(bytes[start - 1]) {
            start -= 1
        }
        // After `<` it is an autolink already.
        guard start < index,
            start == lineStart || bytes[start - 1] != UInt8(ascii: "/") && bytes[start - 1] != UInt8(ascii: "<")
        else { return nil }
        var end = index + 1
        var labels = 0
        while true {
            let label = end
            while end < lineEnd, isAlphanumeric(bytes[end]) || bytes[end] == UInt8(ascii: "-") { end += 1 }
            guard end > label, end - label <= 63, bytes[label] != UInt8(ascii: "-"),
                bytes[end - 1] != UInt8(ascii: "-")
            else { return nil }
            labels += 1
            guard end + 1 < lineEnd, bytes[end] == UInt8(ascii: "."), isAlphanumeric(bytes[end + 1]) else { break }
            end += 1
        }
        // GitHub's reading runs on over `_` and a final `-`, which CommonMark's does not take.
        guard labels > 1, end == lineEnd || bytes[end] != UInt8(ascii: "_") && bytes[end] != UInt8(ascii: "-") else {
            return nil
        }
        return start..<end
    }

    /// The offsets of the `![` from `start` to `limit` that no `]` closes, when there are more
    /// than ``unmatchedImageOpenerAllowance`` of them; else none. See
    /// ``Scan/isUnmatchedImageOpener(at:)``.
    static func unmatchedImageOpeners(_ bytes: [UInt8], from start: Int, limit: Int) -> Set<Int> {
        // The open brackets, innermost last: the offset of each `![`, -1 for each `[`.
        var open: [Int] = []
        var index = start
        while index < limit {
            switch bytes[index] {
            case UInt8(ascii: "\\"):
                index += 1
            case UInt8(ascii: "`"):
                let run = bytes[index..<limit].prefix { $0 == UInt8(ascii: "`") }.count
                if let close = closingRun(bytes, of: run, from: index + run, limit: limit) {
                    index = close + run - 1
                } else {
                    index += run - 1
                }
            case UInt8(ascii: "["):
                open.append(index > start && bytes[index - 1] == UInt8(ascii: "!") ? index - 1 : -1)
            case UInt8(ascii: "]"):
                _ = open.popLast()
            default:
                break
            }
            index += 1
        }
        let unmatched = open.filter { $0 >= 0 }
        return unmatched.count > unmatchedImageOpenerAllowance ? Set(unmatched) : []
    }

    static func lineEndAfter(_ bytes: [UInt8], _ index: Int) -> Int {
        bytes[index...].firstIndex(of: 0x0A).map { $0 + 1 } ?? bytes.count
    }

    /// The offset of the first blank line after `index` (a paragraph's end), or the end.
    static func paragraphEnd(_ bytes: [UInt8], from index: Int) -> Int {
        var position = index
        while let newline = bytes[position...].firstIndex(of: 0x0A) {
            var next = newline + 1
            while next < bytes.count, bytes[next] == 0x20 || bytes[next] == 0x09 || bytes[next] == 0x0D { next += 1 }
            if next >= bytes.count || bytes[next] == 0x0A { return newline }
            position = newline + 1
        }
        return bytes.count
    }

    /// Where a run of exactly `count` backticks starts at or after `from`, before `limit`.
    static func closingRun(_ bytes: [UInt8], of count: Int, from: Int, limit: Int) -> Int? {
        var index = from
        while index < limit {
            if bytes[index] == UInt8(ascii: "`") {
                let run = bytes[index..<limit].prefix { $0 == UInt8(ascii: "`") }.count
                if run == count { return index }
                index += run
            } else {
                index += 1
            }
        }
        return nil
    }

    /// The formula starting at the `$` at `index`: its TeX source, whether it is displayed, and
    /// the offset after its closing delimiter; nil when the dollar opens none (a price).
    static func formula(
        in bytes: [UInt8], at index: Int, tableRow: Bool = false, scan: inout Scan
    ) -> (source: String, display: Bool, end: Int)? {
        let dollar = UInt8(ascii: "$")
        // A table row's formula stays on its row (and in its cell, ``endsFormulaSearch``).
        let limit = tableRow ? scan.lineEnd(after: index) : scan.paragraphEnd(from: index)
        let next = index + 1 < bytes.count ? bytes[index + 1] : 0
        if next == dollar {
            // $$…$$: display math, inline or over several lines.
            guard !scan.closerIsAbsent(Scan.displayCloser, from: index + 2, limit: limit) else { return nil }
            var position = index + 2
            while position + 1 < limit {
                if bytes[position] == UInt8(ascii: "\\") {
                    position += 2
                    continue
                }
                if opensCodeSpan(bytes, at: position, limit: limit, scan: &scan) { return nil }
                if bytes[position] == dollar, bytes[position + 1] == dollar {
                    let source = String(decoding: bytes[(index + 2)..<position], as: UTF8.self)
                    guard !source.allSatisfy(\.isWhitespace) else { return nil }
                    return (source.trimmingCharacters(in: .whitespacesAndNewlines), true, position + 2)
                }
                position += 1
            }
            scan.findings.unclosedDisplays.append(scan.position(of: index))
            scan.noteAbsent(Scan.displayCloser, from: index + 2, limit: limit)
            return nil
        }
        if next == UInt8(ascii: "`") {
            // $`…`$: GitHub's inline math with backticks.
            guard !scan.closerIsAbsent(Scan.backtickCloser, from: index + 2, limit: limit) else { return nil }
            var position = index + 2
            while position + 1 < limit {
                if bytes[position] == UInt8(ascii: "`"), bytes[position + 1] == dollar {
                    let source = String(decoding: bytes[(index + 2)..<position], as: UTF8.self)
                    return (source, false, position + 2)
                }
                position += 1
            }
            scan.noteAbsent(Scan.backtickCloser, from: index + 2, limit: limit)
            return nil
        }
        // $…$: no space after the opening dollar, none before the closing one, and no digit
        // (Pandoc's tex_math_dollars) nor letter after it.
        guard index + 1 < limit, !isSpace(next), next != dollar else { return nil }
        if index > 0, bytes[index - 1] == dollar { return nil }
        var position = index + 1
        // A dollar inside braces (`$|x| = \text{$x$ if $x > 0$}$`) closes nothing, as MathJax
        // balances braces between its delimiters; where the braces do not close before the
        // paragraph's end, the first dollar that would close inside them does.
        var depth = 0
        var closingInBraces: Int?
        var dollarsInBraces = 0
        func closing(at position: Int) -> (source: String, display: Bool, end: Int) {
            (String(decoding: bytes[(index + 1)..<position], as: UTF8.self), false, position + 1)
        }
        while position < limit {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\\") {
                position += 2
                continue
            }
            if endsFormulaSearch(bytes, at: position, tableRow: tableRow) { return closingInBraces.map(closing) }
            if opensCodeSpan(bytes, at: position, limit: limit, scan: &scan) { break }
            if byte == UInt8(ascii: "{") { depth += 1 }
            if byte == UInt8(ascii: "}"), depth > 0 { depth -= 1 }
            if byte == dollar {
                let after = position + 1 < bytes.count ? bytes[position + 1] : 0
                let alphanumeric =
                    (0x30...0x39).contains(after) || (0x41...0x5A).contains(after) || (0x61...0x7A).contains(after)
                let closes = !isSpace(bytes[position - 1]) && !alphanumeric && after != dollar
                if depth > 0 {
                    if closes, closingInBraces == nil { closingInBraces = position }
                    // Eight dollars inside braces at most: a scan past them would read the text
                    // to the paragraph's end from every dollar of `$x{y$x{y…`.
                    dollarsInBraces += 1
                    if dollarsInBraces > 8 { return closingInBraces.map(closing) }
                    position += 1
                    continue
                }
                if closes { return closing(at: position) }
                if !isSpace(bytes[position - 1]), let suffix = ordinalSuffix(bytes, at: position + 1) {
                    let written = String(decoding: bytes[index..<(position + 1 + suffix)], as: UTF8.self)
                    let place = scan.position(of: index)
                    scan.findings.suffixedFormulas.append((place.line, place.column, written))
                } else {
                    noteUnclosed(bytes, from: index, to: position, scan: &scan)
                }
                return nil
            }
            position += 1
        }
        if closingInBraces == nil { noteUnclosed(bytes, from: index, to: position, scan: &scan) }
        return closingInBraces.map(closing)
    }

    /// Whether a code span opens at `index` (a run of backticks that a run of as many closes
    /// before `limit`, the paragraph's end). A code span binds tighter than a formula, as it
    /// does than every other inline (CommonMark 0.31.2 §6.1): a formula's search for its closing
    /// dollars ends there, so a `$` in prose never pairs with one in code (`costs $5 and `$``).
    static func opensCodeSpan(_ bytes: [UInt8], at index: Int, limit: Int, scan: inout Scan) -> Bool {
        let backtick = UInt8(ascii: "`")
        guard bytes[index] == backtick, index == 0 || bytes[index - 1] != backtick else { return false }
        var run = 1
        while index + run < limit, bytes[index + run] == backtick { run += 1 }
        return scan.closingRun(of: run, from: index + run, limit: limit) != nil
    }

    /// Notes the `$` at `index` as a formula left open when what follows it up to `end` (the
    /// next `$`, or its paragraph's end) reads as TeX (``looksLikeTeX(_:)``): a dollar before a
    /// price or a shell variable is text, and said nothing of.
    static func noteUnclosed(_ bytes: [UInt8], from index: Int, to end: Int, scan: inout Scan) {
        let following = bytes[(index + 1)..<min(end, bytes.count)]
        guard looksLikeTeX(following) else { return }
        let place = scan.position(of: index)
        // About 30 bytes of what follows, cut before a character, not inside one.
        var cut = min(end, index + 1 + 30, bytes.count)
        while cut > index + 1, cut < bytes.count, bytes[cut] & 0xC0 == 0x80 { cut -= 1 }
        let words = String(decoding: bytes[index..<cut], as: UTF8.self)
        let written = words.split(separator: "\n").first.map(String.init) ?? words
        scan.findings.unclosedInlines.append((place.line, place.column, written))
    }

    /// Whether `text`, what follows an opening `$`, reads as TeX: it starts with a letter or a
    /// backslash (not a digit or a space: `$5`, `$ 5`) and within its first 40 bytes holds a
    /// superscript or a subscript after its first character, or a command (`\` and a letter):
    /// `$E = mc^2 is`, `$x_1 and`, `$\alpha`, not `$HOME/bin`, `$USD`, `$_SESSION`,
    /// `$PYENV_ROOT/bin` or `$\_`.
    static func looksLikeTeX(_ text: ArraySlice<UInt8>) -> Bool {
        guard let first = text.first,
            first == UInt8(ascii: "\\") || (0x41...0x5A).contains(first) || (0x61...0x7A).contains(first)
        else { return false }
        let start = text.startIndex
        // A backslash before punctuation is Markdown's escape (`RegExp.$\_`), no command.
        if first == UInt8(ascii: "\\"), start + 1 < text.endIndex, !LaTeXTextCommands.isLetter(text[start + 1]) {
            return false
        }
        for index in text.indices.prefix(40) {
            let byte = text[index]
            // An underscore after two or more capitals and figures, before another, is in an
            // environment variable's name (`$PYENV_ROOT`, `$MY_2ND_VAR`), not a subscript.
            if byte == UInt8(ascii: "_"), index - start >= 2, index + 1 < text.endIndex,
                isVariableNameByte(text[index + 1]), text[start..<index].allSatisfy(isVariableNameByte)
            {
                continue
            }
            if byte == UInt8(ascii: "^") || byte == UInt8(ascii: "_") { return index > start }
            if byte == UInt8(ascii: "\\"), index + 1 < text.endIndex,
                (0x41...0x5A).contains(text[index + 1] & 0xDF)
            {
                return true
            }
        }
        return false
    }

    /// A capital letter, a figure or an underscore: what an environment variable's name is
    /// written with.
    private static func isVariableNameByte(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x30...0x39).contains(byte) || byte == UInt8(ascii: "_")
    }

    /// The length of the English suffix at `index` (`th`, `st`, `nd`, `rd`, `s`, `'s`) when a
    /// letter or digit does not follow it: what `$n$th` and `$x$s` write after a formula that
    /// GitHub's rule keeps as text; nil for anything else (`$PATH:$HOME`).
    static func ordinalSuffix(_ bytes: [UInt8], at index: Int) -> Int? {
        for suffix in ["th", "st", "nd", "rd", "s"] {
            let end = index + suffix.utf8.count
            guard end <= bytes.count, bytes[index..<end].elementsEqual(suffix.utf8) else { continue }
            let after = end < bytes.count ? bytes[end] : 0
            let letter =
                (0x30...0x39).contains(after) || (0x41...0x5A).contains(after) || (0x61...0x7A).contains(after)
            return letter ? nil : suffix.utf8.count
        }
        return nil
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    /// The marker standing for a formula: a word joiner (so that a marker at a line's start does
    /// not open an HTML block) and an inline HTML tag holding the source in base64 and the
    /// formula's line breaks.
    /// The formula's line and column are where its first `$` is written; `endColumn`, for a
    /// formula on one line, the column just after its last `$`, so that a column of the marked
    /// text after the marker can be given as the file's (``SourceLines/sourceColumn(line:column:)``).
    static func marker(
        source: String, display: Bool, bytes: ArraySlice<UInt8>, line: Int, column: Int, endColumn: Int? = nil,
        sourceStart: (line: Int, column: Int)? = nil
    ) -> [UInt8] {
        // Each line break of the formula kept, with a character after it so no line is blank.
        let breaks = String(repeating: "\n.", count: bytes.filter { $0 == 0x0A }.count)
        let encoded = Data(source.utf8).base64EncodedString()
        let written = Data(bytes).base64EncodedString()
        let end = endColumn.map { " e=\"\($0)\"" } ?? ""
        let start = sourceStart.map { " sl=\"\($0.line)\" sc=\"\($0.column)\"" } ?? ""
        let attributes =
            "d=\"\(display ? 1 : 0)\" s=\"\(encoded)\" l=\"\(line)\" c=\"\(column)\"\(end)\(start) "
            + "\(writtenAttribute)=\"\(written)\" n=\"\(breaks)\""
        return Array("\u{2060}<\(tag) \(attributes)>".utf8)
    }

    /// The marker's attribute holding the formula as the file writes it, delimiters included
    /// (Base64 of its UTF-8): what the marker stands for where it lands in code, which shows
    /// text as written.
    static let writtenAttribute = "w"

    /// `text` with each marker in it replaced by the formula as the file writes it: the text of
    /// code (a code block or span) that this pass, which reads lines without parsing their
    /// containers, took for prose. Time linear in `text`.
    static func restoringWritten(in text: String) -> String {
        let bytes = Array(text.utf8)
        guard var found = FormulaMarkers.firstMarker(in: bytes[...]) else { return text }
        let openingCount = "\u{2060}<\(tag) ".utf8.count
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var from = 0
        while let close = bytes[(found + openingCount)...].firstIndex(of: UInt8(ascii: ">")) {
            result += bytes[from..<found]
            let html = String(decoding: bytes[(found + openingCount)..<close], as: UTF8.self)
            if let encoded = value(of: writtenAttribute, in: html), let written = Data(base64Encoded: encoded) {
                result += written
            } else {
                result += bytes[found...close]
            }
            from = close + 1
            guard let next = FormulaMarkers.firstMarker(in: bytes[from...]) else { break }
            found = next
        }
        result += bytes[from...]
        return String(decoding: result, as: UTF8.self)
    }

    /// The formula a marker stands for: its source and whether it is displayed; nil for other
    /// HTML.
    static func formula(inMarker html: String) -> (
        source: String, display: Bool, line: Int, column: Int, sourceStart: (line: Int, column: Int)?
    )? {
        guard html.hasPrefix("<\(tag) d=\"") else { return nil }
        return formula { value(of: $0, in: html) }
    }

    /// The formula a marker stands for, its attributes read by `attribute` (the marker as an
    /// element of an HTML block, read by libxml2).
    static func formula(_ attribute: (String) -> String?) -> (
        source: String, display: Bool, line: Int, column: Int, sourceStart: (line: Int, column: Int)?
    )? {
        guard let encoded = attribute("s"), let data = Data(base64Encoded: encoded) else { return nil }
        let display = attribute("d") == "1"
        let line = attribute("l").flatMap { Int($0) } ?? 0
        let column = attribute("c").flatMap { Int($0) } ?? 0
        // Where the source itself begins, after its delimiter.
        var sourceStart: (line: Int, column: Int)?
        if let startLine = attribute("sl").flatMap({ Int($0) }), let startColumn = attribute("sc").flatMap({ Int($0) })
        {
            sourceStart = (startLine, startColumn)
        }
        return (String(decoding: data, as: UTF8.self), display, line, column, sourceStart)
    }

    /// `text` (a piece of marked source) with each marker written back as the formula it
    /// stands for (`$…$`, `$$…$$`), for a warning that quotes the source.
    static func unmarked(_ text: String) -> String {
        let opening = "\u{2060}<\(tag) "
        guard text.contains(opening) else { return text }
        var result = ""
        var rest = text[...]
        while let start = rest.range(of: opening) {
            result += rest[..<start.lowerBound]
            let tagStart = rest.index(after: start.lowerBound)
            guard let end = rest[tagStart...].firstIndex(of: ">"),
                let formula = formula(inMarker: String(rest[tagStart...end]))
            else {
                result += rest[start]
                rest = rest[start.upperBound...]
                continue
            }
            let dollars = formula.display ? "$$" : "$"
            result += dollars + formula.source + dollars
            rest = rest[rest.index(after: end)...]
        }
        return result + rest
    }

    /// The value of the marker's attribute `name`.
    static func value(of name: String, in html: String) -> String? { FormulaMarkers.attribute(name, in: html) }
}

extension MathSyntax.Scan {
    /// Whether the table of `header` and `delimiter` (a delimiter row, ending at `end`) is set
    /// as text: wider than ``MathSyntax/maximumTableColumns``, or its rows leaving most of its
    /// grid empty (``MathSyntax/sparseGrid(_:after:columns:headerCells:)``); noted in
    /// ``findings`` at its header.
    mutating func findsWideTable(header: ArraySlice<UInt8>, delimiter: ArraySlice<UInt8>, after end: Int) -> Bool {
        let widest = max(MathSyntax.cellCount(in: header), MathSyntax.cellCount(in: delimiter))
        var sparse: (rows: Int, cells: Int)?
        if widest <= MathSyntax.maximumTableColumns {
            guard widest > RawHTML.slotsPerWrittenCell else { return false }
            sparse = MathSyntax.sparseGrid(
                bytes, after: end, columns: widest, headerCells: MathSyntax.cellCount(in: header))
            guard sparse != nil else { return false }
        }
        let place = position(of: MathSyntax.rowStart(in: header))
        findings.wideTables.append((place.line, place.column, widest, sparse))
        return true
    }
}
