import DocumentModel
import PangoCairoBackend
import Styling
import Typography

/// Warnings for faces that are not what the styles asked for: a weight the family lacks, an
/// italic that would be synthesized. One warning per distinct case.
///
/// The primary family is always checked; fallback families only for runs holding characters
/// beyond Latin (U+2E80 and up: CJK, Hangul), which is where fallbacks are used.
enum FontCheck {
    static func diagnostics(for blocks: [StyledBlock]) -> [Diagnostic] {
        struct Request: Hashable { var family: String; var weight: FontWeight; var italic: Bool }
        var requests: [Request] = []
        var seen = Set<Request>()
        func visit(_ paragraph: StyledParagraph) {
            for run in paragraph.runs + (paragraph.marker ?? []) {
                let font = run.style.font
                let needsFallback = run.text.unicodeScalars.contains { $0.value >= 0x2E80 }
                for family in needsFallback ? font.families : Array(font.families.prefix(1)) {
                    let request = Request(family: family, weight: font.weight, italic: font.italic)
                    if seen.insert(request).inserted { requests.append(request) }
                }
            }
        }
        for block in blocks {
            switch block.content {
            case .paragraph(let p): visit(p)
            case .table(let t): (t.header + t.rows.flatMap { $0 }).forEach(visit)
            case .image(let image): image.caption.map(visit)
            case .entry(let left, let right): visit(left); visit(right)
            case .rule, .pageBreak: break
            }
        }
        var messages: [String] = []
        for request in requests {
            let resolved = FontLibrary.resolve(FontSpec(families: [request.family], weight: request.weight, italic: request.italic, size: 10))
            guard resolved.familyFound else { continue }  // missing families were reported with the theme
            for warning in resolved.warnings where !messages.contains(warning) {
                let hint = request.family.hasPrefix("Noto Sans CJK") && warning.hasPrefix("no weight")
                    ? " (Debian's fonts-noto-cjk has Regular and Bold only; `make fonts-extra` installs every weight)" : ""
                messages.append(warning + hint)
            }
        }
        return messages.map { Diagnostic(.warning, $0) }
    }
}
