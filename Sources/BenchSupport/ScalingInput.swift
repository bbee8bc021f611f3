/// A huge or hostile input of the benchmark's scaling rows: one that once took time quadratic
/// in its size (a single long paragraph, word or Korean paragraph, unmatched brackets, a long
/// table or list, a long design-token alias chain). Each is generated here, deterministically —
/// the same bytes on every run — so its time per megabyte can be set beside an ordinary
/// document's: a stage that is linear in its input stays within a small multiple of it.
public struct ScalingInput: Sendable, Equatable {
    /// What the command line does with the input.
    public enum Command: String, Sendable {
        /// `typeset render NAME.md`.
        case render
        /// `typeset theme import NAME.tokens.json -o THEME.json`.
        case themeImport = "theme import"
        /// `typeset theme check NAME.tokens.json`.
        case themeCheck = "theme check"
    }

    /// The row's name, also the file name the input is written to (without extension).
    public var name: String
    /// What is run on it.
    public var command: Command
    /// The input's text (UTF-8 Markdown, or design tokens as JSON).
    public var text: String

    /// The file name: `NAME.md` for a render, `NAME.tokens.json` for tokens.
    public var fileName: String { command == .render ? "\(name).md" : "\(name).tokens.json" }

    /// The input's size in bytes of UTF-8.
    public var bytes: Int { text.utf8.count }

    /// Every scaling row, in the order the benchmark prints them.
    public static func all() -> [ScalingInput] {
        [
            ScalingInput(name: "paragraph-1MB", command: .render, text: paragraph(bytes: 1_000_000)),
            ScalingInput(name: "word-100k", command: .render, text: word(characters: 100_000) + "\n"),
            ScalingInput(name: "korean-500KB", command: .render, text: koreanParagraph(bytes: 500_000)),
            ScalingInput(name: "brackets-40k", command: .render, text: String(repeating: "[ ", count: 40_000) + "\n"),
            ScalingInput(name: "table-10k-rows", command: .render, text: table(rows: 10_000)),
            ScalingInput(name: "list-5k-items", command: .render, text: list(items: 5_000)),
            ScalingInput(name: "alias-chain-2000", command: .themeImport, text: aliasChain(length: 2_000)),
            ScalingInput(name: "alias-chain-2000", command: .themeCheck, text: aliasChain(length: 2_000)),
        ]
    }

    /// The minimal input of the same command, whose time is the start-up the per-megabyte
    /// figure leaves out: an empty document, or a chain of one alias.
    public static func baseline(for command: Command) -> ScalingInput {
        command == .render
            ? ScalingInput(name: "empty", command: .render, text: "")
            : ScalingInput(name: "alias-chain-1", command: command, text: aliasChain(length: 1))
    }

    /// One paragraph of ordinary English words (no markup), at least `bytes` long: a fixed
    /// sequence of 64 words, so hyphenation and shaping see varied text.
    public static func paragraph(bytes: Int) -> String {
        let sequence = """
            the measure of a line is set by the page and its margins while every paragraph keeps \
            its words together in one run of text that the composer breaks into lines of nearly \
            equal width so that the reader sees an even grey across the page without rivers or \
            gaps between words and letters in any language the document uses
            """.split(separator: " ").map(String.init)
        return words(sequence, repeatedTo: bytes) + "\n"
    }

    /// `words` in turn, each followed by a space, until the text is at least `bytes` long.
    public static func words(_ words: [String], repeatedTo bytes: Int) -> String {
        var text = ""
        var index = 0
        text.reserveCapacity(bytes + 16)
        while text.utf8.count < bytes {
            text += words[index % words.count]
            text += " "
            index += 1
        }
        return text
    }

    /// One word of `characters` Latin letters with no space or break opportunity: the alphabet
    /// over and over, as a long identifier or encoded blob would be.
    public static func word(characters: Int) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz")
        return String((0..<characters).map { alphabet[$0 % alphabet.count] })
    }

    /// One Korean paragraph of at least `bytes` bytes (Hangul is 3 bytes a syllable in UTF-8):
    /// words (어절) separated by spaces, the breaks Korean text uses.
    public static func koreanParagraph(bytes: Int) -> String {
        let words = ["한국어", "문단은", "어절", "단위로", "줄을", "바꾸며", "긴", "문장도", "끊기지", "않습니다"]
        var text = ""
        var i = 0
        text.reserveCapacity(bytes + 32)
        while text.utf8.count < bytes {
            text += words[i % words.count]
            text += " "
            i += 1
        }
        return text + "\n"
    }

    /// A GFM table of three columns (key, right-aligned number, Korean note) and `rows` rows.
    public static func table(rows: Int) -> String {
        var text = "| Key | Value | Note |\n|:--|--:|:--|\n"
        for row in 1...max(rows, 1) { text += "| k\(row) | \(row * 7) | 설명 \(row) |\n" }
        return text
    }

    /// A bullet list of `items` items, each a short sentence with emphasis.
    public static func list(items: Int) -> String {
        var text = ""
        for item in 1...max(items, 1) { text += "- Item \(item) of the list, with *emphasis* and a few more words\n" }
        return text
    }

    /// A W3C Design Tokens (DTCG) file whose one typography token's `fontSize` is the end of a
    /// chain of `length` dimension aliases: `size.s0` is 16 px, `size.sN` is `{size.s(N−1)}`.
    public static func aliasChain(length: Int) -> String {
        let count = max(length, 1)
        var groups = [#""s0": {"$type": "dimension", "$value": "16px"}"#]
        for i in 1..<count { groups.append(#""s\#(i)": {"$type": "dimension", "$value": "{size.s\#(i - 1)}"}"#) }
        return #"{"size": {\#(groups.joined(separator: ",\n"))},"#
            + "\n"
            + #""typography": {"body": {"$type": "typography", "$value": {"fontFamily": "Inter", "fontSize": "#
            + #""{size.s\#(count - 1)}"}}}}"#
            + "\n"
    }
}
