import Foundation

/// The one validation of a resolved theme, shared by theme files (``ThemeLoader``), design-token
/// imports (``TokenImporter``), `typeset theme check` and themes built in code, so that whatever
/// Typeset reads, writes or renders obeys the same rules.
extension Theme {
    /// Every problem of this theme, in a fixed order (roles Display … Caption2, then code, page,
    /// size adjustments, families):
    /// - each role: at least one family and no empty family name; weight 1–1000; size, tracking,
    ///   kerning and line height finite and within ``TypographicLimits`` (the same messages as
    ///   ``TextStyle/limitProblems``, prefixed `role Body: `);
    /// - the monospaced family list is not empty;
    /// - the page: paper sides finite, 72–14 400 pt (PDF's largest page side, ISO 32000-1
    ///   Annex C.2), margins finite and not negative, a text area of at least 72 × 72 pt, block
    ///   spacing finite and 0–1000 pt;
    /// - size adjustments finite (x-height ratios positive);
    /// - families, when `isFamilyAvailable` is given: a family that is not available is a
    ///   **warning** naming the family its text falls back to (the next available one in the
    ///   same list — e.g. Pretendard → Inter in the `pretendard` theme); a list none of whose
    ///   families is available is an **error** (Pango would substitute an arbitrary face).
    ///   Generic names (`sans-serif`, `serif`, `monospace`, …) always count as available.
    ///
    /// - Parameters:
    ///   - file: names the theme in each problem (problems carry no line or column: a theme
    ///     value has no source position; callers that decoded a file add positions).
    ///   - isFamilyAvailable: whether the font system has the family (e.g. fontconfig); nil skips
    ///     the family checks, so Typography stays free of font lookups.
    /// - Returns: errors (the theme must not be used or written) and warnings; empty when valid.
    public func validate(file: String? = nil, isFamilyAvailable: ((String) -> Bool)? = nil) -> [ThemeProblem] {
        let file = file ?? "theme '\(name)'"
        var problems: [ThemeProblem] = []
        func add(_ message: String, _ severity: ThemeProblem.Severity = .error) {
            problems.append(ThemeProblem(file: file, line: 0, column: 0, message: message, severity: severity))
        }
        for role in TextRole.allCases {
            let style = self[role]
            let what = "role \(role.displayName)"
            if style.families.isEmpty { add("\(what): family must name at least one family") }
            if style.families.contains(where: { $0.trimmingCharacters(in: .whitespaces).isEmpty }) {
                add("\(what): a family name must not be empty")
            }
            if !(1...1000).contains(style.weight.rawValue) {
                add("\(what): weight must be 1–1000, not \(style.weight.rawValue)")
            }
            for problem in style.limitProblems { add("\(what): \(problem)") }
        }
        if monospaceFamilies.isEmpty { add("monospace: the code family list must not be empty") }

        let paper = page.paper
        let margins = page.margins
        for (side, value) in [("width", paper.width), ("height", paper.height)] {
            if let problem = TypographicLimits.problem("page.paper \(side)", value, 72...14_400) { add(problem) }
        }
        if [margins.top, margins.right, margins.bottom, margins.left].contains(where: { !$0.isFinite || $0 < 0 }) {
            add("page.margins: margins must be finite and not negative")
        } else if let characters = page.measureCharacters, !PageSetup.measureCharactersRange.contains(characters) {
            let range = PageSetup.measureCharactersRange
            add(
                "page.measure: \(characters.wholePointsText) characters is outside "
                    + "\(Int(range.lowerBound))–\(Int(range.upperBound))")
        } else if paper.width.isFinite, paper.height.isFinite, let problem = page.textAreaProblem {
            add(problem)
        }
        if let problem = TypographicLimits.problem("page.blockSpacing", page.blockSpacing, 0...1000) { add(problem) }

        for family in sizeAdjustments.keys.sorted() {
            switch sizeAdjustments[family]! {
            case .points(let pt):
                if let problem = TypographicLimits.problem("sizeAdjust.\(family)", pt, -1000...1000) { add(problem) }
            case .xHeight(let original, let new):
                if !(original.isFinite && new.isFinite && original > 0 && new > 0) {
                    add("sizeAdjust.\(family): x-height ratios must be positive finite numbers")
                }
            }
        }

        if let isFamilyAvailable {
            let generic: Set<String> = [
                "sans", "sans-serif", "serif", "monospace", "mono", "system-ui", "emoji", "cursive", "fantasy",
            ]
            func available(_ family: String) -> Bool {
                generic.contains(family.lowercased()) || isFamilyAvailable(family)
            }
            var reported = Set<String>()
            var hopeless = Set<[String]>()
            let lists =
                TextRole.allCases.map { (self[$0].families, "role \($0.displayName)") } + [
                    (monospaceFamilies, "monospace")
                ]
            for (list, what) in lists where !list.isEmpty {
                let present = list.filter(available)
                if present.isEmpty {
                    if hopeless.insert(list).inserted {
                        let names = list.map { "'\($0)'" }.joined(separator: ", ")
                        add(
                            "\(what): family \(names) is not installed, nor any other in its list (register the font "
                                + "with fontFolders or --fonts)"
                        )
                    }
                    continue
                }
                for (i, family) in list.enumerated() where !available(family) && reported.insert(family).inserted {
                    let fallback = list[(i + 1)...].first(where: available) ?? present[0]
                    add(
                        "family '\(family)' is not installed; its text is set in '\(fallback)' (register the font "
                            + "with fontFolders or --fonts)",
                        .warning)
                }
            }
            // Formulas are set in the first math family there is; a list with none there is
            // named where the first formula is, in the default math font (a text face is no math font).
            if let math = families["math"], let first = math.first, !available(first),
                let used = math.first(where: available)
            {
                add(
                    "math: family '\(first)' is not installed; formulas are set in '\(used)' (register the font "
                        + "with fontFolders or --fonts)",
                    .warning)
            }
        }
        return problems
    }
}
