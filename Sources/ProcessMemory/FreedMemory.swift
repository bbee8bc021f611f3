import Foundation

/// Hands the memory freed by parsing and the survey back to the system before layout starts,
/// so the resident set while pages are drawn holds what is live, not the high-water mark of the
/// parse (cmark's tree and its conversion) on which layout's own memory would stack.
///
/// glibc keeps freed blocks in its arenas — the main heap and one per thread — and returns only
/// what sits at a heap's top; `malloc_trim(3)` "attempts to release free memory from the heap"
/// (every arena, whole free pages anywhere in it). The function is looked up at run time, so
/// with another C library this does nothing.
package enum FreedMemory {
    private typealias Trim = @convention(c) (Int) -> Int32

    /// Releases free heap pages (glibc `malloc_trim(0)`); does nothing where it is missing.
    package static func release() {
        // RTLD_DEFAULT (a null handle): search every loaded library.
        guard let symbol = dlsym(nil, "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: Trim.self)(0)
    }
}
