extension MathParser {
    /// The rows of an environment: cells and the extra space asked after each row (`\\[4pt]`).
    struct Rows {
        var rows: [[[MathNode]]] = []
        var extraSpace: [Double] = []
        /// `\hline` and `\cline` at the start of a row (or after the last).
        var rules: [MathRowRule] = []
        /// The rows of text between rows (`\intertext{…}`), by index.
        var textRows: Set<Int> = []
        /// The numbering commands of each row of a numbered environment, by index.
        var numbering: [Int: NumberingScope] = [:]
        /// The rows amsmath's `\shoveleft{…}` or `\shoveright{…}` sets flush left or right in a
        /// `multline`, by index.
        var shoves: [Int: MathColumnAlignment] = [:]
    }

    /// What the `\tag`, `\label`, `\notag` and `\nonumber` read in a scope say: the formula's,
    /// or one row's in an environment numbered by row.
    struct NumberingScope {
        var tag: String?
        var rawTag: String?
        var tagCount = 0
        var labelKeys: [String] = []
        var tagsBeforeLabel: [Int] = []
        var suppressed = false
    }

    /// The numbering commands read since the scope began, leaving an empty scope.
    mutating func takeNumberingScope() -> NumberingScope {
        let scope = NumberingScope(
            tag: tag, rawTag: rawTag, tagCount: tagCount, labelKeys: labelKeys, tagsBeforeLabel: tagsBeforeLabel,
            suppressed: numberSuppressed)
        restoreNumberingScope(NumberingScope())
        return scope
    }

    /// Makes `scope` the one numbering commands are read into.
    mutating func restoreNumberingScope(_ scope: NumberingScope) {
        tag = scope.tag
        rawTag = scope.rawTag
        tagCount = scope.tagCount
        labelKeys = scope.labelKeys
        tagsBeforeLabel = scope.tagsBeforeLabel
        numberSuppressed = scope.suppressed
    }

    /// amsmath's environments numbered by row: each row takes a number unless it has `\notag`
    /// or `\nonumber` (a starred one: none), and a row's `\tag` stands in for its number.
    static let rowNumberedEnvironments: Set<String> = [
        "align", "align*", "gather", "gather*", "alignat", "alignat*", "flalign", "flalign*", "eqnarray", "eqnarray*",
    ]

    /// amsmath's environments numbered as a whole: one number (a starred one: none).
    static let wholeNumberedEnvironments: Set<String> = ["equation", "equation*", "multline", "multline*"]

    /// What a numbered scope shows: its `\tag`, else, when it `counts`, is not `\notag`ged and
    /// the document numbers equations, the next number (`(3)`); nil: nothing. The scope's
    /// labels then name it as `\ref` prints it (``numberedLabels``).
    mutating func numberLabel(_ scope: NumberingScope, counts: Bool) -> (written: String, raw: String)? {
        var shown: (written: String, raw: String)?
        if let tag = scope.tag, let raw = scope.rawTag {
            shown = (tag, raw)
        } else if counts, !scope.suppressed, let firstNumber {
            let number = String(firstNumber + numbersUsed)
            numbersUsed += 1
            shown = ("(\(number))", number)
        }
        guard let shown else { return nil }
        for (key, tags) in zip(scope.labelKeys, scope.tagsBeforeLabel) where tags <= 1 {
            numberedLabels[key] = shown.raw
        }
        return shown
    }

    /// Numbers the numbered environment `name` just read (its `rows`), its numbering commands
    /// read into their scopes, and makes `outer` the scope again: a row-numbered environment's
    /// rows each take their label (``rowTags``), a `multline` its one label on its last row,
    /// an `equation` its one label as the formula's ``tag``, beside the formula (with a `split`
    /// inside, centred on its rows, as amsmath's default `centertags` places it).
    mutating func numberEnvironment(_ name: String, rows: Rows, outer: NumberingScope, start: Int) {
        let counts = !name.hasSuffix("*")
        if Self.rowNumberedEnvironments.contains(name) {
            restoreNumberingScope(outer)
            rowTags = rows.rows.indices.map { row in
                guard !rows.textRows.contains(row), let scope = rows.numbering[row] else { return nil }
                return numberLabel(scope, counts: counts)?.written
            }
            // No row labelled (an `align*`): nothing to set beside the rows.
            if rowTags.allSatisfy({ $0 == nil }) { rowTags = [] }
            return
        }
        let scope = takeNumberingScope()
        restoreNumberingScope(outer)
        guard let shown = numberLabel(scope, counts: counts) else { return }
        if name.hasPrefix("multline") {
            rowTags = Array(repeating: nil, count: max(0, rows.rows.count - 1)) + [shown.written]
        } else if let tag {
            problem("a formula takes one \\tag: '\(shown.written)' is not set beside '\(tag)'", at: start)
        } else {
            tag = shown.written
            rawTag = shown.raw
            tagCount += 1
        }
    }

    /// amsmath's `\intertext{…}` and mathtools' `\shortintertext{…}` at the start of a row: its
    /// text as a row of its own, outside the columns (amsmath sets it flush left between the
    /// aligned rows, which keep their alignment across it).
    mutating func readInterText(into rows: inout Rows) {
        while true {
            skipSpaces()
            guard let name = peekCommand(), name == "intertext" || name == "shortintertext" else { return }
            let start = position
            _ = readCommand()
            rows.textRows.insert(rows.rows.count)
            rows.rows.append([textNodes(readRawArgument(), face: .regular, at: start)])
            rows.extraSpace.append(0)
        }
    }

    /// A cell written in text mode (`cases*`' second column): its raw text up to the next `&`,
    /// `\\` or `\end` outside braces, set as `\text` sets its argument.
    mutating func parseTextCell() -> [MathNode] {
        let start = position
        let raw = readBalanced(toCellEnd: true).trimmingSpaces
        return textNodes(raw, face: .regular, at: start)
    }

    /// Reads the `\hline`, `\hdashline` and `\cline{a-b}` at the start of row `row`.
    mutating func readRowRules(before row: Int, into rules: inout [MathRowRule]) {
        while true {
            skipSpaces()
            guard let name = peekCommand(), ["hline", "hdashline", "cline"].contains(name) else { return }
            _ = readCommand()
            guard name == "cline" else {
                rules.append(MathRowRule(boundary: row))
                continue
            }
            let span = readRawArgument().split(separator: "-").compactMap { Int($0.trimmingSpaces) }
            if span.count == 2, span[0] >= 1, span[0] <= span[1] {
                rules.append(MathRowRule(boundary: row, columns: span[0]...span[1]))
            }
        }
    }

    /// Reads cells separated by `&` and rows separated by `\\` until `\end{name}` (or the end of
    /// the source when `name` is nil; the closing brace of the group when `group`, as in
    /// `\substack{…}`), starting with a cell already read. `begin`: where the environment's `\begin`
    /// is, where a missing `\end` is said.
    /// `numbersRows`: each row's numbering commands are read into a scope of its own
    /// (``Rows/numbering``).
    mutating func parseRows(
        firstCell: [MathNode]?, until name: String?, begin: Int? = nil, group: Bool = false, textColumn: Int? = nil,
        numbersRows: Bool = false
    ) -> Rows {
        let cellStop: Stop = group ? .groupCell : .cell
        var rows = Rows()
        var row: [[MathNode]] = []
        if firstCell == nil {
            readRowRules(before: 0, into: &rows.rules)
            readInterText(into: &rows)
        }
        var cell = firstCell ?? parseList(stop: cellStop)
        while true {
            row.append(cell)
            skipSpaces()
            if current == "&" {
                position += 1
                cell = row.count == textColumn ? parseTextCell() : parseList(stop: cellStop)
                continue
            }
            // `\intertext` ends its row as amsmath's does, a `\\` before it or not.
            let interText = ["intertext", "shortintertext"].contains(peekCommand() ?? "")
            if atRowSeparator || interText {
                if let shove = pendingShove { rows.shoves[rows.rows.count] = shove }
                pendingShove = nil
                if !interText { position += 2 }
                // `\\*`: a row end where no page may turn, which a formula never does.
                if !interText, current == "*" { position += 1 }
                rows.rows.append(row)
                if numbersRows { rows.numbering[rows.rows.count - 1] = takeNumberingScope() }
                rows.extraSpace.append(interText ? 0 : readOptionalRaw().map(Self.emLength) ?? 0)
                row = []
                readRowRules(before: rows.rows.count, into: &rows.rules)
                readInterText(into: &rows)
                cell = parseList(stop: cellStop)
                continue
            }
            break
        }
        // A last row left empty by a closing `\\` is not a row.
        let empty = row.count == 1 && row[0].isEmpty
        let lastScope = numbersRows ? takeNumberingScope() : nil
        if let shove = pendingShove, !empty { rows.shoves[rows.rows.count] = shove }
        pendingShove = nil
        if !empty || rows.rows.isEmpty {
            rows.rows.append(row)
            if let lastScope { rows.numbering[rows.rows.count - 1] = lastScope }
        }
        if let name {
            let start = position
            if peekCommand() == "end" {
                _ = readCommand()
                let closing = readRawArgument()
                if closing != name { problem("\\begin{\(name)} ended by \\end{\(closing)}", at: start) }
            } else {
                // Said at the `\begin` that is never ended (`begin`), else where the end was due.
                problem("\\begin{\(name)} without \\end", at: begin ?? start)
            }
        }
        return rows
    }

    /// A length written as TeX writes it (`4pt`, `0.5em`, `1ex`, `3mu`) in em, taking 1 em as
    /// 10 pt (LaTeX's default size) for absolute units; a number with no unit is pt.
    static func emLength(_ text: String) -> Double {
        let trimmed = text.trimmingSpaces
        let number = trimmed.prefix { $0.isNumber || $0 == "." || $0 == "-" }
        guard let value = Double(number) else { return 0 }
        return emAmount(value, unit: trimmed.dropFirst(number.count).trimmingSpaces) ?? value / 10
    }

    /// `value` in TeX's `unit` as em, taking 1 em as 10 pt (LaTeX's default size) for the
    /// absolute units (The TeXbook, chapter 10); nil for a unit TeX does not have.
    static func emAmount(_ value: Double, unit: String) -> Double? {
        switch unit {
        case "em": value
        case "ex": value * 0.43
        case "mu": value / 18
        case "pt": value / 10
        case "pc": value * 1.2
        case "bp": value * 72.27 / 72 / 10
        case "mm": value * 72.27 / 25.4 / 10
        case "cm": value * 72.27 / 2.54 / 10
        case "in": value * 7.227
        case "dd": value * 1238 / 1157 / 10
        case "cc": value * 12 * 1238 / 1157 / 10
        case "sp": value / 65536 / 10
        default: nil
        }
    }

    /// Begins each right-hand (even) column of `rows` with an empty group, as amsmath does in
    /// its alignments, so that `&= b` spaces the relation as in `{} = b`; text rows stay.
    static func openRightColumnsWithEmptyGroups(_ rows: inout Rows) {
        let textRows = rows.textRows
        rows.rows = rows.rows.enumerated().map { rowIndex, row in
            textRows.contains(rowIndex)
                ? row
                : row.enumerated().map { index, cell in
                    index % 2 == 1 ? [.atom(MathAtom(.ord, .list([])))] + cell : cell
                }
        }
    }

    /// `\begin{name} … \end{name}` (the `\begin` already read).
    /// An `equation`, `equation*` or `displaymath` that is the formula's own (not inside
    /// braces or another environment) and holds one row of one cell gives that cell's nodes, so
    /// that the display may break after its relations and operators as `$$…$$` does
    /// (``MathFormula/breakIndices``); any other environment is one node.
    mutating func parseEnvironment(start: Int) -> [MathNode] {
        let name = readRawArgument()
        let anchor = Self.positionedEnvironments.contains(name) ? readPosition() : .axis
        var columnSpec: String?
        if name == "array" || name == "subarray" || name == "alignat" || name == "alignat*" || name == "alignedat" {
            columnSpec = readRawArgument()
        }
        // mathtools' starred matrices take their columns' alignment: `\begin{pmatrix*}[r]`.
        let starredMatrix = name.hasSuffix("*") && Self.matrices.contains(String(name.dropLast()))
        if starredMatrix { columnSpec = readOptionalRaw() }
        guard Self.environments.contains(name) else {
            problem("unknown math environment \(name)", at: start)
            let rows = parseRows(firstCell: nil, until: name, begin: start)
            let nucleus = Self.environmentNucleus("matrix", rows: rows)!
            // Drawn as written: its `\begin`, its rows, its `\end`, the commands in the error colour.
            return [
                .atom(
                    MathAtom(
                        .ord,
                        .list([
                            .atom(MathAtom(.ord, .error("\\begin{\(name)}"))), .atom(MathAtom(.ord, nucleus)),
                            .atom(MathAtom(.ord, .error("\\end{\(name)}"))),
                        ])))
            ]
        }
        // Numbered only at the formula's top level, and not inside another numbered one.
        let numbered =
            Self.rowNumberedEnvironments.contains(name) || Self.wholeNumberedEnvironments.contains(name)
        let numbers = numbered && numberedEnvironment == nil && depth == 1 && expansionDepth == 0
        let outer = numbers ? takeNumberingScope() : NumberingScope()
        if numbers { numberedEnvironment = name }
        let ownEquation = ["equation", "equation*", "displaymath"].contains(name) && depth == 1 && expansionDepth == 0
        if ownEquation { cellOffsets = [] }
        var rows = parseRows(
            firstCell: nil, until: name, begin: start, textColumn: name.hasSuffix("cases*") ? 1 : nil,
            numbersRows: numbers && Self.rowNumberedEnvironments.contains(name))
        let readCellOffsets = cellOffsets
        if ownEquation { cellOffsets = nil }
        if numbers {
            numberedEnvironment = nil
            numberEnvironment(name, rows: rows, outer: outer, start: start)
        }
        if Self.alignmentEnvironments.contains(name) { Self.openRightColumnsWithEmptyGroups(&rows) }
        if ownEquation, rows.rows.count == 1, rows.rows[0].count == 1, rows.rules.isEmpty {
            givenCellOffsets = readCellOffsets
            return rows.rows[0][0]
        }
        var nucleus = Self.environmentNucleus(starredMatrix ? String(name.dropLast()) : name, rows: rows)!
        if name == "array" || name == "subarray" || starredMatrix, let columnSpec,
            case .array(var array, let left, let right) = nucleus
        {
            let spec = Self.columnSpec(columnSpec)
            if !spec.alignments.isEmpty { array.alignments = spec.alignments }
            array.verticalRules = spec.rules
            if name == "array" { setColumnMaterial(spec.material, columns: spec.alignments.count, of: &array) }
            nucleus = .array(array, left: left, right: right)
        }
        if anchor != .axis, case .array(var array, let left, let right) = nucleus {
            array.anchor = anchor
            nucleus = .array(array, left: left, right: right)
        }
        return [.atom(MathAtom(.ord, nucleus))]
    }

    /// The environments that take a position argument before their own (`\begin{aligned}[t]`,
    /// `\begin{array}[b]{cc}`), as amsmath's and LaTeX's do.
    static let positionedEnvironments: Set<String> = ["aligned", "alignedat", "gathered", "array"]

    /// The position argument `[t]`, `[c]` or `[b]` when one follows (read, else left unread:
    /// `\begin{aligned}[a, b] …` opens with an interval, not a position).
    mutating func readPosition() -> MathArrayAnchor {
        let start = position
        let anchor: MathArrayAnchor? =
            switch readOptionalRaw()?.trimmingSpaces {
            case "t": .firstRow
            case "b": .lastRow
            case "c": .axis
            default: nil
            }
        guard let anchor else {
            position = start
            return .axis
        }
        return anchor
    }

    /// An `array`'s column spec: `l`, `c`, `r` (and `p{…}`, `m{…}`, `b{…}` set as `l`) the
    /// columns, `|` a rule at the boundary it stands at, `@{…}` material set at its boundary
    /// in place of the space there (by boundary: 0 before the first column, n after the nth);
    /// `!{…}` and `*{n}{…}` are skipped.
    static func columnSpec(_ spec: String) -> (
        alignments: [MathColumnAlignment], rules: Set<Int>, material: [Int: String]
    ) {
        var alignments: [MathColumnAlignment] = []
        var rules: Set<Int> = []
        var material: [Int: String] = [:]
        var braces = 0
        // The boundary whose `@{…}` is being read, and what it holds so far.
        var reading: (boundary: Int, text: String)?
        var afterAt = false
        for character in spec {
            if character == "{" {
                braces += 1
                if braces == 1, afterAt {
                    reading = (alignments.count, "")
                    afterAt = false
                    continue
                }
            }
            if character == "}" {
                braces = max(0, braces - 1)
                if braces == 0, let done = reading {
                    material[done.boundary, default: ""] += done.text
                    reading = nil
                    continue
                }
            }
            if reading != nil {
                reading?.text.append(character)
                continue
            }
            guard braces == 0 else { continue }
            afterAt = character == "@"
            switch character {
            case "l", "p", "m", "b": alignments.append(.left)
            case "c": alignments.append(.center)
            case "r": alignments.append(.right)
            case "|": rules.insert(alignments.count)
            default: break
            }
        }
        return (alignments, rules, material)
    }

    /// Sets an `array`'s outer space and its `@{…}` material (``columnSpec(_:)``), as LaTeX
    /// does: half a column's space (`\arraycolsep`) before the first column and after the last
    /// (``MathArray/spaceBefore``);
    /// `@{…}` at a boundary replaces the space there (half a column's at an edge, the column
    /// space between two columns) with what it holds, set in the cells beside it: after the
    /// cells of the column before it, or at an edge before the first column's.
    mutating func setColumnMaterial(_ material: [Int: String], columns: Int, of array: inout MathArray) {
        guard columns > 0 else { return }
        var gaps = (0..<max(0, columns - 1)).map { array.columnGaps[min($0, array.columnGaps.count - 1)] }
        let edge = (array.columnGaps.first ?? 1) / 2
        array.spaceBefore = material[0] == nil ? edge : 0
        array.spaceAfter = material[columns] == nil ? edge : 0
        let before = material[0].map { parsedMaterial($0) } ?? []
        var after: [[MathNode]] = Array(repeating: [], count: columns)
        for (boundary, text) in material.sorted(by: { $0.key < $1.key }) where boundary > 0 {
            let column = min(boundary, columns) - 1
            after[column] += parsedMaterial(text)
            if boundary < columns { gaps[boundary - 1] = 0 }
        }
        for rowIndex in array.rows.indices where !array.textRows.contains(rowIndex) {
            for column in array.rows[rowIndex].indices where column < columns {
                if column == 0 { array.rows[rowIndex][column] = before + array.rows[rowIndex][column] }
                array.rows[rowIndex][column] += after[column]
            }
        }
        array.columnGaps = gaps.isEmpty ? array.columnGaps : gaps + [gaps.last!]
    }

    /// The nodes of `@{…}` material, read with the formula's macros.
    private mutating func parsedMaterial(_ text: String) -> [MathNode] {
        var parser = MathParser(text)
        parser.macros = macros
        parser.display = display
        return parser.parseList(stop: .end)
    }

    static let alignmentEnvironments: Set<String> = [
        "aligned", "align", "align*", "alignat", "alignat*", "alignedat", "split", "flalign", "flalign*", "eqnarray",
        "eqnarray*",
    ]

    static let matrices: Set<String> = ["matrix", "pmatrix", "bmatrix", "Bmatrix", "vmatrix", "Vmatrix", "smallmatrix"]

    static let environments: Set<String> = alignmentEnvironments.union(matrices).union(matrices.map { $0 + "*" })
        .union([
            "cases", "dcases", "rcases", "cases*", "dcases*", "gathered", "gather", "gather*", "array", "equation",
            "equation*", "displaymath", "multline", "multline*", "subarray",
        ])

    /// The nucleus an environment of `name` makes from its rows (amsmath's definitions: a
    /// matrix's columns are centred 2 × `\arraycolsep` = 1 em apart, `cases` has two columns
    /// flush left a `\quad` apart inside a brace, alignments pair right- and left-aligned columns
    /// with rows `\jot` (0.3 em) apart, in display style).
    static func environmentNucleus(_ name: String, rows: Rows) -> MathNucleus? {
        let delimiters: [String: (MathDelimiter, MathDelimiter)] = [
            "pmatrix": ("(", ")"), "bmatrix": ("[", "]"), "Bmatrix": ("{", "}"), "vmatrix": ("|", "|"),
            "Vmatrix": ("\u{2016}", "\u{2016}"), "cases": ("{", nil), "dcases": ("{", nil), "rcases": (nil, "}"),
            "cases*": ("{", nil), "dcases*": ("{", nil),
        ]
        let (left, right) = delimiters[name] ?? (nil, nil)
        var array = MathArray(rows: rows.rows, alignments: [.center], columnGaps: [1], extraRowSpace: rows.extraSpace)
        array.horizontalRules = rows.rules
        array.textRows = rows.textRows
        switch name {
        case _ where alignmentEnvironments.contains(name):
            array.alignments = [.right, .left]
            // `alignat` sets its pairs with no space between them: the author writes it (`\quad`).
            array.columnGaps = name.hasPrefix("alignat") || name == "alignedat" ? [0, 0] : [0, 2]
            array.rowGap = 0.3
            array.cellStyle = .display
        case "cases", "dcases", "rcases", "cases*", "dcases*":
            array.alignments = [.left]
            array.columnGaps = [1]
            array.cellStyle = name.hasPrefix("dcases") ? .display : .text
            array.stretch = 1.2
        case "gathered", "gather", "gather*", "equation", "equation*", "displaymath", "multline", "multline*":
            array.rowGap = 0.3
            array.cellStyle = .display
            if name.hasPrefix("multline"), rows.rows.count > 1 {
                // amsmath: the first line flush left, the last flush right, the others centred
                // but where `\shoveleft` or `\shoveright` moves one.
                array.rowAlignments = [.left] + Array(repeating: .center, count: rows.rows.count - 2) + [.right]
                for (row, shove) in rows.shoves where row > 0 && row < rows.rows.count - 1 {
                    array.rowAlignments[row] = shove
                }
            }
        case "smallmatrix", "subarray":
            array.columnGaps = [0.333]
            array.cellStyle = .script
        default:
            break
        }
        return .array(array, left: left, right: right)
    }
}

extension StringProtocol {
    /// The text without the spaces (U+0020 characters) at its ends.
    var trimmingSpaces: String {
        // A character equal to a space is the one byte 0x20, so text whose first and last bytes
        // are others (most of it) has none to trim: kept as it is, with no walk by character.
        let text = String(self)
        if text.utf8.first != 0x20, text.utf8.last != 0x20 { return text }
        return String(text.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
