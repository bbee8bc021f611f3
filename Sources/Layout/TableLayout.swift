import Styling
import Typography

/// GFM tables: column widths from content and the measure, rows as unbreakable items, the
/// header row repeated at the top of every continued page, booktabs-style rules.
struct TableLayout {
    let shaper: TextShaper
    let options: LayoutOptions

    var left: Double { options.page.margins.left }

    func items(for table: StyledTable) -> [Item] {
        let pad = table.cellPadding
        let allRows = [table.header] + table.rows
        let columns = allRows.map(\.count).max() ?? 0
        guard columns > 0 else { return [] }
        var natural = [Double](repeating: 0, count: columns)
        for row in allRows {
            for (j, cell) in row.enumerated() {
                // 0.5 pt of slack: Pango rounds widths to its units, and a cell set at exactly its natural
                // width could otherwise wrap its last word.
                natural[j] = max(natural[j], shaper.shape(cell, width: nil).naturalWidth + 2 * pad + 0.5)
            }
        }
        let widths = TableLayout.columnWidths(natural: natural, available: options.page.measure, minimum: 2 * pad + 24)
        let tableWidth = widths.reduce(0, +)
        let strong = 0.8, thin = 0.4
        var header = row(table.header, widths: widths, padding: pad)
        header.elements.insert(rule(y: strong / 2, width: tableWidth, thickness: strong, color: table.ruleColor), at: 0)
        header.elements.append(rule(y: header.height - thin / 2, width: tableWidth, thickness: thin, color: table.ruleColor))
        var items = [header]
        let headerBox = ItemBox(header)
        for (i, cells) in table.rows.enumerated() {
            var item = row(cells, widths: widths, padding: pad)
            let last = i == table.rows.count - 1
            let thickness = last ? strong : 0.25
            let color = last ? table.ruleColor : RGBAColor(red: table.ruleColor.red, green: table.ruleColor.green, blue: table.ruleColor.blue, alpha: 0.6)
            item.elements.append(rule(y: item.height - thickness / 2, width: tableWidth, thickness: thickness, color: color))
            item.breakBefore = i == 0 ? .avoid : .allowed
            item.repeatedHeader = headerBox
            items.append(item)
        }
        return items
    }

    func rule(y: Double, width: Double, thickness: Double, color: RGBAColor) -> PageElement {
        .line(from: Point(x: left, y: y), to: Point(x: left + width, y: y), width: thickness, color: color)
    }

    /// One row: every cell shaped at its column width, lines on the cell's baseline grid,
    /// the row as tall as its tallest cell plus padding.
    func row(_ cells: [StyledParagraph], widths: [Double], padding: Double) -> Item {
        var x = left
        var elements: [PageElement] = []
        var height = 0.0
        for (j, width) in widths.enumerated() {
            defer { x += width }
            guard j < cells.count else { continue }
            let cell = cells[j]
            let shaped = shaper.shape(cell, width: max(1, width - 2 * padding))
            var y = padding
            for (line, box) in zip(shaped.lines, LineGrid(shaper: shaper, style: cell.style).boxes(for: shaped.lines)) {
                let baseline = y + box.above
                elements.append(.text(line, x: x + padding + line.x, baseline: baseline))
                for link in line.links {
                    elements.append(.link(Rect(x: x + padding + link.x, y: baseline - line.ascent, width: link.width, height: line.ascent + line.descent), link.target))
                }
                y = baseline + box.below
            }
            height = max(height, y + padding)
        }
        return Item(height: height, elements: elements)
    }

    /// Column widths: natural widths when they fit the measure; otherwise columns narrower than
    /// an equal share keep their natural width and the rest share what remains in proportion
    /// to their natural widths (never below `minimum`).
    static func columnWidths(natural: [Double], available: Double, minimum: Double) -> [Double] {
        let total = natural.reduce(0, +)
        if total <= available { return natural }
        var widths = natural.map { max($0, minimum) }
        var fixed = Set<Int>()
        while true {
            let flexible = widths.indices.filter { !fixed.contains($0) }
            guard !flexible.isEmpty else { break }
            let remaining = available - fixed.reduce(0) { $0 + widths[$1] }
            let share = remaining / Double(flexible.count)
            let small = flexible.filter { natural[$0] <= share }
            if small.isEmpty {
                let flexibleNatural = flexible.reduce(0) { $0 + natural[$1] }
                for j in flexible { widths[j] = max(minimum, remaining * natural[j] / flexibleNatural) }
                break
            }
            for j in small { widths[j] = max(minimum, natural[j]); fixed.insert(j) }
        }
        return widths
    }
}

extension Paginator {
    /// Column widths for a table whose columns want `natural` widths (pt) within `available` pt;
    /// see the table layout rules in the README.
    public static func columnWidths(natural: [Double], available: Double, minimum: Double) -> [Double] {
        TableLayout.columnWidths(natural: natural, available: available, minimum: minimum)
    }
}
