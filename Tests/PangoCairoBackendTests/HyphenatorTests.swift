import PangoCairoBackend
import Testing

/// libhyphen's points through ``Hyphenator``: German's patterns name NOHYPHEN strings (`-`,
/// `,`, `'`), which libhyphen finds with `strstr` in the word as a C string, so these words
/// reach the code that reads the word past its length unless it ends in a NUL. Run under
/// Address Sanitizer by `make asan`, where a read or write past the word fails at once.
@Suite struct HyphenatorTests {
    /// Words holding German's NOHYPHEN strings, of every length libhyphen is given (2 … 255
    /// bytes): each point lies inside the word.
    @Test(arguments: ["de", "de-CH"])
    func wordsOfEveryLengthGivePointsInside(language: String) throws {
        try #require(Hyphenator.hasPatterns(for: language))
        let parts = ["donau", "dampf", "schiff", "fahrt", "gesellschaft", "kapitän"]
        let joiners = ["-", ",", "'", ""]
        var hyphenated = 0
        for length in 2...255 {
            var word = ""
            var index = 0
            while word.utf8.count < length {
                word += parts[index % parts.count] + joiners[(index / parts.count + length) % joiners.count]
                index += 1
            }
            while word.utf8.count > length { word.removeLast() }
            let count = word.unicodeScalars.count
            let points = Hyphenator.points(in: word, language: language)
            #expect(points.allSatisfy { $0 > 0 && $0 < count }, "\(word): \(points)")
            if !points.isEmpty { hyphenated += 1 }
        }
        #expect(hyphenated > 200)
    }

    /// The word alone decides its points: the same word gives the same points whatever was
    /// asked before it (a read past the word would see what the last word left there).
    @Test func pointsDependOnTheWordAlone() {
        let word = "donaudampfschifffahrtsgesellschaft"
        let first = Hyphenator.points(in: word, language: "de")
        #expect(!first.isEmpty)
        for other in ["x-y", "a,b,c", "d'e", String(repeating: "-", count: 200)] {
            _ = Hyphenator.points(in: other, language: "de")
            #expect(Hyphenator.points(in: word, language: "de") == first)
        }
    }
}
