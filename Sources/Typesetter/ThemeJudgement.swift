internal import CodeHighlighting
import DocumentModel
import Foundation
internal import PangoCairoBackend
import Styling
import Typography

/// The one judgement of a theme or design-token file, shared by `typeset theme check`,
/// `typeset theme import` and `typeset render --theme FILE` (and front matter `theme:`), so that
/// the three accept and refuse the same files with the same words at the same positions.
///
/// It is made in two steps because a theme's `fontFolders` are registered between them when
/// rendering: ``read(_:file:mapping:)`` judges the file itself (UTF-8, JSON, keys, types, units,
/// limits, design-token aliases), ``fontProblems(of:file:text:isFamilyAvailable:)`` the families
/// it names against the installed fonts (a family that is not installed is a warning naming the
/// one its text is set in; a list none of whose families is installed is an error).
public enum ThemeJudgement {
    /// The code styles a theme's `code.style` may name: the built-in `light` and `dark`, and
    /// every theme of the highlighting library by its hyphenated name (`github-light`).
    static let codeStyles: [String: CodeStyle] = LibraryCodeStyles.byName.merging(CodeStyle.builtIn) { $1 }

    /// The code styles a theme file's `text` may name: ``codeStyles`` when it holds a `"style"`
    /// member that could name one, else the built-in ones alone, so that reading a theme that
    /// names no code style does not load the highlighting library (and Qt with it).
    static func codeStyles(for text: String) -> [String: CodeStyle] {
        text.contains("\"style\"") ? codeStyles : CodeStyle.builtIn
    }

    /// The theme `data` describes and every problem of the file itself, in source order. The
    /// file must not be used when some problem is an error; the theme is still given when it
    /// could be read, so that its families can be judged too (nil: it could not be read). A file
    /// with `$type` or `$value` members, or any file when `asTokens`, is read as design tokens
    /// (``TokenImporter``, with `mapping` from token names to roles); one that yields no
    /// typography token at all is refused, as `theme import` refuses it. Which files are design tokens
    /// is ``TokenImporter/isTokenFile(_:)``'s one rule. Problems with no
    /// position of their own are placed where the file writes what they name. `mayReadFolder`
    /// is as ``ThemeLoader/decode(_:file:codeStyles:mayReadFolder:)`` reads it.
    public static func read(
        _ data: Data, file: String, asTokens: Bool = false,
        mapping: [String: TextRole] = [:], mayReadFolder: @escaping (String) -> Bool = { _ in true }
    ) -> (Theme?, [ThemeProblem]) {
        if let problem = encodingProblem(data, file: file) { return (nil, [problem]) }
        let text = String(decoding: data, as: UTF8.self)
        if asTokens || TokenImporter.isTokenFile(data) {
            do {
                let (theme, warnings) = try TokenImporter.importTokens(data, file: file, mapping: mapping)
                // No role set by a token (a file that sets the default's values exactly is fine).
                if theme.styles == Theme.default.styles, TokenImporter.rolesSet(in: data, mapping: mapping) == 0 {
                    // Typography tokens that map to no role are found, but set nothing: said so.
                    let unmapped = warnings.contains { $0.contains("typography tokens not mapped to a role") }
                    let message =
                        unmapped
                        ? "no typography token maps to a role: name the tokens after the roles (body, title, "
                            + "caption…) or map them (--map TOKEN=ROLE or --map-file on the command line)"
                        : "no typography tokens found (a token with $type \"typography\" and a $value with "
                            + "fontFamily, fontSize, …)"
                            + (TokenImporter.isTokenFile(data)
                                ? ""
                                : ": no value in it is a token's `value` or `$value`; if it is a build of design "
                                    + "tokens (Style Dictionary's output, CSS values by name), import the tokens it "
                                    + "was built from")
                    let problem = ThemeProblem(file: file, line: 1, column: 1, message: message)
                    return (nil, warnings.map { parse($0, file: file) } + [problem])
                }
                // The importer has already held the values to the theme's limits.
                return (theme, warnings.map { parse($0, file: file) })
            } catch let error as ThemeError {
                return (nil, error.problems)
            } catch {
                return (nil, [ThemeProblem(file: file, line: 0, column: 0, message: "\(error)")])
            }
        }
        let (theme, problems) = ThemeLoader.decode(
            data, file: file, codeStyles: codeStyles(for: text), mayReadFolder: mayReadFolder)
        var placed = located(problems, text: text)
        if theme == nil, placed.count == 1, placed[0].message.hasPrefix("invalid JSON") {
            // Most often a file named as the theme by mistake (a Markdown file): said so.
            placed[0].message += " (the file was read as a theme, which is a JSON object)"
        }
        return (theme, placed)
    }

    /// The problems of the families `theme` names, placed where `text` (the file) writes them:
    /// a family that is not installed is a warning naming the family its text is set in; a list
    /// none of whose families is installed, the code list included, is an error.
    public static func fontProblems(
        of theme: Theme, file: String, text: String,
        isFamilyAvailable: @escaping (String) -> Bool
    ) -> [ThemeProblem] {
        let withFonts = theme.validate(file: file, isFamilyAvailable: isFamilyAvailable)
        let without = Set(theme.validate(file: file).map(\.message))
        return located(withFonts.filter { !without.contains($0.message) }, text: text)
    }

    /// The weights the theme's roles ask of their families that the families lack, each a
    /// warning placed at the role's `weight` in `text` (else at the role): the weight used
    /// instead (`role Title: 'DejaVu Serif' lacks weight 600; using the nearest: 600 → 700`), or
    /// bold synthesized for a weight of 600 or more with no heavier face. A document using the
    /// theme is not warned of these again (``FontCheck``).
    public static func weightProblems(of theme: Theme, file: String, text: String) -> [ThemeProblem] {
        let catalog = FontCatalog()
        let strings = JSONStringTokens(text).tokens
        var problems: [ThemeProblem] = []
        for role in TextRole.allCases {
            let style = theme[role]
            guard let family = style.families.first(where: { catalog.has($0) && !FontCatalog.generic.contains($0) })
            else { continue }
            let spec = FontSpec(families: [family], weight: style.weight, size: 10)
            let resolved = FontLibrary.resolve(spec, in: catalog.fonts)
            let weight = style.weight.rawValue
            let message: String
            if resolved.boldSynthesized {
                message =
                    "role \(role.displayName): '\(family)' has no face of weight \(weight): bold synthesized "
                    + "(its lighter face emboldened)"
            } else if resolved.familyFound, resolved.weight != style.weight {
                message =
                    "role \(role.displayName): '\(family)' lacks weight \(weight); using the nearest: "
                    + "\(weight) → \(resolved.weight.rawValue)"
            } else {
                continue
            }
            // At the role's own `weight`, else at the role, else unplaced.
            let key = TextRole.normalizedKey(role.rawValue)
            let roleIndex = strings.firstIndex { $0.isKey && TextRole.normalizedKey($0.value) == key }
            let weightToken = roleIndex.flatMap { start in
                strings[(start + 1)...].prefix { !($0.isKey && TextRole(name: $0.value) != nil) }
                    .first { $0.isKey && $0.value == "weight" }
            }
            let place = weightToken ?? roleIndex.map { strings[$0] }
            problems.append(
                ThemeProblem(
                    file: file, line: place?.line ?? 0, column: place?.column ?? 0, message: message,
                    severity: .warning))
        }
        return problems.sorted { ($0.line, $0.column) < ($1.line, $1.column) }
    }

    /// The installed families, by fontconfig (after any folders were registered).
    public static func installedFamilies() -> (String) -> Bool {
        let catalog = FontCatalog()
        return catalog.has
    }

    /// An error at the first byte of `data` that is not UTF-8 (RFC 8259 §8.1: JSON text is
    /// UTF-8), or nil: a name or family with such a byte would be set as U+FFFD.
    static func encodingProblem(_ data: Data, file: String) -> ThemeProblem? {
        let bytes = [UInt8](data)
        var line = 1
        var column = 1
        // A byte order mark is no character of the text (RFC 8259 §8.1 lets a reader ignore it):
        // columns count from after it, as an editor shows them.
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while index < bytes.count {
            let byte = bytes[index]
            let length =
                byte < 0x80
                ? 1
                : byte >= 0xC2 && byte <= 0xDF
                    ? 2
                    : byte >= 0xE0 && byte <= 0xEF
                        ? 3
                        : byte >= 0xF0 && byte <= 0xF4 ? 4 : 0
            var valid = length > 0 && index + length <= bytes.count
            if valid, length > 1 {
                valid = String(validating: bytes[index..<(index + length)], as: UTF8.self) != nil
            }
            guard valid else {
                let hex = String(byte, radix: 16, uppercase: true)
                return ThemeProblem(
                    file: file, line: line, column: column,
                    message: "the file is not UTF-8 (byte 0x\(hex) here); a theme is JSON, which is UTF-8")
            }
            if byte == 0x0A {
                line += 1
                column = 1
            } else {
                column += 1
            }
            index += length
        }
        return nil
    }

    /// A `file:line:column: [warning: ]message` line (as ``TokenImporter`` gives its warnings)
    /// as a problem.
    static func parse(_ line: String, file: String) -> ThemeProblem {
        let problem = TypesetProblem.parse(line, kind: .invalidTheme)
        return ThemeProblem(
            file: problem.file ?? file, line: problem.line ?? 0, column: problem.column ?? 0,
            message: problem.message, severity: problem.severity == .warning ? .warning : .error)
    }

    /// `problems` without a position, each placed at the first place `text` writes what its
    /// message names: the family (or other value) it quotes, as a string or in a comma list, the
    /// role it names, or the last part of the key path it starts with (`page.blockSpacing` →
    /// `"blockSpacing"`).
    public static func located(_ problems: [ThemeProblem], text: String) -> [ThemeProblem] {
        problems.map { problem in
            guard problem.line == 0 else { return problem }
            let quoted = problem.message.split(separator: "'", omittingEmptySubsequences: false)
            let keyPath = problem.message.prefix { !$0.isWhitespace && $0 != ":" }
            let needle: String
            if quoted.count >= 3 {
                needle = String(quoted[1])
            } else if problem.message.hasPrefix("role ") {
                needle = String(problem.message.dropFirst(5).prefix { $0 != ":" })
            } else if keyPath.contains(".") || problem.message.dropFirst(keyPath.count).hasPrefix(":") {
                needle = String(keyPath.split(separator: ".").last ?? "")
            } else {
                needle = ""
            }
            // Written as a string of its own, else as one name of a comma list (`"Roboto, Inter"`).
            guard !needle.isEmpty else { return problem }
            guard
                let range = text.range(of: "\"\(needle)\"") ?? text.range(of: "\"\(needle),")
                    ?? text.range(of: ", \(needle)\"") ?? text.range(of: ", \(needle),")
            else {
                // Written with escapes (`"Caf\u00e9 Sans"`): at the string that decodes to it.
                guard let token = JSONStringTokens(text).first(naming: needle) else { return problem }
                var placed = problem
                placed.line = token.line
                placed.column = token.column
                return placed
            }
            // At the string's quote, or at the name inside a list.
            let start = text[range].first == "\"" ? range.lowerBound : text[range].range(of: needle)!.lowerBound
            let before = text[..<start]
            var placed = problem
            let lines = before.lines()
            placed.line = lines.count
            placed.column = (lines.last?.unicodeScalars.count ?? 0) + 1
            return placed
        }
    }
}
