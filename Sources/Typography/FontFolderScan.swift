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
/// - Only regular files of at most ``FileReader/fontLimit`` bytes named as font files are kept
///   (``fontExtensions``, as Typst's font search keeps them): a folder of other files, or a
///   link to `/`, hands nothing else on to be opened. FIFOs, devices and sockets are skipped
///   unopened.
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
    /// The name endings of the font files FreeType opens and a PDF can embed, compared without
    /// case: TrueType and OpenType faces and collections, PostScript Type 1, and the bitmap
    /// formats BDF, PCF (also gzip-compressed) and PFR.
    public static let fontExtensions: Set<String> = [
        "ttf", "otf", "ttc", "otc", "pfb", "pfa", "t1", "bdf", "pcf", "pfr", "pcf.gz",
    ]

    /// The name endings of web fonts (WOFF, WOFF2: compressed wrappers of an OpenType face, W3C
    /// WOFF 2.0): a PDF embeds the face itself (ISO 32000-1 §9.9), which Cairo does not unwrap, so
    /// such a file is passed over and named (``Result/webFonts``), to be converted to TTF or OTF.
    public static let webFontExtensions: Set<String> = ["woff", "woff2"]

    /// Whether `name` ends as a font file does (``fontExtensions``).
    public static func isFontFileName(_ name: String) -> Bool {
        let lowered = name.lowercased()
        guard let dot = lowered.lastIndex(of: ".") else { return false }
        let ending = String(lowered[lowered.index(after: dot)...])
        return fontExtensions.contains(ending) || (ending == "gz" && lowered.hasSuffix(".pcf.gz"))
    }

    /// What a scan found: the font files, and the entries it passed over and why.
    public struct Result: Sendable {
        /// Regular files, in the order found: a folder's own files by name, then its subfolders'
        /// (each sorted by name).
        public var files: [String] = []
        /// Whether the walk stopped at ``maxEntries`` or ``maxDepth``.
        public var truncated = false
        /// Web font files passed over (``webFontExtensions``), in the order found.
        public var webFonts: [String] = []
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
            // A folder's own fonts come before its subfolders', so a walk cut short keeps them.
            var subfolders: [(path: String, identity: FileIdentity)] = []
            for (name, type) in Self.entries(of: folder) {
                entries += 1
                guard entries <= maxEntries else {
                    result.truncated = true
                    return
                }
                // A file not named as a font is passed over without a system call; a link or
                // an entry of unknown type is looked up only when it may be a folder or a font.
                let fontNamed = isFontFileName(name)
                let webFont = webFontExtensions.contains((name as NSString).pathExtension.lowercased())
                if webFont, type == DT_REG || type == DT_LNK || type == DT_UNKNOWN {
                    result.webFonts.append((folder as NSString).appendingPathComponent(name))
                    continue
                }
                guard fontNamed || type != DT_REG else { continue }
                let path = (folder as NSString).appendingPathComponent(name)
                var info = stat()
                guard stat(path, &info) == 0 else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFDIR:
                    // A subfolder that leads out of the allowed folders is not entered.
                    guard systemFolder(path) == nil, let inside = permitted(path) else { continue }
                    subfolders.append((inside, FileIdentity(info)))
                case S_IFREG:
                    // A file that resolves out of the allowed folders is never handed on to be opened.
                    guard fontNamed, Int(info.st_size) <= FileReader.fontLimit, Int(info.st_size) > 0,
                        let inside = permitted(path)
                    else { continue }
                    result.files.append(inside)
                default:
                    continue
                }
            }
            for subfolder in subfolders {
                walk(subfolder.path, depth: depth + 1, identity: subfolder.identity, into: &result)
                if result.truncated, entries > maxEntries { return }
            }
        }

        /// The names in `folder` with their types as the directory gives them (`DT_DIR`,
        /// `DT_REG`, `DT_LNK`, `DT_UNKNOWN`…), sorted by name; `.` and `..` left out, and
        /// nothing for a folder that cannot be opened.
        static func entries(of folder: String) -> [(name: String, type: Int32)] {
            guard let directory = opendir(folder) else { return [] }
            defer { closedir(directory) }
            var found: [(name: String, type: Int32)] = []
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                    String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
                }
                guard name != ".", name != ".." else { continue }
                found.append((name, Int32(entry.pointee.d_type)))
            }
            return found.sorted { $0.name < $1.name }
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
