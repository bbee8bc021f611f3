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

    /// Every family of the installed fonts and those in `folders` (searched recursively; seen
    /// by this listing alone), sorted by name, with its real faces lightest first; an alias (no
    /// real faces) names the family it resolves to.
    /// - Throws: ``TypesetError/fontFolder(path:reason:)`` for a folder that cannot be read.
    public static func families(including folders: [String] = []) throws -> [Family] {
        let fonts = try Typesetter.fontSession(folders: folders).session
        return FontLibrary.families(in: fonts).sorted { $0.name.lowercased() < $1.name.lowercased() }.map { family in
            let faces = family.faces.filter { !$0.synthesized }.sorted {
                ($0.weight, $0.italic ? 1 : 0) < ($1.weight, $1.italic ? 1 : 0)
            }
            guard !faces.isEmpty else {
                let target = FontLibrary.resolve(FontSpec(families: [family.name], size: 12), in: fonts).family
                return Family(name: family.name, faces: "alias of \(target)")
            }
            return Family(
                name: family.name, faces: faces.map { "\($0.name) \($0.weight.rawValue)" }.joined(separator: ", "))
        }
    }

    /// The names of every installed (or registered) family.
    public static func familyNames() -> [String] { FontLibrary.families().map(\.name) }
}
