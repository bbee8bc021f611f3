import Foundation

/// Hands the memory freed by parsing and the survey back to the system before layout starts,
/// so the resident set while pages are drawn holds what is live, not the high-water mark of the
/// parse (cmark's tree and its conversion) on which layout's own memory would stack.
///
/// glibc keeps freed blocks in its arenas — the main heap and one per thread — and returns only
/// what sits at a heap's top; `malloc_trim(3)` "attempts to release free memory from the heap"
/// (every arena, whole free pages anywhere in it). The function is looked up at run time
/// (``GlibcFunctions``), so with another C library this does nothing. Because it reaches
/// every arena, it is called only for a render that owns its process
/// (`RenderOptions.tunesHeap`): beside other renders it would take their free pages too, each
/// to be faulted in again.
package enum FreedMemory {
    /// Releases free heap pages (glibc `malloc_trim(0)`); does nothing where it is missing.
    package static func release() {
        _ = GlibcFunctions.mallocTrim?(0)
    }

    /// glibc's `M_TRIM_THRESHOLD` and `M_MMAP_THRESHOLD` (`<malloc.h>`).
    private static let trimThresholdParameter: Int32 = -1, mmapThresholdParameter: Int32 = -3
    /// The size from which a block is mapped, bytes: the arrays that matter are megabytes,
    /// and blocks between glibc's initial threshold (128 KiB) and this one, many and short-lived,
    /// cost a system call and fresh pages each when mapped (100,000 footnote references:
    /// 0.3 s more system time at 128 KiB).
    static let largeBlock: Int32 = 1 << 20

    /// Serves every block of at least ``largeBlock`` bytes from a mapping of its own, returned
    /// to the system when the block is freed, and shrinks a heap only when at least twice that
    /// is free at its top, for the rest of the process. Returns whether glibc took the
    /// settings; elsewhere it does nothing and returns false.
    ///
    /// glibc starts with that threshold but raises it to the size of each mapped block freed,
    /// up to 32 MiB (mallopt(3), `M_MMAP_THRESHOLD`). A long paragraph's arrays (its runs, the
    /// line breaker's items and nodes) grow by doubling, so after the first few megabytes are
    /// freed the following copies come from the heap, and every size the arrays passed through
    /// stays in it as a free block no later array fits: 100,000 emphasis spans in one
    /// paragraph peaked at 195 MiB resident with an 83 MB heap. Setting the threshold turns
    /// that raising off, and with it the trim threshold's, which glibc sets to twice the mmap
    /// threshold each time it raises that, and otherwise leaves at 128 KiB: every thread's heap
    /// (Qt's and the highlighting library's too) was then handed back to the system whenever
    /// 128 KiB lay free at its top (`madvise(MADV_DONTNEED)`, 547 calls highlighting 500 code
    /// blocks) and faulted in again, zeroed, at its next growth. Twice ``largeBlock`` is the
    /// threshold glibc would have set for it. What stays free is handed back between stages
    /// (``release()``).
    @discardableResult
    package static func mapLargeBlocks() -> Bool {
        guard let mallopt = GlibcFunctions.mallopt else { return false }
        return mallopt(mmapThresholdParameter, largeBlock) != 0 && mallopt(trimThresholdParameter, 2 * largeBlock) != 0
    }
}
