import DocumentModel
import Foundation

/// GitHub's emoji shortcodes (`:rocket:`, `:+1:`, `:white_check_mark:`): in running text, a
/// name between colons that names an emoji is that emoji, as GitHub renders a README and
/// Pandoc's `emoji` extension reads it; code, formulas and addresses keep their colons, and a
/// name that names none (`12:30:45`, `:not-an-emoji:`) stays as written.
///
/// The names are GitHub's (its `gemoji` list), read from the table Debian's `node-emoji`
/// package installs (``tablePath``, 1,878 names); without it, shortcodes stay as written.
/// Heading ids are made of the text as written, as GitHub makes them
/// (`## :desert_island: Installation` is `#desert_island-installation`).
public enum EmojiShortcodes {
    /// Where Debian's `node-emoji` keeps its table of names (a JSON object of name → emoji).
    public static let tablePath = "/usr/share/nodejs/node-emoji/lib/emoji.json"

    /// The emoji of each name, read once; empty when the table is not installed or unreadable.
    static let table: [String: String] = {
        guard let data = FileManager.default.contents(atPath: tablePath),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return [:] }
        var names: [String: String] = [:]
        for (name, value) in object {
            guard let emoji = value as? String, !emoji.isEmpty, name.utf8.count <= longestName else { continue }
            names[name] = emoji
        }
        return names
    }()

    /// The longest name looked up, in bytes: GitHub's longest is 39.
    static let longestName = 64

    /// Whether the table of names is installed.
    public static var isAvailable: Bool { !table.isEmpty }

    /// `text` with each shortcode whose name the table knows replaced by its emoji. A name is
    /// letters, digits, `_`, `+` and `-` between two colons; a colon that closes no known name
    /// may open the next (`time: 12:30 :smile:`).
    public static func replacing(in text: String) -> String {
        // Most text has no colon: it is returned unread, without a copy of its bytes.
        guard text.containsUTF8Byte(UInt8(ascii: ":")), !table.isEmpty else { return text }
        let bytes = Array(text.utf8)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        var changed = false
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: ":") else {
                result.append(bytes[index])
                index += 1
                continue
            }
            var end = index + 1
            while end < bytes.count, end - index <= longestName + 1, isNameByte(bytes[end]) { end += 1 }
            if end < bytes.count, bytes[end] == UInt8(ascii: ":"), end > index + 1,
                let emoji = table[String(decoding: bytes[(index + 1)..<end], as: UTF8.self)]
            {
                result.append(contentsOf: emoji.utf8)
                index = end + 1
                changed = true
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return changed ? String(decoding: result, as: UTF8.self) : text
    }

    /// `inlines` with the shortcodes of their text replaced, inside emphasis, links and spans
    /// too; code, formulas, pictures and raw HTML as written.
    public static func replacing(in inlines: [Inline]) -> [Inline] {
        guard !table.isEmpty else { return inlines }
        return inlines.map { inline in
            switch inline {
            case .text(let text): .text(replacing(in: text))
            case .emphasis(let children): .emphasis(replacing(in: children))
            case .strong(let children): .strong(replacing(in: children))
            case .strikethrough(let children): .strikethrough(replacing(in: children))
            case .link(let destination, let title, let children):
                .link(destination: destination, title: title, children: replacing(in: children))
            case .span(let attributes, let children): .span(attributes, replacing(in: children))
            case .presentation(let presentation, let children): .presentation(presentation, replacing(in: children))
            default: inline
            }
        }
    }

    /// A byte of a name: an ASCII letter or digit, `_`, `+` or `-`.
    static func isNameByte(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
    }
}
