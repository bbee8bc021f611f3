import Foundation
import TestSupport
import Testing
import Typesetter
import Typography

/// Every attribute measured in the PDF (poppler word boxes, content streams, fonts).
@Suite(.serialized) struct AttributeTests {
    /// Inter's descent as a share of its box height (descent 0.2415 em of 1.2103 em): poppler's
    /// word box spans ascent + descent, so the baseline is yMax − 0.1995 × height.
    static let interDescentShare = 0.2415 / 1.2103

    func baseline(_ word: PDFProbe.Word) -> Double { word.yMax - word.height * AttributeTests.interDescentShare }

    func render(_ markdown: String, _ name: String) throws -> (
        words: [PDFProbe.Word], pdf: String, report: RenderReport
    ) {
        let (pdf, report) = try Render.markdown(markdown, name: "attr-" + name)
        #expect(try PDFProbe.qpdfClean(pdf))
        return (try PDFProbe.words(pdf).filter { $0.yMax < 780 }, pdf, report)  // footer excluded
    }

    /// Baselines of successive lines, from the first word of each line starting with `prefix`.
    func baselines(_ words: [PDFProbe.Word], prefix: String) -> [Double] {
        words.filter { $0.text.hasPrefix(prefix) }.map(baseline)
    }

    /// What would be accepted in silence is a warning at its position naming what is accepted:
    /// a `features` value that is no OpenType feature setting (the valid ones still apply), and a
    /// `margins` side that does not exist.
    @Test func featureSyntaxAndUnknownMarginSidesAreWarned() throws {
        let markdown =
            "---\nmargins: {top: 20mm, bogus: 3mm}\n---\n\n[ok]{features=\"tnum -liga ss01=1 "
            + "cv01=on\"}\n\n[bad]{features=\"zzzzz tnum +ss01=1\"}\n"
        let (_, _, report) = try render(markdown, "feature-syntax")
        let features = report.diagnostics.filter { $0.message.contains("'features'") }
        #expect(features.count == 1 && features.first?.location?.line == 7, "\(report.diagnostics)")
        #expect(
            features.first?.message.contains("'zzzzz', '+ss01=1' ignored") == true
                && features.first?.message.contains("4-character tag") == true, "\(features)")
        let side = report.diagnostics.filter { $0.message.contains("margins.bogus") }
        #expect(
            side.count == 1 && side.first?.location?.line == 2
                && side.first?.message.contains("top, right, bottom and left") == true, "\(report.diagnostics)")
        #expect(report.diagnostics.count == 2, "\(report.diagnostics)")
    }

    @Test func trackingOfThreePointsOnTenGlyphsAddsTwentySevenPoints() throws {
        let (words, _, _) = try render(
            "ABCDEFGHIJ\n\n[KLMNOPQRST]{tracking=3}\n\n[ABCDEFGHIJ]{tracking=3}\n", "tracking")
        let plain = try #require(words.first { $0.text == "ABCDEFGHIJ" })
        // poppler may split tracked text into several words: measure the whole line.
        let trackedLine = words.filter { $0.yMin > plain.yMin + 30 }
        let tracked = trackedLine.map(\.xMax).max()! - trackedLine.map(\.xMin).min()!
        #expect(abs(tracked - plain.width - 27) < 0.05, "tracked \(tracked) plain \(plain.width)")
    }

    @Test func kerningLetterSpacingAndTheTrackingWinsRule() throws {
        let (words, _, _) = try render(
            """
            AAAAAAAAAA

            [AAAAAAAAAA]{kerning=2}

            [AAAAAAAAAA]{letterSpacing=10%}

            [AAAAAAAAAA]{kerning=5 tracking=1}
            """, "kerning")
        // One line per paragraph, top to bottom; poppler may split spaced text into words.
        let rows = Dictionary(grouping: words, by: { ($0.yMin * 10).rounded() }).sorted { $0.key < $1.key }.map { row in
            row.value.map(\.xMax).max()! - row.value.map(\.xMin).min()!
        }
        #expect(rows.count == 4)
        // Ten glyphs, nine gaps.
        #expect(abs(rows[1] - rows[0] - 18) < 0.05)
        #expect(abs(rows[2] - rows[0] - 9 * 1.05) < 0.05, "10% of 10.5 pt")
        #expect(abs(rows[3] - rows[0] - 9) < 0.05, "tracking applies, kerning ignored")
    }

    func stepInDiv(_ attributes: String, _ name: String) throws -> [Double] {
        let text = String(repeating: "Latin line words fill the measure so this paragraph wraps. ", count: 8)
        let (words, _, _) = try render("::: {\(attributes)}\n\(text)\n:::\n", name)
        let lines = Dictionary(grouping: words, by: { ($0.yMin * 10).rounded() }).keys.sorted()
        let firstWords = lines.map { y in words.filter { ($0.yMin * 10).rounded() == y }.min { $0.xMin < $1.xMin }! }
        let b = firstWords.map(baseline)
        return zip(b, b.dropFirst()).map { $1 - $0 }
    }

    @Test func lineHeightMultipleTwoIsTwiceTheStepOfOne() throws {
        let one = try stepInDiv("lineHeightMultiple=1", "lhm1")
        let two = try stepInDiv("lineHeightMultiple=2", "lhm2")
        #expect(one.count >= 3 && two.count >= 3)
        for step in one { #expect(abs(step - one[0]) < 0.01) }
        for step in two { #expect(abs(step - 2 * one[0]) < 0.02, "\(step) vs 2 × \(one[0])") }
        #expect(abs(one[0] - 10.5 * 1.2103) < 0.05, "natural height of Inter 10.5")
    }

    @Test func absoluteRelativeAndLeadingLineHeights() throws {
        for step in try stepInDiv("lineHeight=30", "lh30") { #expect(abs(step - 30) < 0.02) }
        for step in try stepInDiv("lineHeight=150%", "lh150") { #expect(abs(step - 15.75) < 0.02) }
        let standard = try stepInDiv("lineHeight=20", "lh20")[0]
        let tight = try stepInDiv("lineHeight=20 leading=tight", "tight")[0]
        let loose = try stepInDiv("lineHeight=20 leading=loose", "loose")[0]
        #expect(abs(standard - 20) < 0.02 && abs(tight - 18) < 0.02 && abs(loose - 22) < 0.02)
    }

    @Test func hangulLinesKeepTheLatinStep() throws {
        // Hard line breaks alternate Latin-only lines and lines with Hangul (Noto Sans CJK KR is
        // 1.45 em tall against Inter's 1.21 em); every line holds a Latin marker word.
        let lines = (1...8).map { $0 % 2 == 0 ? "mark\($0) 한국어 문장입니다 글자" : "mark\($0) latin only text" }
        let (words, _, _) = try render("::: {lineHeight=18}\n" + lines.joined(separator: "\\\n") + "\n:::\n", "grid")
        let b = baselines(words, prefix: "mark")
        #expect(b.count == 8)
        for (a, c) in zip(b, b.dropFirst()) { #expect(abs(c - a - 18) < 0.02, "step \(c - a)") }
        let (plain, _, _) = try render(
            lines.map { _ in "mark latin only text" }.joined(separator: "\\\n") + "\n", "grid-plain")
        let pb = baselines(plain, prefix: "mark")
        let hb = baselines(try render(lines.joined(separator: "\\\n") + "\n", "grid-mixed").words, prefix: "mark")
        for ((a, c), (d, e)) in zip(zip(pb, pb.dropFirst()), zip(hb, hb.dropFirst())) {
            #expect(abs((c - a) - (e - d)) < 0.02, "Hangul does not change the natural step")
        }
    }

    @Test func mixedRolesShareABaseline() throws {
        let (words, _, _) = try render(
            "[Display]{.display} body [Caption2]{.caption2} [Headline]{.headline}\n", "mixed")
        let display = try #require(words.first { $0.text == "Display" })
        let caption = try #require(words.first { $0.text == "Caption2" })
        let headline = try #require(words.first { $0.text == "Headline" })
        #expect(display.height > caption.height * 4)
        #expect(abs(baseline(display) - baseline(caption)) < 0.25)
        #expect(abs(baseline(display) - baseline(headline)) < 0.25)
    }

    @Test func strokeIsDrawnWithItsWidthUnderTheFill() throws {
        let (words, pdf, _) = try render(
            "[OUTLINE]{.title strokeColor=#FF0000 strokeWidth=2.5 color=#FFFFFF}\n", "stroke")
        #expect(words.contains { $0.text == "OUTLINE" }, "the outlined text stays extractable")
        let content = try PDFProbe.contentStreams(pdf)
        #expect(content.contains("2.5 w"))
        #expect(content.contains("1 0 0 RG"), "red stroke colour")
        let strokeAt = try #require(content.range(of: " S\n") ?? content.range(of: " S "))
        let fillAt = try #require(content.range(of: "Tj") ?? content.range(of: "TJ"))
        #expect(strokeAt.lowerBound < fillAt.lowerBound, "stroke first, fill on top")
    }

    @Test func faceAttributesChooseFaces() throws {
        let (words, pdf, _) = try render(
            """
            [light]{weight=300} [black]{weight=black} [ital]{italic} [serif]{family="DejaVu Serif"} [mono]{monospaced} \
            [big]{size=21} small
            """, "face")
        let fonts = try PDFProbe.fonts(pdf)
        for face in ["Inter-Light", "Inter-Black", "Inter-Italic", "DejaVuSerif", "DejaVuSansMono"] {
            #expect(fonts.contains(face), "\(face) in \(fonts)")
        }
        let big = try #require(words.first { $0.text == "big" })
        let small = try #require(words.first { $0.text == "small" })
        #expect(abs(big.height / small.height - 2) < 0.01)
    }

    @Test func boldAndSmallCapsChooseFacesAndForms() throws {
        let (words, pdf, _) = try render(
            """
            [bold]{bold} HHHH [HHHH hhhh]{smallCaps} [hhhh]{lowercaseSmallCaps} [HHHH]{family="Noto Sans Mono" \
            uppercaseSmallCaps} [HHHH]{family="Noto Sans Mono"}
            """, "caps")
        #expect(try PDFProbe.fonts(pdf).contains("Inter-Bold"))
        // The text stays as written (poppler reads the source letters back); the glyphs change.
        let hs = words.filter { $0.text == "HHHH" }
        let ls = words.filter { $0.text == "hhhh" }
        #expect(hs.count == 4 && ls.count == 2, "\(words.map(\.text))")
        let capHeight = try PDFProbe.inkHeight(pdf, in: hs[0])
        // Synthesized by Pango (Inter has no smcp/c2sc): capitals scaled to about the x-height.
        #expect(try PDFProbe.inkHeight(pdf, in: hs[1]) < capHeight * 0.85, "smallCaps shrinks capitals too")
        for lower in ls {
            #expect(try PDFProbe.inkHeight(pdf, in: lower) < capHeight * 0.85, "lowercase set as small capitals")
        }
        // Noto Sans Mono has c2sc: capitals → small capitals.
        let c2sc = try PDFProbe.inkHeight(pdf, in: hs[2])
        let monoCaps = try PDFProbe.inkHeight(pdf, in: hs[3])
        #expect(c2sc < monoCaps * 0.9)
    }

    @Test func featuresAndDecorations() throws {
        let (words, pdf, _) = try render(
            """
            11111 00000 [11111 00000]{features="tnum"} [under]{underline=#D0453A} [struck]{strikethrough=#2F5BD3} under
            """, "features")
        let ones = words.filter { $0.text == "11111" }
        let zeros = words.filter { $0.text == "00000" }
        #expect(abs(ones[1].width - zeros[1].width) < 0.05 && abs(ones[0].width - zeros[0].width) > 1)
        let content = try PDFProbe.contentStreams(pdf)
        #expect(content.contains("0.815686 0.270588 0.227451 rg"), "underline colour")
        #expect(content.contains("0.184314 0.356863 0.827451 rg"), "strikethrough colour")
        // "under" has no descenders: its underline adds ink below the baseline.
        let unders = words.filter { $0.text == "under" }
        let underlined = try PDFProbe.inkHeight(pdf, in: unders[0])
        let plain = try PDFProbe.inkHeight(pdf, in: unders[1])
        #expect(underlined > plain + 0.8, "\(underlined) vs \(plain)")
    }

    @Test func monospacedDigitsAreTabular() throws {
        let (words, _, _) = try render("11111 00000\n\n[11111 00000]{monospacedDigit}\n", "tnum")
        let ones = words.filter { $0.text == "11111" }
        let zeros = words.filter { $0.text == "00000" }
        #expect(ones.count == 2 && zeros.count == 2)
        #expect(abs(ones[0].width - zeros[0].width) > 1, "proportional figures differ")
        #expect(abs(ones[1].width - zeros[1].width) < 0.05, "tabular figures are equal")
    }

    @Test func baselineOffsetRaisesAndColourIsApplied() throws {
        let (words, pdf, _) = try render(
            "base [up]{baselineOffset=4} [down]{baselineOffset=-3} [blue]{color=#2F5BD3}\n", "offset")
        let base = try #require(words.first { $0.text == "base" })
        let up = try #require(words.first { $0.text == "up" })
        let down = try #require(words.first { $0.text == "down" })
        #expect(abs((baseline(base) - baseline(up)) - 4) < 0.05)
        #expect(abs((baseline(down) - baseline(base)) - 3) < 0.05)
        #expect(try PDFProbe.contentStreams(pdf).contains("0.184314 0.356863 0.827451 rg"))
    }

    @Test func alignmentAndTrackingKeepRightEdgesFlush() throws {
        let (words, _, _) = try render(
            "::: {align=right}\n[FLUSH]{tracking=5}\n:::\n\n::: {align=center}\nmiddle\n:::\n", "align")
        let flush = words.filter { $0.text.contains("H") || $0.text.contains("FLUSH") }
        let right = try #require(flush.map(\.xMax).max())
        let page = Typesetter.fittedPage(of: .default)
        #expect(
            abs(right - (page.paper.width - page.margins.right)) < 0.3,
            "no trailing tracking after the last glyph: \(right)")
        let middle = try #require(words.first { $0.text == "middle" })
        #expect(abs((middle.xMin + middle.xMax) / 2 - 595.2756 / 2) < 0.3)
    }

    @Test func badAttributesWarnWithPositions() throws {
        let (_, _, report) = try render(
            "Intro.\n\nText [x]{.bodyy bogus=1 trackng=2 weight=heavyish}.\n\n## Head {lineHeight=abc}\n", "bad")
        let messages = report.diagnostics.map(\.description)
        #expect(
            messages.contains {
                $0.hasPrefix("attr-bad.md:3:") && $0.contains("unknown role '.bodyy'; did you mean '.body'?")
            }, "\(messages)"
        )
        #expect(
            messages.contains {
                $0.hasPrefix("attr-bad.md:3:") && $0.contains("unknown attribute 'trackng'; did you mean 'tracking'?")
            })
        #expect(!messages.contains { $0.contains("bogus") }, "a key Typeset does not read is kept, silent")
        #expect(messages.contains { $0.hasPrefix("attr-bad.md:3:") && $0.contains("weight") })
        #expect(messages.contains { $0.hasPrefix("attr-bad.md:5:") && $0.contains("lineHeight") })
    }

    @Test func extremeValuesWarnAndAreIgnoredNeverCrash() throws {
        let values = [
            "baselineOffset=1e9", "tracking=1e9", "kerning=nan", "size=1e9", "size=inf", "size=1e-9",
            "size=0", "size=-5", "tracking=1000", "strokeWidth=-1", "weight=5000", "letterSpacing=1e6%",
        ]
        for (i, value) in values.enumerated() {
            let (words, pdf, report) = try render("Plain text [span]{\(value)} after.\n", "extreme\(i)")
            #expect(
                report.diagnostics.contains { $0.description.hasPrefix("attr-extreme\(i).md:1:") },
                "\(value) warns with its position")
            #expect(
                words.contains { $0.text == "span" } && words.contains { $0.text == "after." }, "\(value): nothing lost"
            )
            #expect(try PDFProbe.info(pdf)["Pages"] == "1")
        }
    }

    @Test func spanLineHeightIsIgnoredWithAWarning() throws {
        let (_, _, report) = try render("Text [span]{lineHeightMultiple=3}.\n", "spanlh")
        #expect(report.diagnostics.contains { $0.description.contains("ignored on a span") })
    }
}
