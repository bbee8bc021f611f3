import Foundation
import Layout
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
        self.theme = theme
        self.title = title
        self.date = date
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

    /// This running text with `{title}` shortened at a word and ended with an ellipsis (…), as
    /// a running head is cut in print (CSS `text-overflow: ellipsis` does the same on one
    /// line), so that every template set with four-digit page numbers fits one line of
    /// `measure` pt. Returns the templates ("header", "footer") whose title was shortened, and
    /// those that take more than one line even with no title, whose title is kept (a page sets
    /// as many of their words as fit one line, then an ellipsis).
    func fitted(to measure: Double, shaper: TextShaper) -> (
        running: RunningText, shortened: [String], overlong: [String]
    ) {
        func lines(_ running: RunningText, _ key: String) -> Int {
            let closure =
                key == "header"
                ? running.closure(running.headerTemplate, pageCount: 8_888)
                : running.closure(running.footerTemplate, pageCount: 8_888)
            guard let paragraph = closure?(8_888) else { return 0 }
            return shaper.shape(paragraph, width: measure).lines.count
        }
        func titled(_ title: String) -> RunningText {
            RunningText(theme: theme, title: title, date: date, header: headerTemplate, footer: footerTemplate)
        }
        var fitted = self
        var shortened: [String] = []
        let words = title.split(separator: " ", omittingEmptySubsequences: true)
        for (key, template) in [("header", headerTemplate), ("footer", footerTemplate)] {
            guard let template, template.contains("{title}"), lines(fitted, key) > 1 else { continue }
            // A template too long with no title at all keeps its title: the page cuts the
            // whole text at a word instead (``Paginator/appendRunningText(_:baselineFromTop:to:)``).
            guard lines(titled("…"), key) <= 1 else { continue }
            // The most words that fit (binary search: fewer words never take more lines).
            var low = 0
            var high = words.count - 1
            while low < high {
                let mid = (low + high + 1) / 2
                if lines(titled(words[..<mid].joined(separator: " ") + "…"), key) <= 1 {
                    low = mid
                } else {
                    high = mid - 1
                }
            }
            fitted = titled(words[..<low].joined(separator: " ") + "…")
            shortened.append(key)
        }
        let overlong = ["header", "footer"].filter { lines(fitted, $0) > 1 }
        return (fitted, shortened, overlong)
    }

    /// The fields a template names, `{title}`, `{page}`, `{pages}` and `{date}`.
    static let fields: Set<String> = ["title", "page", "pages", "date"]

    /// Names in braces in `template` that are not fields (they print as written); `{{` and
    /// `}}` are a literal brace each.
    static func unknownFields(in template: String) -> [String] {
        var names: [String] = []
        let unescaped = template.replacingOccurrences(of: "{{", with: "").replacingOccurrences(of: "}}", with: "")
        var rest = unescaped[...]
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            let name = String(rest[rest.index(after: open)..<close])
            if !fields.contains(name), !names.contains(name) { names.append(name) }
            rest = rest[rest.index(after: close)...]
        }
        return names
    }

    /// The template with its fields filled in (`{pages}` is `?` before the count is known),
    /// `{{` and `}}` written as one brace each (as Python's and .NET's format strings escape
    /// them).
    func expand(_ template: String, page: Int, pages: Int?) -> String {
        // The escaped braces stand aside (as private-use characters) while the fields are filled.
        let (open, close) = ("\u{F8F0}", "\u{F8F1}")
        return template.replacingOccurrences(of: "{{", with: open).replacingOccurrences(of: "}}", with: close)
            .replacingOccurrences(of: "{title}", with: title)
            .replacingOccurrences(of: "{page}", with: String(page))
            .replacingOccurrences(of: "{pages}", with: pages.map(String.init) ?? "?")
            .replacingOccurrences(of: "{date}", with: date)
            .replacingOccurrences(of: open, with: "{").replacingOccurrences(of: close, with: "}")
    }
}

extension Typesetter {
    /// The names in braces in a running head or foot `template` that are none of its fields
    /// (`{title}`, `{page}`, `{pages}`, `{date}`), in order of first use: they would print as
    /// written. For checking `--header`/`--footer` before rendering.
    public static func unknownRunningFields(in template: String) -> [String] {
        RunningText.unknownFields(in: template)
    }
}
