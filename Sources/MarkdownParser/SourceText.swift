import DocumentModel
import Foundation

/// A Pandoc fenced-div fence line (`::: {.note}`, `::: note`, `:::`) found by the pre-pass.
struct DivFence {
    enum Kind {
        case open(Attributes)
        case close
    }
    var kind: Kind
    var location: SourceLocation
    /// The fence as written, after any container prefix: restored when the marker that replaced
    /// it does not end up as an HTML block of its own (inside code, a paragraph, an HTML block).
    var original: String
}

/// The source prepared for cmark-gfm, line for line with the original so that every line number
/// cmark reports is a line number of the file.
///
/// - YAML front matter lines are blanked (their text is returned separately).
/// - Each div fence line that `DivFences` accepts (a matched pair, the opening one where a block
///   can start) keeps its container prefix (`> `, indentation) and has the fence
///   replaced by a one-line HTML comment marker, `<!--typeset-div:N-->`. CommonMark HTML
///   blocks of type 2 start with `<!--`, may interrupt a paragraph and end on the line holding
///   `-->` (CommonMark spec 0.30, §4.6), so each marker becomes its own `html_block` node in
///   whatever container the fence was written in. The converter rebuilds the nesting from them.
///   Fenced code is not skipped here on purpose: a marker that lands in code, in a paragraph
///   or inside another HTML block is put back verbatim, which is always correct, whereas a
///   line-based guess of code fences inside containers is not.
struct SourceText {
    /// The text given to cmark-gfm.
    var cmarkInput: [UInt8]
    /// `cmarkInput` by line: for labels and escapes at a position.
    var lines: SourceLines
    /// Div fences by marker number.
    var fences = SortedTable<DivFence>()
    /// The marker comment's name, made unique against the input.
    var markerName: String
    /// The front matter text between the fences and the source line of its first line.
    var frontMatter: (text: [UInt8], firstLine: Int)?
    /// The front matter's text, nil when there is none.
    var frontMatterText: String? { frontMatter.map { String(decoding: $0.text, as: UTF8.self) } }
    /// Lines that look like div fences, by 0-based line index: candidates for `prepare`.
    var candidates = SortedTable<DivFence>()
    private var input: [UInt8] = []
    private var ranges: [Range<Int>] = []
    private var bodyStart = 0

    /// Warnings found while preparing the text (something that looked like front matter).
    var diagnostics: [Diagnostic] = []
    /// Whether the conversion keeps escaped punctuation for smart punctuation to leave as
    /// written (``InlineSyntax/keepsEscapedPunctuation``).
    var keepsEscapedPunctuation = false
    /// The table rows whose cells past ``MathSyntax/maximumTableColumns`` the marking pass
    /// escaped: line (1-based, in the file) → the cells the row was written with.
    var writtenCells: [Int: Int] = [:]
    /// The lines (1-based, in the file) where a definition opens with a fenced code block, its
    /// marker made a space for cmark-gfm (``PandocDefinitions/rewritingOpenings(_:firstLine:)``).
    var definitionOpenings: Set<Int> = []
    /// Pandoc's list markers written as figures before the parse, by line (``PandocListMarkers``).
    var listMarkers: [Int: PandocListMarkers.Marker] = [:]

    init(_ text: String, file: String) {
        let input = Array(text.utf8)
        // Line ranges of the input, without their `\n`.
        var ranges: [Range<Int>] = []
        var lineStart = 0
        for (i, b) in input.enumerated() where b == 0x0A {
            ranges.append(lineStart..<i)
            lineStart = i + 1
        }
        ranges.append(lineStart..<input.count)

        var name = "typeset-div"
        while Self.contains(input, Array(name.utf8)) { name += "x" }
        markerName = name

        // Front matter: `---` on the first line, not followed by a blank line (Pandoc's rule, so
        // a document opening with a thematic break is not swallowed), up to a `---`/`...` line,
        // and YAML that loads to a mapping (Pandoc: "a valid YAML object"). Anything else is
        // Markdown — a rule, a setext heading — with a warning.
        func trimmed(_ line: Int) -> ArraySlice<UInt8> { Self.trimmedEnd(input[ranges[line]]) }
        if trimmed(0).elementsEqual("---".utf8), ranges.count > 1, !trimmed(1).isEmpty,
            let close = ranges.indices.dropFirst().first(where: {
                trimmed($0).elementsEqual("---".utf8) || trimmed($0).elementsEqual("...".utf8)
            })
        {
            let yaml = Array(input[ranges[1].lowerBound..<ranges[close].lowerBound].dropLast())
            if let (problem, line, column) = FrontMatter.notFrontMatter(yaml) {
                diagnostics.append(
                    Diagnostic(
                        .warning,
                        "the lines between '---' look like front matter but hold \(problem); read as Markdown",
                        at: SourceLocation(file: file, line: 2 + line, column: column), kind: .frontMatter))
            } else {
                frontMatter = (yaml, 2)
                bodyStart = close + 1
            }
        } else if trimmed(0).elementsEqual("---".utf8), ranges.count > 1, Self.looksLikeYAMLKey(trimmed(1)) {
            // `---` then `key: value` and no closing line: set as Markdown (a rule, a setext
            // heading…), but said, since its author most likely meant front matter.
            diagnostics.append(
                Diagnostic(
                    .warning,
                    "front matter opened by '---' is not closed (a line '---' or '...' after its keys closes it); "
                        + "the lines are set as Markdown",
                    at: SourceLocation(file: file, line: 1, column: 1), kind: .frontMatter))
        } else if let block = PandocTitleBlock.frontMatter(input, lines: ranges) {
            frontMatter = (block.yaml, 1)
            bodyStart = block.bodyLine
        }

        var prefixes = SortedTable<Int>()
        for (index, range) in ranges.enumerated() where index >= bodyStart {
            if let (prefixLength, fence) = Self.divFence(input[range], line: index + 1, file: file) {
                candidates.append(fence, at: index)
                prefixes.append(prefixLength, at: index)
            }
        }
        self.input = input
        self.ranges = ranges
        self.prefixLengths = prefixes
        cmarkInput = []
        lines = SourceLines(buffer: [], ranges: [])
        prepare(accepting: [])
    }

    /// Whether `line` reads as a YAML mapping entry, `key:` or `key: value` (a key of letters,
    /// digits, `-` and `_`, starting with a letter or `_`).
    static func looksLikeYAMLKey(_ line: ArraySlice<UInt8>) -> Bool {
        guard let first = line.first, (first | 0x20) >= 0x61 && (first | 0x20) <= 0x7A || first == 0x5F,
            let colon = line.firstIndex(of: 0x3A)
        else { return false }
        let key = line[line.startIndex..<colon]
        let isKeyByte: (UInt8) -> Bool = {
            ((($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D || $0 == 0x5F)
        }
        guard key.allSatisfy(isKeyByte) else { return false }
        let after = colon + 1
        return after == line.endIndex || line[after] == 0x20 || line[after] == 0x09
    }

    private var prefixLengths = SortedTable<Int>()

    /// The byte offset at which the Markdown after the front matter starts (0 without front
    /// matter).
    var bodyOffset: Int { bodyStart < ranges.count ? ranges[bodyStart].lowerBound : input.count }

    /// The input's bytes, as given (front matter and fences as written).
    var inputBytes: [UInt8] { input }

    /// Whether ``lines`` holds the input as given, byte for byte (no front matter blanked, no
    /// fence replaced by a marker): the buffer can then stand for the source text itself.
    var isInputAsGiven: Bool { bodyStart == 0 && fences.isEmpty }

    /// What converting cmark's tree still reads (lines, fences, the marker name), without the
    /// input copies the parse needed: kept as long as the document converts its blocks lazily.
    var forConversion: SourceText {
        var kept = self
        kept.cmarkInput = []
        kept.input = []
        kept.ranges = []
        kept.candidates = SortedTable()
        kept.prefixLengths = SortedTable()
        kept.frontMatter = nil
        return kept
    }

    /// Builds `cmarkInput` with the fences on `accepted` lines (0-based indices of
    /// ``candidates``) replaced by markers; every other line as written (front matter blank).
    mutating func prepare(accepting accepted: Set<Int>) {
        if bodyStart == 0, accepted.isEmpty {
            // Every line as written: the input itself, its storage shared rather than copied.
            fences = SortedTable()
            cmarkInput = input
            lines = SourceLines(buffer: input, ranges: ranges)
            return
        }
        var output: [UInt8] = []
        output.reserveCapacity(input.count + accepted.count * 24)
        var outputRanges: [Range<Int>] = []
        outputRanges.reserveCapacity(ranges.count)
        fences = SortedTable()
        var count = 0
        for (index, range) in ranges.enumerated() {
            if index > 0 { output.append(0x0A) }
            let start = output.count
            if index < bodyStart {
                // Front matter: blank line.
            } else if accepted.contains(index), let fence = candidates[index], let prefixLength = prefixLengths[index] {
                count += 1
                fences.append(fence, at: count)
                output += input[range.lowerBound..<(range.lowerBound + prefixLength)]
                output += "<!--\(markerName):\(count)-->".utf8
            } else {
                output += input[range]
            }
            outputRanges.append(start..<output.count)
        }
        cmarkInput = output
        lines = SourceLines(buffer: output, ranges: outputRanges)
    }

    /// Whether `needle` occurs in `haystack` (a byte search; no Foundation here).
    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, haystack.count >= needle.count else { return false }
        var offset = 0
        let last = haystack.count - needle.count
        while offset <= last {
            if haystack[offset] == first, haystack[offset..<(offset + needle.count)].elementsEqual(needle) {
                return true
            }
            offset += 1
        }
        return false
    }

    /// The marker number if `text` (an HTML block or inline literal) is exactly one marker.
    func markerNumber(in text: String) -> Int? {
        var trimmed = Substring(text)
        while let character = trimmed.first, character.isWhitespace { trimmed.removeFirst() }
        while let character = trimmed.last, character.isWhitespace { trimmed.removeLast() }
        let head = "<!--\(markerName):"
        guard trimmed.hasPrefix(head), trimmed.hasSuffix("-->") else { return nil }
        let digits = trimmed.dropFirst(head.count).dropLast(3)
        guard let number = Int(digits), fences[number] != nil else { return nil }
        return number
    }

    /// `text` with every marker replaced by the fence it stands for.
    func restoringFences(in text: String) -> String {
        guard !fences.isEmpty, text.contains("<!--\(markerName):") else { return text }
        var result = text
        for (number, fence) in fences.entries {
            result = result.replacingAll("<!--\(markerName):\(number)-->", with: fence.original)
        }
        return result
    }

    /// Recognises a fence line: optional container prefix (spaces, tabs, `>`), 3+ colons,
    /// then nothing (close), a word (`::: note`) or an attribute list, optionally followed by
    /// more colons (Pandoc allows `::: note :::`). Returns the prefix length and the fence.
    static func divFence(_ slice: ArraySlice<UInt8>, line number: Int, file: String) -> (Int, DivFence)? {
        // Quick rejection first: most lines do not start with `:`, `>` or a space.
        guard let first = slice.first,
            first == UInt8(ascii: ":") || first == 0x20 || first == 0x09 || first == UInt8(ascii: ">")
        else { return nil }
        let line = Array(slice)
        var cursor = 0
        while cursor < line.count, line[cursor] == 0x20 || line[cursor] == 0x09 || line[cursor] == UInt8(ascii: ">") {
            cursor += 1
        }
        let prefix = cursor
        var colons = 0
        while cursor < line.count, line[cursor] == UInt8(ascii: ":") {
            cursor += 1
            colons += 1
        }
        guard colons >= 3 else { return nil }
        var rest = Array(line[cursor...])
        let restStart = cursor
        let original = String(decoding: trimmedEnd(line[prefix...]), as: UTF8.self)
        let location = SourceLocation(file: file, line: number, column: prefix + 1)
        // Leading whitespace of `rest`.
        var lead = 0
        while lead < rest.count, rest[lead] == 0x20 || rest[lead] == 0x09 { lead += 1 }
        rest = Array(trimmedEnd(rest[...]))
        while let last = rest.last, last == UInt8(ascii: ":") { rest.removeLast() }
        rest = Array(trimmedEnd(rest[...]))
        if rest.count <= lead {
            // Only colons: a closing fence (trailing colons of an opening one need a name).
            return (prefix, DivFence(kind: .close, location: location, original: original))
        }
        let body = Array(rest[lead...])
        let bodyColumn = restStart + lead + 1  // 1-based column of body[0]
        if body.first == UInt8(ascii: "{") {
            guard let parsed = AttributeListParser.parse(body), parsed.end == body.count else { return nil }
            let attributes = parsed.attributes { offset in
                SourceLocation(file: file, line: number, column: bodyColumn + offset)
            }
            return (prefix, DivFence(kind: .open(attributes), location: location, original: original))
        }
        // `::: name`: one word, used as a class.
        let isName = { (byte: UInt8) in AttributeListParser.isNameByte(byte) && byte != UInt8(ascii: ":") }
        let bodyLocation = SourceLocation(file: file, line: number, column: bodyColumn)
        guard body.allSatisfy(isName) else {
            return titledAdmonition(body, isName: isName, at: bodyLocation).map {
                (prefix, DivFence(kind: .open($0), location: location, original: original))
            }
        }
        let word = String(decoding: body, as: UTF8.self)
        let attributes = Attributes(classes: [word], location: bodyLocation)
        return (prefix, DivFence(kind: .open(attributes), location: location, original: original))
    }

    /// An admonition's fence with a title (VitePress's `::: warning Read this`, Docusaurus's
    /// `:::tip Pro tip` and `:::tip[Pro tip]`): its kind's name as the class and the title as
    /// `title`; nil when the word is no admonition's (``AlertKind/init(admonition:)``), where a
    /// fence with more than a word is no fence, as in Pandoc.
    private static func titledAdmonition(
        _ body: [UInt8], isName: (UInt8) -> Bool, at location: SourceLocation
    ) -> Attributes? {
        let nameLength = body.prefix { isName($0) && $0 != UInt8(ascii: "[") }.count
        let name = String(decoding: body[..<nameLength], as: UTF8.self)
        guard nameLength > 0, AlertKind(admonition: name) != nil else { return nil }
        var title = body[nameLength...]
        if title.first == UInt8(ascii: "[") {
            guard title.last == UInt8(ascii: "]") else { return nil }
            title = title.dropFirst().dropLast()
        } else {
            guard title.first == 0x20 || title.first == 0x09 else { return nil }
        }
        let text = String(decoding: title, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        return Attributes(
            classes: [name], pairs: [Attributes.Pair(key: "title", value: text, location: location)],
            location: location)
    }

    /// `bytes` without trailing spaces, tabs and carriage returns.
    static func trimmedEnd(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var end = bytes.endIndex
        while end > bytes.startIndex, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 || bytes[end - 1] == 0x0D {
            end -= 1
        }
        return bytes[bytes.startIndex..<end]
    }
}

/// Lines of one buffer, by 0-based index (line number − 1), without their `\n`.
struct SourceLines {
    /// The text's bytes; for a window's lines (``window(_:base:)``) only those from `base` on.
    var buffer: [UInt8]
    /// Each line's bytes in the text (offsets into the whole text, also for a window's lines).
    var ranges: [Range<Int>]
    /// The offset in the text of `buffer[0]`: 0 but for a window's lines.
    private(set) var base = 0
    /// For a window's lines: set when a line outside the buffer was asked for.
    private(set) var outside: OutsideReads?
    var count: Int { ranges.count }

    init(buffer: [UInt8], ranges: [Range<Int>]) {
        self.buffer = buffer
        self.ranges = ranges
    }

    /// A class so that reading a line (a non-mutating subscript) can record a miss.
    final class OutsideReads { var happened = false }

    /// Where the formula markers of each line asked about stand (``sourceColumn(line:column:)``),
    /// found once a line.
    private let markerPlaces = LineCache<[FormulaMarkers.Place]>()

    /// Something found once for each line asked about. Copies of the lines share it (a document
    /// rendered twice at once reads it from two threads): a lock guards it.
    final class LineCache<Value>: @unchecked Sendable {
        private var byLine: [Int: Value] = [:]
        private let lock = NSLock()

        /// The value of line `index`, found by `find` the first time.
        func value(ofLine index: Int, _ find: () -> Value) -> Value {
            lock.lock()
            defer { lock.unlock() }
            if let known = byLine[index] { return known }
            let found = find()
            byLine[index] = found
            return found
        }
    }

    /// The file's column for `column` (1-based) of line `index` (0-based) of this text, whose
    /// formulas are markers (``FormulaMarkers``) longer than the formulas they stand for. Each
    /// line is searched for markers once.
    func sourceColumn(line index: Int, column: Int) -> Int {
        guard index >= 0, index < ranges.count else { return column }
        let places = markerPlaces.value(ofLine: index) { FormulaMarkers.places(in: slice(index)) }
        return FormulaMarkers.sourceColumn(column, among: places)
    }

    /// Which lines hold a `\` or a `&` (an escape or a character reference may stand there),
    /// found once a line.
    private let escapeLines = LineCache<Bool>()

    /// Whether line `index` (0-based) holds a `\` or a `&`: only there can a character be
    /// written escaped or as a reference. Each line is read once.
    func mayHoldEscapes(_ index: Int) -> Bool {
        guard index >= 0, index < ranges.count else { return false }
        return escapeLines.value(ofLine: index) {
            slice(index).contains { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "&") }
        }
    }

    /// The lines of a window of the text: `bytes` are the text's from offset `base`, the
    /// ranges the whole text's. A line outside them reads as empty and marks ``outside``, so a
    /// caller can tell its result may differ and read the whole text instead.
    static func window(_ bytes: [UInt8], base: Int, ranges: [Range<Int>]) -> SourceLines {
        var lines = SourceLines(buffer: bytes, ranges: ranges)
        lines.base = base
        lines.outside = OutsideReads()
        return lines
    }

    /// A copy of line `index` (0-based), indexed from 0.
    subscript(index: Int) -> [UInt8] {
        let range = ranges[index]
        guard let outside else { return Array(buffer[range]) }
        guard range.lowerBound >= base, range.upperBound <= base + buffer.count else {
            outside.happened = true
            return []
        }
        return Array(buffer[(range.lowerBound - base)..<(range.upperBound - base)])
    }

    /// Line `index` (0-based) without copying it: a slice of the buffer, so its first byte is
    /// at `startIndex`, not 0. Reading a few bytes of a long line (a footnote reference's label
    /// in a paragraph of 100,000 of them) costs those bytes, not the line.
    func slice(_ index: Int) -> ArraySlice<UInt8> {
        let range = ranges[index]
        guard let outside else { return buffer[range] }
        guard range.lowerBound >= base, range.upperBound <= base + buffer.count else {
            outside.happened = true
            return []
        }
        return buffer[(range.lowerBound - base)..<(range.upperBound - base)]
    }
}

extension String {
    /// Replaces every occurrence of `target` (no Foundation in this module).
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = ""
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        result += rest
        return result
    }
}

/// Values by ascending integer key (a line index, a marker number), in two dense arrays: a
/// dictionary of fences cost about 370 bytes per fence (buckets at most three quarters full,
/// each the size of a whole `DivFence`), the parse's largest cost for a text of many divs.
/// Keys are added in ascending order; a lookup is a binary search.
struct SortedTable<Value> {
    /// The keys, ascending.
    private(set) var keys: [Int] = []
    /// The value of each key, in the same order.
    private(set) var values: [Value] = []

    var isEmpty: Bool { keys.isEmpty }
    var count: Int { keys.count }

    /// Adds `value` at `key`, which must be greater than every key already held.
    mutating func append(_ value: Value, at key: Int) {
        precondition(keys.last.map { $0 < key } ?? true, "keys are added in ascending order")
        keys.append(key)
        values.append(value)
    }

    /// The index in ``keys`` of the first key not less than `key`.
    private func lowerBound(_ key: Int) -> Int {
        var low = 0
        var high = keys.count
        while low < high {
            let mid = (low + high) / 2
            if keys[mid] < key { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The value at `key`, nil when there is none.
    subscript(key: Int) -> Value? {
        let index = lowerBound(key)
        return index < keys.count && keys[index] == key ? values[index] : nil
    }

    /// The keys within `range`, ascending.
    func keys(in range: ClosedRange<Int>) -> ArraySlice<Int> {
        keys[lowerBound(range.lowerBound)..<lowerBound(range.upperBound + 1)]
    }

    /// Every key with its value, ascending.
    var entries: Zip2Sequence<[Int], [Value]> { zip(keys, values) }
}
