import DocumentModel
import Testing

/// The sanitizer finds refused characters in a text's bytes; each scalar is judged as
/// ``TextSanitizer/isRefused(_:)`` judges it, after ASCII, after Hangul and at a text's end.
@Suite struct TextSanitizerTests {
    @Test func everyScalarIsFoundOrPassedAsItsPropertySays() {
        var wrong: [String] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let refused = TextSanitizer.isRefused(scalar)
            for (prefix, suffix) in [("ab", "c"), ("가", ""), ("", "")] {
                var text = prefix
                text.unicodeScalars.append(scalar)
                text += suffix
                let report = TextSanitizer.sanitize(text).report
                let found = report.map { $0.firstOffset == prefix.utf8.count && $0.first == scalar } ?? false
                if found != refused || (report != nil) != refused {
                    wrong.append(TextSanitizer.codePoint(scalar) + " after '\(prefix)'")
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(20))")
    }

    @Test func refusedCharactersAreReplacedAndCounted() {
        // Noncharacters cannot be written in a Swift literal.
        var written = "a\u{1}b"
        for (value, next) in [(0xFFFF, "c\u{9F}d"), (0xFDD0, "e"), (0x10FFFE, "")] as [(UInt32, String)] {
            written.unicodeScalars.append(Unicode.Scalar(value)!)
            written += next
        }
        let (text, report) = TextSanitizer.sanitize(written)
        #expect(text == "a\u{FFFD}b\u{FFFD}c\u{FFFD}d\u{FFFD}e\u{FFFD}")
        #expect(report?.count == 5)
        #expect(report?.firstOffset == 1)
        #expect(TextSanitizer.sanitize("tab\there\r\nform\u{C}feed © ° 가 🎵 \u{FEFF}").report == nil)
    }
}
