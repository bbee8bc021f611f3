import Foundation
import TestSupport
import Testing
import Typesetter
import Typography

@testable import Specimen

/// What the specimen sheet says about itself and its roles, read back from its PDF: the shipped
/// template raises no warning about itself; each role's case, line, slant and paragraph spacing
/// are stated where its values are, with the face really used; the sheet's own labels and tables
/// keep none of a role's case or line; samples that do not fit are shortened at a word.
@Suite(.serialized) struct SpecimenSheetTests {
    static let folder: String = {
        let path = Scratch.path("specimen-sheet-tests")
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    /// Renders the specimen of `theme` with `request`'s settings; the PDF's path and the warnings.
    static func render(_ request: ThemeRequest, name: String) throws -> (pdf: String, report: RenderReport) {
        let pdf = folder + "/\(name).pdf"
        let report = try Typesetter.renderSpecimen(request: request, options: SpecimenOptions(), to: pdf)
        return (pdf, report)
    }

    /// Writes `json` as a theme file in the folder and returns its path.
    static func themeFile(_ json: String, name: String) throws -> String {
        let path = folder + "/\(name).json"
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Every Dynamic Type size and Bold Text: the attributes the sheet generates give each key
    /// once, so the shipped template is never warned about (the example: `tracking` given twice
    /// on each tracking sample once a role's style differs from the sheet's).
    @Test(arguments: [
        ("default", SizeCategory?.none, true), ("default", .xSmall, false), ("default", .accessibility5, false),
        ("hig", .xxxLarge, false), ("hig", .accessibility5, true), ("pretendard", .xSmall, true),
    ])
    func theShippedTemplateIsNeverWarnedAbout(theme: String, category: SizeCategory?, boldText: Bool) throws {
        let request = ThemeRequest(theme: theme, sizeCategory: category, boldText: boldText)
        let name = "own-\(theme)-\(category?.rawValue ?? "large")-\(boldText)"
        let (_, report) = try Self.render(request, name: name)
        // A face that lacks a weight the Bold Text table asks of it is a fact about the fonts,
        // placed at the `{{{boldWeight}}}` that asked (docs/themes.md, "Specimens").
        let aboutTemplate = report.diagnostics.filter {
            $0.kind != .font && ($0.location?.file.hasSuffix("specimen.md") ?? false)
        }
        #expect(aboutTemplate.isEmpty, "\(aboutTemplate.map(\.description))")
        let twice = report.diagnostics.filter { $0.message.contains("is given again") }
        #expect(twice.isEmpty, "\(twice.map(\.description))")
    }

    /// The attribute lists of `markdown` (`{.role key=value …}`) whose keys repeat, each with
    /// the keys given more than once.
    static func listsGivingAKeyTwice(_ markdown: String) -> [String] {
        var found: [String] = []
        var rest = Substring(markdown)
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            let list = rest[rest.index(after: open)..<close]
            let keys = list.split(separator: " ").compactMap { part -> Substring? in
                guard let equals = part.firstIndex(of: "="), !part.hasPrefix(".") else { return nil }
                return part[..<equals]
            }
            if !list.contains("\n"), Set(keys).count != keys.count { found.append(String(list)) }
            rest = rest[rest.index(after: close)...]
        }
        return found
    }

    /// Every attribute list the builder writes into the shipped template gives each key once,
    /// for each built-in theme at every Dynamic Type size, with and without Bold Text, with the
    /// sheet set in the theme at Large.
    @Test(arguments: ["default", "hig", "pretendard"])
    func generatedAttributeListsGiveEachKeyOnce(name: String) throws {
        let base = try #require(["default": Theme.default, "hig": Theme.hig, "pretendard": Theme.pretendard][name])
        let template = try String(contentsOfFile: Render.packageRoot + "/templates/specimen.md", encoding: .utf8)
        let weights = (1...9).map { FontWeight($0 * 100) }
        for category in SizeCategory.allCases {
            for boldText in [false, true] {
                var theme = base.applying(sizeCategory: category)
                if boldText { theme = theme.applyingBoldText(availableWeights: { _ in weights }).0 }
                let settings = SpecimenBuilder.Settings(
                    date: "1 January 2026", sizeCategory: category, boldText: boldText)
                let facts = SpecimenFacts(roles: [:], baseTheme: base, faces: [])
                let markdown = try SpecimenBuilder.markdown(
                    theme: theme, template: template, settings: settings, facts: facts
                ).text
                let twice = Self.listsGivingAKeyTwice(markdown)
                #expect(twice.isEmpty, "\(name) \(category) bold \(boldText): \(twice.prefix(3))")
            }
        }
    }

    /// A theme whose roles set a slant, a case, a line and a space after: Title Bold Italic (as
    /// Tokens Studio's "Bold Italic" imports), Caption2 Regular Italic, Caption upper case and
    /// underlined with 6 pt after, Body in small capitals, Headline struck through.
    static let styledTheme = """
        { "name": "styled", "extends": "default", "roles": {
          "Title": { "weight": 700, "italic": true },
          "Caption2": { "weight": 400, "italic": true },
          "Caption": { "textCase": "uppercase", "textDecoration": "underline", "spaceAfter": 6 },
          "Body": { "textCase": "small-caps" },
          "Headline": { "textDecoration": "line-through" } } }
        """

    /// The role pages and the scale state each role's slant, case, line and space after, only
    /// where a role sets them, and name the face the PDF really embeds.
    @Test func rolesStateTheirSlantCaseLineAndSpaceAfterAndTheFaceUsed() throws {
        let theme = try Self.themeFile(Self.styledTheme, name: "styled-theme")
        let (pdf, _) = try Self.render(ThemeRequest(theme: theme), name: "styled")
        #expect(try PDFProbe.fonts(pdf).contains("Inter-BoldItalic"))
        let pages = try PDFProbe.layout(pdf)
        func pageText(_ role: TextRole) throws -> String {
            let index = try #require(SpecimenRenderTests.page(of: role, in: pages), "\(role)")
            return SpecimenRenderTests.collapsed(try PDFProbe.text(pdf, page: index + 1))
        }
        let title = try pageText(.title)
        #expect(title.contains("face Inter Bold Italic"), "\(title)")
        #expect(title.contains("Bold 700 italic"), "\(title)")
        #expect(try pageText(.caption2).contains("face Inter Italic"))
        // The Caption's own labels are neutral (fault 4), so its values read as written.
        let caption = try pageText(.caption)
        #expect(caption.contains("set as uppercase · underline · 6 pt after each paragraph"), "\(caption)")
        #expect(try pageText(.body).contains("set as small-caps"))
        #expect(try pageText(.headline).contains("set as line-through"))
        for role in [TextRole.display, .largeTitle, .title2, .title3, .subTitle] {
            let text = try pageText(role)
            #expect(!text.contains("set as") && !text.contains("italic"), "\(role): \(text)")
        }
        let cover = SpecimenRenderTests.collapsed(try PDFProbe.text(pdf, page: 1))
        #expect(cover.contains("Inter Bold Italic") && cover.contains("Inter Italic"), "\(cover)")
        let scale = SpecimenRenderTests.collapsed(try PDFProbe.text(pdf, page: 2))
        #expect(scale.contains("Bold 700 italic"), "\(scale)")
        // An ordinary theme's sheet states none of them.
        let (plain, _) = try Self.render(ThemeRequest(theme: "default"), name: "plain")
        let text = try PDFProbe.run("pdftotext", [plain, "-"]).output
        #expect(!text.contains("set as") && !text.contains("after each paragraph") && !text.contains(" italic"))
    }

    /// The sheet's own headings, labels and value tables keep none of a role's case or line: an
    /// upper-case, underlined Caption leaves the explanatory lines as written, a small-caps Body
    /// leaves the value tables in lower case (word widths equal to the plain sheet's), while the
    /// samples of those roles still show them.
    @Test func theSheetsLabelsAndTablesStayNeutral() throws {
        let theme = try Self.themeFile(Self.styledTheme, name: "styled-theme")
        let (styled, _) = try Self.render(ThemeRequest(theme: theme), name: "styled-neutral")
        let (plain, _) = try Self.render(ThemeRequest(theme: "default"), name: "plain-neutral")
        let text = SpecimenRenderTests.collapsed(try PDFProbe.run("pdftotext", [styled, "-"]).output)
        for label in [
            "Every role at its own size, largest first.", "The Body family, Inter Regular, from 6 to 48 pt",
            "does its primary family cover the sample characters",
        ] {
            #expect(text.contains(label), "\(label)")
        }
        #expect(!text.contains("EVERY ROLE AT ITS OWN SIZE"))
        // The Caption's samples are still upper case.
        #expect(text.contains("SPHINX OF BLACK QUARTZ"))
        // The value table of an unchanged role (Title3) is set alike in both sheets: small caps
        // would widen its lower-case words.
        func widths(_ pdf: String) throws -> [Double] {
            let pages = try PDFProbe.layout(pdf)
            let index = try #require(SpecimenRenderTests.page(of: .title3, in: pages))
            // The table's words: those above the caption that starts "Role 05 of 10" (set in
            // Caption2, which this theme makes italic, as it may).
            let words = pages[index].words
            let caption = try #require(words.first { $0.text == "Role" })
            return words.filter { $0.yMax < caption.yMin && ["natural", "relative", "size", "none"].contains($0.text) }
                .map(\.width)
        }
        let styledWidths = try widths(styled)
        let plainWidths = try widths(plain)
        #expect(styledWidths.count == plainWidths.count && !plainWidths.isEmpty)
        for (a, b) in zip(styledWidths, plainWidths) { #expect(abs(a - b) < 0.05, "\(styledWidths) \(plainWidths)") }
    }

    /// Whether `words` are the first words of `sample`, each whole.
    static func isWordPrefix(_ words: [String], of sample: String) -> Bool {
        let all = sample.split(separator: " ").map(String.init)
        return !words.isEmpty && words.count <= all.count && Array(all.prefix(words.count)) == words
    }

    /// Samples that do not fit are shortened at a word, never cut inside one, and each stays
    /// on its line: the tracking lines (the same words on all three, at every size up to AX5),
    /// the role's one-line samples and every size of the waterfall.
    @Test(arguments: [("default", SizeCategory.accessibility5), ("hig", .accessibility5), ("default", .large)])
    func samplesAreShortenedAtAWordAndStayOnTheirLine(theme: String, category: SizeCategory) throws {
        let name = "fit-\(theme)-\(category.rawValue)"
        let (pdf, _) = try Self.render(ThemeRequest(theme: theme, sizeCategory: category), name: name)
        let pages = try PDFProbe.layout(pdf)
        let sample = SpecimenBuilder.Settings.defaultSample
        // Rows as `pdftotext -layout` sets them: a sample and the smaller label beside it on one.
        func rows(_ page: Int) throws -> [String] {
            try PDFProbe.text(pdf, page: page + 1).split(whereSeparator: { $0 == "\n" || $0 == "\u{0C}" })
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.allSatisfy(\.isNumber) }
        }
        // A role's pages: its own and those after it up to the next page of the sheet's own.
        func rolePages(from index: Int) -> [Int] {
            var result = [index]
            while result.last! + 1 < pages.count,
                !pages[result.last! + 1].lines.contains(where: { $0.text.hasPrefix("Role ") || $0.text == "Waterfall" })
            {
                result.append(result.last! + 1)
            }
            return result
        }
        func words(_ text: Substring) -> [String] { text.split(separator: " ").map(String.init) }
        for role in TextRole.allCases {
            let index = try #require(SpecimenRenderTests.page(of: role, in: pages))
            let lines = try rolePages(from: index).flatMap { try rows($0) }
            var samples: [[String]] = []
            for row in lines {
                if let label = row.range(of: "theme ·") ?? row.range(of: "wider ·") {
                    samples.append(words(row[..<label.lowerBound]))
                } else if row.hasSuffix(" 0 pt"), row.hasPrefix("S") {
                    samples.append(words(row.dropLast(5)))
                }
            }
            #expect(samples.count == 3, "\(name) \(role): \(lines)")
            #expect(samples.allSatisfy { Self.isWordPrefix($0, of: sample) }, "\(name) \(role): \(samples)")
            #expect(Set(samples.map { $0.joined(separator: " ") }).count == 1, "\(name) \(role): \(samples)")
            // The one-line Latin sample: the row after LATIN · HANGUL (tracked, so poppler may
            // space its letters), whole words on one row, the Hangul sample on the next.
            let latin = try #require(lines.firstIndex { $0.filter { $0 != " " }.hasPrefix("LATIN") })
            #expect(Self.isWordPrefix(words(lines[latin + 1][...]), of: sample), "\(name) \(role): \(lines[latin + 1])")
            #expect(lines[latin + 2].first == "다", "\(name) \(role): wrapped: \(lines[latin + 2])")
        }
        let waterfall = try #require(pages.firstIndex { $0.lines.first?.text == "Waterfall" })
        // From the first size's row on, every row is a size's: one that wrapped would not be.
        let allRows = try rows(waterfall)
        let first = try #require(allRows.firstIndex { $0.hasPrefix("6 pt ") })
        let sizeRows = allRows[first...]
        #expect(sizeRows.count == SpecimenBuilder.waterfallSizes.count, "\(sizeRows)")
        let text = sample + " " + SpecimenBuilder.Settings.defaultHangulSample
        for row in sizeRows {
            let rowWords = words(row[...])
            #expect(rowWords.count > 2 && rowWords[1] == "pt", "\(row)")
            #expect(Self.isWordPrefix(Array(rowWords.dropFirst(2)), of: text), "\(name): \(row)")
        }
    }
}
