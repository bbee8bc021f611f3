import Styling
import Typography

/// Turns one styled block into the items of the vertical list: a paragraph into its lines, a
/// table into its rows, an image into one box.
struct BlockLayout {
    let shaper: TextShaper
    let options: LayoutOptions
    /// Identifies this block's background panel among its neighbours'.
    let panelID: Int
    /// Empty paragraphs (an empty list item's line) already shaped: a list of 100,000 empty
    /// items shapes its empty line once. The paginator's memory serves every block.
    var emptyParagraphs = CellMemory()

    var left: Double { options.page.margins.left }
    var measure: Double { options.page.measure }

    /// The block's items, all at once (see ``layOut(_:emit:)``).
    func items(for block: StyledBlock) -> [Item] {
        var items: [Item] = []
        layOut(block) { items.append($0) }
        return items
    }

    /// Hands the block's items to `emit` in order. A table's rows are laid out one at a time and
    /// handed on as each is made, so a table holds only the rows of the page being filled, not
    /// all of its rows at once; other blocks are laid out whole, then handed on.
    /// - Throws: what `emit` throws.
    func layOut(_ block: StyledBlock, emit: (Item) throws -> Void) rethrows {
        var path = block.structure.isEmpty ? defaultStructure(for: block) : block.structure
        switch block.content {
        case .paragraph(let paragraph), .entry(let paragraph, _): BlockLayout.giveLanguage(of: paragraph, to: &path)
        default: break
        }
        var finishing = ItemFinishing(layout: self, block: block, path: path)
        switch block.content {
        case .table(let table):
            try TableLayout(shaper: shaper, options: options, indent: table.leftIndent).layOut(table, path: path) {
                item in
                try finishing.add(item, emit: emit)
            }
        case .paragraph(let paragraph) where block.isCode:
            try codeItems(paragraph, block: block, path: path) { item in try finishing.add(item, emit: emit) }
        case .paragraph(let paragraph):
            // Line by line as the shaper makes them: a long paragraph's lines are placed (and
            // its full pages drawn) a group at a time.
            var isFirst = true
            let padding = block.backgroundPadding
            try paragraphItems(paragraph, background: block.background, padding: padding, path: path) { item in
                var item = item
                if block.keepWithNext, !isFirst { item.breakBefore = .avoid }
                isFirst = false
                try finishing.add(item, emit: emit)
            }
        case .rule(let color, let thickness, let leftIndent, let rightIndent):
            try finishing.add(
                Item(
                    height: thickness,
                    elements: [
                        .structure([.artifact]),
                        .line(
                            from: Point(x: left + leftIndent, y: thickness / 2),
                            to: Point(x: left + max(leftIndent, measure - rightIndent), y: thickness / 2),
                            width: thickness, color: color),
                    ]), emit: emit)
        case .image(let image):
            for item in ImageLayout(shaper: shaper, options: options).items(for: image, path: path) {
                try finishing.add(item, emit: emit)
            }
        case .entry(let text, let trailing):
            for item in entryItems(text, trailing: trailing, path: path) { try finishing.add(item, emit: emit) }
        case .pageBreak:
            break
        }
        try finishing.finish(emit: emit)
    }

    /// What every item of a block gets as it passes on to the page: the block's anchors and
    /// outline entry on its first item, keep-together, its structure path, its footnotes, its
    /// quote bars. One item is held back until the next arrives, because notes whose reference
    /// was not found go to the block's last item.
    struct ItemFinishing {
        let layout: BlockLayout
        let block: StyledBlock
        let path: [StructureElement]
        var first = true
        var held: Item?
        var remainingNotes: [Int: [StyledBlock]]

        init(layout: BlockLayout, block: StyledBlock, path: [StructureElement]) {
            self.layout = layout
            self.block = block
            self.path = path
            remainingNotes = block.footnotes
        }

        mutating func add(_ item: Item, emit: (Item) throws -> Void) rethrows {
            var item = item
            let left = layout.left
            if first {
                first = false
                layout.hang(block.hangingMarkers, beside: &item)
                for anchor in ([block.anchor].compactMap { $0 } + block.extraAnchors).reversed() {
                    item.elements.insert(.destination(name: anchor, at: Point(x: left, y: 0)), at: 0)
                }
                for anchor in block.extraAnchors {
                    item.elements.insert(.destination(name: anchor, at: Point(x: left, y: 0)), at: 0)
                }
                if let outline = block.outline {
                    item.elements.insert(.outline(outline, at: Point(x: left, y: 0)), at: 0)
                }
            } else if block.keepTogether, item.breakBefore == .allowed {
                item.breakBefore = .avoid
            }
            item.structure = path
            if !remainingNotes.isEmpty {
                layout.attachNotes(to: &item, remaining: &remainingNotes)
            }
            if let previous = held { try emit(barred(previous)) }
            held = item
        }

        mutating func finish(emit: (Item) throws -> Void) rethrows {
            guard var last = held else { return }
            held = nil
            // Notes cited inside the block's notes (or a reference Layout could not find on a
            // line): kept on the last item the block passes on, laid out by the paginator as
            // far as the page it decides needs them (``Item/deferredNotes``).
            last.deferredNotes = remainingNotes.keys.sorted(by: >).map {
                DeferredNote(number: $0, blocks: remainingNotes[$0]!)
            }
            remainingNotes = [:]
            try emit(barred(last))
        }

        func barred(_ item: Item) -> Item {
            guard !block.quoteBars.isEmpty else { return item }
            var item = item
            item.bars = block.quoteBars.map { layout.left + $0 }
            item.barColors = block.colorsOfQuoteBars
            // The quotes and alerts the block stands in, outermost first, each with its bar.
            let owners = block.structure.filter { $0.role == .blockQuote || $0.role == .note }.map(\.id)
            item.barOwners = Array((owners.isEmpty ? block.quoteBarOwners : owners).prefix(block.quoteBars.count))
            return item
        }
    }

    /// Gives each footnote's lines to the item holding its reference (a link to `fn-<n>`),
    /// taking them out of `remaining`. The paginator sets them at the foot of the item's page,
    /// and splits a note too long for the room there at a line, continuing it on the next
    /// page (``Paginator/splitNotes(of:gap:placedNotes:)``).
    ///
    /// Note lines carry structure paths relative to their `Note`: the paginator places them
    /// after the citing block's element on the page.
    func attachNotes(to item: inout Item, remaining: inout [Int: [StyledBlock]]) {
        for case .link(_, .internal(let name)) in item.elements where name.hasPrefix("fn-") {
            guard let number = Int(name.dropFirst(3)), let blocks = remaining.removeValue(forKey: number) else {
                continue
            }
            var lines = noteItems(number, blocks)
            lines[0].elements.insert(.destination(name: name, at: Point(x: left, y: 0)), at: 0)
            item.notes += lines
        }
    }

    /// Gives the last element of `path` the language of `paragraph` (`/Lang`) when all its runs
    /// are set in one (`::: {lang=fr}`, a paragraph that is one `[…]{lang=fr}` span, a note).
    static func giveLanguage(of paragraph: StyledParagraph, to path: inout [StructureElement]) {
        guard let language = paragraph.runs.first?.style.language,
            paragraph.runs.allSatisfy({ $0.style.language == language }), let leaf = path.last, leaf.role != .artifact
        else { return }
        path[path.count - 1].language = language
    }

    /// The lines of footnote `number`, marked `Note` > `P` (relative paths), each with its
    /// block's quote bars and code panel (a panel of its own: two code blocks in a row are two
    /// panels, as in the text), and its block's `#id` on its first line. The note's blocks
    /// stand half an em of its text apart (a list's items, each with its marker, no more than
    /// its lines), left by an empty line box between them.
    func noteItems(_ number: Int, _ blocks: [StyledBlock]) -> [Item] {
        var items: [Item] = []
        var previous: StyledParagraph?
        for (k, block) in blocks.enumerated() {
            guard case .paragraph(let paragraph) = block.content else { continue }
            // A note is read in its own language, not in that of the paragraph citing it, whose
            // element it is placed in.
            var path = StructureMarks.notePath(
                number: number, paragraph: k, language: options.language, blockStructure: block.structure)
            BlockLayout.giveLanguage(of: paragraph, to: &path)
            let layout = BlockLayout(
                shaper: shaper, options: options, panelID: 0 &- (number &* 1_000_003 &+ k &+ 1),
                emptyParagraphs: emptyParagraphs)
            var lines = layout.paragraphItems(
                paragraph, background: block.background, padding: block.backgroundPadding, path: path)
            guard !lines.isEmpty else { continue }
            // A code block in a note copies as written, as one in the text does.
            if block.isCode, var copies = block.codeSource.flatMap({ CodeCopyTexts(source: $0, drawn: paragraph.text) })
            {
                for index in lines.indices { copies.setCopyText(of: &lines[index]) }
            }
            for anchor in [block.anchor].compactMap({ $0 }) + block.extraAnchors {
                lines[0].elements.insert(.destination(name: anchor, at: Point(x: left, y: 0)), at: 0)
            }
            for index in lines.indices {
                lines[index].noteNumber = number
                lines[index].bars = block.quoteBars.map { left + $0 }
                lines[index].barColors = block.colorsOfQuoteBars
            }
            if let previous, let last = items.last, paragraph.marker == nil || previous.marker == nil {
                var spacer = Item(height: paragraph.style.baseFont.size * 0.5)
                spacer.noteNumber = number
                // A quote's bar runs on beside the space between its paragraphs.
                spacer.bars = Array(zip(last.bars, lines[0].bars).prefix { $0 == $1 }.map(\.0))
                spacer.barColors = Array(last.barColors.prefix(spacer.bars.count))
                items.append(spacer)
            }
            items += lines
            previous = paragraph
        }
        return items
    }

    /// Sets list markers outside the block whose first item is `item` (``HangingMarker``):
    /// each flush right 0.45 em of its size before its item's content edge, on the baseline of
    /// the item's first line of text (a code block's first line, a table's first cell), or
    /// with its top at the item's top when the item holds no text (a figure). The marker is
    /// drawn first, as its item's `Lbl`, so it is read before the item's body; the item grows
    /// to hold a marker taller than itself.
    func hang(_ markers: [HangingMarker], beside item: inout Item) {
        guard !markers.isEmpty else { return }
        let firstBaseline = item.elements.lazy.compactMap { element -> Double? in
            if case .text(_, _, let baseline) = element { baseline } else { nil }
        }.first
        var drawn: [PageElement] = []
        for marker in markers {
            guard let font = marker.runs.first?.style.font,
                let line = shaper.shape(
                    StyledParagraph(runs: marker.runs, style: ParagraphStyle(baseFont: font)), width: nil
                ).lines.first
            else { continue }
            let baseline = firstBaseline ?? line.ascent
            drawn += [
                .structure(marker.structure),
                .text(line, x: left + marker.edge - font.size * 0.45 - line.width, baseline: baseline),
            ]
            item.height = max(item.height, baseline + line.descent)
        }
        item.elements.insert(contentsOf: drawn, at: 0)
    }

    /// The structure of a block that styling did not tag (contents entries, specimen parts):
    /// by what it draws, with an id apart from styled blocks'.
    func defaultStructure(for block: StyledBlock) -> [StructureElement] {
        let id = 1_000_000_000 + panelID
        switch block.content {
        case .paragraph: return [StructureElement(.paragraph, id: id)]
        case .table: return [StructureElement(.table, id: id)]
        case .image(let image): return [StructureElement(.figure, id: id, alternativeText: image.alt)]
        case .entry: return [StructureElement(.tocItem, id: id)]
        case .rule, .pageBreak: return [.artifact]
        }
    }

    /// A contents entry: the text wraps short of the page number, which sits flush right on the
    /// last line's baseline after a dot leader (dots every 4 pt, aligned across entries). The
    /// number is drawn after a word space, which shows nothing (the leader ends before it) but
    /// reads between the text and the number when the entry's text is extracted ("Results 12",
    /// not "Results12"). Each form of a page number is shaped once for all the entries that
    /// show it (``unwrappedLine(sharedAcrossLinks:)``).
    func entryItems(_ text: StyledParagraph, trailing: StyledParagraph, path: [StructureElement]) -> [Item] {
        guard let first = trailing.runs.first, let number = unwrappedLine(sharedAcrossLinks: trailing) else {
            return paragraphItems(text, background: nil, padding: 0, path: path)
        }
        var spaced = trailing
        spaced.runs[0].text = " " + first.text
        let drawn = unwrappedLine(sharedAcrossLinks: spaced) ?? number
        var narrowed = text
        let gap = text.style.baseFont.size * 1.5
        narrowed.style.rightIndent += number.width + gap
        var items = paragraphItems(narrowed, background: nil, padding: 0, path: path)
        guard let last = items.indices.last,
            case .text(let line, let x, let baseline)? = items[last].elements.first(where: {
                if case .text = $0 { return true } else { return false }
            })
        else { return items }
        let right = left + measure
        items[last].elements.append(.structure(path))
        items[last].elements.append(.text(drawn, x: right - drawn.width, baseline: baseline))
        items[last].elements.append(.structure([.artifact]))
        let dot = max(0.6, text.style.baseFont.size * 0.09)
        let pitch = 4.0
        let firstDot = (((x + line.width + gap / 3) - left) / pitch).rounded(.up) * pitch + left
        let end = right - number.width - gap / 3
        let count = end - dot > firstDot ? Int(((end - dot - firstDot) / pitch).rounded(.up)) : 0
        let color = text.runs.first?.style.color ?? .black
        if count > 0 {
            items[last].elements.append(
                .leader(x: firstDot, baseline: baseline, count: count, dot: dot, pitch: pitch, color: color))
        }
        return items
    }

    /// The first line of `paragraph` (one run, as a contents entry's page number) shaped
    /// unwrapped, its links leading where the run's link does. The run is shaped with a link to
    /// nowhere, which shapes alike (a link's target only names the spans the line reports), so
    /// that the equal numbers of entries linked to different headings are one paragraph to the
    /// shaper, which shapes a short paragraph once (``TextShaper/shape(_:width:)``); the
    /// spans are then pointed at the run's own target.
    func unwrappedLine(sharedAcrossLinks paragraph: StyledParagraph) -> ShapedLine? {
        guard paragraph.runs.count == 1, let target = paragraph.runs[0].style.link else {
            return shaper.shape(paragraph, width: nil).lines.first
        }
        var shared = paragraph
        shared.runs[0].style.link = .internal("")
        guard var line = shaper.shape(shared, width: nil).lines.first else { return nil }
        for index in line.links.indices { line.links[index].target = target }
        return line
    }

    /// The line boxes of a paragraph on the baseline grid its style defines.
    /// Each line's text is marked as `path`'s element (see ``StructureMarks``).
    func paragraphItems(_ paragraph: StyledParagraph, background: RGBAColor?, padding: Double, path: [StructureElement])
        -> [Item]
    {
        var items: [Item] = []
        paragraphItems(paragraph, background: background, padding: padding, path: path) { items.append($0) }
        return items
    }

    /// Hands the line boxes of ``paragraphItems(_:background:padding:path:)`` to `emit` in
    /// order, each group of lines as the shaper makes it (``TextShaper/shape(_:width:inGroups:)``).
    /// - Throws: what `emit` throws.
    ///
    /// `edges` are the edges of the paragraph's panel (when it has a `background`) that it
    /// draws, each with `padding` pt of the panel beyond its line: both for a whole paragraph,
    /// fewer for a part of a long code block.
    func paragraphItems(
        _ paragraph: StyledParagraph, background: RGBAColor?, padding: Double, path: [StructureElement],
        edges: PanelEdges = [.top, .bottom], emit: (Item) throws -> Void
    ) rethrows {
        let style = paragraph.style
        let width = max(12, measure - style.leftIndent - style.rightIndent)
        var linksBefore = 0
        var wordSpaces = WordSpaces(paragraph)
        let grid = LineGrid(shaper: shaper, style: style)
        let x0 = left + style.leftIndent
        if paragraph.runs.isEmpty {
            // Nothing to break: the one empty line, shaped once for every equal paragraph (the
            // marker is drawn beside the line, not shaped with it).
            var bare = paragraph
            bare.marker = nil
            let lines = emptyParagraphs.shaped(bare, width: width, by: shaper).lines
            try groupItems(
                ShapedLineGroup(lines: lines, first: 0, lineCount: lines.count), boxes: grid.boxes(for: lines),
                paragraph: paragraph, background: background, padding: padding, edges: edges, path: path, x0: x0,
                width: width, linksBefore: &linksBefore, wordSpaces: &wordSpaces, emit: emit)
            return
        }
        try shaper.shape(paragraph, width: width) { group in
            try groupItems(
                group, boxes: grid.boxes(for: group.lines), paragraph: paragraph, background: background,
                padding: padding, edges: edges, path: path, x0: x0, width: width, linksBefore: &linksBefore,
                wordSpaces: &wordSpaces, emit: emit)
        }
    }

    /// The items of one group of a paragraph's lines (see ``paragraphItems(_:background:padding:path:emit:)``);
    /// `linksBefore` counts the links of the paragraph's lines before the group.
    private func groupItems(
        _ group: ShapedLineGroup, boxes: [LineGrid.Box], paragraph: StyledParagraph,
        background: RGBAColor?, padding: Double, edges: PanelEdges, path: [StructureElement], x0: Double,
        width: Double, linksBefore: inout Int, wordSpaces: inout WordSpaces, emit: (Item) throws -> Void
    ) rethrows {
        let style = paragraph.style
        let lineCount = group.lineCount
        for (offset, (line, box)) in zip(group.lines, boxes).enumerated() {
            let lineIndex = group.first + offset
            var item = Item(height: box.above + box.below)
            var baseline = box.above
            if background != nil {
                if lineIndex == 0, edges.contains(.top) {
                    item.height += padding
                    baseline += padding
                }
                if lineIndex == lineCount - 1, edges.contains(.bottom) { item.height += padding }
            }
            if lineIndex == 0, let marker = paragraph.marker {
                // The marker first: a list item's label is read before its body.
                let markerParagraph = StyledParagraph(runs: marker, style: ParagraphStyle(baseFont: style.baseFont))
                if let markerLine = shaper.shape(markerParagraph, width: nil).lines.first {
                    let gap = style.baseFont.size * 0.45
                    let labelPath = StructureMarks.labelPath(path)
                    let markerX = x0 - gap - markerLine.width
                    item.elements.append(.structure(labelPath))
                    item.elements.append(.text(markerLine, x: markerX, baseline: baseline))
                    // A marker in its paragraph's own element (a footnote's number) is read
                    // apart from the paragraph's first word, as a list item's `Lbl` is.
                    if labelPath == path {
                        item.elements.append(
                            .wordSpace(after: markerLine, x: markerX + markerLine.width, baseline: baseline))
                    }
                }
            }
            // The line before ends in a hyphen (TeX's \brokenpenalty): a page turns here only
            // when no earlier break is allowed.
            let afterHyphen = lineIndex > 0 && wordSpaces.endedInHyphen
            let endsBetweenWords = lineIndex < lineCount - 1 && wordSpaces.endsBetweenWords(line)
            item.elements += StructureMarks.line(
                line, x: x0, baseline: baseline, path: path, linksBefore: linksBefore,
                endsBetweenWords: endsBetweenWords,
                endsInAddedHyphen: lineIndex < lineCount - 1 && wordSpaces.endedInAddedHyphen)
            linksBefore += line.links.count
            if style.guides {
                item.elements =
                    [.structure([.artifact])]
                    + GuideLines.elements(
                        for: line, box: box, metrics: shaper.metrics(of: style.baseFont), x: left, width: measure,
                        baseline: baseline)
                    + item.elements
            }
            if line.isWrapContinuation, style.hangingIndent > 0, var markStyle = paragraph.runs.first?.style {
                // A visible continuation mark in the hanging indent of a wrapped code line.
                markStyle.background = nil
                markStyle.font.families += ["DejaVu Sans Mono", "DejaVu Sans"]
                let mark = StyledParagraph(
                    runs: [StyledRun("↪", style: markStyle)], style: ParagraphStyle(baseFont: style.baseFont))
                if let markLine = shaper.shape(mark, width: nil).lines.first {
                    let color = RGBAColor(
                        red: markStyle.color.red, green: markStyle.color.green, blue: markStyle.color.blue, alpha: 0.45)
                    item.elements.append(.structure([.artifact]))
                    item.elements.append(
                        .ornament(
                            markLine, x: x0 + style.hangingIndent - markLine.width - style.baseFont.size * 0.3,
                            baseline: baseline, color: color))
                }
            }
            // Widows and orphans: a page may end before a line only if it leaves enough lines on
            // both sides; and not after a hyphen.
            if lineIndex > 0 {
                let enough = lineIndex >= options.orphans && lineCount - lineIndex >= options.widows
                item.breakBefore = enough && !afterHyphen ? .allowed : .avoid
            }
            // The next line before which a page may end: the first after this one that leaves
            // enough lines above it, if it leaves enough below it too (else the paragraph's end).
            let nextBreak = max(lineIndex + 1, options.orphans)
            item.linesKeptAfter = (lineCount - nextBreak >= options.widows ? nextBreak : lineCount) - lineIndex - 1
            if let background {
                item.panel = Panel(id: panelID, color: background, x: x0 - padding, width: width + 2 * padding)
            }
            try emit(item)
        }
    }
}

/// The edges of a background panel a paragraph's lines draw, each with the panel's padding
/// beyond the line next to it.
struct PanelEdges: OptionSet {
    let rawValue: Int
    /// The padding above the first line.
    static let top = PanelEdges(rawValue: 1)
    /// The padding below the last line.
    static let bottom = PanelEdges(rawValue: 2)
}

/// The line boxes of a paragraph: every line's baseline on the step the paragraph's line
/// height defines, measured on its base face.
///
/// step = lineHeight(size, natural) + leading adjustment, where natural = ascent + descent of
/// the base face (Apple `lineHeightMultiple` × natural height; Pango `line_height`). The extra
/// space (step − natural) is split in half above and below each line (half-leading), the first
/// line included. A line whose runs have larger primary faces grows by exactly the excess of
/// their ascent/descent; fallback faces never count (``ShapedLine/ascent``). Runs raised or
/// lowered by a baseline offset (superscripts, footnote markers) may reach into the
/// half-leading above or below the line without moving it; only what exceeds the line's ascent
/// or descent plus its half-leading (when positive) grows the line, by exactly that excess.
struct LineGrid {
    let shaper: TextShaper
    let style: ParagraphStyle

    struct Box {
        var above: Double
        var below: Double
        var halfLeading: Double
    }

    func boxes(for lines: [ShapedLine]) -> [Box] {
        let metrics = shaper.metrics(of: style.baseFont)
        let natural = metrics.naturalHeight
        let step =
            (style.lineHeight?.step(size: style.baseFont.size, naturalHeight: natural) ?? natural)
            + style.leadingAdjustment
        let half = (step - natural) / 2
        return lines.map { line in
            let room = max(half, 0)
            let above = max(metrics.ascent, line.ascent, line.shiftedAscent - room)
            let below = max(metrics.descent, line.descent, line.shiftedDescent - room)
            return Box(above: above + half, below: below + half, halfLeading: half)
        }
    }
}

/// Typographic guides over a line (specimen `--guides`): baseline, x-height, cap height,
/// ascent and descent lines, and the half-leading bands above and below the line box.
enum GuideLines {
    static func elements(
        for line: ShapedLine, box: LineGrid.Box, metrics m: FontMetrics, x: Double, width: Double, baseline: Double
    ) -> [PageElement] {
        func rule(_ y: Double, _ hex: String, _ w: Double = 0.25) -> PageElement {
            .line(from: Point(x: x, y: y), to: Point(x: x + width, y: y), width: w, color: RGBAColor(hex: hex)!)
        }
        var out: [PageElement] = []
        let top = baseline - box.above
        let bottom = baseline + box.below
        if box.halfLeading > 0 {
            let band = RGBAColor(hex: "#FFE9A833")!
            out.append(.fill(Rect(x: x, y: top, width: width, height: box.halfLeading), band))
            out.append(.fill(Rect(x: x, y: bottom - box.halfLeading, width: width, height: box.halfLeading), band))
        }
        out += [
            rule(baseline - m.ascent, "#7FA7E0"), rule(baseline + m.descent, "#7FA7E0"),
            rule(baseline - m.capHeight, "#E07F7F"), rule(baseline - m.xHeight, "#6CBF84"),
            rule(baseline, "#D0453A", 0.4),
        ]
        return out
    }
}
