import Testing

@testable import CodeHighlighting

/// Syntax definitions loaded ahead on a thread of their own: each language once, in the order
/// asked, unknown ones skipped, every sample highlighted within the byte limit, and cancelling
/// drops what has not begun.
@Suite struct DefinitionLoaderTests {
    @Test func eachLanguageIsLoadedOnceInTheOrderAsked() {
        let loader = DefinitionLoader()
        loader.load(language: "python", sample: "def f():\n    return 1\n")
        loader.load(language: "no-such-language", sample: "x")
        loader.load(language: "Python", sample: "print(2)")
        loader.load(language: "rs", sample: "fn main() {}")
        loader.finish()
        #expect(loader.definitionsLoaded == ["Python", "Rust"])
        // Asked again after the thread ended: a new thread loads it.
        loader.load(language: "go", sample: "package main")
        loader.finish()
        #expect(loader.definitionsLoaded == ["Python", "Rust", "Go"])
    }

    /// The sample's tokens are kept: highlighting it afterwards gives what the loader found.
    @Test func theSampleIsHighlightedAhead() throws {
        let sample = "SELECT id FROM orders WHERE total > 10; -- recent\n"
        let loader = DefinitionLoader()
        loader.load(language: "sql", sample: sample)
        loader.finish()
        let definition = try #require(CodeHighlighter.definition(forLanguage: "sql"))
        let tokens = CodeHighlighter.tokens(in: sample, definition: definition)
        #expect(tokens.contains { $0.token == .keyword })
        #expect(tokens.contains { $0.token == .comment })
    }

    /// Every sample asked for is highlighted ahead, not only a language's first: the survey asks
    /// for each block it sets, and the pass that draws then finds each block's tokens kept.
    /// Samples past ``DefinitionLoader/sampleByteLimit`` are left to that pass.
    @Test func everySampleWithinTheLimitIsHighlightedAhead() throws {
        let samples = (0..<3).map { "def loader_sample_\($0)():\n    return \($0)  # sample\n" }
        let loader = DefinitionLoader()
        for sample in samples { loader.load(language: "python", sample: sample) }
        loader.load(language: "sql", sample: "SELECT loader_sample FROM t;")
        // A sample no definition reads counts towards the limit too: the bytes taken reach it
        // but for 10, so the next sample is past it.
        let taken = samples.reduce(0) { $0 + $1.utf8.count } + "SELECT loader_sample FROM t;".utf8.count
        let filler = String(repeating: "x", count: DefinitionLoader.sampleByteLimit - taken - 10)
        loader.load(language: "no-such-language", sample: filler)
        let past = "def loader_sample_past():\n    return 4\n"
        loader.load(language: "python", sample: past)
        loader.finish()
        #expect(loader.definitionsLoaded == ["Python", "SQL"])
        for sample in samples {
            let kept = try #require(CodeHighlighter.spanCache.value(for: SpanKey(definition: "Python", text: sample)))
            #expect(kept.contains { $0.token == .keyword } && kept.contains { $0.token == .comment })
        }
        let sql = SpanKey(definition: "SQL", text: "SELECT loader_sample FROM t;")
        #expect(CodeHighlighter.spanCache.value(for: sql) != nil)
        #expect(CodeHighlighter.spanCache.value(for: SpanKey(definition: "Python", text: past)) == nil)
    }

    /// At most ``DefinitionLoader/languageLimit`` languages are taken; a cancelled loader drops
    /// what waits and its thread ends.
    @Test func languagesPastTheLimitAndAfterCancellingAreNotLoaded() {
        let loader = DefinitionLoader()
        for index in 0..<DefinitionLoader.languageLimit {
            loader.load(language: "unknown-\(index)", sample: "x")
        }
        loader.load(language: "json", sample: "{}")
        loader.finish()
        #expect(loader.definitionsLoaded.isEmpty)

        // Samples long enough (about 200 KB each) that the thread is still on the first when
        // the loader is cancelled.
        let cancelled = DefinitionLoader()
        for (index, language) in ["yaml", "c", "cpp", "java", "kotlin", "bash", "html", "css"].enumerated() {
            cancelled.load(language: language, sample: String(repeating: "a = \"\(index)\" // b\n", count: 12_000))
        }
        cancelled.cancel()
        let loaded = cancelled.definitionsLoaded
        #expect(loaded.count < 8, "\(loaded)")
        cancelled.finish()
        #expect(cancelled.definitionsLoaded == loaded)
    }
}
