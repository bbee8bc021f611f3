import Foundation
import TestSupport
import Testing

/// Issue 15: what tagging (the default) costs in peak memory. The release binary renders one
/// generated document of about 220 pages twice, tagged and with `--no-tags`, each in its own
/// process under `/usr/bin/time` (peak resident set size, `%M`, in KiB).
@Suite(.serialized) struct TaggingCostTests {
    /// A document of `sections` sections in the shape of a long manual: headings, paragraphs
    /// with emphasis and code, one link a section, bullet lists, tables and quotes — the
    /// elements whose structure the tagged PDF records, about 30 of them a page.
    static func manual(sections: Int) -> String {
        var rng = SeededRandom(seed: 15)
        let vocabulary = ["glyph", "baseline", "measure", "leading", "kerning", "tracking", "face", "family", "weight",
                          "run", "line", "page", "column", "margin", "figure", "table", "note", "reader", "stream",
                          "proof", "scale", "role", "display", "caption", "body", "title", "ascent", "descent"]
        func words(_ n: Int) -> String {
            (0..<n).map { i -> String in
                let word = vocabulary[rng.below(vocabulary.count)]
                switch rng.below(14) {
                case 0 where i > 0: return "*\(word)*"
                case 1 where i > 0: return "`\(word)()`"
                default: return word
                }
            }.joined(separator: " ")
        }
        var text = "---\ntitle: Tagging cost\n---\n\n"
        for s in 1...sections {
            text += "## \(s). \(words(4))\n\n"
            for p in 0..<3 {
                let sentence = words(70 + rng.below(40))
                text += sentence.prefix(1).uppercased() + sentence.dropFirst()
                text += p == 0 ? " (see [the reference](https://example.com/\(s)))." : "."
                text += "\n\n"
            }
            for _ in 0..<4 { text += "- " + words(8 + rng.below(10)) + "\n" }
            text += "\n"
            if s % 2 == 0 {
                text += "| term | value | note |\n| --- | --- | --- |\n"
                for _ in 0..<4 { text += "| \(words(1)) | \(rng.below(1000)) pt | \(words(3)) |\n" }
                text += "\n"
            }
            if s % 3 == 0 { text += "> " + words(30) + "\n\n" }
        }
        return text
    }

    /// Renders `input` with `arguments` in a child process; its peak resident set size in KiB.
    static func peakKiB(_ input: String, output: String, _ arguments: [String]) throws -> Int {
        let measured = output + ".rss"
        let (status, text) = try PDFProbe.run("/usr/bin/time", ["-f", "%M", "-o", measured, Render.binary,
                                                                "render", input, "-o", output, "-q"] + arguments)
        #expect(status == 0, "\(text)")
        let kib = Int((try String(contentsOfFile: measured, encoding: .utf8)).split(separator: "\n").last ?? "") ?? 0
        #expect(kib > 0)
        return kib
    }

    /// Tagging a 223-page manual costs under 8 MiB of peak memory over `--no-tags`: measured
    /// 2.6 MiB (58.3 vs 55.7 MiB) with the tagging pass reading and writing one object at a time;
    /// 21 MiB (77.3 vs 55.6 MiB) when qpdf held every parsed object until the end.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["TYPESET_BIN"] != nil,
                   "peak memory is measured on the release binary (TYPESET_BIN, as make test sets it)"))
    func taggingAddsUnder8MiBToA223PageManual() throws {
        let folder = Render.folder + "/tagging-cost"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let input = folder + "/manual.md"
        try Self.manual(sections: 200).write(toFile: input, atomically: true, encoding: .utf8)
        let untagged = try Self.peakKiB(input, output: folder + "/untagged.pdf", ["--no-tags"])
        let tagged = try Self.peakKiB(input, output: folder + "/tagged.pdf", [])
        let pages = Int(try PDFProbe.info(folder + "/tagged.pdf")["Pages"] ?? "") ?? 0
        #expect((200...300).contains(pages), "the document has \(pages) pages")
        #expect(try PDFProbe.run("pdfinfo", ["-struct-text", folder + "/tagged.pdf"]).output.contains("TD"))
        #expect(tagged - untagged < 8 * 1024, "tagged \(tagged) KiB, --no-tags \(untagged) KiB")
    }
}
