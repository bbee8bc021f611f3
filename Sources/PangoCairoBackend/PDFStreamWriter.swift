internal import CQPDF
import Foundation

/// Writes a PDF file object by object as each one is final (PDF 1.7 §7.5): streams go straight
/// to the file; other objects are gathered a hundred at a time into compressed object streams
/// (§7.5.7) and the file ends with a compressed cross-reference stream (§7.5.8). What it holds is
/// one object stream's worth of bytes and eight bytes of cross-reference per object.
final class PDFStreamWriter {
    struct Failure: Error, CustomStringConvertible { var description: String }

    private let file: UnsafeMutablePointer<FILE>
    private var offset = 0
    /// Cross-reference entry per object number: type (8 bits), field 2 (32 bits), field 3 (16 bits).
    private var entries: [UInt64]
    /// The objects waiting for the current object stream: their numbers and where each begins
    /// in `pending`.
    private var pendingObjects: [(number: Int32, start: Int)] = []
    private var pending: [UInt8] = []
    /// The next free object number.
    private(set) var nextNumber: Int32
    /// A running checksum of what was written, for the file identifier.
    private var crc: uLong = 0
    private var adler: uLong = 1

    /// Objects per object stream (qpdf writes 100 as well).
    static let objectsPerStream = 100

    /// Opens `path` for writing; objects are numbered below `size`, new ones from `size` up.
    /// - Throws: ``Failure`` when the file cannot be created.
    init(path: String, size: Int32, version: String = "1.7") throws {
        guard let file = fopen(path, "wb") else { throw Failure(description: "cannot write \(path): \(String(cString: strerror(errno)))") }
        self.file = file
        nextNumber = size
        entries = [UInt64](repeating: 0, count: Int(size))
        entries[0] = 65535
        setvbuf(file, nil, _IOFBF, 1 << 16)
        write(Array("%PDF-\(version)\n%\u{E2}\u{E3}\u{CF}\u{D3}\n".unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }))
    }

    deinit { fclose(file) }

    /// A number for a new object.
    func newNumber() -> Int32 {
        defer { nextNumber += 1 }
        entries.append(0)
        return nextNumber
    }

    private func write(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 0 else { return }
        fwrite(bytes.baseAddress, 1, bytes.count, file)
        let p = bytes.baseAddress!.assumingMemoryBound(to: Bytef.self)
        crc = crc32(crc, p, uInt(bytes.count))
        adler = adler32(adler, p, uInt(bytes.count))
        offset += bytes.count
    }

    private func write(_ bytes: [UInt8]) { bytes.withUnsafeBytes { write($0) } }
    private func write(_ text: String) { write(Array(text.utf8)) }

    /// Adds a non-stream object (its syntax in `body`) to the current object stream.
    func add(_ number: Int32, body: UnsafeRawBufferPointer) {
        pendingObjects.append((number, pending.count))
        pending.append(contentsOf: body)
        pending.append(0x0A)
        if pendingObjects.count == Self.objectsPerStream { flushObjectStream() }
    }

    func add(_ number: Int32, _ value: PDFValue) {
        var body: [UInt8] = []
        value.write(to: &body)
        body.withUnsafeBytes { add(number, body: $0) }
    }

    /// Writes a stream object now: `dictionary` (without `/Length`, which is added) and `data`.
    func addStream(_ number: Int32, dictionary: PDFValue, data: UnsafeRawBufferPointer) {
        var head: [UInt8] = Array("\(number) 0 obj\n".utf8)
        dictionary.setting("Length", .integer(data.count)).write(to: &head)
        head.append(contentsOf: Array("\nstream\n".utf8))
        entries[Int(number)] = 1 << 56 | UInt64(offset) << 16
        write(head)
        write(data)
        write("\nendstream\nendobj\n")
    }

    /// Writes object `number`'s bytes as they are (`n 0 obj … endobj`).
    func copy(_ number: Int32, _ bytes: UnsafeRawBufferPointer) {
        entries[Int(number)] = 1 << 56 | UInt64(offset) << 16
        write(bytes)
        write("\n")
    }

    private func flushObjectStream() {
        guard !pendingObjects.isEmpty else { return }
        let number = newNumber()
        var header = ""
        for (index, object) in pendingObjects.enumerated() {
            header += "\(object.number) \(object.start) "
            entries[Int(object.number)] = 2 << 56 | UInt64(number) << 16 | UInt64(index)
        }
        let first = header.utf8.count
        let data = Deflate.compressed(Array(header.utf8) + pending) ?? []
        let dictionary = PDFValue.dictionary([("Type", .name("ObjStm")), ("N", .integer(pendingObjects.count)),
                                              ("First", .integer(first)), ("Filter", .name("FlateDecode"))])
        data.withUnsafeBytes { addStream(number, dictionary: dictionary, data: $0) }
        pendingObjects.removeAll(keepingCapacity: true)
        pending.removeAll(keepingCapacity: true)
    }

    /// Writes the last object stream and the cross-reference stream with the trailer's entries
    /// (`/Root`, `/Info`, and an `/ID` computed from the bytes written, so equal input gives an
    /// equal file), then closes the file.
    /// - Throws: ``Failure`` when writing failed (a full disk).
    func finish(root: Int32, info: Int32?) throws {
        flushObjectStream()
        let number = newNumber()
        entries[Int(number)] = 1 << 56 | UInt64(offset) << 16
        var rows: [UInt8] = []
        rows.reserveCapacity(entries.count * 7)
        for entry in entries {
            rows.append(UInt8(truncatingIfNeeded: entry >> 56))
            for shift in stride(from: 40, through: 16, by: -8) { rows.append(UInt8(truncatingIfNeeded: entry >> UInt64(shift))) }
            rows.append(UInt8(truncatingIfNeeded: entry >> 8)); rows.append(UInt8(truncatingIfNeeded: entry))
        }
        let id = String(format: "<%08lX%08lX%08lX%08lX>", UInt(crc), UInt(adler), UInt(offset & 0xFFFF_FFFF), UInt(entries.count))
        var dictionary: [(key: String, value: PDFValue)] = [("Type", .name("XRef")), ("Size", .integer(entries.count)),
                                                            ("W", .array([.integer(1), .integer(4), .integer(2)])),
                                                            ("Root", .reference(root))]
        if let info { dictionary.append(("Info", .reference(info))) }
        dictionary.append(("ID", .array([.string(Array(id.utf8)), .string(Array(id.utf8))])))
        dictionary.append(("Filter", .name("FlateDecode")))
        let start = offset
        (Deflate.compressed(rows) ?? []).withUnsafeBytes { addStream(number, dictionary: .dictionary(dictionary), data: $0) }
        write("startxref\n\(start)\n%%EOF\n")
        guard fflush(file) == 0, ferror(file) == 0 else { throw Failure(description: "cannot write the PDF: \(String(cString: strerror(errno)))") }
    }
}
