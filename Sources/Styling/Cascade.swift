import Foundation
import Typography

/// The inherited typographic state while walking the document: a role's ``TextStyle`` plus
/// the run-level settings that are not part of a type-scale style (colour, decorations…).
struct Cascade {
    var style: TextStyle
    var color: RGBAColor
    var underline: RGBAColor??
    var strikethrough: RGBAColor??
    var baselineOffset: Double = 0
    var smallCaps: SmallCaps = .none
    var strokeColor: RGBAColor?
    var strokeWidth: Double?
    var background: RGBAColor?
    var link: LinkTarget?
    var leading: Double = 0
    var listDepth = 0
    var guides = false
    /// Language (BCP 47) and hyphenation setting inherited by runs; nil: the document's.
    var language: String?
    var hyphenate: Bool?
    /// Inside spans that name a language (`[mot]{lang=fr}`): the language the block around
    /// them reads in (nil: the document's), and the language the runs here are tagged in,
    /// nil where that is the block's (``RunStyle/spanLanguage``).
    var spanContext: (block: String?, language: String?)?
    /// Markdown strong emphasis around this point since the last explicit weight: each level is
    /// one CSS `bolder` step, applied again on top of the weight of any role set inside it.
    var bolderSteps = 0
    /// The weight is an attribute's (``RunStyle/weightAsked``), until a role sets its own.
    var weightAsked = false
    /// Inside Markdown emphasis (and not cancelled by `italic=false`): text stays italic
    /// whatever role a span inside sets.
    var emphasized = false

    init(theme: Theme, role: TextRole) {
        style = theme[role]
        color = theme.textColor
    }

    /// A role replaces the font settings (family, weight, size, spacing, line height) and keeps
    /// the inherited colour and decorations, and the emphasis around it: as HTML `<strong>` or
    /// `<em>` around a `<span>` whose class sets a font, strong is a relative `bolder` applied
    /// on top of the role's own weight and emphasis keeps it italic.
    mutating func apply(role: TextRole, theme: Theme) {
        style = theme[role]
        weightAsked = false
        reapplyEmphasis(theme: theme)
    }

    /// Markdown strong emphasis: one CSS `bolder` step (CSS Fonts 4 §2.2), then the Bold Text
    /// setting's next heavier face.
    mutating func embolden(theme: Theme) {
        bolderSteps += 1
        applyBolder(theme: theme)
    }

    private mutating func applyBolder(theme: Theme) {
        style.weight = theme.boldTextWeight(Styler.bolder(style.weight), families: style.families)
    }

    /// Markdown emphasis: the family's italic face.
    mutating func emphasize() {
        emphasized = true
        style.italic = true
    }

    /// The strong and emphasis around this point applied to a weight and slant a role has just
    /// set.
    mutating func reapplyEmphasis(theme: Theme) {
        for _ in 0..<bolderSteps { applyBolder(theme: theme) }
        if emphasized { style.italic = true }
    }

    /// Applies an attribute list: its role first, then each setting it names. A `weight` (or
    /// `bold`) written in the list wins over the strong around it, and `italic=false` over the
    /// emphasis around it.
    mutating func apply(_ overrides: StyleOverrides, theme: Theme) {
        if let role = overrides.role {
            style = theme[role]
            weightAsked = false
        }
        if let families = overrides.families {
            // A swapped family keeps the inherited fallbacks (Hangul still finds its face).
            style.families = families + style.families.dropFirst().filter { !families.contains($0) }
        }
        if overrides.monospaced { style.families = theme.monospaceFamilies }
        if let size = overrides.size {
            style.lineHeight = style.lineHeight?.scaled(from: style.size, to: size)
            style.size = size
        }
        if let weight = overrides.weight {
            style.weight = theme.boldTextWeight(weight, families: style.families)
            bolderSteps = 0
            weightAsked = true
        }
        if let italic = overrides.italic {
            style.italic = italic
            if !italic { emphasized = false }
        }
        // The role's weight and slant with the emphasis around it (none left when the list set
        // them), after `family` so Bold Text looks for a heavier face in the families used.
        if overrides.role != nil { reapplyEmphasis(theme: theme) }
        if overrides.tracking != nil || overrides.kerning != nil {
            // Both at one level: tracking wins (kerning ignored); kerning alone replaces
            // inherited tracking so that what the author wrote takes effect.
            style.tracking = overrides.tracking
            style.kerning = overrides.kerning
        }
        if let lineHeight = overrides.lineHeight { style.lineHeight = lineHeight }
        // A role's case and line, set or turned off as the role's own (a role inside sets its own).
        if let textCase = overrides.textCase { style.textCase = textCase }
        if let textDecoration = overrides.textDecoration { style.textDecoration = textDecoration }
        if let leading = overrides.leading { self.leading = leading }
        if let smallCaps = overrides.smallCaps { self.smallCaps = smallCaps }
        if overrides.monospacedDigit { style.features.append("tnum") }
        style.features += overrides.features
        if let color = overrides.color { self.color = color }
        if let underline = overrides.underline { self.underline = underline }
        if let strikethrough = overrides.strikethrough { self.strikethrough = strikethrough }
        if let offset = overrides.baselineOffset { baselineOffset = offset }
        if let strokeColor = overrides.strokeColor { self.strokeColor = strokeColor }
        if let strokeWidth = overrides.strokeWidth { self.strokeWidth = strokeWidth }
        if let background = overrides.background { self.background = background }
        if let guides = overrides.guides { self.guides = guides }
        if let language = overrides.language { self.language = language }
        if let hyphenate = overrides.hyphenate { self.hyphenate = hyphenate }
    }

    /// `text` in the role's ``TextCase`` (upper, lower, capitalized); as written otherwise.
    func cased(_ text: String) -> String { style.textCase?.apply(to: text) ?? text }

    var font: FontSpec {
        FontSpec(families: style.families, weight: style.weight, italic: style.italic, size: style.size)
    }

    /// The fully resolved run style. A stroke needs a width or a colour; the other defaults to
    /// 1 pt or the text colour.
    var runStyle: RunStyle { RunStyle(appearance: RunAppearance(appearanceValues), link: link) }

    /// The settings of ``runStyle``'s appearance, unboxed (``AppearanceTable/style(for:)``
    /// compares them with the boxes it handed out last before it makes a box).
    var appearanceValues: RunAppearance.Values {
        var stroke: Stroke?
        if strokeColor != nil || strokeWidth != nil, (strokeWidth ?? 1) > 0 {
            stroke = Stroke(color: strokeColor ?? color, width: strokeWidth ?? 1)
        }
        // A role's own case and line (design tokens' textCase, textDecoration) under what spans set.
        let decoration = style.textDecoration
        var values = RunAppearance.Values(
            font: font, letterSpacing: style.letterSpacing, features: style.features,
            smallCaps: smallCaps == .none && style.textCase == .smallCaps ? .lowercase : smallCaps, color: color,
            underline: underline.map { $0 ?? color } ?? (decoration == .underline ? color : nil),
            strikethrough: strikethrough.map { $0 ?? color } ?? (decoration == .lineThrough ? color : nil),
            baselineOffset: baselineOffset, stroke: stroke, background: background)
        values.language = language
        values.hyphenate = hyphenate
        values.weightAsked = weightAsked
        values.spanLanguage = spanContext?.language
        return values
    }
}

/// Run clean-up before shaping.
enum RunMerger {
    /// Runs of spaces made one space (``collapseSpaces(_:)``), leading and trailing white space
    /// of a paragraph removed (``trim(_:)``), then adjacent runs with equal styles made one
    /// (``merge(_:)``), in the runs' own storage: a paragraph of 100,000 runs (links) holds one
    /// array of them, not three. Code spans and formulas in right-to-left text are then kept
    /// left to right (``BidiIsolation``).
    static func tidy(_ runs: inout [StyledRun]) {
        dropInvisiblesBesideSpaces(&runs)
        collapseSpaces(&runs)
        trim(&runs)
        merge(&runs)
        BidiIsolation.isolatingLeftToRight(&runs)
    }

    /// The invisible characters that join or part the characters beside them: zero-width
    /// space U+200B, non-joiner U+200C, joiner U+200D, word joiner U+2060 and zero-width
    /// no-break space U+FEFF (Unicode §23.2, "Layout Controls"). Beside a space they join or
    /// part nothing: the space already parts the text.
    static func isInvisibleBreakControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF: true
        default: false
        }
    }

    /// The other characters Unicode makes default-ignorable (DerivedCoreProperties.txt,
    /// Default_Ignorable_Code_Point), but the bidirectional controls, which order the line:
    /// the soft hyphen, the combining grapheme joiner, the Hangul fillers, variation selectors,
    /// Mongolian free variation selectors, invisible operators, tags. Each modifies the
    /// character before it; after a space it modifies nothing.
    static func isIgnorableAfterSpace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00AD, 0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180B...0x180F, 0x2061...0x2065, 0x206A...0x206F,
            0x3164, 0xFE00...0xFE0F, 0xFFA0, 0xFFF0...0xFFF8, 0x1BCA0...0x1BCA3, 0x1D173...0x1D17A, 0xE0000...0xE0FFF:
            true
        default: false
        }
    }

    /// Whether `scalar` is invisible beside spaces: one of ``isInvisibleBreakControl(_:)`` or
    /// ``isIgnorableAfterSpace(_:)``.
    static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= 0xAD && (isInvisibleBreakControl(scalar) || isIgnorableAfterSpace(scalar))
    }

    /// Every ``isInvisibleBreakControl(_:)`` character beside a space of running text (any
    /// White_Space but the line separators, the edges of runs included), and every
    /// ``isIgnorableAfterSpace(_:)`` character that follows one or opens the paragraph,
    /// dropped, so that a run of spaces with such characters inside or at its ends is one run
    /// of spaces, which breaks like one: 60 ideographic spaces, a joiner (or a variation
    /// selector) and 60 more kept the word after them off the page. A variation selector after
    /// a letter or an emoji stays, space after it or not. Code spans and formulas keep every
    /// character, and stand between the runs around them. A run's text is copied only when it
    /// has characters to lose.
    static func dropInvisiblesBesideSpaces(_ runs: inout [StyledRun]) {
        func isSpace(_ scalar: Unicode.Scalar) -> Bool {
            scalar.properties.isWhitespace && scalar != "\n" && scalar != "\u{2028}" && scalar != "\u{2029}"
        }
        func kept(_ run: StyledRun) -> Bool { run.style.isCode || run.style.inlineFormula != nil }
        // Whether a space, or an invisible character that follows one, ends the previous run
        // of running text; the paragraph's start stands as one: there is nothing before it to
        // join, part or modify.
        var spaceBefore = true
        for index in runs.indices {
            if kept(runs[index]) {
                spaceBefore = false
                continue
            }
            let scalars = runs[index].text.unicodeScalars
            guard scalars.contains(where: isInvisible) else {
                spaceBefore = scalars.last.map(isSpace) ?? spaceBefore
                continue
            }
            // Whether a space follows scalar i, past invisible characters, in this run or the
            // next runs of running text.
            let array = Array(scalars)
            var spaceAfter = [Bool](repeating: false, count: array.count)
            var following = false
            search: for next in runs[(index + 1)...] {
                guard !kept(next) else { break }
                for scalar in next.text.unicodeScalars where !isInvisible(scalar) {
                    following = isSpace(scalar)
                    break search
                }
            }
            for i in array.indices.reversed() {
                spaceAfter[i] = following
                if isSpace(array[i]) {
                    following = true
                } else if !isInvisible(array[i]) {
                    following = false
                }
            }
            var text = String.UnicodeScalarView()
            for (i, scalar) in array.enumerated() {
                if isInvisibleBreakControl(scalar) && (spaceBefore || spaceAfter[i]) { continue }
                if isIgnorableAfterSpace(scalar) && spaceBefore { continue }
                text.append(scalar)
                if isSpace(scalar) {
                    spaceBefore = true
                } else if !isInvisible(scalar) {
                    spaceBefore = false
                }
            }
            runs[index].text = String(text)
        }
    }

    /// Every run of spaces (U+0020) in running text made one, across the edges of runs too
    /// (two spaces after a full stop, `word *  emphasis*`): white space in Markdown's text is one word space, as
    /// HTML's `white-space: normal` collapses it (CSS Text 3, §4.1.1) and as Pandoc and TeX set
    /// it. Code spans keep their spaces, as do formulas; other spaces (no-break, ideographic,
    /// em) are set as written. A run's text is copied only when it has spaces to lose.
    static func collapseSpaces(_ runs: inout [StyledRun]) {
        var afterSpace = false
        for index in runs.indices {
            if runs[index].style.isCode || runs[index].style.inlineFormula != nil {
                afterSpace = false
                continue
            }
            let utf8 = runs[index].text.utf8
            guard let lastByte = utf8.last else { continue }
            let collapses =
                (afterSpace && utf8.first == 0x20)
                || runs[index].text.withUTF8Bytes { bytes in
                    bytes.indices.dropFirst().contains { bytes[$0] == 0x20 && bytes[$0 - 1] == 0x20 }
                }
            if collapses {
                var bytes: [UInt8] = []
                bytes.reserveCapacity(utf8.count)
                var previous: UInt8 = afterSpace ? 0x20 : 0
                for byte in utf8 where !(byte == 0x20 && previous == 0x20) {
                    bytes.append(byte)
                    previous = byte
                }
                runs[index].text = String(decoding: bytes, as: UTF8.self)
            }
            afterSpace = lastByte == 0x20
        }
    }

    /// Adjacent runs with equal styles become one (fewer Pango attributes, exact shaping across
    /// the seam); empty runs are dropped.
    static func merge(_ runs: inout [StyledRun]) {
        var kept = 0
        for index in runs.indices where !runs[index].text.isEmpty {
            if kept > 0, runs[kept - 1].style == runs[index].style {
                let text = runs[index].text
                runs[kept - 1].text += text
            } else {
                // Every run between `kept` and `index` was empty or merged: move this one down.
                if kept != index { runs.swapAt(kept, index) }
                kept += 1
            }
        }
        runs.removeSubrange(kept...)
    }

    /// Leading and trailing white space of a paragraph removed. A run's text is copied only
    /// when it has spaces to lose (this runs for every paragraph and table cell).
    static func trim(_ runs: inout [StyledRun]) {
        let blank = runs.prefix { $0.text.allSatisfy { $0 == " " } }.count
        if blank > 0 { runs.removeFirst(blank) }
        while let last = runs.last, last.text.allSatisfy({ $0 == " " }) { runs.removeLast() }
        if let text = runs.first?.text, text.first == " " { runs[0].text = String(text.drop { $0 == " " }) }
        if let text = runs.last?.text, text.last == " " {
            var end = text.endIndex
            while end > text.startIndex, text[text.index(before: end)] == " " { end = text.index(before: end) }
            runs[runs.count - 1].text = String(text[..<end])
        }
    }
}

/// GitHub-style heading ids: lower-cased, punctuation removed, spaces to hyphens, letters of
/// every script kept (Hangul included); repeats get `-1`, `-2`… Every id given out (or
/// registered as written with `{#id}`) is unique.
public struct SlugGenerator: Sendable {
    var used: Set<String> = []
    var next: [String: Int] = [:]
    public init() {}

    /// Claims an id written by the author; false when it was already taken.
    public mutating func register(_ id: String) -> Bool { used.insert(id).inserted }

    /// A fresh id for a heading titled `title`.
    public mutating func slug(for title: String) -> String {
        var base = ""
        for scalar in title.lowercased().unicodeScalars {
            if scalar == " " {
                base.append("-")
            } else if scalar == "-" || scalar == "_" || scalar.properties.isAlphabetic
                || scalar.properties.numericType != nil
                || scalar.properties.generalCategory == .nonspacingMark
            {
                base.unicodeScalars.append(scalar)
            }
        }
        if base.isEmpty { base = "section" }
        var candidate = base
        while used.contains(candidate) {
            let number = (next[base] ?? 0) + 1
            next[base] = number
            candidate = "\(base)-\(number)"
        }
        used.insert(candidate)
        return candidate
    }
}

/// Visible text of raw HTML (tags dropped, common entities decoded): what a reader would see.
enum HTMLText {
    static func visibleText(_ html: String) -> String {
        var out = ""
        var inTag = false
        var inComment = false
        var index = html.startIndex
        while index < html.endIndex {
            if html[index...].hasPrefix("<!--") { inComment = true }
            if inComment {
                if html[index...].hasPrefix("-->") {
                    inComment = false
                    index = html.index(index, offsetBy: 3)
                    continue
                }
                index = html.index(after: index)
                continue
            }
            let character = html[index]
            if character == "<" {
                inTag = true
            } else if character == ">" && inTag {
                inTag = false
                out.append(" ")
            } else if !inTag {
                out.append(character)
            }
            index = html.index(after: index)
        }
        let entities = ["&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": "\"", "&#39;": "'", "&nbsp;": " "]
        for (entity, text) in entities { out = out.replacingOccurrences(of: entity, with: text) }
        return out.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}
