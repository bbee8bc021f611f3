/// Document information written into the PDF (`pdfinfo` shows it).
public struct DocumentInfo: Hashable, Sendable {
    /// PDF Title; nil or empty: not written.
    public var title: String?
    /// PDF Author; nil or empty: not written.
    public var author: String?
    /// PDF Subject; nil or empty: not written.
    public var subject: String?
    /// PDF Keywords, written joined with `, `; empty: not written.
    public var keywords: [String]
    /// PDF Creator (the producing application), `Typeset` by default.
    public var creator: String
    /// Creates document information from its parts.
    public init(
        title: String? = nil, author: String? = nil, subject: String? = nil, keywords: [String] = [],
        creator: String = "Typeset"
    ) {
        self.title = title
        self.author = author
        self.subject = subject
        self.keywords = keywords
        self.creator = creator
    }
}
