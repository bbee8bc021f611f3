import DocumentModel
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
    /// Font expansion: the line is drawn scaled horizontally by 1 + this (−0.02...0.02, a
    /// multiple of ``ParagraphStyle/fontExpansionStep``); 0 for none.
    public var expansion: Double = 0
    /// The one natural width, pt, the line's stretchable word spaces are set at (before
    /// justification, when justified), when it is not each space's own (a line mixing Hangul and
    /// Latin words: ``ParagraphComposer/uniformWordSpaces(_:prepared:)``); nil: each its own advance.
    public var wordSpace: Double? = nil
}

/// The composer's result.
public struct Composition: Sendable {
    /// The lines, top to bottom.
    public var lines: [ComposedLine]
    /// The emergency pass broke inside a word wider than the measure (or left a line overfull).
    public var emergency: Bool
    /// The words wider than the measure that the lines break inside or leave overfull, in
    /// order (``ParagraphComposer/brokenWords(_:protrusions:breaks:scalars:width:)``); a word broken only
    /// after its own hyphen or at another break opportunity is not one of them.
    public var brokenWords: [BrokenWord] = []
}

/// A word wider than the measure, and what the composer did with it.
public struct BrokenWord: Sendable, Equatable {
    /// What was done, from the mildest.
    public enum Treatment: Int, Sendable, Comparable {
        /// Broken at hyphenation points, each line ending in an added hyphen.
        case hyphenated
        /// Broken only between its parts: beside the punctuation that joins the parts of an
        /// identifier, path or address (`.`, `/`, `_`, `::`…), or where a lower-case letter
        /// meets a capital (``ParagraphComposer/emergencyBreakCost(_:at:)``).
        case brokenBetweenParts
        /// Broken between two letters (or other characters), where no rule allows a break.
        case brokenBetweenLetters
        /// Left wider than the measure, past its edge.
        case overfull

        public static func < (a: Treatment, b: Treatment) -> Bool { a.rawValue < b.rawValue }
    }
    /// The word's scalars in the ``PreparedParagraph`` (between whitespace).
    public var range: Range<Int>
    /// What was done: the most of what was done at each of its breaks.
    public var treatment: Treatment
}

/// The middle of paragraph layout (``ParagraphLayout``), from a paragraph the backend measured
/// (shaped once; widths, break opportunities) to its chosen lines: builds boxes, glue and
/// penalties with the keep-all and hyphenation policy (the measure stage, `MeasureItems.swift`),
/// runs the total-fit ``LineBreaker`` and finalizes each line (justification amounts,
/// alignment, hanging punctuation; `FinalizeLines.swift`). Pure Swift: the backend then shapes
/// the chosen lines.
public enum ParagraphComposer {
    /// What a break between two scalars of a run changes in its line's width, pt: the run's
    /// index, the scalars before and after the break, and whether the break adds a hyphen
    /// (``ParagraphShaping/breakKerning(in:before:after:addsHyphen:)``).
    public typealias BreakKerning = (Int, Unicode.Scalar, Unicode.Scalar, Bool) -> Double

    /// Word spaces stretch by half and shrink by a third of their width (TeX's Computer Modern
    /// interword glue, 3.33 pt plus 1.67 minus 1.11 at 10 pt).
    static let spaceStretch = 0.5, spaceShrink = 1.0 / 3.0
    /// Hangul inter-syllable spacing (W3C KLREQ inter-character justification), em per gap at
    /// most: below the 0.1 em at which PDF text extraction (poppler) starts a new word, so
    /// copied text keeps its words, and never more than a third of the line's word space
    /// (``spread(_:spaces:gaps:gapSize:)``).
    static let syllableQuiet = 0.08
    /// Word spaces grow to this factor of their width before any syllable gap does.
    static let spaceFirst = 0.45
    /// The cost of a break at a hyphenation point (TeX's \hyphenpenalty, 50 in plain TeX):
    /// 120, so that with font expansion a hyphen is taken only where it saves a visibly loose
    /// line. Measured on Debian's Node.js documentation at 60, 90 and 120 mm: about as many
    /// hyphens as Typst sets, at more even word spaces.
    static let hyphenPenalty: Double = 120
    /// Two neighbouring lines whose fitness classes are not neighbours (a very loose line
    /// beside a decent one) in justified text: half of TeX's \adjdemerits, since font
    /// expansion already evens the lines' texture (docs/markdown.md, "Composition"). Measured on
    /// Debian's documentation with ``hyphenPenalty``: the 95th-percentile word gap at 120 mm
    /// 1.42 → 1.38 times the natural space.
    static let justifiedAdjacentDemerits: Double = 5000
    /// A ragged paragraph's last line of one short word (``LineBreaker/Parameters/shortLastLineDemerits``,
    /// 15,000 in justified text, where the word the line before gives up loosens its spaces): in
    /// ragged text that only deepens the rag by a word, so a runt costs more than any line
    /// within the breaker's tolerance (a line short by twice its 2 em stretch costs about
    /// 660,000) and is set only where no such line gives it a word. Measured on Debian's Node.js
    /// contributor guides set ragged (164 to 194 paragraphs): runts 1, 7, 15 → 0, 1, 4 at 60,
    /// 90 and 120 mm; the lines' median shortfall 15.6 → 16.5 pt at 120 mm, the 95th
    /// percentile unchanged.
    static let raggedShortLastLineDemerits: Double = 1_000_000
    /// The cost of a break between two Hangul syllables inside a word of text set with
    /// ``HangulLineBreak/auto``
    /// (``syllableBreaks(_:runs:)``): two and a half hyphens', so that such a break is taken only where
    /// every break between words would leave a very loose line (its 90,000 demerits are a
    /// line's at about 1.4 times its stretch). Measured on Debian's Korean manual pages at 60
    /// and 90 mm: word gaps p95 1.71 and 1.66 times the natural space (3.63 and 2.74 with
    /// words kept whole), 58 and 10 words broken in 257 and 159 justified lines.
    static let syllableBreakPenalty: Double = 300
    /// The cost of a break between the parts of a file name, address or identifier, before a
    /// period (``partBreaks(_:allowed:)``): a hyphen's, as such a break parts a
    /// word as visibly as a hyphen does.
    static let partBreakPenalty: Double = hyphenPenalty
    /// The cost of a break after an explicit hyphen or a dash (TeX's \exhyphenpenalty = 50).
    static let explicitHyphenPenalty: Double = 50
    /// What one syllable gap offers the line breaker, em: less than the gap may take
    /// (``syllableQuiet``), so a line that needs inter-syllable spacing rates looser than one
    /// that does not, and the breaker prefers lines that need less of it.
    static let syllableStretch = 0.03

    /// Chooses the lines of `paragraph` at `width` pt from its prepared measurements.
    /// `hyphenate(word, language)` returns the hyphenation points of a lower-case word as
    /// scalar offsets (a hyphen may follow the first `k` scalars), from the language's patterns;
    /// `breakKerning(run, before, after, addsHyphen)` what a break between two scalars of run
    /// `run` changes in its line's width, pt (``ParagraphShaping/breakKerning(in:before:after:addsHyphen:)``).
    /// Once `cancellation` is raised it stops before or inside the line breaking and returns
    /// no lines.
    public static func compose(
        _ paragraph: StyledParagraph, prepared: PreparedParagraph, width: Double,
        limits: HyphenationLimits = HyphenationLimits(),
        hyphenate: (String, String) -> [Int],
        breakKerning: BreakKerning = { _, _, _, _ in 0 },
        cancellation: Cancellation? = nil
    ) -> Composition {
        let composition = composeAtMeasure(
            paragraph, prepared: prepared, width: width, limits: limits, hyphenate: hyphenate,
            breakKerning: breakKerning, cancellation: cancellation)
        guard paragraph.style.balancesLines, paragraph.style.alignment != .justify, composition.lines.count >= 2,
            composition.brokenWords.isEmpty
        else { return composition }
        // The narrowest measure, to a quarter point, that keeps the number of lines and breaks
        // no word (``ParagraphStyle/balancesLines``); its lines are placed in the full width.
        let count = composition.lines.count
        var best = composition
        var narrowest = width
        var low = width / 2
        var high = width
        while high - low > 0.25 {
            let middle = (low + high) / 2
            let trial = composeAtMeasure(
                paragraph, prepared: prepared, width: middle, limits: limits, hyphenate: hyphenate,
                breakKerning: breakKerning, cancellation: cancellation)
            if trial.lines.count == count, trial.brokenWords.isEmpty, !trial.emergency {
                best = trial
                narrowest = middle
                high = middle
            } else {
                low = middle
            }
        }
        let shift =
            switch paragraph.style.alignment {
            case .center: (width - narrowest) / 2
            case .right: width - narrowest
            case .left, .justify: 0.0
            }
        for index in best.lines.indices { best.lines[index].x += shift }
        return best
    }

    /// ``compose(_:prepared:width:limits:hyphenate:breakKerning:cancellation:)`` at one measure.
    static func composeAtMeasure(
        _ paragraph: StyledParagraph, prepared: PreparedParagraph, width: Double,
        limits: HyphenationLimits, hyphenate: (String, String) -> [Int], breakKerning: BreakKerning,
        cancellation: Cancellation?
    ) -> Composition {
        let original = prepared
        let prepared = uniformWordSpaces(paragraph, prepared: original)
        let (items, breaks) = itemsAndBreaks(
            paragraph, prepared: prepared, width: width, limits: limits, hyphenate: hyphenate,
            breakKerning: breakKerning, cancellation: cancellation)
        let cancelled = Composition(lines: [], emergency: false)
        if cancellation?.isCancelled == true { return cancelled }
        var parameters = LineBreaker.Parameters()
        // Two hyphenated lines in a row cost three times plain TeX's \doublehyphendemerits.
        parameters.doubleHyphenDemerits = 30000
        let justified = paragraph.style.alignment == .justify
        // The breaker counts font expansion as stretch and shrink (`makeItems`); past a line's
        // full stretch it rates the line by its word spaces alone.
        if justified {
            parameters.fontExpansion = paragraph.style.fontExpansion
            parameters.adjacentDemerits = justifiedAdjacentDemerits
        }
        if !justified {
            parameters.raggedStretch = 2 * paragraph.style.baseFont.size
            parameters.shortLastLineDemerits = raggedShortLastLineDemerits
        }
        var breaker = LineBreaker(parameters: parameters)
        breaker.cancellation = cancellation
        let result = breaker.breakLines(items, width: width)
        if result.lines.isEmpty { return cancelled }
        var lines = finalize(result, items: items, paragraph: paragraph, prepared: prepared, width: width)
        // A line holding inline code is never expanded, though the breaker counted on font
        // expansion beside the code's spaces: when such a line comes out wider than the measure,
        // the paragraph is broken again without expansion.
        if justified, paragraph.style.fontExpansion > 0, paragraph.runs.contains(where: \.style.isCode),
            zip(lines, result.lines).contains(where: { $0.width - $1.hang - $1.startHang > width + 0.5 })
        {
            var unexpanded = paragraph
            unexpanded.style.fontExpansion = 0
            return composeAtMeasure(
                unexpanded, prepared: original, width: width, limits: limits, hyphenate: hyphenate,
                breakKerning: breakKerning, cancellation: cancellation)
        }
        if prepared.advances != original.advances {
            let isCode = paragraph.runs.map(\.style.isCode)
            for index in lines.indices {
                lines[index].wordSpace = lineWordSpace(
                    prepared, original: original, isCode: isCode, start: lines[index].start, end: lines[index].end)
            }
        }
        let broken = brokenWords(
            lines, protrusions: result.lines.map { $0.hang + $0.startHang }, breaks: breaks,
            scalars: prepared.scalars, width: width)
        return Composition(lines: lines, emergency: result.emergency, brokenWords: broken)
    }

    /// The words that `lines` break inside where no break is allowed (between letters: an
    /// emergency break; at a hyphenation point found only because the word is wider than the
    /// measure), or leave wider than `width` when set (its spaces shrunk and its glyphs
    /// narrowed as justification sets them) by more than the line's characters may protrude
    /// into the margins (`protrusions`, pt, a line each: a dash or stop at a line's end stands
    /// out by design), in order, each once.
    static func brokenWords(
        _ lines: [ComposedLine], protrusions: [Double], breaks: Breaks, scalars: [Unicode.Scalar], width: Double
    ) -> [BrokenWord] {
        func isWordScalar(_ index: Int) -> Bool { !isWhitespace(scalars[index]) }
        var words: [BrokenWord] = []
        for (index, line) in lines.enumerated() {
            let end = line.end
            var treatment: BrokenWord.Treatment?
            let protrusion = index < protrusions.count ? protrusions[index] : 0
            // The width the line is set at: a justified line's spaces shrink and its glyphs may
            // narrow (font expansion), so its natural width may pass the measure while it fits.
            if line.width - protrusion > width + 0.5 {
                treatment = .overfull
            } else if index == lines.count - 1 || end <= 0 || end >= scalars.count {
                continue
            } else if line.ending == .hyphen, !breaks.forcedHyphen.isEmpty, breaks.forcedHyphen[end] {
                treatment = .hyphenated
            } else if line.ending == .opportunity, breaks.emergency[end], !breaks.allowed[end],
                !isWhitespace(scalars[end - 1])
            {
                treatment =
                    emergencyBreakCost(scalars, at: end) < Self.betweenLettersCost
                    ? .brokenBetweenParts : .brokenBetweenLetters
            }
            guard let treatment else { continue }
            // The word around the line's last character: the word found for a line before when
            // it runs on (a word broken over many lines is read once, not once a line).
            var start = min(max(end - 1, line.start), scalars.count - 1)
            guard start >= 0, isWordScalar(start) else { continue }
            if let last = words.indices.last, words[last].range.contains(start) {
                words[last].treatment = max(words[last].treatment, treatment)
                continue
            }
            while start > 0, isWordScalar(start - 1) { start -= 1 }
            var wordEnd = start
            while wordEnd < scalars.count, isWordScalar(wordEnd) { wordEnd += 1 }
            if let last = words.indices.last, words[last].range.lowerBound == start {
                words[last].treatment = max(words[last].treatment, treatment)
            } else {
                words.append(BrokenWord(range: start..<wordEnd, treatment: treatment))
            }
        }
        return words
    }

    /// The language whose hyphenation patterns hyphenate a word of a run in `language`: its
    /// own when there are patterns for it (`hasPatterns`), else English. Latin words in a
    /// language without patterns (Korean text quoting an English term) are hyphenated as
    /// English, the language of most Latin words in such text.
    public static func hyphenationLanguage(_ language: String, hasPatterns: (String) -> Bool) -> String {
        hasPatterns(language) ? language : "en"
    }

    // MARK: Character classes

    /// Letters of the right-to-left scripts (Unicode bidirectional classes R and AL): Hebrew,
    /// Arabic, Syriac, Thaana, N'Ko, Samaritan, Mandaic, their presentation forms, and the
    /// right-to-left blocks of the Supplementary Multilingual Plane (UAX #9).
    public static func isRightToLeft(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF: return true
        default: return false
        }
    }

    /// Han ideographs, Korean's Hanja: the unified ideographs and their extensions and the
    /// compatibility ideographs. A keep-all paragraph that sets Hangul keeps a word of them
    /// whole, as CSS's `word-break: keep-all` keeps every word of CJK letters (CSS Text 3 §5.2);
    /// Japanese and Chinese text breaks between them.
    public static func isHanja(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x3134F: return true
        default: return false
        }
    }

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
        return isWhitespace(s) && !isSeparator(s) && s != "\u{A0}" && s != "\u{202F}" && s != "\u{2007}"
    }

    /// The general category of `scalar` (Unicode's UnicodeData.txt), the same as
    /// `scalar.properties.generalCategory`: for ASCII, which most text is, read from a table
    /// made once from the property, since the composer asks it at every word's edges and the
    /// property's lookup takes a few hundred instructions.
    package static func generalCategory(of scalar: Unicode.Scalar) -> Unicode.GeneralCategory {
        scalar.value < 0x80 ? asciiCategories[Int(scalar.value)] : scalar.properties.generalCategory
    }

    private static let asciiCategories: [Unicode.GeneralCategory] = (0..<0x80).map {
        Unicode.Scalar(UInt8($0)).properties.generalCategory
    }

    /// Unicode's White_Space property (PropList.txt: 25 code points, unchanged since Unicode
    /// 6.3), read from the list rather than the property tables: the composer asks it of every
    /// scalar of every paragraph, Hangul and CJK included, where a table lookup cost a few
    /// percent of laying a long document out.
    static func isWhitespace(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }

    /// Latin letters that the hyphenation patterns cover.
    static func isLatinLetter(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x41...0x5A, 0x61...0x7A, 0xC0...0xD6, 0xD8...0xF6, 0xF8...0x24F: return true
        default: return false
        }
    }

    /// How far a character at a line's start (`left`) and end (`right`) protrudes into the
    /// margin, × its advance: microtype's default protrusion set (`microtype.cfg`,
    /// `\SetProtrusion [name = default]`, given there in thousandths of the character's width),
    /// which covers punctuation, dashes, quotes and the letters and figures whose shapes leave
    /// the edge open (A, T, V, W, Y, v, w, y and others). Unicode quotes, dashes and the soft
    /// hyphen take the values of their TeX counterparts (`\textquoteleft`, `\textendash`...).
    public static func protrusion(_ s: Unicode.Scalar) -> (left: Double, right: Double) {
        switch s {
        case "A", "T", "V", "W", "X", "Y", "v", "w", "x", "1", "4", "7", "@", "%": return (0.05, 0.05)
        case "F", "K", "L", "k", "r", "y": return (0, 0.05)
        case "J": return (0.05, 0)
        case ".": return (0, 0.7)
        case ",", ":": return (0, 0.5)
        case ";": return (0, 0.3)
        case "!", "?": return (0, 0.1)
        case "~": return (0.2, 0.25)
        case "*": return (0.2, 0.2)
        case "+": return (0.25, 0.25)
        case "(": return (0.1, 0)
        case ")": return (0, 0.2)
        case "/": return (0.1, 0.2)
        case "-", "\u{2010}", "\u{AD}": return (0.5, 0.5)
        case "\u{2013}": return (0.2, 0.2)
        case "\u{2014}": return (0.15, 0.15)
        case "\u{2018}", "\u{2019}", "'": return (0.3, 0.4)
        case "\u{201C}", "\u{201D}", "\"": return (0.3, 0.3)
        default: return (0, 0)
        }
    }
}
