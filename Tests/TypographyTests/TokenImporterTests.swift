import Foundation
import Testing
@testable import Typography

@Suite struct TokenImporterTests {
    @Test func importsTokensStudioExport() throws {
        let (theme, warnings) = try TokenImporter.importTokens(Data(tokensStudioExport.utf8), file: "tokens.json")
        #expect(theme.name == "tokens")
        let display = theme[.display]
        #expect(display.families == ["Pretendard", "Inter", "Noto Sans CJK KR"])   // base fallbacks kept
        #expect(display.weight == .bold)
        #expect(display.size == 48)                                                // 3rem × 16
        #expect(display.lineHeight == .relativeToSize(1.2))                        // alias → alias → 120%
        #expect(display.tracking == .percentOfSize(-2))
        #expect(display.relativeTo == Theme.default[.display].relativeTo)

        #expect(theme[.largeTitle].size == 34)
        #expect(theme[.largeTitle].lineHeight == .absolute(44))         // unitless "44": px, not a multiplier
        #expect(theme[.title2].weight == .semibold)
        #expect(theme[.title2].lineHeight == .absolute(30))
        #expect(theme[.title2].tracking == nil)                        // "0" → none

        let body = theme[.body]                                         // typography.body.regular
        #expect(body.size == 17 && body.weight == .regular)
        #expect(body.lineHeight == .relativeToSize(1.5))
        #expect(body.tracking == .points(-0.5))

        #expect(theme[.caption2].weight == .medium && theme[.caption2].italic)
        #expect(theme[.caption2].lineHeight == nil)                     // AUTO
        #expect(theme[.caption2].tracking == .percentOfSize(1))

        #expect(theme[.title] == Theme.default[.title])                 // no token: base kept

        // Unmapped tokens are listed, not resolved (Code's broken alias is reported only when used).
        #expect(warnings == ["tokens.json: warning: typography tokens not mapped to a role (name them after a role or pass a mapping): global.typography.Overline (73:7), global.typography.Code (80:7)"])
    }

    @Test func explicitMappingWins() throws {
        let (theme, warnings) = try TokenImporter.importTokens(
            Data(tokensStudioExport.utf8), file: "tokens.json",
            mapping: ["global.typography.Overline": .caption, "Code": .headline])
        #expect(theme[.caption].tracking == .percentOfSize(8))
        #expect(theme[.caption].weight == .semibold)
        #expect(theme[.headline].families.first == "JetBrains Mono")
        #expect(warnings == ["tokens.json:83:54: warning: alias {lineHeights.missing} names no token"])
    }

    @Test func dtcg2025Objects() throws {
        let (theme, warnings) = try TokenImporter.importTokens(Data(dtcgTokens.utf8), file: "dtcg.tokens.json")
        #expect(theme[.title].size == 28)                                // 1.75rem
        #expect(theme[.title].weight == .bold)
        #expect(theme[.title].tracking == .points(-0.32))               // -0.02rem
        #expect(theme[.title].lineHeight == .relativeToSize(1.2))
        #expect(theme[.title].families == ["Inter", "Noto Sans CJK KR"])
        #expect(theme[.body].size == 16)                                 // alias of alias
        #expect(theme[.body].weight == .semibold)                        // "semi-bold"
        #expect(theme[.body].tracking == nil)
        #expect(theme[.headline].size == 16)                             // $ref pointer
        #expect(theme[.headline].lineHeight == .absolute(22))
        #expect(theme[.caption].size == Theme.default[.caption].size)    // cycle: size kept
        #expect(warnings.contains { $0.hasPrefix("dtcg.tokens.json:12:48: warning: alias cycle: type.caption → base.loopA → base.loopB → base.loopA") })
        #expect(warnings.contains { $0.contains("unknown typography field 'fontStretch'") })
        #expect(warnings.contains { $0.contains("type.footnote") && $0.contains("not mapped") })
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
            ("display", .display), ("overline", nil), ("h7", nil),
        ]
        for (name, role) in cases { #expect(TokenImporter.role(forTokenName: name) == role, "\(name)") }
    }

    @Test func duplicateRolesWarn() throws {
        let json = #"{"t": {"$type": "typography", "body": {"$value": {"fontSize": "12px"}}, "Body-Alt": {"$value": {"fontSize": "13px"}}, "x": {"body": {"$value": {"fontSize": "14px"}}}}}"#
        let (theme, warnings) = try TokenImporter.importTokens(Data(json.utf8), file: "d.json")
        #expect(theme[.body].size == 12)
        #expect(warnings.count == 2)   // t.x.body duplicates Body; Body-Alt unmapped
        #expect(warnings.contains { $0.contains("tokens 't.body' and 't.x.body' both map to Body") })
    }
}
