import Foundation
import Testing

@testable import Typography

/// Token files written as each design tool exports them (Material Theme Builder, Tokens Studio
/// multi-set, Style Dictionary v3, DTCG 2025.10), imported: every size, line height, letter
/// spacing, case, line and colour they state arrives in the theme, and what is not used is said.
@Suite struct DesignToolExportTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("EndToEndTests/Fixtures/tokens").path

    func load(_ name: String, mapping: [String: TextRole] = [:]) throws -> (theme: Theme, warnings: [String]) {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.folder + "/" + name))
        return try TokenImporter.importTokens(data, file: name, mapping: mapping)
    }

    @Test func material3NamesAreGuessedAndSaidSo() throws {
        let (theme, warnings) = try load("material3.tokens.json")
        let expected: [(TextRole, Double, Double, Double, Int)] = [
            (.display, 57, 64, -0.25, 400), (.largeTitle, 45, 52, 0, 400), (.title, 32, 40, 0, 400),
            (.title2, 28, 36, 0, 400), (.title3, 24, 32, 0, 400), (.subTitle, 22, 28, 0, 400),
            (.headline, 16, 24, 0.15, 500), (.body, 16, 24, 0.5, 400), (.caption, 12, 16, 0.4, 400),
            (.caption2, 11, 16, 0.5, 500),
        ]
        for (role, size, lineHeight, tracking, weight) in expected {
            let style = theme[role]
            #expect(style.size == size && style.lineHeight == .absolute(lineHeight), "\(role)")
            #expect(style.letterSpacing == tracking && style.weight.rawValue == weight, "\(role)")
            #expect(style.families == ["Roboto", "Inter", "Noto Sans CJK KR"], "\(role)")
        }
        let guess = warnings.first { $0.contains("roles guessed from Material 3") }
        #expect(guess?.contains("md.sys.typescale.body-large → Body") == true, "\(warnings)")
        // One summary: the five styles without a role, then every other token nothing uses.
        let unused = warnings.filter { $0.contains("not used") || $0.contains("not mapped") }
        #expect(unused.count == 1)
        #expect(unused.first?.contains("md.sys.typescale.title-small (48:3)") == true)
        #expect(unused.first?.contains("md.sys.shape.corner.medium") == true)
        #expect(unused.first?.contains("md.sys.typescale.title-small.size") == false)  // its group is listed
        #expect(!warnings.contains { $0.contains("keep the base theme") || $0.contains("out of order") })
        #expect(theme.colors["accent"] == RGBAColor(hex: "#6750A4"))
        #expect(theme.colors["text"] == RGBAColor(hex: "#1D1B20"))
        #expect(theme.colors["rule"] == RGBAColor(hex: "#CAC4D0"))
        #expect(theme.colors["md.sys.color.error"] == RGBAColor(hex: "#B3261E"))
    }

    @Test func aMappingFileChoosesOtherStyles() throws {
        let file = Self.folder + "/material3-roles.json"
        let mapping = try TokenImporter.mapping(fromFile: Data(contentsOf: URL(fileURLWithPath: file)), file: file)
        #expect(mapping["md.sys.typescale.body-medium"] == .body)
        let (theme, warnings) = try load("material3.tokens.json", mapping: mapping)
        #expect(theme[.body].size == 14 && theme[.body].lineHeight == .absolute(20))
        #expect(theme[.caption].size == 12 && theme[.caption].weight == .medium)
        #expect(theme[.headline].size == 14)
        // body-large lost Body to the mapping: a warning names the duplicate, nothing is silent.
        #expect(warnings.contains { $0.contains("both map to Body") })

        let flat = try TokenImporter.mapping(
            fromFile: Data(#"{"a.b": "large title", "$comment": "x"}"#.utf8), file: "m.json")
        #expect(flat == ["a.b": .largeTitle])
        for (json, message) in [
            (#"{"roles": {"bodytext": "a"}}"#, "m.json:1:12: 'bodytext' is no role; roles are display, large-title"),
            (#"{"a": 3}"#, "m.json:1:7: 'a' must map to a string"),
            (#"{"roles": {"body": "a", "Body": "b"}}"#, "m.json:1:25: role Body is already mapped at 1:12"),
            ("[1]", "m.json:1:1: a mapping file must be a JSON object"),
        ] {
            #expect(throws: ThemeError.self) { try TokenImporter.mapping(fromFile: Data(json.utf8), file: "m.json") }
            do { _ = try TokenImporter.mapping(fromFile: Data(json.utf8), file: "m.json") } catch let error
                as ThemeError
            {
                #expect(error.description.hasPrefix(message), "\(error)")
            }
        }
    }

    @Test func tokensStudioMultiSetWithMath() throws {
        let (theme, warnings) = try load("tokens-studio-multiset.json", mapping: ["Overline": .caption2])
        // 16 × 1.25ⁿ through chained expressions; 16 / 1.25 for the caption.
        let sizes: [(TextRole, Double)] = [
            (.display, 48.8281), (.largeTitle, 39.0625), (.title, 31.25), (.title3, 25), (.headline, 20),
            (.body, 16), (.caption, 12.8), (.caption2, 12.8),
        ]
        for (role, size) in sizes { #expect(abs(theme[role].size - size) < 0.0001, "\(role): \(theme[role].size)") }
        #expect(theme[.display].lineHeight == .relativeToSize(1.2))
        #expect(theme[.display].tracking == .percentOfSize(-2))
        #expect(theme[.body].lineHeight == .relativeToSize(1.5) && theme[.body].spaceAfter == 12)
        #expect(theme[.display].spaceAfter == nil)  // "0", Figma's default: the page's spacing
        #expect(theme[.headline].textDecoration == .underline)
        #expect(theme[.caption2].textCase == .uppercase && theme[.caption2].tracking == .percentOfSize(8))
        #expect(theme[.title3].weight == .semibold)
        // The Light theme's sets: the light text colour, not the dark one.
        #expect(theme.colors["text"] == RGBAColor(hex: "#1A1A1F"))
        #expect(theme.colors["rule"] == RGBAColor(hex: "#C9CCD3"))
        #expect(warnings.contains { $0.contains("global, light (as theme 'Light' of $themes") && $0.hasSuffix("dark") })
        #expect(
            warnings.contains {
                $0.contains("keep the base theme 'default': Title2 17 pt, SubTitle 12.5 pt")
            })
        #expect(
            warnings.contains {
                $0.contains("out of order")
                    && $0.contains("Title2 (17 pt, from the base theme) is smaller than Title3 (25 pt)")
            })
        #expect(warnings.contains { $0.contains("2 other tokens not used: spacing.sm, spacing.md") })
        // The set name may be written in a mapping too.
        let (withSet, _) = try load("tokens-studio-multiset.json", mapping: ["global.typography.Overline": .caption2])
        #expect(withSet[.caption2].textCase == .uppercase)
    }

    @Test func styleDictionaryV3ValueReferences() throws {
        let (theme, warnings) = try load("style-dictionary-v3.json")
        #expect(!warnings.contains { $0.contains("names no token") }, "\(warnings)")
        let body = theme[.body]
        #expect(body.size == 11 && body.lineHeight == .absolute(16) && body.spaceAfter == 10)
        // A serif list keeps only the base's Hangul fallback, never the base's Inter.
        #expect(body.families == ["DejaVu Serif", "Noto Serif CJK KR", "serif", "Noto Sans CJK KR"])
        #expect(theme[.display].size == 48 && theme[.display].weight == .bold)
        #expect(theme[.display].lineHeight == .relativeToSize(1.1))
        #expect(theme[.display].tracking == nil)  // the token states none: not the base's -0.8 pt
        #expect(theme[.subTitle].tracking == .percentOfSize(2))
        #expect(theme[.caption].textCase == .smallCaps)
        #expect(theme.colors["text"] == RGBAColor(hex: "#222222"))
        #expect(theme.colors["secondary"] == RGBAColor(hex: "#555555"))
        #expect(!warnings.contains { $0.contains("keep the base theme") || $0.contains("not used") }, "\(warnings)")
    }

    @Test func dtcgObjectsAndAppleNames() throws {
        let (theme, warnings) = try load("dtcg.tokens.json")
        #expect(theme[.title].size == 26)  // title1
        #expect(theme[.subTitle].size == 17)  // subheadline
        #expect(theme[.caption].size == 12 && theme[.caption].tracking == .points(0.12))  // caption1
        #expect(theme[.body].size == 15 && theme[.body].lineHeight == .relativeToSize(1.5))
        #expect(theme[.display].families == ["Inter Display", "Inter", "Noto Sans CJK KR"])
        #expect(theme.colors["link"] == RGBAColor(red: 0.14, green: 0.31, blue: 0.77))
        #expect(theme.colors["rule"] == RGBAColor(hex: "#C9CCD3"))
        #expect(warnings.count == 1 && warnings[0].contains("text.footnote (31:5)"), "\(warnings)")
    }

    @Test(arguments: [
        ("16 * 1.25", "20"), ("(16px + 4px) / 2", "10px"), ("{x}", nil), ("16px * 2px", nil), ("1 / 0", nil),
        ("2 * -3", "-6"), ("4px - 1", "3px"), ("12px 16px", nil), ("bold", nil), ("150% * 1", "150%"),
    ])
    func arithmetic(expression: String, value: String?) {
        #expect((try? TokenExpressions.evaluate(expression).get()) == value)
    }

    @Test func expressionProblemsArePlaced() {
        let json =
            #"{"s": {"$type": "dimension", "$value": "8"}, "t": {"body": {"$type": "typography", "#
            + #""$value": {"fontSize": "{s} * px"}}}}"#
        #expect(throws: ThemeError.self) { try TokenImporter.importTokens(Data(json.utf8), file: "e.json") }
        do { _ = try TokenImporter.importTokens(Data(json.utf8), file: "e.json") } catch let error as ThemeError {
            let errors = error.problems.filter { $0.severity == .error }.map(\.description)
            #expect(errors.count == 1 && errors[0].hasPrefix("e.json:1:"), "\(errors)")
            #expect(errors.first?.contains(": expression '{s} * px' is not arithmetic") == true, "\(errors)")
        } catch { Issue.record("\(error)") }
        // A cycle through expressions ends.
        let cycle =
            #"{"a": {"$value": "{b} * 2"}, "b": {"$value": "{a} + 1"}, "t": {"body": {"$type": "typography", "#
            + #""$value": {"fontSize": "{a}"}}}}"#
        #expect(throws: ThemeError.self) { try TokenImporter.importTokens(Data(cycle.utf8), file: "c.json") }
    }

    /// Values that look like expressions but cannot end — a brace inside an alias's braces
    /// (`{fo{}nt.family.sans}`, which followed as an alias was the same expression again, a
    /// stack overflow), an alias in double braces, and expressions whose aliases are expressions
    /// 5,000 deep — are refused at their place; a chain 50 deep resolves.
    @Test(arguments: [
        (#""fontFamily": "{fo{}nt.family.sans}", "fontSize": "16""#, "'{fo{}' is no alias"),
        (#""fontSize": "{{s}} * 2""#, "'{{s}' is no alias"),
        (#""fontSize": "{s{s}}""#, "'{s{s}' is no alias"),
        (#""fontSize": "{chain.0}""#, "expressions nest more than 100 deep"),
    ])
    func expressionsThatCannotEndAreRefusedAtTheirPlace(fields: String, message: String) {
        let chain = (0..<5_000).map { #""\#($0)": {"$value": "{chain.\#($0 + 1)} + 0""# + "}" }.joined(separator: ", ")
        let json =
            #"{"s": {"$type": "dimension", "$value": "8"}, "chain": {\#(chain), "5000": {"$value": "10"}}, "#
            + #""t": {"body": {"$type": "typography", "$value": {\#(fields)}}}}"#
        do {
            _ = try TokenImporter.importTokens(Data(json.utf8), file: "e.json")
            Issue.record("\(fields) was imported")
        } catch let error as ThemeError {
            // The chain's tokens, untyped, are read first: the depth is a warning there, and
            // the typography token that needs them is refused, naming that warning.
            let problems = error.problems.map(\.description)
            #expect(problems.contains { $0.hasPrefix("e.json:1:") && $0.contains(message) }, "\(problems)")
            #expect(error.problems.contains { $0.severity == .error }, "\(problems)")
        } catch { Issue.record("\(error)") }
    }

    @Test func expressionsFiftyDeepResolve() throws {
        let chain = (0..<50).map { #""\#($0)": {"$value": "{chain.\#($0 + 1)} + 0.1""# + "}" }.joined(separator: ", ")
        let json =
            #"{"chain": {\#(chain), "50": {"$value": "10"}}, "#
            + #""t": {"body": {"$type": "typography", "$value": {"fontSize": "{chain.0}"}}}}"#
        let (theme, _) = try TokenImporter.importTokens(Data(json.utf8), file: "e.json")
        #expect(abs(theme[.body].size - 15) < 0.0001, "\(theme[.body].size)")
    }

    @Test func tokenFilesAreKnownByOneRule() {
        let tokens = [
            #"{"a": {"$value": 1}}"#, #"{"global": {"x": {"value": "1", "type": "sizing"}}}"#,
            #"{"size": {"font": {"base": {"value": "16px"}}}}"#, #"{"$themes": []}"#,
        ]
        let themes = [#"{"roles": {"body": {"size": 12}}}"#, #"{"name": "x", "extends": "hig"}"#, "{}"]
        for text in tokens { #expect(TokenImporter.isTokenFile(Data(text.utf8)), "\(text)") }
        for text in themes { #expect(!TokenImporter.isTokenFile(Data(text.utf8)), "\(text)") }
    }

    @Test func themeFilesCarryCaseLineAndSpaceAfter() {
        let json =
            #"{"roles": {"caption": {"textCase": "small-caps", "textDecoration": "underline", "spaceAfter": "6pt"}}}"#
        let (theme, problems) = ThemeLoader.decode(Data(json.utf8), file: "t.json")
        #expect(problems.isEmpty, "\(problems)")
        #expect(theme?[.caption].textCase == .smallCaps && theme?[.caption].textDecoration == .underline)
        #expect(theme?[.caption].spaceAfter == 6)
        let written = ThemeWriter.json(for: theme!)
        #expect(written.contains(#""textCase": "small-caps", "textDecoration": "underline", "spaceAfter": 6"#))
        #expect(written.contains(#""paper": "a4""#))
        #expect(ThemeLoader.decode(Data(written.utf8), file: "w.json").0 == theme)
        let bad = #"{"roles": {"caption": {"textCase": "shouting"}}}"#
        #expect(
            ThemeLoader.decode(Data(bad.utf8), file: "b.json").1.first?.message.contains("textCase must be") == true)
    }

    @Test func paperNamesAreKept() {
        #expect(PaperSize.a4.name == "a4" && PaperSize.letter.name == "letter" && PaperSize.a5.name == "a5")
        #expect(PaperSize(width: 841.8898, height: 595.2756).name == "a4 landscape")
        #expect(PaperSize(width: 500, height: 600).name == nil)
    }

    @Test func textCases() {
        #expect(TextCase.capitalize.apply(to: "the quick-brown fox") == "The Quick-Brown Fox")
        #expect(TextCase.uppercase.apply(to: "straße") == "STRASSE")
        #expect(TextCase(name: "small_caps") == .smallCaps && TextCase(name: "none") == nil)
    }
}
