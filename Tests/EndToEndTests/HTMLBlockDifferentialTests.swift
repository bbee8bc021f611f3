import DocumentModel
import Foundation
import TestSupport
import Testing
import Typesetter

@testable import MarkdownParser

/// Raw HTML blocks read back from the PDF: every word of libxml2's own text of each HTML block
/// (and of cmark-gfm's plain text of the Markdown around it) is set, in order; a README's
/// centred opening is a centred heading above a centred paragraph; converting HTML blocks
/// costs time and memory linear in their size.
@Suite struct HTMLBlockDifferentialTests {
    /// HTML as READMEs write it, each piece one or more HTML blocks (and the Markdown between
    /// them); `W` stands for a word, every one different.
    static let pieces = [
        "<h1 align=\"center\">W W</h1>\n<p align=\"center\">W W W</p>",
        "<h1 align=\"center\">\n  <img src=\"logo.png\" alt=\"W\" width=\"96\"><br>\n  W\n</h1>\n\n"
            + "<p align=\"center\"><b>W</b> W</p>",
        "<p align=\"center\">\n  <a href=\"https://ci.example.com\"><img src=\"ci.svg\" alt=\"W\"></a>\n"
            + "  <a href=\"https://example.com/l\"><img src=\"l.svg\" alt=\"W\"></a>\n</p>\n<p>W W</p>",
        "<a href=\"https://example.com\"><img src=\"a.svg\"></a> "
            + "<a href=\"https://example.com/b\"><img src=\"b.svg\"></a>\nW W",
        "<details>\n<summary>W W</summary>\n\nW W W\n\n</details>",
        "<details><summary>W</summary>W <i>W</i></details>\n<p>W</p>",
        "<hr>\n<p>W W</p>", "<br>\n<p>W</p>", "<img src=\"x.png\" alt=\"W\">\n<p>W</p>", "<wbr>\n<p>W W</p>",
        "<source srcset=\"a.webp\">\n<p>W</p>", "<p>W</p>\n<!-- W W -->\n<p>W</p>",
        "<!-- W -->\n<p>W W</p>\n<!-- W -->\nW",
        "<ul>\n<li>W\n<ul><li>W</li><li>W</li></ul>\n</li>\n<li>W</li>\n</ul>\nW",
        "<ul><li>W</li><ul><li>W</li></ul>W</ul>W",
        "<ol start=\"3\"><li>W</li><li><p>W</p><p>W</p></li></ol>\n<p>W</p>",
        "<table>\n<thead><tr><th>W</th><th>W</th></tr></thead>\n"
            + "<tbody><tr><td>W</td><td>W</td></tr></tbody>\n</table>\nW",
        "<table><caption>W W</caption><tr><td>W</td></tr></table>\n<p>W</p>",
        "<blockquote>W W</blockquote>\n<p>W</p>", "<blockquote><p>W</p><p>W</p></blockquote>W",
        "<pre>W W\nW</pre>\n<p>W</p>", "<center>W</center>W", "<div align=\"center\">\n\n# W W\n\nW\n\n</div>",
        "<div align=\"right\"><p>W</p><p>W</p></div>W", "<dl><dt>W</dt><dd>W</dd></dl>\n<p>W</p>",
        "<h2>W</h2>W <b>W</b> <i>W</i> <code>W</code> <kbd>W</kbd>",
        "<picture><source srcset=\"a.webp\"><img src=\"a.png\" alt=\"W\"></picture>\n<p>W</p>",
        "<p>W</p>W<p>W</p>W", "<h3>W</h3>\n<h4>W</h4>\n<h5>W</h5>\n<h6>W</h6>W", "<div>\n<p>W</p>\n</div>\n<p>W</p>",
        "<p>W</p></body>W</html>W", "<p>W<br>W<br/>W</p>", "<sup>W</sup> <sub>W</sub> W",
        "<button>W</button> <noscript>W</noscript> W",
        "<form>\n<label>W</label>\n<textarea>W W</textarea>\n</form>\n<p>W</p>",
        "<video src=\"a.mp4\">W W</video>\n<p>W</p>",
        "<object data=\"x\"><param name=\"a\" value=\"b\">W</object> <canvas>W</canvas>",
        "<svg><text>W</text></svg> W", "<select><option>W</option></select> W",
        "<audio src=\"a.mp3\">\n\nW\n\n</audio>",
    ]

    /// Markdown between the HTML blocks: paragraphs and headings (no list markers or
    /// punctuation that the PDF shows differently).
    static let markdown = ["W W W", "## W W", "W *W* **W**"]

    /// A document of 1 to 5 pieces with Markdown between them, each `W` a word of its own.
    static func document(_ rng: inout SeededRandom, number: Int) -> String {
        var parts: [String] = []
        for _ in 0..<Int.random(in: 1...5, using: &rng) {
            parts.append(pieces.randomElement(using: &rng)!)
            if Bool.random(using: &rng) { parts.append(markdown.randomElement(using: &rng)!) }
        }
        var word = 0
        var text = ""
        for character in parts.joined(separator: "\n\n") {
            if character == "W" {
                text += "w\(number)x\(word)"
                word += 1
            } else {
                text.append(character)
            }
        }
        return text + "\n"
    }

    /// The words of `markdown` a reader must find: libxml2's text of each HTML block, less the
    /// elements Typeset leaves out with a warning (`<script>`, `<style>`… as a browser shows
    /// none of them), and cmark-gfm's plain text of the rest.
    static func expectedWords(_ markdown: String) -> [String] {
        CmarkTree.visibleWords(of: markdown) { HTMLFragment.libxmlWords(of: $0, hidden: RawHTML.hidden) }
    }

    /// The first of `words` missing from `text` when each is looked for after the one before;
    /// nil when all are there in order.
    static func firstMissing(_ words: [String], in text: String) -> String? {
        var start = text.startIndex
        for word in words {
            guard let found = text.range(of: word, range: start..<text.endIndex) else { return word }
            start = found.upperBound
        }
        return nil
    }

    @Test func everyWordOfEveryHTMLBlockIsSetInOrder() throws {
        var rng = SeededRandom(seed: 0x4854_4D4C)
        let readme = Self.pieces.prefix(6).joined(separator: "\n\n")
        let documents = [readme] + (0..<120).map { Self.document(&rng, number: $0) }
        var blocks: [Block] = []
        for (number, markdown) in documents.enumerated() {
            blocks.append(Block(.paragraph([.text("HTMLDOC\(number)")])))
            blocks += MarkdownParser.parse(markdown, file: "doc-\(number).md").document.blocks
        }
        let pdf = Render.folder + "/html-differential.pdf"
        var options = RenderOptions()
        options.footer = ""
        _ = try Typesetter.render(document: Document(blocks: blocks, file: "docs.md"), to: pdf, options: options)

        var actual: [Int: String] = [:]
        var current: Int?
        // Poppler's own reading order: it keeps a superscript or subscript in its line.
        for word in try PDFProbe.words(pdf).map(\.text) {
            if word.hasPrefix("HTMLDOC") {
                current = Int(word.dropFirst("HTMLDOC".count))
                if let current { actual[current] = "" }
            } else if let current {
                actual[current, default: ""] += word
            }
        }
        var failures: [String] = []
        var compared = 0
        for (number, markdown) in documents.enumerated() {
            let expected = Self.expectedWords(markdown)
            compared += expected.count
            let source = markdown.debugDescription
            if expected.isEmpty { failures.append("document \(number) has no words to compare: \(source)") }
            let set = actual[number] ?? ""
            if let missing = Self.firstMissing(expected, in: set) {
                failures.append("document \(number): '\(missing)' of \(expected) missing from '\(set)'\n  \(source)")
            }
        }
        #expect(compared > 1_000, "words compared: \(compared)")
        let shown = failures.prefix(6).joined(separator: "\n")
        #expect(failures.isEmpty, "\(failures.count) of \(documents.count) documents lose words:\n\(shown)")
    }

    /// The new user's trial of issue #26, read back from the PDF: every word a browser prints
    /// of a button, a select, media fallback, an SVG's text and MathML is set, in order, inline
    /// and as HTML blocks, in a table and a list; a script's and a style's are not.
    @Test func formControlsMediaDrawingsAndMathKeepTheirWordsInThePDF() throws {
        let markdown = """
            <svg><text>svgtext</text></svg> <button>buttonword</button> <select><option>optword</select> \
            <object>objectword</object> <video>videofallback</video> <math><mi>mathmlword</mi></math> after

            <select>
            <option selected>blockoption</option>
            <option>otheroption</option>
            </select>

            <noscript>
            <p>noscriptword</p>
            </noscript>

            <svg width="100" height="20"><text x="0" y="15">blocksvgword</text></svg>

            <script>hiddencall()</script>

            | cell |
            |---|
            | <button>cellbutton</button> <canvas>cellcanvas</canvas> |

            - <audio>itemaudio</audio> <math><mi>x</mi><mo>+</mo><mn>1</mn></math>

            """
        let (pdf, _) = try Render.markdown(markdown, name: "html-rendered-elements")
        let text = try PDFProbe.words(pdf).map(\.text).joined(separator: " ")
        let words = [
            "svgtext", "buttonword", "optword", "objectword", "videofallback", "mathmlword", "after", "blockoption",
            "noscriptword", "blocksvgword", "cellbutton", "cellcanvas", "itemaudio", "x+1",
        ]
        #expect(Self.firstMissing(words, in: text) == nil, "\(text)")
        #expect(!text.contains("otheroption") && !text.contains("hiddencall"), "\(text)")
    }

    /// The opening of many READMEs, read back from the PDF: the heading is set larger than the
    /// paragraph, above it on a line of its own, and both are centred on the measure, as
    /// GitHub shows them; the `<details>` summary and body and the paragraph after `<hr>` are
    /// each on lines of their own below.
    @Test func aCentredReadmeOpeningIsSetAsHeadingAndParagraph() throws {
        let markdown = """
            <h1 align="center">Lumen</h1>
            <p align="center">Measures light from the command line.</p>
            <p align="center">
              <a href="https://ci.example.com"><img src="ci.svg" alt="CI"></a>
            </p>
            <hr>
            <p>Plain words after the rule.</p>
            <details><summary>Summary words</summary>Body words inside.</details>

            """
        let (pdf, _) = try Render.markdown(markdown, name: "html-readme-opening")
        let words = try PDFProbe.words(pdf)
        func line(_ text: String) throws -> [PDFProbe.Word] {
            let first = try #require(words.first { $0.text == text.split(separator: " ")[0] }, "\(text) in \(words)")
            return words.filter { $0.line == first.line }
        }
        let heading = try line("Lumen")
        let paragraph = try line("Measures light from the command line.")
        let plain = try line("Plain words after the rule.")
        #expect(heading.map(\.text) == ["Lumen"], "the heading is alone on its line: \(heading)")
        #expect(paragraph.map(\.text).joined(separator: " ") == "Measures light from the command line.")
        #expect(
            heading[0].height > paragraph[0].height * 1.3,
            "heading \(heading[0].height) pt, paragraph \(paragraph[0].height) pt")
        #expect(heading[0].yMax < paragraph[0].yMin, "the heading is above the paragraph")
        // Centred: the line's middle is the measure's middle, which plain text's left edge and
        // the widest line show (the page's margins are equal by default).
        let pageWidth = try #require(Double(try PDFProbe.info(pdf)["Page size"]?.split(separator: " ")[0] ?? ""))
        func middle(_ words: [PDFProbe.Word]) -> Double { (words.map(\.xMin).min()! + words.map(\.xMax).max()!) / 2 }
        #expect(abs(middle(heading) - pageWidth / 2) < 2, "heading middle \(middle(heading)), page \(pageWidth)")
        #expect(abs(middle(paragraph) - pageWidth / 2) < 2, "paragraph middle \(middle(paragraph))")
        #expect(plain[0].xMin < middle(paragraph) - 100, "the paragraph after <hr> is not centred: \(plain)")
        let summary = try line("Summary words")
        let body = try line("Body words inside.")
        #expect(plain[0].yMax < summary[0].yMin && summary[0].yMax < body[0].yMin && summary[0].line != body[0].line)
    }

    /// Render time and peak memory (a subprocess's own, `/usr/bin/time`) of HTML blocks of n
    /// and 8n bytes, in the same run: each grows at most 10 times. Time is CPU time (user +
    /// system), which other processes on the machine do not inflate.
    @Test(.slow) func renderTimeAndMemoryGrowLinearlyWithHTMLBlocks() throws {
        let folder = try Render.scratchFolder("html-scaling")
        let small = 12_000
        let pairs = zip(Self.shapes(bytes: small), Self.shapes(bytes: small * 8))
        for ((name, smallMarkdown), (_, largeMarkdown)) in pairs {
            func measure(_ markdown: String, _ label: String) throws -> (seconds: Double, mebibytes: Double) {
                let input = folder + "/\(label).md"
                let report = folder + "/\(label).time"
                try markdown.write(toFile: input, atomically: false, encoding: .utf8)
                let arguments = [
                    "-f", "%U %S %M", "-o", report, Render.binary, "render", input, "-q",
                    "-o", folder + "/\(label).pdf",
                ]
                let run = try PDFProbe.run("time", arguments)
                #expect(run.status == 0, "\(run.output)")
                let fields =
                    try String(contentsOfFile: report, encoding: .utf8)
                    .split(separator: "\n").last.map { $0.split(separator: " ").compactMap { Double($0) } } ?? []
                guard fields.count == 3 else { return (.infinity, .infinity) }
                return (fields[0] + fields[1], fields[2] / 1024)
            }
            let one = try measure(smallMarkdown, "\(name)-small")
            let eight = try measure(largeMarkdown, "\(name)-large")
            // Below 20 ms of CPU the start of the process dominates: compare with 20 ms then.
            #expect(eight.seconds / max(one.seconds, 0.02) <= 10, "\(name): \(one.seconds) s, then \(eight.seconds) s")
            #expect(eight.mebibytes / one.mebibytes <= 10, "\(name): \(one.mebibytes) MiB, then \(eight.mebibytes) MiB")
        }
    }

    /// HTML blocks of about `bytes` bytes: one long text node, many paragraphs with inline
    /// elements and comments, a table of many rows.
    static func shapes(bytes: Int) -> [(name: String, markdown: String)] {
        func repeated(_ piece: String) -> String { String(repeating: piece, count: max(1, bytes / piece.utf8.count)) }
        return [
            ("text-node", "<div>\n" + repeated("word and more ") + "\n</div>\n"),
            ("paragraphs", repeated("<p align=\"center\">a <b>bold</b> word<br><!-- c --></p>\n")),
            ("table", "<table>" + repeated("<tr><td>a</td><td>b</td></tr>") + "</table>\n"),
        ]
    }
}
