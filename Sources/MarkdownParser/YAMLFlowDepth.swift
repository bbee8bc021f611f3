/// Flow collections (`[…]`, `{…}`) nested deeper than ``limit``, made shallow before libyaml
/// reads the text. libyaml's scanner looks at every open flow level for each token it reads
/// (its stale simple keys), so `title: ` then n `[` then n `]` took time n²: 18 s for
/// n = 50,000 (100 KB), only to have all below ``FrontMatter/maxDepth`` levels cut by the
/// reader. Past ``limit`` levels, the deepest collection's text (its brackets too) is written
/// as spaces, its line breaks kept, so every place libyaml names is where it was; the readers
/// cut at ``FrontMatter/maxDepth``, well above, with their own warning at the same place.
enum YAMLFlowDepth {
    /// The deepest flow collection kept: more than ``FrontMatter/maxDepth`` (what is deeper is
    /// never read), few enough that libyaml's cost per token stays small.
    static let limit = 64

    /// `text` with every flow collection deeper than ``limit`` written as spaces (line breaks
    /// kept), from its opening bracket to its closing one; when that collection is not closed
    /// (the text ends first, or a bracket of the other kind closes it), to the end of the
    /// text, so that libyaml still finds the YAML invalid. The text itself when no collection
    /// is that deep. Time linear in the text's length.
    static func flattened(_ text: [UInt8]) -> [UInt8] {
        var scanner = Scanner(text: text)
        scanner.run()
        return scanner.output ?? text
    }

    /// One pass over YAML text that tells flow collections from brackets in scalars and
    /// comments: quoted scalars, comments, block scalars (`|`, `>`), and in block context the
    /// places where a value starts (only there does a bracket open a flow collection).
    private struct Scanner {
        /// The text read.
        let text: [UInt8]
        /// The text with the deep collections blanked, once one is found.
        var output: [UInt8]?
        /// The next byte to read.
        var index = 0
        /// The closing bracket of each open flow collection, outermost first.
        var open: [UInt8] = []
        /// Whether the next byte in block context may start a value (a bracket there opens a
        /// flow collection).
        var atValueStart = true
        /// Whether the next byte in flow context starts a token (a quote there opens a scalar).
        var atTokenStart = true
        /// The indentation of the line that began a block scalar still being read.
        var blockScalarIndent: Int?
        /// The depth (``open``'s count) at which the blanked collection was opened.
        var blankedDepth: Int?

        init(text: [UInt8]) {
            self.text = text
        }

        /// Whether byte `index` is a space, a tab, a line break or past the end.
        func isBlankOrEnd(_ index: Int) -> Bool {
            index >= text.count || [0x20, 0x09, 0x0A, 0x0D].contains(text[index])
        }

        /// Writes bytes `range` as spaces (line breaks kept) when a collection is being blanked.
        mutating func blank(_ range: Range<Int>) {
            guard blankedDepth != nil else { return }
            if output == nil { output = text }
            for position in range where text[position] != 0x0A && text[position] != 0x0D {
                output?[position] = 0x20
            }
        }

        /// Reads the text to its end.
        mutating func run() {
            while index < text.count {
                let start = index
                if open.isEmpty {
                    readBlock()
                } else {
                    readFlow()
                }
                blank(start..<index)
            }
        }

        /// Reads one line, or up to a flow collection's opening bracket, in block context.
        mutating func readBlock() {
            let lineStart = index
            var indent = 0
            while index < text.count, text[index] == 0x20 {
                indent += 1
                index += 1
            }
            let lineEnd = text[index...].firstIndex(of: 0x0A) ?? text.count
            if let scalarIndent = blockScalarIndent {
                let blank = text[index..<lineEnd].allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
                if blank || indent > scalarIndent {
                    index = min(lineEnd + 1, text.count)
                    return
                }
                blockScalarIndent = nil
            }
            atValueStart = true
            while index < lineEnd {
                let byte = text[index]
                if byte == 0x20 || byte == 0x09 || byte == 0x0D {
                    index += 1
                    continue
                }
                if byte == UInt8(ascii: "#"), index == lineStart || [0x20, 0x09].contains(text[index - 1]) {
                    break
                }
                let indicator = byte == UInt8(ascii: "-") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: ":")
                if atValueStart, indicator, isBlankOrEnd(index + 1) {
                    // `- `, `? ` and `: ` come before a value.
                    index += 1
                    continue
                }
                if atValueStart {
                    switch byte {
                    case UInt8(ascii: "&"), UInt8(ascii: "!"):
                        while !isBlankOrEnd(index) { index += 1 }
                        continue
                    case UInt8(ascii: "\""), UInt8(ascii: "'"):
                        skipQuoted()
                        atValueStart = false
                        // A quoted key's line goes on; one that ends past this line is done.
                        if index > lineEnd { return }
                        continue
                    case UInt8(ascii: "["), UInt8(ascii: "{"):
                        openCollection(byte)
                        return
                    case UInt8(ascii: "|"), UInt8(ascii: ">"):
                        blockScalarIndent = indent
                        index = lineEnd
                        continue
                    default:
                        atValueStart = false
                    }
                } else if byte == UInt8(ascii: ":"), isBlankOrEnd(index + 1) {
                    atValueStart = true
                }
                index += 1
            }
            index = min(lineEnd + 1, text.count)
        }

        /// Reads one token of flow context: a bracket, a quoted scalar, a comment, or a byte.
        mutating func readFlow() {
            let byte = text[index]
            switch byte {
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                openCollection(byte)
                return
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                guard byte == open.last else {
                    // Closed by the other kind of bracket: invalid YAML, blanked to the end.
                    if blankedDepth != nil { index = text.count }
                    open.removeAll()
                    return
                }
                index += 1
                if open.count == blankedDepth {
                    // The closing bracket is blanked with its collection.
                    blank((index - 1)..<index)
                    blankedDepth = nil
                }
                open.removeLast()
                atTokenStart = false
                if open.isEmpty { atValueStart = false }
            case UInt8(ascii: "\""),
                UInt8(ascii: "'") where atTokenStart:
                skipQuoted()
                atTokenStart = false
            case UInt8(ascii: "#") where index == 0 || [0x20, 0x09, 0x0A, 0x0D].contains(text[index - 1]):
                index = text[index...].firstIndex(of: 0x0A) ?? text.count
            default:
                atTokenStart = [0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ","), UInt8(ascii: ":")].contains(byte)
                index += 1
            }
        }

        /// Opens a flow collection at its bracket `byte`; one past ``limit`` starts the blank.
        mutating func openCollection(_ byte: UInt8) {
            open.append(byte == UInt8(ascii: "[") ? UInt8(ascii: "]") : UInt8(ascii: "}"))
            if open.count > YAMLFlowDepth.limit, blankedDepth == nil {
                blankedDepth = open.count
            }
            blank(index..<(index + 1))
            index += 1
            atTokenStart = true
        }

        /// Skips a quoted scalar from its opening quote to past its closing one (or the end):
        /// `\` escapes a byte in double quotes, `''` is a quote in single ones.
        mutating func skipQuoted() {
            let quote = text[index]
            index += 1
            while index < text.count {
                let byte = text[index]
                if quote == UInt8(ascii: "\""), byte == UInt8(ascii: "\\") {
                    index += 2
                    continue
                }
                if byte == quote {
                    if quote == UInt8(ascii: "'"), index + 1 < text.count, text[index + 1] == quote {
                        index += 2
                        continue
                    }
                    index += 1
                    return
                }
                index += 1
            }
            index = min(index, text.count)
        }
    }
}
