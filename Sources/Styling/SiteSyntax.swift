import DocumentModel

/// The syntax of site generators that Markdown sets as text: Jekyll's Liquid tags (`{% … %}`),
/// Hugo's shortcodes (`{{< … >}}`, `{{% … %}}`), template expressions (`{{ site.title }}`),
/// MkDocs' admonitions (`!!! note`) and content tabs (`=== "Tab"`), and MDX's `import` and
/// `export` lines. Typeset runs no site generator, so they are set as written; each kind is
/// named in one warning, at the first paragraph that holds it, so that `--strict` finds a page
/// written for a site.
extension Styler {
    /// What site syntax `inlines` (a paragraph's) holds, by kind, and the first place of it
    /// as written (its first 60 characters); nil for a paragraph with none.
    static func siteSyntax(_ inlines: [Inline]) -> (kind: String, written: String)? {
        var text = ""
        for inline in inlines {
            switch inline {
            case .text(let piece): text += piece
            case .softBreak, .lineBreak: text += "\n"
            default: text += " "
            }
        }
        // Most paragraphs have none of the openings: let go before any search.
        guard
            text.utf8.contains(where: {
                $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "!") || $0 == UInt8(ascii: "=")
                    || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "t")
            })
        else { return nil }
        let firstLine = text.prefix { $0 != "\n" }
        if firstLine.hasPrefix("!!! ") || firstLine.hasPrefix("??? ") || firstLine.hasPrefix("???+ ") {
            return ("MkDocs admonition", String(firstLine))
        }
        if firstLine.hasPrefix("=== \"") || firstLine.hasPrefix("=== “") {
            return ("MkDocs content tab", String(firstLine))
        }
        if firstLine.hasPrefix("import ") || firstLine.hasPrefix("export "), firstLine.contains(" from ") {
            return ("MDX import", String(firstLine))
        }
        let forms: [(String, String, String)] = [
            ("{{<", ">}}", "Hugo shortcode"), ("{{%", "%}}", "Hugo shortcode"), ("{%", "%}", "Liquid tag"),
            ("{{", "}}", "template expression"),
        ]
        for (opening, closing, kind) in forms {
            guard let start = text.range(of: opening), let end = text[start.upperBound...].range(of: closing) else {
                continue
            }
            return (kind, String(text[start.lowerBound..<end.upperBound]))
        }
        return nil
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
