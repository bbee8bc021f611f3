/// A Pandoc-style attribute list, `{#id .class key=value key="quoted value" flag}`, as written
/// after headings, on bracketed spans and on fenced divs (Pandoc `attributes` extension).
public struct Attributes: Hashable, Sendable {
    /// One `key=value` pair, or a bare flag (`value == nil`), with where it was written.
    public struct Pair: Hashable, Sendable {
        /// The key as written.
        public var key: String
        /// The value, unquoted; nil for a bare flag.
        public var value: String?
        /// Where the key was written; nil when unknown.
        public var location: SourceLocation?
        /// Creates a pair from its parts.
        public init(key: String, value: String?, location: SourceLocation? = nil) {
            self.key = key
            self.value = value
            self.location = location
        }
    }

    /// The `#id`, without the `#`; nil when none was given.
    public var id: String?
    /// Classes in order written, without the dot (`.display` → `display`).
    public var classes: [String]
    /// `key=value` pairs and bare flags, in order written.
    public var pairs: [Pair]
    /// Where the opening `{` was written.
    public var location: SourceLocation?
    /// Ids written before the last in one list (`{#a #b}` names `b`; `a` is here, with where
    /// it was written): an element has one id, so these are reported and not used.
    public var replacedIDs: [Pair] = []

    /// Creates an attribute list from its parts (all empty by default).
    public init(id: String? = nil, classes: [String] = [], pairs: [Pair] = [], location: SourceLocation? = nil) {
        self.id = id
        self.classes = classes
        self.pairs = pairs
        self.location = location
    }

    /// The class of the paragraph an HTML `<details>`'s `<summary>` becomes: it sums up the
    /// blocks after it and is kept on their page, as a heading is.
    public static let summaryClass = "summary"

    /// The class of the span a Pandoc table caption (`Table: …` or `: …` beside a pipe table)
    /// is read as: the caption of the table beside it (Pandoc's manual, "Table captions").
    public static let tableCaptionClass = "table-caption"

    /// The class of a paragraph whose first character is written escaped (`\(@) text`,
    /// `\| text`): its opening was meant as text, never as syntax Markdown lacks.
    public static let escapedOpeningClass = "escaped-opening"

    /// The empty attribute list: no id, classes or pairs.
    public static let none = Attributes()
    /// True when there is no id, class or pair (``location`` is not considered).
    public var isEmpty: Bool { id == nil && classes.isEmpty && pairs.isEmpty }
}

/// BCP 47 language tags (RFC 5646), as the front matter's `lang`, `--lang` and a span's or
/// div's `lang=` give them: one judgement for all three.
public enum LanguageTag {
    /// Whether `tag` has the shape of a BCP 47 language tag (RFC 5646 §2.1): subtags of 1–8
    /// ASCII letters or digits joined by hyphens, the first 2–8 letters (`en`, `de-CH`,
    /// `zh-Hant-TW`); `../../etc/passwd`, `en_US` and the empty string are not.
    public static func isWellFormed(_ tag: String) -> Bool {
        let subtags = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard let primary = subtags.first, (2...8).contains(primary.count),
            primary.allSatisfy({ $0.isASCII && $0.isLetter })
        else { return false }
        return subtags.allSatisfy { subtag in
            (1...8).contains(subtag.count) && subtag.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        }
    }

    /// Why `tag` is refused, in the words every place that reads a tag uses; a POSIX locale
    /// name (`en_US`, `pt_BR.UTF-8`) gets the tag it means (`en-US`).
    public static func problem(_ tag: String) -> String {
        let locale = tag.prefix { $0 != "." && $0 != "@" }
        let meant = String(locale.map { $0 == "_" ? "-" : $0 })
        let examples =
            meant != tag && isWellFormed(meant)
            ? "such as en or de-CH: here '\(meant)'" : "such as en, de-CH or zh-Hant"
        return "'\(tag.prefix(40))' is not a BCP 47 language tag (\(examples))"
    }
}
