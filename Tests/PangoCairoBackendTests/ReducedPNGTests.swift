internal import CPangoCairo
import Foundation
import TestSupport
import Testing

@testable import PangoCairoBackend

/// PNGs decoded a row at a time and made smaller as they are read (``ReducedPNG``), against
/// gdk-pixbuf's decoding of the same file.
@Suite struct ReducedPNGTests {
    /// A PNG of `width` × `height` pixels of colour type `colorType` and depth `depth`, its
    /// rows `rows` (samples packed at that depth), each filtered by the next of the five filter
    /// types in turn, its data in stored (uncompressed) deflate blocks.
    static func png(
        width: Int, height: Int, colorType: UInt8, depth: UInt8, rows: [[UInt8]], palette: [UInt8] = [],
        transparency: [UInt8] = []
    ) -> Data {
        let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][Int(colorType)]!
        let step = max(1, channels * Int(depth) / 8)
        var raw: [UInt8] = []
        var above = [UInt8](repeating: 0, count: rows[0].count)
        for (number, row) in rows.enumerated() {
            let kind = UInt8(number % 5)
            raw.append(kind)
            for index in row.indices {
                let left = index >= step ? Int(row[index - step]) : 0
                let up = Int(above[index])
                let corner = index >= step ? Int(above[index - step]) : 0
                let estimate = left + up - corner
                let paeth =
                    abs(estimate - left) <= abs(estimate - up) && abs(estimate - left) <= abs(estimate - corner)
                    ? left : (abs(estimate - up) <= abs(estimate - corner) ? up : corner)
                let predicted = [0, left, up, (left + up) / 2, paeth][Int(kind)]
                raw.append(UInt8(truncatingIfNeeded: Int(row[index]) - predicted))
            }
            above = row
        }
        var deflated: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65_535, raw.count - offset)
            deflated.append(offset + count == raw.count ? 1 : 0)
            deflated += [UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            deflated += raw[offset..<(offset + count)]
            offset += count
        } while offset < raw.count
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in raw {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        deflated += bigEndian(b << 16 | a)
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        func chunk(_ type: String, _ data: [UInt8]) {
            let body = Array(type.utf8) + data
            file += bigEndian(UInt32(data.count)) + body + bigEndian(crc(body))
        }
        chunk("IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [depth, colorType, 0, 0, 0])
        if !palette.isEmpty { chunk("PLTE", palette) }
        if !transparency.isEmpty { chunk("tRNS", transparency) }
        chunk("IDAT", deflated)
        chunk("IEND", [])
        return Data(file)
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    /// The CRC-32 of a PNG chunk (ISO 3309, as PNG §5.5 gives it).
    static func crc(_ bytes: [UInt8]) -> UInt32 {
        var value: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            value ^= UInt32(byte)
            for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        }
        return ~value
    }

    /// The pixels of an image surface, row by row, without the padding of its stride.
    static func pixels(_ surface: OpaquePointer) -> [UInt32] {
        cairo_surface_flush(surface)
        let width = Int(cairo_image_surface_get_width(surface))
        let height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        let format = cairo_image_surface_get_format(surface)
        guard let data = cairo_image_surface_get_data(surface) else { return [] }
        var result: [UInt32] = []
        for y in 0..<height {
            let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width { result.append(format == CAIRO_FORMAT_RGB24 ? row[x] | 0xFF00_0000 : row[x]) }
        }
        return result
    }

    /// At its own size, a PNG read a row at a time has gdk-pixbuf's pixels exactly, whatever
    /// its colour type, depth, filters and transparency: 1-bit and 8-bit grey, grey with a
    /// `tRNS` colour, 16-bit RGB, RGBA, grey and alpha, and a 4-bit palette with `tRNS`.
    @Test func fullSizeMatchesGdkPixbuf() throws {
        let folder = try Render.scratchFolder("reduced-png")
        let width = 37
        let height = 23
        func packed(_ samples: [Int], depth: Int) -> [UInt8] {
            var bytes = [UInt8](repeating: 0, count: (samples.count * depth + 7) / 8)
            for (index, sample) in samples.enumerated() {
                if depth == 16 {
                    bytes[index * 2] = UInt8(sample >> 8)
                    bytes[index * 2 + 1] = UInt8(sample & 0xFF)
                } else if depth == 8 {
                    bytes[index] = UInt8(sample)
                } else {
                    let bit = index * depth
                    bytes[bit / 8] |= UInt8(sample << (8 - depth - bit % 8))
                }
            }
            return bytes
        }
        func rows(channels: Int, depth: Int) -> [[UInt8]] {
            (0..<height).map { y in
                packed(
                    (0..<(width * channels)).map { ($0 * 7 + y * 13 + $0 * y) % (1 << min(depth, 16)) },
                    depth: depth)
            }
        }
        let cases: [(String, Data)] = [
            (
                "grey1",
                Self.png(width: width, height: height, colorType: 0, depth: 1, rows: rows(channels: 1, depth: 1))
            ),
            (
                "grey8",
                Self.png(width: width, height: height, colorType: 0, depth: 8, rows: rows(channels: 1, depth: 8))
            ),
            (
                "greyKey",
                Self.png(
                    width: width, height: height, colorType: 0, depth: 8, rows: rows(channels: 1, depth: 8),
                    transparency: [0, 20])
            ),
            (
                "rgb16",
                Self.png(width: width, height: height, colorType: 2, depth: 16, rows: rows(channels: 3, depth: 16))
            ),
            ("rgba", Self.png(width: width, height: height, colorType: 6, depth: 8, rows: rows(channels: 4, depth: 8))),
            (
                "greyAlpha",
                Self.png(width: width, height: height, colorType: 4, depth: 8, rows: rows(channels: 2, depth: 8))
            ),
            (
                "palette",
                Self.png(
                    width: width, height: height, colorType: 3, depth: 4, rows: rows(channels: 1, depth: 4),
                    palette: (0..<48).map { UInt8($0 * 5) }, transparency: [0, 128, 255, 64])
            ),
        ]
        for (name, bytes) in cases {
            let path = folder + "/\(name).png"
            try bytes.write(to: URL(fileURLWithPath: path))
            let reduced = try #require(ReducedPNG.surface(bytes, width: width, height: height), "\(name)")
            defer { cairo_surface_destroy(reduced.surface) }
            let decoded = try #require(ImageDecoder.surface(ofFile: path, pixels: true), "\(name)")
            let ours = Self.pixels(reduced.surface)
            let theirs = Self.pixels(decoded.surface)
            #expect(ours.count == width * height, "\(name)")
            #expect(ours == theirs, "\(name): \(zip(ours, theirs).filter { $0 != $1 }.prefix(3))")
        }
        ImageDecoder.releaseDecoded()
    }

    /// Made smaller, each pixel is the average of those it covers: a black and white
    /// checkerboard halved is mid grey, with alpha averaged premultiplied; an interlaced PNG
    /// is left to gdk-pixbuf.
    @Test func reducedPixelsAreAverages() throws {
        let rows = (0..<8).map { y in (0..<8).map { x in UInt8((x + y) % 2 == 0 ? 255 : 0) } }
        let bytes = Self.png(width: 8, height: 8, colorType: 0, depth: 8, rows: rows)
        let reduced = try #require(ReducedPNG.surface(bytes, width: 4, height: 4))
        defer { cairo_surface_destroy(reduced.surface) }
        #expect(Self.pixels(reduced.surface) == [UInt32](repeating: 0xFF80_8080, count: 16))
        var interlaced = [UInt8](bytes)
        interlaced[28] = 1
        #expect(ReducedPNG.surface(Data(interlaced), width: 4, height: 4) == nil)
    }

    /// `bytes` with the CRC of the chunk that starts at `offset` (its length field) made
    /// right again for what the chunk now holds.
    static func fixingCRC(_ bytes: [UInt8], chunkAt offset: Int) -> [UInt8] {
        let length = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
        let end = offset + 8 + length
        var fixed = bytes
        fixed.replaceSubrange(end..<(end + 4), with: bigEndian(crc(Array(bytes[(offset + 4)..<end]))))
        return fixed
    }

    /// What libpng refuses gives nil, never a crash, so that the caller falls back to
    /// gdk-pixbuf (which refuses it too: a placeholder and a warning): a PNG cut short
    /// anywhere before the end of its pixel data, a bad CRC in its header or its data, damaged
    /// zlib data, a header of absurd size, bytes that are no PNG; an interlaced PNG (its CRC
    /// right) is left to gdk-pixbuf.
    @Test func damagedPNGsGiveNil() {
        let rows = (0..<8).map { y in (0..<8).map { x in UInt8(x * 30 + y) } }
        let bytes = [UInt8](Self.png(width: 8, height: 8, colorType: 2, depth: 8, rows: rows.map { $0 + $0 + $0 }))
        func reads(_ candidate: [UInt8]) -> Bool {
            guard let reduced = ReducedPNG.surface(Data(candidate), width: 4, height: 4) else { return false }
            cairo_surface_destroy(reduced.surface)
            return true
        }
        #expect(reads(bytes))
        // The chunks: IHDR at 8 (its data at 16, its CRC at 29), IDAT at 33 (its data at 41:
        // the zlib header, then a stored block's final flag, length and its complement).
        let idat = 33
        // Cut short: every length up to the end of the IDAT chunk's CRC (IEND is not read).
        let idatEnd = idat + 12 + bytes[idat..<(idat + 4)].reduce(0) { $0 << 8 | Int($1) }
        #expect((0..<idatEnd).filter { reads(Array(bytes.prefix($0))) }.isEmpty)
        var badHeaderCRC = bytes
        badHeaderCRC[20] ^= 1
        #expect(!reads(badHeaderCRC))
        #expect(ReducedPNG.info(Data(badHeaderCRC)) == nil)
        var badDataCRC = bytes
        badDataCRC[idat + 8 + 20] ^= 0x40
        #expect(!reads(badDataCRC))
        var badZlibHeader = bytes
        badZlibHeader[idat + 8] = 0x00
        #expect(!reads(Self.fixingCRC(badZlibHeader, chunkAt: idat)))
        var badBlockLength = bytes
        badBlockLength[idat + 8 + 5] ^= 0xFF
        #expect(!reads(Self.fixingCRC(badBlockLength, chunkAt: idat)))
        var badChecksum = bytes
        badChecksum[idatEnd - 5] ^= 0xFF
        #expect(!reads(Self.fixingCRC(badChecksum, chunkAt: idat)))
        for (width, height) in [(0x7FFF_FFFF, 8), (8, 0x7FFF_FFFF), (2_000_000, 8), (0, 8)] {
            var huge = bytes
            huge.replaceSubrange(16..<24, with: Self.bigEndian(UInt32(width)) + Self.bigEndian(UInt32(height)))
            huge = Self.fixingCRC(huge, chunkAt: 8)
            #expect(!reads(huge), "\(width) × \(height)")
            #expect(ReducedPNG.info(Data(huge)) == nil, "\(width) × \(height)")
        }
        var interlaced = bytes
        interlaced[28] = 1
        interlaced = Self.fixingCRC(interlaced, chunkAt: 8)
        #expect(!reads(interlaced))
        #expect(ReducedPNG.info(Data(interlaced)) == nil)
        #expect(!reads(Array("no PNG at all, but long enough to be read as one".utf8)))
    }

    /// The header read without the pixels gives the PNG's size and its `pHYs` resolution
    /// per metre as whole dots per inch (11,811 per metre: 300 dpi), upright.
    @Test func infoReadsSizeAndResolution() throws {
        let rows = (0..<3).map { _ in [UInt8](repeating: 9, count: 5) }
        var bytes = [UInt8](Self.png(width: 5, height: 3, colorType: 0, depth: 8, rows: rows))
        #expect(
            ReducedPNG.info(Data(bytes))
                == ImageDecoder.Info(
                    pixelWidth: 5, pixelHeight: 3, dpiX: nil, dpiY: nil, orientation: 1, format: "png"))
        let body = Array("pHYs".utf8) + Self.bigEndian(11_811) + Self.bigEndian(5_906) + [1]
        bytes.insert(contentsOf: Self.bigEndian(9) + body + Self.bigEndian(Self.crc(body)), at: 33)
        let info = try #require(ReducedPNG.info(Data(bytes)))
        #expect(
            info
                == ImageDecoder.Info(pixelWidth: 5, pixelHeight: 3, dpiX: 300, dpiY: 150, orientation: 1, format: "png")
        )
    }

    /// A picture is decoded at the pixels its placed size needs at 300 ppi when it has more
    /// than 1.5 times them (above 450 ppi), upright (a quarter-turned JPEG's needs are turned
    /// back), and as it is when it has no more.
    @Test func reducedSizeKeepsWhatPrintingNeeds() {
        let big = ImageDecoder.Info(
            pixelWidth: 10_000, pixelHeight: 5_000, dpiX: nil, dpiY: nil, orientation: 1, format: "png")
        #expect(ImageDecoder.reducedSize(of: big, fitting: (1_000, 500))! == (1_000, 500))
        #expect(ImageDecoder.reducedSize(of: big, fitting: (1_000, 1_000))! == (2_000, 1_000))
        #expect(ImageDecoder.reducedSize(of: big, fitting: (6_600, 3_300))! == (6_600, 3_300))
        #expect(ImageDecoder.reducedSize(of: big, fitting: (6_700, 3_350)) == nil)
        #expect(ImageDecoder.reducedSize(of: big, fitting: (10_000, 5_000)) == nil)
        #expect(ImageDecoder.reducedSize(of: big, fitting: (20_000, 10_000)) == nil)
        var turned = big
        turned.orientation = 6
        #expect(ImageDecoder.reducedSize(of: turned, fitting: (500, 1_000))! == (1_000, 500))
    }
}
