import Testing

@testable import TaggedPDF

/// The values the tagging pass writes into Cairo's tag attribute strings (Cairo's
/// `cairo_tag_begin` documentation: strings in single quotes, `\` and `'` escaped).
@Suite struct PDFNamesTests {
    @Test(arguments: [
        ("https://example.com/a", "'https://example.com/a'"),
        ("it's", "'it\\'s'"),
        ("C:\\path", "'C:\\\\path'"),
        ("\\'", "'\\\\\\''"),
        ("", "''"),
        ("한글 ü", "'한글 ü'"),
    ])
    func quotedEscapesBackslashAndApostrophe(value: String, expected: String) {
        #expect(PDFNames.quoted(value) == expected)
    }

    @Test func numbersAreFixedPointWithAPeriod() {
        #expect(PDFNames.number(12) == "12")
        #expect(PDFNames.number(0.12345) == "0.123")
        #expect(PDFNames.number(-3.5) == "-3.5")
    }
}
