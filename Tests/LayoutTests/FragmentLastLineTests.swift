import Layout
import Testing

/// No paragraph ends with the rest of a hyphenated word alone on its last line (`cccccc.` after
/// `bbbbbbbbb-`), in any pass of the breaker: the first pass, the pass at any looseness, and
/// the emergency pass, where it is a last resort.
@Suite struct FragmentLastLineTests {
    /// Whether the line before the last ends at a flagged break and the last line has no word
    /// space: a hyphen fragment alone on the last line.
    static func endsWithFragment(_ result: LineBreaker.Result, _ list: [LineBreaker.Item]) -> Bool {
        endsWithFragment(result.lines, list)
    }

    /// ``endsWithFragment(_:_:)`` for the last of `lines`.
    static func endsWithFragment(_ lines: [LineBreaker.Line], _ list: [LineBreaker.Item]) -> Bool {
        guard lines.count > 1 else { return false }
        let last = lines[lines.count - 1]
        let before = lines[lines.count - 2]
        let spaced = (last.start..<last.breakIndex).contains { list[$0].kind == .glue }
        return before.hyphenated && !spaced
    }

    @Test func theOnlyTightFirstLineLeavingAFragmentIsNotTaken() {
        // `aaaaaaaaa bbbbbbbbb-` fills 100 pt exactly; every other first line is very loose, so
        // only the pass at any looseness can avoid the fragment `cccccc`.
        let list = items("aaaaaaaaa bbbbbbbbb-cccccc")
        let result = LineBreaker().breakLines(list, width: 100)
        #expect(!Self.endsWithFragment(result, list), "\(result.lines)")
        #expect(!result.emergency)
        #expect(result.lines.count == 2)
    }

    @Test func oneWordAfterALineEndingInAHyphenIsNotALastLine() {
        // `aaaaaaaaa bbbbbbbb-` (a word ending in a hyphen, `land-on-`) fills 100 pt exactly,
        // and the break after it is a word space: `cccccc` alone would read as its fragment.
        let list: [LineBreaker.Item] = [
            .box(45), .glue(5, stretch: 2.5, shrink: 5.0 / 3), .box(45),
            .glue(5, stretch: 2.5, shrink: 5.0 / 3, flagged: true), .box(30), .penalty(cost: -.infinity),
        ]
        let result = LineBreaker().breakLines(list, width: 95)
        #expect(result.lines.count == 2)
        let last = result.lines[result.lines.count - 1]
        #expect((last.start..<last.breakIndex).contains { list[$0].kind == .glue }, "\(result.lines)")
    }

    @Test func aFragmentAfterAHardBreakIsAvoidedToo() {
        var list = items("aaaaaaaaa bbbbbbbbb-cccccc")
        list.removeLast()
        list.append(.penalty(cost: -.infinity))
        list += items("dddd eeee")
        let result = LineBreaker().breakLines(list, width: 100)
        let first = Array(result.lines.prefix { $0.breakIndex <= 5 })
        #expect(first.last?.breakIndex == 5)
        #expect(!Self.endsWithFragment(first, list), "\(result.lines)")
    }

    @Test func theEmergencyPassTakesAFragmentOnlyWhenNothingElseFits() {
        // One word wider than the measure, hyphenated: `ccc` cannot join `bbb…` (105 pt), so
        // its last piece must end the paragraph alone.
        let list = items("aaaaaaaaaaaaaaaaaa-bbbbbbbbbbbbbbbbbb-ccc")
        let result = LineBreaker().breakLines(list, width: 100)
        #expect(result.lines.last?.breakIndex == list.count - 1)
        #expect(result.lines.count == 3)
        #expect(result.emergency)
    }
}
