import Foundation
import TestSupport
import Testing
import Typesetter
import Typography

/// Pandoc attribute forms read back from the PDF: figure sizes, captions, the text of the
/// issue's examples, and ids as link destinations.
@Suite struct PandocAttributeRenderTests {
    /// Drawn widths of the page's images in pt, from `pdfimages -list` (pixels ÷ x-ppi × 72).
    func imageWidths(_ pdf: String) throws -> [Double] {
        try PDFProbe.run("pdfimages", ["-list", pdf]).output.split(separator: "\n").dropFirst(2).compactMap { line in
            let f = line.split(separator: " ", omittingEmptySubsequences: true)
            guard f.count > 12, let pixels = Double(f[3]), let ppi = Double(f[12]) else { return nil }
            return pixels / ppi * 72
        }
    }

    @Test func figureSizesCaptionsAndTargets() throws {
        let picture = Render.packageRoot + "/templates/images/showcase-pages.png"  // 1014 × 720 px
        let (pdf, report) = try Render.markdown(
            """
            # Figures

            ![Half the measure](\(picture) "not shown"){width=50%}

            ![Two inches](\(picture)){width=2in #two}

            ![Three hundred px](\(picture)){width=300px}

            See [the second](#two) and [the span](#sp): [here]{#sp}.
            """, name: "pandoc-figures")
        let measure = Typesetter.fittedPage(of: .default).measure  // the default theme's measure
        let widths = try imageWidths(pdf)
        #expect(widths.count == 3)
        if widths.count == 3 {
            #expect(abs(widths[0] - measure / 2) < 1, "\(widths)")
            #expect(abs(widths[1] - 144) < 1, "\(widths)")
            #expect(abs(widths[2] - 225) < 1, "\(widths)")
        }
        let text = try PDFProbe.text(pdf)
        #expect(text.contains("Half the measure") && text.contains("Two inches"))
        #expect(!text.contains("not shown"))
        #expect(!report.diagnostics.contains { $0.message.contains("matches no heading") }, "\(report.diagnostics)")
        let destinations = try PDFProbe.run("pdfinfo", ["-dests", pdf]).output
        #expect(
            destinations.contains("\"two\"") && destinations.contains("\"sp\""),
            "named destinations for #two and #sp: \(destinations)")
        #expect(try PDFProbe.qpdfClean(pdf))
    }

    /// The issue's examples keep their text in the PDF.
    @Test func issueExamplesKeepTheirText() throws {
        let (pdf, _) = try Render.markdown(
            """
            # The set {x}

            ## Then use ${HOME}

            ## Heading text ## {#h5}

            A &amp; B \\[x\\]{.caption} end. [a few words]{foo}

            Ratio 1:2
            :::
            end

            [a link](https://example.com){.underline} and `print(1)`{.python}
            """, name: "pandoc-issue-examples")
        let text = try PDFProbe.text(pdf)
        for expected in [
            "The set {x}", "Then use ${HOME}", "A & B [x]{.caption} end. [a few words]{foo}", "Ratio 1:2 ::: end",
            "a link and print(1)",
        ] {
            #expect(text.contains(expected), "'\(expected)' in \(text)")
        }
        #expect(text.contains("Heading text") && !text.contains("##"))
    }
}
