/// CommonMark's HTML blocks that run to an end condition rather than to a blank line
/// (CommonMark 0.31.2 §4.6, kinds 1 to 5): `<pre>`, `<script>`, `<style>` and `<textarea>`
/// blocks, comments, processing instructions, CDATA sections and declarations. Their lines,
/// blank ones too, are the block's raw text until the line that holds the end, so every pass
/// that reads the text line by line before cmark-gfm does (formulas, Pandoc's list markers,
/// heading references) leaves them as written.
enum RawHTMLBlock {
    /// The elements whose content is raw text, never Markdown (kind 1).
    static let elements = ["pre", "script", "style", "textarea"]

    /// The bytes that close the raw HTML block that `content` (a line after its indentation)
    /// opens, lowercased: `</pre>` for `<pre`, `-->` for `<!--`, `?>` for a processing
    /// instruction `<?`, `]]>` for `<![CDATA[`, `>` for a declaration `<!` and a letter; nil
    /// when it opens none.
    static func closer(opening content: ArraySlice<UInt8>) -> [UInt8]? {
        guard content.first == UInt8(ascii: "<") else { return nil }
        if content.starts(with: "<!--".utf8) { return Array("-->".utf8) }
        if content.starts(with: "<?".utf8) { return Array("?>".utf8) }
        if content.starts(with: "<![CDATA[".utf8) { return Array("]]>".utf8) }
        if content.starts(with: "<!".utf8), let letter = content.dropFirst(2).first,
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(letter | 0x20)
        {
            return Array(">".utf8)
        }
        let lowered = content.dropFirst().prefix(9).map(asciiLowercase)
        for name in elements where lowered.starts(with: name.utf8) {
            let after = lowered.dropFirst(name.utf8.count).first
            if after == nil || after == 0x20 || after == 0x09 || after == 0x0A || after == 0x0D || after == 0x3E {
                return Array("</\(name)>".utf8)
            }
        }
        return nil
    }

    /// Whether `line` holds `needle` (lowercase ASCII), letters compared without case.
    static func holds(_ line: ArraySlice<UInt8>, _ needle: [UInt8]) -> Bool {
        guard line.count >= needle.count, let first = needle.first else { return false }
        var index = line.startIndex
        while index + needle.count <= line.endIndex {
            if asciiLowercase(line[index]) == first,
                zip(line[index..<(index + needle.count)], needle).allSatisfy({ asciiLowercase($0) == $1 })
            {
                return true
            }
            index += 1
        }
        return false
    }

    /// `byte` with an ASCII capital lowered.
    static func asciiLowercase(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte + 0x20 : byte }

    /// For a pass over a text's bytes line by line: the closer of the block the line from
    /// `first` (after at most three columns of indentation) to `end` opens, and whether the
    /// line closes it too; nil when it opens none.
    static func opening(_ bytes: UnsafeBufferPointer<UInt8>, _ first: Int, _ end: Int) -> (
        closer: [UInt8], closed: Bool
    )? {
        guard first < end, bytes[first] == UInt8(ascii: "<"),
            let closer = closer(opening: Array(bytes[first..<min(end, first + 12)])[...])
        else { return nil }
        return (closer, holds(Array(bytes[min(end, first + 2)..<end])[...], closer))
    }

    /// Whether the line from `start` to `end` holds `closer` (the block ends with that line).
    static func closes(_ closer: [UInt8], _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        holds(Array(bytes[start..<end])[...], closer)
    }
}
