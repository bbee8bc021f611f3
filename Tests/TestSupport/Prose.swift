import BenchSupport
import Foundation

/// Generated documents for the scaling and memory tests: prose, one long paragraph, long
/// tables and lists, a long manual. Every generator is deterministic (fixed words, or
/// `SeededRandom` from a fixed seed), so that two sizes of the same document differ only in
/// length.
public enum Prose {
    /// The ten words `sections(_:)` draws from.
    public static let words = [
        "glyph", "stream", "measure", "baseline", "kerning", "leading", "tracking", "ascent", "descent", "face",
    ]

    /// Prose like the benchmark corpus: headings, paragraphs with emphasis and code, a list
    /// and a quote per section; `sections` sections of about 3 KB each.
    public static func sections(_ sections: Int) -> String {
        var text = ""
        for s in 0..<sections {
            text += "## \(s + 1) Section \(words[s % 10])\n\n"
            for p in 0..<5 {
                let sentence = (0..<60).map { i in
                    let w = words[(s * 7 + p * 3 + i) % 10]
                    return i % 11 == 0 ? "*\(w)*" : i % 17 == 0 ? "`\(w)()`" : w
                }.joined(separator: " ")
                text += sentence + ".\n\n"
            }
            text += "- \(words[s % 10]) item\n- \"quoted\" item -- with dashes...\n\n"
            text += "> A quote about \(words[(s + 3) % 10]).\n\n"
        }
        return text
    }

    /// One paragraph of `bytes` bytes of words (no markup) and a last word, "END.".
    public static func paragraph(bytes: Int) -> String {
        let words = [
            "the", "measure", "of", "a", "line", "is", "set", "by", "paragraph", "composer", "breaks",
            "into", "lines", "nearly", "equal", "width", "reader", "sees", "even", "grey", "across", "page",
        ]
        return ScalingInput.words(words, repeatedTo: bytes) + "END.\n"
    }

    /// A heading, a four-column table of `rows` rows of words and numbers, and a last line.
    public static func table(rows: Int) -> String {
        "# Table\n\n| Name | Kind | Value | Note |\n|---|---|--:|---|\n"
            + (0..<rows).map { i in
                let note = "\(sampleWords[(i * 7) % 10]) \(sampleWords[(i * 3) % 10])"
                return "| \(sampleWords[i % 10]) | \(sampleWords[(i / 10) % 10]) | \(i) | \(note) |\n"
            }.joined() + "\nlast line\n"
    }

    /// A heading, a bullet list of `items` items, and a last line.
    public static func list(items: Int) -> String {
        "# List\n\n"
            + (0..<items).map { i in "- item \(i) \(sampleWords[i % 10]) \(sampleWords[(i * 3) % 10])\n" }.joined()
            + "\nlast line\n"
    }

    /// A document of `sections` sections in the shape of a long manual: headings, paragraphs
    /// with emphasis and code, one link a section, bullet lists, tables and quotes — the
    /// elements whose structure the tagged PDF records, about 30 of them a page.
    public static func manual(sections: Int) -> String {
        var rng = SeededRandom(seed: 15)
        let vocabulary = [
            "glyph", "baseline", "measure", "leading", "kerning", "tracking", "face", "family", "weight",
            "run", "line", "page", "column", "margin", "figure", "table", "note", "reader", "stream",
            "proof", "scale", "role", "display", "caption", "body", "title", "ascent", "descent",
        ]
        func words(_ n: Int) -> String {
            (0..<n).map { i -> String in
                let word = vocabulary[rng.below(vocabulary.count)]
                switch rng.below(14) {
                case 0 where i > 0: return "*\(word)*"
                case 1 where i > 0: return "`\(word)()`"
                default: return word
                }
            }.joined(separator: " ")
        }
        var text = "---\ntitle: Tagging cost\n---\n\n"
        for s in 1...sections {
            text += "## \(s). \(words(4))\n\n"
            for p in 0..<3 {
                let sentence = words(70 + rng.below(40))
                text += sentence.prefix(1).uppercased() + sentence.dropFirst()
                text += p == 0 ? " (see [the reference](https://example.com/\(s)))." : "."
                text += "\n\n"
            }
            for _ in 0..<4 { text += "- " + words(8 + rng.below(10)) + "\n" }
            text += "\n"
            if s % 2 == 0 {
                text += "| term | value | note |\n| --- | --- | --- |\n"
                for _ in 0..<4 { text += "| \(words(1)) | \(rng.below(1000)) pt | \(words(3)) |\n" }
                text += "\n"
            }
            if s % 3 == 0 { text += "> " + words(30) + "\n\n" }
        }
        return text
    }

    /// The words of `table(rows:)` and `list(items:)`.
    static let sampleWords = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa"]
}

/// Plain English-like paragraphs from a fixed seed, with emphasis and code as real documents have.
public struct SeededWords {
    /// The generator the words and their emphasis are drawn with.
    public var generator: SeededRandom
    /// Paragraphs fixed by `seed`.
    public init(seed: UInt64) { generator = SeededRandom(seed: seed) }
    /// The words drawn from.
    public static let words = [
        "glyph", "stream", "result", "clear", "measure", "editor", "language", "uniform", "line", "scales",
        "machine", "memory", "table", "ligature", "curve", "pattern", "spacing", "height", "raster",
        "schedule", "reader", "quote", "pixel", "baseline", "index", "engine", "section", "heading",
        "stroke", "margin", "structure", "origin", "template", "ratio", "page", "cluster", "paragraph",
    ]
    /// A number in `0..<n`.
    public mutating func next(_ n: Int) -> Int { generator.below(n) }
    /// A paragraph of 60 to 119 words, about one word in seven emphasized, strong or code.
    public mutating func paragraph() -> String {
        (0..<(60 + next(60))).map { i in
            let word = Self.words[next(Self.words.count)]
            switch next(20) {
            case 0: return "*\(word)*"
            case 1: return "**\(word)**"
            case 2: return "`\(word)()`"
            default: return i % 12 == 11 ? word + "." : word
            }
        }.joined(separator: " ") + "."
    }
}
