import Foundation
import Typesetter

/// Where a command that writes one file writes it, checked before any work: a folder target
/// (`-o dir/`, or an existing folder) means a file inside it, named after the input; a target
/// that is one of the command's own inputs is refused, never overwritten.
enum OutputTargets {
    /// `target`, or `FOLDER/<name>.<ext>` when `target` names a folder (created when missing).
    /// - Throws: ``TypesetError/unwritableOutput(path:reason:)`` when the folder cannot be created.
    static func file(_ target: String, named name: String, ext: String) throws -> String {
        guard target != "-", RenderCommand.isFolder(target) else { return target }
        return try RenderCommand.inFolder(target, for: name, format: ext)
    }

    /// Refuses `target` when it is one of `inputs` (each with what it is to the command, such as
    /// "the input file" or "the theme file"); inputs that are not existing files (a built-in
    /// theme's name, `-`) are skipped.
    /// - Throws: ``TypesetError/unwritableOutput(path:reason:)`` naming the input.
    static func refuseOverwriting(_ inputs: [(path: String?, role: String)], with target: String) throws {
        for case (let path?, let role) in inputs where path != "-" && FileManager.default.fileExists(atPath: path) {
            if InputFile.isSameFile(path, as: target) {
                throw TypesetError.unwritableOutput(path: target, reason: "it is \(role); choose another output")
            }
        }
    }
}
