import Foundation

/// A paper size in pt (portrait).
public struct PaperSize: Hashable, Sendable {
    /// Width and height in pt.
    public var width: Double, height: Double
    /// Creates a paper size from its width and height (pt).
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// ISO 216 A4, 210 × 297 mm.
    public static let a4 = PaperSize(width: 595.2756, height: 841.8898)
    /// ISO 216 A5, 148 × 210 mm.
    public static let a5 = PaperSize(width: 419.5276, height: 595.2756)
    /// US Letter, 8.5 × 11 in.
    public static let letter = PaperSize(width: 612, height: 792)
    /// US Legal, 8.5 × 14 in.
    public static let legal = PaperSize(width: 612, height: 1008)

    /// The name a theme file writes for this size: a name of ``named`` (`a4`, `letter`), with
    /// ` landscape` when turned, when the size is that paper's to 0.01 pt; nil for any other size.
    public var name: String? {
        func matches(_ width: Double, _ height: Double) -> Bool {
            abs(width - self.width) < 0.01 && abs(height - self.height) < 0.01
        }
        for (name, widthMM, heightMM) in PaperSize.named {
            guard let portrait = try? PaperSize(parsing: name) else { continue }
            if matches(portrait.width, portrait.height) { return name }
            if matches(portrait.height, portrait.width), widthMM != heightMM { return name + " landscape" }
        }
        return nil
    }

    /// Reads a paper size as ``init(parsing:)`` does (named ISO, JIS and US sizes, `landscape`,
    /// or `W x H` with units). Returns nil otherwise.
    public init?(name: String) {
        guard let size = try? PaperSize(parsing: name) else { return nil }
        self = size
    }
}

/// Parsing of lengths written with units.
public enum Length {
    /// Converts `12pt`, `12`, `20mm`, `2cm`, `1in`, `16px` (the CSS px, 1/96 in = 0.75 pt; CSS
    /// Values and Units Level 3, §5.2) to pt. Returns nil for anything else.
    /// Lengths are finite and not negative, and at most 14 400 pt (200 in), the largest page
    /// side PDF allows: anything else is nil.
    public static func points(_ text: String) -> Double? {
        let name = text.trimmingCharacters(in: .whitespaces).lowercased()
        let units: [(String, Double)] = [("mm", 72 / 25.4), ("cm", 72 / 2.54), ("in", 72), ("pt", 1), ("px", 0.75)]
        var value: Double?
        if let (suffix, factor) = units.first(where: { name.hasSuffix($0.0) }) {
            value = Double(name.dropLast(suffix.count).trimmingCharacters(in: .whitespaces)).map { $0 * factor }
        } else {
            value = Double(name)
        }
        guard let value, value.isFinite, (0...14_400).contains(value) else { return nil }
        return value
    }

    /// ``points(_:)`` for page geometry (paper sides, margins), where a length needs a unit
    /// (`20mm`, `1in`, `36pt`), as in Typst and CSS: a bare number other than 0 (CSS allows a
    /// unitless zero) is nil rather than read as pt.
    public static func pointsWithUnit(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let bare = Double(trimmed), bare != 0 { return nil }
        return points(trimmed)
    }
}

/// Page margins in pt.
public struct Margins: Hashable, Sendable {
    /// Margins in pt, from each edge of the paper.
    public var top: Double, right: Double, bottom: Double, left: Double
    /// Creates margins from each side (pt).
    public init(top: Double, right: Double, bottom: Double, left: Double) {
        self.top = top
        self.right = right
        self.bottom = bottom
        self.left = left
    }
    /// Creates equal margins of `all` pt on every side.
    public init(all: Double) { self.init(top: all, right: all, bottom: all, left: all) }
}

/// The page a theme sets text on: paper, margins and the vertical rhythm between blocks.
///
/// The margins are either fixed (``measureCharacters`` nil) or follow from the paper and a
/// measure given in characters of the Body face (``fittingMeasure(characterWidth:)``): the
/// measure is that many characters of Body text, centred on the paper, and the top and bottom
/// margins take the share of the paper's height the default theme's 64 pt and 72 pt take of A4.
public struct PageSetup: Hashable, Sendable {
    /// Paper size, pt.
    public var paper: PaperSize
    /// Margins, pt. With ``measureCharacters`` set, the margins last fitted to the Body face
    /// (``fittingMeasure(characterWidth:)``); until then those of the default theme on A4.
    public var margins: Margins
    /// Space between consecutive blocks (paragraphs, lists, tables), pt.
    public var blockSpacing: Double
    /// The measure as a number of characters of Body text (letters, spaces and punctuation of
    /// running English prose, ``fittingMeasure(characterWidth:)``); nil when the margins are
    /// fixed. Theme files: `page.measure`. Bringhurst (The Elements of Typographic Style, 2.1.2)
    /// gives 45–75 characters for a single column, 66 as the ideal.
    public var measureCharacters: Double?

    /// Creates a page setup; defaults: A4, 64 pt margins (72 pt at the bottom), 8 pt between
    /// blocks, margins fixed.
    public init(
        paper: PaperSize = .a4, margins: Margins = Margins(top: 64, right: 64, bottom: 72, left: 64),
        blockSpacing: Double = 8, measureCharacters: Double? = nil
    ) {
        self.paper = paper
        self.margins = margins
        self.blockSpacing = blockSpacing
        self.measureCharacters = measureCharacters
    }

    /// The measure: width of the text area, pt.
    public var measure: Double { paper.width - margins.left - margins.right }
    /// Height of the text area, pt.
    public var textHeight: Double { paper.height - margins.top - margins.bottom }

    /// The default theme's measure, in characters of its Body face.
    public static let defaultMeasureCharacters = 68.0
    /// The range ``measureCharacters`` may take: from a narrow side column to the widest single
    /// column a reader can follow back to the start of the next line.
    public static let measureCharactersRange = 20.0...150.0
    /// The default theme's margins on A4 before the measure follows the type: the placeholder
    /// of a page whose ``measureCharacters`` is set, and the source of the vertical proportions.
    public static let defaultA4Margins = Margins(top: 64, right: 125, bottom: 72, left: 125)
    /// The narrowest side margin a measure in characters leaves, as a share of the paper's
    /// width (40 pt on A4, the side margin of the built-in themes with a 16–17 pt Body): past
    /// it the measure is cut and the line holds fewer characters.
    public static let narrowestSideShare = 40 / PaperSize.a4.width

    /// The text area the page can have, pt: with fixed margins the paper less them; with a
    /// measure in characters the widest ``fittingMeasure(characterWidth:)`` can give (the paper
    /// less two ``narrowestSideShare`` margins) and the height it gives. What a theme is checked
    /// against before its Body face is measured.
    public var widestTextArea: (width: Double, height: Double) {
        guard measureCharacters != nil else { return (measure, textHeight) }
        // Any character as wide as the paper asks for more than the paper: the widest measure.
        let widest = fittingMeasure(characterWidth: paper.width)
        return (widest.measure, widest.textHeight)
    }

    /// This page with its margins following from the paper and ``measureCharacters``, given
    /// the average advance of one character of Body text (`characterWidth`, pt, tracking
    /// included): the measure is `measureCharacters × characterWidth`, at most the paper's width
    /// less two ``narrowestSideShare`` margins, centred; the top and bottom margins are the
    /// paper's height times the share 64 pt and 72 pt are of A4's height. Unchanged when the
    /// margins are fixed or `characterWidth` is not a positive finite number.
    public func fittingMeasure(characterWidth: Double) -> PageSetup {
        guard let characters = measureCharacters, characterWidth.isFinite, characterWidth > 0 else { return self }
        let widest = paper.width * (1 - 2 * PageSetup.narrowestSideShare)
        let measure = min(characters * characterWidth, widest)
        let side = (paper.width - measure) / 2
        let a4 = PaperSize.a4.height
        var page = self
        page.margins = Margins(
            top: paper.height * PageSetup.defaultA4Margins.top / a4, right: side,
            bottom: paper.height * PageSetup.defaultA4Margins.bottom / a4, left: side)
        return page
    }

    /// Why the page leaves too little room for text (``widestTextArea`` under 72 × 72 pt), or nil.
    public var textAreaProblem: String? {
        let (width, height) = widestTextArea
        guard !(width >= 72 && height >= 72) else { return nil }
        let what = measureCharacters == nil ? "the paper less its margins leaves" : "the paper leaves at most"
        return "page: \(what) \(width.wholePointsText) × \(height.wholePointsText) pt; the text area must be at least "
            + "72 × 72 pt"
    }
}
