internal import CPangoCairo
import Foundation

/// Family names a fontconfig configuration knows nothing of: no installed face (nor one of the
/// configuration's added files) has the name, and no rule of its configuration files mentions
/// it. Such a name adds no face to a request's fallback list and changes nothing fontconfig does
/// with the rest of it, so every one of them can stand for every other, and the list without
/// the later ones is the same request.
///
/// Why the sort is the same: fontconfig scores a face's family by the position of the first
/// name of the request's list it has (fontconfig `FcCompareValueList`: mismatch × 1000 plus the
/// position), so a name no face has only moves every later name's position up by one for every
/// face alike, and the order of the faces stays; and a rule that tests the family either names
/// the family it looks for (`eq`, `contains`: never this one) or asks that no name of the list
/// be one (`qual="all"` with `not_eq`: this one is none), so the same rules apply with it or
/// without it. A configuration with another kind of family test, or a rule that copies the
/// family into another property (`<name>family</name>`), is not reasoned about: no name is
/// unknown in it.
///
/// A render's lists name such families when a `family=` span or div asks for one that is not
/// installed; every distinct list would otherwise cost Pango a fontconfig substitution, match
/// and sort of every installed face (about 6 million instructions) per weight, style and size.
final class UnknownFamilies: @unchecked Sendable {
    /// The name every unknown family of a list is asked as, in the first family's place (so
    /// that the first family alone, which line metrics are measured with, is still a name
    /// fontconfig knows nothing of); nil when the configuration's rules could not be reasoned
    /// about, and no family is treated as unknown.
    var standIn: String? { rules.understood ? Self.standInName : nil }
    /// Installed family names (every name each face has), ``normalized(_:)``.
    private let installed: Set<String>
    /// The configuration the rules are read from (nil: fontconfig's current one).
    private let config: OpaquePointer?
    /// What the configuration's files say about families, read the first time a name that no
    /// installed face has is judged: a render that asks only for installed families and generic
    /// names never reads them.
    private var readRules: Rules?
    private let rulesLock = NSLock()

    /// What the configuration files say about families.
    private struct Rules {
        /// False when a rule tests or uses the family in a way not reasoned about, or the files
        /// could not be read: then no name is unknown.
        var understood: Bool
        /// The text of every element of the configuration files, ``normalized(_:)``.
        var mentioned: Set<String>
        /// Strings a rule tests the family for containing (`compare="contains"`), ``normalized(_:)``.
        var contained: [String]
    }

    /// The analysis of `configuration`, made once per configuration.
    static func of(_ configuration: FontConfiguration) -> UnknownFamilies {
        registryLock.lock()
        defer { registryLock.unlock() }
        registry.removeAll { $0.configuration == nil }
        if let entry = registry.first(where: { $0.configuration === configuration }) { return entry.families }
        let made = UnknownFamilies(config: configuration.config)
        registry.append(RegistryEntry(configuration: configuration, families: made))
        return made
    }
    private struct RegistryEntry {
        weak var configuration: FontConfiguration?
        let families: UnknownFamilies
    }
    nonisolated(unsafe) private static var registry: [RegistryEntry] = []
    private static let registryLock = NSLock()

    /// The analysis of `config` (nil: fontconfig's current configuration).
    init(config: OpaquePointer?) {
        var installed = Set<String>()
        for set in [FcSetSystem, FcSetApplication] {
            guard let fonts = FcConfigGetFonts(config, set) else { continue }
            for index in 0..<Int(fonts.pointee.nfont) {
                guard let pattern = fonts.pointee.fonts[index] else { continue }
                var position: Int32 = 0
                var name: UnsafeMutablePointer<FcChar8>?
                while FcPatternGetString(pattern, "family", position, &name) == FcResultMatch, let name {
                    installed.insert(Self.normalized(String(cString: name)))
                    position += 1
                }
            }
        }
        self.installed = installed
        self.config = config
    }

    /// The configuration's rules, read once, under a lock (renders on several threads share
    /// one configuration's analysis).
    private var rules: Rules {
        rulesLock.lock()
        defer { rulesLock.unlock() }
        if let readRules { return readRules }
        let text = Self.readRules(config)
        let mentioned = text?.mentioned ?? []
        let contained = text?.contained ?? []
        let standInIsUnknown = Self.isUnknown(
            Self.standInName, installed: installed, mentioned: mentioned, contained: contained)
        let made = Rules(
            understood: text != nil && !Self.derivesFromFamily(config) && standInIsUnknown,
            mentioned: mentioned, contained: contained)
        readRules = made
        return made
    }

    /// True when fontconfig's defaults give a request a property made from its first family (a
    /// PostScript name, which faces are then scored by): the first family could not be asked
    /// as another unknown name.
    private static func derivesFromFamily(_ config: OpaquePointer?) -> Bool {
        guard let probe = FcPatternCreate() else { return true }
        defer { FcPatternDestroy(probe) }
        _ = FcPatternAddString(probe, "family", standInName)
        _ = FcConfigSubstitute(config, probe, FcMatchPattern)
        FcDefaultSubstitute(probe)
        var name: UnsafeMutablePointer<FcChar8>?
        return FcPatternGetString(probe, "postscriptname", 0, &name) == FcResultMatch
    }

    /// The stand-in's name: one no font is expected to have.
    static let standInName = "Typeset Unknown Family"

    /// Generic names Pango and fontconfig give faces to whatever is installed.
    private static let generic: Set<String> = [
        "sans", "sans-serif", "serif", "monospace", "mono", "system-ui", "cursive", "fantasy", "emoji", "math",
        "ui-sans-serif", "ui-serif", "ui-monospace", "ui-rounded",
    ]

    /// True when `family` is a name this configuration knows nothing of. Only printable ASCII
    /// names are judged (fontconfig folds the case of other letters by tables of its own);
    /// any other name is taken as known.
    func contains(_ family: String) -> Bool {
        guard let name = Self.uninstalledName(family, installed: installed) else { return false }
        let rules = rules
        return rules.understood && Self.isUnmentioned(name, mentioned: rules.mentioned, contained: rules.contained)
    }

    private static func isUnknown(
        _ family: String, installed: Set<String>, mentioned: Set<String>, contained: [String]
    ) -> Bool {
        guard let name = uninstalledName(family, installed: installed) else { return false }
        return isUnmentioned(name, mentioned: mentioned, contained: contained)
    }

    /// `family` ``normalized(_:)`` when it is printable ASCII, not generic and no installed
    /// face's name; else nil.
    private static func uninstalledName(_ family: String, installed: Set<String>) -> String? {
        guard !family.isEmpty, family.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
        let name = normalized(family)
        if name.isEmpty || generic.contains(name) || installed.contains(name) { return nil }
        return name
    }

    /// True when no configuration file names `name` (normalized) nor tests for a part of it.
    private static func isUnmentioned(_ name: String, mentioned: Set<String>, contained: [String]) -> Bool {
        !mentioned.contains(name) && !contained.contains { name.contains($0) }
    }

    /// `text` as fontconfig compares family names, or more loosely: lower case, without white
    /// space (`FcStrCmpIgnoreBlanksAndCase` ignores spaces; treating more names as equal only
    /// keeps more families).
    static func normalized(_ text: String) -> String {
        guard text.utf8.allSatisfy({ $0 < 0x80 }) else {
            return String(text.lowercased().unicodeScalars.filter { !$0.properties.isWhitespace })
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 where byte != 0x20 && !(0x09...0x0D).contains(byte) {
            bytes.append((0x41...0x5A).contains(byte) ? byte + 0x20 : byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// What the configuration files of `config` say about families: the text of every element,
    /// and the strings of `contains` tests on the family; nil when a file cannot be read, or a
    /// rule tests or uses the family in a way ``UnknownFamilies`` does not reason about.
    private static func readRules(_ config: OpaquePointer?) -> (mentioned: Set<String>, contained: [String])? {
        guard let list = FcConfigGetConfigFiles(config) else { return ([], []) }
        defer { FcStrListDone(list) }
        var rules = RuleText()
        while let path = FcStrListNext(list) {
            let file = String(cString: path)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: file, isDirectory: &isFolder) else { continue }
            if isFolder.boolValue { continue }
            guard let data = FileManager.default.contents(atPath: file), let text = String(data: data, encoding: .utf8)
            else { return nil }
            guard rules.read(text) else { return nil }
        }
        return (rules.mentioned, rules.contained)
    }
}

/// The text of fontconfig configuration files as ``UnknownFamilies`` reads it: a scan of their
/// elements, not a full XML parse (comments and processing instructions skipped, the five
/// predefined entities decoded).
private struct RuleText {
    var mentioned = Set<String>()
    var contained: [String] = []
    /// False once a file has a family test or use that is not reasoned about.
    private var understood = true
    /// Inside a `<test name="family" compare="contains">` (or `not_contains`).
    private var inContainsTest = false
    /// The name of the last element opened.
    private var lastOpened = ""

    /// Reads one file; false when it has a family test or use that is not reasoned about.
    mutating func read(_ text: String) -> Bool {
        var rest = Substring(text)
        while !rest.isEmpty {
            guard let open = rest.firstIndex(of: "<") else {
                note(rest)
                break
            }
            note(rest[..<open])
            if rest[open...].hasPrefix("<!--") {
                guard let end = rest.range(of: "-->", range: open..<rest.endIndex) else { break }
                rest = rest[end.upperBound...]
                continue
            }
            guard let close = rest[open...].firstIndex(of: ">") else { break }
            let tag = rest[rest.index(after: open)..<close]
            rest = rest[rest.index(after: close)...]
            guard take(tag) else { return false }
        }
        return understood
    }

    /// Takes in one tag's inside (between `<` and `>`).
    private mutating func take(_ inside: Substring) -> Bool {
        if inside.hasPrefix("/") {
            if inside.dropFirst().trimmingCharacters(in: .whitespaces) == "test" { inContainsTest = false }
            lastOpened = ""
            return true
        }
        if inside.hasPrefix("?") || inside.hasPrefix("!") { return true }
        let name = String(inside.prefix { !$0.isWhitespace && $0 != "/" })
        lastOpened = name
        guard name == "test" else { return true }
        let attributes = Self.attributes(inside.dropFirst(name.count))
        guard attributes["name"] == "family" else { return true }
        let qual = attributes["qual"] ?? "any"
        let compare = attributes["compare"] ?? "eq"
        switch (qual, compare) {
        case ("any", "eq"), ("any", "contains"), ("all", "not_eq"), ("all", "not_contains"),
            ("first", _), ("not_first", "eq"), ("not_first", "contains"):
            inContainsTest = compare.hasSuffix("contains")
            return true
        default:
            return false
        }
    }

    /// Takes in the text between two tags.
    private mutating func note(_ text: Substring) {
        let decoded = Self.decoded(text.trimmingCharacters(in: .whitespacesAndNewlines))
        guard !decoded.isEmpty else { return }
        let name = UnknownFamilies.normalized(decoded)
        mentioned.insert(name)
        if inContainsTest { contained.append(name) }
        // A rule that uses the family's value elsewhere: `<name>family</name>`.
        if lastOpened == "name", name == "family" { understood = false }
    }

    /// `name="value"` pairs of a tag.
    private static func attributes(_ text: Substring) -> [String: String] {
        var result: [String: String] = [:]
        var rest = text
        while let equals = rest.firstIndex(of: "=") {
            let key = rest[..<equals].trimmingCharacters(in: .whitespacesAndNewlines)
            var value = rest[rest.index(after: equals)...].drop { $0.isWhitespace }
            guard let quote = value.first, quote == "\"" || quote == "'" else { break }
            value = value.dropFirst()
            guard let end = value.firstIndex(of: quote) else { break }
            result[key] = decoded(String(value[..<end]))
            rest = value[value.index(after: end)...]
        }
        return result
    }

    /// `text` with XML's predefined entities replaced.
    private static func decoded(_ text: String) -> String {
        guard text.contains("&") else { return text }
        return text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
