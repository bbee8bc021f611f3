internal import CZlib
import Foundation
import Styling

/// Settings of a tagged PDF: what Cairo 1.16 cannot write itself and ``PDFAccessibility``
/// adds to the finished file.
public struct PDFTagging: Hashable, Sendable {
    /// The document's natural language, a BCP 47 tag (`en`, `ko`): the catalog's `/Lang`.
    public var language: String
    /// Creates tagging settings for a document in `language` (BCP 47, `en` by default).
    public init(language: String = "en") { self.language = language }
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

    /// Post-processes the PDF at `path`.
    /// - Throws: ``Failure`` when the file cannot be read or written, is not in Cairo's regular
    ///   layout, or does not match `structure` (then the file is left as Cairo wrote it).
    package static func complete(
        path: String, structure: StructureRecords, tagging: PDFTagging, info: DocumentInfo, claimsUA: Bool
    ) throws {
        // The mapping outlives the rename below (it holds the old file).
        let file = try MappedFile(path: path)
        defer { file.unmap() }
        let written = path + ".tagged"
        defer { unlink(written) }
        do {
            try TaggedPDFRewriter.rewrite(
                source: UnsafeBufferPointer(
                    start: UnsafeRawPointer(file.bytes).assumingMemoryBound(to: UInt8.self), count: file.count),
                to: written, structure: structure, tagging: tagging, info: info, claimsUA: claimsUA)
        } catch let error as CairoPDFFile.Unsupported {
            throw Failure(description: "the PDF is not in Cairo's layout (\(error))")
        }
        guard rename(written, path) == 0 else {
            throw Failure(description: "cannot replace \(path): \(String(cString: strerror(errno)))")
        }
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
    static func packet(info: DocumentInfo, language: String, claimsUA: Bool) -> String {
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
        fields.append("<xmp:CreatorTool>\(escaped(info.creator))</xmp:CreatorTool>")
        if claimsUA { fields.append("<pdfuaid:part>1</pdfuaid:part>") }
        return """
            <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
            <x:xmpmeta xmlns:x="adobe:ns:meta/">
            <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" \
            xmlns:pdf="http://ns.adobe.com/pdf/1.3/" \
            xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:pdfuaid="http://www.aiim.org/pdfua/ns/id/">
            \(fields.joined(separator: "\n"))
            </rdf:Description>
            </rdf:RDF>
            </x:xmpmeta>
            <?xpacket end="w"?>
            """
    }
}
