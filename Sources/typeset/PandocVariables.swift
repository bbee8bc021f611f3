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
        /// The key that named ``family``: `mainfont` or `sansfont`.
        var familyKey: String?
        /// One line for each key Typeset does not read.
        var warnings: [String] = []
    }

    /// Keys whose value is true or false, judged here so a bad value is a usage error as the
    /// flag's would be.
    static let booleanKeys: Set<String> = [
        "justify", "toc", "bold-text", "hyphenate", "smart", "number-sections", "numbersections", "highlight", "math",
    ]

    /// Translates `pairs` (in command-line order; a later pair wins).
    /// - Throws: ``UsageError`` for a value Typeset cannot use (`papersize=a12`, `fontsize=big`,
    ///   `linestretch=0`, `geometry=margin=wide`, `size-category=huge`, `toc=maybe`).
    static func translate(_ pairs: [(String, String)]) throws -> Translation {
        var translation = Translation()
        var sansFamily: String?
        var sides: [String: String] = [:]
        var turning: PandocLayoutKeys.Geometry?
        for (key, value) in pairs {
            let lowered = key.lowercased()
            switch lowered {
            case "papersize": translation.pairs.append(("paper", PandocLayoutKeys.paperName(value)))
            case "geometry":
                do {
                    let geometry = try PandocLayoutKeys.geometry(value)
                    sides.merge(geometry.sides) { $1 }
                    if let paper = try geometry.paper() { translation.pairs.append(("paper", paper)) }
                    if geometry.landscape != nil { turning = geometry }
                    if let message = PandocLayoutKeys.ignoredGeometryMessage(geometry.ignored) {
                        translation.warnings.append("-V geometry: " + message)
                    }
                } catch {
                    throw UsageError("-V geometry \(error.description)")
                }
            case "mainfont":
                translation.family = value
                translation.familyKey = key
            case "sansfont": sansFamily = value
            case "monofont": translation.type.monospaceFamily = value
            case "fontsize":
                do { translation.type.bodySize = try PandocLayoutKeys.bodySize(value) } catch {
                    throw UsageError("-V fontsize \(error.description)")
                }
            case "linestretch":
                do { translation.type.lineStretch = try PandocLayoutKeys.lineStretch(value) } catch {
                    throw UsageError("-V linestretch \(error.description)")
                }
            case "include", "chapters":
                // Read where a book names its chapters, before any setting: the document's
                // front matter or a book file.
                translation.warnings.append(
                    "-V \(key): a book's chapters are named in the document's front matter or a book file "
                        + "(\(key): [chapter.md, …]), or given as inputs; ignored")
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
        if translation.family == nil, let sansFamily {
            translation.family = sansFamily
            translation.familyKey = "sansfont"
        }
        // `landscape` or `portrait` turns the paper geometry or papersize names, whichever came last.
        if let turning {
            if let index = translation.pairs.lastIndex(where: { $0.0 == "paper" }) {
                translation.pairs[index].1 = turning.turning(translation.pairs[index].1)
            } else if let message = turning.unturnedMessage {
                translation.warnings.append("-V geometry: " + message)
            }
        }
        if sides.count == 4 {
            do { translation.pairs.append(("margins", try PandocLayoutKeys.margins(sides))) } catch {
                throw UsageError("-V geometry \(error.description)")
            }
        } else if !sides.isEmpty {
            // Some sides: the front matter's reading keeps the theme's for the others.
            let given = sides.keys.sorted().map { "\($0)=\(sides[$0]!)" }.joined(separator: ",")
            translation.pairs.append(("geometry", given))
        }
        return translation
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
