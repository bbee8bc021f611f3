import DocumentModel
import Foundation
import TestSupport
import Testing
import Typesetter

@testable import MarkdownParser

/// The CommonMark 0.31.2 spec examples (652, from the `commonmark.json` that the source
/// archive of markdown-it-py 4.3.0 on PyPI ships; the Makefile fetches it into `.build/spec/`
/// and passes its path in `TYPESET_COMMONMARK_SPEC`): for every example, the visible text of
/// Typeset's PDF equals the visible text of the spec's expected HTML — nothing lost, nothing
/// added — with whitespace and list markers normalized.
///
/// Rendering is in-process and batched: each example is parsed on its own (so link reference
/// definitions and container structure are exactly the example's), the documents are joined
/// with a marker paragraph before each, set as one PDF, and read back with one `pdftotext`.
@Suite(.slow) struct CommonMarkSpecTests {
    struct Example: Decodable {
        var markdown: String
        var html: String
        var example: Int
        var section: String
    }

    /// Sections whose examples are raw HTML: Typeset does not render HTML (docs/markdown.md, "Raw HTML":
    /// an HTML block shows its text with a warning, inline HTML is skipped), so these are
    /// compared and listed separately, not failed.
    static let rawHTMLSections: Set<String> = ["HTML blocks", "Raw HTML"]

    /// Intended differences, each with its reason.
    static let allowed: [Int: String] = [
        27: "U+0D06 (Malayalam) and U+0CAB (Kannada): no installed font has them; Pango draws hex boxes",
        28: "cmark-gfm 0.29 decodes the 8-digit reference &#87654321; (to U+FFFD); spec 0.31.2 allows 7 digits",
        354: "spec 0.31.2 counts currency symbols as punctuation for emphasis; cmark-gfm 0.29 (spec 0.29) does not",
        484: "a link with no text shows its destination, so it stays visible and clickable",
        517: "an inline image is shown as [alt]", 531: "an inline image is shown as [alt]",
        579: "an inline image is shown as [alt]", 587: "an inline image is shown as [alt]",
        475: "an HTML <img> whose file cannot be read shows its alt text, or 'image' when it has none",
        476: "an HTML <a href> with no text shows its destination (as 484)", 477: "as 476",
        642: "an HTML <a href> with no text shows its destination (as 484)", 643: "as 642",
    ]

    static func specPath() -> String? {
        if let path = ProcessInfo.processInfo.environment["TYPESET_COMMONMARK_SPEC"] { return path }
        let cached = Render.packageRoot + "/.build/spec/commonmark.json"
        return FileManager.default.fileExists(atPath: cached) ? cached : nil
    }

    /// The visible text of the expected HTML: images become their alt text, tags go, the five
    /// entities cmark writes (and numeric references) are decoded.
    static func visibleText(html: String) -> String {
        var s = html
        s = s.replacingOccurrences(of: #"<img [^>]*alt="([^"]*)"[^>]*>"#, with: "$1", options: .regularExpression)
        s = s.replacingOccurrences(of: #"<[^>]*>"#, with: "", options: .regularExpression)
        return decodeEntities(s)
    }

    static func decodeEntities(_ text: String) -> String {
        var s = text
        for (entity, value) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'")] {
            s = s.replacingOccurrences(of: entity, with: value)
        }
        while let r = s.range(of: #"&#(x?)([0-9A-Fa-f]+);"#, options: .regularExpression) {
            let body = s[r].dropFirst(2).dropLast()
            let value = body.hasPrefix("x") ? UInt32(body.dropFirst(), radix: 16) : UInt32(body)
            s.replaceSubrange(r, with: value.flatMap(Unicode.Scalar.init).map { String(Character($0)) } ?? "\u{FFFD}")
        }
        return s.replacingOccurrences(of: "&amp;", with: "&")
    }

    /// Whether `word` is a list marker Typeset draws: a bullet or an item number.
    static func isListMarker(_ word: String) -> Bool {
        ["•", "◦", "▪", "–"].contains(word) || word.wholeMatch(of: /[0-9]{1,9}[.)]/) != nil
    }

    /// Visible text from words: list markers dropped (when the example has lists), whitespace
    /// removed, also inside a word (a code line poppler reads as its replacement text, one word
    /// holding its tabs and spaces). Applied to both sides, so a list marker written as text
    /// (`3. c` in code) is compared the same way.
    static func normalized(_ words: [String], hasLists: Bool) -> String {
        String(words.filter { !(hasLists && isListMarker($0)) }.joined().filter { !$0.isWhitespace })
    }

    /// Words by page, then line (vertical centres within 3 pt), then x: poppler's own block
    /// order can move a word far right of a tab stop into another block.
    static func readingOrder(_ words: [PDFProbe.Word]) -> [String] {
        let sorted = words.sorted { ($0.page, $0.yMin + $0.yMax) < ($1.page, $1.yMin + $1.yMax) }
        var result: [String] = []
        var line: [PDFProbe.Word] = []
        func flush() {
            result += line.sorted { $0.xMin < $1.xMin }.map { $0.text.replacingOccurrences(of: "&apos;", with: "'") }
            line.removeAll()
        }
        for word in sorted {
            if let first = line.first,
                first.page != word.page || abs((first.yMin + first.yMax) - (word.yMin + word.yMax)) / 2 > 3
            {
                flush()
            }
            line.append(word)
        }
        flush()
        return result
    }

    @Test func everyExampleKeepsItsText() throws {
        guard let path = Self.specPath() else {
            // Under `make test` the file is always there: its absence is a failure.
            #expect(
                ProcessInfo.processInfo.environment["TYPESET_REQUIRE_SPEC"] == nil,
                "commonmark.json is missing: run `make test` (it fetches the spec examples)")
            return
        }
        let examples = try JSONDecoder().decode([Example].self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(examples.count == 652)

        var blocks: [Block] = []
        for e in examples {
            blocks.append(Block(.paragraph([.text("SPECEXAMPLE\(e.example)")])))
            // The spec is CommonMark without smart punctuation: front matter turns it off.
            blocks +=
                MarkdownParser.parse("---\nsmart: false\n---\n" + e.markdown, file: "example-\(e.example).md").document
                .blocks
        }
        blocks.append(Block(.paragraph([.text("SPECEXAMPLEEND")])))
        let pdf = Render.folder + "/commonmark-spec.pdf"
        var options = RenderOptions()
        options.footer = ""
        _ = try Typesetter.render(document: Document(blocks: blocks, file: "spec.md"), to: pdf, options: options)
        // Words as poppler reads them (not `pdftotext`'s plain mode, which joins a line ending
        // in `-` to the next and drops the hyphen), split at the markers.
        var actual: [Int: [String]] = [:]
        var current: Int?
        for word in Self.readingOrder(try PDFProbe.words(pdf)) {
            if word.hasPrefix("SPECEXAMPLE") {
                current = Int(word.dropFirst("SPECEXAMPLE".count))
                if let current { actual[current] = [] }
            } else if let current {
                actual[current, default: []].append(word)
            }
        }

        var failures: [String] = []
        var rawHTML: [String] = []
        var allowedSeen: [Int] = []
        for e in examples {
            let hasLists = e.html.contains("<li>")
            let expectedWords = Self.visibleText(html: e.html).split(whereSeparator: \.isWhitespace).map(String.init)
            let expected = Self.normalized(expectedWords, hasLists: hasLists)
            let got = Self.normalized(actual[e.example] ?? ["<missing>"], hasLists: hasLists)
            guard expected != got else { continue }
            let line = "example \(e.example) (\(e.section)): expected '\(expected.prefix(80))' got '\(got.prefix(80))'"
            if Self.rawHTMLSections.contains(e.section) {
                rawHTML.append(line)
            } else if Self.allowed[e.example] != nil {
                allowedSeen.append(e.example)
            } else {
                failures.append(line)
            }
        }
        print(
            "CommonMark spec: \(examples.count) examples, \(failures.count) differ, \(rawHTML.count) raw-HTML "
                + "examples differ, \(allowedSeen.count) allowed differences"
        )
        for line in rawHTML { print("raw HTML (not failed): \(line)") }
        #expect(failures.isEmpty, "\(failures.count) examples lose or add text:\n\(failures.joined(separator: "\n"))")
    }
}
