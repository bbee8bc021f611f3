internal import PangoCairoBackend
import Styling
import Typography

/// Fonts as the renderer sees them, for `typeset fonts` and `theme check`.
public enum FontListing {
    /// One family and a readable list of its faces.
    public struct Family {
        /// The family name.
        public var name: String
        /// `Regular 400, Italic 400, Bold 700, …` (synthesized faces left out); for a name with no
        /// faces of its own — fontconfig's generic aliases `Sans`, `Serif`, `Monospace`,
        /// `System-ui` as Pango lists them — `alias of DejaVu Sans`, the family it resolves to.
        public var faces: String
    }

    /// Registers the font files in `folder` (fontconfig application fonts).
    /// - Throws: ``TypesetError/fontFolder(path:reason:)``.
    public static func register(_ folder: String) throws {
        do { try FontLibrary.registerFontFolder(folder) } catch {
            throw TypesetError.fontFolder(path: folder, reason: String(describing: error))
        }
    }

    /// Every family, sorted by name, with its real faces lightest first; an alias (no real faces)
    /// names the family it resolves to.
    public static func families() -> [Family] {
        FontLibrary.families().sorted { $0.name.lowercased() < $1.name.lowercased() }.map { family in
            let faces = family.faces.filter { !$0.synthesized }.sorted {
                ($0.weight, $0.italic ? 1 : 0) < ($1.weight, $1.italic ? 1 : 0)
            }
            guard !faces.isEmpty else {
                let target = FontLibrary.resolve(FontSpec(families: [family.name], size: 12)).family
                return Family(name: family.name, faces: "alias of \(target)")
            }
            return Family(
                name: family.name, faces: faces.map { "\($0.name) \($0.weight.rawValue)" }.joined(separator: ", "))
        }
    }

    /// The names of every installed (or registered) family.
    public static func familyNames() -> [String] { FontLibrary.families().map(\.name) }
}
