import Testing

@testable import Layout

/// The notes that fit a page are counted as ``Paginator/notesHeight(_:)`` measures them,
/// reading only as far as they fit.
@Suite struct FittingNotesTests {
    /// A note line `height` pt tall whose ink reaches `above` pt above and `below` pt below it.
    func note(_ height: Double, above: Double = 0, below: Double = 0) -> Item {
        var item = Item(height: height)
        item.ink = Overhang(above: above, below: below)
        return item
    }

    /// For lines of many heights and overhangs, the count is the longest run from the first
    /// whose ``Paginator/notesHeight(_:)`` is within the height, to the last note and none.
    @Test func theCountIsTheLongestRunWithinTheHeight() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let notes = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
                note(
                    Double.random(in: 8...30, using: &generator), above: Double.random(in: 0...6, using: &generator),
                    below: Double.random(in: 0...9, using: &generator))
            }
            let height = Double.random(in: 0...400, using: &generator)
            var expected = 0
            while expected < notes.count, Paginator.notesHeight(Array(notes[...expected])) <= height { expected += 1 }
            #expect(Paginator.fittingNotes(notes, within: height) == expected)
        }
    }
}
