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
        guard let firstBad = firstRefusedOffset(text) else { return (text, nil) }
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

    /// The UTF-8 offset of `text`'s first refused character, nil when it has none: read from
    /// its bytes, as each refused character is encoded (a C0 control or DEL is its byte, a C1
    /// control `C2 80`…`C2 9F`, U+FDD0…U+FDEF `EF B7 90`…`EF B7 AF`, U+FFFE and U+FFFF
    /// `EF BF BE` and `EF BF BF`, and the last two code points of planes 1–16 four bytes whose
    /// second ends in `F` and whose last two are `BF BE` or `BF BF`).
    static func firstRefusedOffset(_ text: String) -> Int? {
        var text = text
        return text.withUTF8 { bytes -> Int? in
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case 0x09, 0x0A, 0x0C, 0x0D:
                    break
                case 0x00...0x1F, 0x7F:
                    return index
                case 0xC2:
                    if (0x80...0x9F).contains(bytes[index + 1]) { return index }
                case 0xEF:
                    let second = bytes[index + 1]
                    let third = bytes[index + 2]
                    if (second == 0xB7 && (0x90...0xAF).contains(third)) || (second == 0xBF && third >= 0xBE) {
                        return index
                    }
                case 0xF0...0xF4:
                    if bytes[index + 1] & 0x0F == 0x0F, bytes[index + 2] == 0xBF, bytes[index + 3] >= 0xBE {
                        return index
                    }
                default:
                    break
                }
                index += 1
            }
            return nil
        }
    }

    /// `U+FFFF` for a scalar.
    public static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
