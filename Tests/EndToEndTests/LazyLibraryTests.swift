import Foundation
import TestSupport
import Testing

/// gdk-pixbuf (raster pictures) and librsvg (SVG pictures) are not linked into `typeset`: each is
/// loaded with `dlopen` the first time a document needs it (docs/performance.md, "One page");
/// qpdf's library (and GnuTLS behind it) is never loaded: the tagging pass is Typeset's own. Read from the outside: the
/// dynamic loader's own log
/// (glibc `LD_DEBUG=files`) of what a run of the binary opens, and the PDF it writes.
@Suite(.serialized) struct LazyLibraryTests {
    /// The libraries loaded only on demand, by their file names' stems.
    static let lazy = ["libqpdf", "libgnutls", "libgdk_pixbuf", "librsvg"]

    /// Renders `markdown` with the binary under `LD_DEBUG=files`; returns the exit status, the
    /// file names of every shared object the run loaded (`file=NAME [ns];  needed by …` or
    /// `dynamically loaded by …`) and the PDF's path.
    static func render(_ markdown: String, name: String) throws -> (
        status: Int32, loaded: Set<String>, pdf: String, log: String
    ) {
        let folder = Render.folder + "/lazy-libraries"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for picture in ["line-height.png"] {
            let target = folder + "/" + picture
            if !FileManager.default.fileExists(atPath: target) {
                try FileManager.default.copyItem(
                    atPath: Render.packageRoot + "/templates/images/" + picture, toPath: target)
            }
        }
        let svg = folder + "/figure.svg"
        if !FileManager.default.fileExists(atPath: svg) {
            try FileManager.default.copyItem(
                atPath: Render.packageRoot + "/Tests/EndToEndTests/Fixtures/figure.svg", toPath: svg)
        }
        let input = folder + "/\(name).md"
        let pdf = folder + "/\(name).pdf"
        try markdown.write(toFile: input, atomically: true, encoding: .utf8)
        // `env` sets the variable for the binary alone.
        let (status, log) = try PDFProbe.run("LD_DEBUG=files", [Render.binary, "render", input, "-o", pdf, "-q"])
        let names = log.split(separator: "\n").compactMap { line -> String? in
            guard let start = line.range(of: "file=") else { return nil }
            return String(line[start.upperBound...].prefix { $0 != " " && $0 != "\t" })
        }
        return (status, Set(names), pdf, log)
    }

    static func loads(_ loaded: Set<String>, _ stem: String) -> Bool {
        loaded.contains { $0.hasPrefix(stem + "-") || $0.hasPrefix(stem + ".") }
    }

    @Test func aDocumentWithoutPicturesLoadsNoneOfThem() throws {
        let run = try Self.render(
            "# Title\n\nA paragraph with **bold**, `code` and 한국어 text.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
            name: "no-pictures")
        #expect(run.status == 0, "\(run.log.suffix(2000))")
        // The log is read at all: Pango and Cairo are linked and show up in it.
        #expect(Self.loads(run.loaded, "libpango") && Self.loads(run.loaded, "libcairo"), "\(run.loaded.sorted())")
        for stem in Self.lazy {
            #expect(!Self.loads(run.loaded, stem), "\(stem) was loaded: \(run.loaded.sorted())")
        }
        // Tagged by the streamed pass, which needs no qpdf.
        #expect(try PDFProbe.qpdfClean(run.pdf))
        #expect(try PDFProbe.run("pdfinfo", ["-struct-text", run.pdf]).output.contains("Title"))
    }

    @Test func aRasterPictureLoadsGdkPixbufAloneAndIsDrawn() throws {
        let run = try Self.render("Before.\n\n![A chart](line-height.png)\n\nAfter.\n", name: "raster")
        #expect(run.status == 0, "\(run.log.suffix(2000))")
        #expect(Self.loads(run.loaded, "libgdk_pixbuf"), "\(run.loaded.sorted())")
        #expect(!Self.loads(run.loaded, "librsvg") && !Self.loads(run.loaded, "libqpdf"), "\(run.loaded.sorted())")
        let images = try PDFProbe.run("pdfimages", ["-list", run.pdf]).output.split(separator: "\n").dropFirst(2)
        #expect(images.count == 1, "\(images)")
    }

    @Test func anSVGPictureLoadsLibrsvgAndIsDrawn() throws {
        let run = try Self.render("Before.\n\n![A figure](figure.svg)\n\nAfter.\n", name: "vector")
        #expect(run.status == 0, "\(run.log.suffix(2000))")
        #expect(Self.loads(run.loaded, "librsvg"), "\(run.loaded.sorted())")
        #expect(!Self.loads(run.loaded, "libqpdf"), "\(run.loaded.sorted())")
        // librsvg draws the figure's text through Pango: it is in the page's text.
        #expect(try PDFProbe.text(run.pdf).contains("Vector"))
    }
}
