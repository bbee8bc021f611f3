import Foundation

/// The lock every creation of a temporary output file holds (a PDF's, each page picture's),
/// so that removing a run's temporary files on a signal cannot miss one created while they
/// are listed: the remover takes the lock first and keeps it until the process exits.
public enum FileCreation {
    private static let lock = NSLock()

    /// Runs `body`, which creates or writes a temporary file, while no removal is under way.
    /// - Throws: what `body` throws.
    public static func perform<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// Waits for any creation under way to end and stops every later one for good: the
    /// caller removes the temporary files and ends the process.
    public static func stopForever() {
        lock.lock()
    }
}
