import Foundation

/// Syntax definitions loaded and code highlighted ahead of need, on a thread of its own: the
/// library, then each language named, then each sample of code asked for highlighted in its
/// language, so that the passes that highlight later find the definition loaded and the
/// samples' tokens kept (``CodeHighlighter/tokens(in:definition:)``).
///
/// KSyntaxHighlighting reads a definition's XML and compiles its rules' regular expressions the
/// first time it highlights in that language (about 15 million instructions a language, and 40
/// million for the library's index), then takes about a microsecond a byte of ordinary code; a
/// loader lets a pass that needs no tokens (the survey, which asks for every block it sets)
/// hand that work to the second core, before the pass that draws needs it. Each language is
/// loaded once per loader, in the order asked, at most ``languageLimit`` languages, and at most
/// ``sampleByteLimit`` bytes of samples are highlighted; ``finish()`` waits for the thread,
/// ``cancel()`` drops what waits.
public final class DefinitionLoader: @unchecked Sendable {
    /// The most languages one loader takes; later ones are left to the passes that highlight.
    public static let languageLimit = 256

    /// The most bytes of samples one loader highlights, 1 MiB: four times the code a document
    /// highlights at most, so a document's blocks are all taken.
    public static let sampleByteLimit = 1 << 20

    private let condition = NSCondition()
    /// Languages asked for, lowercased. Guarded by `condition`.
    private var asked = Set<String>()
    /// Samples asked for with their language; the thread has taken those before
    /// `firstWaiting`. Guarded by `condition`.
    private var waiting: [(language: String, sample: String)] = []
    private var firstWaiting = 0
    /// Languages asked for whose definition's name is not yet looked up. Guarded by `condition`.
    private var unnamed: [String] = []
    /// The bytes of the samples taken so far. Guarded by `condition`.
    private var sampleBytes = 0
    /// Whether the thread is running. Guarded by `condition`.
    private var running = false
    /// The definitions loaded so far. Guarded by `condition`.
    private var loaded: [String] = []

    /// A loader with nothing asked; its thread starts with the first language.
    public init() {}

    /// Asks for `language` (as a fence's info string names it) to be loaded and `sample` (code in
    /// it) highlighted on the loader's thread, after the samples asked for before; returns at
    /// once. A language asked before is not loaded again (its sample is highlighted); one past
    /// ``languageLimit``, and a sample past ``sampleByteLimit``, are left to the pass that
    /// highlights them.
    public func load(language: String, sample: String) {
        condition.lock()
        defer { condition.unlock() }
        let key = language.lowercased()
        if !asked.contains(key) {
            guard asked.count < Self.languageLimit else { return }
            asked.insert(key)
            unnamed.append(language)
        }
        guard sampleBytes + sample.utf8.count <= Self.sampleByteLimit else { return }
        sampleBytes += sample.utf8.count
        waiting.append((language, sample))
        guard !running else { return }
        running = true
        let thread = Thread { [self] in
            while let next = take() {
                // Every language asked is named first, each a lookup in the library's index: a
                // pass that asks only which definition a language names (the survey) then finds
                // it remembered, without waiting for the library while a definition loads.
                for language in takeUnnamed() { _ = CodeHighlighter.definition(forLanguage: language) }
                guard let definition = CodeHighlighter.definition(forLanguage: next.language) else { continue }
                _ = CodeHighlighter.tokens(in: next.sample, definition: definition)
                noteLoaded(definition)
            }
        }
        thread.start()
    }

    /// The names of the syntax definitions loaded so far (`Python`, `C++`), in the order loaded:
    /// the languages asked for that a definition knows.
    public var definitionsLoaded: [String] {
        condition.lock()
        defer { condition.unlock() }
        return loaded
    }

    /// Waits until every language asked for is loaded.
    public func finish() {
        condition.lock()
        defer { condition.unlock() }
        while running { condition.wait() }
    }

    /// Drops the languages not yet begun and waits for the one being loaded.
    public func cancel() {
        condition.lock()
        waiting.removeAll()
        firstWaiting = 0
        unnamed.removeAll()
        condition.unlock()
        finish()
    }

    private func noteLoaded(_ definition: String) {
        condition.lock()
        defer { condition.unlock() }
        if loaded.last != definition, !loaded.contains(definition) { loaded.append(definition) }
    }

    /// The languages asked for and not yet named, now handed to the thread.
    private func takeUnnamed() -> [String] {
        condition.lock()
        defer { condition.unlock() }
        defer { unnamed.removeAll() }
        return unnamed
    }

    /// The next sample to highlight, or nil when none waits (the thread then ends).
    private func take() -> (language: String, sample: String)? {
        condition.lock()
        defer { condition.unlock() }
        guard firstWaiting < waiting.count else {
            waiting.removeAll()
            firstWaiting = 0
            running = false
            condition.broadcast()
            return nil
        }
        let next = waiting[firstWaiting]
        // The slot lets go of its sample: the thread holds it while it highlights.
        waiting[firstWaiting] = ("", "")
        firstWaiting += 1
        return next
    }
}
