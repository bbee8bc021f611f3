import DocumentModel
import Foundation
import TestSupport
import Testing
import Typesetter

/// A file written with classic Mac line endings (a carriage return alone, CommonMark spec 0.30,
/// §2.1) sets the same text as the file written with line feeds, with the same warnings at the
/// same `line:column`: no syntax is printed as text in silence.
@Suite struct LineEndingRenderTests {
    static let source = """
        ---
        title: Line Endings
        ---

        # H {#h tracking=0.5}

        [y]{.headline} and [z]{colr=1}.

        ::: {.caption}
        div text[^1]
        :::

        | a | b |
        |---|--:|
        | 1 | 2 |

        ```
        code ::: line
        ```

        <b>raw</b> html

        [^1]: The note.

        """

    @Test func classicMacFileSetsLikeItsLineFeedFile() throws {
        let cr = String(Self.source.map { $0 == "\n" ? "\r" : $0 })
        let lf = try Render.markdown(Self.source, name: "endings-lf")
        let mac = try Render.markdown(cr, name: "endings-cr")
        let lfText = try PDFProbe.run("pdftotext", [lf.pdf, "-"]).output
        let crText = try PDFProbe.run("pdftotext", [mac.pdf, "-"]).output
        #expect(crText == lfText)
        #expect(crText.components(separatedBy: ":::").count == 2, "only the code line keeps its colons: \(crText)")
        #expect(!crText.contains("{") && !crText.contains("title:"), "\(crText)")
        func located(_ report: RenderReport) -> [String] {
            report.diagnostics.map { "\($0.location.map { "\($0.line):\($0.column)" } ?? "-") \($0.message)" }
        }
        #expect(located(mac.report) == located(lf.report))
        #expect(located(lf.report).contains { $0.hasPrefix("7:24 ") && $0.contains("colr") }, "\(located(lf.report))")
    }

    /// A bad UTF-8 sequence is named by its line counted as the parser counts lines: a lone
    /// carriage return ends one, `\r\n` is one line ending.
    @Test func aBadSequenceIsNamedByItsClassicMacLine() throws {
        for (bytes, line) in [
            (Array("one\rtwo\rb".utf8) + [0xFF], 3), (Array("one\r\ntwo\r\n".utf8) + [0xFF], 3),
            (Array("a\rb\nc\r".utf8) + [0xFF, 0x0D], 4),
        ] {
            let decoded = InputFile.decodeUTF8(Data(bytes), path: "a.md")
            #expect(decoded.diagnostics.map { $0.location?.line } == [line], "\(bytes)")
        }
    }
}
