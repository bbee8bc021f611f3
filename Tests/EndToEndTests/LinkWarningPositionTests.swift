import Foundation
import TestSupport
import Testing

@testable import Typeset

/// A link to an id no heading or anchor has, a link into a Markdown file that is not there, an
/// image outside the folders a render may read and a remote image are warned about where their
/// address is written, on whatever line of its block and in whatever kind of block it stands,
/// not at the block's start or at the image's `!`.
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

    @Test func otherFilesAndImagesAreWarnedAboutAtTheirAddress() throws {
        let markdown = """
            Intro.

            See the guide
            in [other](sub/no-such-guide.md) for more.

            ![Alt](/outside/of/the/root.png)

            Text before ![remote badge](https://example.com/badge.svg) after.

            ![Remote figure](https://example.com/figure.png)
            """
        var options = RenderOptions()
        options.root = URL(fileURLWithPath: Render.folder)
        let (_, report) = try Render.markdown(markdown, name: "address-warning-positions", options: options)
        for (fragment, address) in [
            ("another Markdown file", "sub/no-such-guide.md"), ("outside the folders", "/outside/of/the/root.png"),
            ("remote image 'https://example.com/badge.svg'", "https://example.com/badge.svg"),
            ("remote image 'https://example.com/figure.png'", "https://example.com/figure.png"),
        ] {
            let warning = try #require(
                report.diagnostics.first { $0.message.contains(fragment) }, "\(fragment): \(report.diagnostics)")
            #expect(
                warning.location.map { "\($0.line):\($0.column)" } == place(of: address, in: markdown), "\(warning)")
        }
    }
}
