import DocumentModel

/// Strings at the edge to Cairo and Pango: the last guard, after the parser's
/// (``TextSanitizer``), for text that reaches the backend another way (themes, specimen
/// samples, running heads, code built in Swift). Cairo refuses Unicode noncharacters in PDF
/// text, outlines and metadata ("input string not valid UTF-8") and fails the whole file.
enum PDFText {
    /// `text` with every character ``TextSanitizer/isRefused(_:)`` replaced by U+FFFD: for
    /// metadata and outline titles, whose length nothing depends on.
    static func safe(_ text: String) -> String { TextSanitizer.sanitize(text).text }

    /// `text` with refused characters replaced **byte for byte** — a 3-byte noncharacter by
    /// U+FFFD, a 4-byte one (U+1FFFE…U+10FFFF) by U+1FFFD (a valid code point, drawn as a
    /// missing glyph), NUL by U+001A SUBSTITUTE — so UTF-8 offsets computed on `text` (Pango
    /// attribute ranges) stay right. Other controls pass: Cairo and Pango accept them.
    static func sameLength(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value == 0 || (TextSanitizer.isRefused($0) && $0.value > 0x9F) })
        else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar.value == 0 {
                out.append("\u{1A}")
            } else if scalar.value > 0x9F && TextSanitizer.isRefused(scalar) {
                out.append(scalar.value > 0xFFFF ? "\u{1FFFD}" : "\u{FFFD}")
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }
}
