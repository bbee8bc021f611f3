import DocumentModel
import Typography

extension AlertKind {
    /// The colour of the alert's label and bar when the theme names none: GitHub's light theme
    /// (Primer `fg.accent`, `fg.success`, `fg.done`, `fg.attention`, `fg.danger`).
    var gitHubColor: RGBAColor {
        switch self {
        case .note: RGBAColor(red: 0x09 / 255, green: 0x69 / 255, blue: 0xDA / 255)
        case .tip: RGBAColor(red: 0x1A / 255, green: 0x7F / 255, blue: 0x37 / 255)
        case .important: RGBAColor(red: 0x82 / 255, green: 0x50 / 255, blue: 0xDF / 255)
        case .warning: RGBAColor(red: 0x9A / 255, green: 0x67 / 255, blue: 0x00 / 255)
        case .caution: RGBAColor(red: 0xCF / 255, green: 0x22 / 255, blue: 0x2E / 255)
        }
    }
}

extension Styler {
    /// The colour of alerts of `kind`: the theme's colour named after the kind (`note`, `tip`,
    /// `important`, `warning`, `caution`), else GitHub's.
    func alertColor(_ kind: AlertKind) -> RGBAColor {
        theme.color(named: kind.rawValue) ?? kind.gitHubColor
    }

    /// A GitHub alert as GitHub draws it: a bar in the alert's colour beside the content, and
    /// above the content its label (`Note`, `Warning`…; 참고, 경고… in Korean text), or the
    /// `title` an admonition gives, in that colour, bold. Tagged as one
    /// `Note` element (PDF 1.7 §14.8.4.4) holding the label's paragraph and the content. An
    /// `admonition` (a div drawn as an alert) keeps a div's sections: its headings are numbered.
    mutating func appendAlert(
        _ kind: AlertKind, _ children: [Block], title: String? = nil, admonition: Bool = false,
        in context: BlockContext, at location: SourceLocation?, to blocks: inout [StyledBlock]
    ) {
        var context = context
        let first = blocks.count
        // The alert's own bar takes its colour; the bars of quotes around it keep theirs.
        var ownBar: Int?
        if context.indent + 14 <= maxIndent {
            ownBar = context.quoteBars.count
            context.quoteBars.append(context.indent + 1)
            context.indent += 14
        }
        context.tight = false
        context.structure.append(newElement(.note, in: context))
        if admonition, context.admonitionElements == context.structure.count - 1 { context.admonitionElements += 1 }
        var labelContext = context
        labelContext.cascade = paragraphCascade(context)
        labelContext.cascade.color = alertColor(kind)
        let label = makeParagraph(
            [.strong([.text(title ?? kind.label(language: context.cascade.language))])], context: labelContext,
            overrides: StyleOverrides())
        blocks.append(
            StyledBlock(
                .paragraph(label), spaceAfter: blockSpacing * 0.4, keepWithNext: true,
                quoteBars: context.quoteBars, quoteBarColor: quoteBarColor, location: location))
        blocks[blocks.count - 1].structure = context.structure + [newElement(.paragraph, in: context)]
        for child in children { append(child, context: context, to: &blocks) }
        for index in blocks.indices[first...] {
            if let ownBar {
                blocks[index].quoteBarColors[ownBar] = alertColor(kind)
            } else {
                // Nested past half the measure, the alert has no bar of its own: the innermost shows it.
                blocks[index].quoteBarColors[max(0, context.quoteBars.count - 1)] = alertColor(kind)
            }
        }
    }
}
