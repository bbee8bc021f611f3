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
        var places: [Place] = []
        var from = line.startIndex
        while let found = firstMarker(in: line[from...]) {
            let contentStart = found + opening.count
            guard let close = line[contentStart...].firstIndex(of: UInt8(ascii: ">")) else { break }
            let html = line[contentStart..<close]
            from = close + 1
            guard let start = attribute("c", in: html).flatMap(decimal) else { continue }
            places.append(
                Place(
                    markedStart: found - line.startIndex + 1, markedEnd: close - line.startIndex + 2,
                    start: start, end: attribute("e", in: html).flatMap(decimal)))
        }
        return places
    }

    /// The number `digits` writes in decimal; nil for an empty or non-decimal value.
    private static func decimal(_ digits: ArraySlice<UInt8>) -> Int? {
        guard !digits.isEmpty, digits.count < 19 else { return nil }
        var value = 0
        for digit in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
            value = value * 10 + Int(digit - UInt8(ascii: "0"))
        }
        return value
    }

    /// The bytes a marker opens with: the word joiner, `<`, the tag and a space.
    static let opening = Array("\u{2060}<\(tag) ".utf8)

    /// Where the first marker in `bytes` starts; nil when none does. A byte search for the word
    /// joiner's first byte, then a comparison: time linear in `bytes`.
    public static func firstMarker(in bytes: ArraySlice<UInt8>) -> Int? {
        var from = bytes.startIndex
        while let candidate = bytes[from...].firstIndex(of: opening[0]) {
            if bytes[candidate...].starts(with: opening) { return candidate }
            from = candidate + 1
        }
        return nil
    }

    /// The file's column for `column` of a marked line whose markers are `places`: a column
    /// after a marker moves by the difference between the marker's length and the formula's,
    /// a column inside one is the formula's first.
    public static func sourceColumn(_ column: Int, among places: [Place]) -> Int {
        // The last place starting at or before the column (a binary search: places ascend).
        var low = 0
        var high = places.count
        while low < high {
            let middle = (low + high) / 2
            if places[middle].markedStart <= column { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return column }
        let place = places[low - 1]
        guard column >= place.markedEnd, let end = place.end else { return place.start }
        return end + (column - place.markedEnd)
    }

    /// The value of the attribute `name` in a marker's HTML (`name="value"`): a scan of its
    /// bytes, time linear in the HTML.
    public static func attribute(_ name: String, in html: String) -> String? {
        var html = html
        return html.withUTF8 { bytes in
            attribute(name, in: bytes).map { String(decoding: UnsafeBufferPointer(rebasing: $0), as: UTF8.self) }
        }
    }

    /// The bytes of the value of the attribute `name` in a marker's HTML bytes `html`
    /// (`name="value"`, at the start or after a space).
    static func attribute<Bytes: Collection<UInt8>>(_ name: String, in html: Bytes) -> Bytes.SubSequence? {
        let first = Array(name.utf8) + [UInt8(ascii: "="), UInt8(ascii: "\"")]
        var index = html.startIndex
        var atStart = true
        while index != html.endIndex {
            if atStart, html[index...].starts(with: first) {
                let start = html.index(index, offsetBy: first.count)
                guard let end = html[start...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
                return html[start..<end]
            }
            atStart = html[index] == UInt8(ascii: " ")
            index = html.index(after: index)
        }
        return nil
    }
}
