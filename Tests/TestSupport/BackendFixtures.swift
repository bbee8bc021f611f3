import Foundation
import Layout
import Styling
import Typography

/// Inputs for the backend's own tests (PangoCairoBackendTests): run styles and paragraphs in
/// Inter (and Noto Sans CJK KR), a scratch folder, a font renamed to a family installed
/// nowhere, and tiny PNG and JPEG images.
public enum Support {
    /// The family list of Latin text.
    public static let inter = ["Inter"]
    /// The family list of mixed Latin and Korean text.
    public static let interKR = ["Inter", "Noto Sans CJK KR"]

    /// A run style: `families` at `size` pt in `weight`, with `letterSpacing` pt of tracking.
    public static func style(
        _ families: [String] = inter, size: Double = 17, weight: FontWeight = .regular,
        letterSpacing: Double = 0
    ) -> RunStyle {
        RunStyle(font: FontSpec(families: families, weight: weight, size: size), letterSpacing: letterSpacing)
    }

    /// A paragraph of one run of `text` in `style`.
    public static func paragraph(
        _ text: String, _ style: RunStyle, hangul: HangulLineBreak = .auto,
        alignment: TextAlignment = .left
    ) -> StyledParagraph {
        StyledParagraph(
            runs: [StyledRun(text, style: style)],
            style: ParagraphStyle(baseFont: style.font, alignment: alignment, hangulLineBreak: hangul))
    }

    /// A new, empty folder of its own (`Render.scratchFolder("backend")`) as a file URL.
    public static func tempDirectory() throws -> URL {
        URL(fileURLWithPath: try Render.scratchFolder("backend"), isDirectory: true)
    }

    /// Copy of a TrueType font whose `name` table says `family` (so fontconfig sees a family
    /// that is installed nowhere else). Throws when the file cannot be read or has no `name` table.
    public static func renamedFont(at path: String, family: String) throws -> Data {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func u16(_ o: Int) -> Int { Int(bytes[o]) << 8 | Int(bytes[o + 1]) }
        func put32(_ v: Int, at o: Int) { for i in 0..<4 { bytes[o + i] = UInt8((v >> (24 - 8 * i)) & 0xFF) } }
        let numTables = u16(4)
        var nameRecord: Int?
        for i in 0..<numTables {
            let record = 12 + 16 * i
            if String(decoding: bytes[record..<record + 4], as: UTF8.self) == "name" { nameRecord = record }
        }
        guard let nameRecord else { throw CocoaError(.fileReadCorruptFile) }
        let postScript = family.replacingOccurrences(of: " ", with: "") + "-Regular"
        let names: [(Int, String)] = [
            (1, family), (2, "Regular"), (3, postScript), (4, family + " Regular"), (6, postScript),
        ]
        var strings: [UInt8] = []
        var records: [UInt8] = []
        func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        for (id, text) in names {
            let utf16 = text.utf16.flatMap { be16(Int($0)) }
            records += be16(3) + be16(1) + be16(0x409) + be16(id) + be16(utf16.count) + be16(strings.count)
            strings += utf16
        }
        let table = be16(0) + be16(names.count) + be16(6 + records.count) + records + strings
        while bytes.count % 4 != 0 { bytes.append(0) }
        let offset = bytes.count
        bytes += table
        put32(offset, at: nameRecord + 8)
        put32(table.count, at: nameRecord + 12)
        return Data(bytes)
    }

    /// 16 × 16 px two-colour PNG.
    public static let tinyPNG = Data(
        base64Encoded: [
            "iVBORw0KGgoAAAANSUhEUgAAABAAAAAQAgMAAABinRfyAAAACVBMVEXAAAAAgAD///+K/HwIAAAAJUlEQVQI12NYBQQM2IgG",
            "BQ4mCIEQW7oyK4phampkGIQAc1G1AQCRxCNbyW92oQAAAABJRU5ErkJggg==",
        ].joined()
    )!
    /// 8 × 4 px red baseline JPEG.
    public static let tinyJPEG = Data(
        base64Encoded: [
            "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwg",
            "IyYnKSopGR8tMC0oMCUoKSj/2wBDAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgo",
            "KCgoKCgoKCgoKCgoKCj/wAARCAAEAAgDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAf/xAAUEAEAAAAAAAAAAAAA",
            "AAAAAAAA/8QAFQEBAQAAAAAAAAAAAAAAAAAABgj/xAAUEQEAAAAAAAAAAAAAAAAAAAAA/9oADAMBAAIRAxEAPwCdABykX//Z",
        ].joined()
    )!
}
