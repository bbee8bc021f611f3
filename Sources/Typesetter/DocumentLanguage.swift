extension FrontMatterSettings {
    /// The document language for the PDF's `/Lang` (a BCP 47 tag, RFC 5646): front matter
    /// `lang` when it is well formed (letters, digits and hyphens, starting with a 2–8 letter
    /// primary subtag), else `en`.
    static func language(_ lang: String?) -> String {
        guard let tag = lang?.trimmingCharacters(in: .whitespaces), isLanguageTag(tag) else { return "en" }
        return tag
    }

    /// Whether `tag` has the shape of a BCP 47 language tag (RFC 5646 §2.1): subtags of 1–8
    /// ASCII letters or digits joined by hyphens, the first 2–8 letters.
    static func isLanguageTag(_ tag: String) -> Bool {
        let subtags = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard let primary = subtags.first, (2...8).contains(primary.count),
              primary.allSatisfy({ $0.isASCII && $0.isLetter }) else { return false }
        return subtags.allSatisfy { (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
    }
}
