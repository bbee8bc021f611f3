import Layout
import Styling
import Typography

/// A fixed-advance shaper: every character is 0.5 em wide, ascent 0.8 em, descent 0.2 em;
/// lines break at spaces (or anywhere when a word is too long). Fast and font-independent.
final class FakeShaper: TextShaper {
    func metrics(of font: FontSpec) -> FontMetrics {
        FontMetrics(
            ascent: font.size * 0.8, descent: font.size * 0.2, xHeight: font.size * 0.5, capHeight: font.size * 0.7)
    }

    func shape(_ paragraph: StyledParagraph, width: Double?) -> ShapedParagraph {
        let size = paragraph.runs.first?.style.font.size ?? paragraph.style.baseFont.size
        let advance = size * 0.5
        let maxChars = width.map { max(1, Int($0 / advance)) } ?? Int.max
        var lines: [String] = []
        var current = ""
        for word in paragraph.text.split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
            let candidate = current.isEmpty ? word : current + " " + word
            if candidate.count <= maxChars {
                current = candidate
                continue
            }
            if !current.isEmpty { lines.append(current) }
            var rest = word
            while rest.count > maxChars {
                lines.append(String(rest.prefix(maxChars)))
                rest = String(rest.dropFirst(maxChars))
            }
            current = rest
        }
        lines.append(current)
        let m = metrics(of: FontSpec(families: [], size: size))
        return ShapedParagraph(
            lines: lines.map {
                ShapedLine(
                    handle: nil, x: 0, width: Double($0.count) * advance, ascent: m.ascent, descent: m.descent, text: $0
                )
            })
    }
}

/// Collects pages instead of drawing them.
final class PageCollector: PageRenderer {
    var pages: [Page] = []
    func render(_ page: Page) throws { pages.append(page) }

    /// (page number, line text, baseline) for every text element.
    var lines: [(page: Int, text: String, baseline: Double)] {
        pages.flatMap { page in
            page.elements.compactMap { element -> (Int, String, Double)? in
                if case .text(let line, _, let baseline) = element { return (page.number, line.text, baseline) }
                return nil
            }
        }
    }
}
