import Foundation
import TestSupport
import Testing

@testable import Typeset

/// A link to an id no heading or anchor has is warned about at the `#id` it writes, on
/// whatever line of its block and in whatever kind of block it stands, not at its block's start.
@Suite struct LinkWarningPositionTests {
    /// `line:column` (1-based, UTF-8 bytes) of the first `needle` in `markdown`.
    func place(of needle: String, in markdown: String) -> String {
        let found = markdown.range(of: needle)!.lowerBound
        let before = markdown[..<found]
        let line = before.filter { $0 == "\n" }.count + 1
        let lineStart = before.lastIndex(of: "\n").map { markdown.index(after: $0) } ?? markdown.startIndex
        return "\(line):\(markdown[lineStart..<found].utf8.count + 1)"
    }

    @Test func eachMissingIdIsWarnedAboutWhereItIsWritten() throws {
        let markdown = """
            # Title

            A paragraph, and
            on a later line [first](#gone-one).

            - an item with [third](#gone-three)

            | a | b |
            |---|---|
            | x | [fourth](#gone-four) |

            ## A heading linking [second](#gone-two)
            """
        let (_, report) = try Render.markdown(markdown, name: "link-warning-positions")
        let warning = try #require(
            report.diagnostics.first { $0.message.contains("matches no heading id") }, "\(report.diagnostics)")
        let first = place(of: "#gone-one", in: markdown)
        #expect(warning.location.map { "\($0.line):\($0.column)" } == first, "\(warning)")
        #expect(warning.message.contains("(4 like this in all;"), "\(warning.message)")
        for id in ["#gone-two", "#gone-three", "#gone-four"] {
            #expect(warning.message.contains("\(place(of: id, in: markdown)) '\(id)'"), "\(id): \(warning.message)")
        }
    }
}
