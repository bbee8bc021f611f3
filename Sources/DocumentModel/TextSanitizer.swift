/// Replaces the characters that PDF writers and text libraries refuse, so that one odd
/// character never loses a document.
///
/// Refused (each replaced by U+FFFD REPLACEMENT CHARACTER, which is drawn):
/// - Unicode noncharacters — U+FDD0…U+FDEF and the last two code points of every plane
///   (U+FFFE, U+FFFF, U+1FFFE … U+10FFFF; Unicode §23.7 "Noncharacters"): valid UTF-8, but
///   Cairo rejects them in PDF text and outlines ("input string not valid UTF-8");
/// - control characters other than tab, line feed, form feed and carriage return — C0
///   (U+0000…U+001F), DEL (U+007F) and C1 (U+0080…U+009F): YAML 1.2 §5.1 forbids them in a
///   stream (libyaml stops at them) and C strings end at NUL.
public enum TextSanitizer {
    /// The replacement, U+FFFD.
    public static let replacement: Unicode.Scalar = "\u{FFFD}"

    /// Whether `scalar` is refused (a noncharacter or a control character other than tab, line
    /// feed, form feed and carriage return).
    @inline(__always)
    public static func isRefused(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x20 { return value != 0x09 && value != 0x0A && value != 0x0C && value != 0x0D }
        if value < 0x7F { return false }
        if value <= 0x9F { return true }
        return (0xFDD0...0xFDEF).contains(value) || value & 0xFFFE == 0xFFFE
    }

    /// What ``sanitize(_:)`` found.
    public struct Report: Sendable, Hashable {
        /// How many characters were replaced.
        public var count: Int
        /// The first replaced character.
        public var first: Unicode.Scalar
        /// UTF-8 byte offset of the first replaced character in the original text.
        public var firstOffset: Int
    }

    /// `text` with every refused character replaced by U+FFFD, and what was replaced (nil when
    /// nothing was: the text is returned as is, without copying). One pass, O(n).
    public static func sanitize(_ text: String) -> (text: String, report: Report?) {
        var offset = 0
        var firstBad: Int?
        for scalar in text.unicodeScalars {
            if isRefused(scalar) {
                firstBad = offset
                break
            }
            offset += UTF8.width(scalar)
        }
        guard let firstBad else { return (text, nil) }
        var out = String.UnicodeScalarView()
        var report = Report(count: 0, first: replacement, firstOffset: firstBad)
        for scalar in text.unicodeScalars {
            if isRefused(scalar) {
                if report.count == 0 { report.first = scalar }
                report.count += 1
                out.append(replacement)
            } else {
                out.append(scalar)
            }
        }
        return (String(out), report)
    }

    /// `U+FFFF` for a scalar.
    public static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
