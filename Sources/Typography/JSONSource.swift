import Foundation

/// A 1-based line and column in a source text. Columns count Unicode scalars (a Hangul syllable or
/// an accented letter is one column; a tab is one column).
public struct SourcePosition: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// 1-based line and column.
    public var line: Int, column: Int
    /// A position at `line` and `column` (both 1-based).
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
    /// `line:column`.
    public var description: String { "\(line):\(column)" }
    /// Source order: by line, then column.
    public static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }
}

/// A JSON value with the source position of every value and object key: what theme and token
/// files are decoded from so that every problem can name its `file:line:column`.
///
/// Parsed by ``JSONSource/parse(_:)``, a strict RFC 8259 recursive-descent parser written for the
/// purpose (Foundation's `JSONSerialization` gives values but no positions, and on Linux bridges
/// `true` and `1` to the same `NSNumber`). Numbers are converted with `Double(_:)`, as
/// `JSONSerialization` does.
struct JSONNode {
    /// One object member: key, where the key's opening quote is, and the value.
    struct Member {
        var key: String
        var keyPosition: SourcePosition
        var value: JSONNode
    }
    indirect enum Value {
        case object([Member])
        case array([JSONNode])
        case string(String)
        case number(Double, literal: String)
        case bool(Bool)
        case null
    }
    var value: Value
    /// Where the value starts (its first character).
    var position: SourcePosition

    /// Object members in source order, or nil when not an object.
    var members: [Member]? {
        if case .object(let members) = value { return members }
        return nil
    }
    /// The member named `key` (the last one when repeated), or nil.
    subscript(key: String) -> JSONNode? { members?.last(where: { $0.key == key })?.value }

    /// Every key written twice in one object, at any depth, in source order: the key, where it
    /// is first written and where again. RFC 8259 §4 leaves what such an object means to each
    /// reader ("names within an object SHOULD be unique"). Read without recursion, so a deeply
    /// nested file needs no stack.
    func repeatedKeys() -> [(key: String, first: SourcePosition, again: SourcePosition)] {
        var found: [(key: String, first: SourcePosition, again: SourcePosition)] = []
        var pending = [self]
        while let node = pending.popLast() {
            switch node.value {
            case .object(let members):
                var seen: [String: SourcePosition] = [:]
                for member in members {
                    if let first = seen[member.key] {
                        found.append((member.key, first, member.keyPosition))
                    } else {
                        seen[member.key] = member.keyPosition
                    }
                    pending.append(member.value)
                }
            case .array(let items): pending += items
            default: break
            }
        }
        return found.sorted { ($0.again.line, $0.again.column) < ($1.again.line, $1.again.column) }
    }

    /// The warning for a key written twice (``repeatedKeys()``).
    static func repeatedKeyMessage(_ key: String, first: SourcePosition) -> String {
        "key '\(key.prefix(60))' is written twice in one object (first at \(first)): JSON leaves which one "
            + "counts to each reader; keep one"
    }
    var string: String? {
        if case .string(let text) = value { return text }
        return nil
    }
    var number: Double? {
        if case .number(let number, _) = value { return number }
        return nil
    }
    var bool: Bool? {
        if case .bool(let flag) = value { return flag }
        return nil
    }
    var array: [JSONNode]? {
        if case .array(let items) = value { return items }
        return nil
    }
    var isNull: Bool {
        if case .null = value { return true }
        return false
    }

    /// A short name of the value's JSON type for messages: `object`, `array`, `string`, `number`,
    /// `true`/`false`, `null`.
    var typeName: String {
        switch value {
        case .object: "an object"
        case .array: "an array"
        case .string(let text): "the string \"\(text)\""
        case .number(_, let literal): "the number \(literal)"
        case .bool(let flag): flag ? "true" : "false"
        case .null: "null"
        }
    }
}

/// A JSON syntax error at a position.
struct JSONSyntaxError: Error {
    var position: SourcePosition
    var message: String
}

/// The JSON position scanner and parser.
enum JSONSource {
    /// Parses `data` (UTF-8, an optional BOM skipped) into a positioned tree, or throws the first
    /// syntax error with its line and column.
    static func parse(_ data: Data) throws(JSONSyntaxError) -> JSONNode {
        // JSON text is UTF-8 (RFC 8259 §8.1): a bad sequence anywhere is an error at its place.
        if String(validating: data, as: UTF8.self) == nil {
            let scan = data.withUnsafeBytes { UTF8Repair.scan($0, loneCarriageReturnEndsLine: false) }
            let bom = data.starts(with: [0xEF, 0xBB, 0xBF]) && scan.firstLineStart == 0 ? 3 : 0
            let before = data[(data.startIndex + scan.firstLineStart + bom)..<(data.startIndex + scan.firstOffset)]
            let column = before.reduce(1) { $1 & 0xC0 != 0x80 ? $0 + 1 : $0 }
            let byte = String(format: "0x%02X", data[data.startIndex + scan.firstOffset])
            let many = scan.count == 1 ? "" : " (\(scan.count) in the file)"
            let message = "invalid UTF-8: a bad byte sequence starting with byte \(byte)\(many); JSON text is UTF-8"
            throw JSONSyntaxError(position: SourcePosition(line: scan.firstLine, column: column), message: message)
        }
        var parser = Parser(bytes: Array(data))
        return try parser.document()
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0
        var line = 1, lineStart = 0

        init(bytes: [UInt8]) {
            self.bytes = bytes
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
                index = 3
                lineStart = 3
            }
        }

        /// Position of byte offset `offset` on the current line (columns count scalars).
        func position(_ offset: Int? = nil) -> SourcePosition {
            let end = min(offset ?? index, bytes.count)
            var column = 1
            var from = lineStart
            if counted.lineStart == lineStart, counted.offset <= end {
                column = counted.column
                from = counted.offset
            }
            if from < end { for byte in bytes[from..<end] where byte & 0xC0 != 0x80 { column += 1 } }
            return SourcePosition(line: line, column: column)
        }

        /// The last column counted on the current line, so that positions on one long line (a
        /// minified file) cost O(1) each, not O(line length): parsing stays linear.
        var counted = (lineStart: -1, offset: 0, column: 1)

        /// The position of the current byte, remembered for the next call.
        mutating func here() -> SourcePosition {
            let location = position()
            counted = (lineStart, min(index, bytes.count), location.column)
            return location
        }

        func fail(_ message: String, at offset: Int? = nil) -> JSONSyntaxError {
            JSONSyntaxError(position: position(offset), message: message)
        }

        var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        func describe(_ byte: UInt8?) -> String {
            guard let byte else { return "end of file" }
            if byte >= 0x20 && byte < 0x7F { return "'\(Character(UnicodeScalar(byte)))'" }
            if byte == 0x0A { return "end of line" }
            // Decode the scalar starting here for a readable message.
            let scalarBytes = bytes[index..<min(index + 4, bytes.count)]
            if let text = String(
                bytes: scalarBytes.prefix(byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1), encoding: .utf8)
            {
                return "'\(text)'"
            }
            return String(format: "byte 0x%02X", byte)
        }

        mutating func skipWhitespace() {
            while let byte = current {
                switch byte {
                case 0x20, 0x09, 0x0D: index += 1
                case 0x0A:
                    index += 1
                    line += 1
                    lineStart = index
                default: return
                }
            }
        }

        mutating func document() throws(JSONSyntaxError) -> JSONNode {
            skipWhitespace()
            if current == nil { throw fail("empty file: expected a JSON value") }
            let node = try value()
            skipWhitespace()
            if current != nil { throw fail("unexpected \(describe(current)) after the end of the JSON value") }
            return node
        }

        /// Arrays and objects open around the current value; bounded so that a hostile file
        /// cannot exhaust the stack (every walker over the tree recurses too).
        var depth = 0
        static let maximumDepth = 256

        mutating func value() throws(JSONSyntaxError) -> JSONNode {
            let start = here()
            depth += 1
            defer { depth -= 1 }
            guard depth <= Parser.maximumDepth else {
                throw fail("values nested more than \(Parser.maximumDepth) levels deep")
            }
            guard let byte = current else { throw fail("unexpected end of file: expected a value") }
            switch byte {
            case UInt8(ascii: "{"): return try object(start)
            case UInt8(ascii: "["): return try array(start)
            case UInt8(ascii: "\""): return JSONNode(value: .string(try string()), position: start)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number(start)
            case UInt8(ascii: "t"):
                try literal("true")
                return JSONNode(value: .bool(true), position: start)
            case UInt8(ascii: "f"):
                try literal("false")
                return JSONNode(value: .bool(false), position: start)
            case UInt8(ascii: "n"):
                try literal("null")
                return JSONNode(value: .null, position: start)
            case UInt8(ascii: "'"): throw fail("strings must use double quotes (\"), not single quotes")
            default: throw fail("unexpected \(describe(byte)): expected a value")
            }
        }

        mutating func literal(_ word: String) throws(JSONSyntaxError) {
            let expected = Array(word.utf8)
            guard bytes.count >= index + expected.count, Array(bytes[index..<index + expected.count]) == expected else {
                throw fail("invalid literal: expected '\(word)'")
            }
            index += expected.count
        }

        mutating func object(_ start: SourcePosition) throws(JSONSyntaxError) -> JSONNode {
            index += 1
            var members: [JSONNode.Member] = []
            skipWhitespace()
            if current == UInt8(ascii: "}") {
                index += 1
                return JSONNode(value: .object([]), position: start)
            }
            while true {
                skipWhitespace()
                guard current == UInt8(ascii: "\"") else {
                    if current == UInt8(ascii: "}") && !members.isEmpty { throw fail("trailing comma before '}'") }
                    throw fail("unexpected \(describe(current)): expected a string key in double quotes")
                }
                let keyPosition = here()
                let key = try string()
                skipWhitespace()
                guard current == UInt8(ascii: ":") else {
                    throw fail("unexpected \(describe(current)): expected ':' after key \"\(key)\"")
                }
                index += 1
                skipWhitespace()
                let memberValue = try value()
                members.append(JSONNode.Member(key: key, keyPosition: keyPosition, value: memberValue))
                skipWhitespace()
                if current == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                if current == UInt8(ascii: "}") {
                    index += 1
                    return JSONNode(value: .object(members), position: start)
                }
                throw fail("unexpected \(describe(current)): expected ',' or '}' after the value of \"\(key)\"")
            }
        }

        mutating func array(_ start: SourcePosition) throws(JSONSyntaxError) -> JSONNode {
            index += 1
            var items: [JSONNode] = []
            skipWhitespace()
            if current == UInt8(ascii: "]") {
                index += 1
                return JSONNode(value: .array([]), position: start)
            }
            while true {
                skipWhitespace()
                if current == UInt8(ascii: "]") && !items.isEmpty { throw fail("trailing comma before ']'") }
                items.append(try value())
                skipWhitespace()
                if current == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                if current == UInt8(ascii: "]") {
                    index += 1
                    return JSONNode(value: .array(items), position: start)
                }
                throw fail("unexpected \(describe(current)): expected ',' or ']' in array")
            }
        }

        mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
            guard index + 4 <= bytes.count,
                let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
            else {
                throw fail("invalid \\u escape: expected four hex digits")
            }
            index += 4
            return code
        }

        mutating func string() throws(JSONSyntaxError) -> String {
            let open = index
            index += 1
            var out = [UInt8]()
            while true {
                guard let byte = current else { throw fail("unterminated string (opened here)", at: open) }
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    return String(decoding: out, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    index += 1
                    guard let escaped = current else { throw fail("unterminated string (opened here)", at: open) }
                    index += 1
                    switch escaped {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escaped)
                    case UInt8(ascii: "b"): out.append(0x08)
                    case UInt8(ascii: "f"): out.append(0x0C)
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "r"): out.append(0x0D)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "u"):
                        var code = try hex4()
                        if (0xD800..<0xDC00).contains(code), current == UInt8(ascii: "\\"),
                            index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u")
                        {
                            index += 2
                            let low = try hex4()
                            if (0xDC00..<0xE000).contains(low) {
                                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                            }
                        }
                        out.append(
                            contentsOf: Array(String(UnicodeScalar(code).map(Character.init) ?? "\u{FFFD}").utf8))
                    default:
                        throw fail("invalid escape '\\\(Character(UnicodeScalar(escaped)))' in string", at: index - 2)
                    }
                case 0x0A:
                    throw fail("unterminated string: line break inside a string (opened at \(position(open)))")
                case 0..<0x20:
                    throw fail("control character in string: write it as an escape")
                default:
                    out.append(byte)
                    index += 1
                }
            }
        }

        mutating func number(_ start: SourcePosition) throws(JSONSyntaxError) -> JSONNode {
            let begin = index
            func digit(_ byte: UInt8?) -> Bool { byte.map { $0 >= 0x30 && $0 <= 0x39 } ?? false }
            if current == UInt8(ascii: "-") { index += 1 }
            guard digit(current) else { throw fail("invalid number: expected a digit") }
            if current == UInt8(ascii: "0") {
                index += 1
                if digit(current) { throw fail("invalid number: leading zeros are not allowed") }
            } else {
                while digit(current) { index += 1 }
            }
            if current == UInt8(ascii: ".") {
                index += 1
                guard digit(current) else { throw fail("invalid number: expected a digit after '.'") }
                while digit(current) { index += 1 }
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                index += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
                guard digit(current) else { throw fail("invalid number: expected a digit in the exponent") }
                while digit(current) { index += 1 }
            }
            let literal = String(decoding: bytes[begin..<index], as: UTF8.self)
            guard let value = Double(literal) else { throw fail("invalid number '\(literal)'", at: begin) }
            if let byte = current, (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || byte == UInt8(ascii: "%")
            {
                throw fail(
                    "unexpected \(describe(byte)) after number \(literal): write values with units as strings, e.g. "
                        + "\"\(literal)pt\""
                )
            }
            return JSONNode(value: .number(value, literal: literal), position: start)
        }
    }
}
