import DocumentModel
import Foundation
import MarkdownParser
import Typography

extension Typesetter {
    /// The front-matter keys of a metadata file (Pandoc's `--metadata-file`: YAML, or JSON),
    /// positioned in `path`, with the warnings its keys raise as front matter's would.
    /// - Throws: ``TypesetError/unreadableInput(path:reason:)`` when the file cannot be read;
    ///   ``TypesetError/invalidInput(_:)`` at the problem when it is not a mapping of keys.
    public static func metadataFile(_ path: String) throws -> (metadata: Metadata, diagnostics: [Diagnostic]) {
        let bytes = try settingsBytes(path)
        do { return try SettingsFile.metadata(bytes, file: path) } catch {
            throw TypesetError.invalidInput([error.diagnostic])
        }
    }

    /// The mapping a settings file holds (a defaults file of option names and values), each
    /// key and value with its position in `path`.
    /// - Throws: ``TypesetError/unreadableInput(path:reason:)`` when the file cannot be read;
    ///   ``TypesetError/invalidInput(_:)`` at the problem when it is not a YAML mapping.
    public static func settingsMapping(_ path: String) throws -> [SettingsValue.Entry] {
        let bytes = try settingsBytes(path)
        do { return try SettingsFile.mapping(bytes, file: path) } catch {
            throw TypesetError.invalidInput([error.diagnostic])
        }
    }

    private static func settingsBytes(_ path: String) throws -> [UInt8] {
        do {
            return Array(try FileReader.readStream(path, limit: FileReader.themeLimit, what: "a settings file"))
        } catch {
            throw TypesetError.unreadableInput(path: path, reason: error.reason)
        }
    }
}

extension Metadata {
    /// Fills in what this metadata leaves unset from `other`, as Pandoc reads a metadata file:
    /// a value the document gives wins over the file's. `other`'s positions come with its
    /// values, so a warning about one points into its file.
    public mutating func fill(from other: Metadata) {
        func take(_ key: String, _ value: inout String?, _ given: String?) {
            guard value == nil, let given else { return }
            value = given
            fieldLocations[key] = other.fieldLocations[key]
        }
        take("title", &title, other.title)
        take("subtitle", &subtitle, other.subtitle)
        take("author", &author, other.author)
        take("date", &date, other.date)
        take("lang", &lang, other.lang)
        if keywords.isEmpty, !other.keywords.isEmpty {
            keywords = other.keywords
            fieldLocations["keywords"] = other.fieldLocations["keywords"]
        }
        for (key, value) in other.fields where fields[key] == nil {
            fields[key] = value
            fieldLocations[key] = other.fieldLocations[key]
        }
        unusedKeys += other.unusedKeys.filter { !unusedKeys.contains($0) }
    }
}
