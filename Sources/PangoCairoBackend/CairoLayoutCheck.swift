internal import CPangoCairo
import TaggedPDF

/// Checks, once a process, that this Cairo writes the PDF the tagging pass reads
/// (``CairoPDFLayout``): its version, and a one-page sample drawn in memory as a tagged page
/// is drawn (a `Document` tag around one content marker) read back by the pass's own reader.
enum CairoLayoutCheck {
    /// nil when this Cairo writes what the tagging pass reads; else what differs.
    static let problem: String? = {
        let version = String(cString: cairo_version_string())
        let sample = sampleFile()
        do {
            try sample.withUnsafeBufferPointer { try CairoPDFLayout.check(version: version, sample: $0) }
            return nil
        } catch {
            return String(describing: error)
        }
    }()

    /// A one-page PDF with one content marker, drawn as ``CairoPDFRenderer`` draws a tagged page.
    private static func sampleFile() -> [UInt8] {
        let sink = SampleBytes()
        let write: cairo_write_func_t = { closure, data, length in
            guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
            Unmanaged<SampleBytes>.fromOpaque(closure).takeUnretainedValue().bytes
                .append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
            return CAIRO_STATUS_SUCCESS
        }
        let surface = cairo_pdf_surface_create_for_stream(write, Unmanaged.passUnretained(sink).toOpaque(), 100, 100)!
        let context = cairo_create(surface)!
        cairo_tag_begin(context, "Document", nil)
        let corner = ContentMarker.position(0)
        cairo_save(context)
        cairo_new_path(context)
        cairo_set_source_rgb(context, 0, 0, 0)
        cairo_rectangle(context, corner.x, corner.y, ContentMarker.side, ContentMarker.side)
        cairo_fill(context)
        cairo_restore(context)
        cairo_tag_end(context, "Document")
        cairo_destroy(context)
        cairo_surface_finish(surface)
        cairo_surface_destroy(surface)
        return withExtendedLifetime(sink) { sink.bytes }
    }

    /// The bytes Cairo writes for the sample.
    private final class SampleBytes {
        var bytes: [UInt8] = []
    }
}
