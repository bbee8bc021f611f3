import Foundation

/// What Pango shape attributes name by a number in their data pointer (a picture, a formula),
/// kept in *generations* so that a process rendering document after document (a server) keeps
/// a bounded number of them. Each shaper holds the generation current when it was made
/// (``ShapeHold``) and keeps what it names there, so one render names each thing once however
/// often it is measured and drawn. A shaper made when the current generation holds ``limit``
/// entries begins the next one; a generation no longer current goes, with all it holds, when
/// the last shaper holding it goes. An identifier is ``first``, plus its generation's number
/// shifted by ``shift`` bits (modulo ``generationCount``, so that identifiers stay below the
/// ceiling given), plus its index in the generation.
///
/// `Entry` is what an identifier names; `Memo` is anything else a generation keeps by key
/// (the pieces of a formula, laid out at once); `Name` names entries and memos. Thread-safe:
/// every access takes one lock.
final class ShapeGenerations<Entry, Memo, Name: Hashable>: @unchecked Sendable {
    /// The identifier of the first entry of generation 0.
    let first: Int
    /// The entries a generation holds before a new shaper begins the next one.
    let limit: Int
    /// The bits of an identifier below its generation's number: at most 2^26 entries a
    /// generation.
    static var shift: Int { 26 }
    /// Generation numbers as identifiers carry them: a number comes back after this many
    /// generations, by when no shaper holds the old one (one render would have to outlive
    /// ``generationCount`` × ``limit`` entries named by others).
    let generationCount: Int

    private struct Generation {
        var entries: [Entry] = []
        var names: [Name: Int] = [:]
        var memos: [Name: Memo] = [:]
        var holders = 0
    }

    private let lock = NSLock()
    private var generations: [Int: Generation] = [0: Generation()]
    private var current = 0

    /// - Parameters:
    ///   - first: the identifier of generation 0's first entry;
    ///   - limit: the entries a generation holds before the next begins;
    ///   - ceiling: the identifiers stay below it (another kind's begin there).
    init(first: Int, limit: Int, ceiling: Int) {
        self.first = first
        self.limit = limit
        generationCount = (ceiling - first) >> Self.shift
    }

    /// A new holder of the current generation, which begins anew when it is full; returns its
    /// number.
    func enter() -> Int {
        lock.lock()
        defer { lock.unlock() }
        if generations[current, default: Generation()].entries.count >= limit {
            if generations[current]?.holders == 0 { generations[current] = nil }
            repeat { current = (current + 1) % generationCount } while generations[current] != nil
            generations[current] = Generation()
        }
        generations[current, default: Generation()].holders += 1
        return current
    }

    /// A holder of `generation` has gone; a generation no longer current goes with its last.
    func leave(_ generation: Int) {
        lock.lock()
        defer { lock.unlock() }
        generations[generation]?.holders -= 1
        if generation != current, generations[generation]?.holders == 0 { generations[generation] = nil }
    }

    /// The entries kept in every generation now.
    var kept: Int {
        lock.lock()
        defer { lock.unlock() }
        return generations.values.reduce(0) { $0 + $1.entries.count }
    }

    /// The entry `identifier` names, if its generation is kept.
    func entry(_ identifier: Int) -> Entry? {
        let offset = identifier - first
        guard offset >= 0 else { return nil }
        let index = offset & (1 << Self.shift - 1)
        lock.lock()
        defer { lock.unlock() }
        guard let entries = generations[offset >> Self.shift]?.entries, entries.indices.contains(index) else {
            return nil
        }
        return entries[index]
    }

    /// The identifier and entry named `name` in `generation`, if it has one.
    func named(_ name: Name, in generation: Int) -> (identifier: Int, entry: Entry)? {
        lock.lock()
        defer { lock.unlock() }
        guard let kept = generations[generation], let index = kept.names[name] else { return nil }
        return (identifier(generation, index), kept.entries[index])
    }

    /// What `generation` keeps by `key` besides its entries.
    func memo(_ key: Name, in generation: Int) -> Memo? {
        lock.lock()
        defer { lock.unlock() }
        return generations[generation]?.memos[key]
    }

    /// Adds `entry` named `name` to `generation` (and `memo` by its key), or finds the entry
    /// already named so; returns its identifier.
    func add(_ entry: Entry, named name: Name, memo: (key: Name, value: Memo)? = nil, in generation: Int) -> Int {
        lock.lock()
        defer { lock.unlock() }
        var kept = generations.removeValue(forKey: generation) ?? Generation()
        defer { generations[generation] = kept }
        if let memo { kept.memos[memo.key] = memo.value }
        if let index = kept.names[name] { return identifier(generation, index) }
        kept.entries.append(entry)
        kept.names[name] = kept.entries.count - 1
        return identifier(generation, kept.entries.count - 1)
    }

    private func identifier(_ generation: Int, _ index: Int) -> Int { first + generation << Self.shift + index }
}

/// A shaper's hold on the current generations of pictures and formulas
/// (``ShapeGenerations``), given up when the shaper goes.
final class ShapeHold: Sendable {
    /// The generation of ``InlineImageShapes``' pictures held.
    let pictures: Int
    /// The generation of ``MathShapes``' formulas held.
    let formulas: Int

    init() {
        pictures = InlineImageShapes.pictures.enter()
        formulas = MathShapes.formulas.enter()
    }

    deinit {
        InlineImageShapes.pictures.leave(pictures)
        MathShapes.formulas.leave(formulas)
    }
}
