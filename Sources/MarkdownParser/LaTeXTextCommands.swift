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

    /// Control words without an argument that LaTeX sets as a character or word (The LaTeX
    /// Companion, "Text symbols"; the TeX and LaTeX logos as their names): set as that text.
    static let symbols: [String: String] = [
        "LaTeX": "LaTeX", "TeX": "TeX", "LaTeXe": "LaTeX2\u{03B5}", "ldots": "\u{2026}", "dots": "\u{2026}",
        "textellipsis": "\u{2026}", "textbackslash": "\\", "textendash": "\u{2013}", "textemdash": "\u{2014}",
        "S": "\u{00A7}", "P": "\u{00B6}", "copyright": "\u{00A9}", "textregistered": "\u{00AE}",
        "texttrademark": "\u{2122}", "dag": "\u{2020}", "ddag": "\u{2021}", "textbullet": "\u{2022}",
        "slash": "/", "textasciitilde": "~", "textasciicircum": "^", "textunderscore": "_", "textbar": "|",
        "quad": "\u{2003}", "qquad": "\u{2003}\u{2003}",
    ]

    /// Control words without an argument that only lay the page out in LaTeX — indentation,
    /// fills, vertical space, a size or alignment declaration — and write no text: left out, as
    /// Pandoc leaves raw TeX out of output that is not LaTeX, so that `\noindent\textit{Word}`
    /// reads "Word" and not "\noindentWord".
    static let layoutOnly: Set<String> = [
        "noindent", "indent", "hfill", "vfill", "hfil", "vfil", "centering", "raggedright", "raggedleft", "par",
        "smallskip", "medskip", "bigskip", "null", "relax", "protect", "nobreak", "allowbreak", "frenchspacing",
        "nonfrenchspacing", "sloppy", "fussy", "normalsize", "small", "footnotesize", "scriptsize", "tiny", "large",
        "Large", "LARGE", "huge", "Huge", "normalfont", "bfseries", "itshape", "ttfamily", "rmfamily", "sffamily",
        "mdseries", "upshape", "scshape", "maketitle", "tableofcontents",
    ]

    /// Commands whose one braced argument only lays the page out — space (`\vspace{1cm}`,
    /// `\hspace{2em}`) — left out with it, as ``layoutOnly``.
    static let layoutWithArgument: Set<String> = [
        "vspace", "hspace", "addvspace", "enlargethispage", "pagestyle",
        "thispagestyle", "setlength", "linespread",
    ]

    /// Environments that only align or size their text (`\begin{center}` … `\end{center}`):
    /// their `\begin` and `\end` are left out, their text kept, as ``layoutOnly``'s declarations.
    static let layoutEnvironments: Set<String> = [
        "center", "flushleft", "flushright", "raggedright", "raggedleft", "small", "footnotesize", "scriptsize",
        "tiny", "large", "Large", "LARGE", "huge", "Huge", "normalsize", "samepage", "sloppypar", "singlespace",
        "onehalfspace", "doublespace", "spacing",
    ]

    /// Whether the command `name` with the argument `argument` writes no text
    /// (``layoutWithArgument``, or the `\begin` or `\end` of a ``layoutEnvironments`` one).
    static func onlyLaysOut(_ name: String, argument: String) -> Bool {
        layoutWithArgument.contains(name)
            || (name == "begin" || name == "end") && layoutEnvironments.contains(argument)
    }

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
        let tokens = Self.autolinksInLinkCommandsAsWritten(tokens)
        return latexCommands(tokens, in: tokens.indices, closing: Self.pairedBraces(tokens), depth: 0, found: &found)
    }

    /// `tokens` with the address cmark-gfm's autolinking made of the argument of `\url{` or
    /// `\href{` (`\url{https://example.com}` links to `https://example.com}`, the closing brace
    /// and what follows taken into the address) given back as the bytes written, so that the
    /// command reads its argument (``linkCommand(_:in:closing:before:depth:found:)``).
    static func autolinksInLinkCommandsAsWritten(_ tokens: [InlineToken]) -> [InlineToken] {
        var output: [InlineToken] = []
        output.reserveCapacity(tokens.count)
        for (index, token) in tokens.enumerated() {
            guard case .node(.link(let destination, _, let children)) = token, destination.contains("}"),
                index >= 5, case .byte(UInt8(ascii: "{"), let line, let column, false) = tokens[index - 1],
                ["\\url", "\\href"].contains(where: writtenText(tokens[max(0, index - 6)..<(index - 1)]).hasSuffix)
            else {
                output.append(token)
                continue
            }
            for byte in children.plainText.utf8 { output.append(.byte(byte, line: line, column: column, inert: false)) }
        }
        return output
    }

    private func latexCommands(
        _ tokens: [InlineToken], in range: Range<Int>, closing: [Int: Int], depth: Int, found: inout Found
    ) -> [InlineToken] {
        var output: [InlineToken] = []
        var index = range.lowerBound
        while index < range.upperBound {
            guard case .byte(UInt8(ascii: "\\"), _, _, false) = tokens[index] else {
                output.append(tokens[index])
                index += 1
                continue
            }
            // A control word without an argument: a known one its text, or nothing; an unknown
            // one (`C:\Users`) as written.
            if let word = Self.controlWord(in: tokens, at: index, closing: closing, before: range.upperBound),
                LaTeXTextCommands.symbols[word.name] != nil || LaTeXTextCommands.layoutOnly.contains(word.name)
            {
                if let text = LaTeXTextCommands.symbols[word.name] { output.append(.node(.text(text))) }
                index = word.end
                continue
            }
            guard let command = Self.command(in: tokens, at: index, closing: closing, before: range.upperBound) else {
                output.append(tokens[index])
                index += 1
                continue
            }
            if LaTeXTextCommands.onlyLaysOut(
                command.name, argument: Self.writtenText(tokens[(command.open + 1)..<(command.end - 1)]))
            {
                index = command.end
                continue
            }
            if command.name == "url" || command.name == "href",
                let link = linkCommand(
                    command, in: tokens, closing: closing, before: range.upperBound, depth: depth, found: &found)
            {
                output.append(.node(link.inline))
                index = link.end
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

    /// LaTeX's `\url{address}` (the address shown) and `\href{address}{text}` (hyperref) as a
    /// link, as Pandoc reads them, and the index after them; nil for an `\href` whose second
    /// argument does not follow, or an address with a space.
    private func linkCommand(
        _ command: (name: String, open: Int, end: Int), in tokens: [InlineToken], closing: [Int: Int],
        before limit: Int, depth: Int, found: inout Found
    ) -> (inline: Inline, end: Int)? {
        let written = Self.writtenText(tokens[(command.open + 1)..<(command.end - 1)])
        guard !written.isEmpty, !written.contains(" ") else { return nil }
        // `www.…` is a web address, as GitHub's autolinks read it.
        let address = written.lowercased().hasPrefix("www.") ? "http://" + written : written
        guard command.name == "href" else {
            return (.link(destination: address, title: "", children: [.text(written)]), command.end)
        }
        guard command.end < limit, case .byte(UInt8(ascii: "{"), _, _, false) = tokens[command.end],
            let close = closing[command.end], close < limit, depth < Self.maxSpanDepth
        else { return nil }
        let text = latexCommands(
            tokens, in: (command.end + 1)..<close, closing: closing, depth: depth + 1, found: &found)
        return (.link(destination: address, title: "", children: inlines(text[...])), close + 1)
    }

    /// The bytes of `tokens` as text (an element adds nothing).
    private static func writtenText(_ tokens: ArraySlice<InlineToken>) -> String {
        var bytes: [UInt8] = []
        for token in tokens {
            if case .byte(let byte, _, _, _) = token { bytes.append(byte) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The control word whose backslash is `tokens[start]` when no braced argument follows it
    /// (`\noindent`, `\LaTeX{}`): its name and the index after it, the spaces after it and an
    /// empty group (`{}`) taken with it, as TeX takes them; nil when no letters follow.
    private static func controlWord(
        in tokens: [InlineToken], at start: Int, closing: [Int: Int], before limit: Int
    ) -> (name: String, end: Int)? {
        guard let found = commandName(in: tokens, at: start, before: limit) else { return nil }
        var index = found.end
        if index < limit, case .byte(UInt8(ascii: "{"), _, _, false) = tokens[index], closing[index] == index + 1 {
            index += 2
        } else if index + 1 < limit, case .byte(UInt8(ascii: "\\"), _, _, false) = tokens[index],
            case .byte(UInt8(ascii: " "), _, _, _) = tokens[index + 1]
        {
            // A control space (`\TeX\ and`): the space is kept, its backslash taken.
            index += 1
        } else {
            while index < limit, case .byte(UInt8(ascii: " "), _, _, _) = tokens[index] { index += 1 }
        }
        return (found.name, index)
    }

    /// The letters after the backslash at `tokens[start]` (at most 64, before `limit`) and the
    /// index after them; nil when none follow.
    private static func commandName(
        in tokens: [InlineToken], at start: Int, before limit: Int
    ) -> (name: String, end: Int)? {
        var index = start + 1
        var name: [UInt8] = []
        while index < limit, name.count < 64, case .byte(let byte, _, _, false) = tokens[index],
            LaTeXTextCommands.isLetter(byte)
        {
            name.append(byte)
            index += 1
        }
        return name.isEmpty ? nil : (String(decoding: name, as: UTF8.self), index)
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
        guard let (name, index) = commandName(in: tokens, at: start, before: limit), index < limit,
            case .byte(UInt8(ascii: "{"), _, _, false) = tokens[index], let close = closing[index], close < limit,
            close - index <= maxAttributeLength
        else { return nil }
        return (name, index, close + 1)
    }
}
