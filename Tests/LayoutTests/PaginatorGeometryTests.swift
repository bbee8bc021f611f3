import Layout
import Styling
import Testing
import Typography

/// ``Paginator/geometry(of:)``: blocks that differ only in what their lines show have equal
/// geometries; blocks that take other room do not. A table of contents is laid out again only
/// when its page numbers change its geometry.
@Suite struct PaginatorGeometryTests {
    let paginator = Paginator(
        shaper: FakeShaper(), options: LayoutOptions(page: smallPage(lines: 10)), renderer: PageCollector())

    /// A contents entry: `title`, then `number` at the right.
    func entry(_ title: String, number: String) -> StyledBlock {
        let font = FontSpec(families: ["X"], size: 10)
        let style = ParagraphStyle(baseFont: font)
        return StyledBlock(
            .entry(
                StyledParagraph(runs: [StyledRun(title, style: RunStyle(font: font))], style: style),
                trailing: StyledParagraph(runs: [StyledRun(number, style: RunStyle(font: font))], style: style)))
    }

    @Test func entriesWithOtherNumbersOfTheSameRoomAreEqual() throws {
        let titles = ["Alpha", "Bravo section", "Charlie has a longer title"]
        let dashes = paginator.geometry(of: titles.map { entry($0, number: "–") })
        let numbers = paginator.geometry(of: titles.map { entry($0, number: "123") })
        #expect(!dashes.isEmpty)
        #expect(dashes == numbers)
    }

    /// An entry whose title nearly fills the measure wraps when its number is longer: some title
    /// length between 40 and 52 characters (of 5 pt, on a 260 pt measure) fits beside `–` and
    /// not beside a number of nine digits, and there the geometries differ.
    @Test func anEntryThatWrapsWithItsNumberDiffers() throws {
        var differing: [Int] = []
        for length in 40...52 {
            let title = String(repeating: "x", count: length - 6) + " title"
            let dash = paginator.geometry(of: [entry(title, number: "–")])
            let number = paginator.geometry(of: [entry(title, number: "123456789")])
            if dash != number { differing.append(length) }
        }
        #expect(!differing.isEmpty)
    }

    @Test func paragraphsOfOtherLengthsDiffer() throws {
        let short = paginator.geometry(of: [paragraph(lines(2))])
        let long = paginator.geometry(of: [paragraph(lines(3))])
        let same = paginator.geometry(of: [paragraph(lines(2, tag: "M"))])
        #expect(short != long)
        #expect(short == same)
    }
}
