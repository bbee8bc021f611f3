import DocumentModel
import Foundation

/// The syntax of site generators that Markdown sets as text: Jekyll's Liquid tags (`{% … %}`),
/// Hugo's shortcodes (`{{< … >}}`, `{{% … %}}`), template expressions (`{{ site.title }}`),
/// MkDocs' admonitions (`!!! note`) and content tabs (`=== "Tab"`), and MDX's `import` and
/// `export` lines. Typeset runs no site generator, so they are set as written; each kind is
/// named in one warning, at the first paragraph that holds it, so that `--strict` finds a page
/// written for a site.
extension Styler {
    /// What site syntax `inlines` (a paragraph's) holds, by kind, and the first place of it
    /// as written: the paragraph's first text for a line's opening, the tag for a tag inside
    /// one text (its first 60 characters are shown); nil for a paragraph with none.
    static func siteSyntax(_ inlines: [Inline]) -> (kind: String, written: String)? {
        if case .text(let first)? = inlines.first, let lead = first.utf8.first,
            lead == UInt8(ascii: "!") || lead == UInt8(ascii: "?") || lead == UInt8(ascii: "=")
                || lead == UInt8(ascii: "i") || lead == UInt8(ascii: "e")
        {
            if first.hasPrefix("!!! ") || first.hasPrefix("??? ") || first.hasPrefix("???+ ") {
                return ("MkDocs admonition", first)
            }
            if first.hasPrefix("=== \"") || first.hasPrefix("=== “") { return ("MkDocs content tab", first) }
            if first.hasPrefix("import ") || first.hasPrefix("export "), first.contains(" from ") {
                return ("MDX import", first)
            }
        }
        for case .text(let text) in inlines where holdsBracePair(text) {
            let forms: [(String, String, String)] = [
                ("{{<", ">}}", "Hugo shortcode"), ("{{%", "%}}", "Hugo shortcode"), ("{%", "%}", "Liquid tag"),
                ("{{", "}}", "template expression"),
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

    /// The warning for site syntax of `kind` (``siteSyntax(_:)``) written `written`.
    static func siteSyntaxMessage(_ written: String, kind: String) -> String {
        let what =
            switch kind {
            case "MkDocs admonition":
                "an MkDocs admonition, which Typeset does not read: its line is set as text and its indented "
                    + "body as code (write ::: note … ::: for an alert)"
            case "MkDocs content tab": "an MkDocs content tab, which Typeset does not read: set as written"
            case "MDX import": "an MDX import, which Typeset does not run: set as written"
            case "Hugo shortcode":
                "a Hugo shortcode, which Typeset does not run (it runs no site generator): set as written"
            case "Liquid tag":
                "a Liquid tag (Jekyll), which Typeset does not run (it runs no site generator): set as written"
            default: "a template expression, which Typeset does not fill in (it runs no site generator): set as written"
            }
        return "'\(written)' is \(what)"
    }

    /// The kinds ``siteSyntax(_:)`` names.
    static let siteSyntaxKinds: Set<String> = [
        "MkDocs admonition", "MkDocs content tab", "MDX import", "Hugo shortcode", "Liquid tag", "template expression",
    ]
}
