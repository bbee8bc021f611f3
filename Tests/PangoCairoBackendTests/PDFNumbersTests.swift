import Foundation
import Testing

@testable import PangoCairoBackend

/// The numbers Cairo writes into content streams are formatted by `CNumberFormatting` exactly as
/// glibc formats them: the same text for every double and digit count the fast path takes.
@Suite struct PDFNumbersTests {
    /// glibc's own `%.*f` of `value` (`vsnprintf`, which `CNumberFormatting` does not replace).
    static func glibc(_ value: Double, digits: Int) -> String {
        var buffer = [CChar](repeating: 0, count: 512)
        let length = withVaList([Int32(digits), value]) { vsnprintf(&buffer, buffer.count, "%.*f", $0) }
        return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The test process's `__snprintf_chk` is `CNumberFormatting`'s, as the `typeset` binary's is.
    @Test func cairosCallsReachTheFastPath() {
        #expect(PDFNumbers.formattedByTypeset)
    }

    /// Values where rounding decides: exact ties (round half to even, as glibc rounds the binary
    /// value it is given), values a unit in the last place either side of a tie, zeros of both
    /// signs, powers of two up to 2^62, subnormals, and the values Cairo writes (coordinates in
    /// pt, glyph adjustments in thousandths of an em, tiny matrix entries).
    @Test func edgeCasesMatchGlibc() {
        var values: [Double] = [
            0, -0.0, 0.5, 1.5, 2.5, -0.5, -2.5, 0.125, 0.375, 1e-7, 5e-7, 4.9999995e-7, 9.9999995, 0.0000005,
            0.1, 0.01, 1e-18, 5e-19, 1e-300, .leastNonzeroMagnitude, .leastNormalMagnitude, 841.889764, 595.275591,
            -1000.123456789, 123_456_789.987_654_321, 0.999_999_5, 0.999_999_499_999, 4_503_599_627_370_495.5,
        ]
        for power in 0...62 {
            let two = Double(sign: .plus, exponent: power, significand: 1)
            values += [two, -two, two + 0.5, two.nextUp, two.nextDown]
        }
        for value in values {
            for digits in [0, 1, 2, 3, 6, 7, 12, 18] {
                #expect(
                    PDFNumbers.fixed(value, digits: digits) == Self.glibc(value, digits: digits), "\(value) \(digits)")
            }
        }
    }

    /// A quarter of a million random doubles of every magnitude Cairo writes and beyond (10^-20 to 10^18,
    /// both signs, random bits in the significand), at the digit counts Cairo asks for.
    @Test func randomValuesMatchGlibc() {
        var generator = SystemRandomNumberGenerator()
        var mismatches: [String] = []
        for index in 0..<250_000 {
            let exponent = Int.random(in: -66...60, using: &generator)
            let significand = 1 + Double(UInt64.random(in: 0..<(1 << 52), using: &generator)) / Double(1 << 52)
            let sign: FloatingPointSign = Bool.random(using: &generator) ? .minus : .plus
            var value = Double(sign: sign, exponent: exponent, significand: significand)
            if index % 4 == 0 { value = (value * 1000).rounded() / 1000 }  // a number Cairo set from thousandths
            let digits = [3, 6, 18, Int.random(in: 0...18, using: &generator)][index % 4]
            let fast = PDFNumbers.fixed(value, digits: digits)
            if fast != Self.glibc(value, digits: digits) {
                mismatches.append("\(value) \(digits): \(fast ?? "nil") against \(Self.glibc(value, digits: digits))")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    }

    /// What the fast path leaves to glibc: values that are not finite, |value| ≥ 2^63, more than
    /// 18 digits.
    @Test func valuesBeyondItsRangeGoToGlibc() {
        #expect(PDFNumbers.fixed(.nan, digits: 6) == nil)
        #expect(PDFNumbers.fixed(.infinity, digits: 6) == nil)
        #expect(PDFNumbers.fixed(9.3e18, digits: 6) == nil)
        #expect(PDFNumbers.fixed(1, digits: 19) == nil)
        #expect(PDFNumbers.fixed(-9.2e18, digits: 0) == Self.glibc(-9.2e18, digits: 0))
    }
}
