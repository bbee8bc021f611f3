import Foundation
import TestSupport
import Testing

/// `typeset` formats the numbers Cairo writes through `CNumberFormatting` (its own
/// `__snprintf_chk`), and its PDFs are the bytes glibc's formatting gives
/// (`TYPESET_GLIBC_NUMBERS=1`), on a document whose pages are mostly numbers: lists, links,
/// footnote references, a table and formulas.
@Suite struct PDFNumbersRenderTests {
    static let document: String = {
        var markdown = "# Numbers in content streams\n\n"
        markdown +=
            (1...60).map { "\($0). item *\($0)* with [a link](#numbers-in-content-streams)[^\($0 % 3)]" }
            .joined(separator: "\n") + "\n\n"
        markdown +=
            "| x | y | z |\n|---:|:---:|---|\n"
            + (0..<40).map { "| \($0) | \(Double($0) / 7) | `c\($0)` |" }
            .joined(separator: "\n") + "\n\n"
        markdown += "Inline $x^2 + \\frac{1}{3}$ and display:\n\n$$\\int_0^1 \\sqrt{x}\\,dx = \\frac{2}{3}$$\n\n"
        markdown += (0..<3).map { "[^\($0)]: Note \($0), set small." }.joined(separator: "\n") + "\n"
        return markdown
    }()

    @Test func thePDFIsTheOneGlibcsFormattingWrites() throws {
        let folder = try Render.scratchFolder("pdf-numbers")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let source = folder + "/numbers.md"
        try Self.document.write(toFile: source, atomically: false, encoding: .utf8)
        var files: [Data] = []
        for glibcOnly in ["0", "1"] {
            let pdf = folder + "/numbers-\(glibcOnly).pdf"
            let output = Pipe()
            let process = try PDFProbe.start(
                Render.binary, ["render", source, "-o", pdf],
                environment: ["TYPESET_GLIBC_NUMBERS": glibcOnly, "SOURCE_DATE_EPOCH": "0"], standardOutput: output,
                standardError: output)
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(text)")
            #expect(try PDFProbe.qpdfClean(pdf))
            files.append(try Data(contentsOf: URL(fileURLWithPath: pdf)))
        }
        #expect(files[0].count > 10_000)
        #expect(files[0] == files[1], "the fast formatting and glibc's write different PDFs")
        let nm = try PDFProbe.run("nm", ["-D", Render.binary]).output
        #expect(
            nm.split(separator: "\n").contains { $0.hasSuffix(" T __snprintf_chk") },
            "typeset exports its own __snprintf_chk")
    }
}
