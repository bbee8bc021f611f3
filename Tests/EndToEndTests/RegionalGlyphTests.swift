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

    /// The face each character of `pdf`'s first page is drawn in, as poppler's `pdftohtml -xml`
    /// names it (the subset tag dropped: `Inter`, `NotoSansCJKkr`).
    static func faces(_ pdf: String) throws -> [Character: String] {
        let xml = try PDFProbe.run("pdftohtml", ["-xml", "-i", "-stdout", "-q", "-f", "1", "-l", "1", pdf]).output
        var families: [String: String] = [:]
        var faces: [Character: String] = [:]
        for line in xml.split(separator: "\n") {
            if line.contains("<fontspec "), let id = PDFColoredText.attribute("id", line),
                let family = PDFColoredText.attribute("family", line)
            {
                families[id] = String(family.split(separator: "+").last ?? "")
            } else if line.hasPrefix("<text "), let font = PDFColoredText.attribute("font", line),
                let open = line.firstIndex(of: ">"), let close = line.range(of: "</text>", options: .backwards)
            {
                for character in line[line.index(after: open)..<close.lowerBound] where faces[character] == nil {
                    faces[character] = families[font]
                }
            }
        }
        return faces
    }

    /// In Korean text, the marks Korean writing uses — the reference mark, geometric shapes,
    /// enclosed numbers and letters, symbols — are drawn in the Korean face, full-width, though
    /// the Latin face before it in the theme's list has some of them (Inter's ※ ○ ● □ ■ △ ①);
    /// in a run marked Korean inside English text too. In English text they stay in the Latin
    /// face, and so do Korean text's letters, digits and punctuation.
    @Test func koreanMarksAreSetInTheKoreanFace() throws {
        let marks = "※ ○ ● □ ■ △ ▲ ◇ ◎ ① ⑩ ☆ ★ ㉠"
        let line = "\(marks) 참고: 항목 A1, B2."
        let (korean, _) = try Render.markdown("---\nlang: ko\n---\n\n\(line)\n", name: "korean-marks-ko")
        let (span, _) = try Render.markdown("English, then [\(line)]{lang=ko}.\n", name: "korean-marks-span")
        let (english, _) = try Render.markdown("---\nlang: en\n---\n\n\(line)\n", name: "korean-marks-en")
        for pdf in [korean, span] {
            let faces = try Self.faces(pdf)
            for mark in marks where mark != " " {
                #expect(faces[mark] == "NotoSansCJKkr", "\(mark): \(faces[mark] ?? "none")")
            }
            for latin in "AB12,:." { #expect(faces[latin] == "Inter", "\(latin): \(faces[latin] ?? "none")") }
        }
        let faces = try Self.faces(english)
        for mark in "※○●□■△①" { #expect(faces[mark] == "Inter", "English text: \(mark)") }
    }
}
