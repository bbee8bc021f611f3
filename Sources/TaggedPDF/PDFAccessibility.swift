internal import CZlib
import Foundation
import Styling
import Typography

/// Settings of a tagged PDF: what Cairo 1.16 cannot write itself and ``PDFAccessibility``
/// adds to the finished file.
public struct PDFTagging: Hashable, Sendable {
    /// The document's natural language, a BCP 47 tag (`en`, `ko`): the catalog's `/Lang`.
    public var language: String
    /// The PDF/A part and conformance the file declares and meets; nil: none.
    public var archive: PDFArchive?
    /// PDF/UA-1 was asked for: a file that cannot claim it (no title, a figure without
    /// alternative text) fails the pass with ``PDFAccessibility/Unmet`` instead of being
    /// written without the claim.
    public var requiresUA: Bool
    /// Creates tagging settings for a document in `language` (BCP 47, `en` by default).
    public init(language: String = "en", archive: PDFArchive? = nil, requiresUA: Bool = false) {
        self.language = language
        self.archive = archive
        self.requiresUA = requiresUA
    }
}

/// A PDF/A level (ISO 19005-2 and -3) the file declares in XMP (`pdfaid:part`,
/// `pdfaid:conformance`) and meets: an sRGB output intent, printable annotations, images
/// without interpolation, Type 1 subsets with their `/CharSet`, metadata that matches the
/// document information dictionary.
public struct PDFArchive: Hashable, Sendable {
    /// 2 (PDF/A-2, ISO 19005-2) or 3 (PDF/A-3, ISO 19005-3).
    public var part: Int
    /// `B` (basic: the page looks the same) or `U` (and its text maps to Unicode).
    public var conformance: String
    /// The ICC profile of the output intent (ISO 15076-1), an RGB profile (sRGB IEC 61966-2.1).
    public var outputProfile: [UInt8]
    /// The sRGB profile Debian's `icc-profiles-free` package installs, read at render time.
    public static let sRGBProfilePath = "/usr/share/color/icc/sRGB.icc"

    /// Creates a PDF/A level with its output intent's `outputProfile`.
    public init(part: Int, conformance: String, outputProfile: [UInt8]) {
        self.part = part
        self.conformance = conformance
        self.outputProfile = outputProfile
    }
}

/// Completes a tagged PDF written by Cairo 1.16 with the renderer's content markers, rewriting
/// the file in place through a temporary file (``TaggedPDFRewriter``):
///
/// - the structure tree is the renderer's (``StructureRecords``): each element once, however
///   many pages and runs its content spans, with its kids in reading order; each page's
///   content markers become its marked content, and furniture becomes `/Artifact BMC … EMC`
///   (PDF 1.7 §14.8.2.2), outside the tree;
/// - figures get `/Alt`, spans `/Lang`; the catalog gets `/Lang`, `/MarkInfo << /Marked true >>`,
///   `/ViewerPreferences << /DisplayDocTitle true >>` and XMP metadata (`dc:title`,
///   `dc:language`, and the PDF/UA-1 identifier `pdfuaid:part 1` when `claimsUA`); pages with
///   annotations get `/Tabs /S` (tab order follows the structure; PDF/UA-1 ISO 14289-1 §7.18.3),
///   links a `/Contents` description (§7.18.5), notes an `/ID` (§7.9).
///
/// Memory: ``TaggedPDFRewriter`` reads and writes one object at a time and keeps a few integers
/// per object, element and run, so the pass does not grow with the document's pages beyond
/// them; the file is mapped, not copied.
package enum PDFAccessibility {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The file cannot meet a standard asked for (``PDFTagging/requiresUA``): what is missing.
    package struct Unmet: Error, CustomStringConvertible {
        package var description: String
    }

    /// Post-processes the PDF at `path`, taking from `early` the content streams rewritten
    /// while the pages were drawn. Returns how many content streams the pass rewrote itself.
    /// - Throws: ``Failure`` when the file cannot be read or written, is not in Cairo's regular
    ///   layout, or does not match `structure` (then the file is left as Cairo wrote it).
    @discardableResult
    package static func complete(
        path: String, structure: StructureRecords, tagging: PDFTagging, info: DocumentInfo, claimsUA: Bool,
        early: EarlyContentRewrites? = nil
    ) throws -> Int {
        if tagging.requiresUA, !claimsUA {
            throw Unmet(
                description: (info.title ?? "").isEmpty
                    ? "PDF/UA-1 needs a document title (front matter `title:`)"
                    : "PDF/UA-1 needs alternative text on every figure (`![what it shows](image.png)`)")
        }
        // The mapping outlives the rename below (it holds the old file).
        let file = try MappedFile(path: path)
        defer { file.unmap() }
        // Beside the file, its name shortened so that the whole stays a file name however long
        // the output's name is (``TemporaryName/maxBytes``).
        let suffix = ".tagged"
        let name = TemporaryName.shortened(
            (path as NSString).lastPathComponent, toBytes: TemporaryName.maxBytes - suffix.utf8.count)
        let written = ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent(name + suffix)
        TemporaryFiles.register(written)
        defer {
            unlink(written)
            TemporaryFiles.forget(written)
        }
        let rewrittenHere: Int
        do {
            rewrittenHere = try TaggedPDFRewriter.rewrite(
                source: UnsafeBufferPointer(
                    start: UnsafeRawPointer(file.bytes).assumingMemoryBound(to: UInt8.self), count: file.count),
                to: written, structure: structure, tagging: tagging, info: info, claimsUA: claimsUA, early: early)
        } catch let error as CairoPDFFile.Unsupported {
            throw Failure(description: "the PDF is not in Cairo's layout (\(error))")
        }
        guard rename(written, path) == 0 else {
            throw Failure(description: "cannot replace \(path): \(String(cString: strerror(errno)))")
        }
        return rewrittenHere
    }
}

/// A file mapped read-only into memory (POSIX `mmap`), to be read in place.
struct MappedFile {
    let bytes: UnsafePointer<CChar>
    let count: Int

    /// - Throws: ``PDFAccessibility/Failure`` when the file cannot be opened, is empty or
    ///   cannot be mapped.
    init(path: String) throws {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            throw PDFAccessibility.Failure(description: "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_size > 0 else {
            throw PDFAccessibility.Failure(description: "cannot read \(path)")
        }
        let count = Int(status.st_size)
        guard let mapped = mmap(nil, count, PROT_READ, MAP_PRIVATE, fd, 0),
            mapped != UnsafeMutableRawPointer(bitPattern: -1)
        else {
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
            bytes.withUnsafeBufferPointer {
                compress2(target.baseAddress, &size, $0.baseAddress, uLong($0.count), Z_DEFAULT_COMPRESSION)
            }
        }
        guard status == Z_OK else { return nil }
        out.removeLast(out.count - Int(size))
        return out
    }
}

/// The XMP metadata packet (ISO 16684-1) the catalog points to.
enum XMP {
    /// What the document information dictionary says that XMP repeats (PDF/A requires the two
    /// to agree, ISO 19005-2 §6.6.2.3.1): the producing library and the dates, in XMP's form
    /// (ISO 8601, `2026-12-02T01:57:48Z`).
    struct Recorded {
        var producer: String?
        var created: String?
        var modified: String?
    }

    static func packet(
        info: DocumentInfo, language: String, claimsUA: Bool, archive: PDFArchive?, recorded: Recorded
    ) -> String {
        func escaped(_ s: String) -> String {
            s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
        }
        var fields: [String] = []
        if let title = info.title, !title.isEmpty {
            fields.append(
                "<dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">\(escaped(title))</rdf:li></rdf:Alt></dc:title>")
        }
        if let author = info.author, !author.isEmpty {
            fields.append("<dc:creator><rdf:Seq><rdf:li>\(escaped(author))</rdf:li></rdf:Seq></dc:creator>")
        }
        if let subject = info.subject, !subject.isEmpty {
            fields.append(
                "<dc:description><rdf:Alt><rdf:li "
                    + "xml:lang=\"x-default\">\(escaped(subject))</rdf:li></rdf:Alt></dc:description>"
            )
        }
        fields.append("<dc:language><rdf:Bag><rdf:li>\(escaped(language))</rdf:li></rdf:Bag></dc:language>")
        if !info.keywords.isEmpty {
            fields.append("<pdf:Keywords>\(escaped(info.keywords.joined(separator: ", ")))</pdf:Keywords>")
        }
        if let producer = recorded.producer { fields.append("<pdf:Producer>\(escaped(producer))</pdf:Producer>") }
        fields.append("<xmp:CreatorTool>\(escaped(info.creator))</xmp:CreatorTool>")
        if let created = recorded.created { fields.append("<xmp:CreateDate>\(created)</xmp:CreateDate>") }
        if let modified = recorded.modified { fields.append("<xmp:ModifyDate>\(modified)</xmp:ModifyDate>") }
        if claimsUA { fields.append("<pdfuaid:part>1</pdfuaid:part>") }
        if let archive {
            fields.append("<pdfaid:part>\(archive.part)</pdfaid:part>")
            fields.append("<pdfaid:conformance>\(escaped(archive.conformance))</pdfaid:conformance>")
        }
        return """
            <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
            <x:xmpmeta xmlns:x="adobe:ns:meta/">
            <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" \
            xmlns:pdf="http://ns.adobe.com/pdf/1.3/" xmlns:xmp="http://ns.adobe.com/xap/1.0/" \
            xmlns:pdfuaid="http://www.aiim.org/pdfua/ns/id/" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/">
            \(fields.joined(separator: "\n"))
            </rdf:Description>
            \(archive != nil && claimsUA ? uaExtensionSchema : "")
            </rdf:RDF>
            </x:xmpmeta>
            <?xpacket end="w"?>
            """
    }

    /// PDF/A admits XMP properties of its predefined schemas only, and of schemas the packet
    /// describes (ISO 19005-2 §6.6.2.3.2): this describes PDF/UA's identification schema
    /// (ISO 14289-1 §5), whose `pdfuaid:part` the packet holds.
    static let uaExtensionSchema = """
        <rdf:Description rdf:about="" xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" \
        xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" \
        xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">
        <pdfaExtension:schemas><rdf:Bag><rdf:li rdf:parseType="Resource">
        <pdfaSchema:schema>PDF/UA Universal Accessibility Schema</pdfaSchema:schema>
        <pdfaSchema:namespaceURI>http://www.aiim.org/pdfua/ns/id/</pdfaSchema:namespaceURI>
        <pdfaSchema:prefix>pdfuaid</pdfaSchema:prefix>
        <pdfaSchema:property><rdf:Seq><rdf:li rdf:parseType="Resource">
        <pdfaProperty:name>part</pdfaProperty:name>
        <pdfaProperty:valueType>Integer</pdfaProperty:valueType>
        <pdfaProperty:category>internal</pdfaProperty:category>
        <pdfaProperty:description>Indicates which part of ISO 14289 the document conforms to</pdfaProperty:description>
        </rdf:li></rdf:Seq></pdfaSchema:property>
        </rdf:li></rdf:Bag></pdfaExtension:schemas>
        </rdf:Description>
        """

    /// A date of the document information dictionary (`D:20261202015748Z`, or without `D:` as
    /// Cairo 1.16 writes it) in PDF's form (PDF 1.7 §7.9.4) and XMP's (ISO 8601); nil when it
    /// does not start with a year, month, day, hours, minutes and seconds.
    static func dates(_ written: String) -> (pdf: String, xmp: String)? {
        let text = written.hasPrefix("D:") ? String(written.dropFirst(2)) : written
        let digits = Array(text.prefix(14))
        guard digits.count == 14, digits.allSatisfy(\.isNumber) else { return nil }
        let zone = text.dropFirst(14)
        var offset = "Z"
        if let sign = zone.first, sign == "+" || sign == "-" {
            let numbers = zone.dropFirst().filter(\.isNumber)
            guard numbers.count >= 2 else { return nil }
            let minutes = numbers.count >= 4 ? String(Array(numbers)[2..<4]) : "00"
            offset = "\(sign)\(numbers.prefix(2)):\(minutes)"
        }
        func part(_ range: Range<Int>) -> String { String(digits[range]) }
        let xmp =
            "\(part(0..<4))-\(part(4..<6))-\(part(6..<8))T\(part(8..<10)):\(part(10..<12)):\(part(12..<14))"
            + offset
        return ("D:" + text, xmp)
    }
}
