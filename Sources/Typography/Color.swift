/// A colour in sRGB with alpha, each component 0…1.
public struct RGBAColor: Hashable, Sendable, CustomStringConvertible {
    /// sRGB components and opacity, each 0…1.
    public var red: Double, green: Double, blue: Double, alpha: Double
    /// Creates a colour from components 0…1, opaque by default.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Opaque black, `#000000`.
    public static let black = RGBAColor(red: 0, green: 0, blue: 0)
    /// Opaque white, `#FFFFFF`.
    public static let white = RGBAColor(red: 1, green: 1, blue: 1)

    /// Parses `#RGB`, `#RRGGBB` or `#RRGGBBAA` (CSS hex notation). Returns nil otherwise.
    public init?(hex: String) {
        guard hex.hasPrefix("#") else { return nil }
        var digits = String(hex.dropFirst())
        if digits.count == 3 { digits = digits.map { "\($0)\($0)" }.joined() }
        guard digits.count == 6 || digits.count == 8, let value = UInt64(digits, radix: 16) else { return nil }
        let hasAlpha = digits.count == 8
        let rgb = hasAlpha ? value >> 8 : value
        self.init(
            red: Double((rgb >> 16) & 0xFF) / 255, green: Double((rgb >> 8) & 0xFF) / 255,
            blue: Double(rgb & 0xFF) / 255, alpha: hasAlpha ? Double(value & 0xFF) / 255 : 1)
    }

    /// `#RRGGBB`, or `#RRGGBBAA` when not opaque.
    public var hex: String {
        func byte(_ fraction: Double) -> String {
            let digits = String(Int((fraction * 255).rounded()), radix: 16, uppercase: true)
            return digits.count == 1 ? "0" + digits : digits
        }
        return "#" + byte(red) + byte(green) + byte(blue) + (alpha < 1 ? byte(alpha) : "")
    }
    /// The ``hex`` form.
    public var description: String { hex }
}
