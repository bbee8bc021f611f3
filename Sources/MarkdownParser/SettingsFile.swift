internal import CYAML
import DocumentModel

/// A settings file that cannot be read: its one problem, at its position.
public struct SettingsFileProblem: Error, Sendable {
    /// The problem, an error at `file:line:column`.
    public let diagnostic: Diagnostic
    /// Wraps `diagnostic`.
    public init(_ diagnostic: Diagnostic) { self.diagnostic = diagnostic }
}

/// Settings files in YAML (JSON is read as YAML, of which it is a subset for such files): a
/// Pandoc-style metadata file (``metadata(_:file:)``) or a mapping of settings with positions
/// (``mapping(_:file:)``), such as a defaults file.
public enum SettingsFile {
    /// The front-matter keys of a metadata file (Pandoc's `--metadata-file`), read as a
    /// document's front matter is, positions in `file`, and their warnings (an unknown key
    /// one edit from a known one, a bad `lang`).
    /// - Throws: ``SettingsFileProblem`` when the text is not YAML or not a mapping.
    public static func metadata(_ bytes: [UInt8], file: String) throws(SettingsFileProblem) -> (Metadata, [Diagnostic])
    {
        if let problem = FrontMatter.notFrontMatter(bytes) {
            throw SettingsFileProblem(
                Diagnostic(
                    .error, "\(problem.problem); a metadata file is a YAML or JSON mapping of keys to values",
                    at: SourceLocation(file: file, line: problem.line + 1, column: problem.column), kind: .frontMatter))
        }
        var diagnostics: [Diagnostic] = []
        var metadata = FrontMatter.parse(bytes, firstLine: 1, file: file, diagnostics: &diagnostics)
        if let error = diagnostics.first(where: { $0.severity == .error }) { throw SettingsFileProblem(error) }
        if !metadata.includes.isEmpty {
            // A book's chapters are read before any setting, from where the book is written.
            let place = metadata.includes.first?.location ?? SourceLocation(file: file, line: 1, column: 1)
            diagnostics.append(
                Diagnostic(
                    .warning,
                    "a metadata file does not name a book's chapters: 'include' is read from the document's front "
                        + "matter or a book file; ignored", at: place, kind: .frontMatter))
            metadata.includes = []
        }
        return (metadata, diagnostics)
    }

    /// The mapping `bytes` hold, every key and value with its position in `file`.
    /// - Throws: ``SettingsFileProblem`` at the problem when the text is not YAML, is
    ///   not a mapping, or holds aliases past the budget (``YAMLAliasBudget``).
    public static func mapping(_ bytes: [UInt8], file: String) throws(SettingsFileProblem) -> [SettingsValue.Entry] {
        if let problem = FrontMatter.notFrontMatter(bytes) {
            throw SettingsFileProblem(
                Diagnostic(
                    .error, "\(problem.problem); expected a YAML mapping of option names to values",
                    at: SourceLocation(file: file, line: problem.line + 1, column: problem.column)))
        }
        // Flow collections nested past what is read are blanked first (libyaml's time).
        let flattened = YAMLFlowDepth.flattened(bytes)
        let result = flattened.withUnsafeBufferPointer { buffer -> Result<[SettingsValue.Entry], SettingsFileProblem> in
            if let problem = YAMLAliasBudget.check(buffer) {
                return .failure(
                    SettingsFileProblem(
                        Diagnostic(
                            .error, problem.message,
                            at: SourceLocation(file: file, line: problem.line + 1, column: problem.column + 1))))
            }
            var parser = yaml_parser_t()
            guard yaml_parser_initialize(&parser) != 0 else {
                return .failure(SettingsFileProblem(Diagnostic(.error, "libyaml out of memory", at: nil)))
            }
            defer { yaml_parser_delete(&parser) }
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var document = yaml_document_t()
            guard yaml_parser_load(&parser, &document) != 0 else {
                return .failure(
                    SettingsFileProblem(
                        Diagnostic(.error, "invalid YAML", at: SourceLocation(file: file, line: 1, column: 1))))
            }
            defer { yaml_document_delete(&document) }
            var reader = FrontMatter.Reader(document: document)
            let places = YAMLPlaces(text: bytes, firstLine: 1, file: file)
            guard let root = yaml_document_get_root_node(&document),
                case .mapping(let entries) = value(root, reader: &reader, places: places, depth: 0).kind
            else { return .success([]) }
            return .success(entries)
        }
        return try result.get()
    }

    /// `node` as a ``SettingsValue``; nesting past ``FrontMatter/maxDepth`` reads as an empty list.
    static func value(
        _ node: FrontMatter.Reader.Node, reader: inout FrontMatter.Reader, places: YAMLPlaces, depth: Int
    ) -> SettingsValue {
        let location = places.location(node.pointee.start_mark)
        guard depth < FrontMatter.maxDepth else { return SettingsValue(.list([]), at: location) }
        switch node.pointee.type {
        case YAML_SEQUENCE_NODE:
            let items = reader.items(node).map { value($0, reader: &reader, places: places, depth: depth + 1) }
            return SettingsValue(.list(items), at: location)
        case YAML_MAPPING_NODE:
            let entries = reader.pairs(node).map { key, item in
                SettingsValue.Entry(
                    key: FrontMatter.Reader.scalar(key),
                    location: places.location(key.pointee.start_mark),
                    value: value(item, reader: &reader, places: places, depth: depth + 1))
            }
            return SettingsValue(.mapping(entries), at: location)
        default:
            let plain = node.pointee.data.scalar.style == YAML_PLAIN_SCALAR_STYLE
            return SettingsValue(.scalar(FrontMatter.Reader.scalar(node), plain: plain), at: location)
        }
    }
}
