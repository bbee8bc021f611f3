import DocumentModel
import Foundation
import TestSupport
import Testing
import Typesetter
import Typography

/// The library API: PDF bytes in memory, a FileHandle, documents built in code, themes built in
/// code checked like theme files, typed problems, and concurrent renders.
@Suite(.serialized) struct LibraryAPITests {
    let fixed = Date(timeIntervalSince1970: 1_700_000_000)

    @Test func rendersMarkdownToDataThatReadsBack() throws {
        let pdf = try Typesetter.render(
            markdown: "# In memory\n\nHello, 세계.", options: RenderOptions(creationDate: fixed))
        #expect(pdf.data.starts(with: Array("%PDF-".utf8)))
        let path = Render.folder + "/in-memory.pdf"
        try pdf.write(to: path)
        #expect(try PDFProbe.info(path)["Pages"] == String(pdf.pageCount))
        #expect(try PDFProbe.text(path).contains("세계"))
        #expect(try PDFProbe.qpdfClean(path))
    }

    /// A document built in code nested thousands of levels deep renders, its content past the
    /// parser's 64 levels kept as plain text with one warning, where it overflowed the styling
    /// thread's stack: members nest emphasis, spans, links, lists, quotes, divs and alerts.
    /// And footnote numbers a parser never gives (Int.max, Int.min, negative) render.
    @Test func aDocumentBuiltInCodeNestedDeepRenders() throws {
        let depth = 3_000
        func nestedInline(_ wrap: (Inline) -> Inline) -> Block {
            var inline = Inline.text("deep")
            for _ in 0..<depth { inline = wrap(inline) }
            return Block(.paragraph([.text("start "), inline]))
        }
        func nestedBlock(_ wrap: (Block) -> Block.Kind) -> Block {
            var block = Block(.paragraph([.text("deep")]))
            for _ in 0..<depth { block = Block(wrap(block)) }
            return block
        }
        let members: [Block] = [
            nestedInline { .emphasis([$0]) }, nestedInline { .span(Attributes(classes: ["headline"]), [$0]) },
            nestedInline { .link(destination: "https://example.com", title: "", children: [$0]) },
            nestedBlock { .list(ListBlock(ordered: false, items: [ListItem(blocks: [$0])])) },
            nestedBlock { .blockQuote([$0]) }, nestedBlock { .div([$0]) }, nestedBlock { .alert(.note, [$0]) },
        ]
        for block in members {
            let pdf = try Typesetter.render(
                document: Document(blocks: [block]), options: RenderOptions(creationDate: fixed))
            let path = Render.folder + "/nested-in-code.pdf"
            try pdf.write(to: path)
            #expect(try PDFProbe.text(path).contains("deep"))
            #expect(
                pdf.diagnostics.filter { $0.message.contains("nested more than 64 levels") }.count == 1,
                "\(pdf.diagnostics)")
        }
        for number in [Int.max, Int.min, -1] {
            let document = Document(
                blocks: [Block(.paragraph([.text("a"), .footnoteReference(label: "m", number: number)]))],
                footnotes: [number: [Block(.paragraph([.text("the note")]))]])
            let pdf = try Typesetter.render(document: document, options: RenderOptions(creationDate: fixed))
            #expect(pdf.pageCount == 1)
        }
    }

    /// A page preview writes image files beside an output file: asked of an in-memory render it
    /// is an error said first, with no picture left in the temporary folder; previews with
    /// pages below 1 or a resolution outside 1–2400 dpi are errors that say so, as the command
    /// line's `--pages` and `--dpi` are.
    @Test func previewsAreCheckedAsTheCommandLineChecksThem() throws {
        let before = try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())
        var options = RenderOptions()
        options.preview = PagePreview(format: .png, pages: [1], dpi: 50)
        #expect {
            try Typesetter.render(markdown: "# Hello\n", options: options)
        } throws: { "\($0)".contains("preview") }
        let after = try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())
        #expect(Set(after).subtracting(before).filter { $0.hasPrefix("typeset-") }.isEmpty)
        for (preview, words) in [
            (PagePreview(format: .png, pages: [0, 1], dpi: 50), "numbered from 1"),
            (PagePreview(format: .svg, pages: [-1]), "numbered from 1"),
            (PagePreview(format: .png, dpi: 0), "1 to 2400 dpi"),
            (PagePreview(format: .png, dpi: .nan), "1 to 2400 dpi"),
        ] {
            options.preview = preview
            let output = Render.folder + "/preview-checked.pdf"
            #expect {
                try Typesetter.render(markdown: "# Hello\n", file: "p.md", to: output, options: options)
            } throws: { "\($0)".contains(words) }
        }
    }

    /// A web font (WOFF, WOFF2) in a font folder, which a PDF cannot embed, is named in a
    /// warning that says to convert it, not passed over in silence; the folder's other fonts
    /// are used.
    @Test func aWebFontInAFontFolderIsNamed() throws {
        let folder = try Render.scratchFolder("web-fonts")
        try Data(contentsOf: URL(fileURLWithPath: "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf")).write(
            to: URL(fileURLWithPath: folder + "/serif.ttf"))
        for name in ["a.woff2", "b.woff"] {
            #expect(
                FileManager.default.createFile(atPath: folder + "/" + name, contents: Data([0x77, 0x4F, 0x46, 0x32])))
        }
        var options = RenderOptions()
        options.themeRequest = ThemeRequest(fontFolders: [folder])
        let pdf = try Typesetter.render(markdown: "Text.\n", options: options)
        let warning = pdf.diagnostics.first { $0.message.contains("web font") }
        #expect(
            warning?.message.contains("a.woff2") == true && warning?.message.contains("1 more") == true,
            "\(pdf.diagnostics)")
    }

    /// `render(contentsOf:)` reads a regular file, as its documentation says: a device is
    /// refused at once, not read as a stream.
    @Test func aURLInputIsARegularFile() throws {
        for path in ["/dev/null", "/dev/zero"] {
            #expect(throws: TypesetError.self) { try Typesetter.render(contentsOf: URL(fileURLWithPath: path)) }
        }
    }

    @Test func facadeTypesResolveThroughTheEnum() {
        // The enum shadows its module's name; its aliases keep `Typesetter.X` spellings working.
        let options: Typesetter.Options = RenderOptions(paper: .a5)
        let report: Typesetter.Report? = nil
        #expect(options.paper == .a5 && report == nil)
    }

    @Test func rendersIntoAFileHandle() throws {
        let path = Render.folder + "/handle.pdf"
        FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        let report = try Typesetter.render(markdown: "# Handle\n\nText.", into: handle)
        try handle.close()
        #expect(report.pageCount == 1)
        #expect(try PDFProbe.text(path).contains("Handle"))
    }

    /// A handle that cannot take the PDF throws ``TypesetError/unwritableOutput(path:reason:)``
    /// saying why, and the process goes on: a pipe whose reader has gone (`SIGPIPE`, whose
    /// default action ended the process), and a handle open for reading only. A render into a
    /// working pipe after them still gives the PDF's bytes.
    @Test func aHandleThatCannotTakeThePDFThrowsAndTheProcessGoesOn() async throws {
        let closed = Pipe()
        try closed.fileHandleForReading.close()
        let path = Render.folder + "/read-only.pdf"
        FileManager.default.createFile(atPath: path, contents: Data("x".utf8))
        let readOnly = try #require(FileHandle(forReadingAtPath: path))
        for (handle, reason) in [(closed.fileHandleForWriting, "EPIPE"), (readOnly, "Bad file descriptor")] {
            do {
                _ = try Typesetter.render(markdown: "# Gone\n\nText.", into: handle)
                Issue.record("no error for \(reason)")
            } catch let TypesetError.unwritableOutput(_, said) {
                #expect(said.contains(reason), "\(said)")
            }
        }
        let open = Pipe()
        let reading = Task.detached { open.fileHandleForReading.readDataToEndOfFile() }
        _ = try Typesetter.render(markdown: "# Open\n\nText.", into: open.fileHandleForWriting)
        try open.fileHandleForWriting.close()
        let bytes = await reading.value
        #expect(bytes.starts(with: Data("%PDF-".utf8)), "\(bytes.prefix(8))")
    }

    /// A Markdown file at `folder/note.md` whose fifth line holds a bad UTF-8 byte at column 5.
    func noteWithABadByte() throws -> URL {
        let folder = URL(fileURLWithPath: Render.folder).appendingPathComponent("urls-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let input = folder.appendingPathComponent("note.md")
        var bytes = Data("# Address\n\nLine one.\n\nBad ".utf8)
        bytes.append(contentsOf: [0xFF] + Array(" byte, 세계.\n".utf8))
        try bytes.write(to: input)
        return input
    }

    /// File URLs in and out, to a file and in memory: the input is read as the command line
    /// reads it (a bad UTF-8 byte is U+FFFD with a warning at its line and column), diagnostics
    /// name its path, and a URL that is not a file is refused.
    @Test func rendersFileURLs() throws {
        let input = try noteWithABadByte()
        let output = input.deletingPathExtension().appendingPathExtension("pdf")
        let report = try Typesetter.render(contentsOf: input, to: output)
        #expect(try PDFProbe.text(output.path).contains("Bad \u{FFFD} byte"))
        let warning = try #require(report.diagnostics.first)
        #expect(warning.location?.file == input.path && warning.location?.line == 5 && warning.location?.column == 5)
        let pdf = try Typesetter.render(contentsOf: input)
        #expect(pdf.pageCount == report.pageCount && pdf.diagnostics == report.diagnostics)
        let remote = try #require(URL(string: "https://example.com/doc.md"))
        #expect(throws: TypesetError.self) { try Typesetter.render(contentsOf: remote, to: output) }
        #expect(throws: TypesetError.self) { try Typesetter.render(contentsOf: input, to: remote) }
    }

    /// An image changed between two renders in one process (as while `typeset watch` runs) is
    /// read again: each render draws it at its own shape. Read back from `pdfimages -list`:
    /// the image's pixels across and down per inch drawn are equal when its box has the shape
    /// of its pixels (200 × 100, then 100 × 200).
    @Test func anImageChangedBetweenRendersIsReadAgain() throws {
        let folder = try Render.scratchFolder("changed-image")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = URL(fileURLWithPath: folder + "/doc.md")
        try "![A red picture](picture.png)\n".write(to: input, atomically: true, encoding: .utf8)
        for (index, size) in ["200x100", "100x200"].enumerated() {
            let picture = folder + "/picture.png"
            try? FileManager.default.removeItem(atPath: picture)
            #expect(try PDFProbe.run("convert", ["-size", size, "xc:red", picture]).status == 0)
            let output = URL(fileURLWithPath: folder + "/doc-\(index).pdf")
            _ = try Typesetter.render(contentsOf: input, to: output)
            let list = try PDFProbe.run("pdfimages", ["-list", output.path]).output
            let row = try #require(list.split(separator: "\n").dropFirst(2).first).split(separator: " ")
            let pixels = "\(row[3])x\(row[4])"
            let (across, down) = (try #require(Double(row[12])), try #require(Double(row[13])))
            #expect(pixels == size && abs(across - down) <= 1, "\(size): \(list)")
        }
    }

    /// The async form of a file URL render writes the same document.
    @Test func rendersFileURLsAsynchronously() async throws {
        let input = try noteWithABadByte()
        let output = input.deletingPathExtension().appendingPathExtension("pdf")
        let report = try await Typesetter.render(contentsOf: input, to: output)
        #expect(try PDFProbe.text(output.path).contains("세계"))
        #expect(report.diagnostics.first?.location?.line == 5)
    }

    @Test func rendersADocumentBuiltInCode() throws {
        var document = Document(blocks: [
            Block(.heading(level: 1, [.text("Built")])), Block(.paragraph([.text("In code.")])),
        ])
        document.metadata.set("title", to: "Coded")
        document.metadata.set("paper", to: "a5")
        let pdf = try Typesetter.render(document: document)
        let path = Render.folder + "/coded.pdf"
        try pdf.write(to: path)
        let info = try PDFProbe.info(path)
        #expect(info["Title"] == "Coded")
        #expect(info["Page size"]?.hasPrefix("419.528 x 595.276") == true, "\(info)")
    }

    @Test func themesBuiltInCodeAreChecked() throws {
        for (role, size) in [(TextRole.body, -5.0), (.caption, 0.0), (.display, 5000)] {
            var theme = Theme.default
            theme.styles[role]?.size = size
            #expect(throws: TypesetError.self) {
                try Typesetter.render(markdown: "Text", options: RenderOptions(theme: theme))
            }
        }
        var hopeless = Theme.default
        hopeless.styles[.body]?.families = ["No Such Family Anywhere"]
        let none = #expect(throws: TypesetError.self) {
            try Typesetter.render(markdown: "Text", options: RenderOptions(theme: hopeless))
        }
        #expect(none?.problems.first?.message.contains("not installed") == true, "\(String(describing: none))")
        var tiny = Theme.default
        tiny.page.paper = PaperSize(width: 50, height: 50)
        let small = #expect(throws: TypesetError.self) {
            try Typesetter.render(markdown: "Text", options: RenderOptions(theme: tiny))
        }
        #expect(small?.problems.first?.message.contains("page.paper width") == true, "\(String(describing: small))")
        var theme = Theme.default
        theme.styles[.body]?.families = ["No Such Family Anywhere", "Inter"]
        let pdf = try Typesetter.render(markdown: "Text", options: RenderOptions(theme: theme))
        #expect(pdf.diagnostics.contains { $0.message.contains("No Such Family Anywhere") }, "\(pdf.diagnostics)")
    }

    /// A theme built in code registers its own font folders and the request's, as a theme
    /// file and `--fonts` do: both were left out, so its families there were "not installed".
    @Test func aThemeBuiltInCodeRegistersItsFontFolders() throws {
        let family = "Code Theme Face \(UInt32.random(in: 0..<1_000_000))"
        let folder = try Render.scratchFolder("code-theme-fonts")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Support.renamedFont(at: "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf", family: family)
            .write(to: URL(fileURLWithPath: folder + "/Face.ttf"))
        let postScript = family.replacingOccurrences(of: " ", with: "") + "-Regular"
        var theme = Theme.default
        theme.styles[.body]?.families = [family]
        var ownFolders = theme
        ownFolders.fontFolders = [folder]
        let ways = [
            ("own", RenderOptions(theme: ownFolders, creationDate: fixed)),
            (
                "request",
                RenderOptions(themeRequest: ThemeRequest(fontFolders: [folder]), theme: theme, creationDate: fixed)
            ),
        ]
        for (way, options) in ways {
            let pdf = try Typesetter.render(markdown: "Text in the face.", options: options)
            let path = Render.folder + "/code-theme-fonts-\(way).pdf"
            try pdf.write(to: path)
            #expect(try PDFProbe.fonts(path).contains { $0.contains(postScript) }, "\(way)")
            #expect(!pdf.diagnostics.contains { $0.message.contains(family) }, "\(way): \(pdf.diagnostics)")
        }
    }

    @Test func errorsAreTypedProblems() throws {
        var theme = Theme.default
        theme.styles[.body]?.size = -5
        do {
            _ = try Typesetter.render(markdown: "x", options: RenderOptions(theme: theme))
            Issue.record("rendered")
        } catch let error as TypesetError {
            #expect(error.problems.map(\.kind) == [.invalidTheme])
            #expect(error.problems[0].message.contains("size"))
        }
        do {
            _ = try Typesetter.render(markdown: "*x*[y]{.headlin}", options: RenderOptions(strict: true))
            Issue.record("rendered")
        } catch let error as TypesetError {
            let problem = try #require(error.problems.first)
            #expect(problem.kind == .attribute && problem.severity == .error && problem.line == 1, "\(problem)")
            #expect(!error.description.contains("--strict"), "library errors carry no command-line wording")
        }
        let themeFile = TypesetError.invalidTheme(problems: ["t.json:3:5: unknown role 'bodyy'"]).problems[0]
        #expect(
            themeFile.file == "t.json" && themeFile.line == 3 && themeFile.column == 5
                && themeFile.message == "unknown role 'bodyy'")
    }

    /// Eight renders in a task group all succeed and give byte-identical PDFs (a fixed creation
    /// date); the time is printed against eight in a row (one lock serializes Pango and Cairo).
    @Test func eightConcurrentRendersInATaskGroup() async throws {
        let markdown = try String(contentsOfFile: Render.packageRoot + "/templates/showcase.md", encoding: .utf8)
        let options = RenderOptions(creationDate: fixed, baseDirectory: Render.packageRoot + "/templates")
        var start = Date()
        var sequential: [RenderedPDF] = []
        for _ in 0..<8 { sequential.append(try await Typesetter.render(markdown: markdown, options: options)) }
        let sequentialSeconds = Date().timeIntervalSince(start)
        start = Date()
        let concurrent = try await withThrowingTaskGroup(of: RenderedPDF.self) { group in
            for _ in 0..<8 { group.addTask { try await Typesetter.render(markdown: markdown, options: options) } }
            var all: [RenderedPDF] = []
            for try await pdf in group { all.append(pdf) }
            return all
        }
        let concurrentSeconds = Date().timeIntervalSince(start)
        #expect(concurrent.count == 8)
        #expect(Set(sequential.map(\.data)).count == 1, "every render in a row gives the same bytes")
        #expect(Set(concurrent.map(\.data)).count == 1, "every concurrent render gives the same bytes")
        #expect(concurrent[0].data == sequential[0].data)
        print(
            "8 renders of showcase.md (\(sequential[0].pageCount) pages): in a row "
                + "\(String(format: "%.2f", sequentialSeconds)) s, "
                + "task group \(String(format: "%.2f", concurrentSeconds)) s")
    }
}
