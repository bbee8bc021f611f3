import DocumentModel

/// LaTeX's text commands written in a Markdown paragraph, as Pandoc's Markdown allows raw TeX
/// (Pandoc manual, "Extension: raw_tex"): the few that only style their argument are set as
/// that style, as Pandoc's LaTeX route sets them; any other command with a braced argument
/// (`\cite{key}`, `\ref{fig}`) is left as written, and warned about where it is written.
enum LaTeXTextCommands {
    /// What each known command makes of its argument.
    enum Style {
        case emphasis, strong, code, underline, smallCaps
    }

    /// The commands set as a style (The LaTeX Companion, "Font commands").
    static let styles: [String: Style] = [
        "emph": .emphasis, "textit": .emphasis, "textsl": .emphasis, "textbf": .strong, "texttt": .code,
        "underline": .underline, "uline": .underline, "textsc": .smallCaps,
    ]

    static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    /// `content` in the command's style.
    static func styled(_ style: Style, _ content: [Inline]) -> Inline {
        switch style {
        case .emphasis: .emphasis(content)
        case .strong: .strong(content)
        case .code: .code(content.plainText)
        case .underline: .presentation(.underline, content)
        case .smallCaps: .span(Attributes(classes: ["smallcaps"]), content)
        }
    }
}

extension InlineSyntax {
    /// The tokens with each known LaTeX text command and its braced argument (`\emph{word}`)
    /// as its style, commands inside an argument too (to ``maxSpanDepth`` levels); an unknown
    /// command with a braced argument is left as written and noted in `found`. A backslash
    /// written escaped (`\\`), or a command whose argument does not close within
    /// ``maxAttributeLength`` tokens, is text. Braces are paired once, in one pass, so the work
    /// is linear in the tokens however they nest or fail to close.
    func latexCommands(_ tokens: [InlineToken], found: inout Found) -> [InlineToken] {
        guard tokens.contains(where: { if case .byte(UInt8(ascii: "\\"), _, _, false) = $0 { true } else { false } })
        else { return tokens }
        return latexCommands(tokens, in: tokens.indices, closing: Self.pairedBraces(tokens), depth: 0, found: &found)
    }

    private func latexCommands(
        _ tokens: [InlineToken], in range: Range<Int>, closing: [Int: Int], depth: Int, found: inout Found
    ) -> [InlineToken] {
        var output: [InlineToken] = []
        var index = range.lowerBound
        while index < range.upperBound {
            guard case .byte(UInt8(ascii: "\\"), _, _, false) = tokens[index],
                let command = Self.command(in: tokens, at: index, closing: closing, before: range.upperBound)
            else {
                output.append(tokens[index])
                index += 1
                continue
            }
            let known = LaTeXTextCommands.styles[command.name]
            guard let style = known, depth < Self.maxSpanDepth else {
                if known == nil { found.latexCommands.append((command.name, location(tokens[index]))) }
                output += tokens[index..<command.end]
                index = command.end
                continue
            }
            let argument = latexCommands(
                tokens, in: (command.open + 1)..<(command.end - 1), closing: closing, depth: depth + 1, found: &found)
            output.append(.node(LaTeXTextCommands.styled(style, inlines(argument[...]))))
            index = command.end
        }
        return output
    }

    /// For each `{` written as syntax, the index of the `}` that closes it (braces paired as
    /// TeX pairs them); an unpaired one has none.
    private static func pairedBraces(_ tokens: [InlineToken]) -> [Int: Int] {
        var closing: [Int: Int] = [:]
        var open: [Int] = []
        for (index, token) in tokens.enumerated() {
            guard case .byte(let byte, _, _, false) = token else { continue }
            if byte == UInt8(ascii: "{") { open.append(index) }
            if byte == UInt8(ascii: "}"), let opened = open.popLast() { closing[opened] = index }
        }
        return closing
    }

    /// The command whose backslash is `tokens[start]`: its name, its argument's `{`, and the
    /// index after its `}`, which must come before `limit`; nil when letters and a braced
    /// argument of at most ``maxAttributeLength`` tokens do not follow.
    private static func command(
        in tokens: [InlineToken], at start: Int, closing: [Int: Int], before limit: Int
    ) -> (name: String, open: Int, end: Int)? {
        var index = start + 1
        var name: [UInt8] = []
        while index < limit, name.count < 64, case .byte(let byte, _, _, false) = tokens[index],
            LaTeXTextCommands.isLetter(byte)
        {
            name.append(byte)
            index += 1
        }
        guard !name.isEmpty, index < limit, case .byte(UInt8(ascii: "{"), _, _, false) = tokens[index],
            let close = closing[index], close < limit, close - index <= maxAttributeLength
        else { return nil }
        return (String(decoding: name, as: UTF8.self), index, close + 1)
    }
}
