internal import CQPDF
import Foundation
import Layout
import Styling

/// ``PDFAccessibility``'s pass over a file in Cairo's regular layout, in memory that does not
/// grow with the document's pages: objects are read one at a time from the mapped file
/// (``CairoPDFFile``), changed where the tagged PDF needs it, and written as soon as each is
/// final (``PDFStreamWriter``, a full rewrite with object streams). What it keeps for the whole
/// file is a few integers per object and per structure element (about 30 bytes per element,
/// against about 1.7 KB for a general PDF library's parsed object), plus one object at a time.
enum TaggedPDFRewriter {
    /// What happens to each object number.
    private enum Kind: UInt8 {
        case copy = 0, element, mapReferences, content, page, link, catalog, removed
    }

    /// Rewrites `source` (a tagged PDF as Cairo wrote it) into a new file at `output`, completing
    /// it as ``PDFAccessibility`` describes.
    /// - Throws: ``CairoPDFFile/Unsupported`` when the file is not in Cairo's regular layout
    ///   (the caller falls back to qpdf); ``PDFAccessibility/Failure`` when the structure tree
    ///   does not match `records`, or the file cannot be written.
    /// `threaded`: the content streams are rewritten ahead on a second thread, and the object
    /// streams compressed on a third while the writer goes on (the same file
    /// either way; `TYPESET_THREADS=1` turns it off, as it does the styling thread).
    static func rewrite(source: UnsafeBufferPointer<UInt8>, to output: String, records: TagRecords,
                        tagging: PDFTagging, info: DocumentInfo, claimsUA: Bool,
                        threaded: Bool = getenv("TYPESET_THREADS").map({ String(cString: $0) }) != "1") throws {
        let file = try CairoPDFFile(bytes: source)
        let size = Int(file.size)
        var kind = [Kind](repeating: .copy, count: size)
        let catalog = try file.object(file.root).value
        guard case .reference(let treeNumber)? = catalog["StructTreeRoot"], let tree = try? file.object(treeNumber).value else {
            throw PDFAccessibility.Failure(description: "the PDF has no structure tree")
        }
        kind[Int(file.root)] = .catalog

        // The elements, depth first, as Cairo wrote them in the order their tags began.
        var objectNumber: [Int32] = []
        objectNumber.reserveCapacity(records.count)
        var indexOf = [Int32](repeating: -1, count: size)
        var mismatch: String?
        func kids(_ value: PDFValue) -> [PDFValue] { kidsOf(value["K"]) }
        func kidsOf(_ k: PDFValue?) -> [PDFValue] {
            switch k {
            case .array(let items)?: return items
            case let k?: return [k]
            case nil: return []
            }
        }
        /// Visits object `n` if it is a structure element (a dictionary with /S): only its /S
        /// and /K are read here.
        func visit(_ n: Int32) throws {
            guard n > 0, Int(n) < size, indexOf[Int(n)] < 0, let found = (try? file.entries(of: n, ["S", "K"])) ?? nil,
                  let type = found[0] else { return }
            let i = objectNumber.count
            if i < records.count, mismatch == nil, type.nameValue != records.items[i].name.structureType {
                mismatch = "structure element \(records.items[i].name.structureType) not found in the PDF's structure tree"
            }
            objectNumber.append(n)
            indexOf[Int(n)] = Int32(i)
            kind[Int(n)] = .element
            for kid in kidsOf(found[1]) { if case .reference(let r) = kid { try visit(r) } }
        }
        for top in kids(tree) { if case .reference(let r) = top { try visit(r) } }
        guard objectNumber.count == records.count else {
            throw PDFAccessibility.Failure(description: "the structure tree has \(objectNumber.count) elements, \(records.count) were tagged")
        }
        if let mismatch { throw PDFAccessibility.Failure(description: mismatch) }

        // Elements Cairo split are merged into the first of their kind (same role, block and
        // part); artifacts leave the tree. `target` is the element each one ends up as (itself,
        // the first part, or -1 for none); `next` chains the parts.
        let count = records.count
        var target = [Int32](repeating: -1, count: count)
        var next = [Int32](repeating: -1, count: count)
        do {
            struct Key: Hashable { var role: StructureElement.Role; var block: Int; var part: Int32 }
            var groups: [Key: (first: Int32, last: Int32)] = [:]
            for (i, record) in records.items.enumerated() {
                switch record.name {
                case .document, .link: target[i] = Int32(i)
                case .artifact: kind[Int(objectNumber[i])] = .removed
                case .element(let role):
                    let key = Key(role: role, block: record.block, part: record.part)
                    if let group = groups[key] {
                        target[i] = group.first
                        next[Int(group.last)] = Int32(i)
                        groups[key] = (group.first, Int32(i))
                        kind[Int(objectNumber[i])] = .removed
                    } else {
                        target[i] = Int32(i)
                        groups[key] = (Int32(i), Int32(i))
                    }
                }
            }
        }
        /// A reference with merged elements replaced by the element they joined, artifacts by null.
        func mapped(_ value: PDFValue) -> PDFValue {
            switch value {
            case .reference(let r):
                guard Int(r) < size, case let i = indexOf[Int(r)], i >= 0, target[Int(i)] != i else { return value }
                return target[Int(i)] < 0 ? .null : .reference(objectNumber[Int(target[Int(i)])])
            case .array(let items): return .array(items.map(mapped))
            case .dictionary(let entries): return .dictionary(entries.map { ($0.key, mapped($0.value)) })
            default: return value
            }
        }

        // The parent tree (PDF 1.7 §14.7.4.4) and its arrays point at elements.
        kind[Int(treeNumber)] = .mapReferences
        func markParentTree(_ value: PDFValue?) throws {
            guard let value else { return }
            var node = value
            if case .reference(let r) = value {
                guard Int(r) < size, kind[Int(r)] == .copy else { return }
                kind[Int(r)] = .mapReferences
                node = try file.object(r).value
            }
            if case .array(let nums)? = node["Nums"] {
                for (k, item) in nums.enumerated() where k % 2 == 1 {
                    if case .reference(let r) = item, Int(r) < size, indexOf[Int(r)] < 0, kind[Int(r)] == .copy { kind[Int(r)] = .mapReferences }
                }
            }
            if case .array(let kids)? = node["Kids"] { for kid in kids { try markParentTree(kid) } }
        }
        try markParentTree(tree["ParentTree"])

        // Pages: content streams and form XObjects to rewrite, pages with annotations, links.
        func markPages(_ reference: PDFValue?) throws {
            guard case .reference(let n)? = reference, Int(n) < size else { throw CairoPDFFile.Unsupported(description: "page tree") }
            let node = try file.object(n).value
            if node["Type"]?.nameValue == "Pages" {
                guard case .array(let kids)? = node["Kids"] else { throw CairoPDFFile.Unsupported(description: "page tree") }
                for kid in kids { try markPages(kid) }
                return
            }
            func markContent(_ value: PDFValue) throws {
                guard case .reference(let r) = value, Int(r) < size else { throw CairoPDFFile.Unsupported(description: "content stream") }
                let object = try file.object(r)
                if object.streamData != nil { kind[Int(r)] = .content } else if case .array(let items) = object.value {
                    for item in items { try markContent(item) }
                }
            }
            switch node["Contents"] {
            case .array(let items)?: for item in items { try markContent(item) }
            case let contents?: try markContent(contents)
            case nil: break
            }
            if case .dictionary(let xobjects)? = try file.resolved(try file.resolved(node["Resources"])?["XObject"]) {
                for (_, value) in xobjects {
                    guard case .reference(let r) = value, Int(r) < size, kind[Int(r)] == .copy else { continue }
                    if try file.object(r).value["Subtype"]?.nameValue == "Form" { kind[Int(r)] = .content }
                }
            }
            if case .array(let annotations)? = try file.resolved(node["Annots"]) {
                kind[Int(n)] = .page
                for annotation in annotations {
                    guard case .reference(let a) = annotation, Int(a) < size else {
                        throw CairoPDFFile.Unsupported(description: "an annotation written in its page")
                    }
                    let value = try file.object(a).value
                    if value["Subtype"]?.nameValue == "Link", value["Contents"] == nil { kind[Int(a)] = .link }
                }
            }
        }
        try markPages(catalog["Pages"])

        /// Element `i` as it is finally written: its parts' kids gathered (marked-content ids as
        /// references that carry their page), merged and removed kids left out, /Alt, /Lang and
        /// a note's /ID added. Later parts are read from `file` (each thread has its own reader).
        func element(_ i: Int, _ value: PDFValue, in file: CairoPDFFile) throws -> PDFValue {
            let merged = next[i] >= 0
            var gathered: [PDFValue] = []
            var changed = merged
            var part = i
            var partValue = value
            var wasArray = false
            while true {
                let page = partValue["Pg"]
                if case .array? = partValue["K"] { wasArray = true }
                for kid in kids(partValue) {
                    switch kid {
                    case .integer where merged:
                        var mcr: [(key: String, value: PDFValue)] = [("Type", .name("MCR"))]
                        if let page { mcr.append(("Pg", page)) }
                        mcr.append(("MCID", kid))
                        gathered.append(.dictionary(mcr))
                    case .reference(let r) where Int(r) < size && indexOf[Int(r)] >= 0 && target[Int(indexOf[Int(r)])] != indexOf[Int(r)]:
                        changed = true
                    default:
                        gathered.append(kid)
                    }
                }
                part = Int(next[part])
                guard part >= 0 else { break }
                partValue = try file.object(objectNumber[part]).value
            }
            guard case .dictionary(let entries) = value else { return value }
            var result = PDFValue.dictionary(entries.filter { $0.key != "K" }.map { ($0.key, mapped($0.value)) })
            if changed || wasArray || gathered.count != 1 {
                if !gathered.isEmpty || value["K"] != nil { result = result.setting("K", .array(gathered)) }
            } else {
                result = result.setting("K", gathered[0])
            }
            if let (alternativeText, language) = records.attributes[i] {
                if let alternativeText, !alternativeText.isEmpty { result = result.setting("Alt", .text(alternativeText)) }
                if let language { result = result.setting("Lang", .text(language)) }
            }
            // PDF/UA-1 §7.9: every Note has a unique /ID.
            if case .element(.note) = records.items[i].name { result = result.setting("ID", .text("note-\(i)")) }
            return result
        }

        // The content streams are rewritten ahead, on a second thread (``ContentRewrites``).
        var contentJobs: [(number: Int32, object: CairoPDFFile.Object)] = []
        for n in 1..<file.size where kind[Int(n)] == .content && file.offset(n) != nil { contentJobs.append((n, try file.object(n))) }
        let contents = ContentRewrites(contentJobs, source: source, threaded: threaded)
        defer { contents.stop() }
        var nextContent = 0

        // The elements to write, each read and written to bytes ahead on another thread
        // (``WorkAhead``), which reads the file through a reader of its own.
        // (Every element was read by the walk, so it has an offset: the cross-reference table is
        // not read here, which would keep all of it resident before the writer starts.)
        var elementNumbers: [Int32] = []
        for n in 1..<file.size where kind[Int(n)] == .element { elementNumbers.append(n) }
        let threadFile = try CairoPDFFile(bytes: source)
        let bodies = WorkAhead<Result<[UInt8], Error>>(count: elementNumbers.count, threaded: threaded) { j, onThread in
            let reader = onThread ? threadFile : file
            let n = elementNumbers[j]
            return Result {
                var body: [UInt8] = []
                try element(Int(indexOf[Int(n)]), try reader.object(n).value, in: reader).write(to: &body)
                return body
            }
        }
        defer { bodies.stop() }
        var nextElement = 0

        // Write every object in number order, each as soon as it is read.
        let writer = try PDFStreamWriter(path: output, size: file.size, threaded: threaded)
        let metadata = writer.newNumber()
        let xmp = Array(XMP.packet(info: info, language: tagging.language, claimsUA: claimsUA).utf8)
        xmp.withUnsafeBytes {
            writer.addStream(metadata, dictionary: .dictionary([("Type", .name("Metadata")), ("Subtype", .name("XML"))]), data: $0)
        }
        for n in 1..<file.size {
            guard file.offset(n) != nil else { continue }
            let k = kind[Int(n)]
            if k == .removed { continue }
            if k == .element {
                let body = try bodies.outcome(nextElement).get()
                nextElement += 1
                body.withUnsafeBytes { writer.add(n, body: $0) }
                continue
            }
            let object = try file.object(n)
            switch k {
            case .removed: continue
            case .copy:
                if object.streamData != nil {
                    writer.copy(n, raw(source, object.range))
                } else {
                    writer.add(n, body: raw(source, object.valueRange))
                }
            case .mapReferences:
                guard object.streamData == nil else { throw CairoPDFFile.Unsupported(description: "a stream in the parent tree") }
                writer.add(n, mapped(object.value))
            case .element: continue
            case .content:
                let outcome = contents.outcome(nextContent)
                nextContent += 1
                switch outcome {
                case .copy where object.streamData == nil: writer.add(n, body: raw(source, object.valueRange))
                case .copy: writer.copy(n, raw(source, object.range))
                case .stream(let dictionary, let compressed): compressed.withUnsafeBytes { writer.addStream(n, dictionary: dictionary, data: $0) }
                case .failed: throw PDFAccessibility.Failure(description: "zlib cannot compress a content stream")
                }
            case .page:
                writer.add(n, object.value.setting("Tabs", .name("S")))
            case .link:
                var text = "Link within the document"
                if let uri = try file.resolved(try file.resolved(object.value["A"])?["URI"])?.literalText { text = "Link to " + uri }
                // PDF/UA-1 §7.18.5: links describe themselves (/Contents).
                writer.add(n, object.value.setting("Contents", .text(text)))
            case .catalog:
                let completed = object.value
                    .setting("Lang", .text(tagging.language))
                    .setting("MarkInfo", .dictionary([("Marked", .bool(true))]))
                    .setting("ViewerPreferences", .dictionary([("DisplayDocTitle", .bool(true))]))
                    .setting("Metadata", .reference(metadata))
                writer.add(n, completed)
            }
        }
        do { try writer.finish(root: file.root, info: file.info) } catch { throw PDFAccessibility.Failure(description: "\(error)") }

    }
}

/// The bytes of `range` in `source`, untyped.
private func raw(_ source: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: source[range]))
}
