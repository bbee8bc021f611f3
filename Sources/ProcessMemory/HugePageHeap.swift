import Foundation

/// Puts the free top of the process's heap on transparent huge pages (2 MiB each) before pages
/// are drawn, so the large blocks Cairo allocates while it draws and finishes a PDF fault in a
/// few huge pages instead of thousands of 4 KiB ones.
///
/// The blocks that matter: Cairo copies the whole `CFF ` table of each CFF face it embeds, once
/// to tell whether the face is CID-keyed (the first time a page draws it) and once to subset it
/// (when the file is finished) — 15.5 MB each for Noto Sans CJK KR, the fallback of every
/// default theme. On 4 KiB pages the two copies cost about 7,800 page faults, most of a one-page
/// render's page faults and a fifth of its time on a virtual machine.
///
/// glibc (malloc(3), mallopt(3)) serves a block above its mmap threshold (128 KiB at first,
/// raised to the size of each such block freed, at most 32 MiB) with a fresh mapping of its own,
/// and everything else from its heaps, the main thread's growing with `sbrk`. Linux backs
/// anonymous memory with huge pages only where asked (`madvise(MADV_HUGEPAGE)`) when
/// `/sys/kernel/mm/transparent_hugepage/enabled` is `[madvise]`, Debian's default. So on the main
/// thread, with that setting, this sets the mmap threshold to 32 MiB (what glibc itself moves
/// it to once such a block is freed), grows the heap by ``reserve`` at once, asks for huge pages
/// there, and keeps the heap from being trimmed below it. Memory not touched stays unallocated;
/// what is touched is allocated 2 MiB at a time. Elsewhere (another thread, whose blocks come
/// from an arena of its own; huge pages never or always; another C library, which lacks
/// `mallopt`) it does nothing. The output is the same either way.
///
/// A render asks only when it draws a face with a large `CFF ` table
/// (``CairoPDFRenderer/beforeLargeFontTableCopy``): before Cairo shows the first page that
/// draws it, and before the file is finished, after handing back what drawing freed
/// (`malloc_trim`, ``FreedMemory``, which also shrinks the heap to its last block in use), so
/// the second copy does not stack on the first. A document without such a face keeps 4 KiB
/// pages: small blocks spread over huge pages would only make it hold more memory.
package enum HugePageHeap {
    /// How much the heap grows by at once, bytes: room for the two copies of the largest
    /// installed CFF table beside what drawing keeps.
    static let reserve = 64 << 20
    /// The block that makes the heap grow, bytes: just under the mmap threshold, so no free
    /// block of a small document's heap has room for it and it comes from new heap.
    static let probe = 30 << 20
    /// The size of a transparent huge page on x86-64 and arm64 (4 KiB pages), bytes.
    static let hugePage = 2 << 20

    // glibc <malloc.h>.
    private static let trimThreshold: Int32 = -1, topPad: Int32 = -2, mmapThreshold: Int32 = -3
    /// glibc's default top pad (`DEFAULT_TOP_PAD`, 128 KiB), restored once the heap has grown.
    private static let defaultTopPad: Int32 = 128 << 10
    /// The largest mmap threshold glibc accepts on 64-bit systems (`DEFAULT_MMAP_THRESHOLD_MAX`).
    private static let largestMmapThreshold: Int32 = 32 << 20

    /// True when the kernel backs anonymous memory with huge pages only where a program asks
    /// (`[madvise]` in `/sys/kernel/mm/transparent_hugepage/enabled`).
    package static var hugePagesOnRequest: Bool {
        guard let setting = try? String(contentsOfFile: "/sys/kernel/mm/transparent_hugepage/enabled", encoding: .utf8)
        else { return false }
        return setting.contains("[madvise]")
    }

    /// True on the process's first thread, the one glibc serves from the heap `sbrk` grows (its
    /// main arena; Linux: the thread whose id is the process id).
    static var isMainThread: Bool {
        guard let gettid = GlibcFunctions.gettid else { return false }
        return gettid() == getpid()
    }

    /// Grows the heap's top by ``reserve`` on huge pages (see the type's description); returns
    /// the bytes asked for huge pages, 0 when it did nothing. Call on the thread that draws the
    /// pages, before Cairo makes its large copies.
    @discardableResult
    package static func prepare() -> Int {
        guard isMainThread, hugePagesOnRequest, let mallopt = GlibcFunctions.mallopt else { return 0 }
        guard mallopt(mmapThreshold, largestMmapThreshold) != 0, mallopt(trimThreshold, Int32(2 * reserve)) != 0,
            mallopt(topPad, Int32(reserve - probe)) != 0
        else { return 0 }
        defer { _ = mallopt(topPad, defaultTopPad) }
        // sbrk(2): the current end of the heap, or (void *) -1.
        let before = UInt(bitPattern: sbrk(0))
        guard before != UInt.max else { return 0 }
        // The heap grows by the block plus the top pad, ``reserve`` in all (the block's address
        // is read below, so the compiler keeps the allocation). Freed, it joins the top.
        guard let block = malloc(probe) else { return 0 }
        defer { free(block) }
        let end = UInt(bitPattern: sbrk(0))
        // Where the new top begins: the block, when it was cut from the top.
        let first = max(before, UInt(bitPattern: block))
        let start = (first + UInt(hugePage) - 1) & ~(UInt(hugePage) - 1)
        guard end != UInt.max, end > start, end - start >= UInt(hugePage),
            let address = UnsafeMutableRawPointer(bitPattern: start),
            madvise(address, Int(end - start), MADV_HUGEPAGE) == 0
        else { return 0 }
        return Int(end - start)
    }
}
