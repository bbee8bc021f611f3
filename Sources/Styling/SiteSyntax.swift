import DocumentModel
import Foundation

/// The syntax of site generators that Markdown sets as text: Jekyll's Liquid tags (`{% … %}`),
/// Hugo's shortcodes (`{{< … >}}`, `{{% … %}}`), template expressions (`{{ site.title }}`),
/// MkDocs' admonitions (`!!! note`) and content tabs (`=== "Tab"`), and MDX's `import` and
/// `export` lines. Typeset runs no site generator, so they are set as written; each kind is
/// named in one warning, at the first paragraph that holds it, so that `--strict` finds a page
/// written for a site.
extension Styler {
    /// A kind of site syntax; its raw value names it in ``pandocBlocks``' tallies.
    enum SiteSyntax: String, CaseIterable {
        case mkDocsAdmonition = "MkDocs admonition"
        case mkDocsTab = "MkDocs content tab"
        case mdxImport = "MDX import"
        case hugoShortcode = "Hugo shortcode"
        case liquidTag = "Liquid tag"
        case templateExpression = "template expression"

        /// The warning for this syntax written `written`.
        func message(_ written: String) -> String {
            let what =
                switch self {
                case .mkDocsAdmonition:
                    "an MkDocs admonition, which Typeset does not read: its line is set as text and its indented "
                        + "body as code (write ::: note … ::: for an alert)"
                case .mkDocsTab: "an MkDocs content tab, which Typeset does not read: set as written"
                case .mdxImport: "an MDX import, which Typeset does not run: set as written"
                case .hugoShortcode:
                    "a Hugo shortcode, which Typeset does not run (it runs no site generator): set as written"
                case .liquidTag:
                    "a Liquid tag (Jekyll), which Typeset does not run (it runs no site generator): set as written"
                case .templateExpression:
                    "a template expression, which Typeset does not fill in (it runs no site generator): set as written"
                }
            return "'\(written)' is \(what)"
        }
    }

    /// What site syntax `inlines` (a paragraph's) holds, and the first place of it as written:
    /// the paragraph's first text for a line's opening, the tag for a tag inside one text (its
    /// first 60 characters are shown); nil for a paragraph with none.
    static func siteSyntax(_ inlines: [Inline]) -> (kind: SiteSyntax, written: String)? {
        if case .text(let first)? = inlines.first, let lead = first.utf8.first,
            lead == UInt8(ascii: "!") || lead == UInt8(ascii: "?") || lead == UInt8(ascii: "=")
                || lead == UInt8(ascii: "i") || lead == UInt8(ascii: "e")
        {
            if first.hasPrefix("!!! ") || first.hasPrefix("??? ") || first.hasPrefix("???+ ") {
                return (.mkDocsAdmonition, first)
            }
            if first.hasPrefix("=== \"") || first.hasPrefix("=== “") { return (.mkDocsTab, first) }
            if first.hasPrefix("import ") || first.hasPrefix("export "), first.contains(" from ") {
                return (.mdxImport, first)
            }
        }
        for case .text(let text) in inlines where holdsBracePair(text) {
            let forms: [(String, String, SiteSyntax)] = [
                ("{{<", ">}}", .hugoShortcode), ("{{%", "%}}", .hugoShortcode), ("{%", "%}", .liquidTag),
                ("{{", "}}", .templateExpression),
            ]
            for (opening, closing, kind) in forms {
                guard let start = text.range(of: opening), let end = text[start.upperBound...].range(of: closing)
                else { continue }
                return (kind, String(text[start.lowerBound..<end.upperBound]))
            }
        }
        return nil
    }

    /// Whether `text` holds `{{` or `{%`, read from its bytes (a paragraph's text is read in
    /// every styling pass: each byte once, without decoding it).
    private static func holdsBracePair(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.count >= 2 else { return false }
            for index in 0..<(bytes.count - 1) where bytes[index] == UInt8(ascii: "{") {
                let next = bytes[index + 1]
                if next == UInt8(ascii: "{") || next == UInt8(ascii: "%") { return true }
            }
            return false
        }
    }
}
