/// The ten roles of a design system's type scale, largest first.
///
/// A design system's scale (Display … Caption2; README, first section), modelled on Apple's HIG
/// text styles. Heading levels map onto roles as ``TextRole/forHeading(level:)`` documents.
public enum TextRole: String, CaseIterable, Sendable, Hashable, Codable, Comparable {
    /// The roles, largest first.
    case display, largeTitle, title, title2, title3, subTitle, headline, body, caption, caption2

    /// The role's name as design teams write it: `Display`, `LargeTitle`, … `Caption2`.
    public var displayName: String {
        switch self {
        case .display: "Display"
        case .largeTitle: "LargeTitle"
        case .title: "Title"
        case .title2: "Title2"
        case .title3: "Title3"
        case .subTitle: "SubTitle"
        case .headline: "Headline"
        case .body: "Body"
        case .caption: "Caption"
        case .caption2: "Caption2"
        }
    }

    /// Reads a role name case- and separator-insensitively: `largeTitle`, `large-title`,
    /// `Large Title` and `LARGE_TITLE` all name ``largeTitle``; `subtitle` names ``subTitle``.
    /// Returns nil for anything else.
    public init?(name: String) {
        let key = TextRole.normalizedKey(name)
        guard let role = TextRole.allCases.first(where: { TextRole.normalizedKey($0.rawValue) == key })
        else { return nil }
        self = role
    }

    /// Lower-cased letters and digits only: the form names are compared in.
    public static func normalizedKey(_ name: String) -> String {
        String(name.lowercased().filter { $0.isLetter || $0.isNumber })
    }

    /// The role a Markdown heading of `level` (1–6) takes, as design systems modelled on the HIG map them:
    /// h1 → LargeTitle, h2 → Title, h3 → Title3, h4 → Headline, h5 → Body, h6 → Caption.
    public static func forHeading(level: Int) -> TextRole {
        switch level {
        case ...1: .largeTitle
        case 2: .title
        case 3: .title3
        case 4: .headline
        case 5: .body
        default: .caption
        }
    }

    /// Scale order: ``display`` is the smallest index (first), ``caption2`` the last.
    public static func < (lhs: TextRole, rhs: TextRole) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

extension TextRole {
    /// The order a type scale keeps, in words, for messages.
    public static let scaleOrderRule =
        "Display … Title3 run largest first, then SubTitle, Headline and Body in any order, then Caption and "
        + "Caption2 largest first"

    /// The roles whose sizes a design system orders freely among themselves: the text sizes
    /// between the headings and the captions. Apple's HIG sets Subheadline (15 pt) below
    /// Headline and Body (17 pt); Material Design's subtitles sit beside its body sizes.
    public static let textSizes: [TextRole] = [.subTitle, .headline, .body]

    /// The pairs of roles out of order by `size`, each the role that should be at least as large
    /// and the one that is larger than it. The headings Display … Title3 run largest first; each
    /// of the text sizes (``textSizes``) is no larger than Title3 and no smaller than Caption;
    /// Caption and Caption2 run largest first. Equal sizes are in order.
    public static func scaleInversions(_ size: (TextRole) -> Double) -> [(smaller: TextRole, larger: TextRole)] {
        var pairs: [(TextRole, TextRole)] = []
        let headings: [TextRole] = [.display, .largeTitle, .title, .title2, .title3]
        pairs += zip(headings, headings.dropFirst()).map { ($0, $1) }
        pairs += textSizes.map { (TextRole.title3, $0) }
        pairs += textSizes.map { ($0, TextRole.caption) }
        pairs.append((.caption, .caption2))
        return pairs.filter { size($0.1) > size($0.0) }.map { (smaller: $0.0, larger: $0.1) }
    }
}
