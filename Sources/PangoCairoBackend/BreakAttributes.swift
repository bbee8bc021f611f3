internal import CPangoCairo
import Foundation

/// The break opportunities of a long text (Pango's log attributes: a line break and a
/// character break before each scalar, UAX #14 and UAX #29 with Pango's tailoring), computed a
/// stretch at a time.
///
/// Pango 1.50's `pango_default_break` also finds sentence boundaries, and one of its rules
/// (UAX #29 SB8, a full stop, then other characters, then a lowercase letter) clears the
/// sentence end of every character back to the last sentence boundary: text with many such
/// places and no sentence boundary (URLs, dotted names) took time quadratic in its length.
/// So the text is cut into stretches of a few KB, each analysed alone, at places where no
/// rule looks across and whose own breaks are known, so that every stretch gives the
/// attributes the whole text would:
/// - before a letter or digit that follows one space after a letter or digit: the rules that
///   look across spaces (UAX #14 LB14–LB17) need an opening or closing punctuation mark, a
///   quotation mark or a dash before them; the line may break there (LB18);
/// - before an ASCII letter that follows an ASCII letter (a URL or a long word without
///   spaces): no rule looks across two letters of the Latin alphabet; the line may not break
///   there (LB28).
/// Either place is a grapheme cluster boundary (UAX #29 GB999). A text with neither is
/// analysed whole.
enum BreakAttributes {
    /// Pango breaks Thai with libthai's shared word breaker (`th_brk_find_breaks` given no
    /// breaker of its own), which libthai makes on its first use without a lock: two threads
    /// breaking their first Thai text at once may both make it, and free one twice. Reading
    /// this runs one Thai break analysis, once for the process, before any other (Swift runs a
    /// static's initializer once, the other threads waiting for it); every layout, break
    /// analysis and render reads it first.
    static let thaiBreakerReady: Void = {
        let thai = "ภาษาไทย"
        var attributes = [PangoLogAttr](repeating: PangoLogAttr(), count: thai.unicodeScalars.count + 1)
        pango_get_log_attrs(thai, Int32(thai.utf8.count), -1, nil, &attributes, Int32(attributes.count))
    }()

    /// The least UTF-8 bytes of a stretch.
    static let stretchBytes = 4_096

    /// `is_line_break` and `is_char_break` before each scalar of `text` and at its end (one
    /// more than its scalars), in `language`. `stretch` is the least bytes of a stretch.
    static func of(
        _ text: String, language: OpaquePointer?, stretch: Int = stretchBytes
    ) -> [PangoLogAttr] {
        _ = thaiBreakerReady
        let scalars = Array(text.unicodeScalars)
        var attributes = [PangoLogAttr](repeating: PangoLogAttr(), count: scalars.count + 1)
        let bytes = Array(text.utf8)
        var start = 0  // scalar index of the stretch's start
        var startByte = 0
        while start < scalars.count {
            let (end, endByte, breaksLine) = cut(scalars, from: start, byte: startByte, stretch: stretch)
            let count = end - start
            var stretchAttributes = [PangoLogAttr](repeating: PangoLogAttr(), count: count + 1)
            bytes.withUnsafeBufferPointer { buffer in
                buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { pointer in
                    pango_get_log_attrs(
                        pointer + startByte, Int32(endByte - startByte), -1, language, &stretchAttributes,
                        Int32(count + 1))
                }
            }
            let last = end == scalars.count ? count : count - 1
            for index in 1..<(last + 1) { attributes[start + index] = stretchAttributes[index] }
            if start == 0 { attributes[0] = stretchAttributes[0] }
            if end < scalars.count {
                attributes[end].is_line_break = breaksLine ? 1 : 0
                attributes[end].is_char_break = 1
            }
            start = end
            startByte = endByte
        }
        return attributes
    }

    /// The end of the stretch from scalar `start` (at UTF-8 byte `byte`): the first place to
    /// cut at least `stretch` bytes on, or the text's end; as a scalar index and a byte offset,
    /// with whether the line may break there.
    private static func cut(
        _ scalars: [Unicode.Scalar], from start: Int, byte: Int, stretch: Int
    ) -> (index: Int, byte: Int, breaksLine: Bool) {
        var index = start
        var offset = byte
        while index < scalars.count {
            if offset - byte >= stretch, index >= 2 {
                let before = scalars[index - 1]
                let after = scalars[index]
                if before == " ", isLetterOrDigit(after), isLetterOrDigit(scalars[index - 2]) {
                    return (index, offset, true)
                }
                if isASCIILetter(before), isASCIILetter(after) {
                    return (index, offset, false)
                }
            }
            offset += UTF8.width(scalars[index])
            index += 1
        }
        return (index, offset, false)
    }

    private static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    private static func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .otherLetter, .decimalNumber: true
        default: false
        }
    }
}
