import Foundation
import Testing

@testable import Typography

/// A render's temporary files in the shared temporary folder are new files only their owner
/// reads (0600, `O_EXCL`): a render killed before it removes its file leaves no page another
/// user can read, and no file or link put there first is written through. Beside the target
/// they are made as the file renamed into place is (0666 before the umask).
@Suite struct TemporaryFileModeTests {
    /// The permission bits of `path`.
    func mode(_ path: String) throws -> mode_t {
        var status = stat()
        try #require(stat(path, &status) == 0)
        return status.st_mode & 0o777
    }

    @Test func filesInTheSharedTemporaryFolderAreNewAndPrivate() throws {
        let path = NSTemporaryDirectory() + "typeset-mode-\(UUID().uuidString).pdf"
        defer { unlink(path) }
        let descriptor = TemporaryFiles.openNew(path)
        try #require(descriptor >= 0)
        close(descriptor)
        #expect(try mode(path) == 0o600)
        // A second opening of the same name (a file or link put there first) is refused.
        #expect(TemporaryFiles.openNew(path) == -1 && errno == EEXIST)
        let link = NSTemporaryDirectory() + "typeset-mode-link-\(UUID().uuidString).pdf"
        defer { unlink(link) }
        try #require(symlink(path, link) == 0)
        #expect(TemporaryFiles.openNew(link) == -1)
    }

    @Test func filesBesideTheTargetTakeTheUsualMode() throws {
        let folder = NSTemporaryDirectory() + "typeset-mode-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/.out.pdf.tmp"
        let mask = umask(0o022)
        defer { umask(mask) }
        let descriptor = TemporaryFiles.openNew(path)
        try #require(descriptor >= 0)
        close(descriptor)
        #expect(try mode(path) == 0o644)
    }
}
