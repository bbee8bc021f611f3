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
        var head = absolute
        var tail: [String] = []
        while head != "/", !head.isEmpty {
            tail.insert((head as NSString).lastPathComponent, at: 0)
            head = (head as NSString).deletingLastPathComponent
            if let resolved = realPath(head) {
                // Lexical `..` past a missing component stays inside the resolved prefix's parent chain.
                let joined = ([resolved] + tail).joined(separator: "/")
                return (joined as NSString).standardizingPath
            }
        }
        return (absolute as NSString).standardizingPath
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
