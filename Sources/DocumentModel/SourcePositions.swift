/// The text a document was parsed from, kept so that a diagnostic about some text — a face a
/// run needs, a character no font draws — can name the line and column where that text was
/// written, not only where its block starts.
///
/// Blocks know their start (cmark-gfm's block positions); inline text does not, so a
/// ``SourceCursor`` walks the block's printed text and its source side by side: see there for
/// the rules. It is not part of the document's value: two documents with the same content are
/// equal whatever text they came from.
public struct SourcePositions: Hashable, Sendable {
    /// The source's UTF-8 bytes as parsed (after characters no PDF can hold were replaced, so
    /// columns agree with the blocks' locations); nil when unknown (a document built in code).
    /// The parser hands over the buffer its windows of blocks are parsed again from, so a
    /// document holds its source once, and a renderer can set it aside once laid out
    /// (``setAside()``).
    let storage: (any SourceBytes)?
    /// The source's bytes (read back if they were set aside); empty when unknown.
    var bytes: [UInt8] { storage?.bytes ?? [] }
    /// UTF-8 offset of each line's first byte; line `n` (1-based) starts at `lineStarts[n − 1]`.
    let lineStarts: [UInt32]
    /// The formula markers (``FormulaMarkers``) of each line that has any, by 0-based line:
    /// found once, when the positions are made.
    let markerPlaces: [Int: [FormulaMarkers.Place]]
    /// Decodes an entity or numeric character reference (`&amp;`, `&#x1F600;`) as the parser
    /// does; nil when it is not one.
    let decodeReference: (@Sendable ([UInt8]) -> [UInt8]?)?
    /// A book's chapters' sources by file name (as the chapters' locations name it); nil for
    /// one file's source.
    private var chapters: Chapters?

    /// A book's chapters' sources, held by reference (a value cannot hold its own type inline).
    private final class Chapters: Sendable {
        let byFile: [String: SourcePositions]
        init(_ byFile: [String: SourcePositions]) { self.byFile = byFile }
    }

    /// No source: every lookup gives nil (the block's own location is used).
    public init() {
        storage = nil
        lineStarts = []
        markerPlaces = [:]
        decodeReference = nil
    }

    /// The source `text` (the bytes the parser read, line for line), with the parser's decoder of
    /// character references. Costs one pass over the bytes, a copy of them and 4 bytes per line.
    public init(_ text: String, decodeReference: @escaping @Sendable ([UInt8]) -> [UInt8]?) {
        self.init(bytes: Array(text.utf8), decodeReference: decodeReference)
    }

    /// The source as UTF-8 `bytes` (the bytes the parser read, line for line), kept without a
    /// copy (an array shares its storage), with the parser's decoder of character references.
    /// Costs one pass over the bytes and 4 bytes per line.
    public init(bytes: [UInt8], decodeReference: @escaping @Sendable ([UInt8]) -> [UInt8]?) {
        self.init(buffer: HeldSourceBytes(bytes), decodeReference: decodeReference)
    }

    /// The source in `buffer` (shared, not copied: the parser's windows of blocks read the same
    /// one), with the parser's decoder of character references. Costs one pass over the bytes
    /// and 4 bytes per line.
    public init(buffer: any SourceBytes, decodeReference: @escaping @Sendable ([UInt8]) -> [UInt8]?) {
        var starts: [UInt32] = [0]
        var offset: UInt32 = 0
        for byte in buffer.bytes {
            offset &+= 1
            if byte == 0x0A { starts.append(offset) }
        }
        self.storage = buffer
        self.lineStarts = starts
        self.decodeReference = decodeReference
        markerPlaces = Self.markerPlaces(buffer.bytes, lineStarts: starts)
    }

    /// Whether a source is known.
    public var isEmpty: Bool { lineStarts.isEmpty && chapters == nil }

    /// The length of the source, bytes (once set aside, where its last line starts): a
    /// book's, its chapters' together; 0 when none is known.
    public var byteCount: Int {
        guard let chapters else { return max(storage?.count ?? 0, Int(lineStarts.last ?? 0)) }
        return chapters.byFile.values.reduce(0) { $0 + $1.byteCount }
    }

    /// The sources of a book's chapters, by file name: each location is looked up in the
    /// source of the file it names.
    public init(chapters: [String: SourcePositions]) {
        self.init()
        self.chapters = Chapters(chapters)
    }

    /// The source of `file`'s text: the chapter's in a book's source, else this one.
    func positions(of file: String) -> SourcePositions {
        guard let chapters else { return self }
        return chapters.byFile[file] ?? SourcePositions()
    }

    /// Sets the source's bytes aside until they are read again (``SourceBytes/setAside()``);
    /// the line starts stay, so positions are still found.
    public func setAside() {
        storage?.setAside()
        guard let chapters else { return }
        for chapter in chapters.byFile.values { chapter.setAside() }
    }

    /// Always equal: the source is not part of a document's value.
    public static func == (lhs: SourcePositions, rhs: SourcePositions) -> Bool { true }
    /// Hashes nothing (see ``==(_:_:)``).
    public func hash(into hasher: inout Hasher) {}

    /// The UTF-8 offset of `location` (1-based line, 1-based byte column); nil when it is
    /// outside the text.
    func offset(of location: SourceLocation) -> Int? {
        guard location.line >= 1, location.line <= lineStarts.count, location.column >= 1 else { return nil }
        let offset = Int(lineStarts[location.line - 1]) + location.column - 1
        return offset <= (storage?.count ?? 0) ? offset : nil
    }

    /// `diagnostics` with each one that quotes a ``Diagnostic/subject`` moved from its location
    /// (the start of its block) to where that text is written: its first occurrence at or after
    /// the location, within `window` bytes, and after the place found for the diagnostic before
    /// it with the same location (two links in one paragraph are found one after the other),
    /// else from the location again; where it is not written whole (a word with a code span
    /// in it), where its longest start of at least ``shortestPrefix`` bytes is. One not found
    /// keeps its location. Reads the source once (back from where it was set aside, if it
    /// was), only when some diagnostic has a subject; a book's source places each diagnostic in
    /// the source of the chapter it names.
    public func placingSubjects(of diagnostics: [Diagnostic], window: Int = 1 << 20) -> [Diagnostic] {
        if let chapters {
            var result = diagnostics
            for (file, chapter) in chapters.byFile {
                let indices = result.indices.filter { result[$0].location?.file == file }
                guard !indices.isEmpty else { continue }
                let placed = chapter.placingSubjects(of: indices.map { result[$0] }, window: window)
                for (index, diagnostic) in zip(indices, placed) { result[index] = diagnostic }
            }
            return result
        }
        guard !isEmpty, diagnostics.contains(where: { $0.subject != nil && $0.location != nil }) else {
            return diagnostics
        }
        let text = bytes
        var resumeAt: [SourceLocation: Int] = [:]
        return diagnostics.map { diagnostic in
            guard let subject = diagnostic.subject, !subject.isEmpty, let location = diagnostic.location,
                let start = offset(of: location)
            else { return diagnostic }
            let needle = Array(subject.utf8)
            let from = max(start, resumeAt[location] ?? start)
            // Warnings of one block found in another order than written: the search starts
            // again at the block's start.
            let whole =
                Self.firstIndex(of: needle, in: text, from: from, to: min(text.count, from + window))
                ?? (from > start
                    ? Self.firstIndex(of: needle, in: text, from: start, to: min(text.count, start + window)) : nil)
            let end = min(text.count, from + (1 << 16))
            guard
                let (found, length) = whole.map({ ($0, needle.count) })
                    ?? firstEscaped(needle, in: text, from: from, to: end)
                    ?? Self.longestPrefix(of: needle, in: text, from: from, to: end)
            else { return diagnostic }
            resumeAt[location] = found + length
            var placed = diagnostic
            placed.location = self.location(ofOffset: found, file: location.file)
            return placed
        }
    }

    /// Where `needle` is first written in `from..<to` with some of its characters escaped as
    /// Markdown and HTML write them — a backslash before ASCII punctuation (`a\_b.png`), an
    /// entity or numeric character reference (`a&amp;b.png`, `&#x26;`) — and how many bytes
    /// it takes there; nil when it is not.
    func firstEscaped(_ needle: [UInt8], in text: [UInt8], from: Int, to: Int) -> (Int, Int)? {
        guard let first = needle.first else { return nil }
        var start = from
        while start < to {
            let byte = text[start]
            if byte == first || byte == 0x5C || byte == 0x26, let end = escapedEnd(needle, in: text, at: start, to: to)
            {
                return (start, end - start)
            }
            start += 1
        }
        return nil
    }

    /// The offset just past `needle` written from `start` with escapes
    /// (``firstEscaped(_:in:from:to:)``), within `to`; nil when it is not written there.
    private func escapedEnd(_ needle: [UInt8], in text: [UInt8], at start: Int, to: Int) -> Int? {
        var offset = start
        var matched = 0
        while matched < needle.count {
            guard offset < to else { return nil }
            let byte = text[offset]
            // A reference or an escape is read as what it writes before `&` or `\` as itself.
            if byte == 0x26, let semicolon = text[offset..<min(to, offset + 33)].firstIndex(of: 0x3B),
                let decoded = decodeReference?(Array(text[offset...semicolon])), !decoded.isEmpty,
                decoded != Array(text[offset...semicolon]), needle[matched...].starts(with: decoded)
            {
                offset = semicolon + 1
                matched += decoded.count
            } else if byte == 0x5C, offset + 1 < to, text[offset + 1] == needle[matched],
                SourceCursor.isASCIIPunctuation(needle[matched])
            {
                offset += 2
                matched += 1
            } else if byte == needle[matched] {
                offset += 1
                matched += 1
            } else {
                return nil
            }
        }
        return offset
    }

    /// Where the longest start of `needle` found in `from..<to` is, and its length: the start of
    /// a quoted text whose printed characters are written apart (a word with a code span in
    /// it, `Environment`API_KEY``), at least ``shortestPrefix`` bytes; nil when none is.
    static func longestPrefix(of needle: [UInt8], in text: [UInt8], from: Int, to: Int) -> (Int, Int)? {
        var length = needle.count - 1
        while length >= shortestPrefix {
            if let found = firstIndex(of: Array(needle.prefix(length)), in: text, from: from, to: to) {
                return (found, length)
            }
            length -= 1
        }
        return nil
    }

    /// The shortest start of a quoted text ``longestPrefix(of:in:from:to:)`` places it by, bytes.
    static let shortestPrefix = 8

    /// The first offset in `from..<to` where `needle` starts in `text`; nil when none.
    static func firstIndex(of needle: [UInt8], in text: [UInt8], from: Int, to: Int) -> Int? {
        guard let first = needle.first, to - from >= needle.count else { return nil }
        var index = from
        let last = to - needle.count
        while index <= last {
            if text[index] == first, text[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    /// The 1-based line and byte column of UTF-8 offset `offset`.
    /// The formula markers of each line of `bytes` that has one.
    static func markerPlaces(_ bytes: [UInt8], lineStarts: [UInt32]) -> [Int: [FormulaMarkers.Place]] {
        var places: [Int: [FormulaMarkers.Place]] = [:]
        var from = 0
        while let marker = FormulaMarkers.firstMarker(in: bytes[from...]) {
            // The marker's line (binary search), read whole once.
            var low = 0
            var high = lineStarts.count - 1
            while low < high {
                let middle = (low + high + 1) / 2
                if Int(lineStarts[middle]) <= marker { low = middle } else { high = middle - 1 }
            }
            let end = low + 1 < lineStarts.count ? Int(lineStarts[low + 1]) : bytes.count
            places[low] = FormulaMarkers.places(in: bytes[Int(lineStarts[low])..<end])
            from = end
        }
        return places
    }

    func location(ofOffset offset: Int, file: String) -> SourceLocation {
        // The last line starting at or before `offset` (binary search).
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if Int(lineStarts[middle]) <= offset { low = middle } else { high = middle - 1 }
        }
        // A formula's marker is longer than the formula: the column is the file's.
        let start = Int(lineStarts[low])
        let column = offset - start + 1
        guard let places = markerPlaces[low] else { return SourceLocation(file: file, line: low + 1, column: column) }
        return SourceLocation(file: file, line: low + 1, column: FormulaMarkers.sourceColumn(column, among: places))
    }
}

/// Finds where the characters of a block's printed text were written, reading the block's text
/// in order beside its source from the block's start. Each character is looked for at or after
/// the place the last one was found, as the Markdown syntax can have written it:
///
/// - as itself, or escaped with a backslash (CommonMark 0.31.2 §2.4);
/// - as an entity or numeric character reference, `&amp;` `&#x1F600;` (§2.5);
/// - as straight quotes, `--`, `---` or `...` where smart punctuation made ‘ ’ “ ” – — …;
/// - U+FFFD for a character no PDF can hold, or a reference to none;
/// - a line break or space for any white space (a soft line break and the next line's
///   indentation or `>` markers print as one space).
///
/// What never prints is stepped over: emphasis and code markers, link destinations and titles
/// (`](…)`), reference labels (`][…]`), footnote references (`[^…]`), Pandoc attribute lists
/// (`]{…}`, `){…}`, `` `{…} ``), HTML tags and comments. A footnote reference's number and an
/// inline picture (U+FFFC) are found at their `[^` and `![` / `<img`.
///
/// A character found nowhere within ``window`` bytes gives nil and leaves the cursor where it
/// was (text Typeset added, such as a list number set from the item's start). The walk is
/// linear in the source it passes over.
public struct SourceCursor {
    private let source: SourcePositions
    private let file: String
    private var position: Int
    private var decoded: [[UInt8]: [UInt8]] = [:]
    /// Farthest a character is looked for past the last one found, bytes.
    public static let window = 4096

    /// A cursor at `start` (a block's location) in `source`; nil when the source is unknown or
    /// `start` is outside it.
    public init?(_ source: SourcePositions, at start: SourceLocation) {
        let source = source.positions(of: start.file)
        guard !source.isEmpty, let offset = source.offset(of: start) else { return nil }
        self.source = source
        file = start.file
        position = offset
    }

    /// Where `character` of the printed text was written, at or after the last character found;
    /// nil for white space and for a character not found (the cursor then stays put).
    public mutating func find(_ character: Character) -> SourceLocation? {
        guard !character.isWhitespace else { return nil }
        let target = Array(String(character).utf8)
        let bytes = source.bytes
        return bytes.withUnsafeBufferPointer { find(target, in: $0, kind: .text) }
    }

    /// Where a footnote reference (`[^label]`) was written, the cursor moved past it.
    public mutating func findFootnoteReference() -> SourceLocation? {
        let bytes = source.bytes
        return bytes.withUnsafeBufferPointer { find([], in: $0, kind: .footnote) }
    }

    /// Where an inline picture (`![…](…)` or `<img …>`) was written, the cursor moved to its alt text.
    public mutating func findPicture() -> SourceLocation? {
        let bytes = source.bytes
        return bytes.withUnsafeBufferPointer { find([], in: $0, kind: .picture) }
    }

    private enum Kind { case text, footnote, picture }

    private mutating func find(_ target: [UInt8], in buffer: UnsafeBufferPointer<UInt8>, kind: Kind) -> SourceLocation?
    {
        let end = min(buffer.count, position + Self.window)
        var offset = position
        while offset < end {
            let byte = buffer[offset]
            switch kind {
            case .footnote:
                if byte == 0x5B, offset + 1 < buffer.count, buffer[offset + 1] == 0x5E {
                    return found(at: offset, length: closing(0x5D, in: buffer, from: offset + 2) - offset)
                }
                offset += 1
                continue
            case .picture:
                if byte == 0x21, offset + 1 < buffer.count, buffer[offset + 1] == 0x5B {
                    return found(at: offset, length: 2)
                }
                if byte == 0x3C, offset + 4 < buffer.count, (buffer[offset + 1] | 0x20) == 0x69,
                    (buffer[offset + 2] | 0x20) == 0x6D,
                    (buffer[offset + 3] | 0x20) == 0x67
                {
                    return found(at: offset, length: closing(0x3E, in: buffer, from: offset + 4) - offset)
                }
                offset += 1
                continue
            case .text: break
            }
            let first = target[0]
            // Syntax that never prints: stepped over whole unless it is what is looked for.
            if let skip = syntaxLength(in: buffer, at: offset, lookingFor: first) {
                offset += skip
                continue
            }
            if byte == 0x5C, offset + 1 < buffer.count, Self.isASCIIPunctuation(buffer[offset + 1]) {
                // `\*`: the escaped character.
                if target.count == 1, buffer[offset + 1] == first { return found(at: offset, length: 2) }
                offset += 2
                continue
            }
            if byte == 0x26, let (length, text) = reference(in: buffer, at: offset) {
                if text.starts(with: target) || (text.isEmpty && target == Self.replacement) {
                    return found(at: offset, length: length)
                }
                offset += length
                continue
            }
            if let length = smartPunctuation(target, in: buffer, at: offset) {
                return found(at: offset, length: length)
            }
            if byte == first, offset + target.count <= buffer.count,
                (1..<target.count).allSatisfy({ buffer[offset + $0] == target[$0] })
            {
                return found(at: offset, length: target.count)
            }
            if target == Self.replacement, let length = Self.unprintable(in: buffer, at: offset) {
                return found(at: offset, length: length)
            }
            offset += 1
        }
        return nil
    }

    private mutating func found(at offset: Int, length: Int) -> SourceLocation {
        position = offset + max(1, length)
        return source.location(ofOffset: offset, file: file)
    }

    static let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]

    /// One past the first `byte` at or after `from` on the same paragraph (a blank line ends the
    /// search), or `from` when there is none within the window.
    private func closing(_ byte: UInt8, in buffer: UnsafeBufferPointer<UInt8>, from: Int) -> Int {
        var offset = from
        let end = min(buffer.count, from + Self.window)
        while offset < end {
            if buffer[offset] == byte { return offset + 1 }
            if buffer[offset] == 0x0A, offset + 1 < buffer.count, buffer[offset + 1] == 0x0A { break }
            offset += 1
        }
        return from
    }

    /// The length of non-printing syntax starting at `offset`: a link destination `](…)`, a
    /// reference label `][…]`, a footnote reference `[^…]`, an attribute list after `]`, `)` or
    /// a backquote, an HTML tag or comment. nil when none starts there, or when its first byte
    /// is the byte looked for and it could be text.
    private func syntaxLength(in buffer: UnsafeBufferPointer<UInt8>, at offset: Int, lookingFor first: UInt8) -> Int? {
        let byte = buffer[offset]
        let next = offset + 1 < buffer.count ? buffer[offset + 1] : 0
        switch byte {
        case 0x5D where next == 0x28 && first != 0x28:  // ](destination "title")
            var depth = 0
            var cursor = offset + 1
            let end = min(buffer.count, offset + Self.window)
            while cursor < end {
                if buffer[cursor] == 0x5C {
                    cursor += 2
                    continue
                }
                if buffer[cursor] == 0x28 {
                    depth += 1
                } else if buffer[cursor] == 0x29 {
                    depth -= 1
                    if depth == 0 { return cursor + 1 - offset }
                }
                cursor += 1
            }
            return nil
        case 0x5D where next == 0x5B && first != 0x5B:  // ][label]
            let close = closing(0x5D, in: buffer, from: offset + 2)
            return close > offset + 2 ? close - offset : nil
        case 0x5B where next == 0x5E && first != 0x5B:  // [^label]
            let close = closing(0x5D, in: buffer, from: offset + 2)
            return close > offset + 2 ? close - offset : nil
        case 0x7B
        where first != 0x7B && offset > 0 && [0x5D, 0x29, 0x60, 0x20].contains(buffer[offset - 1])
            && (buffer[offset - 1] != 0x20 || next == 0x23 || next == 0x2E):
            // {#id .class key=value} after `]`, `)`, a code span, or a heading's text.
            let close = closing(0x7D, in: buffer, from: offset + 1)
            return close > offset + 1 ? close - offset : nil
        case 0x3C where first != 0x3C:
            // <!-- … -->
            if next == 0x21, offset + 3 < buffer.count, buffer[offset + 2] == 0x2D, buffer[offset + 3] == 0x2D {
                var cursor = offset + 4
                let end = min(buffer.count, offset + Self.window)
                while cursor + 2 < end {
                    if buffer[cursor] == 0x2D, buffer[cursor + 1] == 0x2D, buffer[cursor + 2] == 0x3E {
                        return cursor + 3 - offset
                    }
                    cursor += 1
                }
                return nil
            }
            // A tag (`<kbd>`, `</b>`, `<br/>`); an autolink (`<https://…>`, `<a@b.c>`) prints its text.
            var cursor = offset + 1
            if cursor < buffer.count, buffer[cursor] == 0x2F { cursor += 1 }
            guard cursor < buffer.count, Self.isLetter(buffer[cursor]) else { return nil }
            while cursor < buffer.count,
                Self.isLetter(buffer[cursor]) || (buffer[cursor] >= 0x30 && buffer[cursor] <= 0x39)
                    || buffer[cursor] == 0x2D
            { cursor += 1 }
            guard cursor < buffer.count, [0x20, 0x09, 0x0A, 0x3E, 0x2F].contains(buffer[cursor]) else { return nil }
            let close = closing(0x3E, in: buffer, from: cursor)
            return close > cursor ? close - offset : nil
        default:
            return nil
        }
    }

    /// A character reference at `offset` and what it decodes to (empty: decodes to U+FFFD or nothing).
    private mutating func reference(in buffer: UnsafeBufferPointer<UInt8>, at offset: Int) -> (Int, [UInt8])? {
        var cursor = offset + 1
        let end = min(buffer.count, offset + 40)
        while cursor < end, buffer[cursor] != 0x3B {
            guard
                Self.isLetter(buffer[cursor]) || (buffer[cursor] >= 0x30 && buffer[cursor] <= 0x39)
                    || buffer[cursor] == 0x23
            else { return nil }
            cursor += 1
        }
        guard cursor < end, cursor > offset + 1 else { return nil }
        let bytes = Array(buffer[offset...cursor])
        let text: [UInt8]
        if let known = decoded[bytes] {
            text = known
        } else {
            guard let result = source.decodeReference?(bytes), result != bytes else { return nil }
            decoded[bytes] = result
            text = result
        }
        return (cursor + 1 - offset, text == Self.replacement ? [] : text)
    }

    /// The length of the straight punctuation at `offset` that smart punctuation turns into `target`.
    private func smartPunctuation(_ target: [UInt8], in buffer: UnsafeBufferPointer<UInt8>, at offset: Int) -> Int? {
        let byte = buffer[offset]
        func hyphens() -> Int {
            var cursor = offset
            while cursor < buffer.count, buffer[cursor] == 0x2D { cursor += 1 }
            return cursor - offset
        }
        switch target {
        case [0xE2, 0x80, 0x98], [0xE2, 0x80, 0x99]: return byte == 0x27 ? 1 : nil  // ‘ ’
        case [0xE2, 0x80, 0x9C], [0xE2, 0x80, 0x9D]: return byte == 0x22 ? 1 : nil  // “ ”
        case [0xE2, 0x80, 0x93]: return byte == 0x2D && hyphens() >= 2 ? 2 : nil  // –
        case [0xE2, 0x80, 0x94]: return byte == 0x2D && hyphens() >= 2 ? min(3, hyphens()) : nil  // —
        // An ellipsis (…) the source may have written as three full stops.
        case [0xE2, 0x80, 0xA6]:
            return byte == 0x2E && offset + 2 < buffer.count && buffer[offset + 1] == 0x2E && buffer[offset + 2] == 0x2E
                ? 3 : nil
        default: return nil
        }
    }

    /// The length of a noncharacter or control character at `offset` (printed as U+FFFD), else nil.
    static func unprintable(in buffer: UnsafeBufferPointer<UInt8>, at offset: Int) -> Int? {
        let byte = buffer[offset]
        if byte < 0x20 { return byte == 0x09 || byte == 0x0A || byte == 0x0D ? nil : 1 }
        if byte == 0x7F { return 1 }
        return nil
    }

    static func isASCIIPunctuation(_ byte: UInt8) -> Bool {
        (0x21...0x2F).contains(byte) || (0x3A...0x40).contains(byte) || (0x5B...0x60).contains(byte)
            || (0x7B...0x7E).contains(byte)
    }

    static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
}
