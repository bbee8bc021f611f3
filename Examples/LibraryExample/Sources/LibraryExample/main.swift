import Foundation
import Typeset

let markdown = """
    # Quarterly report

    Revenue grew **12 %** on the quarter. 매출은 분기 대비 12% 늘었습니다.
    """
let options = RenderOptions(themeRequest: ThemeRequest(theme: "hig"), paper: .a5, footer: "{page} / {pages}")
let pdf = try Typesetter.render(markdown: markdown, options: options)
precondition(pdf.data.starts(with: Array("%PDF-".utf8)) && pdf.pageCount == 1)
try pdf.write(to: NSTemporaryDirectory() + "quarterly.pdf")
print("\(pdf.pageCount) page, \(pdf.diagnostics.count) warnings, \(pdf.data.count) bytes")
