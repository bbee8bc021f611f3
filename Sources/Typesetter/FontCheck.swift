import DocumentModel
import Foundation
import Layout
import PangoCairoBackend
import Styling
import Typography

/// Warnings for faces that are not what the styles asked for: a weight the family lacks, an
/// italic that would be synthesized. One warning per distinct case.
///
/// The primary family is always checked; fallback families only for runs holding characters
/// beyond Latin (U+2E80 and up: CJK, Hangul), which is where fallbacks are used. Each warning
/// carries the position of the first block whose text needs the face or character.
enum FontCheck {
    static func diagnostics(for blocks: [StyledBlock]) -> [Diagnostic] {
        struct Request: Hashable { var family: String; var weight: FontWeight; var italic: Bool }
        var requests: [Request] = []
        var seen = Set<Request>()
        var firstUse: [Request: SourceLocation] = [:]
        var location: SourceLocation?
        func visit(_ paragraph: StyledParagraph) {
            for run in paragraph.runs + (paragraph.marker ?? []) {
                let font = run.style.font
                let needsFallback = run.text.unicodeScalars.contains { $0.value >= 0x2E80 }
                for family in needsFallback ? font.families : Array(font.families.prefix(1)) {
                    let request = Request(family: family, weight: font.weight, italic: font.italic)
                    if seen.insert(request).inserted { requests.append(request); firstUse[request] = location }
                }
            }
        }
        for block in blocks { location = block.location; block.paragraphs.forEach(visit) }
        var messages: [(String, SourceLocation?)] = []
        // Weights a family lacks, gathered into one warning per family.
        var missingWeights: [(family: String, pairs: [(requested: Int, used: Int)], at: SourceLocation?)] = []
        for request in requests {
            let resolved = FontLibrary.resolve(FontSpec(families: [request.family], weight: request.weight, italic: request.italic, size: 10))
            guard resolved.familyFound else { continue }  // missing families were reported with the theme
            if resolved.weight != request.weight {
                let pair = (request.weight.rawValue, resolved.weight.rawValue)
                if let i = missingWeights.firstIndex(where: { $0.family == resolved.family }) {
                    if !missingWeights[i].pairs.contains(where: { $0.requested == pair.0 }) { missingWeights[i].pairs.append(pair) }
                } else {
                    missingWeights.append((resolved.family, [pair], firstUse[request]))
                }
            }
            for warning in resolved.warnings where !warning.hasPrefix("no weight") && !messages.contains(where: { $0.0 == warning }) {
                messages.append((warning, firstUse[request]))
            }
        }
        for (family, pairs, at) in missingWeights {
            let sorted = pairs.sorted { $0.requested < $1.requested }
            let list = sorted.map { "\($0.requested) → \($0.used)" }.joined(separator: ", ")
            let hint = family.hasPrefix("Noto Sans CJK")
                ? " (Debian's fonts-noto-cjk has Regular and Bold only; `make fonts-extra` installs every weight)" : ""
            messages.insert(("'\(family)' lacks weight\(sorted.count == 1 ? "" : "s") \(sorted.map { String($0.requested) }.joined(separator: ", ")); using the nearest: \(list)\(hint)", at), at: 0)
        }
        return messages.map { Diagnostic(.warning, $0.0, at: $0.1) } + missingGlyphs(in: blocks)
    }
}

extension FontCheck {
    /// One warning naming the characters no installed font can draw (they print as boxes, "tofu"):
    /// each distinct character is checked once per family list through Pango's own fallback.
    /// The warning carries the position of the first block holding one of them.
    static func missingGlyphs(in blocks: [StyledBlock]) -> [Diagnostic] {
        var characters: [[String]: Set<Character>] = [:]
        var firstUse: [Character: SourceLocation] = [:]
        var location: SourceLocation?
        func visit(_ paragraph: StyledParagraph) {
            for run in paragraph.runs + (paragraph.marker ?? []) {
                for character in run.text where !character.isWhitespace {
                    guard let scalar = character.unicodeScalars.first,
                          ![.control, .format, .lineSeparator, .paragraphSeparator, .privateUse].contains(scalar.properties.generalCategory)
                    else { continue }
                    if characters[run.style.font.families, default: []].insert(character).inserted, firstUse[character] == nil {
                        firstUse[character] = location
                    }
                }
            }
        }
        for block in blocks { location = block.location; block.paragraphs.forEach(visit) }
        var missing = Set<Character>()
        for (families, set) in characters {
            let text = String(set.sorted())
            for result in FontLibrary.coverage(of: FontSpec(families: families, size: 10), text: text) where result.family == nil {
                missing.insert(result.character)
            }
        }
        guard !missing.isEmpty else { return [] }
        let list = missing.sorted().prefix(12).map { c in
            "'\(c)' U+" + String(c.unicodeScalars.first!.value, radix: 16, uppercase: true)
        }.joined(separator: ", ")
        let more = missing.count > 12 ? " and \(missing.count - 12) more" : ""
        let first = missing.compactMap { firstUse[$0] }.min { ($0.line, $0.column) < ($1.line, $1.column) }
        return [Diagnostic(.warning, "no installed font draws \(missing.count) character\(missing.count == 1 ? "" : "s"): \(list)\(more); they print as boxes (install a font that has them, or register one with --fonts)", at: first)]
    }
}

/// Warnings for image files that will draw as placeholders: missing, unreadable, or not a PNG,
/// JPEG or SVG file (checked with the same header reader layout uses to size them).
enum ImageCheck {
    static func diagnostics(for blocks: [StyledBlock]) -> [Diagnostic] {
        blocks.compactMap { block in
            guard case .image(let image) = block.content, !image.path.isEmpty else { return nil }
            let name = (image.path as NSString).lastPathComponent
            if !FileManager.default.isReadableFile(atPath: image.path) {
                return Diagnostic(.warning, "image '\(name)' not found or unreadable; drawing a placeholder", at: block.location)
            }
            if ImageProbe.pixelSize(ofFile: image.path) == nil {
                return Diagnostic(.warning, "image '\(name)' is not a PNG, JPEG or SVG file it can read; drawing a placeholder", at: block.location)
            }
            return nil
        }
    }
}
