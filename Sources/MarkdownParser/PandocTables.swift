import DocumentModel

/// Pandoc's simple, multiline and grid tables (Pandoc's manual, "Pandoc's Markdown", "Tables"),
/// rewritten before the parse as the pipe tables of GitHub Flavored Markdown, which cmark-gfm
/// reads: each row one line, its cells' lines joined by a space, each column aligned as Pandoc
/// aligns it. CommonMark has none of the three, and read as it reads them a multiline table's
/// rules became thematic breaks and its last row a setext heading.
///
/// The rewritten table takes as many lines as the table written, its last lines blank, so that
/// every line after it keeps its number. A table inside a quote, an alert or a list item is
/// found in the container's content, its lines' markers and indents kept (Pandoc reads tables
/// in any container), to a depth of `deepestContainer`. A table in code is left as it is, as is
/// a grid table with cells that span rows or columns (its text is then read as written, with
/// the warning for Pandoc's syntax).
enum PandocTables {
    /// One column: where its dashes start and end (display columns, the end excluded), and its
    /// alignment's delimiter cell (`---`, `:--`, `--:`, `:-:`).
    struct Column {
        var start: Int
        var end: Int
        var delimiter = "---"
    }

    /// A line as display columns: each Unicode scalar with the column it starts at (a wide East
    /// Asian character takes two, a tab runs to the next multiple of 4, as Pandoc expands it,
    /// held as one space), 16 bytes a scalar whatever the columns it spans.
    struct Cells {
        var scalars: [(scalar: Unicode.Scalar, column: Int)] = []
        var width = 0

        init(_ line: Substring) {
            for scalar in line.unicodeScalars where scalar != "\n" && scalar != "\r" {
                if scalar == "\t" {
                    scalars.append((" ", width))
                    width = (width / 4 + 1) * 4
                    continue
                }
                scalars.append((scalar, width))
                width += Self.width(of: scalar)
            }
        }

        /// The index of the first scalar at or after display column `column` (a binary search:
        /// the columns rise).
        private func firstIndex(atOrAfter column: Int) -> Int {
            var low = 0
            var high = scalars.count
            while low < high {
                let middle = (low + high) / 2
                if scalars[middle].column < column { low = middle + 1 } else { high = middle }
            }
            return low
        }

        /// The scalars from display column `from` to `to` (nil: the line's end).
        private func range(from: Int, to: Int?) -> Range<Int> {
            let start = firstIndex(atOrAfter: from)
            let end = to.map { firstIndex(atOrAfter: $0) } ?? scalars.count
            return start..<max(start, end)
        }

        /// The text between display columns `from` and `to` (nil: the line's end), trimmed.
        func text(from: Int, to: Int?) -> String {
            var result = String.UnicodeScalarView()
            for index in range(from: from, to: to) { result.append(scalars[index].scalar) }
            return String(result).trimmingSpaces
        }

        /// The first and last (excluded) columns holding other than a space, within `from..<to`.
        func inked(from: Int, to: Int) -> (start: Int, end: Int)? {
            let inked = scalars[range(from: from, to: to)].filter { $0.scalar != " " }
            guard let first = inked.first, let last = inked.last else { return nil }
            return (first.column, last.column + Self.width(of: last.scalar))
        }

        /// The scalar at display column `column`, nil past the line's end or inside a wide one.
        func scalar(at column: Int) -> Unicode.Scalar? {
            let index = firstIndex(atOrAfter: column)
            return index < scalars.count && scalars[index].column == column ? scalars[index].scalar : nil
        }

        static func width(of scalar: Unicode.Scalar) -> Int {
            let value = scalar.value
            if scalar.properties.generalCategory == .nonspacingMark
                || scalar.properties.generalCategory == .enclosingMark
            {
                return 0
            }
            let wide =
                (0x1100...0x115F).contains(value) || (0x2E80...0xA4CF).contains(value)
                || (0xAC00...0xD7A3).contains(value) || (0xF900...0xFAFF).contains(value)
                || (0xFE30...0xFE4F).contains(value) || (0xFF00...0xFF60).contains(value)
                || (0xFFE0...0xFFE6).contains(value) || (0x1F300...0x1F64F).contains(value)
                || (0x20000...0x3FFFD).contains(value)
            return wide ? 2 : 1
        }
    }

    /// `text` with every Pandoc table and every caption beside a table rewritten; nil when
    /// `text` holds none.
    static func rewriting(_ text: String) -> String? {
        guard mayHoldTables(text) else { return nil }
        // Each line is read without its ending; a CR LF ending is given back as written.
        let written = text.lines()
        let carriageReturns = written.indices.filter {
            written[$0].endIndex < text.endIndex && text[written[$0].endIndex] == "\r\n"
        }
        guard var lines = rewriting(lines: written, depth: 0) else { return nil }
        for index in carriageReturns { lines[index] += "\r" }
        return lines.joined(separator: "\n")
    }

    /// The depth of quotes and list items inside one another to which tables are looked for:
    /// each level reads its content's lines once more.
    static let deepestContainer = 8

    /// `lines` (without their endings) with every table and caption rewritten, those inside
    /// quotes and list items too; nil when they hold none. `depth` is how many containers
    /// `lines` is the content of.
    static func rewriting(lines written: [Substring], depth: Int) -> [Substring]? {
        var lines = written
        var rewritten = false
        // The lines outside code that may be a table's caption.
        var captionCandidates: [Int] = []
        var index = 0
        var previousBlank = true
        var fence: (character: Character, count: Int)?
        var inPre = false
        let closings = Closings(lines)
        while index < lines.count {
            let line = lines[index]
            let trimmed = line.drop { $0 == " " }
            let indent = line.count - trimmed.count
            let blank = trimmed.allSatisfy { $0 == " " || $0 == "\t" || $0 == "\r" }
            if let open = fence {
                let run = trimmed.prefix { $0 == open.character }.count
                if run >= open.count, trimmed.dropFirst(run).allSatisfy({ $0 == " " || $0 == "\r" }) { fence = nil }
                index += 1
                continue
            }
            if inPre {
                if line.contains("</pre>") { inPre = false }
                index += 1
                continue
            }
            if indent < 4, let first = trimmed.first, first == "`" || first == "~" {
                let run = trimmed.prefix { $0 == first }.count
                if run >= 3 {
                    fence = (first, run)
                    previousBlank = false
                    index += 1
                    continue
                }
            }
            if indent < 4, trimmed.hasPrefix("<pre"), !line.contains("</pre>") {
                inPre = true
                index += 1
                continue
            }
            // A list item's marker or a quote's comes before any table on its line.
            if depth < deepestContainer, indent < 4, let container = Container(lines, at: index) {
                if container.mayHoldTables, let inner = rewriting(lines: container.contents, depth: depth + 1) {
                    for (offset, line) in inner.enumerated() where line != container.contents[offset] {
                        let prefix = container.prefixes[offset]
                        // A padding line keeps a quote's `>` without the space after it.
                        let marker = prefix.reversed().drop { $0 == " " }.count
                        lines[index + offset] = line.isEmpty ? prefix.prefix(marker) : Substring(prefix + line)
                    }
                    rewritten = true
                }
                index += container.contents.count
                previousBlank = false
                continue
            }
            if previousBlank, !blank, indent < 4, line.first != "\t",
                let table = table(in: lines, at: index, closings: closings)
            {
                for (offset, row) in table.lines.enumerated() {
                    lines[index + offset] = Substring(row)
                }
                for padding in (index + table.lines.count)..<(index + table.consumed) { lines[padding] = "" }
                rewritten = true
                index += table.consumed
                previousBlank = true
                continue
            }
            if previousBlank, indent < 4, trimmed.hasPrefix("Table: ") || trimmed.hasPrefix(": ") {
                captionCandidates.append(index)
            }
            previousBlank = blank
            index += 1
        }
        for line in captionCandidates {
            guard let end = captionEnd(lines, at: line) else { continue }
            let text = lines[line].drop { $0 == " " }
            let caption = text.hasPrefix("Table:") ? text.dropFirst(6) : text.dropFirst(1)
            lines[line] = Substring("[" + caption.drop { $0 == " " })
            // pandoc-crossref's and Quarto's label after the caption (`Table: Sizes. {#tbl:sizes}`)
            // joins the caption's span, whose id the table takes.
            let last = lines[end - 1]
            if let attributes = Self.trailingAttributes(last) {
                let text = last[..<attributes.lowerBound].reversed().drop { $0 == " " }.reversed()
                let inner = last[last.index(after: attributes.lowerBound)..<last.index(before: attributes.upperBound)]
                lines[end - 1] = Substring(String(text) + "]{\(inner) .caption .\(Attributes.tableCaptionClass)}")
            } else {
                lines[end - 1] += "]{.caption .\(Attributes.tableCaptionClass)}"
            }
            rewritten = true
        }
        return rewritten ? lines : nil
    }

    /// A quote (`>` lines) or a list item (a marker, then lines indented to its content or
    /// blank) that opens at a line: the content of each of its lines without the container's
    /// marker or indent, and that marker or indent. An alert's `[!KIND]` line is content as a
    /// blank line, which the table under it follows. Nil for any other line.
    struct Container {
        var contents: [Substring] = []
        var prefixes: [Substring] = []
        /// Whether a line of the content may open a table, and no list item's line indents
        /// with a tab, which would not keep its columns without the indent.
        var mayHoldTables = true

        init?(_ lines: [Substring], at start: Int) {
            let opening = lines[start]
            let indent = opening.prefix { $0 == " " }.count
            let marked = opening.dropFirst(indent)
            if marked.first == ">" {
                var index = start
                while index < lines.count {
                    let line = lines[index]
                    let spaces = line.prefix { $0 == " " }.count
                    guard spaces < 4, line.dropFirst(spaces).first == ">" else { break }
                    var content = line.dropFirst(spaces + 1)
                    if content.first == " " { content = content.dropFirst() }
                    prefixes.append(line[..<content.startIndex])
                    contents.append(content)
                    index += 1
                }
                if let first = contents.first, PandocTables.isAlertMarker(first) { contents[0] = "" }
            } else if let marker = PandocTables.listMarkerWidth(marked) {
                let afterMarker = marked.dropFirst(marker)
                let spaces = afterMarker.prefix { $0 == " " }.count
                let column =
                    indent + marker + (spaces == 0 || spaces > 4 || afterMarker.allSatisfy { $0 == " " } ? 1 : spaces)
                var index = start
                var lastContent = start
                while index < lines.count {
                    let line = lines[index]
                    let blank = PandocTables.isBlank(line)
                    let leading = line.prefix { $0 == " " || $0 == "\t" }
                    if index > start, !blank, leading.count < column { break }
                    if leading.prefix(column).contains("\t") { mayHoldTables = false }
                    let cut = line.index(line.startIndex, offsetBy: min(column, line.count))
                    prefixes.append(line[..<cut])
                    contents.append(line[cut...])
                    if !blank { lastContent = index }
                    index += 1
                }
                // Blank lines after the item's last content are the text's around it.
                contents.removeLast(index - 1 - lastContent)
                prefixes.removeLast(index - 1 - lastContent)
            } else {
                return nil
            }
            mayHoldTables =
                mayHoldTables
                && contents.contains { PandocTables.mayOpenTable(inContainer: ArraySlice($0.utf8.prefix(4_096))) }
        }
    }

    /// The width of the list marker that opens `line` (`-`, `+`, `*`, or up to nine digits and
    /// `.` or `)`), when a space, a tab or the line's end follows it; nil for any other line.
    static func listMarkerWidth(_ line: Substring) -> Int? {
        guard let first = line.first else { return nil }
        var width = 1
        if !(first == "-" || first == "+" || first == "*") {
            let digits = line.prefix { $0.isASCII && $0.isNumber }.count
            guard (1...9).contains(digits), let mark = line.dropFirst(digits).first, mark == "." || mark == ")"
            else { return nil }
            width = digits + 1
        }
        let after = line.dropFirst(width).first
        return after == nil || after == " " || after == "\t" ? width : nil
    }

    /// Whether `line` is a GitHub alert's marker alone (`[!NOTE]`, any letters, any case).
    static func isAlertMarker(_ line: Substring) -> Bool {
        let text = line.trimmingSpaces
        guard text.hasPrefix("[!"), text.hasSuffix("]"), text.count > 3 else { return false }
        return text.dropFirst(2).dropLast().allSatisfy { $0.isASCII && $0.isLetter }
    }

    /// The attributes `line` ends with, braces included: `{` then `#` or `.` (an id or a class,
    /// as Pandoc's attribute syntax opens), no brace inside, `}` last (trailing spaces
    /// aside), after a space; nil for none (`sizes {x}` is text).
    static func trailingAttributes(_ line: Substring) -> Range<Substring.Index>? {
        guard let close = line.lastIndex(where: { $0 != " " }), line[close] == "}",
            let open = line[..<close].lastIndex(of: "{"), open > line.startIndex,
            line[line.index(before: open)] == " ", !line[line.index(after: open)..<close].contains("}"),
            let first = line[line.index(after: open)..<close].first(where: { $0 != " " }), first == "#" || first == "."
        else { return nil }
        return open..<line.index(after: close)
    }

    /// Where the table caption that `lines[index]` opens ends (exclusive), or nil when it opens
    /// none. A line opening with `Table:` or `:` after a blank line is a table's caption in
    /// Pandoc's syntax when it opens a paragraph with a blank line between it and a table's
    /// first or last line (a pipe table's, as written or rewritten). The paragraph's lines run to
    /// the next blank line, as Pandoc's manual writes a caption over two lines. A line that would open a block of
    /// its own (a heading, quote, list item, fence, table row, HTML) ends no paragraph the
    /// caption's span could hold, so text with one is left as it is; so is text whose brackets
    /// or braces do not pair. A link, a span or a note in it pairs.
    static func captionEnd(_ lines: [Substring], at index: Int) -> Int? {
        var end = index + 1
        while end < lines.count, !isBlank(lines[end]) {
            if opensBlock(lines[end].drop { $0 == " " }) { return nil }
            end += 1
        }
        guard pairsBrackets(Substring(lines[index..<end].joined(separator: "\n"))) else { return nil }
        var before = index - 1
        while before >= 0, isBlank(lines[before]) { before -= 1 }
        var after = end
        while after < lines.count, isBlank(lines[after]) { after += 1 }
        let tableBefore = before >= 0 && isPipeRow(lines[before])
        let tableAfter = after + 1 < lines.count && isPipeRow(lines[after]) && isDelimiterRow(lines[after + 1])
        return tableBefore || tableAfter ? end : nil
    }

    /// Whether `line` (its indent dropped) may open a block of its own inside a paragraph, or
    /// underline it: a heading, a quote, a table row, a fence, HTML, a list item (a bullet or a
    /// number then a space), a thematic break or a setext underline (a line of `-`, `*`, `_` or
    /// `=`). A line that only begins with such a character (`2024 by month.`) does not.
    static func opensBlock(_ line: Substring) -> Bool {
        guard let first = line.first else { return false }
        if "#>|<".contains(first) || line.hasPrefix("```") || line.hasPrefix("~~~") { return true }
        let rest = line.drop { $0 == first }
        if "-*+".contains(first), line.dropFirst().first == " " { return true }
        if "-*_=".contains(first), rest.allSatisfy({ $0 == " " || $0 == first }) { return true }
        let afterDigits = line.drop { $0.isASCII && $0.isNumber }
        return afterDigits.count < line.count && (afterDigits.hasPrefix(". ") || afterDigits.hasPrefix(") "))
    }

    /// Whether every `[` and `{` of `line` outside code spans and escapes is closed, in order,
    /// by a `]` or `}` (`see [a link](u)`, `[marked]{.mark}`, a note `^[x]` or `[^1]`).
    static func pairsBrackets(_ line: Substring) -> Bool {
        var open: [Character] = []
        var escaped = false
        var ticks = 0
        var index = line.startIndex
        while index < line.endIndex {
            let character = line[index]
            index = line.index(after: index)
            if escaped {
                escaped = false
                continue
            }
            if character == "`" {
                var run = 1
                while index < line.endIndex, line[index] == "`" {
                    run += 1
                    index = line.index(after: index)
                }
                ticks = ticks == 0 ? run : (ticks == run ? 0 : ticks)
                continue
            }
            guard ticks == 0 else { continue }
            switch character {
            case "\\": escaped = true
            case "[", "{": open.append(character)
            case "]": if open.popLast() != "[" { return false }
            case "}": if open.popLast() != "{" { return false }
            default: break
            }
        }
        return open.isEmpty && ticks == 0
    }

    /// Whether `line` is a pipe table's row written with its outer pipes.
    static func isPipeRow(_ line: Substring) -> Bool {
        let text = line.drop { $0 == " " }.reversed().drop { $0 == " " || $0 == "\r" }
        return text.first == "|" && line.drop { $0 == " " }.first == "|"
    }

    /// Whether `line` is a pipe table's delimiter row (`| --- | :-: |`).
    static func isDelimiterRow(_ line: Substring) -> Bool {
        let cells = line.split(separator: "|", omittingEmptySubsequences: true).map {
            $0.filter { $0 != " " && $0 != "\t" && $0 != "\r" }
        }.filter { !$0.isEmpty }
        return !cells.isEmpty
            && cells.allSatisfy { cell in
                let dashes = cell.drop { $0 == ":" }.reversed().drop { $0 == ":" }
                return !dashes.isEmpty && dashes.allSatisfy { $0 == "-" }
            }
    }

    /// Whether `text` has a line that one of the tables must have (dashes in two groups or
    /// more, of at least three each and nothing but spaces between, or a grid table's rule,
    /// `+` then `-`, `=` or `:` to a last `+`) or a caption's (`: `, `Table: `). One read of
    /// its bytes: a line is copied only when its first byte after its quote markers and indent
    /// may open one (`:`, `T`, `+` or `-`).
    static func mayHoldTables(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            var start = 0
            while start <= bytes.count {
                var end = start
                while end < bytes.count, bytes[end] != 0x0A { end += 1 }
                defer { start = end + 1 }
                var content = start
                while content < end, bytes[content] == 0x20 || bytes[content] == 0x09 || bytes[content] == 0x3E {
                    content += 1
                }
                guard content < end, ":T+-".utf8.contains(bytes[content]) else { continue }
                // Only a line's first bytes and whether the rest are dashes matter; a long line
                // keeps its start and is judged on it and its end.
                var line = Array(bytes[start..<min(end, start + 4_096)])
                if end - start > 4_096 { line[line.count - 1] = bytes[end - 1] }
                if mayOpenTable(inContainer: line[...]) { return true }
            }
            return false
        }
    }

    /// Whether `line` (without its line feed) may open a table or a caption after its quote
    /// markers and its indent, which a table in a quote or a list item has before it.
    static func mayOpenTable(inContainer line: ArraySlice<UInt8>) -> Bool {
        let content = line.firstIndex { $0 != 0x20 && $0 != 0x09 && $0 != UInt8(ascii: ">") } ?? line.endIndex
        return mayOpenTable(content == line.startIndex ? Array(line) : Array(line[content...]))
    }

    /// Whether `line` (without its line feed) is a dashed line of two groups or more, a grid
    /// rule, or opens a caption.
    static func mayOpenTable(_ line: [UInt8]) -> Bool {
        var start = 0
        while start < line.count, start < 4, line[start] == 0x20 { start += 1 }
        let text = line[start...].prefix { $0 != 0x0D }
        guard let first = text.first else { return false }
        if text.starts(with: ": ".utf8) || text.starts(with: "Table: ".utf8) { return true }
        if first == UInt8(ascii: "+") {
            let trimmed = text.reversed().drop { $0 == 0x20 }
            return text.count > 2 && "-=:".utf8.contains(text[text.startIndex + 1])
                && trimmed.first == UInt8(ascii: "+")
        }
        guard first == UInt8(ascii: "-") else { return false }
        var groups = 0
        var run = 0
        for byte in text {
            switch byte {
            case UInt8(ascii: "-"): run += 1
            case 0x20:
                if run >= 3 { groups += 1 } else if run > 0 { return false }
                run = 0
            default: return false
            }
        }
        if run >= 3 { groups += 1 } else if run > 0 { return false }
        return groups >= 2
    }

    /// The table that starts at `lines[start]`: its pipe table's lines, and how many lines of
    /// `lines` it took; nil when none starts there.
    static func table(in lines: [Substring], at start: Int, closings: Closings) -> (lines: [String], consumed: Int)? {
        let first = lines[start].drop { $0 == " " }
        if first.hasPrefix("+") { return gridTable(in: lines, at: start) }
        if let columns = dashGroups(lines[start]) {
            if columns.count == 1 { return multilineTable(in: lines, at: start, closings: closings) }
            return headerlessTable(in: lines, at: start, columns: columns, closings: closings)
        }
        guard start + 1 < lines.count, let columns = dashGroups(lines[start + 1]), columns.count >= 2 else {
            return nil
        }
        return simpleTable(in: lines, at: start, columns: columns)
    }

    /// The groups of dashes of a line that holds only dashes and spaces, at least three dashes
    /// in each group; nil for any other line.
    static func dashGroups(_ line: Substring) -> [Column]? {
        var columns: [Column] = []
        var column = 0
        var open: Int?
        for character in line where character != "\r" {
            switch character {
            case "-":
                if open == nil { open = column }
            case " ":
                if let started = open {
                    columns.append(Column(start: started, end: column))
                    open = nil
                }
            default:
                return nil
            }
            column += 1
        }
        if let started = open { columns.append(Column(start: started, end: column)) }
        guard !columns.isEmpty, columns.allSatisfy({ $0.end - $0.start >= 3 }) else { return nil }
        return columns
    }

    /// A simple table with a header: the header line, the dashed line under it, then one row a
    /// line to a blank line.
    static func simpleTable(in lines: [Substring], at start: Int, columns: [Column]) -> (
        lines: [String], consumed: Int
    )? {
        var end = start + 2
        while end < lines.count, !isBlank(lines[end]) { end += 1 }
        guard end > start + 2 else { return nil }
        let aligned = aligning(columns, header: [Cells(lines[start])])
        var output = [row(cells([Cells(lines[start])], columns: columns))]
        output.append(delimiterRow(aligned))
        for line in lines[(start + 2)..<end] {
            output.append(row(cells([Cells(line)], columns: columns)))
        }
        return (output, end - start)
    }

    /// A table opened by a dashed line of two groups or more: a headerless simple table (a
    /// row a line) or a headerless multiline table (rows apart by blank lines), closed by a
    /// dashed line and a blank line.
    static func headerlessTable(in lines: [Substring], at start: Int, columns: [Column], closings: Closings) -> (
        lines: [String], consumed: Int
    )? {
        guard let close = closings.rule(after: start, grouped: true) else { return nil }
        let body = lines[(start + 1)..<close]
        guard !body.isEmpty else { return nil }
        let aligned = aligning(columns, header: body.first.map { [Cells($0)] } ?? [])
        var output = [row(aligned.map { _ in "" }), delimiterRow(aligned)]
        let multiline = body.contains(where: isBlank)
        for group in multiline ? rowGroups(body) : body.map({ [$0] }) {
            output.append(row(cells(group.map(Cells.init), columns: columns)))
        }
        guard output.count > 2, output.count <= close - start + 1 else { return nil }
        return (output, close - start + 1)
    }

    /// A multiline table: a full-width dashed line, the header's lines, a dashed line of the
    /// columns, rows apart by blank lines, and a full-width dashed line.
    static func multilineTable(in lines: [Substring], at start: Int, closings: Closings) -> (
        lines: [String], consumed: Int
    )? {
        var separator = start + 1
        while separator < lines.count, !isBlank(lines[separator]), dashGroups(lines[separator]) == nil {
            separator += 1
        }
        guard separator > start + 1, separator < lines.count, let columns = dashGroups(lines[separator]),
            columns.count >= 2, let close = closings.rule(after: separator, grouped: false)
        else { return nil }
        let header = lines[(start + 1)..<separator].map(Cells.init)
        let aligned = aligning(columns, header: header)
        var output = [row(cells(header, columns: columns)), delimiterRow(aligned)]
        for group in rowGroups(lines[(separator + 1)..<close]) {
            output.append(row(cells(group.map(Cells.init), columns: columns)))
        }
        guard output.count > 2, output.count <= close - start + 1 else { return nil }
        return (output, close - start + 1)
    }

    /// A grid table: `+---+---+` rules, `| a | b |` lines between them, `+===+` under the
    /// header; `:` in a rule aligns its column. Nil when a line's `|` and `+` are not all at
    /// the columns of the first rule (cells that span).
    static func gridTable(in lines: [Substring], at start: Int) -> (lines: [String], consumed: Int)? {
        let top = Cells(lines[start])
        let boundaries = top.scalars.filter { $0.scalar == "+" }.map(\.column)
        guard boundaries.count >= 2, isGridRule(top, boundaries: boundaries) else { return nil }
        var rows: [[Cells]] = []
        var pending: [Cells] = []
        var headerRows: Int?
        var alignmentRule = top
        var end = start + 1
        while end < lines.count {
            let cells = Cells(lines[end])
            if isGridRule(cells, boundaries: boundaries) {
                if !pending.isEmpty { rows.append(pending) }
                pending = []
                if cells.scalars.contains(where: { $0.scalar == "=" }) {
                    guard headerRows == nil else { return nil }
                    headerRows = rows.count
                    alignmentRule = cells
                }
                end += 1
                if end == lines.count || isBlank(lines[end]) { break }
                continue
            }
            guard cells.width > 0, boundaries.allSatisfy({ cells.scalar(at: $0) == "|" }) else { return nil }
            pending.append(cells)
            end += 1
        }
        guard pending.isEmpty, !rows.isEmpty, isGridRule(Cells(lines[end - 1]), boundaries: boundaries) else {
            return nil
        }
        var columns: [Column] = []
        for (left, right) in zip(boundaries, boundaries.dropFirst()) {
            var column = Column(start: left + 1, end: right)
            let colonLeft = alignmentRule.scalar(at: left + 1) == ":"
            let colonRight = alignmentRule.scalar(at: right - 1) == ":"
            column.delimiter = colonLeft && colonRight ? ":-:" : colonLeft ? ":--" : colonRight ? "--:" : "---"
            columns.append(column)
        }
        var output: [String] = []
        let header = headerRows ?? 0
        if header == 0 {
            output.append(row(columns.map { _ in "" }))
        } else {
            // Pandoc's header may take several rows: they are joined as one.
            output.append(row(cells(rows[0..<header].flatMap { $0 }, columns: columns, bounded: true)))
        }
        output.append(delimiterRow(columns))
        for group in rows[header...] { output.append(row(cells(group, columns: columns, bounded: true))) }
        guard output.count <= end - start else { return nil }
        return (output, end - start)
    }

    /// Whether `line` is a grid table's rule: `+` at every boundary, and between them only `-`,
    /// `=` or `:`.
    static func isGridRule(_ line: Cells, boundaries: [Int]) -> Bool {
        guard line.width == boundaries.last! + 1 else { return false }
        var next = 0
        for (scalar, column) in line.scalars {
            if next < boundaries.count, boundaries[next] == column {
                guard scalar == "+" else { return false }
                next += 1
            } else if !(scalar == "-" || scalar == "=" || scalar == ":") {
                return false
            }
        }
        return next == boundaries.count
    }

    /// Where the dashed lines that may close a table are: for each line, the first at or after
    /// it of two groups or more, of one group, and the first of two blank lines in a row
    /// (which end any table), found in one pass from the text's end, so that looking for a
    /// table's end costs nothing however many lines open none.
    struct Closings {
        private var grouped: [Int]
        private var single: [Int]
        private var doubleBlank: [Int]

        init(_ lines: [Substring]) {
            let count = lines.count
            grouped = Array(repeating: count, count: count + 1)
            single = grouped
            doubleBlank = grouped
            var nextBlank = false
            for index in stride(from: count - 1, through: 0, by: -1) {
                let blank = isBlank(lines[index])
                let closes = index + 1 == count || nextBlank
                let groups = closes && !blank ? dashGroups(lines[index])?.count ?? 0 : 0
                grouped[index] = groups >= 2 ? index : grouped[index + 1]
                single[index] = groups == 1 ? index : single[index + 1]
                doubleBlank[index] = blank && nextBlank ? index : doubleBlank[index + 1]
                nextBlank = blank
            }
        }

        /// The dashed line after `start` that closes a table (followed by a blank line or the
        /// text's end), of two groups or more when `grouped`, else of one; nil when none comes
        /// before two blank lines in a row.
        func rule(after start: Int, grouped wanted: Bool) -> Int? {
            guard start + 1 < grouped.count else { return nil }
            let found = wanted ? grouped[start + 1] : single[start + 1]
            return found < doubleBlank[start + 1] && found < grouped.count - 1 ? found : nil
        }
    }

    /// The rows of a multiline table's body: its lines between blank lines.
    static func rowGroups(_ lines: ArraySlice<Substring>) -> [[Substring]] {
        var groups: [[Substring]] = []
        var current: [Substring] = []
        for line in lines {
            if isBlank(line) {
                if !current.isEmpty { groups.append(current) }
                current = []
            } else {
                current.append(line)
            }
        }
        if !current.isEmpty { groups.append(current) }
        return groups
    }

    /// Each column's cell of a row written on `lines`: a column runs from its dashes' start to
    /// the next column's (the first from the line's start, the last to its end), each line's
    /// part trimmed and joined by a space.
    /// With `bounded`, a column runs from its start to its end (a grid table's, between its
    /// `|`).
    static func cells(_ lines: [Cells], columns: [Column], bounded: Bool = false) -> [String] {
        columns.indices.map { index in
            let from = index == 0 && !bounded ? 0 : columns[index].start
            let to = bounded ? columns[index].end : index + 1 < columns.count ? columns[index + 1].start : nil
            return lines.map { $0.text(from: from, to: to) }.filter { !$0.isEmpty }.joined(separator: " ")
        }
    }

    /// The columns aligned as Pandoc aligns them from the header's text (each line's part from
    /// the column's dashes to the next column's): starting at the dashes and ending before
    /// their end, left; starting after their start and reaching their end, right; inside them
    /// at both ends, centred; flush with both, or wider, the default.
    static func aligning(_ columns: [Column], header: [Cells]) -> [Column] {
        columns.indices.map { index in
            var column = columns[index]
            let to = index + 1 < columns.count ? columns[index + 1].start : Int.max
            let extents = header.compactMap { $0.inked(from: column.start, to: to) }
            guard let start = extents.map(\.start).min(), let end = extents.map(\.end).max() else { return column }
            let leftSpace = start > column.start
            let rightSpace = end < column.end
            column.delimiter =
                switch (leftSpace, rightSpace) {
                case (true, false): "--:"
                case (false, true): ":--"
                case (true, true): ":-:"
                case (false, false): "---"
                }
            return column
        }
    }

    static func row(_ cells: [String]) -> String {
        "| " + cells.map(escapingPipes).joined(separator: " | ") + " |"
    }

    static func delimiterRow(_ columns: [Column]) -> String {
        "| " + columns.map(\.delimiter).joined(separator: " | ") + " |"
    }

    /// `text` with each `|` not already escaped written `\|`, which a pipe table's cell holds.
    static func escapingPipes(_ text: String) -> String {
        guard text.contains("|") else { return text }
        var result = ""
        var escaped = false
        for character in text {
            if character == "|", !escaped { result.append("\\") }
            escaped = character == "\\" && !escaped
            result.append(character)
        }
        return result
    }

    static func isBlank(_ line: Substring) -> Bool {
        line.allSatisfy { $0 == " " || $0 == "\t" || $0 == "\r" }
    }
}
