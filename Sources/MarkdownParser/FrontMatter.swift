internal import CYAML
import DocumentModel

/// YAML front matter → `Metadata`, with libyaml's document loader.
///
/// Rules (Pandoc/Quarto keys): `title`, `subtitle`, `date`, `lang` are scalars; `author` is a
/// string or a list (items may be maps with `name`) joined with ", "; `keywords` is a list or
/// a comma-separated string. Every other key goes to `Metadata.fields`: scalars as written,
/// lists joined with ", ", nested maps flattened with dots (`margins: {top: 20mm}` →
/// `margins.top`). Known keys are matched case- and separator-insensitively
/// (`sizeCategory`, `size_category` → `size-category`) and stored under their kebab-case
/// name; an unknown key is stored as written and reported.
enum FrontMatter {
    /// Keys the later stages read; anything else is reported as unknown.
    static let knownKeys: Set<String> = [
        "title", "subtitle", "author", "date", "lang", "keywords", "theme", "paper", "margins",
        "header", "footer", "toc", "size-category", "bold-text", "justify", "line-break", "smart", "widows", "orphans",
        "hyphenate", "tab-size", "highlight", "pdf-standard", "include", "chapters", "open-right",
        "number-sections", "toc-depth", "math", "abstract", "toc-title", "abstract-title",
        // Pandoc's variables for the page and the type (Pandoc manual, "Variables for LaTeX").
        "papersize", "geometry", "fontsize", "linestretch", "mainfont", "sansfont", "monofont",
    ]

    /// A key Typeset does not read: silent and listed in ``Metadata/unusedKeys`` (Jekyll's
    /// `layout`, Hugo's `tags`, as Pandoc keeps them for templates), or, one edit from a key
    /// Typeset reads, a typo warned about at `location` with the key meant.
    static func noteUnknownKey(
        _ key: String, canonical: String, at location: SourceLocation, metadata: inout Metadata,
        _ diagnostics: inout [Diagnostic]
    ) {
        if let message = unprintedPandocKeys[canonical] {
            diagnostics.append(
                Diagnostic(.warning, "front matter '\(key)': \(message)", at: location, kind: .frontMatter))
            metadata.unusedKeys.append(key)
        } else if let near = nearKnownKey(canonical) {
            diagnostics.append(
                Diagnostic(
                    .warning, "unknown front matter key '\(key)'; did you mean '\(near)'?", at: location,
                    kind: .frontMatter))
        } else {
            metadata.unusedKeys.append(key)
        }
    }

    /// Pandoc's keys whose text Pandoc's own output would print and Typeset does not (Pandoc
    /// manual, "Variables set automatically", "Citations"): each warned about where it is
    /// written, with why, instead of passing silently as other keys Typeset does not read do.
    static let unprintedPandocKeys: [String: String] = {
        let includes =
            "not printed (Pandoc's templates insert it as raw output around the body; write the text in the document)"
        let citations =
            "citations are not processed (Typeset has no citation processor): '[@key]' is printed as written"
        return [
            "include-before": includes, "include-after": includes, "bibliography": citations,
            "references": citations, "csl": citations, "citeproc": citations, "nocite": citations,
        ]
    }()

    /// The known key one edit (Levenshtein distance 1) from `canonical`, a key no known key
    /// equals; nil when none is (keys of one or two characters are never taken for typos).
    static func nearKnownKey(_ canonical: String) -> String? {
        guard canonical.count > 2 else { return nil }
        return knownKeys.sorted().first { EditDistance.withinOne(canonical, $0) }
    }

    /// Known keys that take one value (a scalar; a list only where joined): a mapping given to
    /// one of them is reported and ignored.
    static let scalarKeys: Set<String> = [
        "title", "subtitle", "date", "lang", "theme", "paper", "header", "footer", "toc", "size-category",
        "bold-text", "justify", "line-break", "smart", "widows", "orphans", "hyphenate", "tab-size",
        "highlight", "open-right", "number-sections", "toc-depth", "math", "papersize", "fontsize", "linestretch",
        "mainfont", "sansfont", "monofont", "abstract", "toc-title", "abstract-title",
    ]

    /// One-value keys a list makes no sense for (a switch, a number, a size, a name of one
    /// thing): a list given to one of them is reported and ignored. The others join a list's
    /// items (`title: [A, B]` → "A, B"; the font keys, a list of families).
    static let listlessKeys: Set<String> = scalarKeys.subtracting([
        "title", "subtitle", "date", "lang", "header", "footer", "mainfont", "sansfont", "monofont", "abstract",
    ])

    /// Why a `lang` value is not a language tag (``LanguageTag``), or nil when it is: a list,
    /// an empty value, a YAML boolean written plain (`lang: true`), a malformed tag.
    static func languageProblem(_ node: Reader.Node, reader: inout Reader) -> String? {
        guard node.pointee.type == YAML_SCALAR_NODE else { return "a language tag is one value, not a list" }
        if Reader.isNull(node) { return nil }
        let value = Reader.scalar(node).trimmingSpaces
        if value.isEmpty { return "the value is empty (a language tag such as en, de-CH or zh-Hant)" }
        let plain = node.pointee.data.scalar.style == YAML_PLAIN_SCALAR_STYLE
        if plain, ["true", "false", "yes", "no", "on", "off"].contains(value.lowercased()) {
            return "'\(value)' is a YAML boolean, not a BCP 47 language tag (such as en, de-CH or zh-Hant)"
        }
        return LanguageTag.isWellFormed(value) ? nil : LanguageTag.problem(value)
    }

    /// Limits recursion into nested YAML (aliases can make a graph deep).
    static let maxDepth = 16

    /// Why `text` is not front matter, or nil when it is: YAML that loads to a mapping (Pandoc
    /// manual, "Extension: yaml_metadata_block": "a valid YAML object"). Unlike Pandoc, YAML
    /// holding only comments is not front matter either: `---`, `## A heading`, `---` is
    /// Markdown, so its text is not lost. libyaml's own problem text, and where it is in `text`
    /// (0-based line, 1-based column in UTF-8 bytes), when it does not load.
    static func notFrontMatter(_ text: [UInt8]) -> (problem: String, line: Int, column: Int)? {
        // Flow collections nested past what is read are blanked first (libyaml's time).
        let text = YAMLFlowDepth.flattened(text)
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) != 0 else { return ("libyaml out of memory", 0, 1) }
        defer { yaml_parser_delete(&parser) }
        return text.withUnsafeBufferPointer { buffer -> (problem: String, line: Int, column: Int)? in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var document = yaml_document_t()
            guard yaml_parser_load(&parser, &document) != 0 else {
                let problem = Self.problem(of: parser, places: YAMLPlaces(text: text, firstLine: 0, file: ""))
                return ("invalid YAML (\(problem.text))", problem.location.line, problem.location.column)
            }
            defer { yaml_document_delete(&document) }
            guard let root = yaml_document_get_root_node(&document) else {
                return ("no YAML keys (only comments or nothing)", 0, 1)
            }
            return root.pointee.type == YAML_MAPPING_NODE ? nil : ("YAML that is not a mapping of keys to values", 0, 1)
        }
    }

    /// What libyaml found wrong, and where: where the construct it was reading begins when it
    /// names one (an unclosed quote or bracket is found only at the end of the text, "found
    /// unexpected end of stream", yet was written where it opens), else where it stopped.
    static func problem(of parser: yaml_parser_t, places: YAMLPlaces) -> (text: String, location: SourceLocation) {
        let problem = parser.problem.map { String(cString: $0) } ?? "syntax error"
        let stopped = places.location(parser.problem_mark)
        guard let context = parser.context.map({ String(cString: $0) }) else { return (problem, stopped) }
        let started = places.location(parser.context_mark)
        guard started != stopped else { return ("\(problem) \(context)", stopped) }
        return ("\(problem), \(context) that starts here", started)
    }

    /// Parses `text` whose first line is source line `firstLine`. Problems are warnings, except
    /// YAML aliases that recur or expand past ``YAMLAliasBudget/budget`` values: an
    /// error-severity diagnostic at the alias (the front matter is not read), which makes the
    /// render fail (``ParseResult/diagnostics``).
    static func parse(_ text: [UInt8], firstLine: Int, file: String, diagnostics: inout [Diagnostic]) -> Metadata {
        var metadata = Metadata()
        guard text.contains(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) else { return metadata }
        // Flow collections nested past what is read are blanked first (libyaml's time).
        let text = YAMLFlowDepth.flattened(text)

        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) != 0 else {
            diagnostics.append(
                Diagnostic(
                    .warning, "could not read front matter (libyaml out of memory)",
                    at: SourceLocation(file: file, line: firstLine - 1, column: 1), kind: .frontMatter))
            return metadata
        }
        defer { yaml_parser_delete(&parser) }
        let places = YAMLPlaces(text: text, firstLine: firstLine, file: file)

        text.withUnsafeBufferPointer { buffer in
            if let problem = YAMLAliasBudget.check(buffer) {
                // An error, not a warning: the document cannot be set as its author meant
                // (its title, theme, paper… are in the refused front matter).
                diagnostics.append(
                    Diagnostic(
                        .error, "front matter: \(problem.message)",
                        at: SourceLocation(file: file, line: firstLine + problem.line, column: problem.column + 1),
                        kind: .frontMatter))
                return
            }
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var document = yaml_document_t()
            guard yaml_parser_load(&parser, &document) != 0 else {
                let problem = Self.problem(of: parser, places: places)
                diagnostics.append(
                    Diagnostic(
                        .warning, "invalid YAML front matter (\(problem.text)); front matter ignored",
                        at: problem.location, kind: .frontMatter))
                return
            }
            defer { yaml_document_delete(&document) }
            guard let root = yaml_document_get_root_node(&document) else { return }
            guard root.pointee.type == YAML_MAPPING_NODE else {
                diagnostics.append(
                    Diagnostic(
                        .warning, "front matter is not a mapping of keys to values; ignored",
                        at: places.location(root.pointee.start_mark), kind: .frontMatter))
                return
            }
            var reader = Reader(document: document)
            // YAML 1.2 §3.2.1.1 requires mapping keys to be unique; libyaml accepts a repeat and
            // the later value wins here: said at the repeat, with the first one's line.
            var firstLines: [String: Int] = [:]
            for (keyNode, valueNode) in reader.pairs(root) {
                guard keyNode.pointee.type == YAML_SCALAR_NODE else {
                    diagnostics.append(
                        Diagnostic(
                            .warning, "front matter key is not a string; ignored",
                            at: places.location(keyNode.pointee.start_mark),
                            kind: .frontMatter))
                    continue
                }
                let key = Reader.scalar(keyNode)
                let canonical = canonicalKey(key)
                let keyLocation = places.location(keyNode.pointee.start_mark)
                // A value's problems are said where the value is written.
                let valueLocation = places.location(valueNode.pointee.start_mark)
                if let first = firstLines[canonical] {
                    diagnostics.append(
                        Diagnostic(
                            .warning,
                            "front matter key '\(key)' is given again (first at line \(first)); this later value is "
                                + "used",
                            at: keyLocation, kind: .frontMatter))
                } else {
                    firstLines[canonical] = keyLocation.line
                }
                if let (warning, ignored) = Self.shapeWarning(
                    of: valueNode, key: key, canonical: canonical, reader: &reader, places: places)
                {
                    diagnostics.append(warning)
                    if ignored { continue }
                }
                if canonical == "lang", let problem = Self.languageProblem(valueNode, reader: &reader) {
                    diagnostics.append(
                        Diagnostic(
                            .warning, "front matter 'lang': \(problem); the PDF says 'en'",
                            at: valueLocation, kind: .frontMatter))
                    continue
                }
                Self.notePlaces(of: valueNode, key: canonical, at: valueLocation, places: places, in: &metadata)
                if Self.printedKeys.contains(canonical) || !knownKeys.contains(canonical),
                    let refused = reader.refusedCharacters(valueNode)
                {
                    diagnostics.append(Self.refusedWarning(refused, key: key, at: valueLocation))
                }
                reader.cutAt = nil
                reader.unshown = []
                defer {
                    // What a known key's value holds that its text cannot show is said where
                    // it is written (an unknown key's value is not set anywhere).
                    if knownKeys.contains(canonical) || canonical == "authors" {
                        diagnostics += reader.unshown.map { Self.unshownWarning($0, key: key, places: places) }
                    }
                    if let mark = reader.cutAt {
                        diagnostics.append(
                            Diagnostic(
                                .warning,
                                "front matter '\(key)' nests lists or mappings more than \(Self.maxDepth) deep; what "
                                    + "is deeper is not read",
                                at: places.location(mark), kind: .frontMatter))
                    }
                }
                store(
                    valueNode, key: key, canonical: canonical, keyLocation: keyLocation, reader: &reader,
                    places: places, into: &metadata, diagnostics: &diagnostics)
            }
        }
        return metadata
    }

    /// The warning for a value of the wrong shape for its key, and whether the value is then
    /// ignored: a mapping or (for ``listlessKeys``) a list given to a key of one value, or an
    /// author mapping with no name (its values then taken for the name); nil for any other.
    private static func shapeWarning(
        of valueNode: Reader.Node, key: String, canonical: String, reader: inout Reader, places: YAMLPlaces
    ) -> (Diagnostic, ignored: Bool)? {
        let place = places.location(valueNode.pointee.start_mark)
        if Self.scalarKeys.contains(canonical), valueNode.pointee.type == YAML_MAPPING_NODE {
            let message = "front matter '\(key)' takes one value, not a mapping of keys to values; ignored"
            return (Diagnostic(.warning, message, at: place, kind: .frontMatter), true)
        }
        if Self.listlessKeys.contains(canonical), valueNode.pointee.type == YAML_SEQUENCE_NODE {
            let message = "front matter '\(key)' takes one value, not a list; ignored"
            return (Diagnostic(.warning, message, at: place, kind: .frontMatter), true)
        }
        if canonical == "author" || canonical == "authors", let nameless = reader.namelessAuthor(valueNode) {
            let message =
                "front matter '\(key)': a mapping with no 'name' (nor 'given' or 'family'); its values are taken "
                + "for the name"
            return (
                Diagnostic(.warning, message, at: places.location(nameless.pointee.start_mark), kind: .frontMatter),
                false
            )
        }
        return nil
    }

    /// Known keys whose values are printed (the title block, running heads, the PDF's
    /// properties); an unknown key's value may be printed too, as a variable.
    static let printedKeys: Set<String> = [
        "title", "subtitle", "author", "authors", "date", "keywords", "abstract", "header", "footer",
    ]

    /// The warning for the characters no PDF can hold in `key`'s value, written at `location`
    /// (the page and the PDF's properties set each as U+FFFD, ``TextSanitizer``), as the body's
    /// own are warned of; with the way to keep backslashes when one is in double quotes. A
    /// setting's value (a theme's path) is not printed: what reads it says what is wrong.
    private static func refusedWarning(
        _ refused: (report: TextSanitizer.Report, doubleQuoted: Bool), key: String, at location: SourceLocation
    ) -> Diagnostic {
        let count = refused.report.count
        let what = count == 1 ? "a character" : "\(count) characters"
        let hint =
            refused.doubleQuoted
            ? " (in double quotes YAML reads a backslash as an escape, \"\\a\" as U+0007: quote the value with "
                + "' ' to keep its backslashes, as '$\\alpha$')"
            : ""
        return Diagnostic(
            .warning,
            "front matter '\(key)': \(what) no PDF can hold (the first "
                + "\(TextSanitizer.codePoint(refused.report.first)), a noncharacter or control character) replaced by "
                + "U+FFFD" + hint,
            at: location, kind: .encoding)
    }

    /// The warning for a part of `key`'s value that its text cannot show: a mapping met where
    /// the value is read as text (in a list, or given to `keywords`), set as its values with its
    /// keys quoted as not shown, or a key that is a list or a mapping, which is not read.
    private static func unshownWarning(_ part: Reader.Unshown, key: String, places: YAMLPlaces) -> Diagnostic {
        let message: String
        switch part.kind {
        case .mappingKeys(let keys):
            let shown = keys.prefix(3).map { $0.count > 40 ? "'\($0.prefix(40))…'" : "'\($0)'" }
            let named = (shown + (keys.count > 3 ? ["\(keys.count - 3) more"] : [])).joined(separator: ", ")
            let (noun, verb) = keys.count == 1 ? ("key", "is") : ("keys", "are")
            message =
                "front matter '\(key)': a mapping here is set as its values only; its \(noun) \(named) \(verb) not "
                + "shown (quote it, as \"key: value\", to set it as text)"
        case .complexKey(let valueIgnored):
            message =
                "front matter '\(key)': a key that is a list or a mapping is not read"
                + (valueIgnored ? "; its value is ignored" : "") + " (a key is one word or quoted text)"
        }
        return Diagnostic(.warning, message, at: places.location(part.mark), kind: .frontMatter)
    }

    /// Stores the value of front-matter `key` (`canonical`, written at `keyLocation`) in
    /// `metadata`: the document fields by their own readings, the others flattened into
    /// ``Metadata/fields`` with each field's place.
    private static func store(
        _ valueNode: Reader.Node, key: String, canonical: String, keyLocation: SourceLocation,
        reader: inout Reader, places: YAMLPlaces, into metadata: inout Metadata, diagnostics: inout [Diagnostic]
    ) {
        switch canonical {
        case "title": metadata.title = reader.joined(valueNode)
        case "subtitle": metadata.subtitle = reader.joined(valueNode)
        case "date": metadata.date = reader.joined(valueNode)
        case "lang": metadata.lang = reader.joined(valueNode)
        case "author", "authors": metadata.author = reader.authors(valueNode)
        case "keywords": metadata.keywords = reader.keywords(valueNode)
        case "include", "chapters":
            let (files, ignored) = reader.includes(valueNode, places: places)
            metadata.includes += files
            // A value that names no file (a mapping, a list inside the list) is said where
            // it is written, as a one-value key's mapping is.
            for place in ignored {
                diagnostics.append(
                    Diagnostic(
                        .warning,
                        "front matter '\(key)' takes a file or a list of files, not a mapping or a nested "
                            + "list; this value is ignored",
                        at: place, kind: .frontMatter))
            }
        default:
            let known = knownKeys.contains(canonical)
            if !known {
                noteUnknownKey(key, canonical: canonical, at: keyLocation, metadata: &metadata, &diagnostics)
            }
            // Each field this key set is placed at its own value: time linear in the keys.
            var added: [(field: String, node: Reader.Node)] = []
            reader.flatten(
                valueNode, key: known ? canonical : key, into: &metadata.fields, added: &added, depth: 0)
            for (field, node) in added {
                metadata.fieldLocations[field] = places.location(node.pointee.start_mark)
            }
        }
    }

    /// Notes where the value `node` of `key` (canonical) is written, at `location`: the value's
    /// place for the fields whose problems name it, and where its text stands for those the
    /// title block sets (``textPlace(of:places:)``).
    static func notePlaces(
        of node: Reader.Node, key: String, at location: SourceLocation, places: YAMLPlaces,
        in metadata: inout Metadata
    ) {
        if ["title", "subtitle", "author", "date", "lang", "keywords"].contains(key) {
            metadata.fieldLocations[key] = location
        }
        if ["title", "subtitle", "author", "date", "abstract"].contains(key),
            let place = textPlace(of: node, places: places)
        {
            metadata.fieldValuePlaces[key] = place
        }
    }

    /// Where the text of the scalar `node` stands when its lines are the file's: a plain value
    /// on one line (its first character where the node starts), or a literal block (`|`, its
    /// first line the one after the indicator, indented as the file writes it); nil for any
    /// other (quoted or folded values, whose text is not the file's bytes).
    static func textPlace(of node: Reader.Node, places: YAMLPlaces) -> FrontMatterValuePlace? {
        guard node.pointee.type == YAML_SCALAR_NODE else { return nil }
        let start = node.pointee.start_mark
        switch node.pointee.data.scalar.style {
        case YAML_PLAIN_SCALAR_STYLE where start.line == node.pointee.end_mark.line:
            return FrontMatterValuePlace(start: places.location(start), isBlock: false)
        case YAML_LITERAL_SCALAR_STYLE:
            let line = Int(start.line) + 1
            let first = SourceLocation(
                file: places.file, line: places.firstLine + line, column: places.indent(ofLine: line) + 1)
            return FrontMatterValuePlace(start: first, isBlock: true)
        default:
            return nil
        }
    }

    /// Other spellings of known keys: Pandoc's LaTeX variables `numbersections` and `tocdepth`.
    static let keyAliases = ["numbersections": "number-sections", "tocdepth": "toc-depth"]

    /// `sizeCategory`, `size_category`, `Size-Category` → `size-category`; `numbersections` →
    /// `number-sections` (``keyAliases``).
    static func canonicalKey(_ key: String) -> String {
        let canonical = separatedKey(key)
        return keyAliases[canonical] ?? canonical
    }

    /// `sizeCategory`, `size_category`, `Size-Category` → `size-category`.
    static func separatedKey(_ key: String) -> String {
        var result = ""
        var previousWasLower = false
        for c in key {
            if c == "_" || c == " " {
                result.append("-")
                previousWasLower = false
                continue
            }
            if c.isUppercase {
                if previousWasLower { result.append("-") }
                result += c.lowercased()
                previousWasLower = false
            } else {
                result.append(c)
                previousWasLower = c.isLowercase || c.isNumber
            }
        }
        return result
    }

    /// Reads nodes of a loaded libyaml document (valid only while the document lives).
    struct Reader {
        var document: yaml_document_t
        /// Where the first value past ``FrontMatter/maxDepth`` levels of nesting was met (its
        /// values are not read), since this was last set to nil.
        var cutAt: yaml_mark_t?
        /// The parts of the values read as text or flattened whose text is not shown, in the
        /// order met, since this was last emptied.
        var unshown: [Unshown] = []

        /// A part of a value whose text is not shown, and where it is written.
        struct Unshown {
            enum Kind {
                /// A mapping read as text: its values are set, these keys are not.
                case mappingKeys([String])
                /// A mapping's key that is a list or a mapping (YAML's complex key): not read, and
                /// its value with it where the keys name settings (`margins: {[a]: 1}`).
                case complexKey(valueIgnored: Bool)
            }
            var kind: Kind
            var mark: yaml_mark_t
        }

        typealias Node = UnsafeMutablePointer<yaml_node_t>

        mutating func node(_ index: Int32) -> Node? { yaml_document_get_node(&document, index) }

        /// The pairs of `mapping`, in order, with YAML's merge key resolved (`<<: *base`, or a
        /// list of aliases: the pairs of each mapping merged whose keys the mapping does not
        /// give itself, after its own; YAML 1.1, "Merge Key Language-Independent Type"), as
        /// PyYAML, Ruby's Psych and Jekyll read it. Merges nest at most ``maxMergeDepth`` deep.
        mutating func pairs(_ mapping: Node, mergeDepth: Int = 0) -> [(Node, Node)] {
            var own: [(Node, Node)] = []
            var merged: [Node] = []
            guard var pair = mapping.pointee.data.mapping.pairs.start else { return own }
            let top = mapping.pointee.data.mapping.pairs.top
            while pair != top {
                if let key = node(pair.pointee.key), let value = node(pair.pointee.value) {
                    if Self.isMergeKey(key), mergeDepth < Self.maxMergeDepth {
                        merged += value.pointee.type == YAML_SEQUENCE_NODE ? items(value) : [value]
                    } else {
                        own.append((key, value))
                    }
                }
                pair += 1
            }
            guard !merged.isEmpty else { return own }
            var given = Set(own.map { Self.scalar($0.0) })
            for source in merged where source.pointee.type == YAML_MAPPING_NODE {
                for (key, value) in pairs(source, mergeDepth: mergeDepth + 1)
                where given.insert(Self.scalar(key)).inserted {
                    own.append((key, value))
                }
            }
            return own
        }

        /// How deep merges (``pairs(_:mergeDepth:)``) nest: a mapping that merges itself stops there.
        static let maxMergeDepth = 8

        /// Whether `key` is YAML's merge key: `<<` written plain (a quoted `'<<'` is a key).
        static func isMergeKey(_ key: Node) -> Bool {
            key.pointee.type == YAML_SCALAR_NODE && key.pointee.data.scalar.style == YAML_PLAIN_SCALAR_STYLE
                && scalar(key) == "<<"
        }

        /// The first mapping of an `author` value (one author or a list) with no `name`,
        /// `given` or `family` key; nil when there is none.
        mutating func namelessAuthor(_ node: Node) -> Node? {
            let authors = node.pointee.type == YAML_SEQUENCE_NODE ? items(node) : [node]
            return authors.first { item in
                item.pointee.type == YAML_MAPPING_NODE
                    && !pairs(item).contains { ["name", "given", "family"].contains(Self.scalar($0.0)) }
            }
        }

        mutating func items(_ sequence: Node) -> [Node] {
            var result: [Node] = []
            guard var item = sequence.pointee.data.sequence.items.start else { return result }
            let top = sequence.pointee.data.sequence.items.top
            while item != top {
                if let element = node(item.pointee) { result.append(element) }
                item += 1
            }
            return result
        }

        /// The text of a scalar node as YAML decodes it; "" for a list or a mapping (whose data
        /// is not a scalar's).
        static func scalar(_ node: Node) -> String {
            guard node.pointee.type == YAML_SCALAR_NODE, let value = node.pointee.data.scalar.value else { return "" }
            return String(
                decoding: UnsafeBufferPointer(start: value, count: node.pointee.data.scalar.length), as: UTF8.self)
        }

        /// The characters no PDF can hold in the scalars under `node` (a control character
        /// written as a YAML escape, `"\e"`, `"\0"`; ``TextSanitizer``): how many, the first,
        /// and whether one is in a double-quoted scalar, where YAML reads a backslash as an
        /// escape (`"\\alpha"` is U+0007 and `lpha`); nil when there are none.
        mutating func refusedCharacters(_ node: Node, depth: Int = 0) -> (
            report: TextSanitizer.Report, doubleQuoted: Bool
        )? {
            guard depth < FrontMatter.maxDepth else { return nil }
            let parts: [(report: TextSanitizer.Report, doubleQuoted: Bool)?]
            switch node.pointee.type {
            case YAML_SCALAR_NODE:
                return TextSanitizer.sanitize(Self.scalar(node)).report.map {
                    ($0, node.pointee.data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE)
                }
            case YAML_SEQUENCE_NODE: parts = items(node).map { refusedCharacters($0, depth: depth + 1) }
            case YAML_MAPPING_NODE: parts = pairs(node).map { refusedCharacters($0.1, depth: depth + 1) }
            default: return nil
            }
            return parts.compactMap { $0 }.reduce(nil) { found, part in
                guard var found else { return part }
                found.report.count += part.report.count
                found.doubleQuoted = found.doubleQuoted || part.doubleQuoted
                return found
            }
        }

        /// Whether `node` is YAML's null written plainly (`null`, `Null`, `NULL`, `~`: YAML 1.2
        /// § 10.3.2): a key given no value, as an empty one is. Quoted, `"null"` is text.
        static func isNull(_ node: Node) -> Bool {
            guard node.pointee.type == YAML_SCALAR_NODE, node.pointee.data.scalar.style == YAML_PLAIN_SCALAR_STYLE
            else { return false }
            return ["null", "Null", "NULL", "~"].contains(scalar(node))
        }

        /// All scalars under `node`, in order.
        mutating func scalars(_ node: Node, depth: Int = 0) -> [String] {
            guard depth < FrontMatter.maxDepth else {
                if cutAt == nil { cutAt = node.pointee.start_mark }
                return []
            }
            switch node.pointee.type {
            case YAML_SCALAR_NODE:
                let text = Self.scalar(node)
                return text.isEmpty || Self.isNull(node) ? [] : [text]
            case YAML_SEQUENCE_NODE:
                return items(node).flatMap { scalars($0, depth: depth + 1) }
            case YAML_MAPPING_NODE:
                let pairs = pairs(node)
                let keys = pairs.filter { !Self.isNull($0.0) }.map { Self.scalar($0.0) }.filter { !$0.isEmpty }
                if !keys.isEmpty { unshown.append(Unshown(kind: .mappingKeys(keys), mark: node.pointee.start_mark)) }
                for (key, _) in pairs where key.pointee.type != YAML_SCALAR_NODE {
                    unshown.append(Unshown(kind: .complexKey(valueIgnored: false), mark: key.pointee.start_mark))
                }
                return pairs.flatMap { scalars($0.1, depth: depth + 1) }
            default:
                return []
            }
        }

        /// A scalar, or the scalars of a list joined with ", "; nil when empty.
        mutating func joined(_ node: Node) -> String? {
            let parts = scalars(node)
            return parts.isEmpty ? nil : parts.joined(separator: ", ")
        }

        mutating func authors(_ node: Node) -> String? {
            // One author or a list of them, each a name, a mapping with a `name` (Pandoc's and
            // Quarto's `author: {name: …, affiliation: …}`), whose other keys are not the name,
            // or a CSL name (`given`, `family`).
            let authors = node.pointee.type == YAML_SEQUENCE_NODE ? items(node) : [node]
            var names: [String] = []
            for item in authors {
                if item.pointee.type == YAML_MAPPING_NODE,
                    let name = pairs(item).first(where: { Self.scalar($0.0) == "name" })
                {
                    names += scalars(name.1)
                } else if item.pointee.type == YAML_MAPPING_NODE,
                    case let parts = ["given", "family"].compactMap({ key in
                        pairs(item).first(where: { Self.scalar($0.0) == key }).map {
                            scalars($0.1).joined(separator: " ")
                        }
                    }), !parts.isEmpty
                {
                    names.append(parts.joined(separator: " "))
                } else if item.pointee.type == YAML_MAPPING_NODE {
                    // Its values taken for the name (``namelessAuthor(_:)`` says so).
                    names += pairs(item).flatMap { scalars($0.1, depth: 1) }
                } else {
                    names += scalars(item)
                }
            }
            return names.isEmpty ? nil : names.joined(separator: ", ")
        }

        /// The paths of an `include:` value (one path or a list of them), each with where it is
        /// written; empty values are skipped.
        /// The files `node` names (one, or a list), and where each value that is no file name
        /// (a mapping, a nested list) is written.
        mutating func includes(_ node: Node, places: YAMLPlaces) -> (files: [IncludedFile], ignored: [SourceLocation]) {
            let nodes = node.pointee.type == YAML_SEQUENCE_NODE ? items(node) : [node]
            var files: [IncludedFile] = []
            var ignored: [SourceLocation] = []
            for item in nodes {
                guard item.pointee.type == YAML_SCALAR_NODE else {
                    ignored.append(places.location(item.pointee.start_mark))
                    continue
                }
                let path = Self.scalar(item).trimmingSpaces
                guard !path.isEmpty else { continue }
                files.append(IncludedFile(path: path, location: places.location(item.pointee.start_mark)))
            }
            return (files, ignored)
        }

        mutating func keywords(_ node: Node) -> [String] {
            let raw =
                node.pointee.type == YAML_SCALAR_NODE
                ? Self.scalar(node).split(separator: ",").map(String.init)
                : scalars(node)
            return raw.map { $0.trimmingSpaces }.filter { !$0.isEmpty }
        }

        /// Stores `node` under `key` (a mapping's entries under `key.entry`), appending each key
        /// set, with the node that holds its value, to `added`.
        mutating func flatten(
            _ node: Node, key: String, into fields: inout [String: String], added: inout [(field: String, node: Node)],
            depth: Int
        ) {
            guard depth < FrontMatter.maxDepth else {
                if cutAt == nil { cutAt = node.pointee.start_mark }
                return
            }
            if node.pointee.type == YAML_MAPPING_NODE {
                for (k, v) in pairs(node) {
                    guard k.pointee.type == YAML_SCALAR_NODE else {
                        unshown.append(Unshown(kind: .complexKey(valueIgnored: true), mark: k.pointee.start_mark))
                        continue
                    }
                    flatten(v, key: key + "." + Self.scalar(k), into: &fields, added: &added, depth: depth + 1)
                }
            } else if !Self.isNull(node) {
                fields[key] = scalars(node).joined(separator: ", ")
                added.append((key, node))
            }
        }
    }
}

extension StringProtocol {
    /// The text without the white space at its ends.
    var trimmingSpaces: String {
        var trimmed = Substring(self)
        while let character = trimmed.first, character.isWhitespace { trimmed.removeFirst() }
        while let character = trimmed.last, character.isWhitespace { trimmed.removeLast() }
        return String(trimmed)
    }
}
