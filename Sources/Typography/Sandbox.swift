import Foundation

/// The folders a render may read files from when its document is not trusted: every path the
/// document names (an image, a front-matter `theme:`, a theme's `fontFolders`, an `include:`)
/// must lie inside one of them once `.`/`..` and symbolic links are resolved (POSIX
/// `realpath`). A path outside is refused before it is opened, so a refused file is never
/// read, nor is its existence told apart from a missing one.
///
/// The folders are the root (Typst's `--root`) and those the caller allows explicitly (font
/// folders and a resource folder given on the command line). Reading a file that passes goes
/// through ``FileReader`` as every read does (regular files only, sizes checked first).
public struct Sandbox: Sendable, Equatable {
    /// The folders, absolute, symbolic links resolved, in the order given.
    public let folders: [String]

    /// A sandbox of `root` and the `allowed` folders (each resolved as ``canonical(_:)``).
    public init(root: URL, allowing allowed: [URL] = []) {
        var folders: [String] = []
        for url in [root] + allowed {
            let folder = Self.canonical(url.path)
            if !folders.contains(folder) { folders.append(folder) }
        }
        self.folders = folders
    }

    /// The folders in words for messages: `/srv/docs` or `/srv/docs, /home/user`.
    public var description: String { folders.joined(separator: ", ") }

    /// `path` resolved (``canonical(_:)``) when it lies inside one of the folders, nil when it
    /// does not. Relative paths are relative to the current folder.
    public func resolve(_ path: String) -> String? {
        let resolved = Self.canonical(path)
        return folders.contains { Self.isInside(resolved, folder: $0) } ? resolved : nil
    }

    /// Whether `path` lies inside one of the folders (see ``resolve(_:)``).
    public func permits(_ path: String) -> Bool { resolve(path) != nil }

    /// `path` absolute with `.`, `..` and symbolic links resolved: by `realpath` when it exists,
    /// else its longest existing prefix resolved and the rest appended (a missing file inside a
    /// symbolic link to elsewhere is elsewhere).
    public static func canonical(_ path: String) -> String {
        let absolute =
            path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + (path.isEmpty ? "." : path)
        if let resolved = realPath(absolute) { return resolved }
        // The longest prefix of components that resolves, found by halving: a path resolves
        // only when each of its prefixes does (the kernel walks every component, `..` too),
        // so a few `realpath` calls suffice however many components the path has.
        let components = absolute.split(separator: "/")
        func prefix(_ count: Int) -> String { "/" + components.prefix(count).joined(separator: "/") }
        var resolvedCount = 0
        var unresolvedCount = components.count
        while unresolvedCount - resolvedCount > 1 {
            let middle = (resolvedCount + unresolvedCount) / 2
            if realPath(prefix(middle)) != nil { resolvedCount = middle } else { unresolvedCount = middle }
        }
        // The rest does not exist, so holds no symbolic link: `.` and `..` are taken lexically.
        let head = realPath(prefix(resolvedCount)) ?? "/"
        return lexicallyStandardized(([Substring(head)] + components[resolvedCount...]).joined(separator: "/"))
    }

    /// `path` with `.` components and repeated slashes dropped and each `..` taking away the
    /// component before it, by its text alone (no file is looked up, so symbolic links are kept
    /// as written): `a/./b/../c` is `a/c`, `/../x` is `/x`, and a relative path keeps the `..`
    /// it begins with. Linear in the path's length, where `NSString.standardizingPath` looks for
    /// links once per component.
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
        return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
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
