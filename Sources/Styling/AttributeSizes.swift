import DocumentModel
import Foundation
import Typography

/// The font sizes a document writes in attributes (`size=`), and the bound on how many distinct
/// ones it may set.
///
/// Each distinct size is a fontconfig request of its own: Pango 1.50 substitutes, matches and
/// sorts every installed face for each new size (`pango_fc_font_map_load_fontset`, several
/// million instructions), and keeps only the 256 fontsets used last (`FONTSET_CACHE_SIZE`), so
/// a paragraph that turns through more sizes than that sorts again at every run. The first
/// ``limit`` distinct sizes are set as written; each further size is set at the nearest of
/// them, and one warning, at the first such size, says how many sizes the document wrote.
///
/// Two sizes that Pango cannot tell apart — the same number of Pango units (1/1024 pt, the
/// unit a Pango font description holds its size in, `PANGO_SCALE`), far finer than the five
/// fractional digits PDF promises its real numbers (PDF Reference 1.7, Appendix C, Table C.1)
/// — are one size: the later is set at the size first written.
struct AttributeSizes {
    /// The most distinct sizes set as written: with the fontset of each size's first family
    /// alone and that of its whole list, 128 of Pango's 256, which leaves the theme's roles
    /// theirs.
    static let limit = 64

    /// Sizes set as written, by their Pango units.
    private var written: [Int: Double] = [:]
    /// The same sizes, ascending.
    private var ascending: [Double] = []
    /// Sizes past ``limit``, by their Pango units: each is set at the nearest of ``ascending``.
    private var moved = Set<Int>()
    /// The first size moved: as written, where, and the size it was set at.
    private(set) var firstMoved: (size: Double, location: SourceLocation?, setAt: Double)?

    /// Distinct sizes written so far.
    var count: Int { written.count + moved.count }

    /// The size to set for `size`, written at `location`.
    mutating func admit(_ size: Double, at location: SourceLocation?) -> Double {
        let units = Int((size * 1024).rounded())
        if let known = written[units] { return known }
        guard written.count >= Self.limit else {
            written[units] = size
            ascending.insert(size, at: ascending.insertionIndex(of: size))
            return size
        }
        let index = ascending.insertionIndex(of: size)
        let above = index < ascending.count ? ascending[index] : nil
        let below = index > 0 ? ascending[index - 1] : nil
        let nearest: Double
        switch (below, above) {
        case (let below?, let above?): nearest = size - below <= above - size ? below : above
        case (let below?, nil): nearest = below
        case (nil, let above?): nearest = above
        case (nil, nil): nearest = size
        }
        moved.insert(units)
        if firstMoved == nil { firstMoved = (size, location, nearest) }
        return nearest
    }
}

extension Styler {
    /// `overrides` with their size, if any, as ``AttributeSizes`` sets it.
    mutating func admitSize(_ overrides: inout StyleOverrides) {
        guard let size = overrides.size else { return }
        overrides.size = attributeSizes.admit(size, at: overrides.sizeLocation)
    }

    /// The warning for the sizes set at a nearer one (``AttributeSizes``), once per document,
    /// at the first of them.
    mutating func warnMovedSizes() {
        guard let first = attributeSizes.firstMoved else { return }
        let count = attributeSizes.count
        warn(
            "\(count) distinct font sizes are written in attributes; past the first \(AttributeSizes.limit), each "
                + "is set at the nearest of those (size=\(Self.points(first.size)) at \(Self.points(first.setAt)) "
                + "here): every size is a fontconfig request of its own",
            first.location, kind: .attribute)
    }

    /// `size` in pt as a warning writes it: at most three decimals, no trailing zeros.
    static func points(_ size: Double) -> String {
        let thousandths = (size * 1000).rounded()
        let whole = Int(thousandths / 1000)
        var fraction = String(Int(thousandths) % 1000)
        guard fraction != "0" else { return "\(whole)pt" }
        fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(whole).\(fraction)pt"
    }
}
