import Foundation
import TestSupport
import Testing

/// What tagging (the default) costs in peak memory and in work. The release binary renders one
/// generated document tagged and with `--no-tags`, each in its own process, under
/// `/usr/bin/time` (peak resident set size, `%M`, in KiB) or under Callgrind (instructions).
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

    /// Tagging costs little work over `--no-tags`, and its work grows with the document no
    /// faster than the document: instructions counted by Callgrind
    /// (``Render/instructions(_:name:options:)``), which a busy machine does not change, net of
    /// start-up (a one-line document, 0.110 billion). Measured on 5 and 10 sections of the
    /// manual (7 and 13 pages): ×1.059 and ×1.060 (0.417 and 0.635 billion instructions with
    /// `--no-tags`); ×1.061 on 140 pages. The bound, ×1.10, fails when what tagging adds
    /// doubles (×1.12), as with a pass that reads its input twice. What tagging adds to 10
    /// sections is 1.77 times what it adds to 5; work per page that grows with the document
    /// (a pass whose work is quadratic: about ×3.5) fails the bound of ×2.5.
    @Test(
        .slow,
        .enabled(
            if: ProcessInfo.processInfo.environment["TYPESET_BIN"] != nil,
            "instructions are counted on the release binary (TYPESET_BIN, as make test sets it)"))
    func taggingAddsLittleWorkAndGrowsWithTheDocument() throws {
        let startUp = try Render.instructions("# One\n\nline\n", name: "cost-one")
        var added: [Int: Double] = [:]
        for sections in [5, 10] {
            let manual = Prose.manual(sections: sections)
            let tagged = try Render.instructions(manual, name: "cost-tagged-\(sections)")
            let untagged = try Render.instructions(manual, name: "cost-untagged-\(sections)", options: ["--no-tags"])
            let ratio = Double(tagged - startUp) / Double(untagged - startUp)
            added[sections] = Double(tagged - untagged)
            let figures =
                "\(sections) sections: tagged \(tagged), --no-tags \(untagged), start-up \(startUp): ×\(ratio)"
            print("tagging cost: \(figures)")
            #expect(untagged > 3 * startUp, "the render is mostly start-up: \(figures)")
            #expect(ratio <= 1.10, "\(figures)")
        }
        let growth = (added[10] ?? 0) / max(1, added[5] ?? 0)
        #expect(growth <= 2.5, "tagging adds \(added[5] ?? 0) instructions to 5 sections, \(added[10] ?? 0) to 10")
    }
}
