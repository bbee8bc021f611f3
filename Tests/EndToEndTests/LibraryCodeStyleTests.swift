import CodeHighlighting
import Foundation
import TestSupport
import Testing
import Typesetter
import Typography

/// A theme naming one of KSyntaxHighlighting's themes as its code style
/// (`"code": {"style": "github-light"}`): read by the one theme judgement, drawn in the
/// library theme's colours, an unknown name reported at its position with a suggestion, and
/// every library style either meeting WCAG AA contrast or reported.
@Suite struct LibraryCodeStyleTests {
    /// A theme file extending the default theme with `code.style` set to `style`.
    static func themeFile(_ style: String) -> Data {
        Data("{\"extends\": \"default\",\n  \"code\": {\"style\": \"\(style)\"}}\n".utf8)
    }

    /// The library's themes are there by their hyphenated names, each with its own colours.
    @Test func theLibrarysThemesAreNamedAsThemeFilesWriteThem() throws {
        let names = LibraryCodeStyles.names
        for expected in ["github-light", "github-dark", "solarized-light", "solarized-dark", "breeze-light"] {
            #expect(names.contains(expected), "\(expected) not in \(names)")
        }
        let light = try #require(LibraryCodeStyles.byName["github-light"])
        let dark = try #require(LibraryCodeStyles.byName["github-dark"])
        #expect(light.background != dark.background)
        for token in [CodeToken.keyword, .string, .comment, .number] {
            #expect(light.style(for: token) != nil && dark.style(for: token) != nil, "\(token)")
        }
        #expect(light.style(for: .keyword)?.color != dark.style(for: .keyword)?.color)
    }

    /// A theme naming `github-dark` takes its colours, and a document set in it is drawn in
    /// them (fill colours read back per stretch).
    @Test func aThemeNamingALibraryStyleDrawsItsColours() throws {
        let (read, problems) = ThemeJudgement.read(Self.themeFile("GitHub-Dark"), file: "code.json")
        #expect(!problems.contains { $0.severity == .error }, "\(problems)")
        let theme = try #require(read)
        let style = try #require(LibraryCodeStyles.byName["github-dark"])
        #expect(theme.code == style)
        let (pdf, _) = try Render.markdown(
            "```python\ndef f(x):\n    # note\n    return \"text\"\n```\n", name: "code-library-style",
            options: RenderOptions(theme: theme))
        let stretches = try PDFColoredText.read(pdf)
        for (fragment, token) in [("def", CodeToken.keyword), ("# note", .comment), ("\"text\"", .string)] {
            let expected = try #require(style.style(for: token)).color.hex.lowercased()
            #expect(stretches.contains { $0.text.contains(fragment) && $0.color == expected }, "\(fragment)")
        }
    }

    /// An unknown name is an error at the value's line and column, suggesting the nearest name.
    @Test func anUnknownStyleNameIsReportedWhereItIsWritten() {
        let (_, problems) = ThemeJudgement.read(Self.themeFile("github-lite"), file: "code.json")
        let error = problems.first { $0.severity == .error }
        #expect(error?.line == 2 && error?.column == 21, "\(problems)")
        #expect(error?.message.contains("did you mean 'github-light'") == true, "\(String(describing: error))")
    }

    /// Every library style meets 4.5:1 for every colour, or each colour that does not is a
    /// warning at the `style` value naming it.
    @Test func everyLibraryStylePassesTheContrastCheckOrIsReported() {
        for name in LibraryCodeStyles.names {
            let (read, problems) = ThemeJudgement.read(Self.themeFile(name), file: "\(name).json")
            guard let theme = read else {
                Issue.record("\(name): \(problems)")
                continue
            }
            let failures = theme.code.contrastFailures(theme: theme, minimum: 4.5)
            let warnings = problems.filter { $0.message.contains("contrast") }
            #expect(warnings.count == failures.count, "\(name): \(warnings) vs \(failures)")
            for warning in warnings {
                #expect(
                    warning.line == 2 && warning.column == 21 && warning.message.contains("'\(name)'"), "\(warning)")
            }
        }
    }

    /// A theme in a library style, written out (`theme import`, `theme show`), reads back to
    /// the same colours through a loader that knows only the built-in styles.
    @Test func aWrittenLibraryStyleReadsBackWithoutTheLibrary() throws {
        let (read, _) = ThemeJudgement.read(Self.themeFile("solarized-dark"), file: "code.json")
        let theme = try #require(read)
        let written = ThemeWriter.json(for: theme)
        // The library's style is named, and no built-in style is claimed in its place.
        #expect(written.contains("style 'solarized-dark'") && !written.contains(#""style": "light""#), "\(written)")
        let (decoded, problems) = ThemeLoader.decode(Data(written.utf8), file: "written.json")
        #expect(!problems.contains { $0.severity == .error }, "\(problems)")
        let back = try #require(decoded).code
        #expect(back.background == theme.code.background && back.text == theme.code.text)
        for token in CodeToken.allCases {
            let plain = CodeTokenStyle(color: theme.code.text ?? .black)
            #expect(back.style(for: token) == (theme.code.style(for: token) ?? plain), "\(token)")
        }
    }
}
