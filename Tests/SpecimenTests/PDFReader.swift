import Foundation

/// Runs poppler-utils and qpdf on rendered specimens and parses what they print.
enum PDFReader {
    struct Word { var text: String; var xMin, yMin, xMax, yMax: Double; var height: Double { yMax - yMin } }
    struct Line { var words: [Word]; var text: String { words.map(\.text).joined(separator: " ") } }
    struct Page { var lines: [Line]; var words: [Word] { lines.flatMap(\.words) } }

    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = Pipe()
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// `pdftotext -layout` of one page (1-based).
    static func text(_ pdf: String, page: Int) throws -> String {
        try run("pdftotext", ["-layout", "-f", String(page), "-l", String(page), pdf, "-"]).output
    }

    /// Pages → lines → words with boxes (`pdftotext -bbox-layout`; y from the top of the page).
    static func layout(_ pdf: String) throws -> [Page] {
        let xml = try run("pdftotext", ["-bbox-layout", pdf, "-"]).output
        let wordPattern = try NSRegularExpression(pattern: #"<word xMin="([-\d.]+)" yMin="([-\d.]+)" xMax="([-\d.]+)" yMax="([-\d.]+)">([^<]*)</word>"#)
        var pages: [Page] = []
        for pageChunk in xml.components(separatedBy: "<page ").dropFirst() {
            var lines: [Line] = []
            for lineChunk in pageChunk.components(separatedBy: "<line ").dropFirst() {
                let ns = lineChunk as NSString
                let words = wordPattern.matches(in: lineChunk, range: NSRange(location: 0, length: ns.length)).map { m in
                    Word(text: unescape(ns.substring(with: m.range(at: 5))),
                         xMin: Double(ns.substring(with: m.range(at: 1)))!, yMin: Double(ns.substring(with: m.range(at: 2)))!,
                         xMax: Double(ns.substring(with: m.range(at: 3)))!, yMax: Double(ns.substring(with: m.range(at: 4)))!)
                }
                lines.append(Line(words: words))
            }
            pages.append(Page(lines: lines))
        }
        return pages
    }

    static func unescape(_ s: String) -> String {
        s.replacingOccurrences(of: "&amp;", with: "&").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
    }

    /// A horizontal stroked segment `x y m x2 y l S` with the stroking colour set before it.
    struct Segment { var page: Int; var y: Double; var color: [Double] }

    /// Horizontal line segments of every page, in top-down coordinates: the uncompressed
    /// content (`qpdf --qdf --object-streams=disable`) is read operator by operator; when the
    /// page flips its y axis (`1 0 0 -1 0 H cm`, as Cairo does) coordinates are already
    /// top-down, else they are converted with `H − y`.
    static func horizontalSegments(_ pdf: String, pageHeight: Double) throws -> [Segment] {
        let qdf = pdf + ".qdf.pdf"
        try run("qpdf", ["--qdf", "--object-streams=disable", pdf, qdf])
        let data = try Data(contentsOf: URL(fileURLWithPath: qdf))
        let text = String(decoding: data, as: UTF8.self)
        var segments: [Segment] = []
        for (index, chunk) in text.components(separatedBy: "%% Contents for page ").dropFirst().enumerated() {
            let body = chunk.components(separatedBy: "endstream").first ?? ""
            let flipped = body.contains("1 0 0 -1 0 ")
            var stack: [String] = []
            var color: [Double] = [0, 0, 0]
            var start: (Double, Double)?
            for token in body.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\r" }) {
                let t = String(token)
                switch t {
                case "RG":
                    color = stack.suffix(3).compactMap(Double.init); stack.removeAll()
                case "m":
                    let v = stack.suffix(2).compactMap(Double.init)
                    start = v.count == 2 ? (v[0], v[1]) : nil; stack.removeAll()
                case "l":
                    let v = stack.suffix(2).compactMap(Double.init)
                    if let s = start, v.count == 2, abs(v[1] - s.1) < 1e-6, abs(v[0] - s.0) > 1 {
                        segments.append(Segment(page: index + 1, y: flipped ? s.1 : pageHeight - s.1, color: color))
                    }
                    start = nil; stack.removeAll()
                default:
                    if Double(t) != nil { stack.append(t) } else { stack.removeAll() }
                }
            }
        }
        return segments
    }
}
