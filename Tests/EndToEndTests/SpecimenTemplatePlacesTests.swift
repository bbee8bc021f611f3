import Foundation
import TestSupport
import Testing

/// A specimen's warnings about the Markdown its template expands to point at the template as
/// written (`typeset specimen --template`): a character the template wrote at its own line and
/// column, a value at the tag that inserted it; a section's body repeated for every role names
/// its place once; `--strict` errors the same.
@Suite struct SpecimenTemplatePlacesTests {
    static let template = """
        ---
        title: Places
        ---

        {{! one line a role }}
        {{#roles}}
        The {{name}} role: ![sample](missing-{{key}}.png) and [x]{weight=950}.
        {{/roles}}

        Tail [y]{.caption weight=abc} and {{{tailWeight}}}.

        """

    /// `file:line:column` of the first character of `fragment` on 1-based `line` of the template.
    static func place(of fragment: String, line: Int, in file: String) throws -> String {
        let text = template.split(separator: "\n", omittingEmptySubsequences: false)[line - 1]
        let range = try #require(text.range(of: fragment))
        return "\(file):\(line):\(text[..<range.lowerBound].utf8.count + 1)"
    }

    @Test func warningsPointAtTheTemplateAsWritten() throws {
        let folder = try Render.scratchFolder("specimen-places")
        let file = folder + "/places.md"
        try write(Self.template, file)
        let run = try typeset(["specimen", "--template", file, "-o", folder + "/places.pdf"])
        #expect(run.status == 0, "\(run.output)")
        let lines = run.output.split(separator: "\n").map(String.init)
        // Each image is placed where its address is written.
        let image = try Self.place(of: "missing-{{key}}", line: 7, in: file)
        let images = lines.filter { $0.contains("could not be read") }
        #expect(images.count == 1 && images[0].hasPrefix(image + ": warning: image 'missing-display.png'"), "\(lines)")
        // Every role's image is on template line 7, at the same column, each naming its own file.
        let also = String(image.split(separator: ":").dropFirst().joined(separator: ":"))
        #expect(
            images.first?.contains("(10 like this in all; also at \(also) 'missing-largeTitle.png', \(also) ") == true,
            "\(images)")
        // The span's text, whose face lacks the weight, and the attribute that is wrong.
        let weight = try Self.place(of: "x]{weight", line: 7, in: file)
        #expect(lines.contains { $0.hasPrefix(weight + ": warning: 'Inter' lacks weight 950") }, "\(lines)")
        let attribute = try Self.place(of: "weight=abc", line: 10, in: file)
        #expect(lines.contains { $0.hasPrefix(attribute) && $0.contains("not 'abc'") }, "\(lines)")
        let unknown = try Self.place(of: "{{{tailWeight}}}", line: 10, in: file)
        #expect(lines.contains { $0.hasPrefix(unknown + ": warning: unknown template name 'tailWeight'") }, "\(lines)")
        // No place past the template's last line.
        let count = Self.template.split(separator: "\n", omittingEmptySubsequences: false).count
        for line in lines {
            guard line.hasPrefix(file + ":"), let number = Int(line.dropFirst(file.count + 1).prefix { $0.isNumber })
            else { continue }
            #expect(number <= count, "\(line)")
        }

        let strict = try typeset(["specimen", "--template", file, "-o", folder + "/strict.pdf", "--strict"])
        #expect(strict.status != 0)
        #expect(strict.output.contains(image + ": warning: image 'missing-display.png'"), "\(strict.output)")
        #expect(strict.output.contains(weight + ": warning: 'Inter' lacks weight 950"), "\(strict.output)")
    }

    /// The sheet of the default template warns nothing at a line past the template's end (its
    /// expansion is several times as long).
    @Test func theDefaultSheetsWarningsAreInsideTheTemplate() throws {
        let folder = try Render.scratchFolder("specimen-default-places")
        let run = try typeset(["specimen", "-o", folder + "/sheet.pdf"])
        #expect(run.status == 0, "\(run.output)")
        let lineCount = try String(contentsOfFile: Render.packageRoot + "/templates/specimen.md", encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).count
        for line in run.output.split(separator: "\n") where line.contains("specimen.md:") {
            let after = line.split(separator: ":").dropFirst().first { Int($0) != nil }
            let number = try #require(after.flatMap { Int($0) }, "\(line)")
            #expect(number <= lineCount, "\(line)")
        }
    }

    /// The sample text (`--text`) is the user's, set as written: Markdown, math, notes, HTML,
    /// entities and smart punctuation in it are its characters, and one that no PDF can hold is
    /// replaced with a warning about the option, not at the template's lines that set it.
    @Test func theSampleTextIsSetAsWritten() throws {
        let folder = try Render.scratchFolder("specimen-sample-text")
        let sample = "[^9] *a* $x$ <b>c</b> -- \"q\" &amp; 1. ^s^ x\u{01}y"
        let run = try typeset(["specimen", "--text", sample, "-o", folder + "/sheet.pdf"])
        #expect(run.status == 0, "\(run.output)")
        let warnings = run.output.split(separator: "\n").filter {
            $0.contains("warning:") && !$0.contains("lacks weight")
        }
        #expect(warnings.count == 1, "\(warnings)")
        #expect(
            warnings.first.map { $0.hasPrefix("typeset: warning: the sample text (--text)") && $0.contains("U+0001") }
                ?? false, "\(warnings)")
        let text = try PDFProbe.text(folder + "/sheet.pdf")
        #expect(text.contains("[^9] *a* $x$ <b>c</b> -- \"q\" &amp; 1. ^s^ x\u{FFFD}y"), "\(text.prefix(2000))")
    }
}
