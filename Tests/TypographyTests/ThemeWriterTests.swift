import Foundation
import Testing

@testable import Typography

@Suite struct ThemeWriterTests {
    @Test func writtenThemesDecodeToEqualThemes() throws {
        for name in ThemeLoader.builtInNames {
            var theme = try #require(ThemeLoader.builtIn(named: name))
            theme.fontFolders = []
            let json = ThemeWriter.json(for: theme)
            let (decoded, problems) = ThemeLoader.decode(Data(json.utf8), file: "\(name).json")
            #expect(problems.isEmpty, "\(problems)")
            let roundTrip = try #require(decoded)
            for role in TextRole.allCases { #expect(roundTrip[role] == theme[role], "\(name) \(role)") }
            #expect(roundTrip.colors == theme.colors)
            #expect(roundTrip.page == theme.page)
            #expect(roundTrip.monospaceFamilies == theme.monospaceFamilies)
        }
    }

    @Test func valuesOutsideTheLimitsAreProblemsWithPositions() {
        let json = "{\n  \"roles\": {\n    \"body\": { \"size\": 1e9, \"tracking\": 1e12 }\n  }\n}\n"
        let (_, problems) = ThemeLoader.decode(Data(json.utf8), file: "huge.json")
        let lines = problems.map(\.description)
        #expect(
            lines.contains { $0.hasPrefix("huge.json:3:") && $0.contains("size must be between 1 and 1000 pt") },
            "\(lines)")
        #expect(lines.contains { $0.hasPrefix("huge.json:3:") && $0.contains("tracking must be between") })
        #expect(Theme.default[.body].limitProblems.isEmpty)
    }

    @Test func fractionalPercentagesAreWrittenCleanly() {
        var theme = Theme.default
        theme.styles[.body]!.lineHeight = .relativeToSize(1.15)
        #expect(ThemeWriter.json(for: theme).contains(#""lineHeight": "115%""#))
    }
}
