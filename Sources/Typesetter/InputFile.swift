import Foundation
import Typography

/// Reading Markdown input: a file path or `-` for standard input, strictly UTF-8.
public enum InputFile {
    /// The text of `path` (`-`: standard input).
    /// - Throws: ``TypesetError/unreadableInput(path:reason:)`` for a missing file, a folder or
    ///   no permission; ``TypesetError/invalidUTF8(path:line:)`` with the first bad line.
    public static func read(_ path: String) throws -> String {
        let data: Data
        if path == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            do { data = try FileReader.read(path) } catch {
                throw TypesetError.unreadableInput(path: path, reason: error.reason)
            }
        }
        return try decodeUTF8(data, path: path)
    }

    /// Decodes UTF-8 (a leading byte-order mark is dropped), straight from `data`: no
    /// intermediate copy of the bytes, which for a 20 MB file was 20 MB more while it was read.
    /// - Throws: ``TypesetError/invalidUTF8(path:line:)`` naming the first line with a bad
    ///   sequence; lines end at LF, CR LF or a lone CR (CommonMark spec 0.30, §2.1), as the parser reads them.
    public static func decodeUTF8(_ data: Data, path: String) throws -> String {
        let body = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data[...]
        if let text = String(validating: body, as: UTF8.self) { return text }
        let bytes = [UInt8](body)
        // Find the first line that does not decode.
        var line = 1
        var start = 0
        func endsLine(_ i: Int) -> Bool {
            bytes[i] == 0x0A || (bytes[i] == 0x0D && (i + 1 == bytes.count || bytes[i + 1] != 0x0A))
        }
        for i in bytes.indices where endsLine(i) || i == bytes.count - 1 {
            let end = endsLine(i) ? i : i + 1
            if String(validating: bytes[start..<end], as: UTF8.self) == nil { break }
            line += 1
            start = i + 1
        }
        throw TypesetError.invalidUTF8(path: path, line: line)
    }

    /// Whether writing to `output` would overwrite the file `input`: the same path once
    /// symbolic links are followed, or — both existing — the same file (POSIX `stat` device and
    /// inode numbers: a hard link, a bind mount, `/dev/fd/N` of the input's descriptor).
    public static func isSameFile(_ input: String, as output: String) -> Bool {
        guard input != "-", output != "-" else { return false }
        var a = stat(), b = stat()
        if stat(input, &a) == 0, stat(output, &b) == 0, a.st_dev == b.st_dev, a.st_ino == b.st_ino,
           a.st_mode & S_IFMT == S_IFREG { return true }
        let first = OutputFile.followingLinks(URL(fileURLWithPath: input)).standardizedFileURL.path
        let second = OutputFile.followingLinks(URL(fileURLWithPath: output)).standardizedFileURL.path
        return first == second
    }
}

extension Typesetter {
    /// Writes `text` to `path` all-or-nothing, like a rendered PDF: a temporary file renamed
    /// into place, symbolic links followed, devices and FIFOs written through, `-` standard output.
    /// - Throws: ``TypesetError/unwritableOutput(path:reason:)``.
    public static func write(_ text: String, to path: String) throws {
        let output = try OutputFile(target: path)
        guard FileManager.default.createFile(atPath: output.temporaryPath, contents: Data(text.utf8)) else {
            throw TypesetError.unwritableOutput(path: path, reason: "cannot create a temporary file")
        }
        try output.commit()
    }
}
