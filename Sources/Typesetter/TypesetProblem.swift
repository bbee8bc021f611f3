import DocumentModel

/// One problem of a failed or warned run as a typed value — what kind, where, how serious, what
/// — for programs and editors that should not parse message text. ``TypesetError/problems``
/// gives a failure's problems; ``init(_:)`` converts a warning.
public struct TypesetProblem: Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, by stage.
    public enum Kind: String, Hashable, Sendable {
        /// The input could not be read.
        case unreadableInput
        /// The output could not be written.
        case unwritableOutput
        /// A theme or design-token file (or a theme built in code) is invalid.
        case invalidTheme
        /// A content warning (unknown attribute, missing image, unavailable face); fatal only in
        /// strict mode.
        case content
        /// Cairo or Pango failed.
        case renderingFailed
        /// Paper and margins leave no room for text.
        case invalidPage
        /// A font folder could not be registered.
        case fontFolder
        /// The document cannot be set as written (a recursive or exploding YAML alias).
        case invalidInput
        /// Warnings, by what they are about (``Diagnostic/Kind``, the same names): a face or
        /// character the fonts lack.
        case font
        /// A link not made clickable or going nowhere.
        case link
        /// Text wider than the measure or taller than the text area.
        case overfull
        /// An image missing, unreadable, remote, without alt text or of a bad size.
        case image
        /// An attribute list's unknown, repeated or invalid entry.
        case attribute
        /// Front matter: invalid, not closed, unknown or repeated keys, wrong types.
        case frontMatter = "front-matter"
        /// Bytes or characters that are not text.
        case encoding
        /// Raw HTML not rendered, or rendered without some of its markup.
        case html
        /// A theme or design-token file.
        case theme
        /// A footnote defined twice, never cited, or set elsewhere.
        case footnote
        /// Div fences, nesting, empty headings, repeated ids, no content.
        case structure
        /// The PDF (written untagged) or the pages asked for.
        case output
    }

    /// The stage that found it.
    public var kind: Kind
    /// Error (the run failed) or warning.
    public var severity: Diagnostic.Severity
    /// The file concerned, when there is one.
    public var file: String?
    /// 1-based line and column in ``file``, when known.
    public var line: Int?, column: Int?
    /// What is wrong, in one line, without the position.
    public var message: String

    /// Creates a problem from its parts.
    public init(
        kind: Kind, severity: Diagnostic.Severity = .error, file: String? = nil, line: Int? = nil,
        column: Int? = nil, message: String
    ) {
        self.kind = kind
        self.severity = severity
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// A diagnostic as a problem of the kind of the same name (``Diagnostic/kind``).
    public init(_ diagnostic: Diagnostic) {
        self.init(
            kind: Kind(rawValue: diagnostic.kind.rawValue) ?? .content, severity: diagnostic.severity,
            file: diagnostic.location?.file,
            line: diagnostic.location?.line, column: diagnostic.location?.column, message: diagnostic.message)
    }

    /// `file:line:column: message` (as much of the position as is known); warnings read
    /// `…: warning: message`.
    public var description: String {
        var position = file ?? ""
        if let line {
            position += ":\(line)"
            if let column { position += ":\(column)" }
        }
        let prefix = position.isEmpty ? "" : position + ": "
        return prefix + (severity == .warning ? "warning: " : "") + message
    }

    /// Reads a `file:line:column: [warning: ]message` line (as theme problems are printed);
    /// the position parts are optional.
    static func parse(_ line: String, kind: Kind) -> TypesetProblem {
        let parts = line.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
        var problem = TypesetProblem(kind: kind, message: line)
        if parts.count == 4, let lineNumber = Int(parts[1]),
            let columnNumber = Int(parts[2].trimmingCharacters(in: .whitespaces))
        {
            problem.file = parts[0]
            problem.line = lineNumber
            problem.column = columnNumber
            problem.message = parts[3].trimmingCharacters(in: .whitespaces)
        } else if parts.count >= 2, !parts[0].contains(" ") {
            problem.file = parts[0]
            problem.message = line.dropFirst(parts[0].count + 1).trimmingCharacters(in: .whitespaces)
        }
        if problem.message.hasPrefix("warning: ") {
            problem.severity = .warning
            problem.message = String(problem.message.dropFirst("warning: ".count))
        }
        return problem
    }
}

extension TypesetError {
    /// The failure as typed problems: one for most cases, one per problem for an invalid theme,
    /// one per warning (severity error) in strict mode.
    public var problems: [TypesetProblem] {
        switch self {
        case .unreadableInput(let path, let reason):
            [TypesetProblem(kind: .unreadableInput, file: path, message: "cannot read input: \(reason)")]
        case .unwritableOutput(let path, let reason):
            [TypesetProblem(kind: .unwritableOutput, file: path, message: "cannot write output: \(reason)")]
        case .invalidTheme(let problems):
            problems.map { TypesetProblem.parse($0, kind: .invalidTheme) }
        case .warningsAreErrors(let diagnostics):
            diagnostics.map {
                var problem = TypesetProblem($0)
                problem.severity = .error
                return problem
            }
        case .renderingFailed(let message):
            [TypesetProblem(kind: .renderingFailed, message: "rendering failed: \(message)")]
        case .invalidPage(let path, let message):
            [TypesetProblem(kind: .invalidPage, file: path, message: message)]
        case .fontFolder(let path, let reason):
            [TypesetProblem(kind: .fontFolder, file: path, message: "cannot register font folder: \(reason)")]
        case .invalidInput(let diagnostics):
            diagnostics.map {
                var problem = TypesetProblem($0)
                problem.kind = .invalidInput
                problem.severity = .error
                return problem
            }
        }
    }
}
