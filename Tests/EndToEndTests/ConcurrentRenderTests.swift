import Foundation
import TestSupport
import Testing

@testable import Typesetter

extension AsynchronousRenderSuites {
    /// Renders in parallel in one process: each render shapes on a font map of its own, on a
    /// fontconfig configuration of its own fonts, and every Cairo face is a FreeType face the
    /// process shares (`CFaceSharing`), with no lock shared with other renders. So renders from a
    /// `TaskGroup` overlap on the cores, write the bytes they write alone, and two renders with
    /// different font folders each see only their own fonts.
    @Suite(.serialized) struct ConcurrentRenderTests {
        /// Twenty small documents, each a little different (so no render is a copy of another).
        static let documents: [String] = (0..<20).map { index in
            "# Report \(index)\n\n" + Prose.sections(1)
                + "\n\n| Item | Amount |\n|---|---:|\n| \(index) | \(index * 7) |\n"
        }

        static func options() -> RenderOptions {
            var options = RenderOptions()
            options.creationDate = Date(timeIntervalSince1970: 0)
            return options
        }

        /// Wall time in s of `body`.
        static func seconds(_ body: () async throws -> Void) async rethrows -> Double {
            let start = DispatchTime.now().uptimeNanoseconds
            try await body()
            return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        }

        /// Twenty documents from a `TaskGroup` overlap: while they run, every render slot
        /// (``RenderSlots``, one per processor) is held at once; they take less time than one
        /// after another in the same run; and each PDF has the bytes it has when rendered alone (a
        /// PDF that differs is kept as ``PDFDifference/keep(expected:actual:name:)`` says).
        /// Both halves run on a ``ThreadExecutor``, so that what is timed is the renders and not
        /// the test process's cooperative pool, which the synchronous suites beside this one hold.
        /// The ratio is printed (the best of two attempts is kept) and bounded at 1.2, which
        /// renders taking turns exceed (1.5 to 2.1 in a release build). The issue's 0.6 is the
        /// release build's figure, `make bench`'s `concurrent` row: a debug build measured 0.51
        /// to 0.74 alone and 0.86 to 0.94 beside the other suites, which share the two cores.
        @Test(.slow) func twentyRendersFromATaskGroupOverlap() async throws {
            let folder = try Render.scratchFolder("concurrent")
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let options = Self.options()
            let executor = ThreadExecutor()
            defer { executor.stop() }
            var best = Double.infinity
            var fewestFree = Int.max
            for attempt in 0..<2 where best > 0.8 {
                let (sequential, parallel, fewest) = try await withTaskExecutorPreference(executor) {
                    let sequential = try await Self.seconds {
                        for (index, markdown) in Self.documents.enumerated() {
                            _ = try await Typesetter.render(
                                markdown: markdown, file: "r\(index).md", to: folder + "/alone-\(index).pdf",
                                options: options)
                        }
                    }
                    let sampler = SlotSampler()
                    defer { sampler.stop() }
                    let parallel = try await Self.seconds {
                        try await withThrowingTaskGroup(of: Void.self) { group in
                            for (index, markdown) in Self.documents.enumerated() {
                                group.addTask {
                                    _ = try await Typesetter.render(
                                        markdown: markdown, file: "r\(index).md", to: folder + "/together-\(index).pdf",
                                        options: options)
                                }
                            }
                            try await group.waitForAll()
                        }
                    }
                    return (sequential, parallel, sampler.stop())
                }
                fewestFree = min(fewestFree, fewest)
                best = min(best, parallel / sequential)
                print(
                    "concurrent renders (attempt \(attempt + 1)): 20 from a TaskGroup \(parallel) s, one after another "
                        + "\(sequential) s: ratio \(parallel / sequential) on "
                        + "\(ProcessInfo.processInfo.activeProcessorCount) cores")
            }
            for index in Self.documents.indices {
                let alone = folder + "/alone-\(index).pdf"
                let together = folder + "/together-\(index).pdf"
                let same =
                    try Data(contentsOf: URL(fileURLWithPath: alone))
                    == Data(contentsOf: URL(fileURLWithPath: together))
                let kept =
                    same ? "" : PDFDifference.keep(expected: alone, actual: together, name: "concurrent-\(index)")
                #expect(same, "document \(index): the same bytes rendered alone and in parallel; \(kept)")
            }
            // Under the Thread Sanitizer (`make tsan` sets TSAN_OPTIONS), whose instrumentation
            // costs more the more threads run, the ratio is printed, not bounded (1.5 to 3.4 there,
            // beside AsyncRenderTests).
            let sanitized = ProcessInfo.processInfo.environment["TSAN_OPTIONS"] != nil
            #expect(fewestFree == 0, "at most \(RenderSlots.shared.count - fewestFree) renders ran at once")
            if ProcessInfo.processInfo.activeProcessorCount >= 2, !sanitized {
                #expect(best <= 1.2, "20 renders in parallel took \(best) of their time one after another")
            }
        }

        /// Samples the process's free render slots every half millisecond on a thread of its own
        /// until ``stop()``, which returns the fewest it saw.
        final class SlotSampler: @unchecked Sendable {
            private let lock = NSLock()
            private var fewest = Int.max
            private var running = true

            init() {
                Thread {
                    while self.lock.withLock({ self.running }) {
                        let free = RenderSlots.shared.state.free
                        self.lock.withLock { self.fewest = min(self.fewest, free) }
                        usleep(500)
                    }
                }.start()
            }

            /// Stops sampling; the fewest free slots seen.
            @discardableResult func stop() -> Int {
                lock.withLock {
                    running = false
                    return fewest
                }
            }
        }

        /// Two font folders, each holding one face under a family name of its own; renders of each
        /// in parallel (four of each, interleaved) embed their own face and never the other's, and
        /// a render with neither folder finds neither family.
        @Test func concurrentRendersWithDifferentFontFoldersSeeOnlyTheirOwn() async throws {
            let folder = try Render.scratchFolder("concurrent-fonts")
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let tag = UInt32.random(in: 0..<1_000_000)
            let faces = [
                (source: "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf", family: "Typeset Own Serif \(tag)"),
                (source: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", family: "Typeset Own Sans \(tag)"),
            ]
            var folders: [String] = []
            for (index, face) in faces.enumerated() {
                try #require(FileManager.default.fileExists(atPath: face.source))
                let fonts = folder + "/fonts-\(index)"
                try FileManager.default.createDirectory(atPath: fonts, withIntermediateDirectories: true)
                try Support.renamedFont(at: face.source, family: face.family)
                    .write(to: URL(fileURLWithPath: fonts + "/Face.ttf"))
                folders.append(fonts)
            }
            let markdown = "# Own fonts\n\n" + Prose.sections(1)
            let reports = try await withThrowingTaskGroup(of: (Int, RenderReport).self) { group in
                for render in 0..<8 {
                    let which = render % 2
                    var options = Self.options()
                    options.themeRequest = ThemeRequest(fontFolders: [folders[which]], family: faces[which].family)
                    let output = folder + "/own-\(render).pdf"
                    group.addTask {
                        (
                            render,
                            try await Typesetter.render(
                                markdown: markdown, file: "own.md", to: output, options: options)
                        )
                    }
                }
                var reports: [Int: RenderReport] = [:]
                for try await (render, report) in group { reports[render] = report }
                return reports
            }
            #expect(reports.count == 8)
            func postScriptName(_ family: String) -> String { family.replacingOccurrences(of: " ", with: "") }
            for render in 0..<8 {
                let fonts = try PDFProbe.fonts(folder + "/own-\(render).pdf")
                let own = postScriptName(faces[render % 2].family)
                let other = postScriptName(faces[1 - render % 2].family)
                #expect(fonts.contains { $0.contains(own) }, "render \(render): its own face, in \(fonts)")
                #expect(!fonts.contains { $0.contains(other) }, "render \(render): not the other's, in \(fonts)")
            }
            // Neither folder: the family is not found, the theme's families are kept.
            var options = Self.options()
            options.themeRequest = ThemeRequest(family: faces[0].family)
            let report = try await Typesetter.render(
                markdown: markdown, file: "none.md", to: folder + "/none.pdf", options: options)
            #expect(report.diagnostics.contains { $0.message.contains("'\(faces[0].family)' not found") })
            let fonts = try PDFProbe.fonts(folder + "/none.pdf")
            #expect(!fonts.contains { $0.contains(postScriptName(faces[0].family)) }, "\(fonts)")
        }

        /// Renders in parallel, each with a font folder of its own, more than the configurations
        /// a process keeps: configurations are let go (their held files closed, their faces
        /// given up) while others render, and each render still embeds its own face, under a
        /// root (held files) and without one.
        @Test func rendersWithFontFoldersOfTheirOwnLetGoOfThemAndStayIntact() async throws {
            let folder = try Render.scratchFolder("own-folders")
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let tag = UInt32.random(in: 0..<1_000_000)
            let count = 20
            for render in 0..<count {
                let fonts = folder + "/\(render)/fonts"
                try FileManager.default.createDirectory(atPath: fonts, withIntermediateDirectories: true)
                try Support.renamedFont(
                    at: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", family: "Typeset Folder \(tag) \(render)"
                ).write(to: URL(fileURLWithPath: fonts + "/Face.ttf"))
                try #"{"name": "own", "fontFolders": ["fonts"], "families": {"sans": ["Typeset Folder "#
                    .appending("\(tag) \(render)\"]}}")
                    .write(toFile: folder + "/\(render)/theme.json", atomically: true, encoding: .utf8)
            }
            let markdown = "# Own folders\n\n" + Prose.sections(1)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for render in 0..<count {
                    var options = Self.options()
                    var text = markdown
                    if render % 2 == 0 {
                        options.themeRequest = ThemeRequest(
                            fontFolders: [folder + "/\(render)/fonts"], family: "Typeset Folder \(tag) \(render)")
                    } else {
                        // The document names its theme under a root: its font file is held open.
                        options.root = URL(fileURLWithPath: folder + "/\(render)")
                        text = "---\ntheme: theme.json\n---\n\n" + markdown
                    }
                    let file = folder + "/\(render)/own.md"
                    let output = folder + "/\(render).pdf"
                    group.addTask {
                        _ = try await Typesetter.render(markdown: text, file: file, to: output, options: options)
                    }
                }
                try await group.waitForAll()
            }
            for render in 0..<count {
                let fonts = try PDFProbe.fonts(folder + "/\(render).pdf")
                #expect(fonts.contains { $0.contains("TypesetFolder\(tag)\(render)") }, "render \(render): \(fonts)")
            }
        }

        /// The families installed with a bold italic face (fontconfig's first name of each), at
        /// most 14: a render that sets each in four faces draws far more than Cairo's ten open
        /// faces.
        static func familiesWithFourFaces() throws -> [String] {
            let listed = try PDFProbe.run("fc-list", ["--format", "%{family[0]}\n", ":style=Bold Italic"]).output
            let families = Set(listed.split(separator: "\n").map(String.init)).sorted()
            return Array(families.prefix(14))
        }

        /// A document setting eight of `families` (from the `offset`th, cyclically) in their
        /// upright, bold, italic and bold italic faces, each word tagged with the render, the family
        /// and the face so that its text can be read back and checked.
        static func manyFacesDocument(render: Int, families: [String], offset: Int) -> (
            markdown: String, words: [String]
        ) {
            var markdown = "# Faces \(render)\n\n"
            var words: [String] = []
            for step in 0..<8 {
                let index = (offset + step) % families.count
                let family = families[index]
                let tag = "r\(render)f\(index)"
                let faces = ["\(tag)upright", "\(tag)bold", "\(tag)italic", "\(tag)bolditalic"]
                words += faces
                markdown += "[\(faces[0]) **\(faces[1])** *\(faces[2])* ***\(faces[3])***]{family=\"\(family)\"}\n\n"
                markdown += Prose.sections(1).prefix(400) + "\n\n"
            }
            return (markdown, words)
        }

        /// Eight renders at once, twice, each drawing 32 faces of eight families (fourteen families
        /// between them, far more than the ten FreeType faces Cairo 1.16 keeps open per process):
        /// every render succeeds, and its PDF passes `qpdf --check`, embeds more than ten fonts,
        /// reads back every tagged word in order and has the bytes it has when rendered alone (a
        /// PDF that differs is kept, with the one rendered alone, in the temporary folder's
        /// `typeset-failed-concurrent-faces-<render>-<round>`, and the message names the first
        /// object that differs, ``PDFDifference``). Renders whose Pango and Cairo work ran at once
        /// on Cairo's own face cache, which closes a face another thread is about to use, crashed
        /// in libfreetype here.
        @Test(.slow) func concurrentRendersDrawingManyFacesEachStayIntact() async throws {
            let families = try Self.familiesWithFourFaces()
            try #require(families.count >= 9, "families with four faces: \(families)")
            let folder = try Render.scratchFolder("concurrent-faces")
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let options = Self.options()
            let documents = (0..<8).map { Self.manyFacesDocument(render: $0, families: families, offset: $0 * 3) }
            for round in 0..<2 {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for (render, document) in documents.enumerated() {
                        group.addTask {
                            _ = try await Typesetter.render(
                                markdown: document.markdown, file: "faces\(render).md",
                                to: folder + "/together-\(round)-\(render).pdf", options: options)
                        }
                    }
                    try await group.waitForAll()
                }
            }
            for (render, document) in documents.enumerated() {
                _ = try await Typesetter.render(
                    markdown: document.markdown, file: "faces\(render).md", to: folder + "/alone-\(render).pdf",
                    options: options)
            }
            for (render, document) in documents.enumerated() {
                let alone = try Data(contentsOf: URL(fileURLWithPath: folder + "/alone-\(render).pdf"))
                for round in 0..<2 {
                    let path = folder + "/together-\(round)-\(render).pdf"
                    #expect(try PDFProbe.qpdfClean(path), "render \(render), round \(round): qpdf --check")
                    let fonts = Set(try PDFProbe.fonts(path))
                    #expect(fonts.count > 10, "render \(render): \(fonts.count) fonts embedded, \(fonts.sorted())")
                    let text = try PDFProbe.text(path)
                    let found = text.split(whereSeparator: { $0.isWhitespace }).map(String.init).filter {
                        $0.hasPrefix("r\(render)f")
                    }
                    #expect(found == document.words, "render \(render), round \(round): the tagged words in order")
                    let same = try Data(contentsOf: URL(fileURLWithPath: path)) == alone
                    let kept =
                        same
                        ? ""
                        : PDFDifference.keep(
                            expected: folder + "/alone-\(render).pdf", actual: path,
                            name: "concurrent-faces-\(render)-\(round)")
                    #expect(same, "render \(render), round \(round): the bytes it has rendered alone; \(kept)")
                }
            }
        }
    }
}
