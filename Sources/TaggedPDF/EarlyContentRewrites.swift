internal import CZlib
import Foundation
import Glibc
import WorkQueues

/// Page content streams rewritten while the renderer draws the pages after them: the bytes
/// Cairo writes for a page (``pageWritten(_:page:structure:firstRun:)``, handed over as soon as
/// the page is shown) are read on a thread of their own for the page's content stream, which is
/// inflated, its marked content rewritten (``MarkedContentRewrite``) and deflated as the
/// tagging pass would (``ContentRewrites/rewrite(dictionary:data:runs:structure:)``). The
/// compressed results go to a spill file as they are made, so memory holds a few integers a
/// page; the tagging pass takes each (``reused(number:page:data:)``) instead of rewriting the
/// stream again, when the stream in the finished file is the one read here (its object number,
/// length and CRC-32 agree). A page whose stream is not found, or that arrives while
/// ``window`` pages wait, is left to the tagging pass: the output is the same either way.
package final class EarlyContentRewrites: @unchecked Sendable {
    /// Pages that may wait for the thread; a page handed over while this many wait is skipped.
    package static let window = 4
    /// The most bytes of one page kept for the thread (a page drawing a large image is skipped).
    package static let pageByteLimit = 8 << 20

    /// One page handed to the thread.
    private struct Job {
        var bytes: [UInt8]
        var page: Int
        var structure: StructureRecords
        var firstRun: Int
    }

    /// A content stream rewritten ahead: what it was read from, and where its result lies.
    private struct Result {
        var page: Int
        var sourceLength: Int
        var sourceCRC: UInt
        var spillOffset: Int
        var spillLength: Int
        var continued: [Int32]
        var substitutions: [MarkedContentRewrite.GlyphSubstitution]
    }

    private let queue = WorkQueue<Job>(capacity: EarlyContentRewrites.window)
    private let done = DispatchSemaphore(value: 0)
    /// Guards `results`, `reusedCount` and `skippedCount`.
    private let lock = NSLock()
    private var results: [Int32: Result] = [:]
    private var reusedCount = 0
    private var skippedCount = 0
    /// The spill file (unlinked as soon as it is made), and its size (the thread's alone until
    /// ``finishWriting()``).
    private let spill: Int32
    private var spillSize = 0
    private var running = true

    /// Starts the thread; nil when no spill file can be made (the tagging pass then rewrites
    /// every page itself).
    package init?() {
        let directory = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((directory + "/typeset-content-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { return nil }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        spill = descriptor
        let thread = Thread { [self] in
            while let job = try? queue.take() { rewrite(job) }
            done.signal()
        }
        thread.start()
    }

    deinit {
        stop()
        Glibc.close(spill)
    }

    /// Hands page `page`'s bytes as Cairo wrote them (from the end of the page before to the
    /// end of this one) to the thread, with the page's share of the structure
    /// (``StructureRecords/pageExtract(_:)``, whose run 0 is run `firstRun` of the document).
    package func pageWritten(_ bytes: [UInt8], page: Int, structure: StructureRecords, firstRun: Int) {
        // Only the renderer puts, so a queue with room now has room at the put.
        guard running, queue.count < Self.window else {
            lock.lock()
            skippedCount += 1
            lock.unlock()
            return
        }
        queue.put(Job(bytes: bytes, page: page, structure: structure, firstRun: firstRun))
    }

    /// Waits for the pages handed over to be rewritten (before the tagging pass reads them).
    package func finishWriting() {
        guard running else { return }
        running = false
        queue.close()
        done.wait()
    }

    /// Stops the thread, dropping the pages that wait.
    package func stop() {
        guard running else { return }
        running = false
        queue.cancel()
        done.wait()
    }

    /// How many content streams the tagging pass took from here, and how many pages were
    /// skipped because ``window`` pages waited (for tests).
    package var counts: (reused: Int, rewrittenAhead: Int, skipped: Int) {
        lock.lock()
        defer { lock.unlock() }
        return (reusedCount, results.count + reusedCount, skippedCount)
    }

    /// The outcome for content stream `number` of page `page` whose data in the finished file
    /// is `data`, when it was rewritten here from the same bytes; each is given once.
    func reused(number: Int32, page: Int, data: UnsafeBufferPointer<UInt8>)
        -> (compressed: [UInt8], continued: [Int32], substitutions: [MarkedContentRewrite.GlyphSubstitution])?
    {
        lock.lock()
        let found = results.removeValue(forKey: number)
        lock.unlock()
        guard let found, found.page == page, found.sourceLength == data.count,
            found.sourceCRC == Self.crc(data)
        else { return nil }
        var compressed = [UInt8](repeating: 0, count: found.spillLength)
        let read = compressed.withUnsafeMutableBytes {
            pread(spill, $0.baseAddress, found.spillLength, off_t(found.spillOffset))
        }
        guard read == found.spillLength else { return nil }
        lock.lock()
        reusedCount += 1
        lock.unlock()
        return (compressed, found.continued, found.substitutions)
    }

    private static func crc(_ data: UnsafeBufferPointer<UInt8>) -> UInt {
        crc32(0, data.baseAddress, uInt(data.count))
    }

    /// Finds the page's content stream in `job`'s bytes, rewrites it and spills the result.
    private func rewrite(_ job: Job) {
        let found: (number: Int32, dictionary: PDFValue, data: Range<Int>)? = job.bytes.withUnsafeBufferPointer {
            Self.contentStream(in: $0)
        }
        guard let found else { return }
        let runs = 0..<job.structure.runCount
        let outcome = job.bytes.withUnsafeBufferPointer { bytes in
            let data = UnsafeBufferPointer(rebasing: bytes[found.data])
            return (
                ContentRewrites.rewrite(dictionary: found.dictionary, data: data, runs: runs, structure: job.structure),
                Self.crc(data)
            )
        }
        guard case .stream(_, let compressed, let continued, let substitutions) = outcome.0 else { return }
        let written = compressed.withUnsafeBytes { pwrite(spill, $0.baseAddress, $0.count, off_t(spillSize)) }
        guard written == compressed.count else { return }
        let result = Result(
            page: job.page, sourceLength: found.data.count, sourceCRC: outcome.1, spillOffset: spillSize,
            spillLength: compressed.count, continued: continued.map { $0 + Int32(job.firstRun) },
            substitutions: substitutions)
        spillSize += compressed.count
        lock.lock()
        results[found.number] = result
        lock.unlock()
    }

    /// The content stream of the page dictionary among `bytes` (the last `/Type /Page`, which
    /// Cairo writes after the page's content stream and its length): its object number, its
    /// dictionary and where its data lies. Nil when the page, the stream or its length (an
    /// integer, or an object written among `bytes`) is not found, or is not well formed.
    static func contentStream(in bytes: UnsafeBufferPointer<UInt8>)
        -> (number: Int32, dictionary: PDFValue, data: Range<Int>)?
    {
        guard let page = lastPageDictionary(in: bytes),
            case .reference(let number)? = page["Contents"],
            let header = objectHeader(number, in: bytes)
        else { return nil }
        var lexer = PDFLexer(bytes: bytes, index: header)
        guard let dictionary = try? lexer.value(), lexer.keyword("stream") else { return nil }
        if lexer.index < bytes.count, bytes[lexer.index] == 0x0D { lexer.index += 1 }
        if lexer.index < bytes.count, bytes[lexer.index] == 0x0A { lexer.index += 1 }
        let length: Int
        switch dictionary["Length"] {
        case .integer(let direct)?:
            length = direct
        case .reference(let lengthNumber)?:
            guard let lengthHeader = objectHeader(lengthNumber, in: bytes) else { return nil }
            var lengthLexer = PDFLexer(bytes: bytes, index: lengthHeader)
            guard case .integer(let resolved)? = try? lengthLexer.value() else { return nil }
            length = resolved
        default:
            return nil
        }
        let start = lexer.index
        guard length >= 0, start + length <= bytes.count else { return nil }
        lexer.index = start + length
        guard lexer.keyword("endstream") else { return nil }
        return (number, dictionary, start..<(start + length))
    }

    /// The last page dictionary (`<< /Type /Page`, as Cairo writes it) among `bytes`.
    private static func lastPageDictionary(in bytes: UnsafeBufferPointer<UInt8>) -> PDFValue? {
        let pattern = Array("<< /Type /Page".utf8)
        var position = bytes.count - pattern.count - 1
        while position >= 0 {
            if bytes[position] == pattern[0], bytes[position + pattern.count] != 0x73,
                Array(bytes[position..<(position + pattern.count)]) == pattern
            {
                var lexer = PDFLexer(bytes: bytes, index: position)
                if let value = try? lexer.value(), value["Type"]?.nameValue == "Page" { return value }
            }
            position -= 1
        }
        return nil
    }

    /// Where the value of object `number` begins among `bytes`: past `number 0 obj` at a line's
    /// start.
    private static func objectHeader(_ number: Int32, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let pattern = Array("\(number) 0 obj".utf8)
        var position = 0
        while position + pattern.count <= bytes.count {
            if bytes[position] == pattern[0], position == 0 || bytes[position - 1] == 0x0A,
                Array(bytes[position..<(position + pattern.count)]) == pattern
            {
                var lexer = PDFLexer(bytes: bytes, index: position + pattern.count)
                lexer.skipSpace()
                return lexer.index
            }
            position += 1
        }
        return nil
    }
}
