/// The body rows of a ``StyledTable``: a collection of rows, each one paragraph per cell, held
/// compactly so that a table of many rows costs little more than its text.
///
/// A table's cells share a handful of styles (a face per column and the few of emphasis, code
/// or links), so each distinct ``RunStyle`` and ``ParagraphStyle`` is stored once and every run
/// keeps its text and a 32-bit style number: about 24 bytes a run and 8 a cell besides the text,
/// where a row of ``StyledParagraph`` values holds every style whole (several hundred bytes a
/// run). A row is rebuilt as paragraphs when it is read, one row at a time.
public struct StyledTableRows: RandomAccessCollection, Hashable, Sendable, ExpressibleByArrayLiteral {
    /// One row: a paragraph per cell.
    public typealias Element = [StyledParagraph]
    /// Rows are numbered from 0.
    public typealias Index = Int

    private struct Run: Hashable, Sendable {
        var text: String
        var style: UInt32
    }
    private struct Cell: Hashable, Sendable {
        /// Index of the cell's first run in `runs`; its runs end where the next cell's begin.
        var firstRun: UInt32
        var style: UInt32
    }

    private var runStyles: [RunStyle] = []
    private var runStyleNumbers: [RunStyle: UInt32] = [:]
    private var paragraphStyles: [ParagraphStyle] = []
    private var paragraphStyleNumbers: [ParagraphStyle: UInt32] = [:]
    private var runs: [Run] = []
    private var cells: [Cell] = []
    /// Index of each row's first cell in `cells`, and one past the last cell at the end.
    private var rowStarts: [Int] = [0]
    /// Markers of the cells that have one (none do in tables Markdown writes), by cell index.
    private var markers: [Int: [StyledRun]] = [:]
    /// The number of cells in the longest row.
    public private(set) var columnCount = 0

    /// No rows.
    public init() {}

    /// The rows given, in order.
    public init(_ rows: some Sequence<[StyledParagraph]>) {
        for row in rows { append(row) }
    }

    /// The rows of an array literal, in order.
    public init(arrayLiteral rows: [StyledParagraph]...) {
        self.init(rows)
    }

    /// Adds a row at the end.
    public mutating func append(_ row: [StyledParagraph]) {
        for paragraph in row {
            if let marker = paragraph.marker { markers[cells.count] = marker }
            cells.append(Cell(firstRun: UInt32(runs.count), style: number(of: paragraph.style)))
            for run in paragraph.runs { runs.append(Run(text: run.text, style: number(of: run.style))) }
        }
        rowStarts.append(cells.count)
        columnCount = Swift.max(columnCount, row.count)
    }

    /// The first row.
    public var startIndex: Int { 0 }
    /// One past the last row.
    public var endIndex: Int { rowStarts.count - 1 }

    /// Row `index`, rebuilt as one paragraph per cell.
    public subscript(index: Int) -> [StyledParagraph] {
        precondition(index >= 0 && index < endIndex, "row index out of range")
        return (rowStarts[index]..<rowStarts[index + 1]).map(paragraph(atCell:))
    }

    /// The number of cells in row `index`.
    public func cellCount(inRow index: Int) -> Int {
        precondition(index >= 0 && index < endIndex, "row index out of range")
        return rowStarts[index + 1] - rowStarts[index]
    }

    /// Cell `column` (from 0) of row `row`, rebuilt as a paragraph alone: reading a few cells of
    /// a row costs those cells, not the row.
    public func paragraph(row: Int, column: Int) -> StyledParagraph {
        precondition(column >= 0 && column < cellCount(inRow: row), "cell index out of range")
        return paragraph(atCell: rowStarts[row] + column)
    }

    /// Applies `update` to every cell in turn, row by row. The storage is rebuilt from the
    /// first row that `update` changes; when it changes none, nothing is rebuilt.
    public mutating func updateEach(_ update: (inout StyledParagraph) -> Void) {
        var updated: StyledTableRows?
        for rowIndex in indices {
            let original = self[rowIndex]
            var row = original
            for column in row.indices { update(&row[column]) }
            if updated == nil, row != original {
                var copy = StyledTableRows()
                for earlier in 0..<rowIndex { copy.append(self[earlier]) }
                updated = copy
            }
            updated?.append(row)
        }
        if let updated { self = updated }
    }

    /// Rows are equal when they hold the same paragraphs, however their styles were numbered.
    public static func == (left: StyledTableRows, right: StyledTableRows) -> Bool {
        left.count == right.count && left.elementsEqual(right)
    }

    /// Hashes the paragraphs row by row (consistent with ``==(_:_:)``).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for row in self { hasher.combine(row) }
    }

    /// How many distinct run styles and paragraph styles are stored.
    var runStyleCount: Int { runStyles.count }
    var paragraphStyleCount: Int { paragraphStyles.count }

    /// The number of cells in all rows.
    var cellCount: Int { cells.count }

    /// Cell `index` counted over all rows, row by row.
    func paragraph(atCell index: Int) -> StyledParagraph {
        let cell = cells[index]
        let end = index + 1 < cells.count ? Int(cells[index + 1].firstRun) : runs.count
        let cellRuns = runs[Int(cell.firstRun)..<end].map { StyledRun($0.text, style: runStyles[Int($0.style)]) }
        return StyledParagraph(runs: cellRuns, style: paragraphStyles[Int(cell.style)], marker: markers[index])
    }

    private mutating func number(of style: RunStyle) -> UInt32 {
        // Consecutive runs mostly share a style: try the last one before hashing.
        if let last = runs.last, runStyles[Int(last.style)] == style { return last.style }
        if let known = runStyleNumbers[style] { return known }
        let new = UInt32(runStyles.count)
        runStyles.append(style)
        runStyleNumbers[style] = new
        return new
    }

    private mutating func number(of style: ParagraphStyle) -> UInt32 {
        if let known = paragraphStyleNumbers[style] { return known }
        let new = UInt32(paragraphStyles.count)
        paragraphStyles.append(style)
        paragraphStyleNumbers[style] = new
        return new
    }
}
