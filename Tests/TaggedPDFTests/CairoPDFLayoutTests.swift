import Testing

@testable import TaggedPDF

/// The check before a tagged render: a Cairo of another series, a file in another layout, or a
/// marker printed another way is refused with what differs; Cairo 1.16's form passes.
@Suite struct CairoPDFLayoutTests {
    /// A one-page PDF in Cairo's layout (one cross-reference section of 20-byte entries, a
    /// structure tree, the page's content in one uncompressed stream) whose content is `content`.
    static func sample(content: String) -> [UInt8] {
        let objects = [
            "<< /Type /Catalog /Pages 2 0 R /StructTreeRoot 4 0 R >>",
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 100 100] /Contents 5 0 R >>",
            "<< /Type /StructTreeRoot >>",
            "<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream",
        ]
        var file = Array("%PDF-1.5\n".utf8)
        var offsets: [Int] = []
        for (index, object) in objects.enumerated() {
            offsets.append(file.count)
            file += Array("\(index + 1) 0 obj\n\(object)\nendobj\n".utf8)
        }
        let start = file.count
        file += Array("xref\n0 \(objects.count + 1)\n0000000000 65535 f \n".utf8)
        for offset in offsets {
            let digits = String(offset)
            file += Array((String(repeating: "0", count: 10 - digits.count) + digits + " 00000 n \n").utf8)
        }
        file += Array("trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(start)\n%%EOF\n".utf8)
        return file
    }

    static func problem(version: String = "1.16.0", content: String) -> String? {
        sample(content: content).withUnsafeBufferPointer { bytes in
            do {
                try CairoPDFLayout.check(version: version, sample: bytes)
                return nil
            } catch {
                return String(describing: error)
            }
        }
    }

    static let marker = "q 1 0 0 -1 0 100 cm /Document << /MCID 0 >> BDC 0 0 0 rg 0.5 0.5 0.004 0.004 re f EMC Q"

    @Test func cairo116sLayoutAndMarkerPass() {
        #expect(Self.problem(content: Self.marker) == nil)
        #expect(Self.problem(version: "1.16.2", content: Self.marker) == nil)
    }

    @Test func anotherCairoSeriesIsRefusedByName() throws {
        let problem = try #require(Self.problem(version: "1.18.0", content: Self.marker))
        #expect(problem.contains("Cairo 1.18.0") && problem.contains("1.16"))
        #expect(Self.problem(version: "1.160.0", content: Self.marker) != nil)
    }

    @Test func aMarkerPrintedAnotherWayIsRefusedWithTheFormExpected() throws {
        for content in [
            Self.marker.replacingOccurrences(of: "0.004 0.004", with: "0.00390625 0.00390625"),
            Self.marker.replacingOccurrences(of: "0.5 0.5 0.004", with: "3 0.5 0.004"),
            "q 0 0 0 rg Q",
        ] {
            let problem = try #require(Self.problem(content: content), "\(content)")
            #expect(problem.contains("`0.5 0.5 0.004 0.004 re f`"), "\(problem)")
        }
    }

    @Test func aFileInAnotherLayoutIsRefused() throws {
        var file = Self.sample(content: Self.marker)
        // An update appended: a second cross-reference section.
        file += Array("trailer\n<< /Size 6 /Root 1 0 R /Prev 9 >>\nstartxref\n0\n%%EOF\n".utf8)
        let problem = file.withUnsafeBufferPointer { bytes in
            do {
                try CairoPDFLayout.check(version: "1.16.0", sample: bytes)
                return "passed"
            } catch {
                return String(describing: error)
            }
        }
        #expect(problem.contains("does not read"), "\(problem)")
    }
}
