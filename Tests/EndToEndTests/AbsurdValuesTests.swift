import Foundation
import TestSupport
import Testing

/// Numbers and names at and past their limits: absurd image lengths warn at their attribute
/// and fall back, output names of 250 bytes get temporary names within 255, a picture drawn
/// many times is embedded once, an SVG `<use>` bomb and a PNG page of billions of pixels are
/// refused with words that say why.
@Suite(.serialized) struct AbsurdValuesTests {
    func typeset(_ arguments: [String], stdin: Data? = nil) throws -> (status: Int32, output: String) {
        try PDFProbe.run("timeout", ["120", Render.binary] + arguments, stdin: stdin)
    }

    /// A PNG picture of a page of text (Typeset's own `-f png`), at `path`.
    func picture(in dir: String, dpi: Int = 24) throws -> String {
        try "# Picture\n\nSome text to draw.\n".write(toFile: dir + "/picture.md", atomically: false, encoding: .utf8)
        let made = try typeset([
            "render", dir + "/picture.md", "-f", "png", "--dpi", "\(dpi)", "-o", dir + "/picture.png",
        ])
        #expect(made.status == 0, "\(made.output)")
        return dir + "/picture-1.png"
    }

    static let absurd = ["1e-300px", "1e300pt", "-5pt", "nan", "inf", "0", "1e-300%", "-inf"]

    /// Each absurd width or height, on a figure and on an inline picture, is a warning at its
    /// attribute; the picture is drawn at its natural size and the file is sound.
    @Test(arguments: absurd) func absurdImageLengthsWarnAndFallBack(value: String) throws {
        let dir = try Render.scratchFolder("absurd-image")
        let png = try picture(in: dir)
        let markdown =
            "Before.\n\n![figure](\(png)){width=\(value)}\n\nInline [![pic](\(png))]{height=\(value)} after.\n"
        try markdown.write(toFile: dir + "/a.md", atomically: false, encoding: .utf8)
        let result = try typeset(["render", dir + "/a.md", "-o", dir + "/a.pdf"])
        #expect(result.status == 0, "\(value): \(result.output)")
        #expect(result.output.contains("a.md:3:"), "\(value): the figure's warning at its line: \(result.output)")
        #expect(result.output.contains("'width' of an image"), "\(result.output)")
        #expect(
            result.output.contains("a.md:5:"), "\(value): the inline picture's warning at its line: \(result.output)")
        #expect(result.output.contains("'height' of an image"), "\(result.output)")
        #expect(
            !result.output.contains("invalid matrix") && !result.output.contains("rendering failed"), "\(result.output)"
        )
        let check = try PDFProbe.run("qpdf", ["--check", dir + "/a.pdf"])
        #expect(check.status == 0, "\(check.output)")
        let text = try PDFProbe.text(dir + "/a.pdf")
        #expect(text.contains("Before.") && text.contains("after."), "\(text)")
        let images = try PDFProbe.run("pdfimages", ["-list", dir + "/a.pdf"]).output
        #expect(images.split(separator: "\n").count >= 3, "both pictures drawn at a fallback size: \(images)")
    }

    /// Span sizes and tracking past their ranges warn and fall back, never fail the render.
    @Test func absurdSpanLengthsWarn() throws {
        let dir = try Render.scratchFolder("absurd-span")
        let spans = Self.absurd.enumerated().map {
            "Word\($0.offset) [big]{size=\($0.element)} [wide]{tracking=\($0.element)} end."
        }
        try spans.joined(separator: "\n\n").write(toFile: dir + "/a.md", atomically: false, encoding: .utf8)
        let result = try typeset(["render", dir + "/a.md", "-o", dir + "/a.pdf"])
        #expect(result.status == 0, "\(result.output)")
        // Warnings that say the same thing are said once, at the first place, with their count
        // ("(8 like this in all; …)"): every paragraph's spans are counted among them.
        let warnings = result.output.split(separator: "\n").filter { $0.contains(": warning: ") }
        let counted = warnings.map { line in line.firstMatch(of: /\((\d+) like this in all/).flatMap { Int($0.1) } ?? 1
        }
        #expect(result.output.contains("a.md:1:"), "\(result.output)")
        #expect(counted.reduce(0, +) >= Self.absurd.count, "every paragraph warns: \(result.output)")
        let text = try PDFProbe.text(dir + "/a.pdf")
        for index in Self.absurd.indices { #expect(text.contains("Word\(index)"), "\(text)") }
    }

    /// Page margins from -V and front matter, and a theme's sizes, past their ranges are
    /// errors at their position (the option, the front-matter line, the theme's value).
    @Test(arguments: ["1e300pt", "-5pt", "nan", "inf"]) func absurdPageAndThemeLengthsAreErrors(value: String) throws {
        let dir = try Render.scratchFolder("absurd-page")
        try "# Hi\n".write(toFile: dir + "/a.md", atomically: false, encoding: .utf8)
        let option = try typeset(["render", dir + "/a.md", "-o", dir + "/a.pdf", "-V", "margins=\(value)"])
        #expect(
            option.status != 0 && option.output.contains("-V margins") && option.output.contains(value),
            "\(option.output)")
        try "---\nmargins: \(value)\n---\n\n# Hi\n".write(toFile: dir + "/b.md", atomically: false, encoding: .utf8)
        let front = try typeset(["render", dir + "/b.md", "-o", dir + "/b.pdf"])
        #expect(front.status != 0 && front.output.contains("b.md:2:10: front matter 'margins'"), "\(front.output)")
        try "{\"roles\": {\"body\": {\"size\": \"\(value)\"}}}".write(
            toFile: dir + "/t.json", atomically: false, encoding: .utf8)
        let theme = try typeset(["render", dir + "/a.md", "-o", dir + "/c.pdf", "--theme", dir + "/t.json"])
        #expect(theme.status == 1 && theme.output.contains("t.json:1:29: role Body: size"), "\(theme.output)")
        #expect(
            !FileManager.default.fileExists(atPath: dir + "/a.pdf")
                && !FileManager.default.fileExists(atPath: dir + "/c.pdf"))
    }

    /// Output names of 250 bytes (the limit is 255): the temporary file beside each output is
    /// named within the limit, for a PDF, PNG pages, an output folder and a specimen.
    @Test func outputNamesNearTheLimit() throws {
        let dir = try Render.scratchFolder("long-names")
        try "# Long\n\nA name near the limit.\n".write(toFile: dir + "/a.md", atomically: false, encoding: .utf8)
        let pdfName = String(repeating: "n", count: 246) + ".pdf"
        let pdf = try typeset(["render", dir + "/a.md", "-o", dir + "/" + pdfName])
        #expect(pdf.status == 0, "\(pdf.output)")
        #expect(try PDFProbe.text(dir + "/" + pdfName).contains("A name near the limit."))
        let wide = String(repeating: "é", count: 123) + ".pdf"
        let accented = try typeset(["render", dir + "/a.md", "-o", dir + "/" + wide])
        #expect(accented.status == 0, "two-byte characters cut whole: \(accented.output)")
        let stem = String(repeating: "p", count: 245)
        let png = try typeset(["render", dir + "/a.md", "-f", "png", "--dpi", "24", "-o", dir + "/" + stem + ".png"])
        #expect(png.status == 0, "\(png.output)")
        #expect(FileManager.default.fileExists(atPath: dir + "/" + stem + "-1.png"))
        let inputName = String(repeating: "i", count: 248) + ".md"
        try "# Input\n".write(toFile: dir + "/" + inputName, atomically: false, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: dir + "/out", withIntermediateDirectories: true)
        let folder = try typeset(["render", dir + "/" + inputName, "-o", dir + "/out/"])
        let intoFolder =
            folder.status == 0 ? folder : try typeset(["render", dir + "/" + inputName, "--output-dir", dir + "/out"])
        #expect(intoFolder.status == 0, "\(intoFolder.output)")
        let specimenName = String(repeating: "s", count: 246) + ".pdf"
        let specimen = try typeset(["specimen", "-o", dir + "/" + specimenName])
        #expect(specimen.status == 0, "\(specimen.output)")
        let left = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix(".") }
        #expect(left.isEmpty, "no temporary file left: \(left)")
    }

    /// Names at the limit itself: a PDF named with 255 bytes is tagged (the tagging pass's own
    /// file beside it is named within the limit too); page pictures whose names would pass the
    /// limit, or that would be written beside a device (`-o /dev/stdout`), are a usage error
    /// before anything is drawn.
    @Test func outputNamesAtTheLimitAndDevices() throws {
        let dir = try Render.scratchFolder("names-at-the-limit")
        try "# Long\n\nA name at the limit.\n".write(toFile: dir + "/a.md", atomically: false, encoding: .utf8)
        let pdfName = String(repeating: "n", count: 251) + ".pdf"
        let pdf = try typeset(["render", dir + "/a.md", "-o", dir + "/" + pdfName])
        #expect(pdf.status == 0 && !pdf.output.contains("untagged"), "\(pdf.output)")
        let structure = try PDFProbe.run("pdfinfo", ["-struct", dir + "/" + pdfName]).output
        #expect(structure.contains("H1") && structure.contains("P"), "\(structure)")
        let stem = String(repeating: "p", count: 251)
        let png = try typeset(["render", dir + "/a.md", "-f", "png", "-o", dir + "/" + stem + ".png"])
        #expect(png.status == 2 && png.output.contains("longer than the 255 bytes"), "\(png.output)")
        for device in ["/dev/stdout", "/dev/null"] {
            let run = try typeset(["render", dir + "/a.md", "-f", "png", "-o", device])
            #expect(run.status == 2 && run.output.contains("not a regular file"), "\(device): \(run.output)")
            #expect(!FileManager.default.fileExists(atPath: device + "-1.png"))
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix(".") }
        #expect(left.isEmpty, "no temporary file left: \(left)")
    }

    /// One picture drawn n and 8n times: one image object in the PDF either way, a file that
    /// grows by the drawing commands only, and time within 10× for 8× the pictures.
    @Test(.slow) func aPictureDrawnManyTimesIsEmbeddedOnce() throws {
        let dir = try Render.scratchFolder("image-reuse")
        let png = try picture(in: dir, dpi: 150)
        var sizes: [Int] = []
        var times: [Double] = []
        for count in [10, 80] {
            let markdown = (1...count).map { "![copy \($0)](\(png)){width=40pt}" }.joined(separator: "\n\n")
            try markdown.write(toFile: dir + "/copies\(count).md", atomically: false, encoding: .utf8)
            let start = Date()
            let result = try typeset(["render", dir + "/copies\(count).md", "-o", dir + "/copies\(count).pdf"])
            times.append(Date().timeIntervalSince(start))
            #expect(result.status == 0, "\(result.output)")
            let list = try PDFProbe.run("pdfimages", ["-list", dir + "/copies\(count).pdf"]).output
            let objects = Set(
                list.split(separator: "\n").dropFirst(2).compactMap { line -> String? in
                    let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                    return fields.count > 11 ? String(fields[10]) : nil
                })
            #expect(list.split(separator: "\n").dropFirst(2).count == count, "every copy drawn: \(list)")
            #expect(objects.count == 1, "\(count) copies, \(objects.count) image objects: \(objects)")
            sizes.append(
                try FileManager.default.attributesOfItem(atPath: dir + "/copies\(count).pdf")[.size] as? Int ?? 0)
        }
        let pictureBytes = try FileManager.default.attributesOfItem(atPath: png)[.size] as? Int ?? 0
        #expect(
            (sizes[1] - sizes[0]) / 70 < pictureBytes / 10,
            "70 more copies add \(sizes[1] - sizes[0]) bytes; the picture is \(pictureBytes)")
        let check = try PDFProbe.run("qpdf", ["--check", dir + "/copies80.pdf"])
        #expect(check.status == 0, "no resource listed twice: \(check.output)")
        #expect(times[1] < times[0] * 10, "\(times)")
    }

    /// An SVG whose `<use>` references repeat a group a billion times is refused before
    /// librsvg draws it, with a warning; a few references are drawn.
    @Test func anSVGUseBombIsRefused() throws {
        let dir = try Render.scratchFolder("svg-bomb")
        var levels = ["<g id=\"l0\"><rect width=\"1\" height=\"1\"/></g>"]
        for level in 1...9 {
            levels.append(
                "<g id=\"l\(level)\">" + String(repeating: "<use href=\"#l\(level - 1)\"/>", count: 10) + "</g>")
        }
        let bomb =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100\" height=\"100\"><defs>"
            + levels.joined() + "</defs><use href=\"#l9\"/></svg>\n"
        try bomb.write(toFile: dir + "/bomb.svg", atomically: false, encoding: .utf8)
        let few =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100\" height=\"100\"><defs>" + levels[0]
            + "</defs><use href=\"#l0\"/><use href=\"#l0\" x=\"5\"/></svg>\n"
        try few.write(toFile: dir + "/few.svg", atomically: false, encoding: .utf8)
        try "Text.\n\n![bomb](bomb.svg)\n\n![few](few.svg)\n\nAfter.\n".write(
            toFile: dir + "/a.md", atomically: false, encoding: .utf8)
        let result = try typeset(["render", dir + "/a.md", "-o", dir + "/a.pdf"])
        #expect(result.status == 0, "\(result.output)")
        #expect(
            result.output.contains("a.md:3:9: warning: image 'bomb.svg'") && result.output.contains("too many to draw"),
            "\(result.output)")
        #expect(!result.output.contains("few.svg"), "\(result.output)")
        #expect(try PDFProbe.text(dir + "/a.pdf").contains("After."))
    }

    /// An SVG whose filter applies a thousand blurs is refused before librsvg draws it, with a
    /// warning at its address and a placeholder, so that its document costs about what one of a
    /// single blur costs (before, each blur processed every pixel: a thousand times the work);
    /// a drop shadow is drawn. The two renders are timed in turn, in the same run.
    @Test func anSVGFilterChainIsRefused() throws {
        let dir = try Render.scratchFolder("svg-filters")
        func filtered(_ blurs: Int) -> String {
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1000\" height=\"1000\"><filter id=\"f\">"
                + String(repeating: "<feGaussianBlur stdDeviation=\"50\"/>", count: blurs)
                + "</filter><rect width=\"1000\" height=\"1000\" fill=\"red\" filter=\"url(#f)\"/></svg>\n"
        }
        try filtered(1_000).write(toFile: dir + "/chain.svg", atomically: false, encoding: .utf8)
        try filtered(1).write(toFile: dir + "/one.svg", atomically: false, encoding: .utf8)
        try "Text.\n\n![chain](chain.svg)\n\nAfter.\n".write(
            toFile: dir + "/a.md", atomically: false, encoding: .utf8)
        try "Text.\n\n![one](one.svg)\n\nAfter.\n".write(toFile: dir + "/b.md", atomically: false, encoding: .utf8)
        var result: (status: Int32, output: String) = (0, "")
        func measured() -> [Double] {
            let chain = Timing.bestSeconds(of: 1) {
                result = (try? typeset(["render", dir + "/a.md", "-o", dir + "/a.pdf"])) ?? (1, "")
            }
            let one = Timing.bestSeconds(of: 1) { _ = try? typeset(["render", dir + "/b.md", "-o", dir + "/b.pdf"]) }
            return [chain, one]
        }
        let times = Timing.firstHolding(measured) { $0[0] < $0[1] * 3 }
        #expect(result.status == 0, "\(result.output)")
        #expect(
            result.output.contains("a.md:3:10: warning: image 'chain.svg'")
                && result.output.contains("filter primitive"),
            "\(result.output)")
        #expect(try PDFProbe.text(dir + "/a.pdf").contains("After."))
        #expect(times[0] < times[1] * 3, "a thousand blurs against one: \(times)")
        let one = try typeset(["render", dir + "/b.md", "-o", dir + "/b.pdf"])
        #expect(!one.output.contains("one.svg"), "\(one.output)")
    }

    /// A PNG page of more pixels than the limit is refused with the resolution that fits.
    @Test func aPNGPageOfTooManyPixelsIsRefused() throws {
        let dir = try Render.scratchFolder("png-pixels")
        try "# Big\n".write(toFile: dir + "/a.md", atomically: false, encoding: .utf8)
        for dpi in ["2400", "1200"] {
            let result = try typeset(["render", dir + "/a.md", "-f", "png", "--dpi", dpi, "-o", dir + "/a.png"])
            #expect(result.status == 1, "\(result.output)")
            #expect(result.output.contains("million pixels") && result.output.contains("use --dpi"), "\(result.output)")
        }
        let fine = try typeset(["render", dir + "/a.md", "-f", "png", "--dpi", "150", "-o", dir + "/b.png"])
        #expect(fine.status == 0, "\(fine.output)")
    }

    /// A PNG page at the largest resolution is drawn a band of rows at a time: its peak memory
    /// stays near that of the page at 100 dpi, measured in the same run (the whole page's
    /// pixels took 4.4 times as much), and its bands hold the page: each sixteenth of it, from
    /// top to bottom, is as dark as the same sixteenth at 100 dpi.
    @Test func aLargePNGPageIsDrawnInBands() throws {
        let dir = try Render.scratchFolder("png-bands")
        let lines = (1...48).map { "Line \($0) of a page of text, set from the top of the page to its foot." }
        try lines.joined(separator: "\n\n").write(toFile: dir + "/a.md", atomically: false, encoding: .utf8)
        var peaks: [String: Double] = [:]
        for dpi in ["100", "600"] {
            let report = dir + "/\(dpi).time"
            let run = try PDFProbe.run(
                "time",
                [
                    "-f", "%M", "-o", report, Render.binary, "render", dir + "/a.md", "-f", "png", "--dpi", dpi, "-q",
                    "-o", dir + "/p\(dpi).png",
                ])
            #expect(run.status == 0, "\(run.output)")
            let text = try String(contentsOfFile: report, encoding: .utf8)
            peaks[dpi] = text.split(separator: "\n").last.flatMap { Double(String($0)) }
        }
        let small = try #require(peaks["100"])
        let large = try #require(peaks["600"])
        #expect(large <= 1.6 * small, "peak at 600 dpi \(Int(large / 1024)) MiB, at 100 dpi \(Int(small / 1024)) MiB")
        guard let python = PDFValidationTests.checker() else { return }
        let script = """
            import sys
            from PIL import Image
            def strips(path):
                image = Image.open(path).convert("L")
                w, h = image.size
                boxes = [(0, h * k // 16, w, h * (k + 1) // 16) for k in range(16)]
                return [sum(image.crop(box).resize((1, 1), Image.BOX).getdata()) / 255 for box in boxes]
            print(max(abs(a - b) for a, b in zip(strips(sys.argv[1]), strips(sys.argv[2]))))
            """
        let compared = try PDFProbe.run(
            python, ["-c", script, dir + "/p100-1.png", dir + "/p600-1.png"], standardErrorToo: false)
        let difference = try #require(Double(compared.output.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(difference < 0.01, "a sixteenth of the page differs in darkness by \(difference)")
    }
}
