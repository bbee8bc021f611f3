import Foundation
import Typesetter

/// Renders test documents into a fresh temporary folder.
public enum Render {
    /// The folder the tests' documents are rendered into, `e2e` in ``Scratch/root``, created
    /// on first use (kept after the run with `TYPESET_KEEP_TEST_FILES` set).
    public static let folder: String = {
        let path = Scratch.path("e2e")
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    /// Renders `markdown` to `<folder>/<name>.pdf` with `options`; returns the path and report.
    /// Throws what `Typesetter.render` throws.
    public static func markdown(
        _ markdown: String, name: String, options: RenderOptions = RenderOptions()
    ) throws -> (pdf: String, report: RenderReport) {
        let pdf = folder + "/\(name).pdf"
        let report = try Typesetter.render(markdown: markdown, file: "\(name).md", to: pdf, options: options)
        return (pdf, report)
    }

    /// The package root (for templates/, README.md and docs/).
    public static let packageRoot: String = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    /// The `typeset` executable: `TYPESET_BIN`, else the debug build.
    public static var binary: String {
        ProcessInfo.processInfo.environment["TYPESET_BIN"] ?? packageRoot + "/.build/debug/typeset"
    }

    /// A new, empty folder `<prefix>-<8 random hex digits>` in ``Scratch/root`` that no other
    /// test writes to, so "nothing is left behind" can be checked in it.
    public static func scratchFolder(_ prefix: String) throws -> String {
        let path = Scratch.uniquePath(prefix)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}

/// Writes `text` to the file at `path` as UTF-8, replacing it (a test's input files).
/// - Throws: the file system's error when the file cannot be written.
public func write(_ text: String, _ path: String) throws {
    try text.write(toFile: path, atomically: false, encoding: .utf8)
}
