import Layout
import Styling
import Testing
import Typography

/// A backend for the paragraph stages that shapes nothing: every scalar is 5 pt wide (as
/// ``prepared(_:)`` measures), hyphenation patterns exist for the languages it is given, and
/// it records what the stages ask of it.
final class FixedAdvanceShaping: ParagraphShaping {
    /// The "measurement": the paragraph's text.
    typealias Measurement = String

    var maximumRunsPerShaping = 64
    /// Languages with patterns; each asks for points after every third letter.
    var patterns: Set<String> = ["en", "de"]
    /// Whether ``cutLines(from:composition:prepared:paragraph:text:)`` cuts (else the lines
    /// are shaped again in groups).
    var cuts = true
    private(set) var measured = 0
    private(set) var prepared = 0
    private(set) var hyphenationLanguages: [String] = []
    /// Each ``shapeLines(_:composed:)`` call's text.
    private(set) var shapedTexts: [String] = []

    func metrics(of font: FontSpec) -> FontMetrics {
        FontMetrics(ascent: font.size * 0.8, descent: font.size * 0.2, xHeight: 0, capHeight: 0)
    }

    func measure(_ paragraph: StyledParagraph, text: CollectedText) -> String? {
        measured += 1
        return text.text
    }

    func singleLineWidth(of measurement: String) -> Double? {
        measurement.contains("\n") ? nil : Double(measurement.unicodeScalars.count) * 5
    }

    func lines(of measurement: String, paragraph: StyledParagraph, text: CollectedText) -> ShapedLines {
        let width = Double(measurement.unicodeScalars.count) * 5
        let line = ShapedLine(handle: nil, x: 0, width: width, ascent: 8, descent: 2, text: measurement)
        return ShapedLines(lines: [line], rightToLeft: [])
    }

    func prepare(_ measurement: String?, paragraph: StyledParagraph, text: CollectedText) -> PreparedParagraph {
        prepared += 1
        return LayoutTests.prepared(paragraph.runs)
    }

    func hasHyphenationPatterns(for language: String) -> Bool { patterns.contains(language) }

    func hyphenationPoints(in word: String, language: String) -> [Int] {
        hyphenationLanguages.append(language)
        return Array(stride(from: 3, to: word.unicodeScalars.count, by: 3))
    }

    func cutLines(
        from measurement: String, composition: Composition, prepared: PreparedParagraph,
        paragraph: StyledParagraph, text: CollectedText
    ) -> [ShapedLine]? {
        guard cuts else { return nil }
        return composition.lines.map { _ in ShapedLine(handle: nil, x: 0, width: 0, ascent: 8, descent: 2) }
    }

    func shapeLines(_ lineSet: LineSet, composed: ArraySlice<ComposedLine>) -> ShapedLines {
        shapedTexts.append(lineSet.text)
        let lines = lineSet.text.split(separator: "\u{2028}", omittingEmptySubsequences: false).map {
            ShapedLine(handle: nil, x: 0, width: 0, ascent: 8, descent: 2, text: String($0))
        }
        return ShapedLines(lines: lines, rightToLeft: [])
    }
}

@Suite struct ParagraphLayoutTests {
    let font = FontSpec(families: ["X"], size: 10)

    func paragraph(_ texts: [String], alignment: TextAlignment = .justify, language: String? = nil)
        -> StyledParagraph
    {
        var style = RunStyle(font: font)
        style.language = language
        return StyledParagraph(
            runs: texts.map { StyledRun($0, style: style) },
            style: ParagraphStyle(baseFont: font, alignment: alignment, hangulLineBreak: .auto))
    }

    /// Every line of a composed paragraph, whole or shaped a group at a time.
    func allLines(_ composed: ParagraphLayout.Composed, _ shaping: FixedAdvanceShaping) -> [ShapedLine] {
        switch composed.lines {
        case .whole(let shaped):
            return shaped.lines
        case .pending(var pending):
            var lines: [ShapedLine] = []
            while let group = ParagraphLayout.nextGroup(&pending, shaping: shaping) {
                #expect(group.first == lines.count)
                lines += group.lines
            }
            return lines
        }
    }

    @Test func wordsOfALanguageWithoutPatternsAreHyphenatedAsEnglish() {
        for (language, expected) in [("ko", "en"), ("ja", "en"), ("de", "de"), ("en", "en")] {
            let shaping = FixedAdvanceShaping()
            let text = "typesetting extraordinary paragraphs hyphenates considerable vocabulary everywhere"
            _ = ParagraphLayout.compose(paragraph([text], language: language), width: 90, shaping: shaping)
            #expect(!shaping.hyphenationLanguages.isEmpty, "\(language): no word hyphenated")
            #expect(Set(shaping.hyphenationLanguages) == [expected], "\(language): \(shaping.hyphenationLanguages)")
        }
        #expect(ParagraphComposer.hyphenationLanguage("ko", hasPatterns: { $0 == "en" }) == "en")
        #expect(ParagraphComposer.hyphenationLanguage("fr", hasPatterns: { _ in true }) == "fr")
    }

    @Test func aParagraphThatFitsIsMeasuredOnceAndAlignedNotBroken() {
        for (alignment, x) in [(TextAlignment.left, 0.0), (.center, 25), (.right, 50), (.justify, 0)] {
            let shaping = FixedAdvanceShaping()
            let composed = ParagraphLayout.compose(
                paragraph(["one line"], alignment: alignment), width: 90, shaping: shaping)
            let lines = allLines(composed, shaping)
            #expect(lines.count == 1 && lines[0].text == "one line")
            #expect(lines[0].x == x, "\(alignment): x \(lines[0].x)")
            #expect(shaping.measured == 1 && shaping.prepared == 0, "\(alignment): prepared for breaking")
        }
    }

    @Test func anEmptyParagraphIsOneLineAsTallAsItsFace() {
        let shaping = FixedAdvanceShaping()
        let lines = allLines(ParagraphLayout.compose(paragraph([""]), width: 90, shaping: shaping), shaping)
        #expect(lines.count == 1 && lines[0].width == 0 && lines[0].ascent == 8 && lines[0].descent == 2)
        #expect(shaping.measured == 0)
    }

    /// Lines cut from the measurement and lines shaped again carry the same source text, the
    /// composer's widths and offsets, and the same wrap flags; shaped again, each group holds
    /// at most the backend's runs, and the groups together hold every line once.
    @Test func linesShapedAgainInGroupsMatchLinesCut() {
        let words = (0..<300).map { "w\($0 % 7)rd" }
        // Many runs, so that the groups are cut by the backend's run limit.
        let runs = stride(from: 0, to: words.count, by: 3).map {
            words[$0..<min($0 + 3, words.count)].joined(separator: " ") + " "
        }
        for alignment in [TextAlignment.left, .center, .justify] {
            let cutting = FixedAdvanceShaping()
            let cut = allLines(
                ParagraphLayout.compose(paragraph(runs, alignment: alignment), width: 100, shaping: cutting), cutting)
            let shaping = FixedAdvanceShaping()
            shaping.cuts = false
            shaping.maximumRunsPerShaping = 8
            let shaped = allLines(
                ParagraphLayout.compose(paragraph(runs, alignment: alignment), width: 100, shaping: shaping), shaping)
            #expect(shaping.shapedTexts.count > 1, "\(alignment): one group")
            #expect(cut.count == shaped.count && cut.count > 10)
            #expect(cut.map(\.text) == shaped.map(\.text), "\(alignment)")
            #expect(cut.map(\.x) == shaped.map(\.x) && cut.map(\.width) == shaped.map(\.width))
            #expect(cut.map(\.isWrapContinuation) == shaped.map(\.isWrapContinuation))
            #expect(cut.dropFirst().allSatisfy(\.isWrapContinuation) && !cut[0].isWrapContinuation)
            // A line starting with `w` protrudes into the left margin (x < 0); none ends past the measure.
            #expect(cut.allSatisfy { $0.x + $0.width <= 100.001 }, "\(alignment): \(cut.map(\.width))")
            // The source text of the lines, joined, is the paragraph's (the spaces at breaks kept).
            #expect(cut.map(\.text).joined() == runs.joined(), "\(alignment)")
        }
    }

    @Test func aWordWiderThanTheMeasureIsReportedBroken() {
        let shaping = FixedAdvanceShaping()
        let composed = ParagraphLayout.compose(
            paragraph(["a Supercalifragilisticexpialidocious word"], alignment: .left), width: 60, shaping: shaping)
        #expect(composed.emergency)
        // This shaping's patterns put a hyphenation point after every third letter.
        #expect(
            composed.brokenWords == [
                .init(text: "Supercalifragilisticexpialidocious", treatment: .hyphenated, measure: 60)
            ])
        let calm = ParagraphLayout.compose(
            paragraph(["short words only here"], alignment: .left), width: 60, shaping: FixedAdvanceShaping())
        #expect(!calm.emergency && calm.brokenWords.isEmpty)
    }
}
