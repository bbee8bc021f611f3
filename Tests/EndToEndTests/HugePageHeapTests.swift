import Foundation
import TestSupport
import Testing

/// Cairo copies the whole `CFF ` table of each CFF face a PDF embeds twice (to tell whether it is
/// CID-keyed, then to subset it): 15.5 MB each for Noto Sans CJK KR, the fallback Hangul is set
/// in. Typeset puts the heap those copies land in on transparent huge pages (`HugePageHeap`), so
/// they fault in 2 MiB at a time; on 4 KiB pages they took about 7,600 page
/// faults (2 × 15.5 MB / 4 KiB), most of a one-page render's. Read from the outside: the minor
/// page faults of the binary (GNU `time`'s `%R`) for a page with a Hangul sentence against the
/// same page without it.
///
/// Only where the kernel gives huge pages on request (`[madvise]` in
/// `/sys/kernel/mm/transparent_hugepage/enabled`, Debian's default); elsewhere the renders are
/// the same as before and there is nothing to see.
@Suite(.serialized, .slow) struct HugePageHeapTests {
    static var hugePagesOnRequest: Bool {
        ((try? String(contentsOfFile: "/sys/kernel/mm/transparent_hugepage/enabled", encoding: .utf8)) ?? "").contains(
            "[madvise]")
    }

    /// The fewest minor page faults of three renders of `markdown` by the binary (a busy machine
    /// can fail to find a free huge page once; it does not three times).
    static func pageFaults(_ markdown: String, name: String) throws -> Int {
        let folder = URL(fileURLWithPath: Scratch.path("huge-pages"))
            .path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let input = folder + "/\(name).md"
        let pdf = folder + "/\(name).pdf"
        let report = folder + "/\(name).time"
        try markdown.write(toFile: input, atomically: false, encoding: .utf8)
        var fewest = Int.max
        for _ in 0..<3 {
            let run = try PDFProbe.run(
                "time", ["-f", "%R", "-o", report, Render.binary, "render", input, "-q", "-o", pdf])
            #expect(run.status == 0, "\(run.output)")
            let lines = try String(contentsOfFile: report, encoding: .utf8).split(separator: "\n")
            fewest = min(fewest, lines.last.flatMap { Int(String($0)) } ?? .max)
        }
        #expect(try PDFProbe.fonts(pdf).contains { $0.hasPrefix(name == "hangul" ? "NotoSansCJK" : "Inter") })
        return fewest
    }

    @Test(.enabled(if: hugePagesOnRequest)) func theCJKFacesTablesDoNotFaultPageByPage() throws {
        let latin = "# Title\n\nA paragraph of Latin text with **bold** words.\n"
        let hangul = "# Title\n\nA paragraph of Latin text with **bold** words. 한국어 문장도 있습니다.\n"
        let plain = try Self.pageFaults(latin, name: "latin")
        let withHangul = try Self.pageFaults(hangul, name: "hangul")
        // The Hangul face's own pages (its file read, its glyphs, its subset) cost about 1,500
        // faults on huge pages; the two copies alone on 4 KiB pages were 7,600 more.
        #expect(withHangul - plain < 5_000, "Latin \(plain) page faults, with Hangul \(withHangul)")
    }
}
