import Foundation

/// An estimate of the drawing work in an SVG document, read before librsvg parses it: the
/// number of elements it draws once each reference that draws an element again is replaced by
/// a copy of what it references. A `<use>` (SVG 1.1 §5.6), `<feImage>`, `<tref>` or `<pattern>`
/// `href` draws its target again; so does a `url(#id)` in an attribute or a `style` (a
/// `filter`, `mask`, `clip-path`, pattern `fill` or `stroke`: each element it applies to draws
/// the referenced content once more), a marker once at each vertex of its path, and a
/// `url(#id)` in a `<style>` sheet, which may apply to any element, once for every element. A
/// filter primitive (`feGaussianBlur`, `feMorphology` …) counts as
/// ``filterPrimitiveWeight`` elements each time its filter is applied, as it processes every
/// pixel of its region; a `<filter>` itself draws nothing where it stands. A few hundred
/// bytes of nested references can stand for billions of elements (a "use bomb"), and a filter
/// of thousands of blurs for minutes of work; librsvg stops only after hundreds of thousands
/// of elements, seconds and hundreds of megabytes later, and never for filters.
public enum SVGWork {
    /// The most elements, references expanded, an SVG image may draw (librsvg draws about
    /// 60,000 simple shapes a second).
    public static let maxElements = 100_000

    /// What one filter primitive counts for against ``maxElements``: librsvg runs each on
    /// every pixel of its region, a whole 1000 × 1000 px image taking about as long as this
    /// many simple shapes, so an image may apply at most 200 primitives (``maxElements`` /
    /// this).
    public static let filterPrimitiveWeight = 500

    /// The elements of the SVG `bytes`, each reference counting what it draws again (see
    /// ``SVGWork``) as well as itself and each filter primitive ``filterPrimitiveWeight``;
    /// counting stops above `limit` (the result is then `limit + 1`). A reference cycle counts
    /// its elements once.
    public static func expandedElementCount(_ bytes: [UInt8], limit: Int) -> Int {
        let tree = scan(bytes)
        // Counted without recursion (a chain of 100,000 references or nested groups would
        // overflow the stack): each node is finished after every node it needs, children and
        // referenced elements alike, on an explicit stack.
        var memo = [Int?](repeating: nil, count: tree.nodes.count)
        var visiting = [Bool](repeating: false, count: tree.nodes.count)
        func needs(_ node: Int) -> [(node: Int, times: Int)] {
            // A `<filter>` draws nothing where it stands, only for the elements that refer to it.
            var list = tree.nodes[node].children.map { (node: $0, times: tree.nodes[$0].isFilter ? 0 : 1) }
            for reference in tree.nodes[node].references {
                if let referenced = tree.ids[reference.id] { list.append((referenced, reference.times)) }
            }
            return list
        }
        func count(_ root: Int) -> Int {
            var stack = [root]
            while let node = stack.last {
                if memo[node] != nil {
                    stack.removeLast()
                    continue
                }
                if !visiting[node] {
                    visiting[node] = true
                    // A node being counted that is needed again closes a cycle: it counts 0 there.
                    for next in needs(node) where memo[next.node] == nil && !visiting[next.node] {
                        stack.append(next.node)
                    }
                    continue
                }
                var total = min(limit + 1, tree.nodes[node].weight)
                for next in needs(node) {
                    let (product, overflow) = (memo[next.node] ?? 0).multipliedReportingOverflow(by: next.times)
                    total = min(limit + 1, total + (overflow ? limit + 1 : min(limit + 1, product)))
                }
                memo[node] = total
                stack.removeLast()
            }
            return memo[root] ?? 0
        }
        var total = 0
        for root in tree.roots where !tree.nodes[root].isFilter {
            total = min(limit + 1, total + count(root))
        }
        guard !tree.sheetReferences.isEmpty else { return total }
        // A style sheet's references may apply to every element drawn (a marker at each
        // vertex): each adds what it references that many times, counted once per `id`.
        var perElement = 0
        var perVertex = 0
        var seen: Set<String> = []
        for reference in tree.sheetReferences where seen.insert(reference.id).inserted {
            guard let referenced = tree.ids[reference.id] else { continue }
            let cost = count(referenced)
            if reference.perVertex {
                perVertex = min(limit + 1, perVertex + cost)
            } else {
                perElement = min(limit + 1, perElement + cost)
            }
        }
        let vertices = tree.nodes.reduce(0) { min(limit + 1, $0 + $1.vertices) }
        let (byElement, elementOverflow) = total.multipliedReportingOverflow(by: perElement)
        let (byVertex, vertexOverflow) = vertices.multipliedReportingOverflow(by: perVertex)
        guard !elementOverflow, !vertexOverflow else { return limit + 1 }
        return min(limit + 1, total + min(limit + 1, byElement) + min(limit + 1, byVertex))
    }

    /// A reference from an element to the element of an `id`, drawn `times` times.
    struct Reference {
        /// The referenced `id` (without the `#`).
        var id: String
        /// How many times the referenced element is drawn for the element referencing it.
        var times: Int
    }

    /// A `url(#id)` of a `<style>` sheet, which may apply to any element.
    struct SheetReference {
        /// The referenced `id` (without the `#`).
        var id: String
        /// Whether it names a marker, drawn at each vertex of an element.
        var perVertex: Bool
    }

    struct Node {
        var children: [Int] = []
        /// The elements this one draws again: a `<use>`'s `href`, a `url(#id)` of its attributes.
        var references: [Reference] = []
        /// What the element itself counts: 1, or ``SVGWork/filterPrimitiveWeight`` for a
        /// filter primitive.
        var weight = 1
        /// The vertices of its path (`d` or `points`), at least 1: how often a marker is drawn.
        var vertices = 1
        /// Whether it is a `<filter>`, whose primitives run only for the elements using it.
        var isFilter = false
    }

    /// The elements of a filter whose names begin `fe` but that are parts of a primitive, not
    /// primitives (SVG 1.1 §15.7): they cost no pass over the pixels of their own.
    static let filterPrimitiveParts: Set<Substring> = [
        "feMergeNode", "feFuncR", "feFuncG", "feFuncB", "feFuncA", "feDistantLight", "fePointLight", "feSpotLight",
    ]

    /// Elements whose `href` draws the referenced element again.
    static let drawingReferences: Set<Substring> = ["use", "feImage", "tref", "pattern"]

    /// Start and end tags of the document as a tree, and the element of each `id`.
    static func scan(
        _ bytes: [UInt8]
    ) -> (nodes: [Node], roots: [Int], ids: [String: Int], sheetReferences: [SheetReference]) {
        var nodes: [Node] = []
        var sheetReferences: [SheetReference] = []
        var roots: [Int] = []
        var ids: [String: Int] = [:]
        var open: [Int] = []
        var index = 0
        let end = bytes.count
        func skip(past terminator: [UInt8], from start: Int) -> Int { skipping(bytes, past: terminator, from: start) }
        while index < end {
            guard bytes[index] == UInt8(ascii: "<"), index + 1 < end else {
                index += 1
                continue
            }
            let next = bytes[index + 1]
            if next == UInt8(ascii: "!") {
                let rest = bytes[index...].prefix(9)
                if rest.starts(with: Array("<!--".utf8)) {
                    index = skip(past: Array("-->".utf8), from: index + 4)
                } else if rest.starts(with: Array("<![CDATA[".utf8)) {
                    index = skip(past: Array("]]>".utf8), from: index + 9)
                } else {
                    index = skip(past: [UInt8(ascii: ">")], from: index + 2)
                }
                continue
            }
            if next == UInt8(ascii: "?") {
                index = skip(past: Array("?>".utf8), from: index + 2)
                continue
            }
            if next == UInt8(ascii: "/") {
                if !open.isEmpty { open.removeLast() }
                index = skip(past: [UInt8(ascii: ">")], from: index + 2)
                continue
            }
            // A start tag: to its `>` outside quoted attribute values.
            var position = index + 1
            var quote: UInt8?
            while position < end {
                let byte = bytes[position]
                if let current = quote {
                    if byte == current { quote = nil }
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    quote = byte
                } else if byte == UInt8(ascii: ">") {
                    break
                }
                position += 1
            }
            let tag = String(decoding: bytes[(index + 1)..<min(position, end)], as: UTF8.self)
            let selfClosing = tag.hasSuffix("/")
            let name = tag.prefix { !$0.isWhitespace && $0 != "/" }
            let localName = name.split(separator: ":").last ?? name
            var node = Node()
            if drawingReferences.contains(localName), let href = attribute("href", in: tag), href.hasPrefix("#") {
                node.references.append(Reference(id: String(href.dropFirst()), times: 1))
            }
            if let path = attribute("d", in: tag) ?? attribute("points", in: tag) {
                node.vertices = max(1, numberCount(path[...]) / 2)
            }
            for reference in urlReferences(in: tag[...]) {
                node.references.append(Reference(id: reference.id, times: reference.perVertex ? node.vertices : 1))
            }
            if localName.hasPrefix("fe"), localName.dropFirst(2).first?.isUppercase == true,
                !filterPrimitiveParts.contains(localName)
            {
                node.weight = primitiveWeight(localName, tag: tag)
            }
            node.isFilter = localName == "filter"
            if localName == "style", !selfClosing {
                // A style sheet: its text, to `</style`, is read for references, then skipped
                // as any other text.
                let sheetEnd = skip(past: Array("</style".utf8), from: position + 1)
                let sheet = String(decoding: bytes[min(position + 1, sheetEnd)..<sheetEnd], as: UTF8.self)
                for reference in urlReferences(in: sheet[...]) {
                    sheetReferences.append(SheetReference(id: reference.id, perVertex: reference.perVertex))
                }
            }
            let number = nodes.count
            nodes.append(node)
            if let id = attribute("id", in: tag), ids[id] == nil { ids[id] = number }
            if let parent = open.last { nodes[parent].children.append(number) } else { roots.append(number) }
            if !selfClosing { open.append(number) }
            index = position + 1
        }
        return (nodes, roots, ids, sheetReferences)
    }

    /// What a filter primitive counts for: ``filterPrimitiveWeight`` for each pass it makes over
    /// the pixels of its region. `feTurbulence` adds noise once for each of its `numOctaves`
    /// (SVG 1.1 §15.24); `feConvolveMatrix` reads `orderX` × `orderY` pixels for each pixel
    /// (§15.13); `feMorphology` (2 × `rx` + 1) × (2 × `ry` + 1) (§15.20). Numbers that do not
    /// read count 1; the product stops at `Int.max`.
    static func primitiveWeight(_ localName: Substring, tag: String) -> Int {
        // The attribute's first two numbers, the first again when it has one, else `absent`.
        func pair(_ name: String, absent: Int) -> [Int] {
            let numbers = (attribute(name, in: tag) ?? "").split { $0.isWhitespace || $0 == "," }.prefix(2).map {
                word in
                guard let number = Double(word), number.isFinite else { return absent }
                return Int(min(1e9, max(0, number.rounded(.up))))
            }
            return numbers.isEmpty ? [absent, absent] : [numbers[0], numbers.last!]
        }
        let passes: [Int] =
            switch localName {
            case "feTurbulence": [max(1, pair("numOctaves", absent: 1)[0])]
            case "feConvolveMatrix": pair("order", absent: 3)
            case "feMorphology": pair("radius", absent: 0).map { 2 * $0 + 1 }
            default: []
            }
        var weight = filterPrimitiveWeight
        for factor in passes {
            let (product, overflow) = weight.multipliedReportingOverflow(by: max(1, factor))
            weight = overflow ? .max : product
        }
        return weight
    }

    /// The `url(#id)` references in `text` (a start tag or a style sheet), each with whether
    /// the property naming it is a marker (`marker`, `marker-start`, `marker-mid`,
    /// `marker-end`), drawn at every vertex.
    static func urlReferences(in text: Substring) -> [(id: String, perVertex: Bool)] {
        var found: [(id: String, perVertex: Bool)] = []
        var search = text
        while let opening = search.range(of: "url(") {
            let before = search[..<opening.lowerBound]
            let rest = search[opening.upperBound...].drop { $0 == " " || $0 == "\"" || $0 == "'" }
            search = search[opening.upperBound...]
            guard rest.first == "#" else { continue }
            let id = rest.dropFirst().prefix { $0 != ")" && $0 != "\"" && $0 != "'" && !$0.isWhitespace }
            // The property or attribute named just before the value: `marker-mid="url(` or
            // `marker-mid: url(`.
            let property = before.reversed().drop { " \"'=:".contains($0) }.prefix { $0.isLetter || $0 == "-" }
            found.append((String(id), String(property.reversed()).hasPrefix("marker")))
        }
        return found
    }

    /// How many numbers `text` (path data or a list of points) holds: its runs of digits and
    /// points.
    static func numberCount(_ text: Substring) -> Int {
        var count = 0
        var inNumber = false
        for byte in text.utf8 {
            let isDigit = (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ".")
            if isDigit, !inNumber { count += 1 }
            inNumber = isDigit
        }
        return count
    }

    /// The value of attribute `name` (or `prefix:name`) in the text of a start tag.
    static func attribute(_ name: String, in tag: String) -> String? {
        var search = tag[...]
        while let found = search.range(of: name + "=") ?? search.range(of: name + " =") {
            let before = search[..<found.lowerBound].last
            if before == nil || before!.isWhitespace || before == ":" {
                let rest = search[found.upperBound...].drop { $0 == " " || $0 == "=" }
                guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
                return String(rest.dropFirst().prefix { $0 != quote })
            }
            search = search[found.upperBound...]
        }
        return nil
    }

    /// The files the SVG `bytes` links to, as written, in the order found: the `href` (or
    /// `xlink:href`) of an element that loads what it names (an `<image>`, a `<use>`, a
    /// `<feImage>`, a `<pattern>`, a `<tref>`) and the `url(…)` and `@import` of attributes and
    /// style sheets that name no element of the document itself (`#id`) and carry no data
    /// (`data:`). A link (`<a href>`) loads nothing and is not one.
    public static func linkedFiles(_ bytes: [UInt8]) -> [String] {
        var found: [String] = []
        func note(_ reference: Substring) {
            let trimmed = reference.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty, !trimmed.hasPrefix("#"), !trimmed.lowercased().hasPrefix("data:") else { return }
            found.append(trimmed)
        }
        let text = String(decoding: bytes, as: UTF8.self)
        var search = text[...]
        while let open = search.firstIndex(of: "<") {
            let tag = search[search.index(after: open)...].prefix { $0 != ">" }
            search = search[search.index(after: open)...]
            let name = tag.prefix { !$0.isWhitespace && $0 != "/" }
            let localName = name.split(separator: ":").last ?? name
            if loadingReferences.contains(localName), let href = attribute("href", in: String(tag)) {
                note(href[...])
            }
        }
        // `url(…)` and `@import "…"` anywhere: in attributes, `style` and style sheets.
        var rest = text[...]
        while let opening = rest.range(of: "url(") {
            let value = rest[opening.upperBound...].prefix { $0 != ")" }
            note(value.trimmingCharacters(in: CharacterSet(charactersIn: " \"'"))[...])
            rest = rest[opening.upperBound...]
        }
        rest = text[...]
        while let opening = rest.range(of: "@import") {
            let value = rest[opening.upperBound...].drop { $0 == " " }
            if let quote = value.first, quote == "\"" || quote == "'" {
                note(value.dropFirst().prefix { $0 != quote })
            }
            rest = rest[opening.upperBound...]
        }
        return found
    }

    /// Elements that load what their `href` names (SVG 1.1 §5.6, §5.7, §13.3, §15.18, §10.17).
    static let loadingReferences: Set<Substring> = ["image", "use", "feImage", "tref", "pattern"]

    /// `bytes` with each link element (`<a>`, SVG 1.1 §17.1) made a group (`<g>`), byte for
    /// byte the same length: its content is drawn as before, and nothing of it is a link.
    /// librsvg makes each `<a>` it draws a link of the PDF (a Cairo link tag), which is no
    /// part of the document's structure and which the file's tagging cannot account for.
    /// Comments and character data are left as they are.
    public static func linksMadeGroups(_ bytes: [UInt8]) -> [UInt8] {
        var result = bytes
        var index = 0
        let end = bytes.count
        func startsAt(_ text: String, _ position: Int) -> Bool {
            let pattern = Array(text.utf8)
            return position + pattern.count <= end && bytes[position..<position + pattern.count].elementsEqual(pattern)
        }
        while index < end {
            guard bytes[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            if startsAt("<!--", index) {
                index = skipping(bytes, past: Array("-->".utf8), from: index + 4)
                continue
            }
            if startsAt("<![CDATA[", index) {
                index = skipping(bytes, past: Array("]]>".utf8), from: index + 9)
                continue
            }
            // The element's name, after `<` or `</`, and the byte after it.
            var nameStart = index + 1
            if nameStart < end, bytes[nameStart] == UInt8(ascii: "/") { nameStart += 1 }
            var nameEnd = nameStart
            while nameEnd < end, !" \t\r\n/>".utf8.contains(bytes[nameEnd]) { nameEnd += 1 }
            let name = bytes[nameStart..<nameEnd]
            let localStart = (name.lastIndex(of: UInt8(ascii: ":")).map { $0 + 1 }) ?? nameStart
            if nameEnd - localStart == 1, bytes[localStart] == UInt8(ascii: "a") {
                result[localStart] = UInt8(ascii: "g")
            }
            index = max(nameEnd, index + 1)
        }
        return result
    }

    /// The offset just past the first `terminator` at or after `start` in `bytes`, or the end.
    private static func skipping(_ bytes: [UInt8], past terminator: [UInt8], from start: Int) -> Int {
        var position = start
        while position + terminator.count <= bytes.count {
            if bytes[position..<position + terminator.count].elementsEqual(terminator) {
                return position + terminator.count
            }
            position += 1
        }
        return bytes.count
    }
}
