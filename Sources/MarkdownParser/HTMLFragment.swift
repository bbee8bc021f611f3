internal import CLibXML2
import Foundation

/// One node of an HTML fragment as Swift values: what libxml2's HTML parser built, converted
/// at the edge (entities decoded, comments marked, attribute names lower-cased).
indirect enum HTMLNode: Equatable {
    /// An element: its lower-cased name, attributes (lower-cased names, decoded values) and children.
    case element(name: String, attributes: [String: String], children: [HTMLNode])
    /// Character data, entities decoded (`&eacute;` → `é`, `&#8212;` → `—`).
    case text(String)
    /// A comment, a processing instruction or a declaration: never shown.
    case hidden
}

/// Parses HTML fragments with libxml2's HTML parser (HTML 4 rules for what closes what; a `<`
/// that starts no tag stays text, so `if a < b` keeps its words).
enum HTMLFragment {
    /// libxml2 must be initialised once before parsers run on several threads (libxml2 docs,
    /// "Thread safety"); a `static let` runs its initialiser exactly once.
    private static let initialised: Bool = {
        xmlInitParser()
        return true
    }()

    /// Elements nested deeper than this are flattened to their text (bounds recursion).
    static let maxDepth = 64

    /// The top-level nodes of `html`; empty for an empty fragment or one libxml2 cannot parse.
    static func parse(_ html: String) -> [HTMLNode] {
        _ = initialised
        var bytes = Array(html.utf8)
        guard !bytes.isEmpty, bytes.count < Int(Int32.max) else { return [] }
        bytes.append(0)
        let doc: htmlDocPtr? = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                htmlReadMemory(chars.baseAddress, Int32(chars.count - 1), nil, "UTF-8", typeset_html_options())
            }
        }
        guard let doc else { return [] }
        defer { xmlFreeDoc(doc) }
        return nodes(doc.pointee.children, depth: 0)
    }

    private static func string(_ p: UnsafePointer<xmlChar>?) -> String {
        guard let p else { return "" }
        return String(cString: p)
    }

    private static func nodes(_ first: UnsafeMutablePointer<xmlNode>?, depth: Int) -> [HTMLNode] {
        var result: [HTMLNode] = []
        var node = first
        while let n = node {
            defer { node = n.pointee.next }
            switch n.pointee.type {
            case XML_ELEMENT_NODE:
                let name = string(n.pointee.name).lowercased()
                var attributes: [String: String] = [:]
                var attribute = n.pointee.properties
                while let a = attribute {
                    var value = ""
                    var child = a.pointee.children
                    while let c = child { value += string(c.pointee.content); child = c.pointee.next }
                    attributes[string(a.pointee.name).lowercased()] = value
                    attribute = a.pointee.next
                }
                let children = depth < maxDepth
                    ? nodes(n.pointee.children, depth: depth + 1)
                    : [.text(plainText(n.pointee.children))]
                result.append(.element(name: name, attributes: attributes, children: children))
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                result.append(.text(string(n.pointee.content)))
            case XML_COMMENT_NODE, XML_PI_NODE, XML_DTD_NODE:
                result.append(.hidden)
            case XML_HTML_DOCUMENT_NODE, XML_DOCUMENT_NODE, XML_DOCUMENT_FRAG_NODE:
                result += nodes(n.pointee.children, depth: depth + 1)
            default:
                break
            }
        }
        return result
    }

    /// The text under `first` without recursion into Swift values (past ``maxDepth``).
    private static func plainText(_ first: UnsafeMutablePointer<xmlNode>?) -> String {
        var text = ""
        var stack: [UnsafeMutablePointer<xmlNode>] = []
        if let first { stack.append(first) }
        while let n = stack.popLast() {
            if let next = n.pointee.next { stack.append(next) }
            if n.pointee.type == XML_TEXT_NODE { text += string(n.pointee.content) }
            if n.pointee.type == XML_ELEMENT_NODE, let c = n.pointee.children { stack.append(c) }
        }
        return text
    }
}
