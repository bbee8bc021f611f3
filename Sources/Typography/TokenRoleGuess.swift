/// The built-in guess of a role from the names design systems give their text styles, used by
/// ``TokenImporter`` when a token's name is no role name and no mapping names it. Every guess is
/// reported in one warning (which scheme, which token, which role), never applied silently.
///
/// Sources: Material Design 3 type scale (m3.material.io, "Type scale tokens":
/// display/headline/title/body/label × large/medium/small), IBM Carbon type tokens
/// (carbondesignsystem.com, "Typography: type sets": `heading-01`…`07`, `body-01`/`02`,
/// `caption-01`, `label-01`), Apple Human Interface Guidelines text styles (`largeTitle`,
/// `title1`…`title3`, `headline`, `subheadline`, `body`, `caption1`/`2`).
public enum TokenRoleGuess {
    /// A naming scheme the guess knows.
    public enum Scheme: String, Sendable {
        /// Material Design 3: `display-large` … `label-small`.
        case material3 = "Material 3"
        /// IBM Carbon: `heading-01` … `heading-07`, `body-01`, `caption-01`, `label-01`.
        case carbon = "Carbon"
    }

    /// Material 3's fifteen styles onto the ten roles, largest first, so that the default
    /// Material scale (57, 45, 32, 28, 24, 22, 16, 16, 12, 11 px) keeps its order:
    /// `display-large` → Display, `display-medium` → LargeTitle, `headline-large` → Title,
    /// `headline-medium` → Title2, `headline-small` → Title3, `title-large` → SubTitle,
    /// `title-medium` → Headline, `body-large` → Body, `body-small` → Caption,
    /// `label-small` → Caption2. `display-small`, `title-small`, `body-medium`, `label-large`
    /// and `label-medium` have no role of their own: a mapping gives them one.
    public static let material3: [String: TextRole] = [
        "displaylarge": .display, "displaymedium": .largeTitle, "headlinelarge": .title,
        "headlinemedium": .title2, "headlinesmall": .title3, "titlelarge": .subTitle, "titlemedium": .headline,
        "bodylarge": .body, "bodysmall": .caption, "labelsmall": .caption2,
    ]

    /// Carbon's type tokens onto the roles (a `productive-` or `expressive-` prefix is ignored):
    /// `heading-07` → Display, `heading-06` → LargeTitle, `heading-05` → Title,
    /// `heading-04` → Title2, `heading-03` → Title3, `heading-02` → SubTitle,
    /// `heading-01` → Headline, `body-01` (or `body-compact-01`) → Body, `caption-01` → Caption,
    /// `label-01` → Caption2.
    public static let carbon: [String: TextRole] = [
        "heading07": .display, "heading06": .largeTitle, "heading05": .title, "heading04": .title2,
        "heading03": .title3, "heading02": .subTitle, "heading01": .headline, "body01": .body,
        "bodycompact01": .body, "caption01": .caption, "label01": .caption2,
    ]

    /// The role and scheme a token name (one path component) is guessed to mean, or nil.
    public static func guess(_ name: String) -> (role: TextRole, scheme: Scheme)? {
        var key = TextRole.normalizedKey(name)
        if let role = material3[key] { return (role, .material3) }
        for prefix in ["productive", "expressive", "fluid"] where key.hasPrefix(prefix) {
            key.removeFirst(prefix.count)
        }
        if let role = carbon[key] { return (role, .carbon) }
        return nil
    }

    /// Whether `name` is one of the Material 3 or Carbon style names, whether or not it has a role
    /// (`title-small` is one, without a role): such a token is a text style, not a font property.
    static func isStyleName(_ name: String) -> Bool {
        let key = TextRole.normalizedKey(name)
        let sizes = ["large", "medium", "small"]
        let material = ["display", "headline", "title", "body", "label"].contains { style in
            sizes.contains { key == style + $0 }
        }
        return material || guess(name) != nil
    }
}
