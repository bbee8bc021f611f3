import Foundation

/// The temporary files a run is writing (the PDF before it is renamed into place, the tagging
/// pass's rewritten copy, the picture files of a preview), so that an interrupted run can
/// remove them: SIGINT (Ctrl-C), SIGTERM (`timeout`, `kill`), SIGHUP (the terminal closed) or
/// SIGQUIT never leaves a `.out.pdf.XXXX.tmp` behind.
///
/// Every creation of such a file runs inside ``creating(_:)``, and the removal holds the same
/// lock until the process exits, so a file cannot be created between the removal's listing
/// and the exit.
package enum TemporaryFiles {
    private final class Registry: @unchecked Sendable {
        let lock = NSLock()
        /// Held while a temporary file is created, and for good once the removal began.
        let creation = NSLock()
        var paths: Set<String> = []
        var patterns: Set<Pattern> = []
    }

    /// Files named `prefix…suffix` in `folder`: the per-page temporary files of a preview,
    /// whose names are known only as each page is drawn.
    package struct Pattern: Hashable {
        /// The folder the files are in (`.` for the current folder).
        package var folder: String
        /// How each name starts and ends.
        package var prefix: String, suffix: String

        /// Files named `prefix…suffix` in `folder`.
        package init(folder: String, prefix: String, suffix: String) {
            self.folder = folder
            self.prefix = prefix
            self.suffix = suffix
        }
    }
    private static let registry = Registry()

    /// Opens the temporary file `path` for writing. In the shared temporary folder (`TMPDIR`,
    /// else `/tmp`): a new file, refusing one that exists (`O_EXCL`, so no file or link another
    /// user put there first is written through), readable by its owner alone (0600), since a
    /// render killed before it can remove its file would otherwise leave the document's pages
    /// for any user to read. Elsewhere (beside the target): created or truncated, 0666 before
    /// the umask, as the file renamed into place is made. Run inside ``creating(_:)``.
    /// - Returns: the descriptor, or -1 with `errno` set.
    package static func openNew(_ path: String) -> Int32 {
        let folder = ((path as NSString).deletingLastPathComponent as NSString).standardizingPath
        guard folder == (NSTemporaryDirectory() as NSString).standardizingPath else {
            return open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        }
        return open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    }

    /// Remembers `path` until ``forget(_:)``.
    package static func register(_ path: String) {
        registry.lock.lock()
        defer { registry.lock.unlock() }
        registry.paths.insert(path)
    }

    /// Stops remembering `path` (it was renamed into place or removed).
    package static func forget(_ path: String) {
        registry.lock.lock()
        defer { registry.lock.unlock() }
        registry.paths.remove(path)
    }

    /// Remembers every file `pattern` matches until ``forget(pattern:)``.
    package static func register(pattern: Pattern) {
        registry.lock.lock()
        defer { registry.lock.unlock() }
        registry.patterns.insert(pattern)
    }

    /// Stops remembering `pattern` (the run that writes such files ended).
    package static func forget(pattern: Pattern) {
        registry.lock.lock()
        defer { registry.lock.unlock() }
        registry.patterns.remove(pattern)
    }

    /// Runs `body`, which creates a temporary file (or writes one whole), while no removal is
    /// under way.
    /// - Throws: what `body` throws.
    package static func creating<T>(_ body: () throws -> T) rethrows -> T {
        registry.creation.lock()
        defer { registry.creation.unlock() }
        return try body()
    }

    /// Unlinks every remembered file (from a Dispatch queue the signal sources run on, not
    /// inside a signal handler) and stops every later creation for good, so that a page
    /// picture begun while its folder is listed is not left behind: the caller exits.
    package static func removeAllBeforeExit() {
        registry.creation.lock()
        registry.lock.lock()
        defer { registry.lock.unlock() }
        for path in registry.paths { unlink(path) }
        registry.paths.removeAll()
        for pattern in registry.patterns {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: pattern.folder)) ?? []
            for name in names where name.hasPrefix(pattern.prefix) && name.hasSuffix(pattern.suffix) {
                unlink((pattern.folder as NSString).appendingPathComponent(name))
            }
        }
        registry.patterns.removeAll()
    }
}
