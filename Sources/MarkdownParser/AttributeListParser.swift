import DocumentModel

/// Parses a Pandoc attribute list, `{#id .class key=value key="quoted value" key='v' flag}`
/// (Pandoc manual, "Extension: attributes"), or a raw attribute `{=format}` (Pandoc manual,
/// "Extension: raw_attribute"), from UTF-8 bytes.
///
/// A bare word (`{foo}`) is not an attribute in Pandoc; Typeset accepts one only when it is
/// one of its documented flags (``flagKeys``: `{italic}`, `{smallCaps}` …), so `{x}`, `${HOME}`
/// or `{a, b, c}` stay text.
///
/// All syntax characters are ASCII, so the parser works on bytes and never splits a
/// multi-byte scalar; names and values are decoded back to `String`. It reports byte offsets
/// so callers can map each key to a source column. Anything it does not understand makes the
/// whole list invalid (`nil`): the caller then leaves the text literal, as Pandoc does.
struct AttributeListParser {
    /// A parsed list with offsets relative to the bytes given to `parse`.
    struct Parsed: Equatable {
        struct Pair: Equatable {
            var key: String
            var value: String?
            /// Byte offset of the key's first byte.
            var offset: Int
        }
        var id: String?
        /// Offset of the `#` of ``id``.
        var idOffset = 0
        /// Ids written before the last one (`{#a #b}`), with their offsets.
        var replacedIDs: [Pair] = []
        var classes: [String] = []
        var pairs: [Pair] = []
        /// The format of a raw attribute `{=latex}`; nil for an ordinary list.
        var raw: String?
        /// Offset one past the closing `}`.
        var end: Int = 0

        /// Builds the model value; `location(offset)` maps a byte offset to a source position.
        func attributes(location: (Int) -> SourceLocation?) -> Attributes {
            var attributes = Attributes(
                id: id, classes: classes,
                pairs: pairs.map { Attributes.Pair(key: $0.key, value: $0.value, location: location($0.offset)) },
                location: location(0))
            attributes.replacedIDs = replacedIDs.map {
                Attributes.Pair(key: $0.key, value: nil, location: location($0.offset))
            }
            return attributes
        }
    }

    /// Parses the list that starts with `{` at `start`; nil when there is no `{` there, the list
    /// is unterminated within `limit` bytes (or at a 0 byte, which callers use to mark an
    /// element that is not text), or it contains something that is not an attribute.
    static func parse(_ bytes: [UInt8], at start: Int = 0, limit: Int = .max) -> Parsed? {
        guard start < bytes.count, bytes[start] == ascii("{") else { return nil }
        let b = bytes[..<(start + min(limit, bytes.count - start))]
        var parsed = Parsed()
        var i = start + 1
        // `{=format}`: a raw attribute, alone in its braces.
        var r = i
        while r < b.count, isSpace(b[r]) { r += 1 }
        if r < b.count, b[r] == ascii("=") {
            var j = r + 1
            while j < b.count, isNameByte(b[j]) { j += 1 }
            guard j > r + 1 else { return nil }
            let format = String(decoding: b[(r + 1)..<j], as: UTF8.self)
            while j < b.count, isSpace(b[j]) { j += 1 }
            guard j < b.count, b[j] == ascii("}") else { return nil }
            parsed.raw = format
            parsed.end = j + 1 - start
            return parsed
        }
        while true {
            while i < b.count, isSpace(b[i]) { i += 1 }
            guard i < b.count else { return nil }  // unterminated
            let c = b[i]
            if c == ascii("}") {
                parsed.end = i + 1 - start
                return parsed
            }
            if c == ascii("#") || c == ascii(".") {
                let nameStart = i + 1
                var j = nameStart
                while j < b.count, isNameByte(b[j]) { j += 1 }
                guard j > nameStart else { return nil }
                let name = String(decoding: b[nameStart..<j], as: UTF8.self)
                if c == ascii("#") {
                    if let earlier = parsed.id {
                        parsed.replacedIDs.append(.init(key: earlier, value: nil, offset: parsed.idOffset))
                    }
                    parsed.id = name
                    parsed.idOffset = i - start
                } else {
                    parsed.classes.append(name)
                }
                i = j
            } else {
                let keyStart = i
                var j = i
                while j < b.count, isNameByte(b[j]) { j += 1 }
                guard j > keyStart else { return nil }
                let key = String(decoding: b[keyStart..<j], as: UTF8.self)
                var value: String?
                if j < b.count, b[j] == ascii("=") {
                    j += 1
                    guard j < b.count else { return nil }
                    if b[j] == ascii("\"") || b[j] == ascii("'") {
                        let quote = b[j]
                        j += 1
                        var v: [UInt8] = []
                        while j < b.count, b[j] != quote, b[j] != 0 {
                            // A backslash escapes the quote or itself.
                            if b[j] == ascii("\\"), j + 1 < b.count, b[j + 1] == quote || b[j + 1] == ascii("\\") {
                                j += 1
                            }
                            v.append(b[j])
                            j += 1
                        }
                        guard j < b.count, b[j] == quote else { return nil }  // unterminated quote
                        j += 1
                        value = String(decoding: v, as: UTF8.self)
                    } else {
                        let valueStart = j
                        while j < b.count, isValueByte(b[j]) { j += 1 }
                        guard j > valueStart else { return nil }
                        value = String(decoding: b[valueStart..<j], as: UTF8.self)
                    }
                } else if !flagKeys.contains(normalizedFlag(key)) {
                    return nil  // a bare word that is not one of our flags: text, as in Pandoc
                }
                parsed.pairs.append(.init(key: key, value: value, offset: keyStart - start))
                i = j
            }
            // Items are separated by whitespace; `}` may follow directly.
            guard i < b.count, isSpace(b[i]) || b[i] == ascii("}") else { return nil }
        }
    }

    /// Bare words accepted as flags (compared lower-cased, without `-` and `_`): the boolean
    /// keys of the attribute table in docs/markdown.md.
    static let flagKeys: Set<String> = [
        "italic", "bold", "smallcaps", "lowercasesmallcaps", "uppercasesmallcaps", "monospaceddigit",
        "monospaced", "underline", "strikethrough", "guides",
    ]

    static func normalizedFlag(_ key: String) -> String {
        String(key.lowercased().filter { $0 != "-" && $0 != "_" })
    }

    @inline(__always) static func ascii(_ s: Unicode.Scalar) -> UInt8 { UInt8(ascii: s) }
    @inline(__always) static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }
    /// Ids, classes and keys: anything but whitespace and `{ } = " '`.
    @inline(__always) static func isNameByte(_ c: UInt8) -> Bool {
        c != 0 && !isSpace(c) && c != ascii("{") && c != ascii("}") && c != ascii("=") && c != ascii("\"")
            && c != ascii("'")
    }
    /// Unquoted values: anything but whitespace and `{ } " '`.
    @inline(__always) static func isValueByte(_ c: UInt8) -> Bool {
        c != 0 && !isSpace(c) && c != ascii("{") && c != ascii("}") && c != ascii("\"") && c != ascii("'")
    }
}
