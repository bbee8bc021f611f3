import DocumentModel

/// Numbered sections (`--number-sections`, front matter `number-sections: true`), as Pandoc
/// numbers them: `1`, `1.1`, `1.1.1`, a skipped level counting as 0 (`1.0.1`). A heading with
/// the class `unnumbered` (written `{.unnumbered}` or `{-}`) gets no number and does not
/// advance the count. Headings inside block quotes, lists and notes are not sections and get
/// none; headings inside divs do.
///
/// Numbers start at ``topLevel``, the shallowest level of the numbered headings, so a document
/// whose sections are `##` headings under an opening `#` title numbers them 1, 2, … (Pandoc
/// starts at level 1 and would print 0.1, 0.2). The opening level-1 heading that is the
/// document's title (``skipsOpeningHeading``) is never numbered.
public struct SectionNumbering: Hashable, Sendable {
    /// The heading level numbered with one figure (1 for `#`).
    public var topLevel: Int
    /// The document opens with a level-1 heading that is its title: that heading has no number.
    public var skipsOpeningHeading: Bool

    /// Creates a numbering that starts at heading level `topLevel`.
    public init(topLevel: Int = 1, skipsOpeningHeading: Bool = false) {
        self.topLevel = topLevel
        self.skipsOpeningHeading = skipsOpeningHeading
    }

    /// The numbering for `document`: its top level is the shallowest level among the headings
    /// that will be numbered (top-level blocks and divs; not the opening title heading when
    /// `skipsOpeningHeading`, not unnumbered ones). Reads every top-level block once.
    public init(for document: Document, skipsOpeningHeading: Bool) {
        var shallowest = 6
        var isFirst = true
        func visit(_ blocks: some Sequence<Block>) {
            for block in blocks {
                if case .pageBreak = block.kind { continue }
                defer { isFirst = false }
                switch block.kind {
                case .heading(let level, _):
                    if isFirst, skipsOpeningHeading, level == 1 { continue }
                    if !SectionNumbering.isUnnumbered(block.attributes) { shallowest = min(shallowest, level) }
                case .div(let children): visit(children)
                default: break
                }
            }
        }
        visit(document.blocks)
        self.init(topLevel: shallowest, skipsOpeningHeading: skipsOpeningHeading)
    }

    /// The level-1 headings among `blocks` and the blocks they hold (lists, quotes, alerts,
    /// divs, definitions; a note's headings are not sections): with no title in the front
    /// matter, an opening level-1 heading is the document's title only when it is the only one,
    /// as a document of several `#` parts has no one title. Reads each top-level block once.
    public static func levelOneHeadingCount(_ blocks: some Sequence<Block>) -> Int {
        var count = 0
        var pending: [[Block]] = []
        func visit(_ block: Block) {
            switch block.kind {
            case .heading(1, _): count += 1
            case .blockQuote(let children), .alert(_, let children), .div(let children): pending.append(children)
            case .list(let list): pending += list.items.map(\.blocks)
            case .definitionList(let items): pending += items.flatMap(\.definitions)
            default: break
            }
        }
        for block in blocks {
            visit(block)
            while let children = pending.popLast() {
                for child in children { visit(child) }
            }
        }
        return count
    }

    /// Pandoc's classes that leave a heading unnumbered: `unnumbered` (`{-}` is short for it).
    public static func isUnnumbered(_ attributes: Attributes) -> Bool {
        attributes.classes.contains("unnumbered")
    }
}

/// The running section counters of one styling pass.
struct SectionCounters: Sendable {
    /// Counts by depth below the top level: `[2, 1]` after the second top section's first subsection.
    private var counts: [Int] = []

    /// The number of the next heading at `level` (`1.2`), counters advanced; nil for a level
    /// above `topLevel`, which starts no numbered section.
    mutating func next(level: Int, topLevel: Int) -> String? {
        let depth = level - topLevel
        guard depth >= 0 else { return nil }
        if counts.count <= depth { counts += Array(repeating: 0, count: depth + 1 - counts.count) }
        counts[depth] += 1
        counts.removeSubrange((depth + 1)...)
        return counts.map(String.init).joined(separator: ".")
    }
}
