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
/// beyond Latin (U+2E80 and up: CJK, Hangul), which is where fallbacks are used.
enum FontCheck {
    static func diagnostics(for blocks: [StyledBlock]) -> [Diagnostic] {
        struct Request: Hashable { var family: String; var weight: FontWeight; var italic: Bool }
        var requests: [Request] = []
        var seen = Set<Request>()
        func visit(_ paragraph: StyledParagraph) {
            for run in paragraph.runs + (paragraph.marker ?? []) {
                let font = run.style.font
                let needsFallback = run.text.unicodeScalars.contains { $0.value >= 0x2E80 }
                for family in needsFallback ? font.families : Array(font.families.prefix(1)) {
                    let request = Request(family: family, weight: font.weight, italic: font.italic)
                    if seen.insert(request).inserted { requests.append(request) }
                }
            }
        }
        for block in blocks { block.paragraphs.forEach(visit) }
        var messages: [String] = []
        // Weights a family lacks, gathered into one warning per family.
        var missingWeights: [(family: String, pairs: [(requested: Int, used: Int)])] = []
        for request in requests {
            let resolved = FontLibrary.resolve(FontSpec(families: [request.family], weight: request.weight, italic: request.italic, size: 10))
            guard resolved.familyFound else { continue }  // missing families were reported with the theme
            if resolved.weight != request.weight {
                let pair = (request.weight.rawValue, resolved.weight.rawValue)
                if let i = missingWeights.firstIndex(where: { $0.family == resolved.family }) {
                    if !missingWeights[i].pairs.contains(where: { $0.requested == pair.0 }) { missingWeights[i].pairs.append(pair) }
                } else {
                    missingWeights.append((resolved.family, [pair]))
                }
            }
            for warning in resolved.warnings where !warning.hasPrefix("no weight") && !messages.contains(warning) {
                messages.append(warning)
            }
        }
        for (family, pairs) in missingWeights {
            let sorted = pairs.sorted { $0.requested < $1.requested }
            let list = sorted.map { "\($0.requested) → \($0.used)" }.joined(separator: ", ")
            let hint = family.hasPrefix("Noto Sans CJK")
                ? " (Debian's fonts-noto-cjk has Regular and Bold only; `make fonts-extra` installs every weight)" : ""
            messages.insert("'\(family)' lacks weight\(sorted.count == 1 ? "" : "s") \(sorted.map { String($0.requested) }.joined(separator: ", ")); using the nearest: \(list)\(hint)", at: 0)
        }
        messages += missingGlyphs(in: blocks)
        return messages.map { Diagnostic(.warning, $0) }
    }
}

extension FontCheck {
    /// One warning naming the characters no installed font can draw (they print as boxes, "tofu"):
    /// each distinct character is checked once per family list through Pango's own fallback.
    static func missingGlyphs(in blocks: [StyledBlock]) -> [String] {
        var characters: [[String]: Set<Character>] = [:]
        func visit(_ paragraph: StyledParagraph) {
            for run in paragraph.runs + (paragraph.marker ?? []) {
                for character in run.text where !character.isWhitespace {
                    guard let scalar = character.unicodeScalars.first,
                          ![.control, .format, .lineSeparator, .paragraphSeparator, .privateUse].contains(scalar.properties.generalCategory)
                    else { continue }
                    characters[run.style.font.families, default: []].insert(character)
                }
            }
        }
        for block in blocks { block.paragraphs.forEach(visit) }
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
        return ["no installed font draws \(missing.count) character\(missing.count == 1 ? "" : "s"): \(list)\(more); they print as boxes (install a font that has them, or register one with --fonts)"]
    }
}

/// Warnings for image files that will draw as placeholders: missing, unreadable, or in a
/// format no image loader reads (checked with the decoder that sizes and draws them). The
/// warning names the path as written and the path tried.
enum ImageCheck {
    static func diagnostics(for blocks: [StyledBlock]) -> [Diagnostic] {
        blocks.compactMap { block in
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
}
