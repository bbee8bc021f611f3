import Foundation
import Glibc
import WorkQueues

/// Page content streams rewritten while the renderer draws the pages after them: the bytes
/// Cairo writes for a page (``pageWritten(_:at:page:structure:firstRun:)``, handed over as soon as
/// the page is shown) are read on a thread of their own for the page's content stream, which is
/// inflated, its marked content rewritten (``MarkedContentRewrite``) and deflated as the
/// tagging pass would (``ContentRewrites/rewrite(dictionary:data:runs:structure:)``). The
/// compressed results go to a spill file as they are made, so memory holds a few integers a
/// page; the tagging pass takes each (``reused(number:page:data:)``) instead of rewriting the
/// stream again, when the stream in the finished file is the one read here: the same object
/// number, at the same file offset, of the same length (Cairo appends to the file and never
/// writes an object twice). A page whose stream is not found, or that arrives while
/// ``window`` pages wait, is left to the tagging pass: the output is the same either way.
package final class EarlyContentRewrites: @unchecked Sendable {
    /// Pages that may wait for the thread; a page handed over while this many wait is skipped.
    package static let window = 4
    /// The most bytes of one page kept for the thread (a page drawing a large image is skipped).
    package static let pageByteLimit = 8 << 20

    /// One page handed to the thread.
    private struct Job {
        var bytes: [UInt8]
        /// The file offset of `bytes`.
        var offset: Int
        var page: Int
        var structure: StructureRecords
        var firstRun: Int
    }

    /// A content stream rewritten ahead: what it was read from, and where its result lies.
    private struct Result {
        var page: Int
        /// Where the stream's data lies in the file.
        var source: Range<Int>
        var spillOffset: Int
        var spillLength: Int
        var continued: [Int32]
        var substitutions: [MarkedContentRewrite.GlyphSubstitution]
    }

    private let queue = WorkQueue<Job>(capacity: EarlyContentRewrites.window)
    private let done = DispatchSemaphore(value: 0)
    /// Guards `results` and the counts.
    private let lock = NSLock()
    private var results: [Int32: Result] = [:]
    private var madeCount = 0
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

    /// Hands page `page`'s bytes as Cairo wrote them at file offset `offset` (from the end of
    /// the page before to the end of this one) to the thread, with the page's share of the
    /// structure (``StructureRecords/pageExtract(_:)``, whose run 0 is run `firstRun` of the
    /// document).
    package func pageWritten(_ bytes: [UInt8], at offset: Int, page: Int, structure: StructureRecords, firstRun: Int) {
        // Only the renderer puts, so a queue with room now has room at the put.
        guard running, queue.count < Self.window else {
            lock.lock()
            skippedCount += 1
            lock.unlock()
            return
        }
        queue.put(Job(bytes: bytes, offset: offset, page: page, structure: structure, firstRun: firstRun))
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

    /// How many content streams the tagging pass took from here, how many were rewritten here,
    /// and how many pages were skipped because ``window`` pages waited (for tests).
    package var counts: (reused: Int, rewrittenAhead: Int, skipped: Int) {
        lock.lock()
        defer { lock.unlock() }
        return (reusedCount, madeCount, skippedCount)
    }

    /// The outcome for content stream `number` of page `page` whose data lies at `data` in the
    /// finished file, when it was rewritten here from the same bytes; each is given once.
    func reused(number: Int32, page: Int, data: Range<Int>)
        -> (compressed: [UInt8], continued: [Int32], substitutions: [MarkedContentRewrite.GlyphSubstitution])?
    {
        lock.lock()
        let found = results.removeValue(forKey: number)
        lock.unlock()
        guard let found, found.page == page, found.source == data else { return nil }
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

    /// Finds the page's content stream in `job`'s bytes, rewrites it and spills the result.
    private func rewrite(_ job: Job) {
        let found: (number: Int32, dictionary: PDFValue, data: Range<Int>)? = job.bytes.withUnsafeBufferPointer {
            Self.contentStream(in: $0)
        }
        guard let found else { return }
        let runs = 0..<job.structure.runCount
        let outcome = job.bytes.withUnsafeBufferPointer { bytes in
            ContentRewrites.rewrite(
                dictionary: found.dictionary, data: UnsafeBufferPointer(rebasing: bytes[found.data]), runs: runs,
                structure: job.structure)
        }
        guard case .stream(_, let compressed, let continued, let substitutions) = outcome else { return }
        let written = compressed.withUnsafeBytes { pwrite(spill, $0.baseAddress, $0.count, off_t(spillSize)) }
        guard written == compressed.count else { return }
        let result = Result(
            page: job.page, source: (found.data.lowerBound + job.offset)..<(found.data.upperBound + job.offset),
            spillOffset: spillSize,
            spillLength: compressed.count, continued: continued.map { $0 + Int32(job.firstRun) },
            substitutions: substitutions)
        spillSize += compressed.count
        lock.lock()
        results[found.number] = result
        madeCount += 1
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
            let header = objectHeader(number, in: bytes, fromEnd: false)
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
            // Cairo writes the length just after the stream, before the page's few small
            // objects: it is found from the end.
            guard let lengthHeader = objectHeader(lengthNumber, in: bytes, fromEnd: true) else { return nil }
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
                matches(pattern, in: bytes, at: position)
            {
                var lexer = PDFLexer(bytes: bytes, index: position)
                if let value = try? lexer.value(), value["Type"]?.nameValue == "Page" { return value }
            }
            position -= 1
        }
        return nil
    }

    /// Where the value of object `number` begins among `bytes`: past `number 0 obj` at a line's
    /// start, the first such (or the last, `fromEnd`).
    private static func objectHeader(_ number: Int32, in bytes: UnsafeBufferPointer<UInt8>, fromEnd: Bool) -> Int? {
        let pattern = Array("\(number) 0 obj".utf8)
        guard bytes.count >= pattern.count else { return nil }
        func valueStart(_ position: Int) -> Int? {
            guard bytes[position] == pattern[0], position == 0 || bytes[position - 1] == 0x0A,
                matches(pattern, in: bytes, at: position)
            else { return nil }
            var lexer = PDFLexer(bytes: bytes, index: position + pattern.count)
            lexer.skipSpace()
            return lexer.index
        }
        let last = bytes.count - pattern.count
        if fromEnd {
            for position in stride(from: last, through: 0, by: -1) {
                if let start = valueStart(position) { return start }
            }
        } else {
            for position in 0...last {
                if let start = valueStart(position) { return start }
            }
        }
        return nil
    }

    /// Whether `pattern` lies in `bytes` at `position` (which leaves room for it).
    private static func matches(_ pattern: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, at position: Int) -> Bool {
        for (k, byte) in pattern.enumerated() where bytes[position + k] != byte { return false }
        return true
    }
}
