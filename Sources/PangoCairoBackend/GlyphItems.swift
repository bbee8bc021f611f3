internal import CPangoCairo

extension UnsafeMutablePointer where Pointee == PangoLayoutLine {
    /// The line's runs (its glyph items), in the line's order: left to right along it.
    var glyphItems: [UnsafeMutablePointer<PangoGlyphItem>] {
        var items: [UnsafeMutablePointer<PangoGlyphItem>] = []
        var node = pointee.runs
        while let current = node {
            node = current.pointee.next
            items.append(current.pointee.data.assumingMemoryBound(to: PangoGlyphItem.self))
        }
        return items
    }
}
