internal import CPangoCairo
import Foundation
import Glibc
import TaggedPDF
import Typography

/// The file a ``CairoPDFRenderer`` writes its PDF into, fed by Cairo through a write function
/// (`cairo_pdf_surface_create_for_stream`) instead of a file name.
///
/// Cairo's own file stream is a C `FILE` that only Cairo can close: a surface left unfinished
/// (Cairo 1.16 crashes finishing a tagged surface that failed) keeps it open with up to a
/// buffer of bytes not yet written, and the C library flushes them at exit — into the same
/// file, by then holding the untagged PDF written in its place, which they damage. Here the
/// bytes go through a buffer this type owns: ``abandon()`` drops what is buffered and closes
/// the file, and whatever Cairo writes after that is refused, so an abandoned surface can never
/// touch the file again.
final class PDFFileSink {
    /// Bytes gathered before one `write(2)`: Cairo writes a PDF in pieces of a few bytes.
    static let bufferSize = 64 * 1024

    private var descriptor: Int32
    private var buffer: UnsafeMutablePointer<UInt8>
    private var count = 0
    /// The first `errno` of a failed write; writing stops there.
    private(set) var failure: Int32 = 0
    /// Whether the bytes appended are also kept for ``takeCaptured()`` (a tagged PDF whose
    /// pages' content streams are rewritten as they are written, ``EarlyContentRewrites``).
    var capturing = false
    /// The bytes written to the file since the last ``takeCaptured()`` (each buffer's worth as
    /// it is written); nil once they passed ``EarlyContentRewrites/pageByteLimit``.
    private var captured: [UInt8]? = []
    /// The buffer's first bytes that ``takeCaptured()`` has handed over already.
    private var capturedFromBuffer = 0
    /// How many bytes were written to the file so far.
    private var bytesWritten = 0
    /// The file offset of the first byte ``takeCaptured()`` hands over next.
    private var captureStart = 0

    /// Creates the temporary file at `path`, which must not exist (``TemporaryFiles/openNew(_:)``).
    /// - Throws: ``BackendError/cannotCreate(path:message:)`` with the system's reason.
    init(path: String) throws {
        let fd = TemporaryFiles.creating { TemporaryFiles.openNew(path) }
        guard fd >= 0 else {
            throw BackendError.cannotCreate(path: path, message: String(cString: strerror(errno)))
        }
        descriptor = fd
        buffer = .allocate(capacity: Self.bufferSize)
    }

    deinit {
        buffer.deallocate()
        if descriptor >= 0 { Glibc.close(descriptor) }
    }

    /// Whether the file is still open for Cairo's writes.
    var isOpen: Bool { descriptor >= 0 }

    /// Appends `length` bytes at `bytes`; false once the file is closed or a write failed.
    func append(_ bytes: UnsafePointer<UInt8>, length: Int) -> Bool {
        guard descriptor >= 0, failure == 0 else { return false }
        if count + length > Self.bufferSize {
            guard flush() else { return false }
            if length > Self.bufferSize {
                capture(UnsafeBufferPointer(start: bytes, count: length))
                return writeAll(bytes, length: length)
            }
        }
        (buffer + count).update(from: bytes, count: length)
        count += length
        return true
    }

    /// The bytes appended since the last call (nil when they were too many to keep) with the
    /// file offset of the first, and starts keeping anew.
    func takeCaptured() -> (bytes: [UInt8], offset: Int)? {
        let unwritten = UnsafeBufferPointer(start: buffer + capturedFromBuffer, count: count - capturedFromBuffer)
        capture(unwritten)
        capturedFromBuffer = count
        let start = captureStart
        captureStart = bytesWritten + count
        defer { captured = [] }
        return captured.map { ($0, start) }
    }

    /// Keeps `bytes` for ``takeCaptured()`` while capturing and under the limit.
    private func capture(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard capturing, let kept = captured?.count else { return }
        if kept + bytes.count > EarlyContentRewrites.pageByteLimit {
            captured = nil
        } else {
            captured?.append(contentsOf: bytes)
        }
    }

    /// Writes the buffered bytes and closes the file (after the surface is finished).
    /// - Returns: false when a write or the close failed (``failure`` holds `errno`).
    @discardableResult
    func close() -> Bool {
        guard descriptor >= 0 else { return failure == 0 }
        let flushed = failure == 0 && flush()
        let closed = Glibc.close(descriptor) == 0
        if !closed, failure == 0 { failure = errno }
        descriptor = -1
        return flushed && closed
    }

    /// Closes the file without writing what is buffered; every later write is refused.
    func abandon() {
        count = 0
        if descriptor >= 0 { Glibc.close(descriptor) }
        descriptor = -1
    }

    private func flush() -> Bool {
        defer {
            count = 0
            capturedFromBuffer = 0
        }
        capture(UnsafeBufferPointer(start: buffer + capturedFromBuffer, count: count - capturedFromBuffer))
        return count == 0 || writeAll(buffer, length: count)
    }

    private func writeAll(_ bytes: UnsafePointer<UInt8>, length: Int) -> Bool {
        var done = 0
        while done < length {
            let written = Glibc.write(descriptor, bytes + done, length - done)
            if written < 0 {
                if errno == EINTR { continue }
                failure = errno
                return false
            }
            done += written
        }
        bytesWritten += length
        return true
    }

    /// The `cairo_write_func_t` for a surface whose closure is an unretained sink.
    static let writeFunction: cairo_write_func_t = { closure, data, length in
        guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
        let sink = Unmanaged<PDFFileSink>.fromOpaque(closure).takeUnretainedValue()
        return sink.append(data, length: Int(length)) ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR
    }
}
