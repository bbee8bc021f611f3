import Foundation

/// Syntax definitions loaded ahead of need, on a thread of its own: the library, then each
/// language named, then a sample of code highlighted in it, so that the passes that highlight
/// later find the definition loaded and the sample's tokens kept (``CodeHighlighter/tokens(in:definition:)``).
///
/// KSyntaxHighlighting reads a definition's XML and compiles its rules' regular expressions the
/// first time it highlights in that language (about 15 million instructions a language, and 40
/// million for the library's index); a loader lets a pass that needs no tokens hand that work to
/// the second core. Each language is loaded once per loader, in the order asked, at most
/// ``languageLimit`` languages; ``finish()`` waits for the thread, ``cancel()`` drops what waits.
public final class DefinitionLoader: @unchecked Sendable {
    /// The most languages one loader takes; later ones are left to the passes that highlight.
    public static let languageLimit = 256

    private let condition = NSCondition()
    /// Languages asked for, lowercased. Guarded by `condition`.
    private var asked = Set<String>()
    /// Languages waiting for the thread, with their sample. Guarded by `condition`.
    private var waiting: [(language: String, sample: String)] = []
    /// Languages asked for whose definition's name is not yet looked up. Guarded by `condition`.
    private var unnamed: [String] = []
    /// Whether the thread is running. Guarded by `condition`.
    private var running = false
    /// The definitions loaded so far. Guarded by `condition`.
    private var loaded: [String] = []

    /// A loader with nothing asked; its thread starts with the first language.
    public init() {}

    /// Asks for `language` (as a fence's info string names it) to be loaded and `sample` (code in
    /// it) highlighted on the loader's thread; returns at once. A language asked before, or past
    /// ``languageLimit``, is not loaded again.
    public func load(language: String, sample: String) {
        condition.lock()
        defer { condition.unlock() }
        guard asked.count < Self.languageLimit, asked.insert(language.lowercased()).inserted else { return }
        waiting.append((language, sample))
        unnamed.append(language)
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
        unnamed.removeAll()
        condition.unlock()
        finish()
    }

    private func noteLoaded(_ definition: String) {
        condition.lock()
        defer { condition.unlock() }
        loaded.append(definition)
    }

    /// The languages asked for and not yet named, now handed to the thread.
    private func takeUnnamed() -> [String] {
        condition.lock()
        defer { condition.unlock() }
        defer { unnamed.removeAll() }
        return unnamed
    }

    /// The next language to load, or nil when none waits (the thread then ends).
    private func take() -> (language: String, sample: String)? {
        condition.lock()
        defer { condition.unlock() }
        guard !waiting.isEmpty else {
            running = false
            condition.broadcast()
            return nil
        }
        return waiting.removeFirst()
    }
}
