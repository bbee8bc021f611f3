internal import CFaceSharing
internal import CPangoCairo
import Foundation
import Typography

/// The fonts a render may use: the installed ones, plus the font files of some folders, as
/// one fontconfig configuration (`FcConfig`) that is never changed once made.
///
/// Pango 1.50 documents PangoCairo as safe to use from several threads when each thread has
/// its own font map (`pango_cairo_font_map_get_default`: "the default fontmap is per-thread"),
/// fontconfig guards its configurations with its own locks, and a configuration that nobody
/// changes can be read from any thread. So each render borrows a Pango font map of its own
/// (``FontSession``), set to its configuration (`pango_fc_font_map_set_config`), and two
/// renders with different font folders see only their own fonts.
///
/// A configuration keeps the font maps its renders gave back, with their caches (each
/// description resolved through fontconfig once per map, a match and a sort of every
/// installed face): a render that starts after another ended finds the faces that one
/// resolved.
public final class FontConfiguration: @unchecked Sendable {
    /// The installed fonts alone: fontconfig's current configuration.
    public static let system = FontConfiguration(config: nil, files: [])

    /// The `FcConfig` of the fonts; nil for fontconfig's current configuration.
    let config: OpaquePointer?
    /// The files added to the installed fonts, with their sizes and modification times (what
    /// tells two configurations apart).
    let files: [FontFile]
    private let lock = NSLock()
    /// Setups no render holds, the most recently given back last.
    private var idle: [PangoSetup] = []
    /// Setups renders hold now, and the most they have held at once.
    private var held = 0
    private var mostHeld = 0
    /// The most setups kept for later renders: a font map made anew resolves each description
    /// through fontconfig again (a match and a sort of every installed face), so 20 renders
    /// from a task group, 18 of them on new font maps, spent twice the processor time of the
    /// same renders one after another.
    static let maximumIdle = 32
    /// Whether a family is a colour (emoji) family, as fontconfig lists it (``ColorFonts``).
    private var colorFamilies: [String: Bool] = [:]
    /// The weights of each family's faces, by family and style (``weights(of:italic:)``).
    private var faceWeights: [String: [FontWeight]] = [:]
    /// The math font of each family asked for, nil when these fonts have no face of it with a
    /// MATH table (``mathFont(_:)``).
    private var mathFonts: [String: HarfBuzzMathFont?] = [:]

    /// The OpenType MATH font of `family` among these fonts (a font folder's too), loaded once;
    /// nil when they have no face of that family, or its face has no MATH table. Renders with
    /// other fonts ask their own configuration, so a family one render registers never stands
    /// for another's.
    func mathFont(_ family: String) -> HarfBuzzMathFont? {
        lock.withLock {
            if let known = mathFonts[family] { return known }
            let loaded = HarfBuzzMathFont(family: family, config: config)
            mathFonts[family] = loaded
            return loaded
        }
    }

    private init(config: OpaquePointer?, files: [FontFile]) {
        self.config = config
        self.files = files
    }

    deinit {
        idle.removeAll()
        if let config { FcConfigDestroy(config) }
        // The font maps are gone with `idle` (a render holding one holds this configuration).
        HeldFonts.shared.release(files.map(\.path))
    }

    /// The installed fonts and those in `folders` (each searched recursively, as
    /// ``FontFolderScan`` walks: regular files only, never into /proc, /sys or /dev, each
    /// folder once); ``system`` when `folders` is empty. Equal folders with the same files
    /// (paths, sizes, modification times) give the same configuration, made once: a fresh
    /// `FcConfig` of the installed fonts (`FcInitLoadConfigAndFonts`) with each file added
    /// (`FcConfigAppFontAddFile`; files fontconfig cannot read as fonts are passed over, as
    /// its own folder scan does).
    ///
    /// `documentFolders`, folders a document named (a theme's `fontFolders`), come first and
    /// are scanned within `allowed` (a render's ``Sandbox/folders``; nil: anywhere): only the
    /// files that resolve inside those folders are added (``FontFolderScan/scan(_:within:)``).
    /// `folders`, which the user named, are not confined.
    /// - Returns: the configuration, and the folders whose walk stopped at
    ///   ``FontFolderScan/maxEntries`` or ``FontFolderScan/maxDepth`` (their fonts past that
    ///   point are not added).
    /// - Throws: ``BackendError/fontFolder(path:reason:)`` when a folder cannot be read or is
    ///   no folder of fonts.
    public static func including(
        folders: [String], documentFolders: [String] = [], within allowed: [String]? = nil
    ) throws -> (configuration: FontConfiguration, cutShort: [String], webFonts: [String]) {
        guard !folders.isEmpty || !documentFolders.isEmpty else { return (system, [], []) }
        let scans = documentFolders.map { ($0, allowed) } + folders.map { ($0, nil as [String]?) }
        var files: [FontFile] = []
        var cutShort: [String] = []
        var webFonts: [String] = []
        for (folder, confinement) in scans {
            let found: FontFolderScan.Result
            do { found = try FontFolderScan.scan(folder, within: confinement) } catch {
                throw BackendError.fontFolder(path: folder, reason: error.reason)
            }
            if found.truncated { cutShort.append(folder) }
            webFonts += found.webFonts
            if let confinement {
                files += found.files.compactMap { HeldFonts.shared.file(at: $0, within: confinement) }
            } else {
                files += found.files.map(FontFile.init(path:))
            }
        }
        // Each file is used by the configuration made of them; one made before holds its own.
        HeldFonts.shared.acquire(files.filter { !HeldFonts.isHeld($0.path) }.map(\.path))
        let (configuration, isNew) = Made.shared.configuration(for: files)
        if !isNew { HeldFonts.shared.release(files.map(\.path)) }
        return (configuration, cutShort, webFonts)
    }

    /// A setup no render holds, or a new one. On a thread in a lane (a render's, whose
    /// session is open), a setup in that lane: a render that borrows a second font map (a
    /// formula's text) draws on the faces of its first, so each file's glyphs land in one font
    /// subset.
    func checkOut() -> PangoSetup {
        let lane = CairoFaces.currentLane
        lock.lock()
        let index = lane == 0 ? idle.indices.last : idle.lastIndex { $0.lane == lane }
        let reused = index.map { idle.remove(at: $0) }
        held += 1
        mostHeld = max(mostHeld, held)
        lock.unlock()
        return reused ?? CairoFaces.lock.run { PangoSetup(configuration: self, lane: lane == 0 ? nil : lane) }
    }

    /// Keeps `setup` for the next render: as many as renders have held at once (at least one
    /// per processor, at most ``maximumIdle``), so that renders started together again find
    /// font maps that know their faces.
    func checkIn(_ setup: PangoSetup) {
        lock.lock()
        defer { lock.unlock() }
        held -= 1
        let kept = min(Self.maximumIdle, max(ProcessInfo.processInfo.activeProcessorCount, mostHeld))
        if idle.count < kept { idle.append(setup) }
    }

    /// The weights of `family`'s faces in this configuration (its italic faces' for `italic`,
    /// when it has any), as OpenType weights, lightest first; empty for a family it does not
    /// list. Asked once per family and style.
    func weights(of family: String, italic: Bool) -> [FontWeight] {
        let key = family + (italic ? "\u{0}i" : "")
        if let known = lock.withLock({ faceWeights[key] }) { return known }
        var upright: Set<Int> = []
        var slanted: Set<Int> = []
        if let pattern = FcPatternCreate(), let objects = FcObjectSetCreate() {
            _ = FcPatternAddString(pattern, "family", family)
            _ = FcObjectSetAdd(objects, "weight")
            _ = FcObjectSetAdd(objects, "slant")
            if let list = FcFontList(config, pattern, objects) {
                for index in 0..<Int(list.pointee.nfont) {
                    guard let font = list.pointee.fonts[index] else { continue }
                    var weight: Double = 0
                    var integer: Int32 = 0
                    if FcPatternGetInteger(font, "weight", 0, &integer) == FcResultMatch {
                        weight = Double(integer)
                    } else if FcPatternGetDouble(font, "weight", 0, &weight) != FcResultMatch {
                        continue
                    }
                    let openType = Int(FcWeightToOpenTypeDouble(weight).rounded())
                    var slant: Int32 = 0
                    _ = FcPatternGetInteger(font, "slant", 0, &slant)
                    if slant == 0 { upright.insert(openType) } else { slanted.insert(openType) }
                }
                FcFontSetDestroy(list)
            }
            FcObjectSetDestroy(objects)
            FcPatternDestroy(pattern)
        }
        let chosen = italic && !slanted.isEmpty ? slanted : upright.union(slanted)
        let weights = Array(chosen).filter { (1...1000).contains($0) }.sorted().map { FontWeight($0) }
        lock.withLock { faceWeights[key] = weights }
        return weights
    }

    /// True when every face fontconfig lists for `family` in this configuration is a colour
    /// font (`FC_COLOR`), asked once per family.
    func isColorFamily(_ family: String) -> Bool {
        lock.lock()
        let known = colorFamilies[family]
        lock.unlock()
        if let known { return known }
        var result = false
        if let pattern = FcPatternCreate(), let objects = FcObjectSetCreate() {
            _ = FcPatternAddString(pattern, "family", family)
            _ = FcObjectSetAdd(objects, "color")
            if let list = FcFontList(config, pattern, objects) {
                let count = Int(list.pointee.nfont)
                var colour = 0
                for index in 0..<count {
                    var value: FcBool = 0
                    if let font = list.pointee.fonts[index],
                        FcPatternGetBool(font, "color", 0, &value) == FcResultMatch, value != 0
                    {
                        colour += 1
                    }
                }
                result = count > 0 && colour == count
                FcFontSetDestroy(list)
            }
            FcObjectSetDestroy(objects)
            FcPatternDestroy(pattern)
        }
        lock.lock()
        colorFamilies[family] = result
        lock.unlock()
        return result
    }

    /// One font file as a configuration was made with it: the path fontconfig is given, its
    /// size and modification time.
    struct FontFile: Hashable {
        var path: String
        var size: Int64
        var modified: Int

        init(path: String) {
            var info = stat()
            self.init(path: path, info: stat(path, &info) == 0 ? info : nil)
        }

        init(path: String, info: stat?) {
            self.path = path
            size = info.map { Int64($0.st_size) } ?? -1
            modified = info.map { $0.st_mtim.tv_sec * 1_000_000_000 + $0.st_mtim.tv_nsec } ?? 0
        }
    }

    /// The font files configurations add, by path, with how many configurations use each;
    /// and the files documents named under a root, each opened once, checked inside the root
    /// as opened, and kept open while a configuration uses it: fontconfig and FreeType read
    /// such a file through `/proc/self/fd/N` (the file as it was opened and checked), so a
    /// folder of its path swapped for a symbolic link out of the root after the check (a race
    /// a document's owner could run beside the render) changes nothing read. A held file is
    /// known by its device, inode, size and modification time, so one file is one descriptor
    /// and one path while it is used; at most ``capacity`` files are held at once.
    ///
    /// When no configuration uses a file any more, its shared faces are given up
    /// (`typeset_face_sharing_forget`) and a held file's descriptor is closed, so a server
    /// that gives each request font folders of its own keeps the files and faces of the
    /// configurations it keeps (``Made/capacity``), not of every request it served. A held
    /// descriptor's number may then be reused for another file: the faces of its path were
    /// given up first, and a face is found by its file's device and inode as well as its path.
    final class HeldFonts: @unchecked Sendable {
        static let shared = HeldFonts()
        static let capacity = 4_096
        private let lock = NSLock()
        private var held: [Identity: FontFile] = [:]
        /// The held files' descriptors and identities, by the path fontconfig reads.
        private var descriptors: [String: (descriptor: Int32, identity: Identity)] = [:]
        /// How many configurations (made or being made) use each added file, by path.
        private var uses: [String: Int] = [:]

        /// Whether `path` names a held file (`/proc/self/fd/N`), whose use ``file(at:within:)``
        /// counts as it hands it out.
        static func isHeld(_ path: String) -> Bool { path.hasPrefix("/proc/self/fd/") }

        /// Counts one more use of each of `paths`.
        func acquire(_ paths: [String]) {
            lock.withLock {
                for path in paths { uses[path, default: 0] += 1 }
            }
        }

        /// Counts one use fewer of each of `paths`; a file no configuration uses any more has
        /// its shared faces given up and, when held, its descriptor closed.
        func release(_ paths: [String]) {
            let unused: [String] = lock.withLock {
                var unused: [String] = []
                for path in paths {
                    guard let count = uses[path] else { continue }
                    if count > 1 {
                        uses[path] = count - 1
                    } else {
                        uses[path] = nil
                        unused.append(path)
                    }
                }
                return unused
            }
            for path in unused {
                typeset_face_sharing_forget(path)
            }
            lock.withLock {
                for path in unused where uses[path] == nil {
                    guard let entry = descriptors.removeValue(forKey: path) else { continue }
                    held[entry.identity] = nil
                    close(entry.descriptor)
                }
            }
        }

        struct Identity: Hashable {
            var device: UInt64
            var inode: UInt64
            var size: Int64
            var modified: Int
        }

        /// The font file at `path` as fontconfig is to read it, when it opens as a regular file
        /// of at most ``FileReader/fontLimit`` bytes that lies, as opened, inside one of
        /// `allowed`; nil otherwise, or when ``capacity`` files are held already.
        func file(at path: String, within allowed: [String]) -> FontFile? {
            let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW)
            guard descriptor >= 0 else { return nil }
            var info = stat()
            let opened = "/proc/self/fd/\(descriptor)"
            guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
                info.st_size <= FileReader.fontLimit, Sandbox.resolve(opened, within: allowed) != nil
            else {
                close(descriptor)
                return nil
            }
            let identity = Identity(
                device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
                modified: info.st_mtim.tv_sec * 1_000_000_000 + info.st_mtim.tv_nsec)
            lock.lock()
            defer { lock.unlock() }
            if let known = held[identity] {
                close(descriptor)
                uses[known.path, default: 0] += 1
                return known
            }
            guard held.count < Self.capacity else {
                close(descriptor)
                return nil
            }
            let file = FontFile(path: opened, info: info)
            held[identity] = file
            descriptors[opened] = (descriptor, identity)
            uses[opened, default: 0] += 1
            return file
        }
    }

    /// The configurations made for font folders, by their files: at most ``capacity``, the
    /// least recently asked for given up first (a render still holding it keeps it alive).
    final class Made: @unchecked Sendable {
        static let shared = Made()
        static let capacity = 8
        private let lock = NSLock()
        private var made: [(files: [FontFile], configuration: FontConfiguration)] = []

        /// The configuration of `files`, and whether it was made now (it then holds a use of
        /// each file, given back when it goes).
        func configuration(for files: [FontFile]) -> (configuration: FontConfiguration, isNew: Bool) {
            var evicted: FontConfiguration?
            defer { _ = evicted }
            lock.lock()
            defer { lock.unlock() }
            if let index = made.firstIndex(where: { $0.files == files }) {
                let found = made.remove(at: index)
                made.append(found)
                return (found.configuration, false)
            }
            let config = FcInitLoadConfigAndFonts()
            for file in files { _ = FcConfigAppFontAddFile(config, file.path) }
            let configuration = FontConfiguration(config: config, files: files)
            // Given up after the lock (its files are released as it goes).
            if made.count >= Self.capacity { evicted = made.removeFirst().configuration }
            made.append((files, configuration))
            return (configuration, true)
        }
    }
}

/// The Pango font map one render uses, borrowed from its ``FontConfiguration`` for as long as
/// anything made with it lives: the shaper, its layouts and every shaped line hold the session,
/// so the font map goes back to the configuration only when none of them is left, and no two
/// threads ever use one font map at once.
///
/// A session is used by one thread at a time (a render's stages run in turn); sessions of one
/// configuration or of different ones run in parallel with no lock. The thread that makes a
/// session opens faces in its font map's lane (``CairoFaces/lanes``) until the session ends,
/// when the lane it was in before comes back (sessions made on one thread end in the reverse
/// order, as scopes do); a session made on a thread already in a lane borrows a font map of
/// that lane, so every font a font map makes is made in the font map's own lane.
public final class FontSession: @unchecked Sendable {
    /// The configuration the font map reads.
    public let configuration: FontConfiguration
    let setup: PangoSetup
    /// The thread that made the session, and the lane it was in before.
    private let thread = pthread_self()
    private let outerLane: Int

    /// Borrows a font map of `configuration` (a new one when every font map made for it is in
    /// use), and puts the calling thread in its lane. A thread whose lane was set by a session
    /// that has ended (its last holder let it go on another thread) is in no render's lane:
    /// it starts afresh.
    public init(_ configuration: FontConfiguration = .system) {
        self.configuration = configuration
        outerLane = CairoFaces.currentLane
        let nested = Self.laneOpener != nil
        if !nested { CairoFaces.currentLane = 0 }
        setup = configuration.checkOut()
        CairoFaces.currentLane = setup.lane
        if !nested { Self.laneOpener = self }
    }

    /// The live session that put the calling thread in its lane, if any (kept weakly in the
    /// thread's dictionary).
    private static var laneOpener: FontSession? {
        get { (Thread.current.threadDictionary[openerKey] as? WeakSession)?.session }
        set { Thread.current.threadDictionary[openerKey] = WeakSession(newValue) }
    }
    private static let openerKey = "Typeset.FontSession.laneOpener"
    private final class WeakSession {
        weak var session: FontSession?
        init(_ session: FontSession?) { self.session = session }
    }

    deinit {
        if pthread_equal(thread, pthread_self()) != 0, CairoFaces.currentLane == setup.lane {
            CairoFaces.currentLane = outerLane
        }
        configuration.checkIn(setup)
    }
}
