/// A command a document defines for its formulas (`\newcommand`, `\renewcommand`,
/// `\providecommand`, `\def`, `\let`, `\DeclareMathOperator`). As in MathJax, which GitHub and
/// Jupyter render math with, a definition holds for the rest of its formula and for every
/// formula after it in the document.
public struct MathMacro: Hashable, Sendable {
    /// The number of arguments, 0 to 9.
    public var parameterCount: Int
    /// The first argument's value when it is not given: `\newcommand{\x}[2][0]{…}` makes the
    /// first argument optional, written in brackets (LaTeX's `\newcommand`). Nil: every
    /// argument is required.
    public var optionalDefault: String?
    /// The replacement text, `#1` to `#9` standing for the arguments (`##` for `#`).
    public var body: String
    /// Whether a use of the definition expanded without end: later uses, in this formula and
    /// the document's later ones, are drawn as written at once, without expanding it again.
    public var runsAway = false

    /// Creates a definition.
    public init(parameterCount: Int = 0, optionalDefault: String? = nil, body: String) {
        self.parameterCount = parameterCount
        self.optionalDefault = optionalDefault
        self.body = body
    }

    /// The command a body of one command names (`\mathbf` of `\newcommand{\vect}{\mathbf}`),
    /// without its backslash; nil for any other body.
    var aliasedCommand: String? {
        let trimmed = body.trimmingSpaces
        guard trimmed.hasPrefix("\\"), trimmed.unicodeScalars.count > 1 else { return nil }
        let name = trimmed.dropFirst()
        let isLetters = name.unicodeScalars.allSatisfy { $0.isASCII && $0.properties.isAlphabetic }
        return isLetters || name.unicodeScalars.count == 1 ? String(name) : nil
    }

    /// The body with `#n` replaced by the nth of `arguments`, as TeX replaces a macro's
    /// parameters (The TeXbook, chapter 20).
    func expansion(_ arguments: [String]) -> String {
        guard body.unicodeScalars.contains("#") else { return body }
        let scalars = Array(body.unicodeScalars)
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "#", index + 1 < scalars.count {
                let next = scalars[index + 1]
                if next == "#" {
                    result.append("#")
                    index += 2
                    continue
                }
                if let digit = Int(String(next)), digit >= 1, digit <= arguments.count {
                    result.append(contentsOf: arguments[digit - 1].unicodeScalars)
                    index += 2
                    continue
                }
            }
            result.append(scalar)
            index += 1
        }
        return String(result)
    }
}

/// How many characters the definitions of a document's formulas may still expand to: 100,000
/// to begin with and four times the length of each formula as it is read. A definition that
/// uses itself, or definitions that double at each level, stop there with a problem instead of
/// running without end, and a document's expansions, however many formulas use its
/// definitions, are linear in its length. What a formula that ran away expanded (and then
/// dropped) is counted apart, against 1,000,000 characters: one mistaken definition does not
/// take the room of the document's later formulas.
public struct MathExpansionBudget: Hashable, Sendable {
    /// The characters left for expansions that are set, besides the four times its own length
    /// each formula brings.
    public var remaining = MathParser.minimumExpansionBudget
    /// The characters left for expansions that ran away.
    public var runawayRemaining = 10 * MathParser.minimumExpansionBudget

    /// A document's budget before its first formula.
    public init() {}

    /// The characters a formula of `length` characters may expand to.
    func grant(length: Int) -> Int { min(remaining, runawayRemaining) + 4 * length }

    /// Takes what a formula of `length` characters expanded, `expanded` characters, from the
    /// budget it was granted: from ``runawayRemaining`` when it `ranAway`.
    mutating func charge(_ expanded: Int, length: Int, ranAway: Bool) {
        let beyondOwn = expanded - 4 * length
        if ranAway {
            runawayRemaining = max(0, runawayRemaining - max(0, beyondOwn))
        } else {
            remaining = max(0, remaining - beyondOwn)
        }
    }
}

extension MathParser {
    /// What a document's definitions may expand to before its formulas' own share
    /// (``MathExpansionBudget``), characters.
    static let minimumExpansionBudget = 100_000

    /// Definitions (`\newcommand` and its kin) and MathJax's `\require`; true when `name` was
    /// one of them. A definition draws nothing.
    mutating func parseDefinition(_ name: String, start: Int) -> Bool {
        switch name {
        case "newcommand", "renewcommand", "providecommand", "newcommand*", "renewcommand*", "providecommand*":
            guard let command = readDefinedCommand(after: name, start: start) else { return true }
            var count = 0
            if let written = readOptionalRaw() {
                guard let number = Int(written.trimmingSpaces), (0...9).contains(number) else {
                    problem("\\\(name) takes 0 to 9 arguments, not '\(written)'", at: start)
                    _ = readRawArgument()
                    return true
                }
                count = number
            }
            let optional = count > 0 ? readOptionalRaw() : nil
            let body = readRawArgument()
            if let highest = Self.highestParameter(in: body), highest > count {
                // TeX: "Illegal parameter number in definition".
                problem("\\\(command) uses #\(highest) but takes \(count) argument\(count == 1 ? "" : "s")", at: start)
            }
            if name.hasPrefix("providecommand"), macros[command] != nil || Self.isBuiltIn(command) { return true }
            macros[command] = MathMacro(parameterCount: count, optionalDefault: optional, body: body)
        case "def", "gdef", "edef", "xdef":
            guard let command = readDefinedCommand(after: name, start: start) else { return true }
            // The parameter text, `#1#2`, up to the body's brace.
            var count = 0
            while let scalar = current, scalar != "{" {
                if scalar == "#" { count += 1 }
                position += 1
            }
            macros[command] = MathMacro(parameterCount: min(count, 9), body: readRawArgument())
        case "DeclareMathOperator", "DeclareMathOperator*":
            guard let command = readDefinedCommand(after: name, start: start) else { return true }
            let star = name.hasSuffix("*") ? "*" : ""
            macros[command] = MathMacro(body: "\\operatorname\(star){\(readRawArgument())}")
        case "let":
            guard let command = readDefinedCommand(after: name, start: start) else { return true }
            skipSpaces()
            if current == "=" { position += 1 }
            skipSpaces()
            if let meaning = peekCommand() {
                _ = readCommand()
                macros[command] = macros[meaning] ?? MathMacro(body: "\\" + meaning)
            } else if let scalar = current {
                position += 1
                macros[command] = MathMacro(body: String(scalar))
            }
        case "require":
            // MathJax loads an extension by name; every command this reader knows is loaded.
            _ = readRawArgument()
        default:
            return false
        }
        return true
    }

    /// The command a definition names, written `{\name}` or `\name`; nil, with a problem, when
    /// it names none.
    private mutating func readDefinedCommand(after name: String, start: Int) -> String? {
        skipSpaces()
        var written = ""
        if current == "{" {
            written = readRawArgument().trimmingSpaces
        } else if let command = peekCommand() {
            position += 1 + command.unicodeScalars.count
            written = "\\" + command
        }
        guard written.hasPrefix("\\"), written.unicodeScalars.count > 1 else {
            problem("\\\(name) needs the command it defines, such as \\\(name){\\R}", at: start)
            return nil
        }
        return String(written.dropFirst())
    }

    /// True when `name` is a command this reader knows without a definition.
    static func isBuiltIn(_ name: String) -> Bool {
        var probe = MathParser("\\" + name)
        var nodes: [MathNode] = []
        probe.parseCommand(into: &nodes, stop: .end)
        return !probe.problems.contains { $0.message.hasPrefix("unknown math command") }
    }

    /// A definition whose expansion does not end (it uses itself, or grows at each use): said
    /// once; at the outermost use the command is drawn as written, and nothing of the partial
    /// expansion is kept.
    private mutating func runaway(_ name: String, start: Int, into nodes: inout [MathNode]) {
        if !ranAway {
            problem(
                "\\\(name) expands without end (a definition that uses itself, or grows at each use) or past what "
                    + "a document's formulas may expand to (100,000 characters and four times their length): drawn "
                    + "as written",
                at: start)
        }
        ranAway = true
        expansionBudget = -1
        macros[name]?.runsAway = true
        if expansionDepth == 0 { nodes.append(.atom(MathAtom(.ord, .error("\\" + name)))) }
    }

    /// The highest `#n` a body names (`##` is a `#`); nil for none.
    static func highestParameter(in body: String) -> Int? {
        let scalars = Array(body.unicodeScalars)
        var highest: Int?
        var index = 0
        while index + 1 < scalars.count {
            if scalars[index] == "#" {
                if scalars[index + 1] == "#" {
                    index += 2
                    continue
                }
                if let digit = Int(String(scalars[index + 1])) { highest = max(highest ?? 0, digit) }
            }
            index += 1
        }
        return highest
    }

    /// One argument of a defined command, as text: a group without its braces, a command, or
    /// one character.
    private mutating func readMacroArgument(of name: String) -> String {
        skipSpaces()
        if atEnd || current == "}" || current == "&" {
            problem("\\\(name) is missing an argument", at: position)
            return ""
        }
        if let command = peekCommand() {
            position += 1 + command.unicodeScalars.count
            return "\\" + command
        }
        return readRawArgument()
    }

    /// Replaces a use of the defined command `name` (already read) by its body read as math,
    /// with its arguments. The body is read as a list of its own, its nodes put where the
    /// command stands; a problem inside it is reported at the command.
    mutating func expand(
        _ macro: MathMacro, named name: String, start: Int, into nodes: inout [MathNode], stop: Stop = .end
    ) {
        if macro.runsAway {
            runaway(name, start: start, into: &nodes)
            return
        }
        // A body that is one command (`\newcommand{\vect}{\mathbf}`, `\let\bb\mathbb`) stands
        // for that command: its arguments are read where the use is, as TeX reads them.
        if macro.parameterCount == 0, let alias = macro.aliasedCommand {
            expansionBudget -= 1
            expandedCharacters += 1
            guard expansionBudget >= 0, depth < Self.maximumDepth else {
                runaway(name, start: start, into: &nodes)
                return
            }
            usedMacros[name] = macro
            depth += 1
            defer { depth -= 1 }
            parseCommand(named: alias, start: start, into: &nodes, stop: stop)
            return
        }
        var arguments: [String] = []
        if let optionalDefault = macro.optionalDefault { arguments.append(readOptionalRaw() ?? optionalDefault) }
        while arguments.count < macro.parameterCount { arguments.append(readMacroArgument(of: name)) }
        let text = macro.expansion(arguments)
        expansionBudget -= text.unicodeScalars.count + 1
        expandedCharacters += text.unicodeScalars.count + 1
        guard expansionBudget >= 0, depth < Self.maximumDepth else {
            runaway(name, start: start, into: &nodes)
            return
        }
        usedMacros[name] = macro
        let budget = expansionBudget
        let level = expansionDepth + 1
        let (expanded, inner) = parseOwnList(
            text, separators: "in a definition's body is not read as a cell or row break"
        ) {
            [tag] in
            $0.expansionBudget = budget
            $0.tag = tag
            $0.expansionDepth = level
        }
        macros = inner.macros
        expansionBudget = inner.expansionBudget
        expandedCharacters += inner.expandedCharacters
        if inner.ranAway {
            // The whole expansion goes: the command the source wrote is drawn as written once,
            // by the outermost use, with the one problem the innermost said.
            ranAway = true
            for innerProblem in inner.problems { problem(innerProblem.message, at: start) }
            if expansionDepth == 0 { nodes.append(.atom(MathAtom(.ord, .error("\\" + name)))) }
            return
        }
        tag = inner.tag
        if rawTag == nil { rawTag = inner.rawTag }
        labelKeys += inner.labelKeys
        tagsBeforeLabel += inner.tagsBeforeLabel.map { $0 + tagCount }
        tagCount += inner.tagCount
        if inner.numberSuppressed { numberSuppressed = true }
        references += inner.references.map { MathReference(key: $0.key, offset: offsets[start], resolved: $0.resolved) }
        usedMacros.merge(inner.usedMacros) { first, _ in first }
        if inner.abandoned { abandoned = true }
        for innerProblem in inner.problems {
            let message = innerProblem.message
            problem(message.hasPrefix("in \\") ? message : "in \\\(name): \(message)", at: start)
        }
        nodes += expanded
    }
}
