/// Bytes written as hexadecimal digits, two a byte, the high digit first, as PDF hexadecimal
/// strings, CMap codes and name escapes write them (PDF 32000-1 §7.3.4.3, §7.3.5, §9.10.3).
enum Hexadecimal {
    private static let lowercaseDigits = Array("0123456789abcdef".utf8)
    private static let uppercaseDigits = Array("0123456789ABCDEF".utf8)

    /// The digits of `bytes`, lowercase unless `uppercase`.
    static func digits(_ bytes: some Sequence<UInt8>, uppercase: Bool = false) -> String {
        let table = uppercase ? uppercaseDigits : lowercaseDigits
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            out.append(table[Int(byte >> 4)])
            out.append(table[Int(byte & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The digits of `units`, four a unit (UTF-16 big-endian), lowercase.
    static func digits(utf16 units: some Sequence<UInt16>) -> String {
        digits(units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })
    }
}
