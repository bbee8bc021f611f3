internal import CFaceSharing
internal import CPangoCairo
import Foundation
import Styling
import Typography

// Small owners for C handles: each frees its pointer in `deinit`, so nothing leaks when a
// shaped line or a renderer goes away. None of them appears in a public signature.

/// Owns one GObject reference (PangoContext, PangoFontMap, PangoLayout, PangoFont).
final class GObjectRef: @unchecked Sendable {
    let raw: UnsafeMutableRawPointer
    /// The font map's session, for an object made on a borrowed font map that may outlive its
    /// maker (a layout): held until the reference is given up, so the font map goes back to its
    /// configuration only after (``FontSession``). Objects the setup itself keeps need none.
    private let session: FontSession?
    /// Takes over a reference the caller already owns.
    init(owning pointer: UnsafeMutableRawPointer, session: FontSession? = nil) {
        raw = pointer
        self.session = session
    }
    /// Adds a reference of its own.
    init(retaining pointer: UnsafeMutableRawPointer) {
        raw = pointer
        session = nil
        g_object_ref(pointer)
    }
    // The body runs before `session` is released: the object is given up while its font map
    // is still this session's.
    deinit { SharedFontMap.run { g_object_unref(raw) } }
    var opaque: OpaquePointer { OpaquePointer(raw) }
    func typed<T>(_: T.Type) -> UnsafeMutablePointer<T> { raw.assumingMemoryBound(to: T.self) }
}

/// Owns a `PangoFontDescription`.
final class FontDescription {
    let pointer: OpaquePointer
    init(_ pointer: OpaquePointer) { self.pointer = pointer }
    deinit { pango_font_description_free(pointer) }

    /// A description for `families` (a fallback list, joined with ","; colour emoji families
    /// are left to Pango's emoji presentation, ``ColorFonts``), weight, style and an absolute size in pt (1 pt = 1
    /// device unit on a PDF surface; Pango unit = pt × 1024); colour families are those of
    /// `configuration`.
    convenience init(
        families: [String], weight: FontWeight, italic: Bool, size: Double, in configuration: FontConfiguration
    ) {
        let desc = pango_font_description_new()!
        let text = ColorFonts.textFamilies(families, in: configuration)
        let list = text.isEmpty ? "Sans" : text.joined(separator: ",")
        pango_font_description_set_family(desc, list)
        // The face CSS's matching picks among the first family's (CSS Fonts 4 §5.2: 550 is
        // drawn with a 600 face, not fontconfig's nearest, which takes the lighter of two
        // equally near); a weight of 600 or more that no face reaches is asked as written, so
        // that it is synthesized.
        var drawn = weight
        if let first = text.first {
            let matched = weight.matchingCSS(among: configuration.weights(of: first, italic: italic))
            if matched >= weight || weight.rawValue < 600 { drawn = matched }
        }
        pango_font_description_set_weight(desc, PangoWeight(rawValue: UInt32(drawn.rawValue)))
        pango_font_description_set_style(desc, italic ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL)
        // Styling keeps sizes within 1…1000 pt; clamp anyway so no caller can trip Pango.
        pango_font_description_set_absolute_size(desc, Double(PangoUnits.from(min(max(size, 0.1), 10_000))))
        self.init(desc)
    }
}

/// Owns a `PangoAttrList` reference.
final class AttrList {
    let pointer: OpaquePointer
    /// The last attribute inserted of each type that does not change shaping (colours, lines,
    /// backgrounds; font descriptions too when `mergesEqualFonts`), by type: the next one equal
    /// to it and starting where it ends extends it.
    private var lastDrawn: [UInt32: UnsafeMutablePointer<PangoAttribute>] = [:]
    /// Whether a font description equal to the last one inserted, and starting where it ends,
    /// extends it too. Pango 1.50 itemizes on font attributes only (a colour is applied to the
    /// shaped runs afterwards, `pango_glyph_item_apply_attrs`), but each font attribute's own
    /// range still ends an item: merged, the glyphs of one font are shaped as one item however
    /// often their colour changes, and kerning and ligatures reach across the change of colour.
    let mergesEqualFonts: Bool
    /// An empty list; `mergesEqualFonts` as described on the property.
    init(mergesEqualFonts: Bool = false) {
        pointer = pango_attr_list_new()
        self.mergesEqualFonts = mergesEqualFonts
    }
    init(copying other: AttrList) {
        pointer = pango_attr_list_copy(other.pointer)
        mergesEqualFonts = other.mergesEqualFonts
    }
    deinit { pango_attr_list_unref(pointer) }

    /// Inserts `attribute` over the UTF-8 byte range; the list takes ownership of it.
    ///
    /// An attribute that only changes how glyphs are drawn (a colour, an underline, a
    /// strikethrough, a background), equal to the last one of its type and starting where that
    /// one ends, extends it instead: Pango applies such attributes to each run of each line by
    /// walking the list from its start (`pango_glyph_item_apply_attrs`, Pango 1.50), so a
    /// paragraph of n runs, each with its own copy of one colour, cost n² steps (20,000 runs of
    /// `**b** `: 6.7 s). Merged, the list holds one attribute per change of colour.
    func insert(_ attribute: UnsafeMutablePointer<PangoAttribute>?, _ start: Int, _ end: Int) {
        guard let attribute else { return }
        attribute.pointee.start_index = UInt32(start)
        attribute.pointee.end_index = UInt32(end)
        let type = attribute.pointee.klass.pointee.type
        if Self.drawnOnly.contains(type.rawValue) || (mergesEqualFonts && type == PANGO_ATTR_FONT_DESC) {
            if let last = lastDrawn[type.rawValue], last.pointee.end_index == UInt32(start),
                pango_attribute_equal(last, attribute) != 0
            {
                last.pointee.end_index = UInt32(end)
                pango_attribute_destroy(attribute)
                return
            }
            lastDrawn[type.rawValue] = attribute
        }
        pango_attr_list_insert(pointer, attribute)
    }

    /// Attribute types that change only how glyphs are drawn, not how they are shaped.
    private static let drawnOnly: Set<UInt32> = [
        PANGO_ATTR_FOREGROUND, PANGO_ATTR_FOREGROUND_ALPHA, PANGO_ATTR_BACKGROUND, PANGO_ATTR_BACKGROUND_ALPHA,
        PANGO_ATTR_UNDERLINE, PANGO_ATTR_UNDERLINE_COLOR, PANGO_ATTR_STRIKETHROUGH, PANGO_ATTR_STRIKETHROUGH_COLOR,
    ].reduce(into: []) { $0.insert($1.rawValue) }
}

/// Whether Pango and Cairo work of different renders may run at once, and the lock that
/// serializes it when it may not: taken by Pango's measuring (glyph extents go through Cairo's
/// scaled fonts), drawing, finishing a PDF (subsetting reads the faces) and giving up fonts.
///
/// Cairo 1.16 keeps at most 10 FreeType faces open for the whole process (`MAX_OPEN_FACES`,
/// `cairo-ft-font.c`) and, opening another, closes one whose lock count it reads as 0
/// (`_has_unlocked_face`) without taking that face's own mutex, while another thread may be
/// taking it (`_cairo_ft_unscaled_font_lock_face` raises the count under that mutex alone): the
/// face is closed under the thread about to use it. Two renders on separate font maps that
/// draw more than ten faces between them crashed in libfreetype.
///
/// `CFaceSharing` defines the function Pango makes each font's Cairo face with
/// (`cairo_ft_font_face_create_for_pattern`) so that every face is a FreeType face opened
/// once per lane (``lanes``) for the process and given to Cairo, which never closes a face it
/// is given and locks each with a mutex of its own; the Cairo font faces made on it are made
/// one at a time and kept for the process too, so that Cairo's unlocked list of them never
/// hands one render two font faces for one face and options (`FaceSharing.c`). When that
/// definition is the one the process uses (the linker exports it from an executable that
/// links libpangocairo), renders run their Pango and Cairo work in parallel, each on its own
/// font map, fonts, caches and surfaces, and ``lock`` does nothing. When it is not (a client
/// that loads this code in a way that hides the symbol), ``lock`` serializes that work across
/// renders, as it must.
enum CairoFaces {
    /// True when every Cairo FreeType face is made on a face shared by the process, which Cairo
    /// never closes (`typeset_face_sharing_in_effect`); asked once.
    static let areShared = typeset_face_sharing_in_effect() != 0
    /// The lock Pango and Cairo work takes: held only when faces are not shared.
    static let lock = RecursiveLock(serializing: !areShared)
    /// How many FreeType faces the process has opened to share (for tests).
    static var sharedFaceCount: Int { typeset_face_sharing_open_faces() }

    /// The lanes font maps hold (``PangoSetup/lane``): each face is opened once per lane, and
    /// font maps held at once are given lanes of their own while there are lanes to give, so
    /// renders that run at once share no face, Cairo font face or scaled font, whose locks Cairo
    /// takes for every glyph (`FaceSharing.c`). There are at most twice as many lanes as
    /// processors (more renders than that only take turns on the cores): past that, a font map
    /// shares the lane fewest hold, as every font map shared one face before, so a process opens
    /// each face at most that many times however many font maps and font folders it uses.
    static let lanes = Lanes(limit: 2 * ProcessInfo.processInfo.activeProcessorCount)

    /// Lane numbers from 1 up to a limit, each with the count of font maps holding it.
    final class Lanes: @unchecked Sendable {
        private let lock = NSLock()
        /// How many font maps hold lane `index + 1`.
        private var holders: [Int] = []
        /// The most lanes there are.
        let limit: Int

        /// Lanes 1 to `limit` (at least 1).
        init(limit: Int) { self.limit = max(1, limit) }

        /// The lane the fewest font maps hold, the smallest of those: one nobody holds while
        /// there is one, a new one while there are fewer than ``limit``.
        func take() -> Int {
            lock.withLock {
                let fewest = holders.indices.min { holders[$0] < holders[$1] }
                if let fewest, holders[fewest] == 0 || holders.count == limit {
                    holders[fewest] += 1
                    return fewest + 1
                }
                holders.append(1)
                return holders.count
            }
        }

        /// Holds `lane` once more (a font map made in the lane of the render that borrows it)
        /// and returns it; a lane past the limit (tests choose their own) is returned unheld.
        func hold(_ lane: Int) -> Int {
            lock.withLock {
                if holders.indices.contains(lane - 1) { holders[lane - 1] += 1 }
                return lane
            }
        }

        /// Hands back one hold of `lane`.
        func giveBack(_ lane: Int) {
            lock.withLock {
                guard holders.indices.contains(lane - 1), holders[lane - 1] > 0 else { return }
                holders[lane - 1] -= 1
            }
        }
    }

    /// The lane the calling thread's faces are opened in (0: none).
    static var currentLane: Int {
        get { typeset_face_sharing_lane() }
        set { typeset_face_sharing_set_lane(newValue) }
    }
    /// How many Cairo font faces made on shared faces the process keeps, one per face and set
    /// of options (for tests).
    static var keptFontFaceCount: Int { typeset_face_sharing_kept_font_faces() }
}

/// A recursive lock that lets no thread wait long: whoever asks while it is free takes it (as
/// a mutex, which promises no order), but a thread that has waited more than ``patience`` is
/// served next. A render takes and gives up the lock for every paragraph and page and, with a
/// plain mutex, takes it back before a waiting thread wakes: a render beside it, or a
/// cancelled one, waited for most of another render. Serving every thread strictly in turn
/// costs a thread switch at every hand-over instead (20 small renders beside other suites took
/// ten times as long). Reentrant for its holder (Pango's shape callbacks and nested measuring
/// come back to it). A lock made with `serializing` false is taken at once by every thread.
final class RecursiveLock: @unchecked Sendable {
    /// How long a thread waits before it is served next, s.
    static let patience = 0.002
    /// Whether the lock excludes other threads; false makes ``lock()`` and ``unlock()`` do nothing.
    let serializing: Bool
    private var mutex = pthread_mutex_t()
    private var released = pthread_cond_t()
    private var held = false
    private var owner: pthread_t = 0
    private var depth = 0
    /// The thread that has waited longer than ``patience`` and is served next, if any.
    private var urgent: pthread_t?

    /// A lock that excludes other threads, or (`serializing` false) one that never does.
    init(serializing: Bool = true) {
        self.serializing = serializing
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&released, nil)
    }

    /// `body`'s result, with the lock held while it runs.
    func run<T>(_ body: () throws -> T) rethrows -> T {
        guard serializing else { return try body() }
        lock()
        defer { unlock() }
        return try body()
    }

    /// Takes the lock (at once when the calling thread holds it already). For initializers
    /// and deinitializers, which cannot run inside a closure.
    func lock() {
        guard serializing else { return }
        let me = pthread_self()
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        if held, pthread_equal(owner, me) != 0 {
            depth += 1
            return
        }
        let start = DispatchTime.now().uptimeNanoseconds
        while held || (urgent.map { pthread_equal($0, me) == 0 } ?? false) {
            var deadline = timespec()
            clock_gettime(CLOCK_REALTIME, &deadline)
            deadline.tv_nsec += Int(Self.patience * 1e9)
            if deadline.tv_nsec >= 1_000_000_000 {
                deadline.tv_sec += 1
                deadline.tv_nsec -= 1_000_000_000
            }
            pthread_cond_timedwait(&released, &mutex, &deadline)
            let waited = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            if urgent == nil, waited > Self.patience { urgent = me }
        }
        if let first = urgent, pthread_equal(first, me) != 0 { urgent = nil }
        held = true
        owner = me
        depth = 1
    }

    /// Gives up one hold; the last frees the lock.
    func unlock() {
        guard serializing else { return }
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        depth -= 1
        guard depth == 0 else { return }
        held = false
        owner = 0
        pthread_cond_broadcast(&released)
    }
}

/// A font map and context set up the way every measurement here needs: 72 dpi (1 pt = 1
/// Pango layout unit), unhinted metrics, unrounded glyph positions.
///
/// Pango resolves each distinct font description through fontconfig once per font map (a
/// match and a sort of every installed face, several million instructions each, in
/// `pango_fc_patterns_new`), so one render's shaper, font queries and coverage check share
/// one setup and its caches. A setup belongs to one ``FontConfiguration`` and is used by one
/// render at a time (``FontSession``), which is what makes Pango safe on several threads: a
/// font map per thread. The backend's own per-description caches (``FontCache``) live here
/// too.
final class PangoSetup {
    let fontMap: GObjectRef
    /// The context PDF pages are measured in, and font queries made: its glyph options are
    /// the PDF surface's own (``pdfGlyphOptions``).
    let context: GObjectRef
    /// The context pages drawn as pictures (PNG or SVG, ``PagePreview``) are measured in,
    /// made on first use: unhinted metrics and outlines, Cairo's defaults otherwise.
    var pictureContext: GObjectRef {
        if let made = pictureContextValue { return made }
        let made = Self.makeContext(fontMap.typed(PangoFontMap.self), options: nil)
        pictureContextValue = made
        return made
    }
    private var pictureContextValue: GObjectRef?
    /// The fonts this setup's font map reads; it keeps the setup while no render holds it.
    unowned let configuration: FontConfiguration
    /// Descriptions, first faces, metrics and hyphen widths per ``FontSpec``.
    let cache = FontCache()
    /// Fonts loaded through Pango's font map by the backend's own lookups (each a fontconfig
    /// match and sort the first time its description is seen): a counter for tests, which
    /// check that a second lookup of the same request loads nothing.
    var fontLoads = 0
    /// The lane this font map's faces are opened in (``CairoFaces/lanes``), held until the
    /// setup is freed.
    let lane: Int
    /// Whether the font map was given a configuration of its own (font folders).
    private let setsConfiguration: Bool

    /// A font map of its own on `configuration`'s fonts (``FontConfiguration/checkOut()``;
    /// tests make one to compare with a render's), in `lane` (nil: the lane
    /// ``CairoFaces/lanes`` gives).
    init(configuration: FontConfiguration = .system, lane: Int? = nil) {
        self.configuration = configuration
        self.lane = lane.map(CairoFaces.lanes.hold) ?? CairoFaces.lanes.take()
        let map = pango_cairo_font_map_new()!
        fontMap = GObjectRef(owning: UnsafeMutableRawPointer(map))
        setsConfiguration = configuration.config != nil
        if let config = configuration.config { pango_fc_font_map_set_config(OpaquePointer(map), config) }
        pango_cairo_font_map_set_resolution(fontMap.opaque, 72)
        let options = Self.pdfGlyphOptions()
        context = Self.makeContext(map, options: options)
        cairo_font_options_destroy(options)
    }

    deinit {
        // Pango 1.50 takes a reference to the configuration it is given
        // (`pango_fc_font_map_set_config`) and never gives it back when the font map is
        // finalized: each font map on a configuration of its own kept that configuration, all
        // the installed fonts' patterns with it (0.3 MB), for the life of the process. Setting
        // none gives it back.
        if setsConfiguration { pango_fc_font_map_set_config(fontMap.opaque, nil) }
        CairoFaces.lanes.giveBack(lane)
    }

    /// The glyph options of Cairo's PDF surface (`cairo_surface_get_font_options` on one; Cairo
    /// 1.16 `_cairo_pdf_surface_get_font_options`: no hinting, unhinted metrics, grey
    /// antialiasing, unrounded glyph positions); the caller destroys them.
    ///
    /// Drawing on a surface merges its options under the font's (`cairo_set_scaled_font`, then
    /// `_cairo_gstate_ensure_scaled_font`): a font measured with other options is drawn through a
    /// second scaled font whose glyphs FreeType loads again (8 million instructions on a
    /// one-page document). Measured with the surface's own options, the drawing finds the
    /// scaled font, and the glyphs, that measuring loaded. Metrics are unhinted either way, so
    /// every advance and so every PDF byte is the same.
    static func pdfGlyphOptions() -> OpaquePointer {
        let options = cairo_font_options_create()!
        let surface = cairo_pdf_surface_create_for_stream(nil, nil, 1, 1)
        cairo_surface_get_font_options(surface, options)
        cairo_surface_destroy(surface)
        // The two the measurements rely on, whatever the surface says.
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        return options
    }

    /// A context on `map` at 72 dpi with unrounded glyph positions, glyph `options` (nil:
    /// unhinted metrics and outlines, Cairo's defaults otherwise), the default language and
    /// inline-image shapes.
    private static func makeContext(_ map: UnsafeMutablePointer<PangoFontMap>, options given: OpaquePointer?)
        -> GObjectRef
    {
        let ctx = pango_font_map_create_context(map)!
        let context = GObjectRef(owning: UnsafeMutableRawPointer(ctx))
        pango_cairo_context_set_resolution(ctx, 72)
        if let given {
            pango_cairo_context_set_font_options(ctx, given)
        } else {
            let options = cairo_font_options_create()
            cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
            cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
            pango_cairo_context_set_font_options(ctx, options)
            cairo_font_options_destroy(options)
        }
        pango_context_set_round_glyph_positions(ctx, 0)
        // The language layouts itemize with when the context names none (Pango's default, from
        // the locale), named on the context so that `pango_font_map_load_font` — which would
        // otherwise ask fontconfig without a language — asks for the pattern layouts ask for,
        // and fontconfig sorts the installed faces once for both.
        pango_context_set_language(ctx, pango_language_get_default())
        InlineImageShapes.install(on: ctx)
        return context
    }

    /// The context to measure lines drawn on PDF pages (false) or pictures (true) in.
    func context(forPictures pictures: Bool) -> GObjectRef { pictures ? pictureContext : context }

    var fontMapPointer: UnsafeMutablePointer<PangoFontMap> { fontMap.typed(PangoFontMap.self) }

    /// Loads the font Pango picks for `description` (the caller owns the returned reference):
    /// the first face of the description's fontset. Each call is counted in
    /// ``fontLoads``.
    func loadFont(_ description: FontDescription) -> GObjectRef? {
        fontLoads += 1
        guard let font = pango_font_map_load_font(fontMapPointer, context.opaque, description.pointer) else {
            return nil
        }
        return GObjectRef(owning: UnsafeMutableRawPointer(font))
    }
}

/// Family, weight and style of a loaded font as Pango describes it (the face actually used).
struct FaceDescription {
    var family: String
    var weight: Int
    var italic: Bool
    /// fontconfig slants an upright face (a shear in the pattern's matrix).
    var slantSynthesized = false
    /// fontconfig emboldens a lighter face.
    var boldSynthesized = false

    init(font: UnsafeMutablePointer<PangoFont>) {
        // Every font a pangocairo (fontconfig) font map loads is a PangoFcFont.
        if let pattern = UnsafeMutableRawPointer(font).assumingMemoryBound(to: PangoFcFont.self).pointee.font_pattern {
            var matrix: UnsafeMutablePointer<FcMatrix>?
            if FcPatternGetMatrix(pattern, "matrix", 0, &matrix) == FcResultMatch, let transform = matrix?.pointee {
                slantSynthesized = transform.xy != 0
            }
            var embolden: FcBool = 0
            if FcPatternGetBool(pattern, "embolden", 0, &embolden) == FcResultMatch { boldSynthesized = embolden != 0 }
        }
        let desc = pango_font_describe(font)!
        defer { pango_font_description_free(desc) }
        family = pango_font_description_get_family(desc).map { String(cString: $0) } ?? ""
        weight = Int(pango_font_description_get_weight(desc).rawValue)
        let style = pango_font_description_get_style(desc)
        italic = style == PANGO_STYLE_ITALIC || style == PANGO_STYLE_OBLIQUE
    }
}

extension RGBAColor {
    var pango16: (UInt16, UInt16, UInt16, UInt16) {
        func channel(_ fraction: Double) -> UInt16 { UInt16(max(0, min(65535, (fraction * 65535).rounded()))) }
        return (channel(red), channel(green), channel(blue), channel(alpha))
    }
}

/// Conversion of pt to Pango units (1 pt = 1024 units at 72 dpi) that never traps: NaN becomes
/// 0 and values beyond ±2²⁰ pt are clamped (Pango's own fields are 32-bit).
enum PangoUnits {
    static func from(_ points: Double, rounding: FloatingPointRoundingRule = .toNearestOrAwayFromZero) -> Int32 {
        guard points.isFinite else { return points.isNaN ? 0 : (points > 0 ? Int32.max / 2 : Int32.min / 2) }
        let units = (points * Double(PANGO_SCALE)).rounded(rounding)
        return Int32(min(max(units, Double(Int32.min / 2)), Double(Int32.max / 2)))
    }
}
