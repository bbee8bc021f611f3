import Foundation
import TestSupport
import Testing
import Typesetter
import Typography

/// Hostile and huge input, one test per kind of fault: nothing silently lost, one odd character
/// never loses the document, time stays linear, a killed run leaves nothing behind.
@Suite(.serialized) struct HostileInputTests {
    /// The right edge of the default theme's text area, pt from the page's left edge.
    static let rightEdge =
        Typesetter.fittedPage(of: .default).paper.width
        - Typesetter.fittedPage(of: .default).margins.right

    /// Lengths past Pango's 2³¹-unit limit (≈ 2,097,152 pt unwrapped): every word is drawn and
    /// none crosses the margin. 6,000 words at 100 pt tracking are 2.4 million pt unwrapped
    /// (a layout kept its first line only); the size-1 face keeps it to a few pages.
    @Test func paragraphsPastPangosLimitKeepEveryWord() throws {
        let words = Array(repeating: "abc", count: 6_000).joined(separator: " ")
        let (pdf, _) = try Render.markdown(
            "::: {size=1 tracking=100}\n\(words)\n:::\n\nafter words\n", name: "hostile-limit")
        // In drawing order (`-raw`): each letter is a column of its own 100 pt from the next,
        // which pdftotext's column finding may read in another order at a page's top.
        let text = FuzzCampaign.normalized(try PDFProbe.run("pdftotext", ["-raw", pdf, "-"]).output)
        #expect(text.components(separatedBy: "abc").count - 1 == 6_000)
        #expect(text.contains("afterwords"))
        let boxes = try PDFProbe.words(pdf)
        #expect(
            boxes.allSatisfy { $0.xMax <= Self.rightEdge + 1 },
            "\(boxes.filter { $0.xMax > Self.rightEdge + 1 }.prefix(3))")
        #expect(try PDFProbe.qpdfClean(pdf))
    }

    /// The same for many ordinary words, and for a heading of one long word: nothing lost.
    @Test func longParagraphsAndHeadingsKeepEveryWord() throws {
        let body = (0..<12_000).map { "w\($0)x" }.joined(separator: " ")
        let heading = String(repeating: "W", count: 3_000)
        let (pdf, _) = try Render.markdown("# \(heading) {.display}\n\n\(body)\n", name: "hostile-long")
        let text = FuzzCampaign.normalized(try PDFProbe.text(pdf))
        let missing = (0..<12_000).filter { !text.contains("w\($0)x") }.map { "w\($0)x" }
        #expect(missing.isEmpty, "\(missing.count) words missing, e.g. \(missing.prefix(5))")
        // The heading's 3,000 W's (page numbers may fall between its lines) and the body's 12,000.
        let ws = text.filter { $0 == "w" }.count
        #expect(ws == 15_000, "\(ws) w's")
        let boxes = try PDFProbe.words(pdf)
        #expect(
            boxes.allSatisfy { $0.xMax <= Self.rightEdge + 1 },
            "\(boxes.filter { $0.xMax > Self.rightEdge + 1 }.prefix(3))")
    }

    /// Linear time: one long word, a long heading, a long keep-all Korean paragraph, and one
    /// paragraph of many links or of many styled runs, at two lengths 4× apart, best of three
    /// runs each, the pair measured again (up to three times) until it holds. Linear is ~4× the
    /// time, quadratic ~16×; the bound is 8×. A quadratic stage showed
    /// as 10,000 characters 0.42 s, 40,000 5.4 s (×13); 5,000 links 0.8 s, 20,000 9.0 s (×11);
    /// `**b** ` × 5,000 0.49 s, × 20,000 6.66 s (×14), when Pango walked the colour attributes
    /// from the paragraph's start for each run. One formula of many terms, inline (a piece a
    /// term) or displayed (broken into lines): 1,000 and 4,000 terms took 1.0 and 14.9 s inline,
    /// 0.32 and 3.8 s displayed, when each piece hashed and keyed the whole formula and a box
    /// reserved room for exactly its items at each append. Hangul without spaces (keep-all: one
    /// word over many lines): 16,000 and 64,000 characters took 0.69 and 7.4 s when each line
    /// broken inside the word read the whole word again to name it in the warning. A line of
    /// escaped punctuation in emphasis is read in linear time (each piece aligned with its line
    /// shares one copy of it).
    @Test(
        .slow,
        arguments: [
            "word", "heading", "korean", "unspaced-korean", "links", "styled", "inline-formula", "display-formula",
            "escaped-punctuation",
        ])
    func timeIsLinearInLength(kind: String) throws {
        func formula(_ n: Int) -> String { Array(repeating: "x_{7}", count: n / 6).joined(separator: "+") }
        func document(_ n: Int) -> String {
            switch kind {
            case "word": String(repeating: "x", count: n)
            case "heading": "# " + String(repeating: "W", count: n / 4)
            case "links": String(repeating: "[l](https://example.com) ", count: n / 2)
            case "styled": String(repeating: "**b** ", count: n / 2)
            case "inline-formula": "a $\(formula(n))$ b\n"
            case "display-formula": "$$\(formula(n))$$\n"
            case "unspaced-korean": String(repeating: "가나다라마바사아자차카타파하", count: n / 14)
            // One line of emphasis (a nesting level each) with escaped punctuation: its pieces share one
            // copy of the line when they are aligned with it.
            case "escaped-punctuation": "\\- " + String(repeating: "*a\\.* ", count: n / 7)
            default: (0..<(n / 12)).map { i in "한국어\(["문단은", "단어를", "지킨다"][i % 3])" }.joined(separator: " ")
            }
        }
        let seconds = try Timing.firstHolding {
            var seconds: [Double] = []
            for n in [10_000, 40_000] {
                var pdf = ""
                seconds.append(
                    try Timing.bestSeconds(of: 3) {
                        pdf = try Render.markdown(document(n), name: "hostile-time-\(kind)-\(n)").0
                    })
                let text = FuzzCampaign.normalized(try PDFProbe.text(pdf))
                if kind == "word" { #expect(text.components(separatedBy: "x").count - 1 == n) }
                if kind == "korean" { #expect(text.components(separatedBy: "한국어").count - 1 == n / 12) }
                if kind == "unspaced-korean" { #expect(text.filter { $0 == "가" || $0 == "하" }.count == 2 * (n / 14)) }
                if kind == "escaped-punctuation" { #expect(text.filter { $0 == "." }.count == n / 7) }
                if kind == "links" || kind == "styled" {
                    #expect(text.filter { $0 == (kind == "links" ? "l" : "b") }.count == n / 2)
                }
                if kind.hasSuffix("formula") {
                    // Each piece reads back as its TeX (its `/ActualText`).
                    #expect(text.components(separatedBy: "x_{7}").count - 1 == n / 6)
                }
            }
            return seconds
        } holds: {
            $0[1] < 8 * $0[0]
        }
        #expect(seconds[1] < 8 * seconds[0], "\(kind): \(seconds) s for 10,000 and 40,000 characters")
    }

    /// Seconds the command line takes to render `text`, written as `name`.md in `folder`, to
    /// `folder`/out.pdf (one run); expects it to succeed.
    static func secondsToRender(_ text: String, in folder: String, name: String) throws -> Double {
        let input = folder + "/\(name).md"
        try text.write(toFile: input, atomically: false, encoding: .utf8)
        var status: Int32 = -1
        let seconds = try Timing.bestSeconds(of: 1) {
            status = try PDFProbe.run(Render.binary, ["render", input, "-o", folder + "/out.pdf", "-q"]).status
        }
        #expect(status == 0, "\(name)")
        return seconds
    }

    /// One highlighted code line of many tokens (`a+a+…`) takes time linear in its length: a
    /// tenfold longer line takes well under fifteen times as long (100,000 and 1,000,000
    /// characters took 0.41 and 13.9 s when each token's text was appended to a copy of the run
    /// before it, 0.26 and 2.26 s since). The command line renders, in release.
    @Test(.slow) func aLongHighlightedCodeLineTakesLinearTime() throws {
        let folder = try Render.scratchFolder("long-code-line")
        var seconds: [Double] = []
        for n in [100_000, 1_000_000] {
            let text = "```c\n" + String(repeating: "a+", count: n / 2) + "\n```\n"
            seconds.append(try Self.secondsToRender(text, in: folder, name: "line-\(n)"))
        }
        #expect(seconds[1] < 15 * seconds[0], "\(seconds) s for 100,000 and 1,000,000 characters")
    }

    /// A displayed formula too wide for the measure, broken into thousands of lines, takes time
    /// about linear in its length: eight times the terms take under eleven times as long
    /// (`$$a+a+…$$` of 25,000 and 200,000 terms took 0.34 and 5.10 s when each line's piece
    /// hashed every line's start and the whole source, 0.29 and 2.14 s since; 1,000,000 terms
    /// took 81 s). The command line renders, in release.
    @Test(.slow) func aLongDisplayedFormulaTakesLinearTime() throws {
        let folder = try Render.scratchFolder("long-formula")
        let seconds = try Timing.firstHolding {
            var seconds: [Double] = []
            for terms in [25_000, 200_000] {
                let text = "$$" + String(repeating: "a+", count: terms) + "a$$\n"
                seconds.append(try Self.secondsToRender(text, in: folder, name: "formula-\(terms)"))
            }
            return seconds
        } holds: {
            $0[1] < 11 * $0[0]
        }
        #expect(seconds[1] < 11 * seconds[0], "\(seconds) s for 25,000 and 200,000 terms")
    }

    /// Openers of raw HTML that nothing in their paragraph closes — a processing instruction
    /// `<?`, a declaration `<!A`, a CDATA section `<![CDATA[` — take time linear in their number:
    /// eight times as many in one paragraph take well under sixteen times as long, and each is
    /// set as text. cmark-gfm 0.29 looks for the closer from each opener to the paragraph's
    /// end: `a <? ` 5,000 and 20,000 times took 0.19 and 2.39 s before they were escaped for it.
    /// The command line renders, in release.
    @Test(.slow, arguments: ["a <? ", "a <!A ", "a <![CDATA[ "])
    func unclosedMarkupTakesLinearTime(unit: String) throws {
        let folder = try Render.scratchFolder("unclosed-markup")
        let seconds = try Timing.firstHolding {
            var seconds: [Double] = []
            for count in [5_000, 40_000] {
                let markup = String(repeating: unit, count: count) + "\n"
                seconds.append(try Self.secondsToRender(markup, in: folder, name: "markup-\(count)"))
                // Read without line ends and page numbers: a line may end inside `<![CDATA[`.
                let text = try PDFProbe.text(folder + "/out.pdf").filter { !$0.isWhitespace && !$0.isNumber }
                let opener = String(unit.dropFirst(2).dropLast())
                #expect(text.components(separatedBy: opener).count - 1 == count, "\(unit) × \(count) set as text")
            }
            return seconds
        } holds: {
            $0[1] < 16 * $0[0]
        }
        #expect(seconds[1] < 16 * seconds[0], "\(unit): \(seconds) s for 5,000 and 40,000")
    }

    /// Unicode noncharacters and control characters: the document renders, the text around them
    /// is drawn, one warning names the first.
    @Test(arguments: [0xFFFF, 0xFFFE, 0xFDD0, 0xFDEF, 0x1FFFF, 0x10FFFF, 0x1, 0x7F, 0x9F] as [UInt32])
    func oneOddCharacterNeverLosesTheDocument(codePoint: UInt32) throws {
        let character = String(Character(Unicode.Scalar(codePoint)!))
        let markdown =
            "---\ntitle: Title\(character)here\n---\n\n# Head\(character)\n\nBefore\(character)after and "
            + "[span\(character)]{.caption} `code\(character)`.\n\n| cell\(character) |\n|---|\n| row |\n"
        let (pdf, report) = try Render.markdown(markdown, name: "hostile-char-\(character.unicodeScalars.first!.value)")
        let text = try PDFProbe.text(pdf)
        for word in ["Head", "Before", "after", "span", "code", "cell", "row"] {
            #expect(text.contains(word), "\(word)")
        }
        #expect(try PDFProbe.info(pdf)["Title"]?.hasPrefix("Title") == true)
        let warnings = report.diagnostics.filter { $0.message.contains("replaced by U+FFFD") }
        #expect(warnings.count == 1 && warnings.first?.location?.line == 2, "\(report.diagnostics)")
        #expect(try PDFProbe.qpdfClean(pdf))
    }

    /// YAML aliases: a recursive or exploding one is an error at its line and column, in
    /// milliseconds, and nothing is written; ordinary aliases still work.
    @Test func yamlAliasBombsAreErrors() throws {
        var laughs = ["a0: &a0 lol"]
        for i in 1...8 {
            laughs.append("a\(i): &a\(i) [\(Array(repeating: "*a\(i - 1)", count: 9).joined(separator: ","))]")
        }
        // The bomb passes 100,000 values at a6 (9⁶ strings), on line 8; a recursive mapping and
        // a recursion two levels down are the same kind. So is one long string repeated: 10,000
        // bytes passes 1 MiB at its 105th alias (it took 15 s and 700 MB at 2,000 aliases of
        // 4,000 bytes), alone or as a list of two halves, in a list or a mapping.
        let long = String(repeating: "x", count: 10_000)
        let half = String(repeating: "y", count: 5_000)
        let aliases = Array(repeating: "*s", count: 200).joined(separator: ", ")
        let mapped = (0..<200).map { "k\($0): *s" }.joined(separator: ", ")
        let cases = [
            ("recursive", "a: &a [*a, *a, *a, *a]", 2, 8), ("laughs", laughs.joined(separator: "\n"), 8, 10),
            ("mapping", "m: &m\n  k: *m", 3, 6), ("nested", "outer: &o\n  - [1, [2, *o]]", 3, 13),
            ("string", "s: &s \(long)\nabstract: [\(aliases)]", 3, 12 + 4 * 104),
            ("halves", "s: &s [\(half), \(half)]\nkeywords: {\(mapped)}", 3, 12 + 8 * 10 + 9 * 90 + 10 * 4 + 6),
        ]
        // The time of an ordinary document with aliases, the bound of every bomb's error.
        let ordinary = "---\nbase: &m 20mm\nmargins: *m\ntitle: x\n---\n\nBody words\n"
        let ordinarySeconds = try Timing.bestSeconds {
            _ = try Render.markdown(ordinary, name: "hostile-yaml-ordinary")
        }
        for (name, yaml, line, column) in cases {
            let pdf = Render.folder + "/hostile-yaml-\(name).pdf"
            try? FileManager.default.removeItem(atPath: pdf)
            let start = Date()
            do {
                _ = try Render.markdown("---\n\(yaml)\ntitle: x\n---\n\nBody words\n", name: "hostile-yaml-\(name)")
                Issue.record("\(name): rendered")
            } catch let error as TypesetError {
                guard case .invalidInput(let errors) = error else {
                    Issue.record("\(name): \(error)")
                    continue
                }
                #expect(
                    errors.count == 1 && errors[0].location?.line == line && errors[0].location?.column == column,
                    "\(name): \(errors)")
                #expect(
                    error.description.hasPrefix("hostile-yaml-\(name).md:\(line):\(column): front matter: "), "\(error)"
                )
                #expect(!error.description.contains("\n"))
                #expect(error.problems.map(\.kind) == [.invalidInput])
            }
            let seconds = Date().timeIntervalSince(start)
            #expect(seconds < 10 * ordinarySeconds, "\(name): \(seconds) s, an ordinary document \(ordinarySeconds) s")
            #expect(!FileManager.default.fileExists(atPath: pdf))
        }
        // Ordinary aliases still work: a scalar, a list, a mapping used twice.
        let ok =
            "---\nbase: &m 20mm\nmargins: *m\nnames: &n [Ann, Bob]\nauthor: *n\nbox: &b {top: 30mm}\nother: "
            + "*b\n---\n\nBody\n"
        let (pdf, report) = try Render.markdown(ok, name: "hostile-yaml-ok")
        #expect(!report.diagnostics.contains { $0.message.contains("alias") }, "\(report.diagnostics)")
        #expect(try PDFProbe.info(pdf)["Author"] == "Ann, Bob")
        let body = try PDFProbe.words(pdf).first { $0.text == "Body" }
        #expect(body.map { abs($0.xMin - 20 * 72 / 25.4) < 1 } == true, "\(String(describing: body))")
    }

    /// Numbers at the edges of a 64-bit integer, or past them, never end the process: an SVG's
    /// size of 1e19 px or more (its width, height or viewBox; `inf`), an `<ol start>` of
    /// Int.max in a line of text, a table cell or an HTML block, a code block's `startFrom` of
    /// Int.min or Int.max (a fence's or inline code's). Each ended `typeset` with SIGILL, a
    /// Swift overflow trap. Run as the command (a trap would end the test process); each
    /// member is set, and its text read back.
    @Test(arguments: [
        "![svg](huge.svg)\n", "![svg](tall.svg)\n", "![svg](box.svg)\n", "![svg](infinite.svg)\n",
        "a <ol start=\"9223372036854775807\"><li>item</li></ol>\n",
        "| h |\n|---|\n| <ol start=\"9223372036854775806\"><li>item</li><li>two</li></ol> |\n",
        "<ol start=\"-9223372036854775808\">\n<li>item</li>\n</ol>\n",
        "```{startFrom=\"-9223372036854775808\" .numberLines}\nitem\n```\n",
        "```{startFrom=\"9223372036854775807\" .numberLines}\nitem\n```\n",
        "`item`{startFrom=\"-9223372036854775808\"}\n",
    ])
    func numbersPastAnIntegersRangeNeverEndTheProcess(markdown: String) throws {
        let folder = try Render.scratchFolder("hostile-integers")
        for (name, size) in [
            ("huge", #"width="1e19" height="10""#), ("tall", #"width="10" height="1e300""#),
            ("box", #"viewBox="0 0 1e19 1""#), ("infinite", #"width="inf" height="10""#),
        ] {
            try write(
                #"<svg xmlns="http://www.w3.org/2000/svg" \#(size)><rect width="5" height="5"/></svg>"#,
                "\(folder)/\(name).svg")
        }
        try write(markdown, folder + "/doc.md")
        let result = try typeset(["render", folder + "/doc.md", "-o", folder + "/doc.pdf", "--root", folder])
        #expect(result.status == 0, "\(markdown): \(result.output)")
        if markdown.contains("item") {
            #expect(try PDFProbe.text(folder + "/doc.pdf").contains("item"), "\(markdown)")
        }
    }

    /// Found by the fuzz test: small caps over an emoji failed the whole PDF (Pango scaled by
    /// a color-emoji face's missing cap height), and a missing image's placeholder kept only the
    /// first line of a long caption.
    @Test func fuzzFindsStayFixed() throws {
        // The same colour-emoji glyph drawn from several layouts once made Cairo 1.16 write a
        // duplicated /xN XObject key (a qpdf --check warning); colour glyphs are now images.
        let several =
            "[Small😀 caps words]{smallCaps}\n\n[all😀 words]{lowercaseSmallCaps}\n\n# Head 😀\n\n| 😀 | 😀 "
            + "|\n|---|---|\n| 😀 words |\n"
        for (i, markdown) in ["[Small😀 caps words]{smallCaps}\n", "[all😀 words]{lowercaseSmallCaps}\n", several]
            .enumerated()
        {
            let (pdf, _) = try Render.markdown(markdown, name: "hostile-smallcaps-\(i)")
            #expect(try PDFProbe.qpdfClean(pdf))
            #expect(try PDFProbe.text(pdf).lowercased().contains("words"))
        }
        let long = (0..<40).map { "cap\($0)x" }.joined(separator: " ")
        let (placeholder, _) = try Render.markdown("![\(long)](nowhere.png)\n", name: "hostile-placeholder")
        let text = FuzzCampaign.normalized(try PDFProbe.text(placeholder))
        #expect((0..<40).allSatisfy { text.contains("cap\($0)x") })
    }

    /// Found by the fuzz test: a picture whose paragraph holds only white space besides it is a
    /// figure, its alt text set as the caption, whatever the white space (a line separator
    /// U+2028 before it once made it an inline picture, its alt text unseen).
    @Test(arguments: ["\u{2028}", "\u{2029}", "\u{A0}", " \u{3000}"])
    func whiteSpaceBesideAPictureLeavesAFigure(space: String) throws {
        let svg = Render.packageRoot + "/Tests/EndToEndTests/Fixtures/figure.svg"
        let (pdf, _) = try Render.markdown(
            "\(space)![Caption words here](\(svg))\(space)\n", name: "hostile-figure-space")
        #expect(FuzzCampaign.normalized(try PDFProbe.text(pdf)).contains("captionwordshere"))
    }

    /// Found by the fuzz test: a note cited only from its own text lost its words. Every note
    /// cmark-gfm keeps is set: one cited in another note with it, at the foot of the same page;
    /// one whose only citation is never drawn (its own text) at the foot of the last page, with
    /// a warning at its definition; one cited in a figure's caption with its marker there.
    @Test func everyFootnoteIsSet() throws {
        let cases: [(markdown: String, words: [String], warningLine: Int?)] = [
            ("Body.\n\n[^1]: Selfish note words.[^1]\n", ["Body", "Selfish note words"], 3),
            (
                "Body[^1].\n\n[^1]: First note[^2].\n\n[^2]: Second nested words[^3].\n\n[^3]: Third level.\n",
                ["First note", "Second nested words", "Third level"], nil
            ),
            // A caption draws its alt text's marker: the note is set as any other.
            ("Text.\n\n![Alt with ref[^2]](nowhere.png)\n\n[^2]: Alt note words.\n", ["Text", "Alt note words"], nil),
            ("[^1]: Lonely note words.[^1]\n", ["Lonely note words"], 1),
        ]
        for (i, c) in cases.enumerated() {
            let (pdf, report) = try Render.markdown(c.markdown, name: "hostile-notes-\(i)")
            let text = FuzzCampaign.letters(try PDFProbe.text(pdf))
            for word in c.words { #expect(text.contains(FuzzCampaign.letters(word)), "case \(i): '\(word)' missing") }
            let warnings = report.diagnostics.filter { $0.message.contains("footnote") }
            if let line = c.warningLine {
                #expect(
                    warnings.count == 1 && warnings.first?.location?.line == line, "case \(i): \(report.diagnostics)")
            } else {
                #expect(warnings.isEmpty, "case \(i): \(report.diagnostics)")
                // Nested notes share their citing note's page.
                let pages = Set(
                    try PDFProbe.words(pdf).filter { ["First", "Second", "Third", "Alt"].contains($0.text) }.map(\.page)
                )
                #expect(pages == [1], "case \(i)")
            }
        }
    }

    /// Text, line heights and inline pictures too large for the page are made
    /// to fit it, each with a warning at its position. Every word is found in the PDF (a glyph
    /// whose origin is off the page is not), no glyph box and no picture leaves the media box.
    @Test(
        arguments: [
            ("before [z]{size=1000} after\n", "text at 1000 pt", 1, ["before", "z", "after"]),
            ("# Big {size=600}\n\nafter\n", "text at 600 pt", 1, ["Big", "after"]),
            (
                "Intro.\n\n| head | two |\n|---|---|\n| [W]{size=900} | cell |\n", "text at 900 pt", 3,
                ["Intro", "head", "W", "cell"]
            ),
            (
                "Body[^1] text.\n\n[^1]: Note [M]{size=800} words.\n", "text at 800 pt", 3,
                ["Body", "text", "Note", "M", "words"]
            ),
            ("::: {lineHeight=2000}\nTall line words.\n:::\n", "a line height of 2000 pt", 2, ["Tall line words"]),
            ("::: {size=200 lineHeightMultiple=20}\nStep\n:::\n", "a line height of", 2, ["Step"]),
            (
                "Text ![pic](line-height.png){width=2000pt height=3000pt} more.\n",
                "an image inside a line (2000 × 3000 pt)", 1, ["Text", "more"]
            ),
            (
                "Wide ![pic](line-height.png){height=400pt} picture.\n", "an image inside a line", 1,
                ["Wide", "picture"]
            ),
            ("# Typesetting {.display tracking=40}\n\nafter\n", "wider than the measure", 1, ["Typesetting", "after"]),
            // Formulas taller than the text area, inline (its line's words went off the page
            // with it) and displayed (its later rows did), set smaller to fit.
            (
                "before $\\begin{cases}" + String(repeating: "a&b\\\\", count: 200) + "\\end{cases}$ aftercases\n",
                "an inline formula is taller than the text area", 1, ["before", "aftercases"]
            ),
            (
                "Some $\\sum_{k}" + String(repeating: "\\frac{1}{", count: 120) + "x"
                    + String(repeating: "}", count: 120)
                    + "$ tail\n", "taller than the text area", 1, ["Some", "tail"]
            ),
            (
                "Intro.\n\n$$\\begin{aligned}" + String(repeating: "a&=b\\\\", count: 300)
                    + "z&=y\\end{aligned}$$\n\nAfter.\n",
                "a displayed formula is taller than the text area", 3, ["Intro", "z", "y", "After"]
            ),
        ] as [(String, String, Int, [String])])
    func oversizedContentFitsThePage(markdown: String, warning: String, line: Int, words: [String]) throws {
        let name = "hostile-oversized-\(markdown.utf8.reduce(0) { ($0 &* 31 &+ Int($1)) & 0xFFFFF })"
        var options = RenderOptions(baseDirectory: Render.packageRoot + "/templates/images")
        options.creationDate = Date(timeIntervalSince1970: 0)
        let (pdf, report) = try Render.markdown(markdown, name: name, options: options)
        let found = report.diagnostics.first { $0.message.contains(warning) }
        #expect(found?.location?.line == line, "\(report.diagnostics)")
        let text = FuzzCampaign.letters(try PDFProbe.text(pdf))
        for word in words { #expect(text.contains(FuzzCampaign.letters(word)), "'\(word)' missing: \(text)") }
        let paper = Theme.default.page.paper
        let outside = try Self.glyphBoxes(pdf).filter {
            $0.x0 < -0.5 || $0.y0 < -0.5 || $0.x1 > paper.width + 0.5 || $0.y1 > paper.height + 0.5
        }
        #expect(outside.isEmpty, "\(outside)")
        let pictures = try Self.pictureBoxes(pdf, name: name)
        #expect(
            pictures.allSatisfy {
                $0.x0 >= -0.5 && $0.y0 >= -0.5 && $0.x1 <= paper.width + 0.5 && $0.y1 <= paper.height + 0.5
            }, "\(pictures)")
        if markdown.contains("![") { #expect(!pictures.isEmpty) }
        #expect(try PDFProbe.qpdfClean(pdf))
    }

    /// A run of opening brackets or quotes wider than the measure, alone or around a word, in
    /// a paragraph, a table cell and a note, is broken and set whole: every character is in
    /// the PDF's text (a run of 130 `(` lost its last 8 and the word's first letter, cut at
    /// the page's edge).
    @Test func aRunOfOpeningPunctuationIsSetWhole() throws {
        let run = String(repeating: "(", count: 130)
        let cjk = String(repeating: "「", count: 150)
        let quotes = String(repeating: "\u{201C}", count: 130)
        let markdown =
            "\(run)word tail\n\n\(cjk)cjkword\n\n| a |\n|---|\n| \(run)cell |\n\nNote.[^1]\n\n[^1]: \(quotes)note\n"
        let (pdf, report) = try Render.markdown(markdown, name: "hostile-opening-run")
        #expect(report.diagnostics.allSatisfy { $0.severity == .warning }, "\(report.diagnostics)")
        let text = try PDFProbe.text(pdf)
        #expect(text.filter { $0 == "(" }.count == 260, "\(text)")
        #expect(text.filter { $0 == "「" }.count == 150)
        #expect(text.filter { $0 == "\u{201C}" }.count == 130)
        for word in ["word", "tail", "cjkword", "cell", "note"] {
            #expect(text.contains(word), "'\(word)' missing: \(text)")
        }
    }

    /// Every word box pdftotext reports, pt from the page's top left (negative when it starts
    /// above or left of the page).
    static func glyphBoxes(_ pdf: String) throws -> [(text: String, x0: Double, y0: Double, x1: Double, y1: Double)] {
        let xml = try PDFProbe.run("pdftotext", ["-bbox", pdf, "-"]).output
        let pattern = try NSRegularExpression(
            pattern: #"<word xMin="([-\d.]+)" yMin="([-\d.]+)" xMax="([-\d.]+)" yMax="([-\d.]+)">([^<]*)</word>"#)
        return pattern.matches(in: xml, range: NSRange(xml.startIndex..., in: xml)).map { m in
            func d(_ i: Int) -> Double { Double(xml[Range(m.range(at: i), in: xml)!])! }
            return (String(xml[Range(m.range(at: 5), in: xml)!]), d(1), d(2), d(3), d(4))
        }
    }

    /// The clip rectangle Cairo sets around each picture it draws (`x y w h re W n`, then the
    /// picture's matrix, then `Do`), pt from the page's top left, read from an uncompressed
    /// copy of the PDF (`qpdf --qdf`).
    static func pictureBoxes(_ pdf: String, name: String) throws -> [(x0: Double, y0: Double, x1: Double, y1: Double)] {
        let plain = Render.folder + "/\(name)-qdf.pdf"
        _ = try PDFProbe.run("qpdf", ["--qdf", "--object-streams=disable", pdf, plain])
        let content = String(decoding: FileManager.default.contents(atPath: plain) ?? Data(), as: UTF8.self)
        let pattern = try NSRegularExpression(
            pattern: #"([-\d.]+) ([-\d.]+) ([-\d.]+) ([-\d.]+) re W n\n[^\n]* cm\n[^\n]*Do"#)
        return pattern.matches(in: content, range: NSRange(content.startIndex..., in: content)).map { m in
            func d(_ i: Int) -> Double { Double(content[Range(m.range(at: i), in: content)!])! }
            return (d(1), d(2), d(1) + d(3), d(2) + d(4))
        }
    }

    /// Font warnings carry the position of the first text that needs the face or character.
    @Test func fontWarningsCarryAPosition() throws {
        let markdown = "# Title\n\nPlain text.\n\n[한국어 굵게]{weight=600}\n\nx \u{1D800} y\n"
        let (_, report) = try Render.markdown(markdown, name: "hostile-font-warnings")
        let weight = report.diagnostics.first { $0.message.contains("lacks weight") }
        #expect(weight?.location?.line == 5, "\(report.diagnostics)")
        let tofu = report.diagnostics.first { $0.message.contains("no installed font draws") }
        #expect(tofu?.location?.line == 7, "\(report.diagnostics)")
    }
}

/// The command line: signals and messages.
@Suite struct HostileCommandLineTests {
    /// SIGTERM and SIGINT remove the temporary output and exit 143 / 130.
    @Test(arguments: [(SIGTERM, Int32(143)), (SIGINT, Int32(130))])
    func aKilledRenderLeavesNothing(signal: Int32, status: Int32) throws {
        let folder = Render.folder + "/signal-\(signal)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let input = folder + "/long.md"
        try String(repeating: "word ", count: 600_000).write(toFile: input, atomically: false, encoding: .utf8)
        let process = try PDFProbe.start(Render.binary, ["render", input, "-o", folder + "/out.pdf", "-q"])
        // Wait until the temporary file exists: the render is under way.
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, process.isRunning,
            !((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).contains(where: {
                $0.hasSuffix(".tmp")
            })
        {
            usleep(20_000)
        }
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        #expect(process.terminationStatus == status)
        let left = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0 != "long.md" }
        #expect(left.isEmpty, "\(left)")
    }

    /// A recursive YAML alias on the command line: exit 1, one line `file:line:column: error:
    /// …` (nothing before the file, as compilers print it), no PDF.
    @Test func yamlAliasErrorIsOneLine() throws {
        let folder = Render.folder + "/messages-yaml"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "---\na: &a [*a, *a]\n---\n\nBody\n".write(toFile: folder + "/bomb.md", atomically: false, encoding: .utf8)
        try? FileManager.default.removeItem(atPath: folder + "/bomb.pdf")
        let result = try typeset(["render", folder + "/bomb.md", "-o", folder + "/bomb.pdf"])
        #expect(result.status == 1)
        let lines = result.output.split(separator: "\n")
        #expect(
            lines.count == 1 && lines[0].hasPrefix(folder + "/bomb.md:2:8: front matter: alias *a"), "\(result.output)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/bomb.pdf"))
    }

    /// Messages that say what is wrong with a theme path.
    @Test func themePathMessages() throws {
        let folder = Render.folder + "/messages"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "# Hi\n".write(toFile: folder + "/a.md", atomically: false, encoding: .utf8)
        #expect(FileManager.default.createFile(atPath: folder + "/empty.json", contents: Data()))
        let empty = try typeset([
            "render", folder + "/a.md", "-o", folder + "/a.pdf", "--theme", folder + "/empty.json",
        ])
        #expect(
            empty.status == 1 && empty.output.contains("empty.json:1:1: invalid JSON: empty file"), "\(empty.output)")
        let device = try typeset(["render", folder + "/a.md", "-o", folder + "/a.pdf", "--theme", "/dev/null"])
        #expect(
            device.status == 1 && device.output.contains("it is a character device, not a regular file"),
            "\(device.output)")
        let dir = try typeset(["render", folder + "/a.md", "-o", folder + "/a.pdf", "--theme", folder])
        #expect(dir.status == 1 && dir.output.contains("cannot read theme file: it is a folder"), "\(dir.output)")
        let check = try typeset(["theme", "check", folder + "/empty.json"])
        #expect(check.status == 1 && check.output.contains("empty.json:1:1: invalid JSON"), "\(check.output)")
        let input = try typeset(["render", folder, "-o", folder + "/b.pdf"])
        #expect(input.status == 1 && input.output.contains("it is a folder"))
        #expect(!empty.output.contains("permission") && !dir.output.contains("NSCocoaErrorDomain"))
    }
}
