import Foundation

/// The temporary files of a test process, all in one folder that is removed when the process
/// exits, so that a run of the suites leaves nothing in the temporary folder.
///
/// Set `TYPESET_KEEP_TEST_FILES` (to anything) to keep the folder and look at what the tests
/// rendered; a failed PDF comparison keeps its files elsewhere in any case
/// (``PDFDifference``).
public enum Scratch {
    /// `<temporary folder>/typeset-tests-<process id>`, made on first use.
    public static let root: String = {
        let path = NSTemporaryDirectory() + "typeset-tests-\(ProcessInfo.processInfo.processIdentifier)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        if ProcessInfo.processInfo.environment["TYPESET_KEEP_TEST_FILES"] == nil {
            atexit { try? FileManager.default.removeItem(atPath: Scratch.root) }
        }
        return path
    }()

    /// The path of `name` inside ``root`` (nothing is made there).
    public static func path(_ name: String) -> String {
        root + "/" + name
    }

    /// The path of `prefix` followed by a hyphen and 8 random hex digits inside ``root``, a
    /// name no other test uses (nothing is made there).
    public static func uniquePath(_ prefix: String) -> String {
        path("\(prefix)-\(UUID().uuidString.prefix(8))")
    }
}
