import Foundation

/// Font dictionaries with the exact advance widths of their embedded glyphs (``FontProgramWidths``)
/// in place of the whole thousandths Cairo 1.16 writes, so that a reader adding up `/Widths` or
/// `/W` (PDF 1.7 §9.2.4, §9.7.4.3) places each glyph where Cairo drew it and a justified line
/// ends at the measure. A dictionary whose widths the program does not explain (each exact
/// width within one thousandth of Cairo's) is left as it is.
package enum ExactWidths {
    /// `value`, a font dictionary of `file`, with exact widths; nil when it is not a simple
    /// Type 1 (CFF) or TrueType font or a CID font Cairo wrote, or its program is not read.
    static func corrected(_ value: PDFValue, in file: CairoPDFFile) throws -> PDFValue? {
        guard case .dictionary = value, value["Type"]?.nameValue == "Font" else { return nil }
        switch value["Subtype"]?.nameValue {
        case "Type1":
            guard case .array(let widths)? = value["Widths"], case .integer(let first)? = value["FirstChar"],
                let program = try program(value, key: "FontFile3", in: file),
                let cff = FontProgramWidths.compactFontFormat(program), let codes = cff.codes
            else { return nil }
            for reading in cff.readings {
                var byCode: [Int: Double] = [:]
                for (glyph, code) in codes.enumerated() where glyph > 0 && glyph < reading.count {
                    byCode[code] = reading[glyph]
                }
                if let exact = replaced(widths, with: { byCode[first + $0] }) {
                    return value.setting("Widths", .array(exact))
                }
            }
            return nil
        case "TrueType":
            guard case .array(let widths)? = value["Widths"], case .integer(let first)? = value["FirstChar"],
                value["Encoding"]?.nameValue == "WinAnsiEncoding",
                let program = try program(value, key: "FontFile2", in: file),
                let advances = FontProgramWidths.trueType(program),
                let characters = FontProgramWidths.trueTypeCharacters(program)
            else { return nil }
            let exact = replaced(widths) { k in
                FontProgramWidths.winAnsi(first + k).flatMap { characters[$0] }.flatMap {
                    $0 < advances.count ? advances[$0] : nil
                }
            }
            return exact.map { value.setting("Widths", .array($0)) }
        case "CIDFontType0", "CIDFontType2":
            guard case .array(let w)? = value["W"], w.count == 2, case .integer(0) = w[0],
                case .array(let widths) = w[1]
            else { return nil }
            let readings: [[Double]]
            if let program = try program(value, key: "FontFile3", in: file) {
                readings = FontProgramWidths.compactFontFormat(program)?.readings ?? []
            } else if let program = try program(value, key: "FontFile2", in: file) {
                readings = FontProgramWidths.trueType(program).map { [$0] } ?? []
            } else {
                return nil
            }
            for reading in readings {
                if let exact = replaced(widths, with: { $0 < reading.count ? reading[$0] : nil }) {
                    return value.setting("W", .array([.integer(0), .array(exact)]))
                }
            }
            return nil
        default:
            return nil
        }
    }

    /// `widths` with each entry `k` that `exact(k)` gives replaced by it, written to a
    /// thousandth of a unit; nil when one differs from the written width by a unit or more
    /// (not the program's width), or none is given.
    private static func replaced(_ widths: [PDFValue], with exact: (Int) -> Double?) -> [PDFValue]? {
        var result = widths
        var any = false
        for (k, written) in widths.enumerated() {
            let old: Double
            switch written {
            case .integer(let integer): old = Double(integer)
            case .real(let bytes): old = Double(String(decoding: bytes, as: UTF8.self)) ?? .nan
            default: return nil
            }
            guard let width = exact(k) else { continue }
            guard abs(width - old) < 1 else { return nil }
            result[k] = number(width)
            any = true
        }
        return any ? result : nil
    }

    /// `value` to a thousandth, as a PDF number (an integer when it is one).
    private static func number(_ value: Double) -> PDFValue {
        let thousandths = Int((value * 1000).rounded())
        if thousandths % 1000 == 0 { return .integer(thousandths / 1000) }
        let sign = thousandths < 0 ? "-" : ""
        let magnitude = abs(thousandths)
        var fraction = String(magnitude % 1000)
        fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return .real(Array("\(sign)\(magnitude / 1000).\(fraction)".utf8))
    }

    /// The decoded font program at the font descriptor's `key` (`FontFile2`, `FontFile3`).
    private static func program(_ font: PDFValue, key: String, in file: CairoPDFFile) throws -> [UInt8]? {
        guard let descriptor = try file.resolved(font["FontDescriptor"]),
            case .reference(let number)? = descriptor[key], number < file.size
        else { return nil }
        let stream = try file.object(number)
        guard let data = stream.streamData else { return nil }
        let bytes = UnsafeBufferPointer(rebasing: file.bytes[data])
        switch stream.value["Filter"] {
        case nil: return Array(bytes)
        case .name("FlateDecode")?: return Inflate.decompressed(bytes)
        default: return nil
        }
    }

    /// Appends to the PDF at `path`, as Cairo wrote it, an incremental update (PDF 1.7 §7.5.6)
    /// holding its font dictionaries with exact widths: for files the tagging pass does not
    /// rewrite (`--no-tags`). Nothing is appended when no dictionary changes.
    /// - Throws: ``CairoPDFFile/Unsupported`` when the file is not in Cairo's layout; file errors.
    package static func update(path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        var appended: [UInt8] = []
        try data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            let file = try CairoPDFFile(bytes: bytes)
            var offsets: [(number: Int32, offset: Int)] = []
            var body: [UInt8] = [0x0A]
            for number in 1..<file.size where file.offset(number) != nil {
                let object = try file.object(number)
                guard object.streamData == nil, let corrected = try corrected(object.value, in: file) else { continue }
                offsets.append((number, bytes.count + body.count))
                body += Array("\(number) 0 obj\n".utf8)
                corrected.write(to: &body)
                body += Array("\nendobj\n".utf8)
            }
            guard !offsets.isEmpty, let previous = startXref(bytes) else { return }
            let xref = bytes.count + body.count
            body += Array("xref\n0 1\n0000000000 65535 f \n".utf8)
            for (number, offset) in offsets {
                let digits = String(offset)
                let padded = String(repeating: "0", count: 10 - digits.count) + digits
                body += Array("\(number) 1\n\(padded) 00000 n \n".utf8)
            }
            var trailer: [(key: String, value: PDFValue)] = [
                ("Size", .integer(Int(file.size))), ("Root", .reference(file.root)),
            ]
            if let info = file.info { trailer.append(("Info", .reference(info))) }
            trailer.append(("Prev", .integer(previous)))
            body += Array("trailer\n".utf8)
            PDFValue.dictionary(trailer).write(to: &body)
            body += Array("\nstartxref\n\(xref)\n%%EOF\n".utf8)
            appended = body
        }
        guard !appended.isEmpty, let handle = FileHandle(forWritingAtPath: path) else { return }
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: appended)
    }

    /// The offset after the file's last `startxref`.
    private static func startXref(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let marker = Array("startxref".utf8)
        var position = bytes.count - marker.count
        while position >= max(0, bytes.count - 64) {
            if Array(bytes[position..<(position + marker.count)]) == marker {
                var lexer = PDFLexer(bytes: bytes, index: position + marker.count)
                lexer.skipSpace()
                return lexer.integer()
            }
            position -= 1
        }
        return nil
    }
}
