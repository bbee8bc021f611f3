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
/// - A folder a document named (a theme's `fontFolders` under a render's root) is scanned
///   within the render's folders (``scan(_:within:)``): every file kept and every subfolder
///   entered must itself resolve (`realpath`) inside them, so a symbolic link to a font, a
///   folder or `/` outside is passed over unopened, and the files are kept by their resolved
///   paths.
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

    /// The font files under `folder`; with `allowed` (a render's ``Sandbox/folders``), only
    /// those that resolve inside one of those folders, found through subfolders that do (nil:
    /// any, as for a folder the user named).
    /// - Throws: ``FileReader/Failure`` when `folder` is not a folder (`it is a FIFO (named
    ///   pipe), not a folder`), is under /proc, /sys or /dev, lies outside `allowed`, or cannot
    ///   be read.
    public static func scan(_ folder: String, within allowed: [String]? = nil) throws(FileReader.Failure) -> Result {
        if let allowed, Sandbox.resolve(folder, within: allowed) == nil {
            throw FileReader.Failure(reason: "it is outside the folders this render may read")
        }
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
        var walk = Walk(allowed: allowed)
        walk.walk(folder, depth: 0, identity: FileIdentity(info), into: &result)
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

    /// One scan's walk: the folders it entered and the entries it looked at.
    private struct Walk {
        /// The folders every file and subfolder must resolve inside; nil: any.
        let allowed: [String]?
        /// The folders entered, by device and inode numbers.
        var visited = Set<FileIdentity>()
        /// How many entries were looked at.
        var entries = 0

        /// A walk within `allowed` (nil: anywhere).
        init(allowed: [String]?) {
            self.allowed = allowed
        }

        /// `path` resolved when the walk may use it: any path without ``allowed``, else its
        /// resolved path when that lies inside one of the folders; nil when it may not.
        func permitted(_ path: String) -> String? {
            guard let allowed else { return path }
            guard let resolved = realpath(path, nil) else { return nil }
            defer { free(resolved) }
            let real = String(cString: resolved)
            return allowed.contains { Sandbox.isInside(real, folder: $0) } ? real : nil
        }

        /// Adds the font files of `folder` (entered at `depth`, `identity` its numbers) and of
        /// its subfolders to `result`.
        mutating func walk(_ folder: String, depth: Int, identity: FileIdentity, into result: inout Result) {
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
                    // A subfolder that leads out of the allowed folders is not entered.
                    guard systemFolder(path) == nil, let inside = permitted(path) else { continue }
                    walk(inside, depth: depth + 1, identity: FileIdentity(info), into: &result)
                case S_IFREG:
                    // A file that resolves out of the allowed folders is never handed on to be opened.
                    guard Int(info.st_size) <= FileReader.fontLimit, Int(info.st_size) > 0,
                        let inside = permitted(path)
                    else { continue }
                    result.files.append(inside)
                default:
                    continue
                }
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
