internal import CQPDF
import Foundation
import Layout
import Styling

/// Settings of a tagged PDF: what Cairo 1.16 cannot write itself and ``PDFAccessibility``
/// adds to the finished file.
public struct PDFTagging: Hashable, Sendable {
    /// The document's natural language, a BCP 47 tag (`en`, `ko`): the catalog's `/Lang`.
    public var language: String
    /// Creates tagging settings for a document in `language` (BCP 47, `en` by default).
    public init(language: String = "en") { self.language = language }
}

/// One structure tag as the renderer began it (in order), so the finished file's structure
/// tree can be matched against it: Cairo writes elements in the order their tags begin, depth
/// first. Sixteen bytes, no heap storage: a document's records grow by one per element, so
/// what an element carries beyond its identity (`/Alt`, `/Lang`) is kept apart, in
/// ``TagRecords``, for the few elements that have it.
struct TagRecord: Equatable {
    /// The tag Cairo was given.
    enum Name: Equatable {
        /// `Document`, the one element around everything.
        case document
        /// `Link`, one per link annotation (never split).
        case link
        /// `Private`: an artifact, which leaves the structure tree.
        case artifact
        /// A standard structure type (`P`, `TD`…).
        case element(StructureElement.Role)

        /// The structure type as Cairo wrote it in `/S`.
        var structureType: String {
            switch self {
            case .document: return "Document"
            case .link: return "Link"
            case .artifact: return "Private"
            case .element(let role): return role.rawValue
            }
        }
    }

    // Stored largest first: Swift lays fields out in declaration order, so a one-byte name
    // before the 8-byte block would pad the record to 24 bytes a record (20 bytes, stride 24).
    /// With ``part``, which element this is (``StructureElement/id``, ``StructureElement/index``):
    /// elements with the same name, block and part are one element split by Cairo (a paragraph
    /// continued on the next page, a table around furniture); the later ones are merged into the
    /// first. Unused for the document, links and artifacts.
    var block: Int
    var part: Int32
    var name: Name

    init(name: Name, block: Int, part: Int32) {
        self.block = block
        self.part = part
        self.name = name
    }
}

/// The structure tags a renderer began, in order, with the alternative text and language of
/// the few that carry them.
struct TagRecords {
    private(set) var items: [TagRecord] = []
    /// `/Alt` and `/Lang` by index in ``items``.
    private(set) var attributes: [Int: (alternativeText: String?, language: String?)] = [:]

    var count: Int { items.count }

    mutating func append(_ name: TagRecord.Name, block: Int = 0, part: Int = 0,
                         alternativeText: String? = nil, language: String? = nil) {
        if alternativeText != nil || language != nil { attributes[items.count] = (alternativeText, language) }
        items.append(TagRecord(name: name, block: block, part: Int32(clamping: part)))
    }
}

/// Completes a tagged PDF written by Cairo 1.16, rewriting the file in place through a
/// temporary file (``TaggedPDFRewriter``; with qpdf's C API, qpdf 11, for a file not in Cairo's
/// regular layout):
///
/// - structure elements Cairo split (one per run of content between other tags, e.g. a
///   paragraph on two pages with a running footer between) are merged back into one;
/// - artifacts (drawn inside `Private` tags, as Cairo 1.16 has no artifact tag) leave the
///   structure tree and their marked content becomes `/Artifact BMC … EMC` (PDF 1.7 §14.8.2.2);
/// - figures get `/Alt`, spans `/Lang`; the catalog gets `/Lang`, `/MarkInfo << /Marked true >>`,
///   `/ViewerPreferences << /DisplayDocTitle true >>` and XMP metadata (`dc:title`,
///   `dc:language`, and the PDF/UA-1 identifier `pdfuaid:part 1` when `claimsUA`); pages with
///   annotations get `/Tabs /S` (tab order follows the structure; PDF/UA-1 ISO 14289-1 §7.18.3),
///   links a `/Contents` description (§7.18.5), notes an `/ID` (§7.9).
///
/// Memory: ``TaggedPDFRewriter`` reads and writes one object at a time and keeps a few integers
/// per object and per element, so the pass does not grow with the document's pages. The qpdf
/// fallback holds every object it has parsed until the end (about 1.7 KB for each structure
/// element, measured with qpdf 11.3); beyond that it keeps little: the file is mapped, not
/// copied, and the C API's object handles are released as soon as they are used.
enum PDFAccessibility {
    static let lock = NSLock()

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Post-processes the PDF at `path`.
    /// - Throws: ``Failure`` when qpdf cannot read or write the file, or when the structure tree
    ///   does not match `records` (then the file is left as Cairo wrote it).
    static func complete(path: String, records: TagRecords, tagging: PDFTagging, info: DocumentInfo, claimsUA: Bool) throws {
        // One file at a time: qpdf's C API keeps per-handle state only, but its crypto
        // provider (for the deterministic /ID) and logger are process-wide.
        lock.lock(); defer { lock.unlock() }
        // The file is mapped and parsed from memory: qpdf reads objects lazily, and from a file
        // every object costs seeks (for `large`, 590,000 lseek calls and 0.2 s). The mapping
        // outlives the rename below (it holds the old file).
        let file = try MappedFile(path: path)
        defer { file.unmap() }
        let written = path + ".tagged"
        defer { unlink(written) }
        do {
            try TaggedPDFRewriter.rewrite(source: UnsafeBufferPointer(start: UnsafeRawPointer(file.bytes).assumingMemoryBound(to: UInt8.self), count: file.count),
                                          to: written, records: records, tagging: tagging, info: info, claimsUA: claimsUA)
            guard rename(written, path) == 0 else { throw Failure(description: "cannot replace \(path): \(String(cString: strerror(errno)))") }
            return
        } catch is CairoPDFFile.Unsupported {
            // Not Cairo's regular layout: qpdf reads whatever it is.
        }
        try completeWithQPDF(file: file, path: path, written: written, records: records, tagging: tagging, info: info, claimsUA: claimsUA)
    }

    /// The same pass with qpdf, for a file ``TaggedPDFRewriter`` cannot read: qpdf holds every
    /// object it parses, so memory grows with the document's elements.
    static func completeWithQPDF(file: MappedFile, path: String, written: String, records: TagRecords, tagging: PDFTagging,
                                 info: DocumentInfo, claimsUA: Bool) throws {
        // libqpdf is loaded on first use, here (CQPDF.h): without it the file stays as Cairo wrote it.
        guard typeset_qpdf_load() != 0 else {
            throw Failure(description: "qpdf cannot be loaded: " + (typeset_qpdf_load_error().map { String(cString: $0) } ?? "unknown error"))
        }
        var q: qpdf_data? = qpdf_init()
        defer { qpdf_cleanup(&q) }
        qpdf_set_suppress_warnings(q, 1)
        func check(_ code: QPDF_ERROR_CODE, _ what: String) throws {
            guard code & QPDF_ERRORS != 0 || qpdf_has_error(q) != 0 else { return }
            let message = qpdf_has_error(q) != 0 ? String(cString: qpdf_get_error_full_text(q, qpdf_get_error(q))) : what
            throw Failure(description: "\(what): \(message)")
        }
        try check(qpdf_read_memory(q, path, file.bytes, UInt64(file.count), nil), "qpdf cannot read the PDF")
        let root = qpdf_get_root(q)
        let tree = qpdf_oh_get_key(q, root, "/StructTreeRoot")
        guard qpdf_oh_is_dictionary(q, tree) != 0 else { throw Failure(description: "the PDF has no structure tree") }

        // The elements, depth first: one handle each, kept until the tree is done; every other
        // handle is released once read.
        var elements: [qpdf_oh] = []
        elements.reserveCapacity(records.count)
        /// A structure element: a dictionary with /S (marked-content and object references
        /// have none).
        func isElement(_ oh: qpdf_oh) -> Bool {
            qpdf_oh_is_dictionary(q, oh) != 0 && qpdf_oh_has_key(q, oh, "/S") != 0
        }
        /// Calls `body` with each item of `oh`'s /K (an array, or one object), then releases the
        /// items `body` does not keep (it returns true to keep one).
        func forEachKid(_ oh: qpdf_oh, _ body: (qpdf_oh) -> Bool) {
            let k = qpdf_oh_get_key(q, oh, "/K")
            if qpdf_oh_is_array(q, k) != 0 {
                for i in 0..<qpdf_oh_get_array_n_items(q, k) {
                    let kid = qpdf_oh_get_array_item(q, k, i)
                    if !body(kid) { qpdf_oh_release(q, kid) }
                }
                qpdf_oh_release(q, k)
            } else if qpdf_oh_is_null(q, k) != 0 || !body(k) {
                qpdf_oh_release(q, k)
            }
        }
        func visit(_ oh: qpdf_oh) {
            elements.append(oh)
            forEachKid(oh) { kid in
                guard isElement(kid) else { return false }
                visit(kid)
                return true
            }
        }
        forEachKid(tree) { top in
            guard isElement(top) else { return false }
            visit(top)
            return true
        }
        guard elements.count == records.count else {
            throw Failure(description: "the structure tree has \(elements.count) elements, \(records.count) were tagged")
        }
        for (element, record) in zip(elements, records.items) {
            let type = qpdf_oh_get_key(q, element, "/S")
            defer { qpdf_oh_release(q, type) }
            guard qpdf_oh_is_name_and_equals(q, type, "/" + record.name.structureType) != 0 else {
                throw Failure(description: "structure element \(record.name.structureType) not found in the PDF's structure tree")
            }
        }

        // Merge split elements; drop artifacts. `replacement` maps object ids for the parent tree.
        var replacement: [Int32: qpdf_oh?] = [:]
        struct Key: Hashable { var role: StructureElement.Role; var block: Int; var part: Int32 }
        var first: [Key: Int] = [:]
        func objectID(_ oh: qpdf_oh) -> Int32 { qpdf_oh_get_object_id(q, oh) }
        /// Parents of elements that go (merged or artifacts), by object id: their /K is rewritten
        /// without those elements in one pass at the end (an element's /P then names the element
        /// it finally sits in).
        var parents: [Int32: qpdf_oh] = [:]
        var removedIDs = Set<Int32>()
        func remove(_ oh: qpdf_oh) {
            removedIDs.insert(objectID(oh))
            let parent = qpdf_oh_get_key(q, oh, "/P")
            if parents[objectID(parent)] == nil { parents[objectID(parent)] = parent } else { qpdf_oh_release(q, parent) }
        }
        /// Appends the element's kids to `array`, its marked-content ids as references that
        /// carry their page (MCR).
        func appendKids(of oh: qpdf_oh, to array: qpdf_oh) {
            let page = qpdf_oh_get_key(q, oh, "/Pg")
            defer { qpdf_oh_release(q, page) }
            forEachKid(oh) { kid in
                if qpdf_oh_is_integer(q, kid) != 0 {
                    let mcr = qpdf_oh_new_dictionary(q)
                    let type = qpdf_oh_new_name(q, "/MCR")
                    qpdf_oh_replace_key(q, mcr, "/Type", type)
                    if qpdf_oh_is_null(q, page) == 0 { qpdf_oh_replace_key(q, mcr, "/Pg", page) }
                    qpdf_oh_replace_key(q, mcr, "/MCID", kid)
                    qpdf_oh_append_item(q, array, mcr)
                    qpdf_oh_release(q, type); qpdf_oh_release(q, mcr)
                } else {
                    qpdf_oh_append_item(q, array, kid)
                }
                return false
            }
        }
        /// Sets `key` of `oh` to `value` and releases `value`'s handle.
        func set(_ oh: qpdf_oh, _ key: String, _ value: qpdf_oh) {
            qpdf_oh_replace_key(q, oh, key, value)
            qpdf_oh_release(q, value)
        }
        for (i, record) in records.items.enumerated() {
            let element = elements[i]
            let role: StructureElement.Role
            switch record.name {
            case .document, .link: continue
            case .artifact:
                remove(element)
                replacement[objectID(element)] = .some(nil)
                continue
            case .element(let r): role = r
            }
            if let (alternativeText, language) = records.attributes[i] {
                if let alternativeText, !alternativeText.isEmpty { set(element, "/Alt", qpdf_oh_new_unicode_string(q, alternativeText)) }
                if let language { set(element, "/Lang", qpdf_oh_new_unicode_string(q, language)) }
            }
            let key = Key(role: role, block: record.block, part: record.part)
            guard let j = first[key] else {
                first[key] = i
                // PDF/UA-1 §7.9: every Note has a unique /ID.
                if role == .note { set(element, "/ID", qpdf_oh_new_string(q, "note-\(i)")) }
                continue
            }
            // Element i continues element j: its content moves to j, and i goes.
            let target = elements[j]
            let merged = qpdf_oh_new_array(q)
            appendKids(of: target, to: merged)
            forEachKid(element) { kid in
                if isElement(kid) { qpdf_oh_replace_key(q, kid, "/P", target) }
                return false
            }
            appendKids(of: element, to: merged)
            set(target, "/K", merged)
            remove(element)
            replacement[objectID(element)] = .some(target)
        }
        for parent in parents.values {
            let kept = qpdf_oh_new_array(q)
            forEachKid(parent) { kid in
                if !removedIDs.contains(objectID(kid)) { qpdf_oh_append_item(q, kept, kid) }
                return false
            }
            set(parent, "/K", kept)
        }
        let parentTree = qpdf_oh_get_key(q, tree, "/ParentTree")
        fixParentTree(q, parentTree, replacement)
        // The tree is done: every handle goes (the objects stay in qpdf's document).
        qpdf_oh_release_all(q)
        try markArtifacts(q)
        qpdf_oh_release_all(q)

        // Document-level entries.
        let catalog = qpdf_get_root(q)
        set(catalog, "/Lang", qpdf_oh_new_unicode_string(q, tagging.language))
        let markInfo = qpdf_oh_new_dictionary(q)
        set(markInfo, "/Marked", qpdf_oh_new_bool(q, 1))
        set(catalog, "/MarkInfo", markInfo)
        let preferences = qpdf_oh_new_dictionary(q)
        set(preferences, "/DisplayDocTitle", qpdf_oh_new_bool(q, 1))
        set(catalog, "/ViewerPreferences", preferences)
        let metadata = qpdf_oh_new_stream(q)
        let dictionary = qpdf_oh_get_dict(q, metadata)
        set(dictionary, "/Type", qpdf_oh_new_name(q, "/Metadata"))
        set(dictionary, "/Subtype", qpdf_oh_new_name(q, "/XML"))
        let xmp = Array(XMP.packet(info: info, language: tagging.language, claimsUA: claimsUA).utf8)
        xmp.withUnsafeBufferPointer { qpdf_oh_replace_stream_data(q, metadata, $0.baseAddress, $0.count, qpdf_oh_new_null(q), qpdf_oh_new_null(q)) }
        qpdf_oh_replace_key(q, catalog, "/Metadata", metadata)
        qpdf_oh_release_all(q)
        for n in 0..<qpdf_get_num_pages(q) {
            let page = qpdf_get_page_n(q, Int(n))
            let annotations = qpdf_oh_get_key(q, page, "/Annots")
            defer { qpdf_oh_release(q, annotations); qpdf_oh_release(q, page) }
            guard qpdf_oh_is_array(q, annotations) != 0 else { continue }
            set(page, "/Tabs", qpdf_oh_new_name(q, "/S"))
            // PDF/UA-1 §7.18.5: links describe themselves (/Contents).
            for k in 0..<qpdf_oh_get_array_n_items(q, annotations) {
                let annotation = qpdf_oh_get_array_item(q, annotations, k)
                let subtype = qpdf_oh_get_key(q, annotation, "/Subtype")
                defer { qpdf_oh_release(q, subtype); qpdf_oh_release(q, annotation) }
                guard qpdf_oh_is_name_and_equals(q, subtype, "/Link") != 0,
                      qpdf_oh_has_key(q, annotation, "/Contents") == 0 else { continue }
                let action = qpdf_oh_get_key(q, annotation, "/A")
                let uri = qpdf_oh_get_key(q, action, "/URI")
                let text = qpdf_oh_is_string(q, uri) != 0 ? "Link to " + String(cString: qpdf_oh_get_utf8_value(q, uri)) : "Link within the document"
                qpdf_oh_release(q, uri); qpdf_oh_release(q, action)
                set(annotation, "/Contents", qpdf_oh_new_unicode_string(q, text))
            }
        }
        qpdf_oh_release_all(q)

        try check(qpdf_init_write(q, written), "qpdf cannot write the PDF")
        qpdf_set_object_stream_mode(q, qpdf_o_generate)
        // Streams are copied as they are (fonts, images and content streams stay compressed as
        // Cairo wrote them; the rewritten content streams are compressed already).
        qpdf_set_decode_level(q, qpdf_dl_none)
        qpdf_set_deterministic_ID(q, 1)
        qpdf_set_minimum_pdf_version(q, "1.7")
        try check(qpdf_write(q), "qpdf cannot write the PDF")
        guard rename(written, path) == 0 else { throw Failure(description: "cannot replace \(path): \(String(cString: strerror(errno)))") }
    }

    /// Points the parent tree's entries for merged elements at the element they joined, and
    /// those for artifacts at null.
    static func fixParentTree(_ q: qpdf_data?, _ parentTree: qpdf_oh, _ replacement: [Int32: qpdf_oh?]) {
        guard !replacement.isEmpty else { return }
        func fix(_ node: qpdf_oh) {
            let nums = qpdf_oh_get_key(q, node, "/Nums")
            defer { qpdf_oh_release(q, nums) }
            if qpdf_oh_is_array(q, nums) != 0 {
                var n: Int32 = 1
                while n < qpdf_oh_get_array_n_items(q, nums) {
                    let value = qpdf_oh_get_array_item(q, nums, n)
                    defer { qpdf_oh_release(q, value) }
                    if qpdf_oh_is_array(q, value) != 0 {
                        for i in 0..<qpdf_oh_get_array_n_items(q, value) {
                            let item = qpdf_oh_get_array_item(q, value, i)
                            if let new = replacement[qpdf_oh_get_object_id(q, item)] {
                                qpdf_oh_set_array_item(q, value, i, new ?? qpdf_oh_new_null(q))
                            }
                            qpdf_oh_release(q, item)
                        }
                    } else if let new = replacement[qpdf_oh_get_object_id(q, value)] {
                        qpdf_oh_set_array_item(q, nums, n, new ?? qpdf_oh_new_null(q))
                    }
                    n += 2
                }
            }
            let kids = qpdf_oh_get_key(q, node, "/Kids")
            defer { qpdf_oh_release(q, kids) }
            if qpdf_oh_is_array(q, kids) != 0 {
                for i in 0..<qpdf_oh_get_array_n_items(q, kids) {
                    let kid = qpdf_oh_get_array_item(q, kids, i)
                    fix(kid)
                    qpdf_oh_release(q, kid)
                }
            }
        }
        fix(parentTree)
    }

    /// Rewrites the marked content of every page's content streams and of the form XObjects
    /// the pages use (``ArtifactMarks``), a page at a time. A rewritten stream is stored
    /// compressed (``Deflate``), so what waits for the writer is as small as Cairo's own
    /// streams; a stream without artifact marks is left untouched.
    static func markArtifacts(_ q: qpdf_data?) throws {
        var seen = Set<Int32>()
        for n in 0..<qpdf_get_num_pages(q) {
            let page = qpdf_get_page_n(q, Int(n))
            var streams: [qpdf_oh] = []
            let contents = qpdf_oh_get_key(q, page, "/Contents")
            if qpdf_oh_is_array(q, contents) != 0 {
                streams += (0..<qpdf_oh_get_array_n_items(q, contents)).map { qpdf_oh_get_array_item(q, contents, $0) }
            } else if qpdf_oh_is_stream(q, contents) != 0 {
                streams.append(contents)
            }
            // Form XObjects the page uses (Cairo draws groups and some glyphs through them).
            let resources = qpdf_oh_get_key(q, page, "/Resources")
            let xobjects = qpdf_oh_get_key(q, resources, "/XObject")
            if qpdf_oh_is_dictionary(q, xobjects) != 0 {
                qpdf_oh_begin_dict_key_iter(q, xobjects)
                while qpdf_oh_dict_more_keys(q) != 0 {
                    let object = qpdf_oh_get_key(q, xobjects, qpdf_oh_dict_next_key(q))
                    if qpdf_oh_is_stream(q, object) != 0, seen.insert(qpdf_oh_get_object_id(q, object)).inserted,
                       qpdf_oh_is_name_and_equals(q, qpdf_oh_get_key(q, qpdf_oh_get_dict(q, object), "/Subtype"), "/Form") != 0 {
                        streams.append(object)
                    }
                }
            }
            for stream in streams { try rewrite(q, stream) }
            qpdf_oh_release_all(q)
        }
    }

    /// Rewrites one stream's artifact marks, storing the result compressed.
    static func rewrite(_ q: qpdf_data?, _ stream: qpdf_oh) throws {
        var filtered: QPDF_BOOL = 0
        var buffer: UnsafeMutablePointer<UInt8>?
        var length = 0
        guard qpdf_oh_get_stream_data(q, stream, qpdf_dl_generalized, &filtered, &buffer, &length) & QPDF_ERRORS == 0,
              filtered != 0, let buffer else { return }
        defer { free(buffer) }
        guard let rewritten = ArtifactMarks.rewritten(UnsafeBufferPointer(start: buffer, count: length)) else { return }
        guard let compressed = Deflate.compressed(rewritten) else {
            throw Failure(description: "zlib cannot compress a content stream")
        }
        compressed.withUnsafeBufferPointer {
            qpdf_oh_replace_stream_data(q, stream, $0.baseAddress, $0.count, qpdf_oh_new_name(q, "/FlateDecode"), qpdf_oh_new_null(q))
        }
    }
}

/// A file mapped read-only into memory (POSIX `mmap`), for qpdf to parse in place.
struct MappedFile {
    let bytes: UnsafePointer<CChar>
    let count: Int

    /// - Throws: ``PDFAccessibility/Failure`` when the file cannot be opened, is empty or
    ///   cannot be mapped.
    init(path: String) throws {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw PDFAccessibility.Failure(description: "cannot read \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_size > 0 else { throw PDFAccessibility.Failure(description: "cannot read \(path)") }
        let count = Int(status.st_size)
        guard let mapped = mmap(nil, count, PROT_READ, MAP_PRIVATE, fd, 0), mapped != UnsafeMutableRawPointer(bitPattern: -1) else {
            throw PDFAccessibility.Failure(description: "cannot map \(path): \(String(cString: strerror(errno)))")
        }
        bytes = UnsafePointer(mapped.assumingMemoryBound(to: CChar.self))
        self.count = count
    }

    func unmap() { munmap(UnsafeMutableRawPointer(mutating: bytes), count) }
}

/// zlib's deflate at its default level, the compression Cairo and qpdf use for content streams
/// (`/FlateDecode`, PDF 1.7 §7.4.4).
enum Deflate {
    /// `bytes` compressed as a zlib stream (RFC 1950); nil when zlib fails.
    static func compressed(_ bytes: [UInt8]) -> [UInt8]? {
        var size = compressBound(uLong(bytes.count))
        var out = [UInt8](repeating: 0, count: Int(size))
        let status = out.withUnsafeMutableBufferPointer { target in
            bytes.withUnsafeBufferPointer { compress2(target.baseAddress, &size, $0.baseAddress, uLong($0.count), Z_DEFAULT_COMPRESSION) }
        }
        guard status == Z_OK else { return nil }
        out.removeLast(out.count - Int(size))
        return out
    }
}

/// The content-stream rewrite, on bytes:
/// - `/Private << /MCID n >> BDC` (an artifact drawn in a `Private` tag) becomes
///   `/Artifact BMC`;
/// - `/Span << /ActualText <feff0020> >> BDC EMC` goes: Cairo writes this empty marked content
///   for the space Pango leaves at a line's end; it holds no glyph, and nested inside a
///   structure element's marked content it ends that content early for readers that pair
///   every `EMC` with the last marked content that has an MCID (poppler 22).
enum ArtifactMarks {
    static let opening = Array("/Private << /MCID ".utf8)
    static let closing = Array(" >> BDC".utf8)
    static let artifact = Array("/Artifact BMC".utf8)
    static let emptySpan = Array("/Span << /ActualText <feff0020> >> BDC".utf8)
    static let end = Array("EMC".utf8)

    /// `bytes` rewritten; nil when nothing changed.
    static func rewritten(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var out: [UInt8] = []
        var i = 0, copied = 0, changed = false
        let n = bytes.count
        func replace(upTo end: Int, with replacement: [UInt8]) {
            if !changed { out.reserveCapacity(n); changed = true }
            out.append(contentsOf: bytes[copied..<i])
            out.append(contentsOf: replacement)
            i = end
            copied = end
        }
        while i + opening.count < n {
            guard bytes[i] == 0x2F else { i += 1; continue }
            if matches(bytes, at: i, emptySpan) {
                var j = i + emptySpan.count
                while j < n, bytes[j] == 0x0A || bytes[j] == 0x20 || bytes[j] == 0x0D { j += 1 }
                if matches(bytes, at: j, end) { replace(upTo: j + end.count, with: []); continue }
            }
            guard matches(bytes, at: i, opening) else { i += 1; continue }
            var j = i + opening.count
            while j < n, (0x30...0x39).contains(bytes[j]) { j += 1 }
            guard j > i + opening.count, matches(bytes, at: j, closing) else { i += 1; continue }
            replace(upTo: j + closing.count, with: artifact)
        }
        guard changed else { return nil }
        out.append(contentsOf: bytes[copied..<n])
        return out
    }

    static func matches(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, _ pattern: [UInt8]) -> Bool {
        guard index + pattern.count <= bytes.count else { return false }
        for k in pattern.indices where bytes[index + k] != pattern[k] { return false }
        return true
    }
}

/// The XMP metadata packet (ISO 16684-1) the catalog points to.
enum XMP {
    static func packet(info: DocumentInfo, language: String, claimsUA: Bool) -> String {
        func escaped(_ s: String) -> String {
            s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
        }
        var fields: [String] = []
        if let title = info.title, !title.isEmpty {
            fields.append("<dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">\(escaped(title))</rdf:li></rdf:Alt></dc:title>")
        }
        if let author = info.author, !author.isEmpty {
            fields.append("<dc:creator><rdf:Seq><rdf:li>\(escaped(author))</rdf:li></rdf:Seq></dc:creator>")
        }
        if let subject = info.subject, !subject.isEmpty {
            fields.append("<dc:description><rdf:Alt><rdf:li xml:lang=\"x-default\">\(escaped(subject))</rdf:li></rdf:Alt></dc:description>")
        }
        fields.append("<dc:language><rdf:Bag><rdf:li>\(escaped(language))</rdf:li></rdf:Bag></dc:language>")
        if !info.keywords.isEmpty { fields.append("<pdf:Keywords>\(escaped(info.keywords.joined(separator: ", ")))</pdf:Keywords>") }
        fields.append("<xmp:CreatorTool>\(escaped(info.creator))</xmp:CreatorTool>")
        if claimsUA { fields.append("<pdfuaid:part>1</pdfuaid:part>") }
        return """
            <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
            <x:xmpmeta xmlns:x="adobe:ns:meta/">
            <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:pdf="http://ns.adobe.com/pdf/1.3/" \
            xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:pdfuaid="http://www.aiim.org/pdfua/ns/id/">
            \(fields.joined(separator: "\n"))
            </rdf:Description>
            </rdf:RDF>
            </x:xmpmeta>
            <?xpacket end="w"?>
            """
    }
}
