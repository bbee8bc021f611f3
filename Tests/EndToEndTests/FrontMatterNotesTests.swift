import Foundation
import TestSupport
import Testing

/// Front matter loses no text: a note `^[…]` in a value the title block sets is set as a
/// footnote, numbered before the body's notes in the title block's order (as Pandoc's LaTeX sets
/// `\thanks`), and a YAML shape a text value cannot show (a mapping in a list, a key that is a
/// list or a mapping) is warned about at its line and column; all read back from the PDF.
@Suite(.serialized) struct FrontMatterNotesTests {
    /// The words of `pdf`'s text, in reading order.
    func words(_ pdf: String) throws -> [String] {
        try PDFProbe.text(pdf).split(whereSeparator: { $0.isWhitespace }).map(String.init)
    }

    /// The number printed before `note` at the foot of the page (the word before it).
    func number(of note: String, in words: [String]) -> String? {
        guard let index = words.lastIndex(of: note), index > 0 else { return nil }
        return words[index - 1]
    }

    /// A problem inside a value the title block sets (an unknown math command, a picture that
    /// cannot be read) is warned about where it is written: in a one-line value, at its
    /// column; in a literal block, at its own line and column (also with `smart: false`, whose
    /// reading shifts the value's lines); in a quoted value, at the value. Before, the one-line
    /// values' problems were not said at all and the abstract's were at its key.
    @Test(arguments: [false, true])
    func aProblemInAValueIsPlacedWhereItIsWritten(smartOff: Bool) throws {
        let markdown = """
            ---
            title: A $\\alpah$ title
            author: B ![x](no-such-picture.png)
            date: 'Quoted $\\gammma$'
            abstract: |
              First line.

              Second line with $\\betaa$.
            \(smartOff ? "smart: false\n" : "")---

            Body.
            """
        let (_, report) = try Render.markdown(markdown, name: "front-matter-places-\(smartOff)")
        let places = report.diagnostics.compactMap { warning in
            warning.location.map { "\($0.line):\($0.column) \(warning.message)" }
        }
        for expected in [
            "2:11 front matter 'title': unknown math command", "3:11 front matter 'author': image",
            "4:7 front matter 'date': unknown math command", "8:21 front matter 'abstract': unknown math command",
        ] {
            #expect(places.contains { $0.hasPrefix(expected) }, "\(expected) in \(places)")
        }
    }

    @Test(arguments: ["title", "subtitle", "author", "date", "abstract"])
    func aNoteInAFieldIsSetAsTheFirstFootnote(field: String) throws {
        let markdown = """
            ---
            \(field): "Value^[FIELDNOTE] here"
            ---

            Body[^a] text^[INLINENOTE].

            [^a]: BODYNOTE
            """
        let (pdf, report) = try Render.markdown(markdown, name: "front-matter-note-\(field)")
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics)")
        let words = try words(pdf)
        // The field's note is set, first; the body's notes follow it, none of them numbered 1.
        #expect(number(of: "FIELDNOTE", in: words) == "1", "\(words)")
        #expect(number(of: "BODYNOTE", in: words) == "2", "\(words)")
        #expect(number(of: "INLINENOTE", in: words) == "3", "\(words)")
        #expect(words.contains("Value1") && words.contains("Body2") && words.contains("text3."), "\(words)")
        #expect(!words.joined().contains("^["), "\(words)")
    }

    @Test func notesOfEveryFieldAreNumberedInTheTitleBlocksOrder() throws {
        let markdown = """
            ---
            title: "T^[TITLENOTE]"
            subtitle: "S^[SUBTITLENOTE]"
            author: "A^[AUTHORNOTE]"
            date: "D^[DATENOTE]"
            abstract: "First^[ABSTRACTNOTE].\\n\\nSecond^[SECONDNOTE]."
            ---

            Body[^a].

            [^a]: BODYNOTE
            """
        let (pdf, report) = try Render.markdown(markdown, name: "front-matter-notes-order")
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics)")
        let words = try words(pdf)
        let notes = ["TITLENOTE", "SUBTITLENOTE", "AUTHORNOTE", "DATENOTE", "ABSTRACTNOTE", "SECONDNOTE", "BODYNOTE"]
        for (index, note) in notes.enumerated() {
            #expect(number(of: note, in: words) == "\(index + 1)", "\(note): \(words)")
        }
        // Each is a Note in the tagged structure.
        let tagged = try AccessibilityTests.structure(pdf).all.filter { $0.name == "Note" }.map(\.text)
        #expect(tagged.count == notes.count, "\(tagged)")
        // The PDF's title and author are the values' text without their notes (Pandoc's stringify).
        let info = try PDFProbe.info(pdf)
        #expect(info["Title"] == "T" && info["Author"] == "A", "\(info)")
    }

    @Test func aNoteInATitleThatIsTheOpeningHeadingIsSet() throws {
        let markdown = """
            ---
            title: "Heading^[TITLENOTE]"
            ---

            # Heading

            Body^[BODYNOTE].
            """
        let (pdf, _) = try Render.markdown(markdown, name: "front-matter-note-opening")
        let words = try words(pdf)
        #expect(number(of: "TITLENOTE", in: words) == "1", "\(words)")
        #expect(number(of: "BODYNOTE", in: words) == "2", "\(words)")
    }

    @Test(arguments: ["title", "author", "abstract"])
    func aLabelledReferenceInAFieldIsKeptAndWarnedAbout(field: String) throws {
        let markdown = """
            ---
            \(field): "Value[^t] here"
            ---

            Body[^t].

            [^t]: BODYNOTE
            """
        let (pdf, report) = try Render.markdown(markdown, name: "front-matter-labelled-\(field)")
        let words = try words(pdf)
        #expect(words.contains("Value[^t]"), "\(words)")
        #expect(number(of: "BODYNOTE", in: words) == "1", "\(words)")
        let warning = try #require(report.diagnostics.first { $0.message.contains("'[^t]'") }, "\(report.diagnostics)")
        #expect(warning.message.contains(field) && warning.message.contains("^[…]"), "\(warning)")
        #expect(warning.location?.line == 2 && warning.location?.column == field.count + 3, "\(warning)")
    }

    /// A value, the words the PDF (or its keywords) must show, and where a warning must be
    /// when a part of it is not shown (nil: everything is shown, and nothing is said).
    struct Shape: Sendable, CustomStringConvertible {
        var yaml: String
        var shown: [String]
        var warnedAt: (line: Int, column: Int, quoting: String)?
        var description: String { yaml }
    }

    static let shapes: [Shape] = [
        Shape(yaml: "abstract: [alpha, {bkey: cval}]", shown: ["alpha,", "cval"], warnedAt: (2, 19, "'bkey'")),
        Shape(yaml: "title: [alpha, {bkey: [cval, dval]}]", shown: ["cval,", "dval"], warnedAt: (2, 16, "'bkey'")),
        Shape(yaml: "subtitle: [alpha, !!set {pkey, qkey}]", shown: ["alpha"], warnedAt: (2, 19, "'pkey', 'qkey'")),
        Shape(yaml: "date: [[alpha, {bkey: cval}]]", shown: ["alpha,", "cval"], warnedAt: (2, 16, "'bkey'")),
        Shape(yaml: "author: [alpha, {name: Nname, affiliation: X}]", shown: ["alpha,", "Nname"], warnedAt: nil),
        Shape(yaml: "title: [alpha, [beta, gamma]]", shown: ["alpha,", "beta,", "gamma"], warnedAt: nil),
        Shape(yaml: "title: [alpha, {[kkey]: vval}]", shown: ["alpha,", "vval"], warnedAt: (2, 17, "a list or")),
        Shape(yaml: "abstract: {bkey: cval}", shown: [], warnedAt: (2, 11, "not a mapping")),
    ]

    @Test(arguments: shapes)
    func aShapeATextCannotShowIsWarnedAboutWhereItIsWritten(shape: Shape) throws {
        let markdown = "---\n\(shape.yaml)\n---\n\nBody text.\n"
        let (pdf, report) = try Render.markdown(markdown, name: "front-matter-shape")
        let words = try words(pdf)
        for word in shape.shown { #expect(words.contains(word), "\(word) in \(words)") }
        let warnings = report.diagnostics.filter { $0.kind == .frontMatter }
        if let place = shape.warnedAt {
            let warning = try #require(warnings.first, "a warning for \(shape.yaml)")
            #expect(warning.location?.line == place.line && warning.location?.column == place.column, "\(warning)")
            #expect(warning.message.contains(place.quoting), "\(warning)")
        } else {
            #expect(warnings.isEmpty, "\(warnings)")
        }
    }

    @Test func aMappingInKeywordsIsWarnedAbout() throws {
        let markdown = "---\nkeywords: [alpha, {bkey: cval}]\n---\n\nBody text.\n"
        let (pdf, report) = try Render.markdown(markdown, name: "front-matter-keywords-shape")
        #expect(try PDFProbe.info(pdf)["Keywords"] == "alpha, cval")
        let warning = try #require(report.diagnostics.first { $0.kind == .frontMatter }, "\(report.diagnostics)")
        #expect(warning.location?.line == 2 && warning.location?.column == 19 && warning.message.contains("'bkey'"))
    }

    /// A key that is a list or a mapping (YAML's complex key) was read as a scalar: the
    /// process asked for petabytes and stopped. Run as the command line so that a crash fails
    /// the test, not the test process.
    @Test(arguments: ["margins: {[top]: 1in}", "x-unused: {[a]: b}", "title: [{? {a: b} : c}]"])
    func aKeyThatIsAListOrAMappingIsNeverReadAsText(yaml: String) throws {
        let folder = try Render.scratchFolder("complex-key")
        try write("---\n\(yaml)\n---\n\nBody text.\n", folder + "/in.md")
        let result = try PDFProbe.run(Render.binary, ["render", folder + "/in.md", "-o", folder + "/out.pdf"])
        #expect(result.status == 0, "\(result.output)")
        #expect(try PDFProbe.text(folder + "/out.pdf").contains("Body text."))
        if !yaml.hasPrefix("x-unused") {
            #expect(result.output.contains("in.md:2:"), "\(result.output)")
        }
    }
}
