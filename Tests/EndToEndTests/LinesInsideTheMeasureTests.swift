import Foundation
import TestSupport
import Testing
import Typesetter

/// Lines are drawn as the line breaker measured them: a justified line ends at the measure
/// (a final stop or hyphen may hang a little into the margin), whatever its runs hold, and a
/// code line wrapped behind ↪ stays on one page. Read back with `pdftotext -bbox-layout`; the
/// default A4 page's text area ends at 461.5 pt.
@Suite struct LinesInsideTheMeasureTests {
    /// The right edge of the default page's text area, pt, and what a line's last character
    /// may hang past it (protrusion of a stop, comma or hyphen).
    static let rightEdge = 461.5
    static let hang = 2.5

    /// The words of `pdf` that end past the measure, with no warning said of them.
    func wordsPastTheMeasure(_ pdf: String) throws -> [PDFWord] {
        try PDFProbe.words(pdf).filter { $0.xMax > Self.rightEdge + Self.hang }
    }

    /// Inline code on a line of a justified paragraph: such a line is never expanded, so the
    /// breaker must not count on font expansion there (the paragraph is broken again without
    /// it); and a span set larger than the body beside Hangul, whose spaces keep their own
    /// width, so the body's spaces keep theirs too (one word space a line is for a paragraph
    /// whose spaces share one size).
    @Test(arguments: [
        "While `every` care `the` space dogs quick over fox every with `dogs` line fox dogs the `lazy` and while "
            + "over line over brown jumps space jumps jumps the the lazy `lazy` over over typesetters measure lazy "
            + "lazy over lazy line typesetters the every and over `jumps` while brown measure typesetters the "
            + "measure brown typesetters every typesetters with measure over with.",
        "본문에서는 기본 자간을 그대로 두는 것이 가장 읽기 좋습니다. [a tighter title and more]{.title3} shows that "
            + "one value works for both scripts and more words.",
        "A `theme` that names `families` for the `code` role and the pretendard theme uses it when a `role` asks "
            + "for `monospace` text in a `justified` paragraph that holds `several` spans of `inline` code.",
    ])
    func justifiedLinesEndAtTheMeasure(paragraph: String) throws {
        let (pdf, report) = try Render.markdown(
            "---\njustify: true\n---\n\n\(paragraph)\n", name: "inside-measure-\(abs(paragraph.hashValue) % 10_000)")
        let past = try wordsPastTheMeasure(pdf)
        #expect(past.isEmpty, "\(past)")
        #expect(!report.diagnostics.contains { $0.message.contains("runs past its edge") }, "\(report.diagnostics)")
    }

    /// A long code block of wrapped lines on A5: each page's first code line begins a source
    /// line (`xN = …`), never its continuation after ↪.
    @Test func aWrappedCodeLineStaysOnOnePage() throws {
        let lines = (1...40).map {
            "x\($0) = some_function(alpha, beta, gamma) + another_long_call(delta, epsilon, zeta, eta, theta, iota)"
        }
        for info in ["python", "{.python .numberLines}"] {
            let markdown = "---\npaper: a5\n---\n\n# Code\n\n```\(info)\n\(lines.joined(separator: "\n"))\n```\n"
            // Untagged: poppler's words are the glyphs where they are drawn (tagged, a wrapped
            // line reads as its source line, one word on its first drawn line).
            var options = RenderOptions()
            options.tagged = false
            let (pdf, _) = try Render.markdown(markdown, name: "wrapped-code-pages", options: options)
            let words = try PDFProbe.words(pdf)
            let pages = Set(words.map(\.page)).sorted()
            #expect(pages.count > 1)
            // A source line begins `xN`; its continuation with one of the later arguments.
            let continuations: Set<String> = ["delta,", "epsilon,", "zeta,", "eta,", "theta,", "iota)"]
            for page in pages.dropFirst() {
                let code = words.filter { word in
                    word.page == page
                        && (word.text.range(of: #"^x[0-9]+$"#, options: .regularExpression) != nil
                            || continuations.contains(word.text))
                }
                let first = code.min { ($0.yMin, $0.xMin) < ($1.yMin, $1.xMin) }
                #expect(
                    first?.text.hasPrefix("x") == true, "\(info): page \(page) opens with \(String(describing: first))")
            }
        }
    }
}
