import Foundation
import TestSupport
import Testing

/// Pictures of many more pixels than their placed size prints are decoded smaller (at most
/// 300 ppi of that size), so that a document's peak memory follows what it prints, not the
/// pixels of its files; ordinary pictures are embedded as they are.
@Suite(.serialized) struct HugeImageMemoryTests {
    /// Writes a 1-bit grey PNG of `side` × `side` pixels, every byte of its rows `fill`, to
    /// `path` (with Python's zlib: a 10,000 × 10,000 one is about 12 KB).
    func writeGreyPNG(side: Int, fill: UInt8, to path: String) throws {
        let script = """
            import struct, sys, zlib
            side, fill, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
            def chunk(kind, data):
                return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data))
            row = b'\\0' + bytes([fill]) * ((side + 7) // 8)
            packer = zlib.compressobj(9)
            data = b''.join(packer.compress(row) for _ in range(side)) + packer.flush()
            header = struct.pack('>IIBBBBB', side, side, 1, 0, 0, 0, 0)
            with open(path, 'wb') as out:
                signature = b'\\x89PNG\\r\\n\\x1a\\n'
                out.write(signature + chunk(b'IHDR', header) + chunk(b'IDAT', data) + chunk(b'IEND', b''))
            """
        let run = try PDFProbe.run("python3", ["-c", script, "\(side)", "\(fill)", path])
        #expect(run.status == 0, "\(run.output)")
    }

    /// The images of a PDF as `pdfimages -list` gives them: width, height and encoding.
    func images(_ pdf: String) throws -> [(width: Int, height: Int, encoding: String)] {
        let lines = try PDFProbe.run("pdfimages", ["-list", pdf]).output.split(separator: "\n").dropFirst(2)
        return lines.compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count > 8, let width = Int(fields[3]), let height = Int(fields[4]) else { return nil }
            return (width, height, String(fields[8]))
        }
    }

    /// One 10,000 × 10,000 PNG (100 million pixels in 12 KB) placed once costs less than
    /// twice the peak memory of a document with no picture, and twice its sides cost much
    /// less than four times the memory of 5,000 × 5,000: it is decoded at 300 ppi of its
    /// placed size (before, at 8 bytes a pixel: 820 MB, 22 times a document without it). Its
    /// image in the PDF has that size.
    @Test(.slow) func aHugePNGCostsWhatItPrints() throws {
        let folder = Render.folder + "/memory"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try writeGreyPNG(side: 10_000, fill: 0, to: folder + "/huge.png")
        try writeGreyPNG(side: 5_000, fill: 0, to: folder + "/half.png")
        let none = try Render.peak("Text.\n", name: "no-picture")
        let half = try Render.peak("![b](half.png)\n", name: "half-picture")
        let huge = try Render.peak("![b](huge.png)\n", name: "huge-picture")
        #expect(huge.mebibytes < none.mebibytes * 2, "none \(none.mebibytes), huge \(huge.mebibytes) MiB")
        #expect(huge.mebibytes < half.mebibytes * 1.5, "half \(half.mebibytes), huge \(huge.mebibytes) MiB")
        let embedded = try images(huge.pdf)
        #expect(embedded.count == 1)
        // The measure is at most 7 in: 2,100 pixels at 300 ppi.
        #expect(embedded.allSatisfy { $0.width <= 2_100 && $0.width == $0.height }, "\(embedded)")
    }

    /// Four different 6,000 × 6,000 PNGs in one document do not add up to their pixels: its
    /// peak memory stays under three times that of a document with no picture (before, each
    /// decoded picture was kept at 4 bytes a pixel: a gigabyte).
    @Test(.slow) func severalHugePNGsDoNotAddUp() throws {
        let folder = Render.folder + "/memory"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for index in 0..<4 {
            try writeGreyPNG(side: 6_000, fill: UInt8(index * 37 + 1), to: folder + "/several\(index).png")
        }
        let none = try Render.peak("Text.\n", name: "no-pictures")
        let several = try Render.peak(
            (0..<4).map { "![b](several\($0).png)\n\n" }.joined(), name: "several-pictures")
        #expect(several.mebibytes < none.mebibytes * 3, "none \(none.mebibytes), four \(several.mebibytes) MiB")
        #expect(try images(several.pdf).count == 4)
    }

    /// Ordinary pictures are embedded as before: a PNG and a JPEG of fewer pixels than 300 ppi
    /// of their placed size keep their pixel size, and the JPEG its own bytes (DCT); a PNG
    /// tagged 600 ppi, placed at its natural size, is halved to 300 ppi.
    /// A large file that is no picture (zeros named `.png`) is refused from its first bytes,
    /// never read whole: its document's peak memory is that of one naming a 12-byte such file
    /// (before, the whole 96 MiB was read before gdk-pixbuf found no format: 2.5 × the peak).
    @Test func aLargeFileThatIsNoPictureIsNotRead() throws {
        let folder = Render.folder + "/memory"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (name, size) in [("no-picture-large.png", UInt64(96 << 20)), ("no-picture-small.png", 12)] {
            FileManager.default.createFile(atPath: folder + "/" + name, contents: nil)
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: folder + "/" + name))
            try handle.truncate(atOffset: size)
            try handle.close()
        }
        let large = try Render.peak("# T\n\n![x](no-picture-large.png)\n", name: "no-picture-large")
        let small = try Render.peak("# T\n\n![x](no-picture-small.png)\n", name: "no-picture-small")
        #expect(large.mebibytes < small.mebibytes * 1.3, "\(large.mebibytes) MiB against \(small.mebibytes) MiB")
        try? FileManager.default.removeItem(atPath: folder + "/no-picture-large.png")
    }

    @Test func ordinaryPicturesKeepTheirPixels() throws {
        let dir = try Render.scratchFolder("ordinary-pictures")
        let gradient = ["-size", "600x400", "gradient:red-blue"]
        #expect(try PDFProbe.run("convert", gradient + [dir + "/photo.png"]).status == 0)
        #expect(try PDFProbe.run("convert", gradient + ["-quality", "90", dir + "/photo.jpg"]).status == 0)
        #expect(
            try PDFProbe.run("convert", gradient + ["-units", "PixelsPerInch", "-density", "600", dir + "/fine.png"])
                .status == 0)
        try "![png](photo.png)\n\n![jpeg](photo.jpg)\n\n![fine](fine.png)\n".write(
            toFile: dir + "/a.md", atomically: false, encoding: .utf8)
        let result = try PDFProbe.run(Render.binary, ["render", dir + "/a.md", "-q", "-o", dir + "/a.pdf"])
        #expect(result.status == 0, "\(result.output)")
        let embedded = try images(dir + "/a.pdf")
        #expect(embedded.count == 3, "\(embedded)")
        guard embedded.count == 3 else { return }
        #expect(embedded[0].width == 600 && embedded[0].height == 400 && embedded[0].encoding == "image")
        #expect(embedded[1].width == 600 && embedded[1].height == 400 && embedded[1].encoding == "jpeg")
        #expect(embedded[2].width == 300 && embedded[2].height == 200, "\(embedded[2])")
        let extracted = dir + "/out"
        #expect(try PDFProbe.run("pdfimages", ["-j", "-f", "1", dir + "/a.pdf", extracted]).status == 0)
        let jpegs = try FileManager.default.contentsOfDirectory(atPath: dir).filter {
            $0.hasPrefix("out") && $0.hasSuffix(".jpg")
        }
        #expect(jpegs.count == 1)
        let original = try Data(contentsOf: URL(fileURLWithPath: dir + "/photo.jpg"))
        #expect(try jpegs.first.map { try Data(contentsOf: URL(fileURLWithPath: dir + "/" + $0)) } == original)
    }
    /// A picture of many pixels placed at many sizes is decoded a few times, not once a size
    /// (each decoding reads every row of the file: a 100-million-pixel PNG at twenty widths
    /// took 15.6 s): a placement takes a smaller picture decoded before when it has the pixels
    /// it needs (300 ppi), and from the third size on a picture is decoded with room for
    /// larger ones. Every placement still has at least 300 ppi, and a picture placed smaller
    /// after larger is embedded once.
    @Test func aPictureAtManySizesIsDecodedAFewTimes() throws {
        let dir = try Render.scratchFolder("picture-at-many-sizes")
        try writeGreyPNG(side: 4_000, fill: 0x5A, to: dir + "/wide.png")
        let widths = Array(stride(from: 60, through: 280, by: 20))
        let markdown =
            widths.map { "![w](wide.png){width=\($0)px}\n" }.joined(separator: "\n")
            + "\n![w](wide.png){width=70px}\n"
        try markdown.write(toFile: dir + "/many.md", atomically: false, encoding: .utf8)
        let result = try PDFProbe.run(Render.binary, ["render", dir + "/many.md", "-q", "-o", dir + "/many.pdf"])
        #expect(result.status == 0, "\(result.output)")
        // `pdfimages -list`: one line a placement, with its image's object and resolution.
        let placements = try PDFProbe.run("pdfimages", ["-list", dir + "/many.pdf"]).output
            .split(separator: "\n").dropFirst(2).map { $0.split(separator: " ") }.filter { $0.count > 12 }
        #expect(placements.count == widths.count + 1)
        let objects = Set(placements.map { $0[10] })
        // At most four sizes a picture (ImageDecoder.reductionsPerFile).
        #expect(objects.count <= 4, "\(objects.count) pictures embedded")
        let resolutions = placements.compactMap { Int($0[12]) }
        #expect(resolutions.count == placements.count && resolutions.allSatisfy { $0 >= 299 }, "\(resolutions)")
    }
}
