import Foundation
import Testing
import Typesetter
import Typography

/// Issue 11, read back from the PDFs: one baseline for every run of a line whatever its font,
/// line steps that superscripts do not disturb, emoji that never take over text and never
/// corrupt the file, weights that never silently fall to regular, tracking that leaves cursive
/// scripts joined, and warnings for every text the page draws.
@Suite(.serialized) struct TypeExactnessTests {
    static let themes = ["default", "hig", "pretendard"]

    func render(_ markdown: String, _ name: String, theme: String = "default", request: ThemeRequest? = nil,
                options: RenderOptions = RenderOptions()) throws -> (pdf: String, report: RenderReport) {
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
        var mixed = 0
        for line in Self.lines(shows.filter { $0.size > 8 || $0.font.contains("Mono") || true }) {
            // Runs of the line's own size (a footnote marker is smaller and raised on purpose).
            let size = line.map(\.size).max()!
            let body = line.filter { abs($0.size - size) < 0.01 }
            guard Set(body.map(\.font)).count > 1 else { continue }
            mixed += 1
            let spread = body.map(\.baseline).max()! - body.map(\.baseline).min()!
            #expect(spread < 0.01, "\(theme): runs of one line on different baselines (\(spread) pt): \(body)")
        }
        #expect(mixed >= 9, "\(theme): lines mixing fonts found: \(mixed)")
    }

    @Test func koreanParagraphKeepsAnEvenLatinBaselinePitch() throws {
        let sentence = "한국어 문단 Korean paragraph 본문 text 2024 같이 "
        let (pdf, _) = try render(String(repeating: sentence, count: 14) + "\n", "korean-pitch")
        let lines = Self.lines(try PDFProbe.textShows(pdf).filter { $0.glyphs > 0 && $0.font.hasPrefix("Inter") && $0.page == 1 && $0.baseline < 780 })
        let baselines = lines.map { $0[0].baseline }
        #expect(baselines.count >= 5)
        let steps = zip(baselines.dropFirst(), baselines).map { $0 - $1 }
        for step in steps { #expect(abs(step - steps[0]) < 0.01, "Latin baseline steps \(steps)") }
    }

    // MARK: 2. Footnote markers and raised runs keep the line step

    @Test(arguments: themes) func footnoteMarkersAndRaisedRunsDoNotMoveTheLine(theme: String) throws {
        let words = String(repeating: "Words in a paragraph that wraps over several lines ", count: 3)
        let plain = words + words + words + "\n"
        let marked = words + "marker here[^1] " + words + "raised [up]{baselineOffset=2} and [down]{baselineOffset=-2} " + words
            + "\n\n[^1]: The note.\n"
        func steps(_ markdown: String, _ name: String) throws -> [Double] {
            let (pdf, _) = try render(markdown, name, theme: theme)
            let body = Self.lines(try PDFProbe.textShows(pdf).filter { $0.glyphs > 0 && $0.page == 1 })
                .filter { $0.count > 0 && $0[0].baseline < 600 }
            let size = body.first!.map(\.size).max()!
            // Each line's baseline: the one most of its full-size glyphs sit on.
            let baselines = body.map { line -> Double in
                let full = line.filter { abs($0.size - size) < 0.01 }
                let counts = Dictionary(grouping: full, by: { ($0.baseline * 100).rounded() }).mapValues { $0.reduce(0) { $0 + $1.glyphs } }
                return counts.max { $0.value < $1.value }!.key / 100
            }
            return zip(baselines.dropFirst(), baselines).map { $0 - $1 }
        }
        let reference = try steps(plain, "plain-steps")
        let withMarkers = try steps(marked, "marker-steps")
        #expect(withMarkers.count >= 4)
        for step in withMarkers {
            #expect(abs(step - reference[0]) < 0.01, "\(theme): line steps \(withMarkers), plain \(reference[0])")
        }
    }

    @Test func aTableCellWithAMarkerSitsOnItsNeighboursBaseline() throws {
        let (pdf, _) = try render("| A | B |\n| --- | --- |\n| Cell text[^1] | Neighbour text |\n\n[^1]: Note.\n", "cell-marker")
        let words = try PDFProbe.textShows(pdf).filter { $0.glyphs > 0 }
        let cell = try #require(words.first { $0.glyphs == 9 && $0.baseline > 100 })  // "Cell text"
        let neighbour = try #require(words.first { $0.glyphs == 14 })  // "Neighbour text"
        #expect(abs(cell.baseline - neighbour.baseline) < 0.01, "\(cell) vs \(neighbour)")
    }
}
