/// What the tagging pass takes on trust from the PDF Cairo writes, checked before a tagged
/// render: the Cairo series whose file layout ``CairoPDFFile`` reads (one cross-reference
/// section, every page's content in one stream of its own), and the way that Cairo prints a
/// ``ContentMarker``, which ``MarkedContentRewrite`` finds by its printed form. Another Cairo
/// could write either differently: the pass would then fail at the end of a long render, or
/// miss markers; this check fails at the start instead, with what differs.
package enum CairoPDFLayout {
    /// The Cairo release series whose PDF the pass reads (`major.minor`).
    package static let series = "1.16"

    /// Cairo is not the one the pass reads: what differs.
    package struct Unsupported: Error, CustomStringConvertible {
        package var description: String
    }

    /// Checks Cairo's `version` (`cairo_version_string()`) and `sample`: a one-page PDF that
    /// Cairo wrote inside a `Document` structure tag, holding one ``ContentMarker`` at
    /// ``ContentMarker/position(_:)`` 0, drawn as the renderer draws it.
    /// - Throws: ``Unsupported`` when the version is not of ``series``, or when the sample is
    ///   not in the layout the pass reads or does not hold the marker as the pass reads it.
    package static func check(version: String, sample: UnsafeBufferPointer<UInt8>) throws {
        guard version == series || version.hasPrefix(series + ".") else {
            throw Unsupported(
                description: "Cairo \(version) is not Cairo \(series), whose PDF layout the tagging pass reads")
        }
        let marker = ContentMarker.position(0)
        let printed = String(decoding: ContentMarker.printedSide, as: UTF8.self)
        let expected = "`\(marker.x) \(marker.y) \(printed) \(printed) re f`"
        do {
            let file = try CairoPDFFile(bytes: sample)
            let catalog = try file.object(file.root).value
            guard catalog["StructTreeRoot"] != nil else { throw Unsupported(description: "no structure tree") }
            guard case .array(let kids)? = try file.resolved(catalog["Pages"])?["Kids"],
                case .reference(let first)? = kids.first,
                case .reference(let contents)? = try file.object(first).value["Contents"]
            else {
                throw Unsupported(description: "no page with a content stream of its own")
            }
            let stream = try file.object(contents)
            guard let data = stream.streamData else { throw Unsupported(description: "no content stream") }
            let bytes = UnsafeBufferPointer(rebasing: sample[data])
            let plain = stream.value["Filter"] == nil ? Array(bytes) : Inflate.decompressed(bytes)
            guard let plain else { throw Unsupported(description: "a content stream that cannot be decoded") }
            var structure = StructureRecords()
            structure.beginPage()
            structure.addRun(owner: 0)
            do {
                _ = try plain.withUnsafeBufferPointer {
                    try MarkedContentRewrite.rewritten($0, runs: structure.runs(onPage: 0), structure: structure)
                }
            } catch {
                throw Unsupported(description: "its content marker is not printed as \(expected)")
            }
        } catch {
            throw Unsupported(description: "Cairo \(version) writes a PDF the tagging pass does not read: \(error)")
        }
    }
}
