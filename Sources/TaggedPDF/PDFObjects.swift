internal import CZlib
import Foundation

/// One PDF object (PDF 1.7 §7.3), as read from a file Cairo wrote: numbers, strings and names
/// keep the bytes they were written with, so an object read and written again is unchanged.
/// Not `indirect`: arrays and dictionaries already hold their items in heap buffers, and an
/// indirect enum would box every integer, name and reference as well (one allocation per value
/// read, for the tens of thousands of structure elements a long table has).
enum PDFValue {
    case null
    case bool(Bool)
    case integer(Int)
    /// A real number, as written.
    case real([UInt8])
    /// A name without its solidus, as written (with any `#xx` escapes).
    case name(String)
    /// A literal `( … )` or hexadecimal `< … >` string token, delimiters included.
    case string([UInt8])
    case array([PDFValue])
    /// A dictionary, its entries in file order.
    case dictionary([(key: String, value: PDFValue)])
    /// An indirect reference `n 0 R` (Cairo writes generation 0 only).
    case reference(Int32)

    /// The value of `key` in a dictionary; nil for a missing key or another kind of value.
    subscript(key: String) -> PDFValue? {
        guard case .dictionary(let entries) = self else { return nil }
        return entries.first { $0.key == key }?.value
    }

    /// A dictionary with `key` set to `value` (replaced in place, or appended).
    func setting(_ key: String, _ value: PDFValue) -> PDFValue {
        guard case .dictionary(var entries) = self else { return self }
        if let index = entries.firstIndex(where: { $0.key == key }) {
            entries[index].value = value
        } else {
            entries.append((key, value))
        }
        return .dictionary(entries)
    }

    /// A dictionary with each of `entries` set in turn, as ``setting(_:_:)`` sets one (replaced
    /// in place, or appended), its entries copied once.
    func setting(_ entries: [(key: String, value: PDFValue)]) -> PDFValue {
        guard case .dictionary(var current) = self else { return self }
        for (key, value) in entries {
            if let index = current.firstIndex(where: { $0.key == key }) {
                current[index].value = value
            } else {
                current.append((key, value))
            }
        }
        return .dictionary(current)
    }

    /// A dictionary without `keys`.
    func removing(_ keys: Set<String>) -> PDFValue {
        guard case .dictionary(let entries) = self else { return self }
        return .dictionary(entries.filter { !keys.contains($0.key) })
    }

    /// The name's text, or nil.
    var nameValue: String? { if case .name(let name) = self { return name } else { return nil } }

    /// `text` as a PDF text string (PDF 1.7 §7.9.2.2): a literal string when it is printable
    /// ASCII, otherwise UTF-16BE with a byte-order mark, written in hexadecimal.
    static func text(_ text: String) -> PDFValue {
        if text.utf8.allSatisfy({ (0x20..<0x7F).contains($0) }) {
            var bytes: [UInt8] = [0x28]
            for byte in text.utf8 {
                if byte == 0x28 || byte == 0x29 || byte == 0x5C { bytes.append(0x5C) }
                bytes.append(byte)
            }
            bytes.append(0x29)
            return .string(bytes)
        }
        let digits = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = Array("<FEFF".utf8)
        for unit in text.utf16 {
            for shift in [12, 8, 4, 0] { bytes.append(digits[Int(unit >> UInt16(shift)) & 0xF]) }
        }
        bytes.append(0x3E)
        return .string(bytes)
    }

    /// A literal string token's text (escapes of PDF 1.7 §7.3.4.2 resolved, bytes read as
    /// Latin-1, which covers the ASCII URIs Cairo writes); nil for a hexadecimal string.
    var literalText: String? { literalText(limit: .max) }

    /// ``literalText``, of at most `limit` bytes of the token's text (the rest is not read).
    func literalText(limit: Int) -> String? {
        guard case .string(let raw) = self, raw.first == 0x28, raw.count >= 2 else { return nil }
        var out: [UInt8] = []
        var position = 1
        let end = raw.count - 1
        while position < end, out.count < limit {
            let byte = raw[position]
            guard byte == 0x5C, position + 1 < end else {
                out.append(byte)
                position += 1
                continue
            }
            let escaped = raw[position + 1]
            position += 2
            switch escaped {
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case 0x0A: break
            case 0x30...0x37:
                var code = Int(escaped - 0x30)
                var digitCount = 1
                while digitCount < 3, position < end, (0x30...0x37).contains(raw[position]) {
                    code = code * 8 + Int(raw[position] - 0x30)
                    position += 1
                    digitCount += 1
                }
                out.append(UInt8(truncatingIfNeeded: code))
            default: out.append(escaped)
            }
        }
        // Latin-1 bytes are the first 256 scalars: ASCII ones (a URI's) make the same string
        // read as UTF-8, which is made in one pass, not through a transcoding of UTF-16.
        if out.allSatisfy({ $0 < 0x80 }) { return String(decoding: out, as: UTF8.self) }
        return String(String.UnicodeScalarView(out.map { Unicode.Scalar($0) }))
    }

    /// Appends the object's PDF syntax to `out`. Integers and references are written digit by
    /// digit and names from their UTF-8 view, with no string or array made per value: the
    /// tagging pass writes every structure element of a document through here (40,000 for a
    /// 10,000-row table).
    func write(to out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
        case .bool(let flag): out.append(contentsOf: (flag ? "true" : "false").utf8)
        case .integer(let number): Self.writeDecimal(number, to: &out)
        case .real(let raw), .string(let raw): out.append(contentsOf: raw)
        case .name(let name):
            out.append(0x2F)
            Self.appendUTF8(name, to: &out)
        case .reference(let objectNumber):
            Self.writeDecimal(Int(objectNumber), to: &out)
            out.append(contentsOf: [0x20, 0x30, 0x20, 0x52])
        case .array(let items):
            out.append(0x5B)
            for (position, item) in items.enumerated() {
                if position > 0 { out.append(0x20) }
                item.write(to: &out)
            }
            out.append(0x5D)
        case .dictionary(let entries):
            out.append(contentsOf: [0x3C, 0x3C])
            for (key, value) in entries {
                out.append(0x2F)
                Self.appendUTF8(key, to: &out)
                out.append(0x20)
                value.write(to: &out)
                out.append(0x20)
            }
            out.append(contentsOf: [0x3E, 0x3E])
        }
    }

    /// Appends the UTF-8 bytes of `text` from its contiguous storage, in one copy.
    static func appendUTF8(_ text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { out.append(contentsOf: $0) }
    }

    /// Appends `n` in decimal, as `String(n)` spells it (a minus sign, no leading zeros).
    static func writeDecimal(_ n: Int, to out: inout [UInt8]) {
        if n < 0 { out.append(0x2D) }
        var magnitude = n.magnitude
        // At most 20 digits (UInt64.max); written from the right into a fixed buffer.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var position = 20
            repeat {
                position -= 1
                digits[position] = 0x30 + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            out.append(contentsOf: UnsafeBufferPointer(rebasing: digits[position..<20]))
        }
    }
}

/// A PDF file in the regular layout Cairo 1.16 writes, read one object at a time: one
/// cross-reference table of one section (PDF 1.7 §7.5.4, fixed 20-byte entries, read in place
/// when an object is asked for) and a trailer without `/Prev` or `/Encrypt`. Nothing is
/// cached: each call parses the object again.
struct CairoPDFFile {
    /// The file's layout is not the one described (another producer, an update appended):
    /// the caller falls back to a general PDF library.
    struct Unsupported: Error, CustomStringConvertible { var description: String }

    let bytes: UnsafeBufferPointer<UInt8>
    /// Bytes read since the mapped file's pages were last dropped.
    private final class Residency { var read = 0 }
    private let residency = Residency()
    /// The trailer's `/Size`: objects are numbered 1..<size.
    let size: Int32
    let root: Int32
    let info: Int32?
    private let entries: Int

    init(bytes: UnsafeBufferPointer<UInt8>) throws {
        self.bytes = bytes
        // startxref, from the end.
        let tail = max(0, bytes.count - 64)
        var start: Int?
        let marker = Array("startxref".utf8)
        var position = bytes.count - marker.count
        while position >= tail {
            if bytes[position] == marker[0], Array(bytes[position..<(position + marker.count)]) == marker {
                start = position + marker.count
                break
            }
            position -= 1
        }
        guard let start else { throw Unsupported(description: "no startxref") }
        var parser = PDFLexer(bytes: bytes, index: start)
        parser.skipSpace()
        guard let xref = parser.integer(), xref < bytes.count else {
            throw Unsupported(description: "no cross-reference offset")
        }
        parser.index = xref
        guard parser.keyword("xref") else { throw Unsupported(description: "not a cross-reference table") }
        parser.skipSpace()
        guard parser.integer() == 0 else { throw Unsupported(description: "cross-reference section not from 0") }
        parser.skipSpace()
        guard let count = parser.integer(), count > 0 else {
            throw Unsupported(description: "empty cross-reference section")
        }
        parser.skipSpace()
        entries = parser.index
        parser.index = entries + 20 * count
        guard parser.keyword("trailer") else { throw Unsupported(description: "more than one cross-reference section") }
        let trailer = try parser.value()
        guard case .integer(let size)? = trailer["Size"], size == count, case .reference(let root)? = trailer["Root"],
            trailer["Prev"] == nil, trailer["Encrypt"] == nil, trailer["XRefStm"] == nil
        else {
            throw Unsupported(description: "trailer is not Cairo's")
        }
        self.size = Int32(size)
        self.root = root
        if case .reference(let info)? = trailer["Info"] { self.info = info } else { info = nil }
    }

    /// The byte offset of object `n`, nil when it is free or out of range.
    func offset(_ n: Int32) -> Int? {
        guard n > 0, n < size else { return nil }
        let entry = entries + 20 * Int(n)
        guard entry + 20 <= bytes.count, bytes[entry + 17] == 0x6E else { return nil }
        var value = 0
        for byteIndex in entry..<(entry + 10) { value = value * 10 + Int(bytes[byteIndex] &- 0x30) }
        return value < bytes.count ? value : nil
    }

    /// An object read at its offset: its value, where a stream's data lies, and the end of
    /// `endobj`.
    struct Object {
        var value: PDFValue
        /// Where the value's own syntax lies (for copying it unchanged).
        var valueRange: Range<Int>
        var streamData: Range<Int>?
        /// The whole object, `n 0 obj` to `endobj`.
        var range: Range<Int>
    }

    /// A parser at the value of object `n`, past its `n 0 obj` header, and the object's offset.
    /// - Throws: ``Unsupported`` when object `n` is missing or its header is not at its offset.
    private func parserAfterHeader(of n: Int32) throws -> (PDFLexer, offset: Int) {
        guard let offset = offset(n) else { throw Unsupported(description: "object \(n) is missing") }
        var parser = PDFLexer(bytes: bytes, index: offset)
        guard parser.integer() == Int(n) else { throw Unsupported(description: "object \(n) is not at its offset") }
        parser.skipSpace()
        guard parser.integer() == 0, parser.keyword("obj") else {
            throw Unsupported(description: "object \(n) has no header")
        }
        parser.skipSpace()
        return (parser, offset)
    }

    /// - Throws: ``Unsupported`` when object `n` is missing or is not well formed.
    func object(_ n: Int32) throws -> Object {
        var (parser, offset) = try parserAfterHeader(of: n)
        let start = parser.index
        let value: PDFValue
        do { value = try parser.value() } catch { throw Unsupported(description: "object \(n) is malformed") }
        let valueEnd = parser.index
        var data: Range<Int>?
        if parser.keyword("stream") {
            if parser.index < bytes.count, bytes[parser.index] == 0x0D { parser.index += 1 }
            if parser.index < bytes.count, bytes[parser.index] == 0x0A { parser.index += 1 }
            let length: Int
            switch value["Length"] {
            case .integer(let direct)?: length = direct
            case .reference(let lengthObject)?:
                guard case .integer(let resolved) = try object(lengthObject).value else {
                    throw Unsupported(description: "stream \(n) has no length")
                }
                length = resolved
            default: throw Unsupported(description: "stream \(n) has no length")
            }
            guard length >= 0, parser.index + length <= bytes.count else {
                throw Unsupported(description: "stream \(n) is cut short")
            }
            data = parser.index..<(parser.index + length)
            parser.index += length
            guard parser.keyword("endstream") else { throw Unsupported(description: "stream \(n) has no endstream") }
        }
        guard parser.keyword("endobj") else { throw Unsupported(description: "object \(n) has no endobj") }
        noteRead(parser.index - offset)
        return Object(value: value, valueRange: start..<valueEnd, streamData: data, range: offset..<parser.index)
    }

    /// Counts `count` bytes read (objects parsed here, stream data its callers copy or
    /// decode), each read at least a page of 4 KiB (small objects far apart each bring a page
    /// in). A mapped file's pages that were read are dropped every megabyte (they are read
    /// again from the page cache if needed), so the file does not stay resident as it is read.
    func noteRead(_ count: Int) {
        residency.read += max(count, 4096)
        if residency.read > 1 << 20 {
            madvise(UnsafeMutableRawPointer(mutating: bytes.baseAddress!), bytes.count, Int32(MADV_DONTNEED))
            residency.read = 0
        }
    }

    /// A reference's target value (one level), or the value itself.
    func resolved(_ value: PDFValue?) throws -> PDFValue? {
        if case .reference(let target)? = value { return try object(target).value }
        return value
    }
}

/// zlib's inflate for `/FlateDecode` streams (PDF 1.7 §7.4.4).
enum Inflate {
    /// `bytes` decompressed; nil when they are not a zlib stream.
    static func decompressed(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var stream = z_stream()
        guard inflateInit_(&stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var out = [UInt8](repeating: 0, count: max(4096, bytes.count * 4))
        var produced = 0
        stream.next_in = UnsafeMutablePointer(mutating: bytes.baseAddress)
        stream.avail_in = uInt(bytes.count)
        while true {
            if produced == out.count { out.append(contentsOf: repeatElement(0, count: out.count)) }
            let status = out.withUnsafeMutableBufferPointer { buffer -> Int32 in
                stream.next_out = buffer.baseAddress! + produced
                stream.avail_out = uInt(buffer.count - produced)
                let status = inflate(&stream, Z_NO_FLUSH)
                produced = buffer.count - Int(stream.avail_out)
                return status
            }
            if status == Z_STREAM_END { break }
            guard status == Z_OK || (status == Z_BUF_ERROR && produced == out.count) else {
                // Input ended without the stream's end: keep what was inflated, as readers do.
                if status == Z_BUF_ERROR, stream.avail_in == 0 { break }
                return nil
            }
        }
        out.removeLast(out.count - produced)
        return out
    }
}
