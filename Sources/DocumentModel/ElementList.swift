/// A source of a list's elements, made on demand: element `index` is built when it is asked
/// for and need not be kept after (a parser converting its text a window of top-level blocks
/// at a time).
///
/// Conforming types are reference types shared by every copy of the lists they back, so they
/// must be safe to call from several threads (a lock around any shared state), and must give
/// equal elements for the same index every time.
public protocol ElementProvider<Element>: AnyObject, Sendable {
    /// The element type.
    associatedtype Element
    /// The number of elements (fixed for the provider's lifetime).
    var count: Int { get }
    /// Element `index`, `0 ..< count`, built now.
    func element(at index: Int) -> Element
    /// Frees what the provider keeps between reads and can make again (a parser's last window
    /// of blocks); the elements stay the same. Default: nothing.
    func releaseSource()
}

extension ElementProvider {
    /// Holds nothing it could free.
    public func releaseSource() {}
}

/// A random-access list whose elements are either held (an array) or made on demand by an
/// ``ElementProvider`` — a parsed document's top-level blocks, so that a long document is never
/// held whole as Swift values: each pass over it makes a few elements at a time and drops them.
///
/// A value type. Equality compares the elements, one pair at a time (two lists backed by the
/// same provider are equal at once); the hash covers only the count, which equal lists share.
/// Reading an element of a provided list costs what the provider costs each time: iterate once
/// per pass, and keep what a later step needs rather than reading it again.
public struct ElementList<Element: Hashable & Sendable>: RandomAccessCollection, Hashable, Sendable,
    ExpressibleByArrayLiteral
{
    private enum Storage: Sendable {
        case held([Element])
        case provided(any ElementProvider<Element>)
    }
    private let storage: Storage

    /// A list holding `elements`.
    public init(_ elements: [Element]) { storage = .held(elements) }
    /// A list whose elements `provider` makes on demand.
    public init(_ provider: any ElementProvider<Element>) { storage = .provided(provider) }
    /// A list holding the elements of an array literal.
    public init(arrayLiteral elements: Element...) { storage = .held(elements) }

    /// Always 0.
    public var startIndex: Int { 0 }
    /// The number of elements.
    public var endIndex: Int {
        switch storage {
        case .held(let array): array.count
        case .provided(let provider): provider.count
        }
    }
    /// Element `index` (made now when provided).
    public subscript(index: Int) -> Element {
        switch storage {
        case .held(let array): array[index]
        case .provided(let provider): provider.element(at: index)
        }
    }

    /// The provider that makes the elements (under any ``mapped(_:)`` transform); nil for a held list.
    public var provider: (any ElementProvider<Element>)? {
        guard case .provided(let provider) = storage else { return nil }
        return (provider as? MappedProvider<Element>)?.base ?? provider
    }

    /// Whether the elements are made on demand rather than held.
    public var isProvided: Bool { if case .provided = storage { true } else { false } }

    /// The list with `transform` applied to each element: at once for a held list, as each
    /// element is made for a provided one (`transform` must then be safe to call from any thread).
    public func mapped(_ transform: @escaping @Sendable (Element) -> Element) -> ElementList {
        switch storage {
        case .held(let array): ElementList(array.map(transform))
        case .provided(let provider): ElementList(MappedProvider(base: provider, transform: transform))
        }
    }

    /// Frees what a provided list holds to make its elements and can make again (see
    /// ``ElementProvider/releaseSource()``): call when a pass is done and memory is needed
    /// elsewhere; the list's elements stay the same. Does nothing for a held list.
    public func releaseSource() {
        if case .provided(let provider) = storage { provider.releaseSource() }
    }

    /// Equal when they have the same elements in the same order.
    public static func == (lhs: ElementList, rhs: ElementList) -> Bool {
        switch (lhs.storage, rhs.storage) {
        case (.held(let first), .held(let second)): return first == second
        case (.provided(let first), .provided(let second)) where first === second: return true
        default:
            guard lhs.count == rhs.count else { return false }
            for i in 0..<lhs.count where lhs[i] != rhs[i] { return false }
            return true
        }
    }

    /// Hashes the count only (equal lists have equal counts), so that hashing never makes every element.
    public func hash(into hasher: inout Hasher) { hasher.combine(count) }
}

/// A provider's elements passed through a transform as they are made.
private final class MappedProvider<Element: Sendable>: ElementProvider {
    let base: any ElementProvider<Element>
    let transform: @Sendable (Element) -> Element
    init(base: any ElementProvider<Element>, transform: @escaping @Sendable (Element) -> Element) {
        self.base = base
        self.transform = transform
    }
    var count: Int { base.count }
    func element(at index: Int) -> Element { transform(base.element(at: index)) }
    func releaseSource() { base.releaseSource() }
}

/// A document's top-level blocks, held or made on demand (see ``ElementList``).
public typealias BlockList = ElementList<Block>
