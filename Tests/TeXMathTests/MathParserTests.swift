import Testing

@testable import TeXMath

/// The TeX reader: classes, scripts, structures, alphabets, and unknown input kept as source.
@Suite struct MathParserTests {
    /// The atoms of a formula's top level.
    static func atoms(_ source: String) -> [MathAtom] {
        MathParser.parse(source).nodes.compactMap { if case .atom(let atom) = $0 { atom } else { nil } }
    }

    @Test func charactersTakeTeXsClasses() {
        let classes = Self.atoms("a+b=c,(d)").map(\.mathClass)
        #expect(classes == [.ord, .bin, .ord, .rel, .ord, .punct, .open, .ord, .close])
    }

    /// amsmath's `\dots` is centred before a binary operation or relation (`\dotsb`) and on the
    /// baseline before anything else (`\dotsc`, `\dotso`), as amsmath and MathJax choose it.
    @Test(arguments: [
        (#"x_1+\dots+x_n"#, "\u{22EF}"), (#"a \cdot \dots \cdot b"#, "\u{22EF}"), (#"A \cup \dots \cup B"#, "\u{22EF}"),
        (#"x = \dots = y"#, "\u{22EF}"), (#"x_1, \dots, x_n"#, "\u{2026}"), (#"f(\dots)"#, "\u{2026}"),
        (#"\dots"#, "\u{2026}"),
    ])
    func dotsAreCentredBeforeAnOperator(_ source: String, _ dots: String) {
        #expect(Self.atoms(source).contains { $0.nucleus == .symbol(dots) }, "\(source): \(Self.atoms(source))")
    }

    /// amsmath's `\mod{n}` is spaced as `\pmod` is, without its parentheses (12 mu before it
    /// inline, 18 mu in a display); `\mathop`'s limits go above and below in a display;
    /// `\cfrac[l]` reads its option, not a fraction of `[` over `l`.
    @Test func modMathopAndCfracReadAsAmsmathDoes() {
        let mod = MathParser.parse(#"a \equiv b \mod{n}"#).nodes
        let text = mod.firstIndex { if case .atom(let atom) = $0, atom.nucleus == .text("mod") { true } else { false } }
        #expect(
            text.map { index in if case .space(_, true) = mod[index - 1] { true } else { false } } == true, "\(mod)")
        let op = Self.atoms(#"\mathop{X}_a^b"#)
        #expect(op.first?.mathClass == .op && op.first?.limits == .automatic)
        let fraction = MathParser.parse(#"\cfrac[l]{1}{x}"#)
        #expect(fraction.problems.isEmpty && fraction.nodes.count == 1 && !fraction.plainText.contains("["))
    }

    /// `\boldsymbol`, `\bm` and `\pmb` set digits bold (the all-ones vector `\boldsymbol{1}`),
    /// digits having no bold italic forms, and letters bold italic.
    @Test(arguments: [#"\boldsymbol{10x}"#, #"\bm{10x}"#, #"\pmb{10x}"#])
    func boldSymbolsSetDigitsBold(_ source: String) {
        let text = MathFormula.plainText(MathParser.parse(source).nodes)
        #expect(text.unicodeScalars.map(\.value) == [0x1D7CF, 0x1D7CE, 0x1D499], "\(source): \(text)")
    }

    @Test func symbolCommandsComeFromUnicodeMathsTable() {
        let atoms = Self.atoms(#"\alpha \le \sum \infty \to \langle"#)
        #expect(atoms.map(\.mathClass) == [.ord, .rel, .op, .ord, .rel, .open])
        #expect(atoms[0].nucleus == .symbol("𝛼"))  // lowercase Greek italic, as TeX sets it
        #expect(atoms[1].nucleus == .symbol("≤"))
        #expect(atoms[4].nucleus == .symbol("→"))
    }

    @Test func lettersAreItalicAndAlphabetsMapToMathAlphanumerics() {
        #expect(Self.atoms("x")[0].nucleus == .symbol("𝑥"))
        #expect(Self.atoms("h")[0].nucleus == .symbol("ℎ"))  // the Letterlike hole of italic h
        let groups: [(String, String)] = [
            (#"\mathbb{R}"#, "ℝ"), (#"\mathbf{v}"#, "𝐯"), (#"\mathcal{L}"#, "ℒ"), (#"\mathfrak{g}"#, "𝔤"),
            (#"\mathrm{d}"#, "d"), (#"\mathsf{A}"#, "𝖠"), (#"\mathtt{x}"#, "𝚡"), (#"\mathbb{1}"#, "𝟙"),
        ]
        // One letter is a character atom, as unicode-math's `\symbb{R}` is.
        for (source, expected) in groups {
            #expect(Self.atoms(source)[0].nucleus == .symbol(expected), "\(source)")
        }
        guard case .list(let letters) = Self.atoms(#"\mathbf{ab}"#)[0].nucleus else {
            Issue.record("several letters are no group")
            return
        }
        #expect(letters == [.atom(MathAtom(.ord, .symbol("𝐚"))), .atom(MathAtom(.ord, .symbol("𝐛")))])
    }

    @Test func scriptsAttachToTheAtomBefore() {
        let atom = Self.atoms("x_i^2")[0]
        #expect(atom.subscript?.count == 1)
        #expect(atom.superscript?.count == 1)
        let limits = Self.atoms(#"\int\limits_0^1"#)[0]
        #expect(limits.limits == .above)
        #expect(Self.atoms(#"\int_0^1"#)[0].limits == .beside)
        #expect(Self.atoms(#"\lim_{x\to0}"#)[0].limits == .automatic)
    }

    @Test func structures() {
        guard case .fraction(_, _, let rule, let style, _, _) = Self.atoms(#"\dfrac{a}{b}"#)[0].nucleus else {
            Issue.record("no fraction")
            return
        }
        #expect(rule && style == .display)
        guard case .fraction(_, _, false, nil, "(", ")") = Self.atoms(#"\binom{n}{k}"#)[0].nucleus else {
            Issue.record("no binomial")
            return
        }
        guard case .radical(let degree?, _) = Self.atoms(#"\sqrt[3]{x}"#)[0].nucleus else {
            Issue.record("no radical with a degree")
            return
        }
        #expect(degree.count == 1)
        guard case .fenced(let delimiters, let parts) = Self.atoms(#"\left( a \middle| b \right\}"#)[0].nucleus else {
            Issue.record("no fence")
            return
        }
        #expect(delimiters == ["(", "|", "}"])
        #expect(parts.count == 2)
        guard
            case .array(let array, "(", ")") = Self.atoms(#"\begin{pmatrix} a & b \\ c & d \end{pmatrix}"#)[0]
                .nucleus
        else {
            Issue.record("no matrix")
            return
        }
        #expect(array.rows.count == 2 && array.rows.allSatisfy { $0.count == 2 })
    }

    @Test func escapesReachTheMathAsWritten() {
        let nodes = MathParser.parse(#"a\,b"#).nodes
        #expect(nodes.contains(.space(3, fixed: false)))
        // `\\` at a formula's top level starts a new row.
        guard case .array(let array, _, _)? = Self.atoms(#"a \\ b"#).first?.nucleus else {
            Issue.record("no rows")
            return
        }
        #expect(array.rows.count == 2)
        #expect(Self.atoms(#"\{c\}"#).map(\.mathClass) == [.open, .ord, .close])
    }

    @Test func tagsAreKept() {
        #expect(MathParser.parse(#"E = mc^2 \tag{1}"#).tag == "(1)")
        #expect(MathParser.parse(#"E = mc^2 \tag*{A}"#).tag == "A")
    }

    /// Unicode's superscript and subscript characters are the scripts of the atom before them,
    /// a run of them one script, as unicode-math reads `x²`: never a character of their own,
    /// which a math font need not have.
    @Test(
        arguments: [
            ("x²", "𝑥", ["2"], nil), ("x⁻¹", "𝑥", ["\u{2212}", "1"], nil), ("a₁₂", "𝑎", nil, ["1", "2"]),
            ("aₙ₊₁", "𝑎", nil, ["𝑛", "+", "1"]), ("e⁽ⁱ⁾", "𝑒", ["(", "𝑖", ")"], nil),
        ] as [(String, String, [String]?, [String]?)])
    func unicodeScriptCharactersAreScripts(source: String, base: String, raised: [String]?, lowered: [String]?) {
        let atoms = Self.atoms(source)
        #expect(atoms.count == 1, "\(atoms)")
        func symbols(_ nodes: [MathNode]?) -> [String]? {
            nodes?.compactMap {
                if case .atom(let atom) = $0, case .symbol(let text) = atom.nucleus { text } else { nil }
            }
        }
        #expect(atoms.first?.nucleus == .symbol(base))
        #expect(symbols(atoms.first?.superscript) == raised)
        #expect(symbols(atoms.first?.subscript) == lowered)
        #expect(MathParser.parse(source).problems.isEmpty)
    }

    /// Input that is warned about is never dropped: a `\right` or `\middle` without `\left`,
    /// an `\end` without `\begin`, `&` and `\\` inside a group are drawn as written.
    @Test(arguments: [
        (#"a \right) b"#, #"\right)"#), (#"a \middle| b"#, #"\middle|"#), (#"a \end{pmatrix} b"#, #"\end{pmatrix}"#),
        (#"{a & b}"#, "&"), (#"{a \\ b}"#, #"\\"#),
    ])
    func strayCommandsAreDrawnAsWritten(source: String, written: String) {
        let formula = MathParser.parse(source)
        #expect(!formula.problems.isEmpty)
        #expect(formula.plainText.contains(written), "\(formula.plainText)")
    }

    /// A `\tag`'s text may hold math (`\tag{$\ast$}`), set as its characters.
    @Test func aTagMayHoldMath() {
        #expect(MathParser.parse(#"E = mc^2 \tag{$\ast$}"#).tag == "(∗)")
        #expect(MathParser.parse(#"E \tag{1$'$}"#).tag == "(1′)")
        #expect(MathParser.parse(#"E \tag*{$\dagger$ main}"#).tag == "† main")
    }

    /// amsmath's, mathtools' and MathJax's commands defined over others, and plain TeX's
    /// `\root … \of`, read without a problem: each makes what its package makes.
    @Test func packageCommandsAreKnown() {
        for source in [
            #"\varlimsup_n a_n"#, #"\varliminf_n a_n"#, #"\varinjlim A"#, #"\varprojlim A"#, #"\idotsint f"#,
            #"\sideset{_a^b}{_c^d}\sum x"#, #"\prescript{14}{6}{C}"#, #"\root 3 \of {x}"#,
            #"\sqrt[\leftroot{2}\uproot{3} n]{y}"#, #"a \vcentcolon= b"#, #"a \shortmid b"#, #"\mathnormal{x}"#,
            #"\utilde{u}"#, #"\unicode{x222B}"#, #"\unicode{8747}"#, #"\class{a}{x}"#, #"\cssId{b}{x}"#,
            #"\style{color:red}{x}"#, #"\bbox[red]{x}"#, #"a\nobreakspace b"#, #"\text{\textsc{Abc}}"#,
        ] {
            let formula = MathParser.parse(source)
            #expect(formula.problems.isEmpty, "\(source): \(formula.problems)")
        }
        guard case .radical(let degree, let radicand) = Self.atoms(#"\root 3 \of {x+1}"#).first?.nucleus else {
            Issue.record("no root")
            return
        }
        #expect(degree.map(MathFormula.plainText) == "3")
        #expect(MathFormula.plainText(radicand) == "x+1")
        #expect(Self.atoms(#"\unicode{x222B}"#).first?.nucleus == .symbol("∫"))
        #expect(!MathParser.parse(#"\unicode{zz}"#).problems.isEmpty)
    }

    /// `\intertext{…}` between an alignment's rows is a row of text of its own.
    @Test func interTextIsARowOfText() {
        guard
            case .array(let array, _, _) = Self.atoms(
                #"\begin{align} x &= y \\ \intertext{so} u &= v \end{align}"#
            ).first?.nucleus
        else {
            Issue.record("no alignment")
            return
        }
        #expect(array.rows.count == 3)
        #expect(array.textRows == [1])
        #expect(array.rows[1].count == 1)
        #expect(MathParser.parse(#"\begin{align} x &= y \\ \intertext{so} u &= v \end{align}"#).problems.isEmpty)
    }

    /// An environment never ended is said at its `\begin`; one ended by another's `\end` at
    /// that `\end`.
    @Test func environmentsNeverEndedAreSaidAtTheirBegin() {
        let unended = MathParser.parse(#"x = \begin{aligned} a &= b \\ c &= d"#)
        #expect(unended.problems.map(\.message) == [#"\begin{aligned} without \end"#])
        #expect(unended.problems.first?.offset == 4)
        let unknown = MathParser.parse(#"y \begin{nosuch} a"#)
        #expect(unknown.problems.contains { $0.message.contains("without") && $0.offset == 2 }, "\(unknown.problems)")
        let mismatched = MathParser.parse(#"\begin{matrix} a \end{pmatrix}"#)
        #expect(mismatched.problems.first?.message.contains("ended by") == true)
        #expect(mismatched.problems.first?.offset == 17, "\(mismatched.problems)")
    }

    @Test func unknownCommandsAreKeptAsSourceWithAProblemAtTheirPlace() {
        let formula = MathParser.parse(#"a + \foo{x} + \bar"#)
        #expect(formula.problems.count == 2)
        #expect(formula.problems.first?.offset == 4)
        #expect(formula.problems.first?.message.contains(#"\foo"#) == true)
        #expect(formula.nodes.contains(.atom(MathAtom(.ord, .error(#"\foo"#)))))
    }

    /// The symbols, operators and constructs of LaTeX's and amsmath's tables that Markdown
    /// documents use most are all known, whichever of a pair of names unicode-math's table
    /// holds (`\ne` and `\neq`, `\leq` and `\le`, `\dots` and `\ldots`).
    @Test func commonCommandsAreKnown() {
        let names = """
            alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu nu xi pi varpi \
            rho varrho sigma varsigma tau upsilon phi varphi chi psi omega Gamma Delta Theta Lambda Xi Pi Sigma \
            Upsilon Phi Psi Omega pm mp times div cdot ast star circ bullet cap cup uplus sqcap sqcup vee wedge \
            setminus wr diamond bigtriangleup bigtriangledown triangleleft triangleright lhd rhd unlhd unrhd oplus \
            ominus otimes oslash odot bigcirc dagger ddagger amalg leq le geq ge neq ne equiv sim simeq approx cong \
            propto prec succ preceq succeq ll gg subset supset subseteq supseteq sqsubseteq sqsupseteq in ni notin \
            vdash dashv models perp mid parallel bowtie smile frown asymp doteq leftarrow rightarrow Leftarrow \
            Rightarrow leftrightarrow Leftrightarrow mapsto longmapsto longleftarrow longrightarrow Longleftarrow \
            Longrightarrow iff implies impliedby to gets uparrow downarrow Uparrow Downarrow updownarrow nearrow \
            searrow swarrow nwarrow hookleftarrow hookrightarrow leftharpoonup rightharpoonup rightleftharpoons \
            ldots cdots vdots ddots dots dotsc dotsb dotsm dotsi aleph hbar imath jmath ell wp Re Im partial infty \
            prime emptyset varnothing nabla surd top bot angle triangle forall exists nexists neg lnot flat natural \
            sharp clubsuit diamondsuit heartsuit spadesuit backslash sum prod coprod int iint iiint oint bigcap \
            bigcup bigsqcup bigvee bigwedge bigodot bigotimes bigoplus biguplus sin cos tan cot sec csc arcsin \
            arccos arctan sinh cosh tanh coth log ln lg exp det dim ker hom arg deg gcd lim liminf limsup max min \
            sup inf Pr hat check breve acute grave tilde bar vec dot ddot mathring widehat widetilde overline \
            underline overbrace underbrace overrightarrow overleftarrow frac dfrac tfrac binom dbinom tbinom sqrt \
            boxed text mathrm mathbf mathit mathsf mathtt mathcal mathbb mathfrak operatorname overset underset \
            stackrel pmod bmod quad qquad lvert rvert lVert rVert langle rangle lceil rceil lfloor rfloor \
            therefore because checkmark complement square blacksquare Box lozenge blacklozenge Diamond leadsto \
            vartriangle triangleq lesssim gtrsim leqslant geqslant nleq ngeq subsetneq supsetneq colon coloneqq
            """
        var unknown: [String] = []
        for name in names.split(whereSeparator: \.isWhitespace) {
            let formula = MathParser.parse("\\\(name){x}{y}")
            if formula.problems.contains(where: { $0.message.hasPrefix("unknown math command") }) {
                unknown.append(String(name))
            }
        }
        #expect(unknown.isEmpty, "\(unknown)")
        // LaTeX's \triangle is the white up-pointing triangle, \neq the not-equal sign.
        #expect(Self.atoms(#"\triangle"#).first?.nucleus == .symbol("\u{25B3}"))
        #expect(Self.atoms(#"\neq"#).first?.nucleus == .symbol("\u{2260}"))
        #expect(Self.atoms(#"\dots"#).first?.nucleus == .symbol("\u{2026}"))
    }

    /// A formula as plain Unicode text (a bookmark's title): its symbols as drawn, text as
    /// written, fractions and roots spelled with `/` and `√`, scripts after `^` and `_`.
    @Test(arguments: [
        (#"\alpha"#, "α"), (#"x^2 + y_i"#, "x²+yᵢ"), (#"\frac{a}{b}"#, "a/b"), (#"\frac{a+1}{2}"#, "(a+1)/2"),
        (#"\sqrt{x}"#, "√x"), (#"\mathbb{R}^n"#, "ℝⁿ"), (#"\sum_{i=1}^n i"#, "∑ᵢ₌₁ⁿi"), (#"a_{n+1}"#, "aₙ₊₁"),
        (#"x^\alpha y"#, "x^(α)y"), (#"x_{i,j}^2"#, "x_(i,j)²"), (#"\left( x \right)"#, "(x)"), (#"a \le b"#, "a≤b"),
        (#"\text{if } x"#, "if x"), (#"e^{i\pi}"#, "e^(iπ)"), (#"\hat{x}"#, "x"), (#"\boxed{E}"#, "E"),
    ])
    func formulasReadAsText(source: String, text: String) {
        #expect(MathParser.parse(source).plainText == text)
    }

    /// `\text` and `\operatorname` print what TeX's text mode prints: escaped specials as the
    /// characters, `\,` `\ ` `~` as spaces, a text command inside as its text; an unknown
    /// command stays as written.
    @Test(arguments: [
        (#"\text{50\% off}"#, "50% off"), (##"\text{R\&D \$5 \#1 a\_b \{x\}}"##, "R&D $5 #1 a_b {x}"),
        (#"\text{a \textbf{b} \emph{c}}"#, "a b c"), (#"\text{a~b\ c}"#, "a\u{00A0}b c"),
        (#"\text{\unknown x}"#, #"\unknown x"#), (#"\textbf{{x}}"#, "x"),
    ])
    func textModeWritesTheCharacters(source: String, text: String) {
        let written = Self.atoms(source).compactMap { atom -> String? in
            if case .prose(let written, _) = atom.nucleus { written } else { nil }
        }
        #expect(written.joined() == text, "\(source)")
    }

    /// A text command inside `\text` sets its argument in its face, the text around it in the
    /// face outside it: one run of text a face.
    @Test(arguments: [
        (#"\text{a \textbf{b} c}"#, ["a ": MathTextFace.regular, "b": .bold, " c": .regular]),
        (#"\textit{a \emph{b}}"#, ["a ": .italic, "b": .regular]),
        (#"\text{\texttt{x}y}"#, ["x": .monospace, "y": .regular]),
        (#"\textbf{a {b} \textnormal{c}}"#, ["a b ": .bold, "c": .regular]),
    ])
    func textCommandsInsideTextKeepTheirFace(source: String, faces: [String: MathTextFace]) {
        var runs: [String: MathTextFace] = [:]
        for atom in Self.atoms(source) {
            if case .prose(let text, let face) = atom.nucleus { runs[text] = face }
        }
        #expect(runs == faces, "\(source)")
    }

    /// A formula inside text (`\text{if $x > 0$}`, as `cases` writes its conditions) is math:
    /// its letters italic, its relations spaced; its problems are the text command's.
    @Test func formulasInsideTextAreMath() {
        let atoms = Self.atoms(#"\text{if $x > 0$, else $\nosuch$}"#)
        #expect(atoms.count == 4, "\(atoms)")
        guard atoms.count == 4, case .prose(let before, _) = atoms[0].nucleus, case .list(let math) = atoms[1].nucleus
        else { return }
        #expect(before == "if ")
        #expect(MathFormula.plainText(math) == "x>0")
        #expect(math.first == .atom(MathAtom(.ord, .symbol(String(Character(MathAlphabet.italic.map("x")))))))
        let problems = MathParser.parse(#"\text{if $x > 0$, else $\nosuch$}"#).problems
        #expect(problems.count == 1 && problems[0].offset == 0)
        #expect(problems.first?.message.hasPrefix(#"in \text: unknown math command \nosuch"#) == true)
        #expect(MathParser.textMode(#"a $b$ c"#) == "a b c")
    }

    /// An unknown command one slip from a symbol's name is answered with it: a letter left out,
    /// one too many, one mistyped (in a name of five letters or more), two neighbours swapped; a
    /// name two slips away, or of fewer than three letters, is not.
    @Test(arguments: [
        (#"\alpah"#, #"\alpha"#), (#"\lamda"#, #"\lambda"#), (#"\Sigam"#, #"\Sigma"#),
        (#"\infyt"#, #"\infty"#), (#"\bteta"#, #"\beta"#), (#"\pii"#, #"\pi"#),
        (#"\qqqqxz"#, nil), (#"\xq"#, nil), (#"\sgn"#, nil), (#"\sett"#, nil),
    ])
    func anUnknownCommandOneSlipFromASymbolIsAnswered(source: String, near: String?) {
        let message = MathParser.parse(source).problems.first?.message ?? ""
        #expect(message.hasPrefix("unknown math command \(source)"), "\(message)")
        if let near {
            #expect(message.hasSuffix("; did you mean \(near)?"), "\(message)")
        } else {
            // A short name a letter away from a symbol's (`\sgn`, `\sun`) is no slip: how an
            // operator's name is written is said instead.
            #expect(!message.contains("did you mean"), "\(message)")
            #expect(message.contains(#"\operatorname{"#), "\(message)")
        }
    }

    /// Commands of packages common in notes, which are not read here, are said to be theirs,
    /// with what to write instead.
    @Test(arguments: [(#"\ket{\psi}"#, "physics"), (#"\SI{9.81}{m/s^2}"#, "siunitx"), (#"\ce{H2O}"#, "mhchem")])
    func aPackagesCommandIsSaidToBeItsPackages(source: String, package: String) {
        let message = MathParser.parse(source).problems.first?.message ?? ""
        #expect(message.contains("the \(package) package's"), "\(message)")
    }

    /// Commands a document defines hold for the rest of the formula and for the formulas after
    /// it (as MathJax keeps them): with arguments, an optional first argument, `\def`,
    /// `\let`, `\DeclareMathOperator`; `\renewcommand` replaces a known command,
    /// `\providecommand` does not. A formula read without the definitions does not know them.
    @Test func definitionsHoldForTheFormulasAfterThem() {
        var macros: [String: MathMacro] = [:]
        let definitions = #"""
            \newcommand{\R}{\mathbb{R}} \newcommand\abs[1]{\left|#1\right|} \newcommand{\p}[2][x]{#1+#2}
            \def\pair#1#2{(#1,#2)} \DeclareMathOperator{\tr}{tr} \renewcommand{\vec}[1]{\mathbf{#1}}
            \providecommand{\frac}[2]{#1} \let\to\mapsto
            """#
        let defining = MathParser.parse(definitions, macros: &macros)
        #expect(defining.problems.isEmpty && defining.nodes.isEmpty, "\(defining.problems)")
        let cases: [(String, String)] = [
            (#"\R^n"#, "ℝⁿ"), (#"\abs{x}"#, "|x|"), (#"\p{y}"#, "x+y"), (#"\p[z]{y}"#, "z+y"),
            (#"\pair{a}{b}"#, "(a,b)"), (#"\tr A"#, "trA"), (#"\vec{v}"#, "𝐯"), (#"\frac{a}{b}"#, "a/b"),
            (#"f\colon A \to B"#, "f : A↦B"),
        ]
        for (source, text) in cases {
            let formula = MathParser.parse(source, macros: &macros)
            #expect(formula.plainText == text && formula.problems.isEmpty, "\(source): \(formula.plainText)")
            #expect(!formula.usedMacros.isEmpty || source.hasPrefix(#"\frac"#), "\(source)")
        }
        #expect(MathParser.parse(#"\R"#).problems.map(\.message) == [#"unknown math command \R"#])
    }

    /// A body naming a parameter past the definition's count, and a use missing an argument,
    /// are said (TeX's "Illegal parameter number", "missing argument").
    @Test func definitionsSayWhatTheyMiss() {
        #expect(
            MathParser.parse(#"\newcommand{\two}[2]{#1+#3}"#).problems.map(\.message) == [
                #"\two uses #3 but takes 2 arguments"#
            ])
        #expect(
            MathParser.parse(#"\newcommand{\abs}[1]{|#1|}\abs"#).problems.map(\.message) == [
                #"\abs is missing an argument"#
            ])
        #expect(MathParser.parse(#"\newcommand{\abs}[1]{|#1|}\abs{x} \abs y"#).problems.isEmpty)
    }

    /// A formula cut short says what it lacks as a formula's problem, not only the character:
    /// a group, an argument or an optional argument left open ("missing }" alone before).
    @Test func aFormulaCutShortSaysWhatItLacks() {
        #expect(
            MathParser.parse(#"\frac{1}{"#).problems.map(\.message) == [
                "missing } in the formula: a '{' is never closed"
            ])
        #expect(
            MathParser.parse(#"x + \frac{1}"#).problems.map(\.message) == [
                "missing argument in the formula: the command before its end takes one"
            ])
        #expect(
            MathParser.parse(#"\sqrt[3"#).problems.map(\.message).first
                == "missing ] in the formula: an optional argument's '[' is never closed")
    }

    /// A definition whose body is one command stands for that command, its arguments read where
    /// it is used (`\newcommand{\vect}{\mathbf}`, `\let\bb\mathbb`), as TeX reads them.
    @Test func aDefinitionOfOneCommandTakesItsArguments() {
        #expect(MathParser.parse(#"\newcommand{\vect}{\mathbf}\vect{x} + \vect v"#).plainText == "𝐱+𝐯")
        #expect(MathParser.parse(#"\let\bb\mathbb \bb{R}"#).plainText == "ℝ")
        let fraction = MathParser.parse(#"\newcommand{\fr}{\frac}\fr12"#)
        #expect(fraction.plainText == "1/2" && fraction.problems.isEmpty, "\(fraction.problems)")
    }

    /// A definition that uses itself, or definitions that double at each level, stop with one
    /// problem at the command and one error atom, in time linear in the formula: nothing
    /// runs without end, nothing of the source is lost.
    @Test(arguments: [#"\def\a{\a\a}\a"#, #"\def\a{x\a}\a"#, #"\newcommand{\b}[1]{\b{#1#1}}\b{y}"#])
    func definitionsThatDoNotEndStop(source: String) {
        let formula = MathParser.parse(source)
        #expect(formula.problems.count == 1 && formula.problems[0].message.contains("expands without end"))
        let errors = MathFormula.plainText(formula.nodes).filter { $0 == "\\" }.count
        #expect(errors == 1, "\(formula.plainText.prefix(80))")
    }

    /// A document's formulas share one budget of expansion (``MathExpansionBudget``): a chain
    /// of definitions doubling twelve times expands to about 40,000 characters at each use, so
    /// forty uses of a few characters each, each within a formula's own room, set a million and
    /// a half; with the document's budget the first uses expand and the rest are drawn as
    /// written with the problem. A definition that ran away takes none of it from the later
    /// formulas.
    @Test func aDocumentsFormulasShareOneExpansionBudget() {
        var macros: [String: MathMacro] = [:]
        var budget = MathExpansionBudget()
        let levels = "abcdefghijklm".unicodeScalars.map(String.init)
        let chain =
            #"\newcommand{\ma}{x+}"#
            + (1..<levels.count).map { "\\newcommand{\\m\(levels[$0])}{\\m\(levels[$0 - 1])\\m\(levels[$0 - 1])}" }
            .joined()
        _ = MathParser.parse(chain, macros: &macros, budget: &budget)
        var set = 0
        var stopped = 0
        for _ in 0..<40 {
            let use = MathParser.parse(#"\mm"#, macros: &macros, budget: &budget)
            set += use.plainText.count
            if use.problems.contains(where: { $0.message.contains("expands without end") }) { stopped += 1 }
        }
        #expect(set >= 8_192 && set <= 100_000, "\(set) characters set")
        #expect(stopped >= 37, "\(stopped) of 40 uses stopped")

        var later = MathExpansionBudget()
        macros = [:]
        let runaway = MathParser.parse(#"\def\a{\a\a}\a"#, macros: &macros, budget: &later)
        #expect(runaway.problems.count == 1)
        let defined = MathParser.parse(#"\newcommand{\R}{\mathbb{R}}\R"#, macros: &macros, budget: &later)
        #expect(defined.plainText == "ℝ" && defined.problems.isEmpty)
        for _ in 0..<1_000 {
            let use = MathParser.parse(#"\R"#, macros: &macros, budget: &later)
            #expect(use.plainText == "ℝ" && use.problems.isEmpty)
        }
    }

    /// A definition that ran away once is drawn as written at once in the document's later
    /// formulas (the table of definitions passes from formula to formula), not expanded to the
    /// limit again at each use: 160 uses of a 30-level doubling chain took 25 s. Every use still
    /// says so, and a definition made after it still expands.
    @Test func aDefinitionThatRanAwayIsNotExpandedAgain() {
        var macros: [String: MathMacro] = [:]
        var first = ContinuousClock.now
        _ = MathParser.parse(#"\def\a{\a\a}\a"#, macros: &macros)
        let once = ContinuousClock.now - first
        #expect(macros["a"]?.runsAway == true)
        first = ContinuousClock.now
        for _ in 0..<50 {
            let again = MathParser.parse(#"x + \a"#, macros: &macros)
            #expect(again.problems.count == 1 && again.problems[0].message.contains("expands without end"))
        }
        let fifty = ContinuousClock.now - first
        // Fifty more uses cost a few times the first, not fifty times (each was as costly).
        #expect(fifty < once * 10, "50 uses \(fifty), the first \(once)")
        let later = MathParser.parse(#"\newcommand{\R}{\mathbb{R}}\R"#, macros: &macros)
        #expect(later.plainText == "ℝ" && later.problems.isEmpty)
    }

    /// LaTeX's, amsmath's, mathtools' and MathJax's commands that documents use, beyond the
    /// symbols: phantoms and overlaps, stretched arrows, `\substack`, spaces of a written
    /// length, boxes, generalized fractions, old font and size switches, and a few symbols.
    @Test func structureCommandsAreKnown() {
        let sources = [
            #"\xrightarrow{f}"#, #"\xleftarrow[g]{f}"#, #"\xRightarrow{}"#, #"\xmapsto{x}"#, #"\phantom{x}"#,
            #"\hphantom{x}"#, #"\vphantom{x}"#, #"\smash{x}"#, #"\smash[b]{x}"#, #"\mathrlap{x}"#, #"\mathllap{x}"#,
            #"\mathclap{x}"#, #"\rlap{x}"#, #"\llap{x}"#, #"\clap{x}"#, #"\sum_{\substack{i<m \\ j<n}}"#,
            #"a\hspace{1em}b"#, #"a\hspace*{2pt}b"#, #"a\kern3pt b"#, #"a\mkern18mu b"#, #"a\mskip 3mu plus 1mu b"#,
            #"a\hskip 1em minus 1fil b"#, #"a\mspace{4mu}b"#, #"\mathstrut"#, #"\strut"#, #"\fbox{x}"#,
            #"\colorbox{red}{x}"#, #"\fcolorbox{red}{blue}{x}"#, #"\genfrac{(}{)}{0pt}{}{a}{b}"#, #"{a \over b}"#,
            #"{a \atop b}"#, #"{n \choose k}"#, #"{n \brace k}"#, #"{n \brack k}"#, #"{\rm d}x"#, #"{\bf v}"#,
            #"{\cal L}"#, #"{\small x}"#, #"\ensuremath{x}"#, #"\pmb{x}"#, #"\operatornamewithlimits{arg\,max}"#,
            #"a \pod{n}"#, #"\mathchoice{a}{b}{c}{d}"#, #"a \lt b \gt c"#, #"\pounds \S \P \copyright"#,
            #"\circledR \degree \iddots \varGamma \And"#, #"\cancel{x} \bcancel{y} \xcancel{z} \cancelto{0}{w}"#,
            #"\begin{subarray}{l} a \\ b \end{subarray}"#,
        ]
        for source in sources {
            let formula = MathParser.parse(source)
            #expect(formula.problems.isEmpty, "\(source): \(formula.problems)")
        }
    }

    /// mathtools' starred matrices take their columns' alignment, `cases*` sets its second
    /// column as text, and `multline` sets its first row flush left and its last flush right.
    @Test func starredEnvironmentsAndMultline() {
        func array(_ source: String) -> MathArray? {
            if case .array(let array, _, _)? = Self.atoms(source).first?.nucleus { array } else { nil }
        }
        #expect(array(#"\begin{pmatrix*}[r] 1 & -2 \\ 3 & 4 \end{pmatrix*}"#)?.alignments == [.right])
        let cases = array(#"\begin{cases*} 1 & if $x > 0$ \\ 0 & else \end{cases*}"#)
        if case .prose(let text, _)? = cases?.rows[1][1].first.flatMap({ node -> MathNucleus? in
            if case .atom(let atom) = node { atom.nucleus } else { nil }
        }) {
            #expect(text == "else")
        } else {
            Issue.record("\(String(describing: cases?.rows))")
        }
        #expect(MathParser.parse(#"\begin{cases*} 1 & if $x > 0$ \end{cases*}"#).problems.isEmpty)
        #expect(array(#"\begin{multline} a \\ b \\ c \end{multline}"#)?.rowAlignments == [.left, .center, .right])
    }

    /// A line breaks after a relation or a binary operation, never before punctuation or a
    /// closing delimiter that follows one.
    @Test func noBreakBeforePunctuation() {
        #expect(MathParser.parse(#"a = b, c"#).breakIndices == [1])
        #expect(MathParser.parse(#"a \overset{\text{def}}{=}, \quad b = c"#).breakIndices == [5])
        #expect(MathParser.parse(#"\left(a + b\right) = c"#).breakIndices == [1])
    }

    /// `\boldsymbol`, `\bold`, `\frak` and `\Bbb` take one argument: what follows keeps TeX's
    /// default alphabet; `{\bf x} y` changes only its group.
    @Test(arguments: [
        #"\boldsymbol{x} + y"#, #"\boldsymbol\mu + y"#, #"\bold{x} + y"#, #"\frak{g} + y"#, #"\Bbb{R} + y"#,
        #"{\bf x} + y"#,
    ])
    func alphabetCommandsTakeTheirArgumentOnly(source: String) {
        guard case .symbol(let last)? = Self.atoms(source).last?.nucleus else {
            Issue.record("\(source): \(Self.atoms(source))")
            return
        }
        #expect(last == String(Character(MathAlphabet.italic.map("y"))), "\(source): \(last)")
    }

    /// `\label{key}` beside `\tag{…}` labels the formula; `\eqref{key}` prints the tag in
    /// parentheses and `\ref{key}` bare, from the labels known; an unknown key prints `??` and
    /// is listed unanswered.
    @Test func labelsAndReferences() {
        var macros: [String: MathMacro] = [:]
        let labelled = MathParser.parse(#"E = mc^2 \tag{1} \label{eq:e}"#, macros: &macros)
        #expect(labelled.labels == ["eq:e": "1"])
        #expect(MathParser.parse(#"x \label{eq:untagged}"#).labels.isEmpty)
        let known = MathParser.parse(#"\eqref{eq:e} + \ref{eq:e}"#, macros: &macros, labels: labelled.labels)
        #expect(known.plainText == "(1)+1" && known.references.allSatisfy { $0.resolved == "1" })
        let unknown = MathParser.parse(#"\eqref{eq:none}"#)
        #expect(unknown.plainText == "(??)" && unknown.references.map(\.resolved) == [nil])
        // A label after a second `\tag`, which is not set, names no number, and says so.
        let twoTags = MathParser.parse(
            #"\begin{aligned} c &= d \tag{X} \label{eb} \\ e &= f \tag{Y} \label{ec} \end{aligned}"#)
        #expect(twoTags.labels == ["eb": "X"], "\(twoTags.labels)")
        #expect(twoTags.problems.contains { $0.message.contains(#"\label{ec} follows a \tag that is not set"#) })
        // Boxes of text read a formula inside as math, as `\text` does.
        #expect(MathParser.parse(#"\fbox{$x^2$ and text}"#).plainText == "x² and text")
    }

    /// Spaces of a written length: mu stay mu (scaled with the style), the others are em of
    /// the text (1 em taken as 10 pt for absolute units); glue's stretch and shrink are read
    /// and dropped; a length that is not one is a problem at its command.
    @Test func writtenLengthsAreSpaces() {
        func spaces(_ source: String) -> [MathNode] {
            MathParser.parse(source).nodes.filter { if case .space = $0 { true } else { false } }
        }
        #expect(spaces(#"a\hspace{1em}b"#) == [.space(1, fixed: true)])
        #expect(spaces(#"a\mkern18mu b"#) == [.space(18, fixed: false)])
        #expect(spaces(#"a\kern-2pt b"#) == [.space(-0.2, fixed: true)])
        #expect(spaces(#"a\kern 1,5em b"#) == [.space(1.5, fixed: true)])
        let glue = MathParser.parse(#"a\hskip 1em plus 2pt minus 1fill b"#)
        #expect(glue.nodes.count == 3 && glue.plainText == "a b", "\(glue.nodes)")
        #expect(MathParser.parse(#"a\hspace{wide}b"#).problems.count == 1)
        #expect(MathParser.parse(#"a\kern b"#).problems.count == 1)
    }

    /// TeX's generalized fractions take the whole group on each side: `{a+b \over c}` is
    /// (a+b)/c, and at the top level the whole formula.
    @Test func infixFractionsTakeTheirGroup() {
        #expect(MathParser.parse(#"{a+b \over c} + 1"#).plainText == "(a+b)/c+1")
        #expect(MathParser.parse(#"n \choose k"#).plainText == "(n k)")
        let top = MathParser.parse(#"x = y \over z"#, display: false)
        #expect(top.nodes.count == 1 && top.nodeOffsets == [0], "\(top.nodeOffsets)")
    }

    /// A formula takes one label: a second `\tag` is warned about where it is written, the
    /// first kept.
    @Test func aSecondTagIsWarnedAbout() {
        let formula = MathParser.parse(#"\begin{aligned} a &= 1 \tag{1} \\ b &= 2 \tag*{B} \end{aligned}"#)
        #expect(formula.tag == "(1)")
        #expect(formula.problems.count == 1 && formula.problems.first?.message.contains("'B'") == true)
        #expect(formula.problems.first?.offset == 41, "\(formula.problems)")
        #expect(MathParser.parse(#"x \tag{1}"#).problems.isEmpty)
    }

    /// `&` and `\\` written directly in a displayed formula make its rows and columns; in an
    /// inline formula, which has one row, each is a problem drawn as written (in the error
    /// colour), the nodes around it kept with where each starts.
    @Test func rowSeparatorsInAnInlineFormulaAreDrawnAsWritten() {
        let inline = MathParser.parse(#"a & b \\ c"#, display: false)
        #expect(inline.problems.map(\.offset) == [2, 6], "\(inline.problems)")
        let errors = inline.nodes.compactMap { node -> String? in
            if case .atom(let atom) = node, case .error(let text) = atom.nucleus { text } else { nil }
        }
        #expect(errors == ["&", #"\\"#])
        #expect(inline.nodeOffsets.count == inline.nodes.count && inline.nodeOffsets == [0, 2, 4, 6, 9])
        #expect(MathParser.parse(#"a & b \\ c"#, display: true).problems.isEmpty)
    }

    /// An unknown environment is drawn as written: its `\begin` and its `\end` in the error
    /// colour, its rows between them, one warning.
    @Test func anUnknownEnvironmentKeepsItsBeginAndEnd() {
        let formula = MathParser.parse(#"\begin{foo} a \end{foo}"#)
        #expect(formula.problems.map(\.message) == ["unknown math environment foo"])
        var errors: [String] = []
        func visit(_ nodes: [MathNode]) {
            for case .atom(let atom) in nodes {
                if case .error(let text) = atom.nucleus { errors.append(text) }
                if case .list(let inner) = atom.nucleus { visit(inner) }
            }
        }
        visit(formula.nodes)
        #expect(errors == [#"\begin{foo}"#, #"\end{foo}"#])
    }

    /// `\pmod` puts 18 mu before its parenthesis in a displayed formula and 8 mu in an inline
    /// one, as amsmath does.
    @Test func pmodSpacesItselfByTheFormulasMode() {
        func space(_ display: Bool) -> Double? {
            for case .space(let ems, true) in MathParser.parse(#"a \pmod{n}"#, display: display).nodes { return ems }
            return nil
        }
        #expect(space(true) == 1)
        #expect(space(false).map { abs($0 - 8.0 / 18) < 1e-9 } == true)
    }

    @Test func anOperatorNameKeepsItsThinSpace() {
        #expect(Self.atoms(#"\operatorname*{arg\,max}"#).first?.nucleus == .text("arg\u{2009}max"))
    }

    /// A formula nested past the parser's depth limit reports that once, at the depth where
    /// it happened, and keeps the rest of its source as one error atom; the groups, arguments
    /// and fences still open when it stopped report nothing more.
    @Test(arguments: [
        (String(repeating: "{", count: 300) + "x" + String(repeating: "}", count: 300), 200),
        (String(repeating: #"\frac{"#, count: 250) + "1" + String(repeating: "}{2}", count: 250), 1200),
        (String(repeating: #"\sqrt{"#, count: 250) + "x" + String(repeating: "}", count: 250), 1200),
        (String(repeating: #"\left("#, count: 250) + "x" + String(repeating: #"\right)"#, count: 250), 1200),
        (String(repeating: "x^{", count: 250) + "y" + String(repeating: "}", count: 250), 600),
        (
            String(repeating: #"\begin{matrix}"#, count: 250) + "x" + String(repeating: #"\end{matrix}"#, count: 250),
            3000
        ),
    ])
    func nestingTooDeepIsReportedOnce(source: String, within offset: Int) {
        let formula = MathParser.parse(source)
        #expect(formula.problems.map(\.message) == ["math nested too deeply"], "\(source.prefix(20))")
        #expect((formula.problems.first?.offset ?? .max) <= offset)
        let errors = Self.errorTexts(formula.nodes)
        // The rest is the formula's last atom at the top level (placed once, not in every group
        // around where it stopped), drawn up to 200 characters.
        let rest = errors.first.map { $0.hasSuffix("…") ? String($0.dropLast()) : $0 } ?? ""
        #expect(errors.count == 1 && source.contains(rest) && rest.count > 100)
        #expect(rest.count <= MathParser.longestAbandonedRest)
        #expect(Self.errorTexts(Array(formula.nodes.suffix(1))) == errors)
    }

    /// The text of every error atom in `nodes`, however deep.
    static func errorTexts(_ nodes: [MathNode]) -> [String] {
        var found: [String] = []
        func walk(_ value: Any) {
            if let atom = value as? MathAtom, case .error(let text) = atom.nucleus { found.append(text) }
            for child in Mirror(reflecting: value).children { walk(child.value) }
        }
        walk(nodes)
        return found
    }

    @Test func hostileInputNeverFails() {
        for source in [
            "{{{{", "}}}}", "^^^", #"\left("#, #"\begin{matrix}"#, #"\frac"#, "x_", #"\sqrt["#, "&&\\\\",
            String(repeating: "{", count: 5000),
        ] {
            let formula = MathParser.parse(source)
            _ = formula.nodes
        }
    }
}
