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

    /// Two warnings of one block found in another order than their links are written (a link's
    /// scheme is judged while styling, a missing id after the survey) are each placed at their
    /// own link.
    @Test func warningsOfOneBlockArePlacedWhateverTheirOrder() throws {
        let markdown = "See [missing](#nowhere), [bad](javascript:alert) and [good](#here).\n\n# Here\n"
        let (_, report) = try Render.markdown(markdown, name: "link-warning-order")
        let places = report.diagnostics.filter { $0.kind == .link }.map { "\($0.location?.column ?? 0)" }
        #expect(
            Set(places) == [
                String(place(of: "#nowhere", in: markdown).dropFirst(2)),
                String(place(of: "javascript:", in: markdown).dropFirst(2)),
            ], "\(report.diagnostics)")
    }

    /// A link that goes nowhere — to an id nothing has, with a scheme a PDF link may not open,
    /// to an empty address — is set as plain text, in the text's colour; a working one in the
    /// theme's link colour.
    @Test func aLinkThatGoesNowhereIsNotColouredAsOne() throws {
        let markdown = "Plain [deadid](#nowhere) [deadscheme](javascript:x) [deadempty]() [alive](#here).\n\n# Here\n"
        let (pdf, _) = try Render.markdown(markdown, name: "dead-link-colour")
        let stretches = try PDFColoredText.read(pdf)
        func color(_ word: String) -> String? { stretches.first { $0.text.contains(word) }?.color }
        let plain = try #require(color("Plain"))
        for dead in ["deadid", "deadscheme", "deadempty"] { #expect(color(dead) == plain, "\(dead): \(stretches)") }
        #expect(color("alive") != plain, "\(stretches)")
    }

    /// In a book, each chapter's link warnings are placed in that chapter's file, at the link:
    /// a missing id and a missing id in another chapter.
    @Test func aBooksLinkWarningsArePlacedInTheirChapter() throws {
        let dir = try Render.scratchFolder("book-link-warnings")
        let one = "# One\n\nText [a](#nope1) and [b](two.md#nope2).\n"
        let two = "# Two\n\nSee [d](#nope4) and [f](one.md#zzz).\n"
        try one.write(toFile: dir + "/one.md", atomically: false, encoding: .utf8)
        try two.write(toFile: dir + "/two.md", atomically: false, encoding: .utf8)
        let result = try typeset(["render", dir + "/one.md", dir + "/two.md", "-o", dir + "/book.pdf"])
        #expect(result.status == 0, "\(result.output)")
        for (file, text, needle) in [
            ("one.md", one, "#nope1"), ("one.md", one, "two.md#nope2"), ("two.md", two, "#nope4"),
            ("two.md", two, "one.md#zzz"),
        ] {
            #expect(
                result.output.contains("\(dir)/\(file):\(place(of: needle, in: text)): "), "\(needle): \(result.output)"
            )
        }
    }

    /// An image without alt text is warned about where its address is written, as a missing
    /// file is: an `<img>` inside an HTML block, not at the block's `<div>`; a Markdown figure,
    /// not at its `!`.
    @Test func missingAltTextIsWarnedAboutAtTheAddress() throws {
        let markdown = """
            Intro.

            <div align="center">
              <img src="no-alt-one.png">
            </div>

            Text.

            ![](no-alt-two.png){width=50%}
            """
        let (_, report) = try Render.markdown(markdown, name: "alt-warning-positions")
        let (one, two) = (place(of: "no-alt-one.png", in: markdown), place(of: "no-alt-two.png", in: markdown))
        // The two alt-text warnings are said as one, at the first, naming the second's place.
        let alt = try #require(report.diagnostics.first { $0.message.contains("has no alt text") })
        #expect(alt.location.map { "\($0.line):\($0.column)" } == one, "\(alt)")
        #expect(alt.message.contains("also at \(two)"), "\(alt.message)")
        let missing = report.diagnostics.filter { $0.message.contains("not found") }
        #expect(missing.compactMap { $0.location.map { "\($0.line):\($0.column)" } }.sorted() == [one, two].sorted())
    }

    /// An address written with escapes — a backslash before punctuation, an entity or numeric
    /// character reference — is found where it is written, though the warning quotes it as
    /// read: in a Markdown image, an HTML block's and a paragraph's `<img>`, and a link.
    @Test func anEscapedAddressIsWarnedAboutWhereItIsWritten() throws {
        let markdown = """
            Intro.

            ![x](a\\_b.png)

            <img src="c&amp;d.png" alt="y">

            A <img src="e&#x26;f.png" alt="z"> inline, and [a link](#no&amp;where) here.

            See ![w](g\\(1\\).png) too.
            """
        let (_, report) = try Render.markdown(markdown, name: "escaped-address-positions")
        let expected: [(quoted: String, written: String)] = [
            ("a_b.png", "a\\_b.png"), ("c&d.png", "c&amp;d.png"), ("e&f.png", "e&#x26;f.png"),
            ("#no&where", "#no&amp;where"), ("g(1).png", "g\\(1\\).png"),
        ]
        let placed = report.diagnostics.flatMap { diagnostic in
            // Coalesced warnings name the places of the others: `also at 7:9 'e&f.png'`.
            [diagnostic.location.map { "\($0.line):\($0.column)" } ?? ""]
                + diagnostic.message.matches(of: /also at (\d+:\d+)/).map { String($0.1) }
        }
        for (quoted, written) in expected {
            #expect(placed.contains(place(of: written, in: markdown)), "\(quoted): \(report.diagnostics)")
        }
    }

    /// An SVG that links to files, which are never read, is warned about at its address,
    /// naming the first file and how many more: a figure and a picture inside a line. One whose
    /// references are its own elements or `data:` URLs is not.
    @Test func anSVGLinkingToFilesIsWarnedAboutAtItsAddress() throws {
        let folder = try Render.scratchFolder("svg-links")
        try """
        <svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><image href="photo.png" width="9" height="9"/>\
        <style>@import "sheet.css";</style></svg>
        """.write(toFile: folder + "/linking.svg", atomically: false, encoding: .utf8)
        try """
        <svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><rect id="r" width="5" height="5"/>\
        <use href="#r"/><image href="data:image/png;base64,AAAA"/></svg>
        """.write(toFile: folder + "/own.svg", atomically: false, encoding: .utf8)
        let markdown = "Intro.\n\n![A figure](linking.svg)\n\nInline ![own](own.svg) and ![again](linking.svg).\n"
        var options = RenderOptions()
        options.baseDirectory = folder
        let (_, report) = try Render.markdown(markdown, name: "svg-links", options: options)
        let warning = try #require(
            report.diagnostics.first { $0.message.contains("links to") }, "\(report.diagnostics)")
        #expect(warning.message.hasPrefix("image 'linking.svg' links to 'photo.png' and 1 more, not drawn"))
        #expect(warning.location.map { "\($0.line):\($0.column)" } == place(of: "linking.svg", in: markdown))
        #expect(warning.message.contains("also at 5:"), "\(warning.message)")
        #expect(!report.diagnostics.contains { $0.message.contains("'own.svg'") }, "\(report.diagnostics)")
    }
}
