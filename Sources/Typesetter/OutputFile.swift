import Foundation

/// Writes a file all-or-nothing: the content goes to a temporary file beside the target, which
/// is renamed over the target only when complete. `-` means standard output.
///
/// A symbolic link is followed (the file it names is replaced, the link kept). A target that is
/// not a regular file — a device such as `/dev/stdout`, a FIFO — is written through, never
/// replaced: the temporary file then lives in the temporary folder and its bytes are copied in.
struct OutputFile {
    let target: String
    /// Where the finished file goes: the target with symbolic links resolved.
    let destination: String
    /// Where the renderer writes.
    let temporaryPath: String
    /// The destination is a device or FIFO: copy into it instead of renaming over it.
    let writesThrough: Bool

    init(target: String) throws {
        self.target = target
        let fileManager = FileManager.default
        if target == "-" {
            destination = "/dev/stdout"
            writesThrough = true
            temporaryPath = NSTemporaryDirectory() + "typeset-\(UUID().uuidString).pdf"
            TemporaryFiles.register(temporaryPath)
            return
        }
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
            temporaryPath = NSTemporaryDirectory() + "typeset-\(UUID().uuidString).pdf"
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
        temporaryPath = (folder as NSString).appendingPathComponent(".\(resolved.lastPathComponent).\(UUID().uuidString.prefix(8)).tmp")
        TemporaryFiles.register(temporaryPath)
    }

    /// Moves the finished temporary file into place (or copies it into a device, FIFO or
    /// standard output).
    /// - Throws: ``TypesetError/unwritableOutput(path:reason:)``.
    func commit() throws {
        defer { discard() }
        if writesThrough {
            guard let data = FileManager.default.contents(atPath: temporaryPath) else {
                throw TypesetError.unwritableOutput(path: target, reason: "temporary file vanished")
            }
            if target == "-" { FileHandle.standardOutput.write(data); return }
            guard let handle = FileHandle(forWritingAtPath: destination) else {
                throw TypesetError.unwritableOutput(path: target, reason: "cannot open for writing")
            }
            defer { try? handle.close() }
            do { try handle.write(contentsOf: data) } catch {
                throw TypesetError.unwritableOutput(path: target, reason: (error as NSError).localizedDescription)
            }
            return
        }
        if rename(temporaryPath, destination) != 0 {
            throw TypesetError.unwritableOutput(path: target, reason: String(cString: strerror(errno)))
        }
    }

    /// `url` with symbolic links followed, even one whose target does not exist yet (writing
    /// through it creates the target, as a shell redirection does). At most 16 links deep.
    static func followingLinks(_ url: URL) -> URL {
        var current = url
        for _ in 0..<16 {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: current.path) else { break }
            current = target.hasPrefix("/") ? URL(fileURLWithPath: target)
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
