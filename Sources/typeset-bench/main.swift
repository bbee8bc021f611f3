import Foundation
import Typesetter
import Typography

// `make bench`: renders generated documents of about 10, 100 and 500 pages and prints pages
// per second and peak memory. Each size runs in a child process so that peak memory (getrusage
// ru_maxrss) belongs to that size alone. Then the scaling rows: hostile and huge inputs, each
// with its time per megabyte of input and that time as a multiple of the ordinary 100-page
// document's (linear stages stay within about 3×); then a justified document's word-space
// stretch (composition). A benchmark, not a test: it asserts nothing.

/// A document of `sections` sections, each about one A4 page with the default theme: a heading,
/// mixed Korean/English paragraphs, a list, and every third section a table and a code block.
func document(sections: Int) -> String {
    var text = "---\ntitle: Benchmark\nfooter: \"{page}\"\n---\n\n"
    let latin = "Typeset places every baseline on the grid its line height defines, whatever fonts the line holds. "
    let korean = "한국어 문장은 어절 단위로 줄을 바꾸며, 긴 문장도 단어 중간에서 끊기지 않습니다. "
    for i in 1...sections {
        text += "## Section \(i)\n\n"
        for p in 0..<4 { text += String(repeating: p % 2 == 0 ? latin : korean, count: 4) + "\n\n" }
        text += "- First point with **strong** text\n- Second point with `code`\n  - Nested point\n\n"
        if i % 3 == 0 {
            text += "| Key | Value | Note |\n|:--|--:|:--|\n" + (1...6).map { "| k\($0) | \($0 * i) | 설명 \($0) |" }.joined(separator: "\n") + "\n\n"
            text += "```swift\nlet scale = TypeScale(body: 10.5, ratio: 1.25)\nprint(scale.size(of: .title))\n```\n\n"
        }
    }
    return text
}

func peakMemoryMiB() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_maxrss) / 1024  // Linux reports KiB
}

/// The scaling inputs: name → (input text, whether it is a design-token file rather than Markdown).
func scalingInput(_ name: String) -> (text: String, tokens: Bool) {
    switch name {
    case "ordinary": return (document(sections: 135), false)
    case "paragraph-1MB": return (String(repeating: "words set in one paragraph ", count: 1_000_000 / 27), false)
    case "word-100k": return (String(repeating: "x", count: 100_000), false)
    case "korean-500KB":
        let words = ["한국어", "문단은", "어절", "단위로", "줄을", "바꾼다"]
        var text = "", i = 0
        while text.utf8.count < 500_000 { text += words[i % words.count] + " "; i += 1 }
        return (text, false)
    case "brackets-40k": return (String(repeating: "[ ", count: 40_000), false)
    case "table-10k-rows":
        return ("| Key | Value | Note |\n|:--|--:|:--|\n" + (1...10_000).map { "| k\($0) | \($0 * 7) | 설명 \($0) |" }.joined(separator: "\n") + "\n", false)
    default:   // "alias-chain-2000"
        var groups = [#""s0": {"$type": "dimension", "$value": "16px"}"#]
        for i in 1..<2_000 { groups.append(#""s\#(i)": {"$type": "dimension", "$value": "{size.s\#(i - 1)}"}"#) }
        return (#"{"size": {\#(groups.joined(separator: ", "))}, "typography": {"body": {"$type": "typography", "$value": {"fontFamily": "Inter", "fontSize": "{size.s1999}"}}}}"#, true)
    }
}

let scalingNames = ["ordinary", "paragraph-1MB", "word-100k", "korean-500KB", "brackets-40k", "table-10k-rows", "alias-chain-2000"]

let arguments = CommandLine.arguments
if arguments.count == 3, arguments[1] == "--scaling" {
    let (text, tokens) = scalingInput(arguments[2])
    let output = NSTemporaryDirectory() + "typeset-bench-\(arguments[2]).pdf"
    let start = Date()
    if tokens { _ = try TokenImporter.importTokens(Data(text.utf8), file: "chain.tokens.json") } else {
        _ = try Typesetter.render(markdown: text, file: "bench.md", to: output)
    }
    let seconds = Date().timeIntervalSince(start)
    try? FileManager.default.removeItem(atPath: output)
    let megabytes = Double(text.utf8.count) / 1_000_000
    FileHandle.standardOutput.write(Data("\(String(format: "%.3f", megabytes))\t\(String(format: "%.2f", seconds))\t\(String(format: "%.2f", seconds / megabytes))\t\(String(format: "%.1f", peakMemoryMiB()))\n".utf8))
} else if arguments.count == 3, arguments[1] == "--sections", let sections = Int(arguments[2]) {
    let markdown = document(sections: sections)
    let output = NSTemporaryDirectory() + "typeset-bench-\(sections).pdf"
    let start = Date()
    let report = try Typesetter.render(markdown: markdown, file: "bench.md", to: output)
    let seconds = Date().timeIntervalSince(start)
    try? FileManager.default.removeItem(atPath: output)
    FileHandle.standardOutput.write(Data("\(report.pageCount)\t\(String(format: "%.2f", seconds))\t\(String(format: "%.0f", Double(report.pageCount) / seconds))\t\(String(format: "%.1f", peakMemoryMiB()))\n".utf8))
} else {
    FileHandle.standardOutput.write(Data("pages\tseconds\tpages/s\tpeak MiB\n".utf8))
    // About 0.74 page a section: 13, 135 and 680 sections give about 10, 100 and 500 pages.
    for sections in [13, 135, 680] {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: arguments[0])
        child.arguments = ["--sections", String(sections)]
        try child.run()
        child.waitUntilExit()
    }
    // Scaling rows: time per MB of input, and as a multiple of the ordinary document's.
    FileHandle.standardOutput.write(Data("\ninput\tMB\tseconds\ts/MB\t× ordinary\tpeak MiB\n".utf8))
    var ordinary: Double?
    for name in scalingNames {
        let child = Process(), pipe = Pipe()
        child.executableURL = URL(fileURLWithPath: arguments[0])
        child.arguments = ["--scaling", name]
        child.standardOutput = pipe
        try child.run()
        let line = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .newlines)
        child.waitUntilExit()
        let fields = line.split(separator: "\t").map(String.init)
        guard fields.count == 4, let perMB = Double(fields[2]) else {
            FileHandle.standardOutput.write(Data("\(name)\tfailed (status \(child.terminationStatus))\n".utf8)); continue
        }
        if name == "ordinary" { ordinary = perMB }
        let ratio = ordinary.map { String(format: "%.2f", perMB / $0) } ?? "-"
        FileHandle.standardOutput.write(Data("\(name)\t\(fields[0])\t\(fields[1])\t\(fields[2])\t\(ratio)\t\(fields[3])\n".utf8))
    }
    // Composition: word-space stretch of a justified document, read back from its PDF.
    let output = NSTemporaryDirectory() + "typeset-bench-justified.pdf"
    let start = Date()
    let report = try Typesetter.render(markdown: justifiedDocument(paragraphs: 60), file: "justified.md", to: output)
    let seconds = Date().timeIntervalSince(start)
    let f = try compositionFigures(output)
    try? FileManager.default.removeItem(atPath: output)
    FileHandle.standardOutput.write(Data("""
        justified 90 mm, Inter 10.5 pt: \(report.pageCount) pages in \(String(format: "%.2f", seconds)) s; \(f.lines) justified lines, \
        word-space stretch p95 \(String(format: "%.2f", f.p95))×, max \(String(format: "%.2f", f.max))×, \
        \(f.loose) lines over 1.5×, \(f.hyphenated) hyphenated line ends

        """.utf8))
}

// MARK: Composition figures

/// A justified English document at a 90 mm measure (A4, 60 mm side margins; Body is Inter
/// 10.5 pt in the default theme): `paragraphs` paragraphs of about 120 words drawn from a
/// fixed vocabulary with a fixed pseudo-random sequence, so every run sets the same text.
func justifiedDocument(paragraphs: Int) -> String {
    let vocabulary = """
    the of and a to in is that for it as with was on be by this are or from at which an have not \
    they but one all were can there been if more when will would who so no out up into than them \
    typography paragraph measure baseline justification hyphenation interword spacing composition \
    document printed reader letters between words language pattern dictionary optimal breaking \
    demerits penalty stretch shrink glue box algorithm considered everything together previously \
    independent representation characteristics international understanding typesetting beautiful \
    consistent proportional particularly information experience development responsibility
    """.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
    var state: UInt64 = 0x2545F4914F6CDD1D
    func next(_ n: Int) -> Int {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Int((state >> 33) % UInt64(n))
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

/// Word-space stretch of the justified lines of `pdf`, read back with `pdftotext -bbox-layout`:
/// per line, the mean gap between neighbouring words ÷ the natural word space (the median gap
/// of the lines that stop short of the right edge, which are set at natural width).
func compositionFigures(_ pdf: String) throws -> (lines: Int, p95: Double, max: Double, loose: Int, hyphenated: Int) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["pdftotext", "-bbox-layout", pdf, "-"]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let xml = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    var lines: [[(x0: Double, x1: Double, text: String)]] = []
    let linePattern = try NSRegularExpression(pattern: #"<line [^>]*>(.*?)</line>"#, options: [.dotMatchesLineSeparators])
    let wordPattern = try NSRegularExpression(pattern: #"<word xMin="([\d.]+)" yMin="[\d.]+" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)</word>"#)
    let ns = xml as NSString
    for match in linePattern.matches(in: xml, range: NSRange(location: 0, length: ns.length)) {
        let body = ns.substring(with: match.range(at: 1)) as NSString
        lines.append(wordPattern.matches(in: body as String, range: NSRange(location: 0, length: body.length)).map {
            (Double(body.substring(with: $0.range(at: 1)))!, Double(body.substring(with: $0.range(at: 2)))!, body.substring(with: $0.range(at: 3)))
        })
    }
    let multi = lines.filter { $0.count > 1 }
    let rights = multi.map { $0.last!.x1 }.sorted()
    guard !rights.isEmpty else { return (0, 0, 0, 0, 0) }
    let edge = rights[rights.count / 2]
    func gaps(_ line: [(x0: Double, x1: Double, text: String)]) -> [Double] { zip(line, line.dropFirst()).map { $1.x0 - $0.x1 } }
    let natural = multi.filter { $0.last!.x1 < edge - 3 }.flatMap(gaps).sorted()
    let space = natural.isEmpty ? 1 : natural[natural.count / 2]
    let justified = multi.filter { $0.last!.x1 >= edge - 1 }
    let stretches = justified.map { gaps($0).reduce(0, +) / Double($0.count - 1) / space }.sorted()
    guard !stretches.isEmpty else { return (0, 0, 0, 0, 0) }
    let hyphenated = justified.filter { $0.last!.text.hasSuffix("-") }.count
    return (stretches.count, stretches[Int(0.95 * Double(stretches.count - 1))], stretches.last!,
            stretches.filter { $0 > 1.5 }.count, hyphenated)
}
