/// An image set inside a line of text (a badge, an icon): its run's text is one U+FFFC
/// OBJECT REPLACEMENT CHARACTER that the shaper sizes and the renderer draws as the picture,
/// standing on the baseline.
public struct InlineImage: Hashable, Sendable {
    /// The image file: a resolved path.
    public var path: String
    /// A width asked for in the source, pt; nil: from the height and the image's proportion.
    public var width: Double?
    /// A height asked for in the source, pt; nil: the natural height, scaled down to the line's
    /// height (the face's ascent + descent) when taller than 1.5 times it.
    public var height: Double?
    /// The widest the image may be drawn, pt (the measure), nil: unbounded.
    public var maxWidth: Double?
    /// The tallest the image may be drawn, pt (about the text area's height), nil: unbounded.
    public var maxHeight: Double?

    /// The source's alternative text (`![this](file.png)`), for the image's `Figure` in a
    /// tagged PDF; nil or empty: none.
    public var alternativeText: String?

    /// Creates an inline image of the file at `path`, sized as asked (pt) or naturally, with
    /// `alternativeText` when the source gives one.
    public init(path: String, width: Double? = nil, height: Double? = nil, alternativeText: String? = nil) {
        self.path = path
        self.width = width
        self.height = height
        self.alternativeText = alternativeText
    }

    /// The box the image takes on its line, pt: `natural` (the file's own size) scaled as
    /// asked, or down to `lineHeight` when taller than 1.5 × `lineHeight`; then scaled down,
    /// its proportion kept, to ``maxWidth`` and ``maxHeight``.
    public func size(natural: (width: Double, height: Double), lineHeight: Double) -> (width: Double, height: Double) {
        let ratio = natural.width / max(natural.height, 0.001)
        let box: (width: Double, height: Double)
        switch (width, height) {
        case (let askedWidth?, let askedHeight?): box = (askedWidth, askedHeight)
        case (let askedWidth?, nil): box = (askedWidth, askedWidth / max(ratio, 0.001))
        case (nil, let askedHeight?): box = (askedHeight * ratio, askedHeight)
        case (nil, nil): box = natural.height > lineHeight * 1.5 ? (lineHeight * ratio, lineHeight) : natural
        }
        let scale = min(
            1, maxWidth.map { $0 / max(box.width, 0.001) } ?? 1, maxHeight.map { $0 / max(box.height, 0.001) } ?? 1)
        return (box.width * scale, box.height * scale)
    }
}
