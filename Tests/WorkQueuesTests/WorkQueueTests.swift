import Foundation
import Testing
import WorkQueues

/// The queue that hands work from one thread to another: elements arrive in the order they were
/// put, no more than its capacity wait, a producer or consumer waiting is woken by the other
/// side ending the queue, and a producer's error reaches the consumer after what came before it.
@Suite struct WorkQueueTests {
    struct Failure: Error, Equatable { var at: Int }

    /// Waits up to 5 s for `condition`, checking every millisecond.
    static func eventually(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(5)
        while !condition() {
            if Date() > deadline { return false }
            usleep(1_000)
        }
        return true
    }

    @Test func elementsArriveInTheOrderTheyWerePut() throws {
        let queue = WorkQueue<Int>(capacity: 3)
        queue.startProducer { queue in
            for value in 0..<10_000 { queue.put(value * 7) }
        }
        var received: [Int] = []
        while let value = try queue.take() { received.append(value) }
        queue.join()
        #expect(received == (0..<10_000).map { $0 * 7 })
    }

    /// A queue of `capacity` whose producer thread puts 0..<`count`, counting each put done.
    static func counting(capacity: Int, count: Int) -> (queue: WorkQueue<Int>, progress: Counter) {
        let queue = WorkQueue<Int>(capacity: capacity)
        let progress = Counter()
        queue.startProducer { queue in
            for value in 0..<count {
                queue.put(value)
                progress.increment()
            }
        }
        return (queue, progress)
    }

    @Test func theProducerWaitsOnceCapacityElementsWait() throws {
        let capacity = 4
        let (queue, progress) = Self.counting(capacity: capacity, count: 20)
        // Nothing is taken: the producer puts `capacity` elements and waits for room.
        #expect(Self.eventually { progress.value == capacity })
        usleep(50_000)
        #expect(progress.value == capacity)
        #expect(queue.count == capacity)
        // Each element taken makes room for one more, never more than `capacity` waiting.
        var received: [Int] = []
        while let value = try queue.take() {
            received.append(value)
            #expect(queue.count <= capacity)
        }
        queue.join()
        #expect(received == Array(0..<20))
    }

    /// A producer waiting for room goes on only once the queue has fallen to half its
    /// capacity, then fills it again: one wake for every `capacity / 2` elements taken.
    @Test func aWaitingProducerGoesOnAtHalfCapacity() throws {
        let capacity = 8
        let (queue, progress) = Self.counting(capacity: capacity, count: 40)
        #expect(Self.eventually { progress.value == capacity })
        // Three taken: five wait, more than half, and the producer is not woken.
        for _ in 0..<3 { _ = try queue.take() }
        usleep(50_000)
        #expect(progress.value == capacity && queue.count == capacity - 3)
        // The fourth leaves half: the producer fills the queue again.
        _ = try queue.take()
        #expect(Self.eventually { queue.count == capacity && progress.value == capacity + 4 })
        var received: [Int] = []
        while let value = try queue.take() { received.append(value) }
        queue.join()
        #expect(received == Array(4..<40))
    }

    @Test func closingWakesAConsumerWaitingForAnElement() throws {
        let queue = WorkQueue<Int>(capacity: 2)
        let taken = Counter()
        let ended = Counter()
        let consumer = Thread {
            while (try? queue.take()) != nil { taken.increment() }
            ended.increment()
        }
        consumer.start()
        queue.put(1)
        #expect(Self.eventually { taken.value == 1 })
        usleep(20_000)
        // The consumer waits for an element; closing ends its wait with the end of the queue.
        #expect(ended.value == 0)
        queue.close()
        #expect(Self.eventually { ended.value == 1 })
        #expect(taken.value == 1)
        #expect(!queue.put(2), "nothing is put after the end")
    }

    @Test func cancellingWakesAProducerWaitingForRoom() {
        let queue = WorkQueue<Int>(capacity: 2)
        let refused = Counter()
        queue.startProducer { queue in
            for value in 0..<1_000 where !queue.put(value) {
                refused.increment()
                return
            }
        }
        #expect(Self.eventually { queue.count == 2 })
        // The producer waits for room; cancelling tells it to stop, and its thread ends.
        queue.cancel()
        queue.join()
        #expect(refused.value == 1)
        #expect(queue.count == 0, "what waited is dropped")
        #expect((try? queue.take()) == .some(nil), "a cancelled queue gives nothing more")
    }

    @Test func theProducersErrorArrivesAfterTheElementsBeforeIt() {
        let queue = WorkQueue<Int>(capacity: 2)
        queue.startProducer { queue in
            for value in 0..<5 { queue.put(value) }
            throw Failure(at: 5)
        }
        var received: [Int] = []
        var caught: Failure?
        do {
            while let value = try queue.take() { received.append(value) }
        } catch let error as Failure {
            caught = error
        } catch {}
        queue.join()
        #expect(received == Array(0..<5))
        #expect(caught == Failure(at: 5))
    }

    @Test func aProducerInTheCallersThreadNeedsNoThread() throws {
        // Put and take from one thread: the capacity is room enough for what is put first.
        let queue = WorkQueue<String>(capacity: 3)
        #expect(queue.put("a") && queue.put("b") && queue.put("c"))
        #expect(try queue.take() == "a")
        #expect(queue.put("d"))
        queue.close(throwing: Failure(at: 4))
        #expect(try queue.take() == "b")
        #expect(try queue.take() == "c")
        #expect(try queue.take() == "d")
        #expect(throws: Failure(at: 4)) { try queue.take() }
        queue.join()
    }

    /// A count shared between threads.
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        var value: Int {
            lock.lock()
            defer { lock.unlock() }
            return count
        }
        func increment() {
            lock.lock()
            count += 1
            lock.unlock()
        }
    }
}
