internal import CQPDF
import Foundation
import Layout

/// Settings of a tagged PDF: what Cairo 1.16 cannot write itself and ``PDFAccessibility``
/// adds to the finished file.
public struct PDFTagging: Hashable, Sendable {
    /// The document's natural language, a BCP 47 tag (`en`, `ko`): the catalog's `/Lang`.
    public var language: String
    /// Creates tagging settings for a document in `language` (BCP 47, `en` by default).
    public init(language: String = "en") { self.language = language }
}

/// One structure element as the renderer began it (in order), so the finished file's
/// structure tree can be matched against it: Cairo writes elements in the order their tags
/// begin, depth first.
struct TagRecord {
    /// The structure type Cairo was given (`P`, `Link`, `Private` for an artifact…).
    var name: String
    /// Elements with the same key are one element split by Cairo (a paragraph continued on the
    /// next page, a table around furniture): the later ones are merged into the first.
    var key: String
    /// `/Alt` to add.
    var alternativeText: String?
    /// `/Lang` to add.
    var language: String?
}

/// Completes a tagged PDF written by Cairo 1.16 with qpdf's C API (qpdf 11), rewriting the
/// file in place through a temporary file:
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
enum PDFAccessibility {
    static let lock = NSLock()

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Post-processes the PDF at `path`.
    /// - Throws: ``Failure`` when qpdf cannot read or write the file, or when the structure tree
    ///   does not match `records` (then the file is left as Cairo wrote it).
    static func complete(path: String, records: [TagRecord], tagging: PDFTagging, info: DocumentInfo, claimsUA: Bool) throws {
        // One file at a time: qpdf's C API keeps per-handle state only, but its crypto
        // provider (for the deterministic /ID) and logger are process-wide.
        lock.lock(); defer { lock.unlock() }
        // The file is read whole and parsed from memory: qpdf reads objects lazily, and from a
        // file every object costs seeks.
        guard let data = FileManager.default.contents(atPath: path), !data.isEmpty else {
            throw Failure(description: "cannot read \(path)")
        }
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: data.count)
        defer { buffer.deallocate() }
        data.withUnsafeBytes { buffer.update(from: $0.bindMemory(to: CChar.self).baseAddress!, count: data.count) }
        var q: qpdf_data? = qpdf_init()
        defer { qpdf_cleanup(&q) }
        qpdf_set_suppress_warnings(q, 1)
        func check(_ code: QPDF_ERROR_CODE, _ what: String) throws {
            guard code & QPDF_ERRORS != 0 || qpdf_has_error(q) != 0 else { return }
            let message = qpdf_has_error(q) != 0 ? String(cString: qpdf_get_error_full_text(q, qpdf_get_error(q))) : what
            throw Failure(description: "\(what): \(message)")
        }
        try check(qpdf_read_memory(q, path, buffer, UInt64(data.count), nil), "qpdf cannot read the PDF")
        let root = qpdf_get_root(q)
        let tree = qpdf_oh_get_key(q, root, "/StructTreeRoot")
        guard qpdf_oh_is_dictionary(q, tree) != 0 else { throw Failure(description: "the PDF has no structure tree") }

        // The elements, depth first, with the index of their parent element.
        var elements: [(handle: qpdf_oh, parent: Int?)] = []
        /// A structure element: a dictionary with /S (marked-content and object references
        /// have none).
        func isElement(_ oh: qpdf_oh) -> Bool {
            qpdf_oh_is_dictionary(q, oh) != 0 && qpdf_oh_has_key(q, oh, "/S") != 0
        }
        func kids(_ oh: qpdf_oh) -> [qpdf_oh] {
            let k = qpdf_oh_get_key(q, oh, "/K")
            if qpdf_oh_is_array(q, k) != 0 { return (0..<qpdf_oh_get_array_n_items(q, k)).map { qpdf_oh_get_array_item(q, k, $0) } }
            return qpdf_oh_is_null(q, k) != 0 ? [] : [k]
        }
        func visit(_ oh: qpdf_oh, parent: Int?) {
            let index = elements.count
            elements.append((oh, parent))
            for kid in kids(oh) where isElement(kid) { visit(kid, parent: index) }
        }
        for top in kids(tree) where isElement(top) { visit(top, parent: nil) }
        guard elements.count == records.count else {
            throw Failure(description: "the structure tree has \(elements.count) elements, \(records.count) were tagged")
        }
        for (element, record) in zip(elements, records) where qpdf_oh_is_name_and_equals(q, qpdf_oh_get_key(q, element.handle, "/S"), "/" + record.name) == 0 {
            throw Failure(description: "structure element \(record.name) not found in the PDF's structure tree")
        }

        // Merge split elements; drop artifacts. `replacement` maps object ids for the parent tree.
        var replacement: [Int32: qpdf_oh?] = [:]
        var first: [String: Int] = [:]
        func objectID(_ oh: qpdf_oh) -> Int32 { qpdf_oh_get_object_id(q, oh) }
        /// Elements that go (merged or artifacts), removed from their parents' /K in one pass
        /// at the end (their /P then names the element they finally sit in).
        var removed: [qpdf_oh] = []
        var removedIDs = Set<Int32>()
        func remove(_ oh: qpdf_oh) { removed.append(oh); removedIDs.insert(objectID(oh)) }
        /// The element's /K as an array whose marked-content ids carry their page (MCR).
        func kidArray(_ oh: qpdf_oh) -> qpdf_oh {
            let array = qpdf_oh_new_array(q)
            let page = qpdf_oh_get_key(q, oh, "/Pg")
            for kid in kids(oh) {
                if qpdf_oh_is_integer(q, kid) != 0 {
                    let mcr = qpdf_oh_new_dictionary(q)
                    qpdf_oh_replace_key(q, mcr, "/Type", qpdf_oh_new_name(q, "/MCR"))
                    if qpdf_oh_is_null(q, page) == 0 { qpdf_oh_replace_key(q, mcr, "/Pg", page) }
                    qpdf_oh_replace_key(q, mcr, "/MCID", kid)
                    qpdf_oh_append_item(q, array, mcr)
                } else {
                    qpdf_oh_append_item(q, array, kid)
                }
            }
            return array
        }
        for (i, record) in records.enumerated() {
            let element = elements[i].handle
            if record.name == "Private" {
                remove(element)
                replacement[objectID(element)] = .some(nil)
                continue
            }
            if let text = record.alternativeText, !text.isEmpty { qpdf_oh_replace_key(q, element, "/Alt", qpdf_oh_new_unicode_string(q, text)) }
            if let language = record.language { qpdf_oh_replace_key(q, element, "/Lang", qpdf_oh_new_unicode_string(q, language)) }
            if record.name == "Note", first[record.key] == nil {
                // PDF/UA-1 §7.9: every Note has a unique /ID.
                qpdf_oh_replace_key(q, element, "/ID", qpdf_oh_new_string(q, "note-\(i)"))
            }
            guard let j = first[record.key] else { first[record.key] = i; continue }
            // Element i continues element j: its content moves to j, and i goes.
            let target = elements[j].handle
            let merged = kidArray(target)
            for kid in kids(element) {
                if isElement(kid) { qpdf_oh_replace_key(q, kid, "/P", target) }
            }
            let moved = kidArray(element)
            for n in 0..<qpdf_oh_get_array_n_items(q, moved) { qpdf_oh_append_item(q, merged, qpdf_oh_get_array_item(q, moved, n)) }
            qpdf_oh_replace_key(q, target, "/K", merged)
            remove(element)
            replacement[objectID(element)] = .some(target)
        }
        var parents: [Int32: qpdf_oh] = [:]
        for element in removed {
            let parent = qpdf_oh_get_key(q, element, "/P")
            parents[objectID(parent)] = parent
        }
        for parent in parents.values {
            let kept = qpdf_oh_new_array(q)
            for kid in kids(parent) where !removedIDs.contains(objectID(kid)) { qpdf_oh_append_item(q, kept, kid) }
            qpdf_oh_replace_key(q, parent, "/K", kept)
        }
        fixParentTree(q, qpdf_oh_get_key(q, tree, "/ParentTree"), replacement)
        try markArtifacts(q)

        // Document-level entries.
        qpdf_oh_replace_key(q, root, "/Lang", qpdf_oh_new_unicode_string(q, tagging.language))
        let markInfo = qpdf_oh_new_dictionary(q)
        qpdf_oh_replace_key(q, markInfo, "/Marked", qpdf_oh_new_bool(q, 1))
        qpdf_oh_replace_key(q, root, "/MarkInfo", markInfo)
        let preferences = qpdf_oh_new_dictionary(q)
        qpdf_oh_replace_key(q, preferences, "/DisplayDocTitle", qpdf_oh_new_bool(q, 1))
        qpdf_oh_replace_key(q, root, "/ViewerPreferences", preferences)
        let metadata = qpdf_oh_new_stream(q)
        let dictionary = qpdf_oh_get_dict(q, metadata)
        qpdf_oh_replace_key(q, dictionary, "/Type", qpdf_oh_new_name(q, "/Metadata"))
        qpdf_oh_replace_key(q, dictionary, "/Subtype", qpdf_oh_new_name(q, "/XML"))
        let xmp = Array(XMP.packet(info: info, language: tagging.language, claimsUA: claimsUA).utf8)
        xmp.withUnsafeBufferPointer { qpdf_oh_replace_stream_data(q, metadata, $0.baseAddress, $0.count, qpdf_oh_new_null(q), qpdf_oh_new_null(q)) }
        qpdf_oh_replace_key(q, root, "/Metadata", metadata)
        for n in 0..<qpdf_get_num_pages(q) {
            let page = qpdf_get_page_n(q, Int(n))
            let annotations = qpdf_oh_get_key(q, page, "/Annots")
            guard qpdf_oh_is_array(q, annotations) != 0 else { continue }
            qpdf_oh_replace_key(q, page, "/Tabs", qpdf_oh_new_name(q, "/S"))
            // PDF/UA-1 §7.18.5: links describe themselves (/Contents).
            for k in 0..<qpdf_oh_get_array_n_items(q, annotations) {
                let annotation = qpdf_oh_get_array_item(q, annotations, k)
                guard qpdf_oh_is_name_and_equals(q, qpdf_oh_get_key(q, annotation, "/Subtype"), "/Link") != 0,
                      qpdf_oh_has_key(q, annotation, "/Contents") == 0 else { continue }
                let uri = qpdf_oh_get_key(q, qpdf_oh_get_key(q, annotation, "/A"), "/URI")
                let text = qpdf_oh_is_string(q, uri) != 0 ? "Link to " + String(cString: qpdf_oh_get_utf8_value(q, uri)) : "Link within the document"
                qpdf_oh_replace_key(q, annotation, "/Contents", qpdf_oh_new_unicode_string(q, text))
            }
        }

        let written = path + ".tagged"
        defer { unlink(written) }
        try check(qpdf_init_write(q, written), "qpdf cannot write the PDF")
        qpdf_set_object_stream_mode(q, qpdf_o_generate)
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
            if qpdf_oh_is_array(q, nums) != 0 {
                var n: Int32 = 1
                while n < qpdf_oh_get_array_n_items(q, nums) {
                    let value = qpdf_oh_get_array_item(q, nums, n)
                    if qpdf_oh_is_array(q, value) != 0 {
                        for i in 0..<qpdf_oh_get_array_n_items(q, value) {
                            if let new = replacement[qpdf_oh_get_object_id(q, qpdf_oh_get_array_item(q, value, i))] {
                                qpdf_oh_set_array_item(q, value, i, new ?? qpdf_oh_new_null(q))
                            }
                        }
                    } else if let new = replacement[qpdf_oh_get_object_id(q, value)] {
                        qpdf_oh_set_array_item(q, nums, n, new ?? qpdf_oh_new_null(q))
                    }
                    n += 2
                }
            }
            let kids = qpdf_oh_get_key(q, node, "/Kids")
            if qpdf_oh_is_array(q, kids) != 0 {
                for i in 0..<qpdf_oh_get_array_n_items(q, kids) { fix(qpdf_oh_get_array_item(q, kids, i)) }
            }
        }
        fix(parentTree)
    }

    /// Rewrites the marked content of every page's content streams and of the form XObjects
    /// the pages use (``ArtifactMarks``).
    static func markArtifacts(_ q: qpdf_data?) throws {
        var streams: [qpdf_oh] = []
        for n in 0..<qpdf_get_num_pages(q) {
            let contents = qpdf_oh_get_key(q, qpdf_get_page_n(q, Int(n)), "/Contents")
            if qpdf_oh_is_array(q, contents) != 0 {
                streams += (0..<qpdf_oh_get_array_n_items(q, contents)).map { qpdf_oh_get_array_item(q, contents, $0) }
            } else if qpdf_oh_is_stream(q, contents) != 0 {
                streams.append(contents)
            }
        }
        // Form XObjects the pages use (Cairo draws groups and some glyphs through them).
        var seen = Set<Int32>()
        for n in 0..<qpdf_get_num_pages(q) {
            let xobjects = qpdf_oh_get_key(q, qpdf_oh_get_key(q, qpdf_get_page_n(q, Int(n)), "/Resources"), "/XObject")
            guard qpdf_oh_is_dictionary(q, xobjects) != 0 else { continue }
            qpdf_oh_begin_dict_key_iter(q, xobjects)
            while qpdf_oh_dict_more_keys(q) != 0 {
                let object = qpdf_oh_get_key(q, xobjects, qpdf_oh_dict_next_key(q))
                if qpdf_oh_is_stream(q, object) != 0, seen.insert(qpdf_oh_get_object_id(q, object)).inserted,
                   qpdf_oh_is_name_and_equals(q, qpdf_oh_get_key(q, qpdf_oh_get_dict(q, object), "/Subtype"), "/Form") != 0 {
                    streams.append(object)
                }
            }
        }
        for stream in streams {
            var filtered: QPDF_BOOL = 0
            var buffer: UnsafeMutablePointer<UInt8>?
            var length = 0
            guard qpdf_oh_get_stream_data(q, stream, qpdf_dl_generalized, &filtered, &buffer, &length) & QPDF_ERRORS == 0,
                  filtered != 0, let buffer else { continue }
            defer { free(buffer) }
            let bytes = UnsafeBufferPointer(start: buffer, count: length)
            guard let rewritten = ArtifactMarks.rewritten(bytes) else { continue }
            rewritten.withUnsafeBufferPointer { qpdf_oh_replace_stream_data(q, stream, $0.baseAddress, $0.count, qpdf_oh_new_null(q), qpdf_oh_new_null(q)) }
        }
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
