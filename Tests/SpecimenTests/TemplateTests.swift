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
