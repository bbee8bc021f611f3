import Foundation
import Testing

/// The `typeset` executable: exit statuses, one-line messages, and no partial output.
@Suite(.serialized) struct CommandLineTests {
    func typeset(_ arguments: [String], stdin: Data? = nil) throws -> (status: Int32, output: String) {
        try Render.typeset(arguments, stdin: stdin)
    }

    func temporaryFolder() throws -> String { try Render.scratchFolder("cli") }

    func contents(_ folder: String) -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] }

    @Test func rendersAFileAndReportsPages() throws {
        let dir = try temporaryFolder()
        try "# Hello\n\n안녕하세요, world.".write(toFile: dir + "/doc.md", atomically: true, encoding: .utf8)
        let result = try typeset(["render", dir + "/doc.md", "-o", dir + "/doc.pdf"])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("1 page"))
        #expect(try PDFProbe.text(dir + "/doc.pdf").contains("안녕하세요"))
        #expect(contents(dir).sorted() == ["doc.md", "doc.pdf"], "no temporary file left")
    }

    @Test func standardInputToStandardOutput() throws {
        let result = try PDFProbe.run(Render.binary, ["render", "-", "-o", "-"], stdin: Data("# Piped\n\nText".utf8))
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("%PDF-"))
    }

    @Test func missingInputIsOneLineAndExit1() throws {
        let dir = try temporaryFolder()
        let result = try typeset(["render", dir + "/nope.md", "-o", dir + "/nope.pdf"])
        #expect(result.status == 1)
        #expect(result.output.split(separator: "\n").count == 1)
        #expect(result.output.contains("nope.md"))
        #expect(contents(dir).isEmpty)
    }

    @Test func missingOutputFolderIsAnErrorAndLeavesNothing() throws {
        let dir = try temporaryFolder()
        try "# Hi".write(toFile: dir + "/a.md", atomically: true, encoding: .utf8)
        let result = try typeset(["render", dir + "/a.md", "-o", dir + "/missing/a.pdf"])
        #expect(result.status == 1)
        #expect(result.output.contains("missing"))
        #expect(contents(dir) == ["a.md"])
    }

    @Test func invalidUTF8NamesTheLine() throws {
        let dir = try temporaryFolder()
        var bytes = Array("# Title\n\nok line\n".utf8)
        bytes += [0x62, 0x61, 0x64, 0xFF, 0xFE, 0x0A]
        #expect(FileManager.default.createFile(atPath: dir + "/bad.md", contents: Data(bytes)))
        let result = try typeset(["render", dir + "/bad.md", "-o", dir + "/bad.pdf"])
        #expect(result.status == 1)
        #expect(result.output.contains("bad.md:4:"), "\(result.output)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/bad.pdf"))
    }

    @Test func existingOutputSurvivesAFailedRun() throws {
        let dir = try temporaryFolder()
        try "old".write(toFile: dir + "/out.pdf", atomically: true, encoding: .utf8)
        try "Text with [a span]{.nosuchrole}.".write(toFile: dir + "/w.md", atomically: true, encoding: .utf8)
        let result = try typeset(["render", dir + "/w.md", "-o", dir + "/out.pdf", "--strict"])
        #expect(result.status == 1)
        #expect(result.output.contains("w.md:1:"), "\(result.output)")
        #expect(try String(contentsOfFile: dir + "/out.pdf", encoding: .utf8) == "old")
        #expect(contents(dir).sorted() == ["out.pdf", "w.md"])
    }

    @Test func symbolicLinksAreFollowedAndDevicesWrittenThrough() throws {
        let dir = try temporaryFolder()
        try "# Hi".write(toFile: dir + "/a.md", atomically: true, encoding: .utf8)
        try "old".write(toFile: dir + "/real.pdf", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: dir + "/link.pdf", withDestinationPath: "real.pdf")
        #expect(try typeset(["render", dir + "/a.md", "-o", dir + "/link.pdf"]).status == 0)
        let linkType = try FileManager.default.attributesOfItem(atPath: dir + "/link.pdf")[.type] as? FileAttributeType
        #expect(linkType == .typeSymbolicLink, "the link survives")
        #expect(try String(contentsOfFile: dir + "/real.pdf", encoding: .isoLatin1).hasPrefix("%PDF-"), "the file it names is replaced")
        // A device is written through, never replaced by a regular file.
        #expect(try typeset(["render", dir + "/a.md", "-o", "/dev/null"]).status == 0)
        let nullType = try FileManager.default.attributesOfItem(atPath: "/dev/null")[.type] as? FileAttributeType
        #expect(nullType == .typeCharacterSpecial)
        #expect(contents(dir).sorted() == ["a.md", "link.pdf", "real.pdf"], "no temporary file left")
    }

    @Test func aPageWithNoRoomForTextIsAnError() throws {
        let dir = try temporaryFolder()
        try "---\nmargins: 300mm\n---\n# Hi".write(toFile: dir + "/m.md", atomically: true, encoding: .utf8)
        let margins = try typeset(["render", dir + "/m.md", "-o", dir + "/m.pdf"])
        #expect(margins.status == 1 && margins.output.hasPrefix(dir + "/m.md:2:1: front matter 'margins': paper") && margins.output.contains("at least 72 × 72 pt"),
                "\(margins.output)")
        // Given as an option, the same page is a usage error naming the option.
        let paper = try typeset(["render", dir + "/m.md", "-o", dir + "/m.pdf", "--paper", "1mm x 1mm"])
        #expect(paper.status == 2 && paper.output.contains("--paper '1mm x 1mm'"), "\(paper.output)")
        #expect(contents(dir) == ["m.md"])
    }

    @Test func outputSafetyForEveryCommand() throws {
        let dir = try temporaryFolder()
        try "# Hi".write(toFile: dir + "/a.md", atomically: true, encoding: .utf8)
        // The output may not be the input.
        let same = try typeset(["render", dir + "/a.md", "-o", dir + "/a.md"])
        #expect(same.status == 1 && same.output.contains("it is the input file"))
        #expect(try String(contentsOfFile: dir + "/a.md", encoding: .utf8) == "# Hi")
        // A dangling symbolic link creates its target.
        try FileManager.default.createSymbolicLink(atPath: dir + "/dangling.pdf", withDestinationPath: "new.pdf")
        #expect(try typeset(["render", dir + "/a.md", "-o", dir + "/dangling.pdf"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: dir + "/new.pdf"))
        // theme import writes like render: a device stays a device, `-` is standard output.
        let tokens = Render.packageRoot + "/templates/tokens/acme.tokens.json"
        #expect(try typeset(["theme", "import", tokens, "-o", "/dev/null", "-q"]).status == 0)
        #expect((try FileManager.default.attributesOfItem(atPath: "/dev/null")[.type] as? FileAttributeType) == .typeCharacterSpecial)
        let piped = try typeset(["theme", "import", tokens, "-o", "-", "-q"])
        #expect(piped.status == 0 && piped.output.contains("\"roles\""))
        #expect(!FileManager.default.fileExists(atPath: "-"))
    }

    @Test func nonFiniteOrHugeLengthsAreRejected() throws {
        let dir = try temporaryFolder()
        try "# Hi".write(toFile: dir + "/a.md", atomically: true, encoding: .utf8)
        #expect(try typeset(["render", dir + "/a.md", "-o", dir + "/a.pdf", "--paper", "nan x 5mm"]).status == 2)
        #expect(try typeset(["render", dir + "/a.md", "-o", dir + "/a.pdf", "--paper", "1e400mm x 5mm"]).status == 2)
        try "---\nmargins: nan\n---\n# Hi".write(toFile: dir + "/m.md", atomically: true, encoding: .utf8)
        let margins = try typeset(["render", dir + "/m.md", "-o", dir + "/m.pdf"])
        #expect(margins.status == 1 && margins.output.hasPrefix(dir + "/m.md:2:1: front matter 'margins'"), "\(margins.output)")
        try String(repeating: "[", count: 50_000).write(toFile: dir + "/deep.json", atomically: true, encoding: .utf8)
        let deep = try typeset(["theme", "check", dir + "/deep.json"])
        #expect(deep.status == 1 && deep.output.contains("nested more than 256 levels"))
    }

    @Test func usageErrorsExit2() throws {
        #expect(try typeset([]).status == 2)
        #expect(try typeset(["render"]).status == 2)
        #expect(try typeset(["render", "a.md", "--bogus"]).status == 2)
        #expect(try typeset(["frobnicate"]).status == 2)
        #expect(try typeset(["render", "a.md", "--paper", "tabloid-ish"]).status == 2)
        let help = try typeset(["--help"])
        #expect(help.status == 0 && help.output.contains("typeset render"))
        #expect(try typeset(["--version"]).output.hasPrefix("typeset "))
    }
}
