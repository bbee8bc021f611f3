import Foundation

/// Names and URIs as Cairo 1.16 can write them into a PDF.
public enum PDFNames {
    /// An ASCII-only named-destination name for any id (Cairo never matches non-ASCII names).
    /// Deterministic and injective: `A–Z a–z 0–9 - _ .` are kept, every other UTF-8 byte
    /// (including `~`) becomes `~XX` (uppercase hex). `"개요"` → `"~EA~B0~9C~EC~9A~94"`.
    /// Use it for both the destination and every internal link to it.
    public static func destination(for id: String) -> String {
        var result = ""
        result.reserveCapacity(id.utf8.count)
        for byte in id.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                result += "~" + hex(byte)
            }
        }
        return result
    }

    /// `uri` percent-encoded to ASCII for a PDF link (Cairo writes URIs unescaped): non-ASCII
    /// bytes, spaces, controls and `( ) \ ' " < > { } | ^ `` ` become `%XX`; an existing valid
    /// `%XX` escape is kept, a lone `%` becomes `%25`.
    public static func encodeURI(_ uri: String) -> String {
        let bytes = Array(uri.utf8)
        var result = ""
        result.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            if byte == UInt8(ascii: "%") {
                if i + 2 < bytes.count, isHex(bytes[i + 1]), isHex(bytes[i + 2]) {
                    result += "%"
                } else {
                    result += "%25"
                }
            } else if isAllowedInURI(byte) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result += "%" + hex(byte)
            }
            i += 1
        }
        return result
    }

    private static func isAllowedInURI(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default: return "-._~:/?#[]@!$&*+,;=".utf8.contains(b)
        }
    }

    private static func isHex(_ b: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(b)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(b)
    }

    private static func hex(_ b: UInt8) -> String { Hexadecimal.digits([b], uppercase: true) }

    /// Quotes a value for a Cairo tag attribute string (`'…'`, with `\` and `'` escaped), in
    /// one pass over the bytes: every link of a document is quoted once.
    package static func quoted(_ value: String) -> String {
        let backslash = UInt8(ascii: "\\")
        let apostrophe = UInt8(ascii: "'")
        var bytes: [UInt8] = [apostrophe]
        bytes.reserveCapacity(value.utf8.count + 2)
        for byte in value.utf8 {
            if byte == backslash || byte == apostrophe { bytes.append(backslash) }
            bytes.append(byte)
        }
        bytes.append(apostrophe)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A number for a tag attribute string: fixed point, `.` decimal separator.
    package static func number(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}

/// The names of one document's named destinations, as tag attribute values: the name
/// ``PDFNames/destination(for:)`` gives an id, or, for an id whose name would be longer than
/// ``longestName`` bytes (a heading of hundreds of words), a short name of its own: `~~` and
/// the number of such ids met before it. A string in a PDF is at most 32,767 bytes (PDF 1.7,
/// Annex C), and a link's name is written and parsed again on each page the link reaches.
/// `destination(for:)` never writes `~~` (it writes `~` as `~7E`), so the names stay one to one
/// while the same instance names both the links and the destinations.
package struct DestinationNames {
    /// The longest name, in bytes, kept as ``PDFNames/destination(for:)`` gives it: 1,024, so
    /// that a heading of a hundred Hangul syllables (nine bytes each, `~EB~94~94`) keeps its
    /// own name.
    package static let longestName = 1_024
    private var names: [String: String] = [:]
    private var shortNames = 0
    private var last = (id: "", name: "''")

    package init() {}

    /// The name of the destination `id`, quoted for a tag's attributes (``PDFNames/quoted(_:)``).
    package mutating func quotedName(for id: String) -> String {
        if id == last.id { return last.name }
        let name: String
        if let known = names[id] {
            name = known
        } else {
            var made = PDFNames.destination(for: id)
            if made.utf8.count > Self.longestName {
                made = "~~\(shortNames)"
                shortNames += 1
            }
            name = PDFNames.quoted(made)
            names[id] = name
        }
        last = (id, name)
        return name
    }
}
