import Foundation
import Typography

/// Writes a file all-or-nothing: the content goes to a temporary file beside the target, which
/// is renamed over the target only when complete. `-` means standard output.
///
/// A symbolic link is followed (the file it names is replaced, the link kept). A target that is
/// not a regular file — a device, a FIFO, `/dev/stdout` on a pipe, socket or terminal — is
/// written through, never replaced: the temporary file then lives in the temporary folder and
/// its bytes are copied in (into the open descriptor itself for `/dev/stdout`, `/dev/fd/N`).
/// A target ending in `/` names a folder and is refused.
struct OutputFile {
    let target: String
    /// Where the finished file goes: the target with symbolic links resolved.
    let destination: String
    /// Where the renderer writes.
    let temporaryPath: String
    /// The destination is a device or FIFO: copy into it instead of renaming over it.
    let writesThrough: Bool

    /// The open file descriptor a write-through target names — `-`, `/dev/stdout`,
    /// `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N` — written to directly: a pipe, socket,
    /// FIFO or terminal on it cannot be replaced, and a socket cannot be opened again by path.
    let descriptor: Int32?

    /// Prepares to write `target`.
    /// - Throws: ``TypesetError/unwritableOutput(path:reason:)`` when `target` is or names a
    ///   folder (`out/`), its folder is missing or not writable, or a device is not writable.
    init(target: String) throws {
        self.target = target
        let fileManager = FileManager.default
        if target == "-" {
            destination = "/dev/stdout"
            writesThrough = true
            descriptor = STDOUT_FILENO
            temporaryPath = OutputFile.temporaryFolderPath()
            TemporaryFiles.register(temporaryPath)
            return
        }
        if target.hasSuffix("/") {
            throw TypesetError.unwritableOutput(path: target, reason: "it names a folder; give a file name")
        }
        // POSIX `stat` follows every link, /proc's too: `/dev/stdout` on a pipe is a FIFO here,
        // though the link itself reads `pipe:[…]`, which names no file.
        var followed = stat()
        if stat(target, &followed) == 0 {
            let type = followed.st_mode & S_IFMT
            if type == S_IFDIR { throw TypesetError.unwritableOutput(path: target, reason: "it is a folder") }
            let named = OutputFile.openDescriptor(named: target)
            if type != S_IFREG || named != nil {
                guard access(target, W_OK) == 0 else {
                    throw TypesetError.unwritableOutput(path: target, reason: "permission denied")
                }
                destination = target
                writesThrough = true
                descriptor = named
                temporaryPath = OutputFile.temporaryFolderPath()
                TemporaryFiles.register(temporaryPath)
                return
            }
        }
        descriptor = nil
        let resolved = OutputFile.followingLinks(URL(fileURLWithPath: target))
        destination = resolved.path
        // The file type from POSIX `lstat` (what `FileManager.attributesOfItem` reads too,
        // without also looking up the owner's user and group names in /etc/passwd and /etc/group).
        var status = stat()
        let type: mode_t? = lstat(destination, &status) == 0 ? status.st_mode & S_IFMT : nil
        if type == S_IFDIR { throw TypesetError.unwritableOutput(path: target, reason: "it is a folder") }
        writesThrough = type != nil && type != S_IFREG
        if writesThrough {
            guard fileManager.isWritableFile(atPath: destination) else {
                throw TypesetError.unwritableOutput(path: target, reason: "permission denied")
            }
            temporaryPath = OutputFile.temporaryFolderPath()
            TemporaryFiles.register(temporaryPath)
            return
        }
        let folder = resolved.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw TypesetError.unwritableOutput(path: target, reason: "folder '\(folder)' does not exist")
        }
        guard fileManager.isWritableFile(atPath: folder) else {
            throw TypesetError.unwritableOutput(path: target, reason: "folder '\(folder)' is not writable")
        }
        let tag = UUID().uuidString.prefix(8)
        let temporaryName = TemporaryName.hidden(resolved.lastPathComponent, suffix: ".\(tag).tmp")
        temporaryPath = (folder as NSString).appendingPathComponent(temporaryName)
        TemporaryFiles.register(temporaryPath)
    }

    /// A fresh name in the temporary folder (for a target that is written through).
    static func temporaryFolderPath() -> String {
        NSTemporaryDirectory() + "typeset-\(UUID().uuidString).pdf"
    }

    /// The descriptor number `path` names as an already open file: 1 for `/dev/stdout`, 2 for
    /// `/dev/stderr`, N for `/dev/fd/N` and `/proc/self/fd/N` (Linux `proc(5)`); nil otherwise.
    static func openDescriptor(named path: String) -> Int32? {
        switch path {
        case "/dev/stdout": return STDOUT_FILENO
        case "/dev/stderr": return STDERR_FILENO
        default:
            for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
                return Int32(path.dropFirst(prefix.count))
            }
            return nil
        }
    }

    /// Moves the finished temporary file into place (or copies it into a device, FIFO or
    /// standard output).
    /// - Throws: ``TypesetError/unwritableOutput(path:reason:)``.
    func commit() throws {
        defer { discard() }
        if writesThrough {
            // The temporary file is unlinked before the first byte goes out: a reader that
            // closes the pipe early (SIGPIPE) or a signal then leaves nothing behind.
            let source = open(temporaryPath, O_RDONLY | O_CLOEXEC)
            guard source >= 0 else {
                throw TypesetError.unwritableOutput(path: target, reason: "temporary file vanished")
            }
            defer { close(source) }
            discard()
            var sink = descriptor ?? -1
            if descriptor == nil {
                sink = open(destination, O_WRONLY | O_CLOEXEC)
                guard sink >= 0 else {
                    throw TypesetError.unwritableOutput(
                        path: target, reason: "cannot open for writing: \(String(cString: strerror(errno)))")
                }
            }
            defer { if descriptor == nil { close(sink) } }
            if let reason = Self.copy(from: source, to: sink) {
                throw TypesetError.unwritableOutput(path: target, reason: reason)
            }
            return
        }
        if rename(temporaryPath, destination) != 0 {
            throw TypesetError.unwritableOutput(path: target, reason: String(cString: strerror(errno)))
        }
    }

    /// Copies everything `source` reads to `sink` (`write(2)` until each piece is out,
    /// retried on EINTR); the failure's `strerror` text, or nil when all went out.
    static func copy(from source: Int32, to sink: Int32) -> String? {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            if count == 0 { return nil }
            if count < 0 {
                if errno == EINTR { continue }
                return String(cString: strerror(errno))
            }
            var written = 0
            while written < count {
                let bytesWritten = buffer.withUnsafeBytes { write(sink, $0.baseAddress! + written, count - written) }
                if bytesWritten < 0 {
                    if errno == EINTR { continue }
                    return String(cString: strerror(errno))
                }
                written += bytesWritten
            }
        }
    }

    /// `url` with symbolic links followed, even one whose target does not exist yet (writing
    /// through it creates the target, as a shell redirection does). At most 16 links deep.
    static func followingLinks(_ url: URL) -> URL {
        var current = url
        for _ in 0..<16 {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: current.path) else { break }
            current =
                target.hasPrefix("/")
                ? URL(fileURLWithPath: target)
                : current.deletingLastPathComponent().appendingPathComponent(target).standardizedFileURL
        }
        return current
    }

    /// Removes the temporary file (after a failure, or after commit).
    func discard() {
        try? FileManager.default.removeItem(atPath: temporaryPath)
        TemporaryFiles.forget(temporaryPath)
    }
}
