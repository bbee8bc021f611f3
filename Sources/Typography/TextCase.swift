/// How a role changes the case of its letters, as design tools write it (Tokens Studio
/// `textCase`, CSS `text-transform` and `font-variant-caps`).
public enum TextCase: String, CaseIterable, Hashable, Sendable {
    /// Every letter upper case (CSS `text-transform: uppercase`).
    case uppercase
    /// Every letter lower case (CSS `text-transform: lowercase`).
    case lowercase
    /// The first letter of each word upper case (CSS `text-transform: capitalize`).
    case capitalize
    /// Lower-case letters as small capitals (OpenType `smcp`, CSS `font-variant-caps: small-caps`).
    case smallCaps

    /// Reads `uppercase`, `upper`, `lowercase`, `lower`, `capitalize`, `title`, `small-caps`,
    /// `small_caps` (Tokens Studio), case/separator-insensitively; `none` is nil too.
    public init?(name: String) {
        switch TextRole.normalizedKey(name) {
        case "uppercase", "upper": self = .uppercase
        case "lowercase", "lower": self = .lowercase
        case "capitalize", "title", "titlecase": self = .capitalize
        case "smallcaps": self = .smallCaps
        default: return nil
        }
    }

    /// The name theme files write (`uppercase`, `lowercase`, `capitalize`, `small-caps`).
    public var name: String { self == .smallCaps ? "small-caps" : rawValue }

    /// `text` with its letters in this case; small caps leave the text as it is (the face draws
    /// them). Capitalization starts a word after white space, a hyphen or a slash.
    public func apply(to text: String) -> String {
        switch self {
        case .uppercase: return text.uppercased()
        case .lowercase: return text.lowercased()
        case .smallCaps: return text
        case .capitalize:
            var result = ""
            var atWordStart = true
            for character in text {
                result += atWordStart ? character.uppercased() : String(character)
                atWordStart = character.isWhitespace || character == "-" || character == "/"
            }
            return result
        }
    }
}

/// A line a role draws with its text (Tokens Studio `textDecoration`, CSS `text-decoration-line`).
public enum TextDecoration: String, CaseIterable, Hashable, Sendable {
    /// A line under the text.
    case underline
    /// A line through the text.
    case lineThrough = "line-through"

    /// Reads `underline`, `line-through`, `strikethrough` (case/separator-insensitive).
    public init?(name: String) {
        switch TextRole.normalizedKey(name) {
        case "underline": self = .underline
        case "linethrough", "strikethrough": self = .lineThrough
        default: return nil
        }
    }
}
