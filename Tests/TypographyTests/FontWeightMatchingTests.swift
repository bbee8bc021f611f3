import Testing

@testable import Typography

/// A weight no face has is drawn with the face CSS's matching picks (CSS Fonts 4 §5.2), and the
/// SwiftUI export names that weight: the PDF drew 550 with a 500 face (fontconfig's nearest
/// takes the lighter of two equally near) and the export wrote 350 as `.regular`, while a
/// browser draws 550 at 600 and 350 at 300.
@Suite struct FontWeightMatchingTests {
    @Test(arguments: [
        (550, [400, 500, 600, 700], 600), (450, [400, 500, 600], 500), (450, [300, 400, 700], 400),
        (350, [300, 400], 300), (250, [300, 400], 300), (650, [400, 600, 700], 700), (650, [400, 600], 600),
        (500, [400, 700], 400), (600, [400, 700], 700), (400, [400], 400), (420, [], 420),
    ])
    func aWeightIsMatchedAsCSSMatchesIt(_ asked: Int, _ faces: [Int], _ drawn: Int) {
        #expect(FontWeight(asked).matchingCSS(among: faces.map { FontWeight($0) }).rawValue == drawn)
    }

    @Test func theSwiftUIExportNamesTheWeightCSSDraws() {
        let names = [350: ".light", 550: ".semibold", 250: ".thin", 450: ".medium", 650: ".bold", 400: ".regular"]
        for (weight, name) in names {
            #expect(ThemeExport.swiftWeight(FontWeight(weight)) == name, "\(weight)")
        }
    }
}
