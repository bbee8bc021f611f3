import Styling

/// How layout marks what it draws with structure paths (``PageElement/structure(_:)``), so the
/// renderer can tag the PDF: text lines belong to their block's element, links to a `Link`
/// inside it (footnote markers to a `Reference`), furniture to artifacts.
enum StructureMarks {
    /// The elements of one line of text whose measure starts at `x` (pt): the text in `path`'s
    /// element, then each link in a `Link` inside it (a footnote marker's `Link` inside a
    /// `Reference`). An element may hold both text and child elements (PDF 1.7 §14.7.2: its
    /// `/K` mixes marked content and elements), so the text needs no element of its own.
    ///
    /// `linksBefore` counts the links in the block's lines before this one: each footnote
    /// marker's `Reference` is an element of its own.
    ///
    /// `endsBetweenWords`: the line breaks between two words (``WordSpaces``), so its text is
    /// followed by a ``PageElement/wordSpace(after:x:baseline:)``; `endsInAddedHyphen`: it
    /// ends in a hyphenation hyphen, marked by ``PageElement/addedHyphen(after:)``.
    static func line(
        _ line: ShapedLine, x: Double, baseline: Double, path: [StructureElement], linksBefore: Int,
        endsBetweenWords: Bool = false, endsInAddedHyphen: Bool = false
    ) -> [PageElement] {
        var elements: [PageElement] = [.structure(path), .text(line, x: x + line.x, baseline: baseline)]
        if endsInAddedHyphen { elements.append(.addedHyphen(after: line)) }
        if endsBetweenWords {
            elements.append(.wordSpace(after: line, x: x + line.x + line.width, baseline: baseline))
        }
        for (k, link) in line.links.enumerated() {
            elements.append(.structure(linkPath(path, target: link.target, linkIndex: linksBefore + k)))
            elements.append(
                .link(
                    Rect(
                        x: x + link.x, y: baseline - line.ascent, width: link.width,
                        height: line.ascent + line.descent),
                    link.target))
        }
        return elements
    }

    /// The parent a link's `Link` element opens in: the block's element, or a `Reference`
    /// for a footnote marker (a link to `fn-N`), the block's `linkIndex`-th link.
    static func linkPath(_ path: [StructureElement], target: LinkTarget, linkIndex: Int) -> [StructureElement] {
        guard let leaf = path.last, leaf.role != .artifact else { return path }
        if case .internal(let name) = target, name.hasPrefix("fn-") {
            return path + [StructureElement(.reference, id: leaf.id, index: leaf.index * 1_000_000 + linkIndex + 1)]
        }
        return path
    }

    /// The path of a list marker: the item's `Lbl` when the block is the first of an item
    /// (`[…, LI, LBody, P]`), else the block itself (a footnote's number).
    static func labelPath(_ path: [StructureElement]) -> [StructureElement] {
        guard path.count >= 3, path[path.count - 2].role == .listBody else { return path }
        return Array(path.dropLast(2)) + [StructureElement(.label, id: path[path.count - 2].id)]
    }

    /// A path whose elements are relative to a footnote: `Note` > the note block's own path
    /// (`blockStructure`: `L` > `LI` > `LBody` > `P` for a list item, `BlockQuote` > `P`,
    /// `Code`), or `Note` > `P` for the note's paragraph `paragraph` (ids of notes are
    /// negative, apart from blocks'). The `Note` is in `language`, the document's: the note is
    /// placed in the element citing it, whose language may be another (a quote in
    /// `::: {lang=fr}`).
    static func notePath(
        number: Int, paragraph: Int, language: String, blockStructure: [StructureElement] = []
    ) -> [StructureElement] {
        let note = StructureElement(.note, id: 0 &- number, language: language)
        guard blockStructure.isEmpty else { return [note] + blockStructure }
        return [note, StructureElement(.paragraph, id: 0 &- number, index: paragraph)]
    }
}

extension Item {
    /// The item drawn as furniture: marked as an artifact throughout (a table header repeated
    /// on a continued page, a code block's `(continued)` cue are not read).
    var asArtifact: Item {
        var copy = self
        copy.elements =
            [.structure([.artifact])] + elements.map { if case .structure = $0 { .structure([.artifact]) } else { $0 } }
        return copy
    }
}

extension PageElement {
    /// A structure mark with `base` put in front of its path (footnotes, laid out relative to
    /// their note, placed after the element that cites them); other elements unchanged.
    func underStructure(_ base: [StructureElement]) -> PageElement {
        if case .structure(let path) = self, path != [.artifact] { return .structure(base + path) }
        return self
    }
}
