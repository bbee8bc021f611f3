import Foundation
import Typesetter

/// Renders test documents into a fresh temporary folder.
public enum Render {
    /// This test process's temporary folder, `<temporary folder>/typeset-e2e-<process id>`,
    /// created on first use; rendered files are left there to be looked at.
    public static let folder: String = {
        let path = NSTemporaryDirectory() + "typeset-e2e-\(ProcessInfo.processInfo.processIdentifier)"
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

    /// A new, empty folder `<temporary folder>/typeset-<prefix>-<8 random hex digits>` that no
    /// other test writes to, so "nothing is left behind" can be checked in it.
    public static func scratchFolder(_ prefix: String) throws -> String {
        let path = NSTemporaryDirectory() + "typeset-\(prefix)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}

/// Writes `text` to the file at `path` as UTF-8, replacing it (a test's input files).
/// - Throws: the file system's error when the file cannot be written.
public func write(_ text: String, _ path: String) throws {
    try text.write(toFile: path, atomically: false, encoding: .utf8)
}
