import Styling
import TestSupport
import Testing
import Typography

@testable import Layout
@testable import PangoCairoBackend

/// A code block is measured unwrapped before it is set (to widen or shrink one that overflows
/// the measure). Measured with its lines kept (``PangoShaper/naturalWidth(of:keepingLayout:)``)
/// and then set at a width it fits in, it is shaped once — no more layouts than setting it
/// alone takes — and set exactly as a shaper that never measured it sets it: the same lines,
/// glyphs, places and colours. Where the kept lines could differ (right-to-left text, centred
/// code, a line longer than a piece, a block wider than the width) it is shaped afresh.
@Suite struct KeptCodeTests {
    static let width = 450.0

    /// Code as Styling colours it: keywords bold in red, strings green, comments grey and
    /// italic, the rest black; `lines` joined with line ends, one run a token.
    static func block(_ lines: [String], alignment: TextAlignment = .left) -> StyledParagraph {
        let base = RunStyle(font: FontSpec(families: ["Noto Sans Mono"], size: 9.5))
        var keyword = base
        keyword.color = RGBAColor(red: 0.63, green: 0.12, blue: 0.17)
        keyword.font.weight = .bold
        var string = base
        string.color = RGBAColor(red: 0.1, green: 0.5, blue: 0.2)
        var comment = base
        comment.color = RGBAColor(red: 0.45, green: 0.45, blue: 0.45)
        comment.font.italic = true
        let keywords: Set<Substring> = ["def", "return", "for", "in", "if", "let", "func"]
        var runs: [StyledRun] = []
        func append(_ text: Substring, _ style: RunStyle) {
            guard !text.isEmpty else { return }
            if let last = runs.last, last.style == style {
                runs[runs.count - 1].text += text
            } else {
                runs.append(StyledRun(String(text), style: style))
            }
        }
        for (index, line) in lines.enumerated() {
            var rest = Substring(line)
            while let first = rest.first {
                if first == "#" {
                    append(rest, comment)
                    rest = ""
                } else if first == "\"", let close = rest.dropFirst().firstIndex(of: "\"") {
                    append(rest[...close], string)
                    rest = rest[rest.index(after: close)...]
                } else {
                    let end = rest.firstIndex { " \t()\"#".contains($0) } ?? rest.endIndex
                    let word = end == rest.startIndex ? rest.prefix(1) : rest[..<end]
                    append(word, keywords.contains(word) ? keyword : base)
                    rest = rest[word.endIndex...]
                }
            }
            if index < lines.count - 1 { append("\n", base) }
        }
        var style = ParagraphStyle(baseFont: base.font, alignment: alignment)
        style.breakAnywhere = true
        style.hangingIndent = 19
        return StyledParagraph(runs: runs, style: style)
    }

    static let python = [
        "def area(radius):", "    \"\"\"The area of a circle.\"\"\"", "    # pi times r squared",
        "    return 3.14159 * radius ** 2", "", "print(f\"{area(2):.2f}\", [1, 2, 3])",
    ]

    /// Whether each block's kept lines may be used, the block, and the width it is set at.
    static func cases() -> [(name: String, kept: Bool, paragraph: StyledParagraph, width: Double)] {
        let long = (0..<60).map { "    if x\($0) in seen: return \"item \($0)\"  # note \($0)" }
        return [
            ("python", true, block(python), width),
            ("hangul, emoji, tabs", true, block(["\tlet 이름 = \"한글 😀\"  # 주석 👍🏽", "\t\tfunc f() {}"]), width),
            ("sixty lines, many pieces", true, block(long), width),
            ("hebrew comment", false, block(["let x = 1", "# שלום עולם", "return x"]), width),
            ("centred", false, block(python, alignment: .center), width),
            ("wider than the width", false, block(python), 120),
            ("a line longer than a piece", false, block([String(repeating: "def x ", count: 120)]), 5_000),
        ]
    }

    /// What a line draws and where, and the colours painted over it.
    static func summary(_ line: ShapedLine) -> String {
        let paints = (line.handle as? PangoLineHandle)?.paints
        let colors = paints.map { "\($0.starts) \($0.colors) \($0.base) \($0.backgrounds.map(\.bytes))" } ?? "none"
        return """
            \(line.text) x \(line.x) w \(line.width) \(line.ascent) \(line.descent) \(line.isWrapContinuation) \
            \(PangoShaper.glyphSummary(of: line)) \(colors)
            """
    }

    static func setLines(_ paragraph: StyledParagraph, width: Double, shaper: PangoShaper) -> [ShapedLine] {
        var lines: [ShapedLine] = []
        shaper.shape(paragraph, width: width) { lines += $0.lines }
        return lines
    }

    @Test(arguments: cases().map(\.name))
    func aMeasuredBlockIsSetAsAFreshOne(name: String) throws {
        let entry = try #require(Self.cases().first { $0.name == name })
        let fresh = PangoShaper()
        let freshStart = fresh.layoutsMade
        let expected = Self.setLines(entry.paragraph, width: entry.width, shaper: fresh)
        let setAlone = fresh.layoutsMade - freshStart

        let shaper = PangoShaper()
        let start = shaper.layoutsMade
        let natural = shaper.naturalWidth(of: entry.paragraph, keepingLayout: true)
        let measured = shaper.layoutsMade - start
        let lines = Self.setLines(entry.paragraph, width: entry.width, shaper: shaper)
        let made = shaper.layoutsMade - start

        #expect(lines.map(Self.summary) == expected.map(Self.summary), "\(name)")
        if entry.kept {
            #expect(made == setAlone, "\(name): \(made) layouts to measure and set, \(setAlone) to set alone")
            // Nothing wraps at this width: the natural width is the widest line set.
            #expect(natural == expected.map(\.width).max(), "\(name)")
        } else {
            #expect(made == measured + setAlone, "\(name): \(made) layouts, \(measured) + \(setAlone) expected")
        }
        if entry.name != "sixty lines, many pieces" {
            #expect(natural == fresh.shape(entry.paragraph, width: nil).naturalWidth, "\(name)")
        }
    }

    /// The kept lines serve only the paragraph measured: another one, or the same after
    /// ``PangoShaper/forgetKeptLayouts()``, is shaped anew.
    @Test func keptLinesServeOnlyTheBlockMeasured() {
        let shaper = PangoShaper()
        let block = Self.block(Self.python)
        let other = Self.block(Self.python.reversed())
        _ = shaper.naturalWidth(of: block, keepingLayout: true)
        var start = shaper.layoutsMade
        _ = Self.setLines(other, width: Self.width, shaper: shaper)
        _ = Self.setLines(block, width: Self.width, shaper: shaper)
        #expect(shaper.layoutsMade - start == 2, "neither is set from the lines kept for the first")
        _ = shaper.naturalWidth(of: block, keepingLayout: true)
        shaper.forgetKeptLayouts()
        start = shaper.layoutsMade
        _ = Self.setLines(block, width: Self.width, shaper: shaper)
        #expect(shaper.layoutsMade - start == 1)
    }
}
