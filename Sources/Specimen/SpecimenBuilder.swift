import Foundation
import Typography

/// Builds a type specimen of a theme: expands a specimen template (``Template``) with the
/// theme's values into Markdown with Pandoc attributes, which the caller parses and renders
/// through the ordinary pipeline. The samples name roles (`::: {.display}`), so the Styler
/// resolves them from the same ``Theme`` the printed numbers are formatted from: one renderer.
///
/// The names a template can use are listed in ``context(theme:settings:facts:)`` and in the
/// header of `templates/specimen.md`.
public struct SpecimenBuilder {
    /// What the specimen shows besides the theme.
    public struct Settings: Sendable {
        /// The one-line Latin sample (`--text`).
        public var sample: String
        /// The one-line Hangul sample.
        public var hangulSample: String
        /// Draw guides over the samples (`--guides`).
        public var guides: Bool
        /// The date printed on the cover, as the caller formats it.
        public var date: String
        /// The Dynamic Type size category the theme was prepared for (nil: Large).
        public var sizeCategory: SizeCategory?
        /// The theme was prepared with Bold Text.
        public var boldText: Bool

        /// An English pangram, the default Latin sample.
        public static let defaultSample = "Sphinx of black quartz, judge my vow"
        /// A Korean pangram (every basic consonant), the default Hangul sample.
        public static let defaultHangulSample = "다람쥐 헌 쳇바퀴에 타고파"

        /// Creates settings; the samples default to the built-in pangrams.
        public init(
            sample: String = Settings.defaultSample, hangulSample: String = Settings.defaultHangulSample,
            guides: Bool = false, date: String, sizeCategory: SizeCategory? = nil, boldText: Bool = false
        ) {
            self.sample = sample
            self.hangulSample = hangulSample
            self.guides = guides
            self.date = date
            self.sizeCategory = sizeCategory
            self.boldText = boldText
        }
    }

    /// The Dynamic Type categories the specimen sets samples in (smallest, default, largest).
    public static let sampleCategories: [SizeCategory] = [.xSmall, .large, .accessibility5]
    /// Point sizes of the body-family waterfall.
    public static let waterfallSizes: [Double] = [6, 7, 8, 9, 10, 11, 12, 14, 16, 18, 21, 24, 28, 36, 48]

    /// Expands `template` for `theme` (the prepared theme the samples are drawn in).
    /// - Returns: Markdown text and the template names that were not found.
    /// - Throws: ``TemplateError`` for a malformed template.
    public static func markdown(theme: Theme, template: String, settings: Settings, facts: SpecimenFacts) throws
        -> Template.Expansion
    {
        var expansion = try Template.expand(template, context: context(theme: theme, settings: settings, facts: facts))
        // A leading comment block leaves blank lines; front matter must start on line 1.
        expansion.removeLeadingBlankSpace()
        return expansion
    }

    // MARK: The template context

    /// The names a specimen template can use. Top level: `theme` (`name`, `families`, `paper`,
    /// `measure`, `tableSize`, `notes` [`note`]), `faces` [`face`], `date`, `sizeCategory`,
    /// `boldText`, `guides`, `sample`, `hangulSample`, `roles` [role], `waterfall`
    /// (`family`, `face`, `sizes` [`size`, `sizeValue`, `text`]), `dynamicType` (`categories`
    /// [`name`], `rows` [`name`, `style`, `cells` [`value`]], `appleRows` (same shape),
    /// `fixedRoles`, `samples` [`category`, `roles` [`key`, `name`, `size`, `attributes`, `text`]]),
    /// `boldRows` [`name`, `key`, `regularFace`, `boldFace`, `regularWeight`, `boldWeight`,
    /// `note`, `sampleAttributes`], `coverage` (`rows` [`name`, `font`, `latin`, `hangul`, `digits`, `punctuation`],
    /// `classes` [`name`, `characters`]), `code` (``codeContext(_:)``).
    /// A role: `name`, `key`, `index`, `family`, `fallbacks`, `families`, `face`, `weight`,
    /// `weightName`, `weightNumber`, `italic`, `textCase`, `textDecoration`, `spaceAfter`,
    /// `appearance` (case, line and space after in one line, empty when none is set), `size`,
    /// `sizeValue`, `lineHeight`, `lineHeightValue`, `lineHeightMultiple`, `lineHeightRatio`,
    /// `lineHeightRule`, `naturalHeight`, `tracking`, `trackingPercent`, `kerning`,
    /// `kerningPercent`, `letterSpacing`, `relativeTo`, `isLarge`, `measure`, `lineSample`,
    /// `lineHangulSample` (the samples shortened at a word to fit one line), `shortSample`
    /// (shortened to leave room for the tracking lines' labels, the same on all three),
    /// `trackings` [`label`, `attributes`, `style`: the role's `style` less the tracking that
    /// `attributes` give].
    public static func context(theme: Theme, settings: Settings, facts: SpecimenFacts) -> TemplateContext {
        var context = TemplateContext()
        let tableSize = min(theme[.caption].size, 9) + 1
        context["theme"] = .context(
            TemplateContext([
                "name": .text(theme.name),
                "families": .text(familyNames(theme).joined(separator: ", ")),
                "paper": .text(
                    "\(Format.number(theme.page.paper.width, decimals: 0)) × "
                        + "\(Format.number(theme.page.paper.height, decimals: 0)) pt"
                ),
                "measure": .text(Format.ascii(theme.page.measure)),
                "tableSize": .text(Format.ascii(tableSize)),
                "notes": .list(theme.notes.map { TemplateContext(["note": .text($0)]) }),
            ]))
        context["faces"] = .list(facts.faces.map { TemplateContext(["face": .text($0)]) })
        context["date"] = .text(settings.date)
        context["sizeCategory"] = .text(settings.sizeCategory.map { $0.rawValue } ?? "large (default)")
        context["boldText"] = .text(settings.boldText ? "on" : "off")
        context["guides"] = .text(settings.guides ? "true" : "false")
        context["sample"] = .text(settings.sample)
        context["hangulSample"] = .text(settings.hangulSample)
        context["roles"] = .list(
            TextRole.allCases.enumerated().map { index, role in
                roleContext(
                    role, index: index, theme: theme, sample: settings.sample, hangulSample: settings.hangulSample,
                    facts: facts)
            })
        context["waterfall"] = .context(waterfall(theme: theme, settings: settings, facts: facts))
        context["dynamicType"] = .context(dynamicType(base: facts.baseTheme, settings: settings, facts: facts))
        context["boldRows"] = .list(
            TextRole.allCases.map { role in
                let roleFacts = facts.roles[role]
                return TemplateContext([
                    "name": .text(role.displayName), "key": .text(role.rawValue),
                    "regularFace": .text(roleFacts?.regularFace ?? "—"), "boldFace": .text(roleFacts?.boldFace ?? "—"),
                    "regularWeight": .text(String((roleFacts?.regularWeight ?? theme[role].weight).rawValue)),
                    "boldWeight": .text(String((roleFacts?.boldWeight ?? theme[role].weight).rawValue)),
                    "note": .text(roleFacts?.boldNote ?? ""),
                    // Large roles are compared at 28 pt so that both columns fit the measure.
                    "sampleAttributes": .text(
                        (theme[role].size > 28 ? " size=28" : "") + appearanceAttributes(theme[role])),
                ])
            })
        context["coverage"] = .context(coverage(theme: theme, facts: facts))
        context["code"] = .context(codeContext(theme))
        return context
    }

    /// The theme's code styles (``CodeStyle``): `name`, `background` and `text` (hex: the
    /// panel code is drawn on and the colour of code that is no token), `highlights` (false
    /// when the theme sets code plain), and `styles` [`name`, `color`, `weight`,
    /// `attributes`]: each ``CodeToken`` the style colours, in declaration order, with its own
    /// colour or the one it falls back to; `attributes` set a span in the token's colour,
    /// weight and slant.
    static func codeContext(_ theme: Theme) -> TemplateContext {
        let code = theme.code
        let styles = CodeToken.allCases.compactMap { token -> TemplateContext? in
            guard let style = code.style(for: token) else { return nil }
            var attributes = " color=\"\(style.color.hex)\""
            if style.bold { attributes += " bold=true" }
            if style.italic { attributes += " italic=true" }
            let weight = [style.bold ? "bold" : nil, style.italic ? "italic" : nil].compactMap { $0 }
            return TemplateContext([
                "name": .text(token.rawValue), "color": .text(style.color.hex),
                "weight": .text(weight.isEmpty ? "regular" : weight.joined(separator: " ")),
                "attributes": .text(attributes),
            ])
        }
        return TemplateContext([
            "name": .text(code.name), "background": .text(code.effectiveBackground(in: theme).hex),
            "text": .text((code.text ?? theme.textColor).hex), "highlights": .bool(code.highlights),
            "styles": .list(styles),
        ])
    }

    static func familyNames(_ theme: Theme) -> [String] {
        var seen = Set<String>()
        var names: [String] = []
        for role in TextRole.allCases {
            for family in theme[role].families where seen.insert(family).inserted { names.append(family) }
        }
        return names
    }

    /// The role's line height in pt, from the theme's rule and the face's natural height.
    public static func lineHeight(of style: TextStyle, naturalHeight: Double) -> Double {
        style.lineHeight?.step(size: style.size, naturalHeight: naturalHeight) ?? naturalHeight
    }

    /// Attributes that set a role's sample in `style` when the document is rendered with the
    /// base theme (Large size, no Bold Text) — so that at `--size-category AX5` the samples
    /// grow while the sheet's own captions and tables stay readable. Empty when the two agree.
    /// `givingTracking: false` leaves `tracking` out, for a list that gives its own: each key is
    /// given once in a list, or the sheet would warn about its own template.
    static func styleAttributes(_ style: TextStyle, unlike base: TextStyle, givingTracking: Bool = true) -> String {
        guard style != base else { return "" }
        var attributes =
            " family=\"\(style.families.joined(separator: ", "))\" size=\(Format.ascii(style.size)) "
            + "weight=\(style.weight.rawValue)"
        switch style.lineHeight {
        case .multiple(let multiple)?: attributes += " lineHeightMultiple=\(Format.ascii(multiple))"
        case .relativeToSize(let ratio)?: attributes += " lineHeight=\(Format.ascii(ratio * 100))%"
        case .absolute(let pt)?: attributes += " lineHeight=\(Format.ascii(pt))"
        case nil: attributes += " lineHeightMultiple=1"
        }
        if givingTracking { attributes += " tracking=\(Format.ascii(style.letterSpacing))" }
        if style.italic != base.italic { attributes += " italic=\(style.italic)" }
        return attributes
    }

    /// Attributes that give a role's sample its case and line (`textCase=uppercase
    /// textDecoration=underline`): the sheet is set in a theme whose roles have none
    /// (``neutralSheet(_:)``), so that its labels and tables stay as written. Empty when the role
    /// sets neither.
    static func appearanceAttributes(_ style: TextStyle) -> String {
        var attributes = ""
        if let textCase = style.textCase { attributes += " textCase=\(textCase.name)" }
        if let decoration = style.textDecoration { attributes += " textDecoration=\(decoration.rawValue)" }
        return attributes
    }

    /// `theme` with no role's case or line: the theme the sheet itself (headings, labels, value
    /// tables) is set in, so that an upper-case, underlined Caption or a small-caps Body does not
    /// change what the sheet says. The samples carry the roles' own (``appearanceAttributes(_:)``).
    public static func neutralSheet(_ theme: Theme) -> Theme {
        var neutral = theme
        for role in TextRole.allCases {
            var style = neutral[role]
            style.textCase = nil
            style.textDecoration = nil
            neutral.styles[role] = style
        }
        return neutral
    }

    /// Markdown that sets two themes' scales face to face, role by role: a heading per role, then
    /// each theme's line (its name, size, line step, weight and letter spacing as a Caption2
    /// label, then `sample` in that theme's style, given as attributes over the sheet's `base`).
    /// `metrics` give each role's natural line height, for the steps.
    public static func comparison(
        _ theme: Theme, _ metrics: [TextRole: ThemeExport.RoleMetrics], with other: Theme,
        _ otherMetrics: [TextRole: ThemeExport.RoleMetrics], base: Theme, sample: String
    ) -> String {
        var text = "\n\n# \(theme.name) and \(other.name)\n\nThe two scales face to face, role by role.\n"
        for role in TextRole.allCases {
            text += "\n## \(role.displayName)\n"
            for (side, sideMetrics) in [(theme, metrics), (other, otherMetrics)] {
                let style = side[role]
                let step = ThemeExport.step(side, role, sideMetrics)
                let label =
                    "\(side.name) · \(Format.ascii(style.size)) pt · step \(Format.number(step, decimals: 2)) pt · "
                    + "weight \(style.weight.rawValue) · tracking \(Format.number(style.letterSpacing, decimals: 2)) pt"
                text += "\n::: {.caption2}\n\(label)\n:::\n"
                let attributes = styleAttributes(style, unlike: base[role]) + appearanceAttributes(style)
                text += "\n::: {.\(role.rawValue)\(attributes)}\n\(sample)\n:::\n"
            }
        }
        return text
    }

    static func roleContext(
        _ role: TextRole, index: Int, theme: Theme, sample: String, hangulSample: String, facts: SpecimenFacts
    ) -> TemplateContext {
        let style = theme[role]
        let roleFacts = facts.roles[role]
        let natural = roleFacts?.naturalHeight ?? style.size * 1.2
        let step = lineHeight(of: style, naturalHeight: natural)
        let rule: String =
            switch style.lineHeight {
            case nil: "natural (ascent + descent)"
            case .multiple(let multiple)?: "\(Format.number(multiple, decimals: 2)) × natural"
            case .relativeToSize(let ratio)?: "\(Format.number(ratio * 100, decimals: 1)) % of size"
            case .absolute(let pt)?: "\(Format.number(pt, decimals: 2)) pt fixed"
            }
        func spacing(_ letterSpacing: LetterSpacing?) -> (String, String) {
            guard let letterSpacing else { return ("none", "") }
            let pt = letterSpacing.points(atSize: style.size)
            return ("\(Format.signed(pt, decimals: 2)) pt", "\(Format.signed(pt / style.size * 100, decimals: 2)) %")
        }
        let (tracking, trackingPercent) = spacing(style.tracking)
        var (kerning, kerningPercent) = spacing(style.kerning)
        if style.kerning != nil && style.tracking != nil { kerning += " (ignored: tracking wins)" }
        let applied = style.letterSpacing
        let wider = applied + style.size * 0.05
        // Each tracking line has a `style` of its own that gives no tracking, so that the
        // template's `{{{style}}}{{{attributes}}}` names `tracking` once.
        let styleGivingNoTracking =
            Self.styleAttributes(style, unlike: facts.baseTheme[role], givingTracking: false)
            + appearanceAttributes(style)
        let trackings: [TemplateContext] = [
            TemplateContext([
                "label": .text("theme · \(Format.signed(applied, decimals: 2)) pt"), "attributes": .text(""),
            ]),
            TemplateContext([
                "label": .text("0 pt"), "attributes": .text(" tracking=0"), "style": .text(styleGivingNoTracking),
            ]),
            TemplateContext([
                "label": .text("wider · \(Format.signed(wider, decimals: 2)) pt (+5 % of size)"),
                "attributes": .text(" tracking=\(Format.ascii(wider))"), "style": .text(styleGivingNoTracking),
            ]),
        ]
        let readable = min(theme.page.measure, max(220, style.size * 30))
        // The three tracking lines show the same words: those that fit the widest of them
        // (the wider tracking) beside the longest label.
        var widest = style
        widest.tracking = .points(wider)
        widest.kerning = nil
        let longestLabel = "wider · \(Format.signed(wider, decimals: 2)) pt (+5 % of size)"
        let measure = sheetMeasure(theme.page)
        let trackingRoom = measure - labelWidth("  " + longestLabel, facts: facts)
        return TemplateContext([
            "name": .text(role.displayName),
            "key": .text(role.rawValue),
            "style": .text(styleAttributes(style, unlike: facts.baseTheme[role]) + appearanceAttributes(style)),
            "index": .text(String(format: "%02d", index + 1)),
            "family": .text(style.primaryFamily),
            "fallbacks": .text(style.families.dropFirst().joined(separator: ", ")),
            "families": .text(style.families.joined(separator: " → ")),
            "face": .text(roleFacts?.face ?? style.primaryFamily),
            "weight": .text("\(style.weight.name) \(style.weight.rawValue)\(style.italic ? " italic" : "")"),
            "italic": .bool(style.italic),
            "textCase": .text(style.textCase?.name ?? ""),
            "textDecoration": .text(style.textDecoration?.rawValue ?? ""),
            "spaceAfter": .text(style.spaceAfter.map { "\(Format.number($0, decimals: 2)) pt" } ?? ""),
            "appearance": .text(appearance(of: style)),
            "weightName": .text(style.weight.name),
            "weightNumber": .text(String(style.weight.rawValue)),
            "size": .text("\(Format.number(style.size, decimals: 2)) pt"),
            "sizeValue": .text(Format.ascii(style.size)),
            "lineHeight": .text("\(Format.number(step, decimals: 2)) pt"),
            "lineHeightValue": .text(Format.ascii(step)),
            "lineHeightMultiple": .text("\(Format.number(step / natural, decimals: 2)) × natural"),
            "lineHeightRatio": .text("\(Format.number(step / style.size, decimals: 2)) × size"),
            "lineHeightRule": .text(rule),
            "naturalHeight": .text("\(Format.number(natural, decimals: 2)) pt"),
            "tracking": .text(tracking),
            "trackingPercent": .text(trackingPercent),
            "kerning": .text(kerning),
            "kerningPercent": .text(kerningPercent),
            "letterSpacing": .text("\(Format.signed(applied, decimals: 2)) pt"),
            "relativeTo": .text(style.relativeTo.map { "relative to \($0.rawValue)" } ?? "fixed size"),
            "isLarge": .bool(style.size >= 24),
            "measure": .text(Format.ascii(readable)),
            "trackings": .list(trackings),
            "shortSample": .text(fitted(sample, in: widest, width: trackingRoom, facts: facts)),
            "lineSample": .text(fitted(sample, in: style, width: measure, facts: facts)),
            "lineHangulSample": .text(fitted(hangulSample, in: style, width: measure, facts: facts, perCharacter: 1)),
        ])
    }

    /// What a role sets besides its face (italic is in its `weight`), size, line height and
    /// letter spacing, as the sheet states it (`uppercase · underline · 12 pt after each
    /// paragraph`); empty when it sets none of them, so an ordinary theme's sheet says no more.
    static func appearance(of style: TextStyle) -> String {
        var parts: [String] = []
        if let textCase = style.textCase { parts.append(textCase.name) }
        if let decoration = style.textDecoration { parts.append(decoration.rawValue) }
        if let after = style.spaceAfter { parts.append("\(Format.number(after, decimals: 2)) pt after each paragraph") }
        return parts.joined(separator: " · ")
    }

    static func waterfall(theme: Theme, settings: Settings, facts: SpecimenFacts) -> TemplateContext {
        let body = theme[.body]
        let text = settings.sample + " " + settings.hangulSample
        let sizes = waterfallSizes.map { size -> TemplateContext in
            // Each size on one line beside its label: the words that fit, measured at that size.
            let label = "\(Format.number(size, decimals: 1)) pt"
            // Set as `.body size=…` on the sheet, which is set in the theme at Large.
            var sized = facts.baseTheme[.body]
            sized.size = size
            let room = sheetMeasure(theme.page) - labelWidth(label + "  ", facts: facts)
            return TemplateContext([
                "size": .text(label),
                "sizeValue": .text(Format.ascii(size)),
                "text": .text(fitted(text, in: sized, width: room, facts: facts)),
            ])
        }
        return TemplateContext([
            "family": .text(body.primaryFamily),
            "face": .text(facts.roles[.body]?.face ?? body.primaryFamily),
            "sizes": .list(sizes),
        ])
    }

    /// The side margins the shipped template's front matter gives the sheet (`margins: 64pt
    /// 64pt 72pt`), pt.
    static let sheetSideMargins = 64.0

    /// The width a sample line has on the sheet: the theme's measure, but no more than the
    /// paper less the sheet's side margins, which the template's front matter sets in place of
    /// the theme's.
    static func sheetMeasure(_ page: PageSetup) -> Double {
        min(page.measure, page.paper.width - 2 * sheetSideMargins)
    }

    /// The width of a label the sheet sets beside a sample, in its Caption2 at no tracking.
    static func labelWidth(_ label: String, facts: SpecimenFacts) -> Double {
        var style = facts.baseTheme[.caption2]
        style.tracking = nil
        style.kerning = nil
        style.textCase = nil
        return width(of: label, in: style, facts: facts, perCharacter: 0.56)
    }

    /// The width of `text` in `style`, pt: measured (``SpecimenFacts/textWidth``), else
    /// `perCharacter` em a character with the style's letter spacing.
    static func width(of text: String, in style: TextStyle, facts: SpecimenFacts, perCharacter: Double) -> Double {
        if let measure = facts.textWidth { return measure(text, style) }
        return Double(text.count) * (style.size * perCharacter + style.letterSpacing)
    }

    /// `text` shortened to its first words that fit `width` pt in `style`, with room to spare
    /// for what measuring alone does not see (2 %): whole words only, never one cut inside, and
    /// never ending on a word of punctuation alone; the first word alone when not even it fits
    /// (it then overhangs, whole, rather than being cut).
    static func fitted(
        _ text: String, in style: TextStyle, width: Double, facts: SpecimenFacts, perCharacter: Double = 0.56
    ) -> String {
        let words = text.split(separator: " ")
        var count = words.count
        while count > 1,
            Self.width(
                of: words.prefix(count).joined(separator: " "), in: style, facts: facts, perCharacter: perCharacter)
                > width * 0.98
        {
            count -= 1
        }
        var kept = Array(words.prefix(count))
        while kept.count > 1, let last = kept.last, !Format.hasLetters(last) { kept.removeLast() }
        return kept.joined(separator: " ")
    }

    static func dynamicType(base: Theme, settings: Settings, facts: SpecimenFacts) -> TemplateContext {
        let categories = SizeCategory.allCases
        let relative = TextRole.allCases.filter { base[$0].relativeTo != nil }
        let fixed = TextRole.allCases.filter { base[$0].relativeTo == nil }
        func cell(_ size: Double, _ category: SizeCategory) -> TemplateContext {
            let text = Format.number(size, decimals: 1)
            return TemplateContext(["value": .text(category == .large ? "**\(text)**" : text)])
        }
        let rows = relative.map { role -> TemplateContext in
            let style = base[role]
            return TemplateContext([
                "name": .text(role.displayName), "style": .text(style.relativeTo!.rawValue),
                "cells": .list(categories.map { cell(style.scaled(to: $0).size, $0) }),
            ])
        }
        var styles: [DynamicTypeStyle] = []
        for role in relative where !styles.contains(base[role].relativeTo!) { styles.append(base[role].relativeTo!) }
        let appleRows = styles.map { style in
            TemplateContext([
                "name": .text(style.rawValue), "style": .text(style.rawValue),
                "cells": .list(categories.map { cell(DynamicType.size(of: style, in: $0), $0) }),
            ])
        }
        let samples = sampleCategories.map { category -> TemplateContext in
            let roles = [TextRole.headline, .body].map { role -> TemplateContext in
                let style = base[role].scaled(to: category)
                var attributes = "size=\(Format.ascii(style.size))"
                switch style.lineHeight {
                case .multiple(let multiple)?: attributes += " lineHeightMultiple=\(Format.ascii(multiple))"
                case .relativeToSize(let ratio)?: attributes += " lineHeight=\(Format.ascii(ratio * 100))%"
                case .absolute(let pt)?: attributes += " lineHeight=\(Format.ascii(pt))"
                case nil: break
                }
                attributes += " tracking=\(Format.ascii(style.letterSpacing))" + appearanceAttributes(style)
                return TemplateContext([
                    "key": .text(role.rawValue), "name": .text(role.displayName),
                    "size": .text("\(Format.number(style.size, decimals: 1)) pt"), "attributes": .text(attributes),
                    "text": .text(
                        fitted(
                            settings.sample, in: style,
                            width: sheetMeasure(base.page)
                                - labelWidth(
                                    "  \(role.displayName) \(Format.number(style.size, decimals: 1)) pt", facts: facts),
                            facts: facts)),
                ])
            }
            return TemplateContext(["category": .text(category.rawValue), "roles": .list(roles)])
        }
        return TemplateContext([
            "categories": .list(categories.map { TemplateContext(["name": .text($0.rawValue)]) }),
            "rows": .list(rows),
            "appleRows": .list(appleRows),
            "fixedRoles": .text(fixed.map(\.displayName).joined(separator: ", ")),
            "samples": .list(samples),
        ])
    }

    /// One cell of the coverage table: the primary family's name when it covers every
    /// character; otherwise the fallback families used (theme or system), and how many
    /// characters no font has.
    public static func coverageSummary(_ coverage: [CharacterCoverage], style: TextStyle) -> String {
        let primary = style.primaryFamily.lowercased()
        let themeFamilies = Set(style.families.map { $0.lowercased() })
        if coverage.allSatisfy({ $0.family?.lowercased() == primary || $0.character.isWhitespace }) {
            return "✓ \(style.primaryFamily)"
        }
        var fallbacks: [String] = []
        for character in coverage {
            if let family = character.family, family.lowercased() != primary, !fallbacks.contains(family) {
                fallbacks.append(family)
            }
        }
        var parts: [String] = []
        let notCovered = coverage.filter { $0.family?.lowercased() != primary }.count
        parts.append("\(notCovered) of \(coverage.count) not in \(style.primaryFamily)")
        for family in fallbacks {
            let kind = themeFamilies.contains(family.lowercased()) ? "theme fallback" : "system fallback"
            parts.append("→ \(family) (\(kind))")
        }
        let missing = coverage.filter { $0.family == nil }.count
        if missing > 0 { parts.append("✗ \(missing) missing") }
        return parts.joined(separator: "<br>")
    }

    static func coverage(theme: Theme, facts: SpecimenFacts) -> TemplateContext {
        let rows = TextRole.allCases.map { role -> TemplateContext in
            let style = theme[role]
            var row = TemplateContext([
                "name": .text(role.displayName),
                "font": .text(facts.roles[role]?.face ?? style.primaryFamily),
            ])
            for sampleClass in SampleClass.allCases {
                let cov = facts.roles[role]?.coverage[sampleClass] ?? []
                row[sampleClass.rawValue] = .text(cov.isEmpty ? "not measured" : coverageSummary(cov, style: style))
            }
            return row
        }
        return TemplateContext([
            "rows": .list(rows),
            "classes": .list(
                SampleClass.allCases.map {
                    TemplateContext(["name": .text($0.displayName), "characters": .text($0.characters)])
                }),
        ])
    }
}

/// Number formatting for the page (typographic minus, trimmed zeros) and for attributes (ASCII).
public enum Format {
    /// `value` with at most `decimals` decimals, trailing zeros removed, U+2212 for negatives: `40`,
    /// `10.5`, `−0.8`.
    public static func number(_ value: Double, decimals: Int) -> String {
        var digits = String(format: "%.\(decimals)f", abs(value))
        if digits.contains(".") {
            while digits.hasSuffix("0") { digits.removeLast() }
            if digits.hasSuffix(".") { digits.removeLast() }
        }
        if digits == "0" { return "0" }
        return (value < 0 ? "\u{2212}" : "") + digits
    }

    /// As ``number(_:decimals:)`` with an explicit `+` for positive values.
    public static func signed(_ value: Double, decimals: Int) -> String {
        let text = number(value, decimals: decimals)
        return text == "0" || text.hasPrefix("\u{2212}") ? text : "+" + text
    }

    /// Plain ASCII with up to four decimals, for attribute values: `-0.8`, `10.5`.
    public static func ascii(_ value: Double) -> String {
        var text = String(format: "%.4f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }

    /// Whether `word` holds a letter or a digit (not punctuation alone: a spaced dash, a quote).
    static func hasLetters(_ word: Substring) -> Bool {
        word.unicodeScalars.contains { $0.properties.isAlphabetic || $0.properties.numericType != nil }
    }

    /// `text` cut at a word boundary to at most `count` characters, never after a word of
    /// punctuation alone (a spaced dash, an opening quote), which belongs to what was cut.
    static func truncated(_ text: String, toCharacters count: Int) -> String {
        guard text.count > count else { return text }
        var words: [Substring] = []
        var length = 0
        for word in text.split(separator: " ") {
            if length + word.count + (words.isEmpty ? 0 : 1) > count { break }
            length += word.count + (words.isEmpty ? 0 : 1)
            words.append(word)
        }
        while words.count > 1, let last = words.last, !hasLetters(last) { words.removeLast() }
        // Never a word cut inside: the first word whole when not even it fits.
        return words.isEmpty ? String(text.split(separator: " ").first ?? "") : words.joined(separator: " ")
    }
}
