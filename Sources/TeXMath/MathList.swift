/// The eight kinds of atom of TeX's math lists (The TeXbook, chapter 17 and Appendix G): the
/// class decides the space between neighbours (``MathSpacing``).
public enum MathClass: String, Hashable, Sendable, CaseIterable {
    /// An ordinary symbol: a letter, a digit, `\infty`.
    case ord
    /// A large operator: `\sum`, `\int`, `\lim`.
    case op
    /// A binary operation: `+`, `\times`.
    case bin
    /// A relation: `=`, `\le`, `\to`.
    case rel
    /// An opening delimiter: `(`, `\langle`.
    case open
    /// A closing delimiter: `)`, `\rangle`.
    case close
    /// Punctuation: `,`, `;`.
    case punct
    /// A delimited subformula: `\left( … \right)`, `\frac` inside `\left…\right`, `\cdots`.
    case inner
}

/// The four math styles of TeX (D, T, S, SS) and whether the style is cramped (superscripts
/// set lower, The TeXbook, chapter 17).
public struct MathStyle: Hashable, Sendable {
    /// The size level: display, text, script, scriptscript.
    public enum Level: Int, Hashable, Sendable, Comparable {
        /// D: a displayed formula's main level.
        case display
        /// T: an inline formula's main level.
        case text
        /// S: first-level scripts, fractions' parts in text style.
        case script
        /// SS: second-level scripts.
        case scriptScript

        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The size level.
    public var level: Level
    /// True in the cramped variant (D′, T′, S′, SS′).
    public var cramped: Bool

    /// Creates a style.
    public init(_ level: Level, cramped: Bool = false) {
        self.level = level
        self.cramped = cramped
    }

    /// Display style, uncramped: a formula set on its own line.
    public static let display = MathStyle(.display)
    /// Text style, uncramped: a formula in running text.
    public static let text = MathStyle(.text)

    /// The style of a superscript (The TeXbook, p. 141): D,T → S; S,SS → SS; crampedness kept.
    public var superscript: MathStyle {
        MathStyle(level <= .text ? .script : .scriptScript, cramped: cramped)
    }
    /// The style of a subscript: the superscript style, cramped.
    public var `subscript`: MathStyle { MathStyle(superscript.level, cramped: true) }
    /// The style of a fraction's numerator: D → T, T → S, S,SS → SS.
    public var numerator: MathStyle {
        MathStyle(level == .display ? .text : (level == .text ? .script : .scriptScript), cramped: cramped)
    }
    /// The style of a fraction's denominator: the numerator style, cramped.
    public var denominator: MathStyle { MathStyle(numerator.level, cramped: true) }
    /// The same level, cramped (radicands, accented bases, denominators).
    public var crampedStyle: MathStyle { MathStyle(level, cramped: true) }
    /// True for D and T, where the parenthesised spaces of TeX's spacing table apply.
    public var isLarge: Bool { level <= .text }
}

/// Where a large operator's scripts go (`\limits`, `\nolimits`, or by the style).
public enum LimitsPlacement: Hashable, Sendable {
    /// Above and below in display style, beside in the others (TeX's default for `\sum`).
    case automatic
    /// Always above and below (`\limits`).
    case above
    /// Always beside (`\nolimits`; `\int`'s default in LaTeX).
    case beside
}

/// The face of a `\text`-like command's argument, relative to the surrounding text's face.
public enum MathTextFace: Hashable, Sendable {
    /// The surrounding face (`\text`, `\textrm`, `\mbox`, `\textsf`, `\textup`, `\textnormal`).
    case regular
    /// Its italic (`\textit`, `\emph`, `\textsl`).
    case italic
    /// Its bold (`\textbf`).
    case bold
    /// The document's monospaced family (`\texttt`).
    case monospace
}

/// How `\phantom` and its kin change the box of their base (LaTeX's and amsmath's definitions):
/// which of its width, height and depth the box keeps, whether the base is drawn, and where a
/// base drawn in a box of no width stands.
public struct MathPhantom: Hashable, Sendable {
    /// Whether the base is drawn (`\smash`, `\mathrlap`) or only takes its room (`\phantom`).
    public var drawn: Bool
    /// Whether the box keeps the base's width (`\phantom`, `\hphantom`, `\smash`).
    public var keepsWidth: Bool
    /// Whether the box keeps the base's height (above the baseline).
    public var keepsHeight: Bool
    /// Whether the box keeps the base's depth (below the baseline).
    public var keepsDepth: Bool
    /// Where a drawn base stands when the box has no width: `.left` from the box rightwards
    /// (`\mathrlap`), `.right` ending at it (`\mathllap`), `.center` across it (`\mathclap`).
    public var overlap: MathColumnAlignment

    /// Creates a change of box.
    public init(
        drawn: Bool, keepsWidth: Bool = true, keepsHeight: Bool = true, keepsDepth: Bool = true,
        overlap: MathColumnAlignment = .left
    ) {
        self.drawn = drawn
        self.keepsWidth = keepsWidth
        self.keepsHeight = keepsHeight
        self.keepsDepth = keepsDepth
        self.overlap = overlap
    }
}

/// The strokes through a cancelled subformula.
public enum MathCancel: Hashable, Sendable {
    /// From the lower left to the upper right (`\cancel`, `\cancelto` with an arrowhead).
    case up
    /// From the upper left to the lower right (`\bcancel`).
    case down
    /// Both (`\xcancel`).
    case both
}

/// The frame and background of a boxed subformula (`\boxed`, `\fbox`, `\colorbox`,
/// `\fcolorbox`).
public struct MathFrame: Hashable, Sendable {
    /// Whether rules are drawn around it.
    public var ruled: Bool
    /// The colour name of the rules (`\fcolorbox`'s first argument); nil: the text's colour.
    public var ruleColor: String?
    /// The colour name of the background; nil: none.
    public var fill: String?

    /// Creates a frame: rules in the text's colour and no background by default.
    public init(ruled: Bool = true, ruleColor: String? = nil, fill: String? = nil) {
        self.ruled = ruled
        self.ruleColor = ruleColor
        self.fill = fill
    }
}

/// A delimiter of a `\left…\right` pair or a `\big` size: its character, or none (`.`).
public typealias MathDelimiter = String?

/// One atom: a class, a nucleus, optional scripts.
public struct MathAtom: Hashable, Sendable {
    /// The atom's class (spacing).
    public var mathClass: MathClass
    /// What the atom draws.
    public var nucleus: MathNucleus
    /// The superscript, nil: none.
    public var superscript: [MathNode]?
    /// The subscript, nil: none.
    public var `subscript`: [MathNode]?
    /// Where an operator's scripts go.
    public var limits: LimitsPlacement

    /// Creates an atom.
    public init(
        _ mathClass: MathClass, _ nucleus: MathNucleus, superscript: [MathNode]? = nil, subscript: [MathNode]? = nil,
        limits: LimitsPlacement = .automatic
    ) {
        self.mathClass = mathClass
        self.nucleus = nucleus
        self.superscript = superscript
        self.`subscript` = `subscript`
        self.limits = limits
    }

    /// Whether the atom draws primes alone (`f'`: U+2032, U+2033, U+2034), which stand for a
    /// superscript (The TeXbook ch. 16).
    var isPrimes: Bool {
        guard case .symbol(let text) = nucleus, !text.isEmpty else { return false }
        return text.unicodeScalars.allSatisfy { (0x2032...0x2034).contains($0.value) }
    }
}

/// The alignment of one column of a math array.
public enum MathColumnAlignment: Hashable, Sendable {
    /// Flush left.
    case left
    /// Centred.
    case center
    /// Flush right.
    case right
}

/// A rule across an array between two rows (`\hline`, `\cline{2-3}`).
public struct MathRowRule: Hashable, Sendable {
    /// The row boundary: 0 above the first row, n below the nth.
    public var boundary: Int
    /// The columns it spans, 1-based (`\cline{2-3}`); nil: the whole width (`\hline`).
    public var columns: ClosedRange<Int>?

    /// Creates a rule at `boundary` across `columns` (nil: all of them).
    public init(boundary: Int, columns: ClosedRange<Int>? = nil) {
        self.boundary = boundary
        self.columns = columns
    }
}

/// Where a ``MathArray``'s baseline is (amsmath's and LaTeX's position argument `[t]`, `[c]`,
/// `[b]`).
public enum MathArrayAnchor: Hashable, Sendable {
    /// Centred on the math axis (`[c]`, the default).
    case axis
    /// At the first row's baseline (`[t]`).
    case firstRow
    /// At the last row's baseline (`[b]`).
    case lastRow
}

/// A matrix or an alignment: rows of cells and how they are set.
public struct MathArray: Hashable, Sendable {
    /// The cells, row by row.
    public var rows: [[[MathNode]]]
    /// The alignment of each column; columns past the end repeat the pattern's last entry.
    public var alignments: [MathColumnAlignment]
    /// The space between two columns, em, by the index of the column it follows (the last entry
    /// repeats).
    public var columnGaps: [Double]
    /// The space added between rows, em (`\jot` in alignments).
    public var rowGap: Double
    /// The style the cells are set in: display in alignments, text in matrices and cases.
    public var cellStyle: MathStyle.Level
    /// Extra space after each row, em (`\\[2pt]`), by row.
    public var extraRowSpace: [Double]
    /// The factor on the rows' strut (LaTeX's `\arraystretch`: 1.2 in `cases`).
    public var stretch: Double = 1
    /// The alignment of each row's cells when it is not the column's (`multline`: the first
    /// row flush left, the last flush right); empty: the columns'.
    public var rowAlignments: [MathColumnAlignment] = []
    /// The column boundaries ruled by `|` in an `array`'s column spec: 0 before the first
    /// column, n after the nth.
    public var verticalRules: Set<Int> = []
    /// The row boundaries ruled by `\hline` (0 above the first row, n below the nth) and
    /// `\cline{a-b}` (its columns, 1-based as LaTeX counts them; nil: the whole width).
    public var horizontalRules: [MathRowRule] = []
    /// The rows of text between aligned rows (`\intertext{…}`), by index: one cell each, set
    /// flush left across the array, its width no column's.
    public var textRows: Set<Int> = []
    /// Where the array's baseline is: on the axis through its middle (TeX's `\vcenter`), or at
    /// its first or last row's baseline (`\begin{aligned}[t]`, `[b]`: TeX's `\vtop`, `\vbox`).
    public var anchor: MathArrayAnchor = .axis
    /// The space before the first column and after the last, em: LaTeX's `\arraycolsep` in an
    /// `array` (none where `@{…}` stands at the edge); nil: none, but for half a column's
    /// space inside a rule at that edge.
    public var spaceBefore: Double?
    public var spaceAfter: Double?

    /// Creates an array.
    public init(
        rows: [[[MathNode]]], alignments: [MathColumnAlignment], columnGaps: [Double], rowGap: Double = 0,
        cellStyle: MathStyle.Level = .text, extraRowSpace: [Double] = []
    ) {
        self.rows = rows
        self.alignments = alignments
        self.columnGaps = columnGaps
        self.rowGap = rowGap
        self.cellStyle = cellStyle
        self.extraRowSpace = extraRowSpace
    }
}

/// What an atom draws.
public indirect enum MathNucleus: Hashable, Sendable {
    /// One character (a letter already mapped to its math alphabet, a digit, a symbol).
    case symbol(String)
    /// A subformula in braces.
    case list([MathNode])
    /// Text set upright in the math font: operator names such as `sin`, `\operatorname{…}`.
    case text(String)
    /// Text set in the surrounding text's face (`\text{…}`, `\mbox`, `\textbf`…), as LaTeX sets
    /// the argument of `\text` in the current text font: letters the math font lacks (Hangul,
    /// CJK, accented Latin, emoji) are drawn, and spaces are kept.
    case prose(String, MathTextFace)
    /// A fraction; `rule` false for `\binom`'s stack; `style` forced by `\dfrac`/`\tfrac`;
    /// `left`/`right` delimiters around it (`\binom`'s parentheses).
    case fraction(
        numerator: [MathNode], denominator: [MathNode], rule: Bool, style: MathStyle.Level?, left: MathDelimiter,
        right: MathDelimiter)
    /// `\sqrt[degree]{radicand}`.
    case radical(degree: [MathNode]?, radicand: [MathNode])
    /// An accent over (or under, `bottom`) a base; `stretchy` accents grow to the base's width.
    case accent(String, base: [MathNode], stretchy: Bool, bottom: Bool)
    /// `\overline` (`over` true) or `\underline`: a rule over or under the base.
    case bar(over: Bool, base: [MathNode])
    /// `\boxed{…}`: the base in display style inside a ruled frame, as amsmath's `\boxed` sets
    /// it (`\fbox`, with LaTeX's `\fboxsep` 3 pt and `\fboxrule` 0.4 pt at 10 pt, here in em);
    /// `\colorbox` and `\fcolorbox` give it a background.
    case framed([MathNode], MathFrame)
    /// `\phantom{…}` and its kin: the base's box changed, the base drawn or not.
    case phantom([MathNode], MathPhantom)
    /// `\cancel{…}` and its kin (the `cancel` package): the base struck through, up to the
    /// right (`\cancel`), down to the right (`\bcancel`), or both (`\xcancel`); `\cancelto`'s
    /// value goes in the atom's superscript.
    case cancelled([MathNode], MathCancel)
    /// `\xrightarrow{…}` and its kin: an arrow stretched to hold the atom's limits (its
    /// superscript above, its subscript below), as amsmath's `\ext@arrow` makes it.
    case extensibleArrow(String)
    /// `\overbrace`/`\underbrace` and the like: a horizontal stretchy glyph over or under the
    /// base; a label goes in the atom's superscript or subscript, set as a limit.
    case brace(String, over: Bool, base: [MathNode])
    /// `\left … \middle … \right`: `delimiters` has one more entry than `parts`.
    case fenced(delimiters: [MathDelimiter], parts: [[MathNode]])
    /// `\big(` and its kin: a delimiter of a fixed size, 1 (`\big`) to 4 (`\Bigg`).
    case sizedDelimiter(String, size: Int)
    /// A matrix or an alignment, between delimiters (`pmatrix`'s parentheses).
    case array(MathArray, left: MathDelimiter, right: MathDelimiter)
    /// A subformula in a named colour (`\color{red}{…}`, `\textcolor`).
    case colored(String, [MathNode])
    /// Source the parser could not read, drawn as written in the error colour.
    case error(String)
}

/// One element of a math list.
public enum MathNode: Hashable, Sendable {
    /// An atom.
    case atom(MathAtom)
    /// Horizontal space in mu (1/18 em of the current style; `\,` is 3 mu); `fixed` spaces
    /// (`\quad`) are given in em of the text size instead.
    case space(Double, fixed: Bool)
    /// A change of style for the rest of the list (`\displaystyle`).
    case style(MathStyle.Level)
}

/// A colour a formula names (`\color{name}`), and the UTF-8 offset of its command in the
/// formula's source (``MathFormula/colorNames``).
public struct MathColorName: Hashable, Sendable {
    /// The colour's name as written, or `#RRGGBB` for one given in an xcolor model; empty for
    /// one that was no colour.
    public var name: String
    /// The UTF-8 offset of the command.
    public var offset: Int
}

/// A reference to a formula's label (`\eqref{key}`, `\ref{key}`): the key, where it is written
/// (a UTF-8 offset into the formula's source), and the tag it printed (nil: none was known).
public struct MathReference: Hashable, Sendable {
    /// The label's key.
    public var key: String
    /// The UTF-8 offset of the command in the formula's source.
    public var offset: Int
    /// The tag printed, as `\ref` prints it; nil: `??`.
    public var resolved: String?

    /// Creates a reference.
    public init(key: String, offset: Int, resolved: String?) {
        self.key = key
        self.offset = offset
        self.resolved = resolved
    }
}

/// A problem in TeX source: what is wrong and where, a UTF-8 offset into the formula's source.
public struct MathProblem: Hashable, Sendable {
    /// What is wrong, a sentence without a position.
    public var message: String
    /// The UTF-8 byte offset in the formula's source where the problem starts.
    public var offset: Int

    /// Creates a problem.
    public init(message: String, offset: Int) {
        self.message = message
        self.offset = offset
    }
}

/// A parsed formula: its math list, its `\tag`, and the problems met while reading it.
public struct MathFormula: Hashable, Sendable {
    /// The formula's math list.
    public var nodes: [MathNode]
    /// The label of `\tag{…}` as it is shown (with its parentheses unless `\tag*`); nil: none.
    public var tag: String?
    /// The problems met, in source order; the formula still draws (unknown commands as source).
    public var problems: [MathProblem]
    /// The TeX source the formula was read from.
    public var source = ""
    /// The UTF-8 offset in ``source`` where each node of ``nodes`` starts.
    public var nodeOffsets: [Int] = []
    /// The document's definitions (``MathMacro``) that the source's commands expanded, by name:
    /// the same source read with other definitions is another formula.
    public var usedMacros: [String: MathMacro] = [:]
    /// The labels this formula's `\label{…}` gives its `\tag`, by key: the tag as `\ref` prints
    /// it (`1` of `\tag{1}`).
    public var labels: [String: String] = [:]
    /// The `\eqref` and `\ref` keys the source names, in order, each with what it printed (nil:
    /// no label was known for it, `??` printed): the same source with other labels known is
    /// another formula.
    public var references: [MathReference] = []
    /// The colours `\color` and `\textcolor` name, each with the UTF-8 offset of its command,
    /// for a caller that knows the document's colours to warn of one it does not
    /// (``MathParser`` writes a colour given in a model, `[HTML]{FF8800}`, `[rgb]{1,0,0}`,
    /// as `#FF8800`).
    public var colorNames: [MathColorName] = []
    /// The label of each row of the formula's numbered multi-row environment (amsmath's
    /// `align`, `gather`, `alignat`, `flalign`, `eqnarray`: a number or `\tag` a row;
    /// `multline`: one, on its last row), by row of that environment's array, as shown (`(3)`,
    /// `(A)`, `A` of `\tag*{A}`); nil for a row with none (`\notag`, a starred environment's,
    /// `\intertext`). Empty when the formula has no such environment: its label, if any, is
    /// ``tag``, beside the formula.
    public var rowTags: [String?] = []
    /// How many of the document's automatic equation numbers the formula took
    /// (``MathParser/parse(_:display:macros:labels:budget:firstNumber:)``).
    public var automaticNumbers = 0

    /// Creates a formula.
    public init(nodes: [MathNode], tag: String? = nil, problems: [MathProblem] = []) {
        self.nodes = nodes
        self.tag = tag
        self.problems = problems
    }
}

extension MathFormula {
    /// The indices of the top-level nodes after which a line may break, as TeX allows: after a
    /// relation not followed by another, and after a binary operation (`\relpenalty`,
    /// `\binoppenalty`; The TeXbook, chapter 18), with the binary operations that rules 5 and 6
    /// of Appendix G make ordinary left out. Never inside braces or `\left…\right`, which are
    /// one node each, nor before punctuation or a closing delimiter (no line begins with `,`);
    /// none when the top level changes style.
    public var breakIndices: [Int] {
        var classes: [(index: Int, mathClass: MathClass)] = []
        for (index, node) in nodes.enumerated() {
            switch node {
            case .atom(let atom): classes.append((index, atom.mathClass))
            case .style: return []
            case .space: break
            }
        }
        for position in classes.indices {
            let previous = position > 0 ? classes[position - 1].mathClass : nil
            if classes[position].mathClass == .bin,
                previous == nil || [.bin, .op, .rel, .open, .punct].contains(previous!)
            {
                classes[position].mathClass = .ord
            }
            if [.rel, .close, .punct].contains(classes[position].mathClass), previous == .bin {
                classes[position - 1].mathClass = .ord
            }
        }
        var indices: [Int] = []
        for position in classes.indices.dropLast() {
            let current = classes[position].mathClass
            let next = classes[position + 1].mathClass
            // Never before punctuation or a closing delimiter: a line does not begin with `,` or `)`.
            guard next != .punct, next != .close else { continue }
            if current == .bin && next != .rel || current == .rel && next != .rel {
                indices.append(classes[position].index)
            }
        }
        return indices
    }

    /// The source of the nodes from `first` up to `end` (exclusive), spaces trimmed.
    public func source(ofNodes range: Range<Int>) -> String {
        guard nodeOffsets.count == nodes.count, !range.isEmpty else { return source }
        let utf8 = source.utf8
        let start = nodeOffsets[range.lowerBound]
        let end = range.upperBound < nodeOffsets.count ? nodeOffsets[range.upperBound] : utf8.count
        // The piece's bytes alone, read in place: a copy of the whole source for each piece
        // would take time quadratic in the pieces of a long formula.
        let piece =
            utf8.withContiguousStorageIfAvailable {
                String(decoding: UnsafeBufferPointer(rebasing: $0[start..<max(start, end)]), as: UTF8.self)
            } ?? String(decoding: Array(utf8)[start..<max(start, end)], as: UTF8.self)
        var trimmed = piece.trimmingSpaces
        // The last piece of the formula's own `equation` (whose nodes are its cell's, read
        // without the `\begin` before them) ends without the `\end` after them.
        if range.upperBound == nodes.count, start > 0 {
            for name in ["equation", "equation*", "displaymath"] where trimmed.hasSuffix("\\end{\(name)}") {
                trimmed = String(trimmed.dropLast(name.count + 6)).trimmingSpaces
            }
        }
        return trimmed
    }
}

extension MathFormula {
    /// What a font check of the formula reads, found in one walk: `prose`, the texts set in the
    /// surrounding text's face (``MathNucleus/prose(_:_:)``: `\text{…}`, `\mbox{…}`,
    /// `\textbf{…}`) and the formula's `\tag` label and its rows' labels last; `symbols`, the characters of its
    /// symbols, each once (a symbol the math font lacks is set in the text's face, see
    /// ``MathLayout/symbolBox(_:_:)``). The walk uses a stack of lists, no recursion, so each
    /// list's own texts come before those of the lists inside it (not quite source order).
    public var checkedTexts: (prose: [String], symbols: String) {
        var texts: [String] = []
        var symbols = ""
        var seen = Set<Character>()
        var pending: [[MathNode]] = [nodes]
        while let list = pending.popLast() {
            var inner: [[MathNode]] = []
            for node in list {
                guard case .atom(let atom) = node else { continue }
                switch atom.nucleus {
                case .prose(let text, _): texts.append(text)
                case .list(let nodes), .colored(_, let nodes), .framed(let nodes, _), .phantom(let nodes, _),
                    .cancelled(let nodes, _):
                    inner.append(nodes)
                case .fraction(let numerator, let denominator, _, _, _, _): inner += [numerator, denominator]
                case .radical(let degree, let radicand): inner += [degree ?? [], radicand]
                case .accent(_, let base, _, _), .bar(_, let base), .brace(_, _, let base): inner.append(base)
                case .fenced(_, let parts): inner += parts
                case .array(let array, _, _): inner += array.rows.flatMap { $0 }
                case .symbol(let text):
                    for character in text where seen.insert(character).inserted { symbols.append(character) }
                case .text, .sizedDelimiter, .error, .extensibleArrow: break
                }
                inner += [atom.superscript ?? [], atom.subscript ?? []]
            }
            // Last pushed, first read: the lists inside go on the stack in reverse, so they are
            // read in the order they are written.
            pending += inner.reversed()
        }
        return (texts + (tag.map { [$0] } ?? []) + rowTags.compactMap { $0 }, symbols)
    }
}

extension MathFormula {
    /// The formula as plain Unicode text, for where only text can go (a bookmark, the PDF's
    /// title): its symbols as drawn (`\alpha` α, `\le` ≤, `\mathbb{R}` ℝ), operator names and
    /// text as written, a fraction `a/b` (in parentheses when either part is more than one
    /// atom), a root `√x`, delimiters and accents' bases, and scripts in Unicode's superscript
    /// and subscript characters when each of their characters has one (`x²`, `aₙ₊₁`, `∑ᵢ₌₁ⁿ`),
    /// else after `^` and `_` (in parentheses when more than one atom, or when more follows:
    /// `e^(iπ)`). Rows of an array are apart by `; `.
    public var plainText: String { Self.plainText(nodes) }

    static func plainText(_ nodes: [MathNode]) -> String {
        var text = ""
        for (index, node) in nodes.enumerated() {
            guard case .atom(let atom) = node else {
                if case .space(let width, _) = node, width >= 1 { text += " " }
                continue
            }
            text += plainText(atom.nucleus)
            let last = index == nodes.count - 1
            for (mark, script) in [("_", atom.subscript), ("^", atom.superscript)] {
                guard let script, !script.isEmpty else { continue }
                let written = plainText(script)
                let characters = mark == "^" ? superscripts : subscripts
                if written.unicodeScalars.allSatisfy({ characters[$0] != nil }) {
                    text += String(String.UnicodeScalarView(written.unicodeScalars.map { characters[$0]! }))
                } else {
                    // Nothing after it: a lone atom needs no parentheses.
                    let followed = !last || mark == "_" && atom.superscript != nil
                    text += mark + (followed ? "(\(written))" : grouped(script))
                }
            }
        }
        return text
    }

    /// Unicode's superscript characters, by the character they raise.
    static let superscripts: [Unicode.Scalar: Unicode.Scalar] = scriptMap(
        from: "0123456789+-\u{2212}=()abcdefghijklmnoprstuvwxyzABDEGHIJKLMNOPRTUVW",
        to: "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻᴬᴮᴰᴱᴳᴴᴵᴶᴷᴸᴹᴺᴼᴾᴿᵀᵁⱽᵂ")
    /// Unicode's subscript characters, by the character they lower.
    static let subscripts: [Unicode.Scalar: Unicode.Scalar] = scriptMap(
        from: "0123456789+-\u{2212}=()aehijklmnoprstuvx", to: "₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ")

    private static func scriptMap(from: String, to: String) -> [Unicode.Scalar: Unicode.Scalar] {
        Dictionary(uniqueKeysWithValues: zip(from.unicodeScalars, to.unicodeScalars))
    }

    /// `text` with the letters of TeX's default math italic (``MathAlphabet/italic``: `𝑥`, `𝛼`)
    /// as the letters they are, so a bookmark reads `x`; other alphabets (`\mathbb{R}` ℝ) keep
    /// their letters.
    static func plainLetters(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { italicLetters[$0] ?? $0 }))
    }

    /// Each italic letter of ``MathAlphabet/italic``, by the letter it maps: Latin and Greek.
    private static let italicLetters: [Unicode.Scalar: Unicode.Scalar] = {
        var letters: [Unicode.Scalar: Unicode.Scalar] = [:]
        let ranges: [ClosedRange<UInt32>] = [0x41...0x5A, 0x61...0x7A, 0x391...0x3A9, 0x3B1...0x3C9]
        for value in ranges.joined() {
            guard let letter = Unicode.Scalar(value) else { continue }
            let italic = MathAlphabet.italic.map(letter)
            if italic != letter { letters[italic] = letter }
        }
        return letters
    }()

    /// `nodes` as text, in parentheses when more than one atom.
    static func grouped(_ nodes: [MathNode]) -> String {
        let atoms = nodes.filter { if case .atom = $0 { true } else { false } }
        let text = plainText(nodes)
        return atoms.count > 1 ? "(\(text))" : text
    }

    static func plainText(_ nucleus: MathNucleus) -> String {
        switch nucleus {
        case .symbol(let text): plainLetters(text)
        case .text(let text), .prose(let text, _): text
        case .error(let source): source
        case .list(let nodes), .colored(_, let nodes), .framed(let nodes, _), .cancelled(let nodes, _):
            plainText(nodes)
        case .phantom(let nodes, let phantom): phantom.drawn ? plainText(nodes) : ""
        case .extensibleArrow(let arrow): arrow
        case .fraction(let numerator, let denominator, let rule, _, let left, let right):
            (left ?? "") + grouped(numerator) + (rule ? "/" : " ") + grouped(denominator) + (right ?? "")
        case .radical(let degree, let radicand):
            (degree.map { "(" + plainText($0) + ")" } ?? "") + "√" + grouped(radicand)
        case .accent(_, let base, _, _), .bar(_, let base), .brace(_, _, let base): plainText(base)
        case .fenced(let delimiters, let parts):
            zip(delimiters, parts.map(plainText)).map { ($0 ?? "") + $1 }.joined()
                + (delimiters.last.flatMap { $0 } ?? "")
        case .sizedDelimiter(let delimiter, _): delimiter
        case .array(let array, let left, let right):
            (left ?? "") + array.rows.map { $0.map(plainText).joined(separator: " ") }.joined(separator: "; ")
                + (right ?? "")
        }
    }
}

extension MathFormula {
    /// The index in ``nodes`` of the array whose rows ``rowTags`` label: the top-level array
    /// with as many rows; nil when there is none.
    public var numberedArrayIndex: Int? {
        guard !rowTags.isEmpty else { return nil }
        return nodes.firstIndex { node in
            guard case .atom(let atom) = node, case .array(let array, _, _) = atom.nucleus else { return false }
            return array.rows.count == rowTags.count
        }
    }

    /// The formula with `em` more space after row `row` of its numbered array
    /// (``numberedArrayIndex``): room for a row's label set under it.
    public func spacingRow(_ row: Int, by em: Double) -> MathFormula {
        guard let index = numberedArrayIndex, case .atom(var atom) = nodes[index],
            case .array(var array, let left, let right) = atom.nucleus, array.rows.indices.contains(row)
        else { return self }
        if array.extraRowSpace.count < array.rows.count {
            array.extraRowSpace += Array(repeating: 0, count: array.rows.count - array.extraRowSpace.count)
        }
        array.extraRowSpace[row] += em
        atom.nucleus = .array(array, left: left, right: right)
        var spaced = self
        spaced.nodes[index] = .atom(atom)
        return spaced
    }
}

extension MathFormula {
    /// The commands of amsmath's numbering, which set nothing inside the formula: `\tag{…}`
    /// and `\tag*{…}` (their label is set, and read, as text beside the formula), `\notag`,
    /// `\nonumber` and `\label{…}`. The first and the last take an argument.
    static let numberingCommands: [String: Bool] = [
        "tag": true, "tag*": true, "label": true, "notag": false, "nonumber": false,
    ]

    /// `source` (TeX) without its numbering commands (``numberingCommands``) and the spaces
    /// before them: a formula's alternative text, which must not read its `\tag` beside the
    /// label that is drawn and read as text of its own (`E = mc^2 \tag{1}` reads `E = mc^2`).
    public static func removingNumbering(from source: String) -> String {
        guard source.utf8.contains(0x5C) else { return source }
        // Every numbering command begins `\t`, `\l` or `\n`: a source with none of those
        // pairs (most) is kept whole, trimmed, with no copy of its bytes.
        var previous: UInt8 = 0
        let mayNumber = source.utf8.contains { byte in
            defer { previous = byte }
            return previous == 0x5C && (byte == 0x74 || byte == 0x6C || byte == 0x6E)
        }
        guard mayNumber else { return source.trimmingSpaces }
        let bytes = Array(source.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
        var i = 0
        while i < bytes.count {
            guard bytes[i] == 0x5C, i + 1 < bytes.count else {
                out.append(bytes[i])
                i += 1
                continue
            }
            var end = i + 1
            while end < bytes.count, isLetter(bytes[end]) { end += 1 }
            var name = String(decoding: bytes[(i + 1)..<end], as: UTF8.self)
            if name == "tag", end < bytes.count, bytes[end] == 0x2A {
                name += "*"
                end += 1
            }
            guard let takesArgument = numberingCommands[name] else {
                // Another command, or an escaped character (`\\`, `\{`): kept whole.
                let last = max(end, i + 2)
                out += bytes[i..<last]
                i = last
                continue
            }
            if takesArgument {
                var j = end
                while j < bytes.count, bytes[j] == 0x20 || bytes[j] == 0x09 { j += 1 }
                if j < bytes.count, bytes[j] == 0x7B {
                    var depth = 0
                    while j < bytes.count {
                        if bytes[j] == 0x5C {
                            j += 2
                            continue
                        }
                        if bytes[j] == 0x7B { depth += 1 }
                        if bytes[j] == 0x7D {
                            depth -= 1
                            if depth == 0 {
                                j += 1
                                break
                            }
                        }
                        j += 1
                    }
                    end = min(j, bytes.count)
                }
            }
            while let last = out.last, last == 0x20 || last == 0x09 { out.removeLast() }
            i = end
        }
        return String(decoding: out, as: UTF8.self).trimmingSpaces
    }
}
