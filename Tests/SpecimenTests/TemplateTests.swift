import Testing
import Typography

@testable import Specimen

@Suite struct TemplateTests {
    let context = TemplateContext([
        "name": .text("a*b"),
        "yes": .bool(true), "no": .bool(false), "empty": .text(""),
        "theme": .context(TemplateContext(["name": .text("hig")])),
        "items": .list([TemplateContext(["v": .text("1")]), TemplateContext(["v": .text("2")])]),
    ])

    @Test func variablesEscapeMarkdownAndTripleBracesDoNot() throws {
        #expect(try Template.expand("{{name}} {{{name}}} {{& name}}", context: context).text == "a\\*b a*b a*b")
        #expect(try Template.expand("{{theme.name}}", context: context).text == "hig")
    }

    @Test func sectionsRepeatListsAndTestFlags() throws {
        #expect(try Template.expand("{{#items}}[{{v}}{{name}}]{{/items}}", context: context).text == "[1a\\*b][2a\\*b]")
        #expect(
            try Template.expand(
                "{{#yes}}Y{{/yes}}{{#no}}N{{/no}}{{^no}}n{{/no}}{{^empty}}e{{/empty}}", context: context
            ).text == "Yne")
        #expect(try Template.expand("{{#theme}}{{name}}{{/theme}}", context: context).text == "hig")
    }

    @Test func standaloneTagLinesAndCommentsDisappear() throws {
        let text = "a\n{{! note }}\n  {{#items}}\n- {{v}}\n{{/items}}\n{{!-- has }} inside --}}b\n"
        #expect(try Template.expand(text, context: context).text == "a\n- 1\n- 2\nb\n")
        // Written with CR LF: the same lines disappear, the rest keep their endings.
        let windows = text.replacingOccurrences(of: "\n", with: "\r\n")
        #expect(try Template.expand(windows, context: context).text == "a\r\n- 1\r\n- 2\r\nb\r\n")
    }

    @Test func unknownNamesAreReportedAndMalformedTemplatesThrow() throws {
        let e = try Template.expand("x{{nope}}y{{#gone}}z{{/gone}}", context: context)
        #expect(e.text == "xy")
        #expect(e.unknownNames == ["nope", "gone"])
        #expect(throws: TemplateError.self) { try Template.expand("{{#items}}", context: context) }
        #expect(throws: TemplateError.self) { try Template.expand("{{#items}}{{/yes}}", context: context) }
        #expect(throws: TemplateError.self) { try Template.expand("{{/items}}", context: context) }
        #expect(throws: TemplateError.self) { try Template.expand("{{name", context: context) }
    }

    /// Problems point at the tag's `{{` in the template as written — line and column, standalone
    /// tag lines (which expansion joins to the next line) included.
    @Test func problemsCarryTheTagsLineAndColumn() throws {
        let e = try Template.expand(
            "Intro\n\n  {{#items}}\n# {{nosuch}} here {{v}}\n{{/items}}\ntail {{gone}}\n", context: context)
        #expect(e.unknownNames == ["nosuch", "gone"])
        #expect(
            e.unknownNamePositions == [Template.Position(line: 4, column: 3), Template.Position(line: 6, column: 6)])
        func error(_ text: String) -> String? {
            do {
                _ = try Template.expand(text, context: context)
                return nil
            } catch { return "\(error)" }
        }
        #expect(error("Intro\n\nText {{ open") == "3:6: '{{' without a closing '}}'")
        #expect(error("a\n  {{#items}}\nb") == "2:3: '{{#items}}' is never closed")
        #expect(error("a {{#items}}\nb {{/yes}}") == "2:3: '{{/yes}}' closes '{{#items}}' opened on line 1")
        #expect(error("x\n\n  {{/items}}") == "3:3: '{{/items}}' closes no section")
        #expect(error("x\r\n\r\n  {{/items}}") == "3:3: '{{/items}}' closes no section")
        let windows = try Template.expand(
            "Intro\r\n\r\n  {{#items}}\r\n# {{nosuch}}\r\n{{/items}}\r\n", context: context)
        #expect(windows.unknownNamePositions == [Template.Position(line: 4, column: 3)])
    }

    /// A place in the expanded text maps back to the template as written: a character the
    /// template wrote to its own line and column (standalone tag lines removed, a section's body
    /// repeated, bytes counted after Hangul), a value to the tag that inserted it, a place in
    /// text appended afterwards or past the end to nothing; removing the leading blank lines
    /// keeps the map right.
    @Test func placesInTheExpansionMapToTheTemplate() throws {
        let template = "\n{{! note }}\nIntro\n  {{#items}}\n- 가 {{v}} ![x]({{name}})\n{{/items}}\nend\n"
        var e = try Template.expand(template, context: context)
        #expect(e.text == "\nIntro\n- 가 1 ![x](a\\*b)\n- 가 2 ![x](a\\*b)\nend\n")
        e.removeLeadingBlankSpace()
        #expect(e.text.hasPrefix("Intro\n"))
        func at(_ line: Int, _ column: Int) -> Template.Position? { e.templatePosition(line: line, column: column) }
        #expect(at(1, 1) == Template.Position(line: 3, column: 1))
        // "- 가 " is 6 bytes, 4 characters: the value `1` at byte 7 is the tag at character 5.
        for line in [2, 3] {
            #expect(at(line, 1) == Template.Position(line: 5, column: 1), "line \(line)")
            #expect(at(line, 7) == Template.Position(line: 5, column: 5), "line \(line)")
            #expect(at(line, 9) == Template.Position(line: 5, column: 11), "line \(line): the image's '!'")
            #expect(at(line, 14) == Template.Position(line: 5, column: 16), "line \(line): the value in the link")
        }
        #expect(at(4, 1) == Template.Position(line: 7, column: 1))
        #expect(at(9, 1) == nil)
        e.text += "appended\n"
        #expect(at(5, 1) == nil)
    }

    @Test func numbersUseTypographicMinusOnThePageAndASCIIInAttributes() {
        #expect(Format.number(-0.8, decimals: 2) == "\u{2212}0.8")
        #expect(Format.number(40, decimals: 2) == "40")
        #expect(Format.signed(0.53, decimals: 2) == "+0.53")
        #expect(Format.ascii(-0.8) == "-0.8")
        #expect(Format.ascii(10.5) == "10.5")
    }

    @Test func coverageSummaryNamesFallbacks() {
        let style = TextStyle(families: ["DejaVu Sans Mono"], size: 10)
        let cells = [
            CharacterCoverage(character: "가", family: "Noto Sans CJK KR"),
            CharacterCoverage(character: "나", family: nil),
        ]
        let summary = SpecimenBuilder.coverageSummary(cells, style: style)
        #expect(summary.contains("2 of 2 not in DejaVu Sans Mono"))
        #expect(summary.contains("Noto Sans CJK KR (system fallback)"))
        #expect(summary.contains("1 missing"))
        #expect(
            SpecimenBuilder.coverageSummary(
                [CharacterCoverage(character: "a", family: "DejaVu Sans Mono")], style: style) == "✓ DejaVu Sans Mono")
    }
}
