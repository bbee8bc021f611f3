import DocumentModel
import Testing

/// A diagnostic is one line whatever value it quotes (docs/command-line.md, "Exit status and messages").
@Suite struct DiagnosticLineTests {
    @Test func lineBreaksAndControlsInAMessageAreEscaped() {
        let d = Diagnostic(
            .error, "unknown paper 'a4\nletter\r\nx\ty\u{1B}z\u{2028}w\u{85}v'",
            at: SourceLocation(file: "a.md", line: 2, column: 1))
        #expect(d.message == "unknown paper 'a4\\nletter\\r\\nx\\ty\\u{1B}z\\u{2028}w\\u{85}v'")
        #expect(!d.description.contains("\n") && d.description.hasPrefix("a.md:2:1: unknown paper"))
        #expect(Diagnostic(.warning, "plain 한국어 message").message == "plain 한국어 message")
    }
}
