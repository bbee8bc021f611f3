import Layout
import Typography

/// The page furniture rules of one page that can be stroked as one path: horizontal `.line`
/// elements that are alone in an artifact group (a `.structure` path ending in an artifact,
/// then only such lines up to the next `.structure` or the page's end) and share a width,
/// colour and horizontal extent — a table's row rules. Every Cairo operation costs the PDF
/// surface a replay, an extents check and its own operators when the page is shown (and a
/// marked-content sequence per artifact when tagged); one path per batch draws the same
/// strokes with one of each.
///
/// A batch is drawn where its first rule was, so later rules move earlier in the drawing
/// order; a batch is closed at every element that paints an area (`.fill`, `.image`,
/// `.ornament`, `.leader`), so no rule moves under a panel drawn after it. Rules that do not overlap
/// anything (a table's, between its rows' padding) rasterize as before.
struct RuleBatches {
    /// One stroked segment, pt.
    typealias Segment = (from: Point, to: Point)

    /// For the element index of a batch's first rule: every segment of the batch, in order.
    private(set) var batches: [Int: [Segment]] = [:]
    /// Element indices drawn by an earlier batch — their rules, and the artifact marks that
    /// held nothing else — which the page skips.
    private(set) var skipped: Set<Int> = []

    private struct Key: Hashable {
        var width: Double
        var color: RGBAColor
        var left: Double
        var right: Double
    }

    /// Finds the batches of `elements` (a page's, in drawing order). Batches of one rule are
    /// left alone.
    init(_ elements: [PageElement]) {
        var open: [Key: Int] = [:]
        // The artifact groups made only of horizontal rules: their mark's index and the rules'.
        var groups: [(mark: Int, rules: Range<Int>)] = []
        var i = 0
        while i < elements.count {
            defer { i += 1 }
            switch elements[i] {
            case .fill, .image, .ornament, .leader:
                open.removeAll()
            case .structure(let path) where path.last?.role == .artifact:
                var end = i + 1
                while end < elements.count, case .line(let from, let to, _, _) = elements[end], from.y == to.y {
                    end += 1
                }
                guard end > i + 1 else { continue }
                if end < elements.count, case .structure = elements[end] {} else if end < elements.count { continue }
                groups.append((i, (i + 1)..<end))
                for r in (i + 1)..<end {
                    guard case .line(let from, let to, let width, let color) = elements[r] else { continue }
                    let key = Key(width: width, color: color, left: from.x, right: to.x)
                    if let first = open[key] {
                        batches[first, default: [Self.segment(elements[first])]].append((from, to))
                        skipped.insert(r)
                    } else {
                        open[key] = r
                    }
                }
                i = end - 1
            default:
                break
            }
        }
        for group in groups where group.rules.allSatisfy(skipped.contains) { skipped.insert(group.mark) }
    }

    private static func segment(_ element: PageElement) -> Segment {
        guard case .line(let from, let to, _, _) = element else { preconditionFailure("a batch starts at a rule") }
        return (from, to)
    }
}
