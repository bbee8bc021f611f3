import Foundation
import Layout
import PangoCairoBackend
import Styling
import TestSupport
import Testing
import Typography

@Suite struct FontLibraryTests {
    @Test func familiesListInterWithNineWeights() {
        let families = FontLibrary.families()
        let inter = families.first { $0.name == "Inter" }
        #expect(inter != nil)
        let weights = Set(inter?.faces.filter { !$0.italic && !$0.synthesized }.map(\.weight.rawValue) ?? [])
        #expect(weights.isSuperset(of: [100, 200, 300, 400, 500, 600, 700, 800, 900]))
        #expect(families.contains { $0.name == "Noto Sans CJK KR" })
    }

    @Test func resolveWarnsAboutMissingFamilyWeightAndItalic() {
        let missing = FontLibrary.resolve(FontSpec(families: ["Pretendard", "Inter"], size: 12))
        #expect(!missing.familyFound)
        #expect(missing.warnings.first?.hasPrefix("family 'Pretendard' not found; using '") == true)

        let light = FontLibrary.resolve(FontSpec(families: ["Noto Sans CJK KR"], weight: .light, size: 12))
        #expect(light.familyFound)
        #expect(light.weight == .regular)
        #expect(light.warnings == ["no weight 300 in 'Noto Sans CJK KR', using 400"])

        let italic = FontLibrary.resolve(FontSpec(families: ["Noto Sans CJK KR"], italic: true, size: 12))
        #expect(italic.italicSynthesized)

        let exact = FontLibrary.resolve(FontSpec(families: ["Inter"], weight: .semibold, italic: true, size: 12))
        #expect(exact.familyFound && exact.weight == .semibold && exact.italic && exact.warnings.isEmpty)
    }

    @Test func coverageNamesTheFallbackFamilyPerCharacter() {
        let coverage = FontLibrary.coverage(
            of: FontSpec(families: ["Inter", "Noto Sans CJK KR"], size: 12), text: "A가1")
        #expect(coverage.map(\.character) == ["A", "가", "1"])
        #expect(coverage.map(\.family) == ["Inter", "Noto Sans CJK KR", "Inter"])
    }

    @Test func registeredFolderIsSeenEvenByAnExistingShaper() throws {
        let source = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"
        try #require(FileManager.default.fileExists(atPath: source))
        let family = "Typeset Test Serif \(UInt32.random(in: 0..<1_000_000))"
        let dir = try Support.tempDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Support.renamedFont(at: source, family: family).write(to: dir.appendingPathComponent("TestSerif.ttf"))

        let shaper = PangoShaper()
        let style = Support.style([family], size: 20)
        let sample = "Registered serif face"
        let before = shaper.shape(Support.paragraph(sample, style), width: nil).lines[0].width
        #expect(!FontLibrary.resolve(style.font).familyFound)

        try FontLibrary.registerFontFolder(dir.path)

        #expect(FontLibrary.families().contains { $0.name == family })
        #expect(FontLibrary.resolve(style.font).familyFound)
        let after = shaper.shape(Support.paragraph(sample, style), width: nil).lines[0].width
        let serif = shaper.shape(Support.paragraph(sample, Support.style(["DejaVu Serif"], size: 20)), width: nil)
            .lines[0].width
        #expect(abs(after - serif) < 0.01)
        #expect(abs(before - after) > 0.5)
    }

    @Test func unreadableFolderThrows() {
        #expect(throws: BackendError.self) { try FontLibrary.registerFontFolder("/nonexistent/fonts") }
    }
}
