import Foundation
import TestSupport
import Testing

/// A table of contents costs little beside the document it lists. Every layout pass sets every
/// entry (the pass that counts pages, the comparison of the contents' room with the numbers it
/// found, the drawing pass), and a page number is shaped once for all the entries that show
/// it, not once an entry a pass; what is left is the entries' text, the pass that counts pages
/// and the drawing of the entries.
@Suite(.serialized) struct ContentsCostTests {
    /// Short sections listed: about 0.4 s of processor time without the contents.
    static let sections = 1_000

    /// The most processor time the document with its contents takes, as a multiple of the same
    /// document's without it: 2.7 to 2.9 times on 2026-12-05. When both forms of each entry's
    /// page number were shaped in every pass, it took 3.3 to 3.9 times as long.
    static let bound = 3.1

    /// `count` short sections, each a level-2 heading and a line of text.
    static func document(sections count: Int) -> String {
        (0..<count).map { "## Heading \($0)\n\ntext\n\n" }.joined()
    }

    /// The same document with and without `toc: true` is rendered in the same run, the pair
    /// measured again, up to three times, until it holds (``Timing/firstHolding(attempts:_:holds:)``):
    /// a contents that costs too much fails every time, a moment of load once.
    @Test(.slow) func aContentsCostsLittleBesideTheDocumentItLists() throws {
        let body = Self.document(sections: Self.sections)
        let (plain, listed) = try Timing.firstHolding {
            (
                try Render.measured(body, name: "plain", scratch: "contents-cost"),
                try Render.measured("---\ntoc: true\n---\n\n" + body, name: "listed", scratch: "contents-cost")
            )
        } holds: {
            $0.1.seconds <= Self.bound * $0.0.seconds
        }
        let figures =
            "\(Self.sections) sections: \(String(format: "%.2f", plain.seconds)) s, "
            + "with a contents \(String(format: "%.2f", listed.seconds)) s "
            + "(\(String(format: "%.2f", listed.seconds / plain.seconds))×)"
        #expect(listed.seconds <= Self.bound * plain.seconds, "\(figures)")
        let lastHeading = "Heading \(Self.sections - 1)"
        #expect(listed.text.contains("Contents"), "the contents is set")
        #expect(
            listed.text.components(separatedBy: lastHeading).count - 1 >= 2,
            "the last heading is listed and set")
    }
}
