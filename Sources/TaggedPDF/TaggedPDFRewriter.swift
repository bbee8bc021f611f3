internal import CZlib
import Foundation
import Styling

/// ``PDFAccessibility``'s pass over a file in Cairo's regular layout, in memory that does not
/// grow with the document's pages beyond a few integers per object, element and run: objects
/// are read one at a time from the mapped file (``CairoPDFFile``), changed where the tagged PDF
/// needs it, and written as soon as each is final (``PDFStreamWriter``, a full rewrite with
/// object streams).
///
/// Cairo's own structure tree holds only `Document` and the `Link` elements of the link
/// annotations; the pass replaces it with the tree the renderer recorded
/// (``StructureRecords``): each page's content markers become marked content
/// (``MarkedContentRewrite``), the elements are written with their kids (PDF 1.7 §14.7.2), the
/// parent tree maps each page's MCIDs and each annotation back to its element (§14.7.4.4), and
/// each link annotation joins its `Link` element (an object reference, §14.7.4.3).
enum TaggedPDFRewriter {
    /// What happens to each object number.
    private enum Kind: UInt8 {
        case copy = 0
        case content
        case page
        case link
        case catalog
        case treeRoot
        case removed
        /// The document information dictionary (its dates completed).
        case info
        /// A page's resource dictionary, written after the pages' content streams, with the
        /// text faces they draw with (``MarkedContentRewrite/GlyphSubstitution``).
        case resources
    }

    /// A text face: its font's object number and the suffix of its resource name
    /// (``MarkedContentRewrite/GlyphSubstitution/face``), ordered by font, then suffix.
    struct TextFaceKey: Hashable, Comparable {
        var font: Int32
        var suffix: String

        static func < (a: TextFaceKey, b: TextFaceKey) -> Bool { (a.font, a.suffix) < (b.font, b.suffix) }
    }

    /// Parent-tree entries per number-tree leaf (PDF 1.7 §7.9.7).
    static let parentTreeLeaf = 64

    /// Rewrites `source` (a PDF as Cairo wrote it with `Document` and `Link` tags and the
    /// renderer's content markers) into a new file at `output`, completing it as
    /// ``PDFAccessibility`` describes.
    /// - Throws: ``CairoPDFFile/Unsupported`` when the file is not in Cairo's regular layout;
    ///   ``PDFAccessibility/Failure`` when the file does not match `structure` (its links or
    ///   its pages' marked content), or cannot be written.
    /// `threaded`: the content streams are rewritten ahead on a second thread, and the object
    /// streams compressed on a third while the writer goes on (the same file
    /// either way; `TYPESET_THREADS=1` turns it off, as it does the styling thread).
    /// `early`: content streams rewritten while the pages were drawn, taken from there.
    /// Returns how many content streams the pass rewrote itself.
    @discardableResult
    static func rewrite(
        source: UnsafeBufferPointer<UInt8>, to output: String, structure: StructureRecords,
        tagging: PDFTagging, info: DocumentInfo, claimsUA: Bool,
        threaded: Bool = getenv("TYPESET_THREADS").map({ String(cString: $0) }) != "1",
        early: EarlyContentRewrites? = nil
    ) throws -> Int {
        let file = try CairoPDFFile(bytes: source)
        var plan = try Plan(file: file, structure: structure)
        plan.archive = tagging.archive
        let recorded = try plan.recordInfo()
        try plan.removeCairoTree()
        try plan.findPages()
        plan.contentJobs.sort { $0.number < $1.number }
        let contents = ContentRewrites(
            plan.contentJobs, source: source, structure: structure, threaded: threaded, early: early)
        defer { contents.stop() }

        // Every object in number order, each as soon as it is read; the new structure tree
        // follows, its elements numbered from `firstElement`.
        let writer = try PDFStreamWriter(path: output, size: file.size, threaded: threaded)
        let metadata = writer.newNumber()
        let firstElement = writer.nextNumber
        for _ in 0..<structure.elementCount { _ = writer.newNumber() }
        let xmp = Array(
            XMP.packet(
                info: info, language: tagging.language, claimsUA: claimsUA, archive: tagging.archive,
                recorded: recorded
            ).utf8)
        xmp.withUnsafeBytes {
            writer.addStream(
                metadata, dictionary: .dictionary([("Type", .name("Metadata")), ("Subtype", .name("XML"))]), data: $0)
        }
        var outputIntent: PDFValue?
        if let archive = tagging.archive, let profile = Deflate.compressed(archive.outputProfile) {
            let number = writer.newNumber()
            profile.withUnsafeBytes {
                writer.addStream(
                    number,
                    dictionary: .dictionary([("N", .integer(3)), ("Filter", .name("FlateDecode"))]), data: $0)
            }
            let condition = PDFValue.text("sRGB IEC61966-2.1")
            outputIntent = .array([
                .dictionary([
                    ("Type", .name("OutputIntent")), ("S", .name("GTS_PDFA1")),
                    ("OutputConditionIdentifier", condition), ("Info", condition),
                    ("DestOutputProfile", .reference(number)),
                ])
            ])
        }
        let (continued, substitutions) = try plan.writeObjects(
            source: source, to: writer, contents: contents, language: tagging.language, metadata: metadata,
            outputIntents: outputIntent)
        try plan.writeResources(substitutions: substitutions, to: writer)
        let tree = TreeWriter(
            plan: plan, writer: writer, firstElement: firstElement, language: tagging.language, continued: continued)
        let identified = tree.writeElements()
        let keys = plan.pages.count + structure.links.count
        let parentTree = tree.writeParentTree(keys: keys)
        var root: [(key: String, value: PDFValue)] = [
            ("Type", .name("StructTreeRoot")), ("K", tree.element(0)),
            ("ParentTree", .reference(parentTree)), ("ParentTreeNextKey", .integer(keys)),
        ]
        if !identified.isEmpty {
            // A name tree's keys in byte order (PDF 1.7 §7.9.6): note-10 before note-9.
            let names = identified.sorted { Array($0.id.utf8).lexicographicallyPrecedes(Array($1.id.utf8)) }
            let idTree = writer.newNumber()
            writer.add(
                idTree,
                .dictionary([("Names", .array(names.flatMap { [PDFValue.text($0.id), tree.element($0.element)] }))]))
            root.append(("IDTree", .reference(idTree)))
        }
        writer.add(plan.treeNumber, .dictionary(root))
        do { try writer.finish(root: file.root, info: file.info) } catch {
            throw PDFAccessibility.Failure(description: "\(error)")
        }
        return contents.rewrittenHere
    }

    /// What the pass does with each of the source's objects, found by reading its catalog,
    /// Cairo's structure tree and its page tree.
    private struct Plan {
        let file: CairoPDFFile
        let structure: StructureRecords
        /// The source's object count.
        let size: Int
        let catalog: PDFValue
        /// The structure tree root's object number and dictionary, as Cairo wrote them.
        let treeNumber: Int32
        let tree: PDFValue
        var kind: [Kind]
        /// Each link annotation's index among the `Link` elements (``StructureRecords/links``).
        var annotationLink: [Int32: Int32] = [:]
        /// The pages' object numbers, in order.
        var pages: [Int32] = []
        /// Each page's content stream: its number, the object and the page's index.
        var contentJobs: [(number: Int32, object: CairoPDFFile.Object, page: Int)] = []
        /// The pages' resource dictionaries (objects of their own), each with the indices of the
        /// pages that use it.
        var resources: [Int32: [Int]] = [:]
        /// The PDF/A level the file meets, if any.
        var archive: PDFArchive?

        /// - Throws: ``PDFAccessibility/Failure`` when the file has no structure tree.
        init(file: CairoPDFFile, structure: StructureRecords) throws {
            self.file = file
            self.structure = structure
            size = Int(file.size)
            kind = [Kind](repeating: .copy, count: size)
            catalog = try file.object(file.root).value
            guard case .reference(let treeNumber)? = catalog["StructTreeRoot"], Int(treeNumber) < size,
                let tree = try? file.object(treeNumber).value
            else {
                throw PDFAccessibility.Failure(description: "the PDF has no structure tree")
            }
            self.treeNumber = treeNumber
            self.tree = tree
            kind[Int(file.root)] = .catalog
            kind[Int(treeNumber)] = .treeRoot
        }

        /// Marks the document information dictionary for completion, and returns what XMP
        /// repeats of it: the producer and the dates (``XMP/Recorded``).
        mutating func recordInfo() throws -> XMP.Recorded {
            guard let number = file.info, Int(number) < size, kind[Int(number)] == .copy else { return XMP.Recorded() }
            let value = try file.object(number).value
            kind[Int(number)] = .info
            return XMP.Recorded(
                producer: value["Producer"]?.literalText,
                created: value["CreationDate"]?.literalText.flatMap { XMP.dates($0)?.xmp },
                modified: value["ModDate"]?.literalText.flatMap { XMP.dates($0)?.xmp })
        }

        /// A structure element's kids (`/K`) as a list.
        private func kids(_ value: PDFValue?) -> [PDFValue] {
            switch value?["K"] {
            case .array(let items)?: return items
            case let k?: return [k]
            case nil: return []
            }
        }

        private mutating func remove(_ value: PDFValue) {
            if case .reference(let number) = value, Int(number) < size { kind[Int(number)] = .removed }
        }

        /// Marks Cairo's tree for removal: `Document` and its `Link` elements, in the order
        /// their tags began, and its parent tree; each link's annotation (an object reference in
        /// its /K) is noted in ``annotationLink``.
        /// - Throws: ``PDFAccessibility/Failure`` when the tree holds another element, or its
        ///   links are not those drawn.
        mutating func removeCairoTree() throws {
            var linkCount = 0
            for top in kids(tree) {
                guard case .reference(let document) = top, Int(document) < size else { continue }
                remove(top)
                for link in kids(try file.object(document).value) {
                    guard case .reference(let linkNumber) = link, Int(linkNumber) < size else { continue }
                    remove(link)
                    let value = try file.object(linkNumber).value
                    guard value["S"]?.nameValue == "Link" else {
                        throw PDFAccessibility.Failure(
                            description: "Cairo's structure tree holds a \(value["S"]?.nameValue ?? "?") element")
                    }
                    for kid in kids(value) {
                        if case .reference(let annotation)? = kid["Obj"], linkCount < structure.links.count {
                            annotationLink[annotation] = Int32(linkCount)
                        }
                    }
                    linkCount += 1
                }
            }
            guard linkCount == structure.links.count else {
                throw PDFAccessibility.Failure(
                    description: "the PDF has \(linkCount) links, \(structure.links.count) were drawn")
            }
            try removeParentTree(tree["ParentTree"])
        }

        private mutating func removeParentTree(_ value: PDFValue?) throws {
            guard let value else { return }
            var node = value
            if case .reference(let number) = value {
                guard Int(number) < size, kind[Int(number)] == .copy else { return }
                kind[Int(number)] = .removed
                node = try file.object(number).value
            }
            // Its values: each page's array of elements by MCID, and the links (gone already).
            if case .array(let nums)? = node["Nums"] {
                for (index, item) in nums.enumerated() where index % 2 == 1 { remove(item) }
            }
            if case .array(let kids)? = node["Kids"] { for kid in kids { try removeParentTree(kid) } }
        }

        /// Finds the pages in order, each with one content stream to rewrite for its runs, and
        /// the link annotations among their annotations.
        /// - Throws: ``CairoPDFFile/Unsupported`` for a page tree or page Cairo does not write;
        ///   ``PDFAccessibility/Failure`` when the page count is not the one drawn.
        mutating func findPages() throws {
            try markPages(catalog["Pages"])
            guard pages.count == structure.pageCount else {
                throw PDFAccessibility.Failure(
                    description: "the PDF has \(pages.count) pages, \(structure.pageCount) were drawn")
            }
        }

        private mutating func markPages(_ reference: PDFValue?) throws {
            guard case .reference(let pageNumber)? = reference, Int(pageNumber) < size else {
                throw CairoPDFFile.Unsupported(description: "page tree")
            }
            let node = try file.object(pageNumber).value
            if node["Type"]?.nameValue == "Pages" {
                guard case .array(let kids)? = node["Kids"] else {
                    throw CairoPDFFile.Unsupported(description: "page tree")
                }
                for kid in kids { try markPages(kid) }
                return
            }
            kind[Int(pageNumber)] = .page
            guard case .reference(let contents)? = node["Contents"], Int(contents) < size, kind[Int(contents)] == .copy
            else {
                throw CairoPDFFile.Unsupported(description: "a page without a content stream of its own")
            }
            let object = try file.object(contents)
            guard object.streamData != nil else { throw CairoPDFFile.Unsupported(description: "content stream") }
            kind[Int(contents)] = .content
            contentJobs.append((contents, object, pages.count))
            if case .reference(let number)? = node["Resources"], Int(number) < size,
                kind[Int(number)] == .copy || kind[Int(number)] == .resources
            {
                kind[Int(number)] = .resources
                resources[number, default: []].append(pages.count)
            }
            pages.append(pageNumber)
            if case .array(let annotations)? = try file.resolved(node["Annots"]) {
                for annotation in annotations {
                    guard case .reference(let number) = annotation, Int(number) < size else {
                        throw CairoPDFFile.Unsupported(description: "an annotation written in its page")
                    }
                    if annotationLink[number] != nil { kind[Int(number)] = .link }
                }
            }
        }

        /// Writes every object of the source in number order, each as soon as it is read:
        /// copied, rewritten (content streams, from `contents`), completed (pages, link
        /// annotations, the catalog) or left out (Cairo's tree). Returns each page's
        /// continuations (``MarkedContentRewrite/Rewritten/continued``), for pages that have any.
        /// - Throws: ``PDFAccessibility/Failure`` when a content stream cannot be rewritten.
        func writeObjects(
            source: UnsafeBufferPointer<UInt8>, to writer: PDFStreamWriter, contents: ContentRewrites,
            language: String, metadata: Int32, outputIntents: PDFValue?
        ) throws -> (continued: [Int: [Int32]], substitutions: [Int: [MarkedContentRewrite.GlyphSubstitution]]) {
            var continuations: [Int: [Int32]] = [:]
            var substitutions: [Int: [MarkedContentRewrite.GlyphSubstitution]] = [:]
            var nextContent = 0
            var pageIndex: [Int32: Int] = [:]
            for (index, page) in pages.enumerated() { pageIndex[page] = index }
            for number in 1..<file.size {
                guard file.offset(number) != nil else { continue }
                let objectKind = kind[Int(number)]
                if objectKind == .removed || objectKind == .treeRoot || objectKind == .resources { continue }
                let object = try file.object(number)
                // Stream data copied or rewritten counts as read: the file does not stay resident.
                if let data = object.streamData { file.noteRead(data.count) }
                switch objectKind {
                case .removed, .treeRoot, .resources: continue
                case .copy:
                    try copy(number, object, source: source, to: writer)
                case .content:
                    let outcome = contents.outcome(nextContent)
                    let page = contents.pages[nextContent]
                    nextContent += 1
                    switch outcome {
                    case .copy: try copy(number, object, source: source, to: writer)
                    case .stream(let dictionary, let compressed, let continued, let substituted):
                        compressed.withUnsafeBytes { writer.addStream(number, dictionary: dictionary, data: $0) }
                        if !continued.isEmpty { continuations[page] = continued }
                        if !substituted.isEmpty { substitutions[page] = substituted }
                    case .failed(let reason): throw PDFAccessibility.Failure(description: reason)
                    }
                case .page:
                    // PDF/UA-1 §7.18.3: pages with annotations take their tab order from the structure.
                    var page = object.value.setting("StructParents", .integer(pageIndex[number] ?? 0))
                    if object.value["Annots"] != nil { page = page.setting("Tabs", .name("S")) }
                    // Cairo gives every page a transparency group; under PDF/A only a page
                    // that draws with transparency keeps one.
                    if archive != nil, page["Group"] != nil, !drawsTransparency(object.value) {
                        page = page.removing(["Group"])
                    }
                    writer.add(number, page)
                case .link:
                    writer.add(number, try completedLink(object.value, number: number))
                case .catalog:
                    var completed = object.value
                        .setting("Lang", .text(language))
                        .setting("MarkInfo", .dictionary([("Marked", .bool(true))]))
                        .setting("ViewerPreferences", .dictionary([("DisplayDocTitle", .bool(true))]))
                        .setting("Metadata", .reference(metadata))
                    if let outputIntents { completed = completed.setting("OutputIntents", outputIntents) }
                    writer.add(number, completed)
                case .info:
                    // PDF 1.7 §7.9.4: a date starts `D:`, which Cairo 1.16 leaves out.
                    var completed = object.value
                    for key in ["CreationDate", "ModDate"] {
                        if let date = completed[key]?.literalText.flatMap(XMP.dates) {
                            completed = completed.setting(key, .text(date.pdf))
                        }
                    }
                    writer.add(number, completed)
                }
            }
            return (continuations, substitutions)
        }

        /// `resources` with each name of its `/XObject` dictionary listed once, nil when none is
        /// listed twice. Cairo 1.16 lists a form or image once per use in the resources of the
        /// page that uses it (its Form XObject of a recording surface drawn many times, a box
        /// of a missing glyph); a dictionary's keys are unique (PDF 32000-1 §7.3.7).
        static func listingEachXObjectOnce(_ resources: PDFValue) -> PDFValue? {
            guard case .dictionary(let entries)? = resources["XObject"] else { return nil }
            var seen = Set<String>()
            let unique = entries.filter { seen.insert($0.key).inserted }
            return unique.count == entries.count ? nil : resources.setting("XObject", .dictionary(unique))
        }

        /// Writes the pages' resource dictionaries, each with the text faces its pages draw
        /// with (`/f-1-0-t`, ``MarkedContentRewrite/GlyphSubstitution``), and the text faces:
        /// each a copy of its font whose ToUnicode CMap maps each glyph drawn alone in a
        /// replacement text to that text (the first text met, in page order, where one glyph
        /// stands for different texts). A stand-in's face (`/f-1-0-e…`, one a colour cluster's
        /// text) maps only the codes drawn with it.
        func writeResources(
            substitutions: [Int: [MarkedContentRewrite.GlyphSubstitution]], to writer: PDFStreamWriter
        ) throws {
            /// By font object and face suffix: the text face's number and the texts of its codes.
            var faces: [TextFaceKey: (number: Int32, texts: [[UInt8]: [UInt8]])] = [:]
            for (number, users) in resources.sorted(by: { $0.key < $1.key }) {
                var object = try file.object(number)
                let listed = Self.listingEachXObjectOnce(object.value)
                let drawn = users.flatMap { substitutions[$0] ?? [] }
                guard !drawn.isEmpty, case .dictionary(var fonts)? = try file.resolved(object.value["Font"]) else {
                    if let listed {
                        writer.add(number, listed)
                    } else {
                        writer.add(number, body: raw(file.bytes, object.valueRange))
                    }
                    continue
                }
                if let listed { object.value = listed }
                let original = fonts
                for substitution in drawn {
                    guard case .reference(let font)? = original.first(where: { $0.key == substitution.font })?.value
                    else { continue }
                    let key = TextFaceKey(font: font, suffix: substitution.face)
                    if faces[key] == nil {
                        faces[key] = (writer.newNumber(), [:])
                    }
                    let name = substitution.font + substitution.face
                    if !fonts.contains(where: { $0.key == name }) {
                        fonts.append((name, .reference(faces[key]!.number)))
                    }
                    if faces[key]!.texts[substitution.codes] == nil {
                        faces[key]!.texts[substitution.codes] = substitution.text
                    }
                }
                writer.add(number, object.value.setting("Font", .dictionary(fonts)))
            }
            for (key, face) in faces.sorted(by: { $0.key < $1.key }) {
                var value = try file.object(key.font).value
                value = try ExactWidths.corrected(value, in: file) ?? value
                let codeWidth = value["Subtype"]?.nameValue == "Type0" ? 2 : 1
                if case .reference(let cmapNumber)? = value["ToUnicode"], Int(cmapNumber) < size,
                    let plain = try cmapData(cmapNumber)
                {
                    let entries = face.texts.filter { $0.key.count == codeWidth }.sorted {
                        $0.key.lexicographicallyPrecedes($1.key)
                    }
                    let cmap =
                        key.suffix == MarkedContentRewrite.textFaceSuffix
                        ? ToUnicodeLigatures.overriding(
                            ToUnicodeLigatures.decomposed(plain) ?? plain, with: entries.map { ($0.key, $0.value) })
                        : ToUnicodeLigatures.restricted(plain, to: entries.map { ($0.key, $0.value) })
                    if let compressed = Deflate.compressed(cmap) {
                        let number = writer.newNumber()
                        compressed.withUnsafeBytes {
                            writer.addStream(
                                number, dictionary: .dictionary([("Filter", .name("FlateDecode"))]), data: $0)
                        }
                        value = value.setting("ToUnicode", .reference(number))
                    }
                }
                writer.add(face.number, value)
            }
        }

        /// The decoded data of stream `number`, when it is a ToUnicode CMap.
        private func cmapData(_ number: Int32) throws -> [UInt8]? {
            let stream = try file.object(number)
            guard let data = stream.streamData else { return nil }
            let bytes = UnsafeBufferPointer(rebasing: file.bytes[data])
            let plain: [UInt8]?
            switch stream.value["Filter"] {
            case nil: plain = Array(bytes)
            case .name("FlateDecode")?: plain = Inflate.decompressed(bytes)
            default: plain = nil
            }
            guard let plain, ToUnicodeLigatures.isCMap(plain) else { return nil }
            return plain
        }

        /// Copies object `n` as Cairo wrote it, but for these completions (and stream data that
        /// ends in a carriage return, or that `endstream` follows with no end of line between
        /// them, as Cairo writes a mask's group, written again with the end of line ISO
        /// 19005-2 §6.1.7.1 asks for outside the stream's `/Length`):
        /// - a TrueType CID font names its CID-to-glyph map (PDF/UA-1 §7.21.3.2), which for
        ///   Cairo's subsets is the identity (PDF 1.7 Table 117's default);
        /// - a font dictionary's widths are its glyphs' exact advances (``ExactWidths``), not
        ///   Cairo's whole thousandths;
        /// - a CMYK JPEG with Adobe's APP14 marker, whose samples are stored inverted (as
        ///   Photoshop writes them, and as libjpeg's readers take them), gets
        ///   `/Decode [1 0 1 0 1 0 1 0]` (PDF 1.7 §8.9.5.2), so it prints in its own colours;
        /// - under PDF/A, images are not interpolated (ISO 19005-2 §6.2.8), and a Type 1
        ///   (CFF) subset's descriptor lists its glyphs in `/CharSet` (§6.2.11.4.2).
        private func copy(
            _ n: Int32, _ object: CairoPDFFile.Object, source: UnsafeBufferPointer<UInt8>, to writer: PDFStreamWriter
        ) throws {
            let value = object.value
            if let data = object.streamData,
                let cmap = Self.decomposedCMap(value, UnsafeBufferPointer(rebasing: source[data])),
                let compressed = Deflate.compressed(cmap)
            {
                let dictionary = value.removing(["Length", "Filter", "DecodeParms"]).setting(
                    "Filter", .name("FlateDecode"))
                compressed.withUnsafeBytes { writer.addStream(n, dictionary: dictionary, data: $0) }
            } else if let data = object.streamData {
                var dictionary = value
                if archive != nil, value["Interpolate"] != nil { dictionary = dictionary.removing(["Interpolate"]) }
                if value["Subtype"]?.nameValue == "Image", value["Filter"]?.nameValue == "DCTDecode",
                    value["ColorSpace"]?.nameValue == "DeviceCMYK", value["Decode"] == nil,
                    JPEGMarkers.hasAdobeMarker(UnsafeBufferPointer(rebasing: source[data]))
                {
                    dictionary = dictionary.setting("Decode", .array([1, 0, 1, 0, 1, 0, 1, 0].map { .integer($0) }))
                }
                if case .dictionary(let entries) = dictionary, case .dictionary(let original) = value,
                    entries.count == original.count, dictionary["Decode"] == nil || value["Decode"] != nil,
                    data.isEmpty || source[data.upperBound - 1] != 0x0D,
                    data.upperBound < source.count, source[data.upperBound] == 0x0A || source[data.upperBound] == 0x0D
                {
                    writer.copy(n, raw(source, object.range))
                } else {
                    writer.addStream(n, dictionary: dictionary.removing(["Length"]), data: raw(source, data))
                }
            } else if archive != nil, value["Type"]?.nameValue == "FontDescriptor", value["CharSet"] == nil,
                let names = try glyphNames(value["FontFile3"])
            {
                writer.add(n, value.setting("CharSet", .text(names.map { "/" + $0 }.joined())))
            } else if value["Type"]?.nameValue == "Font", let corrected = try ExactWidths.corrected(value, in: file) {
                let completed =
                    corrected["Subtype"]?.nameValue == "CIDFontType2" && corrected["CIDToGIDMap"] == nil
                    ? corrected.setting("CIDToGIDMap", .name("Identity")) : corrected
                writer.add(n, completed)
            } else if value["Subtype"]?.nameValue == "CIDFontType2", value["CIDToGIDMap"] == nil {
                writer.add(n, value.setting("CIDToGIDMap", .name("Identity")))
            } else {
                writer.add(n, body: raw(source, object.valueRange))
            }
        }

        /// The decoded data of a ToUnicode CMap stream (`data`, under `dictionary`) with its
        /// presentation forms decomposed (``ToUnicodeLigatures``); nil for any other stream, or
        /// a CMap with none. Only a stream whose dictionary says nothing but its length and
        /// filter is read: fonts, images and forms say more.
        private static func decomposedCMap(_ dictionary: PDFValue, _ data: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
            guard case .dictionary(let entries) = dictionary,
                entries.allSatisfy({ $0.key == "Length" || $0.key == "Filter" }), data.count < 1 << 20
            else { return nil }
            let plain: [UInt8]?
            switch dictionary["Filter"] {
            case nil: plain = Array(data)
            case .name("FlateDecode")?: plain = Inflate.decompressed(data)
            default: plain = nil
            }
            guard let plain, ToUnicodeLigatures.isCMap(plain) else { return nil }
            return ToUnicodeLigatures.decomposed(plain)
        }

        /// Whether `page` may draw with transparency (PDF 1.7 §11.6): a graphics state with a
        /// soft mask, a blend mode other than Normal or an alpha below 1; an XObject with a
        /// soft mask or a group of its own; a pattern or shading (whose own resources are not
        /// read). Resources that cannot be read count as transparent.
        private func drawsTransparency(_ page: PDFValue) -> Bool {
            guard let resources = try? file.resolved(page["Resources"]) else { return true }
            if resources["Pattern"] != nil || resources["Shading"] != nil { return true }
            if let states = try? file.resolved(resources["ExtGState"]), case .dictionary(let entries) = states {
                for entry in entries {
                    guard let state = try? file.resolved(entry.value) else { return true }
                    if let mask = state["SMask"], mask.nameValue != "None" { return true }
                    if let mode = state["BM"]?.nameValue, mode != "Normal", mode != "Compatible" { return true }
                    for key in ["ca", "CA"] where state[key].map(Self.isOne) == false { return true }
                }
            }
            if let objects = try? file.resolved(resources["XObject"]), case .dictionary(let entries) = objects {
                for entry in entries {
                    guard let object = try? file.resolved(entry.value) else { return true }
                    if object["SMask"] != nil || object["Group"] != nil { return true }
                }
            }
            return false
        }

        /// Whether `value` is the number 1.
        private static func isOne(_ value: PDFValue) -> Bool {
            switch value {
            case .integer(let number): return number == 1
            case .real(let bytes): return Double(String(decoding: bytes, as: UTF8.self)) == 1
            default: return false
            }
        }

        /// The glyph names of the Type 1 (CFF) font program `fontFile` (a `/FontFile3` entry
        /// with `/Subtype /Type1C`); nil for another program, or one this reader cannot follow.
        private func glyphNames(_ fontFile: PDFValue?) throws -> [String]? {
            guard case .reference(let number)? = fontFile, Int(number) < size else { return nil }
            let stream = try file.object(number)
            guard stream.value["Subtype"]?.nameValue == "Type1C", let data = stream.streamData else { return nil }
            let bytes = UnsafeBufferPointer(rebasing: file.bytes[data])
            let program = stream.value["Filter"] == nil ? Array(bytes) : Inflate.decompressed(bytes)
            return program.flatMap(CFFCharset.glyphNames)
        }

        /// Link annotation `number` with its description (`/Contents`, PDF/UA-1 §7.18.5) and
        /// its key in the parent tree.
        private func completedLink(_ value: PDFValue, number: Int32) throws -> PDFValue {
            var text = "Link within the document"
            // The description names at most the URI's first 200 bytes: a link whose URI of
            // n bytes is wrapped over n / c pages has an annotation a page.
            let limit = 200
            if let uri = try file.resolved(try file.resolved(value["A"])?["URI"])?.literalText(limit: limit + 1) {
                text = "Link to " + (uri.utf16.count > limit ? String(uri.prefix(limit)) + "\u{2026}" : uri)
            }
            let key = pages.count + Int(annotationLink[number] ?? 0)
            // The Print flag (PDF 1.7 §12.5.3): a link prints with its page (PDF/A-2 §6.3.2).
            return value.setting([("Contents", .text(text)), ("StructParent", .integer(key)), ("F", .integer(4))])
        }
    }

    /// Writes the renderer's structure tree: the elements with their kids, and the parent tree.
    private struct TreeWriter {
        let structure: StructureRecords
        let writer: PDFStreamWriter
        /// The object number of element 0; element `e` is `firstElement + e`.
        let firstElement: Int32
        let treeNumber: Int32
        let pages: [Int32]
        let annotationLink: [Int32: Int32]
        /// The document's language (the catalog's `/Lang`).
        let language: String
        /// By page, the runs its continuations go on (``MarkedContentRewrite/Rewritten/continued``).
        let continued: [Int: [Int32]]
        /// By run, the MCIDs of its continuations (on the run's page).
        let continuationMCIDs: [Int32: [Int32]]

        init(
            plan: Plan, writer: PDFStreamWriter, firstElement: Int32, language: String, continued: [Int: [Int32]]
        ) {
            self.language = language
            self.continued = continued
            var mcids: [Int32: [Int32]] = [:]
            for (page, runs) in continued {
                let first = plan.structure.runs(onPage: page).reduce(Int32(0)) {
                    plan.structure.runOwner[$1] >= 0 ? $0 + 1 : $0
                }
                for (k, run) in runs.enumerated() { mcids[run, default: []].append(first + Int32(k)) }
            }
            continuationMCIDs = mcids
            structure = plan.structure
            self.writer = writer
            self.firstElement = firstElement
            treeNumber = plan.treeNumber
            pages = plan.pages
            annotationLink = plan.annotationLink
        }

        /// A reference to element `e`.
        func element(_ e: Int32) -> PDFValue { .reference(firstElement + e) }

        /// Writes the elements, each with its kids in the order they were added (a counting
        /// sort of the kid records by owner); returns those with an /ID, for the tree's ID tree
        /// (PDF 1.7 Table 322).
        func writeElements() -> [(id: String, element: Int32)] {
            var kidStart = [Int32](repeating: 0, count: structure.elementCount + 1)
            for owner in structure.kidOwner where owner >= 0 { kidStart[Int(owner) + 1] += 1 }
            for e in 0..<structure.elementCount { kidStart[e + 1] += kidStart[e] }
            var sortedKids = [Int32](repeating: 0, count: Int(kidStart[structure.elementCount]))
            do {
                var fill = kidStart
                for (owner, value) in zip(structure.kidOwner, structure.kidValue) where owner >= 0 {
                    sortedKids[Int(fill[Int(owner)])] = value
                    fill[Int(owner)] += 1
                }
            }
            var runPage = [Int32](repeating: 0, count: structure.runCount)
            for p in 0..<structure.pageCount { for r in structure.runs(onPage: p) { runPage[r] = Int32(p) } }
            var annotationsOfLink: [Int32: [Int32]] = [:]
            for (annotation, k) in annotationLink.sorted(by: { $0.value < $1.value }) {
                annotationsOfLink[structure.links[Int(k)], default: []].append(annotation)
            }
            var identified: [(id: String, element: Int32)] = []
            // Each element's language, its own or its parent's (parents come before their kids).
            var languages: [String] = []
            languages.reserveCapacity(structure.elementCount)
            for e in 0..<structure.elementCount {
                let parent = structure.parents[e]
                let inherited = parent < 0 ? language : languages[Int(parent)]
                let own = structure.attributes[Int32(e)]?.language.flatMap { $0.isEmpty ? nil : $0 }
                languages.append(own ?? inherited)
                let kids = sortedKids[Int(kidStart[e])..<Int(kidStart[e + 1])]
                var entries = elementEntries(
                    e, kids: kids, runPage: runPage, annotations: annotationsOfLink[Int32(e)] ?? [],
                    identified: &identified)
                // PDF/UA-1 §7.2: an element whose language differs from its parent's says so.
                if let own, own.lowercased() != inherited.lowercased() { entries.append(("Lang", .text(own))) }
                writer.add(firstElement + Int32(e), .dictionary(entries))
            }
            return identified
        }

        /// The dictionary of element `e` with `kids` (elements, and runs as `-1 - run`).
        private func elementEntries(
            _ e: Int, kids: ArraySlice<Int32>, runPage: [Int32], annotations: [Int32],
            identified: inout [(id: String, element: Int32)]
        ) -> [(key: String, value: PDFValue)] {
            let type = structure.types[e]
            var entries: [(key: String, value: PDFValue)] = [
                ("Type", .name("StructElem")), ("S", .name(type.structureType)),
            ]
            let parent = structure.parents[e]
            entries.append(("P", parent < 0 ? .reference(treeNumber) : element(parent)))
            var items: [PDFValue] = []
            var firstPage: Int32?
            for annotation in annotations {
                items.append(.dictionary([("Type", .name("OBJR")), ("Obj", .reference(annotation))]))
            }
            for kid in kids {
                if kid >= 0 {
                    items.append(element(kid))
                    continue
                }
                let run = Int(-1 - kid)
                let page = runPage[run]
                if firstPage == nil { firstPage = page }
                func add(_ mcid: Int32) {
                    if page == firstPage {
                        items.append(.integer(Int(mcid)))
                    } else {
                        items.append(
                            .dictionary([
                                ("Type", .name("MCR")), ("Pg", .reference(pages[Int(page)])),
                                ("MCID", .integer(Int(mcid))),
                            ]))
                    }
                }
                add(structure.runMCID[run])
                if !continuationMCIDs.isEmpty, let more = continuationMCIDs[Int32(run)] { more.forEach(add) }
            }
            if let firstPage { entries.append(("Pg", .reference(pages[Int(firstPage)]))) }
            if items.count == 1 {
                entries.append(("K", items[0]))
            } else if !items.isEmpty {
                entries.append(("K", .array(items)))
            }
            if let alternativeText = structure.attributes[Int32(e)]?.alternativeText, !alternativeText.isEmpty {
                entries.append(("Alt", .text(alternativeText)))
            }
            // PDF/UA-1 §7.5: header cells name what they head (PDF 1.7 §14.8.5.7, Table 345):
            // their column, unless the cell heads a row (an HTML `<th>` opening a body row).
            if type == .role(.tableHeader) {
                let scope = structure.headerScopes[Int32(e)] ?? "Column"
                entries.append(("A", .dictionary([("O", .name("Table")), ("Scope", .name(scope))])))
            }
            // A numbered list says how it counts (PDF 1.7 §14.8.5.5, Table 347), so a screen
            // reader can announce "list, lettered" before the first label.
            if let numbering = structure.listNumberings[Int32(e)] {
                entries.append(("A", .dictionary([("O", .name("List")), ("ListNumbering", .name(numbering))])))
            }
            // PDF/UA-1 §7.9: every Note has a unique /ID.
            if type == .role(.note) {
                entries.append(("ID", .text("note-\(e)")))
                identified.append(("note-\(e)", Int32(e)))
            }
            return entries
        }

        /// Writes the parent tree (page p's MCIDs under key p, link k's annotation under key
        /// pages + k) in leaves of ``TaggedPDFRewriter/parentTreeLeaf`` entries; returns its
        /// root's number.
        func writeParentTree(keys: Int) -> Int32 {
            var leaves: [Int32] = []
            var nums: [PDFValue] = []
            var leafFirst = 0
            func flushLeaf(last: Int) {
                guard !nums.isEmpty else { return }
                let number = writer.newNumber()
                writer.add(
                    number,
                    .dictionary([("Limits", .array([.integer(leafFirst), .integer(last)])), ("Nums", .array(nums))]))
                leaves.append(number)
                nums.removeAll(keepingCapacity: true)
            }
            for key in 0..<keys {
                if nums.isEmpty { leafFirst = key }
                nums.append(.integer(key))
                if key < pages.count {
                    var owners: [PDFValue] = []
                    for r in structure.runs(onPage: key) where structure.runOwner[r] >= 0 {
                        owners.append(element(structure.runOwner[r]))
                    }
                    for run in continued[key] ?? [] { owners.append(element(structure.runOwner[Int(run)])) }
                    nums.append(.array(owners))
                } else {
                    nums.append(element(structure.links[key - pages.count]))
                }
                if nums.count == 2 * parentTreeLeaf { flushLeaf(last: key) }
            }
            flushLeaf(last: keys - 1)
            let parentTree = writer.newNumber()
            writer.add(parentTree, .dictionary([("Kids", .array(leaves.map { .reference($0) }))]))
            return parentTree
        }
    }
}

/// The bytes of `range` in `source`, untyped.
private func raw(_ source: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: source[range]))
}

/// The markers of a JPEG file (ITU T.81 Annex B) before its first scan.
enum JPEGMarkers {
    /// Whether `jpeg` has Adobe's APP14 segment (`FF EE`, starting `Adobe`) before its first
    /// scan (`FF DA`).
    static func hasAdobeMarker(_ jpeg: UnsafeBufferPointer<UInt8>) -> Bool {
        guard jpeg.count > 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { return false }
        var position = 2
        while position + 4 <= jpeg.count {
            guard jpeg[position] == 0xFF else { return false }
            let marker = jpeg[position + 1]
            if marker == 0xFF {
                position += 1
                continue
            }
            if marker == 0xDA || marker == 0xD9 { return false }
            let length = Int(jpeg[position + 2]) << 8 | Int(jpeg[position + 3])
            guard length >= 2 else { return false }
            if marker == 0xEE, length >= 7, position + 9 <= jpeg.count,
                Array(jpeg[position + 4..<position + 9]) == Array("Adobe".utf8)
            {
                return true
            }
            position += 2 + length
        }
        return false
    }
}
