import Foundation
import TestSupport
import Testing
import Typesetter

extension AsynchronousRenderSuites {
    /// `try await Typesetter.render(markdown:file:to:options:)`: the same PDF as the synchronous
    /// call, and a cancelled task's render stops between blocks and pages, throws
    /// `CancellationError` and leaves no file (neither the output nor its temporary file).
    @Suite(.serialized) struct AsyncRenderTests {
        /// A document of `sections` sections of prose (about a page and a half each).
        func document(sections: Int) -> String { "# Long\n\n" + Prose.sections(sections) }

        /// The synchronous render (in an asynchronous function the asynchronous overload is chosen).
        func renderNow(_ markdown: String, to output: String, options: RenderOptions = RenderOptions()) throws {
            _ = try Typesetter.render(markdown: markdown, file: "a.md", to: output, options: options)
        }

        /// The asynchronous render writes what the synchronous one writes.
        @Test func theAsynchronousRenderWritesTheSamePDF() async throws {
            let folder = try Render.scratchFolder("async-same")
            var options = RenderOptions()
            options.creationDate = Date(timeIntervalSince1970: 0)
            let markdown = document(sections: 4)
            try renderNow(markdown, to: folder + "/sync.pdf", options: options)
            let awaited = try await Typesetter.render(
                markdown: markdown, file: "a.md", to: folder + "/async.pdf", options: options)
            #expect(awaited.pageCount > 1)
            let sync = try Data(contentsOf: URL(fileURLWithPath: folder + "/sync.pdf"))
            let async = try Data(contentsOf: URL(fileURLWithPath: folder + "/async.pdf"))
            #expect(sync == async, "the same bytes")
        }

        /// A long render cancelled a tenth of the way in (a twentieth, a fortieth when it was done
        /// by then) throws `CancellationError` and leaves no file. How soon it returns is printed
        /// as a share of a whole render timed just before, not bounded: the render sees the
        /// cancellation at its next block or page, but shares the cores with whatever else runs
        /// (while Pango and Cairo work took turns across renders, beside other suites that shape
        /// paragraphs of 100,000 runs in one turn it waited 6 whole renders in CI, against 0.17 to
        /// 0.19 beside 17 ordinary suites and under 0.1 alone).
        @Test(.slow) func aCancelledRenderStopsSoonAndLeavesNothing() async throws {
            let folder = try Render.scratchFolder("async-cancel")
            let markdown = document(sections: 40)
            let output = folder + "/cancelled.pdf"
            var share = Double.infinity
            var cancelled = 0
            var wait = 0.1
            for _ in 0..<3 where cancelled == 0 {
                var start = DispatchTime.now().uptimeNanoseconds
                _ = try await Typesetter.render(markdown: markdown, file: "long.md", to: folder + "/whole.pdf")
                let whole = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                try FileManager.default.removeItem(atPath: folder + "/whole.pdf")
                let task = Task { try await Typesetter.render(markdown: markdown, file: "long.md", to: output) }
                // A thread of its own cancels the task on time: beside other suites the
                // concurrency pool's threads can be busy for seconds, and a `Task.sleep` here woke
                // after the render had ended.
                let cancelledAt = Locked(UInt64(0))
                let delay = whole * wait
                Thread {
                    Thread.sleep(forTimeInterval: delay)
                    cancelledAt.value = DispatchTime.now().uptimeNanoseconds
                    task.cancel()
                }.start()
                let result = await task.result
                start = cancelledAt.value
                let afterCancel = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                if case .success = result {
                    // Done before the cancellation reached it.
                    try FileManager.default.removeItem(atPath: output)
                    wait /= 2
                    continue
                }
                #expect(throws: CancellationError.self) { try result.get() }
                cancelled += 1
                share = min(share, afterCancel / whole)
                print("async cancellation: returned \(afterCancel) s after cancel; whole render \(whole) s")
            }
            #expect(cancelled > 0, "no attempt was still running when cancelled")
            print("async cancellation: returned after \(share) of a whole render's time")
            let left = try FileManager.default.contentsOfDirectory(atPath: folder)
            #expect(left.isEmpty, "left behind: \(left)")
        }

        /// Documents of one long block each, whose layout was one step the render did not look
        /// up from: a table (its measuring pass over every row, then its rows), a paragraph (its
        /// measuring, preparing and line breaking) and a code block (its parts measured to fit).
        static let longBlocks: [(name: String, markdown: String)] = [
            (
                "table",
                "| n | a | b |\n|---|---|---|\n"
                    + (0..<2500).map { "| \($0) | \(Prose.words[$0 % 10]) cell | \(Prose.words[$0 % 7]) more |\n" }
                    .joined()
            ),
            ("paragraph", Prose.paragraph(bytes: 160_000)),
            (
                "code",
                "```\n" + (0..<12_000).map { "let line\($0) = \"\(Prose.words[$0 % 10])\" // \($0)\n" }.joined()
                    + "```\n"
            ),
        ]

        /// A render cancelled inside one long block stops inside it (``Cancellation`` is read by
        /// the table's measuring pass and each row it places, by each stage of a paragraph's
        /// composition, and by each part of a code block measured), not when the block is done.
        /// Each document is rendered whole, then cancelled at six points from a tenth to four
        /// fifths of the way in; the latest return after a cancellation must come within an
        /// eighth of the whole render (0.05 to 0.09 of it; before the checks, a table returned
        /// after 0.41 of it, a paragraph after 0.51, a code block after 0.15).
        @Test(.slow, arguments: longBlocks.indices) func aRenderCancelledInsideOneLongBlockStopsInsideIt(
            index: Int
        ) async throws {
            let (name, markdown) = Self.longBlocks[index]
            let folder = try Render.scratchFolder("async-cancel-\(name)")
            var start = DispatchTime.now().uptimeNanoseconds
            _ = try await Typesetter.render(markdown: markdown, file: "\(name).md", to: folder + "/whole.pdf")
            let whole = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            try FileManager.default.removeItem(atPath: folder + "/whole.pdf")
            var latest = 0.0
            var cancelled = 0
            for share in [0.1, 0.2, 0.35, 0.5, 0.65, 0.8] {
                let task = Task {
                    try await Typesetter.render(markdown: markdown, file: "\(name).md", to: folder + "/cancelled.pdf")
                }
                let cancelledAt = Locked(UInt64(0))
                Thread {
                    Thread.sleep(forTimeInterval: whole * share)
                    cancelledAt.value = DispatchTime.now().uptimeNanoseconds
                    task.cancel()
                }.start()
                let result = await task.result
                start = cancelledAt.value
                let afterCancel = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                if case .success = result {
                    try FileManager.default.removeItem(atPath: folder + "/cancelled.pdf")
                    continue
                }
                #expect(throws: CancellationError.self) { try result.get() }
                cancelled += 1
                latest = max(latest, afterCancel)
            }
            print(
                "async cancellation inside a long \(name): returned \(latest) s after cancel; whole render \(whole) s")
            #expect(cancelled > 0, "no attempt was still running when cancelled")
            #expect(latest < whole / 8, "returned \(latest) s after cancellation; the whole render takes \(whole) s")
            let left = try FileManager.default.contentsOfDirectory(atPath: folder)
            #expect(left.isEmpty, "left behind: \(left)")
        }

        /// A task cancelled before the render starts throws at once and writes nothing.
        @Test func aTaskCancelledBeforehandWritesNothing() async throws {
            let folder = try Render.scratchFolder("async-before")
            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await Typesetter.render(markdown: "# Hi\n", file: "a.md", to: folder + "/a.pdf")
            }
            await #expect(throws: CancellationError.self) { try await task.value }
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
        }
    }

    /// A value read and written from several threads under a lock.
    final class Locked<Value: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: Value
        init(_ value: Value) { stored = value }
        var value: Value {
            get { lock.withLock { stored } }
            set { lock.withLock { stored = newValue } }
        }
    }
}
