import Testing
import Typography

@testable import Styling

/// The compact storage of a table's body rows gives back exactly the paragraphs put in.
@Suite struct StyledTableRowsTests {
    let regular = RunStyle(font: FontSpec(families: ["Inter"], size: 10))
    var bold: RunStyle {
        var s = regular
        s.font.weight = .bold
        return s
    }
    var linked: RunStyle {
        var s = regular
        s.link = .internal("x")
        return s
    }
    var left: ParagraphStyle { ParagraphStyle(baseFont: regular.font) }
    var right: ParagraphStyle {
        var s = left
        s.alignment = .right
        return s
    }

    func rows(_ n: Int) -> [[StyledParagraph]] {
        (0..<n).map { i in
            [
                StyledParagraph(
                    runs: [StyledRun("row \(i) ", style: regular), StyledRun("bold", style: bold)], style: left),
                StyledParagraph(
                    runs: i % 3 == 0 ? [] : [StyledRun("\(i)", style: i % 5 == 0 ? linked : regular)], style: right),
            ]
        }
    }

    @Test func rowsComeBackAsTheyWentIn() {
        let given = rows(50)
        var marked = given
        marked[7][0].marker = [StyledRun("•", style: regular)]
        let stored = StyledTableRows(marked)
        #expect(stored.count == 50 && stored.columnCount == 2)
        #expect(Array(stored) == marked)
        #expect(stored[7][0].marker?.first?.text == "•" && stored[8][0].marker == nil)
        // Each distinct style once: 3 run styles and 2 paragraph styles for 100 cells.
        #expect(stored.runStyleCount == 3 && stored.paragraphStyleCount == 2)
    }

    @Test func equalityIsByContentNotByNumbering() {
        let given = rows(10)
        let reversedOrder = StyledTableRows(given.reversed())
        var rebuilt = StyledTableRows()
        for row in reversedOrder.reversed() { rebuilt.append(row) }
        #expect(rebuilt == StyledTableRows(given))
        #expect(rebuilt.hashValue == StyledTableRows(given).hashValue)
        #expect(StyledTableRows(given) != StyledTableRows(rows(11)))
    }

    @Test func updatingCellsChangesOnlyWhatTheUpdateChanges() {
        var stored = StyledTableRows(rows(30))
        stored.updateEach { _ in }
        #expect(stored == StyledTableRows(rows(30)))
        stored.updateEach { paragraph in
            for r in paragraph.runs.indices where paragraph.runs[r].style.link != nil {
                paragraph.runs[r].style.link = nil
            }
        }
        let expected = rows(30).map {
            $0.map { p in
                var p = p
                for r in p.runs.indices { p.runs[r].style.link = nil }
                return p
            }
        }
        #expect(Array(stored) == expected)
    }

    /// A block's paragraphs: the header, then the body cells row by row, read lazily.
    @Test func aTableBlockListsHeaderThenCells() {
        let header = [
            StyledParagraph(runs: [StyledRun("H1", style: bold)], style: left),
            StyledParagraph(runs: [StyledRun("H2", style: bold)], style: right),
        ]
        let given = rows(6)
        let block = StyledBlock(
            .table(
                StyledTable(
                    alignments: [.left, .right], header: header, rows: given, ruleColor: .black, cellPadding: 4)))
        #expect(Array(block.paragraphs) == header + given.flatMap { $0 })
        #expect(block.paragraphs.count == 14)
        #expect(block.links(to: "x"))
    }
}
