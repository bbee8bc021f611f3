import DocumentModel

/// Smart punctuation: straight quotes become curly, `--` and `---` en and em dashes, `...` an
/// ellipsis — the rules of CommonMark's smart extension as cmark-gfm implements them
/// (`CMARK_OPT_SMART`, cmark's `inlines.c`), applied to a converted document.
///
/// cmark-gfm applies them while it parses, which rewrites the text the attribute layer aligns
/// with the source; applying the same rules to the finished document keeps Pandoc attributes
/// (`key="quoted value"`) exact. Only text is touched: code spans, code blocks, raw HTML, link
/// destinations and attribute values never change.
///
/// - Quotes: a quote that can open (left-flanking and not right-flanking, CommonMark §6.2, or
///   between punctuation after an equals sign, opening bracket, slash or dash) and is
///   later matched by one of the same kind that can close becomes the opening quote (‘ “), its
///   partner the closing one (’ ”). An unmatched `'` is an apostrophe (’); an unmatched `"` is
///   ” when it can close, else “. Flanking is judged across inline boundaries (`"*word*"`).
/// - Dashes: a run of n hyphens (n ≥ 2) becomes em dashes when n is a multiple of 3, else en
///   dashes when n is even, else as many em dashes as fit with one or two en dashes.
/// - Ellipsis: every `...` becomes `…`.
public enum SmartPunctuation {
    /// `document` with smart punctuation in every block's and footnote's text (blocks made on
    /// demand get it as each is made).
    public static func apply(to document: Document) -> Document {
        document.mappingInlines(apply)
    }

    /// One inline sequence (a paragraph, a heading, a table cell): quotes pair within it.
    /// Punctuation written escaped or as a reference stands in the text as its
    /// ``KeptPunctuation`` stand-in: it is read as the punctuation it stands for beside a quote,
    /// never changed, and given back as written.
    static func apply(_ inlines: [Inline]) -> [Inline] {
        var texts = TextCollector()
        texts.collect(inlines)
        let kept = KeptPunctuation.isHeld(in: inlines)
        // Most text has nothing to change: the sequence is kept as it is, without decoding it.
        // The characters the rules read are ASCII, so they are found in the UTF-8 bytes (no
        // byte of a multi-byte sequence is ASCII).
        let quoted = texts.segments.contains {
            $0.containsUTF8Byte(UInt8(ascii: "'")) || $0.containsUTF8Byte(UInt8(ascii: "\""))
        }
        guard quoted || kept || texts.segments.contains(where: hasDashesOrEllipsis) else { return inlines }
        var curly = texts.segments
        if quoted {
            var segments = texts.segments.map { Array($0.unicodeScalars) }
            let replacements = quoteReplacements(
                segments: segments, atoms: texts.atomsBefore, addresses: texts.addressesBefore)
            for (position, scalar) in replacements { segments[position.segment][position.index] = scalar }
            curly = segments.map(string)
        }
        var next = 0
        return TextCollector.rebuild(
            inlines, texts: curly.map { KeptPunctuation.restoring(dashesAndEllipses($0)) }, next: &next)
    }

    /// The string of `scalars`, encoded straight to UTF-8 (appending scalars to a
    /// `String.UnicodeScalarView` one at a time is several times slower).
    static func string(_ scalars: [Unicode.Scalar]) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(scalars.count)
        for scalar in scalars { UTF8.encode(scalar) { bytes.append($0) } }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether `text` holds `--` or `...`, read in its UTF-8 bytes.
    static func hasDashesOrEllipsis(_ text: String) -> Bool {
        text.withUTF8Bytes { bytes in
            var previous: UInt8 = 0
            var dots = 0
            for byte in bytes {
                if byte == UInt8(ascii: "-"), previous == UInt8(ascii: "-") { return true }
                dots = byte == UInt8(ascii: ".") ? dots + 1 : 0
                if dots == 3 { return true }
                previous = byte
            }
            return false
        }
    }

    struct Position: Hashable {
        var segment: Int
        var index: Int
    }

    /// The curly quote each straight quote becomes, by position.
    static func quoteReplacements(
        segments: [[Unicode.Scalar]], atoms: [Bool], addresses: [Bool] = []
    ) -> [Position: Unicode.Scalar] {
        // The characters on one side of a position, nearest first, across segment boundaries,
        // stepping one character at a time; an inline that is not text (code, an image) counts as
        // a letter, a line break as a space.
        func neighbours(_ position: Position, _ direction: Int, count: Int) -> [Unicode.Scalar] {
            var found: [Unicode.Scalar] = []
            var segment = position.segment
            var index = position.index + direction
            while found.count < count {
                if index >= 0, index < segments[segment].count {
                    found.append(KeptPunctuation.original(of: segments[segment][index]) ?? segments[segment][index])
                    index += direction
                    continue
                }
                let boundary = direction < 0 ? segment : segment + 1
                if boundary < atoms.count, atoms[boundary] { found.append("a") }
                segment += direction
                guard segment >= 0, segment < segments.count else { break }
                index = direction < 0 ? segments[segment].count - 1 : 0
            }
            return Array(found.prefix(count))
        }
        var result: [Position: Unicode.Scalar] = [:]
        var openers: [(position: Position, quote: Unicode.Scalar)] = []
        for (segmentIndex, scalars) in segments.enumerated() {
            for (scalarIndex, quote) in scalars.enumerated() where quote == "'" || quote == "\"" {
                let position = Position(segment: segmentIndex, index: scalarIndex)
                let before = neighbours(position, -1, count: 1).first
                let after = neighbours(position, 1, count: 1).first
                let (left, right) = flanking(before: before, after: after)
                var canOpen = left && !right
                var canClose = right
                if let before, before == "]" || before == ")" { canOpen = false }
                // Between two punctuation marks a quote flanks both ways; after one that comes
                // before an opening quote (`src="/x"`, `x="(y)"`, `["(a)"]`) it opens, as
                // Pandoc's smart quotes open a quote that follows no word.
                if left, right, let before, Self.precedesOpeningQuote(before) {
                    canOpen = true
                    canClose = false
                }
                // After the punctuation that ends a quotation and before a letter, as Korean
                // writes a quote and its particle (`"안녕하세요."라고`), a quote closes the one open
                // (as Pandoc's smart quotes close it); by flanking alone it could only open.
                if !canClose, let before, Self.endsQuotation(before), openers.contains(where: { $0.quote == quote }) {
                    canClose = true
                }
                if quote == "'",
                    Self.isApostrophe(after: before, opening: canOpen, following: neighbours(position, 1, count: 7))
                {
                    result[position] = "\u{2019}"
                    continue
                }
                if canClose, let openerIndex = openers.lastIndex(where: { $0.quote == quote }) {
                    result[openers[openerIndex].position] = quote == "'" ? "\u{2018}" : "\u{201C}"
                    result[position] = quote == "'" ? "\u{2019}" : "\u{201D}"
                    openers.remove(at: openerIndex)
                } else if scalarIndex == 0, segmentIndex < addresses.count, addresses[segmentIndex] {
                    // Right after an address and closing nothing: the end of what the address
                    // left out (`https://x.org/?q="y"` links to `…q="y`), set as written.
                    continue
                } else if !canOpen, Self.followsAMeasure(position, segments: segments) {
                    // After a number standing alone and closing nothing: feet and inches,
                    // minutes and seconds (`5' 10"`), set as primes (′ ″), as The Chicago Manual
                    // of Style sets them.
                    result[position] = quote == "'" ? "\u{2032}" : "\u{2033}"
                } else {
                    result[position] = quote == "'" ? "\u{2019}" : (canClose ? "\u{201D}" : "\u{201C}")
                    if canOpen { openers.append((position, quote)) }
                }
            }
        }
        return result
    }

    /// Whether a `'` after `previous` and before `following` (the characters after it, nearest
    /// first) is an apostrophe whatever quotes are open: between two Latin letters or figures
    /// (`it's`, `rock'n'roll`, `70's`: it closes no quote, as Pandoc's smart quotes never close
    /// before a letter), or, where it could open, before the figures of a decade (`'90s`) or a
    /// word English writes with its first letters left out (`'tis`, `'Twas`, `'em`, `'til`,
    /// `'cause`): an apostrophe, not an opening quotation mark, as The Chicago Manual of Style
    /// sets these elisions.
    static func isApostrophe(
        after previous: Unicode.Scalar?, opening: Bool, following: [Unicode.Scalar]
    ) -> Bool {
        func isLatin(_ scalar: Unicode.Scalar?) -> Bool {
            guard let scalar, scalar.value < 0x250 else { return false }
            return scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
        }
        if isLatin(previous), isLatin(following.first) { return true }
        guard opening else { return false }
        var word = ""
        for scalar in following {
            guard isLatin(scalar) else { break }
            word.unicodeScalars.append(scalar)
        }
        guard word.count < 7 else { return false }
        if word.count >= 2, word.prefix(2).allSatisfy(\.isASCII), word.prefix(2).allSatisfy(\.isNumber),
            word.dropFirst(2).allSatisfy({ $0 == "s" })
        {
            return true
        }
        return elisions.contains(word.lowercased())
    }

    /// Whether the quote at `position` follows a number standing alone in its text: figures
    /// (with `.` or `,` between them) after a space, an opening bracket or the text's start, as
    /// `5'` or `1.5"`, not `-j1"` or `v2'`.
    static func followsAMeasure(_ position: Position, segments: [[Unicode.Scalar]]) -> Bool {
        let scalars = segments[position.segment]
        func isFigure(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }
        guard position.index > 0, isFigure(scalars[position.index - 1]) else { return false }
        var index = position.index - 1
        while index > 0, isFigure(scalars[index - 1]) || scalars[index - 1] == "." || scalars[index - 1] == "," {
            index -= 1
        }
        guard index > 0 else { return true }
        let before = scalars[index - 1]
        return before.properties.isWhitespace || before == "(" || before == "["
    }

    /// The words ``isApostrophe(after:opening:following:)`` reads as elided.
    static let elisions: Set<String> = ["tis", "twas", "twere", "twill", "twould", "em", "til", "cause", "bout"]

    /// Punctuation a quotation may end with before its closing quote: `.` `,` `!` `?` `…` and
    /// the like, closing brackets and quotes — not an opening bracket or quote.
    static func endsQuotation(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .otherPunctuation, .closePunctuation, .finalPunctuation: scalar != "\"" && scalar != "'"
        default: false
        }
    }

    /// Whether `scalar` is punctuation an opening quote follows: an equals sign, an opening
    /// bracket, a slash or a dash.
    static func precedesOpeningQuote(_ scalar: Unicode.Scalar) -> Bool {
        "=([{</-\u{2013}\u{2014}".unicodeScalars.contains(scalar)
    }

    /// CommonMark §6.2 left- and right-flanking for a delimiter run of one character between
    /// `before` and `after` (nil: the start or end of the text, which counts as whitespace).
    static func flanking(before: Unicode.Scalar?, after: Unicode.Scalar?) -> (left: Bool, right: Bool) {
        func isSpace(_ scalar: Unicode.Scalar?) -> Bool { scalar.map { $0.properties.isWhitespace } ?? true }
        func isPunctuation(_ scalar: Unicode.Scalar?) -> Bool {
            guard let scalar else { return false }
            switch scalar.properties.generalCategory {
            case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
                .finalPunctuation, .otherPunctuation, .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol:
                return true
            default: return false
            }
        }
        let left = !isSpace(after) && (!isPunctuation(after) || isSpace(before) || isPunctuation(before))
        let right = !isSpace(before) && (!isPunctuation(before) || isSpace(after) || isPunctuation(after))
        return (left, right)
    }

    /// Runs of hyphens to en and em dashes, `...` to an ellipsis.
    /// Works on the UTF-8 bytes: `-` and `.` are ASCII, so they never occur inside a
    /// multi-byte sequence, and every other byte is copied as it is.
    static func dashesAndEllipses(_ text: String) -> String {
        guard hasDashesOrEllipsis(text) else { return text }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 8)
        let emDash: [UInt8] = [0xE2, 0x80, 0x94]
        let enDash: [UInt8] = [0xE2, 0x80, 0x93]
        let ellipsis: [UInt8] = [0xE2, 0x80, 0xA6]
        let hyphen = UInt8(ascii: "-")
        let dot = UInt8(ascii: ".")
        var i = 0
        while i < bytes.count {
            if bytes[i] == hyphen {
                var hyphenCount = 0
                while i + hyphenCount < bytes.count, bytes[i + hyphenCount] == hyphen { hyphenCount += 1 }
                if hyphenCount == 1 {
                    out.append(hyphen)
                } else {
                    let (ems, ens): (Int, Int) =
                        hyphenCount % 3 == 0
                        ? (hyphenCount / 3, 0)
                        : hyphenCount % 2 == 0
                            ? (0, hyphenCount / 2)
                            : hyphenCount % 3 == 2 ? ((hyphenCount - 2) / 3, 1) : ((hyphenCount - 4) / 3, 2)
                    for _ in 0..<ems { out.append(contentsOf: emDash) }
                    for _ in 0..<ens { out.append(contentsOf: enDash) }
                }
                i += hyphenCount
            } else if bytes[i] == dot, i + 2 < bytes.count, bytes[i + 1] == dot, bytes[i + 2] == dot {
                out.append(contentsOf: ellipsis)
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// Punctuation smart punctuation would change (`-`, `.`, `'`, `"`) written escaped (`\-`) or as
/// a character reference (`&quot;`), which it leaves as written, as CommonMark's smart extension
/// (cmark's `inlines.c` handles escapes before the smart rules) and Pandoc's `smart` do.
///
/// From the conversion to ``SmartPunctuation``, each such character stands in the text as a
/// Unicode noncharacter of its own (U+FDD0 to U+FDD3), which no other text of the document can
/// hold: the parser replaces noncharacters in its input (``TextSanitizer``).
enum KeptPunctuation {
    /// The characters kept, in the order of their stand-ins.
    private static let characters: [UInt8] = [
        UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "'"), UInt8(ascii: "\""),
    ]
    private static let first: UInt32 = 0xFDD0

    /// Whether `byte` is one of the characters kept (``standIn(for:)`` is not nil).
    static func isKept(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "'")
            || byte == UInt8(ascii: "\"")
    }

    /// The stand-in of the ASCII character `byte`; nil when smart punctuation never changes it.
    static func standIn(for byte: UInt8) -> Unicode.Scalar? {
        characters.firstIndex(of: byte).map { Unicode.Scalar(first + UInt32($0))! }
    }

    /// The character `scalar` stands in for; nil when it is no stand-in.
    static func original(of scalar: Unicode.Scalar) -> Unicode.Scalar? {
        let index = Int(scalar.value) - Int(first)
        guard index >= 0, index < characters.count else { return nil }
        return Unicode.Scalar(characters[index])
    }

    /// Whether `text` holds a stand-in: U+FDD0…U+FDD3 are the UTF-8 bytes EF B7 90…93.
    static func isHeld(in text: String) -> Bool {
        // Most text holds no 0xEF (the first byte of U+F000…U+FFFF) at all.
        guard text.containsUTF8Byte(0xEF) else { return false }
        return text.withUTF8Bytes { bytes in
            var previous: (UInt8, UInt8) = (0, 0)
            for byte in bytes {
                if previous == (0xEF, 0xB7), byte >= 0x90, byte < 0x90 + UInt8(characters.count) { return true }
                previous = (previous.1, byte)
            }
            return false
        }
    }

    /// Whether a text of `inlines`, at any depth (an image's description too), holds a stand-in.
    static func isHeld(in inlines: [Inline]) -> Bool {
        inlines.contains { inline in
            switch inline {
            case .text(let text): isHeld(in: text)
            case .emphasis(let children), .strong(let children), .strikethrough(let children),
                .span(_, let children), .link(_, _, let children), .presentation(_, let children):
                isHeld(in: children)
            case .image(_, _, let alt, _): isHeld(in: alt)
            default: false
            }
        }
    }

    /// `text` with every stand-in given back as the character it stands for.
    static func restoring(_ text: String) -> String {
        guard isHeld(in: text) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { scalars.append(original(of: scalar) ?? scalar) }
        return String(scalars)
    }
}

/// The text of an inline sequence in reading order, and where non-text inlines sit between its
/// pieces; rebuilds the sequence with new text.
struct TextCollector {
    /// Each `.text` inline's string, in order.
    var segments: [String] = []
    /// `atomsBefore[k]`: a non-text inline (code, image, footnote mark) stands just before
    /// segment k (k == segments.count: after the last). Line breaks count as spaces.
    var atomsBefore: [Bool] = [false]
    /// `addressesBefore[k]`: that inline is an autolink (``isAutolink(_:_:)``).
    var addressesBefore: [Bool] = [false]

    mutating func collect(_ inlines: [Inline]) {
        for inline in inlines {
            switch inline {
            case .text(let text):
                segments.append(text)
                atomsBefore.append(false)
                addressesBefore.append(false)
            case .softBreak, .lineBreak:
                segments.append(" ")
                atomsBefore.append(false)
                addressesBefore.append(false)
            case .link(let destination, _, let children) where Self.isAutolink(destination, children):
                atomsBefore[atomsBefore.count - 1] = true  // an address, set as written
                addressesBefore[addressesBefore.count - 1] = true
            case .emphasis(let children), .strong(let children), .strikethrough(let children), .span(_, let children),
                .link(_, _, let children),
                .presentation(_, let children):
                collect(children)
            case .anchor:
                break  // a destination, not something on the line
            default:  // code, an image (its alt text pairs its own quotes), a footnote mark, raw HTML
                atomsBefore[atomsBefore.count - 1] = true
            }
        }
    }

    /// Whether a link is an autolink, whose text is its address (`<https://…>`, GitHub's bare
    /// `https://…`, `www.…` and e-mail addresses): set as written, as Pandoc and GitHub set it,
    /// never given curly quotes, dashes or an ellipsis.
    static func isAutolink(_ destination: String, _ children: [Inline]) -> Bool {
        guard children.count == 1, case .text(let text) = children[0] else { return false }
        return destination == text || destination == "http://" + text || destination == "mailto:" + text
    }

    /// `inlines` with each `.text` replaced, in collection order, by the next of `texts` (line
    /// breaks take their place in the order and stay line breaks).
    static func rebuild(_ inlines: [Inline], texts: [String], next: inout Int) -> [Inline] {
        inlines.map { inline in
            switch inline {
            case .text:
                next += 1
                return .text(texts[next - 1])
            case .softBreak, .lineBreak:
                next += 1
                return inline
            case .emphasis(let children): return .emphasis(rebuild(children, texts: texts, next: &next))
            case .strong(let children): return .strong(rebuild(children, texts: texts, next: &next))
            case .strikethrough(let children): return .strikethrough(rebuild(children, texts: texts, next: &next))
            case .span(let attributes, let children):
                return .span(attributes, rebuild(children, texts: texts, next: &next))
            case .presentation(let presentation, let children):
                return .presentation(presentation, rebuild(children, texts: texts, next: &next))
            case .link(let destination, _, let children) where isAutolink(destination, children):
                return inline
            case .link(let destination, let title, let children):
                return .link(
                    destination: destination, title: title, children: rebuild(children, texts: texts, next: &next))
            case .image(let source, let title, let alt, let location):
                return .image(source: source, title: title, alt: SmartPunctuation.apply(alt), location: location)
            default: return inline
            }
        }
    }
}
