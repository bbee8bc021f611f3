import Foundation
import TestSupport

/// Every text-showing operator (`Tj`, `TJ`, `'`, `"`) on the pages of a PDF, with the font it
/// uses and the baseline it sits on: read from the uncompressed content streams (qpdf's QDF
/// form) by following the graphics state (`q`/`Q`/`cm`) and the text matrices (`Tm`, `Td`,
/// `TD`, `T*`) as PDF 1.7 §9.4.2 defines them. A run of glyphs shown by one operator shares
/// one baseline, so this gives the baseline of every glyph by font, exactly.
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
        let qdf = try contentStreams(pdf)
        // Objects by number.
        var objects: [Int: Substring] = [:]
        var pages: [Int] = []
        var cursor = qdf.startIndex
        while let range = qdf.range(of: "\n%% ", range: cursor..<qdf.endIndex) {
            cursor = range.upperBound
            let lineEnd = qdf[cursor...].firstIndex(of: "\n") ?? qdf.endIndex
            let comment = qdf[cursor..<lineEnd]
            guard let header = qdf.range(of: #"\n(\d+) 0 obj\n"#, options: .regularExpression, range: lineEnd..<qdf.endIndex),
                  let end = qdf.range(of: "\nendobj", range: header.upperBound..<qdf.endIndex) else { continue }
            let number = Int(qdf[header].trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ")[0])!
            objects[number] = qdf[header.upperBound..<end.lowerBound]
            if comment.hasPrefix("Page ") { pages.append(number) }
        }
        func resolve(_ text: Substring) -> Substring {
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if let match = trimmed.wholeMatch(of: /(\d+) 0 R/) { return objects[Int(match.1)!] ?? "" }
            return Substring(trimmed)
        }
        func value(of key: String, in dictionary: Substring) -> Substring? {
            guard let r = dictionary.range(of: "\n  /\(key) ") ?? dictionary.range(of: "/\(key) ") else { return nil }
            let rest = dictionary[r.upperBound...]
            if rest.hasPrefix("<<") || rest.hasPrefix("[") {
                // Balanced dictionary or array.
                var depth = 0, index = rest.startIndex
                while index < rest.endIndex {
                    if rest[index...].hasPrefix("<<") || rest[index] == "[" { depth += 1 }
                    if rest[index...].hasPrefix(">>") || rest[index] == "]" {
                        depth -= 1
                        if depth == 0 { return rest[rest.startIndex...rest.index(after: index)] }
                    }
                    index = rest.index(after: index)
                }
                return rest
            }
            return rest.prefix(while: { $0 != "\n" })
        }
        var shows: [TextShow] = []
        for (pageIndex, pageObject) in pages.enumerated() {
            guard let page = objects[pageObject] else { continue }
            var fonts: [String: String] = [:]
            if let resourcesText = value(of: "Resources", in: page), let fontDict = value(of: "Font", in: resolve(resourcesText)) {
                for match in resolve(fontDict).matches(of: /\/([^\s\/]+) (\d+) 0 R/) {
                    if let font = objects[Int(match.2)!], let base = value(of: "BaseFont", in: font) {
                        fonts[String(match.1)] = String(base.split(separator: "+").last ?? base).trimmingCharacters(in: .whitespaces)
                            .trimmingCharacters(in: CharacterSet(charactersIn: "/"))
                    }
                }
            }
            var streams: [Substring] = []
            if let contents = value(of: "Contents", in: page) {
                for match in contents.matches(of: /(\d+) 0 R/) {
                    if let object = objects[Int(match.1)!], let s = object.range(of: "stream\n"), let e = object.range(of: "\nendstream", options: .backwards) {
                        streams.append(object[s.upperBound..<e.lowerBound])
                    }
                }
            }
            let box = value(of: "MediaBox", in: page).map { $0.split(whereSeparator: { " \n[]".contains($0) }).compactMap { Double($0) } } ?? []
            let height = box.count == 4 ? box[3] - box[1] : 841.8898
            shows += parseContent(streams.joined(separator: "\n"), page: pageIndex + 1, fonts: fonts, pageHeight: height)
        }
        return shows
    }

    /// Affine matrix [a b c d e f] (PDF order).
    private struct Matrix {
        var a = 1.0, b = 0.0, c = 0.0, d = 1.0, e = 0.0, f = 0.0
        /// self × other (apply self first, then other).
        func then(_ o: Matrix) -> Matrix {
            Matrix(a: a * o.a + b * o.c, b: a * o.b + b * o.d, c: c * o.a + d * o.c, d: c * o.b + d * o.d,
                   e: e * o.a + f * o.c + o.e, f: e * o.b + f * o.d + o.f)
        }
    }

    private static func parseContent(_ content: String, page: Int, fonts: [String: String], pageHeight: Double) -> [TextShow] {
        let bytes = Array(content.utf8)
        var index = 0
        var operands: [String] = []
        var stringLengths: [Int] = []
        var ctm = Matrix(), stack: [Matrix] = []
        var tm = Matrix(), tlm = Matrix()
        var font = "", fontSize = 1.0, leading = 0.0
        var shows: [TextShow] = []
        func number(_ i: Int) -> Double { Double(operands[operands.count - i]) ?? 0 }
        func record() {
            let m = tm.then(ctm)
            shows.append(TextShow(page: page, font: font, x: m.e, baseline: pageHeight - m.f, size: fontSize * abs(m.d == 0 ? m.b : m.d),
                                  glyphs: stringLengths.reduce(0, +)))
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x20, 0x0A, 0x0D, 0x09, 0x0C: index += 1
            case 0x25: while index < bytes.count && bytes[index] != 0x0A { index += 1 }  // comment
            case 0x28:  // literal string
                var depth = 0, length = 0
                repeat {
                    let c = bytes[index]
                    if c == 0x5C { index += 2; length += 1; continue }
                    if c == 0x28 { depth += 1; if depth > 1 { length += 1 } }
                    else if c == 0x29 { depth -= 1; if depth > 0 { length += 1 } }
                    else { length += 1 }
                    index += 1
                } while depth > 0 && index < bytes.count
                stringLengths.append(length)
            case 0x3C where index + 1 < bytes.count && bytes[index + 1] != 0x3C:  // hex string
                var digits = 0
                index += 1
                while index < bytes.count && bytes[index] != 0x3E {
                    if (bytes[index] >= 0x30 && bytes[index] <= 0x39) || (bytes[index] | 0x20 >= 0x61 && bytes[index] | 0x20 <= 0x66) { digits += 1 }
                    index += 1
                }
                index += 1
                stringLengths.append(digits / 2)
            case 0x5B, 0x5D, 0x3C, 0x3E, 0x7B, 0x7D: index += 1
            default:
                var end = index
                while end < bytes.count, ![0x20, 0x0A, 0x0D, 0x09, 0x0C, 0x28, 0x29, 0x3C, 0x3E, 0x5B, 0x5D, 0x2F, 0x25].contains(bytes[end]) || end == index { end += 1 }
                let token = String(decoding: bytes[index..<end], as: UTF8.self)
                index = end
                if token.hasPrefix("/") || Double(token) != nil { operands.append(token); continue }
                switch token {
                case "q": stack.append(ctm)
                case "Q": ctm = stack.popLast() ?? Matrix()
                case "cm" where operands.count >= 6:
                    ctm = Matrix(a: number(6), b: number(5), c: number(4), d: number(3), e: number(2), f: number(1)).then(ctm)
                case "BT": tm = Matrix(); tlm = Matrix()
                case "Tm" where operands.count >= 6:
                    tm = Matrix(a: number(6), b: number(5), c: number(4), d: number(3), e: number(2), f: number(1)); tlm = tm
                case "Td" where operands.count >= 2:
                    tlm = Matrix(e: number(2), f: number(1)).then(tlm); tm = tlm
                case "TD" where operands.count >= 2:
                    leading = -number(1)
                    tlm = Matrix(e: number(2), f: number(1)).then(tlm); tm = tlm
                case "TL" where operands.count >= 1: leading = number(1)
                case "T*": tlm = Matrix(e: 0, f: -leading).then(tlm); tm = tlm
                case "Tf" where operands.count >= 2:
                    font = fonts[String(operands[operands.count - 2].dropFirst())] ?? operands[operands.count - 2]
                    fontSize = number(1)
                case "Tj", "TJ", "'", "\"":
                    if token == "'" || token == "\"" { tlm = Matrix(e: 0, f: -leading).then(tlm); tm = tlm }
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
        try run("pdftoppm", ["-gray", "-r", "\(Int(dpi))", "-f", "\(box.page)", "-l", "\(box.page)", "-singlefile",
                             "-x", "\(Int(box.xMin * scale))", "-y", "\(Int(box.yMin * scale))",
                             "-W", "\(Int(box.width * scale))", "-H", "\(Int(box.height * scale))", pdf, out])
        defer { try? FileManager.default.removeItem(atPath: out + ".pgm") }
        guard let data = FileManager.default.contents(atPath: out + ".pgm") else { return 0 }
        var fields: [String] = [], index = 0, current = ""
        while fields.count < 4 {
            let c = Character(UnicodeScalar(data[index])); index += 1
            if c.isWhitespace { if !current.isEmpty { fields.append(current); current = "" } } else { current.append(c) }
        }
        let pixels = data[index...]
        guard !pixels.isEmpty else { return 0 }
        return Double(pixels.filter { $0 < 128 }.count) / Double(pixels.count)
    }
}
