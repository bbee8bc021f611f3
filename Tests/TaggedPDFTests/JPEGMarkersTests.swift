import Testing

@testable import TaggedPDF

/// Adobe's APP14 marker is found among a JPEG's segments before its first scan, and
/// only there.
@Suite struct JPEGMarkersTests {
    static func found(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { JPEGMarkers.hasAdobeMarker($0) }
    }

    static let app0: [UInt8] = [0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [UInt8](repeating: 0, count: 10)
    static let app14: [UInt8] = [0xFF, 0xEE, 0x00, 0x0E] + Array("Adobe".utf8) + [0, 100, 0, 0, 0, 0, 2]
    static let scan: [UInt8] = [0xFF, 0xDA, 0x00, 0x08, 1, 1, 0, 0, 63, 0]

    @Test func theMarkerIsFoundAfterOtherSegments() {
        #expect(Self.found([0xFF, 0xD8] + Self.app0 + Self.app14 + Self.scan))
        #expect(Self.found([0xFF, 0xD8] + Self.app14 + Self.scan))
    }

    @Test func aFileWithoutItOrWithItOnlyAfterTheScanHasNone() {
        #expect(!Self.found([0xFF, 0xD8] + Self.app0 + Self.scan))
        #expect(!Self.found([0xFF, 0xD8] + Self.app0 + Self.scan + Self.app14))
        // "Adobe" inside another segment, a truncated file, a file that is not a JPEG.
        #expect(!Self.found([0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x09] + Array("Adobe".utf8) + [0, 0]))
        #expect(!Self.found([0xFF, 0xD8, 0xFF, 0xEE, 0x00]))
        #expect(!Self.found(Array("Adobe".utf8)))
    }
}
