import Foundation
import TestSupport
import Testing

@testable import Typography

/// The one reader of Typeset's files: what it refuses and why, without blocking; the font
/// folder walk; temporary names within 255 bytes.
@Suite struct FileReaderTests {
    func scratch(_ name: String) throws -> String {
        let path = Scratch.uniquePath("reader-\(name)")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    func reason(_ body: () throws(FileReader.Failure) -> Data) -> String? {
        do {
            _ = try body()
            return nil
        } catch {
            return error.reason
        }
    }

    /// Each kind of file that is not a regular file is refused by its kind; a FIFO with no
    /// writer is refused at once (reading it would wait forever).
    @Test func nonRegularFilesAreRefusedByKind() throws {
        let dir = try scratch("kinds")
        #expect(mkfifo(dir + "/pipe", 0o644) == 0)
        try FileManager.default.createSymbolicLink(atPath: dir + "/loop", withDestinationPath: dir + "/loop")
        let cases: [(String, String)] = [
            ("/dev/zero", "it is a character device, not a regular file"),
            ("/dev/urandom", "it is a character device, not a regular file"),
            (dir + "/pipe", "it is a FIFO (named pipe), not a regular file"),
            (dir, "it is a folder"),
            (dir + "/missing", "no such file"),
            (dir + "/loop", "its symbolic links form a loop"),
        ]
        for (path, expected) in cases {
            #expect(
                reason { () throws(FileReader.Failure) -> Data in try FileReader.read(path, what: "a file") }
                    == expected, "\(path)")
        }
    }

    /// A file over its limit is refused by its size alone; one within it is read whole.
    @Test func sizeIsCheckedBeforeContents() throws {
        let dir = try scratch("size")
        let path = dir + "/big"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(repeating: 0x61, count: 2048)))
        let refused = reason { () throws(FileReader.Failure) -> Data in
            try FileReader.read(path, limit: 1024, what: "a test")
        }
        #expect(refused == "it is 0.0 MB, more than the 0.0 MB a test may have")
        #expect(try FileReader.read(path, limit: 4096, what: "a file").count == 2048)
        #expect(try FileReader.readStream("/dev/null").isEmpty)
    }

    /// The walk keeps regular files, skips FIFOs and devices, enters each folder once however
    /// links loop, and refuses /proc, /sys and /dev.
    @Test func fontFolderScanSkipsWhatIsNotAFontFile() throws {
        let dir = try scratch("fonts")
        try FileManager.default.createDirectory(atPath: dir + "/a/b", withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: dir + "/a/one.ttf", contents: Data([1, 2, 3])))
        #expect(FileManager.default.createFile(atPath: dir + "/a/b/two.otf", contents: Data([1, 2, 3])))
        #expect(mkfifo(dir + "/a/pipe.ttf", 0o644) == 0)
        try FileManager.default.createSymbolicLink(atPath: dir + "/a/b/up", withDestinationPath: dir)
        try FileManager.default.createSymbolicLink(atPath: dir + "/a/b/self", withDestinationPath: dir + "/a/b")
        try FileManager.default.createSymbolicLink(atPath: dir + "/zero.ttf", withDestinationPath: "/dev/zero")
        try FileManager.default.createSymbolicLink(atPath: dir + "/proc", withDestinationPath: "/proc/self")
        let found = try FontFolderScan.scan(dir)
        #expect(found.files.map { ($0 as NSString).lastPathComponent }.sorted() == ["one.ttf", "two.otf"])
        for system in ["/proc/self", "/sys", "/dev", dir + "/proc"] {
            #expect(throws: FileReader.Failure.self) { try FontFolderScan.scan(system) }
        }
    }

    /// Only files named as fonts are kept, whatever their case, and a folder holding other
    /// files, or a link to `/`, hands nothing else on: `--fonts` on a folder linking to `/` took
    /// 31 s opening every small file of the system as a font.
    @Test func fontFolderScanKeepsFilesNamedAsFonts() throws {
        let dir = try scratch("font-names")
        for name in [
            "a.TTF", "b.otf", "c.ttc", "d.woff2", "e.pcf.gz", "notes.txt", "README", "f.gz", "ttf", "g.ttf.bak",
            "h.WOFF",
        ] {
            #expect(FileManager.default.createFile(atPath: dir + "/" + name, contents: Data([1, 2, 3])))
        }
        try FileManager.default.createSymbolicLink(atPath: dir + "/all", withDestinationPath: "/")
        let found = try FontFolderScan.scan(dir)
        let (linked, own) = (
            found.files.filter { $0.hasPrefix(dir + "/all/") }, found.files.filter { !$0.hasPrefix(dir + "/all/") }
        )
        #expect(own.map { ($0 as NSString).lastPathComponent } == ["a.TTF", "b.otf", "c.ttc", "e.pcf.gz"])
        #expect(Array(found.files.prefix(4)) == own, "a folder's own fonts before its subfolders'")
        // Web fonts, which a PDF cannot embed, are passed over and named.
        #expect(
            found.webFonts.filter { !$0.hasPrefix(dir + "/all/") }.map { ($0 as NSString).lastPathComponent } == [
                "d.woff2", "h.WOFF",
            ])
        #expect(linked.allSatisfy { FontFolderScan.isFontFileName(($0 as NSString).lastPathComponent) })
    }

    /// Temporary names stay within 255 bytes, cut at whole characters.
    @Test func temporaryNamesStayWithinTheLimit() {
        for name in [
            String(repeating: "n", count: 250), String(repeating: "é", count: 125), String(repeating: "가", count: 84),
            "short.pdf",
        ] {
            let temporary = TemporaryName.hidden(name, suffix: ".ABCDEF12.tmp")
            #expect(temporary.utf8.count <= 255, "\(temporary.utf8.count)")
            #expect(temporary.hasPrefix(".") && temporary.hasSuffix(".ABCDEF12.tmp"))
            #expect(name.hasPrefix(String(temporary.dropFirst().dropLast(13))), "a prefix of whole characters")
        }
        #expect(TemporaryName.hidden("short.pdf", suffix: ".tmp") == ".short.pdf.tmp")
    }

    /// Within ``FileReader/confining(to:_:)`` a file is judged where it is opened, not where its
    /// path pointed when a render checked it: a folder of the path swapped for a symbolic link
    /// out of the root after the check is refused (a file-level link too), a path inside is
    /// read, and outside the scope (or with no folders) the same swapped path is read as before.
    @Test func confinedReadsAreJudgedWhereTheFileIsOpened() throws {
        let root = try scratch("confined-root")
        let outside = try scratch("confined-outside")
        try FileManager.default.createDirectory(atPath: root + "/sub", withIntermediateDirectories: true)
        try Data("inside".utf8).write(to: URL(fileURLWithPath: root + "/sub/x.txt"))
        try Data("secret".utf8).write(to: URL(fileURLWithPath: outside + "/x.txt"))
        let folders = Sandbox(root: URL(fileURLWithPath: root)).folders
        /// What reading `path` gives: its text, or why it was refused.
        func read(_ path: String, confinedTo folders: [String]?) -> String {
            do {
                let data = try FileReader.confining(to: folders) { try FileReader.read(path, what: "a file") }
                return String(decoding: data, as: UTF8.self)
            } catch let failure as FileReader.Failure {
                return failure.reason
            } catch {
                return "\(error)"
            }
        }
        let checked = root + "/sub/x.txt"
        #expect(read(checked, confinedTo: folders) == "inside")
        // The path was checked; then its folder is swapped for a link out of the root.
        try FileManager.default.moveItem(atPath: root + "/sub", toPath: root + "/real")
        try FileManager.default.createSymbolicLink(atPath: root + "/sub", withDestinationPath: outside)
        try FileManager.default.createSymbolicLink(atPath: root + "/file.txt", withDestinationPath: outside + "/x.txt")
        let refusal = "it is outside the folders this render may read"
        #expect(read(checked, confinedTo: folders) == refusal)
        #expect(read(root + "/file.txt", confinedTo: folders) == refusal)
        #expect(read(root + "/real/x.txt", confinedTo: folders) == "inside")
        #expect(read(checked, confinedTo: nil) == "secret")
    }
}
