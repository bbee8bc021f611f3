import Layout
import Styling
import Testing
import Typography

/// A prepared paragraph measured like the fake shaper: every scalar 5 pt wide; breaks after
/// spaces and between Hangul syllables (as Pango's UAX #14 log attributes); grapheme breaks everywhere.
func prepared(_ runs: [StyledRun]) -> PreparedParagraph {
    var scalars: [Unicode.Scalar] = []
    var runIndex: [Int] = []
    for (i, run) in runs.enumerated() {
        for s in run.text.unicodeScalars {
            scalars.append(s)
            runIndex.append(i)
        }
    }
    let n = scalars.count
    var lineBreak = [Bool](repeating: false, count: n + 1)
    for i in 1..<max(1, n) {
        let a = scalars[i - 1]
        let b = scalars[i]
        lineBreak[i] =
            (a == " " && b != " ") || (ParagraphComposer.isHangul(a) && ParagraphComposer.isHangul(b)) || a == "-"
    }
    return PreparedParagraph(
        scalars: scalars, runIndex: runIndex, advances: scalars.map { $0 == "\u{AD}" ? 0 : 5 },
        lineBreakBefore: lineBreak, charBreakBefore: [Bool](repeating: true, count: n + 1),
        hyphenWidths: runs.map { _ in 5 })
}

@Suite struct ParagraphComposerTests {
    let font = FontSpec(families: ["X"], size: 10)
    func paragraph(_ runs: [StyledRun], alignment: TextAlignment = .justify, hangul: HangulLineBreak = .auto)
        -> StyledParagraph
    {
        StyledParagraph(
            runs: runs, style: ParagraphStyle(baseFont: font, alignment: alignment, hangulLineBreak: hangul))
    }
    func text(_ s: String, code: Bool = false) -> StyledRun {
        var style = RunStyle(font: font)
        style.isCode = code
        return StyledRun(s, style: style)
    }
    func lineTexts(_ c: Composition, _ p: PreparedParagraph) -> [String] {
        c.lines.map { String(String.UnicodeScalarView(p.scalars[$0.start..<$0.end])) }
    }

    /// A ragged paragraph ends in one short word (narrower than 15 % of the measure) only where
    /// the line before cannot give it a second: without its last word that line would fall
    /// short of the measure by the breaker's tolerance or more, twice its 2 em stretch. At
    /// every measure from 100 to 400 pt; some measures do set runts, and each is checked.
    @Test func raggedTextAvoidsARuntLastLine() {
        let sentences = [
            "The quay was wet and the lamps were lit along the harbour wall where the boats lay and the rain "
                + "kept on falling on the town all me.",
            "There are always debts, said Teodor, and the question is who holds them.",
            "Read the guide at the project root before you open a pull request against the main branch of "
                + "the repository today.",
        ]
        var runts: [String] = []
        var checked = 0
        for sentence in sentences {
            let runs = [text(sentence)]
            let p = prepared(runs)
            for width in stride(from: 100.0, through: 400, by: 5) {
                let c = ParagraphComposer.compose(
                    paragraph(runs, alignment: .left), prepared: p, width: width, hyphenate: { _, _ in [] })
                let lines = lineTexts(c, p).map { $0.trimmingCharacters(in: .whitespaces) }
                guard lines.count > 1, let last = lines.last, !last.contains(" "),
                    Double(last.count) * 5 < 0.15 * width
                else { continue }
                checked += 1
                // The line before without its last word, 5 pt a character, against 4 em of 10 pt.
                let before = lines[lines.count - 2].split(separator: " ").dropLast().joined(separator: " ")
                if width - Double(before.count) * 5 < 40 { runts.append("\(width): \(lines.suffix(2))") }
            }
        }
        #expect(runts.isEmpty, "\(runts)")
        #expect(checked > 0)
    }

    /// A raised run (a note's number, a superscript) never starts a line: UAX #14 lets a line
    /// break between a period, comma or colon and a figure, and the mark stays with the text
    /// before it, as TeX's `\footnote` keeps it. Members: after `.`, `,`, `:` and after
    /// another mark; at every measure from 50 to 300 pt, justified and ragged. The same text
    /// not raised does break there, so the rule is what keeps the marks.
    @Test(arguments: [TextAlignment.justify, .left])
    func aRaisedMarkKeepsToTheTextBeforeIt(alignment: TextAlignment) {
        var raised = RunStyle(font: FontSpec(families: ["X"], size: 7))
        raised.baselineOffset = 3.3
        let pieces: [(String, Bool)] = [
            ("A short preface to the collection which consists of three chapters.", false), ("1", true),
            (" Then the text, as it goes on,", false), ("2", true), (" ends with a list:", false), ("3", true),
            ("4", true), (" and words after the marks.", false),
        ]
        func runs(raising: Bool) -> [StyledRun] {
            pieces.map { raising && $0.1 ? StyledRun($0.0, style: raised) : text($0.0) }
        }
        var p = prepared(runs(raising: true))
        var markStarts: [Int] = []
        var offset = 0
        for piece in pieces {
            if piece.1 { markStarts.append(offset) }
            offset += piece.0.unicodeScalars.count
        }
        // Pango's opportunities between punctuation and a figure, and between two figures' runs.
        for start in markStarts { p.lineBreakBefore[start] = true }
        var plainBreaksThere = false
        // From the measure the widest word with its mark fits (`chapters.1`, 50 pt): a word
        // wider than the measure may break where it must.
        for width in stride(from: 50.0, through: 300, by: 5) {
            let marked = ParagraphComposer.compose(
                paragraph(runs(raising: true), alignment: alignment), prepared: p, width: width,
                hyphenate: { _, _ in [] })
            let starts = marked.lines.map(\.start)
            #expect(markStarts.allSatisfy { !starts.contains($0) }, "a mark starts a line at \(width) pt")
            let plain = ParagraphComposer.compose(
                paragraph(runs(raising: false), alignment: alignment), prepared: p, width: width,
                hyphenate: { _, _ in [] })
            if plain.lines.contains(where: { markStarts.contains($0.start) }) { plainBreaksThere = true }
        }
        #expect(plainBreaksThere)
    }

    /// A web or e-mail address never ends a line with a hyphen (copied, the line's end would
    /// read as a hyphenated word and the address lose its hyphen): it breaks before the hyphen
    /// (The Chicago Manual of Style 14.18), while a hyphenated word of prose still breaks after
    /// its hyphen. Members: a URL with a hyphenated path and query, an e-mail address with a
    /// hyphenated domain, a `www.` address; at every measure from 60 to 300 pt, justified and
    /// ragged.
    @Test(arguments: [TextAlignment.justify, .left])
    func anAddressBreaksBeforeAHyphenNeverAfter(alignment: TextAlignment) {
        let addresses = [
            "https://developer.example.com/docs/widget-kit/advanced-options?lang=en-US&format=json",
            "someone.with-a-long-name@subdomain.example-company.co.uk",
            "www.example-site.org/well-known/path-to-page",
        ]
        let text = "Read " + addresses.joined(separator: " and write to ") + " for a well-known x-ray today."
        let p = prepared([self.text(text)])
        var brokeBefore = false
        var brokeProse = false
        for width in stride(from: 60.0, through: 300, by: 5) {
            let c = ParagraphComposer.compose(
                paragraph([self.text(text)], alignment: alignment), prepared: p, width: width,
                hyphenate: { _, _ in [] })
            let lines = lineTexts(c, p)
            #expect(lines.joined().filter { $0 != " " } == text.filter { $0 != " " }, "nothing lost at \(width) pt")
            for line in lines where line.hasSuffix("-") {
                let word = line.split(separator: " ").last.map(String.init) ?? ""
                #expect(
                    !addresses.contains { $0.hasPrefix(word) || $0.contains(word) && word.contains(".") },
                    "an address ends a line with a hyphen at \(width) pt: \(lines)")
                if word == "well-" || word == "x-" { brokeProse = true }
            }
            if lines.dropFirst().contains(where: { $0.hasPrefix("-") }) { brokeBefore = true }
        }
        #expect(brokeBefore, "some measure breaks an address before a hyphen")
        #expect(brokeProse, "a hyphenated word of prose still breaks after its hyphen")
    }

    /// Code never ends a line with a hyphen between two letters (`keep-` | `all` reads as a word
    /// hyphenated, and copies as `keepall`): it breaks before the hyphen, while prose beside it
    /// still breaks after its own. Members: option names, a file name, a theme name; at every
    /// measure from 60 to 300 pt, justified and ragged.
    @Test(arguments: [TextAlignment.justify, .left])
    func codeBreaksBeforeAHyphenNeverAfter(alignment: TextAlignment) {
        let code = ["line-break=keep-all", "configuration-reference.md", "atom-one-dark"]
        var runs = [text("Set ")]
        for (index, name) in code.enumerated() {
            runs.append(text(name, code: true))
            runs.append(text(index == code.count - 1 ? " for a well-known x-ray today." : " then "))
        }
        let p = prepared(runs)
        let whole = runs.map(\.text).joined()
        var brokeBefore = false
        var brokeProse = false
        for width in stride(from: 60.0, through: 300, by: 5) {
            let c = ParagraphComposer.compose(
                paragraph(runs, alignment: alignment), prepared: p, width: width, hyphenate: { _, _ in [] })
            let lines = lineTexts(c, p)
            #expect(lines.joined().filter { $0 != " " } == whole.filter { $0 != " " }, "nothing lost at \(width) pt")
            for line in lines where line.hasSuffix("-") {
                let word = line.split(separator: " ").last.map(String.init) ?? ""
                #expect(word == "well-" || word == "x-", "code ends a line with a hyphen at \(width) pt: \(lines)")
                brokeProse = true
            }
            if lines.dropFirst().contains(where: { $0.hasPrefix("-") }) { brokeBefore = true }
        }
        #expect(brokeBefore, "some measure breaks code before a hyphen")
        #expect(brokeProse, "prose still breaks after its hyphen")
    }

    /// A word wider than the measure — an identifier, a path, an address — breaks between its
    /// parts where there are any (before a period, slash or underscore, after a colon or a
    /// double slash, The Chicago Manual of Style 14.18), else where a lower-case letter meets a
    /// capital, and between two letters of one part only when nothing else fits: a ragged
    /// line ends short instead. (A justified line is filled: its badness outweighs the cost.)
    @Test(arguments: [
        ("com.example.typesetting.rendering.internal.PageCompositionEngineFactory", true),
        ("/usr/share/doc/typeset/examples/composition/prose.md", true),
        ("some_very_long_snake_case_identifier_name_that_goes_on", true),
        ("https://example.org/a/very/long/path/to/somewhere", true),
        ("tableOfContentsDepthAndMoreWordsJoinedTogetherInCamelCase", false),
    ])
    func anOverwideWordBreaksBetweenItsParts(word: String, punctuated: Bool) {
        for alignment in [TextAlignment.left, .center, .right] {
            for width in stride(from: 100.0, through: 160, by: 15) {
                let runs = [text("Text: "), text(word, code: true), text(" after.")]
                let p = prepared(runs)
                let composition = ParagraphComposer.compose(
                    paragraph(runs, alignment: alignment), prepared: p, width: width, hyphenate: { _, _ in [] })
                let lines = lineTexts(composition, p)
                // Said to be broken between its parts, not between letters.
                #expect(composition.brokenWords.map(\.treatment) == [.brokenBetweenParts], "\(word) at \(width) pt")
                for line in composition.lines.dropLast() where line.ending == .opportunity {
                    let before = p.scalars[line.end - 1]
                    let after = p.scalars[line.end]
                    guard !before.properties.isWhitespace, !after.properties.isWhitespace else { continue }
                    let doubleSlash = before == "/" && p.scalars[line.end - 2] == "/"
                    let betweenParts =
                        ".,/_~?#%=&".unicodeScalars.contains(after) || ":=&".unicodeScalars.contains(before)
                        || doubleSlash
                    let atCapital = before.properties.isLowercase && after.properties.isUppercase
                    #expect(
                        (punctuated && betweenParts) || atCapital, "\(word) at \(width) pt, \(alignment): \(lines)")
                }
            }
        }
    }

    /// A word wider than the measure made of punctuation alone, or with long runs of it around
    /// letters, still breaks inside: never one line wider than the measure. A run of opening
    /// brackets or quotes wider than the measure before letters (`((((…word`) broke only
    /// between the letters, the run left on one overfull line.
    @Test(arguments: [
        "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[", "((((((((((((((((((a))))))))))))))))))",
        "--------------------------------------", String(repeating: "(", count: 40) + "word",
        String(repeating: "「", count: 12) + "가나다", String(repeating: "\u{201C}", count: 40) + "word",
        "abcdefghij" + String(repeating: "(", count: 40), "word" + String(repeating: ")", count: 40),
    ])
    func anOverwideWordOfPunctuationStillBreaks(word: String) {
        for alignment in [TextAlignment.justify, .left] {
            let runs = [text(word)]
            let p = prepared(runs)
            let composition = ParagraphComposer.compose(
                paragraph(runs, alignment: alignment), prepared: p, width: 60, hyphenate: { _, _ in [] })
            #expect(composition.lines.count > 1, "\(word): \(lineTexts(composition, p))")
            #expect(composition.lines.allSatisfy { $0.width <= 60.5 }, "\(word): \(lineTexts(composition, p))")
        }
    }

    /// A ragged line ends short, however short, rather than break a part of a word between
    /// letters: `io.abcdefghijklmnopq` alone (a heading's identifier) breaks before its period
    /// even when that leaves two letters on the first line.
    @Test(arguments: [92.0, 95, 98])
    func aRaggedLineEndsShortRatherThanBreakAPart(width: Double) {
        let runs = [text("io.abcdefghijklmnopq", code: true)]
        let p = prepared(runs)
        let composition = ParagraphComposer.compose(
            paragraph(runs, alignment: .left), prepared: p, width: width, hyphenate: { _, _ in [] })
        #expect(composition.brokenWords.map(\.treatment) == [.brokenBetweenParts])
        #expect(lineTexts(composition, p) == ["io", ".abcdefghijklmnopq"])
    }

    /// A word wider than the measure broken between its letters keeps the punctuation that
    /// ends it (a comma, a closing bracket or quote, a full stop) on the line of its last
    /// letters, and the punctuation that opens it on the line of its first: no line starts
    /// with `,` or `」` nor ends with `「` or `(`, at any measure, ragged or justified.
    @Test(arguments: [
        "가나다라마바사아자차카타파하,", "「가나다라마바사아자차카타파하」", "(abcdefghijklmnopqrstuvwxyzabc).",
        "\u{201C}Supercalifragilisticexpialidocious!\u{201D}", "가나다라마바사아자차카타파하…", "[abcdefghijklmnopqrstuvw]:",
    ])
    func anOverwideWordKeepsItsPunctuationWithItsLetters(word: String) {
        let closing = Set(",.!?:;)]}」』\u{201D}\u{2019}…%".unicodeScalars)
        let opening = Set("([{「『\u{201C}\u{2018}".unicodeScalars)
        for alignment in [TextAlignment.justify, .left] {
            for width in stride(from: 30.0, through: 90, by: 5) {
                let runs = [text("Text " + word + " after")]
                let p = prepared(runs)
                let composition = ParagraphComposer.compose(
                    paragraph(runs, alignment: alignment), prepared: p, width: width, hyphenate: { _, _ in [] })
                let lines = lineTexts(composition, p).map { $0.trimmingCharacters(in: .whitespaces) }
                for line in lines {
                    guard let first = line.unicodeScalars.first, let last = line.unicodeScalars.last else { continue }
                    #expect(!closing.contains(first), "\(word) at \(width) pt: \(lines)")
                    #expect(!opening.contains(last), "\(word) at \(width) pt: \(lines)")
                }
            }
        }
    }

    /// The composer's list of Unicode White_Space agrees with the standard library's property
    /// tables on every scalar: the spaces that break are White_Space but line separators and
    /// the no-break spaces (U+00A0, U+2007, U+202F).
    @Test func breakingSpacesAreUnicodesWhiteSpaceButSeparatorsAndNoBreakSpaces() {
        let kept: Set<Unicode.Scalar> = [
            "\n", "\u{0B}", "\u{0C}", "\r", "\u{2028}", "\u{2029}", "\u{A0}", "\u{2007}", "\u{202F}",
        ]
        var disagreeing: [UInt32] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let expected = scalar.properties.isWhitespace && !kept.contains(scalar)
            if ParagraphComposer.isBreakingSpace(scalar) != expected { disagreeing.append(value) }
        }
        #expect(disagreeing.isEmpty, "\(disagreeing.map { String($0, radix: 16) })")
    }

    /// The composer's general categories, read from a table for ASCII, are the standard
    /// library's on every scalar.
    @Test func generalCategoriesAreUnicodes() {
        var disagreeing: [UInt32] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            if ParagraphComposer.generalCategory(of: scalar) != scalar.properties.generalCategory {
                disagreeing.append(value)
            }
        }
        #expect(disagreeing.isEmpty, "\(disagreeing.map { String($0, radix: 16) })")
    }

    /// Justified keep-all text may break inside a word as a last resort (W3C KLREQ allows a
    /// line ending in Hangul to break by character): only between two Hangul syllables, never
    /// beside a Latin letter, digit or punctuation (`MANWIDTH를`, `/dev/ttyS1을` stay whole),
    /// with two syllables of the word after the break (`소윳값입니` | `다.` was set), never in the
    /// paragraph's last word; ragged keep-all text never breaks inside a word.
    @Test func keepAllBreaksInsideAWordOnlyBetweenSyllablesAsALastResort() {
        let korean =
            "환경 변수 MANWIDTH를 설정하면 이 값을 터미널 폭으로 사용합니다 장치 /dev/ttyS1을 열고 "
            + "프로세스를 강제로 끝내기 전에 확인합니다 JoinHandle은 자신의 소윳값입니다. 규칙을 다루며, "
            + "마지막어절은끊기지않습니다"
        let runs = [text(korean)]
        let p = prepared(runs)
        var broken = 0
        for width in stride(from: 70.0, through: 200, by: 5) {
            for alignment in [TextAlignment.justify, .left] {
                let composition = ParagraphComposer.compose(
                    paragraph(runs, alignment: alignment), prepared: p, width: width, hyphenate: { _, _ in [] })
                for line in composition.lines.dropLast() where line.ending == .opportunity {
                    let before = p.scalars[line.end - 1]
                    let after = p.scalars[line.end]
                    guard !before.properties.isWhitespace, !after.properties.isWhitespace else { continue }
                    #expect(alignment == .justify, "ragged text broke a word at \(width) pt")
                    #expect(
                        (0xAC00...0xD7A3).contains(before.value) && (0xAC00...0xD7A3).contains(after.value),
                        "broken beside a non-syllable at \(width) pt: \(lineTexts(composition, p))")
                    // Two syllables of the word at least after the break: no line starts with
                    // `다.`, `의` or `며,` alone.
                    let isSyllable = { (scalar: Unicode.Scalar) in (0xAC00...0xD7A3).contains(scalar.value) }
                    let start = p.scalars[..<line.end].lastIndex { $0.properties.isWhitespace }.map { $0 + 1 } ?? 0
                    let end = p.scalars[line.end...].firstIndex { $0.properties.isWhitespace } ?? p.scalars.count
                    let head = p.scalars[start..<line.end].count(where: isSyllable)
                    let tail = p.scalars[line.end..<end].count(where: isSyllable)
                    #expect(head >= 1 && tail >= 2, "\(head) | \(tail) at \(width) pt: \(lineTexts(composition, p))")
                    broken += 1
                }
                #expect(lineTexts(composition, p).last?.hasSuffix("마지막어절은끊기지않습니다") == true)
            }
        }
        #expect(broken > 0)
    }

    /// A heading's lines are balanced (``ParagraphStyle/balancesLines``, CSS `text-wrap:
    /// balance`): as many lines as at the full measure, their lengths closer, never a word alone
    /// on the last line where first-fit left one; centred and right-aligned lines still sit in the
    /// full measure; a paragraph without the setting is unchanged. Members: Korean and English,
    /// two and three lines, left, centred and right, every measure from 60 to 200 pt.
    @Test(arguments: [TextAlignment.left, .center, .right])
    func aHeadingsLinesAreBalanced(alignment: TextAlignment) {
        for text in [
            "스마트 전기주전자 사용 설명서", "Line height, leading and the baseline grid",
            "The quick brown fox jumps over the lazy dog near the river bank and back",
        ] {
            let runs = [self.text(text)]
            let p = prepared(runs)
            for width in stride(from: 60.0, through: 200, by: 5) {
                let plain = ParagraphComposer.compose(
                    paragraph(runs, alignment: alignment), prepared: p, width: width, hyphenate: { _, _ in [] })
                var heading = paragraph(runs, alignment: alignment)
                heading.style.balancesLines = true
                let balanced = ParagraphComposer.compose(heading, prepared: p, width: width, hyphenate: { _, _ in [] })
                #expect(balanced.lines.count == plain.lines.count, "\(text) at \(width) pt")
                guard plain.lines.count >= 2, plain.brokenWords.isEmpty else { continue }
                let spread = { (c: Composition) in
                    (c.lines.map(\.naturalWidth).max() ?? 0) - (c.lines.map(\.naturalWidth).min() ?? 0)
                }
                #expect(spread(balanced) <= spread(plain) + 1e-9, "\(text) at \(width) pt: \(lineTexts(balanced, p))")
                let words = { (c: Composition) in
                    lineTexts(c, p).last?.split(separator: " ").count ?? 0
                }
                if words(plain) == 1, text.split(separator: " ").count > 2 * plain.lines.count {
                    #expect(words(balanced) > 1, "\(text) at \(width) pt: \(lineTexts(balanced, p))")
                }
                for line in balanced.lines {
                    #expect(line.x >= -5 && line.x + line.width <= width + 5, "\(alignment) \(width) pt")
                    if alignment == .right { #expect(abs(line.x + line.width - width) < 5.5, "\(width) pt") }
                }
            }
        }
    }

    /// ``HangulLineBreak/keepAll`` (CSS `word-break: keep-all`) never breaks a word that fits
    /// the measure, justified or not, and neither does ``HangulLineBreak/auto`` in a run that
    /// asks for no hyphenation; ``HangulLineBreak/auto`` alone breaks between syllables.
    @Test func strictKeepAllAndUnhyphenatedRunsKeepWordsWhole() {
        let korean =
            "오늘은 하루 종일 비가 내렸다. 우산을 챙기지 못한 사람들은 처마 밑에서 비가 그치기를 기다렸다. "
            + "나는 창가에 앉아 그 모습을 한참 바라보았다. 끝."
        var unhyphenated = text(korean)
        unhyphenated.style.hyphenate = false
        var brokenAuto = 0
        for width in stride(from: 70.0, through: 200, by: 5) {
            for (runs, hangul) in [
                ([text(korean)], HangulLineBreak.keepAll), ([unhyphenated], .auto), ([text(korean)], .auto),
            ] {
                let p = prepared(runs)
                let composition = ParagraphComposer.compose(
                    paragraph(runs, hangul: hangul), prepared: p, width: width, hyphenate: { _, _ in [] })
                let inWord = composition.lines.dropLast().filter {
                    !p.scalars[$0.end - 1].properties.isWhitespace && !p.scalars[$0.end].properties.isWhitespace
                }
                if hangul == .auto, runs[0].style.hyphenate == nil {
                    brokenAuto += inWord.count
                } else {
                    #expect(inWord.isEmpty, "\(hangul) at \(width) pt: \(lineTexts(composition, p))")
                }
            }
        }
        #expect(brokenAuto > 0)
    }

    @Test func keepAllBreaksKoreanOnlyBetweenWords() {
        let korean = "한국어 문장은 어절 단위로 줄을 바꾸며 긴 문장도 단어 중간에서 끊기지 않습니다 타이포그래피는 글자를 배열하는 기술입니다"
        let words = Set(korean.split(separator: " ").map(String.init))
        let runs = [text(korean)]
        let p = prepared(runs)
        let kept = ParagraphComposer.compose(paragraph(runs), prepared: p, width: 120, hyphenate: { _, _ in [] })
        #expect(lineTexts(kept, p).allSatisfy { $0.split(separator: " ").allSatisfy { words.contains(String($0)) } })
        let anywhere = ParagraphComposer.compose(
            paragraph(runs, hangul: .anywhere), prepared: p, width: 120, hyphenate: { _, _ in [] })
        #expect(lineTexts(anywhere, p).contains { !$0.split(separator: " ").allSatisfy { words.contains(String($0)) } })
        // Justified keep-all lines spread syllables as well as spaces (KLREQ).
        #expect(kept.lines.dropLast().contains { $0.syllableSpacing > 0 })
    }

    /// A word of Hanja in keep-all text is kept whole, as a word of Hangul is (CSS's
    /// `word-break: keep-all` keeps every word of CJK letters), where Unicode line breaking
    /// allows a break between any two ideographs; with `anywhere` it breaks between them, and
    /// so does a paragraph without Hangul (Japanese, Chinese).
    @Test func keepAllKeepsAWordOfHanjaWhole() {
        let korean = "한자 표기 예시로는 大韓民國憲法, 訓民正音解例本, 朝鮮王朝實錄 같은 긴 한자어가 있습니다. 漢字語 사전과 國語 사전"
        let words = Set(korean.split(separator: " ").map(String.init))
        let runs = [text(korean)]
        var p = prepared(runs)
        for i in 1..<p.scalars.count
        where ParagraphComposer.isHanja(p.scalars[i - 1]) && ParagraphComposer.isHanja(p.scalars[i]) {
            p.lineBreakBefore[i] = true
        }
        var splitAnywhere = false
        for alignment in [TextAlignment.left, .justify] {
            for width in stride(from: 60.0, through: 160, by: 10) {
                let kept = ParagraphComposer.compose(
                    paragraph(runs, alignment: alignment), prepared: p, width: width, hyphenate: { _, _ in [] })
                // (A justified line may still break between two Hangul syllables as a last resort.)
                #expect(
                    !kept.lines.dropLast().contains {
                        ParagraphComposer.isHanja(p.scalars[$0.end - 1]) && ParagraphComposer.isHanja(p.scalars[$0.end])
                    }, "\(alignment) \(width) pt: \(lineTexts(kept, p))")
                if alignment == .left {
                    #expect(
                        lineTexts(kept, p).allSatisfy {
                            $0.split(separator: " ").allSatisfy { words.contains(String($0)) }
                        }, "\(width) pt: \(lineTexts(kept, p))")
                }
                let anywhere = ParagraphComposer.compose(
                    paragraph(runs, alignment: alignment, hangul: .anywhere), prepared: p, width: width,
                    hyphenate: { _, _ in [] })
                splitAnywhere =
                    splitAnywhere
                    || anywhere.lines.dropLast().contains {
                        ParagraphComposer.isHanja(p.scalars[$0.end - 1]) && ParagraphComposer.isHanja(p.scalars[$0.end])
                    }
            }
        }
        #expect(splitAnywhere)
        // Without Hangul (Japanese, Chinese) a paragraph breaks between ideographs as before.
        let japanese = [text("東京都千代田区の説明文はどこでも改行できるので狭くなっても構いません")]
        var q = prepared(japanese)
        for i in 1..<q.scalars.count { q.lineBreakBefore[i] = true }
        let set = ParagraphComposer.compose(
            paragraph(japanese, alignment: .left), prepared: q, width: 60, hyphenate: { _, _ in [] })
        #expect(!set.emergency && set.lines.count > 2, "\(lineTexts(set, q))")
    }

    /// A word wider than the measure, broken between letters, still starts no line with a
    /// closing bracket or quote or the punctuation after a word and ends none with an opening
    /// bracket or quote (UAX #14, W3C KLREQ §3.1.7): members in Korean (parentheses, corner
    /// brackets, double angle brackets, a question mark before a closing bracket) and in Latin
    /// (curly quotes, brackets and braces), ragged and justified, at measures from 8 to 20
    /// characters.
    @Test(arguments: [
        "홍길동(개발팀)·김영희(디자인팀)·이철수(기획팀)이다.",
        "「왜그런가?」라는질문에『삼국사기』(三國史記)와《훈민정음》을들었다.",
        "word\u{201C}quoted\u{201D}(paren)next[bracket]and{brace}thenmoreletters!",
    ])
    func anEmergencyBreakKeepsBracketsAndPunctuationWithTheirLetters(word: String) {
        composeAtNarrowMeasures(word) { c, p, alignment, width in
            for line in c.lines.dropLast() {
                let last = p.scalars[line.end - 1].properties.generalCategory
                let next = p.scalars[line.end]
                #expect(
                    last != .openPunctuation && last != .initialPunctuation,
                    "\(word) \(alignment) \(width) pt: \(lineTexts(c, p))")
                #expect(
                    ![.closePunctuation, .finalPunctuation].contains(next.properties.generalCategory)
                        && !"!?,.\u{B7}".unicodeScalars.contains(next),
                    "\(word) \(alignment) \(width) pt: \(lineTexts(c, p))")
            }
            #expect(c.lines.allSatisfy { $0.naturalWidth <= width + 0.01 }, "\(word) \(width) pt")
        }
    }

    /// `word` composed alone, ragged and justified, at every measure from 40 to 100 pt in 5 pt
    /// steps: the composition, the prepared paragraph, the alignment and the measure.
    func composeAtNarrowMeasures(
        _ word: String, _ body: (Composition, PreparedParagraph, TextAlignment, Double) -> Void
    ) {
        let runs = [text(word)]
        let p = prepared(runs)
        for alignment in [TextAlignment.left, .justify] {
            for width in stride(from: 40.0, through: 100, by: 5) {
                let c = ParagraphComposer.compose(
                    paragraph(runs, alignment: alignment), prepared: p, width: width, hyphenate: { _, _ in [] })
                body(c, p, alignment, width)
            }
        }
    }

    /// A word wider than the measure, broken between letters, never breaks before an ellipsis
    /// or dot leader (UAX #14 LB22: `하나……사차` was set `하나…` | `…사차`), nor between two em
    /// dashes or horizontal bars (LB17): members in Korean and Latin, with `…`, `‥`, `……`,
    /// `——` and `――`, ragged and justified, at measures from 40 to 100 pt.
    @Test(arguments: [
        "가나다하나……사차가가나다하나……사차가가나다", "가나다라마‥바사아자차카타파하가나다라마", "wordwordword…nextwordword",
        "가나다라마바——사아자차카타——파하가나", "가나다라마바――사아자차카타――파하가나",
    ])
    func anEmergencyBreakNeverPartsAnEllipsisOrADashPair(word: String) {
        composeAtNarrowMeasures(word) { c, p, alignment, width in
            for line in c.lines.dropLast() {
                let next = p.scalars[line.end]
                #expect(!"…‥".unicodeScalars.contains(next), "\(word) \(alignment) \(width) pt: \(lineTexts(c, p))")
                #expect(
                    !("—―".unicodeScalars.contains(next) && p.scalars[line.end - 1] == next),
                    "\(word) \(alignment) \(width) pt: \(lineTexts(c, p))")
            }
        }
    }

    /// A run of spaces is one break opportunity (UAX #14: a break after the spaces, none between
    /// them): the line breaks at the run's first space and the next line starts after the last.
    /// Two spaces between words used to be no break at all, and a word too wide for the rest of
    /// the line ran past the measure (and off the page). Members: two and three spaces, a tab
    /// among them, ragged and justified, and a word too long for the rest of any line.
    @Test(arguments: ["  ", "   ", " \t "], [TextAlignment.left, .justify])
    func aRunOfSpacesIsABreakOpportunity(_ spaces: String, _ alignment: TextAlignment) {
        let runs = [text("aaaaaaaaaa\(spaces)bbbbbbbbbb\(spaces)cccccccccc")]
        let p = prepared(runs)
        let c = ParagraphComposer.compose(
            paragraph(runs, alignment: alignment), prepared: p, width: 80, hyphenate: { _, _ in [] })
        #expect(lineTexts(c, p) == ["aaaaaaaaaa", "bbbbbbbbbb", "cccccccccc"], "\(lineTexts(c, p))")
        #expect(c.lines.allSatisfy { $0.naturalWidth <= 80 })
    }

    /// Runs of spaces of other kinds (UAX #14 class BA: a break after each, as Pango gives),
    /// wider than the measure, at a paragraph's start, middle and end and after a hard break:
    /// no emergency, no line wider than the measure, every word whole on a line; a leading run
    /// takes a line of its own, a trailing one adds no width.
    @Test(
        arguments: ["\u{3000}", "\u{2003}", "\u{2000}", "\u{1680}", "\u{3000}\u{2003} \u{205F}"],
        [TextAlignment.left, .justify])
    func runsOfSpacesOfEveryKindBreak(_ space: String, _ alignment: TextAlignment) {
        let run = String(repeating: space, count: 30 / space.unicodeScalars.count + 1)
        for (text, words) in [
            (run + "xstart after", ["xstart", "after"]), ("mid" + run + "xmiddle after", ["mid", "xmiddle", "after"]),
            ("one xend" + run, ["one", "xend"]), ("before\n" + run + "xbreak after", ["before", "xbreak", "after"]),
        ] {
            let runs = [self.text(text)]
            var p = prepared(runs)
            for i in 1..<p.scalars.count {
                let before = p.scalars[i - 1]
                let after = p.scalars[i]
                p.lineBreakBefore[i] =
                    before == " "
                    ? !ParagraphComposer.isBreakingSpace(after) : ParagraphComposer.isBreakingSpace(before)
            }
            let c = ParagraphComposer.compose(
                paragraph(runs, alignment: alignment), prepared: p, width: 80, hyphenate: { _, _ in [] })
            let label = "\(space.unicodeScalars.map { String($0.value, radix: 16) }) \(alignment): \(lineTexts(c, p))"
            #expect(!c.emergency, "\(label)")
            #expect(c.lines.allSatisfy { $0.naturalWidth <= 80 }, "\(label)")
            let set = lineTexts(c, p).flatMap {
                $0.split(whereSeparator: { ParagraphComposer.isBreakingSpace($0.unicodeScalars.first!) || $0 == "\n" })
            }
            #expect(set.map(String.init) == words, "\(label)")
        }
    }

    @Test func codeSpacesDoNotCountAsStretch() {
        // Lines whose only spaces are inside code are set at natural width.
        let runs = [
            text("aaaa"), text(" "), text("b b b b b b b b b b b b b b b b b b b b b b b b", code: true), text(" "),
            text("cccc"),
        ]
        let p = prepared(runs)
        let c = ParagraphComposer.compose(paragraph(runs), prepared: p, width: 100, hyphenate: { _, _ in [] })
        for line in c.lines {
            let hasPlainSpace = (line.start..<line.end).contains {
                p.scalars[$0] == " " && !runs[p.runIndex[$0]].style.isCode
            }
            if !hasPlainSpace { #expect(line.spaceFactor == 0 && line.width == line.naturalWidth) }
        }
    }

    @Test func hyphenationPolicySkipsCodeDigitsAddressesCapitalsAndShortWords() {
        var asked: [String] = []
        let runs = [
            text("representation abc123def example.com/path NASA tiny "), text("typography", code: true),
            text(" 타이포그래피 characteristics too"),
        ]
        let p = prepared(runs)
        _ = ParagraphComposer.compose(
            paragraph(runs), prepared: p, width: 60,
            hyphenate: { word, _ in
                asked.append(word)
                return [2, 5]
            })
        #expect(Set(asked) == ["representation", "characteristics"])
    }

    @Test func hyphenationPointsRespectTheMinimumsAndTheLanguage() {
        var languages: [String] = []
        var style = RunStyle(font: font)
        style.language = "de"
        // (A paragraph's last word is never hyphenated: a short one ends this.)
        let runs = [StyledRun("Silbentrennung Silbentrennung Silbentrennung und", style: style)]
        let p = prepared(runs)
        // Points offered at 1 (too close to the start) and 12 (too close to the end) are ignored.
        let c = ParagraphComposer.compose(
            paragraph(runs), prepared: p, width: 50,
            hyphenate: { _, language in
                languages.append(language)
                return [1, 6, 12]
            })
        #expect(Set(languages) == ["de"])
        let texts = lineTexts(c, p)
        for (line, t) in zip(c.lines, texts) where line.ending == .hyphen { #expect(t.hasSuffix("Silben")) }
        #expect(c.lines.contains { $0.ending == .hyphen })
    }

    @Test func raggedTextIsNeverHyphenatedByDefaultButCanBe() {
        let runs = [text("representation representation representation representation")]
        let p = prepared(runs)
        var asked = 0
        _ = ParagraphComposer.compose(
            paragraph(runs, alignment: .left), prepared: p, width: 90,
            hyphenate: { _, _ in
                asked += 1
                return []
            })
        #expect(asked == 0)
        var style = RunStyle(font: font)
        style.hyphenate = true
        let on = [StyledRun("representation representation", style: style)]
        _ = ParagraphComposer.compose(
            paragraph(on, alignment: .left), prepared: prepared(on), width: 90,
            hyphenate: { _, _ in
                asked += 1
                return []
            })
        #expect(asked > 0)
    }

    @Test func alignmentAndHangingPunctuation() {
        let runs = [text("one two three four five six seven eight nine ten eleven twelve.")]
        let p = prepared(runs)
        let centred = ParagraphComposer.compose(
            paragraph(runs, alignment: .center), prepared: p, width: 100, hyphenate: { _, _ in [] })
        for line in centred.lines { #expect(abs(line.x - (100 - line.width) / 2) < 1e-9) }
        // Justified: a line ending in a comma or period may hang 80 % of it (4 pt) past the measure.
        let hung = [text("aaaa, bbbb, cccc, dddd, eeee, ffff, gggg, hhhh, iiii, jjjj, kkkk, llll.")]
        let q = prepared(hung)
        let c = ParagraphComposer.compose(paragraph(hung), prepared: q, width: 100, hyphenate: { _, _ in [] })
        for line in c.lines.dropLast() { #expect(line.width >= 100 - 1e-9 && line.width <= 104 + 1e-9) }
        #expect(c.lines.dropLast().contains { $0.hang > 0 })
    }
}
