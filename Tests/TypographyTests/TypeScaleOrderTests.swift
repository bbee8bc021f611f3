import Foundation
import Testing

@testable import Typography

/// The order a type scale keeps: headings largest first, then the text sizes (SubTitle,
/// Headline, Body) in any order, then the captions largest first. Apple's and Material's scales
/// pass; a heading below a text size, a caption above one or headings out of order are named.
@Suite struct TypeScaleOrderTests {
    /// The warnings of importing typography tokens of `sizes` (role name → pt), each with a
    /// line height of 1.25.
    static func warnings(_ sizes: [(String, Double)]) throws -> [String] {
        let tokens = sizes.map { name, size in
            "\"\(name)\": { \"$type\": \"typography\", \"$value\": { \"fontFamily\": \"Inter\", "
                + "\"fontSize\": \"\(size)px\", \"lineHeight\": 1.25 } }"
        }
        let json = "{ \"typography\": {\n" + tokens.joined(separator: ",\n") + "\n} }"
        return try TokenImporter.importTokens(Data(json.utf8), file: "t.json").warnings
    }

    /// Apple's HIG iOS text styles at the Large size (Subheadline 15 pt below Headline and Body
    /// 17 pt), Material 3's type scale as the built-in guess maps it, and Material 2's
    /// subtitle beside its body: no warning about the order.
    @Test(
        arguments: [
            [
                ("display", 48), ("large-title", 34), ("title", 28), ("title2", 22), ("title3", 20),
                ("subheadline", 15), ("headline", 17), ("body", 17), ("caption1", 12), ("caption2", 11),
            ],
            [
                ("display-large", 57), ("display-medium", 45), ("headline-large", 32), ("headline-medium", 28),
                ("headline-small", 24), ("title-large", 22), ("title-medium", 16), ("body-large", 16),
                ("body-small", 12), ("label-small", 11),
            ],
            [
                ("display", 96), ("large-title", 60), ("title", 48), ("title2", 34), ("title3", 24), ("subtitle", 16),
                ("headline", 20), ("body", 16), ("caption", 12), ("caption2", 10),
            ],
        ] as [[(String, Double)]])
    func commonScalesAreInOrder(sizes: [(String, Double)]) throws {
        let found = try Self.warnings(sizes)
        #expect(!found.contains { $0.contains("out of order") }, "\(found)")
    }

    /// Real inversions are still named, each pair, at the token set larger.
    @Test func inversionsAreNamed() throws {
        let base: [(String, Double)] = [
            ("display", 48), ("large-title", 34), ("title", 28), ("title2", 22), ("title3", 20),
            ("subtitle", 15), ("headline", 17), ("body", 17), ("caption", 12), ("caption2", 11),
        ]
        func order(_ changes: [String: Double]) throws -> String? {
            try Self.warnings(base.map { ($0.0, changes[$0.0] ?? $0.1) }).first { $0.contains("out of order") }
        }
        let titleBelowBody = try #require(try order(["title": 14, "title2": 13, "title3": 12]))
        #expect(titleBelowBody.contains("Title3 (12 pt) is smaller than Body (17 pt)"), "\(titleBelowBody)")
        #expect(titleBelowBody.contains("Title3 (12 pt) is smaller than SubTitle (15 pt)"), "\(titleBelowBody)")
        let captionAboveBody = try #require(try order(["caption": 18]))
        #expect(captionAboveBody.contains("Body (17 pt) is smaller than Caption (18 pt)"), "\(captionAboveBody)")
        #expect(captionAboveBody.contains("SubTitle (15 pt) is smaller than Caption (18 pt)"), "\(captionAboveBody)")
        // Placed at the token set larger: Caption, the ninth token (line 10 of the file).
        #expect(captionAboveBody.hasPrefix("t.json:10:"), "\(captionAboveBody)")
        let headings = try #require(try order(["title2": 30]))
        #expect(headings.contains("Title (28 pt) is smaller than Title2 (30 pt)"), "\(headings)")
        let captions = try #require(try order(["caption2": 13]))
        #expect(captions.contains("Caption (12 pt) is smaller than Caption2 (13 pt)"), "\(captions)")
        #expect(try order([:]) == nil)
    }
}
