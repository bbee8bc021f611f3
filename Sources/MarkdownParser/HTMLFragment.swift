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
        parseChecked(html).nodes
    }

    /// The top-level nodes of `html`, and whether libxml2 gave up part-way (`complete` false):
    /// a fatal error such as its nesting limit ("Excessive depth in document: 256", without
    /// `XML_PARSE_HUGE`) or its 10,000,000-byte text node limit (`XML_MAX_TEXT_LENGTH`) halts
    /// the parser, and the tree then lacks the rest of the fragment. An incomplete fragment's
    /// nodes are its text with the tags stripped (``strippedText(_:)``), so no word is lost.
    static func parseChecked(_ html: String) -> (nodes: [HTMLNode], complete: Bool) {
        _ = initialised
        var bytes = Array(html.utf8)
        guard !bytes.isEmpty else { return ([], true) }
        guard bytes.count < Int(Int32.max) else { return ([.text(strippedText(html))], false) }
        bytes.append(0)
        guard let context = htmlNewParserCtxt() else { return ([.text(strippedText(html))], false) }
        defer { htmlFreeParserCtxt(context) }
        let doc: htmlDocPtr? = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                htmlCtxtReadMemory(context, chars.baseAddress, Int32(chars.count - 1), nil, "UTF-8", typeset_html_options())
            }
        }
        defer { if let doc { xmlFreeDoc(doc) } }
        // A halted parser has SAX disabled; an HTML parser's ordinary complaints (an unknown
        // tag, a stray end tag) are errors it recovers from, never fatal ones.
        let halted = context.pointee.disableSAX != 0 || xmlCtxtGetLastError(UnsafeMutableRawPointer(context))?.pointee.level == XML_ERR_FATAL
        guard let doc, !halted else { return ([.text(strippedText(html))], false) }
        return (nodes(doc.pointee.children, depth: 0), true)
    }

    /// The text of `html` with its tags and comments removed and the character references
    /// `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`, `&nbsp;` and `&#N;`/`&#xH;` decoded: what a
    /// fragment libxml2 could not parse shows instead (a `<` that starts no tag stays text).
    static func strippedText(_ html: String) -> String {
        var out = String.UnicodeScalarView()
        let scalars = Array(html.unicodeScalars)
        var i = 0
        func starts(_ text: String, at index: Int) -> Bool {
            let pattern = Array(text.unicodeScalars)
            guard index + pattern.count <= scalars.count else { return false }
            return (0..<pattern.count).allSatisfy { scalars[index + $0] == pattern[$0] }
        }
        while i < scalars.count {
            let c = scalars[i]
            if c == "<", starts("<!--", at: i) {
                var j = i + 4
                while j < scalars.count, !starts("-->", at: j) { j += 1 }
                i = min(scalars.count, j + 3)
                continue
            }
            if c == "<", i + 1 < scalars.count, scalars[i + 1].properties.isAlphabetic || ["/", "!", "?"].contains(scalars[i + 1]) {
                var j = i + 1
                var quote: Unicode.Scalar?
                while j < scalars.count {
                    let d = scalars[j]
                    if let q = quote { if d == q { quote = nil } } else if d == "\"" || d == "'" { quote = d } else if d == ">" { break }
                    j += 1
                }
                out.append(" ")  // a tag may separate words (`a<br>b`)
                i = j + 1
                continue
            }
            if c == "&", let semicolon = scalars[i...].prefix(12).firstIndex(of: ";") {
                let name = String(String.UnicodeScalarView(scalars[(i + 1)..<semicolon]))
                if let decoded = decodedReference(name) {
                    out.append(decoded)
                    i = semicolon + 1
                    continue
                }
            }
            out.append(c)
            i += 1
        }
        return String(out)
    }

    private static func decodedReference(_ name: String) -> Unicode.Scalar? {
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        case "nbsp": return "\u{A0}"
        default:
            guard name.hasPrefix("#") else { return nil }
            let digits = name.dropFirst()
            let value = digits.lowercased().hasPrefix("x") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
            return value.flatMap(Unicode.Scalar.init)
        }
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
