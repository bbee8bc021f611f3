import Foundation
import TestSupport
import Testing

/// A CMYK JPEG with Adobe's APP14 marker (samples stored inverted, as Photoshop and
/// libjpeg write them) prints in its own colours: the PDF's image carries
/// `/Decode [1 0 1 0 1 0 1 0]`, and poppler's rendering of the page shows each of the source's
/// colours over the area it covers. Poppler turns DeviceCMYK into RGB by a formula of its own
/// (ImageMagick's CMYK of pure red, 0/100/100/0, comes out 236/27/36; its green 32/160/64 as
/// 34/123/90), so a colour counts as kept within 48 of 255 a channel; read inverted, each comes
/// out at least 150 away (red as 91/7/37, yellow as 0/14/36).
@Suite struct CMYKImageTests {
    /// The stripes' colours, as ImageMagick gives them back from the CMYK file.
    static let colours: [[UInt8]] = [[255, 0, 0], [48, 128, 192], [32, 160, 64], [240, 192, 32]]

    @Test(arguments: [[], ["--pdf-standard", "a-2b"], ["--pdf-standard", "ua-1,a-3b"]])
    func anAdobeCMYKJPEGKeepsItsColours(standard: [String]) throws {
        let folder = try Render.scratchFolder("cmyk")
        let stripes = Self.colours.map { "xc:rgb(\($0[0]),\($0[1]),\($0[2]))" }
        let made = try PDFProbe.run(
            "convert", ["-size", "60x60"] + stripes + ["+append", "-colorspace", "CMYK", folder + "/stripes.jpg"])
        try #require(made.status == 0, "ImageMagick: \(made.output)")
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: folder + "/stripes.jpg"))
        #expect(jpeg.range(of: Data("Adobe".utf8)) != nil, "ImageMagick writes Adobe's APP14 marker")
        try "---\ntitle: CMYK\n---\n\n![Four stripes](stripes.jpg)\n".write(
            toFile: folder + "/doc.md", atomically: false, encoding: .utf8)
        let rendered = try typeset(["render", folder + "/doc.md", "-o", folder + "/doc.pdf"] + standard)
        try #require(rendered.status == 0, "\(rendered.output)")
        // A PDF/A file's output intent is sRGB: the picture is embedded in RGB, not DeviceCMYK
        // (ISO 19005-2 §6.2.4.3); any other file embeds the JPEG's own bytes.
        let images = try PDFProbe.run("pdfimages", ["-list", folder + "/doc.pdf"]).output
        let colour = images.split(separator: "\n").dropFirst(2).first?.split(
            separator: " ", omittingEmptySubsequences: true)
        #expect(colour?[5] == (standard.isEmpty ? "cmyk" : "rgb"), "\(images)")
        if !standard.isEmpty {
            let profile = standard[1].hasSuffix("a-3b") ? "3b" : "2b"
            let failures = try PDFValidationTests.validate([folder + "/doc.pdf"], profile: profile)
            #expect(failures[folder + "/doc.pdf"]?.isEmpty ?? true, "\(failures)")
        }
        let page = try PDFProbe.run(
            "pdftoppm", ["-r", "50", "-f", "1", "-l", "1", folder + "/doc.pdf", folder + "/page"])
        try #require(page.status == 0)
        let image = try #require(NetpbmImage(path: folder + "/page-1.ppm"))
        for colour in Self.colours {
            var near = 0
            for pixel in stride(from: 0, to: image.width * image.height * 3, by: 3) {
                let distance = (0..<3).map { abs(Int(image.samples[pixel + $0]) - Int(colour[$0])) }.max() ?? 255
                if distance <= 48 { near += 1 }
            }
            // A stripe is about 60 × 60 px scaled to the measure's quarter: hundreds of pixels.
            #expect(near > 200, "colour \(colour): \(near) pixels near it")
        }
    }

    /// A PNG preview (`-f png`) draws each JPEG in its own colours, within 3 % (8 of 255 a
    /// channel) of the source's pixels as ImageMagick decodes them: an Adobe CMYK JPEG (its
    /// inverted samples read as such), a grey one and an RGB one. A PDF embeds a JPEG's own
    /// bytes; a preview decodes its pixels.
    @Test func previewsDrawJPEGsInTheirColours() throws {
        let folder = try Render.scratchFolder("cmyk-preview")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let greys: [[UInt8]] = [[40, 40, 40], [128, 128, 128], [220, 220, 220]]
        let cases: [(name: String, colours: [[UInt8]], space: String)] = [
            ("cmyk", Self.colours, "CMYK"), ("grey", greys, "Gray"), ("rgb", Self.colours, "sRGB"),
        ]
        for (name, colours, space) in cases {
            let stripes = colours.map { "xc:rgb(\($0[0]),\($0[1]),\($0[2]))" }
            let jpeg = folder + "/\(name).jpg"
            let made = try PDFProbe.run(
                "convert", ["-size", "60x60"] + stripes + ["+append", "-colorspace", space, "-quality", "98", jpeg])
            try #require(made.status == 0, "ImageMagick: \(made.output)")
            // The source's pixels as ImageMagick decodes them (JPEG rounds each colour a little).
            let decoded = try PDFProbe.run("convert", [jpeg, "-colorspace", "sRGB", folder + "/\(name).ppm"])
            try #require(decoded.status == 0)
            let source = try #require(NetpbmImage(path: folder + "/\(name).ppm"))
            try "---\ntitle: \(name)\n---\n\n![Stripes](\(name).jpg)\n".write(
                toFile: folder + "/\(name).md", atomically: false, encoding: .utf8)
            let rendered = try typeset([
                "render", folder + "/\(name).md", "-f", "png", "-q", "-o", folder + "/\(name).png",
            ])
            try #require(rendered.status == 0, "\(rendered.output)")
            let converted = try PDFProbe.run("convert", [folder + "/\(name)-1.png", folder + "/\(name)-page.ppm"])
            try #require(converted.status == 0)
            let page = try #require(NetpbmImage(path: folder + "/\(name)-page.ppm"))
            let samples = page.format == "P6" ? 3 : 1
            // The middle of each stripe in the source.
            let sourceSamples = source.format == "P6" ? 3 : 1
            let expected = colours.indices.map { stripe in
                let offset = ((30 * source.width) + stripe * 60 + 30) * sourceSamples
                return (0..<3).map { Int(source.samples[offset + (sourceSamples == 3 ? $0 : 0)]) }
            }
            var near = [Int](repeating: 0, count: expected.count)
            page.samples.withUnsafeBufferPointer { pixels in
                for pixel in stride(from: 0, to: page.width * page.height * samples, by: samples) {
                    let red = Int(pixels[pixel])
                    let green = Int(pixels[pixel + (samples == 3 ? 1 : 0)])
                    let blue = Int(pixels[pixel + (samples == 3 ? 2 : 0)])
                    if red > 250, green > 250, blue > 250 { continue }
                    for (index, colour) in expected.enumerated()
                    where abs(red - colour[0]) <= 8 && abs(green - colour[1]) <= 8 && abs(blue - colour[2]) <= 8 {
                        near[index] += 1
                    }
                }
            }
            for (colour, count) in zip(expected, near) {
                // A stripe is 60 × 60 px drawn at 60 pt or more: over 3,000 pixels at 96 dpi.
                #expect(count > 2_000, "\(name) stripe \(colour): \(count) pixels of the preview within 3 %")
            }
        }
    }
}
