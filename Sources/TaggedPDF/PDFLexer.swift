/// The one reader of PDF syntax over bytes (PDF 1.7 §7.2–7.3): white space, comments, the
/// tokens of objects and content streams (``next()``), and whole objects built from them
/// (``value()``). The tagging pass reads Cairo's objects and rewrites its content streams with
/// it; tests read content streams back with it.
struct PDFLexer {
    /// Bytes that are not PDF object syntax where an object was expected.
    struct Malformed: Error {}

    /// What a token is (PDF 1.7 §7.2.2 delimiters and regular characters, §7.3 objects).
    enum Kind: Equatable, Sendable {
        /// A number: a regular token beginning with a digit, a sign or a point.
        case number
        /// `/Name`, the solidus included.
        case name
        /// A literal string `( … )`, parentheses included.
        case literalString
        /// A hexadecimal string `< … >`, angle brackets included.
        case hexString
        /// `[`, `]`, `<<`, `>>`, `{` or `}`.
        case delimiter
        /// `true`, `false` or `null`.
        case constant
        /// Any other regular token: an operator in a content stream (`Tj`, `BDC`), a keyword
        /// between objects (`obj`, `R`, `stream`).
        case keyword
    }

    /// One token: where its bytes lie and what it is.
    struct Token: Equatable, Sendable {
        var range: Range<Int>
        var kind: Kind
        /// Whether the token is an operator of a content stream (a keyword).
        var isOperator: Bool { kind == .keyword }
    }

    let bytes: UnsafeBufferPointer<UInt8>
    /// Where the next token is read from.
    var index: Int

    /// A lexer reading `bytes` from `index`.
    init(bytes: UnsafeBufferPointer<UInt8>, index: Int = 0) {
        self.bytes = bytes
        self.index = index
    }

    /// A lexer reading `bytes` from the start.
    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.init(bytes: bytes) }

    /// White space (PDF 1.7 Table 1).
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 || byte == 0x0C || byte == 0x00
    }

    /// Delimiters (PDF 1.7 Table 2).
    static func isDelimiter(_ byte: UInt8) -> Bool {
        byte == 0x28 || byte == 0x29 || byte == 0x3C || byte == 0x3E || byte == 0x5B || byte == 0x5D || byte == 0x7B
            || byte == 0x7D || byte == 0x2F || byte == 0x25
    }

    /// Moves past white space and comments (`%` to the end of the line).
    mutating func skipSpace() {
        while index < bytes.count {
            let byte = bytes[index]
            if Self.isSpace(byte) {
                index += 1
            } else if byte == 0x25 {
                while index < bytes.count, bytes[index] != 0x0A, bytes[index] != 0x0D { index += 1 }
            } else {
                return
            }
        }
    }

    // MARK: Tokens

    /// The next token, nil at the end of the bytes. A string runs to its closing delimiter
    /// (balanced parentheses and backslash escapes for a literal string, §7.3.4), so the bytes
    /// of a glyph string never pass for an operator.
    mutating func next() -> Token? {
        skipSpace()
        let count = bytes.count
        guard index < count else { return nil }
        let start = index
        switch bytes[index] {
        case 0x28:
            _ = skipLiteralString()
            return Token(range: start..<min(index, count), kind: .literalString)
        case 0x3C where index + 1 < count && bytes[index + 1] == 0x3C:
            index += 2
            return Token(range: start..<index, kind: .delimiter)
        case 0x3C:
            while index < count, bytes[index] != 0x3E { index += 1 }
            index = min(index + 1, count)
            return Token(range: start..<index, kind: .hexString)
        case 0x3E:
            index = min(index + 2, count)
            return Token(range: start..<index, kind: .delimiter)
        case 0x5B, 0x5D, 0x7B, 0x7D:
            index += 1
            return Token(range: start..<index, kind: .delimiter)
        case 0x2F:
            index += 1
            _ = token()
            return Token(range: start..<index, kind: .name)
        default:
            let range = token()
            if range.isEmpty {
                // A delimiter no token begins with (an unbalanced `)`): one byte, an operator.
                index += 1
                return Token(range: start..<index, kind: .keyword)
            }
            let first = bytes[start]
            if (0x30...0x39).contains(first) || first == 0x2D || first == 0x2B || first == 0x2E {
                return Token(range: range, kind: .number)
            }
            // Only `t`, `f` and `n` begin a constant: the operators of a content stream (most
            // of its tokens) are told apart by their first byte, with no comparison.
            if first == 0x74 || first == 0x66 || first == 0x6E, isConstant(range) {
                return Token(range: range, kind: .constant)
            }
            return Token(range: range, kind: .keyword)
        }
    }

    /// Moves past the literal string that starts at the current position, or to the end of
    /// the bytes when it is not closed; returns whether it was closed.
    private mutating func skipLiteralString() -> Bool {
        var depth = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x5C {
                index += 2
                continue
            }
            if byte == 0x28 {
                depth += 1
            } else if byte == 0x29 {
                depth -= 1
                if depth == 0 {
                    index += 1
                    return true
                }
            }
            index += 1
        }
        return false
    }

    /// The regular token (a number, keyword or name body) starting at the current position,
    /// possibly empty.
    mutating func token() -> Range<Int> {
        let start = index
        while index < bytes.count, !Self.isSpace(bytes[index]), !Self.isDelimiter(bytes[index]) { index += 1 }
        return start..<index
    }

    /// Whether the bytes at the current position (after white space) are `keyword`; if so,
    /// moves past it.
    mutating func keyword(_ keyword: StaticString) -> Bool {
        skipSpace()
        let length = keyword.utf8CodeUnitCount
        guard index + length <= bytes.count else { return false }
        let expected = keyword.utf8Start
        for offset in 0..<length where bytes[index + offset] != expected[offset] { return false }
        if index + length < bytes.count {
            let after = bytes[index + length]
            guard Self.isSpace(after) || Self.isDelimiter(after) else { return false }
        }
        index += length
        return true
    }

    /// The unsigned integer at the current position; nil (the position unchanged) when the
    /// regular token there is not all digits.
    mutating func integer() -> Int? {
        let saved = index
        let range = token()
        var value = 0
        guard !range.isEmpty else {
            index = saved
            return nil
        }
        for offset in range {
            let byte = bytes[offset]
            guard (0x30...0x39).contains(byte) else {
                index = saved
                return nil
            }
            value = value &* 10 &+ Int(byte - 0x30)
        }
        return value
    }

    /// Whether the regular token at `range` is `true`, `false` or `null`.
    private func isConstant(_ range: Range<Int>) -> Bool {
        switch range.count {
        case 4: return equals(range, Self.trueBytes) || equals(range, Self.nullBytes)
        case 5: return equals(range, Self.falseBytes)
        default: return false
        }
    }

    private static let trueBytes = Array("true".utf8)
    private static let falseBytes = Array("false".utf8)
    private static let nullBytes = Array("null".utf8)

    // MARK: Reading tokens

    /// The token's bytes as text.
    func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// Whether the token's bytes are `pattern`.
    func equals(_ range: Range<Int>, _ pattern: [UInt8]) -> Bool {
        guard range.count == pattern.count else { return false }
        var offset = 0
        for index in range {
            if bytes[index] != pattern[offset] { return false }
            offset += 1
        }
        return true
    }

    /// The token as a number. The form Cairo writes, digits with at most one decimal point
    /// and at most 15 digits in all, is read from its bytes (exactly as `Double` reads its
    /// text: the digits make an integer below 2^53 that one correctly rounded division
    /// scales); any other form through `Double`.
    func number(_ range: Range<Int>) -> Double? {
        var digits = 0
        var mantissa = 0
        var fractionDigits = -1
        for index in range {
            let byte = bytes[index]
            if byte == 0x2E, fractionDigits < 0 {
                fractionDigits = 0
                continue
            }
            guard (0x30...0x39).contains(byte), digits < 15 else { return Double(text(range)) }
            mantissa = mantissa * 10 + Int(byte - 0x30)
            digits += 1
            if fractionDigits >= 0 { fractionDigits += 1 }
        }
        guard digits > 0 else { return Double(text(range)) }
        return fractionDigits > 0 ? Double(mantissa) / Self.powersOfTen[fractionDigits] : Double(mantissa)
    }

    /// 10^0 … 10^15, each exact in a `Double`.
    private static let powersOfTen: [Double] = (0...15).reduce(into: []) { powers, exponent in
        powers.append(exponent == 0 ? 1 : powers[exponent - 1] * 10)
    }

    /// The bytes a string token stands for (PDF 1.7 §7.3.4): a literal string's escapes read,
    /// a hexadecimal string's digits paired (a last odd digit followed by 0); nil for a token
    /// that is not a string.
    func stringBytes(_ range: Range<Int>) -> [UInt8]? {
        guard range.count >= 2 else { return nil }
        let inner = (range.lowerBound + 1)..<(range.upperBound - 1)
        switch bytes[range.lowerBound] {
        case 0x3C:
            let digits = bytes[inner].compactMap { byte -> UInt8? in
                guard let value = UInt8(String(UnicodeScalar(byte)), radix: 16) else { return nil }
                return value
            }
            return stride(from: 0, to: digits.count, by: 2).map { index in
                digits[index] << 4 | (index + 1 < digits.count ? digits[index + 1] : 0)
            }
        case 0x28:
            return Self.unescaped(UnsafeBufferPointer(rebasing: bytes[inner]))
        default:
            return nil
        }
    }

    /// A literal string's bytes between its parentheses with its escapes read (PDF 1.7 Table 3).
    private static func unescaped(_ escaped: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var result: [UInt8] = []
        var index = 0
        while index < escaped.count {
            let byte = escaped[index]
            index += 1
            guard byte == 0x5C, index < escaped.count else {
                result.append(byte)
                continue
            }
            let escape = escaped[index]
            index += 1
            switch escape {
            case 0x6E: result.append(0x0A)
            case 0x72: result.append(0x0D)
            case 0x74: result.append(0x09)
            case 0x62: result.append(0x08)
            case 0x66: result.append(0x0C)
            case 0x30...0x37:
                var value = Int(escape - 0x30)
                var digits = 1
                while digits < 3, index < escaped.count, (0x30...0x37).contains(escaped[index]) {
                    value = value * 8 + Int(escaped[index] - 0x30)
                    index += 1
                    digits += 1
                }
                result.append(UInt8(truncatingIfNeeded: value))
            case 0x0A, 0x0D:
                // A line break after a backslash continues the string without a character.
                if escape == 0x0D, index < escaped.count, escaped[index] == 0x0A { index += 1 }
            default:
                result.append(escape)
            }
        }
        return result
    }

    /// The content-stream operators the tagging pass acts on (PDF 1.7 Tables 59, 320), named as
    /// the PDF specification spells them.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    enum Operator {
        case re
        case m
        case f
        case q
        case Q
        case BDC
        case BMC
        case EMC
        case ET
        case Tf
        case Tj
        case TJ
        case rg
        /// Another operator that sets the fill colour (`g`, `k`, `cs`, `sc`, `scn`).
        case otherFillColor
    }

    /// Whether the operator token at `range` places the next text anew (`Td`, `TD`, `Tm`, `T*`:
    /// PDF 1.7 §9.4.2), so that the advance of what was shown before moves nothing after it.
    func positionsText(_ range: Range<Int>) -> Bool {
        guard range.count == 2, bytes[range.lowerBound] == 0x54 else { return false }
        return [0x64, 0x44, 0x6D, 0x2A].contains(bytes[range.lowerBound + 1])
    }

    /// The operator token at `range` when it is one the tagging pass acts on, read from its
    /// bytes (no string is made for the thousands of other operators a page has).
    func operatorName(_ range: Range<Int>) -> Operator? {
        switch range.count {
        case 1:
            switch bytes[range.lowerBound] {
            case 0x66: return .f
            case 0x6D: return .m
            case 0x71: return .q
            case 0x51: return .Q
            case 0x67, 0x6B: return .otherFillColor
            default: return nil
            }
        case 2:
            switch (bytes[range.lowerBound], bytes[range.lowerBound + 1]) {
            case (0x72, 0x65): return .re
            case (0x72, 0x67): return .rg
            case (0x45, 0x54): return .ET
            case (0x54, 0x66): return .Tf
            case (0x54, 0x6A): return .Tj
            case (0x54, 0x4A): return .TJ
            case (0x63, 0x73), (0x73, 0x63): return .otherFillColor
            default: return nil
            }
        case 3:
            if bytes[range.lowerBound] == 0x73, bytes[range.lowerBound + 1] == 0x63, bytes[range.lowerBound + 2] == 0x6E
            {
                return .otherFillColor
            }
            guard bytes[range.lowerBound + 2] == 0x43 else { return nil }
            switch (bytes[range.lowerBound], bytes[range.lowerBound + 1]) {
            case (0x42, 0x44): return .BDC
            case (0x42, 0x4D): return .BMC
            case (0x45, 0x4D): return .EMC
            default: return nil
            }
        default:
            return nil
        }
    }

    // MARK: Objects

    /// The next object (PDF 1.7 §7.3): a reference `n g R` is one object.
    /// - Throws: ``Malformed`` at anything that is not PDF object syntax.
    mutating func value() throws -> PDFValue {
        skipSpace()
        guard index < bytes.count else { throw Malformed() }
        let start = index
        switch bytes[index] {
        case 0x2F:
            index += 1
            let range = token()
            return .name(String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self))
        case 0x3C where index + 1 < bytes.count && bytes[index + 1] == 0x3C:
            index += 2
            var entries: [(key: String, value: PDFValue)] = []
            while true {
                skipSpace()
                guard index + 1 < bytes.count else { throw Malformed() }
                if bytes[index] == 0x3E, bytes[index + 1] == 0x3E {
                    index += 2
                    return .dictionary(entries)
                }
                guard case .name(let key) = try value() else { throw Malformed() }
                entries.append((key, try value()))
            }
        case 0x3C:
            while index < bytes.count, bytes[index] != 0x3E { index += 1 }
            guard index < bytes.count else { throw Malformed() }
            index += 1
            return .string(Array(bytes[start..<index]))
        case 0x28:
            guard skipLiteralString() else { throw Malformed() }
            return .string(Array(bytes[start..<index]))
        case 0x5B:
            index += 1
            var items: [PDFValue] = []
            while true {
                skipSpace()
                guard index < bytes.count else { throw Malformed() }
                if bytes[index] == 0x5D {
                    index += 1
                    return .array(items)
                }
                items.append(try value())
            }
        default:
            if let number = integer() {
                return skippedReferenceTail() ? .reference(Int32(clamping: number)) : .integer(number)
            }
            let range = token()
            guard !range.isEmpty else { throw Malformed() }
            let raw = Array(bytes[range])
            switch raw {
            case Self.trueBytes: return .bool(true)
            case Self.falseBytes: return .bool(false)
            case Self.nullBytes: return .null
            default:
                guard raw.allSatisfy({ (0x30...0x39).contains($0) || $0 == 0x2E || $0 == 0x2D || $0 == 0x2B }) else {
                    throw Malformed()
                }
                return .real(raw)
            }
        }
    }

    /// After an integer `n`: whether ` g R` follows, making `n g R` a reference (PDF 1.7
    /// §7.3.10), and if so moves past it; otherwise leaves the position where it was.
    private mutating func skippedReferenceTail() -> Bool {
        let saved = index
        skipSpace()
        if integer() != nil {
            skipSpace()
            if index < bytes.count, bytes[index] == 0x52,
                index + 1 >= bytes.count || Self.isSpace(bytes[index + 1]) || Self.isDelimiter(bytes[index + 1])
            {
                index += 1
                return true
            }
        }
        index = saved
        return false
    }
}
