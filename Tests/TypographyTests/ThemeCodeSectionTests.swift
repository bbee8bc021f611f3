import Foundation
import Testing
import Typography

/// A theme's `code` section: read, validated with positions, contrast-checked, written back.
@Suite struct ThemeCodeSectionTests {
    func decode(_ json: String) -> (Theme?, [ThemeProblem]) {
        ThemeLoader.decode(Data(json.utf8), file: "t.json")
    }

    @Test func builtInStylesMeetAAContrast() {
        #expect(CodeStyle.light.contrastFailures(theme: .default).isEmpty)
        var dark = Theme.default
        dark.code = .dark
        #expect(CodeStyle.dark.contrastFailures(theme: dark).isEmpty)
        // Every token kind but operators and others has a style in both, directly or through its fallback.
        for token in CodeToken.allCases where token != .others && token != .operator {
            #expect(CodeStyle.light.style(for: token) != nil, "\(token)")
            #expect(CodeStyle.dark.style(for: token) != nil, "\(token)")
        }
    }

    @Test func sectionSetsStyleColoursAndFaces() throws {
        let json = """
            {"code": {"style": "dark", "background": "#101010",
              "tokens": {"keyword": {"color": "#FF8080", "bold": false, "italic": true}, "string": "#A0E0A0"}}}
            """
        let (theme, problems) = decode(json)
        #expect(problems.isEmpty, "\(problems)")
        let code = try #require(theme?.code)
        #expect(code.background == RGBAColor(hex: "#101010"))
        #expect(code.text == CodeStyle.dark.text)
        #expect(code.style(for: .keyword) == CodeTokenStyle(color: RGBAColor(hex: "#FF8080")!, italic: true))
        // The built-in styles set no control-flow style of their own: it takes the keywords'.
        #expect(CodeStyle.dark.tokens[.controlFlow] == nil)
        #expect(code.style(for: .controlFlow) == code.style(for: .keyword))
        #expect(code.style(for: .verbatimString)?.color == RGBAColor(hex: "#A0E0A0"))
    }

    @Test func unknownNamesAndBadValuesAreErrorsAtTheirPositions() {
        let json = """
            {
              "code": {
                "style": "solarised",
                "tokens": {"keywrod": "#000000", "string": "blue", "comment": {"color": "#333", "weight": 700}},
                "colour": "#000"
              }
            }
            """
        let (_, problems) = decode(json)
        let lines = problems.map(\.description)
        #expect(lines.contains { $0.hasPrefix("t.json:3:14: unknown code style 'solarised'") })
        #expect(lines.contains { $0.hasPrefix("t.json:4:16: unknown code token 'keywrod'; did you mean 'keyword'?") })
        #expect(lines.contains { $0.hasPrefix("t.json:4:48: code.tokens.string: invalid colour 'blue'") })
        #expect(lines.contains { $0.hasPrefix("t.json:4:85: unknown key 'weight' in code.tokens.comment") })
        #expect(lines.contains { $0.hasPrefix("t.json:5:5: unknown key 'colour' in code") })
        #expect(problems.allSatisfy { $0.severity == .error })
    }

    /// An entry without a colour keeps the colour its kind would take: its broader kind's,
    /// written before or after it, else the plain text's (`controlFlow` without a colour was an
    /// error while `escape`, which the base style sets, passed).
    @Test func anEntryWithoutAColourKeepsItsKindsColour() throws {
        let json = """
            {"code": {"text": "#202020", "tokens": {"controlFlow": {"bold": true}, "keyword": "#A01E2B",
              "warning": {"italic": true}, "documentation": "#405060", "others": {"bold": true}, "escape": {}}}}
            """
        let (theme, problems) = decode(json)
        #expect(problems.isEmpty, "\(problems)")
        let code = try #require(theme?.code)
        let controlFlow = try #require(code.tokens[.controlFlow])
        #expect(controlFlow.bold && controlFlow.color == RGBAColor(hex: "#A01E2B"))
        #expect(code.tokens[.warning]?.italic == true && code.tokens[.warning]?.color == RGBAColor(hex: "#405060"))
        #expect(code.tokens[.others]?.color == RGBAColor(hex: "#202020"))
        #expect(code.tokens[.escape] == CodeStyle.light.style(for: .escape))
    }

    @Test func lowContrastIsAWarningAtTheColour() {
        let json = """
            {"code": {
              "tokens": {"comment": "#C0C0C0", "keyword": "#A01E2B"}
            }}
            """
        let (theme, problems) = decode(json)
        #expect(theme != nil)
        #expect(problems.count == 1)
        #expect(problems.first?.severity == .warning)
        #expect(
            problems.first?.description.hasPrefix("t.json:2:25: warning: code.tokens.comment: #C0C0C0 on #F3F4F7")
                == true)
        // A dark background with the light style's colours fails on every token, at the background.
        let (_, dark) = decode("{\"code\": {\"background\": \"#000000\"}}")
        #expect(dark.count > 10)
        #expect(dark.allSatisfy { $0.line == 1 && $0.column == 25 && $0.severity == .warning })
    }

    /// An entry with a wrong `bold`, `italic` or key is reported and still has its colour's
    /// contrast checked in the same run; an entry whose colour or background is wrong has no
    /// contrast to check.
    @Test func anEntryInErrorStillHasItsColourChecked() {
        let json = """
            {"code": {"tokens": {
              "keyword": {"color": "#EEEEEE", "bold": "yes"},
              "comment": {"color": "#EEEEEE", "italic": 3},
              "type": {"color": "#EEEEEE", "bolt": true},
              "string": {"color": "#EEEEEE", "background": "#zzz"},
              "number": {"color": "#nope"}
            }}}
            """
        let (_, problems) = decode(json)
        let errors = problems.filter { $0.severity == .error }.map { "\($0.line):\($0.column)" }
        #expect(errors == ["2:43", "3:45", "4:32", "5:48", "6:23"], "\(problems)")
        let warnings = problems.filter { $0.severity == .warning }
        #expect(warnings.map { "\($0.line):\($0.column)" } == ["2:24", "3:24", "4:21"], "\(warnings)")
        #expect(warnings.allSatisfy { $0.message.contains("#EEEEEE on #F3F4F7") }, "\(warnings)")
    }

    /// A section whose background is written wrong has no contrast judged: what its code is
    /// drawn on is not known, and the panel colour it would fall back to was not asked for.
    @Test func aWrongBackgroundJudgesNoContrast() {
        let (_, problems) = decode(
            ##"{"code": {"background": "#12345", "text": "#FFFFFF", "tokens": {"keyword": "#EEEEEE"}}}"##)
        #expect(problems.map(\.severity) == [.error] && problems[0].message.contains("code.background"), "\(problems)")
        let (_, unset) = decode(##"{"code": {"text": "#FFFFFF"}}"##)
        #expect(unset.contains { $0.severity == .warning && $0.message.contains("#FFFFFF on #F3F4F7") }, "\(unset)")
    }

    /// A colour drawn see-through is checked as it shows over what is behind it: black at 7 %
    /// opacity on the light panel is nearly the panel's own colour, and fails.
    @Test func aSeeThroughColourIsCheckedAsItShows() {
        let (_, faint) = decode(##"{"code": {"tokens": {"keyword": "#00000011"}}}"##)
        #expect(faint.contains { $0.severity == .warning && $0.message.contains("code.tokens.keyword") }, "\(faint)")
        let (_, solid) = decode(##"{"code": {"tokens": {"keyword": "#000000FF"}}}"##)
        #expect(solid.isEmpty, "\(solid)")
        let half = RGBAColor(hex: "#00000080")!.composited(over: .white)
        #expect(abs(half.red - (1 - 128.0 / 255)) < 1e-9 && half.red == half.blue && half.alpha == 1, "\(half)")
    }

    @Test func writerRoundTripsTheSection() throws {
        var theme = Theme.default
        theme.code = .dark
        theme.code.tokens[.keyword] = CodeTokenStyle(color: RGBAColor(hex: "#FF9090")!, bold: false, italic: true)
        let (read, problems) = decode(ThemeWriter.json(for: theme))
        #expect(problems.filter { $0.severity == .error }.isEmpty, "\(problems)")
        #expect(read?.code == theme.code)
        // The default theme's section is written too, every token style on a line of its own,
        // so that a theme started from `theme show default` shows what code is drawn in.
        let written = ThemeWriter.json(for: .default)
        for token in CodeToken.allCases where CodeStyle.light.tokens[token] != nil {
            #expect(written.contains("\n      \"\(token.rawValue)\": { \"color\""), "\(token)")
        }
        let (readDefault, _) = decode(written)
        #expect(readDefault?.code == CodeStyle.light)
    }
}
