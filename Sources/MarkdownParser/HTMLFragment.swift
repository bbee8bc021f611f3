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
/// that starts no tag stays text, so `if a < b` keeps its words), its input first rewritten by
/// ``HTMLFiveTokens`` where HTML5's tokenizer reads otherwise (comments, `</br>`, `<image>`,
/// RAWTEXT elements, character references).
enum HTMLFragment {
    /// libxml2 must be initialised once before parsers run on several threads (libxml2 docs,
    /// "Thread safety"); a `static let` runs its initialiser exactly once.
    private static let initialised: Bool = {
        xmlInitParser()
        return true
    }()

    /// The elements that never have content: HTML Living Standard §13.1.2 "void elements", with
    /// the obsolete ones its parser still treats so (§13.2.6.4.7: `basefont`, `bgsound`,
    /// `frame`, `keygen`, `param`).
    static let voidElements: Set<String> = [
        "area", "base", "basefont", "bgsound", "br", "col", "embed", "frame", "hr", "img", "input", "keygen", "link",
        "meta", "param", "source", "track", "wbr",
    ]

    /// Elements nested deeper than this are flattened to their text (bounds recursion).
    static let maxDepth = 64

    /// The top-level nodes of `html`; empty for an empty fragment or one libxml2 cannot parse.
    static func parse(_ html: String) -> [HTMLNode] {
        parseChecked(html).nodes
    }

    /// The top-level nodes of `html` (what the implied `<html>`, `<head>` and `<body>` hold, in
    /// source order), and whether libxml2 gave up part-way (`complete` false):
    /// a fatal error such as its nesting limit ("Excessive depth in document: 256", without
    /// `XML_PARSE_HUGE`) or its 10,000,000-byte text node limit (`XML_MAX_TEXT_LENGTH`) halts
    /// the parser, and the tree then lacks the rest of the fragment. An incomplete fragment's
    /// nodes are its text with the tags stripped (``strippedText(_:)``), so no word is lost.
    static func parseChecked(_ html: String) -> (nodes: [HTMLNode], complete: Bool) {
        _ = initialised
        let normalized = HTMLFiveTokens.normalized(Array(html.utf8))
        guard !normalized.isEmpty else { return ([], true) }
        let stripped = { strippedText(String(decoding: normalized, as: UTF8.self)) }
        var bytes = normalized
        guard bytes.count < Int(Int32.max) else { return ([.text(stripped())], false) }
        bytes.append(0)
        guard let context = htmlNewParserCtxt() else { return ([.text(stripped())], false) }
        defer { htmlFreeParserCtxt(context) }
        let doc: htmlDocPtr? = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                htmlCtxtReadMemory(
                    context, chars.baseAddress, Int32(chars.count - 1), nil, "UTF-8", typeset_html_options())
            }
        }
        defer { if let doc { xmlFreeDoc(doc) } }
        // A halted parser has SAX disabled; an HTML parser's ordinary complaints (an unknown
        // tag, a stray end tag) are errors it recovers from, never fatal ones.
        let halted =
            context.pointee.disableSAX != 0
            || xmlCtxtGetLastError(UnsafeMutableRawPointer(context))?.pointee.level == XML_ERR_FATAL
        guard let doc, !halted else { return ([.text(stripped())], false) }
        return (nodes(doc.pointee.children, depth: 0), true)
    }

    /// The text of `html` with its tags and comments removed and the character references
    /// `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`, `&nbsp;` and `&#N;`/`&#xH;` decoded: what a
    /// fragment libxml2 could not parse shows instead (a `<` that starts no tag stays text).
    /// One pass over the UTF-8 bytes: time and memory linear in the fragment's length.
    static func strippedText(_ html: String) -> String {
        let bytes = Array(html.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "<"), starts(bytes, with: "<!--", at: index) {
                index = end(of: "-->", in: bytes, from: index + 4)
                continue
            }
            if byte == UInt8(ascii: "<"), index + 1 < bytes.count, startsTag(bytes[index + 1]) {
                index = tagEnd(bytes, from: index + 1)
                out.append(UInt8(ascii: " "))  // a tag may separate words (`a<br>b`)
                continue
            }
            if byte == UInt8(ascii: "&"), let (scalar, next) = reference(in: bytes, at: index) {
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
                index = next
                continue
            }
            out.append(byte)
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether `bytes` holds `text` (ASCII) at `index`.
    private static func starts(_ bytes: [UInt8], with text: StaticString, at index: Int) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        return (0..<count).allSatisfy { bytes[index + $0] == text.utf8Start[$0] }
    }

    /// The index just past the first `terminator` at or after `start`, or the end of `bytes`.
    private static func end(of terminator: StaticString, in bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index < bytes.count {
            if starts(bytes, with: terminator, at: index) { return index + terminator.utf8CodeUnitCount }
            index += 1
        }
        return bytes.count
    }

    /// Whether a `<` followed by `byte` starts a tag, an end tag, a declaration or a processing
    /// instruction (HTML's tag names start with an ASCII letter).
    private static func startsTag(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "!") || byte == UInt8(ascii: "?")
    }

    /// The index just past the `>` that ends the tag whose name starts at `start` (a `>` inside
    /// a quoted attribute value does not end it), or the end of `bytes`.
    private static func tagEnd(_ bytes: [UInt8], from start: Int) -> Int {
        var quote: UInt8?
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                return index + 1
            }
            index += 1
        }
        return bytes.count
    }

    /// The character reference starting with the `&` at `index` (its name at most 11 bytes,
    /// then `;`): the character, and the index past the `;`. nil when it is not one.
    private static func reference(in bytes: [UInt8], at index: Int) -> (Unicode.Scalar, Int)? {
        let limit = min(bytes.count, index + 12)
        guard let semicolon = bytes[index..<limit].firstIndex(of: UInt8(ascii: ";")) else { return nil }
        let name = String(decoding: bytes[(index + 1)..<semicolon], as: UTF8.self)
        return decodedReference(name).map { ($0, semicolon + 1) }
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

    private static func string(_ text: UnsafePointer<xmlChar>?) -> String {
        guard let text else { return "" }
        return String(cString: text)
    }

    private static func nodes(_ first: UnsafeMutablePointer<xmlNode>?, depth: Int) -> [HTMLNode] {
        var result: [HTMLNode] = []
        var node = first
        while let current = node {
            defer { node = current.pointee.next }
            switch current.pointee.type {
            case XML_ELEMENT_NODE where isDocumentElement(current):
                // The implied (or written) <html>, <head> and <body>: their content in place.
                result += nodes(current.pointee.children, depth: depth + 1)
            case XML_ELEMENT_NODE:
                let name = string(current.pointee.name).lowercased()
                var attributes: [String: String] = [:]
                var attribute = current.pointee.properties
                while let property = attribute {
                    var value = ""
                    var child = property.pointee.children
                    while let valueNode = child {
                        value += string(valueNode.pointee.content)
                        child = valueNode.pointee.next
                    }
                    attributes[string(property.pointee.name).lowercased()] = value
                    attribute = property.pointee.next
                }
                let children =
                    depth < maxDepth
                    ? nodes(current.pointee.children, depth: depth + 1)
                    : [.text(plainText(current.pointee.children))]
                if voidElements.contains(name) {
                    // A void element libxml2's HTML 4 rules do not know (`<wbr>`, `<source>`,
                    // `<track>`, `<embed>`) holds what follows it up to its parent's end: that
                    // content is its parent's, after it.
                    result.append(.element(name: name, attributes: attributes, children: []))
                    result += children
                } else {
                    result.append(.element(name: name, attributes: attributes, children: children))
                }
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                result.append(.text(string(current.pointee.content)))
            case XML_COMMENT_NODE, XML_PI_NODE, XML_DTD_NODE:
                result.append(.hidden)
            case XML_HTML_DOCUMENT_NODE, XML_DOCUMENT_NODE, XML_DOCUMENT_FRAG_NODE:
                result += nodes(current.pointee.children, depth: depth + 1)
            default:
                break
            }
        }
        return result
    }

    /// Whether `node` is an `<html>`, `<head>` or `<body>` element: libxml2 adds them around a
    /// fragment (and keeps written ones, or nests one after `</html>`); a fragment's nodes are
    /// what they hold, in source order.
    private static func isDocumentElement(_ node: UnsafeMutablePointer<xmlNode>) -> Bool {
        guard let name = node.pointee.name else { return false }
        let lowered = string(name).lowercased()
        return lowered == "html" || lowered == "head" || lowered == "body"
    }

    /// The words of libxml2's own text of `html` (its text nodes, parsed with the options
    /// ``parseChecked(_:)`` uses), leaving out the content of the elements named in `hidden`
    /// (lower-case names): what a reader must find in the PDF, for tests that compare the two.
    /// Read from libxml2's tree directly, not from ``HTMLNode`` values. Each text node's words
    /// are split at white space; words of neighbouring text nodes stay apart (`<b>bo</b>ld`
    /// gives `bo`, `ld`).
    static func libxmlWords(of html: String, hidden: Set<String>) -> [String] {
        _ = initialised
        let bytes = HTMLFiveTokens.normalized(Array(html.utf8))
        guard !bytes.isEmpty, let context = htmlNewParserCtxt() else { return [] }
        defer { htmlFreeParserCtxt(context) }
        let doc: htmlDocPtr? = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                htmlCtxtReadMemory(context, chars.baseAddress, Int32(chars.count), nil, "UTF-8", typeset_html_options())
            }
        }
        guard let doc else { return [] }
        defer { xmlFreeDoc(doc) }
        var words: [String] = []
        var stack: [UnsafeMutablePointer<xmlNode>] = []
        if let first = doc.pointee.children { stack.append(first) }
        while let node = stack.popLast() {
            if let next = node.pointee.next { stack.append(next) }
            switch node.pointee.type {
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                words += string(node.pointee.content).split { $0.isWhitespace }.map(String.init)
            case XML_ELEMENT_NODE:
                let name = string(node.pointee.name).lowercased()
                guard !hidden.contains(name), let child = node.pointee.children else { continue }
                stack.append(child)
            default:
                continue
            }
        }
        return words
    }

    /// The text under `first` without recursion into Swift values (past ``maxDepth``).
    private static func plainText(_ first: UnsafeMutablePointer<xmlNode>?) -> String {
        var text = ""
        var stack: [UnsafeMutablePointer<xmlNode>] = []
        if let first { stack.append(first) }
        while let current = stack.popLast() {
            if let next = current.pointee.next { stack.append(next) }
            if current.pointee.type == XML_TEXT_NODE { text += string(current.pointee.content) }
            if current.pointee.type == XML_ELEMENT_NODE, let firstChild = current.pointee.children {
                stack.append(firstChild)
            }
        }
        return text
    }
}
