import Foundation

/// Reading a string's UTF-8 bytes at the speed of a buffer.
///
/// Stepping through `String.utf8` one byte at a time (`for byte in text.utf8`,
/// `text.utf8.contains(_:)`) costs about 30 instructions a byte in optimized Swift 6.3 code: the
/// view's iterator checks the string's representation at every step. A pointer into the
/// string's own storage costs a few, and `memchr(3)` a fraction of one. The text passes that
/// read every paragraph (smart punctuation, inline syntax, emoji shortcodes) read through these.
extension String {
    /// Calls `body` with the string's UTF-8 bytes in contiguous memory — the string's own
    /// storage when it has one (every native Swift string), else a copy — and returns what
    /// `body` returns. The buffer is valid only during the call.
    @inlinable
    public func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        if let result = try utf8.withContiguousStorageIfAvailable(body) { return result }
        return try Array(utf8).withUnsafeBufferPointer(body)
    }

    /// Whether the string's UTF-8 encoding holds `byte` (found with `memchr(3)`). For an ASCII
    /// byte this is whether the string holds that character, since no byte of a multi-byte
    /// UTF-8 sequence is below 0x80.
    @inlinable
    public func containsUTF8Byte(_ byte: UInt8) -> Bool {
        withUTF8Bytes { bytes in
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return false }
            return memchr(base, Int32(byte), bytes.count) != nil
        }
    }
}
