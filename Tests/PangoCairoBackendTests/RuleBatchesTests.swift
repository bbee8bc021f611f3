import Foundation
import Layout
import Styling
import TaggedPDF
import TestSupport
import Testing
import Typography

@testable import PangoCairoBackend

/// A page's table rules are stroked as one path (``RuleBatches``): fewer Cairo operations, the
/// same pixels.
@Suite struct RuleBatchesTests {
    let thin = RGBAColor(red: 0.2, green: 0.2, blue: 0.2, alpha: 0.6)

    func rule(_ y: Double, width: Double = 0.25, color: RGBAColor? = nil, left: Double = 72, right: Double = 400)
        -> PageElement
    {
        .line(from: Point(x: left, y: y), to: Point(x: right, y: y), width: width, color: color ?? thin)
    }

    func cellMark(_ row: Int) -> PageElement {
        .structure([
            StructureElement(.table, id: 1), StructureElement(.tableRow, id: 1, index: row),
            StructureElement(.tableData, id: 1, index: row),
        ])
    }

    /// Rows as a table lays them out: a cell, then an artifact holding the row's rule.
    func rows(_ count: Int, separatedBy separator: PageElement? = nil) -> [PageElement] {
        var elements: [PageElement] = []
        for r in 0..<count {
            elements.append(cellMark(r))
            if let separator { elements.append(separator) }
            elements += [.structure([.artifact]), rule(20 + Double(r) * 18)]
        }
        return elements
    }

    @Test func aPagesRowRulesAreOneBatchAtTheFirstRule() {
        var elements = [PageElement.structure([.artifact]), rule(10, width: 0.8, color: .black)]
        elements += rows(5)
        elements += [.structure([.artifact]), rule(200, width: 0.8, color: .black)]
        let batches = RuleBatches(elements)
        // The thin rules: the first at index 4 draws all five; the strong top and bottom rules pair up.
        #expect(batches.batches[4]?.map(\.from.y) == [20, 38, 56, 74, 92])
        #expect(batches.batches[1]?.map(\.from.y) == [10, 200])
        #expect(batches.batches.count == 2)
        // Every other rule is skipped, with the artifact mark that held only it.
        #expect(batches.skipped == [6, 7, 9, 10, 12, 13, 15, 16, 17, 18])
    }

    @Test func anAreaPaintedBetweenRulesStartsANewBatch() {
        var elements = rows(2)
        elements += [cellMark(9), .fill(Rect(x: 72, y: 60, width: 300, height: 40), .black)]
        elements += rows(2)
        let batches = RuleBatches(elements)
        #expect(batches.batches.count == 2, "rules after the panel are not drawn under it")
        #expect(batches.batches.values.allSatisfy { $0.count == 2 })
    }

    @Test func onlyHorizontalRulesAloneInTheirArtifactAreBatched() {
        let vertical = PageElement.line(from: Point(x: 50, y: 0), to: Point(x: 50, y: 100), width: 2, color: thin)
        let text = PangoShaper().shape(Support.paragraph("x", Support.style()), width: nil).lines[0]
        let elements: [PageElement] = [
            .structure([.artifact]), vertical, .structure([.artifact]), vertical,
            .structure([.artifact]), rule(10), .text(text, x: 72, baseline: 30),
            .structure([.artifact]), rule(50), .structure([.artifact]), rule(50, width: 0.5),
        ]
        let batches = RuleBatches(elements)
        #expect(batches.batches.isEmpty, "\(batches.batches)")
        #expect(batches.skipped.isEmpty)
    }

    /// Strokes in a page's content stream, and the page rasterized (PPM bytes).
    func render(_ elements: [PageElement], in dir: URL, name: String) throws -> (strokes: Int, pixels: Data) {
        let pdf = dir.appendingPathComponent("\(name).pdf").path
        let renderer = try CairoPDFRenderer(
            path: pdf, info: DocumentInfo(), creationDate: Date(timeIntervalSince1970: 1_700_000_000),
            tagging: PDFTagging(language: "en"))
        try renderer.render(Page(number: 1, size: .a4, elements: elements))
        try renderer.finish()
        #expect(try PDFProbe.run("qpdf", ["--check", pdf]).0 == 0)
        let qdf = dir.appendingPathComponent("\(name)-qdf.pdf").path
        try PDFProbe.run("qpdf", ["--qdf", "--object-streams=disable", pdf, qdf])
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: qdf)), as: UTF8.self)
        let strokes = text.split(separator: "\n").filter { $0 == "S" || $0.hasSuffix(" S") }.count
        let png = dir.appendingPathComponent(name).path
        try PDFProbe.run("pdftoppm", ["-r", "150", "-singlefile", pdf, png])
        return (strokes, try Data(contentsOf: URL(fileURLWithPath: png + ".ppm")))
    }

    @Test func batchedRulesStrokeOnceAndRasterizeAsSeparateStrokes() throws {
        let dir = try Support.tempDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let batched = try render(rows(30), in: dir, name: "batched")
        // An empty rectangle between the rows paints nothing but keeps every rule its own stroke.
        let separate = try render(
            rows(30, separatedBy: .fill(Rect(x: 0, y: 0, width: 0, height: 0), thin)), in: dir, name: "separate")
        #expect(batched.strokes == 1)
        #expect(separate.strokes == 30)
        #expect(batched.pixels == separate.pixels)
        #expect(!batched.pixels.isEmpty)
    }
}
