/// A small deterministic random number generator for the test suites, so that every
/// generated input reproduces from its seed: SplitMix64 (Steele, Lea and Flood, "Fast
/// Splittable Pseudorandom Number Generators", OOPSLA 2014), the generator Java's
/// `SplittableRandom` uses. Not for anything but tests: it is fast and well mixed, not secure.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    /// The generator's whole state: a 64-bit counter advanced by the golden-ratio increment.
    public var state: UInt64

    /// A generator whose sequence is fixed by `seed`; equal seeds give equal sequences.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<n`; 0 when `n` ≤ 1. (Modulo reduction: its bias, under 2⁻⁵⁰ for the
    /// small `n` tests use, does not matter here.)
    public mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(1, n))) }

    /// A number in `0..<1`, from the top 53 bits (every `Double` of that form equally likely).
    public mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
