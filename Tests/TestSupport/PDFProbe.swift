import Foundation
import Testing

/// Reads a PDF back with poppler-utils and qpdf: what a reader of the file sees, not our
/// internal state.
public enum PDFProbe {
    /// A word as `pdftotext -bbox-layout` reports it: page (1-based), text, and its box in pt
    /// from the page's top-left.
    public typealias Word = PDFWord

    /// Every word of `pdf` with its box (`pdftotext -bbox-layout`), page by page.
    public static func words(_ pdf: String) throws -> [Word] { try PDFWord.read(pdf) }

    /// Plain text in reading order (`pdftotext -layout` off).
    public static func text(_ pdf: String) throws -> String { try run("pdftotext", [pdf, "-"]).output }

    /// `pdfinfo` fields (Title, Pages, Page size, …).
    public static func info(_ pdf: String) throws -> [String: String] {
        var fields: [String: String] = [:]
        for line in try run("pdfinfo", [pdf]).output.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return fields
    }

    /// Embedded font names from `pdffonts` without the subset prefix (`Inter-Bold`).
    public static func fonts(_ pdf: String) throws -> [String] {
        try run("pdffonts", [pdf]).output.split(separator: "\n").dropFirst(2).compactMap { line in
            guard let name = line.split(separator: " ").first else { return nil }
            return name.split(separator: "+").last.map(String.init)
        }
    }

    /// `qpdf --check` passes with no warning.
    public static func qpdfClean(_ pdf: String) throws -> Bool {
        let (status, output) = try run("qpdf", ["--check", pdf])
        return status == 0 && !output.contains("WARNING")
    }

    /// Height in pt of the ink (dark pixels) inside `box` on page 1, rasterized at 1200 dpi:
    /// what a reader sees, independent of how poppler sizes word boxes.
    public static func inkHeight(_ pdf: String, in box: Word) throws -> Double {
        let dpi = 1200.0
        let scale = dpi / 72
        let crop = [
            "-x", "\(Int(box.xMin * scale))", "-y", "\(Int(box.yMin * scale))",
            "-W", "\(Int(box.width * scale))", "-H", "\(Int(box.height * scale))",
        ]
        let inkRows = try rowsWithInk(pdf, page: box.page, dpi: dpi, crop: crop)
        return Double(try #require(inkRows.last) - inkRows.first! + 1) / scale
    }

    /// The pixel rows (from the top) holding ink — a pixel greyer than `threshold` — of `page`
    /// rendered in grey at `dpi` by pdftoppm, `crop` its crop options (`-x`, `-y`, `-W`, `-H`).
    public static func rowsWithInk(
        _ pdf: String, page: Int, dpi: Double, crop: [String] = [], threshold: UInt8 = 128
    ) throws -> [Int] {
        let image = try greyImage(pdf, page: page, dpi: dpi, crop: crop)
        let width = image.width
        return (0..<image.height).filter { y in (0..<width).contains { image.samples[y * width + $0] < threshold } }
    }

    /// Page `page` (1-based) of `pdf` rendered in grey at `dpi` by pdftoppm, `crop` its crop
    /// options (`-x`, `-y`, `-W`, `-H`).
    public static func greyImage(_ pdf: String, page: Int, dpi: Double, crop: [String] = []) throws -> NetpbmImage {
        let out = Render.folder + "/ink-\(UUID().uuidString.prefix(6))"
        let options = ["-gray", "-r", "\(Int(dpi))", "-f", "\(page)", "-l", "\(page)", "-singlefile"]
        try run("pdftoppm", options + crop + [pdf, out])
        defer { try? FileManager.default.removeItem(atPath: out + ".pgm") }
        return try #require(NetpbmImage(path: out + ".pgm"))
    }

    /// The uncompressed page content streams (qpdf QDF form), to look for drawing operators.
    public static func contentStreams(_ pdf: String) throws -> String {
        let qdf = pdf + ".qdf"
        try run("qpdf", ["--qdf", "--object-streams=disable", pdf, qdf])
        defer { try? FileManager.default.removeItem(atPath: qdf) }
        return String(decoding: FileManager.default.contents(atPath: qdf) ?? Data(), as: UTF8.self)
    }
}
