import Foundation
import PangoCairoBackend
import Styling
import TestSupport
import Testing
import Typesetter
import Typography

@testable import Specimen

/// Renders specimens through the real pipeline and reads them back with poppler-utils and qpdf.
@Suite(.serialized) struct SpecimenRenderTests {
    static let folder: String = {
        let path = Scratch.path("specimen-tests")
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    static func render(_ theme: String, guides: Bool = false, name: String? = nil, sizeCategory: SizeCategory? = nil)
        throws -> (pdf: String, theme: Theme)
    {
        let pdf =
            folder
            + "/\(name ?? URL(fileURLWithPath: theme).deletingPathExtension().lastPathComponent)"
            + "\(guides ? "-guides" : "")\(sizeCategory?.rawValue ?? "").pdf"
        let request = ThemeRequest(theme: theme, sizeCategory: sizeCategory)
        _ = try Typesetter.renderSpecimen(request: request, options: SpecimenOptions(guides: guides), to: pdf)
        let (prepared, _) = try Typesetter.prepareTheme(request)
        return (pdf, prepared)
    }

    /// Index (0-based) of the role's own page: its heading line is the role's name and its
    /// caption reads `Role NN of 10`.
    static func page(of role: TextRole, in pages: [PDFProbe.Page]) -> Int? {
        let number = String(format: "%02d", TextRole.allCases.firstIndex(of: role)! + 1)
        return pages.firstIndex { page in
            page.lines.contains { $0.text == role.displayName }
                && page.lines.contains { $0.text.hasPrefix("Role \(number) of 10") }
        }
    }

    /// White space runs collapsed to one space (table cells wrap in `pdftotext -layout`).
    static func collapsed(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// Ascent and descent ÷ size of the style's primary face, measured at the style's size.
    static func naturalRatio(_ style: TextStyle) -> (ascent: Double, descent: Double) {
        let m = PangoShaper().metrics(of: FontSpec(families: style.families, weight: style.weight, size: style.size))
        return (m.ascent / style.size, m.descent / style.size)
    }

    @Test(arguments: ["default", "hig", "pretendard"])
    func printedValuesEqualTheTheme(themeName: String) throws {
        let (pdf, theme) = try Self.render(themeName)
        #expect(try PDFProbe.run("qpdf", ["--check", pdf]).status == 0)
        let pages = try PDFProbe.layout(pdf)
        for role in TextRole.allCases {
            let style = theme[role]
            let index = try #require(Self.page(of: role, in: pages), "no page for \(role.displayName)")
            let text = Self.collapsed(try PDFProbe.text(pdf, page: index + 1))
            let size = String(format: "%g", style.size)
            #expect(text.contains("\(size) pt"), "\(themeName) \(role.displayName): size \(size) pt")
            #expect(
                text.contains("\(style.weight.name) \(style.weight.rawValue)"),
                "\(themeName) \(role.displayName): weight")
            #expect(text.contains(style.primaryFamily))
            let ratio = Self.naturalRatio(style)
            let natural = (ratio.ascent + ratio.descent) * style.size
            let step = style.lineHeight?.step(size: style.size, naturalHeight: natural) ?? natural
            #expect(
                text.contains("\(Format.number(step, decimals: 2)) pt"),
                "\(themeName) \(role.displayName): line height \(step)")
            #expect(text.contains("\(Format.number(step / style.size, decimals: 2)) × size"))
            if let tracking = style.tracking {
                let pt = tracking.points(atSize: style.size)
                #expect(
                    text.contains("\(Format.signed(pt, decimals: 2)) pt"),
                    "\(themeName) \(role.displayName): tracking \(pt)")
                let percent = "\(Format.signed(pt / style.size * 100, decimals: 2))%"
                #expect(
                    text.replacingOccurrences(of: " ", with: "").contains(percent),
                    "\(themeName) \(role.displayName): \(percent)")
            }
            #expect(text.contains(style.relativeTo.map { "relative to \($0.rawValue)" } ?? "fixed size"))
        }
    }

    /// Every sample word on a role's page is set at the role's size: its box (ascent + descent of
    /// its face, as pdftotext computes it) is the theme's size × the face's natural-height ratio.
    @Test(arguments: ["default", "hig"])
    func sampleGlyphsHaveTheRoleSize(themeName: String) throws {
        let (pdf, theme) = try Self.render(themeName)
        let pages = try PDFProbe.layout(pdf)
        for role in TextRole.allCases {
            let style = theme[role]
            let index = try #require(Self.page(of: role, in: pages))
            let samples = pages[index].words.filter { $0.text == "Sphinx" }
            #expect(samples.count >= 4, "\(role.displayName): Latin sample and three tracking lines")
            let ratio = Self.naturalRatio(style)
            for word in samples {
                let measuredSize = word.height / (ratio.ascent + ratio.descent)
                #expect(
                    abs(measuredSize - style.size) < 0.02 * style.size + 0.05,
                    "\(themeName) \(role.displayName): sample at \(measuredSize) pt, theme says \(style.size)")
            }
        }
    }

    /// At a large size category the samples grow with Dynamic Type while the sheet's own
    /// captions stay at the Large size, so it remains readable.
    @Test func samplesFollowTheSizeCategoryAndCaptionsDoNot() throws {
        let (pdf, theme) = try Self.render("hig", sizeCategory: .accessibility3)
        let large = try Typesetter.prepareTheme(ThemeRequest(theme: "hig")).0
        let pages = try PDFProbe.layout(pdf)
        for role in [TextRole.title, .body, .caption2] {
            let style = theme[role]
            #expect(style.size > large[role].size * 1.5, "AX3 is larger than Large")
            let index = try #require(Self.page(of: role, in: pages))
            let ratio = Self.naturalRatio(style)
            for word in pages[index].words where word.text == "Sphinx" {
                #expect(
                    abs(word.height / (ratio.ascent + ratio.descent) - style.size) < 0.02 * style.size + 0.05,
                    "\(role.displayName)")
            }
            let caption = try #require(pages[index].words.first { $0.text == "Role" })
            let captionRatio = Self.naturalRatio(large[.caption2])
            #expect(
                abs(caption.height / (captionRatio.ascent + captionRatio.descent) - large[.caption2].size) < 0.2,
                "caption stays at Large")
        }
    }

    /// With --guides, a baseline rule (the red 0.4 pt guide) sits under every Latin sample line,
    /// within 0.25 pt of the baseline read from the word box (bottom − descent × size).
    @Test func guideLinesSitOnTheBaselines() throws {
        let (pdf, theme) = try Self.render("hig", guides: true)
        let pages = try PDFProbe.layout(pdf)
        let segments = try PDFProbe.horizontalSegments(pdf, pageHeight: theme.page.paper.height)
        let baselineColor = [0xD0, 0x45, 0x3A].map { Double($0) / 255 }
        var checked = 0
        for role in TextRole.allCases {
            let style = theme[role]
            let index = try #require(Self.page(of: role, in: pages))
            let guides = segments.filter {
                $0.page == index + 1 && zip($0.color, baselineColor).allSatisfy { abs($0 - $1) < 0.01 }
            }
            #expect(!guides.isEmpty, "\(role.displayName): no baseline guides")
            let descent = Self.naturalRatio(style).descent * style.size
            // The Latin sample (the first "Sphinx" line) has guides; tracking lines do not.
            let sample = try #require(pages[index].words.first { $0.text == "Sphinx" })
            let baseline = sample.yMax - descent
            let nearest = guides.map { abs($0.y - baseline) }.min() ?? .infinity
            #expect(nearest <= 0.25, "\(role.displayName): nearest baseline guide \(nearest) pt away")
            checked += 1
        }
        #expect(checked == 10)
        // The guides also draw ascent, descent, x-height and cap-height rules.
        let colors = Set(segments.map { $0.color.map { Int(($0 * 255).rounded()) } })
        #expect(
            colors.contains([0x7F, 0xA7, 0xE0]) && colors.contains([0xE0, 0x7F, 0x7F])
                && colors.contains([0x6C, 0xBF, 0x84]))
    }

    /// The Dynamic Type table: a role's row is its size × Apple's ratio; for `hig`, whose roles
    /// are Apple's text styles at Large, the rows equal Apple's table (`DynamicType.size(of:in:)`).
    @Test(arguments: ["hig", "default"])
    func dynamicTypeTableMatchesApplesTable(themeName: String) throws {
        let (pdf, theme) = try Self.render(themeName)
        let pages = try PDFProbe.layout(pdf)
        let index = try #require(pages.firstIndex { $0.lines.contains { $0.text == "Dynamic Type" } })
        let lines = try PDFProbe.text(pdf, page: index + 1).split(separator: "\n").map {
            $0.split(separator: " ").map(String.init)
        }
        func row(_ name: String) -> [String]? {
            lines.first { $0.first == name && $0.count == 13 }.map { Array($0.dropFirst()) }
        }
        for role in TextRole.allCases {
            let style = theme[role]
            guard let relativeTo = style.relativeTo else { continue }
            let cells = try #require(row(role.displayName), "no Dynamic Type row for \(role.displayName)")
            let expected = SizeCategory.allCases.map { Format.number(style.scaled(to: $0).size, decimals: 1) }
            #expect(cells == expected, "\(role.displayName)")
            if themeName == "hig" && role != .display {
                #expect(
                    cells
                        == SizeCategory.allCases.map {
                            Format.number(DynamicType.size(of: relativeTo, in: $0), decimals: 1)
                        })
            }
        }
        // The reference rows are Apple's table itself.
        let body = try #require(row("body"))
        #expect(body == SizeCategory.allCases.map { Format.number(DynamicType.size(of: .body, in: $0), decimals: 1) })
        #expect(body.first == "14" && body.last == "53")
    }

    /// A Body role set in a Latin-only monospace font: the coverage table says Hangul is not
    /// in it and names the fallback that draws it.
    @Test func coverageTableDetectsALatinOnlyFont() throws {
        let themePath = Self.folder + "/latin-only.json"
        try #"{"name": "latin-only", "extends": "default", "roles": {"Body": {"family": ["DejaVu Sans Mono"]}}}"#
            .write(toFile: themePath, atomically: false, encoding: .utf8)
        let (pdf, _) = try Self.render(themePath)
        let pages = try PDFProbe.layout(pdf)
        let index = try #require(pages.firstIndex { $0.lines.contains { $0.text == "Glyph coverage" } })
        let text = try PDFProbe.text(pdf, page: index + 1)
        let flat = Self.collapsed(text)
        // The Hangul column of the Body row, cut out of the laid-out text by character position.
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0) }
        let header = try #require(lines.firstIndex { String($0).contains("Hangul") && String($0).contains("Digits") })
        let headerText = String(lines[header])
        let from = headerText.distance(from: headerText.startIndex, to: headerText.range(of: "Hangul")!.lowerBound)
        let to = headerText.distance(from: headerText.startIndex, to: headerText.range(of: "Digits")!.lowerBound)
        let fontColumn = headerText.distance(from: headerText.startIndex, to: headerText.range(of: "Font")!.lowerBound)
        let body = try #require(lines.firstIndex { String($0).trimmingCharacters(in: .whitespaces).hasPrefix("Body ") })
        var cell = ""
        for (offset, line) in lines[body...].enumerated() {
            // The row goes on while its Role column is blank (wrapped cells).
            let roleColumn = String(line[0..<min(fontColumn, line.count)]).trimmingCharacters(in: .whitespaces)
            if line.isEmpty || (offset > 0 && !roleColumn.isEmpty) { break }
            cell += " " + String(line[min(from, line.count)..<min(to, line.count)])
        }
        cell = Self.collapsed(cell)
        #expect(cell.contains("23 of 23 not in DejaVu Sans Mono"), "Hangul is not in the Body font: \(cell)")
        #expect(
            cell.contains("→ Noto Sans CJK") && cell.contains("(system fallback)"),
            "the fallback that draws it is named: \(cell)")
        let bodyLine = String(lines[body])
        #expect(bodyLine.contains("✓ DejaVu"), "Latin is covered by the primary face")
        // Inter roles find Hangul in their theme's own fallback.
        // (The cell may wrap after "not in", so the family is matched separately.)
        #expect(flat.contains("23 of 23 not in") && flat.contains("(theme fallback)"))
    }

    @Test func missingTemplateAndBadTemplateAreErrors() throws {
        let bad = Self.folder + "/bad.md"
        try "{{#roles}} unclosed".write(toFile: bad, atomically: false, encoding: .utf8)
        #expect(throws: TypesetError.self) {
            try Typesetter.renderSpecimen(
                request: ThemeRequest(), options: SpecimenOptions(templatePath: bad), to: Self.folder + "/bad.pdf")
        }
        #expect(!FileManager.default.fileExists(atPath: Self.folder + "/bad.pdf"))
    }

    /// The code page: three sample blocks in the theme's code style, and a legend naming every
    /// token style in its own colour (and weight), read back from the PDF's fill colours, for
    /// the built-in light style and a theme that picks the dark one.
    @Test(arguments: ["light", "dark"])
    func codePageShowsTheThemesTokenStyles(style: String) throws {
        let themeFile = Self.folder + "/code-\(style).json"
        try #"{"extends": "default", "code": {"style": "\#(style)"}}"#
            .write(toFile: themeFile, atomically: false, encoding: .utf8)
        let (pdf, theme) = try Self.render(themeFile, name: "code-\(style)")
        #expect(theme.code.name == style)
        let stretches = try PDFColoredText.read(pdf)
        let page = try #require(stretches.first { $0.text.hasPrefix("Fenced code in") }?.page, "no code page")
        let onPage = stretches.filter { $0.page == page }
        let words = try PDFProbe.text(pdf)
        for sample in ["def greet(names", "struct Point: Equatable", "\"tracking\": null"] {
            #expect(words.contains(sample), "\(sample) is missing")
        }
        func hex(_ token: CodeToken) throws -> String {
            try #require(theme.code.style(for: token)).color.hex.lowercased()
        }
        // The legend: every token the style colours, its name in its colour, bold where it is.
        for token in CodeToken.allCases {
            guard let tokenStyle = theme.code.style(for: token) else { continue }
            let named = onPage.filter { $0.text.hasPrefix(token.rawValue) }
            #expect(
                named.contains { $0.color == tokenStyle.color.hex.lowercased() && $0.bold == tokenStyle.bold },
                "\(token.rawValue) should be \(tokenStyle.color.hex), bold \(tokenStyle.bold): \(named)")
            #expect(onPage.contains { $0.text.contains(tokenStyle.color.hex) }, "\(token)'s colour is printed")
        }
        // The samples: keywords, strings, numbers and comments of the three languages.
        let expected: [(String, CodeToken)] = [
            ("def", .keyword), ("struct", .keyword), ("\"light\"", .string), ("72.5", .number),
            ("# Greet everyone on the list.", .comment), ("// same height", .comment), ("10.5", .number),
        ]
        for (fragment, token) in expected {
            let colours = Set(onPage.filter { $0.text.contains(fragment) }.map(\.color))
            #expect(colours.contains(try hex(token)), "\(fragment) should be \(token): \(colours)")
        }
    }

    /// The legend of a dark code style is set on the style's panel, not on the paper: each
    /// token's name stands on the panel colour (the most common colour under its box, read from
    /// the page rasterized at 144 dpi), so it reads as the code does, however light its colour.
    /// Light token colours on white paper are what this guards against.
    @Test(arguments: ["dark", "dracula", "solarized-dark", "github-dark"])
    func aDarkStylesLegendStandsOnItsPanel(style: String) throws {
        let themeFile = Self.folder + "/legend-\(style).json"
        try #"{"extends": "default", "code": {"style": "\#(style)"}}"#
            .write(toFile: themeFile, atomically: false, encoding: .utf8)
        let (pdf, theme) = try Self.render(themeFile, name: "legend-\(style)")
        let panel = theme.code.effectiveBackground(in: theme)
        let stretches = try PDFColoredText.read(pdf)
        let page = try #require(stretches.first { $0.text.hasPrefix("Fenced code in") }?.page, "no code page")
        let picture = Self.folder + "/legend-\(style)"
        _ = try PDFProbe.run("pdftoppm", ["-f", "\(page)", "-l", "\(page)", "-r", "144", "-singlefile", pdf, picture])
        let image = try #require(NetpbmImage(path: picture + ".ppm"))
        let words = try PDFProbe.words(pdf).filter { $0.page == page }
        var checked = 0
        for token in CodeToken.allCases where theme.code.style(for: token) != nil {
            // The legend's word is the one after the samples: the last on the page with that text.
            guard let word = words.last(where: { $0.text == token.rawValue }) else { continue }
            var counts: [[UInt8]: Int] = [:]
            for y in Int(word.yMin * 2)..<Int(word.yMax * 2) where y >= 0 && y < image.height {
                for x in Int(word.xMin * 2)..<Int(word.xMax * 2) where x >= 0 && x < image.width {
                    let start = (y * image.width + x) * 3
                    counts[Array(image.samples[start..<start + 3]), default: 0] += 1
                }
            }
            let common = try #require(counts.max { $0.value < $1.value }?.key)
            let expected = [panel.red, panel.green, panel.blue].map { Int(($0 * 255).rounded()) }
            let near = zip(common, expected).allSatisfy { abs(Int($0) - $1) <= 6 }
            #expect(near, "\(style): '\(token.rawValue)' stands on \(common), not the panel \(expected)")
            checked += 1
        }
        #expect(checked >= 8, "\(style): \(checked) legend words found")
    }
}

/// The samples cut to a role's line.
@Suite struct SampleCutTests {
    /// A sample is cut at a word boundary, never after a word of punctuation alone (a spaced
    /// dash or an opening quote would be left at the line's end, with what it belongs to cut).
    @Test(arguments: [
        ("다람쥐 헌 쳇바퀴에 타고파 — Sphinx of black quartz", 17, "다람쥐 헌 쳇바퀴에 타고파"),
        ("Sphinx of black – quartz judge", 17, "Sphinx of black"),
        ("Quick brown “ fox", 14, "Quick brown"),
        ("Short sample", 40, "Short sample"),
        ("— — —", 3, "—"),
    ])
    func aCutSampleEndsOnAWord(text: String, count: Int, expected: String) {
        #expect(Format.truncated(text, toCharacters: count) == expected)
    }
}
