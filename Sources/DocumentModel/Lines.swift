extension StringProtocol {
    /// The text's lines without their line endings, a line feed or a carriage return and a line
    /// feed (CommonMark 0.30 §2.1). Swift reads CR LF as one `Character`, so a split at `"\n"`
    /// alone would leave a file written with CR LF one line. The text after the last ending is
    /// the last line, empty when the text ends with one.
    public func lines() -> [SubSequence] {
        split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
    }
}
