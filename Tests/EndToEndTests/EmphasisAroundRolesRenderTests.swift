import Foundation
import TestSupport
import Testing
import Typesetter
import Typography

/// Read back from the PDF: a role span inside strong or emphasis is drawn in the bold or
/// italic face at the role's size, with and without Bold Text, and a code block in a footnote
/// is smaller than the note's text.
@Suite struct EmphasisAroundRolesRenderTests {
    static let markdown = """
        **bold [capx]{.caption} bold** and *ital [capy]{.caption} ital* and [**capz**]{.caption} and \
        [plaincap]{.caption}

        Text with a note.[^1]

        [^1]: Notetext of the note.

            ```
            notecode
            ```

        """

    /// The text operator that draws the start of the word `word`: the last one on the word's
    /// line that starts at or before it. Its font and size.
    func show(_ word: String, words: [PDFWord], shows: [PDFProbe.TextShow]) throws -> PDFProbe.TextShow {
        let box = try #require(words.first { $0.text == word }, "no word '\(word)'")
        let onLine = shows.filter {
            $0.page == box.page && $0.baseline > box.yMin && $0.baseline < box.yMax && $0.x < box.xMin + 0.5
        }
        return try #require(onLine.max { $0.x < $1.x }, "no text operator at \(box)")
    }

    @Test(arguments: [false, true]) func roleSpansKeepTheEmphasisAroundThem(boldText: Bool) throws {
        var options = RenderOptions()
        options.themeRequest = ThemeRequest(boldText: boldText)
        let (pdf, _) = try Render.markdown(Self.markdown, name: "emphasis-around-roles-\(boldText)", options: options)
        let words = try PDFWord.read(pdf)
        let shows = try PDFProbe.textShows(pdf).filter { $0.glyphs > 0 }
        let caption = Theme.default[.caption].size
        let x = try show("capx", words: words, shows: shows)
        let y = try show("capy", words: words, shows: shows)
        let z = try show("capz", words: words, shows: shows)
        let plain = try show("plaincap", words: words, shows: shows)
        for s in [x, y, z, plain] { #expect(abs(s.size - caption) < 0.01, "\(s)") }
        // Caption is Regular (SemiBold under Bold Text); strong is CSS `bolder`: Bold (Black).
        #expect(plain.font == (boldText ? "Inter-SemiBold" : "Inter-Regular"))
        #expect(x.font == (boldText ? "Inter-Black" : "Inter-Bold"), "\(x)")
        #expect(z.font == x.font)
        #expect(y.font == (boldText ? "Inter-SemiBoldItalic" : "Inter-Italic"), "\(y)")
        #expect(try PDFProbe.qpdfClean(pdf))
    }

    @Test func aCodeBlockInANoteIsSmallerThanTheNote() throws {
        let (pdf, _) = try Render.markdown(Self.markdown, name: "code-in-note")
        let words = try PDFWord.read(pdf)
        let shows = try PDFProbe.textShows(pdf).filter { $0.glyphs > 0 }
        let note = try show("Notetext", words: words, shows: shows)
        let code = try show("notecode", words: words, shows: shows)
        #expect(abs(note.size - Theme.default[.caption].size) < 0.01, "\(note)")
        #expect(abs(code.size - 8.1) < 0.01, "0.9 of the 9 pt note: \(code)")
    }
}
