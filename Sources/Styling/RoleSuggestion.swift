import DocumentModel
import Typography

/// The near misses of a class name: a class Typeset does not know styles nothing and is
/// silent, as in Pandoc (`::: warning`, `[x]{.note}`), except one written within one edit of a
/// role or Pandoc class name, which is taken for a typo (`.headlin`).
enum RoleSuggestion {
    /// The role (its display name) or Pandoc class one edit from `name`, compared case- and
    /// separator-insensitively; nil when none is, or `name` has fewer than four letters and digits.
    static func near(_ name: String) -> String? {
        let key = TextRole.normalizedKey(name)
        guard key.count >= 4 else { return nil }
        if let role = TextRole.allCases.first(where: {
            EditDistance.withinOne(key, TextRole.normalizedKey($0.displayName))
        }) {
            return role.rawValue
        }
        return StyleOverrides.pandocClasses.sorted().first { EditDistance.withinOne(key, $0) }
    }
}
