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
        // Filled in once; a page fills in only its numbers.
        let parts = self.parts(of: template)
        let limit = characterLimit
        return { page in
            let text = Self.joined(parts, page: page, pages: pageCount, limit: limit)
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
        var seen: Set<String> = []
        let unescaped = template.replacingOccurrences(of: "{{", with: "").replacingOccurrences(of: "}}", with: "")
        var rest = unescaped[...]
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            let name = String(rest[rest.index(after: open)..<close])
            if !fields.contains(name), seen.insert(name).inserted { names.append(name) }
            rest = rest[rest.index(after: close)...]
        }
        return names
    }

    /// The most characters a running text is filled in to: a page sets one line of it, and
    /// no line of a page shows this many (at the Caption role's size the widest paper's
    /// measure holds a few hundred), so a longer text is cut here, before it is shaped, and
    /// ended with an ellipsis (…); the page then cuts it at a word as it cuts any text wider
    /// than the measure (``Paginator/appendRunningText(_:baselineFromTop:to:)``). A template
    /// that repeats `{title}` thousands of times with a long title is set in time linear in
    /// the template and the title.
    static let expansionLimit = 4_096

    /// The most characters a running text is filled in to with this theme: as many as a line
    /// of the measure would show were every character a tenth of an em of the Caption role
    /// wide (narrower than any letter, figure or space of a text face), and no more than
    /// ``expansionLimit``. A page shapes what it sets (and cuts it at a word) in time that
    /// grows with the text, so a short bound keeps a document of many pages quick.
    var characterLimit: Int {
        let narrowest = max(theme[.caption].size * 0.1, 0.1)
        let fitting = (theme.page.measure / narrowest).rounded(.up)
        guard fitting.isFinite else { return Self.expansionLimit }
        return min(Self.expansionLimit, max(64, Int(min(fitting, Double(Self.expansionLimit)))))
    }

    /// A piece of a template filled in: text, or a page field a page fills in.
    enum Part: Equatable {
        /// Text, the template's own with `{title}` and `{date}` filled in.
        case text(String)
        /// `{page}`, the page's number.
        case page
        /// `{pages}`, the page count (`?` before it is known).
        case pages
    }

    /// `template` with `{title}` and `{date}` filled in and `{{` and `}}` written as one brace
    /// each (as Python's and .NET's format strings escape them), up to ``characterLimit``
    /// characters: a template filled in to more ends with a text part of an ellipsis (…).
    /// The values are set as written: a `{page}` in the title is not a field.
    func parts(of template: String) -> [Part] {
        // The escaped braces stand aside (as private-use characters) while the fields are found.
        let (open, close) = ("\u{F8F0}", "\u{F8F1}")
        let escaped = template.replacingOccurrences(of: "{{", with: open).replacingOccurrences(of: "}}", with: close)
        var parts: [Part] = []
        // Characters filled in so far; a page number counts as one.
        var length = 0
        let limit = characterLimit
        func add(_ text: Substring, literal: Bool) -> Bool {
            let room = limit - length
            let piece = text.prefix(room)
            length += piece.count
            let written =
                literal
                ? piece.replacingOccurrences(of: open, with: "{").replacingOccurrences(of: close, with: "}")
                : String(piece)
            if !written.isEmpty { parts.append(.text(written)) }
            guard piece.endIndex == text.endIndex else {
                parts.append(.text("…"))
                return false
            }
            return true
        }
        var rest = escaped[...]
        while let brace = rest.firstIndex(of: "{") {
            let after = rest[rest.index(after: brace)...]
            // The field the brace opens (names are short: no search for a closing brace).
            let named: (part: Part, name: String)? =
                if after.hasPrefix("title}") {
                    (.text(title), "title")
                } else if after.hasPrefix("date}") {
                    (.text(date), "date")
                } else if after.hasPrefix("pages}") {
                    (.pages, "pages")
                } else if after.hasPrefix("page}") {
                    (.page, "page")
                } else {
                    nil
                }
            // Any other name prints as written.
            guard let named else {
                guard add(rest[...brace], literal: true) else { return parts }
                rest = after
                continue
            }
            guard add(rest[..<brace], literal: true) else { return parts }
            if case .text(let value) = named.part {
                guard add(value[...], literal: false) else { return parts }
            } else {
                guard length < limit else {
                    parts.append(.text("…"))
                    return parts
                }
                length += 1
                parts.append(named.part)
            }
            rest = after.dropFirst(named.name.count + 1)
        }
        _ = add(rest, literal: true)
        return parts
    }

    /// The text of `parts` on page `page` of `pages` (`?` when not known yet), cut at `limit`
    /// characters with an ellipsis (…) when its numbers make it longer.
    static func joined(_ parts: [Part], page: Int, pages: Int?, limit: Int) -> String {
        var text = ""
        for part in parts {
            switch part {
            case .text(let piece): text += piece
            case .page: text += String(page)
            case .pages: text += pages.map(String.init) ?? "?"
            }
        }
        guard text.count > limit + 1 || text.count > limit && text.last != "…" else { return text }
        return String(text.prefix(limit)) + "…"
    }

    /// The template with its fields filled in (`{pages}` is `?` before the count is known),
    /// `{{` and `}}` written as one brace each, cut at ``characterLimit`` characters with an
    /// ellipsis (``parts(of:)``).
    func expand(_ template: String, page: Int, pages: Int?) -> String {
        Self.joined(parts(of: template), page: page, pages: pages, limit: characterLimit)
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
