import Foundation
import Layout
import TestSupport
import Testing

/// Items for `text` with every character 5 pt wide and spaces 5 pt (stretch 2.5, shrink 5/3);
/// `-` inside a word marks a hyphenation point (a flagged penalty, hyphen 5 pt wide).
func items(_ text: String, ragged: Bool = false) -> [LineBreaker.Item] {
    var result: [LineBreaker.Item] = []
    for (w, word) in text.split(separator: " ").enumerated() {
        if w > 0 { result.append(.glue(5, stretch: ragged ? 0 : 2.5, shrink: ragged ? 0 : 5.0 / 3)) }
        for (p, part) in word.split(separator: "-").enumerated() {
            if p > 0 { result.append(.penalty(5, cost: 50, flagged: true)) }
            result.append(.box(Double(part.count) * 5))
        }
    }
    result.append(.penalty(cost: -.infinity))
    return result
}

/// The lines' texts rebuilt from the items (boxes as `x` runs), for readable assertions.
func lineLengths(_ result: LineBreaker.Result, _ items: [LineBreaker.Item]) -> [Double] {
    result.lines.map { $0.naturalWidth }
}

@Suite struct LineBreakerTests {
    let prose =
        "In olden times when wishing still helped one there lived a king whose daughters were all beautiful "
        + "but the youngest was so beautiful that the sun itself which has seen so much was astonished whenever it "
        + "shone in her face Close by the king's castle lay a great dark forest and under an old lime tree in the "
        + "forest was a well"

    @Test func totalFitIsNoWorseThanFirstFitAndFillsEveryLine() {
        let list = items(prose)
        let width = 200.0
        let result = LineBreaker().breakLines(list, width: width)
        #expect(!result.emergency)
        // Every line but the last fits within its stretch and shrink.
        for line in result.lines.dropLast() {
            #expect(line.ratio >= -1 && line.ratio <= 2, "ratio \(line.ratio)")
            #expect(line.naturalWidth <= width + 5 * Double(prose.count))
        }
        // First fit, for comparison: the worst ratio of total fit is no worse.
        var firstFit: [Double] = []
        var lineWidth = 0.0
        var spaces = 0
        for word in prose.split(separator: " ") {
            let w = Double(word.count) * 5
            if lineWidth > 0 && lineWidth + 5 + w > width {
                firstFit.append((width - lineWidth) / (Double(spaces) * 2.5))
                lineWidth = w
                spaces = 0
            } else {
                lineWidth += (lineWidth > 0 ? 5 : 0) + w
                spaces += lineWidth > w ? 1 : 0
            }
        }
        let worstTotal = result.lines.dropLast().map { abs($0.ratio) }.max() ?? 0
        #expect(worstTotal <= (firstFit.map(abs).max() ?? 0) + 1e-9)
    }

    @Test func hyphenationPointsAreUsedWhenTheyImproveTheParagraph() {
        // A long word at the end of a line: without the hyphenation point the line is very loose.
        let text = "aaaa bbbb cccc dddd eeee ffff gggg hhhh iiii jjjj typo-graph-ical-ly kkkk llll mmmm"
        let width = 5.0 * 57
        let with = LineBreaker().breakLines(items(text), width: width)
        let without = LineBreaker().breakLines(items(text.replacingOccurrences(of: "-", with: "")), width: width)
        let looseWith = with.lines.dropLast().map(\.ratio).max() ?? 0
        let looseWithout = without.lines.dropLast().map(\.ratio).max() ?? 0
        #expect(with.lines.contains { $0.hyphenated })
        #expect(looseWith < looseWithout)
    }

    @Test func noMoreThanTwoConsecutiveHyphenatedLines() {
        // Every word can break in its middle; a narrow measure tempts a hyphen on every line.
        let text = Array(repeating: "abcdef-ghijkl", count: 40).joined(separator: " ")
        let result = LineBreaker().breakLines(items(text), width: 5 * 19)
        var run = 0
        var longest = 0
        for line in result.lines {
            run = line.hyphenated ? run + 1 : 0
            longest = max(longest, run)
        }
        #expect(longest <= 2)
    }

    @Test func lastLineIsNotStretchedAndARuntIsAvoided() {
        let text = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen it"
        let result = LineBreaker().breakLines(items(text), width: 5 * 30)
        #expect(result.lines.last!.ratio == 0)
        // The last line holds more than the single two-letter word.
        #expect(result.lines.last!.naturalWidth > 10)
    }

    @Test func raggedRightKeepsTheRagEven() {
        let list = items(prose, ragged: true)
        var parameters = LineBreaker.Parameters()
        parameters.raggedStretch = 30
        let result = LineBreaker(parameters: parameters).breakLines(list, width: 200)
        let shortfalls = result.lines.dropLast().map { 200 - $0.naturalWidth }
        #expect(shortfalls.allSatisfy { $0 >= -1e-9 })  // spaces never shrink in ragged text
        #expect((shortfalls.max() ?? 0) < 45)  // no line much shorter than its neighbours
    }

    @Test func aWordWiderThanTheMeasureTakesTheEmergencyBreaks() {
        var list = items("short words then")
        list.removeLast()
        list.append(.glue(5, stretch: 2.5, shrink: 5.0 / 3))
        for k in 0..<60 {  // a 300 pt token with an emergency break after each 5 pt character
            list.append(.box(5))
            if k < 59 { list.append(.penalty(cost: 500, emergency: true)) }
        }
        list.append(.penalty(cost: -.infinity))
        let result = LineBreaker().breakLines(list, width: 100)
        #expect(result.emergency)
        #expect(!result.overfull)
        #expect(result.lines.allSatisfy { $0.naturalWidth <= 100 + 1e-9 })
    }

    @Test func aSingleBoxWiderThanTheMeasureIsLeftOverfullWithoutHanging() {
        let list: [LineBreaker.Item] = [
            .box(30), .glue(5, stretch: 2.5, shrink: 1), .box(500), .glue(5, stretch: 2.5, shrink: 1),
            .box(30), .penalty(cost: -.infinity),
        ]
        let result = LineBreaker().breakLines(list, width: 100)
        #expect(result.emergency && result.overfull)
        #expect(result.lines.count >= 2)
    }

    @Test func forcedBreaksEndLinesAtNaturalWidth() {
        var list = items("alpha beta gamma")
        list.removeLast()
        list.append(.penalty(cost: -.infinity))
        list.append(contentsOf: items("delta epsilon zeta eta theta iota kappa lambda"))
        let result = LineBreaker().breakLines(list, width: 100)
        #expect(result.lines[0].ratio == 0)
        #expect(result.lines[0].naturalWidth == 5 * 16)
    }

    @Test(.slow) func timeIsLinearInParagraphLength() {
        // About 12,500 and 100,000 characters of words: eight times the paragraph takes 17 to 27
        // times as long in a debug build (its arrays outgrow the caches), quadratic work 64 times.
        func paragraph(words count: Int) -> [LineBreaker.Item] {
            items((0..<count).map { index in String(repeating: "x", count: 3 + index % 7) }.joined(separator: " "))
        }
        let small = paragraph(words: 2_125)
        let large = paragraph(words: 17_000)
        var result = LineBreaker().breakLines(small, width: 255)
        let smallSeconds = Timing.bestThreadSeconds(of: 5) { result = LineBreaker().breakLines(small, width: 255) }
        let largeSeconds = Timing.bestThreadSeconds(of: 3) { result = LineBreaker().breakLines(large, width: 255) }
        #expect(largeSeconds < 40 * smallSeconds, "\(smallSeconds) s for 2,125 words, \(largeSeconds) s for 17,000")
        #expect(result.lines.count > 1000)
    }
}
