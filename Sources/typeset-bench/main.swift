import Foundation
import Typesetter

// `make bench`: renders generated documents of about 10, 100 and 500 pages and prints pages
// per second and peak memory. Each size runs in a child process so that peak memory (getrusage
// ru_maxrss) belongs to that size alone. A benchmark, not a test: it asserts nothing.

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

let arguments = CommandLine.arguments
if arguments.count == 3, arguments[1] == "--sections", let sections = Int(arguments[2]) {
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
}
