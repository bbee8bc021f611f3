import Foundation

/// The font files in a folder and its subfolders, found without reading anything that is not
/// a folder or a regular file: fontconfig's own scan (`FcConfigAppFontAddDir`) opens every
/// entry, so a folder holding a FIFO waits forever, one under /proc never ends, and a
/// symbolic link to a parent loops.
///
/// - Symbolic links are followed, but a folder is entered once (by its device and inode
///   numbers), so links that loop are walked once.
/// - Nothing under /proc, /sys or /dev is entered (the kernel's process, device and driver
///   files, of which some never end or block when read): a folder given there is refused, a
///   link into them skipped.
/// - Only regular files of at most ``FileReader/fontLimit`` bytes are kept; FIFOs, devices and
///   sockets are skipped unopened.
/// - The walk stops at ``maxDepth`` levels and ``maxEntries`` entries looked at.
public enum FontFolderScan {
    /// The deepest subfolder level entered (the folder itself is level 0).
    public static let maxDepth = 16
    /// The most folder entries looked at in one scan.
    public static let maxEntries = 200_000

    /// What a scan found: the font files, and the entries it passed over and why.
    public struct Result: Sendable {
        /// Regular files, in the order found (folders sorted by name).
        public var files: [String] = []
        /// Whether the walk stopped at ``maxEntries`` or ``maxDepth``.
        public var truncated = false
    }

    /// The font files under `folder`.
    /// - Throws: ``FileReader/Failure`` when `folder` is not a folder (`it is a FIFO (named
    ///   pipe), not a folder`), is under /proc, /sys or /dev, or cannot be read.
    public static func scan(_ folder: String) throws(FileReader.Failure) -> Result {
        var info = stat()
        guard stat(folder, &info) == 0 else { throw FileReader.Failure(reason: FileReader.reason(errno)) }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            let kind = FileReader.nonRegularKind(info.st_mode) ?? "a file"
            throw FileReader.Failure(reason: "it is \(kind), not a folder")
        }
        if let system = systemFolder(folder) {
            throw FileReader.Failure(reason: "it is in \(system), the kernel's files, not a folder of fonts")
        }
        guard access(folder, R_OK | X_OK) == 0 else { throw FileReader.Failure(reason: "permission denied") }
        var result = Result()
        var visited = Set<FileIdentity>()
        var entries = 0
        walk(folder, depth: 0, identity: FileIdentity(info), visited: &visited, entries: &entries, into: &result)
        return result
    }

    struct FileIdentity: Hashable {
        var device: UInt64
        var inode: UInt64
        init(_ info: stat) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        }
    }

    private static func walk(
        _ folder: String, depth: Int, identity: FileIdentity, visited: inout Set<FileIdentity>,
        entries: inout Int, into result: inout Result
    ) {
        guard visited.insert(identity).inserted else { return }
        guard depth <= maxDepth else {
            result.truncated = true
            return
        }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names.sorted() {
            entries += 1
            guard entries <= maxEntries else {
                result.truncated = true
                return
            }
            let path = (folder as NSString).appendingPathComponent(name)
            var info = stat()
            guard stat(path, &info) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                guard systemFolder(path) == nil else { continue }
                walk(
                    path, depth: depth + 1, identity: FileIdentity(info), visited: &visited, entries: &entries,
                    into: &result)
            case S_IFREG:
                if Int(info.st_size) <= FileReader.fontLimit, Int(info.st_size) > 0 { result.files.append(path) }
            default:
                continue
            }
        }
    }

    /// `/proc`, `/sys` or `/dev` when `path`, links resolved, is in one of them; else nil.
    public static func systemFolder(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        let real = String(cString: resolved)
        return ["/proc", "/sys", "/dev"].first { real == $0 || real.hasPrefix($0 + "/") }
    }
}
