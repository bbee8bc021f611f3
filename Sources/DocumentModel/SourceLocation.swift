/// A position in a source file: 1-based line and column (column counts UTF-8 bytes, as
/// cmark-gfm reports them).
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    /// The source file name, as diagnostics show it (`-` for standard input).
    public var file: String
    /// 1-based line.
    public var line: Int
    /// 1-based column, in UTF-8 bytes.
    public var column: Int
    /// Creates a location from its parts (1-based line and column).
    public init(file: String, line: Int, column: Int) { self.file = file; self.line = line; self.column = column }
    /// `file:line:column`.
    public var description: String { "\(file):\(line):\(column)" }
}

/// A problem found in the input that does not stop the run (an unknown attribute, a missing
/// image, an unavailable face). `--strict` turns warnings into errors.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
    /// How serious a diagnostic is.
    public enum Severity: String, Sendable { case warning, error }
    /// Warning (the default) or error.
    public var severity: Severity
    /// What is wrong, in one line, without the location.
    public var message: String
    /// Where the problem is; nil when it has no position (theme, fonts).
    public var location: SourceLocation?
    /// Creates a diagnostic; a warning with no location by default.
    public init(_ severity: Severity = .warning, _ message: String, at location: SourceLocation? = nil) {
        self.severity = severity; self.message = message; self.location = location
    }
    /// `file:line:column: warning: message` for a warning and `file:line:column: message` for an
    /// error (the location omitted when unknown): the one form every message of Typeset takes,
    /// theme problems and failures included, so editors can jump to it.
    public var description: String {
        let prefix = location.map { "\($0): " } ?? ""
        return "\(prefix)\(severity == .warning ? "warning: " : "")\(message)"
    }
}
