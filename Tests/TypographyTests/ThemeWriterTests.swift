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

    @Test func fractionalPercentagesAreWrittenCleanly() {
        var theme = Theme.default
        theme.styles[.body]!.lineHeight = .relativeToSize(1.15)
        #expect(ThemeWriter.json(for: theme).contains(#""lineHeight": "115%""#))
    }
}
