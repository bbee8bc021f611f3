import Foundation
import Layout
import Styling
import TestSupport
import Testing
import Typography

@testable import PangoCairoBackend

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

    @Test func aFolderIsSeenByTheSessionsOfItsConfigurationAlone() throws {
        let source = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"
        try #require(FileManager.default.fileExists(atPath: source))
        let family = "Typeset Test Serif \(UInt32.random(in: 0..<1_000_000))"
        let dir = try Support.tempDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Support.renamedFont(at: source, family: family).write(to: dir.appendingPathComponent("TestSerif.ttf"))

        let installed = PangoShaper()
        let style = Support.style([family], size: 20)
        let sample = "Registered serif face"
        let before = installed.shape(Support.paragraph(sample, style), width: nil).lines[0].width

        let configuration = try FontConfiguration.including(folders: [dir.path]).configuration
        #expect(try FontConfiguration.including(folders: [dir.path]).configuration === configuration, "made once")
        let session = FontSession(configuration)
        #expect(FontLibrary.families(in: session).contains { $0.name == family })
        #expect(FontLibrary.resolve(style.font, in: session).familyFound)
        let shaper = PangoShaper(session: session)
        let after = shaper.shape(Support.paragraph(sample, style), width: nil).lines[0].width
        let serif = shaper.shape(Support.paragraph(sample, Support.style(["DejaVu Serif"], size: 20)), width: nil)
            .lines[0].width
        #expect(abs(after - serif) < 0.01)
        #expect(abs(before - after) > 0.5)
        // The installed fonts alone still lack it, before and after.
        #expect(!FontLibrary.resolve(style.font).familyFound)
        #expect(!FontLibrary.families().contains { $0.name == family })
        let again = installed.shape(Support.paragraph(sample, style), width: nil).lines[0].width
        #expect(abs(again - before) < 0.01)
    }

    @Test func aSessionsFontMapGoesBackOnlyWhenNothingMadeWithItIsLeft() throws {
        // A configuration of its own (one font), so no other test borrows its font maps.
        let dir = try Support.tempDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
        try #require(FileManager.default.fileExists(atPath: source))
        let family = "Typeset Test Sans \(UInt32.random(in: 0..<1_000_000))"
        try Support.renamedFont(at: source, family: family).write(to: dir.appendingPathComponent("TestSans.ttf"))
        let configuration = try FontConfiguration.including(folders: [dir.path]).configuration
        var first: FontSession? = FontSession(configuration)
        let firstSetup = try #require(first?.setup)
        let second = FontSession(configuration)
        #expect(second.setup !== firstSetup, "two sessions at once: two font maps")
        // Lines outlive their shaper and session: the font map stays theirs.
        var lines: [ShapedLine]? = PangoShaper(session: try #require(first)).shape(
            Support.paragraph("Kept lines", Support.style([family], size: 12)), width: nil
        ).lines
        first = nil
        let third = FontSession(configuration)
        #expect(third.setup !== firstSetup, "lines still hold the first font map")
        #expect(lines?.isEmpty == false)
        lines = nil
        let fourth = FontSession(configuration)
        #expect(fourth.setup === firstSetup, "given back once the lines are gone, and reused")
    }

    /// A font a document named under a root is read as it was checked: when the folder on its
    /// path is swapped for a symbolic link out of the root after the configuration is made
    /// (and before the face is first read), the face drawn is still the one inside. Both
    /// files name one family; the inside one is DejaVu Sans, the outside one DejaVu Serif.
    @Test func aDocumentsFontIsReadAsItWasChecked() throws {
        let dir = try Support.tempDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let root = dir.appendingPathComponent("root").path
        let folder = root + "/fonts/d"
        let outside = dir.appendingPathComponent("outside").path
        let manager = FileManager.default
        try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try manager.createDirectory(atPath: outside, withIntermediateDirectories: true)
        let family = "Typeset Checked \(UInt32.random(in: 0..<1_000_000))"
        let sans = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
        let serif = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"
        try Support.renamedFont(at: sans, family: family).write(to: URL(fileURLWithPath: folder + "/Face.ttf"))
        try Support.renamedFont(at: serif, family: family).write(to: URL(fileURLWithPath: outside + "/Face.ttf"))
        let configuration = try FontConfiguration.including(
            folders: [], documentFolders: [root + "/fonts"], within: [Sandbox.canonical(root)]
        ).configuration
        try manager.moveItem(atPath: folder, toPath: root + "/fonts/kept")
        try manager.createSymbolicLink(atPath: folder, withDestinationPath: outside)
        let sample = "Checked face"
        let shaper = PangoShaper(session: FontSession(configuration))
        let width = shaper.shape(Support.paragraph(sample, Support.style([family], size: 20)), width: nil).lines[0]
            .width
        let installed = PangoShaper()
        let sansWidth = installed.shape(Support.paragraph(sample, Support.style(["DejaVu Sans"], size: 20)), width: nil)
            .lines[0].width
        let serifWidth = installed.shape(
            Support.paragraph(sample, Support.style(["DejaVu Serif"], size: 20)), width: nil
        ).lines[0].width
        #expect(abs(sansWidth - serifWidth) > 0.5)
        #expect(abs(width - sansWidth) < 0.01, "\(width): sans \(sansWidth), serif \(serifWidth)")
    }

    @Test func unreadableFolderThrows() {
        #expect(throws: BackendError.self) { try FontConfiguration.including(folders: ["/nonexistent/fonts"]) }
    }
}
