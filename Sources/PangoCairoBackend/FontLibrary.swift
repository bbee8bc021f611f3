internal import CPangoCairo
import Foundation
import Styling
import Typography

/// One face of an installed family, as Pango lists it.
public struct FontFaceInfo: Hashable, Sendable {
    /// The face (style) name, e.g. `"Semi Bold Italic"`.
    public var name: String
    /// Weight on the OpenType/CSS scale (Pango weight: 100–1000).
    public var weight: FontWeight
    /// The face is italic or oblique.
    public var italic: Bool
    /// A face Pango fakes (slanted or emboldened) because the family lacks it.
    public var synthesized: Bool
}

/// An installed font family and its faces.
public struct FontFamilyInfo: Hashable, Sendable {
    /// The family name, as fontconfig and Pango report it.
    public var name: String
    /// Pango reports the family as monospaced.
    public var isMonospace: Bool
    /// The family's faces, sorted by weight, upright before italic, then by name.
    public var faces: [FontFaceInfo]
}

/// The face a font request actually gets, and the differences worth a warning.
public struct ResolvedFace: Hashable, Sendable {
    /// The first family of the request.
    public var requestedFamily: String
    /// Weight of the request.
    public var requestedWeight: FontWeight
    /// Whether italic was requested.
    public var requestedItalic: Bool
    /// Family, weight and style of the face fontconfig picked.
    public var family: String
    /// Weight of the face fontconfig picked.
    public var weight: FontWeight
    /// Whether the picked face is really italic (false when the slant is synthesized).
    public var italic: Bool
    /// The family was found (or was a generic alias such as `sans-serif`).
    public var familyFound: Bool
    /// Italic was requested but the face is upright: fontconfig slants it.
    public var italicSynthesized: Bool
    /// The weight is faked by emboldening a lighter face.
    public var boldSynthesized: Bool
    /// The face sets Hangul or Han ideographs, scripts not set in italics, whose faces have
    /// none: emphasis in them is slanted as a browser slants it (CSS Fonts 4 §7.2,
    /// `font-synthesis: style`), which is no fault of the theme and is not warned about.
    public var setsScriptWithoutItalics = false
    /// Human-readable warnings ("family 'Pretendard' not found; using 'DejaVu Sans'", …).
    public var warnings: [String] {
        var result: [String] = []
        if !familyFound { result.append("family '\(requestedFamily)' not found; using '\(family)'") }
        if familyFound && weight != requestedWeight {
            result.append("no weight \(requestedWeight.rawValue) in '\(family)', using \(weight.rawValue)")
        }
        if italicSynthesized && !setsScriptWithoutItalics {
            result.append("no italic in '\(family)': italic synthesized")
        }
        if boldSynthesized { result.append("no bold in '\(family)': bold synthesized") }
        return result
    }
}

/// Which family renders one character of a sample.
public struct GlyphCoverage: Hashable, Sendable {
    /// The character, as it appears in the text.
    public var character: Character
    /// The family Pango uses for it through the fallback list; nil when no face has the glyph.
    public var family: String?
}

/// Fonts as fontconfig and Pango see them: registering folders, listing families, checking
/// what a request resolves to and which family covers which character.
public enum FontLibrary {
    /// The queries below run on `session`'s font map, the one the render's shaper uses
    /// (``PangoShaper/init(pictures:session:)``), so a face resolved for a query is not
    /// resolved again for shaping. By default each borrows a font map of the installed fonts.
    private static func withSetup<T>(_ session: FontSession, _ body: (PangoSetup) -> T) -> T {
        SharedFontMap.run { body(session.setup) }
    }

    /// Starts fontconfig now, on a thread of its own, so that the first font query of a render
    /// does not wait for all of it: fontconfig's start-up (`FcInit`: reading its configuration
    /// and font cache, about 29 million instructions with Debian 12's fonts) runs on Pango's
    /// fontconfig thread (Pango 1.50 `PangoFcFontMap`), and setting up a font map of the
    /// installed fonts (its resolution, which empties Pango's caches and so waits for that
    /// start-up) runs here, while the caller goes on reading and parsing a document; the font
    /// map then waits in ``FontConfiguration/system`` for the render. Calling it again does
    /// nothing more.
    public static func startLoading() {
        guard !loadingStarted.swap(true) else { return }
        Thread.detachNewThread {
            _ = FontSession(.system)
            _ = loadingFinished.swap(true)
        }
    }
    private static let loadingStarted = OnceFlag()
    /// Set once the font map ``startLoading()`` sets up is ready for a render (for tests).
    static let loadingFinished = OnceFlag()

    /// Every family Pango can use (installed, and those of the session's font folders), sorted by name, with its faces.
    public static func families(in session: FontSession = FontSession()) -> [FontFamilyInfo] {
        withFamilies(session) { list in list.map(info(of:)) }.sorted { $0.name.lowercased() < $1.name.lowercased() }
    }

    /// The names of every family Pango can use (installed, and those of the session's font folders), unsorted: the list
    /// without each family's faces, which Pango (1.50 `PangoFcFamily`) finds by going through
    /// every installed face once per family.
    public static func familyNames(in session: FontSession = FontSession()) -> [String] {
        withFamilies(session) { list in list.map { String(cString: pango_font_family_get_name($0)) } }
    }

    /// The family named `name` exactly (as ``familyNames()`` gives it), with its faces; nil
    /// when there is none.
    public static func family(named name: String, in session: FontSession = FontSession()) -> FontFamilyInfo? {
        withFamilies(session) { list in
            list.first { String(cString: pango_font_family_get_name($0)) == name }.map(info(of:))
        }
    }

    /// `body` with the families of `session`'s font map.
    private static func withFamilies<T>(
        _ session: FontSession, _ body: ([UnsafeMutablePointer<PangoFontFamily>]) -> T
    ) -> T {
        withSetup(session) { setup in
            var list: UnsafeMutablePointer<UnsafeMutablePointer<PangoFontFamily>?>?
            var count: Int32 = 0
            pango_font_map_list_families(setup.fontMapPointer, &list, &count)
            guard let list else { return body([]) }
            defer { g_free(list) }
            return body((0..<Int(count)).compactMap { list[$0] })
        }
    }

    /// A family's name, whether it is monospace, and its faces, lightest first.
    private static func info(of family: UnsafeMutablePointer<PangoFontFamily>) -> FontFamilyInfo {
        let name = String(cString: pango_font_family_get_name(family))
        var faces: UnsafeMutablePointer<UnsafeMutablePointer<PangoFontFace>?>?
        var faceCount: Int32 = 0
        pango_font_family_list_faces(family, &faces, &faceCount)
        var infos: [FontFaceInfo] = []
        if let faces {
            for j in 0..<Int(faceCount) {
                guard let face = faces[j] else { continue }
                let desc = pango_font_face_describe(face)!
                let style = pango_font_description_get_style(desc)
                infos.append(
                    FontFaceInfo(
                        name: pango_font_face_get_face_name(face).map { String(cString: $0) } ?? "",
                        weight: FontWeight(Int(pango_font_description_get_weight(desc).rawValue)),
                        italic: style == PANGO_STYLE_ITALIC || style == PANGO_STYLE_OBLIQUE,
                        synthesized: pango_font_face_is_synthesized(face) != 0))
                pango_font_description_free(desc)
            }
            g_free(faces)
        }
        infos.sort { ($0.weight, $0.italic ? 1 : 0, $0.name) < ($1.weight, $1.italic ? 1 : 0, $1.name) }
        return FontFamilyInfo(name: name, isMonospace: pango_font_family_is_monospace(family) != 0, faces: infos)
    }

    private static let genericFamilies: Set<String> = [
        "sans", "sans-serif", "serif", "monospace", "mono", "system-ui", "cursive", "fantasy", "emoji", "math",
    ]

    /// What the first family of `font` resolves to by itself (as if loaded without the rest of
    /// the list). Passing the whole list and the size the text is set at lets the lookup reuse
    /// the fontconfig work shaping does for that request; the answer is the same. Resolved once
    /// per font map for each request.
    public static func resolve(_ font: FontSpec, in session: FontSession = FontSession()) -> ResolvedFace {
        let requested = font.families.first ?? "sans-serif"
        return withSetup(session) { setup in
            if let known = setup.cache.resolved[font] { return known }
            let request =
                font.families.isEmpty
                ? FontSpec(families: [requested], weight: font.weight, italic: font.italic, size: font.size) : font
            var face = (
                family: requested, weight: font.weight.rawValue, italic: font.italic, slanted: false, bolded: false
            )
            var withoutItalics = false
            if let loaded = setup.primaryFace(request) {
                let pangoFont = loaded.typed(PangoFont.self)
                withoutItalics =
                    pango_font_has_char(pangoFont, 0xAC00) != 0 || pango_font_has_char(pangoFont, 0x4E00) != 0
                let description = FaceDescription(font: loaded.typed(PangoFont.self))
                face = (
                    description.family, description.weight, description.italic && !description.slantSynthesized,
                    description.slantSynthesized, description.boldSynthesized
                )
            }
            let found =
                face.family.caseInsensitiveCompare(requested) == .orderedSame
                || genericFamilies.contains(requested.lowercased())
            let result = ResolvedFace(
                requestedFamily: requested, requestedWeight: font.weight, requestedItalic: font.italic,
                family: face.family, weight: FontWeight(face.weight), italic: face.italic, familyFound: found,
                italicSynthesized: font.italic && (face.slanted || !face.italic), boldSynthesized: face.bolded,
                setsScriptWithoutItalics: withoutItalics)
            setup.cache.resolved[font] = result
            return result
        }
    }

    /// `families` as Pango is asked for them: the families fontconfig knows nothing of left
    /// out, a first one asked as one stand-in name (``PangoSetup/asked(_:)``). Two lists asked
    /// alike set every character in the same face.
    public static func askedFamilies(_ families: [String], in session: FontSession = FontSession()) -> [String] {
        withSetup(session) { setup in setup.asked(FontSpec(families: families, size: 10)).families }
    }

    /// Height in pt of the ink of `text` set in `font` (fallbacks included): what the glyphs
    /// actually cover, e.g. the Hangul syllable box of "한". nil for text with no ink.
    public static func inkHeight(
        of text: String, font: FontSpec, in session: FontSession = FontSession()
    ) -> Double? {
        withSetup(session) { setup in
            let layout = GObjectRef(
                owning: UnsafeMutableRawPointer(pango_layout_new(setup.context.opaque)!), session: session)
            let desc = setup.shapingDescription(font, for: text)
            pango_layout_set_font_description(layout.opaque, desc.pointer)
            pango_layout_set_text(layout.opaque, PDFText.sameLength(text), Int32(text.utf8.count))
            var ink = PangoRectangle()
            pango_layout_get_extents(layout.opaque, &ink, nil)
            return ink.height > 0 ? Double(ink.height) / Double(PANGO_SCALE) : nil
        }
    }

    /// For each character of `text`, the family that renders it through `font`'s fallback list
    /// (Pango itemization; nil when the chosen face lacks the glyph and would show a box).
    /// Passing the weight, style and size the text is set at lets the check reuse the fontset
    /// shaping loads (no fontconfig sort of its own): text the first family's face has all of
    /// is itemized with that family alone, as shaping does (``PangoSetup/shapingDescription(_:for:)``).
    public static func coverage(
        of font: FontSpec, text: String, in session: FontSession = FontSession()
    ) -> [GlyphCoverage] {
        guard !text.isEmpty else { return [] }
        return withSetup(session) { setup in
            let desc = setup.shapingDescription(font, for: text)
            let attrs = AttrList()
            let length = text.utf8.count
            attrs.insert(pango_attr_font_desc_new(desc.pointer), 0, length)
            let items = pango_itemize(setup.context.opaque, text, 0, Int32(length), attrs.pointer, nil)
            defer {
                var node = items
                while let current = node {
                    pango_item_free(current.pointee.data.assumingMemoryBound(to: PangoItem.self))
                    node = current.pointee.next
                }
                g_list_free(items)
            }
            // (start byte, end byte, font) per item.
            var spans: [(Int, Int, UnsafeMutablePointer<PangoFont>?, String)] = []
            var node = items
            while let current = node {
                let item = current.pointee.data.assumingMemoryBound(to: PangoItem.self)
                let font = item.pointee.analysis.font
                let family = font.map { FaceDescription(font: $0).family } ?? ""
                spans.append((Int(item.pointee.offset), Int(item.pointee.offset + item.pointee.length), font, family))
                node = current.pointee.next
            }
            var result: [GlyphCoverage] = []
            var offset = 0
            var spanIndex = 0
            for character in text {
                let width = character.utf8.count
                while spanIndex < spans.count - 1 && spans[spanIndex].1 <= offset { spanIndex += 1 }
                let span = spans.isEmpty ? nil : spans[spanIndex]
                var family: String? = span?.3
                if let font = span?.2, let scalar = character.unicodeScalars.first,
                    !scalar.properties.isWhitespace, pango_font_has_char(font, scalar.value) == 0
                {
                    family = nil
                }
                if span?.2 == nil { family = nil }
                result.append(GlyphCoverage(character: character, family: family))
                offset += width
            }
            return result
        }
    }
}

/// A flag set once, from any thread (``FontLibrary/startLoading()``).
final class OnceFlag: @unchecked Sendable {
    private var isSet = false
    private let lock = NSLock()
    /// Whether the flag is set.
    var value: Bool {
        lock.lock()
        defer { lock.unlock() }
        return isSet
    }
    /// Sets the flag; returns what it was before.
    func swap(_ new: Bool) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        let old = isSet
        isSet = new
        return old
    }
}
