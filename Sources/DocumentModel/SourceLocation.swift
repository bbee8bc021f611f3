/// A position in a source file: 1-based line and column (column counts UTF-8 bytes, as
/// cmark-gfm reports them).
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    /// The source file name, as diagnostics show it (`-` for standard input).
    public var file: String
    /// 1-based line.
    public var line: Int
    /// 1-based column, in UTF-8 bytes.
    public var column: Int
    /// Creates a location from its parts (1-based line and column).
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }
    /// `file:line:column`.
    public var description: String { "\(file):\(line):\(column)" }
}

/// A problem found in the input that does not stop the run (an unknown attribute, a missing
/// image, an unavailable face). `--strict` turns warnings into errors.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
    /// How serious a diagnostic is.
    public enum Severity: String, Sendable { case warning, error }

    /// What a diagnostic is about: a stable set of names (the `kind` of `--diagnostics json`)
    /// that scripts select by.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// A family, weight or style the text asks for is not installed, or a character no
        /// installed font draws.
        case font
        /// A link that is not made clickable or goes nowhere (a scheme other than the web's,
        /// a `#fragment` that names nothing).
        case link
        /// Text wider than the measure or taller than the text area.
        case overfull
        /// An image that is missing, unreadable, remote, without alt text or of a bad size.
        case image
        /// An attribute list (`{#id .class key=value}`): unknown, repeated or invalid entries.
        case attribute
        /// YAML front matter: invalid, not closed, unknown or repeated keys, values of the
        /// wrong type.
        case frontMatter = "front-matter"
        /// Bytes or characters that are not text (invalid UTF-8, controls, noncharacters).
        case encoding
        /// Raw HTML that is not rendered, or rendered without some of its markup.
        case html
        /// A theme or design-token file.
        case theme
        /// A footnote defined twice, never cited, or set elsewhere than cited.
        case footnote
        /// The document's structure: div fences, nesting too deep, empty headings, repeated
        /// ids, a document with no content.
        case structure
        /// The PDF itself (untagged output) or the pages asked for on the command line.
        case output
        /// Anything else found in the content.
        case content
    }

    /// Warning (the default) or error.
    public var severity: Severity
    /// What the diagnostic is about (``Kind/content`` unless said).
    public var kind: Kind
    /// The text of the source the diagnostic is about, when it quotes one (a link's
    /// destination, an overfull word): a renderer that knows the source moves ``location``
    /// from the start of the block to where this text is written.
    public var subject: String?
    /// What is wrong, in one line, without the location.
    public var message: String
    /// Where the problem is; nil when it has no position (theme, fonts).
    public var location: SourceLocation?
    /// How many places this warning stands for: 1, or more when only the first few of many
    /// alike were kept and this one, the last kept, stands for the rest too
    /// (``coalesced(_:)`` counts them).
    public var repeats: Int = 1
    /// What tells this warning apart from others whose messages differ only in their quoted
    /// values and numbers, when its numbers are the case it reports (a weight asked for and
    /// the weight given): ``coalesced(_:)`` says warnings of different distinctions apart.
    public var distinction: String?
    /// Creates a diagnostic; a warning with no location by default. `message` is kept on one
    /// line (``oneLine(_:)``): a value it quotes from the input may hold a line break.
    public init(
        _ severity: Severity = .warning, _ message: String, at location: SourceLocation? = nil,
        kind: Kind = .content, subject: String? = nil
    ) {
        self.severity = severity
        self.message = Self.oneLine(message)
        self.location = location
        self.kind = kind
        self.subject = subject
    }

    /// `text` with every line ending and other control character (Unicode general category
    /// Cc, and U+2028 / U+2029, the line and paragraph separators) written as a Swift escape —
    /// `\n`, `\r`, `\t`, `\u{1B}` — so that a message quoting a multi-line value from the
    /// input stays the one line editors and scripts read; and so are the bidirectional
    /// formatting characters (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069: Unicode
    /// Standard Annex #9, "Explicit Directional Formatting Characters"), which would reorder
    /// what a terminal or log shows after the quoted value (a file name, a position).
    public static func oneLine(_ text: String) -> String {
        // Cc is U+0000–U+001F and U+007F–U+009F.
        func breaks(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.value {
            case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
                true
            default: false
            }
        }
        guard text.unicodeScalars.contains(where: breaks) else { return text }
        var out = String.UnicodeScalarView()
        for s in text.unicodeScalars {
            switch s {
            case "\n": out.append(contentsOf: "\\n".unicodeScalars)
            case "\r": out.append(contentsOf: "\\r".unicodeScalars)
            case "\t": out.append(contentsOf: "\\t".unicodeScalars)
            case _ where breaks(s):
                out.append(contentsOf: "\\u{\(String(s.value, radix: 16, uppercase: true))}".unicodeScalars)
            default: out.append(s)
            }
        }
        return String(out)
    }

    /// `file:line:column: warning: message` for a warning and `file:line:column: message` for an
    /// error (the location omitted when unknown): the one form every message of Typeset takes,
    /// theme problems and failures included, so editors can jump to it.
    public var description: String {
        let prefix = location.map { "\($0): " } ?? ""
        return "\(prefix)\(severity == .warning ? "warning: " : "")\(message)"
    }
}

extension Diagnostic {
    /// `diagnostics` with the warnings that say the same thing — one ``kind``, one file, one
    /// message once the values it quotes (`'…'`) and its numbers are set aside, one
    /// ``distinction`` — said once:
    /// the first of them in source order stands for all, at its own position and quoting its
    /// own value, and its message ends with how many there are and where the next few are,
    /// with the value each quotes when it differs from the first's
    /// (`(52 like this in all; also at 14:3 'irc://b', 15:9, 20:1 …)`), each place once. Errors
    /// are kept as they are, and so is the order of the first of each group.
    public static func coalesced(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        struct Key: Hashable {
            var kind: Kind
            var file: String?
            var template: String
            var distinction: String?
        }
        var groups: [Key: [Int]] = [:]
        var order: [Int] = []
        for (index, diagnostic) in diagnostics.enumerated() {
            guard diagnostic.severity == .warning else {
                order.append(index)
                continue
            }
            let key = Key(
                kind: diagnostic.kind, file: diagnostic.location?.file,
                template: template(diagnostic.message), distinction: diagnostic.distinction)
            if groups[key] == nil { order.append(index) }
            groups[key, default: []].append(index)
        }
        var members: [Int: [Int]] = [:]
        for indices in groups.values {
            members[indices[0]] = indices.sorted { lhs, rhs in
                let left = diagnostics[lhs].location
                let right = diagnostics[rhs].location
                return (left?.line ?? 0, left?.column ?? 0, lhs) < (right?.line ?? 0, right?.column ?? 0, rhs)
            }
        }
        return order.map { index in
            guard let group = members[index] else { return diagnostics[index] }
            let count = group.reduce(0) { $0 + max(1, diagnostics[$1].repeats) }
            guard count > 1 else { return diagnostics[index] }
            var first = diagnostics[group[0]]
            first.repeats = 1
            let firstQuote = quote(in: first.message)
            // Places said once each: a template line expanded many times gives one place many warnings.
            var said: Set<String> = first.location.map { ["\($0.line):\($0.column)"] } ?? []
            let others = group.dropFirst().compactMap { member -> String? in
                guard let location = diagnostics[member].location else { return nil }
                let quoted = quote(in: diagnostics[member].message)
                let place = "\(location.line):\(location.column)" + (quoted == firstQuote ? "" : " '\(quoted ?? "")'")
                return said.insert(place).inserted ? place : nil
            }
            // Places not named: past the first three, or only counted (``repeats``).
            let more = others.count > 3 || count > group.count ? " …" : ""
            let also = others.isEmpty ? "" : "; also at " + others.prefix(3).joined(separator: ", ") + more
            first.message += " (\(count) like this in all\(also))"
            return first
        }
    }

    /// The first value `message` quotes (`'…'`, at most 40 characters), or nil.
    static func quote(in message: String) -> String? {
        guard let open = message.firstIndex(of: "'") else { return nil }
        let rest = message[message.index(after: open)...]
        guard let close = rest.firstIndex(of: "'") else { return nil }
        let value = rest[..<close]
        return value.count > 40 ? value.prefix(40) + "…" : String(value)
    }

    /// `message` with every quoted value (`'…'`) and every run of digits replaced by a
    /// placeholder: what messages that differ only in what they quote have in common.
    static func template(_ message: String) -> String {
        var result = ""
        var quoted = false
        var inNumber = false
        var previous: Character = " "
        for character in message {
            defer { previous = character }
            if character == "'" {
                // An apostrophe inside a word (`document's`) is not a quote.
                let opens = !quoted && !(previous.isLetter)
                if opens || quoted {
                    quoted.toggle()
                    result.append(quoted ? "'" : "…'")
                    continue
                }
            }
            if quoted { continue }
            if character.isNumber {
                if !inNumber { result.append("#") }
                inNumber = true
                continue
            }
            inNumber = false
            result.append(character)
        }
        return result
    }
}
