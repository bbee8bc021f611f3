/// A colour in a laid-out formula: red, green, blue and alpha, 0…1.
public struct MathColor: Hashable, Sendable {
    /// The components, 0…1.
    public var red, green, blue, alpha: Double

    /// Creates a colour.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }
}

/// One drawn thing of a laid-out formula. Positions are pt from the box's origin (its left end
/// on the baseline), y upwards.
public enum MathBoxItem: Hashable, Sendable {
    /// A glyph of the math font at `size` pt, its origin at (`x`, `y`); `color` nil: the
    /// text's colour.
    case glyph(UInt32, x: Double, y: Double, size: Double, color: MathColor?)
    /// A filled rectangle (fraction bars, radical overbars), its lower left corner at
    /// (`x`, `y`).
    case rule(x: Double, y: Double, width: Double, height: Double, color: MathColor?)
    /// Text in the surrounding text's face (``MathNucleus/prose(_:_:)``) at `size` pt, its
    /// baseline origin at (`x`, `y`): the renderer shapes and draws it as it does running text,
    /// with its font fallback.
    case text(String, face: MathTextFace, x: Double, y: Double, size: Double, color: MathColor?)
    /// A straight stroke from (`x`, `y`) to (`toX`, `toY`), `width` pt wide (`\cancel`'s
    /// strokes).
    case stroke(x: Double, y: Double, toX: Double, toY: Double, width: Double, color: MathColor?)
    /// The items of a box placed whole with its origin at (`x`, `y`), in `color` where they
    /// have none of their own (``MathBox/place(_:x:y:color:)`` keeps a large box so rather
    /// than copying its items, so that a box nested in a box nested in … costs time linear in
    /// what it draws). ``MathBox/drawnItems`` gives them moved into place.
    case group(MathBoxGroup, x: Double, y: Double, color: MathColor?)
}

/// The items of a box, shared by the boxes that place it (``MathBoxItem/group(_:x:y:color:)``).
public final class MathBoxGroup: Hashable, Sendable {
    /// What the box draws, positions from its origin.
    public let items: [MathBoxItem]

    init(_ items: [MathBoxItem]) {
        self.items = items
    }

    /// Groups are equal when they draw the same items.
    public static func == (left: MathBoxGroup, right: MathBoxGroup) -> Bool {
        left === right || left.items == right.items
    }

    /// Hashes the items.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(items)
    }
}

extension MathBoxItem {
    /// Where the item begins along the baseline, pt from its box's origin.
    public var x: Double {
        switch self {
        case .glyph(_, let x, _, _, _), .rule(let x, _, _, _, _), .text(_, _, let x, _, _, _), .group(_, let x, _, _): x
        case .stroke(let x, _, let toX, _, _, _): min(x, toX)
        }
    }

    /// The item moved by `x` and `y` pt, in `color` when it has no colour of its own.
    public func moved(x dx: Double, y dy: Double, color: MathColor? = nil) -> MathBoxItem {
        switch self {
        case .glyph(let glyph, let x, let y, let size, let itemColor):
            .glyph(glyph, x: x + dx, y: y + dy, size: size, color: itemColor ?? color)
        case .rule(let x, let y, let width, let height, let itemColor):
            .rule(x: x + dx, y: y + dy, width: width, height: height, color: itemColor ?? color)
        case .text(let text, let face, let x, let y, let size, let itemColor):
            .text(text, face: face, x: x + dx, y: y + dy, size: size, color: itemColor ?? color)
        case .stroke(let x, let y, let toX, let toY, let width, let itemColor):
            .stroke(x: x + dx, y: y + dy, toX: toX + dx, toY: toY + dy, width: width, color: itemColor ?? color)
        case .group(let group, let x, let y, let itemColor):
            .group(group, x: x + dx, y: y + dy, color: itemColor ?? color)
        }
    }
}

/// Where one row of a laid-out array stands, pt from its box's origin, y upwards: its
/// baseline, how far it reaches below it (at least the strut's depth), and where its last cell
/// ends.
public struct MathBoxRow: Hashable, Sendable {
    /// The row's baseline.
    public var baseline: Double
    /// How far the row reaches below its baseline (positive downwards).
    public var depth: Double
    /// Where the row's last cell ends.
    public var end: Double

    /// Creates a row's place.
    public init(baseline: Double, depth: Double, end: Double) {
        self.baseline = baseline
        self.depth = depth
        self.end = end
    }
}

/// A laid-out formula or part of one: its size in pt and what it draws.
public struct MathBox: Hashable, Sendable {
    /// The advance width, pt.
    public var width: Double = 0
    /// The extent above the baseline, pt.
    public var height: Double = 0
    /// The extent below the baseline, pt (positive downwards).
    public var depth: Double = 0
    /// The italics correction of the box's last glyph, pt (where a superscript goes).
    public var italicsCorrection: Double = 0
    /// The top accent attachment, pt from the left, when the box is one glyph that has one.
    public var accentAttachment: Double?
    /// True when the box is a single character (scripts then shift by the font's constants
    /// only, The TeXbook, Appendix G, rule 18a).
    public var isCharacter = false
    /// What it draws.
    public var items: [MathBoxItem] = []
    /// The rows of the array the box sets (a matrix, an alignment), or of the one array a
    /// list sets among atoms of no rows: where each row stands, from the box's origin. Empty
    /// for anything else.
    public var rows: [MathBoxRow] = []

    /// An empty box.
    public init() {}

    /// An empty box of a width (a space).
    public init(width: Double) {
        self.width = width
    }

    /// Places `box` with its origin at (`x`, `y`) inside this box, growing the height and depth
    /// to hold it (the width is the caller's).
    public mutating func place(_ box: MathBox, x: Double, y: Double, color: MathColor? = nil) {
        height = max(height, box.height + y)
        depth = max(depth, box.depth - y)
        if box.items.count > Self.largestCopied {
            items.append(.group(MathBoxGroup(box.items), x: x, y: y, color: color))
            return
        }
        // Grown as arrays grow (doubling): reserving exactly the new count at each call would
        // copy the items once a call, n² moves for a formula of n atoms.
        items.append(contentsOf: box.items.lazy.map { $0.moved(x: x, y: y, color: color) })
    }

    /// The most items ``place(_:x:y:color:)`` copies into this box; a box of more is kept
    /// whole, as a group.
    static let largestCopied = 64

    /// What the box draws with every group's items moved into place, in order. Each item is
    /// moved once, by the sum of the offsets of the groups around it, so time is linear in
    /// what the box draws however deep its groups nest.
    public var drawnItems: [MathBoxItem] {
        guard items.contains(where: { if case .group = $0 { true } else { false } }) else { return items }
        var drawn: [MathBoxItem] = []
        Self.appendDrawn(items, x: 0, y: 0, color: nil, to: &drawn)
        return drawn
    }

    /// Appends `items`, moved by (`x`, `y`) and in `color` where they have none, with each
    /// group's items in its place.
    private static func appendDrawn(
        _ items: [MathBoxItem], x: Double, y: Double, color: MathColor?, to drawn: inout [MathBoxItem]
    ) {
        for item in items {
            if case .group(let group, let groupX, let groupY, let groupColor) = item {
                appendDrawn(group.items, x: x + groupX, y: y + groupY, color: groupColor ?? color, to: &drawn)
            } else {
                drawn.append(x == 0 && y == 0 && color == nil ? item : item.moved(x: x, y: y, color: color))
            }
        }
    }

    /// Appends `box` after this one on the baseline (raised by `y`).
    public mutating func append(_ box: MathBox, y: Double = 0) {
        place(box, x: width, y: y)
        width += box.width
        italicsCorrection = box.italicsCorrection
    }

    /// The box moved up by `amount` pt (down when negative).
    public func raised(by amount: Double) -> MathBox {
        var moved = MathBox()
        moved.place(self, x: 0, y: amount)
        moved.height = height + amount
        moved.depth = depth - amount
        moved.width = width
        moved.italicsCorrection = italicsCorrection
        moved.accentAttachment = accentAttachment
        return moved
    }
}
