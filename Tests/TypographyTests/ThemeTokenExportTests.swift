import Foundation
import Testing

@testable import Typography

/// The design-token exports (DTCG, Tokens Studio) import back as the same theme, and the
/// Compose export and `theme diff` state the theme's numbers.
@Suite struct ThemeTokenExportTests {
    /// A theme with every role property a token can carry: the built-in one, with small caps,
    /// an underline, a space after, features, italic faces, kerning and a fixed size added.
    static func everyProperty(_ name: String) throws -> Theme {
        var theme = try #require(ThemeLoader.builtIn(named: name))
        theme.styles[.caption2]!.textCase = .smallCaps
        theme.styles[.caption]!.textDecoration = .underline
        theme.styles[.caption]!.italic = true
        theme.styles[.headline]!.spaceAfter = 6
        theme.styles[.headline]!.textCase = .uppercase
        theme.styles[.headline]!.italic = true
        theme.styles[.body]!.features = ["tnum", "ss01"]
        theme.styles[.subTitle]!.tracking = nil
        theme.styles[.subTitle]!.kerning = .percentOfSize(-1.5)
        theme.styles[.title3]!.relativeTo = nil
        theme.colors["mark"] = RGBAColor(red: 1, green: 0.9, blue: 0.2, alpha: 0.5)
        // Code in a family of its own, as a theme's `families.mono` sets it.
        for (key, list) in theme.families where list == theme.monospaceFamilies {
            theme.families[key] = ["Noto Sans Mono", "Noto Sans Mono CJK KR"]
        }
        theme.monospaceFamilies = ["Noto Sans Mono", "Noto Sans Mono CJK KR"]
        return theme
    }

    @Test(arguments: ["default", "hig", "pretendard"], [ThemeExport.Format.dtcg, .tokensStudio])
    func exportedTokensImportAsTheSameTheme(name: String, format: ThemeExport.Format) throws {
        let theme = try Self.everyProperty(name)
        let tokens = ThemeExport.code(for: theme, format: format, source: name)
        if format == .tokensStudio {
            // An italic's weight is the style name Figma gives the face (`600 Italic` named none).
            #expect(tokens.contains("Italic\"") && !tokens.contains("0 Italic"), "\(name)")
        }
        let (imported, warnings) = try TokenImporter.importTokens(Data(tokens.utf8), file: "\(name).tokens.json")
        for role in TextRole.allCases {
            #expect(imported[role] == theme[role], "\(name) \(format) \(role): \(imported[role]) ≠ \(theme[role])")
        }
        for (key, color) in theme.colors {
            #expect(imported.colors[key]?.hex == color.hex, "\(name) \(format) colour \(key)")
        }
        // The same colours and no others: `color.accent` is the theme's `accent`, not a second
        // colour beside it (`theme diff` finds no difference).
        #expect(imported.colors.keys.sorted() == theme.colors.keys.sorted(), "\(name) \(format)")
        #expect(imported.color(named: "color.accent") == theme.colors["accent"], "a group path still names it")
        // The family code is set in comes back, and the named list that held it.
        #expect(imported.monospaceFamilies == theme.monospaceFamilies, "\(name) \(format)")
        #expect(imported.families["mono"] == theme.families["mono"], "\(name) \(format)")
        // Every token is used: no role is filled from the base theme, no token left over.
        #expect(!warnings.contains { $0.contains("not used") || $0.contains("from the base") }, "\(warnings)")
    }

    @Test func dtcgUsesTheStandardFieldsWithTheThemesNumbers() throws {
        let tokens = ThemeExport.code(for: .default, format: .dtcg, source: "default")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(tokens.utf8)) as? [String: Any])
        let typography = try #require(json["typography"] as? [String: [String: Any]])
        let body = try #require(typography["body"])
        #expect(body["$type"] as? String == "typography")
        let value = try #require(body["$value"] as? [String: Any])
        #expect((value["fontSize"] as? [String: Any])?["value"] as? Double == 10.5)
        #expect((value["fontSize"] as? [String: Any])?["unit"] as? String == "px")
        #expect(value["fontWeight"] as? Int == 400)
        // Without fonts the natural height is 1.2 × the size: the step is 1.3 × 1.2 × 10.5 pt.
        #expect(abs((value["lineHeight"] as? Double ?? 0) - 1.3 * 1.2) < 0.0001)
        let display = try #require(typography["display"]?["$value"] as? [String: Any])
        #expect((display["letterSpacing"] as? [String: Any])?["value"] as? Double == -0.8)
        #expect(typography.count == TextRole.allCases.count)
    }

    /// The Tokens Studio export writes what the plugin applies in Figma: one family (the
    /// fallbacks in Typeset's extension, which an import takes back only while the token still
    /// names that family) and a fixed line height in px (a percentage of the size before, which
    /// lost the fixed height to any tool that reads the value alone).
    @Test func tokensStudioWritesOneFamilyAndFixedLineHeightsInPixels() throws {
        let theme = try #require(ThemeLoader.builtIn(named: "pretendard"))
        let tokens = ThemeExport.code(for: theme, format: .tokensStudio, source: "pretendard")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(tokens.utf8)) as? [String: Any])
        let set = try #require(json["typeset"] as? [String: Any])
        let body = try #require((set["typography"] as? [String: [String: Any]])?["body"])
        let value = try #require(body["value"] as? [String: Any])
        #expect(value["fontFamily"] as? String == theme[.body].families.first)
        if case .absolute(let pt)? = theme[.body].lineHeight {
            #expect(value["lineHeight"] as? String == ThemeExport.number(pt), "\(value)")
        } else {
            Issue.record("Pretendard's Body has a fixed line height: \(String(describing: theme[.body].lineHeight))")
        }
        // Renamed in the design tool: the new family, then the base role's fallbacks.
        let renamed = tokens.replacingOccurrences(
            of: "\"fontFamily\": \"\(theme[.body].families[0])\"", with: "\"fontFamily\": \"Inter\"")
        let (imported, _) = try TokenImporter.importTokens(Data(renamed.utf8), file: "t.json")
        #expect(imported[.body].families.first == "Inter" && !imported[.body].families.contains("Pretendard"))
    }

    @Test func composeStatesEachRolesNumbers() {
        let metrics = Dictionary(
            uniqueKeysWithValues: TextRole.allCases.map {
                ($0, ThemeExport.RoleMetrics(naturalHeight: Theme.hig[$0].size * 1.21, boldTextWeight: .bold))
            })
        let code = ThemeExport.code(for: .hig, format: .compose, metrics: metrics, source: "hig")
        #expect(code.contains("object HigTypography {"))
        for role in TextRole.allCases {
            let style = Theme.hig[role]
            let block = code.components(separatedBy: "val \(ThemeExport.tokenName(role)) = TextStyle(").last ?? ""
            let body = block.components(separatedBy: "    )").first ?? ""
            #expect(body.contains("fontSize = \(ThemeExport.number(style.size)).sp"), "\(role)")
            #expect(body.contains("fontWeight = FontWeight(\(style.weight.rawValue))"), "\(role)")
            let step = ThemeExport.step(.hig, role, metrics)
            #expect(body.contains("lineHeight = \(ThemeExport.number(step)).sp"), "\(role)")
            switch style.tracking {
            case .percentOfSize(let percent)?:
                #expect(body.contains("letterSpacing = (\(ThemeExport.number(percent / 100))).em"), "\(role)")
            default:
                #expect(body.contains("letterSpacing = (\(ThemeExport.number(style.letterSpacing))).sp"), "\(role)")
            }
        }
    }

    @Test func diffListsWhatDiffersRoleByRole() throws {
        #expect(ThemeDiff.lines(.default, .default).isEmpty)
        let lines = ThemeDiff.lines(.default, .hig)
        #expect(lines.contains("Body: size 10.5 pt → 17 pt"), "\(lines)")
        #expect(lines.contains("Body: line height 1.3 × natural (16.38 pt) → 22 pt"), "\(lines)")
        #expect(lines.contains("Display: weight 700 → 700") == false)
        #expect(lines.contains("LargeTitle: weight 700 → 400"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("page measure: 68 characters of Body → margins 56 40 64 40 pt") })
        var edited = Theme.default
        edited.colors["accent"] = RGBAColor(hex: "#FF0000")!
        edited.styles[.caption]!.textCase = .uppercase
        #expect(
            ThemeDiff.lines(.default, edited) == [
                "Caption: textCase none → uppercase", "color accent: #2F5BD3 → #FF0000",
            ])
    }
}
