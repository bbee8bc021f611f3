import Styling
import Testing
import Typography

@testable import Layout

/// Hyphenation with judgment and character protrusion, composed over the fake measurements of
/// `prepared(_:)` (every scalar 5 pt): no paragraph ends with a short hyphen fragment, no line
/// ends after a dash that opens a phrase or starts with one that closes it, and the edge
/// characters of microtype's protrusion set stand out into both margins by their share.
@Suite struct CompositionJudgmentTests {
    let font = FontSpec(families: ["X"], size: 10)

    func paragraph(_ text: String, alignment: TextAlignment = .justify) -> StyledParagraph {
        StyledParagraph(
            runs: [StyledRun(text, style: RunStyle(font: font))],
            style: ParagraphStyle(baseFont: font, alignment: alignment, hangulLineBreak: .auto))
    }

    func lineText(_ line: ComposedLine, _ p: PreparedParagraph) -> String {
        String(String.UnicodeScalarView(p.scalars[line.start..<line.end]))
    }

    /// The lines of `text` composed without hyphenation at every measure from 60 to 160 pt in
    /// steps of 2.5 pt, justified and ragged, each with its measure.
    func linesAtEveryMeasure(_ text: String, _ prepared: PreparedParagraph) -> [(width: Double, line: ComposedLine)] {
        stride(from: 60.0, through: 160, by: 2.5).flatMap { width in
            [TextAlignment.justify, .left].flatMap { alignment in
                ParagraphComposer.compose(
                    paragraph(text, alignment: alignment), prepared: prepared, width: width, hyphenate: { _, _ in [] }
                ).lines.map { (width, $0) }
            }
        }
    }

    /// Every point of every word (after the second letter) as a hyphenation point.
    func everyPoint(_ word: String, _ language: String) -> [Int] { Array(2..<max(2, word.count - 1)) }

    /// Members: last words of 7 to 12 letters, with a period, a comma and quote, or nothing
    /// after them, at every measure from 60 to 160 pt: whenever the second-last line ends in a
    /// hyphen, the last line holds at least six letters of the word.
    @Test(arguments: ["finally.", "processes.", "occurrences,\u{201D}", "elaborately"])
    func noParagraphEndsWithAShortFragment(_ last: String) {
        let text = "one two three four five six seven eight nine ten " + last
        let prepared = prepared([StyledRun(text, style: RunStyle(font: font))])
        var hyphenatedLastWord = 0
        for width in stride(from: 60.0, through: 160, by: 5) {
            let composition = ParagraphComposer.compose(
                paragraph(text), prepared: prepared, width: width, hyphenate: everyPoint)
            let lines = composition.lines
            guard lines.count > 1, lines[lines.count - 2].ending == .hyphen else { continue }
            hyphenatedLastWord += 1
            let fragment = lineText(lines[lines.count - 1], prepared)
            #expect(fragment.filter(\.isLetter).count >= 6, "\(width): \(fragment)")
        }
        // The rule narrows the points; it does not forbid hyphenating a long last word.
        if last.filter(\.isLetter).count >= 10 { #expect(hyphenatedLastWord > 0) }
    }

    /// Members: en dash, em dash and a spaced hyphen-minus, one and two dashes in a sentence,
    /// two sentences, at every measure from 60 to 160 pt: no line ends in a dash that opens a
    /// phrase (the first, third... spaced dash of a sentence) and none starts with one that
    /// closes it.
    @Test(arguments: ["\u{2013}", "\u{2014}", "-"])
    func aSpacedDashStaysWithItsPhrase(_ dash: String) {
        let text =
            "Tests run in parallel \(dash) test concurrency decides how many \(dash) and results come back in "
            + "order. A second sentence \(dash) with one dash only."
        let prepared = prepared([StyledRun(text, style: RunStyle(font: font))])
        let dashes = prepared.scalars.indices.filter { String(prepared.scalars[$0]) == dash }
        let opening = [dashes[0], dashes[2]]
        let closing = [dashes[1]]
        var seen = Set<Int>()
        for (width, line) in linesAtEveryMeasure(text, prepared) {
            let last = line.end - 1
            #expect(!opening.contains(last), "\(width): \(lineText(line, prepared))")
            #expect(!closing.contains(line.start), "\(width): \(lineText(line, prepared))")
            seen.insert(line.start)
        }
        // Lines do start with an opening dash: the break moves before it.
        #expect(opening.contains { seen.contains($0) })
    }

    /// A number and its unit stand on one line: no line ends at the space between them.
    /// Members: a unit symbol, a decimal number with its unit, a postfix sign after a bracket,
    /// a prefix sign, degrees, a Korean numeral with its counter, a Korean counter with its
    /// particle, a unit with the comma after it; at every measure from 60 to 160 pt, justified
    /// and ragged.
    @Test(arguments: [
        ("16", "GB"), ("3.5", "kg,"), ("(12.00)", "%"), ("$", "100"), ("25", "°C"), ("240만", "명"), ("3", "개를"),
        ("₩", "5,000"), ("1.5", "ms"),
    ])
    func aNumberStaysWithItsUnit(_ number: String, _ unit: String) {
        let text =
            "The archive holds \(number) \(unit) of logs, and the second copy takes \(number) \(unit) again "
            + "while the third holds \(number) \(unit) in all."
        expectTied(after: number, in: text)
    }

    /// Expects each of the three spaces after the word `tied` in `text` (a word of its own) to
    /// end no line at any measure, and some line to start with the word: the break moves before it.
    func expectTied(after tied: String, in text: String) {
        let prepared = prepared([StyledRun(text, style: RunStyle(font: font))])
        let count = tied.unicodeScalars.count
        let ties = prepared.scalars.indices.filter { index in
            index + count < prepared.scalars.count
                && String(String.UnicodeScalarView(prepared.scalars[index..<index + count])) == tied
                && prepared.scalars[index + count] == " " && (index == 0 || prepared.scalars[index - 1] == " ")
        }.map { $0 + count }
        #expect(ties.count == 3)
        var breaksBefore = 0
        for (width, line) in linesAtEveryMeasure(text, prepared) {
            #expect(!ties.contains(line.end) && !ties.contains(line.end - 1), "\(width): \(lineText(line, prepared))")
            if ties.contains(where: { line.start == $0 - count }) { breaksBefore += 1 }
        }
        #expect(breaksBefore > 0)
    }

    /// Quotation marks set with spaces inside (French guillemets, `« mot »`) stay with the words
    /// they quote: no line ends after an opening one nor starts with a closing one (UAX #14 of
    /// Unicode 15.1, LB15a and LB15b). A closing mark used as an apostrophe before a letter
    /// (`’n’`) binds nothing. Members: « », ‹ ›, “ ” set with spaces, a mark before a comma,
    /// at every measure from 60 to 160 pt, justified and ragged.
    @Test(arguments: [("\u{AB}", "\u{BB}"), ("\u{2039}", "\u{203A}"), ("\u{201C}", "\u{201D}")])
    func quotationMarksSetWithSpacesStayWithTheirWords(_ open: String, _ close: String) {
        let text =
            "Il dit \(open) bonjour \(close) puis \(open) au revoir \(close), et encore \(open) merci bien \(close) "
            + "avant de partir."
        let prepared = prepared([StyledRun(text, style: RunStyle(font: font))])
        for (width, line) in linesAtEveryMeasure(text, prepared) {
            let set = lineText(line, prepared).trimmingCharacters(in: .whitespaces)
            #expect(!set.hasSuffix(open) && !set.hasPrefix(close), "\(width): \(set)")
        }
        let apostrophes = ParagraphComposer.quotationBoundSpaces(Array("rock \u{2019}n\u{2019} roll".unicodeScalars))
        #expect(!apostrophes.contains(true))
    }

    /// A dash that opens a word stays with it after an opening bracket or quote as after a
    /// space: members `(-Db_lto=true)`, `"--force"`, `[-v]`, `‘-x’`, at every measure, justified
    /// and ragged, no line ends with the dash (`(-` | `Db_lto=true` was set).
    @Test(arguments: ["(-Db_lto=true)", "\"--force\"", "[-v]", "\u{2018}-x\u{2019}"])
    func aDashOpeningAWordAfterABracketStaysWithIt(_ word: String) {
        let text = "The build takes \(word) as its option and then \(word) again for the second pass of it."
        let prepared = prepared([StyledRun(text, style: RunStyle(font: font))])
        for (width, line) in linesAtEveryMeasure(text, prepared) {
            let set = lineText(line, prepared).trimmingCharacters(in: .whitespaces)
            #expect(!set.hasSuffix("-"), "\(width): \(set)")
        }
    }

    /// Code breaks before its hyphens, never after one, also where it is the paragraph's last
    /// word (a table cell holding one value) and wider than the measure, so its breaks are
    /// those given back to fit it: members a value, an option, and a code word after prose, at
    /// every measure from 60 to 160 pt, justified and ragged.
    @Test(arguments: [
        (nil, "\"a-very-long-default-value-string\""), (nil, "--some-really-long-option-name-that-goes-on"),
        ("Ends with code ", "a-long-option-name-wider-than-the-measure"),
    ])
    func codeBreaksBeforeItsHyphensAlsoAsTheLastWord(_ before: String?, _ code: String) {
        var style = RunStyle(font: font)
        style.isCode = true
        let runs = (before.map { [StyledRun($0, style: RunStyle(font: font))] } ?? []) + [StyledRun(code, style: style)]
        let prepared = prepared(runs)
        for width in stride(from: 60.0, through: 160, by: 2.5) {
            for alignment in [TextAlignment.justify, .left] {
                let paragraph = StyledParagraph(
                    runs: runs, style: ParagraphStyle(baseFont: font, alignment: alignment, hangulLineBreak: .auto))
                let lines = ParagraphComposer.compose(
                    paragraph, prepared: prepared, width: width, hyphenate: { _, _ in [] }
                ).lines
                for line in lines.dropLast() {
                    let set = lineText(line, prepared).trimmingCharacters(in: .whitespaces)
                    #expect(!set.hasSuffix("-"), "\(width) \(alignment): \(set)")
                }
            }
        }
    }

    /// Members: a label that names the number after it, or a comparison sign before one, in
    /// English and Korean, each three times in a paragraph, at every measure from 60 to 160 pt,
    /// justified and ragged: no line ends between the two (`Chapter` | `8.` ended a paragraph,
    /// `glibc >=` | `2.28` a table cell's line), and lines do start with the label.
    @Test(arguments: [
        ("Chapter", "8."), ("Figure", "3"), ("Listing", "16-1"), ("p.", "12"), (">=", "2.28"), ("≥", "3"),
        ("§", "5"), ("예제", "16-2"), ("제", "3장"),
    ])
    func aNumberStaysWithTheWordThatNamesIt(_ label: String, _ number: String) {
        let text =
            "The archive is read in \(label) \(number) of the guide, and the second copy again in \(label) \(number) "
            + "while the third is in \(label) \(number) too."
        expectTied(after: label, in: text)
    }

    /// A label is tied only before a number: `the chapter on`, `Chapter eight`, `apples 8` break.
    @Test func aLabelIsTiedOnlyBeforeANumber() {
        let scalars = Array("the chapter on Chapter eight apples 8 Table 2".unicodeScalars)
        let tied = NumberUnitTies.tiedSpaces(scalars)
        let tiedAfter = scalars.indices.filter { tied[$0] }.map { index in
            String(String.UnicodeScalarView(scalars[..<index])).split(separator: " ").last.map(String.init) ?? ""
        }
        #expect(tiedAfter == ["Table"], "\(tiedAfter)")
    }

    /// An address never ends a line with a single slash: where Unicode's line breaking allows a
    /// break after one (`version/` | `1/4/`), it moves before it (Chicago 14.18: `version` |
    /// `/1/4/`), while after `://` a line may still end; a path that is no address keeps its
    /// breaks. Members: a URL's path, an `www.` address, a double slash, a path without scheme.
    @Test func anAddressBreaksBeforeASingleSlash() {
        for (text, expected) in [
            (
                "https://contributor-covenant.org/version/1/4/",
                ["https://", "contributor-covenant.org", "/version", "/1", "/4/"]
            ),
            ("www.example.org/docs/guide", ["www.example.org", "/docs", "/guide"]),
            ("/usr/share/doc/x", ["/", "usr/", "share/", "doc/", "x"]),
        ] {
            let scalars = Array(text.unicodeScalars)
            // Unicode's breaks after each slash, as Pango gives them.
            var allowed = [Bool](repeating: false, count: scalars.count + 1)
            for k in 1..<scalars.count where scalars[k - 1] == "/" && scalars[k] != "/" { allowed[k] = true }
            ParagraphComposer.breakBeforeHyphensInAddresses(scalars, allowed: &allowed)
            var pieces: [String] = []
            var start = 0
            for k in 1...scalars.count where allowed[k] || k == scalars.count {
                pieces.append(String(String.UnicodeScalarView(scalars[start..<k])))
                start = k
            }
            #expect(pieces == expected, "\(text): \(pieces)")
        }
    }

    /// Where Unicode's line breaking allows a break that a reader would see as a word torn
    /// apart, none is allowed (only withheld, for a word wider than the measure): after a slash
    /// between short parts (a unit, `km/h를`, `Mbit/s`, `kg/m²`; `and/or`, `I/O`), after a slash
    /// that opens a path (`/` | `usr`), before a bracket after a word's period (`7.(월)`,
    /// `etc.(see`). A path's later slashes and a dash between Hangul words keep their breaks
    /// (CSS's keep-all keeps a dash's).
    @Test func slashesBetweenShortPartsAndBracketsAfterAPeriodAreNoBreaks() {
        for (text, kept, broken) in [
            ("120 km/h를", ["km/h"], [String]()), ("100 Mbit/s", ["Mbit/s"], []), ("3 kg/m²이다", ["kg/m²"], []),
            ("and/or I/O", ["and/or", "I/O"], []), ("경로 /usr/share/doc/x 이다", ["/usr"], ["share/doc"]),
            ("2026. 12. 7.(월)이다", [".(월"], []), ("etc.(see below)", [".(see"], []),
            ("오겠다고—이번에는", [], ["—이"]),
        ] {
            var p = prepared([StyledRun(text, style: RunStyle(font: font))])
            // Unicode's breaks, as Pango gives them: after a slash or dash, before a bracket.
            for k in 1..<p.scalars.count where p.scalars[k - 1] == "/" || p.scalars[k - 1] == "—" || p.scalars[k] == "("
            {
                p.lineBreakBefore[k] = true
            }
            let (allowed, withheld) = ParagraphComposer.allowedBreaks(p, keepAll: true)
            func breaks(in piece: String, _ list: [Bool]) -> Bool {
                let needle = Array(piece.unicodeScalars)
                let start = p.scalars.indices.first { p.scalars[$0...].starts(with: needle) }!
                return (start + 1..<start + needle.count).contains { list[$0] }
            }
            for piece in kept {
                #expect(!breaks(in: piece, allowed), "\(text): a break in '\(piece)'")
                #expect(breaks(in: piece, withheld), "\(text): '\(piece)' breaks when wider than the measure")
            }
            for piece in broken { #expect(breaks(in: piece, allowed), "\(text): no break in '\(piece)'") }
        }
    }

    /// The numbers of a date written with periods are tied (`2026. 12. 7.`, `2027. 2. 28.까지`),
    /// and a quotient of unit symbols to its number (`100 Mbit/s이고`); a number ending a
    /// sentence before a word or a larger number is not.
    @Test func aDateWithPeriodsAndAQuotientUnitAreTied() {
        for text in ["2026. 12. 7.(월)", "2027. 2. 28.까지", "100 Mbit/s이고", "3 kg/m²이다"] {
            let scalars = Array(text.unicodeScalars)
            let tied = NumberUnitTies.tiedSpaces(scalars)
            for k in scalars.indices where scalars[k] == " " { #expect(tied[k], "\(text) at \(k)") }
        }
        for text in ["in 2026. The", "over 2. 300 pages", "100 Mbit/sec", "3 kg/day"] {
            #expect(!NumberUnitTies.tiedSpaces(Array(text.unicodeScalars)).contains(true), "\(text)")
        }
    }

    /// A measure narrower than a tied pair (a table's narrow column) breaks the pair at its
    /// space, in the emergency pass, rather than between letters or past the measure: members
    /// with a unit symbol, a decimal number, a Korean counter and a spaced dash, each as wide
    /// as its longer part.
    @Test(arguments: [
        ("16 GB", ["16", "GB"]), ("3.5 kg", ["3.5", "kg"]), ("240만 명", ["240만", "명"]), ("ab – cd", ["ab", "– cd"]),
    ])
    func aTiedPairWiderThanTheMeasureBreaksAtItsSpace(_ text: String, _ lines: [String]) {
        let prepared = prepared([StyledRun(text, style: RunStyle(font: font))])
        let width = Double(lines.map(\.unicodeScalars.count).max() ?? 0) * 5
        for alignment in [TextAlignment.justify, .left] {
            let composition = ParagraphComposer.compose(
                paragraph(text, alignment: alignment), prepared: prepared, width: width, hyphenate: { _, _ in [] })
            let set = composition.lines.map { lineText($0, prepared).trimmingCharacters(in: .whitespaces) }
            #expect(set == lines, "\(alignment) at \(width) pt: \(set)")
        }
    }

    /// Spaces not between a number and its unit stay breaks: a number before a word, a word
    /// before a unit symbol, a unit symbol inside a longer word.
    @Test func onlyANumberAndItsUnitAreTied() {
        for text in ["about 16 shows", "the GB drive", "16 GBs", "within 2 and", "a % b"] {
            let scalars = Array(text.unicodeScalars)
            let tied = NumberUnitTies.tiedSpaces(scalars)
            #expect(!tied.contains(true), "\(text)")
        }
        let scalars = Array("16 GB and 240만 명".unicodeScalars)
        let tied = NumberUnitTies.tiedSpaces(scalars)
        #expect(tied.indices.filter { tied[$0] } == [2, 14])
    }

    /// A unit symbol with a Korean particle or Japanese kana written onto it (`400 km이다`,
    /// `16 GB의`, `3.5 kg을`, `100 MB를`, `5 kmの`) is tied to its number as the symbol alone
    /// is: these broke at the space. A word that only starts with a unit's letters stays a word.
    @Test func aUnitWithItsParticleIsTiedToItsNumber() {
        for text in ["약 400 km이다.", "16 GB의", "3.5 kg을", "100 MB를,", "5 kmの"] {
            let scalars = Array(text.unicodeScalars)
            let tied = NumberUnitTies.tiedSpaces(scalars)
            let space = scalars.lastIndex(of: " ")!
            #expect(tied[space], "\(text)")
        }
        for text in ["16 GBs이다", "16 kilo를"] {
            #expect(!NumberUnitTies.tiedSpaces(Array(text.unicodeScalars)).contains(true), "\(text)")
        }
    }

    /// Words in text set in capitals (a licence's disclaimer) hyphenate, as TeX hyphenates them;
    /// a word in capitals among lower-case words (an acronym or name) and a short run of them
    /// stay whole. Members: where the long capitals word stands.
    @Test(arguments: [
        ("THE SOFTWARE IS PROVIDED WITHOUT WARRANTY OF MERCHANTABILITY, FITNESS OR", true),
        ("the software is provided without MERCHANTABILITY warranty of any kind", false),
        ("the software is PROVIDED WITHOUT MERCHANTABILITY of any kind", false),
    ])
    func wordsInCapitalsTextHyphenate(_ text: String, hyphenates: Bool) {
        let p = prepared([StyledRun(text, style: RunStyle(font: font))])
        let points = ParagraphComposer.hyphenationPoints(
            paragraph(text), prepared: p, limits: HyphenationLimits(), hyphenate: everyPoint)
        let word = text.range(of: "MERCHANTABILITY")!
        let start = text.distance(from: text.startIndex, to: word.lowerBound)
        #expect(points[(start + 1)..<(start + 15)].contains(true) == hyphenates, "\(text)")
    }

    /// A compound written with a hyphen breaks at its hyphen alone, as TeX breaks it and The
    /// Chicago Manual of Style (7.40) asks (`socio-eco-` | `nomic` read as two hyphens in one
    /// word); a word beside it still hyphenates. Members: a hyphen-minus, U+2010, a compound of
    /// three parts, an en dash between words (not a compound: its words hyphenate).
    @Test(arguments: ["socio-economic", "decision\u{2010}making", "data-interchange-formats"])
    func aHyphenatedCompoundBreaksOnlyAtItsHyphen(_ compound: String) {
        let text = "the \(compound) question concerns everybody"
        let p = prepared([StyledRun(text, style: RunStyle(font: font))])
        let points = ParagraphComposer.hyphenationPoints(
            paragraph(text), prepared: p, limits: HyphenationLimits(), hyphenate: everyPoint)
        let start = 4
        #expect(!points[(start + 1)..<(start + compound.unicodeScalars.count)].contains(true), "\(compound)")
        let question = start + compound.unicodeScalars.count + 1
        #expect(points[(question + 1)..<(question + 8)].contains(true), "\(compound): the next word hyphenates")
        let dashed = "long question \u{2013}everybody"
        let q = prepared([StyledRun(dashed, style: RunStyle(font: font))])
        let dashedPoints = ParagraphComposer.hyphenationPoints(
            paragraph(dashed), prepared: q, limits: HyphenationLimits(), hyphenate: everyPoint)
        #expect(dashedPoints[6..<12].contains(true))
    }

    /// A word with a capital after its first letter beside lower-case ones is a name made of
    /// parts: it breaks only between parts of three letters or more (`Pango-Cairo`,
    /// `KSyntax-Highlighting`, `line-Height-Multiple`), never inside a part, nor after `To`,
    /// `Mc` or `i`; an ordinary word, capitalized or not, hyphenates as before.
    @Test func namesWithInnerCapitalsBreakOnlyBetweenTheirParts() {
        let words: [(word: String, points: [Int]?)] = [
            ("PangoCairo", [5]), ("ToUnicode", []), ("KSyntaxHighlighting", [7]), ("iPhone", []),
            ("McDonald", []), ("lineHeightMultiple", [4, 10]), ("typesetting", nil), ("Typesetting", nil),
        ]
        let text = words.map(\.word).joined(separator: " ") + " end"
        let p = prepared([StyledRun(text, style: RunStyle(font: font))])
        let points = ParagraphComposer.hyphenationPoints(
            paragraph(text), prepared: p, limits: HyphenationLimits(), hyphenate: everyPoint)
        var start = 0
        for (word, expected) in words {
            let found = (1..<word.count).filter { points[start + $0] }
            if let expected {
                #expect(found == expected, "\(word)")
            } else {
                #expect(
                    found == everyPoint(word.lowercased(), "en").filter { $0 >= 2 && $0 <= word.count - 3 }, "\(word)")
            }
            start += word.count + 1
        }
    }

    /// A path or web address also breaks before a single slash, and after a slash before a
    /// query's question mark or ampersand and after its equals sign (The Chicago Manual of
    /// Style, 14.18), also as a paragraph's last word where a long rest goes to the last line;
    /// never inside `//`, nor at `=` or `?` in a word with no slash (`weight=black`), nor before
    /// fewer than three letters (`and/or`). Justified, the line before such an address is no
    /// longer stretched to hold it whole (`Use   the   link   https://`).
    @Test func addressesBreakBetweenTheirParts() {
        func breaks(_ text: String) -> [String] {
            let scalars = Array(text.unicodeScalars)
            let part = ParagraphComposer.partBreaks(
                scalars, allowed: [Bool](repeating: false, count: scalars.count + 1))
            return part.indices.filter { part[$0] }.map { String(String.UnicodeScalarView(scalars[$0...].prefix(4))) }
        }
        #expect(
            breaks("see https://github.com/nodejs/node/commits?author=GITHUB_ID&sort=new please")
                == [".com", "/nod", "/nod", "/com", "?aut", "GITH", "&sor", "new "])
        #expect(breaks("weight=black and/or black?yes here") == [])
        // A path that opens the text, or a word, has nothing before its first slash to break from.
        #expect(breaks("/usr/share/doc holds /etc/default notes") == ["/sha", "/doc", "/def"])
        #expect(breaks("the last word is https://github.com/nodejs/node/commits") == [".com", "/nod", "/nod"])
        let text = "Use the link https://github.com/nodejs/node/commits?author=GITHUB_ID"
        let p = prepared([StyledRun(text, style: RunStyle(font: font))])
        let composition = ParagraphComposer.compose(paragraph(text), prepared: p, width: 250, hyphenate: { _, _ in [] })
        #expect(composition.lines.count == 2)
        #expect(
            composition.lines.dropLast().allSatisfy { $0.spaceFactor < 1 },
            "\(composition.lines.map { (lineText($0, p), $0.spaceFactor) })")
    }

    /// A domain or file name breaks before a period between its parts (`gitvger` | `.kernel.org`),
    /// at a hyphen's cost, so the line before it need not stretch to hold it whole; a name with a
    /// short suffix (`Node.js`, `README.md`), an abbreviation (`e.g.`), a number and the
    /// paragraph's last word never break there. At every measure from 100 to 200 pt.
    @Test func namesBreakBeforeAPeriodBetweenTheirParts() {
        let text =
            "patches go to gitvger.kernel.org or bitworking.org, e.g. with Node.js 1.25 and README.md, as the "
            + "guide says on lists.example.org"
        let p = prepared([StyledRun(text, style: RunStyle(font: font))])
        let scalars = Array(text.unicodeScalars)
        let periods = scalars.indices.filter { scalars[$0] == "." }
        let parts = periods.filter { i in
            scalars[(i + 1)...].prefix(3).allSatisfy { $0.properties.isLowercase }
                && scalars[..<i].suffix(2).allSatisfy { $0.properties.isLowercase }
                && i < text.count - 12
        }
        #expect(parts.count == 3)  // .kernel, .org, .org (bitworking)
        let items = ParagraphComposer.items(
            paragraph(text), prepared: p, width: 150, limits: HyphenationLimits(), hyphenate: { _, _ in [] })
        let breaks = Set(items.filter { $0.kind == .penalty }.map(\.position))
        #expect(Set(periods).intersection(breaks) == Set(parts))
        var used = 0
        for width in stride(from: 100.0, through: 200, by: 5) {
            let composition = ParagraphComposer.compose(
                paragraph(text), prepared: p, width: width, hyphenate: { _, _ in [] })
            for line in composition.lines.dropLast() where periods.contains(line.end) {
                #expect(parts.contains(line.end), "\(width): \(lineText(line, p))")
                used += 1
            }
        }
        #expect(used > 0)
    }

    /// A break after a dash inside a word ("parallel—test") is an explicit hyphen (TeX's
    /// \exhyphenpenalty): flagged, so it counts towards consecutive hyphenated lines like a
    /// hyphenation point, and it costs what an explicit hyphen costs.
    @Test func aBreakAfterAnUnspacedDashIsFlagged() {
        for dash in ["-", "\u{2010}", "\u{2013}", "\u{2014}"] {
            let text = "aaaa\(dash)bbbb cc"
            var p = prepared([StyledRun(text, style: RunStyle(font: font))])
            p.lineBreakBefore[5] = true
            let items = ParagraphComposer.items(
                paragraph(text), prepared: p, width: 30, limits: HyphenationLimits(), hyphenate: { _, _ in [] })
            let afterDash = items.filter { $0.kind == .penalty && $0.position == 5 }
            #expect(afterDash.count == 1)
            #expect(afterDash.first?.flagged == true, "\(dash)")
            #expect(afterDash.first?.cost == ParagraphComposer.explicitHyphenPenalty)
            let composition = ParagraphComposer.compose(
                paragraph(text), prepared: p, width: 30, hyphenate: { _, _ in [] })
            #expect(composition.lines[0].end == 5)
        }
    }

    /// Members: lines starting with T, A, V, W, Y, v, w and an opening quote, lines ending in
    /// a period, comma, colon, hyphenation hyphen and a plain letter, justified and ragged: each
    /// line's left edge is its first character's left protrusion × 5 pt left of the measure,
    /// and a justified line ends its last character's right protrusion past it.
    @Test(arguments: [TextAlignment.justify, .left])
    func edgeCharactersProtrudeIntoBothMargins(_ alignment: TextAlignment) {
        let text =
            "Tall Avenue Vast Wide Young vine wine \u{201C}quoted, words. Tall Avenue Vast: Wide Young "
            + "vine wine representation \u{201C}quoted Tall Avenue Vast Wide. Young vine wine"
        let prepared = prepared([StyledRun(text, style: RunStyle(font: font))])
        var startsProtruding = 0
        var endsProtruding = 0
        for width in stride(from: 50.0, through: 120, by: 5) {
            let composition = ParagraphComposer.compose(
                paragraph(text, alignment: alignment), prepared: prepared, width: width, hyphenate: everyPoint)
            for (index, line) in composition.lines.enumerated() {
                let first = prepared.scalars[line.start]
                let left = ParagraphComposer.protrusion(first).left * 5
                #expect(abs(line.x + left) < 1e-9, "\(lineText(line, prepared)): x \(line.x)")
                if left > 0 { startsProtruding += 1 }
                // Justified lines with a word space to stretch fill the measure and its margins.
                let spaced = prepared.scalars[line.start..<line.end].contains(" ")
                guard alignment == .justify, index < composition.lines.count - 1, spaced else { continue }
                let last: Unicode.Scalar = line.ending == .hyphen ? "-" : prepared.scalars[line.end - 1]
                let right = ParagraphComposer.protrusion(last).right * 5
                // The line fills the measure plus both protrusions: from -left to width + right.
                #expect(abs(line.x + line.width - (width + right)) < 1e-6, "\(lineText(line, prepared))")
                if right > 0 { endsProtruding += 1 }
            }
        }
        #expect(startsProtruding > 10)
        if alignment == .justify { #expect(endsProtruding > 10) }
    }

    /// Protrusion is microtype's table: a period more than a comma, a hyphen half its width,
    /// letters with an open side a twentieth, other letters nothing.
    @Test func theProtrusionTableFollowsMicrotype() {
        #expect(ParagraphComposer.protrusion(".").right == 0.7)
        #expect(ParagraphComposer.protrusion(",").right == 0.5)
        #expect(ParagraphComposer.protrusion("-") == (0.5, 0.5))
        #expect(ParagraphComposer.protrusion("\u{AD}") == (0.5, 0.5))
        #expect(ParagraphComposer.protrusion("T") == (0.05, 0.05))
        #expect(ParagraphComposer.protrusion("\u{201C}").left == 0.3)
        #expect(ParagraphComposer.protrusion("n") == (0, 0))
        #expect(ParagraphComposer.protrusion("o") == (0, 0))
    }
}

/// Font expansion (hz) over the fake measurements: each justified line's glyphs scale by a
/// multiple of the step within the limit, a line whose spaces stretch visibly has first taken
/// all the expansion it may (expansion before word spaces, as pdfTeX), each line is chosen on
/// its own (a paragraph's first line too), lines holding code never scale, the scaled line
/// still fills the measure, and the word spaces are more even than without expansion.
@Suite struct FontExpansionTests {
    let font = FontSpec(families: ["X"], size: 10)
    let prose = """
        Most of the lead comes from font expansion where each line may widen or narrow its glyphs by a \
        little so that the breaker finds far more good lines and the spaces between words stay even \
        across the paragraph while hyphens become rarer and the texture of the page looks calm and \
        regular from the first line to the last one of every paragraph in the document
        """

    func compose(_ runs: [StyledRun], expansion: Double, width: Double) -> (Composition, PreparedParagraph) {
        var style = ParagraphStyle(baseFont: font, alignment: .justify, hangulLineBreak: .auto)
        style.fontExpansion = expansion
        let prepared = prepared(runs)
        let composition = ParagraphComposer.compose(
            StyledParagraph(runs: runs, style: style), prepared: prepared, width: width, hyphenate: { _, _ in [] })
        return (composition, prepared)
    }

    @Test(arguments: [90.0, 120, 150, 200])
    func linesScaleInStepsWithinTheLimitAndFillTheMeasure(_ width: Double) {
        let runs = [StyledRun(prose, style: RunStyle(font: font))]
        let (composition, _) = compose(runs, expansion: 0.02, width: width)
        for (index, line) in composition.lines.enumerated() {
            let steps = line.expansion / ParagraphStyle.fontExpansionStep
            #expect(abs(steps - steps.rounded()) < 1e-9)
            #expect(abs(line.expansion) <= 0.02 + 1e-12)
            // Spaces stretched by a tenth or more: the line has widened all it may first; spaces
            // shrunk by a tenth or more: it has narrowed all it may.
            if line.spaceFactor > 0.1 { #expect(abs(line.expansion - 0.02) < 1e-12, "line \(index)") }
            if line.spaceFactor < -0.1 { #expect(abs(line.expansion + 0.02) < 1e-12, "line \(index)") }
            if index < composition.lines.count - 1 {
                #expect(abs(line.x + line.width - width - line.hang) < 1e-6, "line \(index): \(line.width)")
            } else {
                #expect(line.spaceFactor <= 0 && line.expansion <= 0)
            }
        }
        #expect(composition.lines.contains { $0.expansion != 0 })
        let (off, _) = compose(runs, expansion: 0, width: width)
        #expect(off.lines.allSatisfy { $0.expansion == 0 })
    }

    /// A paragraph whose first line is loose widens that line all the way (it is not held near
    /// no expansion for want of a line before it).
    @Test func aLooseFirstLineTakesTheWholeLimit() {
        let runs = [StyledRun("Typography internationalization representations " + prose, style: RunStyle(font: font))]
        var widened = 0
        for width in stride(from: 80.0, through: 200, by: 3) {
            let (composition, _) = compose(runs, expansion: 0.02, width: width)
            guard let first = composition.lines.first, composition.lines.count > 1 else { continue }
            if first.spaceFactor > 0.1 { #expect(first.expansion > 0.015 - 1e-12, "width \(width)") }
            if first.expansion > 0.015 - 1e-12 { widened += 1 }
        }
        #expect(widened > 3)
    }

    @Test func wordSpacesAreMoreEvenWithExpansion() {
        var without = [Double]()
        var with = [Double]()
        for width in stride(from: 80.0, through: 200, by: 7) {
            let runs = [StyledRun(prose, style: RunStyle(font: font))]
            without += compose(runs, expansion: 0, width: width).0.lines.dropLast().map { abs($0.spaceFactor) }
            with += compose(runs, expansion: 0.02, width: width).0.lines.dropLast().map { abs($0.spaceFactor) }
        }
        let mean = { (values: [Double]) in values.reduce(0, +) / Double(values.count) }
        #expect(mean(with) < mean(without), "\(mean(with)) vs \(mean(without))")
    }

    @Test func linesHoldingCodeAreNeverScaled() {
        var code = RunStyle(font: font)
        code.isCode = true
        let runs = [
            StyledRun("Most of the lead comes from ", style: RunStyle(font: font)),
            StyledRun("expansion()", style: code),
            StyledRun(" where each line may widen or narrow its glyphs by a little so", style: RunStyle(font: font)),
        ]
        for width in stride(from: 80.0, through: 140, by: 10) {
            let (composition, prepared) = compose(runs, expansion: 0.02, width: width)
            for line in composition.lines where (line.start..<line.end).contains(where: { prepared.runIndex[$0] == 1 })
            {
                #expect(line.expansion == 0)
            }
        }
    }

    /// Past its full stretch a line's font expansion stands at its limit and only its word
    /// spaces widen, so the breaker rates such a line by its spaces alone and takes a hyphen or
    /// a tighter neighbour before it sets a visibly loose line: over a range of measures, fewer
    /// lines whose spaces, as seen (their growth × the line's scale), pass 1.5 times their width
    /// than when the breaker rated them by the adjustment ratio only (41 of 1,363 lines then, 37 now).
    @Test func visiblyLooseLinesAreRarer() {
        let runs = [StyledRun(prose + " " + prose, style: RunStyle(font: font))]
        var loose = 0
        var lines = 0
        for width in stride(from: 100.0, through: 220, by: 2) {
            var style = ParagraphStyle(baseFont: font, alignment: .justify, hangulLineBreak: .auto)
            style.fontExpansion = 0.02
            let composition = ParagraphComposer.compose(
                StyledParagraph(runs: runs, style: style), prepared: prepared(runs), width: width,
                hyphenate: { word, _ in Array(2..<max(2, word.count - 2)) })
            for line in composition.lines.dropLast() {
                lines += 1
                if (1 + line.spaceFactor) * (1 + line.expansion) > 1.5 { loose += 1 }
            }
        }
        #expect(loose <= 38, "\(loose) of \(lines) lines")
    }
}

/// KLREQ's spread of a justified Korean line's slack: word spaces first, then syllable gaps
/// never wider than 0.08 em nor a third of the word space, the rest to the spaces; all of the
/// slack is used. Members: few and many gaps, small and large slack, 10 and 20 pt text.
@Suite struct KoreanSpreadTests {
    @Test(arguments: [2, 12, 30], [0.5, 4, 12, 40])
    func gapsStayBelowAThirdOfTheWordSpace(_ gaps: Int, _ extra: Double) {
        for size in [10.0, 20.0] {
            let space = 0.224 * size
            let spaces = (width: 4 * space, count: 4)
            let (factor, gap) = ParagraphComposer.spread(
                extra, spaces: spaces, gaps: gaps, gapSize: Double(gaps) * size)
            let wordSpace = space * (1 + factor)
            #expect(gap <= 0.08 * size + 1e-9, "\(gap)")
            #expect(gap <= wordSpace / 3 + 1e-9, "\(gap) vs \(wordSpace)")
            #expect(abs(factor * spaces.width + gap * Double(gaps) - extra) < 1e-9)
            if extra <= spaces.width * 0.45 { #expect(gap == 0) }
        }
    }

    /// A line without a word space (one word) spreads its syllables no wider than 0.08 em,
    /// widened or not, and leaves the rest of the slack unset, however large.
    @Test(arguments: [1, 3, 12], [0.2, 4, 40])
    func aLineWithoutWordSpacesSpreadsItsSyllablesNoWider(_ gaps: Int, _ extra: Double) {
        for (size, widening) in [(10.0, 0.0), (20.0, 0.0), (10.0, 0.1)] {
            let (factor, gap) = ParagraphComposer.spread(
                extra, spaces: (width: 0, count: 0), gaps: gaps, gapSize: Double(gaps) * size, widening: widening)
            #expect(factor == 0)
            #expect(gap + 1.5 * widening <= 0.08 * size + 1e-9, "\(gap) at \(size) pt")
            #expect(gap * Double(gaps) <= extra + 1e-9)
            #expect(abs(gap - min(extra / Double(gaps), 0.08 * size - 1.5 * widening)) < 1e-9)
        }
    }

    /// On a widened line (font expansion) each syllable already stands apart by the expansion
    /// of its advance: the added gap and that widening together stay within 0.08 em, a
    /// two-syllable word measured from its ends (both syllables' widening on its one gap)
    /// within 0.09 em, and all of the slack is still used.
    @Test(arguments: [0.005, 0.01, 0.02], [4.0, 12, 40])
    func widenedSyllablesTakeLessGap(_ expansion: Double, _ extra: Double) {
        let size = 10.0
        let gaps = 12
        let space = 0.224 * size
        let spaces = (width: 4 * space, count: 4)
        let widening = expansion * 0.925 * size
        let (factor, gap) = ParagraphComposer.spread(
            extra, spaces: spaces, gaps: gaps, gapSize: Double(gaps) * size, widening: widening)
        let (_, plainGap) = ParagraphComposer.spread(extra, spaces: spaces, gaps: gaps, gapSize: Double(gaps) * size)
        #expect(gap + widening <= 0.08 * size + 1e-9, "\(gap) + \(widening)")
        #expect(gap + 2 * widening <= 0.09 * size + 1e-9, "\(gap) + 2 × \(widening)")
        #expect(gap <= plainGap)
        #expect(abs(factor * spaces.width + gap * Double(gaps) - extra) < 1e-9)
    }
}
