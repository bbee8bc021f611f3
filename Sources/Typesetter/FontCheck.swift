import DocumentModel
import Foundation
import Layout
internal import PangoCairoBackend
import Styling
import Typography

/// Warnings for every text Typeset draws — body, table cells, captions, footnotes, contents
/// entries and their title, running heads and feet — whose faces are not what the styles asked
/// for: a family that is not installed (a `family=` span or div), a weight the family lacks or
/// that is synthesized, an italic that would be synthesized, characters no installed font draws.
///
/// Each warning names the place in the source of the first text that needs the face or the
/// character: the first character of the first run set in it (for a fallback family, the
/// run's first character that needs the fallback), found with a ``SourceCursor`` from the
/// block's start. A missing weight or an unknown family is warned about once, where it is
/// first needed; characters no font draws once per block that first shows them, at the first
/// of them. A running head or foot, the title block and the contents have no text of their own
/// in the document: a running text names the front matter field it came from, when it did,
/// and the title block its field.
///
/// The primary family is always checked; fallback families only for runs holding characters
/// beyond Latin (U+2E80 and up: CJK, Hangul), which is where fallbacks are used.
///
/// Paragraphs are visited one block at a time, in the order they print (``visit(_:)``); each
/// new face request is resolved as it is met and each block's new characters are looked up
/// together once the block is read, so a document is checked as it streams and only the
/// warnings and the distinct requests and characters are kept. Two checks of consecutive parts
/// of a document join with ``append(_:)``.
struct FontCheck {
    struct Request: Hashable {
        var family: String
        var weight: FontWeight
        var italic: Bool
        /// The weight is the paragraph's own (its role's), or what `**strong**` makes of it
        /// (CSS `bolder`, once or twice): the theme's cascade asked for it, not an attribute.
        var ownCascade: Bool
        /// The run sets letters of a script set in italics (``hasItalics(_:)``) in the family,
        /// its first: a face of Hangul or Han that lacks an italic slants them.
        var slantsLetters = false
    }
    /// The document's source, where warnings find the text's line and column.
    var source = SourcePositions()

    /// Requests that warn: the request, where it is first needed, the run style that made it
    /// (the lookups share the fontconfig work shaping does for that style, see
    /// `FontLibrary.resolve`), and what it resolved to.
    private var problems: [(request: Request, location: SourceLocation?, spec: FontSpec, resolved: ResolvedFace)] = []
    /// Every request met, warning or not.
    private var seen = Set<Request>()
    /// A family list each family was seen in.
    private var listOf: [String: [String]] = [:]
    /// The first run style of each asked family list (coverage is asked with it).
    private var styles: [[String]: FontSpec] = [:]
    /// The first run style of each asked family list that needs a face beyond the first family
    /// (characters from U+2E80 on): coverage is asked with it when there is one, so the check
    /// loads the whole list at a size and weight shaping loads it at anyway — text the first
    /// family's face has is shaped with that family alone (`FontLibrary.coverage`).
    private var fallbackStyles: [[String]: FontSpec] = [:]
    /// Each family list met, as Pango is asked for it (`FontLibrary.askedFamilies`): lists
    /// that differ only in families that are not installed draw every character alike, so
    /// styles and characters are kept per asked list, and a document naming thousands of
    /// missing families looks its characters up once.
    private var askedLists: [[String]: [String]] = [:]
    /// Characters already looked up, per asked family list; printable ASCII as a 94-bit set (most
    /// text is ASCII, and a bit test is far cheaper than hashing a `Character`).
    private var checked: [[String]: Set<Character>] = [:]
    private var checkedASCII: [[String]: (UInt64, UInt64)] = [:]
    /// Characters no font draws, one entry per block that first shows some of them.
    private var missing: [(characters: [Character], location: SourceLocation?, running: Bool)] = []
    private var missingSet = Set<Character>()
    /// The math family of the first formula visited and where that formula is written (its
    /// MATH table is checked once, ``diagnostics(theme:)``).
    private var firstFormula: (family: String, location: SourceLocation?)?

    /// The font map the requests are resolved on: the render's (``ResolvedSettings/fonts``).
    let fonts: FontSession

    /// A check of text in `source`, resolving faces on `fonts`.
    init(source: SourcePositions = SourcePositions(), fonts: FontSession) {
        self.source = source
        self.fonts = fonts
    }

    /// Notes every paragraph `block` holds, its footnotes (at their definitions) after it.
    mutating func visit(_ block: StyledBlock) {
        for marker in block.hangingMarkers where !marker.runs.isEmpty {
            visit(
                StyledParagraph(
                    runs: [], style: ParagraphStyle(baseFont: marker.runs[0].style.font), marker: marker.runs),
                at: block.location, running: false)
        }
        switch block.content {
        case .paragraph(let paragraph): visit(CollectionOfOne(paragraph), at: block.location, running: false)
        case .rule, .pageBreak: break
        default: visit(block.paragraphs, at: block.location, running: false)
        }
        guard !block.footnotes.isEmpty else { return }
        for number in block.footnotes.keys.sorted() {
            let location = block.footnoteLocations[number] ?? block.location
            for note in block.footnotes[number]! { visit(note.paragraphs, at: location, running: false) }
        }
    }

    /// Notes the faces and characters of `paragraph`, which prints at `location` (a running
    /// head or foot, `running`: the front matter field it came from, or nil; its text is not
    /// looked for in the source).
    mutating func visit(_ paragraph: StyledParagraph, at location: SourceLocation?, running: Bool) {
        visit(CollectionOfOne(paragraph), at: location, running: running)
    }

    /// A place in the text of one visit: the UTF-8 offset into its paragraphs' runs, read in
    /// order (markers not counted: they are not in the source).
    private typealias Offset = Int

    /// What one visit found new: requests that warn and characters to look up, each with the
    /// offset of the text that first needs it (nil: a marker, placed at the block).
    private struct Findings {
        var problems: [(Request, FontSpec, ResolvedFace, Offset?)] = []
        var characters: [[String]: [(Character, Offset?)]] = [:]
    }

    private mutating func visit<C: Collection<StyledParagraph>>(
        _ paragraphs: C, at location: SourceLocation?, running: Bool
    ) {
        var findings = Findings()
        var offset = 0
        // Where each formula is written, by its run's offsets: its text is not in the source.
        var formulaPlaces: [(offsets: Range<Offset>, location: SourceLocation?)] = []
        // The formulas' symbol characters, each looked up once, with the first formula that
        // holds it and the text style a symbol the math font lacks is set in.
        var symbols: [(character: Character, offset: Offset, style: RunStyle, weight: FontWeight)] = []
        var symbolsSeen = Set<Character>()
        for paragraph in paragraphs {
            for run in paragraph.runs {
                if let formula = run.style.inlineFormula {
                    if firstFormula == nil { firstFormula = (formula.family, formula.location ?? location) }
                    // The formula's `\text{…}` is set in the surrounding text's face: checked
                    // as text of that face, placed at the formula (its first piece only).
                    formulaPlaces.append((offset..<(offset + max(1, run.text.utf8.count)), formula.location))
                    var prose = run.style
                    prose.font.families = formula.textFont.families
                    let checked: (prose: [String], symbols: String) =
                        formula.piece == 0 ? formula.formula.checkedTexts : ([], "")
                    for text in checked.prose {
                        note(
                            StyledRun(text, style: prose), at: offset, paragraphWeight: paragraph.style.baseFont.weight,
                            into: &findings)
                    }
                    for character in checked.symbols where symbolsSeen.insert(character).inserted {
                        symbols.append((character, offset, prose, paragraph.style.baseFont.weight))
                    }
                }
                note(run, at: offset, paragraphWeight: paragraph.style.baseFont.weight, into: &findings)
                offset += run.text.utf8.count
            }
            for run in paragraph.marker ?? [] {
                note(run, at: nil, paragraphWeight: paragraph.style.baseFont.weight, into: &findings)
            }
        }
        for symbol in symbols {
            note(
                StyledRun(String(symbol.character), style: symbol.style), at: symbol.offset,
                paragraphWeight: symbol.weight, into: &findings)
        }
        guard !findings.problems.isEmpty || !findings.characters.isEmpty else { return }
        // The characters met for the first time, looked up together (per family list).
        var missingHere: [(Character, Offset?)] = []
        for (families, characters) in findings.characters {
            let style = fallbackStyles[families] ?? styles[families] ?? FontSpec(families: families, size: 10)
            var offsets: [Character: Offset?] = [:]
            for (character, offset) in characters where offsets[character] == nil { offsets[character] = offset }
            for result in FontLibrary.coverage(of: style, text: String(characters.map(\.0)), in: fonts)
            where result.family == nil {
                guard !missingSet.contains(result.character) else { continue }
                missingHere.append((result.character, offsets[result.character] ?? nil))
            }
        }
        // Where the text that needs each was written.
        let wanted = findings.problems.compactMap(\.3) + missingHere.compactMap(\.1)
        let places = running ? [:] : positions(of: Set(wanted), in: paragraphs, from: location)
        func place(_ offset: Offset?) -> SourceLocation? {
            guard let offset else { return location }
            if let formula = formulaPlaces.first(where: { $0.offsets.contains(offset) }), let place = formula.location {
                return place
            }
            return places[offset] ?? location
        }
        for (request, spec, resolved, at) in findings.problems {
            problems.append((request, place(at), spec, resolved))
        }
        if !missingHere.isEmpty {
            var unique: [(Character, Offset?)] = []
            for entry in missingHere where missingSet.insert(entry.0).inserted { unique.append(entry) }
            let first = unique.min { ($0.1 ?? .max) < ($1.1 ?? .max) }
            missing.append((unique.map(\.0).sorted(), place(first?.1), running))
        }
    }

    /// Notes `run`'s face requests and characters met for the first time; `offset` is where its
    /// text starts in the visit (nil for a marker).
    private mutating func note(
        _ run: StyledRun, at offset: Offset?, paragraphWeight: FontWeight,
        into findings: inout Findings
    ) {
        let strong = Styler.bolder(paragraphWeight)
        let cascade =
            !run.style.weightAsked && [paragraphWeight, strong, Styler.bolder(strong)].contains(run.style.font.weight)
        let font = run.style.font
        let list: [String]
        if let known = askedLists[font.families] {
            list = known
        } else {
            list = FontLibrary.askedFamilies(font.families, in: fonts)
            askedLists[font.families] = list
        }
        if styles[list] == nil { styles[list] = font }
        var allASCII = true
        var low: UInt64 = 0
        var high: UInt64 = 0
        run.text.withUTF8Bytes { bytes in
            for byte in bytes {
                if byte >= 0x80 {
                    allASCII = false
                    break
                }
                // Printable ASCII only: controls and the space are never checked.
                if byte > 0x20 && byte < 0x7F {
                    if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
                }
            }
        }
        let needsFallback = !allASCII && run.text.unicodeScalars.contains(where: Self.isSetInAFallbackFace)
        if needsFallback, fallbackStyles[list] == nil { fallbackStyles[list] = font }
        for (position, family) in (needsFallback ? font.families[...] : font.families.prefix(1)).enumerated() {
            if listOf[family] == nil { listOf[family] = font.families }
            // A face of Hangul or Han, which are not set in italics, slants its Latin letters
            // for an italic it lacks: said where such a letter is set in it (the first family).
            let slantsLetters =
                font.italic && position == 0 && run.text.unicodeScalars.contains(where: Self.hasItalics)
            let request = Request(
                family: family, weight: font.weight, italic: font.italic, ownCascade: cascade,
                slantsLetters: slantsLetters)
            guard seen.insert(request).inserted else { continue }
            let spec = FontSpec(
                families: Array(font.families.drop { $0 != family }), weight: font.weight,
                italic: font.italic, size: font.size)
            var resolved = FontLibrary.resolve(spec, in: fonts)
            if slantsLetters { resolved.setsScriptWithoutItalics = false }
            guard !resolved.warnings.isEmpty else { continue }
            // The primary family is needed from the run's first letter on; a fallback from its
            // first character beyond Latin.
            let first: String.Index? =
                position == 0
                ? run.text.utf8.firstIndex { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A }
                : run.text.unicodeScalars.firstIndex(where: Self.isSetInAFallbackFace)
            let at = offset.map {
                $0 + run.text.utf8.distance(from: run.text.utf8.startIndex, to: first ?? run.text.utf8.startIndex)
            }
            findings.problems.append((request, spec, resolved, at))
        }
        if allASCII {
            guard low | high != 0 else { return }
            let old = checkedASCII[list] ?? (0, 0)
            let new = (low & ~old.0, high & ~old.1)
            guard new.0 | new.1 != 0 else { return }
            checkedASCII[list] = (old.0 | low, old.1 | high)
            // The first place of each new character in this run.
            var pending = new
            for (i, byte) in run.text.utf8.enumerated() where byte > 0x20 && byte < 0x7F {
                let bit: UInt64 = byte < 64 ? 1 << UInt64(byte) : 1 << UInt64(byte - 64)
                if byte < 64 ? pending.0 & bit != 0 : pending.1 & bit != 0 {
                    if byte < 64 { pending.0 &= ~bit } else { pending.1 &= ~bit }
                    findings.characters[list, default: []].append(
                        (Character(Unicode.Scalar(byte)), offset.map { $0 + i }))
                    if pending.0 | pending.1 == 0 { break }
                }
            }
            return
        }
        // The family list's checked characters are looked up once for the run, not once per
        // character (hashing the list each time cost more than the check itself).
        let oldASCII = checkedASCII[list]
        var ascii = oldASCII ?? (0, 0)
        var others = checked.removeValue(forKey: list)
        defer {
            if ascii != oldASCII ?? (0, 0) { checkedASCII[list] = ascii }
            if let others { checked[list] = others }
        }
        var index = run.text.utf8.startIndex
        for character in run.text {
            defer { index = run.text.utf8.index(index, offsetBy: character.utf8.count) }
            guard !character.isWhitespace, let scalar = character.unicodeScalars.first else { continue }
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse: continue
            default: break
            }
            if character.isASCII, let byte = character.asciiValue {
                let bit: UInt64 = byte < 64 ? 1 << UInt64(byte) : 1 << UInt64(byte - 64)
                if (byte < 64 ? ascii.0 : ascii.1) & bit != 0 { continue }
                if byte < 64 { ascii.0 |= bit } else { ascii.1 |= bit }
            } else if others == nil {
                others = [character]
            } else {
                guard others!.insert(character).inserted else { continue }
            }
            let at = offset.map { $0 + run.text.utf8.distance(from: run.text.utf8.startIndex, to: index) }
            findings.characters[list, default: []].append((character, at))
        }
    }

    /// Whether `scalar` is a letter of a script set in italics: Latin, Greek, Cyrillic.
    static func hasItalics(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x0530 || (0x1E00...0x1FFF).contains(scalar.value)) && scalar.properties.isAlphabetic
    }

    /// The warning for a theme's math family that formulas are not set in: not installed (nor
    /// registered with `--fonts` or the theme's font folders), or a face without an OpenType
    /// MATH table; and what they are set in instead.
    static func mathFallbackMessage(_ fallback: MathFamilyFallback) -> String {
        let instead =
            fallback.fallback.map { "formulas are set in '\($0)' instead" }
            ?? "and neither has the default math family; formulas are left out"
        let why =
            switch fallback.reason {
            case .notInstalled: "is not installed"
            case .noMathTable:
                "has no OpenType MATH table (a text face cannot set fractions, radicals or stretchy delimiters)"
            }
        let remedy =
            fallback.reason == .notInstalled
            ? "register the font with fontFolders or --fonts, or name an installed OpenType math font"
            : "name an OpenType math font"
        return "the math family '\(fallback.family)' \(why): \(instead); \(remedy) in the theme's families.math"
    }

    /// Whether `scalar` is one the theme's fallback families are there for, past the first
    /// family's Latin: Hangul (its jamo too) and the CJK scripts and forms (U+2E80–U+FFEF, and
    /// the supplementary ideographs). An emoji is not: Pango sets it in the emoji face whatever
    /// the list, so a fallback family's missing italic never shows on it.
    static func isSetInAFallbackFace(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return (0x1100...0x11FF).contains(value) || (0x2E80...0xFFEF).contains(value)
            || (0x20000...0x3FFFF).contains(value)
    }

    /// The source location of the text at each of `offsets` in `paragraphs`, read beside the
    /// source from `start` (see ``SourceCursor``); an offset not found is left out.
    private func positions<C: Collection<StyledParagraph>>(
        of offsets: Set<Offset>, in paragraphs: C, from start: SourceLocation?
    ) -> [Offset: SourceLocation] {
        guard let last = offsets.max(), let start, var cursor = SourceCursor(source, at: start) else { return [:] }
        var result: [Offset: SourceLocation] = [:]
        var offset = 0
        outer: for paragraph in paragraphs {
            for run in paragraph.runs {
                guard offset <= last else { break outer }
                defer { offset += run.text.utf8.count }
                if case .internal(let name)? = run.style.link, name.hasPrefix("fn-"), run.text.allSatisfy(\.isNumber) {
                    // A footnote reference's number: its `[^label]`.
                    let found = cursor.findFootnoteReference()
                    if offsets.contains(offset) { result[offset] = found }
                    continue
                }
                if run.style.inlineImage != nil {
                    let found = cursor.findPicture()
                    if offsets.contains(offset) { result[offset] = found }
                    continue
                }
                var at = offset
                for character in run.text {
                    let found = cursor.find(character)
                    if offsets.contains(at) { result[at] = found }
                    at += character.utf8.count
                    if at > last { break }
                }
            }
        }
        return result
    }

    /// Adds what `other` saw, as if its paragraphs were visited after this check's.
    mutating func append(_ other: FontCheck) {
        if firstFormula == nil { firstFormula = other.firstFormula }
        for problem in other.problems where !seen.contains(problem.request) { problems.append(problem) }
        seen.formUnion(other.seen)
        styles.merge(other.styles) { mine, _ in mine }
        for (family, list) in other.listOf where listOf[family] == nil { listOf[family] = list }
        askedLists.merge(other.askedLists) { mine, _ in mine }
        for (families, set) in other.checked { checked[families, default: []].formUnion(set) }
        for (families, bits) in other.checkedASCII {
            let old = checkedASCII[families] ?? (0, 0)
            checkedASCII[families] = (old.0 | bits.0, old.1 | bits.1)
        }
        for entry in other.missing {
            let characters = entry.characters.filter { missingSet.insert($0).inserted }
            if !characters.isEmpty { missing.append((characters, entry.location, entry.running)) }
        }
    }

    /// The warnings for everything visited. A weight `theme`'s own cascade asks of one of its
    /// own families — a semibold heading's or table header's inline code in the monospaced
    /// family, Hangul in a semibold role — is not the document's doing and is not warned about
    /// in every document: the nearest weight is used. A weight an attribute asks for is, and so
    /// is any weight of `chosenFamily`, the family the user swapped in (`--family`, `mainfont`),
    /// which no theme check has seen.
    func diagnostics(theme: Theme? = nil, chosenFamily: String? = nil) -> [Diagnostic] {
        var themeFamilies = Set(theme?.familyNames ?? [])
        if let chosenFamily { themeFamilies.remove(chosenFamily) }
        var diagnostics: [Diagnostic] = []
        var messages = Set<String>()
        func warn(_ message: String, _ location: SourceLocation?, distinction: String? = nil) {
            if messages.insert(message).inserted {
                var diagnostic = Diagnostic(.warning, message, at: location, kind: .font)
                diagnostic.distinction = distinction
                diagnostics.append(diagnostic)
            }
        }
        var synthesized: [(family: String, weights: Set<Int>, location: SourceLocation?, position: Int)] = []
        for (request, location, _, resolved) in problems {
            guard resolved.familyFound else {
                // The theme's own families were checked (and dropped) with the theme: what is left
                // was asked for in the document (a `family=` span or div).
                let list = listOf[request.family] ?? []
                let next = list.drop { $0 != request.family }.dropFirst().first {
                    FontLibrary.resolve(FontSpec(families: [$0], weight: request.weight, size: 10), in: fonts)
                        .familyFound
                }
                warn("family '\(request.family)' not found; using '\(next ?? resolved.family)'", location)
                continue
            }
            // A weight the family lacks: one warning per weight, where it is first needed.
            let fromTheme = request.ownCascade && themeFamilies.contains(request.family)
            if fromTheme, resolved.boldSynthesized || resolved.weight != request.weight {
                // The theme's own request: said by `theme check`, not by every document.
            } else if resolved.boldSynthesized {
                // Each family's synthesized weights are said in one warning, at the first place.
                if let index = synthesized.firstIndex(where: { $0.family == resolved.family }) {
                    synthesized[index].weights.insert(request.weight.rawValue)
                } else {
                    synthesized.append((resolved.family, [request.weight.rawValue], location, diagnostics.count))
                }
            } else if resolved.weight != request.weight {
                let hint =
                    resolved.family.hasPrefix("Noto Sans CJK")
                    ? " (Debian's fonts-noto-cjk has Regular and Bold only; the package fonts-noto-cjk-extra has "
                        + "every weight)"
                    : ""
                warn(
                    "'\(resolved.family)' lacks weight \(request.weight.rawValue); using the nearest: "
                        + "\(request.weight.rawValue) → \(resolved.weight.rawValue)\(hint)",
                    location, distinction: "\(request.weight.rawValue) → \(resolved.weight.rawValue)")
            }
            for warning in resolved.warnings where !warning.hasPrefix("no weight") && !warning.hasPrefix("no bold") {
                warn(warning, location)
            }
        }
        for entry in synthesized.reversed() {
            let weights = entry.weights.sorted().map(String.init)
            let named = weights.count == 1 ? "weight \(weights[0])" : "weights \(weights.joined(separator: ", "))"
            let message =
                "'\(entry.family)' has no face of \(named): bold synthesized (its lighter face emboldened)"
            diagnostics.insert(Diagnostic(.warning, message, at: entry.location, kind: .font), at: entry.position)
        }
        if let firstFormula, let fallback = FontLibrary.mathFallback(for: firstFormula.family, in: fonts) {
            warn(Self.mathFallbackMessage(fallback), firstFormula.location)
        }
        return diagnostics
            + missing.map { entry in
                let list = entry.characters.prefix(12).map { character in
                    "'\(character)' " + character.unicodeScalars.map(TextSanitizer.codePoint).joined(separator: " ")
                }.joined(separator: ", ")
                let more = entry.characters.count > 12 ? " and \(entry.characters.count - 12) more" : ""
                let what = entry.running ? " in a running head or foot" : ""
                let count = entry.characters.count
                return Diagnostic(
                    .warning,
                    "no installed font draws \(count) character\(count == 1 ? "" : "s")\(what): \(list)\(more); they "
                        + "print as boxes (install a font that has them, or register one with --fonts)",
                    at: entry.location, kind: .font)
            }
    }
}

/// Warnings for image files that will draw as placeholders: missing, unreadable, or in a
/// format no image loader reads (checked with the decoder that sizes and draws them). The
/// warning names the path as written and the path tried, and its subject is the address, so a
/// renderer places it where the address is written.
enum ImageCheck {
    static func diagnostics(for blocks: [StyledBlock]) -> [Diagnostic] {
        blocks.compactMap(diagnostic(for:))
    }

    /// The warning for `block` when it is an image that will draw as a placeholder.
    static func diagnostic(for block: StyledBlock) -> Diagnostic? {
        guard case .image(let image) = block.content, !image.path.isEmpty else { return nil }
        let writtenWhole = image.source.isEmpty ? (image.path as NSString).lastPathComponent : image.source
        let written = shown(writtenWhole)
        let tried = writtenWhole == image.path ? "" : " (tried \(shown(image.path)))"
        // Placed where the address is written, not at the block's `!`.
        let subject = image.source.isEmpty ? nil : String(image.source.prefix(24))
        if !FileManager.default.isReadableFile(atPath: image.path) {
            return Diagnostic(
                .warning, "image '\(written)' not found or unreadable\(tried); drawing a placeholder",
                at: block.location, kind: .image, subject: subject)
        }
        if !ImageDecoder.isDrawable(image.path) {
            return Diagnostic(
                .warning, "image '\(written)'\(tried) \(problem(ofFile: image.path)); drawing a placeholder",
                at: block.location, kind: .image, subject: subject)
        }
        return nil
    }

    /// Warnings for the SVG pictures of `block`, the block's own and those inside its lines,
    /// that link to other files (``ImageProbe/Examination/linkedFiles``): those files are never
    /// read, so what they would draw is missing, and the warning says so, at the picture's
    /// address.
    static func linkWarnings(for block: StyledBlock) -> [Diagnostic] {
        var pictures: [(path: String, written: String)] = []
        if case .image(let image) = block.content, !image.path.isEmpty {
            pictures.append(
                (image.path, image.source.isEmpty ? (image.path as NSString).lastPathComponent : image.source))
        }
        for paragraph in block.paragraphs {
            for run in paragraph.runs {
                guard let picture = run.style.inlineImage else { continue }
                pictures.append((picture.path, (picture.path as NSString).lastPathComponent))
            }
        }
        return pictures.compactMap { picture in
            guard picture.path.lowercased().hasSuffix(".svg") || picture.path.lowercased().hasSuffix(".svgz") else {
                return nil
            }
            let links = ImageProbe.examine(picture.path).linkedFiles
            guard let first = links.first else { return nil }
            let others = links.count > 1 ? " and \(links.count - 1) more" : ""
            return Diagnostic(
                .warning,
                "image '\(shown(picture.written))' links to '\(shown(first))'\(others), not drawn: files an SVG "
                    + "links to are never read; embed them in it (a data: URL)",
                at: block.location, kind: .image, subject: String(picture.written.prefix(24)))
        }
    }

    /// `path` as a warning quotes it: its first 60 characters, then an ellipsis.
    static func shown(_ path: String) -> String {
        path.count > 60 ? path.prefix(60) + "…" : path
    }

    /// What is wrong with an image file the decoder refused, in words that say what to fix
    /// (``ImageProbe/problem(ofFile:)``); a picture whose header gives a size has too many
    /// pixels to decode, or is damaged inside.
    static func problem(ofFile path: String) -> String {
        if let problem = ImageProbe.problem(ofFile: path) { return problem }
        if ImageProbe.isSVG(path) {
            return "is an SVG its reader (librsvg) refuses: it must be well-formed XML, with no external entity "
                + "and no entity that expands others"
        }
        if let size = ImageProbe.pixelSize(ofFile: path), size.width * size.height > ImageProbe.maxPixels {
            return
                "is a picture of \(size.width) × \(size.height) pixels, too large to draw (at most "
                + "\(ImageProbe.maxPixels / 1_000_000) million in all)"
        }
        return "is damaged: no loader can decode it"
    }
}
