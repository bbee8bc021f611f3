import Foundation

/// The folders a render may read files from when its document is not trusted: every path the
/// document names (an image, a front-matter `theme:`, a theme's `fontFolders`, an `include:`)
/// must lie inside one of them once `.`/`..` and symbolic links are resolved (POSIX
/// `realpath`). A path outside is refused before it is opened, so a refused file is never
/// read, nor is its existence told apart from a missing one: a path that does not resolve is
/// followed link by link (``resolution(of:)``), so a symbolic link out of the folders is
/// outside whether or not its target exists. A font folder a document names is walked within
/// the folders (``FontFolderScan/scan(_:within:)``): each font file must lie inside too.
///
/// The folders are the root (Typst's `--root`) and those the caller allows explicitly (font
/// folders and a resource folder given on the command line). Reading a file that passes goes
/// through ``FileReader`` as every read does (regular files only, sizes checked first).
public struct Sandbox: Sendable, Equatable {
    /// The folders, absolute, symbolic links resolved, in the order given.
    public let folders: [String]

    /// A sandbox of `root` and the `allowed` folders (each resolved as ``canonical(_:)``). A URL
    /// that is not a file URL (`https://…`) names no folder: it allows nothing.
    public init(root: URL, allowing allowed: [URL] = []) {
        var folders: [String] = []
        for url in [root] + allowed where url.isFileURL {
            let folder = Self.canonical(url.path)
            if !folders.contains(folder) { folders.append(folder) }
        }
        self.folders = folders
    }

    /// The folders in words for messages: `/srv/docs` or `/srv/docs, /home/user`.
    public var description: String { folders.joined(separator: ", ") }

    /// `path` resolved (``canonical(_:)``) when it lies inside one of the folders, nil when it
    /// does not. Relative paths are relative to the current folder. A path that does not
    /// resolve (a missing file, a dangling symbolic link, links that loop) lies inside only when
    /// every place its chain of links leads to does (``resolve(_:within:)``).
    public func resolve(_ path: String) -> String? {
        Self.resolve(path, within: folders)
    }

    /// `path` resolved (``canonical(_:)``) when it lies inside one of `folders` (absolute,
    /// links resolved), nil when it does not. When the path resolves, its target is judged;
    /// when it does not, each place its symbolic links lead to (``Resolution/places``) is
    /// judged, so a dangling link out of the folders, a link to a link out of them and links
    /// that loop through a place outside are all outside, whether or not their target exists.
    public static func resolve(_ path: String, within folders: [String]) -> String? {
        let resolution = resolution(of: path)
        let inside = resolution.places.allSatisfy { place in folders.contains { isInside(place, folder: $0) } }
        return inside ? resolution.path : nil
    }

    /// Whether `path` lies inside one of the folders (see ``resolve(_:)``).
    public func permits(_ path: String) -> Bool { resolve(path) != nil }

    /// `path` absolute with `.`, `..` and symbolic links resolved: by `realpath` when it exists,
    /// else its longest existing prefix resolved and the rest appended (a missing file inside a
    /// symbolic link to elsewhere is elsewhere), a dangling symbolic link followed to where it
    /// points (``resolution(of:)``).
    public static func canonical(_ path: String) -> String {
        resolution(of: path).path
    }

    /// The most symbolic links ``resolution(of:)`` follows that `realpath` could not (Linux's
    /// own limit for one path look-up, `MAXSYMLINKS`).
    public static let maxLinks = 40

    /// Where a path leads: its resolved form, and every place on the way that a judgement of it
    /// must find inside the folders.
    public struct Resolution: Sendable, Equatable {
        /// The path absolute, `.`, `..` and symbolic links resolved as far as it exists.
        public var path: String
        /// ``path`` alone when the path resolves at once (`realpath`); otherwise each place
        /// its chain of symbolic links passed through (the link as named, its prefix resolved),
        /// and each path its `..` led back to, then ``path``.
        public var places: [String]
    }

    /// Where `path` leads. A path that exists is resolved by `realpath`. One that does not is
    /// resolved as far as it exists (its longest resolving prefix); when the first component
    /// past that prefix is a symbolic link (dangling, or part of a loop), the link is read
    /// (`lstat`, `readlink`) and its target followed in the same way, at most ``maxLinks``
    /// times, each link passed recorded in ``Resolution/places``. What is left (a missing
    /// file, or the last link when the chain loops) is taken lexically, and taken again when
    /// its `..` stepped back over a missing component (`missing/../link` is `link`). A name
    /// longer than `PATH_MAX` is judged by its lexical form and kept as written: no file can be
    /// opened by it.
    public static func resolution(of path: String) -> Resolution {
        var current =
            path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + (path.isEmpty ? "." : path)
        // A name holding a NUL (`%00` decoded) is taken lexically: the system's calls would read
        // it only up to the NUL, another file, and no file is read by such a name
        // (``FileReader/nulInName``).
        // A name longer than the system reads (`PATH_MAX`, 4,096 bytes) is judged by its lexical
        // form and handed on as written, which no call opens (`ENAMETOOLONG`): resolved link by
        // link, a link to its own folder named 100,000 times in a row took seconds.
        if current.utf8.count > Int(PATH_MAX) {
            return Resolution(path: current, places: [lexicallyStandardized(current)])
        }
        if current.utf8.contains(0) {
            let named = lexicallyStandardized(current)
            return Resolution(path: named, places: [named])
        }
        var places: [String] = []
        var links = 0
        while true {
            if let resolved = realPath(current) { return Resolution(path: resolved, places: places + [resolved]) }
            let (head, rest) = existingPrefix(of: current)
            let named = lexicallyStandardized(([Substring(head)] + rest).joined(separator: "/"))
            let first = rest.first.map(String.init) ?? ""
            if links < maxLinks, first != ".", first != "..", let target = linkTarget(head + "/" + first) {
                // A dangling link, or one of links that loop: where it points is judged too.
                links += 1
                places.append(named)
                let base = target.hasPrefix("/") ? target : head + "/" + target
                current = ([Substring(base)] + rest.dropFirst()).joined(separator: "/")
                continue
            }
            if links < maxLinks, rest.contains(".."), named != current {
                // `missing/../x` names `x` once taken lexically: `x` may be a link in turn.
                links += 1
                places.append(named)
                current = named
                continue
            }
            // A name ending in a slash names a folder: kept so, no file is read by it (the
            // system refuses `file.png/`, `ENOTDIR`), where taken lexically it named the file.
            let kept = current.hasSuffix("/") && !named.hasSuffix("/") ? named + "/" : named
            return Resolution(path: kept, places: places + [kept])
        }
    }

    /// The longest prefix of the absolute `path` that resolves (`realpath`), resolved, and the
    /// components after it. Found by halving: a path resolves only when each of its prefixes
    /// does (the kernel walks every component, `..` too), so a few `realpath` calls suffice
    /// however many components the path has.
    private static func existingPrefix(of path: String) -> (head: String, rest: ArraySlice<Substring>) {
        let components = path.split(separator: "/")
        func prefix(_ count: Int) -> String { "/" + components.prefix(count).joined(separator: "/") }
        var resolvedCount = 0
        var unresolvedCount = components.count
        while unresolvedCount - resolvedCount > 1 {
            let middle = (resolvedCount + unresolvedCount) / 2
            if realPath(prefix(middle)) != nil { resolvedCount = middle } else { unresolvedCount = middle }
        }
        let head = realPath(prefix(resolvedCount)) ?? "/"
        return (head == "/" ? "" : head, components[resolvedCount...])
    }

    /// The target of the symbolic link `path` (`readlink`), nil when `path` is no symbolic link.
    private static func linkTarget(_ path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, Int(PATH_MAX))
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `path` with `.` components and repeated slashes dropped and each `..` taking away the
    /// component before it, by its text alone (no file is looked up, so symbolic links are kept
    /// as written): `a/./b/../c` is `a/c`, `/../x` is `/x`, a relative path keeps the `..` it
    /// begins with, and a trailing slash is kept (`a/b/` is `a/b/`). Linear in the path's length,
    /// where `NSString.standardizingPath` looks for links once per component.
    public static func lexicallyStandardized(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for component in path.split(separator: "/") where component != "." {
            if component != ".." {
                parts.append(component)
            } else if let last = parts.last, last != ".." {
                parts.removeLast()
            } else if !absolute {
                parts.append(component)
            }
        }
        let joined = parts.joined(separator: "/")
        // A name ending in a slash names a folder (POSIX.1-2017, 4.13 "Pathname Resolution"):
        // it keeps its slash, so `file.png/` opens no file.
        let folder = path.hasSuffix("/") && !joined.isEmpty ? "/" : ""
        return absolute ? "/" + joined + folder : (joined.isEmpty ? "." : joined + folder)
    }

    /// Whether `path` is `folder` or inside it.
    static func isInside(_ path: String, folder: String) -> Bool {
        folder == "/" || path == folder || path.hasPrefix(folder + "/")
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
