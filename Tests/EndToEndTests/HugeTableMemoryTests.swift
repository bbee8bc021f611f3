import Foundation
import Testing

/// Long tables and lists in bounded memory: the peak resident size of a render (GNU `time`'s
/// maximum RSS, in a subprocess of its own) grows little from 100 rows or items to 10,000 or
/// 5,000. Untagged (`--no-tags`), so that the figure is the pipeline's own and not the
/// accessibility post-pass's, which holds the PDF's structure tree.
///
/// Before tables streamed, 10,000 four-column rows took 108 MiB more than 100 rows (every
/// row shaped and held before the first was placed, every cell's styles held whole). Laying
/// out, placing and releasing a row at a time leaves about 28 MiB, all of it before layout:
/// cmark-gfm's tree, the parsed cells and the font check's list of every cell.
@Suite(.serialized) struct HugeTableMemoryTests {
    static let words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa"]

    static func table(rows: Int) -> String {
        "# Table\n\n| Name | Kind | Value | Note |\n|---|---|--:|---|\n" + (0..<rows).map { i in
            "| \(words[i % 10]) | \(words[(i / 10) % 10]) | \(i) | \(words[(i * 7) % 10]) \(words[(i * 3) % 10]) |\n"
        }.joined() + "\nlast line\n"
    }

    static func list(items: Int) -> String {
        "# List\n\n" + (0..<items).map { i in "- item \(i) \(words[i % 10]) \(words[(i * 3) % 10])\n" }.joined() + "\nlast line\n"
    }

    /// Renders `markdown` with the `typeset` executable (and `options`, e.g. a page size); its
    /// peak RSS in MiB and wall time in s.
    static func peak(_ markdown: String, name: String, options: [String] = []) throws -> (mebibytes: Double, seconds: Double, pdf: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("typeset-memory-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let input = folder + "/\(name).md", pdf = folder + "/\(name).pdf", report = folder + "/\(name).time"
        try markdown.write(toFile: input, atomically: true, encoding: .utf8)
        let start = Date()
        let run = try PDFProbe.run("time", ["-f", "%M", "-o", report, Render.binary, "render", input, "-q", "--no-tags", "-o", pdf] + options)
        let seconds = Date().timeIntervalSince(start)
        #expect(run.status == 0, "\(run.output)")
        let lines = try String(contentsOfFile: report, encoding: .utf8).split(separator: "\n")
        let kib = lines.last.flatMap { Double(String($0)) } ?? .infinity
        return (kib / 1024, seconds, pdf)
    }

    @Test func tenThousandTableRowsCostLittleMoreThanAHundred() throws {
        let small = try Self.peak(Self.table(rows: 100), name: "table-100")
        let large = try Self.peak(Self.table(rows: 10_000), name: "table-10000")
        let growth = large.mebibytes - small.mebibytes
        #expect(growth < 40, "100 rows \(small.mebibytes) MiB, 10,000 rows \(large.mebibytes) MiB")
        #expect(large.seconds < 60, "10,000 rows took \(large.seconds) s")
        let text = try PDFProbe.run("pdftotext", [large.pdf, "-"]).output
        #expect(text.contains("9999") && text.contains("last line"), "the last row and what follows are drawn")
    }

    @Test func fiveThousandListItemsCostLittleMoreThanAHundred() throws {
        let small = try Self.peak(Self.list(items: 100), name: "list-100")
        let large = try Self.peak(Self.list(items: 5_000), name: "list-5000")
        #expect(large.mebibytes - small.mebibytes < 20, "100 items \(small.mebibytes) MiB, 5,000 items \(large.mebibytes) MiB")
        let text = try PDFProbe.run("pdftotext", [large.pdf, "-"]).output
        #expect(text.contains("item 4999") && text.contains("last line"))
    }
}
