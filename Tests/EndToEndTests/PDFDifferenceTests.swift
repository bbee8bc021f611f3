import Foundation
import TestSupport
import Testing

@testable import Typesetter

/// ``PDFDifference``, which the tests that expect two renders to have the same bytes use to
/// keep both PDFs and name where they differ.
@Suite struct PDFDifferenceTests {
    /// Two renders of one document that differ only in their creation date differ first in
    /// the document information dictionary, which the message names by its original object
    /// number and its first differing line, and embed the same fonts; a PDF compared with a
    /// copy of itself differs in nothing; and ``PDFDifference/keep(expected:actual:name:)`` copies both files into
    /// `typeset-failed-<name>` in the temporary folder and says so.
    @Test func theFirstDifferingObjectIsNamedAndBothFilesAreKept() throws {
        let folder = try Render.scratchFolder("pdf-difference")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let markdown = "# Difference\n\n" + Prose.sections(1)
        var paths: [String] = []
        for (index, seconds) in [0.0, 86_400].enumerated() {
            var options = RenderOptions()
            options.creationDate = Date(timeIntervalSince1970: seconds)
            let path = folder + "/dated-\(index).pdf"
            _ = try Typesetter.render(markdown: markdown, file: "difference.md", to: path, options: options)
            paths.append(path)
        }
        let difference = try #require(try PDFDifference.firstDifference(paths[0], paths[1]))
        #expect(difference.hasPrefix("object "), "\(difference)")
        #expect(difference.contains("/CreationDate (D:19700101000000Z)"), "\(difference)")
        #expect(difference.contains("/CreationDate (D:19700102000000Z)"), "\(difference)")
        #expect(try PDFDifference.fontDifference(paths[0], paths[1]) == nil, "the same fonts")
        try FileManager.default.copyItem(atPath: paths[0], toPath: folder + "/copy.pdf")
        #expect(try PDFDifference.firstDifference(paths[0], folder + "/copy.pdf") == nil)

        let name = "pdf-difference-\(UUID().uuidString.prefix(8))"
        let kept = NSTemporaryDirectory() + "typeset-failed-\(name)"
        defer { try? FileManager.default.removeItem(atPath: kept) }
        let message = PDFDifference.keep(expected: paths[0], actual: paths[1], name: name)
        #expect(message.contains(kept), "\(message)")
        #expect(message.contains(difference), "\(message)")
        for file in ["expected.pdf", "actual.pdf"] {
            #expect(FileManager.default.fileExists(atPath: kept + "/" + file), "\(file) kept in \(kept)")
        }
    }
}
