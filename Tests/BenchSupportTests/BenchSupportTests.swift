import Foundation
import Testing

@testable import BenchSupport

@Suite struct PairedStatisticsTests {
    @Test func medianOfOddEvenAndEmpty() {
        #expect(PairedStatistics.median([3, 1, 2]) == 2)
        #expect(PairedStatistics.median([4, 1, 3, 2]) == 2.5)
        #expect(PairedStatistics.median([]) == nil)
    }

    /// Pairs, not medians: a slow spell that hits both runs of a pair cancels out.
    @Test func medianOfRatiosIsNotTheRatioOfMedians() {
        let typeset = [1.0, 4.0, 2.2]
        let floor = [0.5, 2.0, 2.0]
        #expect(PairedStatistics.medianOfRatios(typeset, floor) == 2.0)
        let ofMedians = PairedStatistics.median(typeset)! / PairedStatistics.median(floor)!
        #expect(abs(ofMedians - 1.1) < 1e-9)
    }

    @Test func ratiosSkipEmptyDenominatorsAndUnpairedRuns() {
        #expect(PairedStatistics.medianOfRatios([1, 2, 9], [0, 1]) == 2)
        #expect(PairedStatistics.medianOfRatios([1], [0]) == nil)
    }

    @Test func secondsPerMegabyteIsTheSlopeAboveStartUp() {
        #expect(
            PairedStatistics.secondsPerMegabyte(seconds: 2.1, bytes: 500_000, baselineSeconds: 0.1, baselineBytes: 0)
                == 4)
        #expect(
            PairedStatistics.secondsPerMegabyte(seconds: 1, bytes: 5_000, baselineSeconds: 0.1, baselineBytes: 0) == nil
        )
    }
}

@Suite struct ScalingInputTests {
    @Test func sizesAreTheNamedOnes() {
        let inputs = Dictionary(
            ScalingInput.all().map { ("\($0.name) \($0.command.rawValue)", $0) }, uniquingKeysWith: { a, _ in a })
        let paragraph = inputs["paragraph-1MB render"]!.text
        #expect((1_000_000..<1_000_100).contains(paragraph.utf8.count))
        #expect(!paragraph.dropLast().contains("\n"))  // one paragraph
        let word = inputs["word-100k render"]!.text
        #expect(word.count == 100_001 && !word.dropLast().contains(" "))
        let korean = inputs["korean-500KB render"]!.text
        #expect((500_000..<500_040).contains(korean.utf8.count))
        // Hangul syllables, 3 bytes each: over 84 % of the bytes.
        #expect(korean.unicodeScalars.filter { (0xAC00...0xD7A3).contains($0.value) }.count > 140_000)
        #expect(inputs["brackets-40k render"]!.text == String(repeating: "[ ", count: 40_000) + "\n")
        #expect(inputs["table-10k-rows render"]!.text.split(separator: "\n").count == 10_002)
        #expect(
            inputs["list-5k-items render"]!.text.split(separator: "\n").filter { $0.hasPrefix("- ") }.count == 5_000)
    }

    @Test func generationIsDeterministic() {
        #expect(ScalingInput.all() == ScalingInput.all())
        #expect(
            CompositionFigures.justifiedDocument(paragraphs: 5) == CompositionFigures.justifiedDocument(paragraphs: 5))
    }

    /// The chain is valid JSON in which each size aliases the one before, and the typography
    /// token's size aliases the chain's end: `length` aliases in all.
    @Test func aliasChainIsValidJSONOfTheRightLength() throws {
        for length in [1, 2, 2_000] {
            let text = ScalingInput.aliasChain(length: length)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            let sizes = try #require(json["size"] as? [String: [String: String]])
            #expect(sizes.count == length)
            #expect(sizes["s0"]?["$value"] == "16px")
            if length > 1 { #expect(sizes["s\(length - 1)"]?["$value"] == "{size.s\(length - 2)}") }
            #expect(text.components(separatedBy: "\"{size.").count - 1 == length)
        }
    }
}

@Suite struct CompositionFiguresTests {
    /// Two natural-width lines (word space 3 pt) and three justified lines reaching 300 pt,
    /// one of them stretched to a 6 pt space (2×) and ending in a hyphen.
    @Test func stretchIsReadFromWordBoxes() {
        func word(_ x0: Double, _ x1: Double, _ text: String) -> String {
            "<word xMin=\"\(x0)\" yMin=\"10.0\" xMax=\"\(x1)\" yMax=\"20.0\">\(text)</word>"
        }
        func line(_ words: String...) -> String {
            "<line xMin=\"0\" yMin=\"0\" xMax=\"0\" yMax=\"0\">\(words.joined())</line>"
        }
        let xml = [
            line(word(0, 140, "a"), word(143, 200, "b"), word(203, 300, "c")),
            line(word(0, 100, "one"), word(103, 200, "two")),
            line(word(0, 50, "x"), word(53, 120, "y")),
            line(word(0, 144, "wide"), word(150, 300, "stretch-")),
            line(word(0, 147, "even"), word(150, 300, "line")),
        ].joined(separator: "\n")
        let figures = CompositionFigures(pdftotextXML: xml)
        #expect(figures.lines == 3)
        #expect(figures.max == 2)
        #expect(figures.hyphenated == 1)
        #expect(figures.loose == 1)
    }

    @Test func noLinesGiveZeros() {
        #expect(
            CompositionFigures(pdftotextXML: "")
                == CompositionFigures(lines: 0, p95: 0, max: 0, loose: 0, hyphenated: 0))
    }
}
