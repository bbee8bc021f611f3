import Foundation

/// Writes a file all-or-nothing: the content goes to a temporary file beside the target, which
/// is renamed over the target only when complete. `-` means standard output.
struct OutputFile {
    let target: String
    /// Where the renderer writes.
    let temporaryPath: String

    init(target: String) throws {
        self.target = target
        if target == "-" {
            temporaryPath = NSTemporaryDirectory() + "typeset-\(UUID().uuidString).pdf"
            return
        }
        let url = URL(fileURLWithPath: target)
        let folder = url.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw TypesetError.unwritableOutput(path: target, reason: "folder '\(folder)' does not exist")
        }
        if FileManager.default.fileExists(atPath: target, isDirectory: &isDirectory), isDirectory.boolValue {
            throw TypesetError.unwritableOutput(path: target, reason: "it is a folder")
        }
        guard FileManager.default.isWritableFile(atPath: folder) else {
            throw TypesetError.unwritableOutput(path: target, reason: "folder '\(folder)' is not writable")
        }
        temporaryPath = (folder as NSString).appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString.prefix(8)).tmp")
    }

    /// Moves the finished temporary file into place (or copies it to standard output).
    func commit() throws {
        defer { discard() }
        if target == "-" {
            guard let data = FileManager.default.contents(atPath: temporaryPath) else {
                throw TypesetError.unwritableOutput(path: "-", reason: "temporary file vanished")
            }
            FileHandle.standardOutput.write(data)
            return
        }
        if rename(temporaryPath, target) != 0 {
            throw TypesetError.unwritableOutput(path: target, reason: String(cString: strerror(errno)))
        }
    }

    /// Removes the temporary file (after a failure, or after commit).
    func discard() { try? FileManager.default.removeItem(atPath: temporaryPath) }
}
