import DocumentModel
import Typography

extension Styler {
    /// A GitHub alert or a Pandoc definition list (``appendAlert(_:_:in:at:to:)``,
    /// ``appendDefinitionList(_:in:at:to:)``); any other block is left to ``append(_:context:to:)``.
    mutating func appendGitHubOrPandocBlock(_ block: Block, in context: BlockContext, to blocks: inout [StyledBlock]) {
        switch block.kind {
        case .alert(let kind, let children): appendAlert(kind, children, in: context, at: block.location, to: &blocks)
        case .definitionList(let items): appendDefinitionList(items, in: context, at: block.location, to: &blocks)
        default: append(block, context: context, to: &blocks)
        }
    }

    /// A Pandoc definition list as HTML's `<dl>` is drawn: each term bold on its own line, its
    /// definitions below it indented by 2 em of the text (CSS's default `dd` margin, 40 px at
    /// 16 px). Tagged as a list (PDF 1.7 §14.8.4.3.3): an `LI` per term, the term its `Lbl`, the
    /// definitions its `LBody`.
    mutating func appendDefinitionList(
        _ items: [DefinitionItem], in context: BlockContext, at location: SourceLocation?,
        to blocks: inout [StyledBlock]
    ) {
        let listElement = newElement(.list, in: context)
        let textCascade = paragraphCascade(context)
        for item in items {
            let itemElement = newElement(.listItem, in: context)
            let itemPath = context.structure + [listElement, itemElement]
            var termContext = context
            termContext.cascade = textCascade
            let term = makeParagraph([.strong(item.term)], context: termContext, overrides: StyleOverrides())
            blocks.append(
                StyledBlock(
                    .paragraph(term), spaceAfter: blockSpacing * 0.3, keepWithNext: true,
                    quoteBars: context.quoteBars, quoteBarColor: quoteBarColor, location: location))
            blocks[blocks.count - 1].structure = itemPath + [StructureElement(.label, id: itemElement.id)]
            var definitionContext = context
            definitionContext.structure = itemPath + [StructureElement(.listBody, id: itemElement.id)]
            definitionContext.indent = min(maxIndent, context.indent + textCascade.style.size * 2)
            for definition in item.definitions {
                for child in definition { append(child, context: definitionContext, to: &blocks) }
            }
        }
    }
}
