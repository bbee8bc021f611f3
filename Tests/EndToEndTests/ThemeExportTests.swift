import Foundation
import TestSupport
import Testing
import Typesetter
import Typography

/// `typeset theme export`: the SwiftUI export of every built-in theme parses (`swiftc -parse`)
/// and states the sizes, weights and letter spacing `theme show` states; the CSS export has one
/// class per role with the same numbers, and rendered by a browser engine (WeasyPrint) it sets
/// each role as Typeset's PDF does.
@Suite(.serialized) struct ThemeExportTests {
    /// Each role's size, weight and tracking as `theme show` prints them.
    static func shownRoles(_ theme: String) throws -> [String: (size: Double, weight: Int, tracking: Double?)] {
        let shown = try typeset(["theme", "show", theme])
        let json = try JSONSerialization.jsonObject(with: Data(shown.output.utf8)) as! [String: Any]
        let roles = json["roles"] as! [String: [String: Any]]
        return roles.mapValues {
            ($0["size"] as! Double, $0["weight"] as! Int, $0["tracking"] as? Double)
        }
    }

    /// Weights between the named ones are drawn and exported alike, as CSS matches them: a
    /// Headline of 550 with Inter's SemiBold (it was Medium, while the CSS export made a browser
    /// draw SemiBold) and `.semibold`, a Title of 350 with Light and `.light` (it was `.regular`).
    @Test func inBetweenWeightsAreDrawnAndExportedAsCSSMatchesThem() throws {
        let dir = try Render.scratchFolder("weights")
        try #"{"name": "w", "roles": {"title": {"weight": 350}, "headline": {"weight": 550}}}"#
            .write(toFile: dir + "/w.json", atomically: true, encoding: .utf8)
        try "::: title\nTitle text\n:::\n\n::: headline\nHeadline text\n:::\n"
            .write(toFile: dir + "/w.md", atomically: true, encoding: .utf8)
        let rendered = try typeset(["render", dir + "/w.md", "--theme", dir + "/w.json", "-o", dir + "/w.pdf"])
        #expect(rendered.status == 0, "\(rendered.output)")
        let fonts = try PDFProbe.fonts(dir + "/w.pdf")
        #expect(
            fonts.contains { $0.hasSuffix("Inter-SemiBold") } && fonts.contains { $0.hasSuffix("Inter-Light") },
            "\(fonts)")
        #expect(!fonts.contains { $0.hasSuffix("Inter-Medium") }, "\(fonts)")
        let export = try typeset(["theme", "export", dir + "/w.json", "--format", "swiftui"]).output
        let title = export.split(separator: "\n").first { $0.contains("static let wTitle =") } ?? ""
        let headline = export.split(separator: "\n").first { $0.contains("static let wHeadline =") } ?? ""
        #expect(title.contains(".weight(.light)") && headline.contains(".weight(.semibold)"), "\(title)\n\(headline)")
    }

    @Test(arguments: ["default", "hig", "pretendard"]) func swiftUIParsesAndStatesTheTheme(theme: String) throws {
        let export = try typeset(["theme", "export", theme, "--format", "swiftui"])
        #expect(export.status == 0, "\(export.output)")
        let dir = try Render.scratchFolder("export")
        let file = dir + "/\(theme).swift"
        try export.output.write(toFile: file, atomically: false, encoding: .utf8)
        let parsed = try PDFProbe.run("swiftc", ["-parse", file])
        #expect(parsed.status == 0, "\(parsed.output)")
        let weights = [
            100: "ultraLight", 200: "thin", 300: "light", 400: "regular", 500: "medium", 600: "semibold",
            700: "bold", 800: "heavy", 900: "black",
        ]
        for (role, values) in try Self.shownRoles(theme) {
            let name = theme + role.prefix(1).uppercased() + role.dropFirst()
            let size = String(format: "%g", values.size)
            let line = export.output.split(separator: "\n").first { $0.contains("static let \(name) = ") }
            #expect(line?.contains("size: \(size),") == true, "\(role): \(line ?? "none")")
            #expect(line?.contains(".weight(.\(weights[values.weight]!))") == true, "\(role): \(line ?? "none")")
            if let tracking = values.tracking {
                #expect(export.output.contains(".tracking(\(String(format: "%g", tracking)))"), "\(role)")
            }
            #expect(export.output.contains("func \(name)Style() -> some View"))
        }
    }

    @Test func cssHasAClassPerRoleWithTheThemesNumbers() throws {
        let export = try typeset(["theme", "export", "default", "--format", "css"])
        #expect(export.status == 0)
        for (role, values) in try Self.shownRoles("default") {
            let name = role.reduce(into: "") { $0 += $1.isUppercase ? "-" + $1.lowercased() : String($1) }
            #expect(export.output.contains("\n.\(name) {\n"), "\(name)")
            #expect(export.output.contains("--\(name)-font-size: \(String(format: "%g", values.size))px;"), "\(name)")
            #expect(export.output.contains("--\(name)-font-weight: \(values.weight);"), "\(name)")
        }
        let bad = try typeset(["theme", "export", "default", "--format", "kotlin"])
        #expect(bad.status == 2 && bad.output.contains("swiftui, css"))
        // CSS's generic families stay keywords: quoted, "sans-serif" would name a font.
        let dir = try Render.scratchFolder("css-generic")
        try #"{"extends": "default", "families": {"sans": ["Inter", "sans-serif", "System-UI", "Serif Font"]}}"#
            .write(toFile: dir + "/generic.json", atomically: false, encoding: .utf8)
        let generic = try typeset(["theme", "export", dir + "/generic.json", "--format", "css"])
        #expect(
            generic.output.contains(#"--body-font-family: "Inter", sans-serif, system-ui, "Serif Font";"#),
            "\(generic.output)")
    }

    /// Three short lines per role, each starting with the role's name (so each line is found
    /// in both PDFs) and too short to wrap in either engine: size, line step and letter spacing
    /// are compared on lines both engines break alike.
    static let sampleLines = ["Hamburg fjord", "quiz vex", "Typeset ink"]

    /// The role's word in the sample: its CSS class name without separators (`largetitle`).
    static func marker(_ role: TextRole) -> String { role.rawValue.lowercased() }

    /// The three lines of each role in `pdf`, by role: the words of each line whose first word
    /// is the role's marker, top to bottom.
    static func roleLines(_ pdf: String) throws -> [TextRole: [[PDFProbe.Word]]] {
        let lines = DocumentFeatureTests.lines(try PDFProbe.words(pdf))
        var result: [TextRole: [[PDFProbe.Word]]] = [:]
        for role in TextRole.allCases {
            result[role] = lines.filter { $0.first?.text.lowercased() == marker(role) }
        }
        return result
    }

    /// The HTML of the sample lines in `css`, on a 900 × 2400 pt page with 40 pt margins.
    static func sampleHTML(_ css: String) -> String {
        var html = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><style>\n"
        html += "@page { size: 900px 2400px; margin: 40px }\nbody { margin: 0 }\n" + css + "</style></head><body>\n"
        for role in TextRole.allCases {
            let lines = sampleLines.map { "\(marker(role)) \($0)" }
            html += "<p class=\"\(ThemeExport.cssName(role))\">" + lines.joined(separator: "<br>") + "</p>\n"
        }
        return html + "</body></html>\n"
    }

    /// The same lines as Markdown: one div per role, lines ended by hard breaks.
    static let sampleMarkdown = TextRole.allCases.map { role in
        let lines = sampleLines.map { "\(marker(role)) \($0)" }
        return "::: {.\(role.rawValue)}\n" + lines.joined(separator: "\\\n") + "\n:::\n"
    }.joined(separator: "\n")

    /// Each role's lines in WeasyPrint's PDFs of each of `styleSheets` applied to the sample
    /// (one run of WeasyPrint for all).
    static func weasyPrintLines(_ styleSheets: [String], python: String, name: String) throws
        -> [[TextRole: [[PDFProbe.Word]]]]
    {
        let dir = try Render.scratchFolder("css-export")
        var arguments = [Render.packageRoot + "/Tests/Scripts/css-render.py"]
        for (index, css) in styleSheets.enumerated() {
            try sampleHTML(css).write(toFile: dir + "/\(name)-\(index).html", atomically: false, encoding: .utf8)
            arguments += [dir + "/\(name)-\(index).html", dir + "/\(name)-\(index).pdf"]
        }
        let run = try PDFProbe.run(python, arguments)
        #expect(run.status == 0, "\(run.output)")
        return try styleSheets.indices.map { try roleLines(dir + "/\(name)-\($0).pdf") }
    }

    /// Each role's lines in Typeset's PDF of the sample set in `theme` on the same page.
    static func typesetLines(_ theme: Theme, name: String) throws -> [TextRole: [[PDFProbe.Word]]] {
        let options = RenderOptions(
            theme: theme, paper: PaperSize(width: 900, height: 2400), margins: Margins(all: 40))
        return try roleLines(try Render.markdown(sampleMarkdown, name: name, options: options).pdf)
    }

    /// The letter spacing each line of `tracked` carries, pt: how much further its second word
    /// starts than in `plain` (the same line without letter spacing), per character before it.
    static func letterSpacings(_ tracked: [[PDFProbe.Word]], _ plain: [[PDFProbe.Word]]) -> [Double] {
        zip(tracked, plain).compactMap { line, untracked in
            guard line.count > 1, untracked.count > 1 else { return nil }
            let characters = Double(line[0].text.count + 1)
            return ((line[1].xMin - line[0].xMin) - (untracked[1].xMin - untracked[0].xMin)) / characters
        }
    }

    /// The CSS export, rendered by WeasyPrint (one px to one pt), sets every role as Typeset's
    /// PDF of the same text does, within 0.1 pt: the same glyph heights (size), baseline steps
    /// (line height) and letter spacing (how much further each character moves the next word
    /// than without letter spacing, in each engine: the engines' kerning and rounding apart).
    /// Skipped when WeasyPrint is not installed (`make pdf-check`), failed under `make test`,
    /// which installs it.
    @Test(arguments: ["default", "hig"]) func cssRenderedByWeasyPrintMatchesThePDF(name: String) throws {
        guard let python = PDFValidationTests.checker(),
            (try? PDFProbe.run(python, ["-c", "import weasyprint"]))?.status == 0
        else {
            #expect(
                ProcessInfo.processInfo.environment["TYPESET_REQUIRE_SPEC"] == nil,
                "WeasyPrint is missing: run `make pdf-check`")
            return
        }
        let export = try typeset(["theme", "export", name, "--format", "css"])
        #expect(export.status == 0, "\(export.output)")
        let theme = try #require(ThemeLoader.builtIn(named: name))
        var untracked = theme
        for role in TextRole.allCases {
            untracked.styles[role]!.tracking = nil
            untracked.styles[role]!.kerning = nil
        }
        let ours = try Self.typesetLines(theme, name: "css-export-\(name)")
        let oursPlain = try Self.typesetLines(untracked, name: "css-export-\(name)-untracked")
        let browser = try Self.weasyPrintLines(
            [export.output, export.output + "\np { letter-spacing: 0 !important }\n"], python: python, name: name)
        let (theirs, theirsPlain) = (browser[0], browser[1])
        for role in TextRole.allCases {
            let (expected, rendered) = (ours[role] ?? [], theirs[role] ?? [])
            let what = "\(name) \(role.displayName)"
            guard expected.count == 3, rendered.count == 3 else {
                Issue.record("\(what): \(expected.count) lines in Typeset's PDF, \(rendered.count) in WeasyPrint's")
                continue
            }
            let size = (expected[0][1].height, rendered[0][1].height)
            #expect(abs(size.0 - size.1) < 0.1, "\(what) glyph height: \(size.0) pt, WeasyPrint \(size.1) pt")
            for index in 1..<3 {
                let step = expected[index][0].yMax - expected[index - 1][0].yMax
                let browserStep = rendered[index][0].yMax - rendered[index - 1][0].yMax
                #expect(abs(step - browserStep) < 0.1, "\(what) line step: \(step) pt, WeasyPrint \(browserStep) pt")
            }
            let spacing = Self.letterSpacings(expected, oursPlain[role] ?? [])
            let browserSpacing = Self.letterSpacings(rendered, theirsPlain[role] ?? [])
            #expect(spacing.count == 3 && browserSpacing.count == 3, "\(what): letter spacing measured on every line")
            let stated = theme[role].letterSpacing
            for (measured, browser) in zip(spacing, browserSpacing) {
                #expect(abs(measured - stated) < 0.1, "\(what) letter spacing \(measured) pt, theme \(stated) pt")
                #expect(
                    abs(measured - browser) < 0.1, "\(what) letter spacing \(measured) pt, WeasyPrint \(browser) pt")
            }
        }
    }

    /// A family that is not installed is warned about where it is written, in a comma list as
    /// in an array (the comma list's warning had no position).
    @Test func aMissingFamilyInACommaListIsPlaced() throws {
        let dir = try Render.scratchFolder("token-family-list")
        for (value, column) in [
            ("\"Nosuchface, Inter\"", 48), ("\"Inter, Nosuchface\"", 56), ("[\"Nosuchface\", \"Inter\"]", 49),
        ] {
            let tokens = dir + "/f.json"
            try """
            {"typography": {"body": {"$type": "typography",
              "$value": {"fontSize": "16px", "fontFamily": \(value), "lineHeight": "24px"}}}}
            """.write(toFile: tokens, atomically: false, encoding: .utf8)
            let checked = try typeset(["theme", "check", tokens])
            #expect(checked.output.contains("f.json:2:\(column): warning: family 'Nosuchface'"), "\(checked.output)")
        }
    }

    /// Typography tokens that map to no role make no theme, and the error says why and what to
    /// do (it said "no typography tokens found" after warning that they were found but not
    /// mapped); with `--map` they make one.
    @Test func typographyTokensThatMapToNoRoleAreSaidToBeUnmapped() throws {
        let dir = try Render.scratchFolder("token-unmapped")
        let tokens = dir + "/tokens.json"
        try """
        {"text": {"hero": {"$type": "typography", "$value": {"fontFamily": "Inter", "fontSize": "40px",
          "fontWeight": 700, "lineHeight": 1.2}},
          "paragraph": {"$type": "typography", "$value": {"fontFamily": "Inter", "fontSize": "16px",
          "fontWeight": 400, "lineHeight": 1.5}}}}
        """.write(toFile: tokens, atomically: false, encoding: .utf8)
        let unmapped = try typeset(["theme", "import", tokens, "-o", dir + "/t.json"])
        #expect(unmapped.status == 1 && unmapped.output.contains("no typography token maps to a role"), "\(unmapped)")
        #expect(!unmapped.output.contains("no typography tokens found"), "\(unmapped.output)")
        let mapped = try typeset([
            "theme", "import", tokens, "-o", dir + "/t.json", "--map", "text.hero=display", "--map",
            "text.paragraph=body",
        ])
        #expect(mapped.status == 0, "\(mapped.output)")
    }

    /// A `--map` key that is the last part of two typography tokens reads two ways: a usage
    /// error naming both (the first was mapped and the second's role left to the base theme);
    /// the full path, or a last part one token has, maps.
    @Test func aMapKeyTwoTokensEndInIsRefused() throws {
        let dir = try Render.scratchFolder("token-map-ambiguous")
        let tokens = dir + "/tokens.json"
        try """
        {"typography": {"desktop": {"body": {"$type": "typography", "$value": {"fontSize": "18px", "lineHeight": 1.5}},
          "lead": {"$type": "typography", "$value": {"fontSize": "22px", "lineHeight": 1.4}}},
          "mobile": {"body": {"$type": "typography", "$value": {"fontSize": "16px", "lineHeight": 1.5}}}}}
        """.write(toFile: tokens, atomically: false, encoding: .utf8)
        let ambiguous = try typeset(["theme", "import", tokens, "-o", dir + "/t.json", "--map", "body=title3"])
        #expect(ambiguous.status == 2, "\(ambiguous)")
        #expect(
            ambiguous.output.contains(
                "--map body=…: 'body' is the last part of 2 typography tokens of \(tokens) (typography.desktop.body, "
                    + "typography.mobile.body)"), "\(ambiguous.output)")
        for key in ["typography.mobile.body", "lead"] {
            let mapped = try typeset(["theme", "import", tokens, "-o", dir + "/t.json", "--map", "\(key)=title3"])
            #expect(mapped.status == 0, "\(key): \(mapped.output)")
        }
        // The same keys in a `--map-file` are errors at their place there (exit 1), not said of `--map`.
        let roles = dir + "/roles.json"
        try "{ \"roles\": {\n  \"title3\": \"body\",\n  \"caption\": \"typography.nope\"\n} }\n".write(
            toFile: roles, atomically: false, encoding: .utf8)
        let inFile = try typeset(["theme", "import", tokens, "-o", dir + "/t.json", "--map-file", roles])
        #expect(inFile.status == 1, "\(inFile)")
        #expect(
            inFile.output.contains("\(roles):3:14: \(tokens) has no typography token 'typography.nope'"),
            "\(inFile.output)")
        #expect(!inFile.output.contains("--map"), "\(inFile.output)")
        try "{ \"roles\": {\n  \"title3\": \"body\"\n} }\n".write(toFile: roles, atomically: false, encoding: .utf8)
        let twoWays = try typeset(["theme", "import", tokens, "-o", dir + "/t.json", "--map-file", roles])
        #expect(twoWays.status == 1 && twoWays.output.contains("\(roles):2:13: 'body' is the last part"), "\(twoWays)")
    }

    /// `theme export --format dtcg` and `tokens-studio`, imported back with `theme import`,
    /// give a theme that `theme show` prints with the same roles and colours as the original.
    @Test(arguments: ["dtcg", "tokens-studio"]) func exportedTokensImportBackAsTheSameTheme(format: String) throws {
        let dir = try Render.scratchFolder("token-round-trip")
        for theme in ["default", "hig"] {
            let export = try typeset(["theme", "export", theme, "--format", format])
            #expect(export.status == 0, "\(export.output)")
            let tokens = dir + "/\(theme)-\(format).tokens.json"
            try export.output.write(toFile: tokens, atomically: false, encoding: .utf8)
            let imported = try typeset(["theme", "import", tokens, "-o", dir + "/\(theme)-\(format).json"])
            #expect(imported.status == 0, "\(imported.output)")
            let original = try typeset(["theme", "show", theme])
            let back = try typeset(["theme", "show", dir + "/\(theme)-\(format).json"])
            func section(_ text: String, _ key: String) throws -> NSDictionary {
                let json = try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
                return json[key] as! NSDictionary
            }
            #expect(try section(back.output, "roles") == section(original.output, "roles"), "\(theme) \(format)")
            let colors = try section(back.output, "colors")
            for (key, value) in try section(original.output, "colors") {
                #expect(colors[key] as? String == value as? String, "\(theme) \(format) colour \(key)")
            }
        }
    }

    /// `theme export --format compose` states each role's size and weight as `theme show` does.
    @Test func composeStatesTheThemesSizesAndWeights() throws {
        let export = try typeset(["theme", "export", "pretendard", "--format", "compose"])
        #expect(export.status == 0)
        #expect(export.output.contains("object PretendardTypography {"))
        for (role, values) in try Self.shownRoles("pretendard") {
            let name = role.prefix(1).lowercased() + role.dropFirst()
            let block = export.output.components(separatedBy: "val \(name) = TextStyle(").dropFirst().first ?? ""
            #expect(block.contains("fontSize = \(String(format: "%g", values.size)).sp,"), "\(role)")
            #expect(block.contains("fontWeight = FontWeight(\(values.weight)),"), "\(role)")
        }
    }

    /// `theme diff A B` lists what differs, role by role; a theme against itself differs in nothing.
    @Test func diffListsWhatDiffersRoleByRole() throws {
        let diff = try typeset(["theme", "diff", "default", "pretendard"])
        #expect(diff.status == 0, "\(diff.output)")
        let lines = diff.output.split(separator: "\n").map(String.init)
        #expect(lines.prefix(2) == ["--- default", "+++ pretendard"])
        #expect(lines.contains("Body: size 10.5 pt → 16 pt"), "\(lines)")
        // A step from a multiple of the face's natural height is stated in pt, measured in the installed face.
        #expect(
            lines.contains { $0.hasPrefix("Caption2: line height 1.25 × natural (") && $0.hasSuffix(" pt) → 16 pt") },
            "\(lines)")
        #expect(lines.contains("page measure: 68 characters of Body → margins 56 40 64 40 pt"), "\(lines)")
        let same = try typeset(["theme", "diff", "hig", "hig"])
        #expect(same.output.hasSuffix("no differences\n"), "\(same.output)")
        let bad = try typeset(["theme", "diff", "default"])
        #expect(bad.status == 2)
    }

    /// `specimen --theme A --compare B` sets the two scales face to face after the sheet: per
    /// role a label with each theme's size and step, then the sample in that theme's style,
    /// read back at the size each theme gives the role.
    @Test func specimenComparesTwoScalesRoleByRole() throws {
        let dir = try Render.scratchFolder("specimen-compare")
        let run = try typeset(["specimen", "--theme", "default", "--compare", "hig", "-o", dir + "/compare.pdf"])
        #expect(run.status == 0, "\(run.output)")
        let text = try PDFProbe.text(dir + "/compare.pdf")
        #expect(text.contains("default and hig"))
        let words = try PDFProbe.words(dir + "/compare.pdf")
        let start = try #require(words.last { $0.text == "face" }?.page)
        let samples = words.filter { $0.page >= start && $0.text == "Sphinx" }
        #expect(samples.count == 2 * TextRole.allCases.count, "\(samples.count) samples")
        for (index, role) in TextRole.allCases.enumerated() where samples.count == 2 * TextRole.allCases.count {
            let (first, second) = (Theme.default[role], Theme.hig[role])
            for (theme, style) in [("default", first), ("hig", second)] {
                #expect(text.contains("\(theme) · \(String(format: "%g", style.size)) pt · step"), "\(theme) \(role)")
            }
            // Both in Inter: glyph heights scale with the size.
            let ratio = samples[2 * index + 1].height / samples[2 * index].height
            #expect(
                abs(ratio - second.size / first.size) < 0.02,
                "\(role): heights \(ratio), sizes \(second.size / first.size)")
        }
    }
}
