import Styling

/// A paragraph as the backend measured it, one entry per Unicode scalar of the paragraph's
/// text (all runs concatenated): what the composer needs to choose line breaks, with no font
/// or shaping of its own.
public struct PreparedParagraph: Sendable {
    /// The text, scalar by scalar.
    public var scalars: [Unicode.Scalar]
    /// Index into the paragraph's runs of each scalar.
    public var runIndex: [Int]
    /// Advance width of each scalar, pt: a glyph cluster's advance (HarfBuzz, letter spacing
    /// included) on its first scalar, 0 on the others.
    public var advances: [Double]
    /// `lineBreakBefore[i]`: a line may break before scalar `i` (Pango's log attribute
    /// `is_line_break`, Unicode UAX #14). One entry more than ``scalars``.
    public var lineBreakBefore: [Bool]
    /// `charBreakBefore[i]`: a grapheme boundary (Pango's `is_char_break`), where the emergency
    /// pass may break a word wider than the measure. One entry more than ``scalars``.
    public var charBreakBefore: [Bool]
    /// Width of a hyphen in each run's face, pt (indexed like the paragraph's runs).
    public var hyphenWidths: [Double]
    /// Creates a prepared paragraph from its parts (see the properties).
    public init(
        scalars: [Unicode.Scalar], runIndex: [Int], advances: [Double], lineBreakBefore: [Bool],
        charBreakBefore: [Bool], hyphenWidths: [Double]
    ) {
        self.scalars = scalars
        self.runIndex = runIndex
        self.advances = advances
        self.lineBreakBefore = lineBreakBefore
        self.charBreakBefore = charBreakBefore
        self.hyphenWidths = hyphenWidths
    }
}

/// Hyphenation limits; the defaults are TeX's (\lefthyphenmin = 2, \righthyphenmin = 3) and a
/// shortest word of 5 letters (LibreOffice's default).
public struct HyphenationLimits: Sendable {
    /// Shortest word that is hyphenated, in letters.
    public var minimumWord = 5
    /// Fewest letters before a hyphen.
    public var left = 2
    /// Fewest letters after a hyphen.
    public var right = 3
    /// Creates the defaults.
    public init() {}
}

/// One line chosen by the composer, in scalar indices of the ``PreparedParagraph``.
public struct ComposedLine: Sendable, Equatable {
    /// How the line ends.
    public enum Ending: Sendable, Equatable {
        /// At a word space, which is dropped (index ``ComposedLine/end`` is the space).
        case space
        /// At a break opportunity between two characters (after a hyphen, between CJK syllables,
        /// or an emergency break).
        case opportunity
        /// At a hyphenation point: a hyphen is added (a soft hyphen at ``ComposedLine/end`` - 1 becomes it).
        case hyphen
        /// At a line separator or newline already in the text (index ``ComposedLine/end``).
        case separator
        /// At the end of the paragraph.
        case end
    }
    /// First scalar of the line.
    public var start: Int
    /// One past the line's last scalar (the dropped space or separator, if any, is at `end`).
    public var end: Int
    /// How the line ends.
    public var ending: Ending
    /// Natural width of the line (hyphen included), pt.
    public var naturalWidth: Double
    /// Each stretchable word space grows by this fraction of its own width (negative: shrinks).
    public var spaceFactor: Double
    /// Added after each Hangul syllable that is followed by another in the same word, pt
    /// (W3C KLREQ inter-character justification).
    public var syllableSpacing: Double
    /// The line's left edge from the paragraph box's left edge, pt (alignment).
    public var x: Double
    /// Width the line ends with after justification, pt (may exceed the measure by ``hang``).
    public var width: Double
    /// Width of the final punctuation hanging into the margin, pt.
    public var hang: Double
}

/// The composer's result.
public struct Composition: Sendable {
    /// The lines, top to bottom.
    public var lines: [ComposedLine]
    /// The emergency pass broke inside a word wider than the measure (or left a line overfull).
    public var emergency: Bool
}

/// Paragraph composition in Typst's stages: the backend has collected and prepared the text
/// (shaped once; widths, break opportunities); this type builds boxes, glue and penalties,
/// applies the keep-all and hyphenation policy, runs the total-fit ``LineBreaker`` and finalizes
/// each line (justification amounts, alignment, hanging punctuation). Pure Swift: the backend
/// then builds and draws the chosen lines.
public enum ParagraphComposer {
    /// Word spaces stretch by half and shrink by a third of their width (TeX's Computer Modern
    /// interword glue, 3.33 pt plus 1.67 minus 1.11 at 10 pt).
    static let spaceStretch = 0.5, spaceShrink = 1.0 / 3.0
    /// Hangul inter-syllable spacing (W3C KLREQ inter-character justification), em per gap:
    /// up to `syllableQuiet` the gap stays below the 0.1 em at which PDF text extraction
    /// (poppler) starts a new word, so copied text keeps its words; up to `syllableMost` only
    /// when word spaces would otherwise pass `spaceMost`.
    static let syllableQuiet = 0.08, syllableMost = 0.25
    /// What one gap offers the line breaker, em (between the two limits above).
    static let syllableStretch = 0.15
    /// Word spaces grow to these factors of their width before, and between, the two steps
    /// of syllable spacing.
    static let spaceFirst = 0.45, spaceMost = 0.55

    /// Chooses the lines of `paragraph` at `width` pt from its prepared measurements.
    /// `hyphenate(word, language)` returns the hyphenation points of a lower-case word as
    /// scalar offsets (a hyphen may follow the first `k` scalars), from the language's patterns.
    public static func compose(
        _ paragraph: StyledParagraph, prepared: PreparedParagraph, width: Double,
        limits: HyphenationLimits = HyphenationLimits(),
        hyphenate: (String, String) -> [Int]
    ) -> Composition {
        let items = collect(paragraph, prepared: prepared, width: width, limits: limits, hyphenate: hyphenate)
        var parameters = LineBreaker.Parameters()
        let justified = paragraph.style.alignment == .justify
        if !justified { parameters.raggedStretch = 2 * paragraph.style.baseFont.size }
        let result = LineBreaker(parameters: parameters).breakLines(items, width: width)
        return Composition(
            lines: finalize(result, items: items, paragraph: paragraph, prepared: prepared, width: width),
            emergency: result.emergency)
    }

    // MARK: Collect and prepare: boxes, glue and penalties

    /// Hangul jamo and syllables (the scripts KLREQ justification spreads).
    public static func isHangul(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x1100...0x11FF, 0x3130...0x318F, 0xA960...0xA97F, 0xAC00...0xD7AF, 0xD7B0...0xD7FF: return true
        default: return false
        }
    }

    static func isSeparator(_ s: Unicode.Scalar) -> Bool { s == "\n" || s == "\u{2028}" || s == "\u{2029}" }

    /// A space that may break and (outside code) stretch: not the no-break spaces U+00A0,
    /// U+202F and U+2007, which keep their width.
    public static func isBreakingSpace(_ s: Unicode.Scalar) -> Bool {
        if s.value < 0x80 { return s == " " || s == "\t" }
        return s.properties.isWhitespace && !isSeparator(s) && s != "\u{A0}" && s != "\u{202F}" && s != "\u{2007}"
    }

    /// Unicode White_Space, with an ASCII fast path.
    static func isWhitespace(_ s: Unicode.Scalar) -> Bool {
        if s.value < 0x80 { return s == " " || (0x09...0x0D).contains(s.value) }
        return s.properties.isWhitespace
    }

    /// Latin letters that the hyphenation patterns cover.
    static func isLatinLetter(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x41...0x5A, 0x61...0x7A, 0xC0...0xD6, 0xD8...0xF6, 0xF8...0x24F: return true
        default: return false
        }
    }

    /// How far a character at a line end may hang into the right margin, × its advance
    /// (Typst's `overhang` table for dashes and punctuation, quotes as half).
    static func overhang(_ s: Unicode.Scalar) -> Double {
        switch s {
        case "-", "\u{2010}", "\u{AD}": return 0.55
        case "\u{2013}", "\u{2014}": return 0.2
        case ".", ",": return 0.8
        case ":", ";": return 0.3
        case "\"", "'", "\u{2019}", "\u{201D}", "\u{00BB}", "\u{203A}": return 0.5
        default: return 0
        }
    }

    static func collect(
        _ paragraph: StyledParagraph, prepared p: PreparedParagraph, width: Double,
        limits: HyphenationLimits, hyphenate: (String, String) -> [Int]
    ) -> [LineBreaker.Item] {
        let keepAll = paragraph.style.hangulLineBreak == .keepAll
        let allowed = allowedBreaks(p, keepAll: keepAll)
        let breaks = Breaks(
            allowed: allowed, emergency: emergencyBreaks(p, allowed: allowed, width: width),
            hyphen: hyphenationPoints(paragraph, prepared: p, limits: limits, hyphenate: hyphenate))
        // Items, made twice: counted, then stored in an array of exactly that capacity (a
        // megabyte of prose makes about half a million items of 56 bytes; an array that grows
        // by doubling holds the old and the new buffer at once).
        var count = 0
        makeItems(paragraph, prepared: p, breaks: breaks) { _ in count += 1 }
        var items: [LineBreaker.Item] = []
        items.reserveCapacity(count)
        makeItems(paragraph, prepared: p, breaks: breaks) { items.append($0) }
        return items
    }

    /// Where a line may break, before each scalar (index `n`: the paragraph's end).
    struct Breaks {
        /// Pango's opportunities less keep-all's.
        let allowed: [Bool]
        /// Grapheme boundaries a line breaks at only when nothing else fits.
        let emergency: [Bool]
        /// Hyphenation points.
        let hyphen: [Bool]
    }

    /// Allowed breaks (before scalar i): Pango's opportunities less keep-all's (no break between
    /// Hangul and a letter that is not a space).
    static func allowedBreaks(_ p: PreparedParagraph, keepAll: Bool) -> [Bool] {
        let scalarCount = p.scalars.count
        var allowed = [Bool](repeating: false, count: scalarCount + 1)
        for i in 1..<max(1, scalarCount) where p.lineBreakBefore[i] {
            let before = p.scalars[i - 1]
            let after = p.scalars[i]
            if keepAll, isHangul(before) || isHangul(after), !isWhitespace(before), !isWhitespace(after) { continue }
            allowed[i] = true
        }
        return allowed
    }

    /// Emergency breaks: grapheme boundaries inside a piece (between allowed breaks and
    /// spaces a break may follow) wider than the measure — after a space rather than before
    /// it. A space no break may follow (UAX #14 LB14: "[ [ [" is one unbreakable piece)
    /// belongs to its piece.
    static func emergencyBreaks(_ p: PreparedParagraph, allowed: [Bool], width: Double) -> [Bool] {
        let scalarCount = p.scalars.count
        var emergencyAt = [Bool](repeating: false, count: scalarCount + 1)
        var pieceStart = 0
        var pieceWidth = 0.0
        func endPiece(_ end: Int) {
            if pieceWidth > width {
                for k in pieceStart + 1..<max(pieceStart + 1, end)
                where p.charBreakBefore[k] && !allowed[k] && !isBreakingSpace(p.scalars[k]) { emergencyAt[k] = true }
            }
            pieceWidth = 0
        }
        // Whether the run of breaking spaces being read ends a piece: it does when a break may
        // follow the run, or nothing but a separator or the paragraph's end does.
        var spacesEndPiece = false
        for i in 0..<scalarCount {
            let scalar = p.scalars[i]
            if isBreakingSpace(scalar) && (i == 0 || !isBreakingSpace(p.scalars[i - 1])) {
                let end = spaceRunEnd(from: i, p.scalars)
                spacesEndPiece = end >= scalarCount || allowed[end] || isSeparator(p.scalars[end])
            }
            if isSeparator(scalar) || isBreakingSpace(scalar) && spacesEndPiece {
                endPiece(i)
                pieceStart = i + 1
                continue
            }
            if allowed[i] && i > pieceStart {
                endPiece(i)
                pieceStart = i
            }
            pieceWidth += p.advances[i]
        }
        endPiece(scalarCount)
        return emergencyAt
    }

    /// Hyphenation points (before scalar i), per space-delimited token, in the runs that
    /// hyphenate (``RunStyle/hyphenate``, else justified paragraphs), in the language of each
    /// run (`en` when none is set); `hyphenate(word, language)` gives a lower-cased word's points.
    static func hyphenationPoints(
        _ paragraph: StyledParagraph, prepared p: PreparedParagraph,
        limits: HyphenationLimits, hyphenate: (String, String) -> [Int]
    ) -> [Bool] {
        let runs = paragraph.runs
        let scalarCount = p.scalars.count
        let justified = paragraph.style.alignment == .justify
        var hyphenAt = [Bool](repeating: false, count: scalarCount + 1)
        var tokenStart = 0
        let wanted = runs.contains { ($0.style.hyphenate ?? justified) && !$0.style.isCode }
        for i in 0...scalarCount
        where wanted && (i == scalarCount || isBreakingSpace(p.scalars[i]) || isSeparator(p.scalars[i])) {
            if i > tokenStart { hyphenateToken(tokenStart..<i) }
            tokenStart = i + 1
        }
        func hyphenateToken(_ range: Range<Int>) {
            // Never in words with digits, URLs, e-mail addresses or paths; never in code or Hangul.
            for i in range {
                let scalar = p.scalars[i]
                if ("0"..."9").contains(scalar) || (scalar.value >= 0x80 && scalar.properties.numericType != nil)
                    || scalar == "/"
                    || scalar == "@" || scalar == "\\" || scalar == "_"
                {
                    return
                }
                if scalar == "." && i + 1 < range.upperBound && isLatinLetter(p.scalars[i + 1]) { return }
            }
            var wordStart = range.lowerBound
            while wordStart < range.upperBound {
                guard isLatinLetter(p.scalars[wordStart]) else {
                    wordStart += 1
                    continue
                }
                var wordEnd = wordStart
                let run = p.runIndex[wordStart]
                while wordEnd < range.upperBound, isLatinLetter(p.scalars[wordEnd]) || p.scalars[wordEnd] == "\u{AD}",
                    p.runIndex[wordEnd] == run
                { wordEnd += 1 }
                defer { wordStart = wordEnd }
                let style = runs[run].style
                let word = p.scalars[wordStart..<wordEnd]
                guard style.hyphenate ?? justified, !style.isCode, word.count >= limits.minimumWord,
                    !word.contains("\u{AD}"), !word.allSatisfy({ $0.properties.isUppercase })
                else { continue }
                let lower = String(String.UnicodeScalarView(word)).lowercased()
                guard lower.unicodeScalars.count == word.count else { continue }
                for k in hyphenate(lower, style.language ?? "en")
                where k >= limits.left && k <= word.count - limits.right {
                    hyphenAt[wordStart + k] = true
                }
            }
        }
        return hyphenAt
    }

    /// Calls `add` with the paragraph's items in order: boxes of text, glue at breaking
    /// spaces, penalties at breaks (hyphen, emergency, explicit), a forced break at each
    /// separator and at the end.
    static func makeItems(
        _ paragraph: StyledParagraph, prepared p: PreparedParagraph, breaks: Breaks,
        _ add: (LineBreaker.Item) -> Void
    ) {
        let runs = paragraph.runs
        let isCode = runs.map(\.style.isCode)
        let scalarCount = p.scalars.count
        let justified = paragraph.style.alignment == .justify
        let hang = justified && paragraph.style.hangingPunctuation
        let allowed = breaks.allowed
        let emergencyAt = breaks.emergency
        let hyphenAt = breaks.hyphen
        var boxWidth = 0.0
        var boxStretch = 0.0
        var boxStart = 0
        // Whether a line may break at the run of breaking spaces being read: UAX #14 allows a
        // break after the run (LB7, LB18), never between its spaces, so the break goes at the
        // run's first space (the glue a box precedes), and the rest are dropped at the next
        // line's start. Found once a run, when its first space is read.
        var runBreaks = false
        // The run of breaking spaces being read ends the paragraph or its line (it stands
        // before a separator): it adds no width, as a browser hangs spaces at a line's end
        // (CSS Text 3 §4.1.3), so it neither widens nor overfills the line.
        var runTrails = false
        func flushBox() {
            if boxWidth > 0 || boxStretch > 0 { add(.box(boxWidth, stretch: boxStretch, position: boxStart)) }
            boxWidth = 0
            boxStretch = 0
        }
        for i in 0..<scalarCount {
            let scalar = p.scalars[i]
            if isSeparator(scalar) {
                flushBox()
                add(.penalty(cost: -.infinity, position: i))
                boxStart = i + 1
                continue
            }
            if i > 0 && (allowed[i] || hyphenAt[i] || emergencyAt[i])
                && (!isWhitespace(p.scalars[i - 1]) || emergencyAt[i])
            {
                flushBox()
                let before = p.scalars[i - 1]
                if before == "\u{AD}" || hyphenAt[i] {
                    let hyphenWidth = p.hyphenWidths[p.runIndex[i - 1]]
                    add(
                        .penalty(
                            hyphenWidth, cost: 50, flagged: true, hang: hang ? hyphenWidth * overhang("-") : 0,
                            position: i))
                } else if emergencyAt[i] && !allowed[i] {
                    // After a space an emergency break costs what a word break does: a piece
                    // is broken at its spaces before it is broken between letters.
                    add(.penalty(cost: isWhitespace(before) ? 0 : 500, hang: 0, emergency: true, position: i))
                } else {
                    let explicit = before == "-" || before == "\u{2010}"
                    let codeBefore = isCode[p.runIndex[i - 1]]
                    add(
                        .penalty(
                            cost: explicit ? 50 : 0, flagged: explicit,
                            hang: hang && !codeBefore ? p.advances[i - 1] * overhang(before) : 0, position: i))
                }
                boxStart = i
            }
            if isBreakingSpace(scalar) {
                flushBox()
                let spaceWidth = p.advances[i]
                let rigid = isCode[p.runIndex[i]] || !justified
                if i == 0 || !isBreakingSpace(p.scalars[i - 1]) {
                    let end = spaceRunEnd(from: i, p.scalars)
                    runBreaks = end < scalarCount && allowed[end]
                    runTrails = end >= scalarCount || isSeparator(p.scalars[end])
                    // A run that opens the paragraph or a line after a separator is kept (an
                    // indent, as U+3000 opens a Japanese paragraph) but may break like any
                    // other: after an empty box, so that a run wider than the measure takes
                    // a line of its own and the text after it starts the next.
                    if !runTrails && runBreaks && (i == 0 || isSeparator(p.scalars[i - 1])) {
                        add(.box(0, position: i))
                    }
                }
                if runTrails {
                    boxStart = i + 1
                    continue
                }
                if !runBreaks { add(.penalty(cost: .infinity, position: i)) }
                let before = i > 0 ? p.scalars[i - 1] : " "
                let codeBefore = i > 0 && isCode[p.runIndex[i - 1]]
                let hangWidth = hang && i > 0 && !codeBefore ? p.advances[i - 1] * overhang(before) : 0
                add(
                    .glue(
                        spaceWidth, stretch: rigid ? 0 : spaceWidth * spaceStretch,
                        shrink: rigid ? 0 : spaceWidth * spaceShrink,
                        hang: hangWidth, position: i))
                boxStart = i + 1
                continue
            }
            boxWidth += p.advances[i]
            if justified && isHangul(scalar) && i + 1 < scalarCount && isHangul(p.scalars[i + 1]) {
                boxStretch += syllableStretch * runs[p.runIndex[i]].style.font.size
            }
        }
        flushBox()
        add(.penalty(cost: -.infinity, position: scalarCount))
    }

    /// The index after the run of breaking spaces that starts at `start`.
    static func spaceRunEnd(from start: Int, _ scalars: [Unicode.Scalar]) -> Int {
        var end = start + 1
        while end < scalars.count, isBreakingSpace(scalars[end]) { end += 1 }
        return end
    }

    // MARK: Finalize: justification, alignment, hanging punctuation

    static func finalize(
        _ result: LineBreaker.Result, items: [LineBreaker.Item], paragraph: StyledParagraph,
        prepared p: PreparedParagraph, width: Double
    ) -> [ComposedLine] {
        let scalarCount = p.scalars.count
        let justified = paragraph.style.alignment == .justify
        let isCode = paragraph.runs.map(\.style.isCode)
        let sizes = paragraph.runs.map(\.style.font.size)
        var lines: [ComposedLine] = []
        var start = 0
        for line in result.lines {
            let item = items[line.breakIndex]
            let end: Int
            let ending: ComposedLine.Ending
            let isLastItem = line.breakIndex == items.count - 1
            switch item.kind {
            case .glue:
                end = item.position
                ending = .space
            case .penalty where isLastItem:
                end = scalarCount
                ending = .end
            case .penalty where item.cost == -.infinity:
                end = item.position
                ending = .separator
            case .penalty:
                end = item.position
                ending = item.flagged && (item.width > 0) ? .hyphen : .opportunity
            case .box:
                end = item.position
                ending = .opportunity
            }
            // Stretchable spaces and Hangul gaps on the line.
            var spaceWidth = 0.0
            var gaps = 0
            var gapSize = 0.0
            for i in start..<max(start, end) {
                let scalar = p.scalars[i]
                if isBreakingSpace(scalar) && !isCode[p.runIndex[i]] { spaceWidth += p.advances[i] }
                if isHangul(scalar) && i + 1 < end && isHangul(p.scalars[i + 1]) {
                    gaps += 1
                    gapSize += sizes[p.runIndex[i]]
                }
            }
            var spaceFactor = 0.0
            var syllable = 0.0
            let stretches = justified && ending != .end && ending != .separator
            let available = width + (stretches ? line.hang : 0)
            var extra = available - line.naturalWidth
            // A last line (or one before a hard break) is never stretched, but it is shrunk
            // when the breaker chose it at less than its natural width.
            if justified && extra < 0 || stretches && spaceWidth + gapSize > 0 {
                if extra < 0 {
                    spaceFactor = spaceWidth > 0 ? max(extra / spaceWidth, -spaceShrink) : 0
                } else {
                    // KLREQ: word spaces first, then between syllables, in two steps, then spaces again.
                    // `gapSize` is the sum of the gaps' em sizes.
                    var spaces = 0.0
                    var perEm = 0.0
                    func take(_ available: Double) -> Double {
                        let taken = min(extra, max(0, available))
                        extra -= taken
                        return taken
                    }
                    if spaceWidth > 0 { spaces += take(spaceWidth * spaceFirst) }
                    if gaps > 0 { perEm += take(gapSize * syllableQuiet) / gapSize }
                    if spaceWidth > 0 { spaces += take(spaceWidth * (spaceMost - spaceFirst)) }
                    if gaps > 0 { perEm += take(gapSize * (syllableMost - syllableQuiet)) / gapSize }
                    if spaceWidth > 0 {
                        spaces += extra
                        extra = 0
                    } else if gaps > 0 {
                        perEm += extra / gapSize
                        extra = 0
                    }
                    spaceFactor = spaceWidth > 0 ? spaces / spaceWidth : 0
                    syllable = perEm * (gaps > 0 ? gapSize / Double(gaps) : 0)
                }
            }
            let finalWidth = line.naturalWidth + spaceFactor * spaceWidth + syllable * Double(gaps)
            var left = 0.0
            switch paragraph.style.alignment {
            case .center: left = max(0, (width - finalWidth) / 2)
            case .right: left = max(0, width - finalWidth)
            case .left, .justify: left = 0
            }
            lines.append(
                ComposedLine(
                    start: start, end: end, ending: ending, naturalWidth: line.naturalWidth,
                    spaceFactor: spaceFactor, syllableSpacing: syllable, x: left, width: finalWidth,
                    hang: stretches ? max(0, finalWidth - width) : 0))
            // The next line starts after the dropped space or separator, and any spaces after it.
            var next = end
            if ending == .space || ending == .separator { next += 1 }
            while next < scalarCount, ending == .space, isBreakingSpace(p.scalars[next]) { next += 1 }
            start = next
        }
        return lines
    }
}
