import Foundation

/// Where two PDFs that should have the same bytes differ, for a failure message that can be
/// acted on: both files are kept, and the first object that differs between them is named.
///
/// Objects are compared in qpdf's QDF form (`qpdf --qdf --object-streams=disable`: every
/// object on its own, streams uncompressed), by their number in the file they came from (the
/// `%% Original object ID` comment qpdf writes before each), with every reference rewritten to
/// that number too, so that qpdf's own numbering of the QDF file, which follows the objects it
/// meets, does not make every object after an added one look different.
public enum PDFDifference {
    /// One object of a QDF file: its number in the original file, what qpdf says of it
    /// (`Page 2`, `Contents for page 2`), and its text with references as original numbers.
    struct Object {
        var original: String
        var labels: [String]
        var text: String
    }

    /// Copies `expected` and `actual` into `<temporary folder>/typeset-failed-<name>` (created,
    /// emptied first) as `expected.pdf` and `actual.pdf`, and returns a message naming that
    /// folder and the first object that differs (``firstDifference(_:_:)``).
    public static func keep(expected: String, actual: String, name: String) -> String {
        let folder = NSTemporaryDirectory() + "typeset-failed-\(name)"
        let manager = FileManager.default
        try? manager.removeItem(atPath: folder)
        try? manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try? manager.copyItem(atPath: expected, toPath: folder + "/expected.pdf")
        try? manager.copyItem(atPath: actual, toPath: folder + "/actual.pdf")
        let difference = (try? firstDifference(expected, actual)) ?? "qpdf could not compare them"
        let fonts = (try? fontDifference(expected, actual)).map { "; " + $0 } ?? ""
        return "kept in \(folder) (expected.pdf, actual.pdf); \(difference)\(fonts)"
    }

    /// The fonts (`pdffonts`: name without its subset tag, type, encoding) one file has more
    /// often than the other, as `fonts only in the expected file: …; only in the actual file:
    /// …`; nil when both have the same. A font's glyphs split into two subsets in one file, or
    /// moved between a simple and a composite font, show here even when object numbers moved.
    /// - Throws: when `pdffonts` cannot be run.
    public static func fontDifference(_ expected: String, _ actual: String) throws -> String? {
        func fonts(_ pdf: String) throws -> [String: Int] {
            let lines = try PDFProbe.run("pdffonts", [pdf]).output.split(separator: "\n").dropFirst(2)
            var counts: [String: Int] = [:]
            for line in lines {
                // Name, type (one or more words), encoding, then emb, sub, uni, object number.
                let fields = line.split(separator: " ")
                guard fields.count >= 8 else { continue }
                let name = fields[0].split(separator: "+").last.map(String.init) ?? ""
                counts[([name] + fields[1..<(fields.count - 5)].map(String.init)).joined(separator: " "), default: 0] +=
                    1
            }
            return counts
        }
        let (left, right) = (try fonts(expected), try fonts(actual))
        func extra(_ a: [String: Int], _ b: [String: Int]) -> [String] {
            a.flatMap { font, count in Array(repeating: font, count: max(0, count - b[font, default: 0])) }.sorted()
        }
        let (onlyExpected, onlyActual) = (extra(left, right), extra(right, left))
        guard !onlyExpected.isEmpty || !onlyActual.isEmpty else { return nil }
        return "fonts only in the expected file: \(onlyExpected); only in the actual file: \(onlyActual)"
    }

    /// The first object of `expected` (in file order) whose QDF form differs in `actual`, or
    /// that `actual` lacks, described by its original number, what qpdf says of it, its type
    /// and the first line that differs; else the first object only `actual` has; nil when
    /// every object is the same.
    /// - Throws: when qpdf cannot be run.
    public static func firstDifference(_ expected: String, _ actual: String) throws -> String? {
        let left = try objects(of: expected)
        let right = try objects(of: actual)
        let rightByNumber = Dictionary(right.map { ($0.original, $0) }, uniquingKeysWith: { first, _ in first })
        for object in left {
            guard let other = rightByNumber[object.original] else {
                return "object \(object.original) \(summary(of: object)) is only in the expected file"
            }
            if other.text != object.text {
                let (expected, actual) = (summary(of: object), summary(of: other))
                let what = expected == actual ? expected : "\(expected), in the actual file \(actual)"
                return "object \(object.original) \(what) differs first; " + firstDifferingLine(object.text, other.text)
            }
        }
        let leftNumbers = Set(left.map(\.original))
        if let extra = right.first(where: { !leftNumbers.contains($0.original) }) {
            return "object \(extra.original) \(summary(of: extra)) is only in the actual file"
        }
        return nil
    }

    /// The objects of `pdf` in QDF form, in file order.
    static func objects(of pdf: String) throws -> [Object] {
        let qdf = Scratch.uniquePath("qdf") + ".pdf"
        defer { try? FileManager.default.removeItem(atPath: qdf) }
        _ = try PDFProbe.run("qpdf", ["--qdf", "--object-streams=disable", "--static-id", pdf, qdf])
        // Latin-1 keeps every byte of the binary streams as one character.
        let data = try Data(contentsOf: URL(fileURLWithPath: qdf))
        let lines = (String(data: data, encoding: .isoLatin1) ?? "").split(
            separator: "\n", omittingEmptySubsequences: false)
        let marker = "%% Original object ID: "
        var objects: [Object] = []
        var labels: [String] = []
        var renumbered: [String: String] = [:]
        var index = 0
        while index < lines.count {
            let line = lines[index]
            if line.hasPrefix(marker) {
                let original = String(line.dropFirst(marker.count).split(separator: " ").first ?? "")
                var body: [Substring] = []
                index += 1
                if index < lines.count, let number = lines[index].split(separator: " ").first {
                    renumbered[String(number)] = original
                }
                // To its `endobj`: what follows (a stream's length, the cross-reference table and
                // the trailer) is qpdf's, not the object's.
                while index < lines.count, !lines[index].hasPrefix("%%") {
                    body.append(lines[index])
                    index += 1
                    if body.last == "endobj" { break }
                }
                objects.append(Object(original: original, labels: labels, text: body.joined(separator: "\n")))
                labels = []
            } else {
                if line.hasPrefix("%% ") { labels.append(String(line.dropFirst(3))) }
                index += 1
            }
        }
        return objects.map { object in
            var object = object
            object.text = renumber(object.text, renumbered)
            return object
        }
    }

    /// `text` with the `N` of every `N 0 R` and `N 0 obj` written as `#` and `N`'s original number.
    static func renumber(_ text: String, _ renumbered: [String: String]) -> String {
        text.replacing(/([0-9]+) 0 (R|obj)/) { match in
            "#" + (renumbered[String(match.output.1)] ?? String(match.output.1)) + " 0 " + match.output.2
        }
    }

    /// What qpdf says of `object` and its `/Type`, `/Subtype` and `/BaseFont`, in parentheses.
    static func summary(of object: Object) -> String {
        var parts = object.labels
        for key in ["/Type", "/Subtype", "/BaseFont", "/S"] {
            if let line = object.text.split(separator: "\n").first(where: { $0.hasPrefix("  \(key) ") }) {
                parts.append(line.trimmingCharacters(in: .whitespaces))
            }
        }
        if object.text.contains("\nstream\n") { parts.append("a stream") }
        return "(" + (parts.isEmpty ? "\(printable(object.text.prefix(20)))…" : parts.joined(separator: ", ")) + ")"
    }

    /// The number of the first line where `left` and `right` differ and both lines, shortened,
    /// each byte outside printable ASCII written as `.` (streams of font programs are binary).
    static func firstDifferingLine(_ left: String, _ right: String) -> String {
        let a = left.split(separator: "\n", omittingEmptySubsequences: false)
        let b = right.split(separator: "\n", omittingEmptySubsequences: false)
        for index in 0..<max(a.count, b.count) {
            let x = index < a.count ? a[index] : nil
            let y = index < b.count ? b[index] : nil
            if x != y {
                let (shown, other) = (x.map(printable) ?? "(none)", y.map(printable) ?? "(none)")
                return "line \(index + 1): expected '\(shown)', actual '\(other)'"
                    + " (\(a.count) lines against \(b.count))"
            }
        }
        return "the lines are equal"
    }

    /// `line`'s first 80 characters, each outside printable ASCII written as `.`.
    static func printable(_ line: Substring) -> String {
        String(
            String.UnicodeScalarView(line.unicodeScalars.prefix(80).map { (0x20..<0x7F).contains($0.value) ? $0 : "." })
        )
    }
}
