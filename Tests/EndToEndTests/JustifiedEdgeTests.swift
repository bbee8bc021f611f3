import Foundation
import TestSupport
import Testing
import Typesetter

/// Justified lines read back from the PDF end at the measure, and a Korean line's word spaces
/// are one width: what a reader that adds up the fonts' `/Widths` (poppler's `pdftotext
/// -bbox-layout`) sees.
@Suite(.serialized) struct JustifiedEdgeTests {
    /// 90 mm measure on A4: the text area's right edge, pt from the page's left.
    static let rightEdge = (210.0 + 90) / 2 / 25.4 * 72

    /// The right edges, less the measure's, of the justified lines of `pdf` whose last word
    /// ends in a letter that does not protrude (microtype's protrusion set leaves these at 0).
    static func edgeOffsets(_ pdf: String) throws -> [Double] {
        let lines = WordSpacing.lines(try PDFProbe.words(pdf))
        return lines.filter { line in
            guard line.words.count > 1, let last = line.words.last?.text.last else { return false }
            return "acdeghilmnosu".contains(last) && abs(line.right - Self.rightEdge) < 2
        }.map { $0.right - Self.rightEdge }
    }

    @Test(arguments: [
        ("Inter", true), ("Inter", false), ("DejaVu Serif", true), ("DejaVu Sans", false),
        ("Noto Serif CJK KR", true),
    ])
    func justifiedLinesEndAtTheMeasure(_ family: String, _ tagged: Bool) throws {
        let source = "---\nmargins: 20mm 60mm\njustify: true\n---\n\n" + (try CompositionTests.englishProse())
        var options = RenderOptions(themeRequest: ThemeRequest(family: family))
        options.tagged = tagged
        let name = "edge-\(family.replacingOccurrences(of: " ", with: "-"))-\(tagged)"
        let (pdf, _) = try Render.markdown(source, name: name, options: options)
        #expect(try PDFProbe.qpdfClean(pdf))
        let offsets = try Self.edgeOffsets(pdf)
        #expect(offsets.count > 20, "\(offsets.count) lines")
        // Cairo's widths in whole thousandths of an em left these lines 0.19 to 0.33 pt short
        // (Inter), 0.06 to 0.41 pt (DejaVu Sans); now within 0.035 pt, one line of DejaVu Sans 0.052.
        let sorted = offsets.sorted()
        #expect(sorted.allSatisfy { abs($0) <= 0.06 }, "\(sorted.prefix(3)) … \(sorted.suffix(3))")
        // Lines ending in a hyphen: each ends where its hyphen protrudes, whatever letter comes
        // before it. The composer counts the letter's kerning with the hyphen (Inter's "r-" and "t-"
        // kern) and the kerning with the next letter that the break undoes: lines ending "at-",
        // "out-" and "(lineHeight-" stopped 0.1 to 0.33 pt short of those ending "de-" (Inter).
        let hyphenated = try Self.hyphenatedEdges(pdf)
        #expect(hyphenated.count >= 5, "\(hyphenated.count) hyphenated lines")
        let spread = (hyphenated.max() ?? 0) - (hyphenated.min() ?? 0)
        #expect(spread <= 0.06, "hyphenated lines end \(hyphenated.sorted()) pt past the measure")
    }

    @Test func linesEndingAtAnExplicitHyphenEndWhereItProtrudes() throws {
        // Compounds whose hyphen Inter kerns with the capital after it ("-T", "-V", "-Y" by
        // −0.07 to −0.08 em): a line ending at such a hyphen loses that kerning. Lines ending
        // "anti-", "mid-" and "semi-" overshot those ending at a hyphenation break by 0.28 to
        // 0.44 pt before the composer counted it.
        let compounds = [
            "non-Typeset", "pre-Victorian", "anti-Yankee", "semi-Vowel", "post-Tudor", "mid-Victorian",
            "non-Western", "ex-Yugoslav", "neo-Victorian", "quasi-Tropical",
        ]
        let text = (0..<40).map { "\(compounds[$0 % compounds.count]) \($0 % 2 == 1 ? "and" : "with the")" }
        let source =
            "---\nmargins: 20mm 60mm\njustify: true\n---\n\nThe \(text.joined(separator: " "))."
            + "\n\n" + (try CompositionTests.englishProse())
        let (pdf, _) = try Render.markdown(source, name: "edge-explicit-hyphens")
        let lines = WordSpacing.lines(try PDFProbe.words(pdf)).filter { $0.words.count > 1 }
        let explicit = lines.filter { $0.words.last!.text.hasSuffix("-") && abs($0.right - Self.rightEdge) < 5 }
        #expect(explicit.count >= 3, "\(explicit.map(\.text))")
        let hyphenated = try Self.hyphenatedEdges(pdf)
        let spread = (hyphenated.max() ?? 0) - (hyphenated.min() ?? 0)
        #expect(spread <= 0.06, "lines ending in a hyphen end \(hyphenated.sorted()) pt past the measure")
    }

    /// The right edges, less the measure's, of the justified lines of `pdf` that end in a
    /// hyphen: at a hyphenation break (read as the soft hyphen the tagged PDF's `/ActualText`
    /// gives, or as "-" without tags) or after an explicit hyphen.
    static func hyphenatedEdges(_ pdf: String) throws -> [Double] {
        let lines = WordSpacing.lines(try PDFProbe.words(pdf))
        return lines.filter { line in
            guard line.words.count > 1, let last = line.words.last?.text.last else { return false }
            return (last == "\u{AD}" || last == "-") && abs(line.right - Self.rightEdge) < 5
        }.map { $0.right - Self.rightEdge }
    }

    /// A line of Korean words with Latin words among them has one word space width, justified
    /// or ragged, in a paragraph of many lines and in one of a single line, centred too.
    @Test(arguments: [true, false])
    func aKoreanLineHasOneWordSpaceWidth(justify: Bool) throws {
        // Korean words with Latin words among them: Pango sets a space after a Latin word in
        // Inter (0.281 em) and one after Hangul in Noto Sans CJK KR (0.224 em).
        let sentence = "이 문서는 Typeset 으로 만든 PDF 파일 입니다 그리고 Markdown 문서를 읽어 줍니다 "
        let text = String(repeating: sentence, count: 6)
        let short = "Python 3 언어와 Rust 언어를 비교한다 Swift and Kotlin 그리고 한국어."
        let source =
            "---\nmargins: 20mm 60mm\njustify: \(justify)\nlang: ko\n---\n\n" + text + "\n\n" + text + "끝.\n\n"
            + short + "\n\n::: {align=center}\n" + short + "\n:::\n"
        let (pdf, _) = try Render.markdown(source, name: "ko-one-space-\(justify)")
        let all = WordSpacing.lines(try PDFProbe.words(pdf))
        let opening = all.filter { $0.text.hasPrefix("Python") }
        let lines = justify ? WordSpacing.justified(all).filter { !$0.text.hasPrefix("Python") } + opening : all
        #expect(lines.count >= 4)
        var mixed = 0
        var single = 0
        for line in lines {
            let gaps = line.gaps
            guard gaps.count > 2 else { continue }
            let latin = line.words.contains { $0.text.unicodeScalars.first.map { $0.value < 0x80 } == true }
            if latin { mixed += 1 }
            if line.text.hasPrefix("Python") { single += 1 }
            // One width a line: every gap within 0.1 pt of the line's others (they differed by
            // 0.5 pt: Inter's space after a Latin word, Noto Sans CJK KR's after Hangul).
            #expect((gaps.max()! - gaps.min()!) <= 0.1, "\(line.text): \(gaps)")
        }
        #expect(mixed >= 2)
        #expect(single == 2, "the one-line paragraphs, left and centred")
    }
}
