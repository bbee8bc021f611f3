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
            self.key = key; self.value = value; self.location = location
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

    /// Creates an attribute list from its parts (all empty by default).
    public init(id: String? = nil, classes: [String] = [], pairs: [Pair] = [], location: SourceLocation? = nil) {
        self.id = id; self.classes = classes; self.pairs = pairs; self.location = location
    }

    /// The empty attribute list: no id, classes or pairs.
    public static let none = Attributes()
    /// True when there is no id, class or pair (``location`` is not considered).
    public var isEmpty: Bool { id == nil && classes.isEmpty && pairs.isEmpty }
}
