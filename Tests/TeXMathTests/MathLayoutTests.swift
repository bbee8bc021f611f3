import Testing

@testable import TeXMath

/// A font of fixed numbers: every glyph 500 units wide, 700 above and 200 below the baseline;
/// the glyph id is the code point; constants 100 units (scale-downs 70 % and 50 %).
struct FixedMathFont: MathFont {
    let unitsPerEm = 1000.0
    let minimumConnectorOverlap = 10.0
    func constant(_ constant: MathConstant) -> Double {
        switch constant {
        case .scriptPercentScaleDown: 70
        case .scriptScriptPercentScaleDown: 50
        case .axisHeight: 250
        case .displayOperatorMinHeight: 1300
        default: 100
        }
    }
    func glyph(for scalar: Unicode.Scalar) -> UInt32? { scalar.value }
    func scriptGlyph(for scalar: Unicode.Scalar, level: Int) -> UInt32? { scalar.value }
    func shape(_ text: String) -> [MathShapedGlyph] {
        text.unicodeScalars.map { MathShapedGlyph(glyph: $0.value, advance: 500) }
    }
    func advance(of glyph: UInt32) -> Double { glyph >= 0x10_0000 ? 500 + Double(glyph - 0x10_0000) * 100 : 500 }
    func bounds(of glyph: UInt32) -> (ascent: Double, descent: Double) {
        guard glyph >= 0x10_0000 else { return (700, 200) }
        let step = Double(glyph - 0x10_0000)
        return (700 + step * 400, 200 + step * 400)
    }
    func italicsCorrection(of glyph: UInt32) -> Double { 0 }
    func topAccentAttachment(of glyph: UInt32) -> Double? { nil }
    func variants(of glyph: UInt32, vertical: Bool) -> [(glyph: UInt32, advance: Double)] {
        var result: [(glyph: UInt32, advance: Double)] = []
        for step in 1...4 {
            let size = Double(step)
            let advance: Double = vertical ? 900 + size * 800 : 500 + size * 100
            result.append((0x10_0000 + UInt32(step), advance))
        }
        return result
    }
    func assembly(of glyph: UInt32, vertical: Bool) -> [MathGlyphPart] { [] }
}

/// The layout's rules on a font of fixed numbers, where each figure can be worked out by hand.
@Suite struct MathLayoutTests {
    static let layout = MathLayout(font: FixedMathFont(), size: 10)

    static func width(_ source: String, _ style: MathStyle = .text) -> Double {
        layout.layout(MathParser.parse(source), style: style).width
    }

    /// Rows written bare between `$$` are set as `aligned` is, each right-hand column opened by
    /// an empty group (amsmath): a relation after `&` takes its thick space on both sides
    /// (`a = b`, not `a= b`), as the same rows inside `\begin{aligned}` do.
    @Test(arguments: [#"a &= b \\ c &= d"#, #"x &\le y"#, #"f(x) &= 1 & g &\to h"#])
    func bareRowsSpaceTheirRelationsAsAlignedDoes(_ rows: String) {
        let bare = Self.width(rows, .display)
        let aligned = Self.width(#"\begin{aligned}"# + rows + #"\end{aligned}"#, .display)
        #expect(abs(bare - aligned) < 1e-9, "\(bare) against \(aligned)")
    }

    /// amsmath's and LaTeX's position argument: `[t]` puts the block's baseline at its first
    /// row's, `[b]` at its last row's, `[c]` (or none) on the axis; `\\*` ends a row as `\\`
    /// does. Read as content before, `[t]` was drawn before the first row and `*` began the
    /// next. An interval after `\begin{aligned}` is no position and stays content.
    @Test(arguments: ["aligned", "gathered", "array", "alignedat"])
    func aPositionArgumentSetsTheBaselineRow(_ name: String) {
        let argument = name == "array" ? "{c}" : name == "alignedat" ? "{1}" : ""
        func box(_ position: String, separator: String = #"\\"#) -> MathBox {
            let source =
                #"\begin{"# + name + "}" + position + argument + " a " + separator + " b " + separator
                + #" c \end{"# + name + "}"
            let formula = MathParser.parse(source)
            #expect(formula.problems.isEmpty, "\(source): \(formula.problems)")
            return Self.layout.layout(formula, style: .display)
        }
        let centred = box("")
        let top = box("[t]")
        let bottom = box("[b]")
        #expect(abs(box("[c]").height - centred.height) < 1e-9)
        // Three rows: the first row's baseline is the block's, the others below it, and the other way round.
        #expect(top.height < centred.height && top.depth > centred.depth, "\(top) \(centred)")
        #expect(bottom.height > centred.height && bottom.depth < centred.depth, "\(bottom) \(centred)")
        #expect(abs(top.height + top.depth - (centred.height + centred.depth)) < 1e-9)
        #expect(abs(box("[t]", separator: #"\\*"#).width - top.width) < 1e-9)
        #expect(abs(box("[t]", separator: #"\\*"#).depth - top.depth) < 1e-9)
    }

    @Test func anIntervalOpeningAnAlignmentIsNoPosition() {
        let formula = MathParser.parse(#"\begin{aligned}[a, b] &= I \end{aligned}"#)
        #expect(formula.problems.isEmpty)
        #expect(Self.width(#"\begin{aligned}[a, b] &= I \end{aligned}"#, .display) > Self.width("I = I", .display))
    }

    /// amsmath's `\colon`: 2 mu before the colon and 6 after (`f\colon A`), where it was set
    /// as a bare colon's punctuation (none before, 3 mu after).
    @Test func colonIsSpacedAsAmsmathSpacesIt() {
        let em = 10.0
        #expect(abs(Self.width(#"a\colon b"#) - (15 + 8 * em / 18)) < 1e-9, "\(Self.width(#"a\colon b"#))")
        #expect(abs(Self.width(#"a\colon b"#) - Self.width(#"a\mathpunct{:}b"#) - 5 * em / 18) < 1e-9)
    }

    /// A second superscript or subscript is set as TeX recovers from it (The TeXbook, chapter
    /// 17: `x^1^2` as `x^1{}^2`), with a warning: it was joined to the first (`a^{bc}`).
    @Test(arguments: ["a^b^c", "a_1_2", "x^{1}^{2}_3"])
    func aDoubleScriptIsSetAsTeXRecoversFromIt(_ source: String) {
        let formula = MathParser.parse(source)
        #expect(formula.problems.count == 1 && formula.problems[0].message.hasPrefix("double"), "\(formula.problems)")
        #expect(formula.nodes.count == 2, "\(formula.nodes)")
        #expect(formula.plainText.filter { !$0.isWhitespace }.count >= 3)
    }

    /// xcolor's models name colours as `#RRGGBB` (`[HTML]{FF8800}`, `[rgb]{1,0,0}`,
    /// `[RGB]{0,128,0}`, `[gray]{0.5}`), each noted with its command's place; a model xcolor
    /// has not, or a value out of its range, is said and names none. The model and value were
    /// set as math: `HTML]FF8800y`.
    @Test func xcolorModelsNameColours() {
        let cases: [(String, String)] = [
            (#"\color[HTML]{FF8800} y"#, "#FF8800"), (#"\textcolor[rgb]{1,0,0}{w}"#, "#FF0000"),
            (#"\textcolor[RGB]{0,128,0}{v}"#, "#008000"), (#"\color[gray]{0.5} g"#, "#808080"),
            (#"\color{teal} t"#, "teal"),
        ]
        for (source, name) in cases {
            let formula = MathParser.parse(source)
            #expect(formula.problems.isEmpty, "\(source): \(formula.problems)")
            #expect(formula.colorNames.map(\.name) == [name], "\(source)")
            #expect(!formula.plainText.contains("]"), "\(source): \(formula.plainText)")
        }
        for source in [#"\color[cmyk]{0,1,1,0} k"#, #"\color[rgb]{2,0,0} k"#, #"\color[HTML]{FF88} k"#] {
            let formula = MathParser.parse(source)
            #expect(formula.problems.count == 1 && formula.colorNames.map(\.name) == [""], "\(source)")
        }
    }

    /// An accent over nothing stands alone with a width of its own (its spacing form, or room
    /// for the combining mark): over TeX's empty box the formula had no width, and its accent
    /// was drawn over the text beside it.
    @Test(arguments: [#"\hat{}"#, #"\vec{}"#, #"\tilde{}"#, #"\dot{}"#, #"\widehat{}"#])
    func anAccentOverNothingHasAWidth(_ source: String) {
        #expect(Self.width(source) > 0, "\(source)")
    }

    /// amssymb's dashed arrows are relations, and amsmath's page-break permissions ask nothing
    /// of a formula that no page breaks: each was an unknown command.
    @Test func dashedArrowsAndDisplayBreaksAreKnown() {
        let formula = MathParser.parse(#"a \dashrightarrow b \dashleftarrow c \displaybreak[3] \allowdisplaybreaks"#)
        #expect(formula.problems.isEmpty, "\(formula.problems)")
        #expect(formula.plainText.filter { !$0.isWhitespace } == "a⇢b⇠c")
        #expect(abs(Self.width(#"a \dashrightarrow b"#) - Self.width("a = b")) < 1e-9, "spaced as a relation")
    }

    /// amsmath's `\shoveleft{…}` and `\shoveright{…}` set a middle row of a `multline` flush
    /// left or right (they were unknown commands); the first and last rows keep their sides.
    @Test func shovesMoveAMultlinesMiddleRows() throws {
        let formula = MathParser.parse(
            #"\begin{multline*} a \\ \shoveleft{b} \\ c \\ \shoveright{d} \\ \shoveright{e} \end{multline*}"#)
        #expect(formula.problems.isEmpty, "\(formula.problems)")
        guard case .atom(let atom)? = formula.nodes.first, case .array(let array, _, _) = atom.nucleus else {
            Issue.record("\(formula.nodes)")
            return
        }
        #expect(array.rowAlignments == [.left, .left, .center, .right, .right])
        #expect(formula.plainText.filter { $0.isLetter } == "abcde")
    }

    @Test func spacesBetweenAtomsFollowTeXsTable() {
        // Glyphs 5 pt; a medium space around a binary operator is 4 mu = 4/18 em, a thick one
        // around a relation 5 mu.
        let em = 10.0
        #expect(abs(Self.width("a+b") - (15 + 2 * 4 * em / 18)) < 1e-9)
        #expect(abs(Self.width("a=b") - (15 + 2 * 5 * em / 18)) < 1e-9)
        // A binary operator with nothing on its left is ordinary: no space.
        #expect(abs(Self.width("-a") - 10) < 1e-9)
        // Punctuation: a thin space after.
        #expect(abs(Self.width("a,b") - (15 + 3 * em / 18)) < 1e-9)
        // In script style the spaces of binary operators and relations are dropped.
        #expect(abs(Self.width(#"\scriptstyle a+b"#) - 15 * 0.7) < 1e-9)
    }

    @Test func scriptsAreScaledByTheFontsPercentages() {
        // x^2: 5 pt + 0.7 × 5 pt + space after script (100 units at 10 pt = 1 pt).
        #expect(abs(Self.width("x^2") - (5 + 3.5 + 1)) < 1e-9)
        // x^{2^2}: the second level at 50 %, the inner space after script at 70 %.
        #expect(abs(Self.width("x^{2^2}") - (5 + 3.5 + 2.5 + 0.7 + 1)) < 1e-9)
    }

    /// A prime is a superscript (`f'` is `f^{\prime}`, The TeXbook ch. 16): a subscript after
    /// primes goes under them, as under any superscript, not after them. Glyphs 5 pt, scripts
    /// at 70 %: `f'_n` is f, the prime, and `n` from the prime's left edge.
    @Test(arguments: [("f'_n", 1), ("f''_{ij}", 1), ("y'^2_k", 1)])
    func aSubscriptAfterPrimesGoesUnderThem(source: String, primes: Int) {
        let box = Self.layout.layout(MathParser.parse(source), style: .text)
        let glyphs = box.items.compactMap { item -> (glyph: UInt32, x: Double, y: Double)? in
            if case .glyph(let glyph, let x, let y, _, _) = item { (glyph, x, y) } else { nil }
        }
        let prime = glyphs.first { (0x2032...0x2034).contains($0.glyph) }
        let lowered = glyphs.filter { $0.y < 0 }
        #expect(prime != nil && !lowered.isEmpty, "\(glyphs)")
        #expect(abs((lowered.map(\.x).min() ?? -1) - (prime?.x ?? 0)) < 1e-9, "\(source): \(glyphs)")
    }

    @Test func fractionsSitOnTheAxis() {
        let box = Self.layout.layout(MathParser.parse(#"\frac{a}{b}"#), style: .display)
        let rule = box.items.compactMap { item -> (y: Double, height: Double)? in
            if case .rule(_, let y, _, let height, _) = item { return (y, height) }
            return nil
        }
        #expect(rule.count == 1)
        // The rule's middle is on the axis (250 units = 2.5 pt).
        #expect(abs(rule[0].y + rule[0].height / 2 - 2.5) < 1e-9)
        // Numerator in text style (full size), with \nulldelimiterspace on each side.
        #expect(abs(box.width - (5 + 2 * 1.2)) < 1e-9)
    }

    @Test func displayOperatorsTakeALargerVariantAndLimits() {
        let text = Self.layout.layout(MathParser.parse(#"\sum_{i}^{n}"#), style: .text)
        let display = Self.layout.layout(MathParser.parse(#"\sum_{i}^{n}"#), style: .display)
        #expect(display.height + display.depth > text.height + text.depth)
        // Limits above and below: as wide as the widest of the three.
        #expect(display.width < text.width)
    }

    /// `\overset`, `\underset` and `\stackrel` set their label over or under the base, as limits
    /// (amsmath makes the base an operator with `\limits`), in any style: the formula is as
    /// wide as its wider part, not the base and a script beside it. `\limits` after an atom
    /// that is not an operator changes nothing, as TeX refuses it.
    @Test(arguments: [#"\overset{a}{=}"#, #"\stackrel{a}{=}"#, #"\underset{a}{=}"#])
    func labelsSetOverOrUnderTheBase(source: String) {
        for style in [MathStyle.display, .text] {
            let box = Self.layout.layout(MathParser.parse(source), style: style)
            // One glyph 5 pt wide, the label (scaled to 70 %) centred over or under it.
            #expect(abs(box.width - 5) < 1e-9, "\(source) \(style)")
            let plain = Self.layout.layout(MathParser.parse("="), style: style)
            #expect(box.height + box.depth > plain.height + plain.depth, "\(source) \(style)")
        }
        #expect(abs(Self.width(#"x\limits^2"#) - Self.width("x^2")) < 1e-9)
    }

    /// `\boxed` draws four rules around its base, 0.3 em from it, each 0.04 em thick.
    @Test func boxedFramesItsBase() {
        let box = Self.layout.layout(MathParser.parse(#"\boxed{a}"#), style: .text)
        let rules = box.items.compactMap { item -> (x: Double, y: Double, width: Double, height: Double)? in
            if case .rule(let x, let y, let width, let height, _) = item { return (x, y, width, height) }
            return nil
        }
        #expect(rules.count == 4)
        // The glyph (5 pt) with 3 pt of space and a 0.4 pt rule on each side.
        #expect(abs(box.width - (5 + 2 * (3 + 0.4))) < 1e-9)
        #expect(abs(box.height - (7 + 3 + 0.4)) < 1e-9 && abs(box.depth - (2 + 3 + 0.4)) < 1e-9)
        #expect(rules.allSatisfy { min($0.width, $0.height) == 0.4 })
    }

    /// `\phantom` takes its base's room and draws nothing; `\hphantom` only its width,
    /// `\vphantom` only its height and depth; `\smash` draws its base in a box of no height
    /// or depth; `\mathrlap` in a box of no width.
    @Test func phantomsKeepTheExtentsTheyName() {
        #expect(abs(Self.width(#"x\phantom{yy}z"#) - Self.width("xyyz")) < 1e-9)
        let phantom = Self.layout.layout(MathParser.parse(#"\phantom{yy}"#), style: .text)
        #expect(phantom.items.isEmpty && abs(phantom.height - 7) < 1e-9 && abs(phantom.depth - 2) < 1e-9)
        let fraction = Self.layout.layout(MathParser.parse(#"\frac{a}{b}"#), style: .text)
        let vertical = Self.layout.layout(MathParser.parse(#"\vphantom{\frac{a}{b}}"#), style: .text)
        #expect(vertical.width == 0 && vertical.items.isEmpty)
        #expect(abs(vertical.height - fraction.height) < 1e-9 && abs(vertical.depth - fraction.depth) < 1e-9)
        let horizontal = Self.layout.layout(MathParser.parse(#"\hphantom{\frac{a}{b}}"#), style: .text)
        #expect(abs(horizontal.width - fraction.width) < 1e-9 && horizontal.height == 0 && horizontal.depth == 0)
        let smashed = Self.layout.layout(MathParser.parse(#"\smash{\frac{a}{b}}"#), style: .text)
        #expect(smashed.height == 0 && smashed.depth == 0 && smashed.items.count == fraction.items.count)
        let bottom = Self.layout.layout(MathParser.parse(#"\smash[b]{\frac{a}{b}}"#), style: .text)
        #expect(abs(bottom.height - fraction.height) < 1e-9 && bottom.depth == 0)
        #expect(abs(Self.width(#"\mathrlap{xx}y"#) - 5) < 1e-9)
        let left = Self.layout.layout(MathParser.parse(#"\mathllap{x}"#), style: .text)
        #expect(left.width == 0 && left.items.map(\.x) == [-5])
    }

    /// `\xrightarrow` stretches its arrow to hold its labels (each padded by 14 mu of its
    /// style), set above and below it as limits; a short label keeps the arrow's own glyph.
    @Test func extensibleArrowsHoldTheirLabels() {
        let arrow = Self.layout.layout(MathParser.parse(#"\xrightarrow[b]{a}"#), style: .text)
        let glyphs = arrow.items.compactMap { item -> (glyph: UInt32, y: Double)? in
            if case .glyph(let glyph, _, let y, _, _) = item { (glyph, y) } else { nil }
        }
        // A label: 3.5 pt at 70 %, and 14 mu of 7 pt: 8.94 pt, which the fourth variant (9 pt)
        // holds.
        #expect(glyphs.contains { $0.glyph == 0x10_0004 && $0.y == 0 }, "\(glyphs)")
        #expect(glyphs.contains { $0.glyph == MathAlphabet.italic.map("a").value && $0.y > 0 }, "\(glyphs)")
        #expect(glyphs.contains { $0.glyph == MathAlphabet.italic.map("b").value && $0.y < 0 }, "\(glyphs)")
        let plain = Self.layout.layout(MathParser.parse(#"\xrightarrow{}"#), style: .text)
        #expect(plain.width < arrow.width)
    }

    /// `\colorbox` fills the frame's box behind its text and draws no rules; `\fcolorbox`
    /// draws both, the rules in their colour.
    @Test func colorBoxesFillBehindTheirBase() {
        let colored = MathLayout(
            font: FixedMathFont(), size: 10,
            colors: { name in
                name == "yellow" ? MathColor(red: 1, green: 1, blue: 0) : MathColor(red: 1, green: 0, blue: 0)
            })
        func rules(_ source: String) -> [MathColor?] {
            colored.layout(MathParser.parse(source), style: .text).items.compactMap { item -> MathColor?? in
                if case .rule(_, _, _, _, let color) = item { color } else { nil }
            }
        }
        #expect(rules(#"\colorbox{yellow}{x}"#) == [MathColor(red: 1, green: 1, blue: 0)])
        let framed = rules(#"\fcolorbox{red}{yellow}{x}"#)
        #expect(framed.count == 5 && framed.first == MathColor(red: 1, green: 1, blue: 0))
        #expect(framed.dropFirst().allSatisfy { $0 == MathColor(red: 1, green: 0, blue: 0) })
    }

    /// A box of many items is placed in the box around it as a group, not copied into it, so
    /// radicals nested 190 deep are laid out in time linear in what they draw (copying each
    /// level's items into the next took time quadratic in the depth); what they draw, with
    /// each group's items moved into place and coloured as the innermost colour asks, is that
    /// of the copies.
    @Test func nestedBoxesAreLaidOutInLinearTime() {
        let colored = MathLayout(
            font: FixedMathFont(), size: 10,
            colors: { name in
                name == "red" ? MathColor(red: 1, green: 0, blue: 0) : MathColor(red: 0, green: 0, blue: 1)
            })
        func nested(_ depth: Int) -> String {
            #"\color{red}{"# + String(repeating: #"\sqrt{"#, count: depth) + #"\color{blue}{x}"#
                + String(repeating: "}", count: depth + 1)
        }
        let box = colored.layout(MathParser.parse(nested(190)), style: .text)
        let drawn = box.drawnItems
        #expect(box.items.count < 2 * MathBox.largestCopied, "\(box.items.count) items at the top")
        let glyphs = drawn.filter { if case .glyph = $0 { true } else { false } }
        let rules = drawn.filter { if case .rule = $0 { true } else { false } }
        #expect(glyphs.count == 191 && rules.count == 190, "\(glyphs.count) glyphs, \(rules.count) rules")
        let colors = glyphs.compactMap { item -> MathColor? in
            if case .glyph(_, _, _, _, let color) = item { color } else { nil }
        }
        #expect(colors.filter { $0.red == 1 }.count == 190 && colors.last == MathColor(red: 0, green: 0, blue: 1))
        // The innermost glyph stands right of every sign around it, and inside the outermost.
        let x = glyphs.last?.x ?? 0
        #expect(x > glyphs.dropLast().map(\.x).max() ?? .infinity && x < box.width)

        func seconds(_ depth: Int) -> Double {
            let source = MathParser.parse(nested(depth))
            let start = ContinuousClock.now
            for _ in 0..<20 { _ = colored.layout(source, style: .text).drawnItems.count }
            let elapsed = ContinuousClock.now - start
            return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        }
        _ = seconds(40)
        let (shallow, deep) = (seconds(40), seconds(160))
        #expect(deep <= 8 * shallow, "depth 160: \(deep) s, depth 40: \(shallow) s")
    }

    /// `\cancel` strikes its base from corner to corner, `\bcancel` the other way, `\xcancel`
    /// both; the base keeps its box; `\cancelto`'s value is the superscript.
    @Test func cancelStrikesItsBase() {
        func strokes(_ source: String) -> (box: MathBox, strokes: [(Double, Double, Double, Double)]) {
            let box = Self.layout.layout(MathParser.parse(source), style: .text)
            let strokes = box.items.compactMap { item -> (Double, Double, Double, Double)? in
                if case .stroke(let x, let y, let toX, let toY, _, _) = item { (x, y, toX, toY) } else { nil }
            }
            return (box, strokes)
        }
        let plain = Self.layout.layout(MathParser.parse("ab"), style: .text)
        let up = strokes(#"\cancel{ab}"#)
        #expect(up.strokes.count == 1 && up.strokes[0].1 < up.strokes[0].3, "\(up.strokes)")
        #expect(up.box.width == plain.width && up.box.height == plain.height && up.box.depth == plain.depth)
        let down = strokes(#"\bcancel{ab}"#)
        #expect(down.strokes.count == 1 && down.strokes[0].1 > down.strokes[0].3)
        #expect(strokes(#"\xcancel{ab}"#).strokes.count == 2)
        #expect(MathParser.parse(#"\cancelto{0}{x}"#).plainText == "x⁰")
    }

    /// An `array`'s `|` rules its column boundaries and `\hline` its row boundaries, 0.04 em
    /// thick (LaTeX's `\arrayrulewidth`); a rule between columns widens their gap by its
    /// width, one at an outer edge adds itself outside the `\arraycolsep` (0.5 em) an array
    /// has at each edge; `\cline{2-2}` spans its column only.
    @Test func arrayRulesStandAtTheirBoundaries() {
        func rules(_ source: String) -> (box: MathBox, rules: [(x: Double, y: Double, width: Double, height: Double)]) {
            let box = Self.layout.layout(MathParser.parse(source), style: .text)
            let rules = box.items.compactMap { item -> (x: Double, y: Double, width: Double, height: Double)? in
                if case .rule(let x, let y, let width, let height, _) = item { (x, y, width, height) } else { nil }
            }
            return (box, rules)
        }
        let plain = rules(#"\begin{array}{cc} a & b \\ c & d \end{array}"#)
        let ruled = rules(#"\begin{array}{c|c} a & b \\ \hline c & d \end{array}"#)
        #expect(plain.rules.isEmpty && ruled.rules.count == 2, "\(ruled.rules)")
        #expect(abs(ruled.box.width - plain.box.width - 0.4) < 1e-9)
        let across = ruled.rules.first { $0.width > $0.height }
        let down = ruled.rules.first { $0.height > $0.width }
        #expect(across.map { abs($0.width - ruled.box.width) < 1e-9 && $0.height == 0.4 } == true)
        #expect(down.map { abs($0.height - (ruled.box.height + ruled.box.depth)) < 1e-9 && $0.width == 0.4 } == true)
        // A glyph is 5 pt, the gap 1 em and the space before the first column half of it
        // (LaTeX's `\arraycolsep`): the rule stands in the gap's middle.
        #expect(down.map { abs($0.x - 15) < 1e-9 } == true, "\(String(describing: down))")
        let boxed = rules(#"\begin{array}{|c|} a \\ \hline b \\ \hline \end{array}"#)
        #expect(boxed.rules.count == 4, "\(boxed.rules)")
        #expect(abs(boxed.box.width - (5 + 2 * (5 + 0.4))) < 1e-9, "\(boxed.box.width)")
        let partial = rules(#"\begin{array}{cc} a & b \\ \cline{2-2} c & d \end{array}"#)
        #expect(partial.rules.count == 1 && partial.rules.first.map { abs($0.x - 20) < 1e-9 && $0.width == 5 } == true)
    }

    /// An array's `@{…}` sets what it holds in place of the space at its boundary (LaTeX's
    /// `r@{.}l` aligns decimal points; `@{}` at an edge takes the `\arraycolsep` away), and an
    /// array has half a column's space at each edge where a matrix has none. `@{…}` was
    /// skipped: `3&14` read `3 14`.
    @Test func arrayColumnMaterialStandsInPlaceOfTheSpace() {
        // Glyphs 5 pt, the column gap 1 em = 10 pt, each edge 5 pt.
        #expect(abs(Self.width(#"\begin{array}{c} a \end{array}"#) - 15) < 1e-9)
        #expect(abs(Self.width(#"\begin{matrix} a \end{matrix}"#) - 5) < 1e-9)
        #expect(abs(Self.width(#"\begin{array}{@{}c@{}} a \end{array}"#) - 5) < 1e-9)
        #expect(abs(Self.width(#"\begin{array}{@{}c@{}c@{}} a & b \end{array}"#) - 10) < 1e-9)
        // A period between two columns: its glyph instead of the gap.
        #expect(abs(Self.width(#"\begin{array}{r@{.}l} a & b \end{array}"#) - (5 + 5 + 5 + 5 + 5)) < 1e-9)
        let decimals = MathParser.parse(#"\begin{array}{r@{.}l} 3 & 14 \\ 2 & 718 \end{array}"#)
        #expect(decimals.problems.isEmpty)
        #expect(decimals.plainText.contains("."), "\(decimals.plainText)")
    }

    @Test func delimitersGrowWithWhatTheyEnclose() {
        let small = Self.layout.layout(MathParser.parse(#"\left( a \right)"#), style: .display)
        let large = Self.layout.layout(MathParser.parse(#"\left( \frac{\frac{a}{b}}{c} \right)"#), style: .display)
        #expect(large.height + large.depth > small.height + small.depth)
        let glyphs = large.items.compactMap { item -> UInt32? in
            if case .glyph(let glyph, _, _, _, _) = item, glyph >= 0x10_0000 { return glyph }
            return nil
        }
        #expect(!glyphs.isEmpty)  // a size variant, not the nominal parenthesis
    }

    /// A glyph assembly reaches any length its extenders can: a delimiter around 40 rows of
    /// a matrix (some 500 pt) covered only their middle rows when the extenders were repeated
    /// at most 64 times; the fewest repeats that reach the length are taken.
    @Test(arguments: [300.0, 3_000.0, 50_000.0])
    func anAssemblyReachesTheLengthAskedWithTheFewestRepeats(_ length: Double) {
        let extender = MathGlyphPart(glyph: 2, startConnector: 50, endConnector: 50, fullAdvance: 100, isExtender: true)
        let parts = [
            MathGlyphPart(glyph: 1, startConnector: 0, endConnector: 50, fullAdvance: 300, isExtender: false),
            extender,
            MathGlyphPart(glyph: 3, startConnector: 50, endConnector: 0, fullAdvance: 300, isExtender: false),
        ]
        let box = Self.layout.assemblyBox(parts, length: length, vertical: true, MathStyle(.display))
        // Font units at 10 pt and 1,000 units an em: a hundredth of a point a unit.
        let reached = (box.height + box.depth) * 100
        #expect(reached >= length - 1e-6, "\(reached) against \(length)")
        let repeats = box.items.count - 2
        // One repeat fewer would not reach: each adds 100 units less the 10 of overlap, to the
        // 590 of the two ends joined.
        #expect(Double(repeats) * 90 + 590 >= length, "\(repeats)")
        #expect(repeats == 1 || Double(repeats - 1) * 90 + 590 < length, "\(repeats)")
    }

    /// A fraction of `\frac`, `\genfrac` or `\binom` is an Ord atom, as LaTeX's braces make it:
    /// no thin space between it and a letter (`\frac12 m`), as with `{\frac12}m`.
    @Test func fractionsAreOrdinaryAtoms() {
        for source in [#"\frac12"#, #"\dfrac12"#, #"\binom12"#, #"\genfrac{}{}{}{}12"#] {
            let alone = Self.width(source)
            let letter = Self.width("m")
            #expect(abs(Self.width(source + " m") - (alone + letter)) < 1e-9, "\(source)")
            #expect(abs(Self.width(source + " m") - Self.width("{" + source + "}m")) < 1e-9, "\(source)")
        }
    }

    /// An accent that does not stretch (`\hat`) keeps its glyph over a wide base; `\widehat`
    /// takes the widest variant no wider than the base.
    @Test func onlyWideAccentsStretch() {
        func accentGlyph(_ source: String) -> UInt32? {
            let box = Self.layout.layout(MathParser.parse(source), style: .text)
            return box.drawnItems.compactMap { if case .glyph(let glyph, _, _, _, _) = $0 { glyph } else { nil } }
                .first { $0 == 0x302 || $0 >= 0x10_0000 }
        }
        #expect(accentGlyph(#"\hat{xyz}"#) == 0x302)
        #expect(accentGlyph(#"\hat{x}"#) == 0x302)
        #expect(accentGlyph(#"\widehat{xyz}"#).map { $0 >= 0x10_0000 } == true)
    }

    /// A wide arrow over or under a base wider than its largest size variant (`\overrightarrow`
    /// over `x+y+z`) is its assembly of parts made as wide as the base, as LuaTeX stretches
    /// a wide accent, not its largest variant over the middle of the base; `\vec` keeps its
    /// glyph. On a font whose arrow (U+20D7) has a head and an extender, 100 units each.
    @Test(arguments: [#"\overrightarrow{x+y+z}"#, #"\overleftarrow{abcdefgh}"#, #"\underrightarrow{abcdef}"#])
    func wideArrowsStretchToTheirBase(_ source: String) {
        struct Assembling: MathFont {
            let base = FixedMathFont()
            var unitsPerEm: Double { base.unitsPerEm }
            var minimumConnectorOverlap: Double { 0 }
            func constant(_ constant: MathConstant) -> Double { base.constant(constant) }
            func glyph(for scalar: Unicode.Scalar) -> UInt32? { scalar.value }
            func scriptGlyph(for scalar: Unicode.Scalar, level: Int) -> UInt32? { scalar.value }
            func shape(_ text: String) -> [MathShapedGlyph] { base.shape(text) }
            func advance(of glyph: UInt32) -> Double { glyph >= 0xE000 && glyph < 0xF000 ? 100 : 500 }
            func bounds(of glyph: UInt32) -> (ascent: Double, descent: Double) { (700, 200) }
            func italicsCorrection(of glyph: UInt32) -> Double { 0 }
            func topAccentAttachment(of glyph: UInt32) -> Double? { nil }
            func variants(of glyph: UInt32, vertical: Bool) -> [(glyph: UInt32, advance: Double)] { [] }
            func assembly(of glyph: UInt32, vertical: Bool) -> [MathGlyphPart] {
                guard !vertical, (0x20D6...0x20EF).contains(glyph) else { return [] }
                return [
                    MathGlyphPart(
                        glyph: 0xE001, startConnector: 0, endConnector: 50, fullAdvance: 100, isExtender: true),
                    MathGlyphPart(
                        glyph: 0xE002, startConnector: 50, endConnector: 0, fullAdvance: 100, isExtender: false),
                ]
            }
        }
        let layout = MathLayout(font: Assembling(), size: 10)
        let box = layout.layout(MathParser.parse(source), style: .text)
        let parts = box.drawnItems.compactMap { item -> (glyph: UInt32, x: Double)? in
            if case .glyph(let glyph, let x, _, _, _) = item, glyph >= 0xE000, glyph < 0xF000 {
                (glyph, x)
            } else {
                nil
            }
        }
        // The base's width in parts of 1 pt (100 units at 10 pt): at least that many.
        let baseWidth = box.width
        #expect(Double(parts.count) >= baseWidth - 1, "\(source): \(parts.count) parts over \(baseWidth) pt")
        #expect(parts.contains { $0.glyph == 0xE002 }, "\(source): the head")
        let vector = layout.layout(MathParser.parse(#"\vec{xyz}"#), style: .text)
        #expect(!vector.drawnItems.contains { if case .glyph(0xE001, _, _, _, _) = $0 { true } else { false } })
    }

    /// A `\substack`'s rows are script size wherever it stands: in a limit (itself script
    /// style) they stand as close as at the top of a formula, not a text line apart.
    @Test func aSubstacksRowsAreScriptSizeInALimit() {
        func pitch(_ source: String) -> Double? {
            let box = Self.layout.layout(MathParser.parse(source), style: .display)
            let rows = box.drawnItems.compactMap { item -> Double? in
                if case .glyph(let glyph, _, let y, _, _) = item,
                    glyph == MathAlphabet.italic.map("p").value
                        || glyph == MathAlphabet.italic.map("q").value
                {
                    return y
                }
                return nil
            }
            return rows.count == 2 ? abs(rows[0] - rows[1]) : nil
        }
        let alone = pitch(#"\substack{p \\ q}"#)
        let inLimit = pitch(#"\sum_{\substack{p \\ q}} x"#)
        #expect(alone != nil && inLimit != nil)
        #expect(
            abs((alone ?? 0) - (inLimit ?? 99)) < 0.01, "\(String(describing: alone)) \(String(describing: inLimit))")
    }

    /// A character the math font lacks is set in the text's face (whose fallback finds a font
    /// that has it), in every style, not as the math font's missing-glyph box.
    @Test func charactersTheMathFontLacksAreSetInTheTextFace() {
        struct Lacking: MathFont {
            let base = FixedMathFont()
            var unitsPerEm: Double { base.unitsPerEm }
            var minimumConnectorOverlap: Double { base.minimumConnectorOverlap }
            func constant(_ constant: MathConstant) -> Double { base.constant(constant) }
            func glyph(for scalar: Unicode.Scalar) -> UInt32? { scalar == "½" || scalar == "ϝ" ? nil : scalar.value }
            func scriptGlyph(for scalar: Unicode.Scalar, level: Int) -> UInt32? { glyph(for: scalar) }
            func shape(_ text: String) -> [MathShapedGlyph] { base.shape(text) }
            func advance(of glyph: UInt32) -> Double { base.advance(of: glyph) }
            func bounds(of glyph: UInt32) -> (ascent: Double, descent: Double) { base.bounds(of: glyph) }
            func italicsCorrection(of glyph: UInt32) -> Double { 0 }
            func topAccentAttachment(of glyph: UInt32) -> Double? { nil }
            func variants(of glyph: UInt32, vertical: Bool) -> [(glyph: UInt32, advance: Double)] {
                base.variants(of: glyph, vertical: vertical)
            }
            func assembly(of glyph: UInt32, vertical: Bool) -> [MathGlyphPart] { [] }
        }
        struct Measurer: MathTextMeasurer {
            func measure(_ text: String, face: MathTextFace, size: Double) -> MathTextExtent {
                MathTextExtent(width: Double(text.count) * size / 2, ascent: size * 0.7, descent: size * 0.2)
            }
        }
        let layout = MathLayout(font: Lacking(), size: 10, textMeasurer: Measurer())
        for source in ["x + ½", #"a^{ϝ}"#, #"\digamma"#] {
            let box = layout.layout(MathParser.parse(source), style: .text)
            let texts = box.drawnItems.compactMap { if case .text(let text, _, _, _, _, _) = $0 { text } else { nil } }
            let glyphs = box.drawnItems.compactMap { if case .glyph(let glyph, _, _, _, _) = $0 { glyph } else { nil } }
            #expect(texts.contains { $0 == "½" || $0 == "ϝ" }, "\(source): \(box.drawnItems)")
            #expect(!glyphs.contains(0), "\(source)")
        }
    }

    /// An `\intertext` row is set flush left and no column's width: the aligned rows stand
    /// where they stand without it.
    @Test func interTextTakesNoColumnsWidth() {
        let plain = Self.layout.layout(
            MathParser.parse(#"\begin{aligned} x &= y \\ u &= v \end{aligned}"#), style: .display)
        let long = Self.layout.layout(
            MathParser.parse(#"\begin{aligned} x &= y \\ \intertext{some words of text} u &= v \end{aligned}"#),
            style: .display)
        func xs(_ box: MathBox) -> [Double] {
            box.drawnItems.compactMap {
                if case .glyph(let glyph, let x, _, _, _) = $0, glyph == 0x3D { x } else { nil }
            }
        }
        #expect(xs(plain) == xs(long))
        #expect(long.width > plain.width)
    }

    @Test func unknownCommandsAreDrawnInTheErrorColour() {
        let box = Self.layout.layout(MathParser.parse(#"\nosuchthing"#), style: .text)
        let colored = box.items.filter {
            if case .glyph(_, _, _, _, let color) = $0 { return color == Self.layout.errorColor }
            return false
        }
        #expect(colored.count == #"\nosuchthing"#.count)
    }

    @Test func inlineFormulasBreakAfterRelationsAndBinaryOperations() {
        let formula = MathParser.parse("-a + b = c := d, e")
        // After `+`, `=` and `:=`; not after the leading `-` (ordinary), not between `:` and
        // `=`, not after the comma.
        #expect(formula.breakIndices == [2, 4, 7])
        let pieces = Self.layout.layoutPieces(formula, style: .text)
        let whole = Self.layout.layout(formula, style: .text)
        #expect(pieces.count == 4)
        #expect(abs(pieces.map(\.width).reduce(0, +) - whole.width) < 1e-9)
        #expect(pieces.map(\.items.count).reduce(0, +) == whole.items.count)
        #expect(formula.source(ofNodes: 0..<3) == "-a +")
        #expect(formula.source(ofNodes: 3..<5) == "b =")
        #expect(MathParser.parse(#"\left(a + b\right)"#).breakIndices.isEmpty)
    }

    /// An alignment's columns come in pairs, right- then left-aligned: the two of a pair touch,
    /// pairs stand 2 em apart — the second pair as the first (the gaps repeat, as the
    /// alignments do). On the fixed font every cell `x` is 5 pt wide.
    @Test func alignmentPairsTouchAndStandTwoEmApart() {
        let one = Self.width(#"\begin{aligned} x & x \end{aligned}"#, .display)
        let two = Self.width(#"\begin{aligned} x & x & x & x \end{aligned}"#, .display)
        #expect(abs(one - 10) < 1e-9, "\(one)")
        #expect(abs(two - (20 + 20)) < 1e-9, "\(two): four 5 pt cells and one 2 em gap")
        // `alignat` and `alignedat` put no space between pairs: only what is written.
        for environment in ["alignat", "alignat*", "alignedat"] {
            let set = Self.width(#"\begin{"# + environment + #"}{2} x & x & x & x \end{"# + environment + "}", .display)
            #expect(abs(set - 20) < 1e-9, "\(environment): \(set)")
        }
    }
}
