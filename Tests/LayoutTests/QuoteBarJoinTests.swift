import Layout
import Styling
import Testing
import Typography

/// A quote's bar runs across the gaps between its own blocks, and only there: two quotes in a
/// row, and a quote inside another, begin bars of their own, as GitHub draws them.
@Suite struct QuoteBarJoinTests {
    /// A one-line paragraph in the quotes `owners` (outermost first), a bar for each.
    func quoted(_ text: String, owners: [Int]) -> StyledBlock {
        var block = paragraph(text)
        block.spaceAfter = 6
        block.quoteBars = owners.indices.map { Double($0) * 14 + 1 }
        block.structure = owners.map { StructureElement(.blockQuote, id: $0) } + [StructureElement(.paragraph, id: 100)]
        return block
    }

    /// The vertical extent of every bar segment drawn at `x` on the first page, top to bottom.
    func segments(_ blocks: [StyledBlock], x: Double) throws -> [ClosedRange<Double>] {
        let page = try layout(blocks, page: smallPage(lines: 20)).pages[0]
        return page.elements.compactMap { element -> ClosedRange<Double>? in
            guard case .line(let from, let to, _, _) = element, from.x == x, to.x == x else { return nil }
            return min(from.y, to.y)...max(from.y, to.y)
        }
    }

    @Test func oneQuotesBlocksShareOneBar() throws {
        let bars = try segments([quoted("one", owners: [1]), quoted("two", owners: [1])], x: 21)
        #expect(bars.count == 2)
        #expect(bars[1].lowerBound == bars[0].upperBound, "\(bars)")
    }

    @Test func twoQuotesInARowHaveBarsOfTheirOwn() throws {
        let bars = try segments([quoted("one", owners: [1]), quoted("two", owners: [2])], x: 21)
        #expect(bars.count == 2)
        #expect(bars[1].lowerBound > bars[0].upperBound + 5, "\(bars)")
    }

    /// A rule inside a quote, an artifact whose structure names no quote, carries the quote's
    /// bar and its owner: the bar runs on beside it and across the gaps around it.
    @Test func aRuleInsideAQuoteKeepsItsBar() throws {
        var rule = StyledBlock(.rule(color: .black, thickness: 0.6), spaceBefore: 9, spaceAfter: 9, quoteBars: [1])
        rule.structure = [.artifact]
        rule.quoteBarOwners = [1]
        let bars = try segments([quoted("one", owners: [1]), rule, quoted("two", owners: [1])], x: 21)
        #expect(bars.count == 3, "\(bars)")
        #expect(zip(bars, bars.dropFirst()).allSatisfy { $1.lowerBound == $0.upperBound }, "\(bars)")
    }

    @Test func anInnerQuoteBeginsItsBarAtItsOwnTop() throws {
        let blocks = [quoted("outer", owners: [1]), quoted("inner", owners: [1, 2]), quoted("after", owners: [1])]
        let outer = try segments(blocks, x: 21)
        let inner = try segments(blocks, x: 35)
        #expect(
            outer.count == 3 && outer[1].lowerBound == outer[0].upperBound && outer[2].lowerBound == outer[1].upperBound
        )
        #expect(inner.count == 1 && inner[0].lowerBound > outer[0].upperBound + 5, "\(inner) \(outer)")
    }
}
