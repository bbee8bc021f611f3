import DocumentModel
import Testing

@testable import MarkdownParser

/// The language a document's letters are written in, for a document that names none: Korean
/// where Hangul carries at least as much text as Latin letters (a syllable counted as three),
/// Japanese where kana do and there is no Hangul, else none.
@Suite struct TextLanguageTests {
    @Test(arguments: [
        ("이 문서는 한국어로 쓰였습니다.", "ko"),
        ("`MANWIDTH`를 설정하면 `man --help`의 출력 폭이 바뀝니다. 장치 /dev/ttyS1을 엽니다.", "ko"),
        ("English text quoting one Korean word, 한국어, in passing.", nil),
        ("この文書は日本語で書かれています。", "ja"),
        ("漢字だけでなく、ひらがなも使います。", "ja"),
        ("中文文本没有假名。", nil),
        ("", nil),
        ("Plain English only.", nil),
    ])
    func theTextsLettersNameItsLanguage(_ text: String, _ language: String?) {
        #expect(TextLanguage.inferred(from: text.utf8) == language, "\(text)")
    }

    /// The parser records it on the document from its prose, front matter or not; the front
    /// matter's `lang` is kept as written beside it. Addresses, code and markup, Latin in any
    /// language, do not count: a Korean README of links, images and commands is Korean.
    @Test func theParserRecordsItFromTheProse() {
        let parsed = MarkdownParser.parse("---\nlang: en\n---\n\n# 시작하기\n\n한국어 문장입니다.\n", file: "t.md")
        #expect(parsed.document.textLanguage == "ko")
        #expect(parsed.document.metadata.lang == "en")
        let readme = """
            [**한국어**](/packages/pretendard/README.md) | [English](/packages/pretendard/docs/en/README.md)

            ![Thumbnail](https://raw.githubusercontent.com/orioncactus/pretendard/main/images/thumbnail.svg)

            프리텐다드는 시스템 글꼴을 대체하는 글꼴입니다. 설치는 아래 명령으로 합니다.

            ```sh
            npm install --save-dev pretendard-variable-dynamic-subset-webfont-package
            ```

            자세한 내용은 `<link rel="stylesheet" href="https://cdn.jsdelivr.net/pretendard.css">`을 보세요.
            """
        #expect(MarkdownParser.parse(readme, file: "README.md").document.textLanguage == "ko")
    }
}
