/// Reads the TeX math that Markdown documents use (LaTeX with `amsmath`, as GitHub's MathJax and
/// Pandoc read it) into a ``MathFormula``: atoms with TeX's classes, scripts, fractions,
/// radicals, delimiters, accents, alphabets, spaces, environments. Unknown commands are kept as
/// ``MathNucleus/error(_:)`` atoms showing their source, with a ``MathProblem``: nothing is
/// dropped and reading never fails.
public struct MathParser {
    let scalars: [Unicode.Scalar]
    /// The UTF-8 offset of each scalar, and one past the end.
    let offsets: [Int]
    var position = 0
    var problems: [MathProblem] = []
    var tag: String?
    /// Whether the formula is displayed (`\pmod` spaces itself by it, as amsmath's `\if@display`).
    var display = true
    /// The UTF-8 offset where each top-level node starts.
    var nodeOffsets: [Int] = []
    /// While the one cell of the formula's own `equation` is read, the UTF-8 offset where each
    /// of its nodes starts; given to ``nodeOffsets`` when the environment gives that cell's
    /// nodes as the formula's (``parseEnvironment(start:)``), so that each line of the display
    /// broken across lines has its own source.
    var cellOffsets: [Int]?
    /// The offsets of the cell's nodes the environment just read gave, for ``nodeOffsets``.
    var givenCellOffsets: [Int]?
    /// The alphabet `\mathbf` and its kin select; nil: TeX's default (italic letters).
    var alphabet: MathAlphabet?
    /// Nesting depth, bounded so that hostile input cannot exhaust the stack.
    var depth = 0
    static let maximumDepth = 200
    /// Set where the formula nests past ``maximumDepth``: the rest of its source is one error
    /// atom, and no later problem is reported, since each (a `}` or an argument the groups
    /// still open miss) would follow from that one.
    var abandoned = false
    /// The rest of the source where the formula nested past ``maximumDepth``, until the top
    /// level sets it as its last atom: set there, not as the innermost group's, where every
    /// group around it would place it again (its items copied once a level).
    var abandonedRest: String?
    /// How much of the rest of a formula nested too deeply is drawn, characters.
    static let longestAbandonedRest = 200
    /// The commands defined so far (``MathMacro``), by name without the backslash.
    var macros: [String: MathMacro] = [:]
    /// The definitions this formula's commands expanded.
    var usedMacros: [String: MathMacro] = [:]
    /// The labels known when the formula is read (key → tag as `\ref` prints it), and the
    /// keys this formula's `\label`s name, and its references.
    var knownLabels: [String: String] = [:]
    var labelKeys: [String] = []
    /// How many `\tag`s had been read when each of ``labelKeys`` was (a label after a second,
    /// dropped `\tag` names no tag that is set).
    var tagsBeforeLabel: [Int] = []
    var tagCount = 0
    var references: [MathReference] = []
    /// The side amsmath's `\shoveleft` or `\shoveright` asks for the row being read, if any.
    var pendingShove: MathColumnAlignment?
    /// The colours named so far, with the offset of their command (``MathFormula/colorNames``).
    var colorNames: [MathColorName] = []
    /// The argument of the formula's `\tag` as written (`1`, `A`).
    var rawTag: String?
    /// Whether `\notag` or `\nonumber` was read (in a numbered environment's row: that row
    /// takes no number).
    var numberSuppressed = false
    /// The number the document's next automatically numbered equation takes; nil: equations
    /// are numbered only by their `\tag` (``parse(_:display:macros:labels:budget:firstNumber:)``).
    var firstNumber: Int?
    /// How many automatic numbers this formula's numbered environments took.
    var numbersUsed = 0
    /// The numbered environment (`equation`, `align`…) being read, if any: one inside it
    /// numbers nothing of its own.
    var numberedEnvironment: String?
    /// The label of each row of the formula's numbered multi-row environment (`align`,
    /// `gather`, `multline`), by row (``MathFormula/rowTags``).
    var rowTags: [String?] = []
    /// The labels a numbered environment and its rows gave, key → number or tag as `\ref` prints it.
    var numberedLabels: [String: String] = [:]
    /// How many more characters definitions may expand to in this formula.
    var expansionBudget = MathParser.minimumExpansionBudget
    /// The characters definitions expanded to in this formula so far.
    var expandedCharacters = 0
    /// How deep in definitions' expansions this parser reads (0: the formula's own source), and
    /// whether an expansion ran away (``expand(_:named:start:into:stop:)``).
    var expansionDepth = 0
    var ranAway = false

    /// Parses `source` (the text between the dollars). Rows written with `&` and `\\`
    /// directly in a displayed formula are set as `aligned`; an inline formula has one row,
    /// so there each `&` or `\\` is a problem, drawn as written.
    public static func parse(_ source: String, display: Bool = true) -> MathFormula {
        var macros: [String: MathMacro] = [:]
        return parse(source, display: display, macros: &macros)
    }

    /// Parses `source` with the commands `macros` defines, adding those it defines
    /// (`\newcommand`, ``MathMacro``): a document passes one table through its formulas in
    /// order, as MathJax keeps definitions for the rest of a page.
    public static func parse(
        _ source: String, display: Bool = true, macros: inout [String: MathMacro], labels: [String: String] = [:]
    ) -> MathFormula {
        var budget = MathExpansionBudget()
        return parse(source, display: display, macros: &macros, labels: labels, budget: &budget)
    }

    /// ``parse(_:display:macros:labels:)`` with what the document's definitions may still
    /// expand to (`budget`, which a document passes through its formulas in order with
    /// `macros`), less what this formula's expand to.
    ///
    /// `firstNumber` is the number the document's next automatically numbered equation takes,
    /// as amsmath counts them: `equation` and `multline` take one, `align`, `gather`,
    /// `alignat`, `flalign` and `eqnarray` one a row, a row with `\notag` or `\nonumber` none,
    /// a `\tag` standing in for the number without taking it, a starred environment none
    /// (``MathFormula/automaticNumbers``). Nil: only `\tag`s label formulas and rows.
    public static func parse(
        _ source: String, display: Bool = true, macros: inout [String: MathMacro], labels: [String: String] = [:],
        budget: inout MathExpansionBudget, firstNumber: Int? = nil
    ) -> MathFormula {
        var parser = MathParser(source)
        parser.display = display
        parser.firstNumber = display ? firstNumber : nil
        parser.macros = macros
        parser.knownLabels = labels
        parser.expansionBudget = budget.grant(length: parser.scalars.count)
        defer {
            macros = parser.macros
            budget.charge(parser.expandedCharacters, length: parser.scalars.count, ranAway: parser.ranAway)
        }
        var nodes = parser.parseList(stop: .end)
        var offsets = parser.nodeOffsets
        if parser.atRowSeparator, display {
            nodes = parser.parseTopLevelRows(first: nodes)
            offsets = [0]
        }
        while parser.atRowSeparator, !display {
            let separator = parser.current == "&" ? "&" : "\\\\"
            parser.problem(
                "\(separator) in an inline formula, which has one row (display it between $$)", at: parser.position)
            offsets.append(parser.offsets[parser.position])
            nodes.append(.atom(MathAtom(.ord, .error(separator))))
            parser.position += separator.unicodeScalars.count
            parser.nodeOffsets = []
            nodes += parser.parseList(stop: .end)
            offsets += parser.nodeOffsets
        }
        var formula = MathFormula(nodes: nodes, tag: parser.tag, problems: parser.problems)
        formula.nodeOffsets = offsets
        formula.usedMacros = parser.usedMacros
        formula.references = parser.references
        formula.colorNames = parser.colorNames
        if let rawTag = parser.rawTag {
            for (key, tags) in zip(parser.labelKeys, parser.tagsBeforeLabel) where tags <= 1 {
                formula.labels[key] = rawTag
            }
        }
        formula.labels.merge(parser.numberedLabels) { _, numbered in numbered }
        formula.rowTags = parser.rowTags
        formula.automaticNumbers = parser.numbersUsed
        formula.source = source
        return formula
    }

    init(_ source: String) {
        scalars = Array(source.unicodeScalars)
        var offsets: [Int] = []
        offsets.reserveCapacity(scalars.count + 1)
        var offset = 0
        for scalar in scalars {
            offsets.append(offset)
            offset += String(scalar).utf8.count
        }
        offsets.append(offset)
        self.offsets = offsets
    }

    /// Where a list ends.
    enum Stop: Equatable {
        /// At the end of the source (the formula's top level).
        case end
        /// At a closing brace.
        case brace
        /// At `]` (the degree of `\sqrt[…]`).
        case bracket
        /// At `\middle` or `\right`.
        case fence
        /// At `&`, `\\`, `\end` or `\intertext` (a cell of an environment).
        case cell
        /// At `&`, `\\` or a closing brace (a cell of `\substack{…}`).
        case groupCell
    }

    var atEnd: Bool { position >= scalars.count }
    var current: Unicode.Scalar? { atEnd ? nil : scalars[position] }

    /// True when the parser stands at `&` or `\\`.
    var atRowSeparator: Bool {
        guard let scalar = current else { return false }
        if scalar == "&" { return true }
        return scalar == "\\" && position + 1 < scalars.count && scalars[position + 1] == "\\"
    }

    mutating func problem(_ message: String, at index: Int) {
        guard !abandoned else { return }
        problems.append(MathProblem(message: message, offset: offsets[min(index, offsets.count - 1)]))
    }

    /// The source from scalar `start` to the parser's position, as written.
    func written(from start: Int) -> String {
        String(String.UnicodeScalarView(scalars[min(start, position)..<position]))
    }

    mutating func skipSpaces() {
        while let scalar = current, scalar.properties.isWhitespace { position += 1 }
    }

    /// The command name at the parser (after a backslash) without consuming it; nil when the
    /// parser is not at a backslash.
    func peekCommand() -> String? {
        guard current == "\\", position + 1 < scalars.count else { return nil }
        var end = position + 1
        if scalars[end].properties.isAlphabetic && scalars[end].isASCII {
            while end < scalars.count, scalars[end].isASCII, scalars[end].properties.isAlphabetic { end += 1 }
            if end < scalars.count, scalars[end] == "*" { end += 1 }
        } else {
            end += 1
        }
        return String(String.UnicodeScalarView(scalars[(position + 1)..<end]))
    }

    /// Reads the command at the parser; the spaces after a command made of letters are skipped,
    /// as TeX does.
    mutating func readCommand() -> String {
        let name = peekCommand() ?? ""
        position += 1 + name.unicodeScalars.count
        if name.first?.isLetter == true { skipSpaces() }
        return name
    }

    func isStop(_ stop: Stop) -> Bool {
        guard let scalar = current else { return true }
        switch stop {
        case .end: return false
        case .brace: return scalar == "}"
        case .bracket: return scalar == "]"
        case .fence:
            let name = peekCommand()
            return name == "right" || name == "middle"
        case .cell:
            let name = peekCommand()
            return atRowSeparator || name == "end" || name == "intertext" || name == "shortintertext"
        case .groupCell:
            return scalar == "}" || atRowSeparator
        }
    }

    /// Parses atoms until `stop` (or the end of the source).
    mutating func parseList(stop: Stop) -> [MathNode] {
        depth += 1
        defer { depth -= 1 }
        var nodes: [MathNode] = []
        let savedAlphabet = alphabet
        defer { alphabet = savedAlphabet }
        // The top level records where each of its nodes starts (for breaking a formula across
        // lines, each piece with its own source).
        let recording = depth == 1 && stop == .end
        let recordingCell = depth == 2 && cellOffsets != nil
        var start = 0
        func record() {
            if recording, nodeOffsets.count < nodes.count {
                let added = nodes.count - nodeOffsets.count
                if let given = givenCellOffsets, given.count == added {
                    nodeOffsets += given
                } else {
                    nodeOffsets += Array(repeating: start, count: added)
                }
                givenCellOffsets = nil
            }
            if recordingCell, let count = cellOffsets?.count, count < nodes.count {
                cellOffsets! += Array(repeating: start, count: nodes.count - count)
            }
        }
        defer { record() }
        while true {
            skipSpaces()
            record()
            start = offsets[position]
            if atEnd || isStop(stop) { break }
            if stop == .end, atRowSeparator { break }
            guard let scalar = current else { break }
            if depth > Self.maximumDepth {
                problem("math nested too deeply", at: position)
                abandoned = true
                // Drawn up to ``longestAbandonedRest`` characters: the formula's text, read from
                // its element's replacement text, is its whole source all the same.
                let rest = scalars[position...]
                abandonedRest =
                    String(String.UnicodeScalarView(rest.prefix(Self.longestAbandonedRest)))
                    + (rest.count > Self.longestAbandonedRest ? "…" : "")
                position = scalars.count
                break
            }
            switch scalar {
            case "^", "_":
                position += 1
                attachScript(superscript: scalar == "^", to: &nodes)
            case "'":
                attachPrimes(to: &nodes)
            case "}":
                problem("unmatched }", at: position)
                position += 1
                nodes.append(.atom(MathAtom(.ord, .error("}"))))
            case "&":
                problem("& outside an alignment", at: position)
                position += 1
                nodes.append(.atom(MathAtom(.ord, .error("&"))))
            case "\\":
                if atRowSeparator {
                    problem("\\\\ outside an alignment", at: position)
                    position += 2
                    nodes.append(.atom(MathAtom(.ord, .error("\\\\"))))
                    continue
                }
                parseCommand(into: &nodes, stop: stop)
            default:
                if attachUnicodeScripts(to: &nodes) { continue }
                position += 1
                nodes.append(characterNode(scalar))
            }
        }
        if depth == 1, let rest = abandonedRest {
            nodes.append(.atom(MathAtom(.ord, .error(rest))))
            abandonedRest = nil
        }
        return nodes
    }

    /// An atom for a character typed in math: letters in the alphabet in force (italic by
    /// default), `-` as the minus sign, `*` as the asterisk operator, `~` as a space.
    mutating func characterNode(_ scalar: Unicode.Scalar) -> MathNode {
        switch scalar {
        case "{":
            let group = parseList(stop: .brace)
            expectClosingBrace()
            return .atom(MathAtom(.ord, .list(group)))
        case "-": return .atom(MathAtom(.bin, .symbol("\u{2212}")))
        case "*": return .atom(MathAtom(.bin, .symbol("\u{2217}")))
        case "~": return .space(1.0 / 3, fixed: true)
        default: break
        }
        let mathClass = MathSymbols.characterClass(scalar) ?? .ord
        return .atom(MathAtom(mathClass, .symbol(String(Character(styled(scalar))))))
    }

    /// `scalar` in the alphabet in force: the explicit one, or TeX's default (Latin letters and
    /// lowercase Greek italic, capital Greek and digits upright).
    func styled(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        if let alphabet { return alphabet.map(scalar) }
        let value = scalar.value
        let latin = (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value)
        let lowerGreek =
            (0x3B1...0x3C9).contains(value)
            || [0x3D1, 0x3D5, 0x3D6, 0x3F0, 0x3F1, 0x3F5, 0x2202]
                .contains(value)
        return latin || lowerGreek ? MathAlphabet.italic.map(scalar) : scalar
    }

    mutating func expectClosingBrace() {
        if current == "}" {
            position += 1
        } else {
            problem("missing } in the formula: a '{' is never closed", at: position)
        }
    }

    /// Reads one argument: a group in braces, a command, or one character.
    mutating func parseArgument() -> [MathNode] {
        skipSpaces()
        guard let scalar = current else {
            problem("missing argument in the formula: the command before its end takes one", at: position)
            return []
        }
        if scalar == "{" {
            position += 1
            let group = parseList(stop: .brace)
            expectClosingBrace()
            return group
        }
        if scalar == "\\" {
            var nodes: [MathNode] = []
            parseCommand(into: &nodes, stop: .brace)
            return nodes
        }
        position += 1
        return [characterNode(scalar)]
    }

    /// Reads a group's raw text (for `\text`, `\operatorname`, environment names); a single
    /// character when there are no braces.
    mutating func readRawArgument() -> String {
        skipSpaces()
        guard current == "{" else {
            guard let scalar = current else { return "" }
            position += 1
            return String(scalar)
        }
        position += 1
        let text = readBalanced(toCellEnd: false)
        expectClosingBrace()
        return text
    }

    /// The raw text from the parser up to the `}` that closes the group it stands in (its
    /// braces balanced, escapes kept), or when `toCellEnd` up to the `&`, `\\` or `\end` that
    /// ends a cell outside braces, whichever comes first; the parser stops there.
    mutating func readBalanced(toCellEnd: Bool) -> String {
        let start = position
        var level = 0
        while let scalar = current {
            if toCellEnd, level == 0, atRowSeparator || peekCommand() == "end" { break }
            if scalar == "\\", position + 1 < scalars.count {
                position += 2
                continue
            }
            if scalar == "{" { level += 1 }
            if scalar == "}" {
                if level == 0 { break }
                level -= 1
            }
            position += 1
        }
        return String(String.UnicodeScalarView(scalars[start..<position]))
    }

    /// Reads `[…]` when it follows, as math (`\sqrt`'s degree, `\xrightarrow`'s lower label).
    mutating func parseOptionalList() -> [MathNode]? {
        skipSpaces()
        guard current == "[" else { return nil }
        position += 1
        let list = parseList(stop: .bracket)
        if current == "]" {
            position += 1
        } else {
            problem("missing ] in the formula: an optional argument's '[' is never closed", at: position)
        }
        return list
    }

    /// Reads `[…]` when it follows, as raw text.
    mutating func readOptionalRaw() -> String? {
        skipSpaces()
        guard current == "[" else { return nil }
        position += 1
        var text = String.UnicodeScalarView()
        while let scalar = current, scalar != "]" {
            text.append(scalar)
            position += 1
        }
        if current == "]" { position += 1 }
        return String(text)
    }

    /// Attaches a script to the last atom (an empty one when there is none, as TeX does).
    mutating func attachScript(superscript: Bool, to nodes: inout [MathNode]) {
        let start = position - 1
        attach(parseArgument(), superscript: superscript, to: &nodes, at: start)
    }

    /// Unicode's superscript and subscript characters (`x²`, `a₁`, `x⁻¹`), read as the script
    /// of the atom before them, as unicode-math reads them: the run of such characters at the
    /// parser, one script; false when the parser is at none.
    mutating func attachUnicodeScripts(to nodes: inout [MathNode]) -> Bool {
        guard let first = current, let raisesRun = Self.unicodeScripts[first]?.raised else { return false }
        let start = position
        var script: [MathNode] = []
        while let scalar = current, let (base, raised) = Self.unicodeScripts[scalar], raised == raisesRun {
            script.append(characterNode(base))
            position += 1
        }
        attach(script, superscript: raisesRun, to: &nodes, at: start)
        return true
    }

    /// Each of Unicode's superscript and subscript characters: the character it raises or
    /// lowers, and whether it raises it.
    static let unicodeScripts: [Unicode.Scalar: (base: Unicode.Scalar, raised: Bool)] = {
        var scripts: [Unicode.Scalar: (base: Unicode.Scalar, raised: Bool)] = [:]
        for (base, script) in MathFormula.superscripts where scripts[script] == nil {
            scripts[script] = (base == "\u{2212}" ? "-" : base, true)
        }
        for (base, script) in MathFormula.subscripts where scripts[script] == nil {
            scripts[script] = (base == "\u{2212}" ? "-" : base, false)
        }
        return scripts
    }()

    /// Attaches `script`, written at `start`, to the last atom.
    mutating func attach(_ script: [MathNode], superscript: Bool, to nodes: inout [MathNode], at start: Int) {
        guard case .atom(var atom)? = nodes.last else {
            var atom = MathAtom(.ord, .list([]))
            if superscript { atom.superscript = script } else { atom.subscript = script }
            nodes.append(.atom(atom))
            return
        }
        // Taken out of the list, so that its scripts are held once and grow in place: copied at
        // each `^`, `x^x^x…` took time quadratic in its scripts.
        let double = superscript ? atom.superscript.map { !$0.isPrimes } ?? false : atom.subscript != nil
        if double {
            // TeX's recovery (The TeXbook, chapter 17: "I treat `x^1^2` essentially like
            // `x^1{}^2`"): the second script on an empty atom of its own, after the first.
            problem(superscript ? "double superscript" : "double subscript", at: start)
            var empty = MathAtom(.ord, .list([]))
            if superscript { empty.superscript = script } else { empty.subscript = script }
            nodes.append(.atom(empty))
            return
        }
        nodes.removeLast()
        if superscript {
            atom.superscript = atom.superscript ?? []
            atom.superscript?.append(contentsOf: script)
        } else {
            atom.subscript = atom.subscript ?? []
            atom.subscript?.append(contentsOf: script)
        }
        nodes.append(.atom(atom))
    }

    /// `f'` and `f''`: the prime characters (U+2032, U+2033, U+2034) after the nucleus. The
    /// font draws them raised already (they are the superscript form), so they are set as
    /// ordinary symbols, and a following `^` attaches to them.
    mutating func attachPrimes(to nodes: inout [MathNode]) {
        var count = 0
        while current == "'" {
            count += 1
            position += 1
        }
        let primes: String
        switch count {
        case 1: primes = "\u{2032}"
        case 2: primes = "\u{2033}"
        case 3: primes = "\u{2034}"
        default: primes = String(repeating: "\u{2032}", count: count)
        }
        nodes.append(.atom(MathAtom(.ord, .symbol(primes))))
    }

    /// Rows written at a formula's top level (`a &= b \\ c &= d` between `$$`): set as
    /// `aligned` when a row has `&`, else as `gathered`.
    mutating func parseTopLevelRows(first: [MathNode]) -> [MathNode] {
        var rows = parseRows(firstCell: first, until: nil)
        let aligned = rows.rows.contains { $0.count > 1 }
        if aligned { Self.openRightColumnsWithEmptyGroups(&rows) }
        let environment = aligned ? "aligned" : "gathered"
        return [.atom(MathAtom(.ord, Self.environmentNucleus(environment, rows: rows)!))]
    }
}

extension [MathNode] {
    /// True when the list holds only primes (a superscript `^` may follow them: `f'^2`).
    var isPrimes: Bool {
        allSatisfy { node in
            if case .atom(let atom) = node, case .symbol(let text) = atom.nucleus {
                return text.unicodeScalars.allSatisfy { (0x2032...0x2034).contains($0.value) }
            }
            return false
        }
    }
}
