import Styling
import Typography

/// A point on the page, pt from the top-left corner (y grows downwards).
public struct Point: Hashable, Sendable {
    /// Coordinates in pt: `x` from the left edge, `y` down from the top edge.
    public var x: Double, y: Double
    /// Creates a point from its coordinates (pt).
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// A rectangle on the page, pt from the top-left corner.
public struct Rect: Hashable, Sendable {
    /// Top-left corner and size, pt (`y` grows downwards).
    public var x: Double, y: Double, width: Double, height: Double
    /// Creates a rectangle from its top-left corner and size (pt).
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
    /// Right edge, pt (`x + width`).
    public var maxX: Double { x + width }
    /// Bottom edge, pt (`y + height`).
    public var maxY: Double { y + height }
}

/// Something drawn on a page, in absolute page coordinates.
public enum PageElement {
    /// A shaped line drawn with its left edge at `x` and its baseline at `baseline`.
    case text(ShapedLine, x: Double, baseline: Double)
    /// A shaped line drawn as filled outlines in `color`, not as text: a mark the reader sees
    /// but that text extraction and search skip (the ↪ of a wrapped code line).
    case ornament(ShapedLine, x: Double, baseline: Double, color: RGBAColor)
    /// The space between two words where a line breaks, after `line` (whose text ends at `x`
    /// on `baseline`): a space glyph of the line's last face that shows nothing, so that text
    /// read without layout analysis, through the structure tree or the content stream in
    /// order, keeps the words apart (PDF 1.7 §14.8.2.5).
    case wordSpace(after: ShapedLine, x: Double, baseline: Double)
    /// `line`, drawn just before, ends in a hyphen that hyphenation added: a tagged PDF draws
    /// that glyph as marked content of its own whose `/ActualText` is empty (PDF 1.7
    /// §14.9.4), so text read through the structure tree rejoins the word.
    case addedHyphen(after: ShapedLine)
    /// A filled rectangle (code panels, placeholders, half-leading bands).
    case fill(Rect, RGBAColor)
    /// A straight line of `width` pt.
    case line(from: Point, to: Point, width: Double, color: RGBAColor)
    /// A dot leader: `count` square dots of side `dot` pt, one every `pitch` pt, the first with
    /// its left edge at `x`, all standing on `baseline` (a contents entry's dots). Drawn as one
    /// dashed stroke, not a rectangle a dot.
    case leader(x: Double, baseline: Double, count: Int, dot: Double, pitch: Double, color: RGBAColor)
    /// A clickable area.
    case link(Rect, LinkTarget)
    /// A named destination (`#id` targets), at the top of what it names.
    case destination(name: String, at: Point)
    /// A PDF outline (bookmark) entry pointing at `y`.
    case outline(OutlineEntry, at: Point)
    /// A PNG/JPEG file drawn scaled into `rect`.
    case image(path: String, rect: Rect)
    /// What is drawn from here on belongs to the last element of `path`, a structure path from
    /// the document root (tagged PDF); `[.artifact]` marks page furniture. Layout starts every
    /// group of elements it emits with one, so groups may be drawn in any order.
    case structure([StructureElement])
}

/// One laid-out page, ready to draw. Pages are produced one at a time and not kept.
public struct Page {
    /// 1-based page number.
    public var number: Int
    /// Paper size of the page, pt.
    public var size: PaperSize
    /// What is drawn on the page, in drawing order.
    public var elements: [PageElement]
    /// Creates page `number` (1-based) of `size`, empty by default.
    public init(number: Int, size: PaperSize, elements: [PageElement] = []) {
        self.number = number
        self.size = size
        self.elements = elements
    }
}

/// Receives pages as they are laid out (the Cairo PDF writer implements it): nothing is kept
/// after ``render(_:)`` returns, so memory stays flat as documents grow.
public protocol PageRenderer: AnyObject {
    func render(_ page: Page) throws
}
