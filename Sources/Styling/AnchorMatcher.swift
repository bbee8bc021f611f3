import Foundation

/// Resolves the fragment of an internal link (`#Heading Text`, `#heading-text`,
/// `#Usage%20Notes`) to a destination of the document the way GitHub's Markdown renderer
/// does: percent-escapes decoded, Unicode normalized (NFC), then compared as written, without
/// regard to case, and as a heading slug (lower case, punctuation dropped, spaces to hyphens —
/// the rule ``SlugGenerator`` gives headings), then as that slug with runs of hyphens made one,
/// then as Pandoc's identifier of the same text (that slug from its first letter on:
/// `# 2024 Results & Discussion` is `#results-discussion` in Pandoc's `auto_identifiers`).
public struct AnchorMatcher: Sendable {
    /// Destinations by normalized form; the first destination wins a tie.
    private var byKey: [String: String] = [:]

    /// A matcher over `anchors`, the document's destinations.
    public init(anchors: Set<String>) {
        for anchor in anchors.sorted() {
            for key in Self.keys(anchor) where byKey[key] == nil { byKey[key] = anchor }
        }
    }

    /// The destination `fragment` names, nil when none does. GitHub writes every id of a
    /// rendered README with `user-content-` before it (a heading's `user-content-install`, a
    /// note's `user-content-fn-1`), so a link written to that element names the destination
    /// after the prefix.
    public func match(_ fragment: String) -> String? {
        for key in Self.keys(fragment) { if let found = byKey[key] { return found } }
        let prefix = "user-content-"
        guard fragment.count > prefix.count, fragment.lowercased().hasPrefix(prefix) else { return nil }
        return match(String(fragment.dropFirst(prefix.count)))
    }

    /// The forms a fragment is compared in, strictest first.
    static func keys(_ text: String) -> [String] {
        let decoded = (text.removingPercentEncoding ?? text).precomposedStringWithCanonicalMapping
        let lower = decoded.lowercased()
        var slugs = SlugGenerator()
        let slug = slugs.slug(for: decoded.trimmingCharacters(in: .whitespaces))
        let collapsed = Self.collapsingHyphens(slug)
        let pandoc = String(collapsed.drop { !$0.isLetter })
        return [decoded, lower, slug, collapsed] + (pandoc.isEmpty ? [] : [pandoc])
    }

    /// `slug` with each run of hyphens one hyphen: the loosest form, in which GitHub's id of a
    /// heading written with `--` or `---` (`## Install -- Linux`, `#install----linux`) meets
    /// the id of the same heading set with smart punctuation, whose dash is no letter
    /// (`install--linux`).
    static func collapsingHyphens(_ slug: String) -> String {
        var collapsed = ""
        var previous: Character?
        for character in slug where !(character == "-" && previous == "-") {
            collapsed.append(character)
            previous = character
        }
        return collapsed
    }
}
