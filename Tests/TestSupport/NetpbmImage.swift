import Foundation

/// A binary Netpbm picture as pdftoppm (`-gray`: PGM, P5) and pdfimages (PPM, P6) write it: the
/// header `P5|P6 <width> <height> <maximum>` in whitespace-separated ASCII fields, then one byte
/// per sample (Netpbm's format pages: one byte when the maximum is under 256).
public struct NetpbmImage: Sendable {
    /// The magic number, `P5` (grey) or `P6` (RGB).
    public var format: String
    /// Width and height in pixels.
    public var width: Int
    public var height: Int
    /// The samples row by row: one a pixel for P5, three (red, green, blue) for P6.
    public var samples: [UInt8]

    /// Reads `data`; nil when its header is not four fields or its samples are too few.
    public init?(_ data: Data) {
        var fields: [String] = []
        var current = ""
        var index = data.startIndex
        while fields.count < 4, index < data.endIndex {
            let character = Character(UnicodeScalar(data[index]))
            index += 1
            if !character.isWhitespace {
                current.append(character)
            } else if !current.isEmpty {
                fields.append(current)
                current = ""
            }
        }
        guard fields.count == 4, fields[0] == "P5" || fields[0] == "P6", let width = Int(fields[1]),
            let height = Int(fields[2])
        else { return nil }
        let samples = [UInt8](data[index...])
        guard samples.count >= width * height * (fields[0] == "P6" ? 3 : 1) else { return nil }
        self.format = fields[0]
        self.width = width
        self.height = height
        self.samples = samples
    }

    /// Reads the file at `path`; nil when it cannot be read or is not binary PGM or PPM.
    public init?(path: String) {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        self.init(data)
    }
}
