import Foundation
import TestSupport
import Testing

@testable import Typography

/// Where a path a document names leads when symbolic links are on its way: a link out of the
/// root is outside whether or not its target exists (dangling, through a chain of links, in a
/// loop), and a font folder's walk keeps only the files and subfolders that lie inside.
@Suite struct SandboxResolutionTests {
    /// A root and a folder beside it (outside), each new, empty and absolute with links resolved.
    func layout(_ name: String) throws -> (root: String, outside: String) {
        let base = Scratch.uniquePath("resolution-\(name)")
        for folder in ["/root", "/outside"] {
            try FileManager.default.createDirectory(atPath: base + folder, withIntermediateDirectories: true)
        }
        let resolved = Sandbox.canonical(base)
        return (resolved + "/root", resolved + "/outside")
    }

    /// Makes the symbolic link `path` pointing to `target`.
    func link(_ path: String, to target: String) throws {
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
    }

    /// Links out of the root, to a file there or to none, one link or a chain, absolute or
    /// relative, looping through a place outside, or reached by `..` past a missing folder:
    /// every one is outside the sandbox, as a missing file outside is.
    @Test func linksOutOfTheRootAreOutsideWhetherOrNotTheirTargetExists() throws {
        let (root, outside) = try layout("outside")
        try Data("secret".utf8).write(to: URL(fileURLWithPath: outside + "/secret.png"))
        try link(root + "/existing.png", to: "../outside/secret.png")
        try link(root + "/dangling.png", to: outside + "/missing.png")
        try link(root + "/relative.png", to: "../outside/missing.png")
        try link(root + "/chain.png", to: "hop.png")
        try link(root + "/hop.png", to: outside + "/missing.png")
        try link(root + "/through.png", to: outside + "/back.png")
        try link(outside + "/back.png", to: root + "/absent.png")
        try link(root + "/loop.png", to: outside + "/loop.png")
        try link(outside + "/loop.png", to: root + "/loop.png")
        try link(root + "/folder", to: outside + "/nowhere")
        let sandbox = Sandbox(root: URL(fileURLWithPath: root))
        let paths = [
            outside + "/secret.png", outside + "/missing.png", "existing.png", "dangling.png", "relative.png",
            "chain.png", "through.png", "loop.png", "folder/x.png", "missing/../dangling.png",
        ]
        for path in paths {
            let full = path.hasPrefix("/") ? path : root + "/" + path
            #expect(sandbox.resolve(full) == nil, "\(path) resolved to \(sandbox.resolve(full) ?? "")")
        }
    }

    /// Links that stay inside the root are followed to where they point, missing or not: a
    /// dangling link inside resolves to its target (which a render then finds missing), links
    /// that loop inside stay inside, and a missing file is itself.
    @Test func linksInsideTheRootStayInside() throws {
        let (root, _) = try layout("inside")
        try Data("picture".utf8).write(to: URL(fileURLWithPath: root + "/real.png"))
        try link(root + "/good.png", to: "real.png")
        try link(root + "/dangling.png", to: "sub/absent.png")
        try link(root + "/a.png", to: "b.png")
        try link(root + "/b.png", to: "a.png")
        let sandbox = Sandbox(root: URL(fileURLWithPath: root))
        #expect(sandbox.resolve(root + "/good.png") == root + "/real.png")
        #expect(sandbox.resolve(root + "/dangling.png") == root + "/sub/absent.png")
        #expect(sandbox.resolve(root + "/missing.png") == root + "/missing.png")
        #expect(sandbox.resolve(root + "/a.png") != nil)
        #expect(Sandbox.canonical(root + "/dangling.png") == root + "/sub/absent.png")
    }

    /// A font folder a document named is walked within the render's folders: a link to a font
    /// outside, a link to a folder outside and a link to `/` are passed over, while a font
    /// inside (directly or through a link that stays inside) is kept by its resolved path. The
    /// same folder walked without limits (a folder the user named) still follows every link.
    @Test func fontFolderWalkStaysInsideTheAllowedFolders() throws {
        let (root, outside) = try layout("fonts")
        try FileManager.default.createDirectory(atPath: root + "/fonts", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/shared", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: outside + "/more", withIntermediateDirectories: true)
        for file in [root + "/fonts/own.ttf", root + "/shared/kept.ttf", outside + "/x.ttf", outside + "/more/y.ttf"] {
            try Data([1, 2, 3]).write(to: URL(fileURLWithPath: file))
        }
        try link(root + "/fonts/linked.ttf", to: outside + "/x.ttf")
        try link(root + "/fonts/sub", to: outside + "/more")
        try link(root + "/fonts/rootfs", to: "/")
        try link(root + "/fonts/shared", to: "../shared")
        let folders = Sandbox(root: URL(fileURLWithPath: root)).folders
        let confined = try FontFolderScan.scan(root + "/fonts", within: folders)
        #expect(confined.files.sorted() == [root + "/fonts/own.ttf", root + "/shared/kept.ttf"])
        #expect(!confined.truncated)
        let free = try FontFolderScan.scan(root + "/fonts/sub")
        #expect(free.files.map { ($0 as NSString).lastPathComponent } == ["y.ttf"])
        #expect(throws: FileReader.Failure.self) { try FontFolderScan.scan(root + "/fonts/sub", within: folders) }
    }
}
