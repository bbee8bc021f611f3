import DocumentModel
import MarkdownParser
import Styling
import Typography

/// A front matter value set as text — `title`, `subtitle`, `author`, `date` — read as Markdown
/// inline text, as Pandoc reads metadata values: `title: A *styled* title` is set with its
/// emphasis in the title block, and the PDF's metadata and a running head take its plain text
/// ("A styled title"; a formula as its symbols, `$\alpha$` α). A value that does not read as
/// one paragraph (`# Title`, `1. Intro`) is text as written, as before.
enum FrontMatterText {
    /// The value's inlines when it reads as one Markdown paragraph; nil otherwise. `smart`:
    /// the document's smart punctuation setting (front matter `smart`).
    static func inlines(_ value: String, smart: Bool) -> [Inline]? {
        let text = (smart ? "" : "---\nsmart: false\n---\n") + value
        let document = MarkdownParser.parse(text, file: "front matter").document
        guard document.blocks.count == 1, case .paragraph(let inlines) = document.blocks[0].kind else { return nil }
        return inlines
    }

    /// The value's plain text: its inlines' text, or the value as written.
    static func plain(_ value: String, smart: Bool) -> String {
        inlines(value, smart: smart).map(Styler.readableText) ?? value
    }

    /// The value as one paragraph in `role`'s face, every run in `color` but links: its
    /// emphasis, strong text, code and links styled as the document's text is (``Styler``).
    static func paragraph(_ value: String, smart: Bool, role: TextRole, color: RGBAColor, theme: Theme)
        -> StyledParagraph?
    {
        guard let inlines = inlines(value, smart: smart) else { return nil }
        var attributes = Attributes()
        attributes.classes = [role.rawValue.lowercased()]
        let document = Document(blocks: [Block(.div([Block(.paragraph(inlines))]), attributes: attributes)])
        for block in Styler.style(document, theme: theme).blocks {
            guard case .paragraph(var paragraph) = block.content else { continue }
            for i in paragraph.runs.indices where paragraph.runs[i].style.link == nil {
                paragraph.runs[i].style.color = color
            }
            return paragraph
        }
        return nil
    }
}
