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

    @Test func anAdobeCMYKJPEGKeepsItsColours() throws {
        let folder = try Render.scratchFolder("cmyk")
        let stripes = Self.colours.map { "xc:rgb(\($0[0]),\($0[1]),\($0[2]))" }
        let made = try PDFProbe.run(
            "convert", ["-size", "60x60"] + stripes + ["+append", "-colorspace", "CMYK", folder + "/stripes.jpg"])
        try #require(made.status == 0, "ImageMagick: \(made.output)")
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: folder + "/stripes.jpg"))
        #expect(jpeg.range(of: Data("Adobe".utf8)) != nil, "ImageMagick writes Adobe's APP14 marker")
        try "---\ntitle: CMYK\n---\n\n![Four stripes](stripes.jpg)\n".write(
            toFile: folder + "/doc.md", atomically: true, encoding: .utf8)
        let rendered = try typeset(["render", folder + "/doc.md", "-o", folder + "/doc.pdf"])
        try #require(rendered.status == 0, "\(rendered.output)")
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
}
