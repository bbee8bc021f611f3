import Foundation

/// A word as `pdftotext -bbox-layout` (poppler-utils) reports it: what a reader of the PDF
/// sees. Coordinates are in pt from the page's top-left corner.
public struct PDFWord: CustomStringConvertible, Sendable {
    /// The page, 1-based.
    public var page: Int
    /// The line among all of the document's lines as poppler groups them, 0-based.
    public var line: Int
    /// The word's text, with XML's five entities decoded.
    public var text: String
    /// The word's box.
    public var xMin, yMin, xMax, yMax: Double
    /// The box's height and width in pt.
    public var height: Double { yMax - yMin }
    public var width: Double { xMax - xMin }
    public var description: String { "p\(page) '\(text)' [\(xMin), \(yMin), \(xMax), \(yMax)]" }
    /// Whether the word ends in a hyphen: `-` or `‐` as written, or U+00AD, which a hyphen that
    /// hyphenation added reads back as (its `/ActualText`, so that extraction rejoins the word).
    public var endsInHyphen: Bool { ["-", "\u{2010}", "\u{AD}"].contains(text.unicodeScalars.last) }

    /// Every word of `pdf`, page by page in poppler's reading order. A box may lie partly or
    /// wholly off the page (negative coordinates are kept). Throws when `pdftotext` cannot run.
    public static func read(_ pdf: String) throws -> [PDFWord] {
        parse(try PDFProbe.run("pdftotext", ["-bbox-layout", pdf, "-"], standardErrorToo: false).output)
    }

    /// The words of `pdftotext -bbox-layout`'s XHTML.
    public static func parse(_ xhtml: String) -> [PDFWord] {
        let number = #"(-?[\d.]+(?:[eE][-+]?\d+)?)"#
        let pattern = try! NSRegularExpression(
            pattern: #"<page |<line |<word xMin=""# + number + #"" yMin=""# + number + #"" xMax=""# + number
                + #"" yMax=""# + number + #"">([^<]*)</word>"#)
        let ns = xhtml as NSString
        var words: [PDFWord] = []
        var page = 0
        var line = -1
        for match in pattern.matches(in: xhtml, range: NSRange(location: 0, length: ns.length)) {
            if match.range(at: 1).location == NSNotFound {
                if ns.substring(with: match.range).hasPrefix("<page") { page += 1 } else { line += 1 }
                continue
            }
            func value(_ i: Int) -> Double { Double(ns.substring(with: match.range(at: i))) ?? .nan }
            words.append(
                PDFWord(
                    page: page, line: line, text: unescape(ns.substring(with: match.range(at: 5))),
                    xMin: value(1), yMin: value(2), xMax: value(3), yMax: value(4)))
        }
        return words
    }

    /// `text` with XML's five predefined entities decoded (`&amp;` last, so `&amp;lt;` stays `&lt;`).
    public static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
