import DocumentModel
import Foundation
import Layout
internal import PangoCairoBackend
import Styling
import Typography

/// How a theme is chosen and adapted before rendering: the command line's `--theme`,
/// `--fonts`, `--family`, `--size-adjust`, `--size-category` and `--bold-text` (and the same
/// front matter keys).
public struct ThemeRequest: Sendable {
    /// How `--size-adjust` was given.
    public enum SizeAdjustment: Sendable, Equatable {
        /// Add this many pt to every role's size.
        case points(Double)
        /// Scale each role so the new family's x-height matches the original's (measured from
        /// the fonts' OS/2 x-height).
        case matchXHeight
    }

    /// A built-in theme name (`default`, `hig`, `pretendard`) or a theme JSON path; nil: default.
    public var theme: String?
    /// Font folders to register (in addition to the theme's `fontFolders`).
    public var fontFolders: [String]
    /// Swap every role's primary family for this one (fallbacks kept).
    public var family: String?
    /// The option that named ``family`` when it is not `--family` (`-V mainfont`), which its
    /// warning names; nil: `--family` or the library's caller.
    public var familyOption: String?
    /// How role sizes change when ``family`` swaps the family (`--size-adjust`); nil: unchanged.
    public var sizeAdjustment: SizeAdjustment?
    /// Dynamic Type size category; nil: Large (the sizes as written).
    public var sizeCategory: SizeCategory?
    /// Bold Text: every role one available weight heavier.
    public var boldText: Bool
    /// Pandoc's `-V` page and type settings (`fontsize`, `linestretch`, `monofont`), applied
    /// after every other adaptation; none by default.
    public var pandocVariables = PandocTypeVariables()
    /// The folders the theme's own `fontFolders` must lie in (a theme a document named under
    /// ``RenderOptions/root``); nil: any folder. ``fontFolders`` given here are not confined.
    public var sandbox: Sandbox? = nil

    /// Creates a request; the defaults leave the default theme as written.
    public init(
        theme: String? = nil, fontFolders: [String] = [], family: String? = nil,
        sizeAdjustment: SizeAdjustment? = nil, sizeCategory: SizeCategory? = nil, boldText: Bool = false
    ) {
        self.theme = theme
        self.fontFolders = fontFolders
        self.family = family
        self.sizeAdjustment = sizeAdjustment
        self.sizeCategory = sizeCategory
        self.boldText = boldText
    }
}

extension Typesetter {
    /// Loads and adapts the theme `request` names, in this order: load (built-in or file),
    /// register font folders, swap the family (with size adjustment), apply the Dynamic Type
    /// size category, apply Bold Text, then drop families that are not installed so Pango never
    /// substitutes an arbitrary face for them (each drop is one warning:
    /// `Body: family 'Pretendard' not found; using 'Inter'`).
    /// - Returns: the theme and the warnings (not tied to a source position).
    /// - Throws: ``TypesetError/invalidTheme(problems:)`` for a bad theme file or unknown name,
    ///   ``TypesetError/fontFolder(path:reason:)`` for a folder that cannot be registered.
    public static func prepareTheme(_ request: ThemeRequest) throws -> (Theme, [Diagnostic]) {
        let (theme, diagnostics, _) = try prepareThemeAndFonts(request)
        return (theme, diagnostics)
    }

    /// The bytes of the theme file `name`, judged where it is opened when a document named it
    /// (`sandbox`: ``FileReader/confining(to:_:)``).
    /// - Throws: ``TypesetError/invalidTheme(problems:)`` saying why it cannot be read.
    static func readThemeFile(_ name: String, confinedTo sandbox: Sandbox?) throws -> Data {
        do {
            return try FileReader.confining(to: sandbox?.folders) {
                try FileReader.read(name, limit: FileReader.themeLimit, what: "a theme file")
            }
        } catch {
            let reason = (error as? FileReader.Failure)?.reason ?? "\(error)"
            throw TypesetError.invalidTheme(problems: ["\(name): cannot read theme file: \(reason)"])
        }
    }

    /// ``prepareTheme(_:)``, and the font map of the installed fonts and the theme's and the
    /// request's font folders (a configuration of its own, ``FontConfiguration``), which the
    /// theme's families were checked against and its render shapes with.
    static func prepareThemeAndFonts(_ request: ThemeRequest) throws -> (Theme, [Diagnostic], FontSession) {
        var theme: Theme
        // A theme file is judged as `theme check` judges it (``ThemeJudgement``): its problems
        // with the same words and positions, its warnings as warnings at the file's lines.
        var file: (path: String, text: String)?
        var fileWarnings: [ThemeProblem] = []
        let name = request.theme ?? "default"
        if let builtIn = ThemeLoader.builtIn(named: name) {
            theme = builtIn
        } else {
            if !FileManager.default.fileExists(atPath: name) {
                // Neither built in nor a file: the loader's words for it.
                do { _ = try ThemeLoader.resolve(nameOrPath: name) } catch let error as ThemeError {
                    throw TypesetError.invalidTheme(problems: error.problems.map(\.description))
                }
            }
            let data = try readThemeFile(name, confinedTo: request.sandbox)
            let sandbox = request.sandbox
            let (read, problems) = ThemeJudgement.read(data, file: name) { sandbox?.permits($0) ?? true }
            guard let read, !problems.contains(where: { $0.severity == .error }) else {
                throw TypesetError.invalidTheme(problems: problems.map(\.description))
            }
            theme = read
            fileWarnings = problems
            file = (name, String(decoding: data, as: UTF8.self))
        }
        let outOfRange = TextRole.allCases.flatMap { role in
            theme[role].limitProblems.map { "\(role.displayName): \($0)" }
        }
        if !outOfRange.isEmpty {
            throw TypesetError.invalidTheme(problems: outOfRange.map { "\(request.theme ?? "default"): \($0)" })
        }
        for folder in theme.fontFolders where request.sandbox.map({ !$0.permits(folder) }) ?? false {
            let message = "is outside the folders this render may read (\(request.sandbox?.description ?? ""))"
            throw TypesetError.invalidTheme(problems: ["\(name): fontFolders: '\(folder)' \(message); not read"])
        }
        // The theme's folders are scanned within the sandbox of the document that named it:
        // each font file must itself lie inside, not only the folder.
        let (fonts, folderWarnings) = try fontSession(
            folders: request.fontFolders, documentFolders: theme.fontFolders, within: request.sandbox?.folders)
        let installed = FontCatalog(fonts)
        var warnings = folderWarnings
        if let file {
            let fonts = ThemeJudgement.fontProblems(
                of: theme, file: file.path, text: file.text,
                isFamilyAvailable: installed.has)
            if fonts.contains(where: { $0.severity == .error }) {
                throw TypesetError.invalidTheme(problems: (fileWarnings + fonts).map(\.description))
            }
            fileWarnings += fonts
        }
        if let family = request.family, !installed.has(family) {
            // Swapping in a missing family would hand Latin text to whatever fallback is left.
            warnings.append(
                (request.familyOption.map { "\($0): " } ?? "")
                    + "family '\(family)' not found; the theme's families are kept (see `typeset fonts`)")
        } else if let family = request.family {
            switch request.sizeAdjustment {
            case .points(let points)?:
                theme = theme.swappingFamily(to: family, sizeAdjust: .points(points))
            case .matchXHeight?:
                theme = theme.swappingFamily(
                    to: family, sizeAdjust: xHeightAdjustment(from: theme[.body].families, to: family, fonts: fonts))
            case nil:
                theme = theme.swappingFamily(to: family)
            }
        }
        if let category = request.sizeCategory { theme = theme.applying(sizeCategory: category) }
        if let monospace = request.pandocVariables.monospaceFamily, !installed.has(monospace) {
            warnings.append(
                "monofont '\(monospace)' not found; code keeps the theme's monospaced families (see `typeset fonts`)")
        }
        theme = request.pandocVariables.applied(to: theme)
        // The adapted sizes obey the same limits as the theme's own (1–1000 pt): a size
        // adjustment or category that pushes a role past them is refused, not rendered.
        let adaptedOutOfRange = TextRole.allCases.flatMap { role in
            theme[role].limitProblems.map { "\(role.displayName): \($0)" }
        }
        if !adaptedOutOfRange.isEmpty {
            let variables = request.pandocVariables
            let how = [
                request.family.map { "family '\($0)'" }, request.sizeCategory.map { "size category \($0.rawValue)" },
                variables.bodySize.map { "fontsize \($0.wholePointsText) pt" },
                variables.lineStretch.map { "linestretch \($0)" },
            ].compactMap { $0 }.joined(separator: " with ")
            // Every role scales with the Body size: the largest fontsize that keeps the largest
            // role within 1000 pt, said so the writer need not work it out.
            let largest = TextRole.allCases.map { theme[$0].size }.max() ?? 0
            let fitting = variables.bodySize.flatMap { body -> String? in
                guard largest > TypographicLimits.size.upperBound else { return nil }
                let most = Int((body * TypographicLimits.size.upperBound / largest).rounded(.down))
                return "; fontsize at most \(most) pt keeps every role within "
                    + "\(TypographicLimits.size.upperBound.wholePointsText) pt"
            }
            throw TypesetError.invalidTheme(problems: [
                "\(request.theme ?? "default") adapted to \(how.isEmpty ? "the request" : how): \(adaptedOutOfRange[0])"
                    + (adaptedOutOfRange.count > 1 ? " (and \(adaptedOutOfRange.count - 1) more)" : "")
                    + (fitting ?? "")
            ])
        }
        // Missing families go first, so Bold Text steps by the faces that will really be used.
        // A theme file's were named by its judgement, at the lines that name them.
        let removed = installed.removeMissingFamilies(from: &theme)
        if file == nil { warnings += removed }
        if request.boldText {
            let (bolder, boldWarnings) = theme.applyingBoldText(availableWeights: { installed.weights(of: $0) })
            theme = bolder
            warnings += boldWarnings
        }
        let located = fileWarnings.map { problem in
            Diagnostic(
                .warning, problem.message,
                at: problem.line > 0
                    ? SourceLocation(file: problem.file, line: problem.line, column: problem.column) : nil, kind: .theme
            )
        }
        return (theme, located + warnings.map { Diagnostic(.warning, $0, kind: .theme) }, fonts)
    }
}

extension Typesetter {
    /// A font map of the installed fonts and those in `folders` and `documentFolders`
    /// (``FontConfiguration``), for one render: other renders, with other folders, do not see
    /// them. The files of `documentFolders` (folders a document named) must each lie inside
    /// `allowed` (nil: anywhere); those of `folders` (the user's) are not confined.
    /// - Returns: the session, and a warning for each folder whose walk stopped short
    ///   (``FontFolderScan/maxEntries`` entries or ``FontFolderScan/maxDepth`` levels), and one
    ///   naming the web fonts passed over (``FontFolderScan/webFontExtensions``).
    /// - Throws: ``TypesetError/fontFolder(path:reason:)`` for a folder that cannot be read or
    ///   holds no fonts.
    static func fontSession(
        folders: [String], documentFolders: [String] = [], within allowed: [String]? = nil
    ) throws -> (session: FontSession, warnings: [String]) {
        do {
            let (configuration, cutShort, webFonts) = try FontConfiguration.including(
                folders: folders, documentFolders: documentFolders, within: allowed)
            var warnings = cutShort.map { folder in
                "font folder '\(folder)': the search for fonts stopped after "
                    + "\(FontFolderScan.maxEntries.formatted()) entries or \(FontFolderScan.maxDepth) levels of "
                    + "subfolders; fonts past them are not used"
            }
            if let first = webFonts.first {
                let others = webFonts.count > 1 ? " and \(webFonts.count - 1) more" : ""
                warnings.append(
                    "font '\(first)'\(others): a web font (WOFF, WOFF2), which a PDF cannot embed, is not used; "
                        + "convert it to TTF or OTF (fontTools, for one, converts both)")
            }
            return (FontSession(configuration), warnings)
        } catch BackendError
            .fontFolder(let path, let reason)
        {
            throw TypesetError.fontFolder(path: path, reason: reason)
        }
    }

    /// The size adjustment that makes `family` look as large as `original` (a fallback list):
    /// equal x-heights (OS/2 `sxHeight`, read from the faces), or — when `family` has no Latin
    /// `x`, as in a Hangul-only font — equal Hangul syllable boxes (the ink height of "한"
    /// in each), measured at 100 pt.
    static func xHeightAdjustment(from original: [String], to family: String, fonts: FontSession) -> SizeAdjust {
        let size = 100.0
        let sample = FontSpec(families: [family], size: size)
        let hasLatin = FontLibrary.coverage(of: sample, text: "x", in: fonts).first?.family == family
        if hasLatin {
            let shaper = PangoShaper(session: fonts)
            let before = shaper.metrics(of: FontSpec(families: [original.first ?? family], size: size)).xHeight
            let after = shaper.metrics(of: FontSpec(families: [family], size: size)).xHeight
            return .xHeight(originalRatio: before / size, newRatio: after / size)
        }
        let before = FontLibrary.inkHeight(of: "한", font: FontSpec(families: original, size: size), in: fonts) ?? size
        let after = FontLibrary.inkHeight(of: "한", font: FontSpec(families: [family], size: size), in: fonts) ?? size
        return .xHeight(originalRatio: before / size, newRatio: after / size)
    }
}

/// The families of a font map (installed, and those of its font folders), for existence and
/// weight checks.
struct FontCatalog {
    /// Every family's name, by its name in lower case (fontconfig matches family names without
    /// regard to case). Faces are looked up only for the families asked about.
    let names: [String: String]
    /// The font map the families are listed from.
    let fonts: FontSession

    /// The families of `fonts` (by default the installed fonts alone).
    init(_ fonts: FontSession = FontSession()) {
        var byName: [String: String] = [:]
        for name in FontLibrary.familyNames(in: fonts) { byName[name.lowercased()] = name }
        names = byName
        self.fonts = fonts
    }

    static let generic: Set<String> = [
        "sans", "sans-serif", "serif", "monospace", "mono", "system-ui", "emoji", "cursive", "fantasy",
    ]

    func has(_ family: String) -> Bool {
        FontCatalog.generic.contains(family.lowercased()) || names[family.lowercased()] != nil
    }

    /// The real (not synthesized) upright weights of `family`, lightest first.
    func weights(of family: String) -> [FontWeight] {
        let faces =
            names[family.lowercased()].flatMap({ FontLibrary.family(named: $0, in: fonts) })?.faces.filter {
                !$0.synthesized && !$0.italic
            } ?? []
        return Array(Set(faces.map(\.weight))).sorted()
    }

    /// Removes uninstalled families from every role and from the monospace list. One warning
    /// per distinct substitution, naming the roles it affects (`Body, Caption: family
    /// 'Pretendard' not found; using 'Inter'`), followed by the theme's notes when any.
    func removeMissingFamilies(from theme: inout Theme) -> [String] {
        func kept(_ list: [String]) -> [String] {
            let present = list.filter(has)
            return present.isEmpty ? ["sans-serif"] : present
        }
        var substitutions: [(missing: String, used: String, roles: [TextRole])] = []
        for role in TextRole.allCases {
            var style = theme[role]
            let present = kept(style.families)
            if present.first != style.families.first {
                if let index = substitutions.firstIndex(where: {
                    $0.missing == style.primaryFamily && $0.used == present[0]
                }) {
                    substitutions[index].roles.append(role)
                } else {
                    substitutions.append((style.primaryFamily, present[0], [role]))
                }
            }
            style.families = present
            theme.styles[role] = style
        }
        var warnings = substitutions.map { substitution in
            let roles =
                substitution.roles.count == TextRole.allCases.count
                ? "every role" : substitution.roles.map(\.displayName).joined(separator: ", ")
            return "\(roles): family '\(substitution.missing)' not found; using '\(substitution.used)'"
        }
        if !warnings.isEmpty { warnings += theme.notes.map { "theme '\(theme.name)': \($0)" } }
        theme.monospaceFamilies = kept(theme.monospaceFamilies)
        for (key, list) in theme.families where key != "math" { theme.families[key] = kept(list) }
        // Formulas are set in the first math family there is; with none, the list stays as
        // written and the math layer sets them in the default math font, naming the family
        // (``FontLibrary/mathFallback(for:in:)``): a text face is no math font.
        if let math = theme.families["math"], let first = math.first {
            let present = math.filter(has)
            if !present.isEmpty {
                theme.families["math"] = present
                if present[0] != first {
                    warnings.append("math: family '\(first)' not found; formulas are set in '\(present[0])'")
                }
            }
        }
        return warnings
    }
}
