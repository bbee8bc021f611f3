internal import CPangoCairo
import Foundation
import Layout
import Styling
import TestSupport
import Testing
import Typography

@testable import PangoCairoBackend

/// A family no installed face has and no fontconfig rule names is asked of Pango as one
/// stand-in name (``UnknownFamilies``, ``PangoSetup/asked(_:)``): requests for different such
/// families share their fontconfig work, and get the faces they got before.
@Suite struct UnknownFamiliesTests {
    /// Font loads `setup` issued while `body` ran.
    private func loads(_ setup: PangoSetup, _ body: () -> Void) -> Int {
        let before = setup.fontLoads
        body()
        return setup.fontLoads - before
    }

    @Test func onlyANameNoFaceHasAndNoRuleNamesIsUnknown() {
        let unknown = UnknownFamilies.of(.system)
        #expect(unknown.standIn == UnknownFamilies.standInName)
        #expect(unknown.contains("NoSuchFamily42"))
        #expect(unknown.contains("No Such Family"))
        // Installed (any case, any spacing), fontconfig's aliases and generic names, and names
        // that are not printable ASCII are not.
        for known in [
            "Inter", "inter", "DejaVuSans", "Noto Sans CJK KR", "Helvetica", "Arial", "Times", "Courier", "sans-serif",
            "monospace", "Sans", "emoji", "Ünknown", "",
        ] {
            #expect(!unknown.contains(known), "\(known)")
        }
    }

    @Test func theAskedListLeavesOutUnknownFamiliesAndKeepsTheFirstPlace() {
        let setup = FontSession().setup
        func asked(_ families: [String]) -> [String] { setup.asked(FontSpec(families: families, size: 10)).families }
        let standIn = UnknownFamilies.standInName
        #expect(asked(["NoSuchA", "Helvetica", "NoSuchB", "Inter"]) == [standIn, "Helvetica", "Inter"])
        #expect(asked(["Inter", "NoSuchA", "Noto Sans CJK KR"]) == ["Inter", "Noto Sans CJK KR"])
        #expect(asked(["NoSuchA", "NoSuchB"]) == [standIn])
        #expect(asked(["Inter", "Noto Sans CJK KR"]) == ["Inter", "Noto Sans CJK KR"])
    }

    @Test func requestsForDifferentUnknownFamiliesShareOneFontLoad() {
        let session = FontSession()
        let shaper = PangoShaper(session: session)
        let setup = session.setup
        // A size no other test uses, so the first request is cold.
        func spec(_ family: String) -> FontSpec {
            FontSpec(families: [family, "Noto Sans CJK KR"], weight: .medium, size: 12.345)
        }
        let first = loads(setup) {
            _ = shaper.metrics(of: spec("No Such Family A"))
            _ = FontLibrary.resolve(spec("No Such Family A"), in: session)
            _ = shaper.shape(Support.paragraph("Typeset 한글", RunStyle(font: spec("No Such Family A"))), width: 200)
        }
        #expect(first >= 1, "the first unknown family loads its faces")
        for other in ["No Such Family B", "NoSuchFamily-C", "zzz"] {
            let again = loads(setup) {
                _ = shaper.metrics(of: spec(other))
                let resolved = FontLibrary.resolve(spec(other), in: session)
                #expect(!resolved.familyFound && resolved.requestedFamily == other)
                _ = shaper.shape(Support.paragraph("Typeset 한글", RunStyle(font: spec(other))), width: 200)
            }
            #expect(again == 0, "\(other): nothing new is loaded")
        }
    }

    /// The family of the face Pango gives each character of `text` in `description`.
    private func faces(_ text: String, _ description: FontDescription, in setup: PangoSetup) -> [String] {
        let attributes = AttrList()
        attributes.insert(pango_attr_font_desc_new(description.pointer), 0, text.utf8.count)
        let items = pango_itemize(setup.context.opaque, text, 0, Int32(text.utf8.count), attributes.pointer, nil)
        defer {
            var node = items
            while let current = node {
                pango_item_free(current.pointee.data.assumingMemoryBound(to: PangoItem.self))
                node = current.pointee.next
            }
            g_list_free(items)
        }
        var result: [String] = []
        var node = items
        while let current = node {
            let item = current.pointee.data.assumingMemoryBound(to: PangoItem.self)
            let family = item.pointee.analysis.font.map { FaceDescription(font: $0).family } ?? ""
            result += Array(repeating: family, count: Int(item.pointee.num_chars))
            node = current.pointee.next
        }
        return result
    }

    @Test func theStandInGetsTheFacesTheUnknownFamilyGets() {
        let setup = FontSession().setup
        // Latin, Hangul, Arabic, mathematical and other symbols: each from the face the list's
        // fallbacks give it.
        let text = "Typeset 한글 سلام ∑∫ ☃ ₿ Ω"
        for (families, weight, italic) in [
            (["Unheard Of", "Noto Sans CJK KR"], FontWeight.regular, false),
            (["Unheard Of"], .bold, false),
            (["Inter", "Unheard Of", "Noto Sans CJK KR"], .regular, true),
            (["Unheard Of", "Also Unheard Of", "DejaVu Serif"], .semibold, false),
        ] {
            let font = FontSpec(families: families, weight: weight, italic: italic, size: 10.5)
            let written = FontDescription(
                families: families, weight: weight, italic: italic, size: 10.5, in: setup.configuration)
            #expect(
                faces(text, setup.description(font), in: setup) == faces(text, written, in: setup),
                "\(families): every character set in the same face")
            // The first family alone, which line metrics are measured with.
            let alone = FontDescription(
                families: [families[0]], weight: weight, italic: italic, size: 10.5, in: setup.configuration)
            let primary = setup.primaryFace(font).map { FaceDescription(font: $0.typed(PangoFont.self)) }
            let written1 = setup.loadFont(alone).map { FaceDescription(font: $0.typed(PangoFont.self)) }
            #expect(primary?.family == written1?.family && primary?.weight == written1?.weight, "\(families)")
        }
    }
}
