import Foundation
import TestSupport
import Testing
import Typesetter
import Typography

/// Read back from the PDFs: One baseline for every run of a line whatever its font,
/// line steps that superscripts do not disturb, emoji that never take over text and never
/// corrupt the file, weights that never silently fall to regular, tracking that leaves cursive
/// scripts joined, and warnings for every text the page draws.
@Suite(.serialized) struct TypeExactnessTests {
    static let themes = ["default", "hig", "pretendard"]

    func render(
        _ markdown: String, _ name: String, theme: String = "default", request: ThemeRequest? = nil,
        options: RenderOptions = RenderOptions()
    ) throws -> (pdf: String, report: RenderReport) {
        var options = options
        options.themeRequest = request ?? ThemeRequest(theme: theme)
        return try Render.markdown(markdown, name: "exact-\(name)-\(theme)", options: options)
    }

    /// The shows of a page grouped into lines: each show within `tolerance` pt of the previous
    /// one joins its line, top to bottom.
    static func lines(_ shows: [PDFProbe.TextShow], tolerance: Double = 2.5) -> [[PDFProbe.TextShow]] {
        var lines: [[PDFProbe.TextShow]] = []
        for show in shows.sorted(by: { ($0.page, $0.baseline) < ($1.page, $1.baseline) }) {
            if let last = lines.last?.last, last.page == show.page, abs(last.baseline - show.baseline) < tolerance {
                lines[lines.count - 1].append(show)
            } else {
                lines.append([show])
            }
        }
        return lines
    }

    // MARK: 1. One baseline for mixed scripts

    /// Expects the runs of each line set at the line's own size (a footnote marker is smaller
    /// and raised on purpose) to share one baseline; returns how many lines mix fonts.
    static func expectOneBaselinePerLine(_ lines: [[PDFProbe.TextShow]], _ theme: String) -> Int {
        var mixed = 0
        for line in lines {
            let size = line.map(\.size).max()!
            let body = line.filter { abs($0.size - size) < 0.01 }
            guard Set(body.map(\.font)).count > 1 else { continue }
            mixed += 1
            let spread = body.map(\.baseline).max()! - body.map(\.baseline).min()!
            #expect(spread < 0.01, "\(theme): runs of one line on different baselines (\(spread) pt): \(body)")
        }
        return mixed
    }

    @Test(arguments: themes) func everyRunOfAMixedScriptLineSitsOnOneBaseline(theme: String) throws {
        let markdown = """
            # 한글 Display Heading 2024 {.display}

            한글 Typography 2024 본문 Body text.

            Typography 한글 2024 본문 Body text.

            - 목록 List item 2024 항목

            > 인용 Quoted text 2024 인용

            | 표 Cell 2024 | 칸 Column 42 |
            | --- | --- |
            | 한글 Table cell 7 | 값 Value 9 |

            ```
            코드 code 2024 코드
            ```

            ::: {.caption}
            설명 Caption 2024 설명
            :::

            각주 Footnote marker here.[^1]

            [^1]: 각주 Note text 2024 각주.
            """
        let (pdf, _) = try render(markdown, "baseline", theme: theme)
        let shows = try PDFProbe.textShows(pdf).filter { $0.glyphs > 0 }
        let fonts = Set(shows.map(\.font))
        #expect(fonts.contains { $0.contains("CJK") }, "Hangul comes from a CJK face: \(fonts)")
        let mixed = Self.expectOneBaselinePerLine(Self.lines(shows), theme)
        #expect(mixed >= 9, "\(theme): lines mixing fonts found: \(mixed)")
    }

    /// The showcase in the default theme (the other themes are covered line by kind above).
    @Test func everyLineOfTheShowcaseHasOneBaseline() throws {
        let theme = "default"
        let source = try String(contentsOfFile: Render.packageRoot + "/templates/showcase.md", encoding: .utf8)
        var options = RenderOptions()
        options.baseDirectory = Render.packageRoot + "/templates"
        let (pdf, _) = try render(source, "showcase", theme: theme, options: options)
        let mixed = Self.expectOneBaselinePerLine(
            Self.lines(try PDFProbe.textShows(pdf).filter { $0.glyphs > 0 }, tolerance: 1.9), theme)
        #expect(mixed > 20, "\(theme): \(mixed) lines mix fonts")
    }

    @Test func koreanParagraphKeepsAnEvenLatinBaselinePitch() throws {
        let sentence = "한국어 문단 Korean paragraph 본문 text 2024 같이 "
        let (pdf, _) = try render(String(repeating: sentence, count: 14) + "\n", "korean-pitch")
        let lines = Self.lines(
            try PDFProbe.textShows(pdf).filter {
                $0.glyphs > 0 && $0.font.hasPrefix("Inter") && $0.page == 1 && $0.baseline < 780
            })
        let baselines = lines.map { $0[0].baseline }
        #expect(baselines.count >= 5)
        let steps = zip(baselines.dropFirst(), baselines).map { $0 - $1 }
        for step in steps { #expect(abs(step - steps[0]) < 0.01, "Latin baseline steps \(steps)") }
    }

    // MARK: 2. Footnote markers and raised runs keep the line step

    @Test(arguments: themes) func footnoteMarkersAndRaisedRunsDoNotMoveTheLine(theme: String) throws {
        let words = String(repeating: "Words in a paragraph that wraps over several lines ", count: 3)
        let plain = words + words + words + "\n"
        let marked =
            words + "marker here[^1] " + words + "raised [up]{baselineOffset=0.5} and [down]{baselineOffset=-0.5} "
            + words
            + "\n\n[^1]: The note.\n"
        func steps(_ markdown: String, _ name: String) throws -> [Double] {
            let (pdf, _) = try render(markdown, name, theme: theme)
            let body = Self.lines(try PDFProbe.textShows(pdf).filter { $0.glyphs > 0 && $0.page == 1 }, tolerance: 4)
                .filter { $0.count > 0 && $0[0].baseline < 600 }
            let size = body.first!.map(\.size).max()!
            // Each line's baseline: the one most of its full-size glyphs sit on.
            let baselines = body.compactMap { line -> Double? in
                let full = line.filter { abs($0.size - size) < 0.01 }
                let counts = Dictionary(grouping: full, by: { ($0.baseline * 100).rounded() }).mapValues {
                    $0.reduce(0) { $0 + $1.glyphs }
                }
                return counts.max { $0.value < $1.value }.map { $0.key / 100 }
            }
            return zip(baselines.dropFirst(), baselines).map { $0 - $1 }
        }
        let reference = try steps(plain, "plain-steps")
        let withMarkers = try steps(marked, "marker-steps")
        #expect(withMarkers.count >= 4)
        for step in withMarkers {
            #expect(abs(step - reference[0]) < 0.015, "\(theme): line steps \(withMarkers), plain \(reference[0])")
        }
        // A run raised beyond the half-leading grows its line by exactly the excess (docs/markdown.md,
        // "Line height and the baseline grid"): Body in the default theme is Inter 10.5 pt,
        // natural height 20.574/17 em.
        if theme == "default" {
            let high = words + "raised [high]{baselineOffset=3} " + words + "\n"
            let grown = try steps(high, "high-steps")
            let half = (reference[0] - 10.5 * 20.574 / 17) / 2
            let excess = grown.map { $0 - reference[0] }.filter { $0 > 0.01 }
            #expect(excess.count == 1 && abs(excess[0] - (3 - half)) < 0.02, "steps \(grown), half-leading \(half)")
        }
    }

    @Test func aTableCellWithAMarkerSitsOnItsNeighboursBaseline() throws {
        let (pdf, _) = try render(
            "| A | B |\n| --- | --- |\n| Cell text[^1] | Neighbour text |\n\n[^1]: Note.\n", "cell-marker")
        let words = try PDFProbe.textShows(pdf).filter { $0.glyphs > 0 }
        let cell = try #require(words.first { $0.glyphs == 9 && $0.baseline > 100 })  // "Cell text"
        let neighbour = try #require(words.first { $0.glyphs == 14 })  // "Neighbour text"
        #expect(abs(cell.baseline - neighbour.baseline) < 0.01, "\(cell) vs \(neighbour)")
    }

    // MARK: 3–4. Emoji never take over text and never corrupt the PDF

    static let emojiFolder = "/usr/share/fonts/truetype/noto"

    /// A theme extending `base` whose sans list ends in Noto Color Emoji (Debian's
    /// fonts-noto-cjk and fonts-noto-color-emoji, installed by the Makefile).
    static func emojiTheme(extending base: String) throws -> String {
        let path = Render.folder + "/emoji-\(base).json"
        let sans =
            base == "pretendard"
            ? #"["Pretendard", "Inter", "Noto Sans CJK KR", "Noto Color Emoji"]"#
            : #"["Inter", "Noto Sans CJK KR", "Noto Color Emoji"]"#
        try #"{ "name": "emoji-\#(base)", "extends": "\#(base)", "families": { "sans": \#(sans) } }"#
            .write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    @Test(arguments: themes) func anEmojiFamilyInTheListNeverTakesOverDigitsHashOrAsterisk(theme: String) throws {
        let markdown = """
            # Heading 12345 #7 *

            Order 12345 shipped. Item #3 costs 4 * 5 and ✅ 🎉 are emoji; 1️⃣ is a keycap.

            | Number | Value |
            | --- | --- |
            | 67890 | #9 * |
            """
        let request = ThemeRequest(theme: try Self.emojiTheme(extending: theme), fontFolders: [Self.emojiFolder])
        var options = RenderOptions()
        options.footer = "Page {page} #1"
        let (pdf, _) = try render(markdown, "emoji-digits", theme: theme, request: request, options: options)
        let text = try PDFProbe.text(pdf)
        for expected in [
            "Heading 12345 #7 *", "Order 12345 shipped. Item #3 costs 4 * 5", "67890", "#9 *", "Page 1 #1",
        ] {
            #expect(text.contains(expected), "\(theme): '\(expected)' not extracted as text: \(text)")
        }
        // Digits come from the text face, never from the emoji font.
        let fonts = try PDFProbe.fonts(pdf)
        #expect(!fonts.contains { $0.lowercased().contains("emoji") || $0 == "[none]" }, "\(theme): \(fonts)")
        // The emoji themselves (✅, 🎉, the keycap) are drawn, as images.
        let images = try PDFProbe.run("pdfimages", ["-list", pdf]).output.split(separator: "\n").filter {
            $0.contains(" image ")
        }
        #expect(images.count >= 3, "\(theme): \(images)")
        #expect(try PDFProbe.qpdfClean(pdf))
    }

    @Test(arguments: themes) func repeatedColourEmojiWriteAValidPDFWithCrispImages(theme: String) throws {
        let markdown = """
            # Done ✅ ✅

            Done ✅ and done ✅ again. 🎉🎉🎉 👩‍💻 👩‍💻

            - ✅ item ✅

            | ✅ | ✅ |
            | --- | --- |
            | 🎉 | 🎉 |

            Note[^1].

            [^1]: Party 🎉 ✅
            """
        let request = ThemeRequest(theme: theme, fontFolders: [Self.emojiFolder])
        let (pdf, _) = try render(markdown, "emoji-repeat", theme: theme, request: request)
        #expect(try PDFProbe.qpdfClean(pdf), "\(theme): qpdf --check")
        #expect(!(try PDFProbe.run("pdffonts", [pdf]).output.contains("Type 3")), "no Type 3 colour fonts")
        let list = try PDFProbe.run("pdfimages", ["-list", pdf]).output.split(separator: "\n").filter {
            $0.contains(" image ")
        }
        #expect(list.count >= 12, "\(theme): \(list.count) images")
        for line in list {
            // Columns: page num type width height color comp bpc enc interp object ID x-ppi y-ppi …
            let fields = line.split(separator: " ")
            let ppi = Double(fields[12]) ?? 0
            #expect(ppi >= 290, "\(theme): emoji image at \(ppi) ppi: \(line)")
        }
        // The text around the emoji is still text.
        #expect(try PDFProbe.text(pdf).contains("and done"))
    }

    // MARK: 5. Weights at or above 600 never print as regular

    @Test(arguments: themes) func semiboldOnASingleWeightFamilyIsSynthesizedAndWarned(theme: String) throws {
        let markdown = """
            # LargeTitle HHHH

            ## Title HHHH

            ### Title3 HHHH

            #### Headline HHHH

            Body HHHH and **bold HHHH** and [semibold HHHH]{weight=600} and [regular HHHH]{weight=400}.

            | Header HHHH | Other |
            | --- | --- |
            | Cell HHHH | x |
            """
        let request = ThemeRequest(
            theme: theme, fontFolders: [ThemeAndFontTests.fontsFolder], family: "Typeset Test Serif")
        let (pdf, report) = try render(markdown, "single-weight", theme: theme, request: request)
        // Stem darkness: the share of dark pixels in each word's box at 300 dpi (independent of
        // size for one weight). Words in order: LargeTitle, Title, Title3, Headline, Body,
        // bold, semibold, regular, header cell, body cell.
        let words = try PDFProbe.words(pdf).filter { $0.text.hasPrefix("HHHH") }
        try #require(words.count == 10, "\(words)")
        let d = try words.map { try PDFProbe.inkDensity(pdf, in: $0) }
        let regular = d[4]
        #expect(abs(d[7] / regular - 1) < 0.1, "\(theme): body and weight=400 alike: \(d)")
        #expect(d[6] > regular * 1.15, "\(theme): weight 600 is heavier than regular: \(d)")
        #expect(d[5] > regular * 1.15, "\(theme): bold is heavier than regular: \(d)")
        #expect(d[8] > d[9] * 1.15, "\(theme): the header row is heavier than the body row: \(d)")
        if theme != "pretendard" {  // pretendard's Headline is Medium (500)
            #expect(d[3] > regular * 1.15, "\(theme): Headline (600) is heavier than regular: \(d)")
        }
        #expect(
            report.diagnostics.contains {
                $0.message.contains("'Typeset Test Serif' has no face of weight") && $0.message.contains("600")
            },
            "\(report.diagnostics.map(\.message))")
    }

    // MARK: 6. Bold Text moves every family of the run and bold runs

    static let interWeights = [
        "Thin", "ExtraLight", "Light", "Regular", "Medium", "SemiBold", "Bold", "ExtraBold", "Black",
    ]

    @Test(arguments: themes) func boldTextMovesFallbackFamiliesAndBoldRunsUp(theme: String) throws {
        let markdown = "Body text 본문 and **bold 굵게 text** end.\n"
        var options = RenderOptions()
        options.footer = ""
        let (plain, _) = try render(markdown, "bold-text-off", theme: theme, options: options)
        let (bold, _) = try render(
            markdown, "bold-text-on", theme: theme,
            request: ThemeRequest(theme: theme, boldText: true), options: options)
        func faces(_ pdf: String) throws -> [String] {
            try PDFProbe.textShows(pdf).filter { $0.glyphs > 0 }.map(\.font)
        }
        let before = try faces(plain)
        let after = try faces(bold)
        func interRank(_ fonts: [String]) -> [Int] {
            fonts.compactMap { f in
                f.hasPrefix("Inter-") ? Self.interWeights.firstIndex(of: String(f.dropFirst(6))) : nil
            }
        }
        #expect(before.contains("NotoSansCJKkr-Regular"), "\(theme): \(before)")
        #expect(
            !after.contains("NotoSansCJKkr-Regular"), "\(theme): Hangul of the regular run gets heavier too: \(after)")
        #expect(
            interRank(after).min()! > interRank(before).min()!, "\(theme): regular run heavier: \(before) → \(after)")
        #expect(interRank(after).max()! > interRank(before).max()!, "\(theme): bold run heavier: \(before) → \(after)")
    }

    // MARK: 7. Tracking leaves cursive scripts joined

    /// Left and right edge of the glyph boxes of words holding characters of `range`.
    static func span(_ pdf: String, scalars range: ClosedRange<UInt32>) throws -> (Double, Double) {
        let words = try PDFProbe.words(pdf).filter { $0.text.unicodeScalars.contains { range.contains($0.value) } }
        return (words.map(\.xMin).min() ?? 0, words.map(\.xMax).max() ?? 0)
    }

    @Test(arguments: [
        ("arabic", "عليكم", UInt32(0x0600)...UInt32(0x06FF)), ("nko", "ߒߞߏߞߊ߲", UInt32(0x07C0)...UInt32(0x07FF)),
    ])
    func trackingIsNotAppliedInsideCursiveScripts(name: String, word: String, range: ClosedRange<UInt32>) throws {
        let tracked = "Latin [\(word)]{family=\"DejaVu Sans\" tracking=3} Latin\n"
        let untracked = "Latin [\(word)]{family=\"DejaVu Sans\"} Latin\n"
        let display = "[\(word)]{.display family=\"DejaVu Sans\" tracking=-2}\n"
        let displayUntracked = "[\(word)]{.display family=\"DejaVu Sans\" tracking=0}\n"
        let (a, _) = try render(tracked, "cursive-\(name)-tracked")
        let (b, _) = try render(untracked, "cursive-\(name)-plain")
        let (c, _) = try render(display, "cursive-\(name)-display")
        let (d, _) = try render(displayUntracked, "cursive-\(name)-display-plain")
        let sa = try Self.span(a, scalars: range)
        let sb = try Self.span(b, scalars: range)
        let sc = try Self.span(c, scalars: range)
        let sd = try Self.span(d, scalars: range)
        #expect(sb.1 - sb.0 > 10)
        #expect(abs((sa.1 - sa.0) - (sb.1 - sb.0)) < 0.05, "\(name): tracked \(sa) vs natural \(sb)")
        #expect(abs((sc.1 - sc.0) - (sd.1 - sd.0)) < 0.05, "\(name): Display tracked \(sc) vs natural \(sd)")
        // Latin beside it is still tracked.
        let (e, _) = try render("[Latin]{tracking=3}\n", "cursive-latin-tracked")
        let (f, _) = try render("Latin\n", "cursive-latin-plain")
        let le = try #require(try PDFProbe.words(e).first { $0.text == "Latin" })
        let lf = try #require(try PDFProbe.words(f).first { $0.text == "Latin" })
        #expect(abs(le.width - lf.width - 4 * 3) < 0.05, "Latin tracking: \(le.width) vs \(lf.width)")
    }

    // MARK: 8. Every text is checked

    @Test func missingGlyphsAndFamiliesAreReportedInNotesRunningTextsAndSpans() throws {
        let markdown = """
            ---
            title: "Report 𓀄"
            header: "{title} — 𓀀"
            toc: true
            ---
            # Main

            ## Section

            Text with a note[^1] and [x]{family="No Such Family"}.

            [^1]: Party 𓀂
            """
        let (pdf, report) = try render(markdown, "checks")
        let messages = report.diagnostics.map(\.description)
        // Said with the other missing characters of the file, at the footnote's definition.
        #expect(messages.contains { $0.contains("12:13 '𓀂'") }, "the footnote's box, at its definition: \(messages)")
        #expect(messages.contains { $0.contains("running head") && $0.contains("U+13000") }, "\(messages)")
        #expect(messages.contains { $0.contains("U+13004") }, "the title (title block and {title}): \(messages)")
        #expect(
            messages.contains { $0.contains("family 'No Such Family' not found") && $0.contains(":10:") }, "\(messages)"
        )
        #expect(try PDFProbe.qpdfClean(pdf))
        var strict = RenderOptions()
        strict.strict = true
        #expect(throws: (any Error).self) { try Render.markdown(markdown, name: "checks-strict", options: strict) }
    }
}
