import DocumentModel
import MarkdownParser
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

    /// The bidirectional formatting characters a quoted value may hold are escaped too: a
    /// right-to-left override (U+202E) in an image path or a `lang` was written to the
    /// terminal as it is, and reversed what followed it there.
    @Test func bidirectionalControlsInAMessageAreEscaped() {
        let controls: [Unicode.Scalar] = [
            "\u{202E}", "\u{202D}", "\u{202A}", "\u{2066}", "\u{2069}", "\u{200F}", "\u{061C}",
        ]
        for control in controls {
            let d = Diagnostic(.warning, "image 'a\(Character(control))gpj.png' could not be read")
            let escape = "\\u{\(String(control.value, radix: 16, uppercase: true))}"
            #expect(d.message == "image 'a\(escape)gpj.png' could not be read", "\(d.message)")
        }
        #expect(Diagnostic(.warning, "'עברית' and 'العربية'").message == "'עברית' and 'العربية'")
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

    /// A character reference to a control character (`&#x80;`, `&#x9F;`, `&#27;`) is replaced
    /// by U+FFFD with a warning at the first reference, as a control character written as
    /// itself is: it reached the PDF as an invisible control, unsaid. In a paragraph, a
    /// heading, a table cell and emphasis alike.
    @Test func referencesToControlCharactersAreReplacedAndSaid() {
        for (markdown, column) in [
            ("Text &#x80; and &#x9F; and &#27; end\n", 6), ("# Head *&#x85;*\n", 9), ("| a |\n|---|\n| x&#128; |\n", 4),
        ] {
            let result = MarkdownParser.parse(markdown, file: "t.md")
            let text = Array(result.document.blocks).map { block -> String in
                switch block.kind {
                case .paragraph(let inlines), .heading(_, let inlines): inlines.plainText
                case .table(let table): table.rows.flatMap { $0 }.map(\.plainText).joined()
                default: ""
                }
            }.joined()
            #expect(
                !text.unicodeScalars.contains { (0x80...0x9F).contains($0.value) || $0.value < 0x20 }, "\(markdown)")
            #expect(text.contains("\u{FFFD}"), "\(markdown)")
            let warnings = result.diagnostics.filter { $0.message.hasPrefix("a character reference names") }
            #expect(warnings.count == 1, "\(result.diagnostics.map(\.description))")
            let line = markdown.hasPrefix("|") ? 3 : 1
            #expect(warnings.first?.location == SourceLocation(file: "t.md", line: line, column: column), "\(markdown)")
        }
        #expect(MarkdownParser.parse("&#x20AC; &#169;\n", file: "t.md").diagnostics.isEmpty)
    }
}
