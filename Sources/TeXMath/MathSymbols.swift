/// A symbol command's character and how TeX treats it.
public struct MathSymbol: Hashable, Sendable {
    /// The kind of symbol, as unicode-math's table classes it.
    public enum Kind: Hashable, Sendable {
        /// An atom of a class (`\alpha`, `\le`, `\sum`).
        case atom(MathClass)
        /// An accent over its argument; `stretchy` for the wide ones (`\widehat`).
        case accent(stretchy: Bool)
        /// An accent under its argument.
        case bottomAccent(stretchy: Bool)
        /// A stretchy brace or bracket over (`over`) or under its argument (`\overbrace`).
        case brace(over: Bool)
        /// A delimiter that is an ordinary symbol outside `\left…\right` (`|`, `\Vert`).
        case fence
    }
    /// The character.
    public var character: String
    /// What kind of symbol it is.
    public var kind: Kind
}

/// The symbol commands: unicode-math's table (``unicodeMathTable``, generated from
/// `unicode-math-table.tex`) and the LaTeX names it defines as aliases of those (`\le` for
/// `\leq`, `\to` for `\rightarrow`, from unicode-math's documentation, "Symbols and aliases").
public enum MathSymbols {
    /// The symbol named by `command` (without its backslash); nil: not a symbol command.
    public static func symbol(named command: String) -> MathSymbol? {
        table[command]
    }

    /// The class TeX gives a character typed directly in math (unicode-math's table looked up by
    /// code point; `:` a relation as in plain TeX); nil for letters and digits.
    public static func characterClass(_ scalar: Unicode.Scalar) -> MathClass? {
        if scalar == ":" { return .rel }
        guard let kind = byCharacter[scalar.value] else { return nil }
        switch kind {
        case .atom(let mathClass): return mathClass
        case .fence: return .ord
        default: return nil
        }
    }

    /// The symbol command one slip of the keyboard from `name` (a letter left out, one too
    /// many, one mistyped, or two neighbours swapped: `alpah` for `alpha`, `lamda` for
    /// `lambda`), the shortest first; nil when none is, or when `name` is shorter than three
    /// letters (too many names lie one slip from `ab`).
    static func nearName(to name: String) -> String? {
        let typed = Array(name.utf8)
        guard typed.count >= 3 else { return nil }
        let candidates = ((typed.count - 1)...(typed.count + 1)).flatMap { namesByLength[$0] ?? [] }
        return candidates.filter { Self.isOneSlip(typed, $0) }.map { String(decoding: $0, as: UTF8.self) }
            .min { ($0.count, $0) < ($1.count, $1) }
    }

    /// The symbol commands' names as bytes, by length (``nearName(to:)`` compares a name only
    /// with those a slip away in length).
    private static let namesByLength: [Int: [[UInt8]]] = Dictionary(grouping: table.keys.map { Array($0.utf8) }) {
        $0.count
    }

    /// Whether `candidate` differs from `typed` by one inserted, deleted or replaced byte, or
    /// by two neighbouring bytes swapped.
    static func isOneSlip(_ typed: [UInt8], _ candidate: [UInt8]) -> Bool {
        guard abs(typed.count - candidate.count) <= 1, typed != candidate else { return false }
        let prefix = zip(typed, candidate).prefix { $0 == $1 }.count
        let typedRest = typed[prefix...]
        let candidateRest = candidate[prefix...]
        if typed.count == candidate.count {
            if typedRest.dropFirst().elementsEqual(candidateRest.dropFirst()) { return true }
            return typedRest.count >= 2 && typedRest.first == candidateRest.dropFirst().first
                && candidateRest.first == typedRest.dropFirst().first
                && typedRest.dropFirst(2).elementsEqual(candidateRest.dropFirst(2))
        }
        return typed.count > candidate.count
            ? typedRest.dropFirst().elementsEqual(candidateRest) : candidateRest.dropFirst().elementsEqual(typedRest)
    }

    private static let table: [String: MathSymbol] = {
        var table: [String: MathSymbol] = [:]
        table.reserveCapacity(2600)
        for line in unicodeMathTable.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 3, let code = UInt32(fields[1], radix: 16), let scalar = Unicode.Scalar(code),
                let kind = kind(of: fields[2])
            else { continue }
            table[String(fields[0])] = MathSymbol(character: String(Character(scalar)), kind: kind)
        }
        // unicode-math names the Greek letters `\mupalpha` (upright) and `\mitalpha` (italic) and
        // defines `\alpha` as the one the math style asks for: here the upright letter, which
        // the parser maps to the default alphabet.
        for (name, symbol) in table where name.hasPrefix("mup") {
            guard let value = symbol.character.unicodeScalars.first?.value,
                (0x370...0x3FF).contains(value) || value == 0x2207
            else { continue }
            let plain = String(name.dropFirst(3))
            if table[plain] == nil { table[plain] = symbol }
        }
        func addExtras() {
            for (name, code, mathClass) in extras {
                table[name] = MathSymbol(character: String(Character(Unicode.Scalar(code)!)), kind: .atom(mathClass))
            }
        }
        // The extras before the aliases, which may name them (`\dots` is `\ldots`), and after,
        // which they override (`\colon`).
        addExtras()
        // Either name of a pair may be the table's (`\leq` is, `\le` is not; `\ne` is, `\neq` is
        // not): the table's gives the other its symbol. Twice, for aliases of aliases (`\Box` of
        // `\square`).
        for _ in 0..<2 {
            for (alias, target) in aliases {
                if let symbol = table[target] {
                    table[alias] = symbol
                } else if let symbol = table[alias] {
                    table[target] = symbol
                }
            }
        }
        addExtras()
        return table
    }()

    private static let byCharacter: [UInt32: MathSymbol.Kind] = {
        var map: [UInt32: MathSymbol.Kind] = [:]
        for line in unicodeMathTable.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 3, let code = UInt32(fields[1], radix: 16), let kind = kind(of: fields[2]),
                map[code] == nil
            else { continue }
            map[code] = kind
        }
        return map
    }()

    private static func kind(of name: Substring) -> MathSymbol.Kind? {
        switch name {
        case "ord", "alpha": .atom(.ord)
        case "op": .atom(.op)
        case "bin": .atom(.bin)
        case "rel": .atom(.rel)
        case "open": .atom(.open)
        case "close": .atom(.close)
        case "punct": .atom(.punct)
        case "fence": .fence
        case "accent": .accent(stretchy: false)
        case "accentwide": .accent(stretchy: true)
        case "botaccent": .bottomAccent(stretchy: false)
        case "botaccentwide": .bottomAccent(stretchy: true)
        case "over": .brace(over: true)
        case "under": .brace(over: false)
        default: nil
        }
    }

    /// LaTeX's names that unicode-math keeps as aliases of its table's names.
    private static let aliases: [(String, String)] = [
        ("le", "leq"), ("ge", "geq"), ("ne", "neq"), ("to", "rightarrow"), ("gets", "leftarrow"),
        ("land", "wedge"), ("lor", "vee"), ("lnot", "neg"), ("owns", "ni"), ("lbrace", "lbrace"),
        ("implies", "Longrightarrow"), ("impliedby", "Longleftarrow"), ("iff", "Longleftrightarrow"),
        ("restriction", "upharpoonright"), ("doublecolon", "Colon"), ("bigcupdot", "bigcupdot"),
        ("emptyset", "varnothing"), ("hbar", "hslash"), ("dag", "dagger"), ("ddag", "ddagger"),
        ("lvert", "vert"), ("rvert", "vert"), ("lVert", "Vert"), ("rVert", "Vert"), ("|", "Vert"),
        ("dotsb", "cdots"), ("dotsm", "cdots"), ("dotsi", "cdots"), ("dotsc", "ldots"), ("dots", "ldots"),
        ("bot", "bot"), ("intop", "int"), ("ointop", "oint"), ("setminus", "setminus"), ("smallsetminus", "setminus"),
        ("circledS", "circledS"), ("thicksim", "sim"), ("thickapprox", "approx"), ("upint", "int"),
        ("colon", "mathcolon"), ("lbrack", "lbrack"), ("rbrack", "rbrack"), ("langle", "langle"),
        ("Box", "square"), ("Diamond", "mdlgwhtdiamond"), ("diamond", "smwhtdiamond"), ("nleq", "nleq"),
        ("vartriangle", "vartriangle"), ("mathdollar", "mathdollar"),
        ("circ", "vysmwhtcircle"), ("bullet", "smblkcircle"), ("bigcirc", "lgwhtcircle"),
        ("square", "mdlgwhtsquare"), ("blacksquare", "mdlgblksquare"), ("lozenge", "mdlgwhtlozenge"),
        ("blacklozenge", "mdlgblklozenge"), ("lhd", "vartriangleleft"), ("rhd", "vartriangleright"),
        ("unlhd", "trianglelefteq"), ("unrhd", "trianglerighteq"), ("coloneqq", "coloneq"), ("eqqcolon", "eqcolon"),
        ("leadsto", "rightsquigarrow"), ("mathring", "ocirc"), ("lt", "less"), ("gt", "greater"),
        ("pounds", "mathsterling"), ("yen", "mathyen"), ("S", "mathsection"), ("P", "mathparagraph"),
        ("eth", "matheth"), ("digamma", "updigamma"), ("iddots", "adots"), ("hdots", "ldots"), ("dotso", "ldots"),
        ("circlearrowleft", "acwopencirclearrow"), ("circlearrowright", "cwopencirclearrow"),
        ("varpropto", "propto"), ("varsubsetneq", "subsetneq"), ("varsupsetneq", "supsetneq"),
        ("varsubsetneqq", "subsetneqq"), ("varsupsetneqq", "supsetneqq"), ("nshortmid", "nmid"),
        ("nshortparallel", "nparallel"), ("llbracket", "lBrack"), ("rrbracket", "rBrack"),
        ("shortmid", "mid"), ("shortparallel", "parallel"), ("vcentcolon", "mathratio"), ("ratio", "mathratio"),
        ("utilde", "wideutilde"),
    ]

    /// Symbols LaTeX has and unicode-math's table names otherwise (or not at all): ellipses are
    /// inner atoms as in `amsmath`; `\{` `\}` are delimiters; `\#` `\%` `\&` `\_` `\$` are the
    /// characters.
    private static let extras: [(String, UInt32, MathClass)] = [
        ("ldots", 0x2026, .inner), ("cdots", 0x22EF, .inner), ("ddots", 0x22F1, .inner), ("vdots", 0x22EE, .ord),
        ("{", 0x7B, .open), ("}", 0x7D, .close), ("#", 0x23, .ord), ("%", 0x25, .ord), ("&", 0x26, .ord),
        ("_", 0x5F, .ord), ("$", 0x24, .ord), ("mathellipsis", 0x2026, .inner), ("prime", 0x2032, .ord),
        ("lparen", 0x28, .open), ("rparen", 0x29, .close), ("colon", 0x3A, .punct), ("triangle", 0x25B3, .ord),
        ("dashrightarrow", 0x21E2, .rel), ("dashleftarrow", 0x21E0, .rel),
        ("And", 0x26, .bin), ("copyright", 0xA9, .ord), ("circledR", 0xAE, .ord), ("degree", 0xB0, .ord),
        ("textdegree", 0xB0, .ord), ("ldotp", 0x2E, .punct), ("centerdot", 0x22C5, .bin),
        ("smallint", 0x222B, .op), ("varGamma", 0x1D6E4, .ord), ("varDelta", 0x1D6E5, .ord),
        ("varTheta", 0x1D6E9, .ord), ("varLambda", 0x1D6EC, .ord), ("varXi", 0x1D6EF, .ord), ("varPi", 0x1D6F1, .ord),
        ("varSigma", 0x1D6F4, .ord), ("varUpsilon", 0x1D6F6, .ord), ("varPhi", 0x1D6F7, .ord),
        ("varPsi", 0x1D6F9, .ord), ("varOmega", 0x1D6FA, .ord), ("ntriangleleft", 0x22EA, .rel),
        ("ntriangleright", 0x22EB, .rel),
    ]
}
