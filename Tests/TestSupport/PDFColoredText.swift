import Foundation

/// A stretch of text of one fill colour and face as poppler's `pdftohtml -xml` reads it from a
/// PDF: the text drawn, its fill colour (`#rrggbb`, lower case) and whether the face is bold or
/// italic. Poppler starts a new stretch wherever the colour or face changes, so each stretch is
/// drawn in one colour.
public struct PDFColoredText: Hashable, Sendable {
    /// Page, 1-based.
    public var page: Int
    /// The text, entities decoded.
    public var text: String
    /// The fill colour, `#rrggbb` in lower case.
    public var color: String
    /// Drawn in a bold face.
    public var bold: Bool
    /// Drawn in an italic face.
    public var italic: Bool

    /// Every stretch of `pdf`, in poppler's reading order.
    public static func read(_ pdf: String) throws -> [PDFColoredText] {
        let xml = try PDFProbe.run("pdftohtml", ["-xml", "-i", "-stdout", "-q", pdf], standardErrorToo: false).output
        var colors: [String: String] = [:]
        var stretches: [PDFColoredText] = []
        var page = 0
        for line in xml.split(separator: "\n") {
            if line.hasPrefix("<page ") {
                page += 1  // font ids stay defined across pages
            } else if line.contains("<fontspec "), let id = attribute("id", line), let color = attribute("color", line)
            {
                colors[id] = color.lowercased()
            } else if line.hasPrefix("<text "), let font = attribute("font", line),
                let open = line.firstIndex(of: ">"), let close = line.range(of: "</text>", options: .backwards)
            {
                let inner = String(line[line.index(after: open)..<close.lowerBound])
                let bold = inner.contains("<b>")
                let italic = inner.contains("<i>")
                let text = decodeEntities(
                    inner.replacingOccurrences(of: "<[^>]*>", with: "", options: .regularExpression))
                stretches.append(
                    PDFColoredText(page: page, text: text, color: colors[font] ?? "", bold: bold, italic: italic))
            }
        }
        return stretches
    }

    /// The value of attribute `name` in one line of poppler's XML; nil when the line has none.
    public static func attribute(_ name: String, _ line: Substring) -> String? {
        guard let start = line.range(of: " \(name)=\"") else { return nil }
        let rest = line[start.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end])
    }

    static func decodeEntities(_ text: String) -> String {
        text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#34;", with: "\"")
            .replacingOccurrences(of: "&apos;", with: "'").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
