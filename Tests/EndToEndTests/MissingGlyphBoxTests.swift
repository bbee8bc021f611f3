import Foundation
import TestSupport
import Testing

@testable import PangoCairoBackend
@testable import Typesetter

/// Characters no installed face has are drawn as boxes showing their code, each distinct box a
/// form XObject written once. A document of tens of thousands of distinct such characters
/// (supplementary-plane scripts without a font) wrote a form of outlined digits for each: 30,000
/// took 6.4 s and 180 MB. After ``MissingGlyphStandIns/BoxForms/recordedBoxes`` distinct boxes,
/// the rest show U+FFFD's code; the characters still read from the text.
@Suite struct MissingGlyphBoxTests {
    /// `count` distinct code points from U+10000 up (Linear B, Aegean numbers, Old Italic, …:
    /// mostly without a face here), in lines of 100.
    static func document(count: Int) -> String {
        stride(from: 0, to: count, by: 100).map { start in
            String(
                String.UnicodeScalarView((start..<min(count, start + 100)).compactMap { Unicode.Scalar(0x10000 + $0) }))
        }.joined(separator: "\n\n") + "\n"
    }

    /// The form XObjects of `pdf`: `/Subtype /Form` in qpdf's uncompressed rewrite of it.
    static func forms(in pdf: String) throws -> Int {
        let plain = pdf + ".qdf"
        let (status, _) = try PDFProbe.run("qpdf", ["--qdf", "--object-streams=disable", pdf, plain])
        #expect(status == 0)
        let data = try Data(contentsOf: URL(fileURLWithPath: plain))
        return String(decoding: data, as: UTF8.self).components(separatedBy: "/Subtype /Form").count - 1
    }

    @Test func distinctBoxesStopAtTheirLimit() throws {
        let few = try Render.markdown(Self.document(count: 400), name: "boxes-few").pdf
        let many = try Render.markdown(Self.document(count: 4_000), name: "boxes-many").pdf
        let fewForms = try Self.forms(in: few)
        let manyForms = try Self.forms(in: many)
        #expect(fewForms > 100, "\(fewForms) forms for 400 characters")
        #expect(
            manyForms <= MissingGlyphStandIns.BoxForms.recordedBoxes + 20,
            "\(manyForms) forms for 4,000 distinct characters")
        #expect(try PDFProbe.qpdfClean(many))
        // Every character is still text: the stand-ins read as the characters they stand for.
        let text = try PDFProbe.text(many).unicodeScalars.filter { $0.value >= 0x10000 }
        #expect(text.count >= 3_900, "\(text.count) of 4,000 characters read back")
    }
}
