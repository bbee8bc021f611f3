internal import CZlib
import Foundation
import Typography
import WorkQueues

/// Writes a PDF file object by object as each one is final (PDF 1.7 §7.5): streams go straight
/// to the file; other objects are gathered a hundred at a time into compressed object streams
/// (§7.5.7) and the file ends with a compressed cross-reference stream (§7.5.8). What it holds is
/// a few object streams' worth of bytes and eight bytes of cross-reference per object.
///
/// When `threaded`, full object streams are compressed on a second thread
/// (``OrderedCompression``) while the caller goes on adding objects: each is written once it is
/// compressed and before anything added after it, so the file is byte for byte the one written
/// without the thread. At most ``compressionWindow`` wait, so memory does not grow with the
/// document.
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

    /// Object streams handed to the compressing thread and not yet written, oldest first: the
    /// stream's number, its dictionary (without `/Length`) and its ticket.
    private var queued: [(number: Int32, dictionary: PDFValue, ticket: Int)] = []
    private let compression: OrderedCompression?

    /// Objects per object stream (qpdf writes 100 as well).
    static let objectsPerStream = 100
    /// Object streams that may wait for the compressing thread before the writer waits for them.
    static let compressionWindow = 4

    /// Opens `path` for writing; objects are numbered below `size`, new ones from `size` up.
    /// `threaded`: object streams are compressed on a second thread (the same file either way).
    /// - Throws: ``Failure`` when the file cannot be created.
    init(path: String, size: Int32, version: String = "1.7", threaded: Bool = false) throws {
        let descriptor = TemporaryFiles.creating { TemporaryFiles.openNew(path) }
        guard descriptor >= 0, let file = fdopen(descriptor, "wb") else {
            if descriptor >= 0 { close(descriptor) }
            throw Failure(description: "cannot write \(path): \(String(cString: strerror(errno)))")
        }
        self.file = file
        compression = threaded ? OrderedCompression() : nil
        nextNumber = size
        entries = [UInt64](repeating: 0, count: Int(size))
        entries[0] = 65535
        setvbuf(file, nil, _IOFBF, 1 << 16)
        write(
            Array(
                "%PDF-\(version)\n%\u{E2}\u{E3}\u{CF}\u{D3}\n".unicodeScalars.map {
                    UInt8(truncatingIfNeeded: $0.value)
                }))
    }

    deinit {
        compression?.stop()
        fclose(file)
    }

    /// A number for a new object.
    func newNumber() -> Int32 {
        defer { nextNumber += 1 }
        entries.append(0)
        return nextNumber
    }

    private func write(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 0 else { return }
        fwrite(bytes.baseAddress, 1, bytes.count, file)
        let start = bytes.baseAddress!.assumingMemoryBound(to: Bytef.self)
        crc = crc32(crc, start, uInt(bytes.count))
        adler = adler32(adler, start, uInt(bytes.count))
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

    /// Adds a non-stream object, `value`, to the current object stream (its syntax written
    /// there directly).
    func add(_ number: Int32, _ value: PDFValue) {
        pendingObjects.append((number, pending.count))
        value.write(to: &pending)
        pending.append(0x0A)
        if pendingObjects.count == Self.objectsPerStream { flushObjectStream() }
    }

    /// How many object streams were compressed on the second thread (for tests).
    var compressedOnThread: Int { compression?.completed ?? 0 }

    /// Writes a stream object now (after the object streams still being compressed):
    /// `dictionary` (without `/Length`, which is added) and `data`.
    func addStream(_ number: Int32, dictionary: PDFValue, data: UnsafeRawBufferPointer) {
        writeQueued(leaving: 0)
        writeStream(number, dictionary: dictionary, data: data)
    }

    private func writeStream(_ number: Int32, dictionary: PDFValue, data: UnsafeRawBufferPointer) {
        var head: [UInt8] = Array("\(number) 0 obj\n".utf8)
        dictionary.setting("Length", .integer(data.count)).write(to: &head)
        head.append(contentsOf: Array("\nstream\n".utf8))
        entries[Int(number)] = 1 << 56 | UInt64(offset) << 16
        write(head)
        write(data)
        // Data that ends in a carriage return gets a CR LF end of line before `endstream`: a
        // lone LF after it would read as one CR LF end of line, a byte short of `/Length`
        // (PDF 1.7 §7.3.8.1; PDF/A-2 §6.1.7.1 checks it).
        write(data.last == 0x0D ? "\r\nendstream\nendobj\n" : "\nendstream\nendobj\n")
    }

    /// Writes object `number`'s bytes as they are (`n 0 obj … endobj`).
    func copy(_ number: Int32, _ bytes: UnsafeRawBufferPointer) {
        writeQueued(leaving: 0)
        entries[Int(number)] = 1 << 56 | UInt64(offset) << 16
        write(bytes)
        write("\n")
    }

    private func flushObjectStream() {
        guard !pendingObjects.isEmpty else { return }
        let number = newNumber()
        // The header: each object's number and offset, "n offset " (§7.5.7), then the objects.
        var data: [UInt8] = []
        data.reserveCapacity(pendingObjects.count * 12 + pending.count)
        for (index, object) in pendingObjects.enumerated() {
            PDFValue.writeDecimal(Int(object.number), to: &data)
            data.append(0x20)
            PDFValue.writeDecimal(object.start, to: &data)
            data.append(0x20)
            entries[Int(object.number)] = 2 << 56 | UInt64(number) << 16 | UInt64(index)
        }
        let first = data.count
        data.append(contentsOf: pending)
        let dictionary = PDFValue.dictionary([
            ("Type", .name("ObjStm")), ("N", .integer(pendingObjects.count)),
            ("First", .integer(first)), ("Filter", .name("FlateDecode")),
        ])
        pendingObjects.removeAll(keepingCapacity: true)
        pending.removeAll(keepingCapacity: true)
        if let compression {
            queued.append((number, dictionary, compression.submit(data)))
            writeQueued(leaving: Self.compressionWindow)
        } else {
            (Deflate.compressed(data) ?? []).withUnsafeBytes { writeStream(number, dictionary: dictionary, data: $0) }
        }
    }

    /// Writes the oldest queued object streams, waiting for their compression, until at most
    /// `leaving` are queued.
    private func writeQueued(leaving: Int) {
        guard let compression, queued.count > leaving else { return }
        let count = queued.count - leaving
        for (number, dictionary, ticket) in queued[..<count] {
            (compression.result(ticket) ?? []).withUnsafeBytes { writeStream(number, dictionary: dictionary, data: $0) }
        }
        queued.removeFirst(count)
    }

    /// Bytes of one cross-reference entry (`/W [1 4 2]`).
    static let crossReferenceRowBytes = 7

    /// The cross-reference stream's data before compression: one row per entry (type, field 2
    /// in 4 bytes, field 3 in 2, big-endian; PDF 1.7 §7.5.8.3), each row written as the PNG
    /// "Up" filter writes it (`/Predictor 12`, §7.4.4.4 and PNG §6.3): a filter-type byte 2,
    /// then each byte minus the one above it, modulo 256. Neighbouring entries differ in a byte
    /// or two, so the rows become runs of zeros: compressed in a sixth of the time the plain
    /// rows take (their repeated patterns give zlib long match chains) and smaller.
    static func crossReferenceRows(_ entries: [UInt64]) -> [UInt8] {
        var rows: [UInt8] = []
        rows.reserveCapacity(entries.count * (crossReferenceRowBytes + 1))
        var above: UInt64 = 0
        for entry in entries {
            rows.append(2)
            // Type, the four bytes of field 2 (bits 16–47) and the two of field 3.
            for shift: UInt64 in [56, 40, 32, 24, 16, 8, 0] {
                rows.append(UInt8(truncatingIfNeeded: entry >> shift) &- UInt8(truncatingIfNeeded: above >> shift))
            }
            above = entry
        }
        return rows
    }

    /// Writes the last object stream and the cross-reference stream with the trailer's entries
    /// (`/Root`, `/Info`, and an `/ID` computed from the bytes written, so equal input gives an
    /// equal file), then closes the file.
    /// - Throws: ``Failure`` when writing failed (a full disk).
    func finish(root: Int32, info: Int32?) throws {
        flushObjectStream()
        writeQueued(leaving: 0)
        let number = newNumber()
        entries[Int(number)] = 1 << 56 | UInt64(offset) << 16
        let rows = Self.crossReferenceRows(entries)
        let id = String(
            format: "<%08lX%08lX%08lX%08lX>", UInt(crc), UInt(adler), UInt(offset & 0xFFFF_FFFF), UInt(entries.count))
        var dictionary: [(key: String, value: PDFValue)] = [
            ("Type", .name("XRef")), ("Size", .integer(entries.count)),
            ("W", .array([.integer(1), .integer(4), .integer(2)])),
            ("Root", .reference(root)),
        ]
        if let info { dictionary.append(("Info", .reference(info))) }
        dictionary.append(("ID", .array([.string(Array(id.utf8)), .string(Array(id.utf8))])))
        dictionary.append(("Filter", .name("FlateDecode")))
        dictionary.append(
            (
                "DecodeParms",
                .dictionary([("Columns", .integer(Self.crossReferenceRowBytes)), ("Predictor", .integer(12))])
            ))
        let start = offset
        (Deflate.compressed(rows) ?? []).withUnsafeBytes {
            writeStream(number, dictionary: .dictionary(dictionary), data: $0)
        }
        write("startxref\n\(start)\n%%EOF\n")
        guard fflush(file) == 0, ferror(file) == 0 else {
            throw Failure(description: "cannot write the PDF: \(String(cString: strerror(errno)))")
        }
    }
}

/// zlib compression (``Deflate``) of a writer's object streams on a thread of its own, in the
/// order they are handed over: ``submit(_:)`` returns at once with a ticket, ``result(_:)``
/// waits for that ticket's bytes. The same bytes as compressing each in line. The inputs reach
/// the thread and the results come back through two ``WorkQueue``s of ``capacity`` places each;
/// a writer keeps at most that many handed over and not yet asked for, so it never waits to
/// hand one over.
final class OrderedCompression: @unchecked Sendable {
    /// Inputs handed over and not yet asked for that the queues hold without waiting.
    let capacity: Int
    private let inputs: WorkQueue<[UInt8]>
    private let outputs: WorkQueue<[UInt8]?>
    /// Guards `submitted`, `taken` and `done`.
    private let lock = NSLock()
    private var submitted = 0
    private var taken = 0
    private var done = 0

    /// Starts the thread; it ends after ``stop()``. `capacity`: how many inputs a writer may
    /// have handed over and not yet asked for.
    init(capacity: Int = PDFStreamWriter.compressionWindow + 1) {
        self.capacity = capacity
        inputs = WorkQueue(capacity: capacity)
        outputs = WorkQueue(capacity: capacity)
        inputs.startProducer { [self] _ in
            while let input = try inputs.take() {
                let output = Deflate.compressed(input)
                // Counted before it is handed back, so a writer that has every result sees every count.
                lock.lock()
                done += 1
                lock.unlock()
                guard outputs.put(output) else { return }
            }
        }
    }

    /// How many inputs the thread has compressed.
    var completed: Int {
        lock.lock()
        defer { lock.unlock() }
        return done
    }

    /// Hands `bytes` over; the ticket names its result. At most ``capacity`` may be handed
    /// over and not yet asked for.
    func submit(_ bytes: [UInt8]) -> Int {
        inputs.put(bytes)
        lock.lock()
        defer { lock.unlock() }
        submitted += 1
        return submitted - 1
    }

    /// The compressed bytes of `ticket` (nil when zlib failed), waiting for them; tickets are
    /// asked for once each, in the order they were given.
    func result(_ ticket: Int) -> [UInt8]? {
        lock.lock()
        precondition(ticket == taken, "compressed object streams are asked for in order")
        taken += 1
        lock.unlock()
        // The thread's work never throws; a result always comes for an input handed over.
        return (try? outputs.take()) ?? nil
    }

    /// Ends the thread: what was handed over and not asked for is dropped.
    func stop() {
        inputs.cancel()
        outputs.cancel()
    }
}
