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
    /// Creates a diagnostic; a warning with no location by default. `message` is kept on one
    /// line (``oneLine(_:)``): a value it quotes from the input may hold a line break.
    public init(_ severity: Severity = .warning, _ message: String, at location: SourceLocation? = nil) {
        self.severity = severity; self.message = Self.oneLine(message); self.location = location
    }

    /// `text` with every line ending and other control character (Unicode general category
    /// Cc, and U+2028 / U+2029, the line and paragraph separators) written as a Swift escape —
    /// `\n`, `\r`, `\t`, `\u{1B}` — so that a message quoting a multi-line value from the
    /// input stays the one line editors and scripts read.
    public static func oneLine(_ text: String) -> String {
        // Cc is U+0000–U+001F and U+007F–U+009F.
        func breaks(_ s: Unicode.Scalar) -> Bool {
            s.value < 0x20 || (0x7F...0x9F).contains(s.value) || s.value == 0x2028 || s.value == 0x2029
        }
        guard text.unicodeScalars.contains(where: breaks) else { return text }
        var out = String.UnicodeScalarView()
        for s in text.unicodeScalars {
            switch s {
            case "\n": out.append(contentsOf: "\\n".unicodeScalars)
            case "\r": out.append(contentsOf: "\\r".unicodeScalars)
            case "\t": out.append(contentsOf: "\\t".unicodeScalars)
            case _ where breaks(s): out.append(contentsOf: "\\u{\(String(s.value, radix: 16, uppercase: true))}".unicodeScalars)
            default: out.append(s)
            }
        }
        return String(out)
    }

    /// `file:line:column: warning: message` for a warning and `file:line:column: message` for an
    /// error (the location omitted when unknown): the one form every message of Typeset takes,
    /// theme problems and failures included, so editors can jump to it.
    public var description: String {
        let prefix = location.map { "\($0): " } ?? ""
        return "\(prefix)\(severity == .warning ? "warning: " : "")\(message)"
    }
}
