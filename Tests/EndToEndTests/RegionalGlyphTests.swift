import Foundation
import TestSupport
import Testing
import Typesetter

/// Han characters take the forms of the text's language: the theme's pan-CJK face (Noto Sans
/// CJK KR) sets Japanese forms for `lang: ja` and simplified Chinese forms for `zh-Hans`
/// through its OpenType `locl` feature, as a browser does for `lang="ja"`. Read from the pixels
/// of one line of characters whose forms differ (刃 令 骨 海 直): Japanese, simplified and
/// traditional Chinese each differ from Korean, and a document with no language keeps the
/// forms it had (the theme's face's own, Korean).
@Suite struct RegionalGlyphTests {
    static let line = "刃 令 骨 海 直 写 角\n"

    static func picture(_ markdown: String, name: String) throws -> [UInt8] {
        let (pdf, _) = try Render.markdown(markdown, name: "regional-\(name)")
        return try PDFProbe.greyImage(pdf, page: 1, dpi: 100, crop: ["-x", "0", "-y", "0", "-W", "827", "-H", "200"])
            .samples
    }

    @Test func hanCharactersTakeTheirLanguagesForms() throws {
        let korean = try Self.picture("---\nlang: ko\n---\n\n" + Self.line, name: "ko")
        let none = try Self.picture(Self.line, name: "none")
        let japanese = try Self.picture("---\nlang: ja\n---\n\n" + Self.line, name: "ja")
        let simplified = try Self.picture("[\(Self.line.dropLast())]{lang=zh-Hans}\n", name: "zh-hans")
        let traditional = try Self.picture("---\nlang: zh-TW\n---\n\n" + Self.line, name: "zh-tw")
        #expect(none == korean)
        #expect(japanese != korean)
        #expect(simplified != korean && simplified != japanese)
        #expect(traditional != korean && traditional != simplified)
    }
}
