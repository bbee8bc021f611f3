import Foundation

/// A font weight on the OpenType/CSS scale, 1–1000 (400 regular, 700 bold).
///
/// Names follow the OpenType `usWeightClass` / CSS `font-weight` table (thin 100 … black 900),
/// not Apple's `Font.Weight`, whose `ultraLight` is lighter than `thin` (Apple
/// `Font.Weight` documentation; CSS Fonts 4 §2.2 `font-weight`).
public struct FontWeight: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The weight, 1…1000.
    public var rawValue: Int
    /// Creates a weight, clamping `rawValue` to 1…1000 (so never fails).
    public init(rawValue: Int) { self.rawValue = min(1000, max(1, rawValue)) }
    /// Creates a weight, clamping `value` to 1…1000.
    public init(_ value: Int) { self.init(rawValue: value) }

    /// 100 (CSS `font-weight` Thin, a.k.a. Hairline).
    public static let thin = FontWeight(100)
    /// 200 (CSS Extra Light, a.k.a. Ultra Light).
    public static let extraLight = FontWeight(200)
    /// 300 (CSS Light).
    public static let light = FontWeight(300)
    /// 400 (CSS Normal / Regular).
    public static let regular = FontWeight(400)
    /// 500 (CSS Medium).
    public static let medium = FontWeight(500)
    /// 600 (CSS Semi Bold, a.k.a. Demi Bold).
    public static let semibold = FontWeight(600)
    /// 700 (CSS Bold).
    public static let bold = FontWeight(700)
    /// 800 (CSS Extra Bold, a.k.a. Ultra Bold).
    public static let extraBold = FontWeight(800)
    /// 900 (CSS Black, a.k.a. Heavy).
    public static let black = FontWeight(900)

    /// The nine named weights, lightest first.
    public static let named: [FontWeight] = [
        .thin, .extraLight, .light, .regular, .medium, .semibold, .bold, .extraBold, .black,
    ]

    /// Reads `thin`, `extralight`/`ultralight`, `light`, `regular`/`normal`/`book`, `medium`,
    /// `semibold`/`demibold`, `bold`, `extrabold`/`ultrabold`, `black`/`heavy` (case- and
    /// separator-insensitive) or a number 1–1000. Returns nil for anything else.
    public init?(name: String) {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        if let number = Int(trimmed) {
            guard (1...1000).contains(number) else { return nil }
            self.init(number)
            return
        }
        let key = String(trimmed.lowercased().filter { $0.isLetter || $0.isNumber })
        switch key {
        case "thin", "hairline": self = .thin
        case "extralight", "ultralight": self = .extraLight
        case "light": self = .light
        case "regular", "normal", "book", "roman": self = .regular
        case "medium": self = .medium
        case "semibold", "demibold": self = .semibold
        case "bold": self = .bold
        case "extrabold", "ultrabold": self = .extraBold
        case "black", "heavy": self = .black
        default: return nil
        }
    }

    /// The weight among `available` a face of this weight is drawn with, by CSS's rule (CSS
    /// Fonts 4 §5.2, step 4, font-weight): an available weight equal to it; else, for a weight
    /// from 400 to 500, the available ones above it up to 500 in ascending order, then those
    /// below it in descending order, then those above 500 in ascending order; for a weight
    /// below 400, those below it in descending order, then those above in ascending order; for
    /// a weight above 500, those above it in ascending order, then those below in descending
    /// order. Itself when `available` is empty.
    public func matchingCSS(among available: [FontWeight]) -> FontWeight {
        let weights = available.map(\.rawValue)
        guard !weights.isEmpty, !weights.contains(rawValue) else { return self }
        let above = weights.filter { $0 > rawValue }.sorted()
        let below = weights.filter { $0 < rawValue }.sorted(by: >)
        let order: [Int]
        if (400...500).contains(rawValue) {
            order = above.filter { $0 <= 500 } + below + above.filter { $0 > 500 }
        } else if rawValue < 400 {
            order = below + above
        } else {
            order = above + below
        }
        return FontWeight(order[0])
    }

    /// The name of the nearest named weight: `Regular`, `SemiBold`, … as Pretendard's faces are named.
    public var name: String {
        let names = ["Thin", "ExtraLight", "Light", "Regular", "Medium", "SemiBold", "Bold", "ExtraBold", "Black"]
        let index = min(8, max(0, Int((Double(rawValue) / 100).rounded()) - 1))
        return names[index]
    }

    /// ``name`` and value, e.g. `Bold 700`.
    public var description: String { "\(name) \(rawValue)" }
    /// Orders weights lightest first (by ``rawValue``).
    public static func < (lhs: FontWeight, rhs: FontWeight) -> Bool { lhs.rawValue < rhs.rawValue }
}
