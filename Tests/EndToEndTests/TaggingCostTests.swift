import Foundation
import TestSupport
import Testing

/// What tagging (the default) costs in peak memory. The release binary renders one
/// generated document of about 220 pages twice, tagged and with `--no-tags`, each in its own
/// process under `/usr/bin/time` (peak resident set size, `%M`, in KiB).
@Suite(.serialized) struct TaggingCostTests {
    /// Tagging a 223-page manual (``Prose/manual(sections:)``) costs little peak memory over
    /// `--no-tags`: measured ×1.07 (39.6 → 42.5 MiB) with the tagging pass reading and writing
    /// one object at a time; ×1.39 when every parsed object is held until the end.
    @Test(
        .slow,
        .enabled(
            if: ProcessInfo.processInfo.environment["TYPESET_BIN"] != nil,
            "peak memory is measured on the release binary (TYPESET_BIN, as make test sets it)"))
    func taggingAddsLittleToTheUntaggedPeakOfA223PageManual() throws {
        let manual = Prose.manual(sections: 200)
        let untagged = try Render.peak(manual, name: "tagging-untagged")
        let tagged = try Render.peak(manual, name: "tagging-tagged", tagged: true)
        let pages = Int(try PDFProbe.info(tagged.pdf)["Pages"] ?? "") ?? 0
        #expect((200...300).contains(pages), "the document has \(pages) pages")
        #expect(try PDFProbe.run("pdfinfo", ["-struct-text", tagged.pdf]).output.contains("TD"))
        let figures = "tagged \(tagged.mebibytes) MiB, --no-tags \(untagged.mebibytes) MiB"
        #expect(tagged.mebibytes < 1.15 * untagged.mebibytes, "\(figures)")
    }
}
