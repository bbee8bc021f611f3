import Foundation

/// Reads a whole file for Typeset's inputs (Markdown, themes, design tokens), telling apart the
/// reasons a file cannot be read, so messages say what is wrong: `/tmp` "is a folder", a
/// missing file "no such file", and a device or FIFO such as `/dev/null` or `<(…)` is read
/// like any file (`/dev/null` is simply empty).
public enum FileReader {
    /// The bytes of `path`.
    /// - Throws: ``FileReader/Failure`` with a one-line reason: `no such file`, `it is a folder`,
    ///   `permission denied`, or the system's message (`strerror`) for anything else.
    public static func read(_ path: String) throws(Failure) -> Data {
        var info = stat()
        guard stat(path, &info) == 0 else { throw Failure(reason: reason(errno)) }
        if info.st_mode & S_IFMT == S_IFDIR { throw Failure(reason: "it is a folder") }
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw Failure(reason: reason(errno)) }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        do { return try handle.readToEnd() ?? Data() } catch { throw Failure(reason: reason(errno)) }
    }

    /// Why a file could not be read, in one line.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// E.g. `it is a folder`.
        public var reason: String
        /// The reason.
        public var description: String { reason }
    }

    static func reason(_ code: Int32) -> String {
        switch code {
        case ENOENT, ENOTDIR: "no such file"
        case EACCES, EPERM: "permission denied"
        case EISDIR: "it is a folder"
        default: String(cString: strerror(code))
        }
    }
}
