/// A position in a source file: 1-based line and column (column counts UTF-8 bytes, as
/// cmark-gfm reports them).
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int
    public init(file: String, line: Int, column: Int) { self.file = file; self.line = line; self.column = column }
    /// `file:line:column`.
    public var description: String { "\(file):\(line):\(column)" }
}

/// A problem found in the input that does not stop the run (an unknown attribute, a missing
/// image, an unavailable face). `--strict` turns warnings into errors.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
    public enum Severity: String, Sendable { case warning, error }
    public var severity: Severity
    public var message: String
    public var location: SourceLocation?
    public init(_ severity: Severity = .warning, _ message: String, at location: SourceLocation? = nil) {
        self.severity = severity; self.message = message; self.location = location
    }
    /// `file:line:column: warning: message` (the location omitted when unknown), the form
    /// compilers use so editors can jump to it.
    public var description: String {
        let prefix = location.map { "\($0): " } ?? ""
        return "\(prefix)\(severity.rawValue): \(message)"
    }
}
