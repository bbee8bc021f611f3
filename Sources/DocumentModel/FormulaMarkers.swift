/// The markers that stand for formulas in the text the Markdown parser hands cmark-gfm: a word
/// joiner (U+2060) and an inline HTML tag, `<typeset-math … c="5" e="12" …>`, that names the
/// file's columns where the formula begins (`c`) and, for a formula on one line, the column
/// just after it (`e`). A marker is longer than its formula, so a column of the marked text
/// after one is not the file's: ``sourceColumn(_:among:)`` gives the file's.
public enum FormulaMarkers {
    /// The marker's tag name.
    public static let tag = "typeset-math"

    /// A marker on a line of marked text: its columns there and the file's columns of the
    /// formula it stands for (1-based).
    public struct Place: Hashable, Sendable {
        /// The marker's first column and the column after it, on the marked line.
        public var markedStart: Int, markedEnd: Int
        /// The formula's first column in the file, and the column after it (nil: the formula
        /// runs onto later lines).
        public var start: Int, end: Int?
    }

    /// The markers of `line` (a line of marked text), in order. Time linear in the line.
    public static func places(in line: ArraySlice<UInt8>) -> [Place] {
        let opening = Array("\u{2060}<\(tag) ".utf8)
        var places: [Place] = []
        var rest = line[...]
        while let found = rest.firstRange(of: opening) {
            guard let close = line[found.upperBound...].firstIndex(of: UInt8(ascii: ">")) else { break }
            let html = String(decoding: line[found.upperBound..<close], as: UTF8.self)
            rest = line[(close + 1)...]
            guard let start = attribute("c", in: html).flatMap({ Int($0) }) else { continue }
            places.append(
                Place(
                    markedStart: found.lowerBound - line.startIndex + 1, markedEnd: close - line.startIndex + 2,
                    start: start, end: attribute("e", in: html).flatMap { Int($0) }))
        }
        return places
    }

    /// The file's column for `column` of a marked line whose markers are `places`: a column
    /// after a marker moves by the difference between the marker's length and the formula's,
    /// a column inside one is the formula's first.
    public static func sourceColumn(_ column: Int, among places: [Place]) -> Int {
        guard let place = places.last(where: { $0.markedStart <= column }) else { return column }
        guard column >= place.markedEnd, let end = place.end else { return place.start }
        return end + (column - place.markedEnd)
    }

    /// The value of the attribute `name` in a marker's HTML (`name="value"`).
    public static func attribute(_ name: String, in html: String) -> String? {
        let first = "\(name)=\""
        guard
            let start = html.hasPrefix(first)
                ? html.index(html.startIndex, offsetBy: first.count)
                : html.firstRange(of: " " + first)?.upperBound,
            let end = html[start...].firstIndex(of: "\"")
        else { return nil }
        return String(html[start..<end])
    }
}
