internal import CCmarkGFM

/// One pass over an HTML fragment's bytes, before libxml2's HTML parser reads them, that makes
/// libxml2 see what the WHATWG HTML Living Standard's tokenizer sees where its HTML 4 parser
/// reads otherwise. The rules applied, by the standard's section names (§13.2.5, "Tokenization",
/// and §13.2.6, "Tree construction"):
///
/// - *Comment start state*, *comment start dash state*: `<!-->` and `<!--->` are complete empty
///   comments ("abrupt-closing-of-empty-comment"); a comment ends at the first `-->` or `--!>`
///   ("incorrectly-closed-comment"). Each complete comment is written `<!---->`; one never closed
///   is left as written (it hides the rest, as in a browser).
/// - *Markup declaration open state*, *bogus comment state*: `<!…>` other than a comment or a
///   DOCTYPE (`<![CDATA[ … ]]>`, `<!ELEMENT …>`), `<?…>` and `</` followed by neither a letter nor
///   `>` are comments that end at the first `>`; `</>` is nothing ("missing-end-tag-name").
/// - *The "in body" insertion mode*: an end tag `</br>` is a `<br>`; an end tag `</p>` with no
///   `<p>` open is an empty paragraph, `<p></p>` (a `<p>` is closed by the start tags of blocks,
///   ``closesParagraph``, as the standard closes it); a start tag `<image>` is an `<img>`.
/// - *RAWTEXT state*, *RCDATA state*, *PLAINTEXT state*: the content of `<xmp>`, `<iframe>`,
///   `<noembed>` and `<noframes>` is text up to its end tag, as is `<textarea>`'s and `<title>`'s
///   (character references decoded); everything after `<plaintext>` is text. `<noscript>`'s
///   content is HTML, as the parser reads it with scripting disabled (a PDF runs no scripts).
///   `<xmp>`, `<listing>` and `<plaintext>`, which the standard's rendering section sets as
///   preformatted blocks, are written as `<pre>` (the first newline of `<xmp>` and `<plaintext>`
///   kept, a `<listing>`'s dropped, as *"in body"* says).
/// - *Character reference state*, *named character reference state*, *numeric character
///   reference end state*: references are decoded with HTML5's full table of names (cmark-gfm's,
///   which is the standard's `entities.json`), the legacy names also without `;` (not in an
///   attribute value before `=` or a letter or digit), and numbers as the standard maps them:
///   zero, surrogates and values past U+10FFFF to U+FFFD, 0x80–0x9F through windows-1252.
///   The decoded text is written as UTF-8, `&` and `<` as `&amp;` and `&lt;` (in attribute
///   values `&`, `<`, `>`, `"`, `'` as numeric references), so libxml2 decodes nothing else.
///
/// Time and memory are linear in the fragment's length.
enum HTMLFiveTokens {
    /// `bytes` rewritten by the rules above. A `tag` alone, taken out of inline HTML whose open
    /// elements the caller keeps, has no paragraph open to judge an end tag `</p>` by: it is
    /// left as written.
    static func normalized(_ bytes: [UInt8], tag: Bool = false) -> [UInt8] {
        guard bytes.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") }) else { return bytes }
        var normalizer = Normalizer(input: bytes)
        normalizer.judgesParagraphEnds = !tag
        normalizer.run()
        return normalizer.output
    }

    /// The names HTML5 also decodes without a trailing `;` (the entries of the standard's
    /// "Named character references" table listed without one): HTML 4's Latin-1 set and
    /// `amp`, `lt`, `gt`, `quot` with their upper-case forms and `COPY`, `REG`.
    static let legacyNames: Set<[UInt8]> = Set(
        """
        AElig AMP Aacute Acirc Agrave Aring Atilde Auml COPY Ccedil ETH Eacute Ecirc Egrave Euml GT Iacute Icirc \
        Igrave Iuml LT Ntilde Oacute Ocirc Ograve Oslash Otilde Ouml QUOT REG THORN Uacute Ucirc Ugrave Uuml Yacute \
        aacute acirc acute aelig agrave amp aring atilde auml brvbar ccedil cedil cent copy curren deg divide eacute \
        ecirc egrave eth euml frac12 frac14 frac34 gt iacute icirc iexcl igrave iquest iuml laquo lt macr micro \
        middot nbsp not ntilde oacute ocirc ograve ordf ordm oslash otilde ouml para plusmn pound quot raquo reg \
        sect shy sup1 sup2 sup3 szlig thorn times uacute ucirc ugrave uml uuml yacute yen yuml
        """.split(separator: " ").map { Array($0.utf8) })

    /// The standard's replacements for numeric references to 0x80–0x9F (*numeric character
    /// reference end state*, the windows-1252 code points); 0 where the number is kept.
    static let c1Replacements: [UInt32] = [
        0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
        0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E,
        0x0178,
    ]

    /// Elements whose start tag closes an open `<p>` (*"in body"*: "If the stack of open elements
    /// has a p element in button scope, then close a p element"), and whose end tag closes one
    /// opened inside them, and the table elements, inside which a `<p>` outside is not in scope.
    static let closesParagraph: Set<[UInt8]> = Set(
        """
        address article aside blockquote center details dialog dir div dl fieldset figcaption figure footer form \
        header hgroup main menu nav ol search section summary ul h1 h2 h3 h4 h5 h6 pre listing plaintext xmp \
        table hr dd dt li td th caption button
        """.split(separator: " ").map { Array($0.utf8) })

    /// Elements whose content is text up to their end tag: RAWTEXT (`&` is text too) or RCDATA.
    /// `<noscript>` is not among them: its content is RAWTEXT only while scripting is enabled
    /// (*"in body"*), and a PDF runs no scripts, so its content is read as HTML.
    static let rawText: Set<[UInt8]> = Set(["xmp", "iframe", "noembed", "noframes"].map { Array($0.utf8) })
    static let replaceableText: Set<[UInt8]> = Set(["textarea", "title"].map { Array($0.utf8) })

    /// The attributes of a tag kept besides those Typeset reads (``readAttributes``): more
    /// than any element of a real page has.
    static let attributeLimit = 64

    /// The attributes Typeset reads from HTML elements, which a tag keeps past
    /// ``attributeLimit`` others.
    static let readAttributes: Set<[UInt8]> = Set(
        [
            "align", "alt", "aria-label", "checked", "class", "colspan", "dir", "disabled", "display", "encoding",
            "height", "href", "id", "label", "lang", "multiple", "name", "placeholder", "reversed", "rowspan", "scope",
            "selected", "size", "src", "start", "style", "title", "type", "value", "width",
        ].map { Array($0.utf8) })

    /// The text of the named reference `&name;`, from cmark-gfm's table (the text of a Markdown
    /// paragraph that is the reference alone); nil when HTML5 has no such name.
    static func namedReference(_ name: [UInt8]) -> String? {
        let source = "&" + String(decoding: name, as: UTF8.self) + ";"
        let count = source.utf8.count
        guard let document = cmark_parse_document(source, count, CMARK_OPT_DEFAULT) else { return nil }
        defer { cmark_node_free(document) }
        var text = ""
        var node = cmark_node_first_child(cmark_node_first_child(document))
        while let current = node {
            if cmark_node_get_type(current) == CMARK_NODE_TEXT, let literal = cmark_node_get_literal(current) {
                text += String(cString: literal)
            }
            node = cmark_node_next(current)
        }
        return text.isEmpty || text == source ? nil : text
    }

    /// The code point a numeric reference to `value` stands for (saturated past U+10FFFF).
    static func numericReference(_ value: UInt32) -> Unicode.Scalar {
        if value >= 0x80, value <= 0x9F, case let mapped = c1Replacements[Int(value - 0x80)], mapped != 0 {
            return Unicode.Scalar(mapped) ?? "\u{FFFD}"
        }
        guard value != 0 else { return "\u{FFFD}" }
        return Unicode.Scalar(value) ?? "\u{FFFD}"  // surrogates and values past U+10FFFF
    }

    private struct Normalizer {
        let input: [UInt8]
        var output: [UInt8] = []
        var index = 0
        /// Whether a `<p>` is open: an end tag `</p>` with none open is an empty paragraph.
        var paragraphOpen = false
        /// Whether an end tag `</p>` with no `<p>` open is written as an empty paragraph.
        var judgesParagraphEnds = true
        var names: [[UInt8]: String?] = [:]
        /// The last `>` of the input: a search for one past it is never made (linear time).
        let lastClose: Int

        init(input: [UInt8]) {
            self.input = input
            lastClose = input.lastIndex(of: UInt8(ascii: ">")) ?? -1
            output.reserveCapacity(input.count + input.count / 8)
        }

        func byte(_ offset: Int) -> UInt8? { offset < input.count ? input[offset] : nil }

        static func isAlpha(_ byte: UInt8?) -> Bool {
            guard let byte else { return false }
            return (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
        }

        static func folded(_ byte: UInt8) -> UInt8 { isAlpha(byte) ? byte | 0x20 : byte }

        static func isAlphanumeric(_ byte: UInt8?) -> Bool {
            guard let byte else { return false }
            return isAlpha(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
        }

        /// Whether `byte` ends an attribute's name (*attribute name state*).
        static func isNameEnd(_ byte: UInt8) -> Bool {
            isSpace(byte) || byte == UInt8(ascii: "/") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "=")
        }

        /// `byte` with ASCII upper case made lower case.
        static func lowercased(_ byte: UInt8) -> UInt8 {
            byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
        }

        static func isSpace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
        }

        /// Whether `text` (ASCII, letters in either case) stands at `offset`.
        func starts(with text: String, at offset: Int) -> Bool {
            var position = offset
            for expected in text.utf8 {
                guard position < input.count, Self.folded(input[position]) == Self.folded(expected) else {
                    return false
                }
                position += 1
            }
            return true
        }

        /// The first index of `terminator` at or after `start`.
        func find(_ terminator: String, from start: Int) -> Int? {
            var position = start
            while position < input.count {
                if input[position] == terminator.utf8.first, starts(with: terminator, at: position) { return position }
                position += 1
            }
            return nil
        }

        mutating func run() {
            while index < input.count {
                switch input[index] {
                case UInt8(ascii: "<"): markup()
                case UInt8(ascii: "&"): reference(inAttribute: false)
                default:
                    output.append(input[index])
                    index += 1
                }
            }
        }

        /// What starts with the `<` at `index`.
        mutating func markup() {
            let next = byte(index + 1)
            if starts(with: "<!--", at: index) { return comment() }
            if next == UInt8(ascii: "!") {
                if starts(with: "<!doctype", at: index) { return copyThrough() }
                return bogusComment(from: index + 2)
            }
            if next == UInt8(ascii: "?") { return bogusComment(from: index + 2) }
            if next == UInt8(ascii: "/") {
                if Self.isAlpha(byte(index + 2)) { return endTag() }
                if byte(index + 2) == UInt8(ascii: ">") {
                    index += 3
                    return
                }
                return bogusComment(from: index + 2)
            }
            if Self.isAlpha(next) { return startTag() }
            output.append(input[index])
            index += 1
        }

        /// Copies up to and with the next `>` (a DOCTYPE).
        mutating func copyThrough() {
            let close = index <= lastClose ? input[index...].firstIndex(of: UInt8(ascii: ">")) : nil
            let end = close.map { $0 + 1 } ?? input.count
            output += input[index..<end]
            index = end
        }

        mutating func comment() {
            let body = index + 4
            var end: Int?
            if byte(body) == UInt8(ascii: ">") {
                end = body + 1
            } else if byte(body) == UInt8(ascii: "-"), byte(body + 1) == UInt8(ascii: ">") {
                end = body + 2
            } else {
                var position = body
                while position + 2 < input.count {
                    if input[position] == UInt8(ascii: "-"), input[position + 1] == UInt8(ascii: "-") {
                        if input[position + 2] == UInt8(ascii: ">") {
                            end = position + 3
                            break
                        }
                        if input[position + 2] == UInt8(ascii: "!"), byte(position + 3) == UInt8(ascii: ">") {
                            end = position + 4
                            break
                        }
                    }
                    position += 1
                }
            }
            guard let end else {
                // Never closed: it hides the rest of the fragment, as written.
                return copyRest()
            }
            output += "<!---->".utf8
            index = end
        }

        /// A bogus comment whose text starts at `start`: up to the first `>`; with none, the
        /// `<` and what follows are text.
        mutating func bogusComment(from start: Int) {
            guard start <= lastClose, let close = input[start...].firstIndex(of: UInt8(ascii: ">")) else {
                output += "&lt;".utf8
                index += 1
                return
            }
            output += "<!---->".utf8
            index = close + 1
        }

        /// The tag name starting at `start` (ASCII-lowercased) and the index past it.
        func tagName(from start: Int) -> ([UInt8], Int) {
            var end = start
            while end < input.count, !Self.isSpace(input[end]), input[end] != UInt8(ascii: "/"),
                input[end] != UInt8(ascii: ">")
            {
                end += 1
            }
            return (input[start..<end].map(Self.folded), end)
        }

        mutating func endTag() {
            let (name, nameEnd) = tagName(from: index + 2)
            guard let close = tagEnd(from: nameEnd) else { return copyRest() }
            if name == Array("br".utf8) {
                output += "<br>".utf8
            } else if name == Array("p".utf8), judgesParagraphEnds, !paragraphOpen {
                output += "<p></p>".utf8
            } else if let renamed = Self.preformatted(name) {
                output += "</\(renamed)>".utf8
            } else {
                output += input[index..<close]
            }
            if name == Array("p".utf8) || HTMLFiveTokens.closesParagraph.contains(name) { paragraphOpen = false }
            index = close
        }

        /// `<xmp>`, `<listing>` and `<plaintext>` are written as `<pre>`.
        static func preformatted(_ name: [UInt8]) -> String? {
            ["xmp", "listing", "plaintext"].contains(String(decoding: name, as: UTF8.self)) ? "pre" : nil
        }

        mutating func copyRest() {
            output += input[index...]
            index = input.count
        }

        /// The index past the `>` that ends the tag whose attributes start at `start` (a quoted
        /// value may hold `>`), or nil when the fragment ends first.
        func tagEnd(from start: Int) -> Int? {
            var quote: UInt8?
            var afterEquals = false
            var position = start
            while position < input.count {
                let current = input[position]
                if let open = quote {
                    if current == open { quote = nil }
                } else if current == UInt8(ascii: ">") {
                    return position + 1
                } else if afterEquals, current == UInt8(ascii: "\"") || current == UInt8(ascii: "'") {
                    quote = current
                    afterEquals = false
                } else if current == UInt8(ascii: "=") {
                    afterEquals = true
                } else if !Self.isSpace(current) {
                    afterEquals = false
                }
                position += 1
            }
            return nil
        }

        mutating func startTag() {
            let (name, nameEnd) = tagName(from: index + 1)
            guard let close = tagEnd(from: nameEnd) else { return copyRest() }
            output.append(UInt8(ascii: "<"))
            if name == Array("image".utf8) {
                output += "img".utf8
            } else if let renamed = Self.preformatted(name) {
                output += renamed.utf8
            } else {
                output += input[(index + 1)..<nameEnd]
            }
            attributes(from: nameEnd, to: close)
            index = close
            if name == Array("p".utf8) {
                paragraphOpen = true
            } else if HTMLFiveTokens.closesParagraph.contains(name) {
                paragraphOpen = false
            }
            // `<xmp>` and `<plaintext>` keep a first newline, which `<pre>` drops.
            let xmp = name == Array("xmp".utf8)
            if xmp || name == Array("plaintext".utf8), byte(index) == 0x0A { output.append(0x0A) }
            if name == Array("plaintext".utf8) {
                text(upTo: input.count, decoding: false)
            } else if xmp || HTMLFiveTokens.rawText.contains(name) || HTMLFiveTokens.replaceableText.contains(name) {
                let end = endTag(of: name, from: index) ?? input.count
                text(upTo: end, decoding: HTMLFiveTokens.replaceableText.contains(name))
            }
        }

        /// The start of the end tag of `name` at or after `start` (`</name` then a space, `/` or `>`).
        func endTag(of name: [UInt8], from start: Int) -> Int? {
            let prefix = "</" + String(decoding: name, as: UTF8.self)
            var position = start
            while let found = find(prefix, from: position) {
                let after = found + prefix.utf8.count
                guard let next = byte(after) else { return nil }
                if Self.isSpace(next) || next == UInt8(ascii: "/") || next == UInt8(ascii: ">") { return found }
                position = found + 1
            }
            return nil
        }

        /// Text up to `end` with its `<` escaped; `&` decoded as references or escaped.
        mutating func text(upTo end: Int, decoding: Bool) {
            while index < end {
                let current = input[index]
                if current == UInt8(ascii: "<") {
                    output += "&lt;".utf8
                    index += 1
                } else if current == UInt8(ascii: "&") {
                    if decoding {
                        reference(inAttribute: false, limit: end)
                    } else {
                        output += "&amp;".utf8
                        index += 1
                    }
                } else {
                    output.append(current)
                    index += 1
                }
            }
        }

        /// Copies a tag's attributes from `start` to `end` (past its `>`), decoding the
        /// references in each value (*before attribute name state* through the value states).
        /// An attribute whose name the tag already has is dropped, as the standard drops it
        /// ("duplicate-attribute"), and past ``HTMLFiveTokens/attributeLimit`` others only the
        /// attributes Typeset reads are kept (``HTMLFiveTokens/readAttributes``): libxml2
        /// compares each attribute's name with every one before it, so a tag of many attributes
        /// would cost time quadratic in their number.
        mutating func attributes(from start: Int, to end: Int) {
            var names = Set<[UInt8]>()
            var kept = 0
            index = start
            while index < end {
                let current = input[index]
                if Self.isSpace(current) || current == UInt8(ascii: "/") || current == UInt8(ascii: ">") {
                    output.append(current)
                    index += 1
                    continue
                }
                let mark = output.count
                let nameStart = index
                index += 1
                while index < end, !Self.isNameEnd(input[index]) { index += 1 }
                let name = input[nameStart..<index].map(Self.lowercased)
                output += input[nameStart..<index]
                value(to: end)
                let read = HTMLFiveTokens.readAttributes.contains(name)
                if !names.insert(name).inserted || (!read && kept >= HTMLFiveTokens.attributeLimit) {
                    output.removeSubrange(mark...)
                } else if !read {
                    kept += 1
                }
            }
        }

        /// Copies an attribute's `=` and value, if it has one, from `index` (the end of its
        /// name), decoding the references in the value.
        mutating func value(to end: Int) {
            var equals = index
            while equals < end, Self.isSpace(input[equals]) { equals += 1 }
            guard equals < end, input[equals] == UInt8(ascii: "=") else { return }
            output += input[index...equals]
            index = equals + 1
            while index < end, Self.isSpace(input[index]) {
                output.append(input[index])
                index += 1
            }
            guard index < end else { return }
            let quote = input[index]
            let quoted = quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'")
            if quoted {
                output.append(quote)
                index += 1
            }
            while index < end {
                let current = input[index]
                if quoted ? current == quote : Self.isSpace(current) || current == UInt8(ascii: ">") { break }
                if current == UInt8(ascii: "&") {
                    reference(inAttribute: true, limit: end - 1)
                } else {
                    output.append(current)
                    index += 1
                }
            }
            if quoted, index < end {
                output.append(quote)
                index += 1
            }
        }

        /// The character reference at the `&` at `index`, if any, decoded and written; else `&`
        /// written as text.
        mutating func reference(inAttribute: Bool, limit: Int? = nil) {
            let limit = limit ?? input.count
            let start = index + 1
            if start < limit, input[start] == UInt8(ascii: "#") {
                return numeric(inAttribute: inAttribute, limit: limit)
            }
            var end = start
            while end < limit, end - start < 40, Self.isAlphanumeric(input[end]) { end += 1 }
            if end > start, end < limit, input[end] == UInt8(ascii: ";"), let text = lookup(Array(input[start..<end])) {
                write(text, inAttribute: inAttribute)
                index = end + 1
                return
            }
            // The longest legacy name at the start of the run, without `;`.
            for length in stride(from: min(6, end - start), through: 2, by: -1) {
                let name = Array(input[start..<(start + length)])
                guard HTMLFiveTokens.legacyNames.contains(name) else { continue }
                let after = start + length
                if inAttribute, after < limit, input[after] == UInt8(ascii: "=") || Self.isAlphanumeric(input[after]) {
                    break
                }
                guard let text = lookup(name) else { break }
                write(text, inAttribute: inAttribute)
                index = after
                return
            }
            write("&", inAttribute: inAttribute)
            index += 1
        }

        mutating func numeric(inAttribute: Bool, limit: Int) {
            var position = index + 2
            let hex = position < limit && Self.folded(input[position]) == UInt8(ascii: "x")
            if hex { position += 1 }
            var value: UInt32 = 0
            let digitsStart = position
            while position < limit {
                let current = Self.folded(input[position])
                let digit: UInt32
                if current >= UInt8(ascii: "0"), current <= UInt8(ascii: "9") {
                    digit = UInt32(current - UInt8(ascii: "0"))
                } else if hex, current >= UInt8(ascii: "a"), current <= UInt8(ascii: "f") {
                    digit = UInt32(current - UInt8(ascii: "a")) + 10
                } else {
                    break
                }
                value = min(0x110000, value * (hex ? 16 : 10) + digit)
                position += 1
            }
            guard position > digitsStart else {
                write("&", inAttribute: inAttribute)
                index += 1
                return
            }
            if position < limit, input[position] == UInt8(ascii: ";") { position += 1 }
            write(String(Character(HTMLFiveTokens.numericReference(value))), inAttribute: inAttribute)
            index = position
        }

        mutating func lookup(_ name: [UInt8]) -> String? {
            if let known = names[name] { return known }
            let text = HTMLFiveTokens.namedReference(name)
            names[name] = text
            return text
        }

        /// Decoded text, with what libxml2 would read as markup escaped.
        mutating func write(_ text: String, inAttribute: Bool) {
            for scalar in text.unicodeScalars {
                switch scalar {
                case "&": output += (inAttribute ? "&#38;" : "&amp;").utf8
                case "<": output += (inAttribute ? "&#60;" : "&lt;").utf8
                case ">" where inAttribute: output += "&#62;".utf8
                case "\"" where inAttribute: output += "&#34;".utf8
                case "'" where inAttribute: output += "&#39;".utf8
                default: output += String(Character(scalar)).utf8
                }
            }
        }
    }
}
