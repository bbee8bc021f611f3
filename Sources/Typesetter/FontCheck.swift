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
enum FontCheck {
    /// The paragraphs to check, each with the source position of its block.
    static func paragraphs(of blocks: [StyledBlock], running: [StyledParagraph] = []) -> [(StyledParagraph, SourceLocation?, running: Bool)] {
        var result: [(StyledParagraph, SourceLocation?, running: Bool)] = []
        for block in blocks {
            for paragraph in block.paragraphs { result.append((paragraph, block.location, false)) }
            for number in block.footnotes.keys.sorted() {
                let location = block.footnoteLocations[number] ?? block.location
                for paragraph in block.footnotes[number]! { result.append((paragraph, location, false)) }
            }
        }
        for paragraph in running { result.append((paragraph, nil, true)) }
        return result
    }

    static func diagnostics(for blocks: [StyledBlock], running: [StyledParagraph] = []) -> [Diagnostic] {
        struct Request: Hashable { var family: String; var weight: FontWeight; var italic: Bool }
        // Each request with the first run style that made it: the lookups then share the
        // fontconfig work shaping does for that style (see `FontLibrary.resolve`).
        var requests: [(Request, SourceLocation?, FontSpec)] = []
        var listOf: [String: [String]] = [:]  // a family list each family was seen in
        var seen = Set<Request>()
        let all = paragraphs(of: blocks, running: running)
        for (paragraph, location, _) in all {
            for run in paragraph.runs + (paragraph.marker ?? []) {
                let font = run.style.font
                let needsFallback = run.text.unicodeScalars.contains { $0.value >= 0x2E80 }
                for family in needsFallback ? font.families : Array(font.families.prefix(1)) {
                    let request = Request(family: family, weight: font.weight, italic: font.italic)
                    if seen.insert(request).inserted {
                        let spec = FontSpec(families: Array(font.families.drop { $0 != family }), weight: font.weight,
                                            italic: font.italic, size: font.size)
                        requests.append((request, location, spec))
                    }
                    if listOf[family] == nil { listOf[family] = font.families }
                }
            }
        }
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
        return weightDiagnostics + diagnostics + missingGlyphs(in: all)
    }
}

extension FontCheck {
    /// Warnings naming the characters no installed font can draw (they print as boxes, "tofu"):
    /// each distinct character is checked once per family list through Pango's own fallback,
    /// and reported at the first block that holds it.
    static func missingGlyphs(in paragraphs: [(StyledParagraph, SourceLocation?, running: Bool)]) -> [Diagnostic] {
        var characters: [[String]: Set<Character>] = [:]
        var styles: [[String]: FontSpec] = [:]  // the first run style of each family list
        var firstSeen: [Character: Int] = [:]  // index into `paragraphs`
        for (index, (paragraph, _, _)) in paragraphs.enumerated() {
            for run in paragraph.runs + (paragraph.marker ?? []) {
                if styles[run.style.font.families] == nil { styles[run.style.font.families] = run.style.font }
                for character in run.text where !character.isWhitespace {
                    guard let scalar = character.unicodeScalars.first,
                          ![.control, .format, .lineSeparator, .paragraphSeparator, .privateUse].contains(scalar.properties.generalCategory)
                    else { continue }
                    characters[run.style.font.families, default: []].insert(character)
                    if firstSeen[character] == nil { firstSeen[character] = index }
                }
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
            let what = paragraphs[index].running ? " in a running head or foot" : ""
            return Diagnostic(.warning, "no installed font draws \(chars.count) character\(chars.count == 1 ? "" : "s")\(what): \(list)\(more); they print as boxes (install a font that has them, or register one with --fonts)", at: paragraphs[index].1)
        }
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
