/// CommonMark's HTML blocks that run to an end condition rather than to a blank line
/// (CommonMark 0.31.2 §4.6, types 1 to 5): `<pre>`, `<script>`, `<style>` and `<textarea>`
/// blocks, comments, processing instructions, declarations and CDATA sections. Their lines,
/// blank ones too, are the block's raw text until the line that holds the end, so a pass that
/// reads the text line by line before cmark-gfm does (Pandoc's list markers, heading
/// references) leaves them as written.
enum RawHTMLBlock: Equatable {
    /// `<pre`, `<script`, `<style` or `<textarea` (type 1): ends at a line holding one of their
    /// end tags, whichever opened it.
    case element
    /// `<!--` (type 2): ends at `-->`.
    case comment
    /// `<?` (type 3): ends at `?>`.
    case processingInstruction
    /// `<!` and a letter (type 4): ends at `>`.
    case declaration
    /// `<![CDATA[` (type 5): ends at `]]>`.
    case characterData

    private static let elementNames: [[UInt8]] = ["pre", "script", "style", "textarea"].map { Array($0.utf8) }

    /// The block the line from `first` (its first byte after at most three columns of
    /// indentation) to `end` opens; nil when it opens none of these.
    static func opening(_ bytes: UnsafeBufferPointer<UInt8>, _ first: Int, _ end: Int) -> RawHTMLBlock? {
        guard first + 1 < end, bytes[first] == UInt8(ascii: "<") else { return nil }
        let line = bytes[first..<end]
        if startsWith(line, "<!--") { return .comment }
        if startsWith(line, "<?") { return .processingInstruction }
        if startsWith(line, "<![CDATA[") { return .characterData }
        if bytes[first + 1] == UInt8(ascii: "!"), first + 2 < end, isLetter(bytes[first + 2]) { return .declaration }
        for name in elementNames where first + 1 + name.count <= end {
            let nameEnd = first + 1 + name.count
            guard bytes[(first + 1)..<nameEnd].map({ $0 | 0x20 }) == name else { continue }
            if nameEnd == end || [0x20, 0x09, 0x0D, UInt8(ascii: ">")].contains(bytes[nameEnd]) { return .element }
        }
        return nil
    }

    /// Whether the line from `start` to `end` holds the block's end condition (the block ends
    /// with that line; the line that opens the block may hold it too).
    func ends(in bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        let line = bytes[start..<end]
        switch self {
        case .element:
            return line.indices.contains { index in
                guard bytes[index] == UInt8(ascii: "<"), index + 1 < end, bytes[index + 1] == UInt8(ascii: "/") else {
                    return false
                }
                return Self.elementNames.contains { name in
                    let nameEnd = index + 2 + name.count
                    return nameEnd < end && bytes[nameEnd] == UInt8(ascii: ">")
                        && bytes[(index + 2)..<nameEnd].map({ $0 | 0x20 }) == name
                }
            }
        case .comment: return Self.contains(line, "-->")
        case .processingInstruction: return Self.contains(line, "?>")
        case .declaration: return line.contains(UInt8(ascii: ">"))
        case .characterData: return Self.contains(line, "]]>")
        }
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }

    private static func startsWith(_ line: Slice<UnsafeBufferPointer<UInt8>>, _ prefix: String) -> Bool {
        line.starts(with: prefix.utf8)
    }

    private static func contains(_ line: Slice<UnsafeBufferPointer<UInt8>>, _ needle: String) -> Bool {
        let needle = Array(needle.utf8)
        guard line.count >= needle.count else { return false }
        return (line.startIndex...(line.endIndex - needle.count)).contains { index in
            line[index..<(index + needle.count)].elementsEqual(needle)
        }
    }
}
