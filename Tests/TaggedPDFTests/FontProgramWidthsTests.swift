import Foundation
import Testing

@testable import TaggedPDF

/// Glyph widths read from font programs as installed: DejaVu Sans (TrueType, 2048 units per
/// em) and Inter (an OpenType font whose `CFF ` table is a CFF program with subroutines and a
/// font matrix of 1/2816), checked against their `hmtx` advances.
@Suite struct FontProgramWidthsTests {
    /// The bytes of the table `tag` of the sfnt at `path` (OpenType table directory).
    static func table(_ tag: String, in path: String) throws -> [UInt8]? {
        let font = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let count = Int(font[4]) << 8 | Int(font[5])
        for k in 0..<count {
            let record = 12 + 16 * k
            guard font[record..<(record + 4)].elementsEqual(tag.utf8) else { continue }
            let offset = font[(record + 8)..<(record + 12)].reduce(0) { $0 << 8 | Int($1) }
            let length = font[(record + 12)..<(record + 16)].reduce(0) { $0 << 8 | Int($1) }
            return Array(font[offset..<(offset + length)])
        }
        return nil
    }

    @Test func trueTypeWidthsAreTheAdvancesOverUnitsPerEm() throws {
        let path = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
        let font = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let widths = try #require(FontProgramWidths.trueType(font))
        let characters = try #require(FontProgramWidths.trueTypeCharacters(font))
        // DejaVu Sans: the space is 651 units of 2048 (317.87 thousandths; Cairo writes 317).
        let space = try #require(characters[0x20])
        #expect(abs(widths[space] - 651 * 1000 / 2048.0) < 1e-9)
        #expect(FontProgramWidths.winAnsi(0x96) == 0x2013)
        #expect(characters[0x2013] != nil)
    }

    @Test func cffWidthsFollowSubroutinesAndTheFontMatrix() throws {
        let path = "/usr/share/fonts/opentype/inter/Inter-Regular.otf"
        let program = try #require(try Self.table("CFF ", in: path))
        let hmtx = try #require(try Self.table("hmtx", in: path))
        let head = try #require(try Self.table("head", in: path))
        let unitsPerEm = Double(Int(head[18]) << 8 | Int(head[19]))
        let hhea = try #require(try Self.table("hhea", in: path))
        let metrics = Int(hhea[34]) << 8 | Int(hhea[35])
        let cff = try #require(FontProgramWidths.compactFontFormat(program))
        #expect(cff.readings.allSatisfy { $0.count > 1000 })
        // In one reading of the font matrices (the one ExactWidths keeps), every glyph's width
        // is its hmtx advance (Inter has a long metric for all but its last glyph).
        let differing = cff.readings.map { widths in
            widths.indices.filter { glyph in
                guard glyph < metrics, 4 * glyph + 2 <= hmtx.count else { return false }
                let advance = Double(Int(hmtx[4 * glyph]) << 8 | Int(hmtx[4 * glyph + 1]))
                return abs(widths[glyph] - advance * 1000 / unitsPerEm) > 1e-6
            }.count
        }
        #expect(differing.contains(0), "\(differing)")
    }
}
