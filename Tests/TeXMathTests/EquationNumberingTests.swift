import Testing

@testable import TeXMath

/// amsmath's equation numbering as the parser reads it: numbered environments take the
/// document's next numbers (an `equation` one, an `align` one a row), `\notag` and starred
/// environments none, a `\tag` stands in for a number without taking it, and a `\label` names
/// its row's number; and where a laid-out alignment's rows stand, for their labels.
@Suite struct EquationNumberingTests {
    /// `source` read as a displayed formula of a document whose next equation number is `first`.
    static func parse(_ source: String, first: Int? = 1) -> MathFormula {
        var macros: [String: MathMacro] = [:]
        var budget = MathExpansionBudget()
        return MathParser.parse(source, macros: &macros, budget: &budget, firstNumber: first)
    }

    /// An `equation`, `equation*` or `displaymath` that is the whole formula breaks after its
    /// relations and operators as `$$…$$` does, its number kept; inside braces, or with rows,
    /// it stays one piece that cannot break.
    @Test func anEquationBreaksAsADisplayDoes() {
        for source in [
            #"\begin{equation} a + b = c \label{e} \end{equation}"#, #"\begin{equation*} a + b = c \end{equation*}"#,
            #"\begin{displaymath} a + b = c \end{displaymath}"#,
        ] {
            let formula = Self.parse(source)
            #expect(formula.breakIndices == [1, 3], "\(source)")
            #expect(formula.tag == (source.contains("{equation}") ? "(1)" : nil), "\(source)")
        }
        #expect(Self.parse(#"{\begin{equation*} a + b \end{equation*}}"#).breakIndices.isEmpty)
        #expect(
            Self.parse(#"\begin{equation*} \begin{split} a &= b \\ &= c \end{split} \end{equation*}"#).breakIndices
                .isEmpty)
    }

    /// `\intertext` ends the row before it whether a `\\` is written before it or not, as
    /// amsmath's does: the rows after it are numbered, with no warning.
    @Test(arguments: [#"\\"#, ""])
    func interTextEndsItsRow(_ separator: String) {
        let formula = Self.parse(
            #"\begin{align} x &= 1 \label{b1} \\ y &= 2 \label{b2} "# + separator
                + #" \intertext{and so} z &= 3 \label{b3} \end{align}"#)
        #expect(formula.problems.isEmpty, "\(formula.problems)")
        #expect(formula.labels == ["b1": "1", "b2": "2", "b3": "3"], "\(formula.labels)")
        #expect(formula.rowTags.compactMap { $0 } == ["(1)", "(2)", "(3)"], "\(formula.rowTags)")
    }

    @Test func anEquationTakesTheNextNumberAndItsLabelNamesIt() {
        let formula = Self.parse(#"\begin{equation} E = mc^2 \label{e} \end{equation}"#, first: 4)
        #expect(formula.tag == "(4)", "\(String(describing: formula.tag))")
        #expect(formula.automaticNumbers == 1 && formula.rowTags.isEmpty)
        #expect(formula.labels == ["e": "4"], "\(formula.labels)")
        // A `split` inside takes no number of its own: the equation's one stands beside it.
        let split = Self.parse(#"\begin{equation} \begin{split} a &= b \\ &= c \end{split} \end{equation}"#)
        #expect(split.tag == "(1)" && split.rowTags.isEmpty && split.automaticNumbers == 1)
        // Its `\tag` stands in for the number, which it does not take.
        let tagged = Self.parse(#"\begin{equation} x \tag{$\ast$} \label{s} \end{equation}"#)
        #expect(tagged.tag == "(∗)" && tagged.automaticNumbers == 0 && tagged.labels == ["s": "∗"])
        #expect(Self.parse(#"\begin{equation} x \notag \end{equation}"#).tag == nil)
    }

    @Test func starredEnvironmentsAndPlainDisplaysAreNotNumbered() {
        let sources = [
            #"\begin{equation*} x \end{equation*}"#, "x = y", #"a &= b \\ c &= d"#,
            #"\begin{align*} a &= b \\ c &= d \end{align*}"#, #"\begin{gather*} a \\ b \end{gather*}"#,
            #"\begin{multline*} a \\ b \end{multline*}"#, #"\begin{aligned} a &= b \\ c &= d \end{aligned}"#,
            #"\begin{displaymath} x \end{displaymath}"#,
        ]
        for source in sources {
            let formula = Self.parse(source)
            #expect(formula.tag == nil && formula.rowTags.isEmpty && formula.automaticNumbers == 0, "\(source)")
        }
        // A `\tag` in a starred environment's row still labels that row.
        let tagged = Self.parse(#"\begin{align*} a &= b \\ c &= d \tag*{B} \label{b} \end{align*}"#)
        #expect(tagged.rowTags == [nil, "B"] && tagged.labels == ["b": "B"] && tagged.automaticNumbers == 0)
    }

    @Test func eachRowOfAnAlignTakesItsOwnNumber() {
        let formula = Self.parse(
            #"""
            \begin{align}
            a &= b \label{first} \\
            c &= d \notag \\
            e &= f \tag{A} \label{tagged} \\
            g &= h \nonumber \\
            i &= j \label{last} \\
            \end{align}
            """#, first: 3)
        #expect(formula.rowTags == ["(3)", nil, "(A)", nil, "(4)"], "\(formula.rowTags)")
        #expect(formula.automaticNumbers == 2)
        #expect(formula.labels == ["first": "3", "tagged": "A", "last": "4"], "\(formula.labels)")
        #expect(formula.tag == nil && formula.problems.isEmpty, "\(formula.problems)")
        #expect(formula.numberedArrayIndex == 0)
        for name in ["gather", "alignat", "flalign", "eqnarray"] {
            let spec = name == "alignat" ? "{1}" : ""
            let rows = Self.parse(#"\begin{\#(name)}\#(spec) a &= b \\ c &= d \end{\#(name)}"#, first: 7)
            #expect(rows.rowTags == ["(7)", "(8)"] && rows.automaticNumbers == 2, "\(name): \(rows.rowTags)")
        }
    }

    @Test func aMultlineTakesOneNumberOnItsLastRow() {
        let formula = Self.parse(#"\begin{multline} a + b \\ + c \\ + d \label{m} \end{multline}"#, first: 2)
        #expect(formula.rowTags == [nil, nil, "(2)"] && formula.tag == nil, "\(formula.rowTags)")
        #expect(formula.labels == ["m": "2"] && formula.automaticNumbers == 1)
    }

    /// `\intertext` rows take no number, and the rows around it keep theirs.
    @Test func textBetweenRowsTakesNoNumber() {
        let formula = Self.parse(#"\begin{align} a &= b \\ \intertext{so} c &= d \end{align}"#)
        #expect(formula.rowTags == ["(1)", nil, "(2)"], "\(formula.rowTags)")
    }

    /// A second `\tag` in one row is said, at its place, naming the row; the next row keeps its own.
    @Test func aRowTakesOneTag() {
        let formula = Self.parse(#"\begin{align} a \tag{1} \tag{2} \\ b \tag{3} \end{align}"#)
        #expect(formula.rowTags == ["(1)", "(3)"], "\(formula.rowTags)")
        #expect(formula.problems.map(\.message) == [#"a row takes one \tag: '(2)' is not set beside '(1)'"#])
    }

    /// Only the formula's top level numbers: an environment inside braces or inside another
    /// numbered one takes no number, and a document that does not number (no first number)
    /// labels rows by their `\tag` alone.
    @Test func onlyTheTopLevelNumbers() {
        #expect(Self.parse(#"x = {\begin{gather} a \\ b \end{gather}}"#).rowTags.isEmpty)
        let nested = Self.parse(#"\begin{equation} \begin{gather} a \\ b \end{gather} \end{equation}"#)
        #expect(nested.tag == "(1)" && nested.automaticNumbers == 1)
        let unnumbered = Self.parse(#"\begin{align} a \\ b \tag{B} \end{align}"#, first: nil)
        #expect(unnumbered.rowTags == [nil, "(B)"] && unnumbered.automaticNumbers == 0)
        #expect(Self.parse(#"\begin{equation} x \end{equation}"#, first: nil).tag == nil)
        // An inline formula numbers nothing.
        var macros: [String: MathMacro] = [:]
        var budget = MathExpansionBudget()
        let inline = MathParser.parse(
            #"\begin{equation} x \end{equation}"#, display: false, macros: &macros, budget: &budget, firstNumber: 1)
        #expect(inline.tag == nil && inline.automaticNumbers == 0)
    }

    /// A laid-out alignment knows where its rows stand: each row's baseline one row's height,
    /// depth and `\jot` below the last, and where its cells end; room asked after a row
    /// (``MathFormula/spacingRow(_:by:)``) moves the rows after it down by that much.
    @Test func anAlignmentsRowsAreKnownInItsBox() throws {
        let layout = MathLayout(font: FixedMathFont(), size: 10)
        let formula = Self.parse(#"\begin{align} x &= y \\ xx &= y \\ x &= yyy \end{align}"#)
        let rows = layout.layout(formula, style: .display).rows
        try #require(rows.count == 3)
        // Rows 8.4 pt high (the strut), 3.6 pt deep, 3 pt of `\jot` between them.
        #expect(abs((rows[0].baseline - rows[1].baseline) - 15) < 1e-6, "\(rows)")
        #expect(abs((rows[1].baseline - rows[2].baseline) - 15) < 1e-6, "\(rows)")
        #expect(rows[2].end > rows[0].end + 9, "\(rows)")
        let spaced = layout.layout(formula.spacingRow(0, by: 2), style: .display).rows
        #expect(abs((spaced[0].baseline - spaced[1].baseline) - 35) < 1e-6, "\(spaced)")
        #expect(abs((spaced[1].baseline - spaced[2].baseline) - 15) < 1e-6, "\(spaced)")
    }
}
