import Foundation
import Testing

@testable import Typography

@Suite struct TokenImporterTests {
    @Test func importsTokensStudioExport() throws {
        let (theme, warnings) = try TokenImporter.importTokens(Data(tokensStudioExport.utf8), file: "tokens.json")
        #expect(theme.name == "tokens")
        let display = theme[.display]
        // The base's fallback (the Hangul face) kept, not its primary family.
        #expect(display.families == ["Pretendard", "Noto Sans CJK KR"])
        #expect(display.weight == .bold)
        #expect(display.size == 48)  // 3rem × 16
        #expect(display.lineHeight == .relativeToSize(1.2))  // alias → alias → 120%
        #expect(display.tracking == .percentOfSize(-2))
        #expect(display.relativeTo == Theme.default[.display].relativeTo)

        #expect(theme[.largeTitle].size == 34)
        #expect(theme[.largeTitle].lineHeight == .absolute(44))  // unitless "44": px, not a multiplier
        #expect(theme[.title2].weight == .semibold)
        #expect(theme[.title2].lineHeight == .absolute(30))
        #expect(theme[.title2].tracking == nil)  // "0" → none

        let body = theme[.body]  // typography.body.regular
        #expect(body.size == 17 && body.weight == .regular)
        #expect(body.lineHeight == .relativeToSize(1.5))
        #expect(body.tracking == .points(-0.5))

        #expect(theme[.caption2].weight == .medium && theme[.caption2].italic)
        #expect(theme[.caption2].lineHeight == nil)  // AUTO
        #expect(theme[.caption2].tracking == .percentOfSize(1))

        #expect(theme[.title] == Theme.default[.title])  // no token: base kept
        // `fontFamilies.mono` is the family code is set in.
        #expect(
            theme.monospaceFamilies == ["JetBrains Mono"] + Theme.default.monospaceFamilies.dropFirst(),
            "\(theme.monospaceFamilies)")

        // Unmapped tokens are listed, not resolved (Code's broken alias is reported only when used),
        // with every other token nothing uses, in one warning; then the roles kept from the base
        // and the scale's order.
        #expect(warnings.count == 4, "\(warnings)")
        #expect(warnings.first?.hasPrefix("tokens.json:89:3: warning: Tokens Studio sets read in order") == true)
        #expect(
            warnings.contains(
                "tokens.json:10:7: warning: typography tokens not mapped to a role (name them after a role or pass a "
                    + "mapping): typography.Overline (73:7), typography.Code (80:7); 5 other tokens not used: "
                    + "fontWeights.medium, fontSize.13, fontSize.16, fontSize.20, fontSize.28"))
        #expect(
            warnings.contains(
                "tokens.json:1:1: warning: roles no token sets keep the base theme 'default': Title 20 pt, "
                    + "Title3 14 pt, SubTitle 12.5 pt, Headline 11 pt, Caption 9 pt"))
        #expect(
            warnings.contains {
                $0.contains("out of order")
                    && $0.contains("Title (20 pt, from the base theme) is smaller than Title2 (22 pt)")
            })
    }

    /// Values design tools write that were refused, each now read: Tokens Studio's
    /// `small_caps_forced` and CSS's `all-small-caps` (as small caps, with a warning), a line
    /// height in em (1.5 × the size), letter spacing `normal` (none).
    @Test func designToolsOtherSpellingsAreRead() throws {
        let json = """
            {"body": {"$type": "typography", "$value": {"fontFamily": "Inter", "fontSize": "16px",
              "lineHeight": "1.5em", "letterSpacing": "normal", "textCase": "small_caps_forced"}},
             "caption": {"$type": "typography", "$value": {"fontFamily": "Inter", "fontSize": "12px",
              "lineHeight": "1.25EM", "textCase": "all-small-caps"}}}
            """
        let (theme, warnings) = try TokenImporter.importTokens(Data(json.utf8), file: "t.json")
        #expect(theme[.body].lineHeight == .relativeToSize(1.5) && theme[.body].tracking == nil)
        #expect(theme[.body].textCase == .smallCaps && theme[.caption].textCase == .smallCaps)
        #expect(theme[.caption].lineHeight == .relativeToSize(1.25))
        #expect(warnings.filter { $0.contains("is set as small-caps") }.count == 2, "\(warnings)")
    }

    @Test func explicitMappingWins() throws {
        let (theme, warnings) = try TokenImporter.importTokens(
            Data(tokensStudioExport.utf8), file: "tokens.json",
            mapping: ["global.typography.Overline": .caption])
        #expect(theme[.caption].tracking == .percentOfSize(8))
        #expect(theme[.caption].weight == .semibold)
        #expect(warnings.contains { $0.contains("not mapped") && $0.contains("typography.Code (80:7)") })
        // Mapped, the Code token's broken line-height alias would give a theme that silently
        // keeps a default: the import is refused at the alias.
        do {
            _ = try TokenImporter.importTokens(
                Data(tokensStudioExport.utf8), file: "tokens.json", mapping: ["Code": .headline])
            Issue.record("expected ThemeError")
        } catch let error as ThemeError {
            #expect(
                error.problems.filter { $0.severity == .error }.map(\.description) == [
                    "tokens.json:83:54: alias {lineHeights.missing} names no token"
                ])
        }
    }

    /// Every value a typography token cannot use is an error at the value (import refused, as
    /// `theme check` reports it), not a warning that leaves the default in place.
    @Test(arguments: [
        (#""fontSize": "-3px""#, "fontSize must be more than 0, not the string \"-3px\""),
        (#""fontSize": "12furlong""#, "fontSize must be a dimension"),
        (#""fontWeight": "heavyish""#, "fontWeight must be 1–1000 or a weight name, not the string \"heavyish\""),
        (#""lineHeight": "tall""#, "lineHeight must be"),
        (#""letterSpacing": true"#, "letterSpacing must be"),
        (#""fontFamily": 7"#, "fontFamily must be"),
        (#""fontSize": "{a}""#, "alias cycle: typography.body → a → b → a"),
        (#""fontSize": "{nowhere}""#, "alias {nowhere} names no token"),
    ])
    func unusableValuesAreErrors(field: String, message: String) {
        let json =
            "{ \"a\": { \"$type\": \"dimension\", \"$value\": \"{b}\" }, \"b\": { \"$type\": \"dimension\", "
            + "\"$value\": \"{a}\" },\n"
            + "  \"typography\": { \"body\": { \"$type\": \"typography\", \"$value\": { \(field) } } } }"
        guard let error = Self.refusal(json) else {
            Issue.record("expected ThemeError for \(field)")
            return
        }
        do {
            let errors = error.problems.filter { $0.severity == .error }
            #expect(errors.count == 1)
            // At the value, not the token; a cycle where it closes (b's value, on line 1).
            #expect(
                errors.first.map {
                    message.hasPrefix("alias cycle") ? $0.line == 1 && $0.column > 60 : $0.line == 2 && $0.column > 60
                } == true, "\(errors)")
            #expect(errors.first?.message.contains(message) == true, "\(errors)")
            // A size written as an alias that fails is that error alone, not also a size left out.
            if field.contains("fontSize") {
                #expect(!error.problems.contains { $0.message.contains("gives no fontSize") }, "\(error.problems)")
            }
            #expect(
                error.description.split(separator: "\n").allSatisfy {
                    $0.range(of: #"^t\.json:\d+:\d+: "#, options: .regularExpression) != nil
                })
        }
    }

    /// The problems `json` (a token file, `t.json`) is refused for; nil when it imports.
    static func refusal(_ json: String) -> ThemeError? {
        do {
            _ = try TokenImporter.importTokens(Data(json.utf8), file: "t.json")
            return nil
        } catch let error as ThemeError {
            return error
        } catch {
            return ThemeError(problems: [ThemeProblem(file: "t.json", line: 0, column: 0, message: "\(error)")])
        }
    }

    /// An alias a slip away from a token's path says which it may mean; one far from any
    /// does not guess.
    @Test func anAliasThatNamesNoTokenSuggestsTheNearest() {
        func errors(_ alias: String) -> [String] {
            let json =
                "{ \"size\": { \"base\": { \"$type\": \"dimension\", \"$value\": \"16px\" } },\n"
                + "  \"typography\": { \"body\": { \"$type\": \"typography\", \"$value\": "
                + "{ \"fontSize\": \"{\(alias)}\", \"lineHeight\": 1.5 } } } }"
            return Self.refusal(json)?.problems.filter { $0.severity == .error }.map(\.message) ?? []
        }
        #expect(errors("size.bsae") == ["alias {size.bsae} names no token; did you mean {size.base}?"])
        #expect(errors("sizes.base") == ["alias {sizes.base} names no token; did you mean {size.base}?"])
        #expect(errors("spacing.large") == ["alias {spacing.large} names no token"])
    }

    /// A value that names nothing of its kind is refused where it is written, never read as a
    /// default or as another kind of value: an empty or blank weight (read as Regular before),
    /// a family, weight, size, line height or letter spacing that is an alias of a colour or
    /// shadow token (a colour was read as a family named `#3355ff`), a negative dimension
    /// object (said to be "an object").
    @Test func aValueOfTheWrongKindIsRefusedWhereItIsWritten() {
        func errors(_ fields: String) -> [String] {
            let json =
                "{ \"color\": { \"primary\": { \"$type\": \"color\", \"$value\": \"#3355ff\" },\n"
                + "  \"glow\": { \"$type\": \"shadow\", \"$value\": \"{color.primary}\" } },\n"
                + "  \"typography\": { \"body\": { \"$type\": \"typography\", \"$value\": "
                + "{ \(fields) } } } }"
            return Self.refusal(json)?.problems.filter { $0.severity == .error }.map(\.description) ?? []
        }
        let sized = "\"fontSize\": \"16px\", \"lineHeight\": 1.5"
        #expect(errors("\"fontWeight\": \"\", \(sized)").contains { $0.contains("fontWeight must be 1–1000") })
        #expect(errors("\"fontWeight\": \"   \", \(sized)").contains { $0.contains("fontWeight must be 1–1000") })
        for (field, what) in [
            ("fontFamily", "a font family"), ("fontWeight", "a font weight"), ("letterSpacing", "a letter spacing"),
        ] {
            let found = errors("\"\(field)\": \"{color.primary}\", \(sized)")
            #expect(
                found.contains {
                    $0.contains("'typography.body': \(field) refers to 'color.primary', a color token, not \(what)")
                },
                "\(found)")
        }
        let throughShadow = errors("\"fontFamily\": \"{color.glow}\", \(sized)")
        #expect(throughShadow.contains { $0.contains("refers to 'color.primary', a color token") }, "\(throughShadow)")
        let lineHeight = errors("\"fontSize\": \"16px\", \"lineHeight\": \"{color.primary}\"")
        #expect(lineHeight.contains { $0.contains("lineHeight refers to 'color.primary'") }, "\(lineHeight)")
        let negative = errors("\"fontSize\": { \"value\": -16, \"unit\": \"px\" }, \"lineHeight\": 1.5")
        #expect(negative.contains { $0.hasSuffix("fontSize must be more than 0, not -16 pt") }, "\(negative)")
    }

    /// A token a typography value reaches through a `$ref` pointer (to its `$value`, or inside
    /// it) is used: it was listed as not used beside the size it set.
    @Test func aTokenReachedThroughAPointerIsUsed() throws {
        let json = """
            {
              "base": { "$type": "dimension", "$value": { "value": 18, "unit": "px" } },
              "lead": { "$type": "number", "$value": { "factor": 1.4 } },
              "spare": { "$type": "dimension", "$value": "3px" },
              "typography": { "body": { "$type": "typography", "$value": {
                "fontSize": { "$ref": "#/base/$value" }, "lineHeight": { "$ref": "#/lead/$value/factor" } } } }
            }
            """
        let (theme, warnings) = try TokenImporter.importTokens(Data(json.utf8), file: "t.json")
        #expect(theme[.body].size == 18 && theme[.body].lineHeight == .relativeToSize(1.4))
        let unused = warnings.filter { $0.contains("not used") }
        #expect(unused.count == 1 && unused[0].hasSuffix("1 other token not used: spare"), "\(unused)")
    }

    /// A token type one slip from one DTCG or Tokens Studio defines is named at its `$type`
    /// (its token is no typography, which was said only as a token not used); a style name's
    /// slant is read as italic whichever word names it.
    @Test func aTokenTypeWrittenWrongIsNamedWhereItIsWritten() throws {
        let json = """
            {
              "typography": {
                "body": { "$type": "typography", "$value": { "fontSize": "16px", "fontWeight": "Medium Oblique" } },
                "caption": { "$type": "typograhpy", "$value": { "fontSize": "12px", "lineHeight": 1.4 } },
                "small": { "type": "typograpy", "value": { "fontSize": "11px", "lineHeight": 1.4 } },
                "brand": { "$type": "color", "$value": "#112233" },
                "custom": { "$type": "x-vendor-thing", "$value": 3 }
              }
            }
            """
        let (theme, warnings) = try TokenImporter.importTokens(Data(json.utf8), file: "t.json")
        #expect(
            warnings.contains {
                $0.hasPrefix("t.json:4:27: warning: unknown token type 'typograhpy'; did you mean 'typography'?")
            }, "\(warnings)")
        #expect(
            warnings.contains { $0.hasPrefix("t.json:5:24: warning: unknown token type 'typograpy'") }, "\(warnings)")
        #expect(!warnings.contains { $0.contains("'x-vendor-thing'") || $0.contains("'color'") }, "\(warnings)")
        #expect(theme[.body].weight == .medium && theme[.body].italic)
    }

    /// The scale out of order is warned about at the token that set a role larger than the one
    /// before it, not at the file's first token.
    @Test func aScaleOutOfOrderIsWarnedAboutAtTheTokenThatBreaksIt() throws {
        let json = """
            {
              "typography": {
                "display": { "$type": "typography", "$value": { "fontSize": "48px", "lineHeight": 1.2 } },
                "body": { "$type": "typography", "$value": { "fontSize": "16px", "lineHeight": 1.5 } }
              }
            }
            """
        let (_, warnings) = try TokenImporter.importTokens(Data(json.utf8), file: "t.json")
        let order = try #require(warnings.first { $0.contains("out of order") })
        #expect(order.hasPrefix("t.json:4:5: warning:"), "\(order)")
        // A size past the limits is its own error, not also a scale out of order ("Body (inf pt)").
        for size in ["\"1e308px\"", "\"1e300rem\"", "5000"] {
            let huge = json.replacingOccurrences(of: "\"16px\"", with: size)
            let problems = Self.refusal(huge)?.problems.map(\.message) ?? []
            #expect(problems.contains { $0.contains("size must be between 1 and 1000 pt") }, "\(problems)")
            #expect(!problems.contains { $0.contains("out of order") }, "\(size): \(problems)")
        }
    }

    @Test func dtcg2025Objects() throws {
        let (theme, warnings) = try TokenImporter.importTokens(Data(dtcgTokens.utf8), file: "dtcg.tokens.json")
        #expect(theme[.title].size == 28)  // 1.75rem
        #expect(theme[.title].weight == .bold)
        #expect(theme[.title].tracking == .points(-0.32))  // -0.02rem
        #expect(theme[.title].lineHeight == .relativeToSize(1.2))
        #expect(theme[.title].families == ["Inter", "Noto Sans CJK KR"])
        #expect(theme[.body].size == 16)  // alias of alias
        #expect(theme[.body].weight == .semibold)  // "semi-bold"
        #expect(theme[.body].tracking == nil)
        #expect(theme[.headline].size == 16)  // $ref pointer
        #expect(theme[.headline].lineHeight == .absolute(22))
        #expect(theme[.caption].size == Theme.default[.caption].size)  // no fontSize: size kept, said so
        #expect(
            warnings.contains { $0.contains("gives no fontSize") && $0.contains("base theme's 9 pt is kept") },
            "\(warnings)")
        // A cycle among dimension tokens nothing uses is no problem: they are only listed as unused.
        #expect(!warnings.contains { $0.contains("cycle") })
        #expect(warnings.contains { $0.contains("not used") && $0.contains("loopA") })
        #expect(warnings.contains { $0.contains("unknown typography field 'fontStretch'") })
        #expect(warnings.contains { $0.contains("type.footnote") && $0.contains("not mapped") })
    }

    /// A colour token's value is read as a colour or named: a hexadecimal colour written wrong
    /// or an object without three sRGB components refuses the import at the value; a CSS
    /// colour Typeset does not read (a name, `hsl()`, `rgb()` in percentages or past 255) is a
    /// warning at the value, the theme's colour kept. None is only "not used".
    @Test func colourTokensThatAreNoColourAreNamed() throws {
        func problems(_ value: String) throws -> (errors: [String], warnings: [String]) {
            let json = "{\n  \"color\": {\n    \"$type\": \"color\",\n    \"text\": { \"$value\": \(value) }\n  }\n}"
            do {
                let (_, warnings) = try TokenImporter.importTokens(Data(json.utf8), file: "t.json")
                return ([], warnings)
            } catch let error as ThemeError {
                return ([error.description], [])
            }
        }
        for bad in [
            "\"#12\"", "{ \"colorSpace\": \"srgb\", \"components\": [1, 0] }", "\"#zzzzzz\"",
        ] {
            let found = try problems(bad)
            #expect(
                found.errors.count == 1 && found.errors[0].contains("t.json:4:25: token 'color.text'"),
                "\(bad): \(found)")
            #expect(found.errors.first?.contains("is not a colour") ?? false, "\(found)")
        }
        for unread in ["\"blue\"", "\"hsl(120, 50%, 50%)\"", "\"rgb(300, 0, 0)\"", "\"rgb(100%, 0%, 0%)\""] {
            let found = try problems(unread)
            #expect(found.errors.isEmpty, "\(unread): \(found)")
            #expect(found.warnings.contains { $0.contains("t.json:4:25") && $0.contains("does not read") }, "\(found)")
            #expect(!found.warnings.contains { $0.contains("not used") }, "\(found)")
        }
        let (theme, warnings) = try TokenImporter.importTokens(
            Data("{\"color\": {\"$type\": \"color\", \"text\": {\"$value\": \"#112233\"}}}".utf8), file: "t.json")
        #expect(theme.colors["text"] == RGBAColor(hex: "#112233"), "\(warnings)")
    }

    /// What a token file says that nothing can read is named where it is written: a key
    /// written twice in one object, a Tokens Studio set the order or the first theme names
    /// that the file does not hold; an expression that divides by zero says so.
    @Test func keysTwiceMissingSetsAndDivisionsByZeroAreNamed() throws {
        let twice = #"{"a": {"$value": "16px", "$type": "dimension"}, "a": {"$value": "18px", "$type": "dimension"}}"#
        let (_, warnings) = try TokenImporter.importTokens(Data(twice.utf8), file: "t.json")
        #expect(warnings.contains { $0.hasPrefix("t.json:1:49: warning: key 'a' is written twice") }, "\(warnings)")
        let studio =
            #"{"global": {"body": {"value": {"fontFamily": "Inter", "fontSize": "16"}, "type": "typography"}}, "#
            + #""$metadata": {"tokenSetOrder": ["global", "missing"]}}"#
        let (_, studioWarnings) = try TokenImporter.importTokens(Data(studio.utf8), file: "s.json")
        #expect(studioWarnings.contains { $0.contains("token set 'missing' is named") }, "\(studioWarnings)")
        let division =
            #"{"size": {"$value": "16px", "$type": "dimension"}, "body": {"$type": "typography", "#
            + #""$value": {"fontFamily": "Inter", "fontSize": "{size} / 0"}}}"#
        #expect(throws: ThemeError.self) { try TokenImporter.importTokens(Data(division.utf8), file: "d.json") }
        do {
            _ = try TokenImporter.importTokens(Data(division.utf8), file: "d.json")
        } catch let error as ThemeError {
            #expect(error.problems.contains { $0.message == "expression '{size} / 0' divides by zero" }, "\(error)")
        }
        let theme = #"{"name": "x", "name": "y", "extends": "default"}"#
        let (_, problems) = ThemeLoader.decode(Data(theme.utf8), file: "x.json")
        #expect(problems.map { "\($0.line):\($0.column) \($0.severity)" } == ["1:15 warning"], "\(problems)")
    }

    @Test func invalidJSONThrowsWithPosition() {
        do {
            _ = try TokenImporter.importTokens(Data("{\n  \"a\": {\"$value\": 1,}\n}".utf8), file: "x.json")
            Issue.record("expected ThemeError")
        } catch let error as ThemeError {
            #expect(error.description == "x.json:2:21: invalid JSON: trailing comma before '}'")
        } catch { Issue.record("unexpected \(error)") }
        #expect(throws: ThemeError.self) { try TokenImporter.importTokens(Data("[1]".utf8), file: "x.json") }
    }

    @Test func roleNameMatching() {
        let cases: [(String, TextRole?)] = [
            ("body", .body), ("large-title", .largeTitle), ("largeTitle", .largeTitle), ("Title 2", .title2),
            ("HEADLINE", .headline), ("sub_title", .subTitle), ("subheadline", .subTitle), ("title1", .title),
            ("Caption 1", .caption), ("caption2", .caption2), ("h1", .largeTitle), ("h4", .headline),
            ("display", .display), ("overline", nil), ("h7", nil), ("heading-1", .largeTitle),
            ("Heading 2", .title), ("heading_6", .caption), ("heading-7", nil), ("heading-01", nil),
        ]
        for (name, role) in cases { #expect(TokenImporter.role(forTokenName: name) == role, "\(name)") }
    }

    @Test func duplicateRolesWarn() throws {
        let json =
            #"{"t": {"$type": "typography", "body": {"$value": {"fontSize": "12px"}}, "Body-Alt": {"$value": "#
            + #"{"fontSize": "13px"}}, "x": {"body": {"$value": {"fontSize": "14px"}}}}}"#
        let (theme, warnings) = try TokenImporter.importTokens(Data(json.utf8), file: "d.json")
        #expect(theme[.body].size == 12)
        // t.x.body duplicates Body; Body-Alt unmapped; nine roles kept from the base; t.body gives
        // no lineHeight. The base's 11 pt Headline below the 12 pt Body is in order: the text
        // sizes (SubTitle, Headline, Body) are free among themselves.
        #expect(warnings.count == 4, "\(warnings)")
        #expect(!warnings.contains { $0.contains("out of order") }, "\(warnings)")
        #expect(warnings.contains { $0.contains("token 't.body' gives no lineHeight") })
        #expect(warnings.contains { $0.contains("tokens 't.body' and 't.x.body' both map to Body") })
    }
}
