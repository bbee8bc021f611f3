internal import CPangoCairo
import Foundation

/// What the data pointer of a Pango shape attribute points to: a piece of a formula laid out
/// (``FormulaShape``) or a picture (``PictureShape``), reference-counted by the attributes
/// that name it. An attribute takes a reference when it is made and another each time Pango
/// copies it (into a layout's attribute list, into each glyph run's attributes) and gives it
/// back when Pango frees the copy, so what a line names lives exactly as long as some layout
/// or shaped line that draws it (or the shaper's ``ShapeHold`` keeps it, one of the last
/// made): a document's formulas go as their pages are drawn, and a render holds those of the
/// lines not yet drawn, whatever the document's length.
class ShapeData: @unchecked Sendable {
    /// A shape attribute holding this, whose glyph has the `ink` and `logical` rectangles
    /// (Pango units, y downwards from the baseline).
    final func attribute(ink: PangoRectangle, logical: PangoRectangle) -> UnsafeMutablePointer<PangoAttribute>? {
        var ink = ink
        var logical = logical
        return pango_attr_shape_new_with_data(
            &ink, &logical, Unmanaged.passRetained(self).toOpaque(),
            { data in
                guard let data else { return nil }
                _ = Unmanaged<ShapeData>.fromOpaque(data).retain()
                return UnsafeMutableRawPointer(mutating: data)
            },
            { data in
                guard let data else { return }
                Unmanaged<ShapeData>.fromOpaque(data).release()
            })
    }

    /// What a shape attribute's data pointer names; nil for an attribute made without data
    /// (an empty box, `pango_attr_shape_new`). Valid while the attribute lives.
    static func named(by data: UnsafeRawPointer?) -> ShapeData? {
        data.map { Unmanaged<ShapeData>.fromOpaque($0).takeUnretainedValue() }
    }
}

/// The last ``limit`` things made, found by the key each was made for, so that one asked for
/// again soon after (a paragraph's formulas, measured, then shaped, then described; a formula
/// repeated a few lines on) is not made again, and equal keys share one. The oldest goes
/// from here as a new one comes (it lives on while a line holds it), so the table holds at
/// most ``limit``, whatever the document's length, at one insertion and one removal an
/// addition. Thread-safe: every access takes one lock.
final class RecentShapes<Key: Hashable, Value: AnyObject>: @unchecked Sendable {
    /// How many of the last made are kept.
    let limit: Int
    private let lock = NSLock()
    private var byKey: [Key: Value] = [:]
    /// The keys of those kept, oldest first from `next`, a ring.
    private var order: [Key?]
    private var next = 0

    init(limit: Int) {
        self.limit = max(1, limit)
        order = Array(repeating: nil, count: self.limit)
        byKey.reserveCapacity(self.limit)
    }

    /// The value kept for `key`, if there is one.
    func value(for key: Key) -> Value? {
        lock.lock()
        defer { lock.unlock() }
        return byKey[key]
    }

    /// Keeps `value` for `key`, unless one is kept for `key`: returns the one kept.
    func add(_ value: Value, for key: Key) -> Value {
        lock.lock()
        if let known = byKey[key] {
            lock.unlock()
            return known
        }
        // What goes is released after the lock (its deinit may reach other locks).
        let oldest = order[next].flatMap { byKey.removeValue(forKey: $0) }
        byKey[key] = value
        order[next] = key
        next = (next + 1) % limit
        lock.unlock()
        withExtendedLifetime(oldest) {}
        return value
    }

    /// How many values are kept now: for tests.
    var kept: Int {
        lock.lock()
        defer { lock.unlock() }
        return byKey.count
    }
}

/// A shaper's last formulas laid out and pictures named (``ShapeData``), found again by what
/// they depend on: so that a render lays out a formula once however often its paragraph is
/// measured, shaped and described, and a formula or picture repeated nearby is laid out or
/// named once. It keeps only the last ``recentLimit`` of each (``RecentShapes``): a formula
/// goes once no line names it and a thousand more have been laid out, and a render's memory
/// for them does not grow with the document.
final class ShapeHold: Sendable {
    /// How many formulas (whole, with their pieces' boxes), formula pieces and pictures the
    /// hold keeps, besides those that lines hold.
    static let recentLimit = 1_024

    /// Formulas laid out, by what their layout depends on.
    let formulas = RecentShapes<MathShapes.LayoutKey, LaidOutFormula>(limit: recentLimit)
    /// Pieces of formulas laid out, as shape attributes name them.
    let formulaPieces = RecentShapes<MathShapes.PieceKey, FormulaShape>(limit: recentLimit)
    /// Pictures, by file and alternative text.
    let pictures = RecentShapes<String, PictureShape>(limit: recentLimit)

    init() {}
}
