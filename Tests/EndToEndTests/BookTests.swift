import Foundation
import TestSupport
import Testing

/// Books: several Markdown files set as one PDF (inputs with `-o FILE`, a front-matter
/// `include:` list, a `book.yaml`), read back for one contents, one page sequence, chapters on
/// new pages and links between the files that land on the right heading; and where `render`
/// writes when no output is named.
@Suite(.serialized) struct BookTests {
    func folder() throws -> String { try Render.scratchFolder("book") }

    func write(_ text: String, _ path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// Three chapters, two with a `Setup` section, links between them and to themselves.
    func writeChapters(in dir: String) throws {
        try write(
            """
            ---
            title: The Manual
            ---

            # Introduction

            Read [the second setup](ch2.md#setup), [chapter two](ch2.md) and [this setup](#setup).

            ## Setup

            First setup.[^a]

            [^a]: A note of chapter one.
            """, dir + "/ch1.md")
        try write(
            """
            # Chapter Two

            Back to [the introduction](ch1.md#introduction) and on to [the details](part/ch3.md#details).

            ## Setup

            Second setup, [its own](#setup).[^a]

            [^a]: A note of chapter two.
            """, dir + "/ch2.md")
        try write(
            """
            An opening paragraph with no heading.

            ## Details

            Return to [the second setup](../ch2.md#setup) or [the third chapter](ch3.md).
            """, dir + "/part/ch3.md")
    }

    /// The link annotations of each page (1-based): destination name and rectangle (PDF
    /// coordinates, from the page's bottom left).
    func links(_ qdf: QDF) -> [Int: [(name: String, rect: [Double])]] {
        var result: [Int: [(String, [Double])]] = [:]
        for (index, page) in qdf.pages.enumerated() {
            guard let object = qdf.objects[page],
                let annots = object.range(of: #"/Annots \[[^\]]*\]"#, options: .regularExpression)
            else { continue }
            for match in String(object[annots]).matches(of: /(\d+) 0 R/) {
                guard let link = qdf.objects[Int(match.output.1)!], let name = QDF.destinationName(in: link),
                    let rect = link.firstMatch(of: /\/Rect \[\s*([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)/)
                else { continue }
                let numbers = [rect.output.1, rect.output.2, rect.output.3, rect.output.4].compactMap { Double($0) }
                result[index + 1, default: []].append((name, numbers))
            }
        }
        return result
    }

    /// The destination of the link drawn over `word` on `page`.
    func destination(
        over word: String, page: Int, words: [PDFProbe.Word], links: [Int: [(name: String, rect: [Double])]],
        pageHeight: Double
    ) -> String? {
        guard let box = words.first(where: { $0.page == page && $0.text.hasPrefix(word) }) else { return nil }
        let middle = (x: (box.xMin + box.xMax) / 2, y: pageHeight - (box.yMin + box.yMax) / 2)
        return links[page]?.first { link in
            link.rect[0] <= middle.x && middle.x <= link.rect[2] && link.rect[1] <= middle.y && middle.y <= link.rect[3]
        }?.name
    }

    @Test func threeFilesMakeOneBookWithOneContentsAndLinksBetweenThem() throws {
        let dir = try folder()
        try writeChapters(in: dir)
        let pdf = dir + "/book.pdf"
        let result = try typeset(["render", dir + "/ch1.md", dir + "/ch2.md", dir + "/part/ch3.md", "-o", pdf, "--toc"])
        #expect(result.status == 0, "\(result.output)")
        #expect(!result.output.contains("warning"), "every link resolves: \(result.output)")
        let text = try PDFProbe.text(pdf)
        #expect(text.components(separatedBy: "Contents").count == 2, "one contents: \(text)")
        let words = try PDFProbe.words(pdf)
        let pageCount = try #require(Int(try PDFProbe.info(pdf)["Pages"] ?? ""))
        #expect(pageCount == 3, "three chapters, three pages: \(pageCount)")
        // Each chapter opens a page: its first words are the first on the page.
        let firstWords = (1...pageCount).compactMap { page in words.first { $0.page == page }?.text }
        #expect(firstWords == ["The", "Chapter", "An"], "\(firstWords)")
        // The page numbers run on: every page's folio is its place in the book.
        for page in 1...pageCount {
            let folio = words.filter { $0.page == page }.max { $0.yMin < $1.yMin }
            #expect(folio?.text == "\(page)", "page \(page)'s last line is its folio: \(String(describing: folio))")
        }
        // The contents lists every chapter's headings with the page each is on.
        let contents = words.filter { $0.page == 1 }
        for (title, page) in [("Introduction", 1), ("Chapter", 2), ("Details", 3)] {
            let entry = try #require(contents.first { $0.text == title }, "contents lists \(title)")
            let number = contents.first { abs($0.yMin - entry.yMin) < 2 && $0.xMin > entry.xMax && Int($0.text) != nil }
            #expect(number?.text == "\(page)", "\(title) on page \(page): \(String(describing: number))")
        }
        // Links between the files are named destinations inside the PDF; each lands on its heading.
        let qdf = try QDF(pdf)
        #expect(!qdf.objects.values.contains { $0.contains("/URI") }, "no link leaves the PDF")
        let destinations = qdf.namedDestinations()
        let pageLinks = links(qdf)
        let size = try #require(try PDFProbe.info(pdf)["Page size"]?.split(separator: " "))
        let height = try #require(Double(size[2]))
        let expected: [(word: String, page: Int, lands: Int, name: String)] = [
            ("second", 1, 2, "ch2-setup"), ("two", 1, 2, "chapter-two"), ("this", 1, 1, "setup"),
            ("introduction", 2, 1, "introduction"), ("details", 2, 3, "details"), ("own", 2, 2, "ch2-setup"),
            ("third", 3, 3, "ch3"),
        ]
        for link in expected {
            let name = destination(over: link.word, page: link.page, words: words, links: pageLinks, pageHeight: height)
            #expect(name == link.name, "'\(link.word)' on page \(link.page) goes to \(String(describing: name))")
            #expect(destinations[link.name]?.page == link.lands, "#\(link.name) lands on page \(link.lands)")
        }
        // Footnotes are numbered on through the book.
        #expect(text.contains("2 A note of chapter two"), "\(text)")
        // One outline holding every chapter.
        let outline = qdf.outline()?.flatMap { [$0.title] + $0.children.map(\.title) } ?? []
        #expect(outline == ["Introduction", "Setup", "Chapter Two", "Setup", "Details"], "\(outline)")
        #expect(try PDFProbe.qpdfClean(pdf))
        let structure = try PDFProbe.run("pdfinfo", ["-struct", pdf]).output
        let documents = structure.split(separator: "\n").filter { $0 == "Document" }
        #expect(documents.count == 1, "one Document element: \(structure.prefix(200))")
        try PDFValidationTests.expectValid([pdf])
    }

    /// A chapter whose own front matter names another language than the book's is read and
    /// set in it: each of its structure elements reads in that language (`/Lang`, PDF/UA-1
    /// §7.2), its notes' text too, and the other chapters stay in the book's. Members: a Korean
    /// chapter after an English one, a French one after it, one naming the book's language.
    @Test func aChapterInAnotherLanguageIsTaggedInIt() throws {
        let dir = try folder()
        try write("---\ntitle: Book\nlang: en\n---\n\n# English\n\nText.\n", dir + "/a.md")
        try write("---\nlang: ko\n---\n\n# 한국어 장\n\n한국어 문단입니다.[^n]\n\n- 목록\n\n[^n]: 각주.\n", dir + "/b.md")
        try write("---\nlang: fr\n---\n\n# Chapitre\n\nUn paragraphe.\n", dir + "/c.md")
        try write("---\nlang: EN\n---\n\n# Last\n\nMore text.\n", dir + "/d.md")
        let pdf = dir + "/languages.pdf"
        let result = try typeset(["render", dir + "/a.md", dir + "/b.md", dir + "/c.md", dir + "/d.md", "-o", pdf])
        #expect(result.status == 0, "\(result.output)")
        let elements = try AccessibilityTests.elementLanguages(pdf)
        let headings = elements.filter { $0.type == "H1" }.map(\.language)
        #expect(headings.suffix(4) == ["en", "ko", "fr", "en"], "\(elements)")
        #expect(elements.contains { $0.type == "L" && $0.language == "ko" }, "\(elements)")
        // The note's paragraph reads in its chapter's language.
        let note = try #require(elements.firstIndex { $0.type == "Note" })
        #expect(elements[note + 1].type == "P" && elements[note + 1].language == "ko", "\(elements)")
        #expect(elements.filter { $0.type == "P" }.map(\.language).contains("fr"), "\(elements)")
    }

    @Test func chaptersOpenOnRightHandPagesWhenAsked() throws {
        let dir = try folder()
        try writeChapters(in: dir)
        let pdf = dir + "/right.pdf"
        let inputs = [dir + "/ch1.md", dir + "/ch2.md", dir + "/part/ch3.md"]
        let result = try typeset(["render"] + inputs + ["-o", pdf, "--open-right"])
        #expect(result.status == 0, "\(result.output)")
        let words = try PDFProbe.words(pdf)
        let opening = ["Introduction", "Chapter", "An"].map { word in words.first { $0.text == word }?.page }
        #expect(opening == [1, 3, 5], "every chapter on an odd page: \(opening)")
        for blank in [2, 4] {
            let onPage = words.filter { $0.page == blank }.map(\.text)
            #expect(onPage.isEmpty, "page \(blank) is blank, without a folio: \(onPage)")
        }
        #expect(words.contains { $0.page == 5 && $0.text == "5" }, "the page after a blank one has its folio")
        try PDFValidationTests.expectValid([pdf])
        // The same from the book's front matter.
        try write("---\nopen-right: true\ninclude: [ch2.md]\n---\n\n# One\n\nText.\n", dir + "/front.md")
        let front = try typeset(["render", dir + "/front.md", "-o", dir + "/front.pdf"])
        #expect(front.status == 0, "\(front.output)")
        #expect(try PDFProbe.words(dir + "/front.pdf").first { $0.text == "Chapter" }?.page == 3)
        // After a table of contents the first chapter opens on a right-hand page too (it opened
        // under the contents, on a left-hand page when they took two), by `--toc` or `toc: true`.
        let contents = try typeset(["render"] + inputs + ["-o", dir + "/contents.pdf", "--open-right", "--toc"])
        #expect(contents.status == 0, "\(contents.output)")
        let withContents = try PDFProbe.words(dir + "/contents.pdf")
        let openings = ["Introduction", "Chapter", "An"].map { word in
            withContents.first { $0.text == word && $0.page > 1 }?.page
        }
        #expect(openings == [3, 5, 7], "after the contents, every chapter on an odd page: \(openings)")
        try write("---\nopen-right: true\ntoc: true\ninclude: [ch2.md]\n---\n\n# One\n\nText.\n", dir + "/toc.md")
        #expect(try typeset(["render", dir + "/toc.md", "-o", dir + "/toc.pdf"]).status == 0)
        let tocWords = try PDFProbe.words(dir + "/toc.pdf")
        #expect(tocWords.first { $0.text == "One" && $0.page > 1 }?.page == 3, "\(tocWords.map(\.text))")
    }

    /// A book whose first chapter opens with the title's heading sets that heading as its title
    /// once, unnumbered and not in the contents, with chapters on right-hand pages as without
    /// them: the page break before the first chapter is not the document's opening block.
    @Test func anOpeningTitleHeadingIsTheTitleWhenChaptersOpenOnTheRight() throws {
        let dir = try folder()
        try write("# The Quay\n\nText of the quay.\n", dir + "/quay.md")
        try write(
            "---\ntitle: \"Harbour Notes\"\ntoc: true\ninclude: [quay.md]\n---\n\n"
                + "# Harbour Notes\n\nA short preface.\n", dir + "/harbour.md")
        for extra in [[], ["--open-right"]] {
            let pdf = dir + "/harbour\(extra.count).pdf"
            let result = try typeset(["render", dir + "/harbour.md", "-o", pdf, "-N"] + extra)
            #expect(result.status == 0, "\(result.output)")
            let text = try PDFProbe.text(pdf)
            #expect(text.components(separatedBy: "Harbour Notes").count == 2, "the title once, \(extra): \(text)")
            #expect(text.contains("1 The Quay"), "the first chapter numbered 1, \(extra): \(text)")
            #expect(!text.contains("1 Harbour Notes") && !text.contains("2 The Quay"), "\(extra): \(text)")
            let quay = try PDFProbe.words(pdf).filter { $0.text == "Quay" }.map(\.page)
            #expect(quay.last == (extra.isEmpty ? 2 : 3), "the chapter's page, \(extra): \(quay)")
        }
    }

    @Test func includeListsAndBookFilesMakeBooks() throws {
        let dir = try folder()
        try writeChapters(in: dir)
        try FileManager.default.copyItem(
            atPath: Render.packageRoot + "/templates/images/" + (try imageName()), toPath: dir + "/part/picture.png")
        try write(
            try String(contentsOfFile: dir + "/part/ch3.md", encoding: .utf8) + "\n![A picture](picture.png)\n",
            dir + "/part/ch3.md")
        try write("title: Book File\ninclude:\n  - ch1.md\n  - ch2.md\n  - part/ch3.md\n", dir + "/book.yaml")
        let result = try typeset(["render", dir + "/book.yaml", "--toc"])
        #expect(result.status == 0 && !result.output.contains("warning"), "\(result.output)")
        let pdf = dir + "/book.pdf"
        #expect(try PDFProbe.info(pdf)["Title"] == "Book File")
        #expect(try PDFProbe.info(pdf)["Pages"] == "3")
        let images = try PDFProbe.run("pdfimages", ["-list", pdf]).output.split(separator: "\n").dropFirst(2)
        #expect(images.count == 1, "the picture beside part/ch3.md is found: \(images)")
        // A file's include list: what it includes follows it, its own includes after it.
        try write("---\ntitle: Chained\ninclude: ch2.md\n---\n\n# Start\n\nText.\n", dir + "/start.md")
        let chained = try typeset(["render", dir + "/start.md"])
        #expect(chained.status == 0, "\(chained.output)")
        let words = try PDFProbe.words(dir + "/start.pdf")
        #expect(words.first { $0.text == "Chapter" }?.page == 2, "the included chapter opens page 2")
    }

    /// A book file whose YAML cannot be read says why, where: the bracket left open, not that
    /// it lists no chapters.
    @Test func anUnreadableBookFileSaysWhy() throws {
        let dir = try folder()
        try write("title: [unclosed\n", dir + "/broken.yaml")
        let result = try typeset(["render", dir + "/broken.yaml"])
        #expect(result.status == 1, "\(result.output)")
        #expect(result.output.contains("broken.yaml:1:8: invalid YAML"), "\(result.output)")
        #expect(!result.output.contains("lists none"), "\(result.output)")
    }

    @Test func watchFollowsEveryFileOfABook() throws {
        let dir = try folder()
        try write("---\ninclude: [ch2.md]\n---\n\n# One\n\nFirst.\n", dir + "/main.md")
        try write("# Two\n\nVersion one.\n", dir + "/ch2.md")
        let pdf = dir + "/main.pdf"
        let log = Pipe()
        let process = try PDFProbe.start(
            Render.binary, ["watch", dir + "/main.md", "--renders", "2"], standardError: log)
        defer { if process.isRunning { process.terminate() } }
        func waitFor(_ condition: () -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(20)
            while Date() < deadline, !condition() { usleep(50_000) }
            return condition()
        }
        func pdfText() -> String { (try? PDFProbe.text(pdf)) ?? "" }
        #expect(waitFor { pdfText().contains("Version one") }, "the first render holds the included chapter")
        usleep(300_000)
        try write("# Two\n\nVersion two.\n", dir + "/ch2.md")
        #expect(waitFor { pdfText().contains("Version two") }, "an edit of the included chapter renders again")
        #expect(waitFor { !process.isRunning })
        let output = String(decoding: log.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(output.contains("ch2.md changed") && output.contains("watching 2 files"), "\(output)")
    }

    /// A PNG among the templates' images.
    func imageName() throws -> String {
        let names = try FileManager.default.contentsOfDirectory(atPath: Render.packageRoot + "/templates/images")
        return try #require(names.sorted().first { $0.hasSuffix(".png") })
    }

    @Test func badIncludesAreErrorsAtTheirLine() throws {
        let dir = try folder()
        try write("# Secret\n", dir + "/secret.md")
        let book = dir + "/book"
        try write("---\ntitle: T\ninclude:\n  - here.md\n  - missing.md\n---\n\n# A\n", book + "/main.md")
        try write("# Here\n", book + "/here.md")
        let missing = try typeset(["render", book + "/main.md", "-o", dir + "/m.pdf"])
        #expect(missing.status == 1, "\(missing.output)")
        #expect(missing.output.contains("\(book)/main.md:5:5: include 'missing.md'"), "\(missing.output)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/m.pdf"))
        // Outside the book's folder, even through a symbolic link: refused at the include.
        try write("---\ninclude: [../secret.md]\n---\n\n# A\n", book + "/up.md")
        let outside = try typeset(["render", book + "/up.md", "-o", dir + "/u.pdf"])
        #expect(
            outside.status == 1 && outside.output.contains("up.md:2:11: include '../secret.md' is outside"),
            "\(outside.output)")
        #expect(outside.output.contains("outside"), "\(outside.output)")
        try FileManager.default.createSymbolicLink(atPath: book + "/link.md", withDestinationPath: dir + "/secret.md")
        try write("---\ninclude: [link.md]\n---\n\n# A\n", book + "/linked.md")
        let linked = try typeset(["render", book + "/linked.md", "-o", dir + "/l.pdf"])
        #expect(linked.status == 1 && linked.output.contains("outside"), "\(linked.output)")
        // A file that includes itself (or one before it): each file is read once.
        try write("---\ninclude: [loop.md]\n---\n\n# Loop\n", book + "/loop.md")
        let loop = try typeset(["render", book + "/loop.md", "-o", dir + "/c.pdf"])
        #expect(
            loop.status == 1 && loop.output.contains("loop.md:2:11: '\(book)/loop.md' is already part of the book;"),
            "\(loop.output)")
    }

    @Test func theOutputIsBesideTheInputByDefault() throws {
        let dir = try folder()
        try write("# One\n", dir + "/sub/one.md")
        try write("# Two\n", dir + "/two.markdown")
        let single = try typeset(["render", dir + "/sub/one.md"])
        #expect(single.status == 0 && single.output.contains("\(dir)/sub/one.pdf"), "\(single.output)")
        #expect(try PDFProbe.text(dir + "/sub/one.pdf").contains("One"))
        // Several inputs with no -o: each beside its own input, one PDF per file.
        let several = try typeset(["render", dir + "/sub/one.md", dir + "/two.markdown", "-q"])
        #expect(several.status == 0, "\(several.output)")
        #expect(try PDFProbe.text(dir + "/two.pdf").contains("Two"))
        #expect(try PDFProbe.info(dir + "/sub/one.pdf")["Pages"] == "1")
        // --output-dir keeps one PDF per file.
        let folder = try typeset(["render", dir + "/sub/one.md", dir + "/two.markdown", "--output-dir", dir + "/out"])
        #expect(folder.status == 0, "\(folder.output)")
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: dir + "/out")) == ["one.pdf", "two.pdf"])
    }

    @Test func anInstalledBinaryFindsItsTemplatesBesideItself() throws {
        let prefix = try folder()
        try FileManager.default.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: prefix + "/share/typeset", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Render.binary, toPath: prefix + "/bin/typeset")
        try FileManager.default.copyItem(
            atPath: Render.packageRoot + "/templates", toPath: prefix + "/share/typeset/templates")
        // The installed template, marked, so that the sheet shows which one was read.
        let template = prefix + "/share/typeset/templates/specimen.md"
        let marked = try String(contentsOfFile: template, encoding: .utf8) + "\nInstalledTemplateMarker\n"
        try marked.write(toFile: template, atomically: true, encoding: .utf8)
        let work = try folder()
        let run = try PDFProbe.run(
            "/bin/sh", ["-c", "cd '\(work)' && '\(prefix)/bin/typeset' specimen -q && ls"])
        #expect(run.status == 0, "\(run.output)")
        #expect(try PDFProbe.text(work + "/specimen-default.pdf").contains("InstalledTemplateMarker"))
    }
}
