import DocumentModel
import Foundation

/// The UTF-8 bytes of a parsed source text, shared by everything that reads them (a document's
/// ``SourcePositions`` and the parser's windows of blocks), which a long render can set aside in
/// an unlinked temporary file while nothing reads them (``setAside()``); the next read brings
/// them back (``bytes``), so setting them aside never changes what is read.
///
/// A renderer reads its source only while it lays the document out: the windows of blocks are
/// parsed again from it and warnings name positions in it. What comes after the last page
/// (finishing the file) stacks on whatever the process still holds, so a 20 MB document's
/// 20 MB are set aside before it. A source under ``setAsideMinimum`` stays in memory:
/// a file costs more than it saves there.
///
/// A reference type on purpose: every copy of a document shares one buffer, so that setting it
/// aside frees the bytes (an array's storage is freed only when its last holder lets go of it).
/// Safe to use from several threads (a lock around the bytes and the file).
public final class SourceBuffer: SourceBytes, @unchecked Sendable {
    /// The length of the source, bytes.
    public let count: Int
    /// The smallest source, bytes, that ``setAside()`` moves to a file (1 MiB unless the buffer
    /// was made with another).
    public let setAsideMinimum: Int
    private let lock = NSLock()
    /// The bytes while in memory; nil while set aside. Guarded by `lock`.
    private var held: [UInt8]?
    /// The unlinked temporary file holding the bytes once they were first set aside (-1: none).
    /// Guarded by `lock`.
    private var file: Int32 = -1

    /// A buffer holding `bytes` (their storage is shared, not copied); a source of at least
    /// `setAsideMinimum` bytes is moved to a file by ``setAside()``.
    public init(_ bytes: [UInt8], setAsideMinimum: Int = 1 << 20) {
        count = bytes.count
        held = bytes
        self.setAsideMinimum = setAsideMinimum
    }

    deinit {
        if file >= 0 { close(file) }
    }

    /// The bytes: the array held, or — after ``setAside()`` — read back from the file and held
    /// again. A source that cannot be read back (its file failed, which a full disk does not
    /// cause: the file is written whole before the bytes are dropped) reads as empty.
    public var bytes: [UInt8] {
        lock.lock()
        defer { lock.unlock() }
        if let held { return held }
        let read = Self.read(count, at: 0, from: file) ?? []
        held = read
        return read
    }

    /// The bytes in `range` (offsets into the source), read from the file without holding the
    /// rest when the bytes are set aside: what a window of blocks reads during layout. Empty
    /// when the file cannot be read.
    public func bytes(in range: Range<Int>) -> [UInt8] {
        lock.lock()
        defer { lock.unlock() }
        let range = range.clamped(to: 0..<count)
        if let held { return Array(held[range]) }
        return Self.read(range.count, at: range.lowerBound, from: file) ?? []
    }

    /// Whether the bytes are in the file rather than in memory (tests).
    public var isSetAside: Bool {
        lock.lock()
        defer { lock.unlock() }
        return held == nil
    }

    /// Moves the bytes to an unlinked temporary file (in `TMPDIR`, else `/tmp`) and drops them
    /// from memory, when the source is at least ``setAsideMinimum`` bytes. Written once: a
    /// buffer read back and set aside again drops its bytes without writing. When the file
    /// cannot be made or written whole, the bytes stay in memory. The memory is freed only if
    /// nothing else holds the array (the parser's own copies are gone once it returns).
    public func setAside() {
        lock.lock()
        defer { lock.unlock() }
        guard let bytes = held, count >= setAsideMinimum, count > 0 else { return }
        if file < 0 {
            guard let made = Self.temporaryFile() else { return }
            guard Self.write(bytes, to: made) else {
                close(made)
                return
            }
            file = made
        }
        held = nil
    }

    /// An unlinked temporary file open for reading and writing; nil when none can be made.
    private static func temporaryFile() -> Int32? {
        var folder = ProcessInfo.processInfo.environment["TMPDIR"] ?? ""
        if folder.isEmpty { folder = "/tmp" }
        var template = Array("\(folder)/.typeset-source-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { return nil }
        // Unlinked at once: the file goes when it is closed, or when the process ends however it ends.
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        return descriptor
    }

    /// Writes `bytes` at the start of `file`; false unless every byte was written.
    private static func write(_ bytes: [UInt8], to file: Int32) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var done = 0
            while done < buffer.count {
                let bytesWritten = pwrite(file, buffer.baseAddress! + done, buffer.count - done, off_t(done))
                if bytesWritten < 0, errno == EINTR { continue }
                guard bytesWritten > 0 else { return false }
                done += bytesWritten
            }
            return true
        }
    }

    /// `count` bytes of `file` from `offset`; nil when they cannot all be read.
    private static func read(_ count: Int, at offset: Int, from file: Int32) -> [UInt8]? {
        guard file >= 0 else { return nil }
        var complete = true
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var done = 0
            while done < count {
                let bytesRead = pread(file, buffer.baseAddress! + done, count - done, off_t(offset + done))
                if bytesRead < 0, errno == EINTR { continue }
                guard bytesRead > 0 else { break }
                done += bytesRead
            }
            complete = done == count
            // Bytes past a short read are zeroed rather than left uninitialized.
            if done < count { (buffer.baseAddress! + done).initialize(repeating: 0, count: count - done) }
            initialized = count
        }
        return complete ? bytes : nil
    }
}
