internal import CPangoCairo
import Foundation

/// Pango work of a render whose font map two threads share.
///
/// A render may lay its paragraphs out on one thread while it draws its pages on another
/// (`Typesetter`'s layout ahead): both use the render's one font map, its fonts and the
/// layouts made on it, whose caches Pango does not lock (a font's glyph extents, a layout
/// line's extents, the font map's fontsets). So the two threads take turns with them: each
/// holds the render's ``SharedFontMap`` while it shapes, measures, draws a page's elements or
/// gives up a Pango object, and lets it go for the work that is its own (line breaking,
/// pagination, Cairo's writing of a shown page). Every Pango call of the backend goes through
/// ``run(_:)``, which takes ``CairoFaces/lock`` and then, on a thread that has entered a shared
/// font map (``sharing(with:_:)``), that map's lock. A render on one thread enters none and
/// takes no lock of its own.
package final class SharedFontMap: @unchecked Sendable {
    /// The lock the threads take turns with (fair to a thread that waits: ``RecursiveLock``).
    let lock = RecursiveLock()

    /// Lines given up while another thread may hold the turn (``giveUp(_:keeping:)``), each
    /// with the references that keep its layout, under ``givenUpLock``.
    private var givenUp: [(line: UnsafeMutablePointer<PangoLayoutLine>, owners: [GObjectRef])] = []
    private let givenUpLock = NSLock()

    /// A lock for one render's font map, entered by no thread yet.
    package init() {}

    deinit { CairoFaces.lock.run { releaseGivenUp() } }

    /// Gives up `line`, and then `owners` (its layout's references): at once on a thread that
    /// has entered no shared font map; otherwise in the next turn any thread takes with the map
    /// (``run(_:)``), so that a thread dropping the lines of a page it has drawn does not wait
    /// for the turn of a thread that shapes.
    static func giveUp(_ line: UnsafeMutablePointer<PangoLayoutLine>, keeping owners: [GObjectRef]) {
        guard let shared = current else {
            run { pango_layout_line_unref(line) }
            return
        }
        shared.givenUpLock.withLock { shared.givenUp.append((line, owners)) }
    }

    /// Releases the lines given up so far; the caller holds the turn.
    private func releaseGivenUp() {
        let taken = givenUpLock.withLock {
            defer { givenUp = [] }
            return givenUp
        }
        for entry in taken { pango_layout_line_unref(entry.line) }
    }

    /// Runs `body` with the calling thread in this shared font map, and in `shaper`'s lane
    /// (the faces its font map opens, ``CairoFaces/lanes``), then puts the thread back as it
    /// was.
    package func sharing<T>(with shaper: PangoShaper, _ body: () throws -> T) rethrows -> T {
        let outerMap = pthread_getspecific(Self.key)
        let outerLane = CairoFaces.currentLane
        pthread_setspecific(Self.key, Unmanaged.passUnretained(self).toOpaque())
        CairoFaces.currentLane = shaper.setup.lane
        defer {
            pthread_setspecific(Self.key, outerMap)
            CairoFaces.currentLane = outerLane
        }
        return try body()
    }

    /// Runs `body` on the calling thread, which has entered this map, without taking turns:
    /// for work done while every other thread that shares the map waits for it (a table the
    /// drawing thread lays out in place while the layout thread waits), so that it costs what
    /// it costs on one thread.
    package func alone<T>(_ body: () throws -> T) rethrows -> T {
        let entered = pthread_getspecific(Self.key)
        pthread_setspecific(Self.key, nil)
        defer { pthread_setspecific(Self.key, entered) }
        return try body()
    }

    /// The shared font map the calling thread has entered, if any.
    static var current: SharedFontMap? {
        pthread_getspecific(key).map { Unmanaged<SharedFontMap>.fromOpaque($0).takeUnretainedValue() }
    }

    /// The thread-specific key that holds the entered map.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// `body`'s result, run under ``CairoFaces/lock`` and the calling thread's shared font map's
    /// lock (when it has entered one): how the backend calls Pango.
    static func run<T>(_ body: () throws -> T) rethrows -> T {
        try CairoFaces.lock.run {
            guard let shared = current else { return try body() }
            return try shared.lock.run {
                shared.releaseGivenUp()
                return try body()
            }
        }
    }
}
