extension MathParser {
    /// The phantoms, overlaps, struts and boxes of LaTeX, amsmath and mathtools, by command
    /// name (``MathPhantom``).
    static let phantoms: [String: MathPhantom] = [
        "phantom": MathPhantom(drawn: false),
        "hphantom": MathPhantom(drawn: false, keepsHeight: false, keepsDepth: false),
        "vphantom": MathPhantom(drawn: false, keepsWidth: false),
        "mathrlap": MathPhantom(drawn: true, keepsWidth: false, overlap: .left),
        "mathllap": MathPhantom(drawn: true, keepsWidth: false, overlap: .right),
        "mathclap": MathPhantom(drawn: true, keepsWidth: false, overlap: .center),
    ]

    /// The text-mode overlaps (`\rlap{text}`), whose argument is text.
    static let textOverlaps: [String: MathColumnAlignment] = ["rlap": .left, "llap": .right, "clap": .center]

    /// The arrows amsmath and mathtools stretch over a label (`\xrightarrow[below]{above}`).
    static let extensibleArrows: [String: String] = [
        "xrightarrow": "\u{2192}", "xleftarrow": "\u{2190}", "xRightarrow": "\u{21D2}", "xLeftarrow": "\u{21D0}",
        "xleftrightarrow": "\u{2194}", "xLeftrightarrow": "\u{21D4}", "xmapsto": "\u{21A6}",
        "xhookrightarrow": "\u{21AA}", "xhookleftarrow": "\u{21A9}", "xrightharpoonup": "\u{21C0}",
        "xrightharpoondown": "\u{21C1}", "xleftharpoonup": "\u{21BC}", "xleftharpoondown": "\u{21BD}",
        "xrightleftharpoons": "\u{21CC}", "xleftrightharpoons": "\u{21CB}", "xtwoheadrightarrow": "\u{21A0}",
        "xtwoheadleftarrow": "\u{219E}", "xlongequal": "=",
    ]

    /// TeX's generalized fractions, written between their parts (`{a \over b}`), with the
    /// delimiters each puts around them.
    static let infixFractions: [String: (rule: Bool, left: MathDelimiter, right: MathDelimiter)] = [
        "over": (true, nil, nil), "above": (true, nil, nil), "atop": (false, nil, nil), "choose": (false, "(", ")"),
        "brace": (false, "{", "}"), "brack": (false, "[", "]"),
    ]

    /// Plain TeX's and LaTeX 2.09's font switches, which change the alphabet for the rest of
    /// their group (`{\bf x}`), as the `\math…` command of the same alphabet does. (MathJax's
    /// `\bold`, `\frak` and `\Bbb` take an argument, as `\boldsymbol` does: they are
    /// alphabet commands, ``MathAlphabet/init(command:)``.)
    static let fontSwitches: [String: String] = [
        "rm": "mathrm", "bf": "mathbf", "it": "mathit", "mit": "mathit", "cal": "mathcal", "tt": "mathtt",
        "sf": "mathsf",
    ]

    /// LaTeX's size switches: read, and the size is left as it is (a formula keeps its text's
    /// size; TeX ignores them in math mode too, with a warning).
    static let sizeSwitches: Set<String> = [
        "tiny", "scriptsize", "footnotesize", "small", "normalsize", "large", "Large", "LARGE", "huge", "Huge",
    ]

    /// Phantoms, boxes, stretched arrows, spaces of a given length, generalized fractions and
    /// old font switches; true when `name` was one of them.
    mutating func parseBoxCommand(_ name: String, into nodes: inout [MathNode], stop: Stop, start: Int) -> Bool {
        if let phantom = Self.phantoms[name] {
            nodes.append(.atom(MathAtom(.ord, .phantom(parseArgument(), phantom))))
            return true
        }
        if let overlap = Self.textOverlaps[name] {
            let text: [MathNode] = [.atom(MathAtom(.ord, .prose(Self.textMode(readRawArgument()), .regular)))]
            let phantom = MathPhantom(drawn: true, keepsWidth: false, overlap: overlap)
            nodes.append(.atom(MathAtom(.ord, .phantom(text, phantom))))
            return true
        }
        if let arrow = Self.extensibleArrows[name] {
            let below = parseOptionalList()
            let above = parseArgument()
            var atom = MathAtom(.rel, .extensibleArrow(arrow), limits: .above)
            atom.superscript = above.isEmpty ? nil : above
            atom.subscript = below?.isEmpty == false ? below : nil
            nodes.append(.atom(atom))
            return true
        }
        if let fraction = Self.infixFractions[name] {
            if name == "above" { _ = readLength(glue: false) }
            let numerator = nodes
            let denominator = parseList(stop: stop)
            let binomial = fraction.left != nil
            nodes = [
                .atom(
                    MathAtom(
                        binomial ? .ord : .inner,
                        .fraction(
                            numerator: numerator, denominator: denominator, rule: fraction.rule, style: nil,
                            left: fraction.left, right: fraction.right)))
            ]
            if depth == 1, stop == .end { nodeOffsets = Array(nodeOffsets.prefix(numerator.isEmpty ? 0 : 1)) }
            return true
        }
        if let alphabet = Self.fontSwitches[name].flatMap(MathAlphabet.init(command:)) {
            self.alphabet = alphabet
            return true
        }
        if Self.sizeSwitches.contains(name) { return true }
        return parseSpacingOrFrame(name, into: &nodes, start: start)
    }

    /// Spaces of a written length, frames and backgrounds, `\substack`, `\genfrac` and the like;
    /// true when `name` was one of them.
    private mutating func parseSpacingOrFrame(_ name: String, into nodes: inout [MathNode], start: Int) -> Bool {
        switch name {
        case "hspace", "hspace*", "mspace", "kern", "mkern", "hskip", "mskip", "mathstrut", "strut":
            if name.hasSuffix("strut") {
                let strut = MathPhantom(drawn: false, keepsWidth: false)
                nodes.append(.atom(MathAtom(.ord, .phantom([.atom(MathAtom(.open, .symbol("(")))], strut))))
                return true
            }
            let braced = name.hasPrefix("hspace") || name == "mspace"
            let length: (amount: Double, fixed: Bool)?
            if braced {
                let written = readRawArgument()
                var reader = MathParser(written)
                length = reader.readLength(glue: true)
                if length != nil, !reader.atEnd { problem("'\(written)' is not a length such as 1em", at: start) }
            } else {
                length = readLength(glue: name.hasSuffix("skip"))
            }
            guard let length else {
                problem("\\\(name) needs a length such as 1em, 3mu or 2pt", at: start)
                return true
            }
            nodes.append(.space(length.amount, fixed: length.fixed))
        case "cancel", "bcancel", "xcancel":
            let cancel: MathCancel = name == "cancel" ? .up : (name == "bcancel" ? .down : .both)
            nodes.append(.atom(MathAtom(.ord, .cancelled(parseArgument(), cancel))))
        case "cancelto":
            // The value the struck term goes to, at the stroke's upper end as a superscript.
            let value = parseArgument()
            var atom = MathAtom(.ord, .cancelled(parseArgument(), .up))
            atom.superscript = value
            nodes.append(.atom(atom))
        case "smash":
            // `[t]` smashes the height, `[b]` the depth, neither option both.
            let option = readOptionalRaw()?.trimmingSpaces
            let phantom = MathPhantom(drawn: true, keepsHeight: option == "b", keepsDepth: option == "t")
            nodes.append(.atom(MathAtom(.ord, .phantom(parseArgument(), phantom))))
        case "fbox", "framebox":
            nodes.append(.atom(MathAtom(.ord, .framed(proseArgument(), MathFrame()))))
        case "colorbox":
            let fill = readRawArgument()
            nodes.append(.atom(MathAtom(.ord, .framed(proseArgument(), MathFrame(ruled: false, fill: fill)))))
        case "fcolorbox":
            let rule = readRawArgument()
            let fill = readRawArgument()
            nodes.append(.atom(MathAtom(.ord, .framed(proseArgument(), MathFrame(ruleColor: rule, fill: fill)))))
        case "substack":
            skipSpaces()
            guard current == "{" else {
                nodes.append(.atom(MathAtom(.ord, .list(parseArgument()))))
                return true
            }
            position += 1
            let rows = parseRows(firstCell: nil, until: nil, group: true)
            expectClosingBrace()
            var nucleus = Self.environmentNucleus("subarray", rows: rows)!
            if case .array(var array, let left, let right) = nucleus {
                array.columnGaps = [0]
                nucleus = .array(array, left: left, right: right)
            }
            nodes.append(.atom(MathAtom(.ord, nucleus)))
        case "genfrac":
            let left = delimiter(readRawArgument())
            let right = delimiter(readRawArgument())
            let thickness = readRawArgument().trimmingSpaces
            let level = Int(readRawArgument().trimmingSpaces).flatMap { MathStyle.Level(rawValue: $0) }
            let numerator = parseArgument()
            let denominator = parseArgument()
            let rule = thickness.isEmpty || Self.emLength(thickness) > 0
            let fraction = MathNucleus.fraction(
                numerator: numerator, denominator: denominator, rule: rule, style: level, left: left, right: right)
            // amsmath's `\genfrac` sets its fraction in braces, an Ord atom, as `\frac`.
            nodes.append(.atom(MathAtom(.ord, fraction)))
        default:
            return parseWrapper(name, into: &nodes, start: start)
        }
        return true
    }

    /// Commands that wrap their argument: `\ensuremath`, `\pmb`, `\operatornamewithlimits`,
    /// `\pod`, `\mathchoice`, `\href` and `\url`; true when `name` was one of them.
    private mutating func parseWrapper(_ name: String, into nodes: inout [MathNode], start: Int) -> Bool {
        switch name {
        case "ensuremath":
            nodes += parseArgument()
        case "pmb":
            let saved = alphabet
            alphabet = .boldItalic
            let group = parseArgument()
            alphabet = saved
            nodes.append(.atom(MathAtom(.ord, .list(group))))
        case "operatornamewithlimits":
            nodes.append(.atom(MathAtom(.op, .text(Self.textMode(readRawArgument())), limits: .automatic)))
        case "pod":
            // amsmath: 18 mu before the parenthesis in a displayed formula, 8 mu inline.
            let argument = parseArgument()
            nodes.append(.space(display ? 1 : 8.0 / 18, fixed: true))
            nodes.append(.atom(MathAtom(.open, .symbol("("))))
            nodes += argument
            nodes.append(.atom(MathAtom(.close, .symbol(")"))))
        case "mathchoice":
            // The display branch in a displayed formula, the text branch inline: the style of
            // the place where it stands, as TeX chooses, but for scripts.
            let choices = (0..<4).map { _ in parseArgument() }
            nodes.append(.atom(MathAtom(.ord, .list(display ? choices[0] : choices[1]))))
        case "href", "url":
            let target = readRawArgument()
            problem("a link inside a formula is not clickable: '\(target)' is not linked", at: start)
            if name == "href" {
                nodes.append(.atom(MathAtom(.ord, .list(parseArgument()))))
            } else {
                nodes.append(.atom(MathAtom(.ord, .prose(target, .monospace))))
            }
        default:
            return false
        }
        return true
    }

    /// The argument of a text-mode box (`\fbox{…}`), set as `\text{…}` sets it.
    private mutating func proseArgument() -> [MathNode] {
        let start = position
        return textNodes(readRawArgument(), face: .regular, at: start)
    }

    /// A delimiter written as `\genfrac`'s argument: empty for none, a character, or a command.
    private mutating func delimiter(_ written: String) -> MathDelimiter {
        let trimmed = written.trimmingSpaces
        guard !trimmed.isEmpty else { return nil }
        var reader = MathParser(trimmed)
        return reader.readDelimiter(after: "genfrac")
    }

    /// Reads a length as TeX writes one after `\kern` or `\hskip`: a signed number, then a unit
    /// (`1em`, `-3 mu`, `2.5pt`; `,` may be the decimal mark), and for glue (`glue`) a stretch
    /// and shrink (`plus 1fil minus 2pt`), read and not used. The amount is in mu (`fixed`
    /// false) or else in em (``emAmount(_:unit:)``). Nil, with the parser where it was, when no
    /// length is written there.
    mutating func readLength(glue: Bool) -> (amount: Double, fixed: Bool)? {
        let saved = position
        skipSpaces()
        var number = ""
        while let scalar = current, "+-0123456789.,".unicodeScalars.contains(scalar) || scalar == " " {
            if scalar != " " { number.unicodeScalars.append(scalar == "," ? "." : scalar) }
            position += 1
        }
        let negative = number.filter { $0 == "-" }.count % 2 == 1
        let digits = number.filter { $0 != "-" && $0 != "+" }
        let unit = readLetters(2)
        guard let value = Double(digits), !unit.isEmpty,
            let amount = unit == "mu" ? value : Self.emAmount(value, unit: unit)
        else {
            position = saved
            return nil
        }
        if glue {
            for keyword in ["plus", "minus"] {
                let before = position
                skipSpaces()
                guard readLetters(keyword.count) == keyword else {
                    position = before
                    continue
                }
                skipSpaces()
                while let scalar = current, "+-0123456789.,".unicodeScalars.contains(scalar) { position += 1 }
                skipSpaces()
                _ = readLetters(2)
                while current == "l" { position += 1 }  // fil, fill, filll
            }
        }
        return (negative ? -amount : amount, unit != "mu")
    }

    /// Up to `count` ASCII letters at the parser, consumed.
    private mutating func readLetters(_ count: Int) -> String {
        var letters = ""
        while letters.count < count, let scalar = current, scalar.isASCII, scalar.properties.isAlphabetic {
            letters.unicodeScalars.append(scalar)
            position += 1
        }
        return letters
    }
}
