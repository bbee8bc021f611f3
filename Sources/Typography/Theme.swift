/// A design system's typography: the ten role styles, named colours, the page, and the
/// monospaced family used for code. A value type; ``Theme/default`` is the built-in print theme.
public struct Theme: Hashable, Sendable {
    /// Human-readable name, e.g. `default`, `hig`, `pretendard`.
    public var name: String
    /// Named family fallback lists, e.g. `"sans": ["Inter", "Noto Sans CJK KR"]`.
    public var families: [String: [String]]
    /// One style per role; every role is present.
    public var styles: [TextRole: TextStyle]
    /// Family fallback list for inline and block code.
    public var monospaceFamilies: [String]
    /// Named colours (`text`, `secondary`, `accent`, `link`, `rule`, `codeBackground`, …).
    public var colors: [String: RGBAColor]
    /// Paper, margins and block spacing.
    public var page: PageSetup
    /// Folders whose font files are registered before layout (fontconfig application fonts).
    public var fontFolders: [String]
    /// Notes a theme carries for the user (e.g. "Pretendard not installed; using Inter").
    public var notes: [String]
    /// Size adjustment to apply when a role's primary family is swapped to the keyed family
    /// (e.g. −2 pt for a family that looks larger), used by ``swappingFamily(to:)``. Theme files:
    /// `sizeAdjust`.
    public var sizeAdjustments: [String: SizeAdjust]
    /// Set by ``applyingBoldText(availableWeights:)``: the real weights of each family the theme
    /// uses, so runs made heavier inside a role move up too (``boldTextWeight(_:families:)``);
    /// nil without Bold Text.
    public var boldTextWeights: [String: [FontWeight]]?
    /// The colours of highlighted code (theme files: `code`); ``CodeStyle/light`` by default.
    public var code: CodeStyle = .light
    /// Font expansion of justified text (theme files: `fontExpansion`, in percent, or `false`):
    /// the most a line's glyphs may be widened or narrowed, as a fraction of their width
    /// (0.02: ±2 %, microtype's `stretch=20, shrink=20`); 0 turns it off. Never applied to
    /// code, nor to the Display, LargeTitle and Title roles.
    public var fontExpansion: Double = 0.02

    /// Every parameter as the stored property of the same name; `sizeAdjustments` was added later
    /// and defaults to none.
    public init(
        name: String, families: [String: [String]], styles: [TextRole: TextStyle],
        monospaceFamilies: [String], colors: [String: RGBAColor], page: PageSetup = PageSetup(),
        fontFolders: [String] = [], notes: [String] = [], sizeAdjustments: [String: SizeAdjust] = [:]
    ) {
        self.name = name
        self.families = families
        self.styles = styles
        self.monospaceFamilies = monospaceFamilies
        self.colors = colors
        self.page = page
        self.fontFolders = fontFolders
        self.notes = notes
        self.sizeAdjustments = sizeAdjustments
    }

    /// Every family name the theme refers to — role fallback lists, the named ``families`` lists
    /// and ``monospaceFamilies`` — each once, in first-use order (roles largest first). For the
    /// caller to check against fontconfig ("unknown family" needs the font system).
    public var familyNames: [String] {
        var seen = Set<String>()
        var names: [String] = []
        func add(_ list: [String]) { for f in list where seen.insert(f).inserted { names.append(f) } }
        for role in TextRole.allCases { add(self[role].families) }
        for key in families.keys.sorted() { add(families[key]!) }
        add(monospaceFamilies)
        return names
    }

    /// The style of `role`; falls back to the default theme's when a theme lacks it.
    public subscript(role: TextRole) -> TextStyle {
        styles[role] ?? Theme.default.styles[role]!
    }

    /// The named colour, or nil.
    public func color(named name: String) -> RGBAColor? {
        if let color = colors[name] { return color }
        // A design token's whole path (`color.brand.500`) names the colour its group's name does.
        guard let dot = name.firstIndex(of: "."),
            Self.colorGroups.contains(TextRole.normalizedKey(String(name[..<dot])))
        else { return nil }
        return colors[String(name[name.index(after: dot)...])]
    }

    /// The names of the design-token group that holds colours (DTCG and Style Dictionary's
    /// `color`, Tokens Studio's `colors`), as ``TextRole/normalizedKey(_:)`` writes them.
    static let colorGroups: Set<String> = ["color", "colors"]

    /// Text colour (the `text` colour, black when absent).
    public var textColor: RGBAColor { colors["text"] ?? .black }
}

extension Theme {
    static let sans = ["Inter", "Noto Sans CJK KR"]
    /// Margins for the 16–17 pt Body of ``hig`` and ``pretendard``: a 515 pt measure on A4.
    static let wideMeasureMargins = Margins(top: 56, right: 40, bottom: 64, left: 40)
    static let mono = ["DejaVu Sans Mono", "Noto Sans Mono CJK KR"]

    /// The built-in print theme: Inter with Noto Sans CJK KR for Hangul, Body 10.5 pt with a
    /// 1.3 × natural step (about 16.5 pt, a comfortable 1.57 × size), the other roles on a
    /// major-second/perfect-fourth scale. A4 with a measure of 66 characters of Body text
    /// (Bringhurst's ideal in his 45–75), the margins following from paper and measure
    /// (``PageSetup/fittingMeasure(characterWidth:)``): on A4 about 327 pt, near the 345 pt
    /// LaTeX's `article` class sets at 10 pt.
    public static let `default`: Theme = {
        func style(
            _ size: Double, _ weight: FontWeight, _ lineHeight: Double, tracking: Double? = nil,
            relativeTo: DynamicTypeStyle?
        ) -> TextStyle {
            TextStyle(
                families: sans, weight: weight, size: size, lineHeight: .multiple(lineHeight),
                tracking: tracking.map { .points($0) }, relativeTo: relativeTo)
        }
        return Theme(
            name: "default",
            families: ["sans": sans, "mono": mono],
            styles: [
                .display: style(40, .bold, 1.0, tracking: -0.8, relativeTo: .largeTitle),
                .largeTitle: style(28, .bold, 1.05, tracking: -0.4, relativeTo: .largeTitle),
                .title: style(20, .bold, 1.1, tracking: -0.2, relativeTo: .title),
                .title2: style(17, .semibold, 1.1, tracking: -0.1, relativeTo: .title2),
                .title3: style(14, .semibold, 1.15, relativeTo: .title3),
                .subTitle: style(12.5, .semibold, 1.2, relativeTo: .subheadline),
                .headline: style(11, .semibold, 1.25, relativeTo: .headline),
                .body: style(10.5, .regular, 1.3, relativeTo: .body),
                .caption: style(9, .regular, 1.25, relativeTo: .caption),
                .caption2: style(8, .medium, 1.25, tracking: 0.1, relativeTo: .caption2),
            ],
            monospaceFamilies: mono,
            colors: [
                "text": RGBAColor(hex: "#1A1A1F")!, "secondary": RGBAColor(hex: "#5C5F66")!,
                "accent": RGBAColor(hex: "#2F5BD3")!, "link": RGBAColor(hex: "#2350C4")!,
                "rule": RGBAColor(hex: "#C9CCD3")!, "codeBackground": RGBAColor(hex: "#F3F4F7")!,
                "quote": RGBAColor(hex: "#8A8F99")!,
            ],
            page: PageSetup(
                margins: PageSetup.defaultA4Margins, measureCharacters: PageSetup.defaultMeasureCharacters))
    }()
}
