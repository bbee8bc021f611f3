/// The UTF-8 bytes of a parsed source text as a document keeps them (``SourcePositions``):
/// shared by every copy of the document and by whatever else reads them (a parser's windows of
/// blocks), and kept by their maker, which may move them out of memory between reads
/// (``setAside()``). Reading gives the same bytes whether or not they were set aside.
public protocol SourceBytes: AnyObject, Sendable {
    /// The length of the source, bytes.
    var count: Int { get }
    /// The bytes (read back if they were set aside).
    var bytes: [UInt8] { get }
    /// Whether the bytes are out of memory until they are read again.
    var isSetAside: Bool { get }
    /// Lets the bytes leave memory until they are read again; the maker decides whether and
    /// where they go.
    func setAside()
}

/// Source bytes held in memory for as long as the document lives (text given in code).
final class HeldSourceBytes: SourceBytes {
    let bytes: [UInt8]
    var count: Int { bytes.count }
    var isSetAside: Bool { false }

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Keeps the bytes: they have nowhere else to go.
    func setAside() {}
}
