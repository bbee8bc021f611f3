import Foundation
import TestSupport
import Testing
import Typesetter
import Typography

/// A theme whose `math` family has no OpenType MATH table (a text face) warns once, at the first
/// formula, naming the family and the math font used instead; the formulas are drawn in that
/// font. A family with a MATH table is used as it is, without a warning. The family is looked
/// up among the render's fonts, its font folders too, as text families are.
@Suite(.serialized) struct MathFamilyFallbackTests {
    static let markdown = """
        # Formulas

        Text $a + b$ and $\\frac{1}{2}$ here.

        More $x^2$ and

        $$
        \\sqrt{y}
        $$
        """

    func render(math family: String, name: String) throws -> (pdf: String, warnings: [String]) {
        var theme = Theme.default
        theme.families["math"] = [family]
        let (pdf, report) = try Render.markdown(Self.markdown, name: name, options: RenderOptions(theme: theme))
        return (pdf, report.diagnostics.map(\.description))
    }

    @Test(arguments: ["Inter", "DejaVu Sans Mono", "Noto Sans CJK KR"])
    func aTextFaceWarnsOnceAtTheFirstFormulaAndFallsBack(_ family: String) throws {
        let name = "math-family-" + family.replacingOccurrences(of: " ", with: "-")
        let (pdf, warnings) = try render(math: family, name: name)
        let table = warnings.filter { $0.contains("no OpenType MATH table") }
        #expect(table.count == 1, "\(warnings)")
        let warning = try #require(table.first)
        // `file:line:column` of the first formula: line 3, its opening `$`.
        #expect(warning.hasPrefix("\(name).md:3:6: warning: "), "\(warning)")
        #expect(warning.contains("'\(family)'") && warning.contains("'DejaVu Math TeX Gyre'"), "\(warning)")
        #expect(try PDFProbe.fonts(pdf).contains { $0.contains("DejaVuMathTeXGyre") })
        #expect(try PDFProbe.qpdfClean(pdf))
    }

    @Test(arguments: [("Latin Modern Math", "LatinModernMath"), ("TeX Gyre Pagella Math", "TeXGyrePagellaMath")])
    func aMathFaceIsUsedWithoutAWarning(_ family: String, _ embedded: String) throws {
        let (pdf, warnings) = try render(math: family, name: "math-family-\(embedded)")
        #expect(!warnings.contains { $0.contains("MATH table") }, "\(warnings)")
        let fonts = try PDFProbe.fonts(pdf)
        #expect(fonts.contains { $0.contains(embedded) }, "\(fonts)")
        #expect(!fonts.contains { $0.contains("DejaVuMathTeXGyre") }, "\(fonts)")
    }

    /// A copy of the math font at `path` named `family`, in a folder of its own.
    func folder(with path: String, family: String, name: String) throws -> String {
        let folder = try Render.scratchFolder(name)
        try Support.renamedFont(at: path, family: family).write(to: URL(fileURLWithPath: folder + "/Math.otf"))
        return folder
    }

    static let pagella = "/usr/share/texmf/fonts/opentype/public/tex-gyre-math/texgyrepagella-math.otf"
    static let termes = "/usr/share/texmf/fonts/opentype/public/tex-gyre-math/texgyretermes-math.otf"

    /// A math family registered only in the render's font folder is the one formulas are set
    /// in: it was looked up among the installed fonts alone, and fontconfig's match for a family
    /// it does not have (DejaVu Sans) was taken, without a word.
    @Test func aMathFamilyInAFontFolderIsUsed() throws {
        let family = "Folder Math \(UInt32.random(in: 0..<1_000_000))"
        let fonts = try folder(with: Self.pagella, family: family, name: "math-folder")
        defer { try? FileManager.default.removeItem(atPath: fonts) }
        var theme = Theme.default
        theme.families["math"] = [family]
        let options = RenderOptions(themeRequest: ThemeRequest(fontFolders: [fonts]), theme: theme)
        let (pdf, report) = try Render.markdown(Self.markdown, name: "math-family-folder", options: options)
        let embedded = try PDFProbe.fonts(pdf)
        // The copy's PostScript name (``Support/renamedFont(at:family:)``).
        let postScript = family.replacingOccurrences(of: " ", with: "") + "-Regular"
        #expect(embedded.contains { $0.contains(postScript) }, "\(embedded)")
        #expect(!embedded.contains { $0.contains("DejaVuMathTeXGyre") }, "\(embedded)")
        #expect(!report.diagnostics.contains { $0.message.contains("math family") }, "\(report.diagnostics)")
    }

    /// A math family nowhere to be found is named, at the first formula, with the font used
    /// instead; it was neither named nor replaced by the default math font (its text faces'
    /// MATH table, where fontconfig's stand-in had one, set the formulas).
    @Test(arguments: ["Nowhere Math", "STIX Two Math"])
    func aMissingMathFamilyIsNamedAtTheFirstFormula(_ family: String) throws {
        var theme = Theme.default
        theme.families["math"] = [family]
        let name = "math-family-missing-" + family.replacingOccurrences(of: " ", with: "-")
        let (pdf, report) = try Render.markdown(Self.markdown, name: name, options: RenderOptions(theme: theme))
        let warnings = report.diagnostics.map(\.description).filter { $0.contains("math family") }
        #expect(warnings.count == 1, "\(report.diagnostics)")
        let warning = try #require(warnings.first)
        #expect(
            warning.hasPrefix("\(name).md:3:6: warning: the math family '\(family)' is not installed"), "\(warning)")
        #expect(warning.contains("'DejaVu Math TeX Gyre'"), "\(warning)")
        #expect(try PDFProbe.fonts(pdf).contains { $0.contains("DejaVuMathTeXGyre") })
    }

    /// In a list of math families, the first there is sets the formulas (as a role's list of
    /// families falls back), the missing one named: the first was used alone.
    @Test func aMathFamilyListFallsBackToTheFirstThereIs() throws {
        var theme = Theme.default
        theme.families["math"] = ["Nowhere Math", "Latin Modern Math"]
        let (pdf, report) = try Render.markdown(
            Self.markdown, name: "math-family-list", options: RenderOptions(theme: theme))
        let fonts = try PDFProbe.fonts(pdf)
        #expect(fonts.contains { $0.contains("LatinModernMath") }, "\(fonts)")
        #expect(!fonts.contains { $0.contains("DejaVuMathTeXGyre") }, "\(fonts)")
        let messages = report.diagnostics.map(\.message)
        #expect(
            messages.contains("math: family 'Nowhere Math' not found; formulas are set in 'Latin Modern Math'"),
            "\(messages)")
    }

    /// Two renders at once whose font folders give one family name to two different math
    /// fonts each set their formulas in their own: each PDF is the one its render makes alone.
    /// Math fonts were kept for the process by family name alone, so a render took the face
    /// another had loaded.
    @Test func rendersWithTheirOwnFontFoldersKeepTheirOwnMathFonts() async throws {
        let family = "Shared Math \(UInt32.random(in: 0..<1_000_000))"
        let pagella = try folder(with: Self.pagella, family: family, name: "math-shared-a")
        let termes = try folder(with: Self.termes, family: family, name: "math-shared-b")
        defer {
            try? FileManager.default.removeItem(atPath: pagella)
            try? FileManager.default.removeItem(atPath: termes)
        }
        var theme = Theme.default
        theme.families["math"] = [family]
        let fixed = Date(timeIntervalSince1970: 1_700_000_000)
        let withPagella = RenderOptions(
            themeRequest: ThemeRequest(fontFolders: [pagella]), theme: theme, creationDate: fixed)
        let withTermes = RenderOptions(
            themeRequest: ThemeRequest(fontFolders: [termes]), theme: theme, creationDate: fixed)
        let alone = (
            pagella: try await Typesetter.render(markdown: Self.markdown, options: withPagella).data,
            termes: try await Typesetter.render(markdown: Self.markdown, options: withTermes).data
        )
        #expect(alone.pagella != alone.termes, "the two faces set the formulas differently")
        for _ in 0..<2 {
            async let a = Typesetter.render(markdown: Self.markdown, options: withTermes)
            async let b = Typesetter.render(markdown: Self.markdown, options: withPagella)
            let (termesPDF, pagellaPDF) = try await (a.data, b.data)
            #expect(termesPDF == alone.termes)
            #expect(pagellaPDF == alone.pagella)
        }
    }

    /// A document without formulas says nothing about its theme's math family.
    @Test func noFormulaNoWarning() throws {
        var theme = Theme.default
        theme.families["math"] = ["Inter"]
        let (_, report) = try Render.markdown(
            "Prices $5 and $10 stay text.\n", name: "math-family-none", options: RenderOptions(theme: theme))
        #expect(!report.diagnostics.contains { $0.message.contains("MATH table") })
    }
}
