import Foundation
import TestSupport
import Testing

/// Each page's content stream is rewritten for tagging as Cairo shows the page, on a thread of
/// its own, and the tagging pass takes the results: the file is byte for byte the one written
/// with `TYPESET_THREADS=1`, which rewrites every stream in the pass, on a document with links
/// (one wrapped over a line end), a footnote, ligatures, code, math, a table and nested lists,
/// and on a manual of many pages.
@Suite struct TaggingOverlapTests {
    static let features = """
        ---
        title: Overlap
        ---

        # Links, notes and ligatures

        The office of the first fifty affine officials[^1] offers a [link to the CommonMark \
        specification that goes on over the line end](https://spec.commonmark.org/0.31.2/) and an \
        [internal link](#code-and-math). Efficient waffles, difficult flourishes, *italic ffi*, **bold fl**.

        [^1]: A note with a [link](https://example.com/a/long/path) and a ligature: affluent.

        ## Code and math

        ```swift
        let doubled = [1, 2, 3].map { $0 * 2 } // office
        ```

        Inline $E = mc^2$ and display:

        $$\\int_0^1 x^2 \\, dx = \\frac{1}{3}$$

        | A | B |
        | --- | --- |
        | 1 | 2 |

        - one
          - two
            - three

        """

    @Test(arguments: ["features", "manual"])
    func theTaggedFileIsTheSameWithTheOverlapOnOrOff(_ name: String) throws {
        let markdown = name == "features" ? Self.features : Prose.manual(sections: 30)
        let source = Render.folder + "/overlap-\(name).md"
        try markdown.write(toFile: source, atomically: false, encoding: .utf8)
        var files: [Data] = []
        for threads in ["1", "2"] {
            let pdf = Render.folder + "/overlap-\(name)-\(threads).pdf"
            let output = Pipe()
            let process = try PDFProbe.start(
                Render.binary, ["render", source, "-o", pdf],
                environment: ["TYPESET_THREADS": threads, "SOURCE_DATE_EPOCH": "0"], standardOutput: output,
                standardError: output)
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(text)")
            #expect(try PDFProbe.run("pdfinfo", [pdf]).output.contains("Tagged:          yes"))
            files.append(try Data(contentsOf: URL(fileURLWithPath: pdf)))
        }
        #expect(files[0].count > 1000)
        #expect(files[0] == files[1], "TYPESET_THREADS=1 and the overlap write different files")
    }
}
