/// Line endings as CommonMark defines them (spec 0.30, §2.1 "Characters and lines"): a line
/// ending is a line feed (U+000A), a carriage return (U+000D) not followed by a line feed, or a
/// carriage return and a line feed.
///
/// cmark-gfm reads all three, but the layers around it (front matter, div fences, attribute
/// lists, raw HTML, footnote checks, source positions) split lines at line feeds. The parser
/// therefore rewrites each lone carriage return — the line ending of classic Mac OS text — as a
/// line feed before anything else reads the text: one byte for one byte, so every UTF-8 offset,
/// line and column stays that of the file as written, and every layer sees the same lines
/// cmark-gfm does. `\r\n` is kept as written.
enum LineEndings {
    /// `text` with every carriage return that is not followed by a line feed replaced by a line
    /// feed; the text itself (not copied) when it has none. One pass over the UTF-8 bytes, O(n).
    static func normalizingLoneCarriageReturns(_ text: String) -> String {
        var text = text
        let count = text.utf8.count
        let first: Int? = text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                if bytes[offset] == 0x0D, offset + 1 == bytes.count || bytes[offset + 1] != 0x0A { return offset }
                offset += 1
            }
            return nil
        }
        guard let first else { return text }
        return text.withUTF8 { source in
            String(unsafeUninitializedCapacity: count) { output in
                _ = output.initialize(from: source)
                var offset = first
                while offset < count {
                    if output[offset] == 0x0D, offset + 1 == count || output[offset + 1] != 0x0A {
                        output[offset] = 0x0A
                    }
                    offset += 1
                }
                return count
            }
        }
    }
}
