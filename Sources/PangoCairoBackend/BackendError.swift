/// Failures of the Pango/Cairo backend.
public enum BackendError: Error, CustomStringConvertible, Equatable {
    /// Cairo could not create the PDF at `path` (`message` is Cairo's status text).
    case cannotCreate(path: String, message: String)
    /// Cairo reported an error while drawing or finishing the PDF at `path`.
    case cairo(path: String, message: String)
    /// The PDF at `path` could not be tagged (Cairo rejected the tags, or the tagging pass could
    /// not complete them); an untagged PDF can still be written.
    case tagging(path: String, message: String)
    /// The PDF at `path` cannot meet a standard asked for (`message` says what is missing);
    /// nothing is written.
    case unmetStandard(path: String, message: String)
    /// ``CairoPDFRenderer/render(_:)`` was called after ``CairoPDFRenderer/finish()``.
    case finished(path: String)
    /// fontconfig could not read the font folder at `path`.
    case fontFolder(path: String, reason: String)

    /// `path: what failed`, one line.
    public var description: String {
        switch self {
        case .cannotCreate(let path, let message): return "\(path): cannot create PDF: \(message)"
        case .cairo(let path, let message): return "\(path): PDF writing failed: \(message)"
        case .tagging(let path, let message): return "\(path): PDF tagging failed: \(message)"
        case .unmetStandard(_, let message): return message
        case .finished(let path): return "\(path): page rendered after the PDF was finished"
        case .fontFolder(_, let reason): return reason
        }
    }
}
