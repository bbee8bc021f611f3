import DocumentModel
import Testing

@testable import MarkdownParser

/// Form controls, media, plugins, drawings and formulas in raw HTML keep the text a browser
/// prints (without scripting, plugins or media playback), in their own block; what a browser
/// never shows stays out; each warning says what became of the element's text.
@Suite struct HTMLRenderedElementTests {
    /// The plain text of blocks, each block's text (and each table cell's, list item's) on a
    /// line of its own.
    static func text(_ blocks: [Block]) -> String {
        blocks.map { block -> String in
            switch block.kind {
            case .paragraph(let inlines), .heading(_, let inlines): inlines.plainText
            case .div(let children), .blockQuote(let children): text(children)
            case .list(let list): list.items.map { text($0.blocks) }.joined(separator: "\n")
            case .table(let table):
                ([table.header] + table.rows).map { $0.map(\.plainText).joined(separator: " | ") }
                    .joined(separator: "\n")
            default: ""
            }
        }.joined(separator: "\n")
    }

    /// The text of `markdown`'s blocks and its warnings.
    static func read(_ markdown: String) -> (text: String, warnings: [String]) {
        let result = parse(markdown)
        return (text(Array(result.document.blocks)), result.diagnostics.map(\.message))
    }

    /// The new user's trial of issue #26: every word a browser prints is set, in one paragraph.
    @Test func theTrialsParagraphKeepsEveryWord() {
        let markdown =
            "<svg><text>svgtext</text></svg> <button>buttonword</button> <select><option>optword</select> "
            + "<object>objectword</object> <video>videofallback</video> <math><mi>mathmlword</mi></math> after\n"
        let parsed = blocks(markdown)
        #expect(parsed.count == 1)
        let text = Self.text(parsed)
        var from = text.startIndex
        for word in ["svgtext", "buttonword", "optword", "objectword", "videofallback", "mathmlword", "after"] {
            let found = text.range(of: word, range: from..<text.endIndex)
            #expect(found != nil, "\(word) in \(text)")
            from = found?.upperBound ?? from
        }
    }

    /// Content a browser shows whole: a button's label, a text area's text, a form and its
    /// labels, `<noscript>` (a PDF runs no scripts), and the fallback content of media and
    /// plugins (a PDF plays none), inline and as HTML blocks, with and without blank lines.
    @Test(arguments: [
        ("Press <button>the <b>button</b></button> now\n", ["the button"]),
        ("<button>\nblock button words\n</button>\n", ["block button words"]),
        ("Type <textarea>area words</textarea> here\n", ["area words"]),
        ("<textarea>\nfirst line\nsecond line\n</textarea>\n", ["first line", "second line"]),
        ("<form action=\"/f\">\n<label>Name</label>\n<button>Send</button>\n</form>\n", ["Name", "Send"]),
        ("<form>\n\nMarkdown **inside** the form\n\n</form>\n", ["Markdown inside the form"]),
        ("A <noscript>noscript <i>words</i></noscript> b\n", ["noscript words"]),
        ("<noscript>\n<p>Please enable scripts.</p>\n</noscript>\n", ["Please enable scripts."]),
        (
            "<video src=\"a.mp4\" controls>\n<source src=\"a.webm\">\n"
                + "Video fallback <a href=\"a.mp4\">link</a>\n</video>\n",
            ["Video fallback link"]
        ),
        ("Hear <audio src=\"a.mp3\">audio fallback</audio> here\n", ["audio fallback"]),
        ("<object data=\"x.swf\"><param name=\"p\" value=\"v\">object fallback</object>\n", ["object fallback"]),
        ("<canvas width=\"10\">canvas fallback</canvas>\n", ["canvas fallback"]),
        ("<video>\n\nMarkdown between video tags\n\n</video>\n", ["Markdown between video tags"]),
    ])
    func controlsMediaAndNoscriptShowTheirText(markdown: String, expected: [String]) {
        let text = Self.read(markdown).text
        for words in expected { #expect(text.contains(words), "\(markdown.debugDescription) → \(text)") }
    }

    /// A drop-down `<select>` shows the option selected last, else the first not disabled, as
    /// its `label` or its text; a list box (`multiple`, `size`) shows every option, each on a
    /// line; an unclosed option or select ends where HTML's parser ends it.
    @Test(arguments: [
        (
            "Pick <select><option>one</option><option selected>two</option><option>three</option></select>.\n",
            "Pick two.", ["one", "three"]
        ),
        ("<select>\n<option>first</option>\n<option>second</option>\n</select>\n", "first", ["second"]),
        ("<select><option disabled>off<option>on<option>later</select>\n", "on", ["off", "later"]),
        (
            "<select><optgroup label=\"G\"><option label=\"Short\">A long text</option></optgroup></select>\n",
            "Short", ["A long text", "G"]
        ),
        ("x <select><option>optword</select> y\n", "x optword y", []),
        ("<select multiple>\n<option>m1</option>\n<option selected>m2</option>\n</select>\n", "m1 m2", []),
        ("<select size=\"3\"><option>s1<option>s2</select>\n", "s1 s2", []),
    ])
    func aSelectShowsWhatItsBoxShows(markdown: String, shown: String, hidden: [String]) {
        let parsed = blocks(markdown)
        let text = parsed.map { block in
            if case .paragraph(let inlines) = block.kind {
                RawHTML.trimmed(inlines.map { $0 == .lineBreak ? .text(" ") : $0 }).plainText
            } else {
                ""
            }
        }.joined(separator: " ")
        #expect(RawHTML.collapsed(text).trimmingCharacters(in: .whitespaces) == shown, "\(parsed.map(\.kind))")
        for word in hidden { #expect(!text.contains(word), "\(word) in \(text)") }
    }

    /// An `<svg>` shows the words of its `<text>` elements (with `<tspan>`, in a `<foreignObject>`
    /// its HTML); its `<title>`, `<desc>`, `<style>` and `<defs>` are not drawn. With no text it
    /// shows its `aria-label` or `<title>` in its place, as an image that cannot be drawn shows
    /// its alt text.
    @Test(arguments: [
        (
            "<svg><title>T1</title><desc>D1</desc><style>.a{}</style><rect/>"
                + "<text x=\"1\">drawn <tspan>words</tspan></text>"
                + "<defs><text>unused</text></defs><text>second</text></svg> after\n", "drawn words second after",
            ["T1", "D1", ".a", "unused"]
        ),
        (
            "<svg width=\"100\" height=\"20\">\n  <text x=\"0\" y=\"15\">Block svg text</text>\n</svg>\n",
            "Block svg text",
            []
        ),
        ("<svg><foreignObject><p>foreign words</p></foreignObject></svg>\n", "foreign words", []),
        ("Logo: <svg><title>Logo title</title><path d=\"M0 0\"/></svg>\n", "Logo: Logo title", []),
        ("<svg aria-label=\"Chart\"><title>Other</title><rect/></svg>\n", "Chart", ["Other"]),
    ])
    func anSVGShowsTheWordsItDraws(markdown: String, shown: String, hidden: [String]) {
        let text = RawHTML.collapsed(Self.read(markdown).text.replacingOccurrences(of: "\n", with: " "))
        #expect(text.trimmingCharacters(in: .whitespaces) == shown)
        for word in hidden { #expect(!text.contains(word), "\(word) in \(text)") }
    }

    /// What a browser never shows stays out, inline and in HTML blocks: scripts, styles,
    /// templates, the document's head and title, an iframe's content, hidden inputs.
    @Test func whatABrowserNeverShowsStaysOut() {
        let markdown = """
            A <script>s1()</script> <style>.s2{}</style> <template>s3</template> <iframe src="x">s4</iframe> \
            <input type="hidden" value="s5"> <title>s6</title> b

            <script>
            s7()
            </script>

            <template><p>s8</p></template>

            <head><title>s9</title><meta charset="utf-8"></head>

            C <datalist><option>s10</option></datalist> d

            """
        let (text, warnings) = Self.read(markdown)
        for number in 1...10 { #expect(!text.contains("s\(number)"), "s\(number) in \(text)") }
        #expect(text.contains("A") && text.contains("b") && text.contains("C") && text.contains("d"))
        #expect(!warnings.contains { $0.contains("<input>") }, "a hidden input is hidden in a browser too")
        #expect(warnings.contains { $0.contains("<script>") && $0.contains("left out, as a browser shows none") })
        #expect(warnings.contains { $0.contains("<iframe>") && $0.contains("cannot be set in a PDF") })
    }

    /// An `<input>` shows the text in its box: its value, else its placeholder; a checkbox or
    /// radio button its state; a submit button its default label.
    @Test(arguments: [
        ("<input value=\"typed\">", "typed"), ("<input placeholder=\"Your name\">", "Your name"),
        ("<input type=\"checkbox\" checked>", "☑"), ("<input type=\"checkbox\">", "☐"),
        ("<input type=\"radio\" checked>", "◉"), ("<input type=\"radio\">", "○"),
        ("<input type=\"submit\">", "Submit"), ("<input type=\"submit\" value=\"Go\">", "Go"),
        ("<input type=\"password\" value=\"abc\">", "•••"), ("<input type=\"image\" alt=\"Search\">", "Search"),
    ])
    func anInputShowsTheTextOfItsBox(html: String, shown: String) {
        let (text, warnings) = Self.read("a \(html) b\n")
        #expect(text == "a \(shown) b")
        #expect(warnings.count == 1 && warnings[0].contains("<input>"), "\(warnings)")
    }

    /// MathML becomes a formula of the document: from its TeX annotation when it has one, else
    /// from its presentation elements; `display="block"` displays it. MathML with no TeX form
    /// here keeps its text in reading order, with a warning.
    @Test(arguments: [
        ("<math><mi>x</mi><mo>+</mo><mn>1</mn></math>", "x+1", false),
        (
            "<math><msup><mi>a</mi><mn>2</mn></msup><mo>−</mo>"
                + "<mfrac><mi>b</mi><mrow><mn>2</mn><mi>c</mi></mrow></mfrac>"
                + "</math>", "a^{2}−\\frac{b}{2c}", false
        ),
        (
            "<math display=\"block\"><msqrt><mi>x</mi></msqrt><mo>=</mo><mroot><mi>y</mi><mn>3</mn></mroot></math>",
            "\\sqrt{x}=\\sqrt[3]{y}", true
        ),
        (
            "<math><msub><mi>x</mi><mi>i</mi></msub><mi>sin</mi><mo>&#x2061;</mo><mi>θ</mi></math>",
            "x_{i}\\mathrm{sin}θ", false
        ),
        (
            "<math><semantics><mrow><mi>E</mi></mrow><annotation encoding=\"application/x-tex\">E = mc^2</annotation>"
                + "</semantics></math>", "E = mc^2", false
        ),
        (
            "<math>\n<mrow>\n  <munderover><mo>∑</mo><mrow><mi>i</mi><mo>=</mo><mn>1</mn></mrow>"
                + "<mi>n</mi></munderover>\n"
                + "  <mi>i</mi>\n</mrow>\n</math>", "∑_{i=1}^{n}i", false
        ),
    ])
    func mathMLIsAFormula(html: String, tex: String, display: Bool) {
        for markdown in ["Formula \(html) here\n", html + "\n"] {
            let result = parse(markdown)
            var found: [(String, Bool)] = []
            func visit(_ inlines: [Inline]) {
                for case .math(let source, let isDisplay, _, _) in inlines { found.append((source, isDisplay)) }
            }
            for case .paragraph(let inlines) in result.document.blocks.map(\.kind) { visit(inlines) }
            #expect(found.count == 1 && found.first?.0 == tex, "\(markdown.debugDescription): \(found)")
            #expect(found.first?.1 == display)
            #expect(!result.diagnostics.contains { $0.message.contains("<math>") }, "\(result.diagnostics)")
        }
    }

    /// MathML without a TeX form here (`<mfenced>`, `<mmultiscripts>`) keeps its words in
    /// reading order, annotations left out, with one warning that says so.
    @Test func mathMLWithoutATeXFormKeepsItsText() {
        let (text, warnings) = Self.read(
            "Sum <math><mi>x</mi><mo>+</mo><mfenced><mi>y</mi></mfenced><annotation>note</annotation></math> "
                + "and <math><mmultiscripts><mi>F</mi><mi>a</mi><mi>b</mi></mmultiscripts></math>.\n")
        #expect(text == "Sum x+y and Fab.")
        #expect(
            warnings == [
                "HTML element <math> is not supported; its formula is not laid out; its text is shown in reading "
                    + "order (one warning for all <math> elements treated so)"
            ])
    }

    /// In table cells and list items, inline and written as HTML tables, each element keeps the
    /// text of its kind.
    @Test func tablesAndListsKeepTheText() {
        let markdown = """
            | a | b |
            |---|---|
            | <select><option>cellopt</option><option>x1</option></select> | <button>cellbtn</button> <i>c</i> |
            | <video>cellvid</video> | b |

            - item <svg><text>listsvg</text></svg>
            - item <noscript>listnoscript</noscript> <textarea>listarea</textarea>

            <table><tr><td><select><option>htmlcell</option><option>x2</option></select></td>
            <td><object>objcell</object></td></tr></table>

            """
        let text = Self.read(markdown).text
        for word in ["cellopt", "cellbtn", "cellvid", "listsvg", "listnoscript", "listarea", "htmlcell", "objcell"] {
            #expect(text.contains(word), "\(word) in \(text)")
        }
        #expect(!text.contains("x1") && !text.contains("x2"))
    }

    /// One warning per element name and fate, each true of every element it names.
    @Test func eachWarningSaysWhatBecameOfTheText() {
        let (_, warnings) = Self.read(
            "<button>b1</button> <button>b2</button> <video>v</video> <video src=\"a.mp4\"></video> "
                + "<select><option>o</select> <svg><text>t</text></svg> <svg><rect/></svg>\n")
        func fates(_ name: String) -> [String] {
            warnings.filter { $0.hasPrefix("HTML element <\(name)>") }.map {
                String($0.dropFirst("HTML element <\(name)> is not supported; ".count))
            }
        }
        #expect(
            fates("button") == [
                "its text is shown, without the control's box (one warning for all <button> elements treated so)"
            ])
        #expect(fates("video").count == 2)
        #expect(fates("video").contains { $0.hasPrefix("a PDF cannot play or run it; its fallback content is shown") })
        #expect(fates("video").contains { $0.hasPrefix("a PDF cannot play or run it, and it holds no fallback text") })
        #expect(fates("select").count == 1 && fates("select")[0].hasPrefix("it is set as the option it shows closed"))
        #expect(fates("svg").count == 2)
        #expect(
            !warnings.contains {
                $0.contains("<option>") || $0.contains("<text>") && $0.hasPrefix("HTML element <text>")
            })
    }
}
