import Testing

@testable import PangoCairoBackend

/// The language tags whose runs set Korean marks in the Korean face (``KoreanSymbols``).
@Suite struct KoreanSymbolsTests {
    /// Korean whatever its case, region or separator; other languages, and tags that only
    /// begin like Korean, are not.
    @Test func koreanTagsAreReadByTheirPrimarySubtag() {
        for tag in ["ko", "KO", "Ko-KR", "ko_KR", "kor", "KOR-Hang", "ko-Kore-KR"] {
            #expect(KoreanSymbols.isKorean(tag), "\(tag)")
        }
        for tag in [nil, "", "k", "kok", "kore", "korean", "en", "ja-KR", "zh-Hant", "-ko", "ko\u{0}"] as [String?] {
            #expect(!KoreanSymbols.isKorean(tag), "\(tag ?? "nil")")
        }
    }
}
