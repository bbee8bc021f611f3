import Foundation
import TestSupport
import Testing

@testable import Typography

/// `Theme.validate` is the one validation of themes, theme files and token imports (issue: theme
/// check, theme import and themes in code must agree, and nothing written may fail it).
@Suite struct ThemeValidationTests {
    @Test func builtInThemesAreValid() {
        for name in ThemeLoader.builtInNames {
            let theme = ThemeLoader.builtIn(named: name)!
            #expect(theme.validate().isEmpty, "\(name): \(theme.validate())")
        }
    }

    @Test func everyKindOfBadValueIsAnError() {
        var theme = Theme.default
        theme.styles[.body]!.size = .infinity
        theme.styles[.title]!.size = 2000
        theme.styles[.caption]!.tracking = .points(.nan)
        theme.styles[.headline]!.lineHeight = .multiple(0)
        theme.styles[.display]!.families = []
        theme.page.margins.left = -.infinity
        theme.page.blockSpacing = 1e308
        theme.sizeAdjustments["Inter"] = .xHeight(originalRatio: 0, newRatio: 0.5)
        let messages = theme.validate(file: "t.json").map(\.description)
        #expect(messages.contains("t.json: role Body: size must be between 1 and 1000 pt, not inf"), "\(messages)")
        #expect(messages.contains("t.json: role Title: size must be between 1 and 1000 pt, not 2000"))
        #expect(messages.contains { $0.contains("role Caption: tracking must be between") })
        #expect(messages.contains { $0.contains("role Headline: line height factor") })
        #expect(messages.contains { $0.contains("role Display: family must name at least one family") })
        #expect(messages.contains { $0.contains("page.margins: margins must be finite") })
        #expect(messages.contains { $0.contains("page.blockSpacing must be between 0 and 1000 pt") })
        #expect(messages.contains { $0.contains("sizeAdjust.Inter") })
        #expect(theme.validate().allSatisfy { $0.severity == .error })
    }

    @Test func missingFamiliesWarnWithTheirFallbackOrFailWhenNoneIsLeft() {
        let installed: Set<String> = ["Inter", "Noto Sans CJK KR", "DejaVu Sans Mono", "Noto Sans Mono CJK KR"]
        let pretendard = Theme.pretendard.validate(isFamilyAvailable: installed.contains)
        #expect(
            pretendard.map(\.message) == [
                "family 'Pretendard' is not installed; its text is set in 'Inter' (register the font with fontFolders "
                    + "or --fonts)"
            ])
        #expect(pretendard.allSatisfy { $0.severity == .warning })
        var theme = Theme.default
        theme.styles[.body]!.families = ["Nowhere Sans", "sans-serif"]  // generic names always resolve
        theme.styles[.caption]!.families = ["Nowhere Sans", "Nowhere Serif"]
        let problems = theme.validate(isFamilyAvailable: installed.contains)
        #expect(
            problems.filter { $0.severity == .error }.map(\.message) == [
                "role Caption: family 'Nowhere Sans', 'Nowhere Serif' is not installed, nor any other in its list "
                    + "(register the font with fontFolders or --fonts)"
            ])
        #expect(
            problems.contains {
                $0.severity == .warning
                    && $0.message.hasPrefix("family 'Nowhere Sans' is not installed; its text is set in 'sans-serif'")
            })
    }

    /// A list of math families falls back to the first installed, the missing one named; a
    /// list with none installed is named where the first formula is, not here.
    @Test func aMissingMathFamilyIsNamedWithTheOneUsed() {
        let installed: Set<String> = [
            "Inter", "Noto Sans CJK KR", "DejaVu Sans Mono", "Noto Sans Mono CJK KR", "Latin Modern Math",
        ]
        var theme = Theme.default
        theme.families["math"] = ["Nowhere Math", "Latin Modern Math"]
        #expect(
            theme.validate(isFamilyAvailable: installed.contains).map(\.message) == [
                "math: family 'Nowhere Math' is not installed; formulas are set in 'Latin Modern Math' (register the "
                    + "font with fontFolders or --fonts)"
            ])
        theme.families["math"] = ["Latin Modern Math", "Nowhere Math"]
        #expect(theme.validate(isFamilyAvailable: installed.contains).isEmpty)
        theme.families["math"] = ["Nowhere Math"]
        #expect(theme.validate(isFamilyAvailable: installed.contains).isEmpty)
    }

    /// A file none of whose keys is a theme's (Style Dictionary's build output: CSS values by
    /// name, flat or nested) says so once, before each key's own error; a theme with one
    /// unknown key among theme keys does not.
    @Test func aFileWithNoThemeKeySaysWhatItMayBe() {
        for json in [
            #"{"typography-body-font-size": "16px", "typography-body-line-height": "1.5"}"#,
            ##"{"typography": {"body": {"font-size": "1rem"}}, "color": {"primary": "#123456"}}"##,
        ] {
            let (_, problems) = ThemeLoader.decode(Data(json.utf8), file: "sd.json")
            #expect(problems.first?.message.hasPrefix("none of the file's 2 keys is a theme's") == true, "\(problems)")
            #expect(problems.first?.message.contains("import the tokens it was built from") == true)
        }
        let (_, problems) = ThemeLoader.decode(Data(#"{"name": "x", "colour": {}}"#.utf8), file: "t.json")
        #expect(!problems.contains { $0.message.hasPrefix("none of the file's") }, "\(problems)")
    }

    @Test func themeFilesRunTheValidation() {
        // Nothing in the file is out of range by itself, but the page it leaves is: a problem the
        // keys alone cannot show. With the default's measure in characters, a paper whose widest
        // measure (less two 6.7 % side margins) is under 72 pt; with fixed margins, margins that
        // leave under 72 pt.
        for json in [
            #"{"page": {"paper": "80pt x 300pt"}}"#, #"{"page": {"paper": "200pt x 300pt", "margins": "20pt 70pt"}}"#,
        ] {
            let (_, problems) = ThemeLoader.decode(Data(json.utf8), file: "p.json")
            #expect(problems.contains { $0.severity == .error && $0.message.contains("text area") }, "\(problems)")
        }
        // The measure follows the type, so a small paper the rule fits is no problem.
        let small = #"{"page": {"paper": "100pt x 100pt"}}"#
        #expect(ThemeLoader.decode(Data(small.utf8), file: "p.json").1.isEmpty)
    }

    /// A margin or paper too large for any whole number of points is an error with its value,
    /// never a trap while the message is written (a fuzzed theme had `"right": 1e308`).
    @Test(arguments: [
        #"{"page": {"margins": {"top": 56, "right": 1e308, "bottom": 64, "left": 40}}}"#,
        #"{"page": {"margins": -1e300}}"#,
        #"{"page": {"margins": "1e300pt 2pt"}}"#,
    ])
    func absurdMarginsAreErrorsNotTraps(json: String) {
        let (_, problems) = ThemeLoader.decode(Data(json.utf8), file: "p.json")
        #expect(problems.contains { $0.severity == .error && $0.message.hasPrefix("page") }, "\(problems)")
        var theme = Theme.default
        theme.page.margins = Margins(top: 10, right: 1e308, bottom: 10, left: 10)
        theme.page.measureCharacters = nil
        #expect(theme.validate().contains { $0.message.contains("-1e+308") }, "the text area's width, as written")
    }

    @Test func wholePointsTextNeverTraps() {
        #expect(595.3.wholePointsText == "595")
        #expect((-1e308).wholePointsText == "-1e+308")
        #expect(Double.infinity.wholePointsText == "inf")
        #expect(Double.nan.wholePointsText == "nan")
    }

    @Test func tokenImportRefusesWhatThemeCheckRefuses() throws {
        for size in ["1e308", "2000", "0.5", "\"1e400px\""] {
            let json =
                #"{"typography": {"body": {"$type": "typography", "$value": {"fontFamily": "Inter", "fontSize": "#
                + #"\#(size)}}}}"#
            do {
                let (theme, _) = try TokenImporter.importTokens(Data(json.utf8), file: "t.json")
                // Accepted only when it is a theme Typeset can write and render.
                #expect(theme.validate().isEmpty, "fontSize \(size)")
                #expect(!ThemeWriter.json(for: theme).contains("inf"))
            } catch let error as ThemeError {
                #expect(
                    error.problems.contains { $0.line == 1 && $0.message.contains("token 'typography.body'") },
                    "\(error)")
            }
        }
        // The exact case of the report: 1e308 is refused with the token's position.
        let json = #"{"typography": {"body": {"$type": "typography", "$value": {"fontSize": 1e308}}}}"#
        #expect(throws: ThemeError.self) { try TokenImporter.importTokens(Data(json.utf8), file: "t.json") }
    }

    @Test(.slow) func aliasChainsResolveInLinearTime() throws {
        var seconds: [Double] = []
        for n in [2_000, 20_000] {
            var groups = [#""s0": {"$type": "dimension", "$value": "16px"}"#]
            for i in 1..<n { groups.append(#""s\#(i)": {"$type": "dimension", "$value": "{size.s\#(i - 1)}"}"#) }
            // One line, as minified exports are: positions on a long line must be O(1) each too.
            let json =
                #"{"size": {\#(groups.joined(separator: ", "))}, "typography": {"body": {"$type": "typography", "#
                + #""$value": {"fontFamily": "Inter", "fontSize": "{size.s\#(n - 1)}"}}}}"#
            var (theme, warnings) = try TokenImporter.importTokens(Data(json.utf8), file: "chain.json")
            seconds.append(
                try Timing.bestThreadSeconds(of: 3) {
                    (theme, warnings) = try TokenImporter.importTokens(Data(json.utf8), file: "chain.json")
                })
            // Only the reports about the scale (roles kept from the base, a 16 pt Body above
            // Headline) and the line height the token does not give.
            let problems = warnings.filter {
                !$0.contains("keep the base theme") && !$0.contains("out of order") && !$0.contains("no lineHeight")
            }
            #expect(theme[.body].size == 16 && problems.isEmpty, "\(warnings.prefix(3))")
        }
        // Ten times the chain: linear is ~10× the time, quadratic 100×.
        #expect(seconds[1] < 30 * seconds[0], "\(seconds)")
        let cycle =
            #"{"a": {"$value": "{b}"}, "b": {"$value": "{c}"}, "c": {"$value": "{a}"}, "typography": {"body": "#
            + #"{"$type": "typography", "$value": {"fontSize": "{a}"}}}}"#
        // The cycle is found once (the untyped tokens might not be typography); the typography
        // size that needs it is then refused with the cycle itself, where it was found, said
        // once as the error.
        do {
            _ = try TokenImporter.importTokens(Data(cycle.utf8), file: "c.json")
            Issue.record("expected ThemeError")
        } catch let error as ThemeError {
            let cycles = error.problems.filter { $0.message.contains("alias cycle") }
            #expect(cycles.map(\.severity) == [.error], "\(error)")
        }
        // An alias naming no token, under a typography value (Style Dictionary's `font.body`
        // group), is the error, at the alias, not the group's field that needs it.
        let dangling =
            #"{"size": {"base": {"value": "16px"}}, "font": {"body": {"font-size": {"value": "{size.nope.value}"}, "#
            + #""font-family": {"value": "Inter"}}}}"#
        do {
            _ = try TokenImporter.importTokens(Data(dangling.utf8), file: "d.json")
            Issue.record("expected ThemeError")
        } catch let error as ThemeError {
            let named = error.problems.filter { $0.message.contains("{size.nope.value}") }
            #expect(named.map(\.severity) == [.error] && named.first?.column == 80, "\(error)")
            #expect(!error.problems.contains { $0.message.contains("{font.body") }, "\(error)")
        }
    }
}
