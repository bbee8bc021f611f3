import DocumentModel
import Foundation
import Styling

/// One chapter's blocks as the book sets them (``BookPlan``): ids renamed, links between the
/// files resolved, footnotes numbered on, image paths rebased. A value read from any thread.
struct BookRewrite: Sendable {
    let plan: BookPlan.ChapterPlan
    /// Every chapter's plan, by index (for links into the other files).
    let targets: [BookPlan.ChapterPlan]
    /// Chapter index by file key.
    let byKey: [String: Int]

    init(plan: BookPlan.ChapterPlan, book: BookPlan) {
        self.plan = plan
        targets = book.plans
        byKey = book.byKey
    }

    /// The ids of the headings inside top-level block `index` of the chapter.
    func headingIDs(_ index: Int) -> [String?] {
        index < plan.headingIDs.count ? plan.headingIDs[index] : []
    }

    /// `block` with the chapter's changes; `headingIDs` are the ids of its headings in order.
    func rewrite(_ block: Block, headingIDs: [String?]) -> Block {
        var next = 0
        return Self.block(
            block,
            visit: { block in
                switch block.kind {
                case .heading:
                    let id = next < headingIDs.count ? headingIDs[next] : nil
                    next += 1
                    if let id { block.attributes.id = plan.renamed[id] ?? id }
                case .div:
                    if let written = block.attributes.id, let final = plan.renamed[written] {
                        block.attributes.id = final
                    }
                default: break
                }
            },
            inline: rewrite)
    }

    /// One inline with the chapter's changes (its children are already rewritten).
    func rewrite(_ inline: Inline) -> Inline {
        switch inline {
        case .span(var attributes, let children):
            if let written = attributes.id, let final = plan.renamed[written] { attributes.id = final }
            return .span(attributes, children)
        case .anchor(let id):
            return .anchor(plan.renamed[id] ?? id)
        case .link(let destination, let title, let children):
            return .link(destination: resolve(destination), title: title, children: children)
        case .image(let source, let title, let alt, let location):
            guard let prefix = plan.imagePrefix, !source.isEmpty, !source.hasPrefix("/"),
                !BookPaths.hasScheme(source)
            else { return inline }
            return .image(source: prefix + source, title: title, alt: alt, location: location)
        case .footnoteReference(let label, let number):
            return .footnoteReference(label: label, number: number + plan.footnoteOffset)
        default:
            return inline
        }
    }

    /// A link's destination in the book: `#part` to the id the book gives the chapter's `part`,
    /// `other.md#part` to the id of `part` in that file, `other.md` to its chapter's start;
    /// anything else as written.
    func resolve(_ destination: String) -> String {
        if destination.hasPrefix("#") {
            guard let own = plan.matcher.match(String(destination.dropFirst())), let final = plan.renamed[own],
                final != own
            else { return destination }
            return "#" + final
        }
        guard let (target, fragment) = BookPlan.bookTarget(of: destination, folder: plan.folder, byKey: byKey) else {
            return destination
        }
        let chapter = targets[target]
        if let fragment, let own = chapter.matcher.match(fragment) { return "#" + (chapter.renamed[own] ?? own) }
        return "#" + chapter.anchor
    }

    /// `block` with `visit` applied to it and to every block inside it (each before its
    /// children), and `inline` to every inline (each after its children).
    static func block(_ block: Block, visit: (inout Block) -> Void, inline: (Inline) -> Inline) -> Block {
        var block = block
        visit(&block)
        return block.mappingChildren(
            blocks: { $0.map { Self.block($0, visit: visit, inline: inline) } },
            inlines: { $0.map { Self.inline($0, inline) } })
    }

    /// `inline` with `transform` applied to every inline in it, children first.
    static func inline(_ inline: Inline, _ transform: (Inline) -> Inline) -> Inline {
        func children(_ list: [Inline]) -> [Inline] { list.map { Self.inline($0, transform) } }
        let rebuilt: Inline =
            switch inline {
            case .emphasis(let content): .emphasis(children(content))
            case .strong(let content): .strong(children(content))
            case .strikethrough(let content): .strikethrough(children(content))
            case .link(let destination, let title, let content):
                .link(destination: destination, title: title, children: children(content))
            case .image(let source, let title, let alt, let location):
                .image(source: source, title: title, alt: children(alt), location: location)
            case .span(let attributes, let content): .span(attributes, children(content))
            case .presentation(let presentation, let content): .presentation(presentation, children(content))
            case .text, .softBreak, .lineBreak, .code, .footnoteReference, .rawHTML, .anchor, .math: inline
            }
        return transform(rebuilt)
    }
}
