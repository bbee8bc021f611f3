import Testing

@testable import Typography

/// A role's OpenType features reach the SwiftUI export as the `Font` modifiers SwiftUI has
/// (`tnum` → `.monospacedDigit()`, `smcp` → `.lowercaseSmallCaps()`, `c2sc` →
/// `.uppercaseSmallCaps()`), and the others are named in a comment: the export dropped them
/// all, while the CSS and Compose exports wrote them.
@Suite struct SwiftUIExportFeaturesTests {
    @Test func featuresBecomeModifiersOrAreNamed() {
        #expect(ThemeExport.swiftUIFeatures(["tnum"]).modifiers == ".monospacedDigit()")
        #expect(
            ThemeExport.swiftUIFeatures(["smcp", "c2sc"]).modifiers == ".lowercaseSmallCaps().uppercaseSmallCaps()")
        let mixed = ThemeExport.swiftUIFeatures(["tnum", "ss01", "-kern", "liga=0", "calt=1"])
        #expect(mixed.modifiers == ".monospacedDigit()" && mixed.unsupported == ["ss01", "calt=1"], "\(mixed)")
        var theme = Theme.default
        var title = theme[.title]
        title.features = ["tnum", "ss01"]
        theme.styles[.title] = title
        let code = ThemeExport.swiftUI(theme, metrics: [:], source: "t.json")
        let line = code.split(separator: "\n").first { $0.contains("static let defaultTitle =") } ?? ""
        #expect(line.hasSuffix(".monospacedDigit()"), "\(line)")
        #expect(code.contains("// OpenType features ss01:"), "\(code)")
    }
}
