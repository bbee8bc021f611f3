import Foundation

/// The document's link reference and footnote definitions (a prefix of
/// ``SourceWindows/prefix(runs:lines:)``) split into one unit a definition, so that a part of
/// the text parsed on its own (a definition's indented blocks) is parsed after the definitions
/// it may cite rather than after all of them: each such part then costs its own length and
/// its citations', not the document's whole list of definitions.
///
/// A unit starts at a line `[label]:` indented at most three spaces (CommonMark 0.31 §4.7,
/// GFM's footnote definitions) after a blank line or after a link reference definition — not
/// inside a footnote's paragraph, where such a line is the paragraph's lazy continuation — and
/// holds the lines up to the next unit: a definition's title lines, a footnote's indented
/// blocks. Lines before the first unit, and units with another line that may define (holding
/// `]:`), are always kept, so no definition a part may cite is ever left out.
struct CitedDefinitions {
    /// One definition (or lines kept whatever is cited): prefix lines, 1-based, and its key.
    private struct Unit {
        var lines: ClosedRange<Int>
        /// ``key(_:)`` of its label; nil: always kept.
        var key: String?
    }

    private let prefixLines: [ArraySlice<UInt8>]
    private var units: [Unit] = []
    private var unitsByKey: [String: [Int]] = [:]
    /// The units kept whatever is cited, in order.
    private var alwaysKept: [Int] = []

    /// Splits `prefix` (its bytes) into units.
    init(prefix: [UInt8]) {
        prefixLines = prefix.split(separator: 0x0A, omittingEmptySubsequences: false)
        var previousBlank = true
        for (index, line) in prefixLines.enumerated() {
            let number = index + 1
            let isBlank = line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
            let label = isBlank ? nil : Self.definedLabel(line)
            let afterReference = units.last.map { $0.key.map { !$0.hasPrefix("^") } ?? false } ?? false
            if let label, previousBlank || afterReference {
                units.append(Unit(lines: number...number, key: Self.key(label)))
            } else if var last = units.popLast() {
                last.lines = last.lines.lowerBound...number
                // A line of its own that may define (a multi-line label, a definition in a
                // note's blocks or a block quote): the unit is kept whatever is cited.
                if Self.mayDefine(line) { last.key = nil }
                units.append(last)
            } else {
                units.append(Unit(lines: number...number, key: nil))
            }
            previousBlank = isBlank
        }
        for (index, unit) in units.enumerated() {
            if let key = unit.key { unitsByKey[key, default: []].append(index) } else { alwaysKept.append(index) }
        }
    }

    /// The prefix of the units `text` may cite (every `[…]` in it is taken as a possible label)
    /// and those always kept, each followed by a blank line and the whole closed by an HTML
    /// comment as ``SourceWindows/prefix(runs:lines:)`` closes its prefix; and the runs of
    /// prefix lines it is made of, for ``SourceWindows/sourceLine(ofPrefixLine:runs:)``.
    func prefix(citedIn text: String) -> (bytes: [UInt8], lines: Int, runs: [ClosedRange<Int>]) {
        var chosen = Set(alwaysKept)
        for key in Self.possibleLabels(in: Array(text.utf8)).map(Self.key) {
            chosen.formUnion(unitsByKey[key] ?? [])
        }
        var bytes: [UInt8] = []
        var count = 0
        var runs: [ClosedRange<Int>] = []
        for unit in chosen.sorted().map({ units[$0] }) {
            for line in unit.lines {
                bytes += prefixLines[line - 1]
                bytes.append(0x0A)
            }
            bytes.append(0x0A)
            count += unit.lines.count + 1
            runs.append(unit.lines)
        }
        bytes += Array("<!-- -->\n\n".utf8)
        return (bytes, count + 2, runs)
    }

    /// The key labels are matched by: CommonMark's label normalization (case fold, runs of
    /// white space as one space) through Foundation's case folding.
    static func key(_ label: String) -> String {
        CmarkConverter.normalizedLabel(label).folding(options: .caseInsensitive, locale: nil)
    }

    /// The label of `line` when it opens a definition, `[label]:` after at most three spaces
    /// (`^label` for a footnote); a backslash escapes the next byte.
    static func definedLabel(_ line: ArraySlice<UInt8>) -> String? {
        var index = line.startIndex
        var indent = 0
        while index < line.endIndex, line[index] == 0x20, indent < 4 {
            index += 1
            indent += 1
        }
        guard indent < 4, index < line.endIndex, line[index] == UInt8(ascii: "[") else { return nil }
        guard let close = closingBracket(in: line, after: index), close + 1 < line.endIndex,
            line[close + 1] == UInt8(ascii: ":")
        else { return nil }
        return String(decoding: line[(index + 1)..<close], as: UTF8.self)
    }

    /// Whether `line` holds `]:`, as every line that ends a definition's label does.
    static func mayDefine(_ line: ArraySlice<UInt8>) -> Bool {
        var previous: UInt8 = 0
        for byte in line {
            if previous == UInt8(ascii: "]"), byte == UInt8(ascii: ":") { return true }
            previous = byte
        }
        return false
    }

    /// Each text between a `[` and the next unescaped `]` in `bytes` (at most 999 bytes: a
    /// CommonMark label's limit).
    static func possibleLabels(in bytes: [UInt8]) -> [String] {
        var labels: [String] = []
        for index in bytes.indices where bytes[index] == UInt8(ascii: "[") {
            if index > 0, bytes[index - 1] == UInt8(ascii: "\\") { continue }
            if let close = closingBracket(in: bytes[...], after: index) {
                labels.append(String(decoding: bytes[(index + 1)..<close], as: UTF8.self))
            }
        }
        return labels
    }

    /// The index of the first unescaped `]` after `open` within 1,000 bytes.
    private static func closingBracket(in bytes: ArraySlice<UInt8>, after open: Int) -> Int? {
        var index = open + 1
        let end = min(bytes.endIndex, open + 1_001)
        while index < end {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "]"): return index
            default: index += 1
            }
        }
        return nil
    }
}
