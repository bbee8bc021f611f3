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

    /// Renders `markdown` with the typeset command: processor time (user and system, s) and
    /// peak resident size (MiB) from GNU time, and the PDF's text.
    func render(_ markdown: String, name: String) throws -> (seconds: Double, mebibytes: Double, text: String) {
        let folder = try Render.scratchFolder("mixed-direction-scaling")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = folder + "/\(name).md"
        let pdf = folder + "/\(name).pdf"
        let report = folder + "/\(name).time"
        try markdown.write(toFile: input, atomically: false, encoding: .utf8)
        let run = try PDFProbe.run(
            "time", ["-f", "%M %U %S", "-o", report, Render.binary, "render", input, "-q", "-o", pdf])
        #expect(run.status == 0, "\(name): \(run.output)")
        let figures =
            try String(contentsOfFile: report, encoding: .utf8).split(separator: "\n").last?
            .split(separator: " ").compactMap { Double(String($0)) } ?? []
        guard figures.count == 3 else { return (.infinity, .infinity, try PDFProbe.text(pdf)) }
        return (figures[1] + figures[2], figures[0] / 1024, try PDFProbe.text(pdf))
    }

    @Test(.slow, arguments: 0..<kinds.count)
    func eightTimesTheTextCostsAtMostTenTimesAsMuch(kind: Int) throws {
        let (name, size, markdown) = Self.kinds[kind]
        let slug = name.replacingOccurrences(of: " ", with: "-")
        let (small, large) = try Timing.firstHolding {
            (try render(markdown(size), name: "\(slug)-1"), try render(markdown(8 * size), name: "\(slug)-8"))
        } holds: {
            $0.1.seconds <= 10 * $0.0.seconds && $0.1.mebibytes <= 10 * $0.0.mebibytes
        }
        let figures =
            "\(name): n \(String(format: "%.2f", small.seconds)) s \(Int(small.mebibytes)) MiB, "
            + "8n \(String(format: "%.2f", large.seconds)) s \(Int(large.mebibytes)) MiB"
        #expect(large.seconds <= 10 * small.seconds, "\(figures)")
        #expect(large.mebibytes <= 10 * small.mebibytes, "\(figures)")
        let words = large.text.split(whereSeparator: \.isWhitespace)
        #expect(words.contains { $0.hasSuffix("here") }, "\(name): the word after the mixed text is set")
        // The letters are all there, in the order of the text: each line reads `a`, `ש` (or
        // `ا`) by turns, whatever its direction marks.
        let letters = large.text.unicodeScalars.filter { $0 == "a" || $0 == "ש" || $0 == "ا" }
        #expect(letters.count >= 2 * 8 * size, "\(name): \(letters.count) letters set")
    }
}
