import Foundation
import Styling
import TestSupport
import Testing
import Typography

@testable import Typesetter

/// A running head or foot is one line of each page: its template is filled in to at most
/// ``RunningText/expansionLimit`` characters, once per document, before it is shaped. A header
/// of `{title}` 2,000 times with a title of 20,000 characters (34 KB) took over 20 s; 10,000
/// times with a title of 100 KB over 100 pages held 3.8 GB.
@Suite struct RunningTextExpansionTests {
    /// The running text of the default theme with `title`, `date` and the header `template`.
    func running(title: String, date: String = "2026", header: String) throws -> RunningText {
        let theme = try #require(ThemeLoader.builtIn(named: "default"))
        return RunningText(theme: theme, title: title, date: date, header: header, footer: nil)
    }

    /// Every field repeated, with a long value: the text is cut at the limit and ends with an
    /// ellipsis; its beginning is what the whole text begins with.
    @Test(arguments: ["{title}", "{date}", "{page}", "{pages}", "lit{{eral}} ", "{unknown}"])
    func aRepeatedFieldIsCutAtTheLimit(field: String) throws {
        let long = String(repeating: "word ", count: 4_000)
        let text = try running(title: long, date: long, header: String(repeating: field, count: 5_000))
            .expand(String(repeating: field, count: 5_000), page: 12_345, pages: 67_890)
        #expect(text.count <= RunningText.expansionLimit + 1, "\(field): \(text.count) characters")
        let endsWithEllipsis = text.hasSuffix("…")
        #expect(endsWithEllipsis, "\(field)")
        let one = try running(title: long, date: long, header: field).expand(field, page: 12_345, pages: 67_890)
        let beginsAsTheWhole = text.hasPrefix(String(one.prefix(100)))
        #expect(beginsAsTheWhole, "\(field)")
    }

    /// A text within the limit is filled in as before: fields, escaped braces, unknown names
    /// as written, and no field inside a value.
    @Test func aShortTemplateIsFilledInAsBefore() throws {
        let running = try running(title: "T {page}", header: "")
        #expect(
            running.expand("{{title}} {title} {page}/{pages} {x} {date}}}", page: 3, pages: nil)
                == "{title} T {page} 3/? {x} {date}}")
        #expect(running.expand("{title", page: 1, pages: 2) == "{title")
        #expect(RunningText.unknownFields(in: "{a}{b}{a}{title}") == ["a", "b"])
    }

    /// Four times the repeats and four times the title take about as long, not sixteen times
    /// (the text filled in grew with their product): a document rendered with such a running
    /// foot, and the unknown names of such a template.
    @Test func aLongExpansionTakesLinearTime() throws {
        func seconds(_ size: Int) throws -> Double {
            let title = String(repeating: "word ", count: size / 5)
            let footer = String(repeating: "{title}", count: size / 10)
            let markdown = "---\ntitle: \"\(title)\"\nfooter: \"\(footer)\"\n---\n\nBody.\n"
            return try Timing.bestSeconds { _ = try Render.markdown(markdown, name: "running-\(size)") }
        }
        let figures = try Timing.firstHolding {
            [try seconds(500), try seconds(2_000)]
        } holds: {
            $0[1] < 8 * $0[0]
        }
        #expect(figures[1] < 8 * figures[0], "\(figures) s for 500 and 2,000 bytes")
        // The foot is cut at a word with an ellipsis, as a text wider than the measure always was.
        let title = String(repeating: "word ", count: 2_000)
        let footer = String(repeating: "{title}", count: 40)
        let (pdf, _) = try Render.markdown(
            "---\ntitle: \"\(title)\"\nfooter: \"\(footer)\"\n---\n\nBody.\n", name: "running-cut")
        let text = try PDFProbe.text(pdf)
        #expect(text.contains("word word") && text.contains("…"))

        func unknownSeconds(_ count: Int) -> Double {
            let template = (0..<count).map { "{n\($0)}" }.joined()
            return Timing.bestThreadSeconds { _ = RunningText.unknownFields(in: template) }
        }
        let names = Timing.eightfold(unknownSeconds)
        #expect(names[1] < 16 * names[0], "\(names) s for 2,000 and 16,000 names")
    }
}
