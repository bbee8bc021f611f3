import CodeHighlighting
import Foundation
import TestSupport
import Testing
import Typesetter
import Typography

/// Token backgrounds: a library code style that gives some token kinds a background of their
/// own (Gruvbox's Information, Warning and Alert) has each such token drawn on a rectangle of
/// that colour, as furniture (an artifact), behind the token's glyphs; and the contrast check
/// measures those tokens against their own background.
@Suite struct TokenBackgroundTests {
    /// A Python block whose comments hold alert words (KSyntaxHighlighting's `Alerts`
    /// definition).
    static let markdown = "```python\ndef f(x):\n    # HACK FIXME NOTE here\n    return x\n```\n"

    /// A filled rectangle of a content stream: its fill colour (`r g b rg`), its box as written
    /// (x, y, width, height), and whether it is inside `/Artifact BMC … EMC`.
    struct Fill {
        var color: [Double]
        var box: [Double]
        var artifact: Bool
    }

    /// Every `x y w h re f` of the uncompressed content streams of `pdf`, in order, read
    /// operator by operator (Cairo writes a colour and a rectangle on one line).
    static func fills(_ pdf: String) throws -> [Fill] {
        var fills: [Fill] = []
        var color: [Double] = [0, 0, 0]
        var depth = 0
        var artifactDepth: Int?
        var box: [Double]?
        var operands: [String] = []
        for token in try PDFProbe.contentStreams(pdf).split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            let word = String(token)
            switch word {
            case "BDC", "BMC":
                depth += 1
                if operands.first == "/Artifact" { artifactDepth = depth }
            case "EMC":
                if artifactDepth == depth { artifactDepth = nil }
                depth -= 1
            case "rg":
                color = operands.suffix(3).compactMap(Double.init)
            case "re":
                box = operands.suffix(4).compactMap(Double.init)
            case "f":
                if let box { fills.append(Fill(color: color, box: box, artifact: artifactDepth != nil)) }
                box = nil
            default:
                if let first = word.first, first.isLetter || first == "'" || first == "\"" {
                    operands.removeAll()
                    box = word == "h" ? box : nil
                } else {
                    operands.append(word)
                }
                continue
            }
            operands.removeAll()
        }
        return fills
    }

    /// The library styles that give a token a background, with the tokens that have one.
    static var stylesWithTokenBackgrounds: [(name: String, style: CodeStyle)] {
        LibraryCodeStyles.names.compactMap { name in
            guard let style = LibraryCodeStyles.byName[name],
                CodeToken.allCases.contains(where: { style.tokens[$0]?.background != nil })
            else { return nil }
            return (name, style)
        }
    }

    @Test func gruvboxGivesItsAlertsABackground() throws {
        let style = try #require(LibraryCodeStyles.byName["gruvbox-dark"])
        for token in [CodeToken.information, .warning, .alert] {
            #expect(style.tokens[token]?.background != nil, "\(token)")
        }
        #expect(style.tokens[.keyword]?.background == nil)
    }

    /// In several styles, each alert word is drawn on an artifact rectangle that spans it, in
    /// the background of a token kind whose colour its glyphs are drawn in.
    @Test func tokenBackgroundsAreDrawnBehindTheirTokens() throws {
        let styles = Self.stylesWithTokenBackgrounds
        #expect(styles.count >= 2, "\(styles.map(\.name))")
        #expect(styles.contains { $0.name == "gruvbox-dark" })
        for (name, style) in styles.prefix(4) {
            let (read, _) = ThemeJudgement.read(LibraryCodeStyleTests.themeFile(name), file: "\(name).json")
            let theme = try #require(read)
            let (pdf, _) = try Render.markdown(
                Self.markdown, name: "code-token-background-\(name)", options: RenderOptions(theme: theme))
            // Word boxes from an untagged render, drawn alike: tagged, a code line that copies as
            // its source with its indentation reads as one word.
            var untagged = RenderOptions(theme: theme)
            untagged.tagged = false
            let (untaggedPDF, _) = try Render.markdown(
                Self.markdown, name: "code-token-background-\(name)-untagged", options: untagged)
            let fills = try Self.fills(pdf)
            let words = try PDFProbe.words(untaggedPDF)
            let stretches = try PDFColoredText.read(pdf)
            // The token kinds with a background, by the colours of their glyphs and background.
            let kinds = CodeToken.allCases.compactMap { token -> (glyphs: String, background: RGBAColor)? in
                guard let tokenStyle = style.style(for: token), let background = tokenStyle.background else {
                    return nil
                }
                return (tokenStyle.color.hex.lowercased(), background)
            }
            var drawn = 0
            for word in ["HACK", "FIXME", "NOTE"] {
                let box = try #require(words.first { $0.text == word }, "\(name): \(word)")
                guard let glyphs = stretches.first(where: { $0.text.contains(word) })?.color else { continue }
                // Several kinds may share a glyph colour (Gruvbox's three alert levels do).
                let expected = kinds.filter { $0.glyphs == glyphs }.map {
                    [$0.background.red, $0.background.green, $0.background.blue]
                }
                guard !expected.isEmpty else { continue }
                let behind = fills.filter { fill in
                    expected.contains { zip(fill.color, $0).allSatisfy { abs($0 - $1) < 0.003 } }
                        && fill.box[0] <= box.xMin + 0.5 && fill.box[0] + fill.box[2] >= box.xMax - 0.5
                }
                #expect(!behind.isEmpty, "\(name): no token background behind \(word) \(box)")
                #expect(behind.allSatisfy { $0.artifact }, "\(name): \(word)'s background is not an artifact")
                drawn += 1
            }
            #expect(drawn > 0, "\(name): no alert word is in a colour that has a background")
            #expect(try PDFProbe.qpdfClean(pdf))
        }
    }

    /// A style without token backgrounds draws no rectangle but its panel (the built-in
    /// light style: one fill a block, the panel, besides the content markers).
    @Test func aStyleWithoutTokenBackgroundsDrawsNone() throws {
        let (pdf, _) = try Render.markdown(Self.markdown, name: "code-token-background-none")
        let panel = Theme.default.color(named: "codeBackground") ?? RGBAColor(hex: "#F3F4F7")!
        let colored = try Self.fills(pdf).filter { fill in
            fill.color != [0, 0, 0]
                && !zip(fill.color, [panel.red, panel.green, panel.blue]).allSatisfy {
                    abs($0 - $1) < 0.003
                }
        }
        #expect(colored.isEmpty, "\(colored)")
    }

    /// The contrast check measures a token with a background against that background: white
    /// on black passes on a light panel, and black on black fails, named against black.
    @Test func theContrastCheckUsesTheTokensOwnBackground() {
        var theme = Theme.default
        theme.code.tokens[.alert] = CodeTokenStyle(
            color: RGBAColor(hex: "#FFFFFF")!, bold: true, background: RGBAColor(hex: "#000000")!)
        #expect(!theme.code.contrastFailures(theme: theme).contains { $0.token == .alert })
        theme.code.tokens[.alert]?.color = RGBAColor(hex: "#111111")!
        let failure = theme.code.contrastFailures(theme: theme).first { $0.token == .alert }
        #expect(failure?.message.contains("#111111 on #000000") == true, "\(String(describing: failure))")
    }

    /// A theme file gives a token a background with `background`; it reads back written.
    @Test func aThemeFileGivesATokenABackground() throws {
        let json = """
            {"extends": "default", "code": {"tokens": {"alert": {"color": "#FFFFFF", "background": "#A01E2B"}}}}
            """
        let (read, problems) = ThemeJudgement.read(Data(json.utf8), file: "alert.json")
        #expect(!problems.contains { $0.severity == .error }, "\(problems)")
        let theme = try #require(read)
        #expect(theme.code.tokens[.alert]?.background == RGBAColor(hex: "#A01E2B"))
        #expect(!problems.contains { $0.message.contains("code.tokens.alert") }, "\(problems)")
        let written = ThemeWriter.json(for: theme)
        let (back, _) = ThemeLoader.decode(Data(written.utf8), file: "written.json")
        #expect(back?.code.tokens[.alert]?.background == RGBAColor(hex: "#A01E2B"))
    }
}
