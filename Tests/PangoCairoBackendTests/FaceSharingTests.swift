internal import CPangoCairo
import Foundation
import Styling
import TestSupport
import Testing
import Typography

@testable import PangoCairoBackend

/// Every Cairo face Pango makes is made on a FreeType face the process opened once for its font
/// map's lane (`CFaceSharing`), which Cairo never closes, so Pango and Cairo work of different
/// renders is not serialized, nor waits on one face.
@Suite struct FaceSharingTests {
    /// The test binary's own `cairo_ft_font_face_create_for_pattern` is the one libpangocairo
    /// calls: a face in a family no other test uses, loaded through a render's font map, opens
    /// one more shared face, and the lock across renders takes nothing.
    @Test func pangosFacesAreOpenedInTheSharedTable() throws {
        #expect(CairoFaces.areShared, "the process's face function is CFaceSharing's")
        #expect(!CairoFaces.lock.serializing, "renders are not serialized")
        let folder = try Render.scratchFolder("face-sharing")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let family = "Typeset Shared Face \(UInt32.random(in: 0..<1_000_000))"
        try Support.renamedFont(at: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", family: family)
            .write(to: URL(fileURLWithPath: folder + "/Face.ttf"))
        let configuration = try FontConfiguration.including(folders: [folder]).configuration
        let shaper = PangoShaper(session: FontSession(configuration))
        let before = CairoFaces.sharedFaceCount
        let font = FontSpec(families: [family], size: 12.5)
        let paragraph = StyledParagraph(
            runs: [StyledRun("Shared faces", style: RunStyle(font: font))], style: ParagraphStyle(baseFont: font))
        let shaped = shaper.shape(paragraph, width: nil)
        #expect(shaped.naturalWidth > 0)
        #expect(CairoFaces.sharedFaceCount > before, "the face of \(family) was opened in the shared table")
    }

    /// A configuration's font files are let go when it is: a document's font file held open
    /// (`/proc/self/fd`) is closed, and its shared face is closed once Cairo lets go of the
    /// font faces made on it (Cairo keeps the last 256 scaled fonts a while), so a server
    /// giving each request font folders of its own keeps the files and faces of the
    /// configurations it keeps, not of every request: both were kept for the process (a
    /// server grew 0.33 MB and a descriptor a request).
    @Test func theFilesAndFacesOfAConfigurationLetGoAreClosed() throws {
        try #require(CairoFaces.areShared)
        let root = try Render.scratchFolder("let-go")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let dejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
        let tag = UInt32.random(in: 0..<1_000_000)
        func folder(_ index: Int) throws -> String {
            let path = root + "/\(index)"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            try Support.renamedFont(at: dejaVu, family: "Typeset Let Go \(tag) \(index)")
                .write(to: URL(fileURLWithPath: path + "/Face.ttf"))
            return path
        }
        let first = try folder(0) + "/Face.ttf"
        func descriptorsOpen() -> Int {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
            return entries.count {
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == first
            }
        }
        // Read to its end (`/proc` files report no size): a test process maps thousands of areas.
        func mapped() -> Bool {
            guard let maps = FileHandle(forReadingAtPath: "/proc/self/maps") else { return false }
            defer { try? maps.close() }
            return String(decoding: maps.readDataToEndOfFile(), as: UTF8.self).contains(first)
        }
        do {
            let configuration = try FontConfiguration.including(
                folders: [], documentFolders: [root + "/0"], within: [root]
            ).configuration
            let shaper = PangoShaper(session: FontSession(configuration))
            let font = FontSpec(families: ["Typeset Let Go \(tag) 0"], size: 12)
            let paragraph = StyledParagraph(
                runs: [StyledRun("Let go", style: RunStyle(font: font))], style: ParagraphStyle(baseFont: font))
            #expect(shaper.shape(paragraph, width: nil).naturalWidth > 0)
            #expect(descriptorsOpen() == 1, "the document's font file is held open")
            #expect(mapped(), "FreeType maps the file")
        }
        // More configurations than are kept: the first is let go.
        for index in 1...(FontConfiguration.Made.capacity + 1) {
            _ = try FontConfiguration.including(folders: [try folder(index)]).configuration
        }
        #expect(descriptorsOpen() == 0, "the held file is closed")
        // Scaled fonts of other sizes push the first face's out of Cairo's 256 kept ones.
        let other = cairo_toy_font_face_create("DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        defer { cairo_font_face_destroy(other) }
        let options = cairo_font_options_create()
        defer { cairo_font_options_destroy(options) }
        var identity = cairo_matrix_t()
        cairo_matrix_init_identity(&identity)
        for size in 0..<400 {
            var matrix = cairo_matrix_t()
            cairo_matrix_init_scale(&matrix, 5 + Double(size) / 7, 5 + Double(size) / 7)
            cairo_scaled_font_destroy(cairo_scaled_font_create(other, &matrix, &identity, options))
        }
        #expect(!mapped(), "the face is closed and its file unmapped")
    }

    /// A configuration let go leaves no heap behind: Pango 1.50 kept a reference to the
    /// fontconfig configuration of every font map set to one, so each configuration (the
    /// installed fonts' patterns, about 0.3 MB) lived on after its font maps, and a server
    /// giving each request font folders of its own grew by that much a request. Measured in a
    /// process of its own (an exit test), beside nothing else: the memory a configuration holds
    /// while it is used, against what 40 more, each used and let go, leave behind.
    @Test func configurationsLetGoLeaveNoHeapBehind() async {
        await #expect(processExitsWith: .success) {
            let root = try Render.scratchFolder("heap-let-go")
            let tag = UInt32.random(in: 0..<1_000_000)
            // Anonymous resident memory (`RssAnon`, bytes): the heap, not the font files mapped.
            func heap() -> Int {
                let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
                let line = status.split(separator: "\n").first { $0.hasPrefix("RssAnon:") } ?? ""
                return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
            }
            func used(_ index: Int) throws -> (FontConfiguration, PangoShaper) {
                let folder = root + "/\(index)"
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                try Support.renamedFont(
                    at: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", family: "Typeset Heap \(tag) \(index)"
                ).write(to: URL(fileURLWithPath: folder + "/Face.ttf"))
                let configuration = try FontConfiguration.including(folders: [folder]).configuration
                let shaper = PangoShaper(session: FontSession(configuration))
                let font = FontSpec(families: ["Typeset Heap \(tag) \(index)"], size: 12)
                let paragraph = StyledParagraph(
                    runs: [StyledRun("Heap", style: RunStyle(font: font))], style: ParagraphStyle(baseFont: font))
                _ = shaper.shape(paragraph, width: nil)
                return (configuration, shaper)
            }
            let kept = FontConfiguration.Made.capacity
            // More than are kept, so that every configuration made from here on lets one go.
            for index in 0..<(2 * kept) { _ = try used(index) }
            // What a configuration in use holds: `kept` of them at once.
            let before = heap()
            var held: [(FontConfiguration, PangoShaper)] = []
            for index in 100..<(100 + kept) { held.append(try used(index)) }
            let holds = max(1, (heap() - before) / kept)
            held.removeAll()
            for index in 200..<(200 + kept) { _ = try used(index) }
            // What each of 40 more leaves behind once let go.
            let start = heap()
            for index in 300..<340 { _ = try used(index) }
            let left = (heap() - start) / 40
            // Measured: about 1/40 of what one holds; it was half.
            if left > holds / 8 { exit(1) }
        }
    }

    /// The Cairo font face Pango draws `family` with at 12 pt, loaded through `setup`'s font map
    /// on the calling thread.
    static func fontFace(of family: String, in setup: PangoSetup) throws -> OpaquePointer {
        let description = try #require(pango_font_description_from_string("\(family) 12"))
        defer { pango_font_description_free(description) }
        let font = try #require(
            pango_font_map_load_font(setup.fontMap.typed(PangoFontMap.self), setup.context.opaque, description))
        defer { g_object_unref(font) }
        let scaled = try #require(pango_cairo_font_get_scaled_font(OpaquePointer(font)))
        return try #require(cairo_scaled_font_get_font_face(scaled))
    }

    /// Each face is opened once per lane: two new font maps in one lane draw a family on one
    /// Cairo font face (what keeps a render's glyphs of a file in one font subset), and a font
    /// map in another lane draws it on a face of its own, so renders in two lanes never wait
    /// for each other on Cairo's per-face and per-scaled-font locks.
    @Test func facesAreOpenedOncePerLane() throws {
        try #require(CairoFaces.areShared)
        let outer = CairoFaces.currentLane
        defer { CairoFaces.currentLane = outer }
        // Lanes no font map holds, so that the faces are opened here.
        let lane = 1_000_000 + 2 * Int.random(in: 0..<1_000_000)
        func face(inLane lane: Int) throws -> OpaquePointer {
            CairoFaces.currentLane = lane
            return try Self.fontFace(of: "DejaVu Sans", in: PangoSetup(lane: lane))
        }
        let opened = CairoFaces.sharedFaceCount
        let first = try face(inLane: lane)
        #expect(try face(inLane: lane) == first, "two font maps in one lane draw on one font face")
        #expect(try face(inLane: lane + 1) != first, "a font map in another lane draws on a face of its own")
        #expect(CairoFaces.sharedFaceCount >= opened + 2, "the face was opened once in each lane")
    }

    /// A session puts the thread that made it in its font map's lane while it lives; a session
    /// made inside it (a formula's text, measured on a font map of its own) borrows a font map
    /// of the same lane, so the render's glyphs of a file stay in one font subset; and the
    /// thread goes back to the lane it was in when the sessions end.
    @Test func aSessionPutsItsThreadInItsFontMapsLane() throws {
        let outer = CairoFaces.currentLane
        var first: FontSession? = FontSession()
        let firstLane = try #require(first?.setup.lane)
        #expect(CairoFaces.currentLane == firstLane)
        var second: FontSession? = FontSession()
        #expect(second?.setup.lane == firstLane, "a session inside a session borrows a font map of its lane")
        #expect(second?.setup !== first?.setup)
        second = nil
        #expect(CairoFaces.currentLane == firstLane, "back in the first session's lane")
        first = nil
        #expect(CairoFaces.currentLane == outer, "back in the lane the thread was in")
    }

    /// A lane given back is the next one taken, smallest first, and past the limit font maps
    /// share the lane fewest hold, so a process opens each face at most `limit` times however
    /// many font maps it makes.
    @Test func lanesGivenBackAreTakenAgainAndNeverPassTheLimit() {
        let lanes = CairoFaces.Lanes(limit: 4)
        #expect((0..<3).map { _ in lanes.take() } == [1, 2, 3])
        lanes.giveBack(2)
        lanes.giveBack(1)
        #expect(lanes.take() == 1)
        #expect(lanes.take() == 2)
        #expect(lanes.take() == 4, "a new lane while there are fewer than the limit")
        #expect((0..<5).map { _ in lanes.take() } == [1, 2, 3, 4, 1], "past the limit, the lanes fewest hold")
        lanes.giveBack(3)
        lanes.giveBack(3)
        #expect(lanes.take() == 3, "the lane nobody holds")
        #expect(CairoFaces.lanes.limit == 2 * ProcessInfo.processInfo.activeProcessorCount)
    }

    /// The lock Pango and Cairo work takes keeps a second thread out while one holds it when it
    /// serializes (faces not shared), and lets it in when it does not.
    @Test func theLockKeepsASecondThreadOutOnlyWhenItSerializes() {
        for serializing in [true, false] {
            let lock = RecursiveLock(serializing: serializing)
            let entered = DispatchSemaphore(value: 0)
            let done = DispatchSemaphore(value: 0)
            lock.lock()
            Thread {
                lock.run { entered.signal() }
                done.signal()
            }.start()
            let overlapped = entered.wait(timeout: .now() + 0.3) == .success
            lock.unlock()
            if !overlapped { entered.wait() }
            done.wait()
            #expect(overlapped == !serializing, "serializing \(serializing): the second thread entered at once")
        }
    }
}

/// The Cairo font faces made on shared faces: one per face and set of options for the whole
/// process, never destroyed, so that a render never finds a second font face for options
/// another render's font face has (Cairo 1.16 makes and destroys font faces in an unlocked
/// list, `_cairo_ft_font_face_create` and `_cairo_ft_font_face_destroy`, and a PDF surface
/// writes each font face's glyphs into a font subset of its own).
@Suite struct KeptFontFaceTests {
    /// A font face made for a pattern no other font face has the options of (a variation of an
    /// axis DejaVu Sans lacks, which changes nothing drawn) is kept when the one who asked for it
    /// lets it go — Cairo does not destroy it — and asking again gives the same font face and
    /// keeps no second one.
    @Test func aFontFaceIsKeptWhenItsLastUserLetsGoAndFoundAgain() throws {
        let path = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
        try #require(FileManager.default.fileExists(atPath: path))
        try #require(CairoFaces.areShared)
        let pattern = try #require(FcPatternCreate())
        defer { FcPatternDestroy(pattern) }
        _ = FcPatternAddString(pattern, FC_FILE, path)
        _ = FcPatternAddString(pattern, FC_FONT_VARIATIONS, "TSTK=\(UInt32.random(in: 1..<1_000_000))")
        let kept = CairoFaces.keptFontFaceCount
        let face = try #require(cairo_ft_font_face_create_for_pattern(pattern))
        #expect(CairoFaces.keptFontFaceCount == kept + 1, "the new font face is kept")
        let destroyed = UnsafeMutablePointer<Bool>.allocate(capacity: 1)
        destroyed.pointee = false
        defer { destroyed.deallocate() }
        let key = UnsafeMutablePointer<cairo_user_data_key_t>.allocate(capacity: 1)
        defer { key.deallocate() }
        cairo_font_face_set_user_data(face, key, destroyed) { data in
            data?.assumingMemoryBound(to: Bool.self).pointee = true
        }
        cairo_font_face_destroy(face)
        #expect(!destroyed.pointee, "Cairo destroyed the font face when its last user let go")
        guard !destroyed.pointee else { return }
        let again = cairo_ft_font_face_create_for_pattern(pattern)
        #expect(again == face, "the same font face for the same face and options")
        #expect(CairoFaces.keptFontFaceCount == kept + 1, "no second font face kept")
        cairo_font_face_destroy(again)
    }
}
