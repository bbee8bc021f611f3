import Foundation
import TestSupport
import Testing
import Typesetter
import Typography

/// Read back from rendered PDFs: registered font folders, font swap with x-height
/// adjustment, Dynamic Type, Bold Text, missing faces, theme files and design tokens.
@Suite(.serialized) struct ThemeAndFontTests {
    static let fontsFolder = Render.packageRoot + "/Tests/EndToEndTests/Fixtures/fonts"

    func render(_ markdown: String, _ name: String, _ request: ThemeRequest) throws -> (
        pdf: String, report: RenderReport
    ) {
        try Render.markdown(markdown, name: "theme-" + name, options: RenderOptions(themeRequest: request))
    }

    @Test func aRegisteredFontFolderIsUsedAndEmbedded() throws {
        let (pdf, report) = try render(
            "# Heading\n\nRegistered fonts work.\n", "folder",
            ThemeRequest(fontFolders: [ThemeAndFontTests.fontsFolder], family: "Typeset Test Serif"))
        #expect(try PDFProbe.fonts(pdf).contains("TypesetTestSerif-Regular"))
        #expect(!report.diagnostics.contains { $0.message.contains("not found") })
        // The CLI lists it too.
        let listing = try PDFProbe.run(Render.binary, ["fonts", "--fonts", ThemeAndFontTests.fontsFolder]).output
        #expect(listing.contains("Typeset Test Serif"))
    }

    @Test func xHeightSizeAdjustmentEqualisesXHeights() throws {
        let text = "xxxxxxxx\n"
        let (original, _) = try render(text, "xh-inter", ThemeRequest())
        let (swapped, _) = try render(
            text, "xh-serif", ThemeRequest(family: "DejaVu Serif", sizeAdjustment: .matchXHeight))
        let (unadjusted, _) = try render(text, "xh-plain", ThemeRequest(family: "DejaVu Serif"))
        func xHeight(_ pdf: String) throws -> Double {
            try PDFProbe.inkHeight(pdf, in: try #require(try PDFProbe.words(pdf).first { $0.text == "xxxxxxxx" }))
        }
        let a = try xHeight(original)
        let b = try xHeight(swapped)
        let c = try xHeight(unadjusted)
        #expect(abs(b / a - 1) < 0.02, "x-heights \(a) vs \(b)")
        #expect(abs(c / a - 1) > 0.02, "without adjustment they differ: \(a) vs \(c)")
    }

    @Test func xHeightAdjustmentOfAHangulOnlyFontMatchesHangulBoxes() throws {
        let text = "한글가나다\n"
        let (original, _) = try render(text, "hangul-noto", ThemeRequest())
        let (swapped, report) = try render(
            text, "hangul-only",
            ThemeRequest(
                fontFolders: [ThemeAndFontTests.fontsFolder],
                family: "Typeset Test Hangul", sizeAdjustment: .matchXHeight))
        #expect(try PDFProbe.fonts(swapped).contains("TypesetTestHangul-Regular"), "\(report.diagnostics)")
        func box(_ pdf: String) throws -> Double {
            try PDFProbe.inkHeight(pdf, in: try #require(try PDFProbe.words(pdf).first { $0.text == "한글가나다" }))
        }
        let a = try box(original)
        let b = try box(swapped)
        #expect(abs(b / a - 1) < 0.02, "Hangul boxes \(a) vs \(b)")
    }

    @Test func sizeAdjustInPointsAddsToEverySize() throws {
        let (pdf, _) = try render(
            "# Big\n\nbody\n", "adjust-pt", ThemeRequest(family: "DejaVu Sans", sizeAdjustment: .points(-2)))
        let body = try #require(try PDFProbe.words(pdf).first { $0.text == "body" })
        // DejaVu Sans box height is 1.164 em (ascent 0.928 + descent 0.236).
        #expect(abs(body.height / 1.164 - 8.5) < 0.05)
    }

    @Test func dynamicTypeScalesRelativeRolesByApplesTable() throws {
        for (category, expected) in [(SizeCategory.xSmall, 14.0), (.large, 17.0), (.accessibility5, 53.0)] {
            let (pdf, _) = try render("Body words\n", "dt-\(category.rawValue)", ThemeRequest(sizeCategory: category))
            let word = try #require(try PDFProbe.words(pdf).first { $0.text == "Body" })
            let size = word.height / 1.2103
            #expect(abs(size - 10.5 * expected / 17) < 0.05, "\(category): \(size)")
        }
    }

    @Test func boldTextMovesToTheNextRealFace() throws {
        let (inter, _) = try render("Body text\n", "bold-inter", ThemeRequest(boldText: true))
        // Inter 400 → 600: the next weight at which Noto Sans CJK KR, also in the list, has a
        // heavier face (Bold) too.
        #expect(try PDFProbe.fonts(inter).contains("Inter-SemiBold"), "Inter 400 → 600")
        // DejaVu Sans has ExtraLight, Book and Bold: 400 → 700.
        let (dejavu, report) = try render(
            "# Title\n\nBody text\n", "bold-dejavu", ThemeRequest(family: "DejaVu Sans", boldText: true))
        let fonts = try PDFProbe.fonts(dejavu)
        #expect(fonts.contains("DejaVuSans-Bold"))
        #expect(!fonts.contains("DejaVuSans"), "no regular face left: \(fonts)")
        #expect(
            report.diagnostics.contains { $0.message.contains("no face heavier") },
            "headings at Bold have nothing heavier")
    }

    @Test func missingFacesAreWarnedOncePerCase() throws {
        let (_, report) = try render(
            "*한국어 기울임* and [*more* and *again*]{family=\"DejaVu Math TeX Gyre\"} "
                + "[light]{weight=300 family=\"DejaVu Serif\"}\n", "missing", ThemeRequest())
        let messages = report.diagnostics.map(\.message)
        #expect(messages.filter { $0.contains("no italic in 'DejaVu Math TeX Gyre'") }.count == 1, "\(messages)")
        // Hangul has no italics: its emphasis is slanted without a warning.
        #expect(!messages.contains { $0.contains("no italic in 'Noto Sans CJK KR'") }, "\(messages)")
        #expect(
            messages.contains { $0.contains("'DejaVu Serif' lacks weight 300; using the nearest: 300 → 400") },
            "\(messages)")
        let (_, themed) = try render("Text\n", "missing-family", ThemeRequest(theme: "pretendard"))
        #expect(
            themed.diagnostics.contains { $0.message == "every role: family 'Pretendard' not found; using 'Inter'" })
    }

    @Test func charactersNoFontDrawsAreNamed() throws {
        let (_, report) = try render(
            "# 𓀀 Party\n\nHieroglyphs 𓀀 and 𪚥 but 한글 and Latin are fine.\n", "tofu", ThemeRequest())
        let tofu = report.diagnostics.filter { $0.message.hasPrefix("no installed font draws") }
        // One warning per block that first shows a missing character, with its position.
        #expect(tofu.count == 2, "\(report.diagnostics)")
        #expect(tofu.first?.message.contains("U+13000") == true && tofu.first?.location?.line == 1)
        #expect(tofu.last?.message.contains("U+2A6A5") == true && tofu.last?.location?.line == 3)
        #expect(!tofu.contains { $0.message.contains("한") })
        let (_, clean) = try render("Latin and 한글 only.\n", "no-tofu", ThemeRequest())
        #expect(!clean.diagnostics.contains { $0.message.hasPrefix("no installed font draws") })
    }

    @Test func strictTurnsFaceWarningsIntoErrors() throws {
        let dir = Render.folder
        try "[*italic*]{family=\"DejaVu Math TeX Gyre\"}\n".write(
            toFile: dir + "/strict.md", atomically: false, encoding: .utf8)
        let result = try PDFProbe.run(
            Render.binary, ["render", dir + "/strict.md", "-o", dir + "/strict.pdf", "--strict"])
        #expect(result.status == 1)
        #expect(result.output.contains("no italic"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/strict.pdf"))
    }

    @Test func tokensImportToAThemeThatRenders() throws {
        let tokens = Render.packageRoot + "/templates/tokens/acme.tokens.json"
        let theme = Render.folder + "/acme.theme.json"
        let imported = try PDFProbe.run(Render.binary, ["theme", "import", tokens, "-o", theme])
        #expect(imported.status == 0)
        #expect(imported.output.contains("typography.overline"), "the unmapped token is listed")
        #expect(try PDFProbe.run(Render.binary, ["theme", "check", theme]).status == 0)
        let (pdf, _) = try Render.markdown(
            "# Title\n\nBody words\n", name: "acme", options: RenderOptions(themeRequest: ThemeRequest(theme: theme)))
        let words = try PDFProbe.words(pdf)
        let body = try #require(words.first { $0.text == "Body" })
        let title = try #require(words.first { $0.text == "Title" })
        #expect(abs(body.height / 1.2103 - 11) < 0.05, "body 11 px")
        #expect(abs(title.height / 1.2103 - 34) < 0.1, "h1 → LargeTitle 34 px")
    }

    @Test func themeCheckReportsPositionsAndExits1() throws {
        let bad = Render.folder + "/bad-theme.json"
        try """
        {
          "roles": {
            "bodyy": { "size": 10 },
            "title": { "weight": "heavyish", "family": "No Such Family" }
          }
        }
        """.write(toFile: bad, atomically: false, encoding: .utf8)
        let result = try PDFProbe.run(Render.binary, ["theme", "check", bad])
        #expect(result.status == 1)
        #expect(result.output.contains("bad-theme.json:3:5: unknown role 'bodyy'"), "\(result.output)")
        #expect(result.output.contains("bad-theme.json:4:"), "the weight problem with its line")
        #expect(
            result.output.contains("bad-theme.json:4:48: role Title: family 'No Such Family' is not installed"),
            "\(result.output)")
        let syntax = Render.folder + "/syntax-theme.json"
        try "{\n  \"name\": \"x\",\n}\n".write(toFile: syntax, atomically: false, encoding: .utf8)
        let broken = try PDFProbe.run(Render.binary, ["theme", "check", syntax])
        #expect(broken.status == 1 && broken.output.contains("syntax-theme.json:3:1: invalid JSON"), "\(broken.output)")
        let good = Render.packageRoot + "/templates/themes/pretendard.json"
        let checked = try PDFProbe.run(Render.binary, ["theme", "check", good])
        #expect(checked.status == 0, "a missing family with an installed fallback is a warning")
        #expect(
            checked.output.contains(
                "pretendard.json:10:14: warning: family 'Pretendard' is not installed; its text is set in 'Inter'"),
            "\(checked.output)")
    }
}
