import Foundation
import Styling
import TestSupport
import Testing
import Typography

@testable import Typesetter

/// `templates/readme-like.md` — a README as GitHub projects write them — rendered with
/// pictures generated here, and read back from the PDF: links and destinations (qpdf), image
/// boxes and orientation (pdfimages and the placing matrix), text, and the warnings.
@Suite(.serialized) struct ReadmeLikeTests {
    /// A folder holding the fixture and its generated `readme-images/`.
    static let folder: String = {
        let folder = Render.folder + "/readme-like"
        let images = folder + "/readme-images"
        try? FileManager.default.createDirectory(atPath: images, withIntermediateDirectories: true)
        try? FileManager.default.removeItem(atPath: folder + "/readme-like.md")
        try? FileManager.default.copyItem(
            atPath: Render.packageRoot + "/templates/readme-like.md", toPath: folder + "/readme-like.md")
        ImageFiles.make(in: images)
        return folder
    }()

    /// The PDF and the warnings' messages.
    static let rendered: (pdf: String, messages: [String])? = {
        let source = folder + "/readme-like.md"
        guard let markdown = try? String(contentsOfFile: source, encoding: .utf8),
            let (pdf, report) = try? Render.markdown(
                markdown, name: "readme-like", options: RenderOptions(baseDirectory: folder))
        else { return nil }
        return (pdf, report.diagnostics.map(\.message))
    }()

    /// The PDF uncompressed (qpdf QDF form), read once for the tests below.
    static let qdf: String? = rendered.flatMap { try? PDFProbe.contentStreams($0.pdf) }

    @Test func rendersCleanWithOnlyTheWarningsItDeserves() throws {
        let (pdf, messages) = try #require(Self.rendered)
        #expect(try PDFProbe.qpdfClean(pdf))
        // Comments (four of them, one spanning lines) say nothing; neither do anchors, entities,
        // <details>, <table>, <div>, <kbd>… — only what really is not rendered.
        #expect(!messages.contains { $0.contains("comment") || $0.contains("raw HTML") }, "\(messages)")
        #expect(messages.filter { $0.contains("<blink>") }.count == 1, "one warning for two <blink>: \(messages)")
        #expect(messages.filter { $0.contains("remote image") }.count == 1)
        #expect(messages.contains { $0.contains("remote image") && $0.contains("2 like this in all") }, "\(messages)")
        #expect(
            messages.contains { $0.contains("a link into another Markdown file") && $0.contains("CHANGELOG.md#v2") })
        #expect(messages.contains { $0.contains("empty heading") })
        #expect(!messages.contains { $0.contains("matches no heading") }, "every internal link resolves: \(messages)")
        #expect(messages.count == 4, "\(messages)")
    }

    @Test func textOfEntitiesAndHTMLBlocks() throws {
        let (pdf, _) = try #require(Self.rendered)
        let text = try PDFProbe.text(pdf).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("It is written in Cé — no, in C — and © 2026 its authors."), "\(text.prefix(400))")
        #expect(text.contains("if a < b then the meter is dark; if b > a it is bright."))
        #expect(text.contains("Build from source Clone the repository"))
        #expect(text.contains("CO2 is not measured"))
        #expect(text.contains("old markup and more of it keep their text"))
        #expect(text.contains("license MIT"), "a remote badge shows its alt text")
        #expect(text.contains("a handle & an error"))
        #expect(text.contains("Tabs in a paragraph are spaces."))
        #expect(
            text.contains("A photo of the meter, taken on its side"), "a Markdown image is captioned with its alt text")
        #expect(!text.contains("Lumen logo") && !text.contains("A 300 dpi chart"), "an HTML <img> is not, as on GitHub")
        #expect(!text.contains("introduced_in") && !text.contains("<!--") && !text.contains("&eacute;"))
    }

    @Test func linksAndDestinationsResolve() throws {
        let qdf = try #require(Self.qdf)
        let dests = Set(
            try NSRegularExpression(pattern: #"/Dest \(([^)]*)\)"#).matches(
                in: qdf, range: NSRange(qdf.startIndex..., in: qdf)
            )
            .map { (qdf as NSString).substring(with: $0.range(at: 1)) })
        #expect(dests.isSuperset(of: ["install", "usage", "api-reference", "frequently-asked-questions"]), "\(dests)")
        let named = try NSRegularExpression(pattern: #"\(([a-z-]+)\)\s*\[\s*\d+ 0 R\s*/XYZ"#).matches(
            in: qdf, range: NSRange(qdf.startIndex..., in: qdf)
        )
        .map { (qdf as NSString).substring(with: $0.range(at: 1)) }
        #expect(
            Set(named).isSuperset(of: ["install", "usage"]),
            "the <a id> and <a name> anchors are named destinations: \(named)")
        for uri in ["https://ci.example.com/lumen", "mailto:help@example.com", "tel:+15555550100", "CHANGELOG.md#v2"] {
            #expect(qdf.contains("/URI (\(uri))"), "link to \(uri)")
        }
    }

    @Test func imagesArePlacedUprightAtTheirResolution() throws {
        let (pdf, _) = try #require(Self.rendered)
        let list = try PDFProbe.run("pdfimages", ["-list", pdf]).output
        let rows = list.split(separator: "\n").dropFirst(2).map {
            $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        }
        func row(_ w: Int, _ h: Int) -> [String]? { rows.first { $0.count > 13 && $0[3] == "\(w)" && $0[4] == "\(h)" } }
        // The photo is stored 240 × 120 px with EXIF "rotate 90° clockwise": placed upright.
        let photo = try #require(row(120, 240), "\(list)")
        #expect(photo[12] == "96", "untagged: 96 dpi")
        // 600 × 300 px tagged 300 dpi: 144 × 72 pt, so 300 ppi on the page.
        let chart = try #require(row(600, 300))
        #expect(chart[12] == "300" && chart[13] == "300")
        #expect(row(200, 100) != nil, "the WebP is drawn")
        #expect(row(120, 28) != nil, "the GIF badge is drawn")
        #expect(row(128, 128) != nil, "the logo is drawn")

        let streams = try #require(Self.qdf)
        let placed = try NSRegularExpression(pattern: #"([\d.]+) 0 0 -([\d.]+) ([\d.]+) ([\d.]+) cm\s*/a0 gs /x\d+ Do"#)
            .matches(in: streams, range: NSRange(streams.startIndex..., in: streams)).map { m in
                (1...4).map { Double((streams as NSString).substring(with: m.range(at: $0)))! }
            }
        func has(_ w: Double, _ h: Double) -> Bool {
            placed.contains { abs($0[0] - w) < 0.01 && abs($0[1] - h) < 0.01 }
        }
        #expect(has(90, 180), "the photo is 90 pt wide × 180 pt high: \(placed)")
        #expect(has(144, 72), "the 300 dpi chart is 144 × 72 pt")
        #expect(has(72, 72), "the logo asks width=96 (CSS px): 72 pt")
        // The badge (120 × 28 px = 90 × 21 pt) is taller than 1.5 lines: scaled to the line.
        #expect(placed.contains { $0[1] > 10 && $0[1] < 16 && abs($0[0] / $0[1] - 120.0 / 28) < 0.01 }, "\(placed)")

        // Upright: the stored pixels have blue (the picture's top) at the left, red at the right.
        let page = try #require(Int(photo[0]))
        let prefix = Render.folder + "/readme-photo"
        try PDFProbe.run("pdfimages", ["-f", "\(page)", "-l", "\(page)", pdf, prefix])
        let files = try FileManager.default.contentsOfDirectory(atPath: Render.folder).filter {
            $0.hasPrefix("readme-photo")
        }
        let images = files.compactMap { PPM(path: Render.folder + "/" + $0) }
        for file in files { try? FileManager.default.removeItem(atPath: Render.folder + "/" + file) }
        let stored = try #require(images.first { $0.width == 120 && $0.height == 240 })
        let left = stored.pixel(x: 5, y: 120)
        let right = stored.pixel(x: 114, y: 120)
        #expect(left.b > 200 && left.r < 60, "left is blue: \(left)")
        #expect(right.r > 200 && right.b < 60, "right is red: \(right)")
    }

    @Test func uprightJPEGStaysJPEGAndRotatedIsRedrawn() throws {
        let folder = Self.folder + "/readme-images"
        let (pdf, report) = try Render.markdown(
            "![upright](upright.jpg)\n\n![turned](photo.jpg)\n\n![bmp](plain.bmp)\n\n![tiff](scan.tif)\n",
            name: "jpeg-kinds", options: RenderOptions(baseDirectory: folder))
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics)")
        let list = try PDFProbe.run("pdfimages", ["-list", pdf]).output
        let rows = list.split(separator: "\n").dropFirst(2).map {
            $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        }
        let upright = rows.first { $0[3] == "200" && $0[4] == "100" }
        #expect(upright?[8] == "jpeg", "an upright JPEG is embedded as JPEG: \(list)")
        #expect(upright?[12] == "144", "at its JFIF density, 144 dpi")
        #expect(rows.first { $0[3] == "120" && $0[4] == "240" }?[8] == "image", "a turned one is redrawn")
        #expect(rows.contains { $0[3] == "40" && $0[4] == "20" }, "BMP drawn")
        #expect(rows.first { $0[3] == "300" && $0[4] == "150" }?[12] == "150", "TIFF at its 150 dpi")
    }

    @Test func missingImageNamesThePathWrittenAndThePathTried() throws {
        let (_, report) = try Render.markdown(
            "![gone](pictures/gone.png)\n", name: "missing-image",
            options: RenderOptions(baseDirectory: Self.folder))
        let message = try #require(report.diagnostics.first?.message)
        #expect(
            message.contains("'pictures/gone.png'") && message.contains(Self.folder + "/pictures/gone.png"),
            "\(message)")
    }

    /// An HTML `<img>` shows no caption, as GitHub shows it; drawn as a placeholder (missing,
    /// remote, in a quote or a list item), its alt text is set inside the box, so no word of
    /// it is lost. A Markdown image's alt text is its caption, set once.
    @Test func aPlaceholderForAnHTMLImageShowsItsAltText() throws {
        let markdown = """
            <img src="gone.png" alt="Lost lambda">

            <p align="center"><img src="https://example.org/x.png" alt="Remote mu"></p>

            > <img src="gone2.png" alt="Quoted nu">

            - <img src="gone3.png" alt="Listed xi">

            ![Markdown omicron](gone4.png)

            <img alt="Sourceless pi">

            ![Empty rho]()
            """
        let (pdf, report) = try Render.markdown(
            markdown, name: "html-image-placeholders", options: RenderOptions(baseDirectory: Self.folder))
        let words = try PDFProbe.words(pdf).map(\.text)
        for word in ["lambda", "mu", "nu", "xi", "pi", "rho"] {
            #expect(words.filter { $0 == word }.count == 1, "\(word): \(words)")
        }
        #expect(words.filter { $0 == "omicron" }.count == 1, "\(words)")
        // An image with no address is said to have none, where it is written; no folder is read.
        let messages = report.diagnostics.map(\.description)
        let noAddress = messages.filter { $0.contains("has no address") }
        #expect(noAddress.count == 1 && noAddress[0].contains("2 like this in all; also at 13:1"), "\(messages)")
        #expect(!messages.contains { $0.contains("is a folder") }, "\(messages)")
    }

    /// Images inside lines of text shown as alt text are warned about by kind — local images
    /// that could not be read, remote ones — each warning at the first image of its kind,
    /// quoting it and counting the others, wherever they stand (a paragraph, a table cell),
    /// each at the column where its address is written.
    @Test func inlineImagesShownAsAltTextAreNamedWhereTheyAre() throws {
        let markdown = """
            Badge [![B](https://example.org/a.svg)](https://example.org) and ![C](https://example.org/c.svg)

            A | B
            --|--
            ![C](missing1.png) | ![D](missing2.png)

            Text ![E](pictures/missing3.png) here.
            """
        let (_, report) = try Render.markdown(
            markdown, name: "inline-images", options: RenderOptions(baseDirectory: Self.folder))
        let messages = report.diagnostics.map(\.description)
        let remote = messages.filter { $0.contains("remote image") }
        let unread = messages.filter { $0.contains("could not be read") }
        #expect(remote.count == 1 && unread.count == 1, "\(messages)")
        // Each place is where the image's address is written.
        #expect(
            remote.first.map {
                $0.contains("inline-images.md:1:13: ") && $0.contains("'https://example.org/a.svg'")
                    && $0.contains("2 like this in all; also at 1:71 'https://example.org/c.svg'")
            } == true, "\(remote)")
        #expect(
            unread.first.map {
                $0.contains("inline-images.md:5:6: ") && $0.contains("'missing1.png'")
                    && $0.contains("3 like this in all; also at 5:27 'missing2.png', 7:11 'pictures/missing3.png'")
            } == true, "\(unread)")
    }
}

/// The pictures the fixture shows, made at test time with ImageMagick (`convert`), and one
/// EXIF orientation tag written here.
enum ImageFiles {
    static func make(in folder: String) {
        func convert(_ arguments: [String]) { _ = try? PDFProbe.run("convert", arguments) }
        convert([
            "-size", "128x128", "xc:#2F5BD3", "-fill", "white", "-draw", "circle 64,64 64,20", folder + "/logo.png",
        ])
        convert(["-size", "120x28", "xc:#44CC11", folder + "/badge.gif"])
        convert(["-size", "600x300", "xc:green", "-units", "PixelsPerInch", "-density", "300", folder + "/chart.png"])
        convert(["-size", "200x100", "xc:purple", folder + "/screen.webp"])
        convert(["-size", "200x100", "xc:gray", "-units", "PixelsPerInch", "-density", "144", folder + "/upright.jpg"])
        convert(["-size", "40x20", "xc:yellow", folder + "/plain.bmp"])
        convert(["-size", "300x150", "xc:teal", "-units", "PixelsPerInch", "-density", "150", folder + "/scan.tif"])
        // 240 × 120 px, red at the top, blue at the bottom; EXIF orientation 6 ("rotate 90° CW").
        convert(["-size", "240x120", "gradient:red-blue", folder + "/photo-raw.jpg"])
        if let raw = FileManager.default.contents(atPath: folder + "/photo-raw.jpg") {
            FileManager.default.createFile(atPath: folder + "/photo.jpg", contents: withOrientation(6, jpeg: raw))
        }
    }

    /// `jpeg` with an APP1 Exif segment holding one IFD0 entry: Orientation (tag 0x0112, SHORT)
    /// = `orientation` (Exif 2.32 §4.6.4).
    static func withOrientation(_ orientation: UInt8, jpeg: Data) -> Data {
        var app1: [UInt8] = [0xFF, 0xE1, 0, 34] + Array("Exif".utf8) + [0, 0]
        app1 += [0x4D, 0x4D, 0, 0x2A, 0, 0, 0, 8]  // big-endian TIFF header, IFD at 8
        app1 += [0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, orientation, 0, 0, 0, 0, 0, 0]
        return jpeg.prefix(2) + Data(app1) + jpeg.dropFirst(2)
    }
}

/// A binary PPM (P6) as pdfimages writes it.
struct PPM {
    var width: Int, height: Int, pixels: [UInt8]

    init?(path: String) {
        guard let image = NetpbmImage(path: path), image.format == "P6" else { return nil }
        width = image.width
        height = image.height
        pixels = image.samples
    }

    func pixel(x: Int, y: Int) -> (r: Int, g: Int, b: Int) {
        let i = (y * width + x) * 3
        return (Int(pixels[i]), Int(pixels[i + 1]), Int(pixels[i + 2]))
    }
}

/// The table of contents keeps the inline formatting of headings; bookmarks stay plain text.
@Suite struct ContentsFormattingTests {
    @Test func entriesKeepCodeItalicAndStrikethrough() throws {
        let (pdf, report) = try Render.markdown(
            "---\ntoc: true\n---\n# Manual\n\n## Using `render` *quickly*\n\n## ~~Old~~ New\n\n## Plain[^1]\n\n[^1]: "
                + "A note.\n",
            name: "toc-format")
        // Semibold contents entries in the code face: DejaVu Sans Mono has Bold, not SemiBold (a true warning).
        #expect(report.diagnostics.allSatisfy { $0.message.contains("lacks weight") }, "\(report.diagnostics)")
        let text = try PDFProbe.text(pdf)
        #expect(text.contains("Using render quickly") && text.contains("Old New"))
        // Bookmarks: plain titles.
        let qdf = try PDFProbe.contentStreams(pdf)
        #expect(
            qdf.contains("/Title (Using render quickly)") && qdf.contains("/Title (Old New)")
                && qdf.contains("/Title (Plain)"), "plain bookmarks")
        // The contents page sets `render` in the monospaced face: its words sit in two faces on
        // the first page, once in the entry and once in the heading (both on page 1 here).
        let words = try PDFProbe.words(pdf).filter { $0.text == "render" }
        #expect(words.count == 2)
        #expect(try PDFProbe.fonts(pdf).contains { $0.hasPrefix("DejaVuSansMono") })
    }

    /// A contents entry keeps a heading's formulas, subscripts and superscripts: the formula is
    /// drawn (its source is the entry's text, not an object-replacement character) and scripts
    /// keep their smaller size and shift, in proportion to the entry's size.
    @Test func entriesKeepFormulasAndScripts() throws {
        var options = RenderOptions()
        options.tableOfContents = true
        let (pdf, _) = try Render.markdown(
            "# Intro\n\nx\n\n## Energy $E=mc^2$ rule\n\nx\n\n## Water H<sub>2</sub>O and x<sup>3</sup>\n\nx\n",
            name: "toc-math", options: options)
        let text = try PDFProbe.text(pdf)
        #expect(!text.contains("\u{FFFC}"), "\(text)")
        let words = try PDFProbe.words(pdf)
        // Each drawn twice on the page: in the entry and in the heading.
        for word in ["Energy", "rule", "Water"] {
            #expect(words.filter { $0.text.hasPrefix(word) }.count == 2, "\(word): \(words.map(\.text))")
        }
        let entryWater = try #require(words.first { $0.text.hasPrefix("Water") })
        let twos = words.filter { $0.text == "2" && abs($0.yMax - entryWater.yMax) < 6 }
        #expect(twos.contains { $0.height < entryWater.height * 0.85 && $0.yMax > entryWater.yMax }, "\(words)")
    }

    @Test func entryRunsFollowTheHeadingsRuns() {
        let theme = Theme.default
        let body = RunStyle(font: FontSpec(families: theme[.title].families, size: 20))
        var code = body
        code.font.families = theme.monospaceFamilies
        code.background = RGBAColor(hex: "#EEEEEE")
        var italic = body
        italic.font.italic = true
        var struck = body
        struck.strikethrough = .black
        var note = body
        note.link = .internal("fn-1")
        var outline = OutlineEntry(title: "Using render quickly Old", level: 2)
        outline.runs = [
            StyledRun("Using ", style: body), StyledRun("render", style: code), StyledRun(" quickly ", style: italic),
            StyledRun("Old", style: struck), StyledRun("1", style: note),
        ]
        let heading = StyledBlock(
            .paragraph(StyledParagraph(runs: outline.runs, style: ParagraphStyle(baseFont: body.font))),
            anchor: "using", outline: outline)
        let toc = TableOfContents(theme: theme, blocks: [heading], language: nil, insertionIndex: 0, titleIndex: nil)
        let blocks = toc.inserted(into: [heading], pages: ["using": 3])
        guard
            let entry = blocks.lazy.compactMap({ block -> StyledParagraph? in
                if case .entry(let text, _) = block.content { return text } else { return nil }
            }).first
        else {
            Issue.record("no entry")
            return
        }
        #expect(entry.runs.map(\.text) == ["Using ", "render", " quickly ", "Old"], "the footnote marker is left out")
        #expect(entry.runs[1].style.font.families == theme.monospaceFamilies && entry.runs[1].style.background != nil)
        #expect(
            entry.runs[0].style.font.families == theme[.body].families
                && entry.runs[0].style.font.size == theme[.body].size)
        #expect(entry.runs[2].style.font.italic && entry.runs[3].style.strikethrough != nil)
        #expect(entry.runs.allSatisfy { $0.style.link == .internal("using") })
    }
}
