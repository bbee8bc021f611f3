/// A value read from a settings file (a YAML or JSON mapping, such as a defaults file), with
/// where it is written, so a problem with it can be reported at `file:line:column`.
public struct SettingsValue: Sendable {
    /// One key of a mapping, its position, and its value.
    public struct Entry: Sendable {
        /// The key as written.
        public var key: String
        /// Where the key is written.
        public var location: SourceLocation
        /// The key's value.
        public var value: SettingsValue
        /// Creates an entry of `key`, written at `location`, set to `value`.
        public init(key: String, location: SourceLocation, value: SettingsValue) {
            self.key = key
            self.location = location
            self.value = value
        }
    }

    /// What the value is.
    public enum Kind: Sendable {
        /// A scalar as written (`true`, `2`, `a4`); `plain` when it had no quotes.
        case scalar(String, plain: Bool)
        /// A sequence, in order.
        case list([SettingsValue])
        /// A mapping, in the order written.
        case mapping([Entry])
    }

    /// The value.
    public var kind: Kind
    /// Where the value starts.
    public var location: SourceLocation

    /// Creates a value of `kind` written at `location`.
    public init(_ kind: Kind, at location: SourceLocation) {
        self.kind = kind
        self.location = location
    }
}
