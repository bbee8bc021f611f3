import DocumentModel
import Foundation
import MarkdownParser
import TestSupport
import Testing

@testable import Typesetter

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

        /// The synchronous in-memory render (in an asynchronous function the asynchronous
        /// overload is chosen).
        func renderInMemoryNow(_ markdown: String, options: RenderOptions) throws -> RenderedPDF {
            try Typesetter.render(markdown: markdown, options: options)
        }

        /// The in-memory renders have asynchronous overloads too (a server that wants bytes
        /// need not block its executor or write a file): the same bytes as the synchronous
        /// call, and a cancelled task's render, of Markdown, of a parsed document or of a file
        /// URL, throws `CancellationError` — a task cancelled beforehand at once, one cancelled
        /// a tenth of the way into a long render before it ends (the synchronous call, run in
        /// a task, ran to its end).
        @Test func theInMemoryRendersAreAsynchronousAndCancellable() async throws {
            var options = RenderOptions()
            options.creationDate = Date(timeIntervalSince1970: 0)
            let short = document(sections: 2)
            let awaited = try await Typesetter.render(markdown: short, options: options)
            #expect(awaited.data == (try renderInMemoryNow(short, options: options)).data)

            let folder = try Render.scratchFolder("async-memory")
            try short.write(toFile: folder + "/a.md", atomically: false, encoding: .utf8)
            let parsed = MarkdownParser.parse(short, file: "a.md")
            let beforehand: [@Sendable () async throws -> RenderedPDF] = [
                { try await Typesetter.render(markdown: short) },
                { try await Typesetter.render(document: parsed.document) },
                { try await Typesetter.render(contentsOf: URL(fileURLWithPath: folder + "/a.md")) },
            ]
            for render in beforehand {
                let task = Task {
                    withUnsafeCurrentTask { $0?.cancel() }
                    return try await render()
                }
                await #expect(throws: CancellationError.self) { try await task.value }
            }

            let long = document(sections: 40)
            var cancelled = false
            var wait = 0.1
            for _ in 0..<3 where !cancelled {
                let start = DispatchTime.now().uptimeNanoseconds
                _ = try await Typesetter.render(markdown: long)
                let whole = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                let task = Task { try await Typesetter.render(markdown: long) }
                let delay = whole * wait
                Thread {
                    Thread.sleep(forTimeInterval: delay)
                    task.cancel()
                }.start()
                if case .failure(let error) = await task.result {
                    #expect(error is CancellationError, "\(error)")
                    cancelled = true
                }
                wait /= 2
            }
            #expect(cancelled, "no attempt was still running when cancelled")
        }

        /// The in-memory render stops inside the parse once cancelled, as the render to a file
        /// does: with its cancellation raised before it starts, a render of a long list returns
        /// in a fraction of the time the parse alone takes (it parsed the whole text first).
        @Test func theInMemoryRenderStopsInsideTheParse() throws {
            let markdown = (1...60_000).map { "- item \($0) *e* `c` [l](#x)" }.joined(separator: "\n")
            var start = DispatchTime.now().uptimeNanoseconds
            _ = MarkdownParser.parse(markdown, file: "list.md")
            let parse = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            let cancellation = Cancellation()
            cancellation.cancel()
            var options = RenderOptions()
            options.cancellation = cancellation
            start = DispatchTime.now().uptimeNanoseconds
            #expect(throws: (any Error).self) { try renderInMemoryNow(markdown, options: options) }
            let cancelled = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            #expect(cancelled < parse * 0.3, "\(cancelled) s cancelled against \(parse) s to parse")
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
