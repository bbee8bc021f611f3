import DocumentModel
import TeXMath
import Typography

/// A TeX formula set inside a line of text or displayed: its run's text is one U+FFFC OBJECT
/// REPLACEMENT CHARACTER that the shaper sizes to the formula's box and the renderer draws as
/// the formula's glyphs, on the baseline.
///
/// A formula of n pieces is n runs, each holding the whole formula: two are compared and hashed
/// by their settings and piece, never by the parsed nodes (which follow from ``source``), and
/// hashed by ``sourceDigest``, not by the source, so that setting such a formula takes time
/// linear in n, not n².
public struct InlineFormula: Hashable, Sendable {
    /// The TeX source as written (the PDF's `/Alt` and `/ActualText` of its `Formula`).
    public let source: String
    /// A digest of ``source`` (its `hashValue`, under this process's random hashing key), taken once:
    /// what hashing a formula and keying its layout read instead of the whole source.
    public let sourceDigest: Int
    /// True for a displayed formula (display style, its own centred line).
    public var display: Bool
    /// The parsed formula.
    public var formula: MathFormula
    /// The math font's family (an OpenType font with a MATH table).
    public var family: String
    /// The face `\text{…}` is set in: the surrounding run's families, weight and style (its
    /// size is the math style's, so scripts shrink it).
    public var textFont: FontSpec
    /// The families of `\texttt{…}`: the theme's monospaced families.
    public var monospaceFamilies: [String]
    /// Where the formula is written (after its opening `$` or `$$`); nil when it has no place
    /// in a source file.
    public var location: SourceLocation?
    /// The colour of source the parser could not read.
    public var errorColor: RGBAColor
    /// The theme's colours by name, for `\color{name}`.
    public var colors: [String: RGBAColor]
    /// Which piece of the formula this run draws: an inline formula is cut after its relations
    /// and binary operations (``MathFormula/breakIndices``) so that lines may break there.
    public var piece = 0
    /// The source of this run's piece: the `/Alt` of its `Formula` element (the whole source for
    /// a formula in one piece).
    public var alternativeText: String
    /// The nodes of ``formula`` this run's piece sets, when an inline formula is cut into
    /// pieces (nil: one piece): pieces that end up side by side on one line are read as one
    /// `Formula`, whose source is that of their nodes together.
    public var pieceNodes: Range<Int>?
    /// A displayed formula too wide for the measure even at ``smallestDisplayScale``, broken
    /// into lines after its relations and binary operations as an inline formula is: the
    /// indices of the pieces (``MathLayout/layoutPieces(_:style:)``) that begin its second and
    /// later lines. Its runs then draw a line each (``piece`` is the line), with a line
    /// separator between them. Empty: one line.
    public var displayLineStarts: [Int] = [] {
        didSet { displayLineStartsDigest = displayLineStarts.isEmpty ? 0 : displayLineStarts.hashValue }
    }
    /// A hash of ``displayLineStarts``, made once when they are set: each of a formula's
    /// thousands of lines is looked up by it, which hashing the starts anew made quadratic.
    public private(set) var displayLineStartsDigest = 0
    /// The factor on the text's size the formula is set at: below 1 for a displayed formula
    /// shrunk to fit the measure (down to ``smallestDisplayScale``).
    public var scale = 1.0
    /// A displayed formula with a `\tag`: the width of its box, pt (the measure less the
    /// label's width, so the label ends at the measure's right edge), and where its glyphs
    /// begin in that box, pt (centred in the measure). Nil: the box is the formula's own.
    public var taggedFrame: TaggedFrame?

    /// The box of a displayed formula whose label sits flush right (``taggedFrame``).
    public struct TaggedFrame: Hashable, Sendable {
        /// The box's width, pt.
        public var width: Double
        /// Where the formula's glyphs begin in the box, pt.
        public var inset: Double
        /// The label set under the formula, flush right in the box, when there is no room for it
        /// beside the formula (as amsmath moves an equation's tag to the line below); nil when
        /// the label is a run of its own beside the box.
        public var labelBelow: String?
        /// The labels of the rows of a formula numbered by row (``MathFormula/rowTags``), drawn
        /// in the box, each flush right at its edge on its row's baseline, or under its row
        /// when the row leaves it no room.
        public var rowLabels: [RowLabel]

        /// A box `width` pt wide whose glyphs begin `inset` pt from its left, with `labelBelow`
        /// under the formula and `rowLabels` beside or under its rows.
        public init(width: Double, inset: Double, labelBelow: String? = nil, rowLabels: [RowLabel] = []) {
            self.width = width
            self.inset = inset
            self.labelBelow = labelBelow
            self.rowLabels = rowLabels
        }

        /// The label of one row of a formula numbered by row.
        public struct RowLabel: Hashable, Sendable {
            /// The row's index in the formula's numbered array.
            public var row: Int
            /// The label as shown (`(3)`).
            public var text: String
            /// Whether the label goes on a line of its own under the row, flush right (as
            /// amsmath moves a tag the row leaves no room for), rather than on its baseline.
            public var below: Bool

            /// The label `text` of row `row`, `below` it or beside it.
            public init(row: Int, text: String, below: Bool) {
                self.row = row
                self.text = text
                self.below = below
            }
        }
    }

    /// How far a displayed formula wider than the measure is shrunk before it is broken into
    /// lines (``displayLineStarts``): 80 % of the text's size.
    public static let smallestDisplayScale = 0.8

    /// The smallest factor on the text's size a formula with no place to break
    /// (``MathFormula/breakIndices``), shrunk to fit the measure, is legible at: a quarter of
    /// it. One shrunk further still fits (every glyph on the page, its text read), and is
    /// warned of as too small to read.
    public static let smallestLegibleScale = 0.25

    /// Creates a formula run's content; `\text` is set in `textFont` (default: the default
    /// sans-serif family) and `\texttt` in `monospaceFamilies`.
    public init(
        source: String, display: Bool, formula: MathFormula, family: String, errorColor: RGBAColor,
        colors: [String: RGBAColor], textFont: FontSpec = FontSpec(families: ["sans-serif"], size: 10),
        monospaceFamilies: [String] = ["monospace"]
    ) {
        self.source = source
        // A source read with the document's definitions (`\newcommand`) is another formula
        // when they differ, and so is one whose rows take other numbers: they are part of its
        // digest.
        sourceDigest =
            formula.usedMacros.isEmpty && formula.references.isEmpty && formula.rowTags.isEmpty
            ? source.hashValue : Self.digest(source, formula.usedMacros, formula.references, formula.rowTags)
        self.display = display
        self.formula = formula
        self.family = family
        self.textFont = textFont
        self.monospaceFamilies = monospaceFamilies
        self.errorColor = errorColor
        self.colors = colors
        alternativeText = source
    }

    /// Whether two formula runs are set alike: the same piece of the same source, its rows
    /// numbered alike, with the same settings. The cheap settings are compared first; the
    /// parsed nodes are not compared, being parsed from the source.
    public static func == (left: InlineFormula, right: InlineFormula) -> Bool {
        left.piece == right.piece && left.display == right.display && left.scale == right.scale
            && left.sourceDigest == right.sourceDigest && left.location == right.location
            && left.displayLineStartsDigest == right.displayLineStartsDigest
            && left.displayLineStarts == right.displayLineStarts && left.taggedFrame == right.taggedFrame
            && left.alternativeText == right.alternativeText && left.family == right.family
            && left.textFont == right.textFont && left.monospaceFamilies == right.monospaceFamilies
            && left.errorColor == right.errorColor && left.colors == right.colors && left.source == right.source
            && left.formula.usedMacros == right.formula.usedMacros
            && left.formula.references == right.formula.references && left.formula.rowTags == right.formula.rowTags
    }

    private static func digest(
        _ source: String, _ macros: [String: MathMacro], _ references: [MathReference], _ rowTags: [String?]
    ) -> Int {
        var hasher = Hasher()
        hasher.combine(source)
        hasher.combine(macros)
        hasher.combine(references)
        hasher.combine(rowTags)
        return hasher.finalize()
    }

    /// Hashes the cheap settings and the source's digest, not the texts themselves: each of a
    /// long formula's pieces is hashed, and hashing its whole text each time was quadratic.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(piece)
        hasher.combine(display)
        hasher.combine(sourceDigest)
        hasher.combine(location)
        hasher.combine(alternativeText.utf8.count)
    }

    /// The math family when the theme names none (`families.math`): DejaVu Math TeX Gyre
    /// (Debian's fonts-dejavu-extra), whose large x-height and even stroke sit beside a sans
    /// body face such as Inter better than the high-contrast Latin Modern Math.
    public static let defaultFamily = "DejaVu Math TeX Gyre"
}

extension Styler {
    /// The runs of a formula, warning about each problem of its source at its place: one run
    /// for a displayed formula, one for each piece of an inline formula
    /// (``InlineFormula/piece``).
    mutating func formulaRuns(
        _ source: String, display: Bool, location: SourceLocation?, sourceStart: SourceLocation? = nil,
        cascade: Cascade
    ) -> [StyledRun] {
        let formula = MathParser.parse(
            source, display: display, macros: &mathMacros, labels: mathLabels, budget: &mathExpansionBudget,
            firstNumber: equationNumbers + 1)
        equationNumbers += formula.automaticNumbers
        // Found once, for the problems and unanswered references a formula may have by the thousand.
        let lineStarts =
            formula.problems.isEmpty && formula.references.allSatisfy({ $0.resolved != nil })
            ? [] : Self.lineStarts(of: source)
        for problem in formula.problems {
            warn(
                problem.message,
                Self.place(
                    of: problem, in: source, lineStarts: lineStarts, display: display, formula: location,
                    sourceStart: sourceStart))
        }
        for named in formula.colorNames where !named.name.isEmpty && !knowsColor(named.name) {
            warn(
                "'\(named.name)' names no colour (the theme's colours, CSS colour names, #RRGGBB, or xcolor's "
                    + "[HTML], [rgb], [RGB] and [gray] models); the formula keeps the text's colour",
                Self.place(
                    of: MathProblem(message: "", offset: named.offset), in: source,
                    lineStarts: lineStarts.isEmpty ? Self.lineStarts(of: source) : lineStarts, display: display,
                    formula: location, sourceStart: sourceStart))
        }
        for key in formula.labels.keys.sorted() where !labelsGiven.insert(key).inserted {
            warn(
                "\\label{\(key)} is given to a second formula: references print the last one's tag (LaTeX's \"multiply "
                    + "defined\")", location)
        }
        mathLabels.merge(formula.labels) { _, new in new }
        for reference in formula.references where reference.resolved == nil {
            let place = Self.place(
                of: MathProblem(message: "", offset: reference.offset), in: source, lineStarts: lineStarts,
                display: display, formula: location, sourceStart: sourceStart)
            unansweredMathReferences.append((reference.key, place))
        }
        // The formula's appearance is its own (``AppearanceTable`` hands it back unheld): its
        // settings are made once and boxed once a piece.
        var values = cascade.appearanceValues
        values.background = nil
        values.underline = nil
        values.strikethrough = nil
        var content = InlineFormula(
            source: source, display: display, formula: formula,
            family: theme.families["math"]?.first ?? InlineFormula.defaultFamily,
            errorColor: theme.colors["error"] ?? RGBAColor(red: 0.8, green: 0, blue: 0),
            colors: theme.colors, textFont: values.font, monospaceFamilies: theme.monospaceFamilies)
        content.location = location
        let cuts = display ? [] : formula.breakIndices.map { $0 + 1 }
        let bounds = [0] + cuts + [formula.nodes.count]
        return (0..<(bounds.count - 1)).map { piece in
            content.piece = piece
            content.pieceNodes = cuts.isEmpty ? nil : bounds[piece]..<bounds[piece + 1]
            // The alternative text leaves out `\tag{…}`: its label is a text run of its own.
            content.alternativeText = MathFormula.removingNumbering(
                from: cuts.isEmpty ? source : formula.source(ofNodes: bounds[piece]..<bounds[piece + 1]))
            // A formula that is only a reference (`\eqref{key}`) reads as what it prints.
            if formula.nodes.count == 1, formula.references.count == 1 { content.alternativeText = formula.plainText }
            values.inlineFormula = content
            return StyledRun("\u{FFFC}", style: RunStyle(appearance: RunAppearance(values), link: cascade.link))
        }
    }

    /// Whether a formula's `\color` can name `name`: one of the theme's colours, a CSS colour
    /// name, or `#RGB` / `#RRGGBB`.
    func knowsColor(_ name: String) -> Bool {
        theme.colors[name] != nil || CSSColors.color(named: name) != nil
            || (name.hasPrefix("#") && RGBAColor(hex: name) != nil)
    }

    /// Where `problem` is in the document: its offset into the formula's `source` counted from
    /// where the source begins, `sourceStart` (after `$$` and the spaces and line breaks after
    /// it; a fenced formula's first line after the fence), or when that is not known just after
    /// the formula's delimiter at `formula` (`$`, or `$$` when `display`).
    /// `lineStarts` is `source`'s ``lineStarts(of:)``: a place is found in time logarithmic in the
    /// source's lines, not linear in its length, so the problems of a long formula are placed in
    /// time linear in their number.
    static func place(
        of problem: MathProblem, in source: String, lineStarts: [Int], display: Bool, formula: SourceLocation?,
        sourceStart: SourceLocation? = nil
    ) -> SourceLocation? {
        guard
            var place = sourceStart
                ?? formula.map({
                    SourceLocation(file: $0.file, line: $0.line, column: $0.column + (display ? 2 : 1))
                })
        else { return nil }
        let offset = min(max(problem.offset, 0), source.utf8.count)
        // The lines begun at or before `offset`: the first start past it, found by halving.
        var low = 0
        var high = lineStarts.count
        while low < high {
            let middle = (low + high) / 2
            if lineStarts[middle] <= offset { low = middle + 1 } else { high = middle }
        }
        let lines = low
        let column = offset - (lines > 0 ? lineStarts[lines - 1] : 0)
        place.line += lines
        place.column = lines > 0 ? column + 1 : place.column + column
        return place
    }

    /// The UTF-8 offsets in `source` at which its second and later lines begin (just after each
    /// line feed), increasing.
    static func lineStarts(of source: String) -> [Int] {
        var starts: [Int] = []
        for (offset, byte) in source.utf8.enumerated() where byte == 0x0A { starts.append(offset + 1) }
        return starts
    }

    /// `inlines` cut at each displayed formula: the runs of text between them, and each formula
    /// alone; nil when there is no displayed formula.
    static func displayMathSegments(_ inlines: [Inline]) -> [(inlines: [Inline], display: Bool)]? {
        guard inlines.contains(where: { if case .math(_, true, _, _) = $0 { true } else { false } }) else { return nil }
        var segments: [(inlines: [Inline], display: Bool)] = []
        var current: [Inline] = []
        func flush() {
            let meaningful = current.contains {
                switch $0 {
                case .softBreak, .lineBreak: false
                case .text(let text): !text.allSatisfy(\.isWhitespace)
                default: true
                }
            }
            if meaningful { segments.append((current, false)) }
            current = []
        }
        for inline in inlines {
            if case .math(_, true, _, _) = inline {
                flush()
                segments.append(([inline], true))
            } else {
                current.append(inline)
            }
        }
        flush()
        return segments
    }
}
