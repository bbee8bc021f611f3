import Foundation
import TestSupport
import Testing

@testable import Typeset

/// Face and glyph warnings name the line and column of the first character that needs the
/// face, in every kind of text — headings, list items, table cells, footnotes — and count
/// columns as every other diagnostic does (UTF-8 bytes, 1-based) across escapes, entities,
/// smart punctuation and soft line breaks written before that character.
@Suite struct FontWarningPositionTests {
    /// An emoji of Unicode 16 (U+1FAE9, face with bags under eyes): no font Debian 12 installs draws it.
    static let undrawn = "\u{1FAE9}"

    /// Line and 1-based UTF-8 column of the first `needle` in `markdown` at or after `after`.
    func position(of needle: String, in markdown: String, after: String = "") -> (line: Int, column: Int) {
        let from = after.isEmpty ? markdown.startIndex : markdown.range(of: after)!.upperBound
        let found = markdown.range(of: needle, range: from..<markdown.endIndex)!.lowerBound
        let before = markdown[..<found]
        let line = before.filter { $0 == "\n" }.count + 1
        let lineStart = before.lastIndex(of: "\n").map { markdown.index(after: $0) } ?? markdown.startIndex
        return (line, markdown[lineStart..<found].utf8.count + 1)
    }

    func warning(_ report: RenderReport, _ fragment: String) -> Diagnostic? {
        report.diagnostics.first { $0.message.contains(fragment) }
    }

    /// A contents entry's warning (a character its font lacks, met first in the contents, which
    /// come before the heading) points at the heading it lists.
    @Test func aContentsEntryWarnsAtItsHeading() throws {
        let markdown = "# Title\n\nIntro.\n\n## Faces \(Self.undrawn) here\n\nBody.\n"
        var options = RenderOptions()
        options.tableOfContents = true
        let (_, report) = try Render.markdown(markdown, name: "position-contents", options: options)
        let tofu = report.diagnostics.filter { $0.message.hasPrefix("no installed font draws") }
        #expect(!tofu.isEmpty && tofu.allSatisfy { $0.location?.line == 5 }, "\(report.diagnostics)")
    }

    /// A family the user swaps in (`--family`, `mainfont`) that has no bold is named in a
    /// warning where bold is first needed, as the weights of any family a document asks for
    /// are: the theme's own families are judged by `theme check`, this one by nobody else. A
    /// family of one Regular face, made from DejaVu Serif and registered from a folder.
    @Test func aSwappedFamilyWithoutBoldIsNamed() throws {
        let folder = try Render.scratchFolder("swapped-family")
        let family = "Zorkle Serif \(UUID().uuidString.prefix(6))"
        try Support.renamedFont(at: "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf", family: family)
            .write(to: URL(fileURLWithPath: folder + "/Zorkle.ttf"))
        let markdown = "Body text first.\n\n# A heading\n\nSome **bold** words.\n"
        var options = RenderOptions()
        options.themeRequest = ThemeRequest(fontFolders: [folder], family: family)
        let (_, report) = try Render.markdown(markdown, name: "swapped-family-bold", options: options)
        let found = try #require(warning(report, "'\(family)' has no face of weight"), "\(report.diagnostics)")
        #expect(found.message.hasSuffix("bold synthesized (its lighter face emboldened)"), "\(found)")
        #expect(found.location?.line == 3, "\(found)")
    }

    @Test func aWeightTheFamilyLacksInAHeading() throws {
        // DejaVu Serif has no Light face; the span is the heading's second run.
        let markdown = "# Intro \\[1\\] &amp; [light words]{weight=300 family=\"DejaVu Serif\"}\n\nBody.\n"
        let (_, report) = try Render.markdown(markdown, name: "position-heading-weight")
        let found = try #require(warning(report, "'DejaVu Serif' lacks weight 300"), "\(report.diagnostics)")
        let expected = position(of: "light", in: markdown)
        #expect(found.location?.line == expected.line && found.location?.column == expected.column, "\(found)")
    }

    @Test func aFallbackFaceIsPlacedAtItsFirstCharacter() throws {
        // A light span is Latin up to the Hangul word: Noto Sans CJK KR (Regular and Bold only)
        // is needed from there. (A weight the theme's own roles ask for is not warned about.)
        let markdown = "Text first.\n\n[\"Quoted\" -- and... then 한국어 제목]{weight=300}\n"
        let (_, report) = try Render.markdown(markdown, name: "position-heading-fallback")
        let found = try #require(warning(report, "'Noto Sans CJK KR' lacks weight"), "\(report.diagnostics)")
        let expected = position(of: "한", in: markdown)
        #expect(found.location?.line == expected.line && found.location?.column == expected.column, "\(found)")
    }

    /// A weight an attribute asks for is warned about when a family lacks it, even when it is
    /// a weight the theme's strong emphasis also makes (700 on body text, 900 on bold): members
    /// `weight=900`, `weight=black`, `weight=bold` on a role whose family has no bold inside
    /// `**…**`. The cascade's own weights are still not: `***강조***` and a semibold role.
    @Test(arguments: ["[한글]{weight=900}", "[한글]{weight=black}", "**[한글]{weight=900}**"])
    func aWeightAnAttributeAsksForIsWarnedAboutLikeAnyOther(_ span: String) throws {
        let markdown = "Text first.\n\nThen \(span) and ***강조*** here.\n"
        let (_, report) = try Render.markdown(markdown, name: "attribute-weight-900")
        let found = try #require(warning(report, "'Noto Sans CJK KR' lacks weight 900"), "\(report.diagnostics)")
        #expect(found.location?.column == position(of: "한", in: markdown).column, "\(found)")
        #expect(report.diagnostics.count == 1, "\(report.diagnostics)")
    }

    /// A family of Hangul and Han faces without an italic (Noto Serif CJK KR) slants its Latin
    /// letters for emphasis: named in a warning at the first Latin letter set in italics, even
    /// after italic Hangul, which is never warned about (its faces have none). Members: Latin
    /// after Korean italics, Latin alone, Greek.
    @Test(arguments: [
        ("*한글 기울임* then *Latin italic*", "Latin"), ("*Latin italic* only", "Latin"), ("*한글* and *λόγος*", "λ"),
    ])
    func latinItalicInAKoreanFamilyIsNamed(_ text: String, _ first: String) throws {
        let markdown = "Text first.\n\n\(text) here.\n"
        var options = RenderOptions()
        options.themeRequest = ThemeRequest(family: "Noto Serif CJK KR")
        let (_, report) = try Render.markdown(markdown, name: "cjk-latin-italic", options: options)
        let found = try #require(
            warning(report, "no italic in 'Noto Serif CJK KR': italic synthesized"), "\(report.diagnostics)")
        let expected = position(of: first, in: markdown)
        #expect(found.location?.line == expected.line && found.location?.column == expected.column, "\(found)")
        let (_, korean) = try Render.markdown(
            "Text first.\n\n*한글 기울임* here.\n", name: "cjk-hangul-italic", options: options)
        #expect(!korean.diagnostics.contains { $0.message.contains("italic") }, "\(korean.diagnostics)")
    }

    /// An emoji is set in the emoji face, not in the theme's Korean fallback: in italics or in
    /// a light span it raises no warning about the Korean face's weights; Hangul in a light span
    /// still does, at its first syllable (Hangul in italics does not: its faces have none).
    @Test func anEmojiNeedsNoFallbackFace() throws {
        for markdown in ["A *😀* b and [🎉 light]{weight=300}.\n", "*Italic 😀 text*\n"] {
            let (_, report) = try Render.markdown(markdown, name: "emoji-no-fallback")
            #expect(!report.diagnostics.contains { $0.message.contains("Noto Sans CJK") }, "\(report.diagnostics)")
        }
        let markdown = "A [😀 한국어]{weight=300} b.\n"
        let (_, report) = try Render.markdown(markdown, name: "emoji-then-hangul")
        let found = try #require(warning(report, "'Noto Sans CJK KR' lacks weight"), "\(report.diagnostics)")
        #expect(found.location?.column == position(of: "한", in: markdown).column, "\(found)")
    }

    @Test func anEmojiInAListItemAndInATableCell() throws {
        let markdown = """
            Intro paragraph.

            - first item
            - second *item* with `code` and
              a soft break, then \(Self.undrawn) here

            | Name | Note |
            | --- | --- |
            | a [link](https://example.com/\(Self.undrawn)) | plain |
            | b | x &lt; y \(Self.undrawn)\(Self.undrawn) |

            """
        let (_, report) = try Render.markdown(markdown, name: "position-emoji")
        let tofu = report.diagnostics.filter { $0.message.hasPrefix("no installed font draws") }
        // The list item is the first block that shows it: one warning, at the character.
        #expect(tofu.count == 1, "\(report.diagnostics)")
        let expected = position(of: Self.undrawn, in: markdown)
        #expect(
            tofu.first?.location?.line == expected.line && tofu.first?.location?.column == expected.column, "\(tofu)")

        // Alone in a table, it is placed in its cell (not in the link's destination).
        let table =
            "Intro.\n\n| Name | Note |\n| --- | --- |\n| a [link](https://example.com/\(Self.undrawn)) | plain |\n| b "
            + "| x &lt; y \(Self.undrawn) |\n"
        let (_, tableReport) = try Render.markdown(table, name: "position-emoji-table")
        let cell = try #require(warning(tableReport, "no installed font draws"), "\(tableReport.diagnostics)")
        let inCell = position(of: Self.undrawn, in: table, after: "x &lt; y")
        #expect(cell.location?.line == inCell.line && cell.location?.column == inCell.column, "\(cell)")
    }

    @Test func linkTextInANestedListItem() throws {
        let markdown =
            "- outer item\n\n  1. see <https://example.com/a> and "
            + "[the [한국어 링크]{weight=300}](https://example.com/b) end\n"
        let (_, report) = try Render.markdown(markdown, name: "position-link-text")
        let found = try #require(warning(report, "'Noto Sans CJK KR' lacks weight"), "\(report.diagnostics)")
        let expected = position(of: "한", in: markdown)
        #expect(found.location?.line == expected.line && found.location?.column == expected.column, "\(found)")
    }

    @Test func aHangulWordInAFootnote() throws {
        let markdown = "Body text with a note.[^n]\n\nMore body.\n\n[^n]: See [‘quoted’ 한글 가볍게]{weight=300} here.\n"
        let (_, report) = try Render.markdown(markdown, name: "position-footnote")
        let found = try #require(warning(report, "'Noto Sans CJK KR' lacks weight"), "\(report.diagnostics)")
        let expected = position(of: "한글", in: markdown)
        #expect(found.location?.line == expected.line && found.location?.column == expected.column, "\(found)")
    }

    @Test func aRunningFootNamesItsFrontMatterField() throws {
        let markdown = "---\nfooter: \"{page} \(Self.undrawn)\"\n---\n\nBody.\n"
        let (_, report) = try Render.markdown(markdown, name: "position-footer")
        let found = try #require(warning(report, "in a running head or foot"), "\(report.diagnostics)")
        #expect(found.location?.line == 2, "\(found)")
    }
}
