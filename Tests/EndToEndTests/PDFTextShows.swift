import Foundation
import TestSupport

@testable import TaggedPDF

/// Every text-showing operator (`Tj`, `TJ`, `'`, `"`) on the pages of a PDF, with the font it
/// uses and the baseline it sits on: read from the uncompressed content streams (qpdf's QDF
/// form, read with the tagging pass's object reader and lexer, ``PDFLexer``) by following the
/// graphics state (`q`/`Q`/`cm`) and the text matrices (`Tm`, `Td`, `TD`, `T*`) as PDF 1.7
/// §9.4.2 defines them. A run of glyphs shown by one operator shares one baseline, so this
/// gives the baseline of every glyph by font, exactly.
extension PDFProbe {
    struct TextShow: CustomStringConvertible {
        /// Page, 1-based.
        var page: Int
        /// The font's PostScript name without its subset prefix (`Inter-Regular`).
        var font: String
        /// Start of the run, pt from the page's left edge.
        var x: Double
        /// Baseline, pt from the page's top edge.
        var baseline: Double
        /// Effective font size, pt.
        var size: Double
        /// Number of glyph codes shown (bytes for simple fonts, byte pairs for Type 0 fonts).
        var glyphs: Int
        var description: String { "p\(page) \(font) x=\(x) baseline=\(baseline) size=\(size) glyphs=\(glyphs)" }
    }

    static func textShows(_ pdf: String) throws -> [TextShow] {
        let qdf = pdf + ".qdf"
        try run("qpdf", ["--qdf", "--object-streams=disable", pdf, qdf])
        defer { try? FileManager.default.removeItem(atPath: qdf) }
        let data = try Data(contentsOf: URL(fileURLWithPath: qdf))
        return try data.withUnsafeBytes { raw in
            try textShows(in: try CairoPDFFile(bytes: raw.bindMemory(to: UInt8.self)))
        }
    }

    /// The text shows of every page of `file` (one cross-reference section, streams not
    /// compressed: qpdf's QDF form), in page order.
    private static func textShows(in file: CairoPDFFile) throws -> [TextShow] {
        // The pages in order: the leaves of the page tree (PDF 1.7 §7.7.3).
        var pages: [PDFValue] = []
        func collect(_ node: PDFValue?) throws {
            guard let node = try file.resolved(node) else { return }
            if node["Type"]?.nameValue == "Pages" {
                guard case .array(let kids)? = node["Kids"] else { return }
                for kid in kids { try collect(kid) }
            } else {
                pages.append(node)
            }
        }
        try collect(try file.object(file.root).value["Pages"])
        var shows: [TextShow] = []
        for (pageIndex, page) in pages.enumerated() {
            // Font resource names → PostScript names without the subset prefix.
            var fonts: [String: String] = [:]
            if case .dictionary(let entries)? = try file.resolved(try file.resolved(page["Resources"])?["Font"]) {
                for (name, reference) in entries {
                    if let base = try file.resolved(reference)?["BaseFont"]?.nameValue {
                        fonts[name] = String(base.split(separator: "+").last ?? Substring(base))
                    }
                }
            }
            var contents: [PDFValue] = []
            switch try file.resolved(page["Contents"]) {
            case .array(let items)?: contents = items
            case .some: contents = [page["Contents"]!]
            case nil: break
            }
            var content: [UInt8] = []
            for stream in contents {
                guard case .reference(let number) = stream, let data = try file.object(number).streamData else {
                    continue
                }
                content += file.bytes[data]
                content.append(0x0A)
            }
            var height = 841.8898
            if case .array(let box)? = try file.resolved(page["MediaBox"]), box.count == 4,
                let bottom = box[1].numberValue, let top = box[3].numberValue
            {
                height = top - bottom
            }
            shows += content.withUnsafeBufferPointer {
                parseContent($0, page: pageIndex + 1, fonts: fonts, pageHeight: height)
            }
        }
        return shows
    }

    /// Affine matrix [a b c d e f] (PDF order).
    private struct Matrix {
        var a = 1.0, b = 0.0, c = 0.0, d = 1.0, e = 0.0, f = 0.0
        /// self × other (apply self first, then other).
        func then(_ o: Matrix) -> Matrix {
            Matrix(
                a: a * o.a + b * o.c, b: a * o.b + b * o.d, c: c * o.a + d * o.c, d: c * o.b + d * o.d,
                e: e * o.a + f * o.c + o.e, f: e * o.b + f * o.d + o.f)
        }
    }

    /// The text shows of one page's content, read token by token with the tagging pass's lexer.
    private static func parseContent(
        _ content: UnsafeBufferPointer<UInt8>, page: Int, fonts: [String: String],
        pageHeight: Double
    ) -> [TextShow] {
        var lexer = PDFLexer(content)
        var operands: [String] = []
        var stringLengths: [Int] = []
        var ctm = Matrix()
        var stack: [Matrix] = []
        var tm = Matrix()
        var tlm = Matrix()
        var font = ""
        var fontSize = 1.0
        var leading = 0.0
        var shows: [TextShow] = []
        func number(_ i: Int) -> Double { Double(operands[operands.count - i]) ?? 0 }
        func record() {
            let m = tm.then(ctm)
            shows.append(
                TextShow(
                    page: page, font: font, x: m.e, baseline: pageHeight - m.f,
                    size: fontSize * abs(m.d == 0 ? m.b : m.d),
                    glyphs: stringLengths.reduce(0, +)))
        }
        while let token = lexer.next() {
            switch token.kind {
            case .number, .name:
                operands.append(lexer.text(token.range))
            case .literalString:
                // The string's bytes, its escapes resolved (PDF 1.7 §7.3.4.2).
                stringLengths.append(PDFValue.string(Array(content[token.range])).literalText?.utf16.count ?? 0)
            case .hexString:
                let digits = content[token.range].filter {
                    ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66)
                }
                stringLengths.append(digits.count / 2)
            case .delimiter, .constant:
                continue
            case .keyword:
                switch lexer.text(token.range) {
                case "q": stack.append(ctm)
                case "Q": ctm = stack.popLast() ?? Matrix()
                case "cm" where operands.count >= 6:
                    ctm = Matrix(a: number(6), b: number(5), c: number(4), d: number(3), e: number(2), f: number(1))
                        .then(ctm)
                case "BT":
                    tm = Matrix()
                    tlm = Matrix()
                case "Tm" where operands.count >= 6:
                    tm = Matrix(a: number(6), b: number(5), c: number(4), d: number(3), e: number(2), f: number(1))
                    tlm = tm
                case "Td" where operands.count >= 2:
                    tlm = Matrix(e: number(2), f: number(1)).then(tlm)
                    tm = tlm
                case "TD" where operands.count >= 2:
                    leading = -number(1)
                    tlm = Matrix(e: number(2), f: number(1)).then(tlm)
                    tm = tlm
                case "TL" where operands.count >= 1: leading = number(1)
                case "T*":
                    tlm = Matrix(e: 0, f: -leading).then(tlm)
                    tm = tlm
                case "Tf" where operands.count >= 2:
                    font = fonts[String(operands[operands.count - 2].dropFirst())] ?? operands[operands.count - 2]
                    fontSize = number(1)
                case "Tj", "TJ", "'", "\"":
                    if token.range.count == 1 {
                        tlm = Matrix(e: 0, f: -leading).then(tlm)
                        tm = tlm
                    }
                    record()
                default: break
                }
                operands.removeAll(keepingCapacity: true)
                stringLengths.removeAll(keepingCapacity: true)
            }
        }
        return shows
    }
}

extension PDFProbe {
    /// Share (0…1) of dark pixels (< 50 % grey) inside `box`, rasterized at 300 dpi: how heavy
    /// the ink of a word is, independent of its size for one weight and family.
    static func inkDensity(_ pdf: String, in box: Word, dpi: Double = 300) throws -> Double {
        let scale = dpi / 72
        let out = Render.folder + "/density-\(UUID().uuidString.prefix(6))"
        try run(
            "pdftoppm",
            [
                "-gray", "-r", "\(Int(dpi))", "-f", "\(box.page)", "-l", "\(box.page)", "-singlefile",
                "-x", "\(Int(box.xMin * scale))", "-y", "\(Int(box.yMin * scale))",
                "-W", "\(Int(box.width * scale))", "-H", "\(Int(box.height * scale))", pdf, out,
            ])
        defer { try? FileManager.default.removeItem(atPath: out + ".pgm") }
        guard let image = NetpbmImage(path: out + ".pgm") else { return 0 }
        let pixels = image.samples
        guard !pixels.isEmpty else { return 0 }
        return Double(pixels.filter { $0 < 128 }.count) / Double(pixels.count)
    }
}

extension PDFValue {
    /// An integer's or a real's value; nil for any other object.
    fileprivate var numberValue: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .real(let raw): return Double(String(decoding: raw, as: UTF8.self))
        default: return nil
        }
    }
}
