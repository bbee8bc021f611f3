import Foundation

/// How evenly a justified document is set, read back from its PDF: the word-space stretch of
/// each justified line (the mean gap between neighbouring words ÷ the natural word space) and
/// the hyphenated line ends — the paragraph composer's figures.
public struct CompositionFigures: Sendable, Equatable {
    /// Justified lines measured (lines that reach the right edge and hold two words or more).
    public var lines: Int
    /// The 95th-percentile word-space stretch, as a multiple of the natural word space.
    public var p95: Double
    /// The largest stretch.
    public var max: Double
    /// Lines stretched past 1.5× the natural word space.
    public var loose: Int
    /// Justified lines ending in a hyphen.
    public var hyphenated: Int

    /// The figures of `xml`, the output of poppler-utils' `pdftotext -bbox-layout` (`<line>`
    /// elements holding `<word xMin yMin xMax yMax>` in PostScript points). The right edge is
    /// the median right end of the lines of two words or more; lines ending more than 3 pt
    /// short of it are set at natural width and give the natural word space (their median gap);
    /// lines within 1 pt of it are the justified ones. All zero when there are none.
    public init(pdftotextXML xml: String) {
        self.init(lines: 0, p95: 0, max: 0, loose: 0, hyphenated: 0)
        typealias Word = (x0: Double, x1: Double, text: String)
        guard
            let linePattern = try? NSRegularExpression(
                pattern: #"<line [^>]*>(.*?)</line>"#, options: [.dotMatchesLineSeparators]),
            let wordPattern = try? NSRegularExpression(
                pattern: #"<word xMin="([\d.]+)" yMin="[\d.]+" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)</word>"#)
        else { return }
        let ns = xml as NSString
        var lines: [[Word]] = []
        for match in linePattern.matches(in: xml, range: NSRange(location: 0, length: ns.length)) {
            let body = ns.substring(with: match.range(at: 1)) as NSString
            lines.append(
                wordPattern.matches(in: body as String, range: NSRange(location: 0, length: body.length)).compactMap {
                    guard let x0 = Double(body.substring(with: $0.range(at: 1))),
                        let x1 = Double(body.substring(with: $0.range(at: 2)))
                    else { return nil }
                    return (x0, x1, body.substring(with: $0.range(at: 3)))
                })
        }
        let multi = lines.filter { $0.count > 1 }
        guard let edge = PairedStatistics.median(multi.map { $0.last!.x1 }) else { return }
        func gaps(_ line: [Word]) -> [Double] { zip(line, line.dropFirst()).map { $1.x0 - $0.x1 } }
        let space = PairedStatistics.median(multi.filter { $0.last!.x1 < edge - 3 }.flatMap(gaps)) ?? 1
        let justified = multi.filter { $0.last!.x1 >= edge - 1 }
        let stretches = justified.map { gaps($0).reduce(0, +) / Double($0.count - 1) / space }.sorted()
        guard let largest = stretches.last else { return }
        self.init(
            lines: stretches.count, p95: stretches[Int(0.95 * Double(stretches.count - 1))], max: largest,
            loose: stretches.filter { $0 > 1.5 }.count,
            hyphenated: justified.filter { $0.last!.text.hasSuffix("-") }.count)
    }

    /// The figures as given.
    public init(lines: Int, p95: Double, max: Double, loose: Int, hyphenated: Int) {
        self.lines = lines
        self.p95 = p95
        self.max = max
        self.loose = loose
        self.hyphenated = hyphenated
    }

    /// A justified English document at a 90 mm measure (A4, 60 mm side margins; Body is Inter
    /// 10.5 pt in the default theme): `paragraphs` paragraphs of 100–139 words drawn from a
    /// fixed vocabulary by a fixed 64-bit linear congruential sequence (Knuth's MMIX
    /// constants), so every run sets the same text.
    public static func justifiedDocument(paragraphs: Int) -> String {
        let vocabulary = """
            the of and a to in is that for it as with was on be by this are or from at which an have not \
            they but one all were can there been if more when will would who so no out up into than them \
            typography paragraph measure baseline justification hyphenation interword spacing composition \
            document printed reader letters between words language pattern dictionary optimal breaking \
            demerits penalty stretch shrink glue box algorithm considered everything together previously \
            independent representation characteristics international understanding typesetting beautiful \
            consistent proportional particularly information experience development responsibility
            """.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        var text = "---\ntitle: Composition\nmargins: 20mm 60mm\njustify: true\n---\n\n"
        for _ in 0..<paragraphs {
            var words: [String] = []
            for w in 0..<(100 + next(40)) {
                var word = vocabulary[next(vocabulary.count)]
                if w == 0 { word = word.prefix(1).uppercased() + word.dropFirst() }
                words.append(word + (next(12) == 0 ? "," : ""))
            }
            text += words.joined(separator: " ") + ".\n\n"
        }
        return text
    }
}
