import Foundation
internal import TaggedPDF

/// A standard the PDF declares and meets, named as Typst names them (`--pdf-standard`, front
/// matter `pdf-standard`).
public enum PDFStandard: String, CaseIterable, Sendable, Hashable {
    /// PDF/UA-1 (ISO 14289-1): accessible. Declared by default whenever the document has a
    /// title and every figure has alternative text; asked for, a document without them is an
    /// error.
    case ua1 = "ua-1"
    /// PDF/A-2b (ISO 19005-2, level B): archivable, looks the same.
    case a2b = "a-2b"
    /// PDF/A-2u (ISO 19005-2, level U): PDF/A-2b whose text maps to Unicode.
    case a2u = "a-2u"
    /// PDF/A-3b (ISO 19005-3, level B): PDF/A-2b that may carry attached files.
    case a3b = "a-3b"

    /// Why `standards` cannot be met with `--no-tags`: PDF/UA-1 is a tagged PDF (ISO 14289-1
    /// §7.1); PDF/A asks for no structure tree, but the metadata, output intent and
    /// embedded-font checks every standard needs are written by the same pass after drawing
    /// that writes the tags.
    public static func untaggedProblem(_ standards: Set<PDFStandard>) -> String {
        if standards.contains(.ua1) {
            return "PDF/UA-1 is a tagged PDF (ISO 14289-1 §7.1), and the pass that tags it, which --no-tags leaves "
                + "out, also writes its metadata; leave out --no-tags"
        }
        let levels = standards.compactMap(\.archiveLevel).map { "PDF/A-\($0.part)\($0.conformance.lowercased())" }
            .sorted()
        return "a PDF standard's metadata and output intent are written by the pass that tags the PDF, which "
            + "--no-tags leaves out (\(levels.joined(separator: ", ")) itself needs no tags); leave out --no-tags"
    }

    /// The PDF/A part and conformance letter; nil for PDF/UA.
    var archiveLevel: (part: Int, conformance: String)? {
        switch self {
        case .ua1: nil
        case .a2b: (2, "B")
        case .a2u: (2, "U")
        case .a3b: (3, "B")
        }
    }

    /// The standards of a comma-separated `list` (`ua-1,a-2b`; spaces and case ignored).
    /// - Throws: a message when a name is unknown, the list is empty, or it holds two PDF/A
    ///   levels (a file declares one).
    public static func standards(_ list: String) throws(PDFStandardProblem) -> Set<PDFStandard> {
        var standards: Set<PDFStandard> = []
        for item in list.split(separator: ",") {
            let name = item.trimmingCharacters(in: .whitespaces).lowercased()
            guard let standard = PDFStandard(rawValue: name) else {
                throw PDFStandardProblem(
                    description: "unknown PDF standard '\(name)' (ua-1, a-2b, a-2u or a-3b, comma-separated)")
            }
            standards.insert(standard)
        }
        guard !standards.isEmpty else {
            throw PDFStandardProblem(description: "no PDF standard named (ua-1, a-2b, a-2u or a-3b, comma-separated)")
        }
        let levels = allCases.filter { standards.contains($0) && $0.archiveLevel != nil }
        guard levels.count <= 1 else {
            throw PDFStandardProblem(
                description: "a PDF declares one PDF/A level, not \(levels.map(\.rawValue).joined(separator: " and "))")
        }
        return standards
    }

    /// The tagging pass's settings for `standards` in `language`: the PDF/A level with its sRGB
    /// output intent, read from ``PDFArchive/sRGBProfilePath``.
    /// - Throws: ``TypesetError/renderingFailed(_:)`` when PDF/A is asked for and the profile
    ///   cannot be read.
    static func tagging(_ standards: Set<PDFStandard>, language: String) throws -> PDFTagging {
        var tagging = PDFTagging(language: language, requiresUA: standards.contains(.ua1))
        if let level = standards.compactMap(\.archiveLevel).first {
            let path = PDFArchive.sRGBProfilePath
            guard let profile = FileManager.default.contents(atPath: path), profile.count > 128 else {
                throw TypesetError.renderingFailed(
                    "PDF/A needs the sRGB ICC profile \(path) for its output intent (Debian package "
                        + "icc-profiles-free); it cannot be read")
            }
            tagging.archive = PDFArchive(
                part: level.part, conformance: level.conformance, outputProfile: [UInt8](profile))
        }
        return tagging
    }
}

/// Why a list of PDF standards is not one Typeset writes.
public struct PDFStandardProblem: Error, CustomStringConvertible, Sendable {
    /// What is wrong, and what is accepted.
    public var description: String
}
