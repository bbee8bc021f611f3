import DocumentModel
import Styling

// The measure stage of paragraph layout (``ParagraphLayout``), after the backend's shaping:
// the paragraph as boxes, glue and penalties for the ``LineBreaker``, from its measured
// advances and break opportunities, with keep-all, emergency breaks and hyphenation points.

extension ParagraphComposer {
    /// The paragraph's items (``makeItems(_:prepared:breaks:_:)``) with the breaks allowed
    /// (Pango's less keep-all's), the emergency breaks and the hyphenation points.
    static func items(
        _ paragraph: StyledParagraph, prepared: PreparedParagraph, width: Double,
        limits: HyphenationLimits, hyphenate: (String, String) -> [Int],
        breakKerning: BreakKerning = { _, _, _, _ in 0 }
    ) -> [LineBreaker.Item] {
        itemsAndBreaks(
            paragraph, prepared: prepared, width: width, limits: limits, hyphenate: hyphenate,
            breakKerning: breakKerning
        ).items
    }

    /// ``items(_:prepared:width:limits:hyphenate:breakKerning:)``, and the breaks they were
    /// made from. A piece of text wider than the measure (between allowed breaks) is broken,
    /// in this order, where it has the means (as TeX and CSS Text 3 `overflow-wrap` break an
    /// overfull word only when nothing else will do): after its own hyphen or other UAX #14
    /// opportunity that the last-word rule withheld (`raised-` | `eyebrow`), no emergency;
    /// then, in what is still too wide, at the hyphenation points of its words (even where
    /// the paragraph does not hyphenate, but not where a run asks for none); then, in what is
    /// still too wide, between any two letters, in the emergency pass. Once `cancellation` is
    /// raised it stops between its steps with no items.
    static func itemsAndBreaks(
        _ paragraph: StyledParagraph, prepared: PreparedParagraph, width: Double,
        limits: HyphenationLimits, hyphenate: (String, String) -> [Int],
        breakKerning: BreakKerning = { _, _, _, _ in 0 }, cancellation: Cancellation? = nil
    ) -> (items: [LineBreaker.Item], breaks: Breaks) {
        let keepAll = paragraph.style.hangulLineBreak.keepsWords
        var (allowed, withheld) = allowedBreaks(prepared, keepAll: keepAll)
        keepRaisedRunsWithTheTextBefore(paragraph, prepared: prepared, allowed: &allowed, withheld: &withheld)
        breakBeforeHyphensInCode(paragraph, prepared: prepared, allowed: &allowed)
        var hyphen = hyphenationPoints(paragraph, prepared: prepared, limits: limits, hyphenate: hyphenate)
        var forced: [Bool] = []
        var overwide = Self.overwide(prepared, breaks: allowed, hyphens: [], width: width)
        if !overwide.isEmpty {
            for piece in overwide {
                for k in piece.dropFirst() where withheld[k] { allowed[k] = true }
            }
            // The breaks given back (code that is a paragraph's last word, alone in a table
            // cell) follow the code rule too: before its hyphens.
            breakBeforeHyphensInCode(paragraph, prepared: prepared, allowed: &allowed)
            overwide = Self.overwide(prepared, breaks: allowed, hyphens: [], width: width)
            forced = forcedHyphenationPoints(
                paragraph, prepared: prepared, pieces: overwide, limits: limits, hyphenate: hyphenate)
            for k in forced.indices where forced[k] { hyphen[k] = true }
        }
        let breaks = Breaks(
            allowed: allowed, emergency: emergencyBreaks(prepared, allowed: allowed, hyphen: hyphen, width: width),
            hyphen: hyphen, forcedHyphen: forced, part: partBreaks(prepared.scalars, allowed: allowed),
            syllable: paragraph.style.hangulLineBreak == .auto && paragraph.style.alignment == .justify
                ? syllableBreaks(prepared, runs: paragraph.runs)
                : [Bool](repeating: false, count: prepared.scalars.count + 1))
        // Items, made twice: counted (their widths unused, so no kerning at breaks asked), then
        // stored in an array of exactly that capacity (a megabyte of prose makes about half a
        // million items of 56 bytes; an array that grows by doubling holds the old and the new
        // buffer at once).
        var cancelled: Bool { cancellation?.isCancelled == true }
        if cancelled { return ([], breaks) }
        var count = 0
        makeItems(paragraph, prepared: prepared, breaks: breaks) { _ in count += 1 }
        if cancelled { return ([], breaks) }
        var items: [LineBreaker.Item] = []
        items.reserveCapacity(count)
        makeItems(paragraph, prepared: prepared, breaks: breaks, breakKerning: breakKerning) { items.append($0) }
        return (items, breaks)
    }

    /// Where a line may break, before each scalar (index `n`: the paragraph's end).
    struct Breaks {
        /// Pango's opportunities less keep-all's.
        let allowed: [Bool]
        /// Grapheme boundaries a line breaks at only when nothing else fits.
        let emergency: [Bool]
        /// Hyphenation points.
        let hyphen: [Bool]
        /// The hyphenation points inside words wider than the measure, where the paragraph's
        /// own hyphenation would not break them (``forcedHyphenationPoints(_:prepared:pieces:limits:hyphenate:)``);
        /// empty when there are none.
        let forcedHyphen: [Bool]
        /// Breaks between the parts of a file name, address or identifier, before a period, at
        /// ``partBreakPenalty`` (``partBreaks(_:allowed:)``).
        let part: [Bool]
        /// Breaks between two Hangul syllables inside a word of a paragraph set with
        /// ``HangulLineBreak/auto``, at
        /// ``syllableBreakPenalty`` (``syllableBreaks(_:runs:)``).
        let syllable: [Bool]
    }

    /// Last-resort breaks of justified keep-all text (before scalar i): between two Hangul
    /// syllables inside a word, with at least ``minimumSyllables`` of the word's syllables after
    /// the break (no line starts with an ending or particle alone, `다.`, `의`, as TeX's
    /// `\righthyphenmin` keeps a hyphen's fragment), not in the last word of the paragraph or of
    /// a line of it ended by a separator. W3C KLREQ ("Line Breaking Rules") allows a line ending in
    /// Hangul to break by word or by character; keep-all breaks by word, and these breaks,
    /// costing ``syllableBreakPenalty``, are taken only where every break between words would
    /// leave a very loose line (a word with a Latin part, `MANWIDTH를`, `/dev/ttyS1을`, that
    /// cannot move). None in a run that asks for no hyphenation (``RunStyle/hyphenate`` false,
    /// whose words are kept whole), nor with ``HangulLineBreak/keepAll`` (the caller's).
    static func syllableBreaks(_ prepared: PreparedParagraph, runs: [StyledRun]) -> [Bool] {
        let scalars = prepared.scalars
        let count = scalars.count
        var breaks = [Bool](repeating: false, count: count + 1)
        func isSyllable(_ scalar: Unicode.Scalar) -> Bool { (0xAC00...0xD7A3).contains(scalar.value) }
        var wordStart = 0
        var index = 0
        while index < count {
            if isWhitespace(scalars[index]) || isSeparator(scalars[index]) {
                index += 1
                wordStart = index
                continue
            }
            var wordEnd = index
            while wordEnd < count, !isWhitespace(scalars[wordEnd]), !isSeparator(scalars[wordEnd]) { wordEnd += 1 }
            // The last word of the paragraph, or of a line of it ended by a separator, keeps whole.
            var after = wordEnd
            while after < count, isBreakingSpace(scalars[after]) { after += 1 }
            let last = after == count || isSeparator(scalars[after])
            if !last && wordEnd - wordStart >= 1 + minimumSyllables {
                // Syllables of the word before each place, to keep `minimumSyllables` after it.
                var before = 0
                let total = scalars[wordStart..<wordEnd].count(where: isSyllable)
                for i in wordStart + 1..<wordEnd {
                    if isSyllable(scalars[i - 1]) { before += 1 }
                    guard isSyllable(scalars[i - 1]), isSyllable(scalars[i]), prepared.charBreakBefore[i],
                        total - before >= minimumSyllables, runs[prepared.runIndex[i]].style.hyphenate != false
                    else { continue }
                    breaks[i] = true
                }
            }
            index = wordEnd
            wordStart = wordEnd
        }
        return breaks
    }

    /// Allowed breaks (before scalar i): Pango's opportunities less keep-all's (no break between
    /// Hangul and a letter that is not a space, but after a dash), less a slash's that opens a
    /// word (`/` | `usr/lib`) or stands between short parts (``slashJoinsShortParts(_:at:)``)
    /// and a bracket's after a word's period (``opensBracket(_:)``), both withheld, less those
    /// after dashes that open a word
    /// (`--flag`, `-rdynamic`, "–enable", `(-Dx)`: the dash stays with what follows it), and less those
    /// inside the last word of the paragraph or of a line of it ended by a line separator (a
    /// last line is never the fragment of a word: "follow-" | "up."). `withheld`: the breaks
    /// the slash, bracket and last-word rules took, for a word wider than the measure.
    static func allowedBreaks(_ prepared: PreparedParagraph, keepAll: Bool) -> (allowed: [Bool], withheld: [Bool]) {
        let scalars = prepared.scalars
        let scalarCount = scalars.count
        var allowed = [Bool](repeating: false, count: scalarCount + 1)
        var withheld = allowed
        // Whether scalar i belongs to the last word before the end or a separator: a word of
        // at most `lastWordLimit` scalars before CJK ideographs (text a line may break
        // anywhere in, and words such as long addresses, keep their breaks), read from the end.
        var inLastWord = [Bool](repeating: false, count: scalarCount + 1)
        var lastWord = true
        var length = 0
        for i in stride(from: scalarCount - 1, through: 0, by: -1) {
            let scalar = scalars[i]
            if isSeparator(scalar) {
                lastWord = true
                length = 0
            } else if isWhitespace(scalar) {
                lastWord = false
            }
            length += 1
            if scalar.value >= 0x2E80 || length > lastWordLimit { lastWord = false }
            inLastWord[i] = lastWord && !isWhitespace(scalar) && !isSeparator(scalar)
        }
        // Hanja are kept whole in a paragraph that sets Hangul, Korean text: Japanese and
        // Chinese break between any two ideographs.
        let keepsHanja = keepAll && scalars.contains(where: isHangul)
        for i in 1..<max(1, scalarCount) where prepared.lineBreakBefore[i] {
            let before = scalars[i - 1]
            let after = scalars[i]
            // A dash between Hangul words is a break after it, as CSS's keep-all keeps a dash's
            // break (`오겠다고—` | `이번에는`).
            if keepAll, isHangul(before) || isHangul(after) || (keepsHanja && isHanja(before) && isHanja(after)),
                !isWhitespace(before), !isWhitespace(after), !isDash(before)
            {
                continue
            }
            if before == "/" && (i < 2 || opensWord(scalars[i - 2]) || slashJoinsShortParts(scalars, at: i))
                || opensBracket(after) && (before == "." || before == ",") && i > 1
                    && !isWhitespace(scalars[i - 2])
            {
                withheld[i] = true
                continue
            }
            if isDash(before) {
                var first = i - 1
                while first > 0, isDash(scalars[first - 1]) { first -= 1 }
                if first == 0 || opensWord(scalars[first - 1]) { continue }
            }
            if inLastWord[i - 1] && inLastWord[i] {
                withheld[i] = true
                continue
            }
            allowed[i] = true
        }
        breakBeforeHyphensInAddresses(scalars, allowed: &allowed)
        return (allowed, withheld)
    }

    /// Whether the slash before scalar `i` joins two short parts of a word — a unit (`km/h`,
    /// `Mbit/s`, `kg/m²`), `and/or`, `I/O` — that a line does not end between, as TeX never
    /// breaks at a slash: at most ``slashPart`` letters, digits or superscripts on each side,
    /// neither side another slash (a path, `/usr/lib/x`, keeps its breaks).
    static func slashJoinsShortParts(_ scalars: [Unicode.Scalar], at i: Int) -> Bool {
        func isPart(_ s: Unicode.Scalar) -> Bool {
            isLatinLetter(s) || ("0"..."9").contains(s) || "²³¹µΩ°".unicodeScalars.contains(s)
        }
        var end = i
        while end < scalars.count, end - i <= slashPart, isPart(scalars[end]) { end += 1 }
        var start = i - 1
        while start > 0, i - 1 - start <= slashPart, isPart(scalars[start - 1]) { start -= 1 }
        return (1...slashPart).contains(end - i) && (1...slashPart).contains(i - 1 - start)
            && (end == scalars.count || scalars[end] != "/") && (start == 0 || scalars[start - 1] != "/")
    }

    /// The longest part on either side of a slash that ``slashJoinsShortParts(_:at:)`` keeps
    /// with the other, scalars (`Mbit`).
    static let slashPart = 4

    /// An opening bracket: after a period or comma that ends a word (`2026. 12. 7.(월)`,
    /// `etc.(see`), a line does not break before it, as Unicode keeps a letter or digit with
    /// the bracket after it (UAX #14 LB30).
    static func opensBracket(_ s: Unicode.Scalar) -> Bool {
        generalCategory(of: s) == .openPunctuation
    }

    /// In a web or e-mail address (a word holding `://` or `@` with a period after it, or
    /// starting with `www.`), a line that may break after a hyphen or a single slash breaks
    /// before it instead: a line ending in a hyphen is read as a hyphenated word, and the
    /// address copied from the page loses the hyphen (The Chicago Manual of Style, 17th ed.,
    /// 14.18: break a URL before a hyphen or a single slash, after a double slash).
    static func breakBeforeHyphensInAddresses(_ scalars: [Unicode.Scalar], allowed: inout [Bool]) {
        // A hyphen, or a single slash: after a double slash (`https://`) a line may end.
        func movesBeforeIt(_ k: Int) -> Bool {
            let scalar = scalars[k]
            if scalar == "-" || scalar == "\u{2010}" { return true }
            return scalar == "/" && scalars[k - 1] != "/" && (k + 1 == scalars.count || scalars[k + 1] != "/")
        }
        var start = 0
        while start < scalars.count {
            guard !isWhitespace(scalars[start]) else {
                start += 1
                continue
            }
            var end = start
            while end < scalars.count, !isWhitespace(scalars[end]) { end += 1 }
            let word = scalars[start..<end]
            if word.contains(where: { $0 == "-" || $0 == "\u{2010}" || $0 == "/" }), isAddress(word) {
                for i in start + 2..<max(start + 2, end + 1) where allowed[i] && movesBeforeIt(i - 1) {
                    allowed[i] = false
                    allowed[i - 1] = true
                }
            }
            start = end
        }
    }

    /// A raised run — a note's number, a superscript (`^2^`, `<sup>`) — keeps to the character
    /// before it: no line starts with it, as TeX puts no break before `\footnote`'s mark and
    /// The Chicago Manual of Style (14.26) sets a note number right after the punctuation it
    /// follows. UAX #14 breaks between a period, comma or colon (class IS) and a figure, so
    /// `chapters.` | `¹ Then` was a line break. The break is withheld: a word wider than the
    /// measure may still take it.
    static func keepRaisedRunsWithTheTextBefore(
        _ paragraph: StyledParagraph, prepared: PreparedParagraph, allowed: inout [Bool], withheld: inout [Bool]
    ) {
        guard paragraph.runs.contains(where: { $0.style.baselineOffset > 0 }) else { return }
        let scalars = prepared.scalars
        for i in stride(from: 1, to: scalars.count, by: 1)
        where allowed[i] && prepared.runIndex[i] != prepared.runIndex[i - 1]
            && paragraph.runs[prepared.runIndex[i]].style.baselineOffset > 0 && !isWhitespace(scalars[i - 1])
            && !isSeparator(scalars[i - 1])
        {
            allowed[i] = false
            withheld[i] = true
        }
    }

    /// In code (a run set as code), a line that may break after a hyphen between two letters or
    /// figures breaks before it instead, as an address does
    /// (``breakBeforeHyphensInAddresses(_:allowed:)``): `keep-` | `all` reads as a word broken
    /// by hyphenation, and copies as `keepall`; `keep` | `-all` does not.
    static func breakBeforeHyphensInCode(
        _ paragraph: StyledParagraph, prepared: PreparedParagraph, allowed: inout [Bool]
    ) {
        let scalars = prepared.scalars
        guard paragraph.runs.contains(where: \.style.isCode) else { return }
        func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
            scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
        }
        for i in stride(from: 2, to: scalars.count, by: 1)
        where allowed[i] && (scalars[i - 1] == "-" || scalars[i - 1] == "\u{2010}")
            && paragraph.runs[prepared.runIndex[i - 1]].style.isCode && isLetterOrDigit(scalars[i - 2])
            && isLetterOrDigit(scalars[i])
        {
            allowed[i] = false
            allowed[i - 1] = true
        }
    }

    /// Breaks (before scalar i) between the parts of a file name, domain, path, address or
    /// identifier (`gitvger.kernel.org`, `globalThis.navigator`, `/nodejs/node/commits?author=…`):
    /// before a period or a single slash (not in a word with Hangul, kept whole as keep-all
    /// keeps it), and in a path or address (a slash before) before a question mark or an
    /// ampersand and after an equals sign, with at least two letters or digits before it in its
    /// part and three Latin letters after it (``partMinimum``), as The Chicago Manual of Style
    /// (17th ed., 14.18) breaks a URL, so a line before such a word need not stretch to hold it
    /// whole (LaTeX's `url` package breaks at a period and a slash too). Not where a break is
    /// already allowed, not in abbreviations (`e.g.`), numbers (`1.5`) or a sentence's end, and
    /// in the last word of the paragraph (or of a line of it ended by a separator) only where
    /// at least ``partMinimum``'s `lastLine` characters go to the last line, so it holds no
    /// fragment.
    static func partBreaks(_ scalars: [Unicode.Scalar], allowed: [Bool]) -> [Bool] {
        var part = [Bool](repeating: false, count: scalars.count + 1)
        func isLetterOrDigit(_ s: Unicode.Scalar) -> Bool { isLatinLetter(s) || ("0"..."9").contains(s) }
        var lastWord = true
        var end = scalars.count
        while end > 0 {
            guard !isWhitespace(scalars[end - 1]) else {
                if isSeparator(scalars[end - 1]) { lastWord = true }
                end -= 1
                continue
            }
            var start = end
            while start > 0, !isWhitespace(scalars[start - 1]) { start -= 1 }
            defer {
                end = start
                lastWord = false
            }
            // A paragraph's last word breaks only where a long rest goes to the last line.
            let shortestRest = lastWord ? partMinimum.lastLine : 0
            var letters = 0  // letters or digits in a row before scalar i
            var path = false  // a slash came before scalar i in the word: a path or address
            // A word with Hangul (`/dev/ttyS1을`) is kept whole as keep-all keeps Korean words.
            let korean = scalars[start..<end].contains { (0xAC00...0xD7A3).contains($0.value) }
            for i in start..<end {
                let scalar = scalars[i]
                defer { if scalar == "/" { path = true } }
                // Before a period or a single slash; in a path or address, also before a question
                // mark or an ampersand and after an equals sign (a query's `author=` | `GITHUB_ID`).
                let query = path && (scalar == "?" || scalar == "&")
                let slash =
                    scalar == "/" && !korean && i > start && scalars[i - 1] != "/"
                    && (i + 1 == end || scalars[i + 1] != "/")
                let at = scalar == "." || slash || query ? i : path && scalar == "=" ? i + 1 : nil
                // The letters after the break: after the scalar broken before, or from the break on.
                let after = at == i ? i + 1 : at ?? i
                if let at, letters >= partMinimum.before, !allowed[at], after + partMinimum.after <= end,
                    end - at >= shortestRest, scalars[after..<after + partMinimum.after].allSatisfy(isLatinLetter)
                {
                    part[at] = true
                }
                letters = isLetterOrDigit(scalar) ? letters + 1 : 0
            }
        }
        return part
    }

    /// The fewest letters a break between parts (``partBreaks(_:allowed:)``) leaves before and
    /// after it: TeX's \lefthyphenmin and \righthyphenmin for English, so a name with a short
    /// suffix (`Node.js`, `README.md`) stays whole.
    static let partMinimum = (before: 2, after: 3, lastLine: 13)

    /// Whether `word` is a web or e-mail address (``breakBeforeHyphensInAddresses(_:allowed:)``).
    static func isAddress(_ word: ArraySlice<Unicode.Scalar>) -> Bool {
        if word.starts(with: ["w", "w", "w", "."]) { return true }
        var index = word.startIndex
        while index < word.endIndex {
            switch word[index] {
            case ":" where word[(index + 1)...].starts(with: ["/", "/"]): return true
            case "@" where word[(index + 1)...].contains("."): return true
            default: index += 1
            }
        }
        return false
    }

    /// Emergency breaks: grapheme boundaries inside a piece (between allowed breaks, hyphenation
    /// points and spaces a break may follow) wider than the measure (``overwide(_:breaks:hyphens:width:)``)
    /// — after a space rather than before it.
    /// What breaking a word wider than the measure before scalar `i` costs: least where The
    /// Chicago Manual of Style (17th ed., 14.18) breaks a URL — after a colon or a double slash,
    /// before a period, comma, single slash, tilde, underscore, question mark, number or
    /// percent sign, before or after an equals sign or ampersand — so that an identifier,
    /// path or address (`RenderOptions.tableOfContentsDepth`, `/usr/share/doc`) breaks
    /// between its parts; then where a lower-case letter meets a capital or a digit
    /// (`tableOf|Contents`); most between two letters of one part. The costs are large beside a
    /// ragged line's badness, so a line ends short rather than break a part between letters.
    static func emergencyBreakCost(_ scalars: [Unicode.Scalar], at i: Int) -> Double {
        guard i > 0, i < scalars.count else { return betweenLettersCost }
        let before = scalars[i - 1]
        let after = scalars[i]
        switch after {
        case ".", ",", "/", "~", "_", "?", "#", "%", "=", "&", "\\": return 100
        default: break
        }
        if before == ":" || before == "=" || before == "&" || (before == "/" && i > 1 && scalars[i - 2] == "/") {
            return 100
        }
        let lower = before.properties.isLowercase
        if lower && (after.properties.isUppercase || after.properties.numericType != nil) { return 1500 }
        return betweenLettersCost
    }

    /// What breaking between two letters of one part costs (``emergencyBreakCost(_:at:)``).
    static let betweenLettersCost = 5000.0

    /// What the emergency pass pays to break at a tied space (``boundSpaces(_:)``), the only
    /// pass that may break there, at the run's first space: so that a measure narrower than
    /// `16 GB` (a table's narrow column) still holds the pair, on two lines. Less than a break
    /// between letters, more than one at a space or inside an address.
    static let tiedBreakCost = 1000.0

    /// Never between a piece's letters and the punctuation that ends it or opens it: a line
    /// neither starts with the comma or closing bracket after a word nor ends with the opening
    /// one before it (UAX #14's classes CL, CP, IS, EX and OP, W3C KLREQ §3.1.7), however
    /// long the word; punctuation between letters (`a.b`, `a/b`) still takes a break. Inside a
    /// piece the same holds (`홍길동(개발팀)·김영희` breaks neither before its `)` nor after its
    /// `(`, ``startsOrEndsNoLine(_:at:)``) unless the piece has no other break.
    static func emergencyBreaks(_ prepared: PreparedParagraph, allowed: [Bool], hyphen: [Bool], width: Double)
        -> [Bool]
    {
        var emergencyAt = [Bool](repeating: false, count: prepared.scalars.count + 1)
        func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
            scalar.properties.isAlphabetic || scalar.properties.numericType != nil
        }
        for piece in overwide(prepared, breaks: allowed, hyphens: hyphen, width: width) {
            // Between the first and the last letter or digit, when what is outside them is a few
            // marks of punctuation; a piece without letters (`[ [ [`) or with long runs of
            // punctuation may break anywhere inside.
            let scalars = prepared.scalars[piece]
            let first = scalars.firstIndex(where: isLetterOrDigit)
            let last = scalars.lastIndex(where: isLetterOrDigit)
            let lower = first.flatMap { $0 - piece.lowerBound <= 4 ? $0 + 1 : nil } ?? piece.lowerBound + 1
            let upper = last.flatMap { piece.upperBound - $0 <= 5 ? $0 + 1 : nil } ?? piece.upperBound
            let candidates = (lower..<max(lower, upper)).filter {
                prepared.charBreakBefore[$0] && !allowed[$0] && !isBreakingSpace(prepared.scalars[$0])
            }
            // Breaks that leave punctuation where it may stand; where the text between two of
            // them (or the piece's ends) is still wider than the measure (a run of opening
            // brackets or quotes, `((((…`, `「「「…`), any break inside it.
            let kept = candidates.filter { !startsOrEndsNoLine(prepared.scalars, at: $0) }
            for k in kept { emergencyAt[k] = true }
            let bounds = [piece.lowerBound] + kept + [piece.upperBound]
            for (start, end) in zip(bounds, bounds.dropFirst())
            where prepared.advances[start..<end].reduce(0, +) > width {
                for k in candidates where k > start && k < end { emergencyAt[k] = true }
            }
        }
        return emergencyAt
    }

    /// Whether a break before `scalars[k]` would start a line with what may not start one or
    /// end a line with what may not end one (UAX #14, W3C KLREQ §3.1.7): a closing bracket or
    /// quote (classes CL, CP), an ideographic comma or full stop, a middle dot (KLREQ's
    /// separator `·`, which stays with the word before it), or sentence punctuation (`!`
    /// `?` `,` `.` `:` `;`, classes EX and IS) that no letter or figure follows, as after a word
    /// (inside an address, `example.com`, a break before the stop stays); or an opening bracket
    /// or quote (class OP) before the break; an ellipsis or dot leader (class IN) after it, or
    /// the second of two em dashes or horizontal bars.
    static func startsOrEndsNoLine(_ scalars: [Unicode.Scalar], at k: Int) -> Bool {
        guard k > 0, k < scalars.count else { return false }
        switch generalCategory(of: scalars[k - 1]) {
        case .openPunctuation, .initialPunctuation: return true
        default: break
        }
        let after = scalars[k]
        switch generalCategory(of: after) {
        case .closePunctuation, .finalPunctuation: return true
        default: break
        }
        // Inseparables (class IN: `…`, `‥`) are never broken before (UAX #14 LB22), so an
        // ellipsis is never parted from its word nor divided (`……`, KLREQ); nor a pair of em
        // or horizontal-bar dashes (class B2, LB17: `——`, `――`).
        if [0x2014, 0x2015].contains(after.value), scalars[k - 1] == after { return true }
        switch after.value {
        case 0x2024, 0x2025, 0x2026, 0x22EF, 0xFE19: return true
        case 0x3001, 0x3002, 0xFF01, 0xFF0C, 0xFF0E, 0xFF1A, 0xFF1B, 0xFF1F, 0x00B7, 0x30FB, 0xFF65: return true
        case 0x21, 0x2C, 0x2E, 0x3A, 0x3B, 0x3F:
            guard k + 1 < scalars.count else { return true }
            let next = scalars[k + 1].properties
            return !(next.isAlphabetic || next.numericType != nil)
        default: return false
        }
    }

    /// The pieces of the paragraph wider than the measure, as scalar ranges: text between
    /// `breaks`, `hyphens` (a piece that ends at one counts the hyphen it adds; empty: none) and
    /// the spaces a break may follow. A space no break may follow (UAX #14 LB14: "[ [ [" is one
    /// unbreakable piece) belongs to its piece.
    static func overwide(_ prepared: PreparedParagraph, breaks: [Bool], hyphens: [Bool], width: Double)
        -> [Range<Int>]
    {
        let scalarCount = prepared.scalars.count
        var pieces: [Range<Int>] = []
        var pieceStart = 0
        var pieceWidth = 0.0
        func endPiece(_ end: Int) {
            let hyphen =
                !hyphens.isEmpty && hyphens[end] && end > 0 ? prepared.hyphenWidths[prepared.runIndex[end - 1]] : 0
            if pieceWidth + hyphen > width, end > pieceStart { pieces.append(pieceStart..<end) }
            pieceWidth = 0
        }
        // Whether the run of breaking spaces being read ends a piece: it does when a break may
        // follow the run, or nothing but a separator or the paragraph's end does.
        var spacesEndPiece = false
        var knownRunEnd = 0
        for i in 0..<scalarCount {
            let scalar = prepared.scalars[i]
            if isBreakingSpace(scalar) && (i == 0 || !isBreakingSpace(prepared.scalars[i - 1])) {
                let end = spaceRunEnd(from: i, prepared.scalars, known: &knownRunEnd)
                spacesEndPiece =
                    end >= scalarCount || breaks[end] || isSeparator(prepared.scalars[end])
                    || isMark(prepared.scalars[end])
            }
            if isSeparator(scalar) || isBreakingSpace(scalar) && spacesEndPiece {
                endPiece(i)
                pieceStart = i + 1
                continue
            }
            if (breaks[i] || !hyphens.isEmpty && hyphens[i]) && i > pieceStart {
                endPiece(i)
                pieceStart = i
            }
            pieceWidth += prepared.advances[i]
        }
        endPiece(scalarCount)
        return pieces
    }

    /// The penalty of the hyphenation break before scalar `i` (after a soft hyphen or at a
    /// hyphenation point): the hyphen's advance, plus the kerning of the letter before it
    /// (before a soft hyphen there, the letter before that) with the hyphen less its kerning
    /// with the letter after (``kerning(_:before:after:addsHyphen:_:)``); half the hyphen may
    /// protrude into the margin when the paragraph `protrudes`.
    static func hyphenationPenalty(
        _ prepared: PreparedParagraph, at i: Int, protrudes: Bool, _ breakKerning: BreakKerning
    ) -> LineBreaker.Item {
        let hyphenWidth = prepared.hyphenWidths[prepared.runIndex[i - 1]]
        let letter = prepared.scalars[i - 1] == "\u{AD}" ? i - 2 : i - 1
        let kerning = kerning(prepared, before: letter, after: i, addsHyphen: true, breakKerning)
        let hang = protrudes ? hyphenWidth * protrusion("-").right : 0
        return .penalty(hyphenWidth + kerning, cost: hyphenPenalty, flagged: true, hang: hang, position: i)
    }

    /// The penalty of an ordinary break before scalar `i` that is not at a space: after an
    /// explicit hyphen or a dash inside a word it costs TeX's \exhyphenpenalty and is flagged;
    /// after a dash or slash its width is the kerning with the next character that the break
    /// undoes (``kerning(_:before:after:addsHyphen:_:)``), and what may protrude is a share of
    /// the character's advance at the line's end, that kerning undone.
    static func opportunityPenalty(
        _ prepared: PreparedParagraph, at i: Int, isCode: [Bool], protrudes: Bool, _ breakKerning: BreakKerning,
        part: Bool = false
    ) -> LineBreaker.Item {
        let before = prepared.scalars[i - 1]
        let explicit = isExplicitHyphen(before)
        let kerning =
            explicit || part || before == "/"
            ? kerning(prepared, before: i - 1, after: i, addsHyphen: false, breakKerning) : 0
        let advance = prepared.advances[i - 1] + kerning
        let hang = protrudes && !isCode[prepared.runIndex[i - 1]] ? advance * protrusion(before).right : 0
        let cost = part ? partBreakPenalty : explicit ? explicitHyphenPenalty : 0
        return .penalty(kerning, cost: cost, flagged: explicit, hang: hang, position: i)
    }

    /// `breakKerning` of the scalars at `before` and `after`, when both are of one run; else 0.
    static func kerning(
        _ prepared: PreparedParagraph, before: Int, after: Int, addsHyphen: Bool, _ breakKerning: BreakKerning
    ) -> Double {
        guard before >= 0, after < prepared.scalars.count else { return 0 }
        let run = prepared.runIndex[before]
        guard prepared.runIndex[after] == run else { return 0 }
        return breakKerning(run, prepared.scalars[before], prepared.scalars[after], addsHyphen)
    }

    /// Hyphenation points (before scalar i), per space-delimited token, in the runs that
    /// hyphenate (``RunStyle/hyphenate``, else justified paragraphs), in the language of each
    /// run (`en` when none is set); `hyphenate(word, language)` gives a lower-cased word's points.
    static func hyphenationPoints(
        _ paragraph: StyledParagraph, prepared: PreparedParagraph,
        limits: HyphenationLimits, hyphenate: (String, String) -> [Int]
    ) -> [Bool] {
        let runs = paragraph.runs
        let scalarCount = prepared.scalars.count
        let justified = paragraph.style.alignment == .justify
        var hyphenAt = [Bool](repeating: false, count: scalarCount + 1)
        guard runs.contains(where: { ($0.style.hyphenate ?? justified) && !$0.style.isCode }) else { return hyphenAt }
        // The space-delimited tokens, and whether each is the last of its line of source text (a
        // line separator or the paragraph's end follows).
        var tokens: [(range: Range<Int>, last: Bool)] = []
        var tokenStart = 0
        for i in 0...scalarCount
        where i == scalarCount || isBreakingSpace(prepared.scalars[i]) || isSeparator(prepared.scalars[i]) {
            if i > tokenStart {
                var next = i
                while next < scalarCount, isBreakingSpace(prepared.scalars[next]) { next += 1 }
                tokens.append((tokenStart..<i, next == scalarCount || isSeparator(prepared.scalars[next])))
            }
            tokenStart = i + 1
        }
        let capitals = inCapitals(tokens.map { prepared.scalars[$0.range] })
        for (index, token) in tokens.enumerated() {
            hyphenateToken(
                token.range, paragraph: paragraph, prepared: prepared, limits: limits, hyphenate: hyphenate,
                keepsLastWord: token.last, byDefault: justified, inCapitals: capitals[index], into: &hyphenAt)
        }
        return hyphenAt
    }

    /// By token: whether it stands in text set in capitals, a run of at least
    /// ``capitalsRunLength`` tokens in a row whose letters are all capitals (a licence's
    /// disclaimer, `THE SOFTWARE IS PROVIDED "AS IS"`). Its words hyphenate as TeX hyphenates
    /// them (`\uchyph`, plain TeX's 1: a word starting with a capital hyphenates); a word in
    /// capitals elsewhere is an acronym or a name (`HTTP`, `UTF-8`, `NODE`) and stays whole.
    static func inCapitals(_ tokens: [ArraySlice<Unicode.Scalar>]) -> [Bool] {
        let isCapitals = tokens.map { token in
            token.contains(where: isLatinLetter) && !token.contains(where: { $0.properties.isLowercase })
        }
        var result = [Bool](repeating: false, count: tokens.count)
        var start = 0
        while start < tokens.count {
            guard isCapitals[start] else {
                start += 1
                continue
            }
            var end = start
            while end < tokens.count, isCapitals[end] { end += 1 }
            if end - start >= capitalsRunLength {
                for k in start..<end { result[k] = true }
            }
            start = end
        }
        return result
    }

    /// The fewest tokens in capitals in a row that are read as text set in capitals (``inCapitals(_:)``).
    static let capitalsRunLength = 4

    /// The hyphenation points of the words of `pieces` (scalar ranges of text wider than the
    /// measure): in every run that does not ask for none (``RunStyle/hyphenate`` false) and is
    /// not code, whatever the paragraph's alignment, and in its last word too. An empty array
    /// when there are no pieces.
    static func forcedHyphenationPoints(
        _ paragraph: StyledParagraph, prepared: PreparedParagraph, pieces: [Range<Int>],
        limits: HyphenationLimits, hyphenate: (String, String) -> [Int]
    ) -> [Bool] {
        guard !pieces.isEmpty else { return [] }
        var hyphenAt = [Bool](repeating: false, count: prepared.scalars.count + 1)
        for piece in pieces {
            hyphenateToken(
                piece, paragraph: paragraph, prepared: prepared, limits: limits, hyphenate: hyphenate,
                keepsLastWord: false, byDefault: true, inCapitals: false, into: &hyphenAt)
        }
        return hyphenAt
    }

    /// Marks in `hyphenAt` the hyphenation points of the Latin words of the token `range`, in
    /// the runs that hyphenate (``RunStyle/hyphenate``, else `byDefault`): never in tokens with
    /// digits, URLs, e-mail addresses or paths, nor in a compound written with a hyphen (which
    /// breaks at its hyphen), never in code or Hangul; when `keepsLastWord`
    /// (the token ends the paragraph or a line of it), not in its last word, whose fragment
    /// would be the last line ("nally."); a word in capitals only when `inCapitals`
    /// (``inCapitals(_:)``).
    static func hyphenateToken(
        _ range: Range<Int>, paragraph: StyledParagraph, prepared: PreparedParagraph, limits: HyphenationLimits,
        hyphenate: (String, String) -> [Int], keepsLastWord: Bool, byDefault: Bool, inCapitals: Bool = false,
        into hyphenAt: inout [Bool]
    ) {
        for i in range {
            let scalar = prepared.scalars[i]
            if ("0"..."9").contains(scalar) || (scalar.value >= 0x80 && scalar.properties.numericType != nil)
                || scalar == "/"
                || scalar == "@" || scalar == "\\" || scalar == "_"
            {
                return
            }
            if scalar == "." && i + 1 < range.upperBound && isLatinLetter(prepared.scalars[i + 1]) { return }
            // A compound written with a hyphen (`socio-economic`) breaks at its hyphen alone, as
            // TeX breaks it and The Chicago Manual of Style (7.40) asks: `socio-eco-` | `nomic`
            // reads as two hyphens in one word.
            if scalar == "-" || scalar == "\u{2010}", i > range.lowerBound, i + 1 < range.upperBound,
                isLatinLetter(prepared.scalars[i - 1]), isLatinLetter(prepared.scalars[i + 1])
            {
                return
            }
        }
        let runs = paragraph.runs
        var wordStart = range.lowerBound
        while wordStart < range.upperBound {
            guard isLatinLetter(prepared.scalars[wordStart]) else {
                wordStart += 1
                continue
            }
            var wordEnd = wordStart
            let run = prepared.runIndex[wordStart]
            while wordEnd < range.upperBound,
                isLatinLetter(prepared.scalars[wordEnd]) || prepared.scalars[wordEnd] == "\u{AD}",
                prepared.runIndex[wordEnd] == run
            { wordEnd += 1 }
            defer { wordStart = wordEnd }
            let style = runs[run].style
            let word = prepared.scalars[wordStart..<wordEnd]
            let isLastWord =
                keepsLastWord && !prepared.scalars[wordEnd..<range.upperBound].contains(where: isLatinLetter)
            guard style.hyphenate ?? byDefault, !style.isCode, !isLastWord, word.count >= limits.minimumWord,
                !word.contains("\u{AD}"), inCapitals || !word.allSatisfy({ $0.properties.isUppercase })
            else { continue }
            // A word with a capital after its first letter beside lower-case ones is a name
            // made of parts (`PangoCairo`, `lineHeight`, `iPhone`): hyphenation patterns know
            // only dictionary words, so it breaks only between parts of three letters or more
            // (`Pango-` | `Cairo`, never `Pan-` | `goCairo`, `Mc-` | `Donald` or `i-` | `Phone`).
            if word.dropFirst().contains(where: { $0.properties.isUppercase })
                && word.contains(where: { $0.properties.isLowercase })
            {
                let letters = Array(word)
                for k in Swift.max(3, limits.left)...Swift.max(3, letters.count - Swift.max(3, limits.right))
                where k < letters.count && letters[k - 1].properties.isLowercase && letters[k].properties.isUppercase {
                    hyphenAt[wordStart + k] = true
                }
                continue
            }
            let lower = String(String.UnicodeScalarView(word)).lowercased()
            guard lower.unicodeScalars.count == word.count else { continue }
            for k in hyphenate(lower, style.language ?? "en")
            where k >= limits.left && k <= word.count - limits.right {
                hyphenAt[wordStart + k] = true
            }
        }
    }

    /// Calls `add` with the paragraph's items in order: boxes of text, glue at breaking
    /// spaces, penalties at breaks (hyphen, emergency, explicit), a forced break at each
    /// separator and at the end. A penalty's width is what breaking there adds: a hyphen's
    /// advance at a hyphenation point, and at a hyphenation point or after a dash or slash the
    /// change in kerning (`breakKerning`).
    static func makeItems(
        _ paragraph: StyledParagraph, prepared: PreparedParagraph, breaks: Breaks,
        breakKerning: BreakKerning = { _, _, _, _ in 0 },
        _ add: (LineBreaker.Item) -> Void
    ) {
        let runs = paragraph.runs
        let isCode = runs.map(\.style.isCode)
        let scalarCount = prepared.scalars.count
        let justified = paragraph.style.alignment == .justify
        let hang = protrudes(paragraph, prepared: prepared)
        let allowed = breaks.allowed
        let bound = boundSpaces(prepared.scalars)
        let emergencyAt = breaks.emergency
        let hyphenAt = breaks.hyphen
        var boxWidth = 0.0
        var boxStretch = 0.0
        var boxExpansion = 0.0  // what font expansion may add to or take from the box, pt
        var boxStart = 0
        let expansion = justified ? paragraph.style.fontExpansion : 0  // hz: more stretch and shrink
        func startHang() -> Double {
            guard hang, boxStart < scalarCount, !isCode[prepared.runIndex[boxStart]] else { return 0 }
            return prepared.advances[boxStart] * protrusion(prepared.scalars[boxStart]).left
        }
        // Whether a line may break at the run of breaking spaces being read: UAX #14 allows a
        // break after the run (LB7, LB18), never between its spaces, so the break goes at the
        // run's first space (the glue a box precedes), and the rest are dropped at the next
        // line's start. Found once a run, when its first space is read.
        var runBreaks = false
        var runTied = false  // where it could break (``boundSpaces(_:)``, ``tiedBreakCost``)
        // The run of breaking spaces being read ends the paragraph or its line (it stands
        // before a separator): it adds no width, as a browser hangs spaces at a line's end
        // (CSS Text 3 §4.1.3), so it neither widens nor overfills the line.
        var runTrails = false
        var knownRunEnd = 0
        func flushBox() {
            if boxWidth > 0 || boxStretch > 0 {
                add(
                    .box(
                        boxWidth, stretch: boxStretch + boxExpansion, shrink: boxExpansion, hang: startHang(),
                        position: boxStart))
            }
            boxWidth = 0
            boxStretch = 0
            boxExpansion = 0
        }
        for i in 0..<scalarCount {
            let scalar = prepared.scalars[i]
            if isSeparator(scalar) {
                flushBox()
                add(.penalty(cost: -.infinity, position: i))
                boxStart = i + 1
                continue
            }
            if i > 0 && (allowed[i] || hyphenAt[i] || emergencyAt[i] || breaks.syllable[i] || breaks.part[i])
                && (!isWhitespace(prepared.scalars[i - 1]) || emergencyAt[i])
            {
                flushBox()
                let before = prepared.scalars[i - 1]
                if before == "\u{AD}" || hyphenAt[i] {
                    add(hyphenationPenalty(prepared, at: i, protrudes: hang, breakKerning))
                } else if breaks.part[i] {
                    add(opportunityPenalty(prepared, at: i, isCode: isCode, protrudes: hang, breakKerning, part: true))
                } else if (emergencyAt[i] || breaks.syllable[i]) && !allowed[i] {
                    // After a space an emergency break costs what a word break does: a piece
                    // is broken at its spaces before it is broken between letters.
                    let emergency = !breaks.syllable[i]
                    let cost =
                        emergency
                        ? (isWhitespace(before) ? 0 : emergencyBreakCost(prepared.scalars, at: i))
                        : syllableBreakPenalty
                    add(.penalty(cost: cost, emergency: emergency, position: i))
                } else {
                    add(opportunityPenalty(prepared, at: i, isCode: isCode, protrudes: hang, breakKerning))
                }
                boxStart = i
            }
            if isBreakingSpace(scalar) {
                flushBox()
                let spaceWidth = prepared.advances[i]
                let rigid = isCode[prepared.runIndex[i]] || !justified
                if i == 0 || !isBreakingSpace(prepared.scalars[i - 1]) {
                    let end = spaceRunEnd(from: i, prepared.scalars, known: &knownRunEnd)
                    let mayBreak = end < scalarCount && (allowed[end] || isMark(prepared.scalars[end]))
                    (runBreaks, runTied) = (mayBreak && !bound[i], mayBreak && bound[i])
                    runTrails = end >= scalarCount || isSeparator(prepared.scalars[end])
                    // A run that opens the paragraph or a line is kept (an indent, as U+3000 opens a Japanese
                    // paragraph) but may break after an empty box: a run wider than the measure takes a line.
                    if !runTrails && runBreaks && (i == 0 || isSeparator(prepared.scalars[i - 1])) {
                        add(.box(0, position: i))
                    }
                }
                if runTrails {
                    boxStart = i + 1
                    continue
                }
                if !runBreaks {
                    add(.penalty(cost: runTied ? tiedBreakCost : .infinity, emergency: runTied, position: i))
                    runTied = false  // at the run's first space alone
                }
                let before = i > 0 ? prepared.scalars[i - 1] : " "
                let codeBefore = i > 0 && isCode[prepared.runIndex[i - 1]]
                let hangWidth = hang && i > 0 && !codeBefore ? prepared.advances[i - 1] * protrusion(before).right : 0
                add(
                    .glue(
                        spaceWidth, stretch: rigid ? 0 : spaceWidth * (spaceStretch + expansion),
                        shrink: rigid ? 0 : spaceWidth * (spaceShrink + expansion),
                        hang: hangWidth, flagged: isExplicitHyphen(before), position: i))
                boxStart = i + 1
                continue
            }
            boxWidth += prepared.advances[i]
            if expansion > 0 && !isCode[prepared.runIndex[i]] { boxExpansion += prepared.advances[i] * expansion }
            if justified && isHangul(scalar) && i + 1 < scalarCount && isHangul(prepared.scalars[i + 1]) {
                boxStretch += syllableStretch * runs[prepared.runIndex[i]].style.font.size
            }
        }
        flushBox()
        add(.penalty(cost: -.infinity, position: scalarCount))
    }

    /// Whether the lines of `paragraph` may protrude into the margins: with hanging punctuation
    /// on, in justified and ragged-right (left-aligned) text, and only in left-to-right text.
    /// Protrusion is set by logical position (a line's first and last characters at its left
    /// and right margins); in a line holding right-to-left letters the last character (a hyphen
    /// after a Latin word in Arabic text) may stand anywhere in it, so such a paragraph keeps
    /// its lines inside the measure.
    static func protrudes(_ paragraph: StyledParagraph, prepared: PreparedParagraph) -> Bool {
        // A centred or right-aligned line is placed by its alignment, not by its edge characters.
        let alignment = paragraph.style.alignment
        return paragraph.style.hangingPunctuation && (alignment == .justify || alignment == .left)
            && !prepared.scalars.contains(where: isRightToLeft)
    }

    /// The fewest syllables of a Hangul word after a break between its syllables
    /// (``syllableBreaks(_:runs:)``), so that no line starts with an ending or particle alone; the
    /// part before the break may be one syllable, as two there as well set justified Korean
    /// much looser.
    static let minimumSyllables = 2

    /// The longest last word, in scalars, that ``allowedBreaks(_:keepAll:)`` keeps whole.
    static let lastWordLimit = 24

    /// Whether a dash after `scalar` opens a word: after a space, a line separator, an opening
    /// bracket or quote (`(-Db_lto=true)`, `"--force"`), as after the paragraph's start.
    package static func opensWord(_ scalar: Unicode.Scalar) -> Bool {
        if isWhitespace(scalar) || isSeparator(scalar) || scalar == "\"" || scalar == "'" { return true }
        let category = generalCategory(of: scalar)
        return category == .openPunctuation || category == .initialPunctuation
    }

    /// Hyphen-minus, en dash, em dash: the dashes a phrase may be set between spaces with.
    package static func isDash(_ s: Unicode.Scalar) -> Bool {
        s == "-" || s == "\u{2013}" || s == "\u{2014}"
    }

    /// A dash (``isDash(_:)``) or the hyphen U+2010: an explicit hyphen a line may end after
    /// with no hyphen added (TeX's \exhyphenpenalty).
    static func isExplicitHyphen(_ s: Unicode.Scalar) -> Bool {
        isDash(s) || s == "\u{2010}"
    }

    /// By scalar: whether the run of breaking spaces starting here is one no line ends at: a
    /// spaced dash's (``dashBoundSpaces(_:)``), one inside quotation marks set with spaces
    /// (``quotationBoundSpaces(_:)``), or one between a number and its unit (``NumberUnitTies``).
    static func boundSpaces(_ scalars: [Unicode.Scalar]) -> [Bool] {
        let tied = NumberUnitTies.tiedSpaces(scalars)
        let quoted = quotationBoundSpaces(scalars)
        return zip(dashBoundSpaces(scalars), zip(tied, quoted)).map { $0 || $1.0 || $1.1 }
    }

    /// By scalar: the run of breaking spaces starting here is one Unicode's line breaking does
    /// not break since Unicode 15.1 (UAX #14, rules LB15a and LB15b), and Pango's older rules
    /// do: after an opening quotation mark that starts the text or follows a space or an
    /// opening bracket (`« mot`), and before a closing one followed by a space, punctuation or
    /// the text's end (`mot »`). French sets its guillemets with spaces inside (Lexique des
    /// règles typographiques), which a line must not end or start beside.
    static func quotationBoundSpaces(_ scalars: [Unicode.Scalar]) -> [Bool] {
        var bound = [Bool](repeating: false, count: scalars.count + 1)
        var index = 1
        while index < scalars.count {
            guard isBreakingSpace(scalars[index]), !isBreakingSpace(scalars[index - 1]) else {
                index += 1
                continue
            }
            var end = index
            while end < scalars.count, isBreakingSpace(scalars[end]) { end += 1 }
            let opening = scalars[index - 1]
            if generalCategory(of: opening) == .initialPunctuation, index == 1 || opensWord(scalars[index - 2]) {
                bound[index] = true
            }
            if end < scalars.count, generalCategory(of: scalars[end]) == .finalPunctuation {
                let after = end + 1 < scalars.count ? scalars[end + 1] : "\n"
                let category = generalCategory(of: after)
                if isWhitespace(after) || isSeparator(after)
                    || [.closePunctuation, .finalPunctuation, .otherPunctuation].contains(category)
                {
                    bound[index] = true
                }
            }
            index = end
        }
        return bound
    }

    /// By scalar: the run of breaking spaces starting here binds a spaced dash to its phrase,
    /// so no line breaks there. A dash set between spaces ("the \u{2013} test") opens a phrase
    /// or closes one: in each sentence (ended by `.`, `!` or `?` before a space) the first,
    /// third... such dash opens and the others close. A line never ends right after an opening
    /// dash nor starts with a closing one: the opening dash binds to the word after it, the
    /// closing dash to the word before it (the dash stays with the phrase it marks).
    static func dashBoundSpaces(_ scalars: [Unicode.Scalar]) -> [Bool] {
        var bound = [Bool](repeating: false, count: scalars.count + 1)
        var opens = true
        for index in scalars.indices {
            let scalar = scalars[index]
            let before = index > 0 ? scalars[index - 1] : "\n"
            let after = index + 1 < scalars.count ? scalars[index + 1] : "\n"
            if (scalar == "." || scalar == "!" || scalar == "?") && isWhitespace(after) { opens = true }
            guard isDash(scalar), isBreakingSpace(before), isBreakingSpace(after) else { continue }
            if opens {
                bound[index + 1] = true
            } else {
                var runStart = index - 1
                while runStart > 0, isBreakingSpace(scalars[runStart - 1]) { runStart -= 1 }
                bound[runStart] = true
            }
            opens.toggle()
        }
        return bound
    }

    /// A character drawn on the one before it or not at all: a nonspacing or enclosing mark, or
    /// a format character (general categories Mn, Me and Cf), whatever advance tracking gives it.
    static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.value >= 0x300 else { return scalar == "\u{AD}" }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return true
        default: return false
        }
    }

    /// The index after the run of breaking spaces that starts at `start`, or that `start` is
    /// inside when `known` (the end this returned for an earlier start) is past it. Marks
    /// (``isMark(_:)``: a combining mark on a space, a directional mark, which Pango lets no
    /// line break before, where UAX #14 LB10 reads them as letters) are inside a run when
    /// spaces follow them: they neither end the run nor keep it from breaking, so a run of
    /// spaces with one inside breaks like one and never keeps the words after it off the page;
    /// one that follows the run lets it break as a letter would. Each scalar is read once for
    /// all the starts of one run.
    static func spaceRunEnd(from start: Int, _ scalars: [Unicode.Scalar], known: inout Int) -> Int {
        if start < known { return known }
        var end = start + 1
        var next = end
        while next < scalars.count {
            if isBreakingSpace(scalars[next]) {
                next += 1
                end = next
            } else if isMark(scalars[next]) {
                next += 1
            } else {
                break
            }
        }
        known = end
        return end
    }
}
