import Foundation
import TestSupport
import Testing

/// Token files written as design tools export them, imported with `typeset theme
/// import`, then a specimen of every role rendered and read back from the PDF: each role's size
/// and baseline-to-baseline step are the ones its tokens state; `theme check` and `theme import`
/// accept and refuse the same files with the same words.
@Suite(.serialized) struct TokenRoundTripTests {
    static let fixtures = Render.packageRoot + "/Tests/EndToEndTests/Fixtures/tokens"

    /// Role class, size (pt) and line step (pt; nil where the step is a multiple of the face's
    /// natural height, a rule the tokens do not state).
    typealias Expectation = (role: String, size: Double, step: Double?)

    static let cases: [(file: String, options: [String], roles: [Expectation])] = [
        (
            "material3.tokens.json", ["--map-file", fixtures + "/material3-roles.json"],
            [
                ("display", 57, 64), ("large-title", 45, 52), ("title", 32, 40), ("title2", 28, 36),
                ("title3", 24, 32), ("subtitle", 22, 28), ("headline", 14, 20), ("body", 14, 20),
                ("caption", 12, 16), ("caption2", 11, 16),
            ]
        ),
        (
            "tokens-studio-multiset.json", ["--map", "Overline=caption2"],
            [
                ("display", 48.828125, 48.828125 * 1.2), ("large-title", 39.0625, 39.0625 * 1.2),
                ("title", 31.25, 37.5), ("title2", 17, nil), ("title3", 25, 30), ("subtitle", 12.5, nil),
                ("headline", 20, 24), ("body", 16, 24), ("caption", 12.8, 19.2), ("caption2", 12.8, 19.2),
            ]
        ),
        (
            "style-dictionary-v3.json", [],
            [
                ("display", 48, 52.8), ("large-title", 36, 41.4), ("title", 30, 36), ("title2", 24, 28.8),
                ("title3", 18, 22.5), ("subtitle", 14, nil), ("headline", 14, nil), ("body", 11, 16),
                ("caption", 9, 12), ("caption2", 8, nil),
            ]
        ),
        (
            "dtcg.tokens.json", [],
            [
                ("display", 44, 46.2), ("large-title", 32, 35.2), ("title", 26, 29.9), ("title2", 22, 26.4),
                ("title3", 19, 23.75), ("subtitle", 17, 22.1), ("headline", 16, 20.8), ("body", 15, 22.5),
                ("caption", 12, 16.2), ("caption2", 11, 14.3),
            ]
        ),
    ]

    /// A paragraph of about three lines at `size` on a 345 pt measure, opened by a marker word.
    static func paragraph(_ role: String, size: Double) -> String {
        let words = ["scale", "sets", "type", "exactly", "on", "paper", "from", "tokens"]
        let count = max(6, Int(2_400 / size / 6))
        let text = (0..<count).map { words[$0 % words.count] }.joined(separator: " ")
        return "::: {.\(role)}\nMark\(role.replacingOccurrences(of: "-", with: "")) \(text)\n:::\n"
    }

    @Test(arguments: 0..<4) func specimenMatchesTheTokens(index: Int) throws {
        let (file, options, roles) = Self.cases[index]
        // Style Dictionary's caption is in small caps (textCase), which DejaVu Serif synthesizes.
        let smallCaps: Set<String> = file.hasPrefix("style-dictionary") ? ["caption"] : []
        let dir = try Render.scratchFolder("tokens")
        let theme = dir + "/theme.json"
        let imported = try typeset(["theme", "import", Self.fixtures + "/" + file, "-o", theme] + options)
        #expect(imported.status == 0, "\(imported.output)")
        let markdown = roles.map { Self.paragraph($0.role, size: $0.size) }.joined(separator: "\n")
        try markdown.write(toFile: dir + "/specimen.md", atomically: false, encoding: .utf8)
        let pdf = dir + "/specimen.pdf"
        let rendered = try typeset(["render", dir + "/specimen.md", "--theme", theme, "-o", pdf])
        #expect(rendered.status == 0, "\(rendered.output)")
        let lines = TypeExactnessTests.lines(try PDFProbe.textShows(pdf))
        let words = try PDFProbe.words(pdf)
        // A line's text: the words pdftotext boxes across its baseline and ending just below it
        // (lines set tight overlap the next line's boxes), left to right, without spaces (a
        // small-caps run is a word of its own), lower-cased (a role may set capitals).
        func text(_ line: [PDFProbe.TextShow]) -> String {
            let baseline = line[0].baseline
            let limit = baseline + 0.4 * line.map(\.size).max()!
            return words.filter {
                $0.page == line[0].page && $0.yMin < baseline && baseline < $0.yMax && $0.yMax < limit
            }
            .sorted { $0.xMin < $1.xMin }.map(\.text).joined().lowercased()
        }
        var role: Expectation?
        var previous: [PDFProbe.TextShow]?
        var checked = Set<String>()
        for line in lines {
            let lineText = text(line)
            // The page number in the foot is no line of the specimen.
            if !lineText.isEmpty, lineText.allSatisfy(\.isNumber) { continue }
            if lineText.hasPrefix("mark") {
                role = roles.first {
                    let marker = "mark" + $0.role.replacingOccurrences(of: "-", with: "")
                    return lineText == marker || lineText.hasPrefix(marker + "scale")
                }
                previous = nil
            }
            guard let expected = role else { continue }
            let size = line.map(\.size).max()!
            // A line of synthesized small capitals only has no run at the role's size.
            if previous == nil || !smallCaps.contains(expected.role) {
                #expect(abs(size - expected.size) < 0.01, "\(file) \(expected.role): size \(size)")
            }
            if let step = expected.step, let previous, previous[0].page == line[0].page {
                let measured = line[0].baseline - previous[0].baseline
                #expect(abs(measured - step) < 0.01, "\(file) \(expected.role): step \(measured), tokens \(step)")
                checked.insert(expected.role)
            }
            previous = line
        }
        let withSteps = Set(roles.filter { $0.step != nil }.map(\.role))
        #expect(checked == withSteps, "\(file): steps measured for \(checked.sorted())")
    }

    /// Each role's tracking (pt between letters) as its tokens state it, per case in ``cases``:
    /// DTCG and Material 3 give `px` (taken as pt), Tokens Studio and Style Dictionary a share of
    /// the size. Tokens Studio's Title2 has no token and keeps the base theme's −0.1 pt.
    static let trackings: [[String: Double]] = [
        ["display": -0.25, "headline": 0.1, "body": 0.25, "caption": 0.5, "caption2": 0.5],
        ["display": -0.02 * 48.828125, "large-title": -0.02 * 39.0625, "title2": -0.1, "caption2": 0.08 * 12.8],
        ["subtitle": 0.02 * 14],
        ["display": -0.88, "large-title": -0.5, "caption": 0.12, "caption2": 0.2],
    ]

    /// The tracking the tokens state reaches the page: one word a role, set with the imported theme
    /// and with the same theme without tracking, is wider by the tracking times its letter gaps
    /// (pdftotext's word boxes), within 0.01 pt a gap.
    @Test(arguments: 0..<4) func specimenTrackingMatchesTheTokens(index: Int) throws {
        let (file, options, roles) = Self.cases[index]
        let dir = try Render.scratchFolder("tokens-tracking")
        let theme = dir + "/theme.json"
        let imported = try typeset(["theme", "import", Self.fixtures + "/" + file, "-o", theme] + options)
        #expect(imported.status == 0, "\(imported.output)")
        let untracked = dir + "/untracked.json"
        var json = try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: theme))) as? [String: Any])
        var styles = try #require(json["roles"] as? [String: [String: Any]])
        for name in styles.keys { styles[name]!["tracking"] = 0 }
        json["roles"] = styles
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: untracked))
        // Capitals: a role set in small caps (Style Dictionary's caption) keeps the word one run.
        let word = "MINIMUM"
        let markdown = roles.map { "::: {.\($0.role)}\n\(word)\n:::\n" }.joined(separator: "\n")
        try markdown.write(toFile: dir + "/words.md", atomically: false, encoding: .utf8)
        func widths(_ theme: String, _ name: String) throws -> [Double] {
            let pdf = dir + "/\(name).pdf"
            let rendered = try typeset(["render", dir + "/words.md", "--theme", theme, "-o", pdf])
            #expect(rendered.status == 0, "\(rendered.output)")
            return try PDFProbe.words(pdf).filter { $0.text.lowercased() == word.lowercased() }.map {
                $0.xMax - $0.xMin
            }
        }
        let tracked = try widths(theme, "tracked")
        let plain = try widths(untracked, "untracked")
        try #require(tracked.count == roles.count && plain.count == roles.count, "\(tracked) \(plain)")
        for (position, role) in roles.enumerated() {
            let expected = Self.trackings[index][role.role] ?? 0
            let measured = (tracked[position] - plain[position]) / Double(word.count - 1)
            #expect(
                abs(measured - expected) < 0.01, "\(file) \(role.role): tracking \(measured) pt, tokens \(expected)")
        }
    }

    /// textCase and paragraphSpacing render: an uppercase role's words are capitals in the PDF's
    /// text; a Body with `paragraphSpacing` 12 sets its paragraphs one line step + 12 pt apart.
    @Test func caseAndParagraphSpacingRender() throws {
        let dir = try Render.scratchFolder("tokens-case")
        let theme = dir + "/theme.json"
        let imported = try typeset([
            "theme", "import", Self.fixtures + "/tokens-studio-multiset.json", "-o", theme, "--map",
            "Overline=caption2",
        ])
        #expect(imported.status == 0, "\(imported.output)")
        let markdown = "Body one.\n\nBody two.\n\n::: {.caption2}\nquiet overline\n:::\n\n#### under\n\nunder\n"
        try markdown.write(toFile: dir + "/d.md", atomically: false, encoding: .utf8)
        let pdf = dir + "/d.pdf"
        #expect(try typeset(["render", dir + "/d.md", "--theme", theme, "-o", pdf]).status == 0)
        let text = try PDFProbe.text(pdf)
        #expect(text.contains("QUIET OVERLINE"), "\(text)")
        // The 20 pt Headline (H4) is underlined (textDecoration): "under" has no descenders, so its
        // ink reaches below the baseline only by the underline; the 16 pt Body's does not.
        let unders = try PDFProbe.words(pdf).filter { $0.text == "under" }
        #expect(unders.count == 2)
        if unders.count == 2 {
            let underlined = try PDFProbe.inkHeight(pdf, in: unders[0])
            let plain = try PDFProbe.inkHeight(pdf, in: unders[1]) * 20 / 16
            #expect(underlined > plain + 0.8, "\(underlined) vs \(plain) scaled to 20 pt")
        }
        let body = try PDFProbe.words(pdf).filter { $0.text == "Body" }
        #expect(body.count == 2)
        if body.count == 2 {
            // 24 pt step (16 pt × 150 %) + 12 pt paragraph spacing.
            #expect(abs(body[1].yMax - body[0].yMax - 36) < 0.01, "\(body)")
        }
    }

    /// The same judgement of every file: both refuse or both accept, with the same error lines.
    @Test func checkAndImportAgree() throws {
        let dir = try Render.scratchFolder("tokens-agree")
        let bad: [(String, String)] = [
            (
                "case.json",
                #"{"global": {"t": {"body": {"value": {"fontSize": "16", "textCase": "shout"}, "#
                    + #""type": "typography"}}}, "$metadata": {"tokenSetOrder": ["global"]}}"#
            ),
            (
                "math.json",
                #"{"s": {"value": "8", "type": "sizing"}, "t": {"body": {"value": {"fontSize": "{s} * * 2"}, "#
                    + #""type": "typography"}}}"#
            ),
            (
                "sdref.json",
                #"{"size": {"base": {"value": "16px"}}, "typography": {"body": {"font-size": {"value": "#
                    + #""{size.nothing.value}"}, "font-weight": {"value": 400}}}}"#
            ),
            ("empty-set.json", #"{"global": {"x": {"value": "1", "type": "sizing"}}, "$themes": []}"#),
            ("syntax.json", #"{"global": {"x": {"value": "1",}}}"#),
            ("limits.json", #"{"typography": {"body": {"$type": "typography", "$value": {"fontSize": "5000px"}}}}"#),
        ]
        var files = Self.cases.map { Self.fixtures + "/" + $0.file }
        for (name, json) in bad {
            try json.write(toFile: dir + "/" + name, atomically: false, encoding: .utf8)
            files.append(dir + "/" + name)
        }
        func errors(_ output: String) -> [String] {
            output.split(separator: "\n").map(String.init).filter {
                !$0.contains(": warning: ") && !$0.hasSuffix(": ok")
            }
            .filter { !$0.contains("theme '") }
        }
        for (index, file) in files.enumerated() {
            let check = try typeset(["theme", "check", file])
            let imported = try typeset(["theme", "import", file, "-o", dir + "/out\(index).json"])
            #expect(check.status == imported.status, "\(file)\n\(check.output)\n\(imported.output)")
            #expect(errors(check.output) == errors(imported.output), "\(file)")
            #expect((check.status == 0) == (index < Self.cases.count), "\(file): \(check.output)")
        }
    }

    @Test func mappingProblemsNameTheRoles() throws {
        let file = Self.fixtures + "/material3.tokens.json"
        let result = try typeset(["theme", "import", file, "-o", "/dev/null", "--map", "x=bodytext"])
        #expect(result.status == 2)
        #expect(result.output.contains("'bodytext' is no role; roles are display, large-title, title, title2"))
        let dir = try Render.scratchFolder("tokens-map")
        try #"{"roles": {"bodytext": "md.sys.typescale.body-large"}}"#.write(
            toFile: dir + "/roles.json", atomically: false, encoding: .utf8)
        let fromFile = try typeset(["theme", "import", file, "-o", dir + "/t.json", "--map-file", dir + "/roles.json"])
        #expect(fromFile.status == 1)
        #expect(fromFile.output.contains(dir + "/roles.json:1:12: 'bodytext' is no role"), "\(fromFile.output)")
    }

    /// `theme show FILE` prints the file's theme resolved, paper names kept.
    @Test func showResolvesAFile() throws {
        let dir = try Render.scratchFolder("tokens-show")
        try #"{"extends": "hig", "page": {"paper": "a5"}, "roles": {"body": {"size": 12}}}"#.write(
            toFile: dir + "/mine.json", atomically: false, encoding: .utf8)
        let shown = try typeset(["theme", "show", dir + "/mine.json"])
        #expect(shown.status == 0, "\(shown.output)")
        #expect(shown.output.contains(#""paper": "a5""#))
        #expect(shown.output.contains(#""body": { "family": ["#) && shown.output.contains(#""size": 12,"#))
        let hig = try typeset(["theme", "show", "hig"])
        let title = hig.output.split(separator: "\n").first { $0.contains(#""title": {"#) }
        #expect(title != nil && shown.output.contains(String(title!)))  // inherited role, resolved
        let builtIn = try typeset(["theme", "show", "default"])
        #expect(builtIn.output.contains(#""paper": "a4""#))
        let tokens = try typeset(["theme", "show", Self.fixtures + "/style-dictionary-v3.json"])
        #expect(tokens.status == 0 && tokens.output.contains(#""family": ["DejaVu Serif""#))
        #expect(!tokens.output.contains(#"["DejaVu Serif", "Noto Serif CJK KR", "serif", "Inter""#))
        // A theme that does not exist is a theme error (status 1), in the words `render` uses.
        try "Text.\n".write(toFile: dir + "/doc.md", atomically: false, encoding: .utf8)
        for command in [["theme", "show"], ["theme", "export", "--format", "css"], ["render", "--theme"]] {
            let document = command[0] == "render" ? [dir + "/doc.md", "-o", dir + "/doc.pdf"] : []
            let missing = try typeset(command + [dir + "/nothing.json"] + document)
            let named = command[0] == "render" ? "--theme '\(dir)/nothing.json': " : "nothing.json: "
            #expect(missing.status == 1 && missing.output.contains(named + "no such theme"), "\(command)")
        }
    }
}
