/// Lays out a ``MathFormula`` into a ``MathBox`` of glyph ids and rules, by the rules of The
/// TeXbook, Appendix G, with the parameters of the font's OpenType MATH table (as LuaTeX and
/// MathML Core read them): styles and their sizes, the inter-atom spacing table, scripts,
/// limits, fractions on the axis, radicals, stretchy delimiters, accents and arrays.
public struct MathLayout: Sendable {
    /// The math font.
    public let font: any MathFont
    /// The size of text style, pt (the surrounding text's size).
    public let size: Double
    /// The colour of source that could not be read.
    public let errorColor: MathColor
    /// The colour a `\color` name stands for; nil: unknown (the text's colour is kept).
    public let colors: @Sendable (String) -> MathColor?
    /// Measures `\text` in the surrounding text's face; nil: `\text` is set in the math
    /// font's own letters (its italic and bold math alphabets for `\textit` and `\textbf`).
    public let textMeasurer: (any MathTextMeasurer)?

    /// Creates a layout for `font` at `size` pt; `textMeasurer` measures `\text` in the text's
    /// face (nil: in the math font).
    public init(
        font: any MathFont, size: Double, errorColor: MathColor = MathColor(red: 0.8, green: 0, blue: 0),
        colors: @escaping @Sendable (String) -> MathColor? = { _ in nil },
        textMeasurer: (any MathTextMeasurer)? = nil
    ) {
        self.font = font
        self.size = size
        self.errorColor = errorColor
        self.colors = colors
        self.textMeasurer = textMeasurer
    }

    /// Lays out `formula` in `style` (``MathStyle/display`` for a displayed formula).
    public func layout(_ formula: MathFormula, style: MathStyle) -> MathBox {
        layoutList(formula.nodes, style: style)
    }

    // MARK: Units

    /// pt per font unit in `style`: the text size, scaled down in script styles by the
    /// font's script percentages.
    func scale(_ style: MathStyle) -> Double {
        let base = size / font.unitsPerEm
        switch style.level {
        case .display, .text: return base
        case .script: return base * font.constant(.scriptPercentScaleDown) / 100
        case .scriptScript: return base * font.constant(.scriptScriptPercentScaleDown) / 100
        }
    }

    /// A MATH constant in pt for `style`.
    func constant(_ constant: MathConstant, _ style: MathStyle) -> Double {
        font.constant(constant) * scale(style)
    }

    /// The em of `style`, pt.
    func em(_ style: MathStyle) -> Double { scale(style) * font.unitsPerEm }

    /// The math axis of `style`, pt above the baseline.
    func axis(_ style: MathStyle) -> Double { constant(.axisHeight, style) }

    // MARK: Glyphs

    /// A box holding one glyph of the font in `style`.
    func glyphBox(_ glyph: UInt32, _ style: MathStyle) -> MathBox {
        let factor = scale(style)
        let bounds = font.bounds(of: glyph)
        var box = MathBox(width: font.advance(of: glyph) * factor)
        box.height = bounds.ascent * factor
        box.depth = bounds.descent * factor
        box.italicsCorrection = font.italicsCorrection(of: glyph) * factor
        box.accentAttachment = font.topAccentAttachment(of: glyph).map { $0 * factor }
        box.isCharacter = true
        box.items = [.glyph(glyph, x: 0, y: 0, size: factor * font.unitsPerEm, color: nil)]
        return box
    }

    /// A box of `text` shaped with the font in `style` (a symbol of several scalars, `\text`).
    func textBox(_ text: String, _ style: MathStyle, color: MathColor? = nil) -> MathBox {
        let factor = scale(style)
        var box = MathBox()
        for shaped in font.shape(text) {
            let bounds = font.bounds(of: shaped.glyph)
            box.height = max(box.height, bounds.ascent * factor)
            box.depth = max(box.depth, bounds.descent * factor)
            box.items.append(
                .glyph(
                    shaped.glyph, x: box.width + shaped.offset * factor, y: 0, size: factor * font.unitsPerEm,
                    color: color))
            box.width += shaped.advance * factor
        }
        return box
    }

    /// A box of `text` in the surrounding text's face at the size of `style` (a script style's
    /// text shrinks with it, as LaTeX's `\text` does), measured by ``textMeasurer``; without
    /// one, the math font's letters (its italic or bold alphabet for those faces).
    func proseBox(_ text: String, face: MathTextFace, _ style: MathStyle) -> MathBox {
        guard let textMeasurer else {
            let letters =
                switch face {
                case .italic: MathAlphabet.italic.map(text)
                case .bold: MathAlphabet.bold.map(text)
                case .regular, .monospace: text
                }
            return textBox(letters, style)
        }
        let size = em(style)
        let extent = textMeasurer.measure(text, face: face, size: size)
        var box = MathBox(width: extent.width)
        box.height = extent.ascent
        box.depth = extent.descent
        box.items = [.text(text, face: face, x: 0, y: 0, size: size, color: nil)]
        return box
    }

    /// A box for a character of the formula: its glyph, or the shaped text for several scalars.
    /// A character the math font lacks (`½`, `ϝ`) is set in the surrounding text's face, whose
    /// fallback finds a font that draws it, as unicode-math falls back on its text font.
    func symbolBox(_ text: String, _ style: MathStyle) -> MathBox {
        let scalars = text.unicodeScalars
        if scalars.count == 1 {
            let glyph =
                style.level >= .script
                ? font.scriptGlyph(for: scalars.first!, level: style.level == .script ? 1 : 2)
                : font.glyph(for: scalars.first!)
            if let glyph { return glyphBox(glyph, style) }
            if textMeasurer != nil {
                var box = proseBox(text, face: .regular, style)
                box.isCharacter = true
                return box
            }
        }
        var box = textBox(text, style)
        box.isCharacter = scalars.count == 1
        return box
    }

    // MARK: Lists

    /// One atom laid out, with its class for spacing.
    struct Piece {
        var mathClass: MathClass?
        var box: MathBox
    }

    /// Lays out a math list in `style`: each atom, then TeX's bin-to-ord changes (Appendix G,
    /// rules 5 and 6) and the spaces between atoms (the table of chapter 18, p. 170).
    func layoutList(_ nodes: [MathNode], style initialStyle: MathStyle) -> MathBox {
        var starts: [Double] = []
        return layoutList(nodes, style: initialStyle, nodeStarts: &starts)
    }

    /// Lays out `formula` cut after each of its ``MathFormula/breakIndices``: one box per piece,
    /// each as wide as its part of the whole (the space after a relation or binary operation
    /// ends its piece), all as high and deep as the whole formula, so that a line break between
    /// two pieces is a break after the relation, as TeX makes it.
    public func layoutPieces(_ formula: MathFormula, style: MathStyle) -> [MathBox] {
        var starts: [Double] = []
        let whole = layoutList(formula.nodes, style: style, nodeStarts: &starts)
        let cuts = formula.breakIndices.map { $0 + 1 }.filter { $0 < starts.count }.map { starts[$0] }
        guard !cuts.isEmpty else { return [whole] }
        let bounds = [0] + cuts + [whole.width]
        var pieces = (0..<(bounds.count - 1)).map { index in
            var piece = MathBox(width: bounds[index + 1] - bounds[index])
            piece.height = whole.height
            piece.depth = whole.depth
            return piece
        }
        for item in whole.items {
            // The last piece starting at or before the item (a binary search: the bounds ascend).
            var low = 0
            var high = bounds.count - 1
            while high - low > 1 {
                let middle = (low + high) / 2
                if bounds[middle] <= item.x + 1e-6 { low = middle } else { high = middle }
            }
            pieces[low].items.append(item.moved(x: -bounds[low], y: 0))
        }
        return pieces
    }

    /// ``layoutList(_:style:)``, noting in `nodeStarts` where each node's box starts, pt.
    func layoutList(_ nodes: [MathNode], style initialStyle: MathStyle, nodeStarts: inout [Double]) -> MathBox {
        var style = initialStyle
        var pieces: [(piece: Piece, style: MathStyle)] = []
        for node in nodes {
            switch node {
            case .style(let level):
                style = MathStyle(level, cramped: style.cramped)
            case .space(let amount, let fixed):
                let width = fixed ? amount * size : amount * em(style) / 18
                pieces.append((Piece(mathClass: nil, box: MathBox(width: width)), style))
            case .atom(let atom):
                pieces.append((layoutAtom(atom, style), style))
            }
        }
        reclassifyBinaries(&pieces)
        var box = MathBox()
        var previous: MathClass?
        nodeStarts.removeAll()
        // The rows of the one array among the pieces, moved to where it is placed.
        var rows: [MathBoxRow] = []
        var arrays = 0
        for (piece, pieceStyle) in pieces {
            if let current = piece.mathClass {
                if let previous {
                    box.width +=
                        MathSpacing.space(between: previous, and: current, style: pieceStyle) * em(pieceStyle) / 18
                }
                previous = current
            }
            nodeStarts.append(box.width)
            if !piece.box.rows.isEmpty {
                arrays += 1
                let x = box.width
                rows = piece.box.rows.map { MathBoxRow(baseline: $0.baseline, depth: $0.depth, end: x + $0.end) }
            }
            box.append(piece.box)
        }
        if arrays == 1 { box.rows = rows }
        if pieces.count == 1 {
            box.isCharacter = pieces[0].piece.box.isCharacter
            box.accentAttachment = pieces[0].piece.box.accentAttachment
        }
        return box
    }

    /// A binary operator with no left operand, or before a relation, closing or punctuation,
    /// becomes ordinary (Appendix G, rules 5 and 6).
    func reclassifyBinaries(_ pieces: inout [(piece: Piece, style: MathStyle)]) {
        var previousIndex: Int?
        for index in pieces.indices {
            guard let current = pieces[index].piece.mathClass else { continue }
            let previous = previousIndex.flatMap { pieces[$0].piece.mathClass }
            if current == .bin, previous == nil || [.bin, .op, .rel, .open, .punct].contains(previous!) {
                pieces[index].piece.mathClass = .ord
            }
            if [.rel, .close, .punct].contains(current), let previousIndex, previous == .bin {
                pieces[previousIndex].piece.mathClass = .ord
            }
            previousIndex = index
        }
        if let last = previousIndex, pieces[last].piece.mathClass == .bin {
            pieces[last].piece.mathClass = .ord
        }
    }

    // MARK: Atoms

    /// Lays out one atom: its nucleus, then its scripts or limits.
    func layoutAtom(_ atom: MathAtom, _ style: MathStyle) -> Piece {
        var nucleus: MathBox
        var mathClass = atom.mathClass
        var isOperatorCharacter = false
        switch atom.nucleus {
        case .symbol(let text) where atom.mathClass == .op:
            nucleus = operatorBox(text, style)
            isOperatorCharacter = true
        case .symbol(let text):
            nucleus = symbolBox(text, style)
        case .list(let nodes):
            nucleus = layoutList(nodes, style: style)
            if nodes.isEmpty { mathClass = atom.mathClass == .ord ? .ord : atom.mathClass }
        case .text(let text):
            nucleus = textBox(text, style)
            nucleus.isCharacter = false
        case .prose(let text, let face):
            nucleus = proseBox(text, face: face, style)
        case .error(let source):
            nucleus = textBox(source, style, color: errorColor)
        case .colored(let name, let nodes):
            var colored = MathBox()
            let inner = layoutList(nodes, style: style)
            colored.place(inner, x: 0, y: 0, color: colors(name))
            colored.width = inner.width
            nucleus = colored
        case .fraction(let numerator, let denominator, let rule, let forced, let left, let right):
            nucleus = fractionBox(
                numerator: numerator, denominator: denominator, rule: rule,
                style: forced.map { MathStyle($0, cramped: style.cramped) } ?? style, left: left, right: right)
        case .radical(let degree, let radicand):
            nucleus = radicalBox(degree: degree, radicand: radicand, style)
        case .accent(let accent, let base, let stretchy, let bottom):
            nucleus = accentBox(accent, base: base, stretchy: stretchy, bottom: bottom, style)
        case .bar(let over, let base):
            nucleus = barBox(over: over, base: base, style)
        case .framed(let base, let frame):
            nucleus = framedBox(base, frame: frame, style)
        case .phantom(let base, let phantom):
            nucleus = phantomBox(base, phantom, style)
        case .cancelled(let base, let cancel):
            nucleus = cancelledBox(base, cancel, style)
        case .extensibleArrow(let arrow):
            nucleus = extensibleArrowBox(arrow, above: atom.superscript, below: atom.subscript, style)
        case .brace(let character, let over, let base):
            nucleus = braceBox(character, over: over, base: base, style)
        case .fenced(let delimiters, let parts):
            nucleus = fencedBox(delimiters: delimiters, parts: parts, style)
        case .sizedDelimiter(let delimiter, let level):
            nucleus = sizedDelimiterBox(delimiter, level: level, style)
        case .array(let array, let left, let right):
            nucleus = arrayBox(array, left: left, right: right, style)
        }
        if case .symbol = atom.nucleus, !isOperatorCharacter, nucleus.isCharacter, atom.subscript == nil {
            // A character's italics correction goes into its width unless a subscript follows
            // (Appendix G, rule 17); a superscript then starts after it.
            nucleus.width += nucleus.italicsCorrection
            nucleus.italicsCorrection = 0
        }
        if atom.superscript == nil && atom.subscript == nil {
            if isOperatorCharacter { nucleus.italicsCorrection = 0 }
            return Piece(mathClass: mathClass, box: nucleus)
        }
        // Limits for a large operator as TeX places them (rule 13), and for any atom set over or
        // under another (`\overset`, `\stackrel`: amsmath makes the base an operator with
        // `\limits`, then gives the whole its class).
        let limits =
            atom.limits == .above || (atom.mathClass == .op && atom.limits == .automatic && style.level == .display)
        let box =
            limits
            ? limitsBox(nucleus, superscript: atom.superscript, subscript: atom.subscript, style)
            : scriptsBox(
                nucleus, superscript: atom.superscript, subscript: atom.subscript, style,
                operatorCharacter: isOperatorCharacter, primes: atom.isPrimes)
        return Piece(mathClass: mathClass, box: box)
    }

    /// A large operator's character: in display style its first size variant at least
    /// DisplayOperatorMinHeight tall, centred on the axis (Appendix G, rule 13).
    func operatorBox(_ text: String, _ style: MathStyle) -> MathBox {
        guard text.unicodeScalars.count == 1, var glyph = font.glyph(for: text.unicodeScalars.first!) else {
            return symbolBox(text, style)
        }
        if style.level == .display {
            let minimum = font.constant(.displayOperatorMinHeight)
            let variants = font.variants(of: glyph, vertical: true)
            glyph = (variants.first { $0.advance >= minimum } ?? variants.last)?.glyph ?? glyph
        }
        let box = glyphBox(glyph, style)
        let shift = (box.height - box.depth) / 2 - axis(style)
        // After rule 13 the operator is a box, no longer a character: its scripts shift by its
        // height and depth (rule 18a).
        var centred = box.raised(by: -shift)
        centred.isCharacter = false
        return centred
    }
}

/// TeX's spaces between atoms (The TeXbook, chapter 18, p. 170), in mu: thin 3, medium 4,
/// thick 5; the spaces in parentheses in the book's table only in display and text style.
public enum MathSpacing {
    // Rows: left class, columns: right class, in the order ord op bin rel open close punct inner.
    // 0: none, 1: thin, 2: medium, 3: thick; negative: only in display and text style.
    private static let table: [[Int]] = [
        [0, 1, -2, -3, 0, 0, 0, -1],
        [1, 1, 0, -3, 0, 0, 0, -1],
        [-2, -2, 0, 0, -2, 0, 0, -2],
        [-3, -3, 0, 0, -3, 0, 0, -3],
        [0, 0, 0, 0, 0, 0, 0, 0],
        [0, 1, -2, -3, 0, 0, 0, -1],
        [-1, -1, 0, -1, -1, -1, -1, -1],
        [-1, 1, -2, -3, -1, 0, -1, -1],
    ]

    private static func index(_ mathClass: MathClass) -> Int {
        switch mathClass {
        case .ord: 0
        case .op: 1
        case .bin: 2
        case .rel: 3
        case .open: 4
        case .close: 5
        case .punct: 6
        case .inner: 7
        }
    }

    /// The space between atoms of classes `left` and `right` in `style`, mu.
    public static func space(between left: MathClass, and right: MathClass, style: MathStyle) -> Double {
        let entry = table[index(left)][index(right)]
        if entry < 0 && !style.isLarge { return 0 }
        switch abs(entry) {
        case 1: return 3
        case 2: return 4
        case 3: return 5
        default: return 0
        }
    }
}
