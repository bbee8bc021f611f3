import CSyntaxHighlighting
import Foundation
import Typography

/// KSyntaxHighlighting's colour themes (the themes of Kate and Qt Creator: GitHub Light and
/// Dark, Solarized, Breeze, Dracula, Monokai…) as ``CodeStyle``s a theme file can name
/// (`"code": {"style": "github-light"}`).
public enum LibraryCodeStyles {
    /// Every library theme by the name a theme file writes: its name lowercased, words joined
    /// by hyphens (`GitHub Light` → `github-light`), read from the library once.
    public static let byName: [String: CodeStyle] = {
        var styles: [String: CodeStyle] = [:]
        var buffer = [CChar](repeating: 0, count: 256)
        for index in 0..<tshl_theme_count() {
            let length = tshl_theme_name(index, &buffer, Int32(buffer.count))
            guard length > 0 else { continue }
            let libraryName = String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let name = fileName(forLibraryName: libraryName)
            if let style = style(libraryName: libraryName, name: name) { styles[name] = style }
        }
        return styles
    }()

    /// The names ``byName`` holds, sorted.
    public static var names: [String] { byName.keys.sorted() }

    /// The name a theme file writes for the library theme `libraryName`.
    public static func fileName(forLibraryName libraryName: String) -> String {
        libraryName.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: "-")
    }

    /// The library theme `libraryName` as a style named `name`: its editor background, its
    /// Normal text colour, and each default text style it colours as the token kind it stands
    /// for (``CodeHighlighter/token(forTextStyle:)``; numbers take DecVal's style), with its
    /// bold, italic and background (one that differs from the editor's).
    static func style(libraryName: String, name: String) -> CodeStyle? {
        var styles = [TSThemeStyle](repeating: TSThemeStyle(), count: 31)
        var background: UInt32 = 0
        guard tshl_theme_styles(libraryName, &styles, &background) == 1 else { return nil }
        func color(_ value: UInt32) -> RGBAColor {
            RGBAColor(
                red: Double((value >> 16) & 0xFF) / 255, green: Double((value >> 8) & 0xFF) / 255,
                blue: Double(value & 0xFF) / 255)
        }
        var tokens: [CodeToken: CodeTokenStyle] = [:]
        for (index, entry) in styles.enumerated() where entry.has_color == 1 {
            guard let token = CodeHighlighter.token(forTextStyle: index), tokens[token] == nil else { continue }
            // A token background equal to the panel's draws nothing that shows.
            let tokenBackground =
                entry.has_background == 1 && entry.background != background ? color(entry.background) : nil
            tokens[token] = CodeTokenStyle(
                color: color(entry.color), bold: entry.bold == 1, italic: entry.italic == 1,
                background: tokenBackground)
        }
        let text = styles[0].has_color == 1 ? color(styles[0].color) : nil
        return CodeStyle(name: name, background: color(background), text: text, tokens: tokens)
    }
}
