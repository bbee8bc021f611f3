import DocumentModel

/// Parses a Pandoc attribute list, `{#id .class key=value key="quoted value" key='v' flag}`
/// (Pandoc manual, "Extension: attributes"; `-` alone is the class `unnumbered`, as in Pandoc's
/// heading attributes), or a raw attribute `{=format}` (Pandoc manual,
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
        let window = bytes[..<(start + min(limit, bytes.count - start))]
        var parsed = Parsed()
        var offset = start + 1
        // `{=format}`: a raw attribute, alone in its braces.
        var rawStart = offset
        while rawStart < window.count, isSpace(window[rawStart]) { rawStart += 1 }
        if rawStart < window.count, window[rawStart] == ascii("=") {
            var cursor = rawStart + 1
            while cursor < window.count, isNameByte(window[cursor]) { cursor += 1 }
            guard cursor > rawStart + 1 else { return nil }
            let format = String(decoding: window[(rawStart + 1)..<cursor], as: UTF8.self)
            while cursor < window.count, isSpace(window[cursor]) { cursor += 1 }
            guard cursor < window.count, window[cursor] == ascii("}") else { return nil }
            parsed.raw = format
            parsed.end = cursor + 1 - start
            return parsed
        }
        while true {
            while offset < window.count, isSpace(window[offset]) { offset += 1 }
            guard offset < window.count else { return nil }  // unterminated
            let byte = window[offset]
            if byte == ascii("}") {
                parsed.end = offset + 1 - start
                return parsed
            }
            if byte == ascii("-"), offset + 1 < window.count,
                isSpace(window[offset + 1]) || window[offset + 1] == ascii("}")
            {
                // `{-}`: Pandoc's shorthand for the class `unnumbered`.
                parsed.classes.append("unnumbered")
                offset += 1
                continue
            }
            if byte == ascii("#") || byte == ascii(".") {
                let nameStart = offset + 1
                var cursor = nameStart
                while cursor < window.count, isNameByte(window[cursor]) { cursor += 1 }
                guard cursor > nameStart else { return nil }
                let name = String(decoding: window[nameStart..<cursor], as: UTF8.self)
                if byte == ascii("#") {
                    if let earlier = parsed.id {
                        parsed.replacedIDs.append(.init(key: earlier, value: nil, offset: parsed.idOffset))
                    }
                    parsed.id = name
                    parsed.idOffset = offset - start
                } else {
                    parsed.classes.append(name)
                }
                offset = cursor
            } else {
                let keyStart = offset
                var cursor = offset
                while cursor < window.count, isNameByte(window[cursor]) { cursor += 1 }
                guard cursor > keyStart else { return nil }
                let key = String(decoding: window[keyStart..<cursor], as: UTF8.self)
                var value: String?
                if cursor < window.count, window[cursor] == ascii("=") {
                    cursor += 1
                    guard cursor < window.count else { return nil }
                    if window[cursor] == ascii("\"") || window[cursor] == ascii("'") {
                        let quote = window[cursor]
                        cursor += 1
                        var unescaped: [UInt8] = []
                        while cursor < window.count, window[cursor] != quote, window[cursor] != 0 {
                            // A backslash escapes the quote or itself.
                            if window[cursor] == ascii("\\"), cursor + 1 < window.count,
                                window[cursor + 1] == quote || window[cursor + 1] == ascii("\\")
                            {
                                cursor += 1
                            }
                            unescaped.append(window[cursor])
                            cursor += 1
                        }
                        guard cursor < window.count, window[cursor] == quote else { return nil }  // unterminated quote
                        cursor += 1
                        value = String(decoding: unescaped, as: UTF8.self)
                    } else {
                        let valueStart = cursor
                        while cursor < window.count, isValueByte(window[cursor]) { cursor += 1 }
                        guard cursor > valueStart else { return nil }
                        value = String(decoding: window[valueStart..<cursor], as: UTF8.self)
                    }
                } else if !flagKeys.contains(normalizedFlag(key)) {
                    return nil  // a bare word that is not one of our flags: text, as in Pandoc
                }
                parsed.pairs.append(.init(key: key, value: value, offset: keyStart - start))
                offset = cursor
            }
            // Items are separated by whitespace; `}` may follow directly.
            guard offset < window.count, isSpace(window[offset]) || window[offset] == ascii("}") else { return nil }
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

    @inline(__always) static func ascii(_ scalar: Unicode.Scalar) -> UInt8 { UInt8(ascii: scalar) }
    @inline(__always) static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
    /// Ids, classes and keys: anything but whitespace and `{ } = " '`.
    @inline(__always) static func isNameByte(_ byte: UInt8) -> Bool {
        byte != 0 && !isSpace(byte) && byte != ascii("{") && byte != ascii("}") && byte != ascii("=")
            && byte != ascii("\"")
            && byte != ascii("'")
    }
    /// Unquoted values: anything but whitespace and `{ } " '`.
    @inline(__always) static func isValueByte(_ byte: UInt8) -> Bool {
        byte != 0 && !isSpace(byte) && byte != ascii("{") && byte != ascii("}") && byte != ascii("\"")
            && byte != ascii("'")
    }
}
