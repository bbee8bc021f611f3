import DocumentModel
import Styling
import Typography

/// GFM tables: column widths from content and the measure, rows as unbreakable items (a row
/// taller than a page is split where the page ends, each cell at a line boundary:
/// ``RowFragments``), the header row repeated at the top of every continued page,
/// booktabs-style rules.
struct TableLayout {
    let shaper: TextShaper
    let options: LayoutOptions
    /// The table's indent from the text area's left (inside a list or quote), pt.
    var indent = 0.0
    /// Cells already measured and shaped, for the equal cells that follow (see ``CellMemory``).
    let memory = CellMemory()

    var left: Double { options.page.margins.left + indent }

    /// A column's content widths, pt, padding and slack included: `minimum` is its widest
    /// unbreakable word (CSS min-content), `maximum` its widest unwrapped cell (max-content).
    struct ColumnBounds: Equatable {
        var minimum: Double
        var maximum: Double
    }

    /// The table's items, all at once (see ``layOut(_:path:emit:)``).
    func items(for table: StyledTable, path: [StructureElement]) -> [Item] {
        var items: [Item] = []
        layOut(table, path: path) { items.append($0) }
        return items
    }

    /// Lays the table out and hands its items to `emit` in order: the header row first, then
    /// each body row as soon as it is made (a row taller than a page carries its lines by
    /// cell, ``Item/fragments``, for the paginator to split where a page ends). Column widths
    /// come from one measuring pass over every cell that keeps only numbers per column; each
    /// row is then shaped, handed on and forgotten, so memory does not grow with the number
    /// of rows.
    ///
    /// A table too wide to set legibly (``fit(_:columns:available:)``) is set smaller, down to
    /// its ``StyledTable/smallestTextSize``, and when still too wide, its columns are split
    /// into parts set one after another, each repeating the first column and labelled
    /// (``partLabel(_:of:columns:)``); the first item then carries what was done
    /// (``Item/tableFit``) for the warning.
    ///
    /// `path` ends in the table's `Table` element: rows are marked `TR`, header cells `TH`,
    /// others `TD`, part labels `Caption`, rules are artifacts.
    /// - Throws: what `emit` throws.
    func layOut(_ table: StyledTable, path: [StructureElement], emit: (Item) throws -> Void) rethrows {
        let columns = max(table.header.count, table.rows.columnCount)
        guard columns > 0 else { return }
        // The measuring pass may keep the first rows' shaped cells for drawing them.
        defer { shaper.forgetKeptLayouts() }
        let available = options.page.measure - indent
        let fit = fit(table, columns: columns, available: available)
        let split = fit.parts.count > 1
        // A table with no header row (an HTML table without `<th>`) sets its top rule alone.
        let hasHeader = table.header.contains { !$0.runs.isEmpty }
        for number in fit.parts.indices {
            var first = true
            // Each part of columns is a `Table` of its own, its label its caption: a table's
            // rows have one number of columns, and it has at most one caption, first or last
            // (PDF/UA-1 ISO 14289-1 §7.5; PDF 1.7 §14.8.4.3.4).
            var partPath = path
            if number > 0, let leaf = path.last, leaf.role == .table {
                partPath[partPath.count - 1] = StructureElement(.table, id: leaf.id, index: number)
            }
            try layOutPart(
                table, fit: fit, partNumber: number, hasHeader: hasHeader, path: partPath, available: available
            ) { item in
                var item = item
                if first, number == 0, fit.scale < 1 || split {
                    item.tableFit = TableFit.Notice(
                        columns: columns, naturalSize: fit.naturalSize,
                        size: fit.naturalSize * fit.scale, parts: fit.parts.count,
                        measure: available)
                }
                first = false
                try emit(item)
            }
        }
    }

    /// Part `partNumber` of `table` as `fit` sets it (its columns ``TableFit/parts``, their
    /// ``TableFit/bounds`` at ``TableFit/scale``), laid out as one table (labelled when there are
    /// several parts); `hasHeader` tells whether any header cell holds text. Only the part's
    /// cells of each row are read and shaped, so a table of many columns split into many parts
    /// costs its cells once, not its rows once a part.
    func layOutPart(
        _ table: StyledTable, fit: TableFit, partNumber: Int, hasHeader: Bool, path: [StructureElement],
        available: Double, emit: (Item) throws -> Void
    ) rethrows {
        let (part, scale) = (fit.parts[partNumber], fit.scale)
        let bounds = part.map { fit.bounds[$0] }
        let pad = table.cellPadding
        let columns = part.count
        let totalColumns = max(table.header.count, table.rows.columnCount)
        /// The part's cells, at `scale`, of a row of `count` cells whose cell `j` is `cell(j)`.
        func cells(count: Int, _ cell: (Int) -> StyledParagraph) -> [StyledParagraph] {
            // A row shorter than the table has empty cells at its end.
            part.map { column in
                guard column < count else {
                    return StyledParagraph(runs: [], style: (count > 0 ? cell(0) : table.header[0]).style)
                }
                return TableLayout.scaled(cell(column), by: scale)
            }
        }
        // When the minimum widths overflow the measure, side padding gives way first, but only
        // down to half of it: adjacent columns' text keeps a gap of at least the padding. Then
        // the words give way (the content part of each minimum is squeezed into what the
        // padding leaves, and a word wider than its cell is broken by the paragraph composer:
        // after its own hyphen, else at hyphenation points, else between letters: see
        // `ParagraphComposer.itemsAndBreaks`), as in CSS 2.1, where padding is never squeezed
        // (§17.5.2.2), and LaTeX's tabularx, which keeps `\tabcolsep`: words up to
        // ``legibleWordEms`` ems keep their width where the columns' sum allows, longer ones
        // share what is left. Only when even that padding would not leave each column room for
        // a letter (about an em; dozens of columns) does it shrink further, the same in every
        // column.
        let sumMin = bounds.reduce(0) { $0 + $1.minimum }
        let em = fit.naturalSize * scale
        var sidePad = pad
        if sumMin > available {
            let least = TableLayout.sidePadding(
                pad / 2, content: bounds.map { min(em, max(0, $0.minimum - 2 * pad)) }, available: available)
            sidePad = max(least, pad - (sumMin - available) / (2 * Double(columns)))
        }
        let cut = 2 * (pad - sidePad)
        let widths = TableLayout.columnWidths(
            minimum: bounds.map { $0.minimum - cut }, maximum: bounds.map { $0.maximum - cut },
            available: available, padding: sidePad,
            legibleWord: TableLayout.legibleWordEms * em)
        let hpad = [Double](repeating: sidePad, count: columns)
        let tableWidth = widths.reduce(0, +)
        let strong = 0.8
        let thin = 0.4
        var headerLines: [LineBand] = []
        let id = path.last?.id ?? 0
        let rowCount = table.rows.count
        // Each part's rows and cells are elements of their own in the part's `Table`.
        let firstRow = partNumber * (rowCount + 1)
        func rowPath(_ row: Int) -> [StructureElement] {
            path + [StructureElement(.tableRow, id: id, index: firstRow + row)]
        }
        let captioned = try emitCaption(
            of: table, partNumber: partNumber, columns: part, totalColumns: totalColumns, scale: scale,
            width: tableWidth, available: available, path: path, emit: emit)
        let textHeight = options.page.textHeight
        // A table with no header row sets its top rule alone, kept with the first row: no empty
        // band stands for a header, and none repeats.
        var header =
            hasHeader
            ? row(
                cells(count: table.header.count) { table.header[$0] }, widths: widths, padding: pad, sidePadding: hpad,
                lines: &headerLines,
                path: rowPath(0), cellRole: .tableHeader, firstCell: firstRow * totalColumns,
                headerScopes: headerScopes(table, row: 0, columns: part))
            : Item(height: strong)
        header.elements.insert(
            contentsOf: [
                .structure([.artifact]),
                rule(y: strong / 2, width: tableWidth, thickness: strong, color: table.ruleColor),
            ], at: 0)
        let headerRule = [
            PageElement.structure([.artifact]),
            rule(y: -thin / 2, width: tableWidth, thickness: thin, color: table.ruleColor),
        ]
        if hasHeader { header.elements += headerRule.map { $0.offset(by: header.height) } }
        // The header is kept with the caption above it.
        if partNumber > 0 || captioned { header.breakBefore = .avoid }
        // A header taller than half a page is not repeated (it would leave no room for rows);
        // one taller than a page is split like any row.
        if hasHeader, header.height > textHeight - 1 {
            header.fragments = RowFragments(
                lines: headerLines, columns: columns, bottomPadding: pad, closing: headerRule)
        }
        try emit(header)
        let headerBox = hasHeader && header.height <= textHeight / 2 ? ItemBox(header) : nil
        // A row taller than a page (less the repeated header) is the one row that is split:
        // the paginator ends its first part where the page ends (``RowFragments``).
        let tallest = textHeight - (headerBox?.item.height ?? 0) - 1
        for i in 0..<rowCount {
            var lines: [LineBand] = []
            let rowCells = cells(count: table.rows.cellCount(inRow: i)) { table.rows.paragraph(row: i, column: $0) }
            var item = shaper.inOneTurn {
                self.row(
                    rowCells, widths: widths, padding: pad, sidePadding: hpad, lines: &lines,
                    path: rowPath(i + 1), cellRole: .tableData,
                    firstCell: (firstRow + i + 1) * totalColumns,
                    headerScopes: headerScopes(table, row: i + 1, columns: part))
            }
            let closing = closingRule(
                last: i == rowCount - 1, strong: strong, width: tableWidth, color: table.ruleColor)
            item.elements += closing.map { $0.offset(by: item.height) }
            if item.height > tallest {
                item.fragments = RowFragments(lines: lines, columns: columns, bottomPadding: pad, closing: closing)
            }
            item.breakBefore = breakBefore(row: i, of: rowCount)
            item.repeatedHeader = headerBox
            try emit(item)
        }
    }

    /// The rule under a body row, an artifact: `strong` pt under the last, a quarter point at
    /// 60 % of `color`'s opacity under the others.
    func closingRule(last: Bool, strong: Double, width: Double, color: RGBAColor) -> [PageElement] {
        let thickness = last ? strong : 0.25
        let drawn = last ? color : RGBAColor(red: color.red, green: color.green, blue: color.blue, alpha: 0.6)
        return [
            PageElement.structure([.artifact]),
            rule(y: -thickness / 2, width: width, thickness: thickness, color: drawn),
        ]
    }

    /// Whether a page may end before body row `row` of `count`. As a paragraph keeps its first
    /// and last lines (orphans and widows, CSS Fragmentation 3 §3.3), a table keeps its first
    /// `orphans` rows with its header and its last `widows` rows together: no row alone under
    /// the header at a page's foot, nor alone under the repeated header at the next page's top.
    func breakBefore(row: Int, of count: Int) -> BreakRule {
        row < max(1, options.orphans) || row > count - options.widows ? .avoid : .allowed
    }

    /// How a table is set: at what fraction of its size, in which parts of columns, and its
    /// columns' bounds at that size.
    struct TableFit {
        /// The factor its text sizes are multiplied by (1: as styled).
        var scale: Double
        /// Column indices of each part, in order; one part holding every column when the
        /// table is not split.
        var parts: [[Int]]
        /// Every column's bounds at ``scale``.
        var bounds: [ColumnBounds]
        /// The size its header is styled at, pt.
        var naturalSize: Double

        /// What was done to a table too wide for the measure, for the warning.
        struct Notice: Equatable {
            /// Columns in the table.
            var columns: Int
            /// The header's size as styled, and as set, pt.
            var naturalSize: Double
            var size: Double
            /// Parts its columns are split into (1: not split).
            var parts: Int
            /// The measure it had to fit, pt.
            var measure: Double
        }
    }

    /// How wide, in ems of its text, a word may be and still be kept whole by a table that
    /// does not fit: longer words (identifiers, URLs, compounds) break inside their column
    /// rather than make the whole table smaller or split it. About 14–16
    /// letters of a text face, the width of a narrow `p{}` column in LaTeX.
    static let legibleWordEms = 8.0

    /// How `table` is set legibly within `available` pt. Each column needs its widest word, up
    /// to ``legibleWordEms`` ems, plus the least padding (half the cell padding on each side,
    /// so that adjacent columns' text keeps a gap of the padding). When the columns need more
    /// than `available` at the styled size, the text is set smaller, in proportion, down to
    /// ``StyledTable/smallestTextSize``. When it still does not fit there, its columns are
    /// split into parts, each as many columns as fit beside the first column, which every part
    /// repeats as its stub (as wide-table packages do); a first column that needs more than
    /// half of `available` is not repeated. A table of one or two columns is never split.
    func fit(_ table: StyledTable, columns: Int, available: Double) -> TableFit {
        let pad = table.cellPadding
        let natural = columnBounds(header: table.header, rows: table.rows, columns: columns, padding: pad)
        let naturalSize = table.header.map(\.style.baseFont.size).max() ?? 0
        func legible(_ bounds: [ColumnBounds], em: Double) -> [Double] {
            bounds.map { min(max(0, $0.minimum - 2 * pad), TableLayout.legibleWordEms * em) }
        }
        let least = Double(columns) * pad
        let needed = legible(natural, em: naturalSize).reduce(0, +)
        guard needed + least > available, needed > 0, naturalSize > 0 else {
            return TableFit(scale: 1, parts: [Array(0..<columns)], bounds: natural, naturalSize: naturalSize)
        }
        let floor = min(1, table.smallestTextSize / naturalSize)
        // Text widths are proportional to the size (glyph positions are not rounded), the
        // half point of slack each column keeps is not: a hair under the exact factor, so that
        // rounding never breaks a word.
        let slack = 0.5 * Double(columns)
        let wanted = (available - least - slack) / max(needed - slack, 1) * 0.99
        let scale = max(floor, min(1, wanted))
        var bounds = natural
        if scale < 1 {
            shaper.forgetKeptLayouts()
            bounds = columnBounds(
                header: table.header, rows: table.rows, columns: columns, padding: pad, scale: scale)
        }
        let widths = legible(bounds, em: naturalSize * scale).map { $0 + pad }
        // Set smaller, the table fits (to within rounding, which the column widths absorb);
        // only at the smallest size is it split.
        guard wanted < floor, widths.reduce(0, +) > available, columns > 2 else {
            return TableFit(scale: scale, parts: [Array(0..<columns)], bounds: bounds, naturalSize: naturalSize)
        }
        let stub = widths[0] <= available / 2 ? [0] : []
        let stubWidth = stub.isEmpty ? 0 : widths[0]
        var parts: [[Int]] = []
        var current = [0]
        var width = widths[0]
        for column in 1..<columns {
            if current.count > stub.count, width + widths[column] > available {
                parts.append(current)
                current = stub
                width = stubWidth
            }
            current.append(column)
            width += widths[column]
        }
        parts.append(current)
        return TableFit(scale: scale, parts: parts, bounds: bounds, naturalSize: naturalSize)
    }

    /// A cell set at `scale` times its size: every run's size, letter spacing and baseline
    /// offset, and the paragraph's indents (line heights are multiples of the size, or scaled
    /// when absolute).
    static func scaled(_ paragraph: StyledParagraph, by scale: Double) -> StyledParagraph {
        guard scale != 1 else { return paragraph }
        var scaled = paragraph
        scaled.style.baseFont.size *= scale
        scaled.style.leftIndent *= scale
        scaled.style.rightIndent *= scale
        scaled.style.hangingIndent *= scale
        if case .absolute(let step)? = scaled.style.lineHeight { scaled.style.lineHeight = .absolute(step * scale) }
        func resize(_ runs: inout [StyledRun]) {
            for k in runs.indices {
                runs[k].style.font.size *= scale
                runs[k].style.letterSpacing *= scale
                runs[k].style.baselineOffset *= scale
            }
        }
        resize(&scaled.runs)
        if var marker = scaled.marker {
            resize(&marker)
            scaled.marker = marker
        }
        return scaled
    }

    /// The line above part `number` of a table split into parts of columns, in its header's
    /// face and colour, italic, at its size: which of the table's columns the part holds, and
    /// that it continues (the first part) or is continued (the others); nil when the table is
    /// one part.
    func partLabel(
        _ number: Int, of table: StyledTable, columns part: [Int], totalColumns: Int, scale: Double,
        path: [StructureElement]
    ) -> Item? {
        guard part.count < totalColumns, let last = part.last else { return nil }
        // Columns are numbered from 1, as a reader counts them; the first part starts at 1.
        let first = number == 0 ? 0 : part.first(where: { $0 > 0 }) ?? last
        let range = first == last ? "\(last + 1)" : "\(first + 1)\u{2013}\(last + 1)"
        let fallback = ParagraphStyle(baseFont: FontSpec(families: [], size: 8))
        let base = table.header.first ?? StyledParagraph(runs: [], style: fallback)
        let language = base.runs.first?.style.language ?? options.language
        let words = GeneratedText.words(language: language)
        let text = words.tablePart(
            first: number == 0, columns: range, of: totalColumns, withFirstColumn: part.contains(0))
        var font = base.style.baseFont
        font.size *= scale
        font.weight = .regular
        // Italic, but in Hangul and Han, which are not set in italics.
        font.italic = !GeneratedText.scriptsWithoutItalics.contains(words.language)
        var style = base.runs.first?.style ?? RunStyle(font: font)
        style.font = font
        style.link = nil
        style.background = nil
        style.underline = nil
        style.strikethrough = nil
        style.letterSpacing *= scale
        let paragraph = StyledParagraph(
            runs: [StyledRun(text, style: style)],
            style: ParagraphStyle(baseFont: font, lineHeight: base.style.lineHeight))
        let width = max(12, options.page.measure - indent)
        let shaped = shaper.shape(paragraph, width: width)
        let id = path.last?.id ?? 0
        var caption = StructureElement(.caption, id: id, index: number + 1)
        if !words.areIn(language) { caption.language = words.language }
        let labelPath = path + [caption]
        var item = Item(height: 0)
        var y = table.cellPadding
        var linksBefore = 0
        let boxes = LineGrid(shaper: shaper, style: paragraph.style).boxes(for: shaped.lines)
        for (line, box) in zip(shaped.lines, boxes) {
            let baseline = y + box.above
            item.elements += StructureMarks.line(
                line, x: left, baseline: baseline, path: labelPath,
                linksBefore: linksBefore)
            linksBefore += line.links.count
            y = baseline + box.below
        }
        item.height = y + table.cellPadding / 2
        item.spaceBefore = number == 0 ? 0 : options.page.blockSpacing
        return item
    }

    /// One line of a cell: its box in the row (pt from the row's top), the cell's column and
    /// what the line draws.
    struct LineBand {
        var top: Double
        var bottom: Double
        var column: Int
        var elements: [PageElement]
    }

    /// Min-content and max-content widths of every column (CSS 2.1 §17.5.2.2 steps 1–2): the
    /// largest over the column's cells. Each cell adds its padding on both sides and a slack of
    /// max(0.5, its largest letter spacing) pt: Pango rounds widths to its units, and counts the
    /// trailing half letter-space of a tracked run when it wraps, so a cell set at exactly its
    /// measured width could otherwise wrap its last word.
    ///
    /// Each cell is measured once, keeping its layout where the shaper can
    /// (``TextShaper/naturalWidths(of:words:keepingLayout:)``): the first rows, drawn first, are
    /// then shaped once, and a cell's words are read from its own shaping where the shaper
    /// reports them. Where it does not, each word is measured alone, and those widths are
    /// remembered for repeated words; the memory is emptied when it holds ``wordMemory`` words,
    /// so a table of ever-new words (numbers, ids) does not grow it.
    ///
    /// Each cell is measured as set at `scale` times its size (``scaled(_:by:)``), one at a
    /// time: a row of many cells is not held scaled whole.
    func columnBounds(
        header: [StyledParagraph], rows: some Sequence<[StyledParagraph]>, columns: Int, padding: Double,
        scale: Double = 1
    ) -> [ColumnBounds] {
        var bounds = [ColumnBounds](repeating: ColumnBounds(minimum: 0, maximum: 0), count: columns)
        var wordWidths: [[StyledRun]: Double] = [:]
        func measure(_ row: [StyledParagraph]) {
            if wordWidths.count >= TableLayout.wordMemory { wordWidths.removeAll(keepingCapacity: true) }
            for (j, unscaled) in row.enumerated() {
                let cell = TableLayout.scaled(unscaled, by: scale)
                let (minimum, maximum) = memory.bounds(of: cell) { measureCell(cell, wordWidths: &wordWidths) }
                let slack = max(0.5, cell.runs.map(\.style.letterSpacing).max() ?? 0)
                let extra = 2 * padding + slack
                bounds[j].minimum = max(bounds[j].minimum, minimum + extra)
                bounds[j].maximum = max(bounds[j].maximum, max(maximum, minimum) + extra)
            }
        }
        // A row's cells are measured in one turn with the shaper's fonts (``TextShaper/inOneTurn(_:)``).
        shaper.inOneTurn { measure(header) }
        for row in rows {
            // A cancelled render stops measuring here; the first row it would place throws.
            if options.cancellation?.isCancelled == true { break }
            shaper.inOneTurn { measure(row) }
        }
        return bounds
    }

    /// A cell's widest unbreakable word and its unwrapped width, pt, padding not included;
    /// words measured alone are looked up in and added to `wordWidths`.
    func measureCell(_ cell: StyledParagraph, wordWidths: inout [[StyledRun]: Double]) -> (
        minimum: Double, maximum: Double
    ) {
        let ranges = TableLayout.wordRanges(of: cell)
        // A cell of one word (a number, a key) cannot wrap: its widest word is the cell.
        let single = ranges.count == 1 && cell.marker == nil
        let measured = shaper.naturalWidths(of: cell, words: single ? [] : ranges, keepingLayout: true)
        let maximum = measured.paragraph
        var minimum = single ? maximum : 0.0
        if !single, let widths = measured.words {
            minimum = widths.max() ?? 0
        } else if !single {
            for range in ranges {
                let word = TableLayout.runs(of: cell, in: range)
                let width: Double
                if let cached = wordWidths[word] {
                    width = cached
                } else {
                    var style = cell.style
                    style.alignment = .left
                    style.leftIndent = 0
                    style.rightIndent = 0
                    style.hangingIndent = 0
                    width = shaper.naturalWidth(of: StyledParagraph(runs: word, style: style))
                    wordWidths[word] = width
                }
                minimum = max(minimum, width)
            }
        }
        return (minimum, maximum)
    }

    /// How many measured word widths ``columnBounds(header:rows:columns:padding:scale:)`` keeps at most.
    static let wordMemory = 4096

    /// The unbreakable words of a paragraph, each as the runs (styles) that hold its characters
    /// (adjacent pieces of one style joined): the words of ``wordRanges(of:)``.
    static func words(of paragraph: StyledParagraph) -> [[StyledRun]] {
        wordRanges(of: paragraph).map { runs(of: paragraph, in: $0) }
    }

    /// The unbreakable words of a paragraph as UTF-8 byte ranges of its text (its runs' text
    /// joined), in order: text between whitespace, split after a hyphen or dash that is followed
    /// by a letter, and every Han ideograph or kana on its own (CJK breaks between any two of
    /// them). Hangul words (eojeol) stay whole. They are the pieces the paragraph composer may
    /// break between, less its own rules (``ParagraphComposer/allowedBreaks(_:keepAll:)``): a
    /// dash that opens a word stays with it (`-rdynamic`), and the last word of the cell or of
    /// a line of it ended by a hard break is one piece (`raised-eyebrow`), its last
    /// ``ParagraphComposer/lastWordLimit`` characters before the end unbroken. So a column at
    /// least as wide as its widest piece sets every word without breaking it between letters
    /// (CSS Tables 3 §3.9.1, min-content width: the widest unbreakable run of a cell).
    static func wordRanges(of paragraph: StyledParagraph) -> [Range<Int>] {
        // One walk over each run's characters, counting bytes; no text is copied (this runs
        // over every cell of a table).
        var ranges: [Range<Int>] = []
        var start: Int?
        var offset = 0
        // The current whitespace-delimited token: where its characters start (bytes), and
        // whether it holds only dashes so far; where its last CJK character ends.
        var token: [Int] = []
        var onlyDashes = true
        var afterWide = 0
        let runs = paragraph.runs
        func endLine(limit: Int) {
            guard !token.isEmpty else { return }
            let kept = max(token.count - limit, 0)
            let from = max(token[kept], afterWide)
            TableLayout.join(&ranges, after: from)
        }
        for (r, run) in runs.enumerated() {
            let text = run.text
            var i = text.startIndex
            while i < text.endIndex {
                let character = text[i]
                let next = text.index(after: i)
                let end = offset + character.utf8.count
                defer {
                    i = next
                    offset = end
                }
                if character.isWhitespace {
                    if let from = start {
                        ranges.append(from..<offset)
                        start = nil
                    }
                    // The composer counts a line's last word from its separator (one character).
                    if character.unicodeScalars.contains(where: ParagraphComposer.isSeparator) {
                        endLine(limit: ParagraphComposer.lastWordLimit - 1)
                    }
                    token.removeAll(keepingCapacity: true)
                    onlyDashes = true
                    continue
                }
                for _ in character.unicodeScalars { token.append(offset) }
                if character.unicodeScalars.contains(where: { $0.value >= 0x2E80 }) { afterWide = end }
                let breaksAround = character.unicodeScalars.first.map(isIdeographic) ?? false
                if breaksAround, let from = start {
                    ranges.append(from..<offset)
                    start = nil
                }
                if start == nil { start = offset }
                let opensWord = onlyDashes && character.unicodeScalars.allSatisfy(ParagraphComposer.isDash)
                onlyDashes = opensWord
                // A hyphen or dash followed by a letter is a break opportunity ("baseline-to-baseline").
                var breaksAfter = breaksAround
                if !breaksAround, !opensWord, TableLayout.isDash(character) {
                    let following =
                        next < text.endIndex ? text[next] : runs[(r + 1)...].lazy.compactMap(\.text.first).first
                    breaksAfter = following?.isLetter == true
                }
                if breaksAfter, let from = start {
                    ranges.append(from..<end)
                    start = nil
                }
            }
        }
        if let from = start { ranges.append(from..<offset) }
        endLine(limit: ParagraphComposer.lastWordLimit)
        return ranges
    }

    /// Joins the adjacent ranges at the end of `ranges` that meet at an offset after `from`:
    /// one piece where the composer allows no break.
    static func join(_ ranges: inout [Range<Int>], after from: Int) {
        var last = ranges.count - 1
        while last > 0, ranges[last].lowerBound > from, ranges[last - 1].upperBound == ranges[last].lowerBound {
            ranges[last - 1] = ranges[last - 1].lowerBound..<ranges[last].upperBound
            ranges.remove(at: last)
            last -= 1
        }
    }

    /// The runs holding the UTF-8 bytes `range` of `paragraph`'s text (its runs' text joined),
    /// cut to the range; adjacent pieces of one style are joined. `range` must fall on
    /// character boundaries (``wordRanges(of:)``).
    static func runs(of paragraph: StyledParagraph, in range: Range<Int>) -> [StyledRun] {
        var pieces: [StyledRun] = []
        var offset = 0
        for run in paragraph.runs {
            let count = run.text.utf8.count
            defer { offset += count }
            let low = max(range.lowerBound, offset)
            let high = min(range.upperBound, offset + count)
            guard low < high else { continue }
            let utf8 = run.text.utf8
            let from = utf8.index(utf8.startIndex, offsetBy: low - offset)
            let to = utf8.index(from, offsetBy: high - low)
            if let last = pieces.indices.last, pieces[last].style == run.style {
                pieces[last].text += run.text[from..<to]
            } else {
                pieces.append(StyledRun(String(run.text[from..<to]), style: run.style))
            }
        }
        return pieces
    }

    /// A hyphen or dash after which a word may break: U+002D, U+2010, U+2013, U+2014.
    static func isDash(_ character: Character) -> Bool {
        switch character {
        case "-", "\u{2010}", "\u{2013}", "\u{2014}": true
        default: false
        }
    }

    /// Han ideographs, kana and CJK punctuation: a line may break on either side of them.
    static func isIdeographic(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3000...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0xFF00...0xFF60, 0x20000...0x3134F:
            return true
        default: return false
        }
    }

    func rule(y: Double, width: Double, thickness: Double, color: RGBAColor) -> PageElement {
        .line(from: Point(x: left, y: y), to: Point(x: left + width, y: y), width: thickness, color: color)
    }

    /// One row: every cell shaped at its column width less its side padding, lines on the cell's
    /// baseline grid, the row as tall as its tallest cell plus padding.
    func row(_ cells: [StyledParagraph], widths: [Double], padding: Double, sidePadding: [Double]) -> Item {
        var lines: [LineBand] = []
        return row(
            cells, widths: widths, padding: padding, sidePadding: sidePadding, lines: &lines, path: [],
            cellRole: .tableData, firstCell: 0)
    }

    /// The header cells of `row` (0: the header row) among `columns` that are not simply the
    /// header row's (``StyledTable/headerScopes``), by their index in `columns`.
    func headerScopes(_ table: StyledTable, row: Int, columns: [Int]) -> [Int: HeaderScope] {
        guard !table.headerScopes.isEmpty else { return [:] }
        var scopes: [Int: HeaderScope] = [:]
        for (j, column) in columns.enumerated() {
            if let scope = table.headerScopes[TableCellPlace(row: row, column: column)] { scopes[j] = scope }
        }
        return scopes
    }

    /// Hands `emit` the caption of part `partNumber` of `table`, if it has one: the table's
    /// caption above its first part, then a split table's part label (``partLabel(_:of:columns:)``),
    /// both in the part's `Caption`, its first element. Returns whether it had one.
    func emitCaption(
        of table: StyledTable, partNumber: Int, columns part: [Int], totalColumns: Int, scale: Double, width: Double,
        available: Double, path: [StructureElement], emit: (Item) throws -> Void
    ) rethrows -> Bool {
        var captioned = false
        if partNumber == 0, let caption = table.caption {
            let id = path.last?.id ?? 0
            try emit(
                captionItem(
                    caption, width: width, available: available, scale: scale,
                    path: path + [StructureElement(.caption, id: id, index: partNumber + 1)]))
            captioned = true
        }
        if let label = partLabel(
            partNumber, of: table, columns: part, totalColumns: totalColumns, scale: scale, path: path)
        {
            try emit(label)
            captioned = true
        }
        return captioned
    }

    /// A table's caption, its lines marked with `path` (the table's `Caption`): shaped at the
    /// table's `width` (pt) and set as its style says (centred over the table, as a browser sets
    /// `<caption>`) when it fits on one line there; else flush left from the table's left edge
    /// across the `available` width, as a report sets a table's title above it (a narrow
    /// table's width would leave a caption a word or two a line).
    func captionItem(
        _ caption: StyledParagraph, width: Double, available: Double, scale: Double, path: [StructureElement]
    ) -> Item {
        var paragraph = TableLayout.scaled(caption, by: scale)
        var width = width
        if width < available, shaper.naturalWidth(of: paragraph, keepingLayout: false) > width {
            width = available
            paragraph.style.alignment = paragraph.style.leftIsStart ? .left : .right
        }
        let shaped = shaper.shape(paragraph, width: max(12, width))
        let bands = placedLines(shaped.lines, of: paragraph, x: left, top: 0, path: path)
        return Item(
            height: (bands.last?.bottom ?? 0) + options.page.blockSpacing * 0.5, elements: bands.flatMap(\.elements))
    }

    /// The lines of `paragraph` (shaped as `lines`) placed from `top` (pt) down at `x`, each
    /// marked with `path` as a line of text is (``StructureMarks``): each line's elements and
    /// its band's top and bottom.
    func placedLines(
        _ lines: [ShapedLine], of paragraph: StyledParagraph, x: Double, top: Double, path: [StructureElement]
    ) -> [(elements: [PageElement], top: Double, bottom: Double)] {
        var bands: [(elements: [PageElement], top: Double, bottom: Double)] = []
        var y = top
        var linksBefore = 0
        var wordSpaces = WordSpaces(paragraph)
        let boxes = LineGrid(shaper: shaper, style: paragraph.style).boxes(for: lines)
        for (k, (line, box)) in zip(lines, boxes).enumerated() {
            let baseline = y + box.above
            let notLast = k < lines.count - 1
            let elements = StructureMarks.line(
                line, x: x, baseline: baseline, path: path, linksBefore: linksBefore,
                endsBetweenWords: notLast && wordSpaces.endsBetweenWords(line),
                endsInAddedHyphen: notLast && wordSpaces.endedInAddedHyphen)
            linksBefore += line.links.count
            bands.append((elements, y, baseline + box.below))
            y = baseline + box.below
        }
        return bands
    }

    /// A row as one item, and its cells' lines as bands (for splitting a row taller than a page).
    /// Each cell is marked as a `cellRole` element (part `firstCell + column` of the table) in
    /// the row's `path`, or as a `TH` where `headerScopes` names its column (by index in
    /// `cells`), with `/Scope` when that is not its column.
    func row(
        _ cells: [StyledParagraph], widths: [Double], padding: Double, sidePadding: [Double], lines: inout [LineBand],
        path: [StructureElement], cellRole: StructureElement.Role, firstCell: Int,
        headerScopes: [Int: HeaderScope] = [:]
    ) -> Item {
        var x = left
        var elements: [PageElement] = []
        var height = 0.0
        for (j, width) in widths.enumerated() {
            defer { x += width }
            guard j < cells.count else { continue }
            let cell = cells[j]
            let shaped = memory.shaped(cell, width: max(1, width - 2 * sidePadding[j]), by: shaper)
            var cellElement = StructureElement(cellRole, id: path.last?.id ?? 0, index: firstCell + j)
            if let scope = headerScopes[j] {
                cellElement.role = .tableHeader
                if scope != .column { cellElement.headerScope = scope }
            }
            let cellPath = path.isEmpty ? [] : path + [cellElement]
            var y = padding
            for band in placedLines(shaped.lines, of: cell, x: x + sidePadding[j], top: padding, path: cellPath) {
                elements += band.elements
                lines.append(LineBand(top: band.top, bottom: band.bottom, column: j, elements: band.elements))
                y = band.bottom
            }
            height = max(height, y + padding)
        }
        return Item(height: height, elements: elements)
    }

    /// Column widths by CSS 2.1 automatic table layout (§17.5.2.2) from each column's
    /// min-content and max-content widths (pt, padding included) and the `available` measure:
    /// - Σmax ≤ available: every column gets its maximum (no cell wraps);
    /// - Σmin ≥ available: the minimums squeezed to fill `available` exactly (words must break;
    ///   see ``squeezed(_:into:)``);
    /// - otherwise: min + (max − min) × (available − Σmin) / (Σmax − Σmin) — every column keeps
    ///   its longest word, and the slack goes to the columns that want it in proportion to how
    ///   much they want. The sum is then exactly `available`.
    static func columnWidths(minimum: [Double], maximum: [Double], available: Double) -> [Double] {
        precondition(minimum.count == maximum.count, "one minimum and one maximum per column")
        let minimum = minimum.map { max(0, $0) }
        let maximum = zip(minimum, maximum).map { max($0, $1) }
        let sumMax = maximum.reduce(0, +)
        let sumMin = minimum.reduce(0, +)
        guard available > 0, !minimum.isEmpty else { return minimum.map { _ in 0 } }
        if sumMax <= available { return maximum }
        if sumMin >= available { return squeezed(minimum, into: available) }
        let share = (available - sumMin) / (sumMax - sumMin)
        return zip(minimum, maximum).map { min, max in min + (max - min) * share }
    }

    /// The side padding of each cell, pt: the table's `padding`, unless that would leave less
    /// than `content` pt (each column's least room for its text: about a letter) within
    /// `available` pt — then what leaves exactly that, the same in every column (never negative).
    static func sidePadding(_ padding: Double, content: [Double], available: Double) -> Double {
        guard !content.isEmpty else { return padding }
        let needed = content.reduce(0, +)
        return max(0, min(padding, (available - needed) / (2 * Double(content.count))))
    }

    /// ``columnWidths(minimum:maximum:available:)`` for columns whose minimum and maximum
    /// widths (pt) include `padding` pt on each side that must survive: when the minimums
    /// overflow `available`, only their content parts (minimum − 2 × padding) are squeezed
    /// (``squeezed(_:into:)``) into `available` less the padding of every column, and the
    /// padding is added back. Otherwise the same as without padding.
    ///
    /// `legibleWord` (pt): when every column's minimum, its content counted up to this width,
    /// fits `available`, the columns share it as above with those minimums; else, when their
    /// content minimums so counted fit the room, columns keep their minimum up to it whole and
    /// only the wider ones share what is left (``legiblySqueezed(_:keeping:into:)``); infinite
    /// by default.
    static func columnWidths(
        minimum: [Double], maximum: [Double], available: Double, padding: Double,
        legibleWord: Double = .infinity
    ) -> [Double] {
        let sumMin = minimum.reduce(0) { $0 + max(0, $1) }
        guard sumMin > available, available > 0, !minimum.isEmpty else {
            return columnWidths(minimum: minimum, maximum: maximum, available: available)
        }
        let sides = 2 * padding
        // A column whose widest word is wider than `legibleWord` breaks it inside anyway:
        // counted at that width, the minimums may fit, and then every column shares the room
        // by how much more its longest line wants, as when they fit as they are, so a column
        // of short words is not held to its narrowest while one long URL takes the rest.
        let capped = minimum.map { min(max(0, $0), legibleWord + sides) }
        if capped.reduce(0, +) <= available {
            return columnWidths(minimum: capped, maximum: maximum, available: available)
        }
        let content = minimum.map { max(0, $0 - sides) }
        let room = max(0, available - sides * Double(minimum.count))
        return legiblySqueezed(content, keeping: legibleWord, into: room).map { $0 + sides }
    }

    /// Minimum widths that overflow `available`, fitted into it: each column keeps its minimum
    /// up to `kept` pt, and the columns wider than that share what is left in proportion to
    /// how much wider they are. When even the kept widths overflow, ``squeezed(_:into:)``.
    static func legiblySqueezed(_ minimum: [Double], keeping kept: Double, into available: Double) -> [Double] {
        let whole = minimum.map { min($0, kept) }
        let wholeSum = whole.reduce(0, +)
        guard wholeSum <= available else { return squeezed(minimum, into: available) }
        let excess = zip(minimum, whole).map { $0 - $1 }
        let excessSum = excess.reduce(0, +)
        let share = excessSum > 0 ? min(1, (available - wholeSum) / excessSum) : 0
        return zip(whole, excess).map { $0 + $1 * share }
    }

    /// Minimum widths that overflow `available`, scaled down to fill it exactly. Columns whose
    /// minimum is at most an equal share of what is left keep it (a short number or word stays
    /// whole), and the others share the rest in proportion to their minimums — when no column is
    /// that narrow, plain proportional scaling.
    static func squeezed(_ minimum: [Double], into available: Double) -> [Double] {
        var widths = minimum
        var flexible = Array(minimum.indices)
        var remaining = available
        while true {
            let share = remaining / Double(flexible.count)
            let narrow = flexible.filter { minimum[$0] <= share }
            if narrow.isEmpty || narrow.count == flexible.count { break }
            for j in narrow { remaining -= minimum[j] }
            flexible.removeAll { minimum[$0] <= share }
        }
        let total = flexible.reduce(0) { $0 + minimum[$1] }
        for j in flexible {
            widths[j] = total > 0 ? minimum[j] * remaining / total : remaining / Double(flexible.count)
        }
        return widths
    }
}

extension Paginator {
    /// Table column widths (pt) by CSS 2.1 automatic table layout, from each column's
    /// min-content width (its widest unbreakable word) and max-content width (its widest
    /// unwrapped cell), padding included, within `available` pt. The result never sums to more
    /// than `available`.
    public static func columnWidths(minimum: [Double], maximum: [Double], available: Double) -> [Double] {
        TableLayout.columnWidths(minimum: minimum, maximum: maximum, available: available)
    }
}

/// What a table remembers of the cells it has measured and shaped, so that a cell equal to one
/// met shortly before (a column of "yes" and "no", of repeated units, of empty cells) is neither
/// measured nor shaped again: its bounds and its shaped lines are reused (the paginator keeps
/// one for empty paragraphs too, ``BlockLayout/emptyParagraphs``). Each memory is emptied
/// when it holds ``capacity`` cells, so a table of ever-new cells keeps a bounded amount.
final class CellMemory {
    /// How many cells each memory holds at most.
    static let capacity = 256

    /// A cell and the width it is shaped at, pt (nil: unwrapped).
    private struct ShapedKey: Hashable {
        var cell: StyledParagraph
        var width: Double?
    }

    private var measured: [StyledParagraph: (minimum: Double, maximum: Double)] = [:]
    private var shapedCells: [ShapedKey: ShapedParagraph] = [:]

    /// `cell`'s widest word and unwrapped width, pt: remembered, or `measure`d and remembered.
    func bounds(
        of cell: StyledParagraph, measure: () -> (minimum: Double, maximum: Double)
    ) -> (minimum: Double, maximum: Double) {
        if let known = measured[cell] { return known }
        if measured.count >= Self.capacity { measured.removeAll(keepingCapacity: true) }
        let bounds = measure()
        measured[cell] = bounds
        return bounds
    }

    /// `cell` shaped at `width` pt (nil: unwrapped): remembered, or shaped by `shaper` and
    /// remembered. The lines are the backend's drawable lines, drawn as often as the cell appears.
    func shaped(_ cell: StyledParagraph, width: Double?, by shaper: TextShaper) -> ShapedParagraph {
        let key = ShapedKey(cell: cell, width: width)
        if let known = shapedCells[key] { return known }
        if shapedCells.count >= Self.capacity { shapedCells.removeAll(keepingCapacity: true) }
        let shaped = shaper.shape(cell, width: width)
        shapedCells[key] = shaped
        return shaped
    }
}
