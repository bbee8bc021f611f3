/// An estimate of the drawing work in an SVG document, read before librsvg parses it: the
/// number of elements it draws once each `<use>` is replaced by a copy of what it references
/// (SVG 1.1 §5.6). A few hundred bytes of nested `<use>` references can stand for billions of
/// elements (a "use bomb"); librsvg stops only after hundreds of thousands of them, seconds
/// and hundreds of megabytes later.
public enum SVGWork {
    /// The most elements, references expanded, an SVG image may draw (librsvg draws about
    /// 60,000 simple shapes a second).
    public static let maxElements = 100_000

    /// The elements of the SVG `bytes`, each `<use>` counting what it references (by `id`,
    /// through `href` or `xlink:href`) as well as itself; counting stops above `limit`
    /// (the result is then `limit + 1`). A reference cycle counts its elements once.
    public static func expandedElementCount(_ bytes: [UInt8], limit: Int) -> Int {
        let tree = scan(bytes)
        // Counted without recursion (a chain of 100,000 references or nested groups would
        // overflow the stack): each node is finished after every node it needs, children and
        // referenced element alike, on an explicit stack.
        var memo = [Int?](repeating: nil, count: tree.nodes.count)
        var visiting = [Bool](repeating: false, count: tree.nodes.count)
        func needs(_ node: Int) -> [Int] {
            var list = tree.nodes[node].children
            if let target = tree.nodes[node].reference, let referenced = tree.ids[target] { list.append(referenced) }
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
                    for next in needs(node) where memo[next] == nil && !visiting[next] { stack.append(next) }
                    continue
                }
                var total = 1
                for next in needs(node) { total = min(limit + 1, total + (memo[next] ?? 0)) }
                memo[node] = total
                stack.removeLast()
            }
            return memo[root] ?? 0
        }
        var total = 0
        for root in tree.roots {
            total = min(limit + 1, total + count(root))
        }
        return total
    }

    struct Node {
        var children: [Int] = []
        /// The `id` a `<use>` references (its `href` without the `#`).
        var reference: String?
    }

    /// Start and end tags of the document as a tree, and the element of each `id`.
    static func scan(_ bytes: [UInt8]) -> (nodes: [Node], roots: [Int], ids: [String: Int]) {
        var nodes: [Node] = []
        var roots: [Int] = []
        var ids: [String: Int] = [:]
        var open: [Int] = []
        var index = 0
        let end = bytes.count
        func skip(past terminator: [UInt8], from start: Int) -> Int {
            var position = start
            while position + terminator.count <= end {
                if bytes[position..<position + terminator.count].elementsEqual(terminator) {
                    return position + terminator.count
                }
                position += 1
            }
            return end
        }
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
            var node = Node()
            if name == "use" || name.hasSuffix(":use"), let href = attribute("href", in: tag), href.hasPrefix("#") {
                node.reference = String(href.dropFirst())
            }
            let number = nodes.count
            nodes.append(node)
            if let id = attribute("id", in: tag), ids[id] == nil { ids[id] = number }
            if let parent = open.last { nodes[parent].children.append(number) } else { roots.append(number) }
            if !selfClosing { open.append(number) }
            index = position + 1
        }
        return (nodes, roots, ids)
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
}
