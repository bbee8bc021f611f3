extension MathParser {
    /// Operator names set upright (LaTeX's `\sin`, `\lim`…); true: limits above and below in
    /// display style.
    static let operatorNames: [String: Bool] = [
        "arccos": false, "arcsin": false, "arctan": false, "arg": false, "cos": false, "cosh": false, "cot": false,
        "coth": false, "csc": false, "deg": false, "det": true, "dim": false, "exp": false, "gcd": true, "hom": false,
        "inf": true, "injlim": true, "ker": false, "lg": false, "lim": true, "liminf": true, "limsup": true,
        "ln": false, "log": false, "max": true, "min": true, "Pr": true, "projlim": true, "sec": false, "sin": false,
        "sinh": false, "sup": true, "tan": false, "tanh": false,
    ]

    /// Spaces in mu (TeX's `\,` `\:` `\;` `\!`) and in em (`\quad`).
    static let spaces: [String: (amount: Double, fixed: Bool)] = [
        ",": (3, false), ":": (4, false), ">": (4, false), ";": (5, false), "!": (-3, false), " ": (1.0 / 3, true),
        "thinspace": (3, false), "medspace": (4, false), "thickspace": (5, false), "negthinspace": (-3, false),
        "negmedspace": (-4, false), "negthickspace": (-5, false), "quad": (1, true), "qquad": (2, true),
        "enspace": (0.5, true), "enskip": (0.5, true),
    ]

    /// Negated relations for `\not`.
    static let negations: [String: String] = [
        "=": "≠", "<": "≮", ">": "≯", "∈": "∉", "≡": "≢", "⊂": "⊄", "⊃": "⊅", "⊆": "⊈", "⊇": "⊉", "≤": "≰",
        "≥": "≱", "∼": "≁", "≈": "≉", "∋": "∌", "≅": "≇", "∣": "∤", "∥": "∦",
    ]

    /// The classes `\mathop` and its kin give a group.
    static let classCommands: [String: MathClass] = [
        "mathord": .ord, "mathop": .op, "mathbin": .bin, "mathrel": .rel, "mathopen": .open, "mathclose": .close,
        "mathpunct": .punct, "mathinner": .inner,
    ]

    /// Reads the command at the parser and appends what it makes to `nodes`.
    mutating func parseCommand(into nodes: inout [MathNode], stop: Stop) {
        let start = position
        parseCommand(named: readCommand(), start: start, into: &nodes, stop: stop)
    }

    /// Whether a binary operation or relation follows (`x_1 + \dots + x_n`): amsmath's `\dots`
    /// is then centred (`\dotsb`), else on the baseline (`\dotsc`, `\dotso`), as amsmath and
    /// MathJax choose it by what comes next.
    var dotsBeforeOperator: Bool {
        var index = position
        while index < scalars.count, scalars[index].properties.isWhitespace { index += 1 }
        guard index < scalars.count else { return false }
        let operators: [MathClass] = [.bin, .rel]
        if scalars[index] == "-" || scalars[index] == "*" { return true }
        guard scalars[index] == "\\" else {
            return MathSymbols.characterClass(scalars[index]).map(operators.contains) ?? false
        }
        var end = index + 1
        while end < scalars.count, scalars[end].isASCII, scalars[end].properties.isAlphabetic { end += 1 }
        let command = String(String.UnicodeScalarView(scalars[(index + 1)..<end]))
        guard case .atom(let mathClass)? = MathSymbols.symbol(named: command)?.kind else { return false }
        return operators.contains(mathClass)
    }

    /// Reads what the command `name` (already read, from `start`) makes, with its arguments from
    /// the parser, and appends it to `nodes`.
    mutating func parseCommand(named name: String, start: Int, into nodes: inout [MathNode], stop: Stop) {
        if let macro = macros[name] {
            expand(macro, named: name, start: start, into: &nodes, stop: stop)
            return
        }
        if parseDefinition(name, start: start) { return }
        if parseStructure(name, into: &nodes, start: start) { return }
        if parseBoxCommand(name, into: &nodes, stop: stop, start: start) { return }
        if parseModifier(name, into: &nodes, stop: stop, start: start) { return }
        if let space = Self.spaces[name] {
            nodes.append(.space(space.amount, fixed: space.fixed))
            return
        }
        if let limits = Self.operatorNames[name] {
            nodes.append(.atom(MathAtom(.op, .text(name), limits: limits ? .automatic : .beside)))
            return
        }
        if name == "dots", let symbol = MathSymbols.symbol(named: dotsBeforeOperator ? "cdots" : "ldots") {
            nodes.append(symbolNode(symbol, name: name))
            return
        }
        if let symbol = MathSymbols.symbol(named: name) {
            nodes.append(symbolNode(symbol, name: name))
            return
        }
        if let alphabet = MathAlphabet(command: name) {
            let saved = self.alphabet
            self.alphabet = alphabet
            let group = parseArgument()
            self.alphabet = saved
            // One letter is a character, as unicode-math's `\symbb{R}` is: accents and scripts
            // treat it as one.
            if group.count == 1, case .atom(let atom) = group[0], case .symbol = atom.nucleus {
                nodes.append(group[0])
            } else {
                nodes.append(.atom(MathAtom(.ord, .list(group))))
            }
            return
        }
        if let definition = Self.standardDefinitions[name] {
            expand(definition, named: name, start: start, into: &nodes, stop: stop)
            return
        }
        unknown(name, at: start, into: &nodes)
    }

    /// Commands of amsmath, mathtools and MathJax that are definitions over others, as those
    /// packages define them: `\varlimsup` (lim with a bar over it), `\idotsint` (∫⋯∫),
    /// `\sideset{_a^b}{_c^d}\sum` (scripts beside a large operator), `\prescript{a}{b}{X}`, and
    /// MathJax's `\class`, `\cssId`, `\style` and `\bbox`, whose styling has no meaning on paper
    /// and whose content is set as it is.
    static let standardDefinitions: [String: MathMacro] = [
        "varlimsup": MathMacro(body: "\\mathop{\\overline{\\mathrm{lim}}}"),
        "varliminf": MathMacro(body: "\\mathop{\\underline{\\mathrm{lim}}}"),
        "varinjlim": MathMacro(body: "\\mathop{\\underrightarrow{\\mathrm{lim}}}"),
        "varprojlim": MathMacro(body: "\\mathop{\\underleftarrow{\\mathrm{lim}}}"),
        "idotsint": MathMacro(body: "\\mathop{\\int\\mkern-4mu\\cdots\\mkern-4mu\\int}"),
        "sideset": MathMacro(parameterCount: 3, body: "\\mathop{{}#1\\!\\mathop{#3}\\nolimits#2}"),
        "prescript": MathMacro(parameterCount: 3, body: "{}^{#1}_{#2}#3"),
        "nobreakspace": MathMacro(body: "~"),
        "class": MathMacro(parameterCount: 2, body: "{#2}"),
        "cssId": MathMacro(parameterCount: 2, body: "{#2}"),
        "style": MathMacro(parameterCount: 2, body: "{#2}"),
        "bbox": MathMacro(parameterCount: 2, optionalDefault: "", body: "{#2}"),
    ]

    /// amsmath's `\bmod`, `\mod`, `\pmod` and `\colon`, each spaced as amsmath spaces it.
    mutating func parseModularOrColon(_ name: String, into nodes: inout [MathNode]) {
        switch name {
        case "bmod":
            nodes.append(.atom(MathAtom(.bin, .text("mod"))))
        case "colon":
            // amsmath's `\colon` (`f\colon A \to B`): 2 mu, the colon as an ordinary symbol,
            // then 6 mu, where a bare colon, punctuation, takes none before and 3 after.
            nodes.append(.space(2, fixed: false))
            nodes.append(.atom(MathAtom(.ord, .symbol(":"))))
            nodes.append(.space(6, fixed: false))
        case "mod":
            // amsmath: 18 mu before "mod" in a displayed formula, 12 mu inline, 6 mu after it.
            let argument = parseArgument()
            nodes.append(.space(display ? 1 : 12.0 / 18, fixed: true))
            nodes.append(.atom(MathAtom(.ord, .text("mod"))))
            nodes.append(.space(6, fixed: false))
            nodes.append(contentsOf: argument)
        case "pmod":
            // amsmath: 18 mu before the parenthesis in a displayed formula, 8 mu inline.
            let argument = parseArgument()
            nodes.append(.space(display ? 1 : 8.0 / 18, fixed: true))
            nodes.append(.atom(MathAtom(.open, .symbol("("))))
            nodes.append(.atom(MathAtom(.ord, .text("mod"))))
            nodes.append(.space(6, fixed: false))
            nodes.append(contentsOf: argument)
            nodes.append(.atom(MathAtom(.close, .symbol(")"))))
        default:
            break
        }
    }

    /// The colour argument of `\color` or `\textcolor` (the command read, at `start`): a name,
    /// or, after one of xcolor's models (`[HTML]{FF8800}`, `[rgb]{1,0,0.5}`, `[RGB]{255,0,128}`,
    /// `[gray]{0.5}`), that colour written `#RRGGBB`; noted in ``colorNames``. A model xcolor
    /// has not, or a value it does not take, is said, and the text keeps its colour.
    mutating func readColor(at start: Int) -> String {
        let model = readOptionalRaw()?.trimmingSpaces
        let value = readRawArgument().trimmingSpaces
        var color = value
        if let model {
            if let hex = Self.hexColor(model: model, value: value) {
                color = hex
            } else {
                problem("'[\(model)]{\(value)}' is no colour (xcolor's models: HTML, rgb, RGB, gray)", at: start)
                color = ""
            }
        }
        colorNames.append(MathColorName(name: color, offset: offsets[min(start, offsets.count - 1)]))
        return color
    }

    /// `value` in xcolor's `model` as `#RRGGBB`; nil when the model is not one of HTML, rgb,
    /// RGB and gray, or the value not one it takes.
    static func hexColor(model: String, value: String) -> String? {
        let numbers = value.split(separator: ",").map { Double(String($0).trimmingSpaces) }
        var components: [Double]
        switch model {
        case "HTML":
            guard value.count == 6, value.allSatisfy(\.isHexDigit) else { return nil }
            return "#" + value.uppercased()
        case "rgb":
            guard numbers.count == 3, numbers.allSatisfy({ ($0 ?? -1) >= 0 && ($0 ?? 2) <= 1 }) else { return nil }
            components = numbers.map { $0! * 255 }
        case "RGB":
            guard numbers.count == 3, numbers.allSatisfy({ ($0 ?? -1) >= 0 && ($0 ?? 256) <= 255 }) else { return nil }
            components = numbers.map { $0! }
        case "gray":
            guard numbers.count == 1, let gray = numbers[0], gray >= 0, gray <= 1 else { return nil }
            components = [gray * 255, gray * 255, gray * 255]
        default:
            return nil
        }
        let digits = Array("0123456789ABCDEF")
        return "#"
            + components.map { component -> String in
                let byte = min(255, max(0, Int(component.rounded())))
                return String([digits[byte / 16], digits[byte % 16]])
            }.joined()
    }

    mutating func unknown(_ name: String, at start: Int, into nodes: inout [MathNode]) {
        problem("unknown math command \\\(name)\(Self.advice(forUnknown: name))", at: start)
        nodes.append(.atom(MathAtom(.ord, .error("\\" + name))))
    }

    /// What the warning for the unknown command `name` adds: the package it comes from and
    /// what to write instead, for the commands of packages common in notes (physics, braket,
    /// siunitx, mhchem); else a known command one slip away, for a name of five letters or more
    /// (a shorter one is a slip away from too many: `\sgn` from `\sun`); else, for a name of
    /// letters, how an operator's name is written.
    static func advice(forUnknown name: String) -> String {
        if let package = packageCommands[name] {
            let instead =
                switch package {
                case "siunitx": "write the number and its unit, as 9.81\\,\\mathrm{m/s^2}"
                case "mhchem": "write the formula upright, as \\mathrm{H_2O}"
                case "braket": "write \\langle\\phi|\\psi\\rangle, or define it with \\newcommand"
                default: "define it with \\newcommand{\\\(name)}[1]{…} (as \\newcommand{\\abs}[1]{\\left|#1\\right|})"
                }
            return " (the \(package) package's, which is not read here); \(instead)"
        }
        if let near = MathSymbols.nearName(to: name),
            name.utf8.count >= 5 || near.count != name.count || near.sorted() == name.sorted()
        {
            return "; did you mean \\\(near)?"
        }
        if name.count >= 2, name.allSatisfy(\.isLetter) {
            return
                "; for an operator's name, write \\operatorname{\(name)} or \\DeclareMathOperator{\\\(name)}{\(name)}"
        }
        return ""
    }

    /// Commands of LaTeX packages common in lecture notes that are not read here, by name, with
    /// their package.
    static let packageCommands: [String: String] = {
        var commands: [String: String] = [:]
        for name in [
            "dv", "pdv", "qty", "abs", "norm", "bra", "ket", "expval", "ev", "mel", "grad", "curl", "divergence",
            "laplacian", "order", "eval", "comm", "acomm", "pb", "mqty", "pmqty", "bmqty", "vqty", "dd", "var", "fdv",
            "Tr", "Rank", "erf", "Res", "vb", "vu", "va",
        ] {
            commands[name] = "physics"
        }
        for name in ["Bra", "Ket", "Braket", "set", "Set", "braket"] { commands[name] = "braket" }
        for name in ["SI", "si", "num", "unit", "ang", "SIrange", "numrange", "numlist", "qtyrange"] {
            commands[name] = "siunitx"
        }
        for name in ["ce", "pu"] { commands[name] = "mhchem" }
        return commands
    }()

    /// The atom a symbol command makes; accents and braces read their argument.
    mutating func symbolNode(_ symbol: MathSymbol, name: String) -> MathNode {
        switch symbol.kind {
        case .atom(let mathClass):
            let limits: LimitsPlacement = name.contains("int") && mathClass == .op ? .beside : .automatic
            var character = symbol.character
            if mathClass == .ord, let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1 {
                character = String(Character(styled(scalar)))
            }
            return .atom(MathAtom(mathClass, .symbol(character), limits: limits))
        case .fence:
            return .atom(
                MathAtom(
                    name.hasPrefix("l") ? .open : (name.hasPrefix("r") ? .close : .ord),
                    .symbol(symbol.character)))
        case .accent(let stretchy):
            let base = parseArgument()
            return .atom(MathAtom(.ord, .accent(symbol.character, base: base, stretchy: stretchy, bottom: false)))
        case .bottomAccent(let stretchy):
            let base = parseArgument()
            return .atom(MathAtom(.ord, .accent(symbol.character, base: base, stretchy: stretchy, bottom: true)))
        case .brace(let over):
            let base = parseArgument()
            return .atom(MathAtom(.op, .brace(symbol.character, over: over, base: base), limits: .above))
        }
    }

    /// Fractions, radicals, delimiters, text, environments; true when `name` was one of them.
    mutating func parseStructure(_ name: String, into nodes: inout [MathNode], start: Int) -> Bool {
        switch name {
        case "frac", "dfrac", "tfrac", "cfrac", "binom", "dbinom", "tbinom":
            // `\cfrac[l]` and `\cfrac[r]` set the numerator flush left or right: read, and set
            // centred, rather than taken for the fraction's parts.
            if name == "cfrac" { _ = readOptionalRaw() }
            let numerator = parseArgument()
            let denominator = parseArgument()
            let style: MathStyle.Level? =
                switch name.first {
                case "d", "c": .display
                case "t": .text
                default: nil
                }
            let binomial = name.hasSuffix("binom")
            let fraction = MathNucleus.fraction(
                numerator: numerator, denominator: denominator, rule: !binomial, style: style,
                left: binomial ? "(" : nil, right: binomial ? ")" : nil)
            // LaTeX's `\frac` and amsmath's `\binom` set the fraction in braces, an Ord atom
            // (The TeXbook, chapter 17: a group in braces is an Ord), not Inner as a bare `\over`.
            nodes.append(.atom(MathAtom(.ord, fraction)))
        case "sqrt":
            let degree = parseOptionalList()
            nodes.append(.atom(MathAtom(.ord, .radical(degree: degree, radicand: parseArgument()))))
        case "root":
            // Plain TeX's `\root 3 \of {x}`: the degree is what stands before `\of`.
            var degree: [MathNode] = []
            while !atEnd {
                skipSpaces()
                guard peekCommand() != "of" else { break }
                let before = position
                degree += parseArgument()
                if position == before { break }
            }
            if peekCommand() == "of" { _ = readCommand() } else { problem("\\root without \\of", at: start) }
            nodes.append(.atom(MathAtom(.ord, .radical(degree: degree, radicand: parseArgument()))))
        case "leftroot", "uproot":
            // amsmath's nudges of a root's degree, in mu: the degree keeps its place.
            _ = readRawArgument()
        case "unicode":
            // MathJax's `\unicode{8747}`, `\unicode{x222B}`, `\unicode{0x222B}`: the character.
            let number = readRawArgument().trimmingSpaces
            let hex = number.hasPrefix("0x") ? number.dropFirst(2) : number.hasPrefix("x") ? number.dropFirst() : nil
            if let value = hex.map({ UInt32($0, radix: 16) }) ?? UInt32(number), let scalar = Unicode.Scalar(value),
                value != 0
            {
                nodes.append(characterNode(scalar))
            } else {
                problem("\\unicode needs a character's number, such as 8747 or x222B, not '\(number)'", at: start)
                nodes.append(.atom(MathAtom(.ord, .error(written(from: start)))))
            }
        case "left":
            nodes.append(parseFenced(start: start))
        case "right", "middle":
            problem("\\\(name) without \\left", at: start)
            _ = readDelimiter(after: name)
            nodes.append(.atom(MathAtom(.ord, .error(written(from: start)))))
        case "big", "Big", "bigg", "Bigg", "bigl", "Bigl", "biggl", "Biggl", "bigr", "Bigr", "biggr", "Biggr",
            "bigm", "Bigm", "biggm", "Biggm":
            let long = name.hasPrefix("bigg") || name.hasPrefix("Bigg")
            let size = ["big": 1, "Big": 2, "bigg": 3, "Bigg": 4][String(name.prefix(long ? 4 : 3))] ?? 1
            let mathClass: MathClass =
                switch name.last {
                case "l": .open
                case "r": .close
                case "m": .rel
                default: .ord
                }
            let delimiter = readDelimiter(after: name) ?? ""
            nodes.append(.atom(MathAtom(mathClass, .sizedDelimiter(delimiter, size: size))))
        case "boxed":
            nodes.append(.atom(MathAtom(.ord, .framed(parseArgument(), MathFrame()))))
        case "overline", "underline":
            nodes.append(.atom(MathAtom(.ord, .bar(over: name == "overline", base: parseArgument()))))
        case _ where Self.textCommands[name] != nil:
            let face = Self.textCommands[name]?.face(inside: .regular) ?? .regular
            nodes += textNodes(readRawArgument(), face: face, at: start)
        case "operatorname", "operatorname*":
            let text = Self.textMode(readRawArgument())
            nodes.append(.atom(MathAtom(.op, .text(text), limits: name.hasSuffix("*") ? .automatic : .beside)))
        case "begin":
            nodes += parseEnvironment(start: start)
        case "end":
            problem("\\end without \\begin", at: start)
            _ = readRawArgument()
            nodes.append(.atom(MathAtom(.ord, .error(written(from: start)))))
        default:
            return false
        }
        return true
    }

    /// Styles, colours, tags, limits, negation, class changes and the like; true when `name`
    /// was one of them.
    mutating func parseModifier(_ name: String, into nodes: inout [MathNode], stop: Stop, start: Int) -> Bool {
        switch name {
        case "displaystyle": nodes.append(.style(.display))
        case "textstyle": nodes.append(.style(.text))
        case "scriptstyle": nodes.append(.style(.script))
        case "scriptscriptstyle": nodes.append(.style(.scriptScript))
        case "color":
            let color = readColor(at: start)
            let rest = parseList(stop: stop)
            nodes.append(.atom(MathAtom(.ord, .colored(color, rest))))
        case "textcolor":
            let color = readColor(at: start)
            nodes.append(.atom(MathAtom(.ord, .colored(color, parseArgument()))))
        case "tag", "tag*":
            let label = tagText(readRawArgument(), at: start)
            let written = name == "tag" ? "(\(label))" : label
            tagCount += 1
            // One label a formula, or a row of a numbered environment: a second would stand in
            // the first's place, so it is said.
            if let tag {
                let advice =
                    if let environment = numberedEnvironment {
                        Self.rowNumberedEnvironments.contains(environment)
                            ? "a row takes one \\tag: '\(written)' is not set beside '\(tag)'"
                            : "\\begin{\(environment)} takes one \\tag: '\(written)' is not set beside '\(tag)'"
                    } else {
                        "a formula takes one \\tag: '\(written)' is not set beside '\(tag)' (number each line in an "
                            + "align, which labels each row, or write each tagged line as a formula of its own)"
                    }
                problem(advice, at: start)
            } else {
                tag = written
                rawTag = label
            }
        case "notag", "nonumber":
            numberSuppressed = true
        case "shoveleft", "shoveright":
            // amsmath: a middle row of a `multline` set flush left or right
            // (``Rows/shoves``); elsewhere its argument as it stands.
            pendingShove = name == "shoveleft" ? .left : .right
            nodes.append(contentsOf: parseArgument())
        case "displaybreak", "allowdisplaybreaks":
            // amsmath's page-break permissions (`\displaybreak[3]`): a formula is never broken
            // across pages here, so they ask nothing.
            _ = readOptionalRaw()
        case "nolimits", "limits", "displaylimits":
            // After a large operator only, as TeX allows them ("Limit controls must follow a
            // math operator").
            if case .atom(var atom)? = nodes.last, atom.mathClass == .op {
                atom.limits = name == "nolimits" ? .beside : (name == "limits" ? .above : .automatic)
                nodes[nodes.count - 1] = .atom(atom)
            }
        case "label":
            let key = readRawArgument().trimmingSpaces
            if tagCount > 1 {
                problem("\\label{\(key)} follows a \\tag that is not set, so it names no number", at: start)
            }
            labelKeys.append(key)
            tagsBeforeLabel.append(tagCount)
        case "eqref", "ref":
            // The tag of the formula whose `\label` has the key, as amsmath's `\eqref` prints it
            // (in parentheses) and `\ref` (bare); `??` when no formula has it, as LaTeX prints.
            let key = readRawArgument().trimmingSpaces
            let resolved = knownLabels[key]
            references.append(MathReference(key: key, offset: offsets[start], resolved: resolved))
            let text = resolved ?? "??"
            nodes.append(.atom(MathAtom(.ord, .prose(name == "eqref" ? "(\(text))" : text, .regular))))
        case "not":
            var next: [MathNode] = []
            skipSpaces()
            if current == "\\" {
                parseCommand(into: &next, stop: stop)
            } else if let scalar = current {
                position += 1
                next = [characterNode(scalar)]
            }
            if case .atom(var atom)? = next.first, case .symbol(let text) = atom.nucleus {
                atom.nucleus = .symbol(Self.negations[text] ?? text + "\u{0338}")
                nodes.append(.atom(atom))
            } else {
                nodes.append(contentsOf: next)
            }
        case "bmod", "colon", "mod", "pmod":
            parseModularOrColon(name, into: &nodes)
        case "overset", "underset", "stackrel":
            let label = parseArgument()
            let base = parseArgument()
            let mathClass: MathClass = name == "stackrel" ? .rel : Self.dominantClass(base)
            var atom = MathAtom(mathClass, .list(base), limits: .above)
            if name == "underset" { atom.subscript = label } else { atom.superscript = label }
            nodes.append(.atom(atom))
        default:
            if let mathClass = Self.classCommands[name] {
                let group = parseArgument()
                // An Op atom's limits go above and below in display style (`\displaylimits`, The
                // TeXbook, chapter 17), beside it otherwise.
                nodes.append(.atom(MathAtom(mathClass, .list(group), limits: .automatic)))
                return true
            }
            return false
        }
        return true
    }

    /// The class of a list of one atom (`\overset{!}{=}` stays a relation), else ord.
    static func dominantClass(_ nodes: [MathNode]) -> MathClass {
        if nodes.count == 1, case .atom(let atom) = nodes[0] { return atom.mathClass }
        return .ord
    }

    /// Reads the delimiter after `\left`, `\right`, `\big`…: a character, a command naming
    /// one, or `.` (none).
    mutating func readDelimiter(after command: String) -> MathDelimiter {
        skipSpaces()
        guard let scalar = current else {
            problem("missing delimiter after \\\(command)", at: position)
            return nil
        }
        if scalar == "\\" {
            let start = position
            let name = readCommand()
            switch name {
            case "{", "lbrace": return "{"
            case "}", "rbrace": return "}"
            case "|", "Vert", "lVert", "rVert": return "\u{2016}"
            case "vert", "lvert", "rvert": return "|"
            case "backslash": return "\\"
            default:
                if let symbol = MathSymbols.symbol(named: name) { return symbol.character }
                problem("unknown delimiter \\\(name)", at: start)
                return nil
            }
        }
        position += 1
        switch scalar {
        case ".": return nil
        case "<": return "\u{27E8}"
        case ">": return "\u{27E9}"
        default: return String(scalar)
        }
    }

    /// `\left( … \middle| … \right)` (the `\left` already read).
    mutating func parseFenced(start: Int) -> MathNode {
        var delimiters: [MathDelimiter] = [readDelimiter(after: "left")]
        var parts: [[MathNode]] = []
        while true {
            parts.append(parseList(stop: .fence))
            guard let name = peekCommand(), name == "middle" || name == "right" else {
                problem("\\left without \\right", at: start)
                delimiters.append(nil)
                break
            }
            _ = readCommand()
            delimiters.append(readDelimiter(after: name))
            if name == "right" { break }
        }
        return .atom(MathAtom(.inner, .fenced(delimiters: delimiters, parts: parts)))
    }
}

/// The face a text command sets its argument in, relative to the face around it.
enum TextFaceChange {
    /// The face around it (`\text`, `\mbox`, `\textrm`, `\textsf`, `\textup`).
    case kept
    /// The surrounding text's own face (`\textnormal`).
    case regular
    /// Bold (`\textbf`).
    case bold
    /// Italic (`\textit`, `\textsl`).
    case italic
    /// Italic in upright text, upright in italic (`\emph`, as LaTeX's `\emph` toggles).
    case emphasis
    /// The monospaced family (`\texttt`).
    case monospace

    /// The face this change makes inside `face`.
    func face(inside face: MathTextFace) -> MathTextFace {
        switch self {
        case .kept: face
        case .regular: .regular
        case .bold: .bold
        case .italic: .italic
        case .emphasis: face == .italic ? .regular : .italic
        case .monospace: .monospace
        }
    }
}

extension MathParser {
    /// The characters TeX's text mode prints for `raw`, the argument of `\operatorname`, as
    /// ``textRuns(_:face:)`` reads them, in one string.
    static func textMode(_ raw: String) -> String {
        textRuns(raw, face: .regular).map(\.text).joined()
    }

    /// The atoms of text as `\text` sets it, starting in `face`: a prose atom a run of one face,
    /// a formula inside (`$x$`) read as math (``parseEmbedded(_:at:)``), its problems at
    /// `start`; one empty prose atom for empty text.
    mutating func textNodes(_ raw: String, face: MathTextFace, at start: Int) -> [MathNode] {
        let runs = Self.textRuns(raw, face: face)
        return (runs.isEmpty ? [("", face, false)] : runs).map { run in
            run.math
                ? .atom(MathAtom(.ord, .list(parseEmbedded(run.text, at: start))))
                : .atom(MathAtom(.ord, .prose(run.text, run.face)))
        }
    }

    /// A `\tag`'s text with each formula inside it (`\tag{$\ast$}`) set as its characters (∗),
    /// as amsmath sets math inside a tag's text; its problems are reported at the `\tag`.
    mutating func tagText(_ raw: String, at start: Int) -> String {
        guard raw.contains("$") else { return raw }
        return Self.textRuns(raw, face: .regular).map { run in
            run.math ? MathFormula.plainText(parseEmbedded(run.text, at: start)) : run.text
        }.joined()
    }

    /// A formula written inside text (`\text{if $x > 0$}`), read as math in this parser's
    /// state (its definitions, its alphabet); its problems are reported at the text command.
    mutating func parseEmbedded(_ source: String, at start: Int) -> [MathNode] {
        let (nodes, inner) = parseOwnList(source, separators: "in a formula inside text, which has one row") {
            $0.display = false
        }
        for innerProblem in inner.problems { problem("in \\text: \(innerProblem.message)", at: start) }
        return nodes
    }

    /// `source` read as a list of its own by a parser in this one's state (its definitions,
    /// labels, alphabet and depth, then what `prepare` sets): `&` and `\\` at its own level,
    /// which cannot reach an environment around it, are drawn as written, with a problem
    /// saying so (`separators`). Returns the nodes, and the parser whose findings the caller
    /// takes.
    mutating func parseOwnList(
        _ source: String, separators: String, prepare: (inout MathParser) -> Void = { _ in }
    ) -> (nodes: [MathNode], parser: MathParser) {
        var inner = MathParser(source)
        inner.macros = macros
        inner.knownLabels = knownLabels
        inner.depth = depth
        inner.display = display
        inner.alphabet = alphabet
        inner.numberedEnvironment = numberedEnvironment
        prepare(&inner)
        var nodes = inner.parseList(stop: .end)
        while let separator = inner.current {
            let written = separator == "&" ? "&" : "\\\\"
            inner.problem("\(written) \(separators)", at: inner.position)
            nodes.append(.atom(MathAtom(.ord, .error(written))))
            inner.position += written.unicodeScalars.count
            nodes += inner.parseList(stop: .end)
        }
        return (nodes, inner)
    }

    /// The runs TeX's text mode prints for `raw`, the argument of `\text` as written, each in
    /// its face, starting in `face`: `\%` `\&` `\$` `\#` `\_` `\{` `\}` are the characters,
    /// `\,` `\ ` `~` spaces (thin, word, no-break), a text command inside (`\textbf{b}`,
    /// `\emph{…}`) its argument's text in its face, braces dropped. A formula inside the text,
    /// `$…$`, is a run of its own whose text is its source (`math` true); a `$` that closes
    /// none is dropped. Other commands stay as written.
    static func textRuns(_ raw: String, face: MathTextFace) -> [(text: String, face: MathTextFace, math: Bool)] {
        guard raw.unicodeScalars.contains(where: { $0 == "\\" || $0 == "{" || $0 == "}" || $0 == "$" || $0 == "~" })
        else { return raw.isEmpty ? [] : [(raw, face, false)] }
        let scalars = Array(raw.unicodeScalars)
        var runs: [(text: String, face: MathTextFace, math: Bool)] = []
        var text = String.UnicodeScalarView()
        // The face of each open group; a text command's group opens in the command's face.
        var groups: [MathTextFace] = []
        var pending: TextFaceChange?
        var current = face
        func setFace(_ next: MathTextFace) {
            guard next != current else { return }
            if !text.isEmpty { runs.append((String(text), current, false)) }
            text = String.UnicodeScalarView()
            current = next
        }
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case "{":
                groups.append(current)
                if let change = pending { setFace(change.face(inside: current)) }
                pending = nil
                index += 1
            case "}":
                if let enclosing = groups.popLast() { setFace(enclosing) }
                index += 1
            case "$":
                // A formula inside the text: up to the next `$` not escaped.
                var close = index + 1
                while close < scalars.count, scalars[close] != "$" { close += scalars[close] == "\\" ? 2 : 1 }
                if close < scalars.count, close > index + 1 {
                    if !text.isEmpty { runs.append((String(text), current, false)) }
                    text = String.UnicodeScalarView()
                    runs.append((String(String.UnicodeScalarView(scalars[(index + 1)..<close])), current, true))
                    index = close + 1
                } else {
                    index += 1
                }
            case "~":
                text.append("\u{00A0}")
                index += 1
            case "\\" where index + 1 < scalars.count:
                let next = scalars[index + 1]
                if "%&$#_{}".unicodeScalars.contains(next) {
                    text.append(next)
                    index += 2
                } else if next == "," {
                    text.append("\u{2009}")
                    index += 2
                } else if next == " " {
                    text.append(" ")
                    index += 2
                } else {
                    var end = index + 1
                    while end < scalars.count, scalars[end].properties.isAlphabetic { end += 1 }
                    let name = String(String.UnicodeScalarView(scalars[(index + 1)..<end]))
                    if let change = Self.textCommands[name], end < scalars.count, scalars[end] == "{" {
                        pending = change
                        index = end  // its braces are dropped, its text kept in its face
                    } else {
                        text.append(contentsOf: scalars[index..<max(end, index + 2)])
                        index = max(end, index + 2)
                    }
                }
            default:
                text.append(scalar)
                index += 1
            }
        }
        if !text.isEmpty { runs.append((String(text), current, false)) }
        return runs
    }

    /// Text-mode commands whose argument is text, and the face each sets it in.
    static let textCommands: [String: TextFaceChange] = [
        "text": .kept, "mbox": .kept, "hbox": .kept, "textrm": .kept, "textup": .kept, "textsf": .kept,
        "textnormal": .regular, "textbf": .bold, "textit": .italic, "textsl": .italic, "textsc": .kept,
        "emph": .emphasis,
        "texttt": .monospace,
    ]
}
