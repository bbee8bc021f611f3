import Foundation

/// Values worked out from texts (a code block's tokens, its runs), kept so that a document
/// styled twice — a survey pass for page numbers and links, then the pass that draws — and a
/// block repeated in a document do the work once. Holds at most ``capacity`` bytes of text
/// (what each entry's `size` says); when full it starts over. Safe from any thread.
package final class TextKeyedCache<Key: Hashable, Value>: @unchecked Sendable {
    /// Bytes of text the cache holds at most; an entry of more than an eighth of it is not kept.
    package let capacity: Int
    private var entries: [Key: Value] = [:]
    private var bytes = 0
    private let lock = NSLock()

    /// An empty cache of at most `capacity` bytes of text.
    package init(capacity: Int) {
        self.capacity = capacity
    }

    /// The value kept for `key`, if any.
    package func value(for key: Key) -> Value? {
        lock.withLock { entries[key] }
    }

    /// Keeps `value` for `key`, whose text is `size` bytes.
    package func store(_ value: Value, for key: Key, size: Int) {
        guard size <= capacity / 8 else { return }
        lock.withLock {
            if bytes + size > capacity {
                entries.removeAll(keepingCapacity: true)
                bytes = 0
            }
            entries[key] = value
            bytes += size
        }
    }
}
