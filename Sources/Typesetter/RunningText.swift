import Foundation
import Styling
import Typography

/// Running headers and footers from templates with `{title}`, `{page}`, `{pages}` and `{date}`,
/// set centred in the Caption role and the secondary colour, with tabular figures.
struct RunningText {
    let theme: Theme
    let title: String
    let date: String
    let headerTemplate: String?
    let footerTemplate: String?

    init(theme: Theme, title: String, date: String, header: String?, footer: String?) {
        self.theme = theme; self.title = title; self.date = date
        headerTemplate = header?.isEmpty == true ? nil : header
        footerTemplate = footer?.isEmpty == true ? nil : footer
    }

    /// `{pages}` needs the page count before the first page is drawn: a counting pass.
    var needsPageCount: Bool {
        [headerTemplate, footerTemplate].contains { $0?.contains("{pages}") == true }
    }

    /// The running head of each page; none on the first page, which carries the title block.
    func header(pageCount: Int?) -> ((Int) -> StyledParagraph?)? {
        closure(headerTemplate, pageCount: pageCount).map { head in { page in page == 1 ? nil : head(page) } }
    }
    func footer(pageCount: Int?) -> ((Int) -> StyledParagraph?)? { closure(footerTemplate, pageCount: pageCount) }

    private func closure(_ template: String?, pageCount: Int?) -> ((Int) -> StyledParagraph?)? {
        guard let template else { return nil }
        let style = theme[.caption]
        let font = FontSpec(families: style.families, weight: style.weight, size: style.size)
        let run = RunStyle(font: font, features: ["tnum"], color: theme.color(named: "secondary") ?? theme.textColor)
        let paragraphStyle = ParagraphStyle(baseFont: font, alignment: .center)
        return { page in
            let text = self.expand(template, page: page, pages: pageCount)
            return text.isEmpty ? nil : StyledParagraph(runs: [StyledRun(text, style: run)], style: paragraphStyle)
        }
    }

    /// The fields a template names, `{title}`, `{page}`, `{pages}` and `{date}`.
    static let fields: Set<String> = ["title", "page", "pages", "date"]

    /// Names in braces in `template` that are not fields (they print as written).
    static func unknownFields(in template: String) -> [String] {
        var names: [String] = []
        var rest = template[...]
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            let name = String(rest[rest.index(after: open)..<close])
            if !fields.contains(name), !names.contains(name) { names.append(name) }
            rest = rest[rest.index(after: close)...]
        }
        return names
    }

    /// The template with its fields filled in (`{pages}` is `?` before the count is known).
    func expand(_ template: String, page: Int, pages: Int?) -> String {
        template.replacingOccurrences(of: "{title}", with: title)
            .replacingOccurrences(of: "{page}", with: String(page))
            .replacingOccurrences(of: "{pages}", with: pages.map(String.init) ?? "?")
            .replacingOccurrences(of: "{date}", with: date)
    }
}
