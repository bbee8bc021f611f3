import DocumentModel
import Styling
import Typography

/// Warnings for text too large for the page: a glyph wider than the measure, or a line taller
/// than the text area, would be cut by the page edge. One warning per block and size, at the
/// block's position.
///
/// The bound is an estimate from the em size alone (no shaping): a glyph is at most about
/// 1 em wide and a mid-word break adds a hyphen of about 0.4 em (Inter's widest capitals are
/// ~0.95 em, its hyphen 0.41 em), and a line box is about 1.25 em tall (Inter 1.21 em; Noto
/// Sans CJK KR 1.45 em). So a size is too large when 1.4 em passes the measure or 1.5 em
/// passes the text area's height.
enum SizeCheck {
    static func diagnostics(for blocks: [StyledBlock], page: PageSetup) -> [Diagnostic] {
        blocks.flatMap { diagnostics(for: $0, page: page) }
    }

    /// The warnings for one block.
    static func diagnostics(for block: StyledBlock, page: PageSetup) -> [Diagnostic] {
        let largest = min(page.measure / 1.4, page.textHeight / 1.5)
        var result: [Diagnostic] = []
        do {
            var reported = Set<Double>()
            for paragraph in block.paragraphs {
                for run in paragraph.runs + (paragraph.marker ?? []) where run.style.font.size > largest {
                    guard run.text.contains(where: { !$0.isWhitespace }), reported.insert(run.style.font.size).inserted else { continue }
                    func pt(_ v: Double) -> String { String(Int(v.rounded())) }
                    result.append(Diagnostic(.warning,
                        "text at \(pt(run.style.font.size)) pt is too large for the text area (\(pt(page.measure)) × \(pt(page.textHeight)) pt): "
                        + "its glyphs may be cut at the page edge; at most about \(pt(largest)) pt fits", at: block.location))
                }
            }
        }
        return result
    }
}
