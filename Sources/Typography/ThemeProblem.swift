/// One problem found in a theme or design-token file, at a position.
public struct ThemeProblem: Hashable, Sendable, CustomStringConvertible {
    /// Errors make a theme unusable (``ThemeLoader/load(contentsOf:)`` throws); warnings do not.
    public enum Severity: String, Hashable, Sendable { case error, warning }
    /// The file as the caller named it.
    public var file: String
    /// 1-based line and column (Unicode scalars); 0 when the problem concerns the whole file
    /// (e.g. unreadable).
    public var line: Int, column: Int
    /// What is wrong, in one line, e.g. `unknown role 'bodyy'; did you mean 'Body'?`.
    public var message: String
    /// Error (the theme is unusable) or warning.
    public var severity: Severity

    /// A problem at `line`:`column` of `file` (0, 0 for the whole file).
    public init(file: String, line: Int, column: Int, message: String, severity: Severity = .error) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
        self.severity = severity
    }
    init(file: String, at position: SourcePosition, _ message: String, severity: Severity = .error) {
        self.init(file: file, line: position.line, column: position.column, message: message, severity: severity)
    }

    /// `file:line:column: message` (`file: message` without a position); warnings read
    /// `file:line:column: warning: message`.
    public var description: String {
        let location = line > 0 ? "\(file):\(line):\(column)" : file
        return "\(location): \(severity == .warning ? "warning: " : "")\(message)"
    }
}

/// A theme or token file that cannot be used: invalid JSON, unknown role or key, wrong type or
/// unit, unknown built-in name, unreadable file. Thrown by ``ThemeLoader`` and ``TokenImporter``.
public struct ThemeError: Error, CustomStringConvertible, Sendable {
    /// Every problem found (errors first-to-last in source order; warnings included).
    public var problems: [ThemeProblem]
    /// An error made of `problems` (at least one of them an error).
    public init(problems: [ThemeProblem]) { self.problems = problems }
    /// One `file:line:column: message` line per problem.
    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
