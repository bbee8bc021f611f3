import Foundation
import Testing
import Typesetter
import Typography

/// Hostile and huge input, one test per kind of fault: nothing silently lost, one odd character
/// never loses the document, time stays linear, a killed run leaves nothing behind.
@Suite(.serialized) struct HostileInputTests {
    /// The right edge of the default theme's text area, pt from the page's left edge.
    static let rightEdge = Theme.default.page.paper.width - Theme.default.page.margins.right

    /// Lengths past Pango's 2³¹-unit limit (≈ 2,097,152 pt unwrapped): every word is drawn and
    /// none crosses the margin. 6,000 words at 100 pt tracking are 2.4 million pt unwrapped
    /// (a layout kept its first line only); the size-1 face keeps it to a few pages.
    @Test func paragraphsPastPangosLimitKeepEveryWord() throws {
        let words = Array(repeating: "abc", count: 6_000).joined(separator: " ")
        let (pdf, _) = try Render.markdown("::: {size=1 tracking=100}\n\(words)\n:::\n\nafter words\n", name: "hostile-limit")
        let text = FuzzCampaign.normalized(try PDFProbe.text(pdf))
        #expect(text.components(separatedBy: "abc").count - 1 == 6_000)
        #expect(text.contains("afterwords"))
        let boxes = try PDFProbe.words(pdf)
        #expect(boxes.allSatisfy { $0.xMax <= Self.rightEdge + 1 }, "\(boxes.filter { $0.xMax > Self.rightEdge + 1 }.prefix(3))")
        #expect(try PDFProbe.qpdfClean(pdf))
    }

    /// The same for many ordinary words, and for a heading of one long word: nothing lost.
    @Test func longParagraphsAndHeadingsKeepEveryWord() throws {
        let body = (0..<12_000).map { "w\($0)x" }.joined(separator: " ")
        let heading = String(repeating: "W", count: 3_000)
        let (pdf, _) = try Render.markdown("# \(heading) {.display}\n\n\(body)\n", name: "hostile-long")
        let text = FuzzCampaign.normalized(try PDFProbe.text(pdf))
        let missing = (0..<12_000).filter { !text.contains("w\($0)x") }.map { "w\($0)x" }
        #expect(missing.isEmpty, "\(missing.count) words missing, e.g. \(missing.prefix(5))")
        // The heading's 3,000 W's (page numbers may fall between its lines) and the body's 12,000.
        let ws = text.filter { $0 == "w" }.count
        #expect(ws == 15_000, "\(ws) w's")
        let boxes = try PDFProbe.words(pdf)
        #expect(boxes.allSatisfy { $0.xMax <= Self.rightEdge + 1 }, "\(boxes.filter { $0.xMax > Self.rightEdge + 1 }.prefix(3))")
    }

    /// Linear time: one long word, a long heading and a long keep-all Korean paragraph at two
    /// lengths, 4× apart. Linear is ~4× the time, quadratic ~16×; the bound is 8× (plus a
    /// second for noise on a shared machine). Before: 10,000 characters 0.42 s, 40,000 5.4 s.
    @Test(arguments: ["word", "heading", "korean"])
    func timeIsLinearInLength(kind: String) throws {
        func document(_ n: Int) -> String {
            switch kind {
            case "word": String(repeating: "x", count: n)
            case "heading": "# " + String(repeating: "W", count: n / 4)
            default: (0..<(n / 12)).map { i in "한국어\(["문단은", "단어를", "지킨다"][i % 3])" }.joined(separator: " ")
            }
        }
        var seconds: [Double] = []
        for n in [10_000, 40_000] {
            let start = Date()
            let (pdf, _) = try Render.markdown(document(n), name: "hostile-time-\(kind)-\(n)")
            seconds.append(Date().timeIntervalSince(start))
            let text = FuzzCampaign.normalized(try PDFProbe.text(pdf))
            if kind == "word" { #expect(text.components(separatedBy: "x").count - 1 == n) }
            if kind == "korean" { #expect(text.components(separatedBy: "한국어").count - 1 == n / 12) }
        }
        #expect(seconds[1] < 8 * seconds[0] + 1, "\(kind): \(seconds) s for 10,000 and 40,000 characters")
    }

    /// Unicode noncharacters and control characters: the document renders, the text around them
    /// is drawn, one warning names the first.
    @Test(arguments: [0xFFFF, 0xFFFE, 0xFDD0, 0xFDEF, 0x1FFFF, 0x10FFFF, 0x1, 0x7F, 0x9F] as [UInt32])
    func oneOddCharacterNeverLosesTheDocument(codePoint: UInt32) throws {
        let character = String(Character(Unicode.Scalar(codePoint)!))
        let markdown = "---\ntitle: Title\(character)here\n---\n\n# Head\(character)\n\nBefore\(character)after and [span\(character)]{.caption} `code\(character)`.\n\n| cell\(character) |\n|---|\n| row |\n"
        let (pdf, report) = try Render.markdown(markdown, name: "hostile-char-\(character.unicodeScalars.first!.value)")
        let text = try PDFProbe.text(pdf)
        for word in ["Head", "Before", "after", "span", "code", "cell", "row"] { #expect(text.contains(word), "\(word)") }
        #expect(try PDFProbe.info(pdf)["Title"]?.hasPrefix("Title") == true)
        let warnings = report.diagnostics.filter { $0.message.contains("replaced by U+FFFD") }
        #expect(warnings.count == 1 && warnings.first?.location?.line == 2, "\(report.diagnostics)")
        #expect(try PDFProbe.qpdfClean(pdf))
    }

    /// YAML aliases: recursive and exploding ones are reported at their line in milliseconds,
    /// the front matter is ignored and the body is set.
    @Test func yamlAliasBombsAreRefusedQuickly() throws {
        var laughs = ["a0: &a0 lol"]
        for i in 1...8 { laughs.append("a\(i): &a\(i) [\(Array(repeating: "*a\(i - 1)", count: 9).joined(separator: ","))]") }
        // The bomb passes 100,000 values at a6 (9⁶ strings), on line 8.
        let cases = [("recursive", "a: &a [*a, *a, *a, *a]", 2), ("laughs", laughs.joined(separator: "\n"), 8)]
        for (name, yaml, line) in cases {
            let start = Date()
            let (pdf, report) = try Render.markdown("---\n\(yaml)\ntitle: x\n---\n\nBody words\n", name: "hostile-yaml-\(name)")
            #expect(Date().timeIntervalSince(start) < 5)
            let warning = report.diagnostics.first { $0.message.contains("alias") }
            #expect(warning?.location?.line == line, "\(name): \(report.diagnostics)")
            #expect(try PDFProbe.text(pdf).contains("Body words"))
        }
        // Ordinary aliases still work.
        let (_, report) = try Render.markdown("---\nbase: &m 20mm\nmargins: *m\n---\n\nBody\n", name: "hostile-yaml-ok")
        #expect(!report.diagnostics.contains { $0.message.contains("alias") })
    }

    /// Found by the fuzz test: small caps over an emoji failed the whole PDF (Pango scaled by
    /// a color-emoji face's missing cap height), and a missing image's placeholder kept only the
    /// first line of a long caption.
    @Test func fuzzFindsStayFixed() throws {
        // One emoji per document: the same color-emoji glyph drawn from two layouts makes
        // Cairo 1.16 write a duplicated /xN key (a qpdf warning; a separate, open problem).
        for (i, markdown) in ["[Small😀 caps words]{smallCaps}\n", "[all😀 words]{lowercaseSmallCaps}\n"].enumerated() {
            let (pdf, _) = try Render.markdown(markdown, name: "hostile-smallcaps-\(i)")
            #expect(try PDFProbe.qpdfClean(pdf))
            #expect(try PDFProbe.text(pdf).lowercased().contains("words"))
        }
        let long = (0..<40).map { "cap\($0)x" }.joined(separator: " ")
        let (placeholder, _) = try Render.markdown("![\(long)](nowhere.png)\n", name: "hostile-placeholder")
        let text = FuzzCampaign.normalized(try PDFProbe.text(placeholder))
        #expect((0..<40).allSatisfy { text.contains("cap\($0)x") })
    }

    /// Font warnings carry the position of the first text that needs the face or character.
    @Test func fontWarningsCarryAPosition() throws {
        let markdown = "# Title\n\nPlain text.\n\n[한국어 굵게]{weight=600}\n\nx \u{1D800} y\n"
        let (_, report) = try Render.markdown(markdown, name: "hostile-font-warnings")
        let weight = report.diagnostics.first { $0.message.contains("lacks weight") }
        #expect(weight?.location?.line == 5, "\(report.diagnostics)")
        let tofu = report.diagnostics.first { $0.message.contains("no installed font draws") }
        #expect(tofu?.location?.line == 7, "\(report.diagnostics)")
    }
}

/// The command line: signals and messages.
@Suite struct HostileCommandLineTests {
    func typeset(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try PDFProbe.run(Render.binary, arguments)
    }

    /// SIGTERM and SIGINT remove the temporary output and exit 143 / 130.
    @Test(arguments: [(SIGTERM, Int32(143)), (SIGINT, Int32(130))])
    func aKilledRenderLeavesNothing(signal: Int32, status: Int32) throws {
        let folder = Render.folder + "/signal-\(signal)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let input = folder + "/long.md"
        try String(repeating: "word ", count: 600_000).write(toFile: input, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Render.binary)
        process.arguments = ["render", input, "-o", folder + "/out.pdf", "-q"]
        try process.run()
        // Wait until the temporary file exists: the render is under way.
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, process.isRunning,
              !((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).contains(where: { $0.hasSuffix(".tmp") }) {
            usleep(20_000)
        }
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        #expect(process.terminationStatus == status)
        let left = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0 != "long.md" }
        #expect(left.isEmpty, "\(left)")
    }

    /// Messages that say what is wrong with a theme path.
    @Test func themePathMessages() throws {
        let folder = Render.folder + "/messages"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "# Hi\n".write(toFile: folder + "/a.md", atomically: true, encoding: .utf8)
        let empty = try typeset(["render", folder + "/a.md", "-o", folder + "/a.pdf", "--theme", "/dev/null"])
        #expect(empty.status == 1 && empty.output.contains("/dev/null:1:1: invalid JSON: empty file"), "\(empty.output)")
        let dir = try typeset(["render", folder + "/a.md", "-o", folder + "/a.pdf", "--theme", folder])
        #expect(dir.status == 1 && dir.output.contains("cannot read theme file: it is a folder"), "\(dir.output)")
        let check = try typeset(["theme", "check", "/dev/null"])
        #expect(check.status == 1 && check.output.contains("/dev/null:1:1: invalid JSON"), "\(check.output)")
        let input = try typeset(["render", folder, "-o", folder + "/b.pdf"])
        #expect(input.status == 1 && input.output.contains("it is a folder"))
        #expect(!empty.output.contains("permission") && !dir.output.contains("NSCocoaErrorDomain"))
    }
}
