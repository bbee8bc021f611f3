import Foundation

/// Pages, lines and ruled segments of a PDF as a reader sees them (poppler-utils and qpdf).
extension PDFProbe {
    /// One line of a page as poppler groups its words.
    public struct Line: Sendable {
        /// The line's words, left to right in reading order.
        public var words: [Word]
        /// The words joined by single spaces.
        public var text: String { words.map(\.text).joined(separator: " ") }
    }
    /// One page's lines, top to bottom.
    public struct Page: Sendable {
        /// The page's lines in poppler's reading order.
        public var lines: [Line]
        /// Every word of the page.
        public var words: [Word] { lines.flatMap(\.words) }
    }

    /// `pdftotext -layout` of one page (1-based).
    public static func text(_ pdf: String, page: Int) throws -> String {
        let pages = ["-f", String(page), "-l", String(page)]
        return try run("pdftotext", ["-layout"] + pages + [pdf, "-"], standardErrorToo: false).output
    }

    /// Pages → lines → words with boxes (`pdftotext -bbox-layout`; y from the top of the page).
    public static func layout(_ pdf: String) throws -> [Page] {
        let words = try PDFWord.read(pdf)
        let pageCount =
            try Int(
                run("pdfinfo", [pdf], standardErrorToo: false).output.split(separator: "\n")
                    .first { $0.hasPrefix("Pages:") }?.split(separator: " ").last ?? "") ?? words.last?.page ?? 0
        var pages = [Page](repeating: Page(lines: []), count: max(pageCount, words.last?.page ?? 0))
        var lastLine = -1
        for word in words {
            if word.line != lastLine {
                pages[word.page - 1].lines.append(Line(words: []))
                lastLine = word.line
            }
            pages[word.page - 1].lines[pages[word.page - 1].lines.count - 1].words.append(word)
        }
        return pages
    }

    /// A horizontal stroked segment `x y m x2 y l S` with the stroking colour set before it.
    public struct Segment: Sendable {
        /// The page, 1-based.
        public var page: Int
        /// The segment's height on the page in pt from the top.
        public var y: Double
        /// The stroking colour's components (`RG`: red, green, blue, 0...1).
        public var color: [Double]
    }

    /// Horizontal line segments of every page, in top-down coordinates: the uncompressed
    /// content (`qpdf --qdf --object-streams=disable`) is read operator by operator; when the
    /// page flips its y axis (`1 0 0 -1 0 H cm`, as Cairo does) coordinates are already
    /// top-down, else they are converted with `H − y`.
    public static func horizontalSegments(_ pdf: String, pageHeight: Double) throws -> [Segment] {
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
                    color = stack.suffix(3).compactMap(Double.init)
                    stack.removeAll()
                case "m":
                    let v = stack.suffix(2).compactMap(Double.init)
                    start = v.count == 2 ? (v[0], v[1]) : nil
                    stack.removeAll()
                case "l":
                    let v = stack.suffix(2).compactMap(Double.init)
                    if let s = start, v.count == 2, abs(v[1] - s.1) < 1e-6, abs(v[0] - s.0) > 1 {
                        segments.append(Segment(page: index + 1, y: flipped ? s.1 : pageHeight - s.1, color: color))
                    }
                    start = nil
                    stack.removeAll()
                default:
                    if Double(t) != nil { stack.append(t) } else { stack.removeAll() }
                }
            }
        }
        return segments
    }
}
