extension Theme {
    /// Apple's iOS text styles at the default Large size (HIG Typography › Specifications),
    /// for documents that should read like an iOS screen.
    ///
    /// - Sizes and weights: LargeTitle 34, Title 28, Title2 22, Title3 20 Regular; Headline 17
    ///   Semibold; SubTitle = HIG Subheadline 15, Body 17, Caption 12, Caption2 11 Regular. Display is
    ///   not an Apple style: our step of 48 pt Bold above LargeTitle, line height 58 (LargeTitle's
    ///   41/34 ratio), tracking +1.2 % of the size (LargeTitle's +12/1000 em).
    /// - Line heights: HIG leading as absolute pt (41, 34, 28, 25, 22, 20, 22, 16, 13) — absolute
    ///   because Pango's factor multiplies each font's own natural height (Pango `line_height` attribute).
    /// - Tracking: the SF Pro values the system font applies automatically at those sizes
    ///   (HIG Typography › Specifications, tracking table), which custom fonts do not get.
    /// - `relativeTo`: each role's own Dynamic Type style (Display → largeTitle, SubTitle →
    ///   subheadline); ``Theme/applying(sizeCategory:)`` then reproduces the HIG tables.
    /// - Families: Inter + Noto Sans CJK KR, the free stand-in for SF Pro (SF Pro's licence forbids
    ///   use off Apple platforms; Inter is metrically close and in Debian as `fonts-inter`).
    /// Colours: as ``default``. Page: A4 with 40 pt side margins, so Body's 17 pt still sets
    /// about 64 characters a line. Equal to `templates/themes/hig.json`.
    public static let hig: Theme = {
        func style(
            _ size: Double, _ weight: FontWeight, leading: Double, tracking: LetterSpacing,
            _ relativeTo: DynamicTypeStyle
        ) -> TextStyle {
            TextStyle(
                families: sans, weight: weight, size: size, lineHeight: .absolute(leading),
                tracking: tracking, relativeTo: relativeTo)
        }
        var theme = Theme.default
        theme.name = "hig"
        theme.styles = [
            .display: style(48, .bold, leading: 58, tracking: .percentOfSize(1.2), .largeTitle),
            .largeTitle: style(34, .regular, leading: 41, tracking: .points(0.40), .largeTitle),
            .title: style(28, .regular, leading: 34, tracking: .points(0.38), .title),
            .title2: style(22, .regular, leading: 28, tracking: .points(-0.26), .title2),
            .title3: style(20, .regular, leading: 25, tracking: .points(-0.45), .title3),
            .subTitle: style(15, .regular, leading: 20, tracking: .points(-0.23), .subheadline),
            .headline: style(17, .semibold, leading: 22, tracking: .points(-0.43), .headline),
            .body: style(17, .regular, leading: 22, tracking: .points(-0.43), .body),
            .caption: style(12, .regular, leading: 16, tracking: .points(0), .caption),
            .caption2: style(11, .regular, leading: 13, tracking: .points(0.06), .caption2),
        ]
        theme.page.margins = Theme.wideMeasureMargins
        theme.page.measureCharacters = nil
        theme.notes = [
            "Apple's iOS text styles at the Large size (HIG). SF Pro is not free to use off Apple platforms: Inter "
                + "with Noto Sans CJK KR stands in for it; SF's automatic tracking is written out per role."
        ]
        return theme
    }()

    /// A Pretendard type scale modelled on the HIG's (docs/themes.md).
    ///
    /// - Weights: Display, LargeTitle, Title Bold; Title2, SubTitle
    ///   SemiBold; Title3, Headline, Caption, Caption2 Medium; Body Regular.
    /// - Sizes and line heights: Typeset's scale on the HIG's
    ///   steps: Display 48/60, LargeTitle 34/44, Title 28/36, Title2 22/30, Title3 20/28,
    ///   SubTitle 18/26, Headline 17/24, Body 16/24, Caption 13/18, Caption2 11/16 (size/line
    ///   height in pt, absolute for the reason given in ``hig``); no letter spacing.
    /// - `relativeTo`: as ``hig``.
    /// - Families: `Pretendard, Inter, Noto Sans CJK KR` — Pretendard is built from Inter (Latin)
    ///   and Source Han Sans = Noto Sans CJK (Hangul) (Pretendard's own documentation), so those are what the text
    ///   falls back to when Pretendard is not registered (it is not packaged in Debian).
    /// Colours: as ``default``. Page: A4 with 40 pt side margins (about 64 characters of 16 pt
    /// Body a line). Equal to `templates/themes/pretendard.json`.
    public static let pretendard: Theme = {
        let families = ["Pretendard", "Inter", "Noto Sans CJK KR"]
        func style(_ size: Double, _ weight: FontWeight, _ leading: Double, _ relativeTo: DynamicTypeStyle) -> TextStyle
        {
            TextStyle(
                families: families, weight: weight, size: size, lineHeight: .absolute(leading), relativeTo: relativeTo)
        }
        var theme = Theme.default
        theme.name = "pretendard"
        theme.families["sans"] = families
        theme.styles = [
            .display: style(48, .bold, 60, .largeTitle),
            .largeTitle: style(34, .bold, 44, .largeTitle),
            .title: style(28, .bold, 36, .title),
            .title2: style(22, .semibold, 30, .title2),
            .title3: style(20, .medium, 28, .title3),
            .subTitle: style(18, .semibold, 26, .subheadline),
            .headline: style(17, .medium, 24, .headline),
            .body: style(16, .regular, 24, .body),
            .caption: style(13, .medium, 18, .caption),
            .caption2: style(11, .medium, 16, .caption2),
        ]
        theme.page.margins = Theme.wideMeasureMargins
        theme.page.measureCharacters = nil
        theme.notes = [
            "Pretendard is built from Inter (Latin) and Source Han Sans, which Debian ships as Noto Sans CJK KR "
                + "(Hangul): when Pretendard is not registered (it is not packaged in Debian; add its folder to "
                + "fontFolders), text is set in Inter with Noto Sans CJK KR, with slightly different metrics."
        ]
        return theme
    }()
}
