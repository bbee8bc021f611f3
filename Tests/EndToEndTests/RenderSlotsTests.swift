import Foundation
import TestSupport
import Testing

@testable import Typesetter

extension AsynchronousRenderSuites {
    /// ``RenderSlots``: as many asynchronous renders at once as there are slots, the others waiting
    /// in the order they asked, and a wait that its task cancels ending at once without a slot.
    @Suite struct RenderSlotsTests {
        /// The order in which waiting tasks were given a slot.
        final class Order: @unchecked Sendable {
            private let lock = NSLock()
            private var entered: [Int] = []
            func append(_ index: Int) { lock.withLock { entered.append(index) } }
            var values: [Int] { lock.withLock { entered } }
        }

        /// Polls `condition` every millisecond for up to 5 s; true when it held.
        func eventually(_ condition: () -> Bool) async -> Bool {
            for _ in 0..<5_000 {
                if condition() { return true }
                try? await Task.sleep(nanoseconds: 1_000_000)
            }
            return condition()
        }

        @Test func waitingRendersTakeTheirSlotsInTheOrderTheyAsked() async throws {
            let slots = RenderSlots(count: 2)
            try await slots.enter()
            try await slots.enter()
            #expect(slots.state.free == 0)
            let order = Order()
            var tasks: [Task<Void, any Error>] = []
            for index in 0..<3 {
                tasks.append(
                    Task {
                        try await slots.enter()
                        order.append(index)
                    })
                #expect(await eventually { slots.state.waiting == index + 1 }, "task \(index) waits")
            }
            #expect(order.values.isEmpty, "no task has a slot while both are held")
            for given in 1...3 {
                slots.leave()
                #expect(await eventually { order.values.count == given })
                #expect(order.values == Array(0..<given))
            }
            for task in tasks { try await task.value }
            slots.leave()
            slots.leave()
            #expect(slots.state.free == 2, "every slot comes back")
        }

        @Test func aCancelledWaitEndsAtOnceWithoutASlot() async throws {
            let slots = RenderSlots(count: 1)
            try await slots.enter()
            let waiter = Task { try await slots.enter() }
            #expect(await eventually { slots.state.waiting == 1 })
            waiter.cancel()
            await #expect(throws: CancellationError.self) { try await waiter.value }
            #expect(slots.state.waiting == 0 && slots.state.free == 0, "the cancelled wait took no slot")
            // A task cancelled before it asks never waits.
            let early = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                try await slots.enter()
            }
            await #expect(throws: CancellationError.self) { try await early.value }
            slots.leave()
            #expect(slots.state.free == 1 && slots.state.waiting == 0)
        }

        /// Renders from a `TaskGroup` beyond the process's processors wait for a slot: of eight
        /// started at once, some wait while others run.
        @Test func asynchronousRendersBeyondTheProcessorsWait() async throws {
            let folder = Scratch.uniquePath("slots")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let markdown = "# Slots\n\n" + String(repeating: "Words on a line of a paragraph. ", count: 400)
            var mostWaiting = 0
            let pages = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        try await Typesetter.render(markdown: markdown, file: "s.md", to: folder + "/\(index).pdf")
                            .pageCount
                    }
                }
                for _ in 0..<100 {
                    mostWaiting = max(mostWaiting, RenderSlots.shared.state.waiting)
                    try await Task.sleep(nanoseconds: 2_000_000)
                }
                return try await group.reduce(0, +)
            }
            #expect(pages >= 8, "every render wrote its pages")
            #expect(
                mostWaiting >= 1, "renders beyond the \(ProcessInfo.processInfo.activeProcessorCount) processors waited"
            )
        }
    }
}
