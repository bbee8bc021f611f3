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

    /// Warnings that say the same thing are said once: counted with the places a kept warning
    /// stands for (``Diagnostic/repeats``), each other place named once (a template line
    /// expanded many times gives one place many warnings), `…` when places go unnamed.
    @Test func alikeWarningsAreCountedWithWhatTheyStandForAndEachPlaceNamedOnce() {
        func warning(_ quote: String, _ line: Int, _ column: Int, repeats: Int = 1) -> Diagnostic {
            var d = Diagnostic(
                .warning, "image '\(quote)' could not be read",
                at: SourceLocation(file: "a.md", line: line, column: column),
                kind: .image)
            d.repeats = repeats
            return d
        }
        let kept = Diagnostic.coalesced([warning("a.png", 3, 1), warning("b.png", 5, 2, repeats: 8)])
        #expect(kept.map(\.message) == ["image 'a.png' could not be read (9 like this in all; also at 5:2 'b.png' …)"])
        #expect(kept.first?.repeats == 1)
        let samePlace = Diagnostic.coalesced([warning("a.png", 7, 4), warning("a.png", 7, 4), warning("a.png", 7, 9)])
        #expect(samePlace.map(\.message) == ["image 'a.png' could not be read (3 like this in all; also at 7:9)"])
        let one = Diagnostic.coalesced([warning("a.png", 2, 1, repeats: 1)])
        #expect(one.map(\.message) == ["image 'a.png' could not be read"])
        let many = Diagnostic.coalesced((1...6).map { warning("a.png", $0, 1) })
        #expect(many.first?.message.hasSuffix("(6 like this in all; also at 2:1, 3:1, 4:1 …)") == true)
    }
}
