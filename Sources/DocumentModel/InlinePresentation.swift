/// How a run written with an HTML element that Markdown has no syntax for is presented
/// (HTML Living Standard, "Text-level semantics").
public enum InlinePresentation: String, Hashable, Sendable, CaseIterable {
    /// `<sup>`: smaller and raised.
    case superscript
    /// `<sub>`: smaller and lowered.
    case `subscript`
    /// `<kbd>`: a key of the keyboard, set as a small key cap (monospaced, on a tinted box).
    case keyboard
    /// `<mark>`: highlighted.
    case highlight
    /// `<small>`: side comments, one step smaller.
    case small
    /// `<ins>`, `<u>`: underlined.
    case underline
}
