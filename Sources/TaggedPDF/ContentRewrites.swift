import Foundation
import WorkQueues

/// The tagging pass's content streams (``TaggedPDFRewriter``) rewritten on a second thread,
/// ahead of the writer: each page's stream is inflated, its marked content rewritten
/// (``MarkedContentRewrite``) and deflated again — pure work on the mapped file's bytes — while
/// the writer copies and edits the other objects in number order. The writer takes the results
/// in the order of ``numbers``; a stream not yet begun when the writer needs it is rewritten in
/// line, so both threads work and the output is the same as rewriting each in turn. At most
/// ``window`` results wait, so memory does not grow with the document's pages.
final class ContentRewrites: @unchecked Sendable {
    /// What a content stream becomes.
    enum Outcome {
        /// Unchanged (a filter other than `/FlateDecode`, which only a page without runs may
        /// keep): copied as it is.
        case copy
        /// The new dictionary (no `/Length`, `/FlateDecode`), the compressed data, the runs
        /// the page's continuations go on (``MarkedContentRewrite/Rewritten/continued``) and the
        /// glyphs drawn with text faces (``MarkedContentRewrite/Rewritten/substitutions``).
        case stream(
            PDFValue, [UInt8], continued: [Int32], substitutions: [MarkedContentRewrite.GlyphSubstitution])
        /// The stream could not be rewritten: why.
        case failed(String)
    }

    /// Results that may wait for the writer.
    static let window = 16

    /// Object numbers of the content streams, in increasing order.
    let numbers: [Int32]
    /// The index of the page each content stream draws, in the order of ``numbers``.
    let pages: [Int]
    private let ahead: WorkAhead<Outcome>

    /// The content streams `jobs` (number, object as read, and the index of the page they draw)
    /// of `source`, in increasing order of number, to be rewritten for the page's runs in
    /// `structure`; `threaded`: one is rewritten ahead on a thread of its own.
    /// `early`: streams rewritten while the pages were drawn, taken from there instead of
    /// being rewritten again (``EarlyContentRewrites``).
    init(
        _ jobs: [(number: Int32, object: CairoPDFFile.Object, page: Int)], source: UnsafeBufferPointer<UInt8>,
        structure: StructureRecords, threaded: Bool, early: EarlyContentRewrites? = nil
    ) {
        numbers = jobs.map(\.number)
        pages = jobs.map(\.page)
        let objects = jobs.map { ($0.number, $0.object, $0.page) }
        let counter = Counter()
        rewriteCounter = counter
        ahead = WorkAhead(count: objects.count, window: Self.window, threaded: threaded) { i, _ in
            let (number, object, page) = objects[i]
            if let early, let data = object.streamData,
                let reused = early.reused(number: number, page: page, data: data)
            {
                return .stream(
                    Self.rewrittenDictionary(object.value), reused.compressed, continued: reused.continued,
                    substitutions: reused.substitutions)
            }
            counter.add()
            return Self.rewrite(object, source: source, runs: structure.runs(onPage: page), structure: structure)
        }
    }

    /// Counts the streams rewritten here (not taken from ``EarlyContentRewrites``).
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        /// Counts one stream.
        func add() {
            lock.lock()
            value += 1
            lock.unlock()
        }
        /// The streams counted.
        var count: Int {
            lock.lock()
            defer { lock.unlock() }
            return value
        }
    }

    private let rewriteCounter: Counter

    /// How many content streams were rewritten here so far (not taken from the early rewrites).
    var rewrittenHere: Int { rewriteCounter.count }

    /// The outcome of the `i`-th stream; asked in increasing order of `i`.
    func outcome(_ i: Int) -> Outcome { ahead.outcome(i) }

    /// Results rewritten ahead and not yet taken (at most ``window``).
    var waiting: Int { ahead.waiting }

    /// Stops the thread and waits for it (before the mapped file is released).
    func stop() { ahead.stop() }

    /// Content stream `object` with its marked content rewritten for `runs`, compressed.
    static func rewrite(
        _ object: CairoPDFFile.Object, source: UnsafeBufferPointer<UInt8>, runs: Range<Int>,
        structure: StructureRecords
    ) -> Outcome {
        guard let data = object.streamData else { return .copy }
        return rewrite(
            dictionary: object.value, data: UnsafeBufferPointer(rebasing: source[data]), runs: runs,
            structure: structure)
    }

    /// The content stream of `dictionary` whose data is `bytes`, with its marked content
    /// rewritten for `runs`, compressed.
    static func rewrite(
        dictionary: PDFValue, data bytes: UnsafeBufferPointer<UInt8>, runs: Range<Int>, structure: StructureRecords
    ) -> Outcome {
        var plain: [UInt8]?
        switch dictionary["Filter"] {
        case nil where dictionary["DecodeParms"] == nil:
            plain = Array(bytes)
        case .name("FlateDecode")? where dictionary["DecodeParms"] == nil:
            plain = Inflate.decompressed(bytes)
        default:
            break
        }
        guard let plain else { return runs.isEmpty ? .copy : .failed("a content stream cannot be decoded") }
        let rewritten: MarkedContentRewrite.Rewritten
        do {
            rewritten = try plain.withUnsafeBufferPointer {
                try MarkedContentRewrite.rewrittenWithContinuations($0, runs: runs, structure: structure)
            }
        } catch {
            return .failed(String(describing: error))
        }
        guard let compressed = Deflate.compressed(rewritten.bytes) else {
            return .failed("zlib cannot compress a content stream")
        }
        return .stream(
            rewrittenDictionary(dictionary), compressed, continued: rewritten.continued,
            substitutions: rewritten.substitutions)
    }

    /// The dictionary of a rewritten content stream: `dictionary` without its length and
    /// filters, compressed with `/FlateDecode`.
    static func rewrittenDictionary(_ dictionary: PDFValue) -> PDFValue {
        dictionary.removing(["Length", "Filter", "DecodeParms"]).setting("Filter", .name("FlateDecode"))
    }
}

/// Results made ahead of a writer on a second thread: result `i` of `0..<count` is made by
/// `work(i, onThread)` (`onThread` tells which thread asks, so that each can use readers of
/// its own), and the writer takes them in increasing order of `i`. A result not yet begun
/// when the writer asks for it is made in line, so both threads work and the results are the
/// ones made in turn. The thread hands its results over through a ``WorkQueue`` of ``window``
/// places, so memory does not grow with `count`. `work` must be safe to call from two threads
/// at once for different `i`.
final class WorkAhead<Outcome>: @unchecked Sendable {
    /// Results that may wait for the writer, unless the initializer names another number.
    static var window: Int { 64 }

    /// How many results there are.
    let count: Int
    /// How many results may wait for the writer.
    let window: Int
    private let work: (Int, Bool) -> Outcome
    /// The thread's results, in increasing order of index; nil when not threaded.
    private let queue: WorkQueue<Outcome>?
    /// Guards `claimed` and `madeOnThread`.
    private let lock = NSLock()
    /// The lowest index neither thread has begun.
    private var claimed = 0
    /// How many results the second thread handed over (for tests).
    private var madeOnThread = 0

    /// `threaded`: results are made ahead on a thread of their own (with more than one), at
    /// most `window` of them waiting.
    init(
        count: Int, window: Int = WorkAhead.window, threaded: Bool,
        work: @escaping (_ index: Int, _ onThread: Bool) -> Outcome
    ) {
        self.count = count
        self.window = window
        self.work = work
        guard threaded, count > 1 else {
            queue = nil
            return
        }
        let queue = WorkQueue<Outcome>(capacity: window)
        self.queue = queue
        queue.startProducer { [self] queue in
            while let index = claim(below: count) {
                guard queue.put(work(index, true)) else { return }
                lock.lock()
                madeOnThread += 1
                lock.unlock()
            }
        }
    }

    /// Begins the lowest index not begun, when it is below `end`.
    private func claim(below end: Int) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard claimed < end else { return nil }
        claimed += 1
        return claimed - 1
    }

    /// Result `i`; asked in increasing order of `i`.
    func outcome(_ i: Int) -> Outcome {
        lock.lock()
        if i >= claimed || queue == nil {
            // Not begun: made here. The thread begins indices in increasing order, so it skips
            // this one; the results it hands over are still those the writer asks for next.
            claimed = max(claimed, i + 1)
            lock.unlock()
            return work(i, false)
        }
        lock.unlock()
        // Begun by the thread: every result it made before was asked for already, so the
        // oldest it has handed over is this one. Its work never throws.
        return try! queue!.take()!
    }

    /// Results made ahead and not yet taken (at most ``window``).
    var waiting: Int { queue?.count ?? 0 }

    /// How many results the second thread made so far.
    var madeAhead: Int {
        lock.lock()
        defer { lock.unlock() }
        return madeOnThread
    }

    /// Stops the thread and waits for it (before what `work` reads is released).
    func stop() {
        queue?.cancel()
        queue?.join()
    }
}
