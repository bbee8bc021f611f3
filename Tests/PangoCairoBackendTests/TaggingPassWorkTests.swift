import Foundation
import Layout
import TestSupport
import Testing

@testable import PangoCairoBackend
@testable import TaggedPDF

/// The 10,000-row table within 3× `large`'s time per megabyte: the tagging pass
/// moves work off the writer's thread — content streams are rewritten ahead on a second thread
/// (``WorkAhead``), full object streams are compressed on another (``OrderedCompression``) —
/// and the cross-reference stream is written with the PNG Up predictor. These tests fail if
/// that work moves back onto the writer's thread or if the threads change a byte of the file.
extension TaggedPDFRewriterTests {
    /// Results made ahead come back in order, equal to the ones made in line, with no more than
    /// the window waiting; the second thread makes some of them.
    @Test func workAheadGivesResultsInOrderAndRunsAheadOnlyAsFarAsItsWindow() {
        let count = 1_000
        let ahead = WorkAhead<Int>(count: count, threaded: true) { i, _ in i * i }
        defer { ahead.stop() }
        // Nothing is taken yet: the thread fills the window and stops there.
        let deadline = Date().addingTimeInterval(5)
        while ahead.madeAhead < WorkAhead<Int>.window, Date() < deadline { usleep(1000) }
        usleep(50_000)
        #expect(ahead.madeAhead == WorkAhead<Int>.window)
        for i in 0..<count { #expect(ahead.outcome(i) == i * i) }
        #expect(ahead.madeAhead >= WorkAhead<Int>.window)

        // Not threaded: everything is made in line, by the caller.
        let inLine = WorkAhead<Int>(count: count, threaded: false) { i, onThread in onThread ? -1 : i }
        #expect((0..<count).allSatisfy { inLine.outcome($0) == $0 })
        #expect(inLine.madeAhead == 0)
    }

    /// A writer compressing its object streams on a second thread writes the file it writes
    /// without the thread, byte for byte, and every object stream was compressed on the thread.
    @Test func objectStreamsCompressedOnASecondThreadGiveTheSameFile() throws {
        var files: [[UInt8]] = []
        for threaded in [false, true] {
            let path = Self.temporaryPath("objstm-\(threaded)")
            defer { unlink(path) }
            let writer = try PDFStreamWriter(path: path, size: 1, threaded: threaded)
            let pages = writer.newNumber()
            let catalog = writer.newNumber()
            writer.add(catalog, .dictionary([("Type", .name("Catalog")), ("Pages", .reference(pages))]))
            writer.add(pages, .dictionary([("Type", .name("Pages")), ("Kids", .array([])), ("Count", .integer(0))]))
            // 1,000 small objects (ten object streams), with a stream written directly between.
            for k in 0..<1_000 {
                let n = writer.newNumber()
                writer.add(n, .dictionary([("K", .integer(k)), ("P", .reference(catalog)), ("S", .name("TD"))]))
                if k == 450 {
                    Array("BT ET".utf8).withUnsafeBytes {
                        writer.addStream(writer.newNumber(), dictionary: .dictionary([]), data: $0)
                    }
                }
            }
            try writer.finish(root: catalog, info: nil)
            #expect(
                writer.compressedOnThread == (threaded ? 11 : 0), "10 full object streams and the last, partial one")
            files.append(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
            let check = try PDFProbe.run("qpdf", ["--check", path])
            #expect(check.0 == 0, "\(check.1)")
        }
        #expect(files[0] == files[1])
    }

    /// The cross-reference rows are the PNG Up differences of the plain rows: undoing the
    /// predictor (adding each row to the one above) gives every entry's seven bytes back.
    @Test func crossReferenceRowsUndoToTheirEntries() {
        let entries: [UInt64] = [
            65535, 1 << 56 | 15 << 16, 2 << 56 | 40_000 << 16 | 99, 1 << 56 | 0xFFFF_FFFF << 16, 0,
        ]
        let rows = PDFStreamWriter.crossReferenceRows(entries)
        let width = PDFStreamWriter.crossReferenceRowBytes
        #expect(rows.count == entries.count * (width + 1))
        var above = [UInt8](repeating: 0, count: width)
        for (r, entry) in entries.enumerated() {
            let row = rows[(r * (width + 1))..<((r + 1) * (width + 1))]
            #expect(row.first == 2, "filter type Up")
            let plain = zip(row.dropFirst(), above).map { $0 &+ $1 }
            let expected = [56, 40, 32, 24, 16, 8, 0].map { UInt8(truncatingIfNeeded: entry >> UInt64($0)) }
            #expect(plain == expected, "entry \(r)")
            above = plain
        }
    }

    /// Integers and references are written as `String` spells them.
    @Test func integersAndReferencesAreWrittenDigitByDigit() {
        for n in [0, 7, -1, 10, 99, 100, -4_096, 1_234_567_890, Int.max, Int.min] {
            var out: [UInt8] = []
            PDFValue.integer(n).write(to: &out)
            #expect(String(decoding: out, as: UTF8.self) == String(n))
        }
        var out: [UInt8] = []
        PDFValue.dictionary([("K", .array([.reference(0), .reference(40_123), .integer(5)])), ("S", .name("TD"))])
            .write(to: &out)
        #expect(String(decoding: out, as: UTF8.self) == "<</K [0 0 R 40123 0 R 5] /S /TD >>")
    }
}
