/// The math alphabets of `\mathbf`, `\mathit`, `\mathcal`… as characters of Unicode's
/// Mathematical Alphanumeric Symbols block (U+1D400–U+1D7FF), computed from the block's layout
/// (Unicode Technical Report #25, "Unicode Support for Mathematics", §2.2 and its table of
/// letterlike holes) rather than listed.
public enum MathAlphabet: String, Hashable, Sendable, CaseIterable {
    /// Upright serif (`\mathrm`): the plain letters.
    case roman
    /// Serif italic: TeX's default for Latin letters and lowercase Greek.
    case italic
    /// `\mathbf`: bold upright.
    case bold
    /// `\boldsymbol`, `\mathbfit`: bold italic.
    case boldItalic
    /// `\mathcal`, `\mathscr`: script.
    case script
    /// `\mathfrak`: fraktur.
    case fraktur
    /// `\mathbb`: double-struck.
    case doubleStruck
    /// `\mathsf`: sans-serif.
    case sansSerif
    /// `\mathsfbf`: sans-serif bold.
    case sansSerifBold
    /// `\mathsfit`: sans-serif italic.
    case sansSerifItalic
    /// `\mathtt`: monospace.
    case monospace

    /// The first capital letter of the alphabet's Latin run, nil for ``roman``.
    private var latinStart: UInt32? {
        switch self {
        case .roman: nil
        case .bold: 0x1D400
        case .italic: 0x1D434
        case .boldItalic: 0x1D468
        case .script: 0x1D49C
        case .fraktur: 0x1D504
        case .doubleStruck: 0x1D538
        case .sansSerif: 0x1D5A0
        case .sansSerifBold: 0x1D5D4
        case .sansSerifItalic: 0x1D608
        case .monospace: 0x1D670
        }
    }

    /// The first capital Alpha of the alphabet's Greek run (25 capitals with ϴ, ∇, 25 small
    /// letters, then ∂ ϵ ϑ ϰ ϕ ϱ ϖ), nil where the block has no Greek of this style.
    private var greekStart: UInt32? {
        switch self {
        case .bold: 0x1D6A8
        case .italic: 0x1D6E2
        case .boldItalic: 0x1D71C
        case .sansSerifBold: 0x1D756
        default: nil
        }
    }

    /// The first digit zero of the alphabet's digits, nil where the block has none. Digits
    /// have no italic forms: a bold italic alphabet (`\boldsymbol`, `\bm`) sets them bold, as
    /// TeX's bold math sets its upright digits.
    private var digitStart: UInt32? {
        switch self {
        case .bold, .boldItalic: 0x1D7CE
        case .doubleStruck: 0x1D7D8
        case .sansSerif: 0x1D7E2
        case .sansSerifBold: 0x1D7EC
        case .monospace: 0x1D7F6
        default: nil
        }
    }

    /// The reserved code points of the block whose letters were encoded earlier in Letterlike
    /// Symbols (UTR #25, table 2.2): `ℎ` for italic h, `ℬ` for script B…
    private static let holes: [UInt32: UInt32] = [
        0x1D455: 0x210E, 0x1D49D: 0x212C, 0x1D4A0: 0x2130, 0x1D4A1: 0x2131, 0x1D4A3: 0x210B, 0x1D4A4: 0x2110,
        0x1D4A7: 0x2112, 0x1D4A8: 0x2133, 0x1D4AD: 0x211B, 0x1D4BA: 0x212F, 0x1D4BC: 0x210A, 0x1D4C4: 0x2134,
        0x1D506: 0x212D, 0x1D50B: 0x210C, 0x1D50C: 0x2111, 0x1D515: 0x211C, 0x1D51D: 0x2128, 0x1D53A: 0x2102,
        0x1D53F: 0x210D, 0x1D545: 0x2115, 0x1D547: 0x2119, 0x1D548: 0x211A, 0x1D549: 0x211D, 0x1D551: 0x2124,
    ]

    /// The Greek letters in the order of the block's Greek runs.
    private static let greekOrder: [UInt32] =
        Array(0x391...0x3A1) + [0x3F4] + Array(0x3A3...0x3A9) + [0x2207] + Array(0x3B1...0x3C9)
        + [0x2202, 0x3F5, 0x3D1, 0x3F0, 0x3D5, 0x3F1, 0x3D6]

    private static let greekIndex: [UInt32: Int] = Dictionary(
        uniqueKeysWithValues: greekOrder.enumerated().map { ($1, $0) })

    /// `scalar` set in this alphabet; the scalar itself where the alphabet has no such letter
    /// (a Greek letter in `\mathcal`, punctuation).
    public func map(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        let value = scalar.value
        var mapped: UInt32?
        switch value {
        case 0x41...0x5A: mapped = latinStart.map { $0 + value - 0x41 }
        case 0x61...0x7A: mapped = latinStart.map { $0 + 26 + value - 0x61 }
        case 0x30...0x39: mapped = digitStart.map { $0 + value - 0x30 }
        default:
            if let index = Self.greekIndex[value] {
                if self == .roman {
                    mapped = nil
                } else {
                    mapped = greekStart.map { $0 + UInt32(index) }
                }
            }
        }
        guard var code = mapped else { return scalar }
        if let hole = Self.holes[code] { code = hole }
        return Unicode.Scalar(code) ?? scalar
    }

    /// `text` with each letter and digit set in this alphabet.
    public func map(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { result.append(map(scalar)) }
        return String(result)
    }

    /// The alphabet a TeX command selects (`mathbf` → ``bold``), nil for others.
    public init?(command: String) {
        switch command {
        case "mathrm", "mathup", "symup": self = .roman
        case "mathit", "symit", "mathnormal": self = .italic
        case "mathbf", "symbf", "mathbfup", "bold": self = .bold
        case "boldsymbol", "bm", "mathbfit", "symbfit": self = .boldItalic
        case "mathcal", "mathscr", "symcal", "symscr": self = .script
        case "mathfrak", "symfrak", "frak": self = .fraktur
        case "mathbb", "symbb", "Bbb", "mathbbm", "mathds": self = .doubleStruck
        case "mathsf", "symsf", "mathsfup": self = .sansSerif
        case "mathsfbf", "mathbfsf", "symbfsf": self = .sansSerifBold
        case "mathsfit", "symsfit": self = .sansSerifItalic
        case "mathtt", "symtt": self = .monospace
        default: return nil
        }
    }
}
