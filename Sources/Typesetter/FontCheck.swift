import DocumentModel
import Foundation
import Layout
import PangoCairoBackend
import Styling
import Typography

/// Warnings for every text Typeset draws — body, table cells, captions, footnotes, contents
/// entries and their title, running heads and feet — whose faces are not what the styles asked
/// for: a family that is not installed (a `family=` span or div), a weight the family lacks or
/// that is synthesized, an italic that would be synthesized, characters no installed font draws.
/// One warning per distinct case, at the source position of the first block that shows it
/// (running texts have none).
///
/// The primary family is always checked; fallback families only for runs holding characters
/// beyond Latin (U+2E80 and up: CJK, Hangul), which is where fallbacks are used.
///
/// Paragraphs are visited one at a time, in the order they print (``visit(_:)``), and only
/// what the warnings need is kept — the distinct face requests, the distinct characters per
/// family list, and where each was first seen — so a document is checked as it streams. Two
/// checks of consecutive parts of a document join with ``append(_:)``.
struct FontCheck {
    struct Request: Hashable { var family: String; var weight: FontWeight; var italic: Bool }
    /// Each request with the first run style that made it: the lookups then share the
    /// fontconfig work shaping does for that style (see `FontLibrary.resolve`).
    private var requests: [(Request, SourceLocation?, FontSpec)] = []
    /// The first run style of each family list (coverage is asked with it).
    private var styles: [[String]: FontSpec] = [:]
    private var seen = Set<Request>()
    /// A family list each family was seen in.
    private var listOf: [String: [String]] = [:]
    /// Distinct characters per family list; printable ASCII as a 94-bit set (most text is
    /// ASCII, and a bit test is far cheaper than hashing a `Character`).
    private var characters: [[String]: Set<Character>] = [:]
    private var ascii: [[String]: (UInt64, UInt64)] = [:]
    private var asciiSeen: (UInt64, UInt64) = (0, 0)
    /// The paragraph (by visiting order) each character was first seen in, and where that
    /// paragraph is.
    private var firstSeen: [Character: Int] = [:]
    private var sites: [Int: (location: SourceLocation?, running: Bool)] = [:]
    private var count = 0

    /// Notes every paragraph `block` holds, its footnotes (at their definitions) after it.
    mutating func visit(_ block: StyledBlock) {
        switch block.content {
        case .paragraph(let paragraph): visit(paragraph, at: block.location, running: false)
        case .rule, .pageBreak: break
        default: for paragraph in block.paragraphs { visit(paragraph, at: block.location, running: false) }
        }
        guard !block.footnotes.isEmpty else { return }
        for number in block.footnotes.keys.sorted() {
            let location = block.footnoteLocations[number] ?? block.location
            for paragraph in block.footnotes[number]! { visit(paragraph, at: location, running: false) }
        }
    }

    /// Notes the faces and characters of `paragraph`, which prints at `location` (nil for a
    /// running head or foot, `running`).
    mutating func visit(_ paragraph: StyledParagraph, at location: SourceLocation?, running: Bool) {
        let index = count
        count += 1
        for run in paragraph.runs { visit(run, index, location, running) }
        for run in paragraph.marker ?? [] { visit(run, index, location, running) }
    }

    private mutating func visit(_ run: StyledRun, _ index: Int, _ location: SourceLocation?, _ running: Bool) {
        let font = run.style.font
        if styles[font.families] == nil { styles[font.families] = font }
        var allASCII = true
        var low: UInt64 = 0, high: UInt64 = 0
        for byte in run.text.utf8 {
            if byte >= 0x80 { allASCII = false; break }
            // Printable ASCII only: controls and the space are never checked.
            if byte > 0x20 && byte < 0x7F {
                if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
            }
        }
        let needsFallback = !allASCII && run.text.unicodeScalars.contains { $0.value >= 0x2E80 }
        for family in needsFallback ? font.families[...] : font.families.prefix(1) {
            let request = Request(family: family, weight: font.weight, italic: font.italic)
            if seen.insert(request).inserted {
                let spec = FontSpec(families: Array(font.families.drop { $0 != family }), weight: font.weight,
                                    italic: font.italic, size: font.size)
                requests.append((request, location, spec))
            }
            if listOf[family] == nil { listOf[family] = font.families }
        }
        if allASCII {
            if low | high == 0 { return }
            let old = ascii[font.families] ?? (0, 0)
            if old.0 | low != old.0 || old.1 | high != old.1 { ascii[font.families] = (old.0 | low, old.1 | high) }
            let new = (low & ~asciiSeen.0, high & ~asciiSeen.1)
            if new.0 | new.1 != 0 {
                asciiSeen = (asciiSeen.0 | low, asciiSeen.1 | high)
                for byte in UInt8(0x21)..<UInt8(0x7F) {
                    let bit = byte < 64 ? new.0 & (1 << UInt64(byte)) : new.1 & (1 << UInt64(byte - 64))
                    if bit != 0 { firstSeen[Character(Unicode.Scalar(byte))] = index }
                }
                sites[index] = (location, running)
            }
            return
        }
        for character in run.text where !character.isWhitespace {
            guard let scalar = character.unicodeScalars.first,
                  ![.control, .format, .lineSeparator, .paragraphSeparator, .privateUse].contains(scalar.properties.generalCategory)
            else { continue }
            characters[font.families, default: []].insert(character)
            if firstSeen[character] == nil {
                firstSeen[character] = index
                sites[index] = (location, running)
                if character.isASCII, let byte = character.asciiValue {
                    if byte < 64 { asciiSeen.0 |= 1 << UInt64(byte) } else { asciiSeen.1 |= 1 << UInt64(byte - 64) }
                }
            }
        }
    }

    /// Adds what `other` saw, as if its paragraphs were visited after this check's.
    mutating func append(_ other: FontCheck) {
        for (request, location, spec) in other.requests where seen.insert(request).inserted { requests.append((request, location, spec)) }
        styles.merge(other.styles) { mine, _ in mine }
        for (family, list) in other.listOf where listOf[family] == nil { listOf[family] = list }
        for (families, set) in other.characters { characters[families, default: []].formUnion(set) }
        for (families, bits) in other.ascii {
            let old = ascii[families] ?? (0, 0)
            ascii[families] = (old.0 | bits.0, old.1 | bits.1)
        }
        asciiSeen = (asciiSeen.0 | other.asciiSeen.0, asciiSeen.1 | other.asciiSeen.1)
        for (character, index) in other.firstSeen where firstSeen[character] == nil {
            firstSeen[character] = count + index
            sites[count + index] = other.sites[index]
        }
        count += other.count
    }

    /// The warnings for everything visited.
    func diagnostics() -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        var messages = Set<String>()
        func warn(_ message: String, _ location: SourceLocation?) {
            if messages.insert(message).inserted { diagnostics.append(Diagnostic(.warning, message, at: location)) }
        }
        // Weights a family lacks, gathered into one warning per family (real faces used, or
        // bold synthesized).
        var missingWeights: [(family: String, pairs: [(requested: Int, used: Int)], location: SourceLocation?)] = []
        var synthesized: [(family: String, weights: [Int], location: SourceLocation?)] = []
        for (request, location, spec) in requests {
            let resolved = FontLibrary.resolve(spec)
            guard resolved.familyFound else {
                // The theme's own families were checked (and dropped) with the theme: what is left
                // was asked for in the document (a `family=` span or div).
                let list = listOf[request.family] ?? []
                let next = list.drop { $0 != request.family }.dropFirst().first {
                    FontLibrary.resolve(FontSpec(families: [$0], weight: request.weight, size: 10)).familyFound
                }
                warn("family '\(request.family)' not found; using '\(next ?? resolved.family)'", location)
                continue
            }
            if resolved.boldSynthesized {
                if let i = synthesized.firstIndex(where: { $0.family == resolved.family }) {
                    if !synthesized[i].weights.contains(request.weight.rawValue) { synthesized[i].weights.append(request.weight.rawValue) }
                } else {
                    synthesized.append((resolved.family, [request.weight.rawValue], location))
                }
            } else if resolved.weight != request.weight {
                let pair = (request.weight.rawValue, resolved.weight.rawValue)
                if let i = missingWeights.firstIndex(where: { $0.family == resolved.family }) {
                    if !missingWeights[i].pairs.contains(where: { $0.requested == pair.0 }) { missingWeights[i].pairs.append(pair) }
                } else {
                    missingWeights.append((resolved.family, [pair], location))
                }
            }
            for warning in resolved.warnings where !warning.hasPrefix("no weight") && !warning.hasPrefix("no bold") {
                warn(warning, location)
            }
        }
        var weightDiagnostics: [Diagnostic] = []
        for (family, weights, location) in synthesized {
            let list = weights.sorted().map(String.init).joined(separator: ", ")
            weightDiagnostics.append(Diagnostic(.warning, "'\(family)' has no face of weight \(list): bold synthesized (its lighter face emboldened)", at: location))
        }
        for (family, pairs, location) in missingWeights {
            let sorted = pairs.sorted { $0.requested < $1.requested }
            let list = sorted.map { "\($0.requested) → \($0.used)" }.joined(separator: ", ")
            let hint = family.hasPrefix("Noto Sans CJK")
                ? " (Debian's fonts-noto-cjk has Regular and Bold only; `make fonts-extra` installs every weight)" : ""
            weightDiagnostics.append(Diagnostic(.warning, "'\(family)' lacks weight\(sorted.count == 1 ? "" : "s") \(sorted.map { String($0.requested) }.joined(separator: ", ")); using the nearest: \(list)\(hint)", at: location))
        }
        return weightDiagnostics + diagnostics + missingGlyphs()
    }
}

extension FontCheck {
    /// Warnings naming the characters no installed font can draw (they print as boxes, "tofu"):
    /// each distinct character is checked once per family list through Pango's own fallback,
    /// and reported at the first block that holds it.
    private func missingGlyphs() -> [Diagnostic] {
        var characters = self.characters
        for (families, (low, high)) in ascii {
            for byte in UInt8(0x21)..<UInt8(0x7F) {
                let bit = byte < 64 ? low & (1 << UInt64(byte)) : high & (1 << UInt64(byte - 64))
                if bit != 0 { characters[families, default: []].insert(Character(Unicode.Scalar(byte))) }
            }
        }
        var missing = Set<Character>()
        for (families, set) in characters {
            let text = String(set.sorted())
            let style = styles[families] ?? FontSpec(families: families, size: 10)
            for result in FontLibrary.coverage(of: style, text: text) where result.family == nil {
                missing.insert(result.character)
            }
        }
        guard !missing.isEmpty else { return [] }
        // One warning per source position, in document order.
        let groups = Dictionary(grouping: missing, by: { firstSeen[$0] ?? 0 })
        return groups.keys.sorted().map { index in
            let chars = groups[index]!.sorted()
            let list = chars.prefix(12).map { c in
                "'\(c)' U+" + String(c.unicodeScalars.first!.value, radix: 16, uppercase: true)
            }.joined(separator: ", ")
            let more = chars.count > 12 ? " and \(chars.count - 12) more" : ""
            let site = sites[index]
            let what = site?.running == true ? " in a running head or foot" : ""
            return Diagnostic(.warning, "no installed font draws \(chars.count) character\(chars.count == 1 ? "" : "s")\(what): \(list)\(more); they print as boxes (install a font that has them, or register one with --fonts)", at: site?.location ?? nil)
        }
    }
}

/// Warnings for image files that will draw as placeholders: missing, unreadable, or in a
/// format no image loader reads (checked with the decoder that sizes and draws them). The
/// warning names the path as written and the path tried.
enum ImageCheck {
    static func diagnostics(for blocks: [StyledBlock]) -> [Diagnostic] {
        blocks.compactMap(diagnostic(for:))
    }

    /// The warning for `block` when it is an image that will draw as a placeholder.
    static func diagnostic(for block: StyledBlock) -> Diagnostic? {
            guard case .image(let image) = block.content, !image.path.isEmpty else { return nil }
            let written = image.source.isEmpty ? (image.path as NSString).lastPathComponent : image.source
            let tried = written == image.path ? "" : " (tried \(image.path))"
            if !FileManager.default.isReadableFile(atPath: image.path) {
                return Diagnostic(.warning, "image '\(written)' not found or unreadable\(tried); drawing a placeholder", at: block.location)
            }
            if ImageProbe.isSVG(image.path) ? ImageProbe.pixelSize(ofFile: image.path) == nil : ImageDecoder.info(ofFile: image.path) == nil {
                return Diagnostic(.warning, "image '\(written)'\(tried) is not an image it can read (PNG, JPEG, GIF, WebP, BMP, TIFF or SVG); drawing a placeholder", at: block.location)
            }
            return nil
    }
}
