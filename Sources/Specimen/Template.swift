import DocumentModel
import Foundation

/// A value a specimen template can refer to.
public indirect enum TemplateValue: Sendable {
    /// Inserted as text; a section over non-empty text renders once.
    case text(String)
    /// A section over `true` renders once, over `false` not at all.
    case bool(Bool)
    /// A section renders once per item, with the item's names in scope.
    case list([TemplateContext])
    /// Names reached with a dot (`theme.name`); a section over it renders once with its names in scope.
    case context(TemplateContext)

    var isTruthy: Bool {
        switch self {
        case .text(let text): !text.isEmpty
        case .bool(let value): value
        case .list(let items): !items.isEmpty
        case .context: true
        }
    }
}

/// Named values for a template (one scope).
public struct TemplateContext: Sendable {
    /// The values by name (undotted; `theme.name` is `theme` here, then `name` inside it).
    public var values: [String: TemplateValue]
    /// Creates a scope holding `values` (empty by default).
    public init(_ values: [String: TemplateValue] = [:]) { self.values = values }
    /// The value named `name` in this scope only (outer scopes are not searched); nil when
    /// absent. Setting nil removes it.
    public subscript(name: String) -> TemplateValue? {
        get { values[name] }
        set { values[name] = newValue }
    }
}

/// A template that cannot be expanded (an unclosed or stray section tag).
public struct TemplateError: Error, CustomStringConvertible, Sendable {
    /// 1-based line of the template where the problem is.
    public var line: Int
    /// 1-based column (characters) of the tag's `{{` on that line.
    public var column: Int
    /// What is wrong, e.g. an unclosed section tag.
    public var message: String
    /// `line:column: message`, to follow the template's path.
    public var description: String { "\(line):\(column): \(message)" }

    init(_ position: Template.Position, message: String) {
        self.line = position.line
        self.column = position.column
        self.message = message
    }
}

/// A small, documented subset of Mustache (mustache.github.io, `mustache(5)`) that expands a
/// specimen template into Markdown:
///
/// - `{{name}}` inserts a value with every ASCII punctuation character escaped (`\*`, `\_`,
///   `\[`, `\|`, `\$` …), so theme names and sample text never turn into markup, math or
///   curly quotes, or break a table row;
/// - `{{{name}}}` (or `{{& name}}`) inserts it as written — for attribute values such as
///   `{.body size={{{role.sizeValue}}}}` and for Markdown the builder made on purpose;
/// - `{{#name}} … {{/name}}` renders its body once per item of a list (the item's names in
///   scope, outer names still visible), once for `true`, non-empty text or a group, and not at
///   all for `false`, empty text, an empty list or a missing name;
/// - `{{^name}} … {{/name}}` renders its body only when `{{#name}}` would not;
/// - `{{! comment }}` is dropped; `{{!-- comment --}}` (Handlebars) may contain `}}`.
///
/// Names may be dotted (`theme.name`, `role.size`): the first part is looked up from the
/// innermost scope outwards. A section or comment tag alone on its line takes the whole line
/// with it (Mustache "standalone" tags), so templates can put tags on lines of their own.
/// An unknown name expands to nothing and is reported in ``Expansion/unknownNames``.
public enum Template {
    /// The expanded text, the names that were not found, and where each stretch of the text
    /// came from in the template.
    public struct Expansion: Sendable {
        /// The expanded Markdown.
        public var text: String
        /// Names not found (or a list or group used as text), each once, in order of first use.
        public var unknownNames: [String]
        /// Where each of ``unknownNames`` is first used in the template (same order).
        public var unknownNamePositions: [Position]
        /// Each stretch of ``text`` in order: its first UTF-8 byte in the text as expanded, and
        /// where it came from.
        var origins: [(offset: Int, origin: Origin)] = []
        /// The template position of each character of the template's text, once lines that
        /// hold only a section or comment tag are gone (``removingStandaloneTagLines(_:)``).
        var templatePositions: [Position] = []
        /// UTF-8 bytes removed from the front of ``text`` since it was expanded.
        var removedPrefix = 0
        /// UTF-8 bytes of ``text`` as expanded; text appended after them came from elsewhere.
        var expandedLength = 0

        /// Where a stretch of the expanded text came from.
        enum Origin: Sendable {
            /// Template text, from this character of ``templatePositions`` on.
            case literal(Int)
            /// A value the tag at this position inserted.
            case inserted(Position)
        }

        /// Removes the blank lines and spaces ``text`` starts with (a template's leading
        /// comment block leaves some), keeping ``templatePosition(line:column:)`` right.
        public mutating func removeLeadingBlankSpace() {
            let kept = text.drop { $0 == "\n" || $0 == " " }
            removedPrefix += text.utf8.count - kept.utf8.count
            text = String(kept)
        }

        /// The template position of the character at 1-based `line` and UTF-8 byte `column` of
        /// ``text``, as a parser of the expanded Markdown reports it: the character itself when
        /// the template wrote it, the tag when a value put it there; nil for a place past the
        /// expansion (text appended to it afterwards).
        public func templatePosition(line: Int, column: Int) -> Position? {
            let bytes = Array(text.utf8)
            var lineStart = 0
            for _ in 1..<max(1, line) {
                guard let newline = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
                lineStart = newline + 1
            }
            let place = lineStart + max(0, column - 1)
            let expanded = removedPrefix + place
            guard place < bytes.count, expanded < expandedLength,
                let index = origins.lastIndex(where: { $0.offset <= expanded })
            else { return nil }
            switch origins[index].origin {
            case .inserted(let tag): return tag
            case .literal(let first):
                // Bytes removed from the front are spaces and line ends, a character each.
                let removed = max(0, removedPrefix - origins[index].offset)
                let from = max(0, origins[index].offset - removedPrefix)
                let character = first + removed + String(decoding: bytes[from..<place], as: UTF8.self).count
                return character < templatePositions.count ? templatePositions[character] : nil
            }
        }
    }

    /// A 1-based line and column (characters) in the template as written.
    public struct Position: Hashable, Sendable {
        /// 1-based line.
        public var line: Int
        /// 1-based column, in characters.
        public var column: Int
    }

    enum Token {
        /// Template text and the index of its first character in the template's positions.
        case text(String, start: Int)
        case variable(String, escaped: Bool, at: Position)
        case open(String, inverted: Bool, at: Position)
        case close(String, at: Position)
    }

    indirect enum Node {
        case text(String, start: Int)
        case variable(String, escaped: Bool, at: Position)
        case section(String, inverted: Bool, [Node], at: Position)
    }

    /// Expands `template` with `context`.
    /// - Throws: ``TemplateError`` for an unclosed, mismatched or stray section tag.
    public static func expand(_ template: String, context: TemplateContext) throws -> Expansion {
        let (text, positions) = removingStandaloneTagLines(template)
        let nodes = try parse(tokenize(text, positions: positions))
        var output = Output()
        render(nodes, scopes: [context], into: &output)
        var seen = Set<String>()
        let firsts = output.unknown.filter { seen.insert($0.0).inserted }
        return Expansion(
            text: output.text, unknownNames: firsts.map(\.0), unknownNamePositions: firsts.map(\.1),
            origins: output.origins, templatePositions: positions, expandedLength: output.text.utf8.count)
    }

    /// What ``render(_:scopes:into:)`` writes: the text, where each stretch of it came from,
    /// and the names not found.
    struct Output {
        var text = ""
        var origins: [(offset: Int, origin: Expansion.Origin)] = []
        var unknown: [(String, Position)] = []

        mutating func append(_ piece: String, from origin: Expansion.Origin) {
            guard !piece.isEmpty else { return }
            origins.append((text.utf8.count, origin))
            text += piece
        }
    }

    /// Lines holding only one section or comment tag (and white space) keep the tag, lose the
    /// indentation and line ending. Also returns, for each character of the result, its line
    /// and column in `text`, so messages point at the template as written.
    static func removingStandaloneTagLines(_ text: String) -> (String, [Position]) {
        var out = ""
        var positions: [Position] = []
        func append(_ piece: Substring, line: Int, firstColumn: Int) {
            out += piece
            positions += (0..<piece.count).map { Position(line: line, column: firstColumn + $0) }
        }
        var lines = text.lines()
        if lines.last == "" { lines.removeLast() }
        for (index, line) in lines.enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("{{"), trimmed.hasSuffix("}}"), let kind = trimmed.dropFirst(2).first,
                "#^/!".contains(kind),
                trimmed.dropFirst(2).dropLast(2).firstRange(of: "}}") == nil
            {
                let indent = line.prefix { $0 == " " || $0 == "\t" }.count
                append(Substring(trimmed), line: index + 1, firstColumn: indent + 1)
            } else {
                append(line, line: index + 1, firstColumn: 1)
                if line.endIndex < text.endIndex {
                    // The line's own ending, LF or CR LF.
                    append(text[line.endIndex...].prefix(1), line: index + 1, firstColumn: line.count + 1)
                }
            }
        }
        return (out, positions)
    }

    static func tokenize(_ text: String, positions: [Position]) throws -> [Token] {
        var tokens: [Token] = []
        var rest = Substring(text)
        var offset = 0  // characters of `text` before `rest`
        while let open = rest.firstRange(of: "{{") {
            let before = rest[..<open.lowerBound]
            if !before.isEmpty { tokens.append(.text(String(before), start: offset)) }
            offset += before.count
            let position = offset < positions.count ? positions[offset] : Position(line: 1, column: 1)
            var afterOpen = rest[open.upperBound...]
            offset += 2
            if afterOpen.hasPrefix("!--") {
                // Handlebars block comment: may contain `}}`, ends at `--}}`.
                guard let end = afterOpen.firstRange(of: "--}}") else {
                    throw TemplateError(position, message: "'{{!--' without a closing '--}}'")
                }
                offset += afterOpen[..<end.upperBound].count
                rest = afterOpen[end.upperBound...]
                continue
            }
            let triple = afterOpen.hasPrefix("{")
            if triple {
                afterOpen = afterOpen.dropFirst()
                offset += 1
            }
            let closer = triple ? "}}}" : "}}"
            guard let close = afterOpen.firstRange(of: closer) else {
                throw TemplateError(position, message: "'{{' without a closing '\(closer)'")
            }
            let inside = afterOpen[..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            let tagLine = position
            offset += afterOpen[..<close.upperBound].count
            rest = afterOpen[close.upperBound...]
            if triple {
                tokens.append(.variable(inside, escaped: false, at: tagLine))
                continue
            }
            guard let first = inside.first else { throw TemplateError(tagLine, message: "empty tag '{{}}'") }
            let name = inside.dropFirst().trimmingCharacters(in: .whitespaces)
            switch first {
            case "!": continue
            case "#": tokens.append(.open(name, inverted: false, at: tagLine))
            case "^": tokens.append(.open(name, inverted: true, at: tagLine))
            case "/": tokens.append(.close(name, at: tagLine))
            case "&": tokens.append(.variable(name, escaped: false, at: tagLine))
            default: tokens.append(.variable(inside, escaped: true, at: tagLine))
            }
        }
        if !rest.isEmpty { tokens.append(.text(String(rest), start: offset)) }
        return tokens
    }

    static func parse(_ tokens: [Token]) throws -> [Node] {
        var stack: [(name: String, inverted: Bool, at: Position, nodes: [Node])] = [
            ("", false, Position(line: 1, column: 1), [])
        ]
        for token in tokens {
            switch token {
            case .text(let text, let start): stack[stack.count - 1].nodes.append(.text(text, start: start))
            case .variable(let name, let escaped, let at):
                stack[stack.count - 1].nodes.append(.variable(name, escaped: escaped, at: at))
            case .open(let name, let inverted, let at): stack.append((name, inverted, at, []))
            case .close(let name, let at):
                guard stack.count > 1 else { throw TemplateError(at, message: "'{{/\(name)}}' closes no section") }
                let section = stack.removeLast()
                guard section.name == name else {
                    throw TemplateError(
                        at, message: "'{{/\(name)}}' closes '{{#\(section.name)}}' opened on line \(section.at.line)")
                }
                stack[stack.count - 1].nodes.append(
                    .section(name, inverted: section.inverted, section.nodes, at: section.at))
            }
        }
        if stack.count > 1, let open = stack.last {
            throw TemplateError(open.at, message: "'{{#\(open.name)}}' is never closed")
        }
        return stack[0].nodes
    }

    static func lookup(_ name: String, in scopes: [TemplateContext]) -> TemplateValue? {
        let parts = name.split(separator: ".").map(String.init)
        guard let head = parts.first else { return nil }
        for scope in scopes.reversed() {
            guard var value = scope[head] else { continue }
            for part in parts.dropFirst() {
                guard case .context(let inner) = value, let next = inner[part] else { return nil }
                value = next
            }
            return value
        }
        return nil
    }

    static func render(_ nodes: [Node], scopes: [TemplateContext], into out: inout Output) {
        for node in nodes {
            switch node {
            case .text(let text, let start): out.append(text, from: .literal(start))
            case .variable(let name, let escaped, let at):
                guard let value = lookup(name, in: scopes) else {
                    out.unknown.append((name, at))
                    continue
                }
                let text: String
                switch value {
                case .text(let string): text = string
                case .bool(let flag): text = flag ? "true" : "false"
                case .list, .context:
                    out.unknown.append((name, at))
                    continue
                }
                out.append(escaped ? markdownEscaped(text) : text, from: .inserted(at))
            case .section(let name, let inverted, let body, let at):
                let value = lookup(name, in: scopes)
                if value == nil && !inverted { out.unknown.append((name, at)) }
                if inverted {
                    if !(value?.isTruthy ?? false) { render(body, scopes: scopes, into: &out) }
                    continue
                }
                switch value {
                case .list(let items)?:
                    for item in items { render(body, scopes: scopes + [item], into: &out) }
                case .context(let inner)?:
                    render(body, scopes: scopes + [inner], into: &out)
                case let truthy? where truthy.isTruthy:
                    render(body, scopes: scopes, into: &out)
                default: break
                }
            }
        }
    }

    /// `text` with every ASCII punctuation character backslash-escaped (CommonMark §2.4: any
    /// ASCII punctuation may be escaped), so nothing of it is read as syntax — Markdown's,
    /// Pandoc's (`^`, `~`, `[^note]`, attributes), math's `$`, an entity's `&`, a list marker,
    /// a table's `|` — and smart punctuation leaves its quotes, dashes and dots as written.
    public static func markdownEscaped(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if asciiPunctuation.contains(scalar) { out.append("\\") }
            out.append(scalar)
        }
        return String(out)
    }

    /// CommonMark's ASCII punctuation characters (spec §2.1), each of which a backslash escapes.
    static let asciiPunctuation = Set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~".unicodeScalars)
}
