import Foundation
import TestSupport
import Testing

/// Text that alternates left-to-right and right-to-left letters in short runs costs time and
/// memory linear in its length. Pango 1.50 orders the runs of a line holding both directions
/// in time quadratic in their number, and the composer measured each paragraph as one unwrapped
/// line, so `aש` repeated 60,000 times took 19 times as long as 7,500 times (8.3 s against
/// 0.45 s), and Arabic with Latin, or such words between spaces, likewise; in a heading or a
/// table cell too. For each kind, eight times the size takes at most ten times the processor
/// time and the peak memory of the typeset command, measured in the same run (the pair
/// measured again, up to three times, until it holds), and the text after it is set.
@Suite(.serialized) struct MixedDirectionScalingTests {
    /// The kinds: a name, the size n, and the Markdown of size n, which ends with the word `here`.
    static let kinds: [(name: String, size: Int, markdown: @Sendable (Int) -> String)] = [
        ("Hebrew and Latin letters", 6_000, { String(repeating: "aש", count: $0) + " here\n" }),
        ("Arabic and Latin letters", 5_000, { String(repeating: "aا", count: $0) + " here\n" }),
        (
            "words of Hebrew and Latin letters", 2_500,
            { Array(repeating: "aשaשaש", count: $0).joined(separator: " ") + " here\n" }
        ),
        (
            "a heading, a table cell and a list item", 2_000,
            { count in
                let hebrew = String(repeating: "aש", count: count)
                return "# \(hebrew)\n\n| x | y |\n|---|---|\n| \(hebrew) | b |\n\n- "
                    + String(repeating: "aا", count: count) + "\n\nhere\n"
            }
        ),
    ]

    @Test(.slow, arguments: 0..<kinds.count)
    func eightTimesTheTextCostsAtMostTenTimesAsMuch(kind: Int) throws {
        let (name, size, markdown) = Self.kinds[kind]
        let large = try Render.expectLinear(name, size: size, scratch: "mixed-direction-scaling", markdown: markdown)
        let words = large.text.split(whereSeparator: \.isWhitespace)
        #expect(words.contains { $0.hasSuffix("here") }, "\(name): the word after the mixed text is set")
        // The letters are all there, in the order of the text: each line reads `a`, `ש` (or
        // `ا`) by turns, whatever its direction marks.
        let letters = large.text.unicodeScalars.filter { $0 == "a" || $0 == "ש" || $0 == "ا" }
        #expect(letters.count >= 2 * 8 * size, "\(name): \(letters.count) letters set")
    }
}
