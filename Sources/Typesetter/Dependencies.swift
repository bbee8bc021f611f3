import DocumentModel
import Foundation
import Typography

extension Typesetter {
    /// The files a render of `document` reads besides the document itself, for `typeset watch`:
    /// its local images (resolved as the renderer resolves them), the theme file (from the
    /// options, else front matter, beside the document) and its `extends` chain's file, and the
    /// font folders (the request's and the theme's). Paths that do not exist are included, so a
    /// missing image that appears triggers a render; paths the document names outside the
    /// folders the render may read (``RenderOptions/sandbox``) are not.
    public static func dependencies(of document: Document, options requested: RenderOptions) -> [String] {
        var scratch: [Diagnostic] = []
        let options = FrontMatterSettings.merge(requested, with: document.metadata, diagnostics: &scratch)
        let base = ResolvedSettings.stylingOptions(options, file: document.file).baseDirectory
        var paths: [String] = []
        func inlines(_ list: [Inline]) {
            for inline in list {
                switch inline {
                case .image(let source, _, let alt, _):
                    let lower = source.lowercased()
                    if !lower.hasPrefix("http:"), !lower.hasPrefix("https:"), !lower.hasPrefix("data:"), !source.isEmpty
                    {
                        let path = source.removingPercentEncoding ?? source
                        paths.append(path.hasPrefix("/") ? path : (base as NSString).appendingPathComponent(path))
                    }
                    inlines(alt)
                case .emphasis(let children), .strong(let children), .strikethrough(let children),
                    .span(_, let children), .link(_, _, let children):
                    inlines(children)
                default: break
                }
            }
        }
        func blocks(_ list: some Collection<Block>) {
            for block in list {
                switch block.kind {
                case .paragraph(let content), .heading(_, let content): inlines(content)
                case .list(let itemList): for item in itemList.items { blocks(item.blocks) }
                case .blockQuote(let children), .div(let children), .alert(_, let children): blocks(children)
                case .definitionList(let items):
                    for item in items {
                        inlines(item.term)
                        for definition in item.definitions { blocks(definition) }
                    }
                case .table(let table):
                    for cell in [table.caption] + table.header + table.rows.flatMap({ $0 }) { inlines(cell) }
                default: break
                }
            }
        }
        blocks(document.blocks)
        for number in document.footnotes.keys.sorted() { blocks(document.footnotes[number]!) }
        // What the document names is watched only where the render may read it (its changes
        // outside are not the document's to see); what the caller names is watched wherever it is.
        let sandbox = options.sandbox
        paths = paths.filter { sandbox?.permits($0) ?? true }
        if let theme = options.themeRequest.theme, ThemeLoader.builtIn(named: theme) == nil {
            let namedByCaller = requested.themeRequest.theme == theme
            if namedByCaller || sandbox?.permits(theme) ?? true {
                paths.append(theme)
                if let loaded = try? ThemeLoader.resolve(nameOrPath: theme) {
                    paths += loaded.fontFolders.filter { namedByCaller || sandbox?.permits($0) ?? true }
                }
            }
        }
        paths += options.themeRequest.fontFolders
        var seen = Set<String>()
        return paths.filter { seen.insert($0).inserted }
    }
}
