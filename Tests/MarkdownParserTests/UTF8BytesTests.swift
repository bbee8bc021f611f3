import DocumentModel
import Foundation
import Testing

/// A string's bytes read through a buffer are its `utf8` view's: every byte value is found
/// where the view holds it and only there, in empty, small (stored in the string itself), long,
/// non-ASCII and Foundation-made strings.
@Suite struct UTF8BytesTests {
    static let texts: [String] = [
        "", "a", "short ~ text", String(repeating: "long text, ", count: 40) + "~",
        "한글과 English — “quotes” \u{FFFD}", String(NSString(string: "made by Foundation: $x$")),
        String(repeating: "가", count: 100),
    ]

    @Test(arguments: texts) func bytesAreTheUTF8Views(_ text: String) {
        #expect(text.withUTF8Bytes { Array($0) } == Array(text.utf8))
        for byte in UInt8.min...UInt8.max {
            #expect(text.containsUTF8Byte(byte) == text.utf8.contains(byte), "byte \(byte) in \(text)")
        }
    }
}
