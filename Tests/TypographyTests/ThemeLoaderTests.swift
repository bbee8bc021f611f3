import Foundation
import TestSupport
import Testing

@testable import Typography

/// Decodes `json` as file `t.json` and returns the theme and the problems as description strings.
func decodeTheme(_ json: String) -> (Theme?, [String]) {
    let (theme, problems) = ThemeLoader.decode(Data(json.utf8), file: "t.json")
    return (theme, problems.map(\.description))
}

@Suite struct ThemeLoaderTests {
    static let templates = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("templates/themes")

    @Test(arguments: ThemeLoader.builtInNames)
    func templateFilesEqualBuiltIns(name: String) throws {
        let path = Self.templates.appendingPathComponent("\(name).json").path
        let loaded = try ThemeLoader.load(contentsOf: path)
        let builtIn = try #require(ThemeLoader.builtIn(named: name))
        for role in TextRole.allCases { #expect(loaded[role] == builtIn[role], "\(name) \(role)") }
        #expect(loaded == builtIn)
    }

    @Test func goodThemeWithInheritance() throws {
        let json = """
            {
              "$comment": "ignored",
              "name": "mine",
              "extends": "hig",
              "families": {"serif": ["Noto Serif", "Noto Serif CJK KR"]},
              "roles": {
                "BODY": {"family": "serif", "size": "11pt", "lineHeight": "160%", "weight": "Medium",
                         "features": "tnum ss01", "italic": true, "relativeTo": "fixed"},
                "large_title": {"size": 17, "tracking": "-2%", "kerning": "0.5px"},
                "Caption 2": {"lineHeightMultiple": 1.4, "letterSpacing": null, "weight": 300}
              },
              "colors": {"accent": "#f00"},
              "page": {"paper": "a5", "margins": "10mm 20pt", "blockSpacing": "6pt"},
              "fontFolders": [".", "/tmp"],
              "monospace": ["Inter"],
              "sizeAdjust": {"Nanum Gothic": -2, "Other": {"originalRatio": 0.546, "newRatio": 0.5}}
            }
            """
        let (theme, problems) = decodeTheme(json)
        #expect(problems.isEmpty)
        let t = try #require(theme)
        #expect(t.name == "mine")
        #expect(
            t[.body]
                == TextStyle(
                    families: ["Noto Serif", "Noto Serif CJK KR"], weight: .medium, italic: true,
                    size: 11, lineHeight: .relativeToSize(1.6), tracking: .points(-0.43),
                    features: ["tnum", "ss01"], relativeTo: nil))
        #expect(t[.largeTitle].size == 17)
        #expect(t[.largeTitle].lineHeight == .absolute(41.0 * 17 / 34))  // inherited absolute, scaled
        #expect(t[.largeTitle].tracking == .percentOfSize(-2))
        #expect(t[.largeTitle].kerning == .points(0.5))
        #expect(t[.caption2].lineHeight == .multiple(1.4))
        #expect(t[.caption2].tracking == nil)
        #expect(t[.caption2].weight == .light)
        #expect(t[.title] == Theme.hig[.title])  // left out: inherited
        #expect(t.colors["accent"] == RGBAColor(red: 1, green: 0, blue: 0))
        #expect(t.colors["text"] == Theme.hig.colors["text"])
        #expect(t.page.paper == .a5)
        #expect(t.page.margins == Margins(top: 10 * 72 / 25.4, right: 20, bottom: 10 * 72 / 25.4, left: 20))
        #expect(t.page.blockSpacing == 6)
        #expect(
            t.fontFolders == [
                URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.path, "/tmp",
            ])
        #expect(t.monospaceFamilies == ["Inter"])
        #expect(
            t.sizeAdjustments == ["Nanum Gothic": .points(-2), "Other": .xHeight(originalRatio: 0.546, newRatio: 0.5)])
        #expect(t.familyNames.contains("Noto Serif"))
    }

    @Test func defaultNameAndBaseAndFamilyPropagation() throws {
        let (theme, problems) = ThemeLoader.decode(
            Data(#"{"families": {"sans": ["Pretendard", "Noto Sans CJK KR"]}}"#.utf8), file: "dir/my-theme.json")
        #expect(problems.isEmpty)
        let t = try #require(theme)
        #expect(t.name == "my-theme")
        for role in TextRole.allCases { #expect(t[role].families == ["Pretendard", "Noto Sans CJK KR"]) }
        #expect(t[.body].size == Theme.default[.body].size)
    }

    /// `fontExpansion`: a percentage (2 → ±2 %), `false` for none, 2 % by default; anything
    /// else is an error at the value and leaves the default.
    @Test func fontExpansionIsAPercentageOrFalse() throws {
        #expect(Theme.default.fontExpansion == 0.02)
        #expect(decodeTheme(#"{"fontExpansion": 1.5}"#).0?.fontExpansion == 0.015)
        #expect(decodeTheme(#"{"fontExpansion": false}"#).0?.fontExpansion == 0)
        #expect(decodeTheme(#"{"fontExpansion": 0}"#).0?.fontExpansion == 0)
        for bad in [#""2%""#, "9", "true"] {
            let (theme, problems) = decodeTheme("{\"fontExpansion\": \(bad)}")
            #expect(theme?.fontExpansion == 0.02)
            #expect(problems.count == 1 && problems[0].hasPrefix("t.json:1:19: "), "\(problems)")
        }
    }

    @Test func invalidJSONPositions() {
        #expect(
            decodeTheme("{\n  \"name\": \"x\",\n  \"roles\": {,}\n}").1
                == ["t.json:3:13: invalid JSON: unexpected ',': expected a string key in double quotes"])
        #expect(
            decodeTheme("{\n  \"name\": \"x\"\n  \"roles\": {}\n}").1
                == ["t.json:3:3: invalid JSON: unexpected '\"': expected ',' or '}' after the value of \"name\""])
        #expect(decodeTheme("{\"a\": [1, 2,]}").1 == ["t.json:1:13: invalid JSON: trailing comma before ']'"])
        #expect(
            decodeTheme("{\"roles\": {\"body\": {\"size\": 17pt}}}").1
                == [
                    "t.json:1:31: invalid JSON: unexpected 'p' after number 17: write values with units as strings, "
                        + "e.g. \"17pt\""
                ])
        #expect(
            decodeTheme("{\"name\": \"한글\", \"x\": tru}").1 == [
                "t.json:1:21: invalid JSON: invalid literal: expected 'true'"
            ])
        #expect(
            decodeTheme("{\n\"name\": \"abc\n}").1.first?.hasPrefix("t.json:2:13: invalid JSON: unterminated string")
                == true)
        #expect(decodeTheme("").1 == ["t.json:1:1: invalid JSON: empty file: expected a JSON value"])
        #expect(decodeTheme("{} {}").1 == ["t.json:1:4: invalid JSON: unexpected '{' after the end of the JSON value"])
        #expect(decodeTheme("{} {}").0 == nil)
    }

    @Test func unknownRoleAndKey() {
        let json = """
            {
              "roles": {
                "bodyy": {"size": 12},
                "title": {"sise": 20}
              },
              "colours": {}
            }
            """
        let (theme, problems) = decodeTheme(json)
        #expect(theme != nil)
        #expect(problems.count == 3)
        #expect(
            problems[0].hasPrefix(
                "t.json:3:5: unknown role 'bodyy'; did you mean 'Body'?; roles are Display, LargeTitle"))
        #expect(problems[1].hasPrefix("t.json:4:15: unknown key 'sise' in role Title; did you mean 'size'?"))
        #expect(problems[2].hasPrefix("t.json:6:3: unknown key 'colours' in the theme; did you mean 'colors'?"))
    }

    @Test func wrongTypesAndUnits() {
        let json = """
            {
              "extends": "fancy",
              "roles": {
                "body": {"size": "17em", "weight": "heavyish", "italic": "yes",
                         "lineHeight": "2 lines", "tracking": "1 furlong", "relativeTo": "bodi"},
                "caption": {"lineHeight": 14, "lineHeightMultiple": 1.2, "family": 12, "weight": 450.5}
              },
              "colors": {"text": "red"},
              "page": {"paper": "q7", "margins": {"top": "1parsec"}, "blockSpacing": true},
              "fontFolders": 3
            }
            """
        let problems = decodeTheme(json).1
        let expected = [
            "t.json:2:14: unknown built-in theme 'fancy' in extends",
            "t.json:4:22: role Body: size must be a positive size in pt",
            "t.json:4:40: role Body: weight must be 1–1000 or a name",
            "t.json:4:62: role Body: italic must be true or false, not the string \"yes\"",
            "t.json:5:28: role Body: lineHeight must be pt",
            "t.json:5:51: role Body: tracking must be pt",
            "t.json:5:78: role Body: relativeTo 'bodi' is not a Dynamic Type style; did you mean 'body'?",
            "t.json:6:35: role Caption: set either lineHeight or lineHeightMultiple, not both",
            "t.json:6:72: role Caption: family must be a string or an array of strings, not the number 12",
            "t.json:6:86: role Caption: weight must be a whole number 1–1000, not the number 450.5",
            "t.json:8:22: colors.text: invalid colour 'red'",
            "t.json:9:21: page.paper: unknown paper 'q7'",
            "t.json:9:46: page.margins.top: expected a length",
            "t.json:9:74: page.blockSpacing: expected a length",
            "t.json:10:18: fontFolders must be a string or an array of strings, not the number 3",
        ]
        #expect(problems.count == expected.count)
        for (p, e) in zip(problems, expected) { #expect(p.hasPrefix(e), "\(p)") }
    }

    @Test func loadThrowsThemeErrorWithLines() throws {
        let dir = URL(fileURLWithPath: Scratch.uniquePath("theme"))
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("bad.json").path
        try Data("{\n  \"roles\": {\"Hedline\": {}}\n}".utf8).write(to: URL(fileURLWithPath: path))
        do {
            _ = try ThemeLoader.load(contentsOf: path)
            Issue.record("expected ThemeError")
        } catch let error as ThemeError {
            #expect(error.description.hasPrefix("\(path):2:13: unknown role 'Hedline'; did you mean 'Headline'?"))
        }
        #expect(throws: ThemeError.self) {
            try ThemeLoader.load(contentsOf: dir.appendingPathComponent("missing.json").path)
        }
        let good = dir.appendingPathComponent("good.json").path
        try Data(#"{"extends": "pretendard", "fontFolders": ["fonts"]}"#.utf8).write(to: URL(fileURLWithPath: good))
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("fonts"), withIntermediateDirectories: true)
        let theme = try ThemeLoader.resolve(nameOrPath: good)
        #expect(theme.fontFolders == [dir.appendingPathComponent("fonts").standardizedFileURL.path])
        #expect(theme[.body] == Theme.pretendard[.body])
    }

    /// A font folder that is not there is found by the shared validation, at its entry, rather
    /// than by the render that registers it (without a position).
    @Test func missingFontFolderIsAnErrorAtItsEntry() throws {
        let (theme, problems) = decodeTheme(#"{"fontFolders": ["/tmp", "/nonexistent-typeset-fonts"]}"#)
        #expect(theme != nil)
        #expect(
            problems == [
                "t.json:1:26: fontFolders: '/nonexistent-typeset-fonts' is not a folder (/nonexistent-typeset-fonts "
                    + "does not exist; paths are relative to the theme file)"
            ])
        let file = Scratch.path("ff.json")
        defer { try? FileManager.default.removeItem(atPath: file) }
        try Data(#"{"fontFolders": "nofolder"}"#.utf8).write(to: URL(fileURLWithPath: file))
        #expect(throws: ThemeError.self) { try ThemeLoader.load(contentsOf: file) }
    }

    @Test func resolveBuiltInsAndUnknowns() throws {
        #expect(try ThemeLoader.resolve(nameOrPath: "HIG") == .hig)
        #expect(try ThemeLoader.resolve(nameOrPath: "default") == .default)
        #expect(ThemeLoader.builtIn(named: "nope") == nil)
        do {
            _ = try ThemeLoader.resolve(nameOrPath: "nope")
            Issue.record("expected ThemeError")
        } catch let error as ThemeError {
            #expect(
                error.description
                    == "nope: no such theme: not a built-in theme (default, hig, pretendard) nor an existing file")
        }
    }

    @Test func roleNamesAreCaseAndSeparatorInsensitive() {
        for name in ["largeTitle", "large-title", "Large Title", "LARGE_TITLE"] {
            #expect(TextRole(name: name) == .largeTitle)
        }
        #expect(TextRole(name: "subtitle") == .subTitle)
        #expect(TextRole(name: "Title 2") == .title2)
        #expect(TextRole(name: "title4") == nil)
    }

    @Test func pretendardThemeWeights() {
        let t = Theme.pretendard
        #expect(t[.display].weight == .bold && t[.largeTitle].weight == .bold && t[.title].weight == .bold)
        #expect(t[.title2].weight == .semibold && t[.subTitle].weight == .semibold)
        for role in [TextRole.title3, .headline, .caption, .caption2] { #expect(t[role].weight == .medium) }
        #expect(t[.body].weight == .regular)
        #expect(t[.body].families == ["Pretendard", "Inter", "Noto Sans CJK KR"])
        #expect(t.notes.count == 1)
    }
}
