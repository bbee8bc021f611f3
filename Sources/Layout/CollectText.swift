import Styling

/// The collect stage of paragraph layout (``ParagraphLayout``): a paragraph's runs joined into
/// one text, with the UTF-8 offset each run starts at. The other stages address the text by
/// these offsets (the backend's shaping) or by its scalars (``PreparedParagraph``).
public struct CollectedText: Sendable {
    /// The runs' text, joined.
    public let text: String
    /// The UTF-8 byte offset in ``text`` at which each run starts, by run.
    public let starts: [Int]
    /// ``text`` as UTF-8 bytes.
    public let bytes: [UInt8]

    /// Joins the runs of `paragraph`.
    public init(_ paragraph: StyledParagraph) {
        var starts: [Int] = []
        starts.reserveCapacity(paragraph.runs.count)
        var text = ""
        for run in paragraph.runs {
            starts.append(text.utf8.count)
            text += run.text
        }
        self.text = text
        self.starts = starts
        bytes = Array(text.utf8)
    }
}
