import Foundation
import Typeset

// 1. Markdown in, PDF bytes out.
let markdown = """
    # Quarterly report

    Revenue grew **12 %** on the quarter. 매출은 분기 대비 12% 늘었습니다.
    """
let pdf = try Typesetter.render(markdown: markdown)
precondition(pdf.data.starts(with: Array("%PDF-".utf8)))
print("in memory: \(pdf.pageCount) page, \(pdf.diagnostics.count) warnings")

// 2. Options: a built-in theme, paper, a footer; the bytes written atomically.
let options = Typeset.RenderOptions(themeRequest: ThemeRequest(theme: "hig"), paper: .a5, footer: "{page} / {pages}")
try Typesetter.render(markdown: markdown, options: options).write(to: NSTemporaryDirectory() + "quarterly.pdf")

// 3. A theme built in code is checked like a theme file: a negative size is an error.
var theme = Theme.default
theme.styles[.body]?.size = -5
do {
    _ = try Typesetter.render(markdown: markdown, options: RenderOptions(theme: theme))
    preconditionFailure("a −5 pt Body must not render")
} catch let error as TypesetError {
    for problem in error.problems { print("\(problem.kind): \(problem.message)") }
}

// 4. A document built in code, rendered eight times in a task group.
let document = Document(blocks: [
    Block(.heading(level: 1, [.text("Built in code")])),
    Block(.paragraph([.text("No Markdown was parsed for this page.")])),
])
let results = try await withThrowingTaskGroup(of: RenderedPDF.self) { group in
    for _ in 0..<8 { group.addTask { try Typesetter.render(document: document) } }
    var all: [RenderedPDF] = []
    for try await pdf in group { all.append(pdf) }
    return all
}
precondition(results.count == 8 && results.allSatisfy { $0.pageCount == 1 })
print("task group: \(results.count) PDFs")
