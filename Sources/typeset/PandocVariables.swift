import Typesetter
import Typography

/// `-V KEY=VALUE` as Pandoc's users write it: the variables Pandoc's LaTeX template reads for
/// the page and the type (Pandoc manual, "Variables for LaTeX") become Typeset's settings, the
/// front-matter keys Typeset reads pass through, and any other key is a warning.
enum PandocVariables {
    /// What a command line's `-V` pairs come to.
    struct Translation {
        /// Front-matter pairs to set, in order (`papersize` and `geometry` become `paper` and
        /// `margins`).
        var pairs: [(String, String)] = []
        /// `fontsize`, `linestretch`, `monofont`.
        var type = PandocTypeVariables()
        /// `mainfont` (or `sansfont` when no `mainfont` is given): every role's family.
        var family: String?
        /// One line for each key Typeset does not read.
        var warnings: [String] = []
    }

    /// Keys whose value is true or false, judged here so a bad value is a usage error as the
    /// flag's would be.
    static let booleanKeys: Set<String> = [
        "justify", "toc", "bold-text", "hyphenate", "smart", "number-sections", "numbersections",
    ]

    /// Translates `pairs` (in command-line order; a later pair wins).
    /// - Throws: ``UsageError`` for a value Typeset cannot use (`papersize=a12`, `fontsize=big`,
    ///   `linestretch=0`, `geometry=margin=wide`, `size-category=huge`, `toc=maybe`).
    static func translate(_ pairs: [(String, String)]) throws -> Translation {
        var translation = Translation()
        var sansFamily: String?
        var sides: [String: String] = [:]
        for (key, value) in pairs {
            let lowered = key.lowercased()
            switch lowered {
            case "papersize":
                var name = value.lowercased()
                if name.hasSuffix("paper") { name = String(name.dropLast(5)) }
                translation.pairs.append(("paper", name))
            case "geometry": try readGeometry(value, into: &sides)
            case "mainfont": translation.family = value
            case "sansfont": sansFamily = value
            case "monofont": translation.type.monospaceFamily = value
            case "fontsize":
                guard let points = Length.points(value), TypographicLimits.size.contains(points) else {
                    throw UsageError("-V fontsize takes a size such as 12pt (1–1000 pt), not '\(value)'")
                }
                translation.type.bodySize = points
            case "linestretch":
                guard let factor = Double(value), (0.5...4).contains(factor) else {
                    throw UsageError(
                        "-V linestretch takes a factor from 0.5 to 4 (1.5: half as much again), not '\(value)'")
                }
                translation.type.lineStretch = factor
            default:
                try judge(key, value)
                if Typesetter.readsFrontMatterKey(key) {
                    translation.pairs.append((key, value))
                } else {
                    translation.warnings.append(
                        "-V \(key): not a setting Typeset reads; ignored (Pandoc's papersize, geometry, mainfont, "
                            + "sansfont, monofont, fontsize, linestretch and lang are, and the front-matter keys)")
                }
            }
        }
        if translation.family == nil { translation.family = sansFamily }
        if !sides.isEmpty {
            let order = ["top", "right", "bottom", "left"]
            guard order.allSatisfy({ sides[$0] != nil }) else {
                throw UsageError(
                    "-V geometry leaves \(order.filter { sides[$0] == nil }.joined(separator: ", ")) unset; give "
                        + "margin=LENGTH, or every side")
            }
            translation.pairs.append(("margins", order.map { sides[$0]! }.joined(separator: " ")))
        }
        return translation
    }

    /// Reads LaTeX geometry options, `margin=2cm` or `top=1in,left=2cm,…` (also `hmargin`,
    /// `vmargin`, `inner`, `outer`), into CSS sides.
    static func readGeometry(_ value: String, into sides: inout [String: String]) throws {
        for option in value.split(separator: ",") {
            let parts = option.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, Length.pointsWithUnit(parts[1]) != nil else {
                throw UsageError("-V geometry takes margin=LENGTH or SIDE=LENGTH with a unit (2cm), not '\(option)'")
            }
            let length = parts[1]
            switch parts[0].lowercased() {
            case "margin": for side in ["top", "right", "bottom", "left"] { sides[side] = length }
            case "hmargin": for side in ["right", "left"] { sides[side] = length }
            case "vmargin": for side in ["top", "bottom"] { sides[side] = length }
            case "top", "bottom", "left", "right": sides[parts[0].lowercased()] = length
            case "inner": sides["left"] = length
            case "outer": sides["right"] = length
            default:
                throw UsageError(
                    "-V geometry: '\(parts[0])' is not a margin Typeset sets (margin, hmargin, vmargin, top, bottom, "
                        + "left, right, inner, outer)")
            }
        }
    }

    /// Refuses a value a front-matter key cannot take, as the matching option would.
    static func judge(_ key: String, _ value: String) throws {
        let canonical = key.lowercased().replacingOccurrences(of: "_", with: "-")
        if canonical == "size-category" || canonical == "sizecategory", SizeCategory(name: value) == nil {
            throw UsageError(
                "-V \(key): unknown size category '\(value)' (xSmall, small, medium, large, xLarge, xxLarge, "
                    + "xxxLarge, AX1…AX5)")
        }
        if canonical == "tab-size" || canonical == "tabsize", !(Int(value).map { (1...16).contains($0) } ?? false) {
            throw UsageError("-V \(key) takes a whole number of columns from 1 to 16, not '\(value)'")
        }
        if ["toc-depth", "tocdepth"].contains(canonical), !(Int(value).map { (1...6).contains($0) } ?? false) {
            throw UsageError("-V \(key) takes a heading level from 1 to 6, not '\(value)'")
        }
        let flag = canonical == "boldtext" ? "bold-text" : canonical
        if booleanKeys.contains(flag),
            !["true", "false", "yes", "no", "on", "off"].contains(value.lowercased())
        {
            throw UsageError("-V \(key) takes true or false, not '\(value)'")
        }
    }
}
