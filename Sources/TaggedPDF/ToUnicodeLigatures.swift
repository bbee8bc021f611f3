import Foundation

/// A font's `/ToUnicode` CMap (PDF 1.7 §9.10.3) with each glyph that Cairo maps to a
/// presentation form mapped instead to the characters the form stands for.
///
/// Cairo maps a glyph to the character the font's `cmap` gives it, so a ligature glyph reads
/// as its presentation form: `ﬃ` (U+FB03) rather than `ffi`, and text extracted through the
/// CMap (pypdf, pdfplumber, a search for "office") comes back with the form. Each such glyph
/// stands for the same letters wherever it is drawn, so the CMap can say them (a `bfchar`
/// destination may be several UTF-16 code units, PDF 1.7 §9.10.3):
/// - Alphabetic Presentation Forms (U+FB00–FB4F): `ﬀ ﬁ ﬂ ﬃ ﬄ` read `ff fi fl ffi ffl`,
///   `ﬅ` reads `ſt` and `ﬆ` `st`; the Armenian and Hebrew forms read as their compatibility
///   or canonical decompositions (Unicode UAX #15);
/// - Arabic Presentation Forms A and B (U+FB50–FDFF, U+FE70–FEFF): the letters, in the
///   form's compatibility decomposition (a lam-alef ligature reads lam, alef).
///
/// Any other entry is kept as Cairo wrote it.
enum ToUnicodeLigatures {
    /// Whether `plain` (a decoded stream) is a ToUnicode CMap, as Cairo writes one.
    static func isCMap(_ plain: [UInt8]) -> Bool {
        let head = Array("/CIDInit /ProcSet findresource begin".utf8)
        return plain.count >= head.count && Array(plain[0..<head.count]) == head
    }

    /// `plain` (a decoded ToUnicode CMap) with each `bfchar` destination that is one
    /// presentation form replaced by the characters it stands for; nil when no entry changes.
    static func decomposed(_ plain: [UInt8]) -> [UInt8]? {
        guard mayHoldPresentationForm(plain) else { return nil }
        let text = String(decoding: plain, as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var inCharacters = false
        var changed = false
        for index in lines.indices {
            let line = lines[index]
            if line.hasSuffix("beginbfchar") {
                inCharacters = true
                continue
            }
            if line == "endbfchar" {
                inCharacters = false
                continue
            }
            guard inCharacters, let replacement = entry(line) else { continue }
            lines[index] = replacement
            changed = true
        }
        return changed ? Array(lines.joined(separator: "\n").utf8) : nil
    }

    /// Whether `plain` has a hexadecimal string that begins `<fb`, `<fc`, `<fd` or `<fe` (in
    /// either case): the only destinations that can be presentation forms (U+FB00–FDFF,
    /// U+FE70–FEFF). Most CMaps have none, and are then left without being read line by line.
    static func mayHoldPresentationForm(_ plain: [UInt8]) -> Bool {
        guard plain.count >= 3 else { return false }
        for index in 0..<(plain.count - 2) where plain[index] == 0x3C && plain[index + 1] | 0x20 == 0x66 {
            let third = plain[index + 2] | 0x20
            if third >= 0x62 && third <= 0x65 { return true }
        }
        return false
    }

    /// `plain` (a decoded ToUnicode CMap) with each of `entries` (a code's bytes and its text
    /// as UTF-16BE bytes) as the code's `bfchar` destination: an entry the CMap has is replaced,
    /// the others follow in blocks of at most 100 (PDF 1.7 §9.10.3).
    static func overriding(_ plain: [UInt8], with entries: [(code: [UInt8], text: [UInt8])]) -> [UInt8] {
        guard !entries.isEmpty else { return plain }
        func hex(_ bytes: [UInt8]) -> String { "<" + Hexadecimal.digits(bytes) + ">" }
        var remaining: [String: String] = [:]
        var order: [String] = []
        for entry in entries where remaining[hex(entry.code)] == nil {
            remaining[hex(entry.code)] = hex(entry.text)
            order.append(hex(entry.code))
        }
        var lines = String(decoding: plain, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
        var inCharacters = false
        var endCMap: Int?
        for index in lines.indices {
            let line = lines[index]
            if line.hasSuffix("beginbfchar") {
                inCharacters = true
            } else if line == "endbfchar" {
                inCharacters = false
            } else if line == "endcmap" {
                endCMap = index
            } else if inCharacters, let code = line.split(separator: " ").first.map({ $0.lowercased() }),
                let text = remaining.removeValue(forKey: code)
            {
                lines[index] = "\(code) \(text)"
            }
        }
        let added = order.filter { remaining[$0] != nil }
        guard let endCMap, !added.isEmpty else { return Array(lines.joined(separator: "\n").utf8) }
        var blocks: [String] = []
        for start in stride(from: 0, to: added.count, by: 100) {
            let block = added[start..<min(start + 100, added.count)]
            blocks.append("\(block.count) beginbfchar")
            blocks += block.map { "\($0) \(remaining[$0]!)" }
            blocks.append("endbfchar")
        }
        lines.insert(contentsOf: blocks, at: endCMap)
        return Array(lines.joined(separator: "\n").utf8)
    }

    /// `plain` (a decoded ToUnicode CMap) with `entries` (a code's bytes and its text as
    /// UTF-16BE bytes) as its only mappings: its header, code space and trailer kept, every
    /// `bfchar` and `bfrange` block of its own left out (PDF 1.7 §9.10.3). A face that draws
    /// only these codes needs no other entry.
    static func restricted(_ plain: [UInt8], to entries: [(code: [UInt8], text: [UInt8])]) -> [UInt8] {
        var kept: [Substring] = []
        var inBlock = false
        for line in String(decoding: plain, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasSuffix("beginbfchar") || line.hasSuffix("beginbfrange") {
                inBlock = true
            } else if line == "endbfchar" || line == "endbfrange" {
                inBlock = false
            } else if !inBlock {
                kept.append(line)
            }
        }
        return overriding(Array(kept.joined(separator: "\n").utf8), with: entries)
    }

    /// A `bfchar` line, `<code> <destination>`, with its destination decomposed; nil when it
    /// is not one presentation form.
    private static func entry(_ line: String) -> String? {
        let parts = line.split(separator: " ")
        guard parts.count == 2, parts[1].count == 6, parts[1].hasPrefix("<"), parts[1].hasSuffix(">"),
            let value = UInt32(parts[1].dropFirst().dropLast(), radix: 16), let scalar = Unicode.Scalar(value),
            let letters = letters(of: scalar)
        else { return nil }
        let units = Hexadecimal.digits(utf16: letters.utf16)
        return "\(parts[0]) <\(units)>"
    }

    /// The characters the presentation form `scalar` stands for; nil for any other character.
    static func letters(of scalar: Unicode.Scalar) -> String? {
        switch scalar.value {
        case 0xFB05:
            // LATIN SMALL LIGATURE LONG S T: its decomposition's own letters, ſ and t (the
            // compatibility decomposition would go on to read ſ as s).
            return "\u{017F}t"
        case 0xFB00...0xFB4F, 0xFB50...0xFDFF, 0xFE70...0xFEFF:
            let letters = String(Character(scalar)).decomposedStringWithCompatibilityMapping
            return letters == String(Character(scalar)) || letters.isEmpty ? nil : letters
        default:
            return nil
        }
    }
}
