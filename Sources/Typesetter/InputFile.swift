import DocumentModel
import Foundation
import Typography

/// Reading Markdown input: a file path or `-` for standard input, decoded as UTF-8.
public enum InputFile {
    /// Markdown text as read, with the warnings its decoding needed.
    public struct Text: Sendable {
        /// The decoded text: each bad UTF-8 sequence is one U+FFFD.
        public var text: String
        /// At most one warning: where the first bad sequence is, and how many there are.
        public var diagnostics: [Diagnostic]
    }

    /// The text of `path` (`-`: standard input; a pipe such as `<(…)` is read to its end when
    /// `streams` is true, as for a file named on the command line; a file a document names, such
    /// as an include, passes false and must be a regular file, so a FIFO is refused at once).
    /// - Throws: ``TypesetError/unreadableInput(path:reason:)`` for a missing file, a folder, a
    ///   device, a file over ``FileReader/markdownLimit`` or no permission.
    public static func read(_ path: String, streams: Bool = true) throws -> Text {
        let data: Data
        do {
            let what = "a Markdown input"
            data =
                try streams
                ? FileReader.readStream(path, limit: FileReader.markdownLimit, what: what)
                : FileReader.read(path, limit: FileReader.markdownLimit, what: what)
        } catch {
            throw TypesetError.unreadableInput(path: path, reason: error.reason)
        }
        return decodeUTF8(data, path: path == "-" ? "<stdin>" : path)
    }

    /// Decodes UTF-8 (a leading byte-order mark is dropped), straight from `data`: no
    /// intermediate copy of the bytes for valid text. Each bad sequence — the maximal subpart of
    /// a well-formed sequence, or one byte that starts none (Unicode 15 §3.9, "U+FFFD
    /// Substitution of Maximal Subparts"; the WHATWG Encoding standard's UTF-8 decoder, as
    /// browsers decode) — becomes one U+FFFD, and one warning names the line and column (in
    /// bytes, as the parser counts them) of the first, with the count. Lines end at LF, CR LF
    /// or a lone CR (CommonMark spec 0.31, §2.1).
    ///
    /// A file that opens with a UTF-16 or UTF-32 byte-order mark is decoded as the mark says,
    /// as the WHATWG Encoding standard's "BOM sniffing" has browsers do (UTF-32 too), each
    /// unpaired surrogate or bad code unit one U+FFFD, with a warning naming the first.
    public static func decodeUTF8(_ data: Data, path: String) -> Text {
        if let wide = decodeWide(data, path: path) { return wide }
        let body = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data[...]
        if let text = String(validating: body, as: UTF8.self) { return Text(text: text, diagnostics: []) }
        let scan = body.withUnsafeBytes { UTF8Repair.scan($0) }
        let text = String(decoding: body, as: UTF8.self)
        let many = scan.count == 1 ? "1 bad byte sequence" : "\(scan.count) bad byte sequences"
        let message = "input is not valid UTF-8: \(many), each set as U+FFFD (\u{FFFD}); the first is here"
        let location = SourceLocation(file: path, line: scan.firstLine, column: scan.firstColumn)
        return Text(text: text, diagnostics: [Diagnostic(.warning, message, at: location, kind: .encoding)])
    }

    /// `data` decoded as UTF-32 or UTF-16 when it opens with that encoding's byte-order mark
    /// (UTF-32's first: its little-endian mark begins with UTF-16's); nil for any other data.
    static func decodeWide(_ data: Data, path: String) -> Text? {
        let bytes = [UInt8](data.prefix(4))
        let width: Int
        let bigEndian: Bool
        if bytes.starts(with: [0xFF, 0xFE, 0x00, 0x00]) || bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF]) {
            (width, bigEndian) = (4, bytes[0] == 0)
        } else if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            (width, bigEndian) = (2, bytes[0] == 0xFE)
        } else {
            return nil
        }
        var scalars = String.UnicodeScalarView()
        var bad = 0
        var firstBad: Int?
        func note() {
            bad += 1
            if firstBad == nil { firstBad = scalars.count }
            scalars.append(TextSanitizer.replacement)
        }
        let units = data.withUnsafeBytes { raw -> [UInt32] in
            stride(from: width, to: raw.count - width + 1, by: width).map { offset in
                (0..<width).reduce(UInt32(0)) { value, index in
                    let byte = UInt32(raw[offset + (bigEndian ? index : width - 1 - index)])
                    return value << 8 | byte
                }
            }
        }
        let trailing = (data.count - width) % width != 0
        var index = 0
        while index < units.count {
            let unit = units[index]
            index += 1
            if width == 4 {
                if let scalar = Unicode.Scalar(unit) { scalars.append(scalar) } else { note() }
                continue
            }
            if (0xD800...0xDBFF).contains(unit), index < units.count, (0xDC00...0xDFFF).contains(units[index]) {
                let value = 0x10000 + ((unit - 0xD800) << 10) + (units[index] - 0xDC00)
                index += 1
                scalars.append(Unicode.Scalar(value)!)
            } else if let scalar = Unicode.Scalar(unit) {
                scalars.append(scalar)
            } else {
                note()
            }
        }
        if trailing { note() }
        let text = String(scalars)
        guard bad > 0, let firstBad else { return Text(text: text, diagnostics: []) }
        // The line and column of the first bad unit, in the decoded text's UTF-8 bytes.
        let before = String(String.UnicodeScalarView(scalars.prefix(firstBad)))
        let lines = before.lines()
        let location = SourceLocation(file: path, line: lines.count, column: (lines.last?.utf8.count ?? 0) + 1)
        let encoding = width == 4 ? "UTF-32" : "UTF-16"
        let many = bad == 1 ? "1 bad code unit" : "\(bad) bad code units"
        let message =
            "input is \(encoding) (its byte-order mark says so) with \(many), each set as U+FFFD; the first is here"
        return Text(text: text, diagnostics: [Diagnostic(.warning, message, at: location, kind: .encoding)])
    }

    /// Whether writing to `output` would overwrite the file `input`: the same path once
    /// symbolic links are followed, or — both existing — the same file (POSIX `stat` device and
    /// inode numbers: a hard link, a bind mount, `/dev/fd/N` of the input's descriptor).
    public static func isSameFile(_ input: String, as output: String) -> Bool {
        guard input != "-", output != "-" else { return false }
        var inputStatus = stat()
        var outputStatus = stat()
        if stat(input, &inputStatus) == 0, stat(output, &outputStatus) == 0, inputStatus.st_dev == outputStatus.st_dev,
            inputStatus.st_ino == outputStatus.st_ino,
            inputStatus.st_mode & S_IFMT == S_IFREG
        {
            return true
        }
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
        let created = TemporaryFiles.creating {
            FileManager.default.createFile(atPath: output.temporaryPath, contents: Data(text.utf8))
        }
        guard created else {
            throw TypesetError.unwritableOutput(path: path, reason: "cannot create a temporary file")
        }
        try output.commit()
    }
}
