import DocumentModel

/// Link reference definitions whose address, repeated by every link that uses the reference,
/// would fill gigabytes: cmark-gfm copies a reference's address into each link it resolves, so
/// a 65,000-byte address used 19,000 times (`[a][r]` in 198 KB of text) took 2.5 GB and 14 s to
/// set. Before the parse, a definition whose address is at least ``longAddress`` bytes and whose
/// label is written so often that its copies would pass ``budget`` bytes is given an empty
/// address (`[r]: <>`), so its links are set as their text, with a warning at the address. The
/// line keeps its place; other definitions and links are as written.
enum RepeatedLinkAddresses {
    /// The shortest address considered, bytes: far past any real link.
    static let longAddress = 4096
    /// The most bytes the copies of one address may take, all its links together: 16 MiB.
    static let budget = 16 << 20

    /// Empties each such address of `text` and adds a warning for each to `diagnostics` (placed
    /// from `firstLine`, the text's first line in the file named `file`).
    static func rewrite(_ text: inout String, firstLine: Int, file: String, diagnostics: inout [Diagnostic]) {
        guard let rewritten = rewriting(text, firstLine: firstLine, file: file) else { return }
        text = rewritten.text
        diagnostics += rewritten.warnings
    }

    /// `text` with each such address emptied and a warning for each; nil when there is none.
    static func rewriting(_ text: String, firstLine: Int, file: String) -> (text: String, warnings: [Diagnostic])? {
        // Cheap first, without a copy of the text: no line that long, no such definition.
        var text = text
        let hasLongLine = text.withUTF8 { buffer in
            var run = 0
            for byte in buffer {
                run = byte == 0x0A ? 0 : run + 1
                if run > longAddress { return true }
            }
            return false
        }
        guard hasLongLine else { return nil }
        var bytes = Array(text.utf8)
        let definitions = longDefinitions(bytes)
        guard !definitions.isEmpty else { return nil }
        let uses = labelUses(bytes, labels: Set(definitions.map(\.label)))
        var warnings: [Diagnostic] = []
        for definition in definitions.reversed() {
            // The definition's own label is one of the uses counted.
            let count = max(0, (uses[definition.label] ?? 0) - 1)
            let copies = count.multipliedReportingOverflow(by: definition.address.count)
            guard copies.overflow || copies.partialValue > budget else { continue }
            bytes.replaceSubrange(definition.address, with: Array("<>".utf8))
            let size = definition.address.count
            warnings.append(
                Diagnostic(
                    .warning,
                    "link reference '[\(definition.written)]' has an address of \(size) bytes that \(count) links "
                        + "use, more than \(budget >> 20) MiB in all; its links are set as text",
                    at: SourceLocation(file: file, line: firstLine + definition.line, column: definition.column),
                    kind: .link))
        }
        guard !warnings.isEmpty else { return nil }
        return (String(decoding: bytes, as: UTF8.self), warnings.reversed())
    }

    /// A definition with a long address: its label as matched (lower case, white space one
    /// space) and as written, its 0-based line, the address's 1-based byte column and range.
    struct Definition {
        var label: String
        var written: String
        var line: Int
        var column: Int
        var address: Range<Int>
    }

    /// The definitions of `bytes` (`[label]: address` on one line, up to three spaces in) whose
    /// address is ``longAddress`` bytes or more.
    static func longDefinitions(_ bytes: [UInt8]) -> [Definition] {
        var found: [Definition] = []
        var lineStart = 0
        var line = 0
        while lineStart < bytes.count {
            let lineEnd = bytes[lineStart...].firstIndex(of: 0x0A) ?? bytes.count
            defer {
                lineStart = lineEnd + 1
                line += 1
            }
            guard lineEnd - lineStart > longAddress else { continue }
            var index = lineStart
            while index < lineEnd, index - lineStart < 3, bytes[index] == 0x20 { index += 1 }
            guard index < lineEnd, bytes[index] == 0x5B else { continue }
            let labelStart = index + 1
            guard let close = bytes[labelStart..<min(lineEnd, labelStart + 1000)].firstIndex(of: 0x5D),
                close > labelStart, close + 1 < lineEnd, bytes[close + 1] == 0x3A,
                !bytes[labelStart..<close].contains(0x5B)
            else { continue }
            index = close + 2
            while index < lineEnd, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
            var end = index
            if end < lineEnd, bytes[end] == 0x3C {
                end = bytes[end..<lineEnd].firstIndex(of: 0x3E).map { $0 + 1 } ?? lineEnd
            } else {
                while end < lineEnd, bytes[end] != 0x20, bytes[end] != 0x09 { end += 1 }
            }
            guard end - index >= longAddress else { continue }
            let written = String(decoding: bytes[labelStart..<close], as: UTF8.self)
            found.append(
                Definition(
                    label: normalized(written), written: written, line: line, column: index - lineStart + 1,
                    address: index..<end))
        }
        return found
    }

    /// How often each of `labels` is written in brackets in `bytes` (`[r]`, `[text][r]`,
    /// `[r][]`), matched as CommonMark matches labels: case and runs of white space ignored.
    static func labelUses(_ bytes: [UInt8], labels: Set<String>) -> [String: Int] {
        var uses: [String: Int] = [:]
        var index = 0
        while let open = bytes[index...].firstIndex(of: 0x5B) {
            let start = open + 1
            let limit = min(bytes.count, start + 1000)
            guard let close = bytes[start..<limit].firstIndex(where: { $0 == 0x5D || $0 == 0x5B }) else {
                index = start
                continue
            }
            if bytes[close] == 0x5D {
                let label = normalized(String(decoding: bytes[start..<close], as: UTF8.self))
                if labels.contains(label) { uses[label, default: 0] += 1 }
            }
            index = close
        }
        return uses
    }

    /// A label as CommonMark matches it: lower case, white space runs one space, trimmed.
    static func normalized(_ label: String) -> String {
        label.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
