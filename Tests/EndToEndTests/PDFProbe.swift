import Foundation
import TestSupport
import Testing
import Typesetter

/// Reads a PDF back with poppler-utils and qpdf: what a reader of the file sees, not our
/// internal state.
enum PDFProbe {
    /// A word as `pdftotext -bbox-layout` reports it: page (1-based), text, and its box in pt
    /// from the page's top-left.
    typealias Word = PDFWord

    /// Runs a tool and returns its status and standard output (standard error appended).
    @discardableResult
    static func run(_ tool: String, _ arguments: [String], stdin: Data? = nil) throws -> (status: Int32, output: String) {
        try ExternalTool.run(tool, arguments, stdin: stdin)
    }

    static func words(_ pdf: String) throws -> [Word] { try PDFWord.read(pdf) }

    /// Plain text in reading order (`pdftotext -layout` off).
    static func text(_ pdf: String) throws -> String { try run("pdftotext", [pdf, "-"]).output }

    /// `pdfinfo` fields (Title, Pages, Page size, …).
    static func info(_ pdf: String) throws -> [String: String] {
        var fields: [String: String] = [:]
        for line in try run("pdfinfo", [pdf]).output.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return fields
    }

    /// Embedded font names from `pdffonts` without the subset prefix (`Inter-Bold`).
    static func fonts(_ pdf: String) throws -> [String] {
        try run("pdffonts", [pdf]).output.split(separator: "\n").dropFirst(2).compactMap { line in
            guard let name = line.split(separator: " ").first else { return nil }
            return name.split(separator: "+").last.map(String.init)
        }
    }

    /// `qpdf --check` passes with no warning.
    static func qpdfClean(_ pdf: String) throws -> Bool {
        let (status, output) = try run("qpdf", ["--check", pdf])
        return status == 0 && !output.contains("WARNING")
    }

    /// Height in pt of the ink (dark pixels) inside `box` on page 1, rasterized at 1200 dpi:
    /// what a reader sees, independent of how poppler sizes word boxes.
    static func inkHeight(_ pdf: String, in box: Word) throws -> Double {
        let dpi = 1200.0, scale = dpi / 72
        let inkRows = try rowsWithInk(pdf, page: box.page, dpi: dpi, crop: ["-x", "\(Int(box.xMin * scale))", "-y", "\(Int(box.yMin * scale))",
                                                                   "-W", "\(Int(box.width * scale))", "-H", "\(Int(box.height * scale))"])
        return Double(try #require(inkRows.last) - inkRows.first! + 1) / scale
    }

    /// The pixel rows (from the top) holding ink — a pixel greyer than `threshold` — of `page`
    /// rendered in grey at `dpi` by pdftoppm, `crop` its crop options (`-x`, `-y`, `-W`, `-H`).
    static func rowsWithInk(_ pdf: String, page: Int, dpi: Double, crop: [String] = [], threshold: UInt8 = 128) throws -> [Int] {
        let out = Render.folder + "/ink-\(UUID().uuidString.prefix(6))"
        try run("pdftoppm", ["-gray", "-r", "\(Int(dpi))", "-f", "\(page)", "-l", "\(page)", "-singlefile"] + crop + [pdf, out])
        defer { try? FileManager.default.removeItem(atPath: out + ".pgm") }
        let data = try #require(FileManager.default.contents(atPath: out + ".pgm"))
        // Binary PGM: "P5\n<w> <h>\n255\n" then one byte per pixel.
        var fields: [String] = [], index = 0, current = ""
        while fields.count < 4 {
            let c = Character(UnicodeScalar(data[index])); index += 1
            if c.isWhitespace { if !current.isEmpty { fields.append(current); current = "" } } else { current.append(c) }
        }
        let width = Int(fields[1])!, height = Int(fields[2])!
        let pixels = [UInt8](data[index...])
        return (0..<height).filter { y in (0..<width).contains { pixels[y * width + $0] < threshold } }
    }

    /// The uncompressed page content streams (qpdf QDF form), to look for drawing operators.
    static func contentStreams(_ pdf: String) throws -> String {
        let qdf = pdf + ".qdf"
        try run("qpdf", ["--qdf", "--object-streams=disable", pdf, qdf])
        defer { try? FileManager.default.removeItem(atPath: qdf) }
        return String(decoding: FileManager.default.contents(atPath: qdf) ?? Data(), as: UTF8.self)
    }
}

/// Renders test documents into a fresh temporary folder.
enum Render {
    static let folder: String = {
        let path = NSTemporaryDirectory() + "typeset-e2e-\(ProcessInfo.processInfo.processIdentifier)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    /// Renders `markdown` to `<folder>/<name>.pdf` with `options`; returns the path and report.
    static func markdown(_ markdown: String, name: String, options: RenderOptions = RenderOptions()) throws -> (pdf: String, report: RenderReport) {
        let pdf = folder + "/\(name).pdf"
        let report = try Typesetter.render(markdown: markdown, file: "\(name).md", to: pdf, options: options)
        return (pdf, report)
    }

    /// The package root (for templates/, README.md and docs/).
    static let packageRoot: String = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    /// The `typeset` executable: `TYPESET_BIN`, else the debug build.
    static var binary: String {
        ProcessInfo.processInfo.environment["TYPESET_BIN"] ?? packageRoot + "/.build/debug/typeset"
    }

    /// Runs the `typeset` executable with `arguments` (and `stdin`, if given); returns its exit
    /// status and its standard output and error together.
    static func typeset(_ arguments: [String], stdin: Data? = nil) throws -> (status: Int32, output: String) {
        try PDFProbe.run(binary, arguments, stdin: stdin)
    }

    /// A new, empty folder `<temporary folder>/typeset-<prefix>-<8 random hex digits>` that no
    /// other test writes to, so "nothing is left behind" can be checked in it.
    static func scratchFolder(_ prefix: String) throws -> String {
        let path = NSTemporaryDirectory() + "typeset-\(prefix)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
