internal import CPangoCairo
import Layout
import Styling

/// A code block measured and set from one shaping. Layout measures a code block's natural width
/// unwrapped before it sets it (to widen or shrink a block whose longest line overflows the
/// measure); a block that fits is then set at the measure exactly as it was measured, since
/// Pango breaks a code block's lines only at its hard breaks when each line fits. So the
/// unwrapped lines are kept (``PangoShaper/naturalWidth(of:keepingLayout:)``) and handed to the
/// next `shape` of the same paragraph at a width they fit in, instead of shaping the block again.
///
/// To that end the block is measured in the pieces it is set in (``ParagraphPieces`` as for
/// wrapped lines, each piece's last line laid out again at the head of the next), so each line
/// comes from the same piece of text, with the same colours (``CodePaints``, whose base colour
/// is a piece's most common), in both. Lines are kept only where the two place them alike:
/// left-aligned, every line laid out left to right (Pango aligns a right-to-left line against
/// the layout's width, which an unwrapped layout takes from its widest line), and no line a
/// part of a longer one (a line longer than a piece).
struct KeptCode {
    /// The paragraph measured, as Layout passed it.
    let paragraph: StyledParagraph
    /// Its unwrapped lines.
    let shaped: ShapedParagraph
    /// Its widest line, Pango units.
    let widest: Int32

    /// The lines of `shaped` (`paragraph` laid out without a width) kept for setting it, or nil
    /// when setting it at a width may place them otherwise.
    init?(_ paragraph: StyledParagraph, shaped: ShapedParagraph) {
        guard paragraph.style.alignment == .left, !shaped.lines.isEmpty else { return nil }
        var widest: Int32 = 0
        for line in shaped.lines {
            guard let handle = line.handle as? PangoLineHandle, !line.isWrapContinuation,
                handle.line.pointee.resolved_dir == PANGO_DIRECTION_LTR.rawValue
            else { return nil }
            widest = max(widest, PangoUnits.from(line.width))
        }
        self.paragraph = paragraph
        self.shaped = shaped
        self.widest = widest
    }

    /// Whether the kept lines are `paragraph` set at `width` pt: the same paragraph, and its
    /// widest line narrower than the width Pango wraps at, in whole Pango units rounded down
    /// (``PangoShaper/rangeLayout(_:paragraph:bytes:starts:width:)``), so no line breaks but
    /// at a hard break.
    func serves(_ paragraph: StyledParagraph, width: Double) -> Bool {
        widest < PangoUnits.from(width, rounding: .down) && paragraph == self.paragraph
    }
}

extension PangoShaper {
    /// The natural width of a code block (``StyledParagraph/style``'s `breakAnywhere`), pt,
    /// keeping its lines for the next `shape` of the paragraph at a width they fit in
    /// (``KeptCode``); one block is kept at a time. Where they cannot be kept, the width
    /// `shape(paragraph, width: nil)` measures (whose pieces may cut a line of many runs in two).
    func measureKeepingCode(_ paragraph: StyledParagraph) -> Double {
        let shaped = shapeWhole(paragraph, width: nil, cutAsWrapped: true)
        keptCode = KeptCode(paragraph, shaped: shaped)
        return keptCode == nil ? shapeWhole(paragraph, width: nil).naturalWidth : shaped.naturalWidth
    }

    /// The kept lines of `paragraph` at `width` pt (given up: each is set once), or nil.
    func takeKeptCode(_ paragraph: StyledParagraph, width: Double) -> ShapedParagraph? {
        guard let kept = keptCode else { return nil }
        keptCode = nil
        return kept.serves(paragraph, width: width) ? kept.shaped : nil
    }
}
