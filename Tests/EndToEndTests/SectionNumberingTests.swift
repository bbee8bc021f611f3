import Foundation
import TestSupport
import Testing

/// `--number-sections` and `--toc-depth` as Pandoc's users know them, read back from the PDF:
/// the numbers in the headings' text, in the contents and in the bookmarks.
@Suite(.serialized) struct SectionNumberingTests {
    static let manual = """
        # The Manual

        Intro text.

        ## Getting started

        ### Install {#install}

        See [the reference](#reference).

        ### Configure

        ## Preface {-}

        ### Under the preface

        ## Usage {.unnumbered .unlisted}

        ## Reference

        #### Skipped a level

        > ## Quoted heading

        ::: note
        ## Heading in a div
        :::
        """

    func render(_ markdown: String, _ name: String, _ options: [String]) throws -> (pdf: String, output: String) {
        let dir = try Render.scratchFolder("sections")
        try markdown.write(toFile: dir + "/\(name).md", atomically: false, encoding: .utf8)
        let pdf = dir + "/\(name).pdf"
        let run = try typeset(["render", dir + "/\(name).md", "-o", pdf] + options)
        #expect(run.status == 0, "\(run.output)")
        return (pdf, run.output)
    }

    /// Lines of the PDF's text with runs of white space made one space.
    func lines(_ pdf: String) throws -> [String] {
        try PDFProbe.text(pdf).split(separator: "\n").map {
            $0.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        }.filter { !$0.isEmpty }
    }

    @Test func headingsContentsAndBookmarksCarryTheNumbers() throws {
        let (pdf, output) = try render(Self.manual, "numbered", ["--number-sections", "--toc", "--strict"])
        #expect(!output.contains("warning"), "\(output)")
        let text = try lines(pdf)
        // The opening title is not numbered; numbering starts at the shallowest level (##).
        #expect(text.first == "The Manual")
        for heading in [
            "1 Getting started", "1.1 Install", "1.2 Configure", "Preface", "1.3 Under the preface", "Usage",
            "2 Reference", "2.0.1 Skipped a level", "Quoted heading", "3 Heading in a div",
        ] {
            #expect(text.contains(heading), "heading '\(heading)' in \(text)")
        }
        // The contents: numbered entries, the unlisted one left out.
        let contents = text.drop { $0 != "Contents" }.prefix { $0 != "Intro text." }.joined(separator: "\n")
        #expect(contents.contains("1.1 Install") && contents.contains("2 Reference"), "\(contents)")
        #expect(contents.contains("Preface") && !contents.contains("Usage"), "\(contents)")
        #expect(!contents.contains("Skipped a level"), "level 4 is below the default depth 3: \(contents)")
        // The bookmarks: numbered too, every level, the unlisted heading included.
        let roots = try #require(try QDF(pdf).outline())
        let titles = flatten(roots)
        #expect(titles.contains("1.1 Install") && titles.contains("2.0.1 Skipped a level"), "\(titles)")
        #expect(titles.contains("Usage") && titles.contains("Preface"), "\(titles)")
        // Ids are made from the title alone: the link to #reference still resolves (no warning above).
    }

    /// A document of several level-1 headings has no one title: its opening `#` heading is a
    /// section like the others, numbered, in the contents and the bookmarks alike, whether the
    /// next `#` is at the top level or in a div.
    @Test(arguments: ["# Part B", "::: note\n# Part B\n:::"])
    func severalLevelOneHeadingsAreAllSections(second: String) throws {
        let markdown = "# Part A\n\nText.\n\n## Install\n\n\(second)\n\n## Usage\n"
        let name = second.hasPrefix("#") ? "parts" : "parts-div"
        let (pdf, _) = try render(markdown, name, ["--number-sections", "--toc"])
        let text = try lines(pdf)
        #expect(text.first == "Contents", "no title above the contents: \(text)")
        for heading in ["1 Part A", "1.1 Install", "2 Part B", "2.1 Usage"] {
            #expect(
                text.filter { $0.hasPrefix(heading) }.count == 2, "'\(heading)' in the contents and the text: \(text)")
        }
        let titles = flatten(try #require(try QDF(pdf).outline()))
        #expect(titles == ["1 Part A", "1.1 Install", "2 Part B", "2.1 Usage"], "\(titles)")
        // Unnumbered, the contents and the bookmarks still agree: Part A is listed in both.
        let (plain, _) = try render(markdown, name + "-plain", ["--toc"])
        let contents = try lines(plain).drop { $0 != "Contents" }.prefix { $0 != "Text." }
        #expect(contents.contains { $0.hasPrefix("Part A") }, "\(contents)")
        #expect(flatten(try #require(try QDF(plain).outline())).first == "Part A")
    }

    @Test func withoutTheOptionNothingIsNumberedAndBracesStayOut() throws {
        let (pdf, _) = try render(Self.manual, "plain", ["--toc"])
        let text = try lines(pdf)
        #expect(text.contains("Getting started") && text.contains("Preface") && text.contains("Usage"), "\(text)")
        #expect(!text.contains { $0.contains("{") || $0.hasPrefix("1 ") }, "\(text)")
    }

    @Test func frontMatterAndTocDepth() throws {
        let front = "---\nnumber-sections: true\ntoc: true\ntoc-depth: 2\n---\n\n" + Self.manual
        let (pdf, _) = try render(front, "front", [])
        let text = try lines(pdf)
        #expect(text.contains("1.1 Install"), "\(text)")
        let contents = text.drop { $0 != "Contents" }.prefix { $0 != "Intro text." }.joined(separator: "\n")
        #expect(contents.contains("1 Getting started") && !contents.contains("Install"), "depth 2: \(contents)")
        let titles = flatten(try #require(try QDF(pdf).outline()))
        #expect(titles.contains("1.1 Install"), "bookmarks keep every level: \(titles)")
        // The command line wins over the front matter; Pandoc's LaTeX variable name is read too.
        let (deeper, _) = try render(front, "deeper", ["--toc-depth", "3"])
        #expect(try lines(deeper).drop { $0 != "Contents" }.contains { $0.hasPrefix("1.1 Install") })
        let latex = "---\nnumbersections: true\n---\n\n## One\n\n## Two\n"
        #expect(try lines(try render(latex, "latex", ["--strict"]).pdf).contains("2 Two"))
    }

    @Test func badDepthsAreUsageErrors() throws {
        let dir = try Render.scratchFolder("sections-bad")
        try "# A\n".write(toFile: dir + "/a.md", atomically: false, encoding: .utf8)
        for arguments in [
            ["--toc-depth", "0"], ["--toc-depth", "x"], ["-V", "toc-depth=9"], ["-V", "number-sections=maybe"],
        ] {
            let run = try typeset(["render", dir + "/a.md", "-o", dir + "/a.pdf"] + arguments)
            #expect(run.status == 2, "\(arguments): \(run.output)")
        }
        try "---\ntoc-depth: 12\n---\n# A\n".write(toFile: dir + "/b.md", atomically: false, encoding: .utf8)
        let front = try typeset(["render", dir + "/b.md", "-o", dir + "/b.pdf"])
        #expect(front.output.contains("b.md:2:12: warning: front matter 'toc-depth'"), "\(front.output)")
    }

    func flatten(_ items: [QDF.OutlineItem]) -> [String] {
        items.flatMap { [$0.title] + flatten($0.children) }
    }
}
