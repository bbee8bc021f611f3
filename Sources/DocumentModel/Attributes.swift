/// A Pandoc-style attribute list, `{#id .class key=value key="quoted value" flag}`, as written
/// after headings, on bracketed spans and on fenced divs (Pandoc `attributes` extension).
public struct Attributes: Hashable, Sendable {
    /// One `key=value` pair, or a bare flag (`value == nil`), with where it was written.
    public struct Pair: Hashable, Sendable {
        public var key: String
        public var value: String?
        public var location: SourceLocation?
        public init(key: String, value: String?, location: SourceLocation? = nil) {
            self.key = key; self.value = value; self.location = location
        }
    }

    public var id: String?
    /// Classes in order written, without the dot (`.display` → `display`).
    public var classes: [String]
    public var pairs: [Pair]
    /// Where the opening `{` was written.
    public var location: SourceLocation?

    public init(id: String? = nil, classes: [String] = [], pairs: [Pair] = [], location: SourceLocation? = nil) {
        self.id = id; self.classes = classes; self.pairs = pairs; self.location = location
    }

    public static let none = Attributes()
    public var isEmpty: Bool { id == nil && classes.isEmpty && pairs.isEmpty }
}
