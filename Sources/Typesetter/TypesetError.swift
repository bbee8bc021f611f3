import DocumentModel

/// Why a run failed. Each case prints as one line naming the file (and position when known),
/// which the CLI shows before exiting 1.
public enum TypesetError: Error, CustomStringConvertible, Equatable {
    /// The input could not be read (missing, a folder, a device, too large, no permission).
    case unreadableInput(path: String, reason: String)
    /// The output could not be written (missing folder, no permission, disk full).
    case unwritableOutput(path: String, reason: String)
    /// A theme or token file is invalid; each problem is `file:line:column: message`.
    case invalidTheme(problems: [String])
    /// Strict mode (``RenderOptions/strict``) and there were warnings: each is printed on its own line, then the
    /// verdict.
    case warningsAreErrors([Diagnostic])
    /// Cairo or Pango failed while writing the PDF.
    case renderingFailed(String)
    /// The paper and margins leave no room for text.
    case invalidPage(path: String, message: String)
    /// A font folder could not be registered.
    case fontFolder(path: String, reason: String)
    /// The document cannot be set as written (a front-matter YAML alias that recurs or
    /// expands past the budget): the parser's error-severity diagnostics, each printed
    /// `file:line:column: message`.
    case invalidInput([Diagnostic])

    /// The message the CLI prints: `path: reason` on one line (theme problems and strict-mode warnings one per line).
    /// Each line is kept one line however the values it quotes were written
    /// (``Diagnostic/oneLine(_:)``): a path or theme name holding a line break cannot make a
    /// line that reads as a message of its own.
    public var description: String {
        switch self {
        case .invalidTheme(let problems): problems.map(Diagnostic.oneLine).joined(separator: "\n")
        case .warningsAreErrors, .invalidInput: lines
        default: Diagnostic.oneLine(lines)
        }
    }

    /// The message, its values as given.
    private var lines: String {
        switch self {
        case .unreadableInput(let path, let reason): "\(path): cannot read input: \(reason)"
        case .unwritableOutput(let path, let reason): "\(path): cannot write output: \(reason)"
        case .invalidTheme(let problems): problems.joined(separator: "\n")
        case .warningsAreErrors(let diagnostics):
            (diagnostics.map(\.description) + [
                "\(diagnostics.count) warning\(diagnostics.count == 1 ? "" : "s") treated as "
                    + "error\(diagnostics.count == 1 ? "" : "s") (strict mode); nothing written"
            ]).joined(separator: "\n")
        case .renderingFailed(let message): "rendering failed: \(message)"
        case .fontFolder(let path, let reason): "\(path): cannot register font folder: \(reason)"
        case .invalidPage(let path, let message): "\(path): \(message)"
        case .invalidInput(let diagnostics): diagnostics.map(\.description).joined(separator: "\n")
        }
    }
}
