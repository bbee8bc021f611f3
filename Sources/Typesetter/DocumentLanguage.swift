import DocumentModel

extension FrontMatterSettings {
    /// The document language for the PDF's `/Lang` (a BCP 47 tag, RFC 5646): front matter
    /// `lang` when it is well formed (letters, digits and hyphens, starting with a 2–8 letter
    /// primary subtag), else `en`.
    static func language(_ lang: String?) -> String {
        guard let tag = lang?.trimmingCharacters(in: .whitespaces), isLanguageTag(tag) else { return "en" }
        return tag
    }

    /// Whether `tag` has the shape of a BCP 47 language tag (``LanguageTag/isWellFormed(_:)``).
    static func isLanguageTag(_ tag: String) -> Bool { LanguageTag.isWellFormed(tag) }
}
