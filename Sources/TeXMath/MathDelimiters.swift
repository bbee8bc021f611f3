extension MathLayout {
    /// `character` at least `size` pt long (height plus depth when `vertical`, else width): the
    /// nominal glyph, its first size variant long enough, or its assembly of parts (OpenType
    /// MATH, MathGlyphConstruction and GlyphAssembly); the largest variant when none of these
    /// reaches.
    func stretchedGlyph(_ character: String, size: Double, vertical: Bool, _ style: MathStyle) -> MathBox {
        guard character.unicodeScalars.count == 1, let nominal = font.glyph(for: character.unicodeScalars.first!)
        else { return symbolBox(character, style) }
        let factor = scale(style)
        let target = size / factor
        let variants = font.variants(of: nominal, vertical: vertical)
        func length(_ glyph: UInt32) -> Double {
            if vertical {
                let bounds = font.bounds(of: glyph)
                return bounds.ascent + bounds.descent
            }
            return font.advance(of: glyph)
        }
        if length(nominal) >= target { return glyphBox(nominal, style) }
        if let variant = variants.first(where: { length($0.glyph) >= target }) {
            return glyphBox(variant.glyph, style)
        }
        let parts = font.assembly(of: nominal, vertical: vertical)
        if parts.isEmpty || !parts.contains(where: \.isExtender) {
            return glyphBox(variants.last?.glyph ?? nominal, style)
        }
        return assemblyBox(parts, length: target, vertical: vertical, style)
    }

    /// A horizontal glyph for a wide accent over or under a base `size` pt wide (a brace), chosen
    /// as LuaTeX chooses a stretchy accent's (`make_math_accent`): the nominal glyph when it is
    /// as wide as the base; else the widest size variant no wider than the base, or, when every
    /// variant is narrower, the glyph assembly made as wide as the base.
    func wideAccentGlyph(_ character: String, size: Double, _ style: MathStyle) -> MathBox {
        guard character.unicodeScalars.count == 1, let nominal = font.glyph(for: character.unicodeScalars.first!)
        else { return symbolBox(character, style) }
        let target = size / scale(style)
        if font.advance(of: nominal) >= target { return glyphBox(nominal, style) }
        let variants = font.variants(of: nominal, vertical: false)
        if let wider = variants.firstIndex(where: { font.advance(of: $0.glyph) > target }) {
            return glyphBox(variants[..<wider].last?.glyph ?? nominal, style)
        }
        let parts = font.assembly(of: nominal, vertical: false)
        if parts.isEmpty || !parts.contains(where: \.isExtender) {
            return glyphBox(variants.last?.glyph ?? nominal, style)
        }
        return assemblyBox(parts, length: target, vertical: false, style)
    }

    /// An assembly of `parts` at least `length` font units long: the extenders repeated as
    /// often as the parts need to reach it with the least overlap (at most
    /// ``mostExtenderRepeats`` times), then the overlap shared out evenly.
    func assemblyBox(_ parts: [MathGlyphPart], length: Double, vertical: Bool, _ style: MathStyle) -> MathBox {
        let overlap = font.minimumConnectorOverlap
        // With each extender repeated r times and every joint overlapping by `overlap`, the
        // parts reach fixed + r × perRepeat: the repeats that reach `length` are found at once.
        let extenders = parts.filter(\.isExtender)
        let others = parts.filter { !$0.isExtender }
        let fixed = others.reduce(0) { $0 + $1.fullAdvance } - Double(others.count - 1) * overlap
        let perRepeat = extenders.reduce(0) { $0 + $1.fullAdvance } - Double(extenders.count) * overlap
        var repeats = 1
        if perRepeat > 0, length > fixed {
            repeats = min(Self.mostExtenderRepeats, max(1, Int(((length - fixed) / perRepeat).rounded(.up))))
        }
        let sequence = parts.flatMap { $0.isExtender ? Array(repeating: $0, count: repeats) : [$0] }
        let total = sequence.reduce(0) { $0 + $1.fullAdvance }
        var shared = sequence.count > 1 ? (total - length) / Double(sequence.count - 1) : 0
        let connectorLimit =
            zip(sequence, sequence.dropFirst()).map { min($0.endConnector, $1.startConnector) }.min() ?? overlap
        shared = min(max(shared, overlap), max(overlap, connectorLimit))
        let factor = scale(style)
        var box = MathBox()
        var position = 0.0
        for part in sequence {
            let glyph = glyphBox(part.glyph, style)
            if vertical {
                let bottom = font.bounds(of: part.glyph).descent
                box.place(glyph, x: 0, y: (position + bottom) * factor)
                box.width = max(box.width, glyph.width)
            } else {
                box.place(glyph, x: position * factor, y: 0)
            }
            position += part.fullAdvance - shared
        }
        let extent = (position + shared) * factor
        if vertical {
            box.depth = 0
            box.height = extent
        } else {
            box.width = extent
        }
        box.isCharacter = false
        return box
    }

    /// The most times an assembly repeats its extenders: a delimiter around some thousands of
    /// rows, past which a formula's own limits have set it smaller.
    static let mostExtenderRepeats = 8_192

    /// A delimiter at least `size` pt tall, centred on the axis; none (nil): an empty box of
    /// `\nulldelimiterspace` (0.12 em, LaTeX's 1.2 pt at 10 pt).
    func delimiterBox(_ delimiter: MathDelimiter, size: Double, _ style: MathStyle) -> MathBox {
        guard let delimiter, !delimiter.isEmpty else { return MathBox(width: 0.12 * em(style)) }
        let glyph = stretchedGlyph(delimiter, size: size, vertical: true, style)
        let shift = (glyph.height - glyph.depth) / 2 - axis(style)
        var box = glyph.raised(by: -shift)
        box.isCharacter = false
        box.italicsCorrection = 0
        return box
    }

    /// The size TeX asks of delimiters around a subformula reaching `height` above and `depth`
    /// below the baseline: twice its larger extent from the axis, times `\delimiterfactor`
    /// 901/1000, or less `\delimitershortfall` (5 pt at 10 pt), whichever is larger (Appendix
    /// G, rule 19).
    func delimiterSize(height: Double, depth: Double, _ style: MathStyle) -> Double {
        let extent = 2 * max(height - axis(style), depth + axis(style))
        return max(extent * 0.901, extent - 0.5 * em(style))
    }

    /// `\left … \middle … \right`: the parts set in turn, each delimiter sized to all of them.
    func fencedBox(delimiters: [MathDelimiter], parts: [[MathNode]], _ style: MathStyle) -> MathBox {
        let boxes = parts.map { layoutList($0, style: style) }
        let height = boxes.map(\.height).max() ?? 0
        let depth = boxes.map(\.depth).max() ?? 0
        let size = delimiterSize(height: height, depth: depth, style)
        var box = MathBox()
        for (index, delimiter) in delimiters.enumerated() {
            box.append(delimiterBox(delimiter, size: size, style))
            if index < boxes.count { box.append(boxes[index]) }
        }
        box.italicsCorrection = 0
        return box
    }

    /// `\big` (level 1) to `\Bigg` (4): amsmath's sizes, 1, 1.5, 2 and 2.5 times `\big@size`,
    /// 1.2 × the height plus depth of the math strut (the font's parenthesis), then sized as
    /// `\left` sizes them (``delimiterSize``).
    func sizedDelimiterBox(_ delimiter: String, level: Int, _ style: MathStyle) -> MathBox {
        let factors = [1.0, 1.5, 2.0, 2.5]
        let strut = symbolBox("(", MathStyle(.text))
        let total = factors[max(0, min(3, level - 1))] * 1.2 * (strut.height + strut.depth)
        let extent = max(total * 0.901, total - 0.5 * size)
        var box = delimiterBox(delimiter.isEmpty ? nil : delimiter, size: extent, style)
        // The empty `\vcenter` of that size stays in the box.
        box.height = max(box.height, total / 2 + axis(style))
        box.depth = max(box.depth, total / 2 - axis(style))
        return box
    }

    /// A matrix or an alignment: its cells set in the array's style, each row at least as tall
    /// and deep as LaTeX's strut (0.7 and 0.3 of a 1.2 em baseline skip), rows `rowGap` apart,
    /// the whole centred on the axis, between delimiters sized to it. Rules (`|`, `\hline`,
    /// `\cline`) are LaTeX's `\arrayrulewidth`, 0.04 em (0.4 pt at 10 pt): between columns in
    /// the middle of their gap, widened by the rule; at an outer edge with `\arraycolsep`
    /// (0.5 em) between it and the column; between rows halfway from one to the next.
    func arrayBox(_ array: MathArray, left: MathDelimiter, right: MathDelimiter, _ style: MathStyle) -> MathBox {
        let cellStyle = MathStyle(array.cellStyle == .display && style.level != .display ? .text : array.cellStyle)
        let cells = array.rows.map { row in row.map { layoutList($0, style: cellStyle) } }
        let columns = cells.map(\.count).max() ?? 0
        var widths = [Double](repeating: 0, count: columns)
        for (rowIndex, row) in cells.enumerated() where !array.textRows.contains(rowIndex) {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.width) }
        }
        // The struts of the cells' own size: a `\substack` in a limit is at script size,
        // whatever the style around it.
        let strutScale = scale(cellStyle) / scale(MathStyle(.text))
        let strutHeight = 0.84 * size * strutScale * array.stretch
        let strutDepth = 0.36 * size * strutScale * array.stretch
        var grid = MathBox()
        var baseline = 0.0
        let rule = 0.04 * size
        let padding = 0.5 * size
        var x = [Double](repeating: 0, count: max(columns, 1))
        let ruledBefore = array.verticalRules.contains(0)
        x[0] = (ruledBefore ? rule : 0) + (array.spaceBefore.map { $0 * size } ?? (ruledBefore ? padding : 0))
        var ruleX: [Int: Double] = array.verticalRules.contains(0) ? [0: 0] : [:]
        for column in 1..<max(columns, 1) {
            // The gaps repeat as the alignments do: an alignment's pairs of columns are 2 em
            // apart, the two columns of each pair touching.
            let gap = array.columnGaps[(column - 1) % array.columnGaps.count] * size
            let end = x[column - 1] + widths[column - 1]
            let ruled = array.verticalRules.contains(column)
            if ruled { ruleX[column] = end + gap / 2 }
            x[column] = end + gap + (ruled ? rule : 0)
        }
        var rowTops: [Double] = []
        var rowBottoms: [Double] = []
        var rowPlaces: [MathBoxRow] = []
        var textWidth = 0.0
        for (rowIndex, row) in cells.enumerated() {
            let height = max(strutHeight, row.map(\.height).max() ?? 0)
            let depth = max(strutDepth, row.map(\.depth).max() ?? 0)
            if rowIndex > 0 { baseline -= height }
            if array.textRows.contains(rowIndex), let text = row.first {
                grid.place(text, x: 0, y: baseline)
                textWidth = max(textWidth, text.width)
            }
            var end = array.textRows.contains(rowIndex) ? row.first?.width ?? 0 : 0
            for (column, cell) in row.enumerated() where !array.textRows.contains(rowIndex) {
                let alignment =
                    rowIndex < array.rowAlignments.count
                    ? array.rowAlignments[rowIndex] : array.alignments[column % array.alignments.count]
                let offset: Double =
                    switch alignment {
                    case .left: 0
                    case .center: (widths[column] - cell.width) / 2
                    case .right: widths[column] - cell.width
                    }
                grid.place(cell, x: x[column] + offset, y: baseline)
                if cell.width > 0 { end = max(end, x[column] + offset + cell.width) }
            }
            rowPlaces.append(MathBoxRow(baseline: baseline, depth: depth, end: end))
            if rowIndex == 0 { grid.height = max(grid.height, height) }
            grid.depth = max(grid.depth, depth - baseline)
            rowTops.append(baseline + height)
            rowBottoms.append(baseline - depth)
            let extra = rowIndex < array.extraRowSpace.count ? array.extraRowSpace[rowIndex] * size : 0
            baseline -= depth + array.rowGap * size + extra
        }
        grid.width = max(textWidth, columns > 0 ? x[columns - 1] + widths[columns - 1] : 0)
        let ruledAfter = columns > 0 && array.verticalRules.contains(columns)
        let after = array.spaceAfter.map { $0 * size } ?? (ruledAfter ? padding : 0)
        if ruledAfter { ruleX[columns] = grid.width + after }
        grid.width += after + (ruledAfter ? rule : 0)
        if !array.horizontalRules.isEmpty || !ruleX.isEmpty {
            drawRules(
                array, in: &grid, rowTops: rowTops, rowBottoms: rowBottoms, columnStarts: x, widths: widths,
                ruleX: ruleX, rule: rule)
        }
        // Centred on the axis, as `\vcenter` does, or on its first or last row's baseline.
        let shift =
            switch array.anchor {
            case .axis: (grid.height - grid.depth) / 2 - axis(style)
            case .firstRow: rowPlaces.first?.baseline ?? 0
            case .lastRow: rowPlaces.last?.baseline ?? 0
            }
        var centred = grid.raised(by: -shift)
        centred.rows = rowPlaces.map { MathBoxRow(baseline: $0.baseline - shift, depth: $0.depth, end: $0.end) }
        guard left != nil || right != nil else { return centred }
        return fencedBoxes(centred, left: left, right: right, style)
    }

    /// The rules of `array` drawn into `grid`: each row rule at its boundary (above the first
    /// row's top, below the last row's bottom, else halfway between the rows), across the
    /// columns it names; then each column rule at `ruleX`, from the top to the bottom.
    private func drawRules(
        _ array: MathArray, in grid: inout MathBox, rowTops: [Double], rowBottoms: [Double], columnStarts: [Double],
        widths: [Double], ruleX: [Int: Double], rule: Double
    ) {
        guard let firstTop = rowTops.first, let lastBottom = rowBottoms.last else { return }
        for rowRule in array.horizontalRules {
            let boundary = min(max(rowRule.boundary, 0), rowTops.count)
            let y =
                boundary == 0
                ? firstTop
                : boundary == rowTops.count
                    ? lastBottom - rule : (rowBottoms[boundary - 1] + rowTops[boundary]) / 2 - rule / 2
            var start = 0.0
            var end = grid.width
            if let columns = rowRule.columns, !widths.isEmpty {
                let first = min(columns.lowerBound, widths.count) - 1
                let last = min(columns.upperBound, widths.count) - 1
                start = columnStarts[first]
                end = columnStarts[last] + widths[last]
            }
            grid.items.append(.rule(x: start, y: y, width: max(0, end - start), height: rule, color: nil))
            grid.height = max(grid.height, y + rule)
            grid.depth = max(grid.depth, -y)
        }
        for (_, x) in ruleX.sorted(by: { $0.key < $1.key }) {
            grid.items.append(
                .rule(x: x, y: -grid.depth, width: rule, height: grid.height + grid.depth, color: nil))
        }
    }

    /// `box` between `left` and `right` sized to it.
    func fencedBoxes(_ box: MathBox, left: MathDelimiter, right: MathDelimiter, _ style: MathStyle) -> MathBox {
        let size = delimiterSize(height: box.height, depth: box.depth, style)
        var fenced = MathBox()
        fenced.append(delimiterBox(left, size: size, style))
        fenced.append(box)
        fenced.append(delimiterBox(right, size: size, style))
        return fenced
    }
}
