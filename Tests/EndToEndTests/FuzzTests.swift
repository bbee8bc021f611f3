import DocumentModel
import Foundation
import TestSupport
import Testing
import Typesetter
import Typography

@testable import MarkdownParser

/// Mutation fuzzing through the library, in-process: Markdown with attributes (noncharacters in
/// their names and values too), front matter, tables and lists (long ones of 40–300 rows or
/// items), footnotes and images; theme and design-token JSON; image files.
///
/// Oracle, per case: no crash; no hang (a per-case time limit); the render succeeds or throws
/// one line naming a file (a theme or token file that cannot be used fails with its
/// problems, each `file:line:column: message`; front matter with a recursive or exploding
/// YAML alias fails at the alias, and a bad `paper`, `margins` or `size-category` — judged as
/// the options are — at its key); every PDF written passes `qpdf --check` and is tagged (no
/// untagged fallback); every word of the document's visible text is in the PDF. Themes a decode accepts are written
/// back
/// with `ThemeWriter` and must decode and validate clean.
///
/// `make test` runs a fixed seed (``FuzzCampaign/defaultSeed``, about 300 cases). `make fuzz
/// SECONDS=600` runs the same generator with a fresh seed until the time is up
/// (`FUZZ_SECONDS`, `FUZZ_SEED`), saving each failing input to `fuzz/failures/` with a
/// one-line command that reproduces it; a case that crashes the process is left there as
/// `pending-…` (it is written before it runs).
@Suite(.slow) struct FuzzTests {
    @Test(arguments: 0..<FuzzCampaign.shards)
    func mutatedInputsNeverLoseTextOrTheDocument(shard: Int) throws {
        let campaign = FuzzCampaign.fromEnvironment()
        var failures: [String] = []
        var count = 0
        // One deadline for every shard: shards that wait for a core still stop on time, so
        // `FUZZ_SECONDS` is the campaign's wall time.
        let deadline = FuzzCampaign.started.addingTimeInterval(campaign.seconds ?? .infinity)
        var index = shard
        if let only = ProcessInfo.processInfo.environment["FUZZ_CASE"].flatMap(Int.init) {
            // Reproducing one case: the shard it belongs to runs it alone.
            guard only % FuzzCampaign.shards == shard else { return }
            let failure = try FuzzCampaign.run(seed: campaign.seed, index: only, saving: true)
            #expect(failure == nil, "\(failure ?? "")")
            return
        }
        while index < campaign.cases && Date() < deadline {
            if let failure = try FuzzCampaign.run(seed: campaign.seed, index: index, saving: campaign.saves) {
                failures.append(failure)
            }
            count += 1
            index += FuzzCampaign.shards
        }
        if campaign.seconds != nil {
            print("fuzz shard \(shard): seed \(campaign.seed), \(count) cases, \(failures.count) failures")
        }
        #expect(
            failures.isEmpty,
            "\(failures.count) of \(count) cases failed:\n\(failures.prefix(10).joined(separator: "\n"))")
    }
}

/// The oracle's own mistakes, found by `make fuzz`: words it expected that are rightly not
/// on the page.
@Suite struct FuzzOracleTests {
    /// An image alone in a setext heading is drawn in the heading's line, so its alt text is
    /// not on the page; alone in a paragraph it is a figure captioned with its alt text.
    @Test func altTextIsVisibleOnlyAsAFigureCaption() {
        let markdown =
            "![Vector figure](figure.svg)\n---\n\n![Caption words](figure.svg)\n\n| ![Cell alt](figure.svg) |\n|---|\n"
        let document = MarkdownParser.parse(markdown, file: "oracle.md").document
        #expect(FuzzCampaign.visibleWords(document) == ["Caption", "words"])
    }

    /// A word broken between letters across a page (text too large for the measure) is found
    /// with the page's foot and the next head between its halves; its letters scattered are not.
    @Test func aWordSplitOnceAcrossAPageIsFoundAndScatteredLettersAreNot() {
        let text = Array("andal2fuzztitle3/3inkto".utf8)
        #expect(FuzzCampaign.interrupted(Array("link".utf8), in: text))
        #expect(!FuzzCampaign.interrupted(Array("lank".utf8), in: Array("lxaxnxk".utf8)))
        #expect(!FuzzCampaign.interrupted(Array("link".utf8), in: Array("lxxinxk".utf8)))
    }

    /// After a right-to-left override (U+202E) the rest of the paragraph is drawn right to
    /// left: a word may be found reversed, or as two runs read in swapped order, only when the
    /// input holds the override; its letters scattered are not. The case the 600 s run on 01a08d6 flagged: a list item
    /// `n\u{202E}ested number` continued by `2.[w](#nowhere)her nested`, the link's colour making
    /// `w` a run of its own; a link that goes nowhere is now plain text, so a span of another
    /// colour stands in for it. A tagged line of several runs, one right to left, is drawn in
    /// the order it is read (``RightToLeftReadingOrderTests``): the two runs read `wher`.
    @Test func aWordAfterARightToLeftOverrideIsFoundReversed() throws {
        let markdown = " 1. n\u{202E}ested number\n  2.[w]{color=#0055aa}her nested\n"
        let pdf = Render.folder + "/oracle-rlo.pdf"
        _ = try Typesetter.render(markdown: markdown, file: "oracle-rlo.md", to: pdf, options: RenderOptions())
        let found = FuzzCampaign.letters(try PDFProbe.run("pdftotext", ["-raw", pdf, "-"]).output)
        #expect(found.contains("wher"), "\(found)")
        #expect(FuzzCampaign.isDrawn("wher", in: "xherwx", Array("xherwx".utf8), reversible: true))
        #expect(!FuzzCampaign.isDrawn("wher", in: "xherwx", Array("xherwx".utf8), reversible: false))
        #expect(FuzzCampaign.checkMarkdown(markdown, name: "oracle-rlo-check", theme: nil) == nil)
        #expect(FuzzCampaign.isDrawn("whe", in: "xehwx", Array("xehwx".utf8), reversible: true))
        #expect(!FuzzCampaign.isDrawn("whe", in: "xhwex", Array("xhwex".utf8), reversible: true))
    }

    /// A long word after a right-to-left override, broken between letters over several lines of
    /// a narrow measure with a run of another size inside it, is drawn whole (every line its
    /// piece reversed) though pdftotext reads its glyphs out of order: the oracle finds all its
    /// letters in one stretch, and misses a word that lost one letter or its run. The case
    /// `make fuzz SECONDS=600` flagged on d3f2769 (seed 2941924922166634672, case 205).
    @Test func aLongWordBrokenOverRightToLeftLinesIsFoundByItsLetters() throws {
        let word = String(repeating: "kilo", count: 75)
        let markdown = "lead \u{202E}[w]{size=14}\(word) tail\n"
        let pdf = Render.folder + "/oracle-rlo-broken.pdf"
        let report = try Typesetter.render(
            markdown: markdown, file: "oracle-rlo-broken.md", to: pdf, options: RenderOptions())
        #expect(report.diagnostics.contains { $0.message.contains("broken between letters") })
        let found = FuzzCampaign.letters(try PDFProbe.run("pdftotext", ["-raw", pdf, "-"]).output)
        let target = "w" + word
        #expect(FuzzCampaign.isDrawn(target, in: found, Array(found.utf8), reversible: true))
        #expect(FuzzCampaign.checkMarkdown(markdown, name: "oracle-rlo-broken-check", theme: nil) == nil)
        // One letter fewer in the PDF, or the run lost: not found.
        let lessOneO = String(found.replacingOccurrences(of: "o", with: "", options: [], range: found.range(of: "o")))
        #expect(!FuzzCampaign.isDrawn(target, in: lessOneO, Array(lessOneO.utf8), reversible: true))
        let lessTheRun = found.replacingOccurrences(of: "w", with: "")
        #expect(!FuzzCampaign.isDrawn(target, in: lessTheRun, Array(lessTheRun.utf8), reversible: true))
        // Order is kept for short words and without the override.
        #expect(!FuzzCampaign.isDrawn("whe", in: "xhwex", Array("xhwex".utf8), reversible: true))
        let sorted = String(target.sorted())
        #expect(!FuzzCampaign.isDrawn(target, in: sorted, Array(sorted.utf8), reversible: false))
    }

    /// A word set so large that it is broken between letters over several pages (`make fuzz`,
    /// seed 994297306441516313, case 7004: `[outlined]{size=1000}`, set at 344 pt, one to three
    /// letters a page) is drawn: the oracle finds its letters in order, with each page's foot
    /// and the next page's head between them; a letter lost or two swapped is still missing.
    @Test func aWordBrokenBetweenLettersOverPagesIsFoundInOrder() throws {
        let markdown = "Some text with a footnote.[^1] [outlined]{size=1000} after.\n\n[^1]: The note.\n"
        #expect(FuzzCampaign.checkMarkdown(markdown, name: "oracle-broken-pages", theme: nil) == nil)
        let text = Array("someoutextfuzztitle2utline3lin4fuzztitleed5".utf8)
        #expect(FuzzCampaign.inOrder(Array("outlined".utf8), within: text))
        #expect(
            !FuzzCampaign.inOrder(Array("outlined".utf8), within: Array("someoutextfuzztitle2utl3lin4fuzztitle".utf8)))
        #expect(!FuzzCampaign.inOrder(Array("outlined".utf8), within: Array("dtuoxlinxe".utf8)))
    }
}

/// The generator and the oracle.
enum FuzzCampaign {
    /// Cases per `make test` run, split over ``shards`` parallel tests.
    static let cases = 300
    /// Parallel test cases (Swift Testing runs parameterized cases concurrently).
    static let shards = 4
    /// The seed `make test` uses.
    static let defaultSeed: UInt64 = 0x7E57_5E7

    /// Per-case time limit, s: 100 times the time of an ordinary document as large as the
    /// largest inputs (a 300-row table and five sections of prose), measured once in the same
    /// process, so that it follows the build (debug or release) and the machine; a quadratic
    /// stage on these inputs takes minutes.
    static let timeLimit: Double = {
        let reference = Prose.sections(5) + Prose.table(rows: 300)
        let path = Render.folder + "/fuzz-reference.pdf"
        let seconds = Timing.bestSeconds {
            _ = try? Typesetter.render(
                markdown: reference, file: "fuzz-reference.md", to: path, options: RenderOptions())
        }
        return 100 * seconds
    }()

    struct Settings {
        var seed: UInt64
        var seconds: Double?
        var saves: Bool
        /// Cases 0 ..< `cases` are run (all the time allows, with `seconds`).
        var cases: Int
    }

    /// `FUZZ_SEED` (a number; `random` for a fresh one), `FUZZ_SECONDS` (run until then),
    /// `FUZZ_CASES` (run the cases numbered below it, over the shards as a campaign runs them:
    /// a campaign's first cases again, whose order a crash may depend on), `FUZZ_SAVE` (save
    /// failures to `fuzz/failures/`, on with `FUZZ_SECONDS`).
    static func fromEnvironment() -> Settings {
        let env = ProcessInfo.processInfo.environment
        var seed = defaultSeed
        if let s = env["FUZZ_SEED"] { seed = s == "random" ? fixedRandomSeed : UInt64(s) ?? defaultSeed }
        let seconds = env["FUZZ_SECONDS"].flatMap(Double.init)
        let cases = env["FUZZ_CASES"].flatMap(Int.init) ?? (seconds == nil ? Self.cases : .max)
        return Settings(
            seed: seed, seconds: seconds, saves: seconds != nil || env["FUZZ_SAVE"] != nil, cases: cases)
    }

    /// When the first shard started (the campaign's clock).
    static let started = Date()

    /// One fresh seed per process, shared by the shards.
    static let fixedRandomSeed = UInt64.random(in: 1...UInt64.max / 2)

    static let failureFolder = Render.packageRoot + "/fuzz/failures"

    /// Runs case `index` of `seed`; nil when the oracle holds, else a one-line failure with its
    /// reproduction.
    static func run(seed: UInt64, index: Int, saving: Bool) throws -> String? {
        var rng = SeededRandom(seed: seed ^ (UInt64(index) &* 0x9E37_79B9_7F4A_7C15))
        let input = FuzzInput.generate(&rng, index: index)
        let name = "fuzz-\(seed)-\(index)"
        let repro = "FUZZ_SEED=\(seed) FUZZ_CASE=\(index) swift test --filter FuzzTests"
        let pending = failureFolder + "/pending-\(name).\(input.fileExtension)"
        if saving {
            try? FileManager.default.createDirectory(atPath: failureFolder, withIntermediateDirectories: true)
            FileManager.default.createFile(atPath: pending, contents: input.data)
        }
        let start = Date()
        let problem = check(input, name: name)
        let elapsed = Date().timeIntervalSince(start)
        let verdict =
            problem
            ?? (elapsed > timeLimit
                ? "took \(elapsed) s (limit \(timeLimit) s, 100 times an ordinary document's)" : nil)
        if saving { try? FileManager.default.removeItem(atPath: pending) }
        guard let verdict else { return nil }
        if saving {
            let saved = failureFolder + "/\(name).\(input.fileExtension)"
            FileManager.default.createFile(atPath: saved, contents: input.data)
            try? "\(verdict)\nreproduce: \(repro)   (input: \(saved))\n".write(
                toFile: saved + ".txt", atomically: false, encoding: .utf8)
        }
        return "\(name) [\(input.kind)]: \(verdict) — reproduce: \(repro)"
    }

    /// The oracle for one input; nil when it holds.
    static func check(_ input: FuzzInput, name: String) -> String? {
        switch input.kind {
        case .markdown where input.bytes != nil:
            // Bytes that are not all UTF-8 are read as the command line reads a file: each bad
            // sequence is U+FFFD (as browsers and Pandoc decode), with a warning; the rest is set.
            let path = Render.folder + "/\(name)-input.md"
            FileManager.default.createFile(atPath: path, contents: input.data)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let text: String
            do { text = try InputFile.read(path).text } catch {
                return "invalid UTF-8 refuses the document: \(String(describing: error).prefix(200))"
            }
            let lossy = String(decoding: input.data, as: UTF8.self)
            func valid(_ text: String) -> [Unicode.Scalar] { text.unicodeScalars.filter { $0 != "\u{FFFD}" } }
            guard valid(text) == valid(lossy) else {
                return "invalid UTF-8 decoded to other text than U+FFFD for each bad sequence"
            }
            return checkMarkdown(text, name: name, theme: nil)
        case .markdown: return checkMarkdown(input.text, name: name, theme: nil)
        case .theme, .tokens:
            let file = name + "." + input.fileExtension
            let theme: Theme?
            if input.kind == .tokens {
                do { theme = try TokenImporter.importTokens(Data(input.text.utf8), file: file).theme } catch let error
                    as ThemeError
                {
                    guard error.problems.allSatisfy({ $0.file == file && !$0.message.contains("\n") }) else {
                        return "bad token error: \(error)"
                    }
                    return nil
                } catch { return "unexpected error \(error)" }
            } else {
                let (decoded, problems) = ThemeLoader.decode(Data(input.text.utf8), file: file)
                guard problems.allSatisfy({ !$0.message.contains("\n") }) else { return "multi-line problem" }
                theme = problems.contains { $0.severity == .error } ? nil : decoded
            }
            guard let theme else { return nil }
            // Everything Typeset accepts it can write, and what it writes reads back clean.
            let written = ThemeWriter.json(for: theme)
            let (reread, problems) = ThemeLoader.decode(Data(written.utf8), file: "written.json")
            if reread == nil || problems.contains(where: { $0.severity == .error }) {
                return "accepted theme written back fails: \(problems.prefix(2))"
            }
            return checkMarkdown(
                "# Heading text\n\nBody words [span words]{.caption} and `code words`.\n\n| cell | more "
                    + "|\n|---|---|\n| alpha | beta |\n",
                name: name, theme: theme)
        }
    }

    static func checkMarkdown(_ markdown: String, name: String, theme: Theme?) -> String? {
        let pdf = Render.folder + "/\(name).pdf"
        try? FileManager.default.removeItem(atPath: pdf)
        var options = RenderOptions(
            theme: theme, creationDate: Date(timeIntervalSince1970: 0), baseDirectory: FuzzInput.imageFolder)
        options.strict = false
        let report: RenderReport
        do {
            report = try Typesetter.render(markdown: markdown, file: "\(name).md", to: pdf, options: options)
        } catch let error as TypesetError {
            let text = error.description
            // A document never fails; only a page the front matter makes impossible may.
            if case .invalidPage = error, !text.contains("\n") { return nil }
            // …or front matter whose YAML aliases recur or explode: an error at the alias.
            if case .invalidInput(let errors) = error,
                errors.allSatisfy({
                    $0.location?.file == "\(name).md" && $0.message.contains("alias") && !$0.message.contains("\n")
                })
            {
                return nil
            }
            // …or a page setting refused as its option would be: an error at its key.
            let pageKeys = ["paper", "margins", "size-category"].map { "front matter '\($0)" }
            if case .invalidInput(let errors) = error,
                errors.allSatisfy({ e in
                    e.location?.file == "\(name).md" && (e.location?.line ?? 0) > 0
                        && pageKeys.contains { e.message.hasPrefix($0) } && !e.message.contains("\n")
                })
            {
                return nil
            }
            return "render failed: \(text.prefix(300))"
        } catch {
            return "render failed: \(error)"
        }
        guard (try? PDFProbe.qpdfClean(pdf)) == true else { return "qpdf --check fails" }
        // What is drawn is tagged: the untagged fallback is for what Cairo cannot tag.
        if let fallback = report.diagnostics.first(where: { $0.message.contains("could not be tagged") }) {
            return "tagged render fell back: \(fallback.message.prefix(200))"
        }
        // The words expected come from converting cmark-gfm's whole tree at once, not from the
        // windowed parse the render reads: a block that parse loses is missed, not expected.
        let expected = visibleWords(MarkdownParser.parse(markdown, file: "\(name).md", lazily: false).document)
        guard !expected.isEmpty else { return nil }
        let raw = (try? PDFProbe.run("pdftotext", ["-raw", pdf, "-"]).output) ?? ""
        // A character no font draws is a box showing its code point in hex digits (Pango's
        // hex box), extracted as lines of 2–3 digits: not text of the document.
        // pdftotext may also put a row of the box on the line of the text beside it
        // (`.pn 01C 565 M` for U+1C565 between "pn" and "M"): a 2–3 character token of hex
        // digits holding a digit is taken for a box row too.
        let hexBox = try? NSRegularExpression(
            pattern: "^[0-9A-F]{2,3}$|(?<![0-9A-Za-z])(?=[0-9A-F]{0,2}[0-9])[0-9A-F]{2,3}(?![0-9A-Za-z])",
            options: .anchorsMatchLines)
        let text =
            hexBox?.stringByReplacingMatches(in: raw, range: NSRange(raw.startIndex..., in: raw), withTemplate: "")
            ?? raw
        let found = letters(text)
        let foundLetters = Array(found.utf8)
        let reverses = markdown.unicodeScalars.contains("\u{202E}")
        // A word wider than the measure is broken between letters (with a warning): set large
        // enough, its pieces lie on several pages.
        let brokenBetweenLetters = report.diagnostics.contains { $0.message.contains("broken between letters") }
        let missing = expected.filter {
            let word = letters($0)
            return !isDrawn(word, in: found, foundLetters, reversible: reverses)
                && !(brokenBetweenLetters && inOrder(Array(word.utf8), within: foundLetters))
        }
        try? FileManager.default.removeItem(atPath: pdf)
        return missing.isEmpty
            ? nil : "\(missing.count) of \(expected.count) words missing from the PDF, e.g. \(missing.prefix(5))"
    }

    /// Whether `word` (its letters) is in the PDF's letters `found` (`foundLetters`: their
    /// UTF-8), whole or ``interrupted(_:in:)``. With `reversible` — the input holds a
    /// right-to-left override (U+202E), which sets the rest of its paragraph right to left,
    /// each word's letters in reverse order (Unicode bidirectional algorithm, UAX #9 rules
    /// X4–X6 and L2) — its reversal counts too.
    static func isDrawn(_ word: String, in found: String, _ foundLetters: [UInt8], reversible: Bool) -> Bool {
        if found.contains(word) || interrupted(Array(word.utf8), in: foundLetters) { return true }
        guard reversible else { return false }
        // Reversed within one glyph run, or two runs (a link in the word) drawn right to left,
        // each read forwards: the second half before the first.
        let reversed = String(word.reversed())
        return found.contains(reversed) || interrupted(Array(reversed.utf8), in: foundLetters)
            || splitOnce(Array(word.utf8), in: foundLetters, halvesSwapped: true)
            || (word.utf8.count >= brokenWordLength && allLetters(Array(word.utf8), within: foundLetters))
    }

    /// Whether `word`'s letters are in `text` in order, with at most 2,000 other letters between
    /// two of them: a word broken between letters over several lines and pages, each page's
    /// foot and the next one's head between its pieces. A letter lost, or two swapped, is not.
    static func inOrder(_ word: [UInt8], within text: [UInt8]) -> Bool {
        guard let first = word.first else { return true }
        for start in text.indices where text[start] == first {
            var i = start + 1
            var j = 1
            var gap = 0
            while j < word.count, i < text.count, gap <= 2_000 {
                if text[i] == word[j] {
                    j += 1
                    gap = 0
                } else {
                    gap += 1
                }
                i += 1
            }
            if j == word.count { return true }
        }
        return false
    }

    /// Letters from which a word drawn right to left may be broken between letters over several
    /// lines: each line's piece set right to left, its runs in visual order, and pdftotext may
    /// read such glyphs one per line in any order. Shorter words keep their letter order.
    static let brokenWordLength = 24

    /// Whether every letter of `word`, as many times as it occurs, is in one stretch of `text`
    /// no longer than the word plus 2,000 letters (the interruptions ``interrupted(_:in:)``
    /// allows), in any order: a letter or run lost from the word is missing from every stretch.
    /// Linear in `text` (a sliding window of letter counts).
    static func allLetters(_ word: [UInt8], within text: [UInt8]) -> Bool {
        var short = [Int](repeating: 0, count: 256)
        for letter in word { short[Int(letter)] += 1 }
        var lacking = short.filter { $0 > 0 }.count
        let width = word.count + 2_000
        for (i, letter) in text.enumerated() {
            short[Int(letter)] -= 1
            if short[Int(letter)] == 0 { lacking -= 1 }
            if i >= width {
                let leaving = Int(text[i - width])
                if short[leaving] == 0 { lacking += 1 }
                short[leaving] += 1
            }
            if lacking == 0 { return true }
        }
        return false
    }

    /// Lower-cased, with whitespace and hyphens (line-break hyphens, soft hyphens) removed.
    static func normalized(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.lowercased().unicodeScalars.filter {
                    !$0.properties.isWhitespace && !["-", "\u{AD}", "\u{2010}", "\u{21B5}", "\u{21AA}"].contains($0)
                }))
    }

    /// Whether `word` is in `text` with at most 2,000 other letters between its letters: a word
    /// split by a page break has the foot of one page (footnotes) and the head of the next (the
    /// running head) between its halves, and a table row split across pages has its other
    /// cells' slices. Anchored on its first 12 letters; a shorter word (set so large that a page
    /// holds only its first letters) may instead be split once, anywhere, its two halves whole.
    static func interrupted(_ word: [UInt8], in text: [UInt8]) -> Bool {
        if word.count <= 12, splitOnce(word, in: text) { return true }
        let anchor = Array(word.prefix(12))
        guard !anchor.isEmpty, text.count >= word.count else { return false }
        var start = 0
        while start + anchor.count <= text.count {
            if text[start..<start + anchor.count].elementsEqual(anchor) {
                var i = start + anchor.count
                var j = anchor.count
                var skipped = 0
                while j < word.count, i < text.count, skipped <= 2_000 {
                    if text[i] == word[j] { j += 1 } else { skipped += 1 }
                    i += 1
                }
                if j == word.count { return true }
            }
            start += 1
        }
        return false
    }

    /// Whether `word` is in `text` as two whole halves with at most 2,000 other letters between
    /// (`halvesSwapped`: the second half first).
    static func splitOnce(_ word: [UInt8], in text: [UInt8], halvesSwapped: Bool = false) -> Bool {
        for cut in 1..<max(word.count, 1) {
            let (head, tail) = halvesSwapped ? (word[cut...], word[..<cut]) : (word[..<cut], word[cut...])
            var start = 0
            while start + head.count <= text.count {
                if text[start..<start + head.count].elementsEqual(head) {
                    let from = start + head.count
                    let to = min(text.count, from + 2_000 + tail.count)
                    if from + tail.count <= to,
                        (from...(to - tail.count)).contains(where: { text[$0..<$0 + tail.count].elementsEqual(tail) })
                    {
                        return true
                    }
                }
                start += 1
            }
        }
        return false
    }

    /// Only the ASCII letters, lower-cased: what the oracle compares. List markers, page
    /// numbers and footnote marks drawn between two lines of one word (the PDF's content order)
    /// do not split it.
    static func letters(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.lowercased().unicodeScalars.filter { $0.isASCII && $0.properties.isAlphabetic }))
    }

    /// ASCII words of three or more letters in the text a reader should see:
    /// headings, paragraphs, lists, quotes, code, tables, divs, footnotes, image captions.
    static func visibleWords(_ document: Document) -> [String] {
        var words: [String] = []
        func add(_ text: String) {
            var current = ""
            for c in text.unicodeScalars {
                if c.isASCII, c.properties.isAlphabetic {
                    current.unicodeScalars.append(c)
                } else {
                    if current.count >= 3 { words.append(current) }
                    current = ""
                }
            }
            if current.count >= 3 { words.append(current) }
        }
        // An image inside a line is drawn there (its alt text is not text on the page; an
        // unreadable one shows it as extra); an image alone in a paragraph — not in a heading
        // or a table cell, where it is drawn in the line — is a figure whose caption is its
        // alt text.
        func text(_ inlines: [Inline], paragraph: Bool = false) -> String {
            let meaningful = inlines.filter {
                if case .text(let t) = $0 { return !t.allSatisfy(\.isWhitespace) }
                if case .softBreak = $0 { return false }
                return true
            }
            if paragraph, meaningful.count == 1, case .image(_, _, let alt, _) = meaningful[0] { return text(alt) }
            return inlines.map { inline -> String in
                switch inline {
                case .image: " "
                case .emphasis(let c), .strong(let c), .strikethrough(let c), .span(_, let c), .link(_, _, let c):
                    text(c)
                default: inline.plainText
                }
            }.joined()
        }
        func visit(_ block: Block) {
            switch block.kind {
            case .paragraph(let inlines): add(text(inlines, paragraph: true))
            case .heading(_, let inlines): add(text(inlines))
            case .list(let list):
                for item in list.items {
                    for child in item.blocks { visit(child) }
                }
            case .blockQuote(let blocks), .div(let blocks), .alert(_, let blocks):
                for child in blocks { visit(child) }
            case .definitionList(let items):
                for item in items {
                    add(text(item.term))
                    for child in item.definitions.joined() { visit(child) }
                }
            case .codeBlock(_, let text): add(text)
            case .table(let table):
                for cell in table.header { add(text(cell)) }
                for row in table.rows {
                    for cell in row { add(text(cell)) }
                }
            case .thematicBreak, .html, .pageBreak: break
            }
        }
        for block in document.blocks { visit(block) }
        for note in document.footnotes.values {
            for block in note { visit(block) }
        }
        return words
    }
}

/// A noncharacter as a string (Swift literals may not hold them).
func noncharacter(_ value: UInt32) -> String { String(Character(Unicode.Scalar(value)!)) }

/// One generated input.
struct FuzzInput {
    enum Kind: String { case markdown, theme, tokens }
    var kind: Kind
    var text: String
    /// The input as bytes when they are not all UTF-8 (invalid sequences written as bytes);
    /// nil: `text`'s UTF-8.
    var bytes: [UInt8]? = nil
    var fileExtension: String { kind == .markdown ? "md" : "json" }
    /// What is written to the input file.
    var data: Data { bytes.map { Data($0) } ?? Data(text.utf8) }

    /// A folder of image files for `![…](…)`: good ones and damaged copies.
    static let imageFolder: String = {
        let folder = Render.folder + "/fuzz-images"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let source = Render.packageRoot + "/templates/images/"
        for name in ["line-height.png", "press.jpg"] {
            guard let data = FileManager.default.contents(atPath: source + name) else { continue }
            FileManager.default.createFile(atPath: folder + "/" + name, contents: data)
            FileManager.default.createFile(atPath: folder + "/truncated-" + name, contents: data.prefix(data.count / 3))
            var flipped = [UInt8](data)
            for i in stride(from: 16, to: flipped.count, by: max(1, flipped.count / 40)) { flipped[i] ^= 0x5A }
            FileManager.default.createFile(atPath: folder + "/flipped-" + name, contents: Data(flipped))
        }
        let svg = Render.packageRoot + "/Tests/EndToEndTests/Fixtures/figure.svg"
        if let data = FileManager.default.contents(atPath: svg) {
            FileManager.default.createFile(atPath: folder + "/figure.svg", contents: data)
            FileManager.default.createFile(atPath: folder + "/broken.svg", contents: data.prefix(data.count / 2))
        }
        FileManager.default.createFile(atPath: folder + "/empty.png", contents: Data())
        return folder
    }()

    static let seeds: [String] = [
        "---\ntitle: Fuzz title\nauthor: [Ann, Bob]\nmargins: 20mm\nheader: \"{title} {page}/{pages}\"\ntoc: "
            + "true\n---\n\n# First heading {#top}\n\nA paragraph with *emphasis*, **strong words**, `inline code`, "
            + "~~struck~~ and a [link](https://example.com) to [the top](#top).\n\n## Second heading {.display "
            + "tracking=-0.5}\n\nText with [headline words]{.headline kerning=-0.2} and "
            + "[outlined]{strokeColor=#2F5BD3 strokeWidth=0.8}.[^1]\n\n[^1]: A footnote with words.\n",
        "# 한국어 제목\n\n한국어 문단은 단어 단위로 줄을 바꾼다 keep all 규칙을 따른다.\n\n- item one\n- item two\n  1. nested number\n  2. "
            + "another nested\n- [x] done task\n- [ ] open task\n\n> A quote with words\n> and more words\n",
        "| Left | Center | Right |\n|:--|:-:|--:|\n| alpha | beta | gamma |\n| delta with longer words | epsilon | "
            + "12345 |\n\n::: {.caption align=center}\nA centred caption div.\n:::\n\n```swift\nlet code = "
            + "\"block\"\nprint(code)\n```\n",
        "Intro paragraph.\n\n![An image caption](line-height.png)\n\n![Missing image](nowhere.png)\n\n![Vector "
            + "figure](figure.svg)\n\n\\newpage\n\nAfter the break {size=30}.\n\n---\n\n[Small caps words]{smallCaps} "
            + "and [big]{size=200} and [tiny]{size=1}.\n",
    ]

    static let fragments: [String] = [
        "[", "]", "{", "}", "{.display}", "{size=1000}", "{size=1e308}", "{tracking=1e9}", "{weight=950}", "{.nosuch}",
        "*", "**", "_", "`", "```", "\n", "\n\n", "#", "## ", "> ", "- ", "1. ", "| a | b |\n|---|---|\n| c | d |\n",
        "\nwords above\n| head | cell |\n|---|---|\n| body | cell |\n",
        ":::", "::: {.caption}\n", "\\newpage", "<!--", "-->", "<b>", "&#xD800;", "&#0;", "&amp;", "[^9]", "[^1]",
        noncharacter(0xFFFF), noncharacter(0xFFFE), noncharacter(0xFDD0), noncharacter(0x10FFFF), "\u{0}", "\u{1}",
        "\u{7F}", "\u{85}", "\u{2028}", "\u{200D}",
        "\u{301}", "\u{FE0F}", "😀", "👩‍👩‍👧", "한", "글자", "漢字", "ا", "שלום", "\u{202E}", "\t", "\r\n",
        "![x](flipped-press.jpg)", "![y](truncated-line-height.png)", "![z](broken.svg)", "![e](empty.png)",
        "![s](figure.svg)", "[w](#nowhere)", "<https://example.com/a(b)>", "---\n", "~~~", "$$", "\\",
        "---\ntitle: [a, b\n---\n", "---\na: &a [*a, *a]\n---\n", "---\nmargins: 1e400mm\n---\n",
        "---\npaper: 1mm x 1mm\n---\n",
        // Noncharacters and controls inside attribute lists, names and values.
        "[w]{title=\"" + noncharacter(0xFFFF) + "\"}", "{#id" + noncharacter(0xFDD0) + "}",
        "[w]{family=\"" + noncharacter(0xFFFE) + "\"}",
        "{." + noncharacter(0x10FFFF) + " key=\u{1}}",
        "![a" + noncharacter(0xFFFF) + "](figure.svg){width=\"" + noncharacter(0xFDEF) + "\"}",
        // HTML blocks whose void or closing elements are followed by more elements, and the
        // openings of READMEs.
        "<hr>\n<p>second paragraph words</p>\n", "<br>\n<p>after break words</p>\n",
        "<img src=\"figure.svg\">\n<p>after image words</p>\n", "<ul><li>listed</li></ul>\n<p>after list words</p>\n",
        "<table><tr><td>cell</td></tr></table>\n<p>after table words</p>\n",
        "<h1 align=center>Title words</h1>\n<p align=center>Intro words</p>\n",
        "<blockquote>quoted words</blockquote>\n<p>following words</p>\n",
        "<details><summary>Summary words</summary>\n\nBody words\n</details>\n", "<br/><hr/><img alt=x>\n",
        // Image paths that are not regular files, and absurd lengths.
        "![zero](/dev/zero)", "![random](/dev/urandom)", "![folder](.)", "![folder](/tmp)", "![null](/dev/null)",
        "![w](figure.svg){width=1e-300px}", "![w](line-height.png){width=1e300px}", "![w](figure.svg){height=-0px}",
        "[tiny]{size=1e-300}", "{width=1e-300px}", "![w](figure.svg){width=0.0000001%}",
        // Soft hyphens and combining marks.
        "hy\u{AD}phen\u{AD}ated", "e\u{301}\u{302}\u{303}\u{304}\u{305}", "\u{AD}\u{AD}\u{AD}",
        // Characters that draw nothing between right-to-left letters, in tracked text (a run of
        // their own whose advance may fall below zero).
        "\n\n# ب\u{200C}ب\n\n", "می\u{200C}خواهم", "[ب\u{200F}ש]{tracking=2}", "[ש\u{301}a]{tracking=-1}",
        "\n\n# 字\u{301}ب\u{2060}ي\n\n",
    ]

    /// Spaces other than U+0020: ideographic, the U+2000 block (en quad … hair space), Ogham.
    static let otherSpaces: [Unicode.Scalar] =
        [0x3000, 0x1680, 0x00A0, 0x202F, 0x205F].compactMap(Unicode.Scalar.init)
        + (0x2000...0x200A).compactMap(Unicode.Scalar.init)

    /// Characters with no width of their own that a run of spaces may hold.
    static let marksInSpaces: [Unicode.Scalar] =
        [0x200B, 0x200D, 0xFE0F, 0xFE00, 0x034F, 0x0301, 0x200E, 0x200F, 0x00AD, 0x3164, 0xE0041]
        .compactMap(Unicode.Scalar.init)

    /// Byte sequences that are not UTF-8: a lone continuation byte, overlong forms, a
    /// surrogate, truncated sequences, bytes that never occur, a code point past U+10FFFF.
    static let invalidSequences: [[UInt8]] = [
        [0x80], [0xBF], [0xC0, 0xAF], [0xC1, 0xBF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF],
        [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0xF4, 0x90, 0x80, 0x80], [0xF5], [0xF8, 0x88, 0x80, 0x80, 0x80],
        [0xFE], [0xFF],
        [0xC3], [0xC3, 0x28], [0xE2, 0x28, 0xA1],
    ]

    /// One block holding many of one thing: links, list items or hard breaks (hundreds to
    /// thousands), a run of other spaces before a word, a long run of combining marks or soft
    /// hyphens, a long URL or e-mail autolink, or a long link.
    static func crowd(_ rng: inout SeededRandom) -> String {
        func word() -> String { words[rng.below(words.count)] }
        let count = 200 + rng.below(2_000)
        switch rng.below(10) {
        case 0: return (0..<count).map { "[\(word()) \($0)](https://example.com/\($0))" }.joined(separator: " ")
        case 1: return (0..<count).map { _ in rng.below(4) == 0 ? "-" : "- \(word())" }.joined(separator: "\n")
        case 2:
            let breaks = ["  \n", "\\\n", "<br>"]
            return (0..<count).map { _ in word() + breaks[rng.below(breaks.count)] }.joined() + "end"
        case 3:
            let space = Character(otherSpaces[rng.below(otherSpaces.count)])
            // Enough of them, at the start of a paragraph or after a word, to be wider than the
            // measure, and half the time a few marks inside (joiners, variation selectors, a
            // combining mark, directional marks, a soft hyphen, a Hangul filler, a tag).
            var run = Array(repeating: space, count: 1 + rng.below(200))
            if rng.below(2) == 0 {
                for _ in 0..<(1 + rng.below(3)) {
                    run.insert(Character(marksInSpaces[rng.below(marksInSpaces.count)]), at: rng.below(run.count + 1))
                }
            }
            return (rng.below(2) == 0 ? "" : word()) + String(run) + "x\(word()) after \(word())"
        case 4: return word() + String(repeating: "\u{301}", count: 1 + rng.below(3_000)) + " \(word())"
        case 5: return Array(repeating: word(), count: 2 + rng.below(3_000)).joined(separator: "\u{AD}")
        case 6:
            let path = (0..<(50 + rng.below(2_000))).map { _ in word() }.joined(separator: "/")
            return rng.below(2) == 0 ? "<https://example.com/\(path)>" : "see https://example.com/\(path) here"
        case 7:
            let local = (0..<(20 + rng.below(1_000))).map { _ in word() }.joined(separator: ".")
            return rng.below(2) == 0 ? "<\(local)@example.com>" : "mail \(local)@example.com now"
        case 8:
            let text = (0..<count).map { _ in word() }.joined(separator: " ")
            return "[\(text)](https://example.com/" + String(repeating: "a", count: rng.below(5_000)) + ")"
        default:
            // Void and closing elements in one HTML block, with text between them.
            let elements = [
                "<hr>", "<br>", "<img src=\"figure.svg\">", "</ul>", "</ol>", "</table>",
                "<p>\(word()) words</p>", "<wbr>",
            ]
            let block = (0..<(2 + rng.below(20))).map { _ in elements[rng.below(elements.count)] + "\n" }.joined()
            return block + "<p>closing \(word())</p>"
        }
    }

    static let words = [
        "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet",
        "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango",
    ]

    static func generate(_ rng: inout SeededRandom, index: Int) -> FuzzInput {
        switch index % 10 {
        case 8: return FuzzInput(kind: .theme, text: mutateJSON(themeSeed, &rng))
        case 9: return FuzzInput(kind: .tokens, text: mutateJSON(tokenSeed, &rng))
        default: break
        }
        var text = Array(seeds[rng.below(seeds.count)].unicodeScalars)
        for _ in 0..<(1 + rng.below(8)) {
            let at = rng.below(text.count + 1)
            switch rng.below(8) {
            case 0, 1: text.insert(contentsOf: fragments[rng.below(fragments.count)].unicodeScalars, at: at)
            case 2:  // delete a span
                let end = min(text.count, at + rng.below(30))
                text.removeSubrange(at..<end)
            case 3:  // duplicate a span
                let end = min(text.count, at + rng.below(60))
                text.insert(contentsOf: text[at..<end], at: at)
            case 4:  // a long word or a long run of words
                let word = words[rng.below(words.count)]
                let piece =
                    rng.below(2) == 0
                    ? String(repeating: word, count: 20 + rng.below(200))
                    : Array(repeating: word, count: 50 + rng.below(400)).joined(separator: " ")
                text.insert(contentsOf: (" " + piece + " ").unicodeScalars, at: at)
            case 6:  // a long table or a long list, of the input's own words
                let rows = 40 + rng.below(260)
                func word() -> String { words[rng.below(words.count)] }
                let piece =
                    rng.below(2) == 0
                    ? "| \(word()) | n |\n|:--|--:|\n" + (0..<rows).map { "| \(word()) \($0) | \($0 * 7) |\n" }.joined()
                    : (0..<rows).map { "\(rng.below(3) == 0 ? "  " : "")- \(word()) item \($0)\n" }.joined()
                text.insert(contentsOf: ("\n\n" + piece + "\n").unicodeScalars, at: at)
            case 5:  // a random scalar, or a block crowded with one kind of thing
                if rng.below(2) == 0 {
                    text.insert(contentsOf: ("\n\n" + crowd(&rng) + "\n\n").unicodeScalars, at: at)
                    break
                }
                let value = UInt32(rng.below(0x3_0000))
                if let scalar = Unicode.Scalar(value) { text.insert(scalar, at: at) }
            default:  // swap in a word
                text.insert(contentsOf: (" " + words[rng.below(words.count)] + " ").unicodeScalars, at: at)
            }
        }
        let markdown = String(String.UnicodeScalarView(text))
        // One case in eight has invalid UTF-8 sequences written into its bytes.
        guard rng.below(8) == 0 else { return FuzzInput(kind: .markdown, text: markdown) }
        var bytes = Array(markdown.utf8)
        for _ in 0..<(1 + rng.below(6)) {
            // Between two whole characters, so that every other byte stays as it was.
            var at = rng.below(bytes.count + 1)
            while at < bytes.count, bytes[at] & 0xC0 == 0x80 { at += 1 }
            bytes.insert(contentsOf: invalidSequences[rng.below(invalidSequences.count)], at: at)
        }
        return FuzzInput(kind: .markdown, text: markdown, bytes: bytes)
    }

    static let themeSeed =
        (try? String(contentsOfFile: Render.packageRoot + "/templates/themes/pretendard.json", encoding: .utf8)) ?? "{}"
    static let tokenSeed =
        (try? String(contentsOfFile: Render.packageRoot + "/templates/tokens/acme.tokens.json", encoding: .utf8))
        ?? "{}"

    static let jsonFragments = [
        "1e308", "-1e308", "0", "-1", "2000", "\"1e400px\"", "null", "true", "[]", "{}", "\"\"",
        "\"{typography.body}\"", "\"{a}\"", "\"-200%\"", "\"NaNpx\"", "\"" + noncharacter(0xFFFF) + "\"",
        "\"Nowhere Sans\"",
        ",", ":", "\"", "{", "}", "[", "]", "\\u0000", "\"bold\"", "\"100%\"", "9007199254740993",
    ]

    /// Replaces numbers and strings with hostile values, or inserts syntax.
    static func mutateJSON(_ seed: String, _ rng: inout SeededRandom) -> String {
        var text = Array(seed.unicodeScalars)
        for _ in 0..<(1 + rng.below(4)) {
            let at = rng.below(text.count + 1)
            if rng.below(3) == 0 {
                text.insert(contentsOf: jsonFragments[rng.below(jsonFragments.count)].unicodeScalars, at: at)
                continue
            }
            // Replace the value after the next ':' with a hostile one.
            guard let colon = text[at...].firstIndex(of: ":") else { continue }
            var end = colon + 1
            while end < text.count, ![",", "}", "\n"].contains(text[end]) { end += 1 }
            text.replaceSubrange(
                (colon + 1)..<end, with: (" " + jsonFragments[rng.below(jsonFragments.count)]).unicodeScalars)
        }
        return String(String.UnicodeScalarView(text))
    }
}
