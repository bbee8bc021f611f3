internal import CPangoCairo
import Styling
import Typography

/// The symbols Korean text sets in its Korean face, not in the Latin face before it.
///
/// A theme's family list names a Latin face first and a Korean one after it (Inter, then Noto
/// Sans CJK KR), and Pango takes each character from the first face that has it. Latin faces
/// have some of the symbols Korean writing uses as marks, and draw them at Latin proportions:
/// Inter's ※ (U+203B, the reference mark 참고표) is a small star, its ○ ● □ △ are smaller than
/// the Korean face's ◎ beside them, which Inter lacks. Most are Unicode's East Asian
/// Ambiguous characters (UAX #11, "East Asian Width"): wide in East Asian text, narrow in
/// Western text. So in a run in Korean (`lang: ko`), they are given the run's family list with
/// its Korean face first, and set wide, as the Korean face draws them:
/// - U+203B REFERENCE MARK;
/// - U+2460…U+24FF Enclosed Alphanumerics (①, ⓐ);
/// - U+25A0…U+25FF Geometric Shapes (○ ● ◎ □ ■ △ ▲ ◇ ◆);
/// - U+2600…U+26FF Miscellaneous Symbols (☆ ★ ☎ ☞) but those with emoji presentation, which
///   the emoji face sets;
/// - U+3200…U+32FF Enclosed CJK Letters and Months (㉠, ㈜).
///
/// Letters, digits, punctuation and arrows keep the Latin face, as the Korean text around them
/// expects.
enum KoreanSymbols {
    /// Whether `scalar` is one of the symbols a Korean run sets in its Korean face.
    static func isSymbol(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x203B, 0x2460...0x24FF, 0x25A0...0x25FF, 0x3200...0x32FF: return true
        case 0x2600...0x26FF: return !scalar.properties.isEmojiPresentation
        default: return false
        }
    }

    /// Whether BCP 47 language `tag` is Korean (`ko`, `ko-KR`, `kor`), its primary subtag read
    /// in place, without a copy (asked for every run given attributes).
    static func isKorean(_ tag: String?) -> Bool {
        guard let tag else { return false }
        let primary = tag.utf8.prefix { $0 != UInt8(ascii: "-") && $0 != UInt8(ascii: "_") }
        // ASCII letters only: `| 0x20` lowers A–Z and leaves a–z as they are.
        let lowered = primary.lazy.map { $0 | 0x20 }
        return lowered.elementsEqual("ko".utf8) || lowered.elementsEqual("kor".utf8)
    }

    /// The byte ranges of ``isSymbol(_:)`` symbols in `text`, which starts at byte `start`:
    /// each run of them one range.
    static func ranges(in text: String, start: Int) -> [Range<Int>] {
        var result: [Range<Int>] = []
        var position = start
        for scalar in text.unicodeScalars {
            let width = UTF8.width(scalar)
            if isSymbol(scalar) {
                if let last = result.last, last.upperBound == position {
                    result[result.count - 1] = last.lowerBound..<(position + width)
                } else {
                    result.append(position..<(position + width))
                }
            }
            position += width
        }
        return result
    }
}

extension PangoSetup {
    /// The description of `font` with its Korean face first: the first family after the first
    /// whose own face has Hangul (가, U+AC00), moved to the front of the list; nil when the
    /// first family has Hangul itself (a Korean face such as Pretendard sets its own marks) or
    /// no family after it has. Found once per request.
    func koreanFirstDescription(_ font: FontSpec) -> FontDescription? {
        if let known = cache.koreanFirst[font] { return known }
        var result: FontDescription?
        if font.families.count > 1, !hasHangul(font.families[0], like: font) {
            if let index = font.families.indices.dropFirst().first(where: { hasHangul(font.families[$0], like: font) })
            {
                var reordered = font
                reordered.families.remove(at: index)
                reordered.families.insert(font.families[index], at: 0)
                result = description(reordered)
            }
        }
        cache.koreanFirst[font] = result
        return result
    }

    /// Whether `family`'s own face (not a fallback fontconfig substitutes for it), at `font`'s
    /// weight and style, has the syllable 가.
    private func hasHangul(_ family: String, like font: FontSpec) -> Bool {
        let alone = FontSpec(families: [family], weight: font.weight, italic: font.italic, size: font.size)
        guard let face = firstFace(alone) else { return false }
        let pointer = face.typed(PangoFont.self)
        guard FaceDescription(font: pointer).family.caseInsensitiveCompare(family) == .orderedSame else { return false }
        return pango_font_has_char(pointer, 0xAC00) != 0
    }
}
