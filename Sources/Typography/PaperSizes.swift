/// A paper size that could not be read: an unknown name, or a custom size without units.
public struct PaperSizeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// One line naming the value and what is accepted.
    public var description: String
}

extension PaperSize {
    /// Named sizes, portrait, in mm (US sizes in inches × 25.4): ISO 216 A0–A10 and B0–B10, ISO 269
    /// C4–C6, JIS P 0138 B4 and B5, and the ANSI/US sizes letter, legal, tabloid and ledger
    /// (tabloid turned landscape), as libpaper's `paperspecs` lists them.
    public static let named: [(name: String, width: Double, height: Double)] = {
        let seriesA: [(Double, Double)] = [
            (841, 1189), (594, 841), (420, 594), (297, 420), (210, 297), (148, 210), (105, 148),
            (74, 105), (52, 74), (37, 52), (26, 37),
        ]
        let seriesB: [(Double, Double)] = [
            (1000, 1414), (707, 1000), (500, 707), (353, 500), (250, 353), (176, 250), (125, 176),
            (88, 125), (62, 88), (44, 62), (31, 44),
        ]
        var list = seriesA.enumerated().map { ("a\($0.offset)", $0.element.0, $0.element.1) }
        list += seriesB.enumerated().map { ("b\($0.offset)", $0.element.0, $0.element.1) }
        list += [("c4", 229, 324), ("c5", 162, 229), ("c6", 114, 162), ("jis-b4", 257, 364), ("jis-b5", 182, 257)]
        list += [
            ("letter", 8.5 * 25.4, 11 * 25.4), ("legal", 8.5 * 25.4, 14 * 25.4), ("tabloid", 11 * 25.4, 17 * 25.4),
            ("ledger", 17 * 25.4, 11 * 25.4),
        ]
        return list
    }()

    /// Reads a paper size: a name from ``named`` (any case; `us-letter`, `b5-jis` and `jisb5`
    /// also accepted), optionally followed or preceded by `landscape` or `portrait`
    /// (`a4 landscape`, `a3-landscape`), or `W x H` where each length has a unit — `mm`, `cm`,
    /// `in`, `pt`, `px` (= pt) — e.g. `210mm x 297mm`, `6in x 9in`.
    /// - Throws: ``PaperSizeError`` naming the accepted forms; a size without units says so
    ///   rather than guessing pt.
    public init(parsing text: String) throws(PaperSizeError) {
        var words = text.lowercased().split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
        var landscape: Bool?
        for (i, word) in words.enumerated().reversed() {
            for suffix in ["landscape", "portrait"] {
                if word == suffix {
                    landscape = suffix == "landscape"
                    words.remove(at: i)
                } else if word.hasSuffix("-" + suffix) || word.hasSuffix("_" + suffix) {
                    landscape = suffix == "landscape"
                    words[i] = String(word.dropLast(suffix.count + 1))
                }
            }
        }
        let rest = words.joined(separator: " ")
        var size: PaperSize
        let aliases = [
            "us-letter": "letter", "usletter": "letter", "us-legal": "legal", "b5-jis": "jis-b5", "b4-jis": "jis-b4",
            "jisb5": "jis-b5", "jisb4": "jis-b4", "jis b5": "jis-b5", "jis b4": "jis-b4",
        ]
        let name = aliases[rest] ?? rest
        let constants: [String: PaperSize] = ["a4": .a4, "a5": .a5, "letter": .letter, "legal": .legal]
        if let constant = constants[name] {
            size = constant  // the same values as the named constants, to the last digit
        } else if let entry = PaperSize.named.first(where: { $0.name == name }) {
            size = PaperSize(width: entry.width * 72 / 25.4, height: entry.height * 72 / 25.4)
        } else if rest.contains("x") {
            let parts = rest.split(separator: "x", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard parts.count == 2 else {
                throw PaperSizeError(description: "paper '\(text)': expected W x H, e.g. '210mm x 297mm'")
            }
            if parts.contains(where: { Double($0) != nil }) {
                throw PaperSizeError(
                    description: "paper '\(text)': each side needs a unit (mm, cm, in or pt), e.g. '210mm x 297mm'")
            }
            guard let width = Length.points(parts[0]), let height = Length.points(parts[1]), width > 0, height > 0
            else {
                throw PaperSizeError(
                    description:
                        "paper '\(text)': expected lengths with units (mm, cm, in or pt) up to 200 in a side, e.g. "
                        + "'210mm x 297mm'"
                )
            }
            size = PaperSize(width: width, height: height)
        } else {
            throw PaperSizeError(
                description: "unknown paper '\(text)' (A0–A10, B0–B10, C4–C6, JIS-B4, JIS-B5, letter, legal, tabloid, "
                    + "ledger, optionally 'landscape', or 'W x H' with units such as '210mm x 297mm')")
        }
        if let landscape, landscape != (size.width > size.height) {
            size = PaperSize(width: size.height, height: size.width)
        }
        self = size
    }
}

extension Margins {
    /// Reads margins written as CSS `margin`: one length (every side), two (top and bottom,
    /// left and right), three (top, left and right, bottom) or four (top, right, bottom, left),
    /// each with a unit as ``Length/pointsWithUnit(_:)`` reads it (`20mm`, `1in`, `36pt`; a
    /// bare number other than 0 is refused, as in Typst). Returns nil for anything else.
    public init?(css text: String) {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "," })
        let parts = words.compactMap { Length.pointsWithUnit(String($0)) }
        guard !parts.isEmpty, parts.count == words.count, parts.count <= 4 else { return nil }
        switch parts.count {
        case 1: self.init(all: parts[0])
        case 2: self.init(top: parts[0], right: parts[1], bottom: parts[0], left: parts[1])
        case 3: self.init(top: parts[0], right: parts[1], bottom: parts[2], left: parts[1])
        default: self.init(top: parts[0], right: parts[1], bottom: parts[2], left: parts[3])
        }
    }
}
