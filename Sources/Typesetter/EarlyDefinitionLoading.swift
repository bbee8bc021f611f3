internal import CodeHighlighting
import Foundation
internal import ProcessMemory
import Styling
import Typography

/// Syntax definitions being loaded ahead of a render, on a thread of its own
/// (``Typesetter/startLoadingCodeDefinitions(forInputs:highlight:)``).
public struct EarlyDefinitionLoading: Sendable {
    let loader: DefinitionLoader

    /// Drops the languages not yet begun and waits for the one being loaded: call it before the
    /// process exits, since the highlighting library must not be unloaded while it loads.
    public func cancel() {
        loader.cancel()
    }
}

extension Typesetter {
    /// Starts loading the syntax definitions of the languages that the fenced code blocks of
    /// `inputs` (Markdown files) name, before the files are parsed, so that loading the
    /// highlighting library and its definitions (about 30 ms for ten languages) runs on
    /// another thread beside the parse instead of after it. Rendering is the same with or
    /// without this call: the definitions are found loaded or loaded when first needed.
    ///
    /// The languages are guessed from each file's first ``scannedBytes`` bytes, line by line
    /// (``fencedCodeSamples(in:)``), never parsed: a guess decides only what loads early. Nil,
    /// with nothing started, when no line names a language, when `highlight` (the value of
    /// `-V highlight=…`) or a file's front matter says `highlight: false`, or with
    /// `TYPESET_THREADS=1`. Standard input (`-`) and files that are not regular are not read.
    public static func startLoadingCodeDefinitions(
        forInputs inputs: [String], highlight: String? = nil
    ) -> EarlyDefinitionLoading? {
        guard getenv("TYPESET_THREADS").map({ String(cString: $0) }) != "1", !turnsHighlightingOff(highlight) else {
            return nil
        }
        var samples: [(language: String, sample: String)] = []
        var named = Set<String>()
        for input in inputs where input != "-" {
            guard let bytes = leadingBytes(of: input) else { continue }
            let scan = fencedCodeSamples(in: bytes)
            if scan.highlightOff { return nil }
            for sample in scan.samples where named.insert(sample.language.lowercased()).inserted {
                samples.append(sample)
            }
        }
        guard !samples.isEmpty else { return nil }
        // Before the loader's thread opens the highlighting library (see GlibcFunctions).
        GlibcFunctions.lookUp()
        let loader = DefinitionLoader()
        for sample in samples.prefix(DefinitionLoader.languageLimit) {
            loader.load(language: sample.language, sample: sample.sample)
        }
        return EarlyDefinitionLoading(loader: loader)
    }

    /// How much of each input ``startLoadingCodeDefinitions(forInputs:highlight:)`` reads: 1 MiB.
    static let scannedBytes = 1 << 20

    /// The most lines of a block kept as its sample: enough to compile the rules a block of
    /// that language meets first.
    static let sampleLines = 40

    /// The languages that the fences of Markdown `bytes` name, in order, each with the lines of
    /// its first block as a sample; and whether front matter (`---` on the first line) holds
    /// `highlight: false`. A fence is a line of three or more backticks or tildes after any
    /// indentation or `>` (code in lists and quotes), its info string read as
    /// ``CodeBlockInfo`` reads it; blocks marked `.nohighlight` name no language. Only fence
    /// lines and front matter are decoded: the scan costs a few instructions a byte.
    static func fencedCodeSamples(in bytes: [UInt8]) -> (
        samples: [(language: String, sample: String)], highlightOff: Bool
    ) {
        var samples: [(language: String, sample: String)] = []
        var highlightOff = false
        // Info strings read before (most fences repeat one) and languages sampled, lowercased.
        var infosSeen = Set<ArraySlice<UInt8>>()
        var sampled = Set<String>()
        // The block open: its fence character and length, its language (nil: not sampled) and
        // the byte range of its sample lines so far.
        var open: (fence: UInt8, length: Int, language: String?, sample: Range<Int>, lines: Int)?
        var inFrontMatter = false
        var lineStart = 0
        var lineNumber = 0
        while lineStart <= bytes.count {
            let lineEnd = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            defer {
                lineStart = lineEnd + 1
                lineNumber += 1
            }
            let line = bytes[lineStart..<lineEnd]
            if lineNumber == 0, trimmed(line).elementsEqual("---".utf8) {
                inFrontMatter = true
                continue
            }
            if inFrontMatter {
                let text = trimmed(line)
                if text.elementsEqual("---".utf8) || text.elementsEqual("...".utf8) { inFrontMatter = false }
                highlightOff = frontMatterTurnsHighlightingOff(line) ?? highlightOff
                continue
            }
            let content = line.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: ">") }
            let character = content.first
            let fenceLength =
                character == UInt8(ascii: "`") || character == UInt8(ascii: "~")
                ? content.prefix { $0 == character }.count : 0
            if var block = open {
                if fenceLength >= block.length, character == block.fence,
                    trimmed(content.dropFirst(fenceLength)).isEmpty
                {
                    if let language = block.language {
                        samples.append((language, String(decoding: bytes[block.sample], as: UTF8.self)))
                    }
                    open = nil
                } else if block.lines < sampleLines {
                    block.sample = block.sample.lowerBound..<lineEnd
                    block.lines += 1
                    open = block
                }
                continue
            }
            guard fenceLength >= 3, let character else { continue }
            let info = trimmed(content.dropFirst(fenceLength))
            if character == UInt8(ascii: "`"), info.contains(UInt8(ascii: "`")) { continue }
            var language: String?
            if infosSeen.insert(info).inserted {
                let parsed = CodeBlockInfo(info: String(decoding: info, as: UTF8.self))
                if parsed.highlight, let named = parsed.language, sampled.insert(named.lowercased()).inserted {
                    language = named
                }
            }
            let sampleStart = min(lineEnd + 1, bytes.count)
            open = (character, fenceLength, language, sampleStart..<sampleStart, 0)
        }
        if let block = open, let language = block.language {
            samples.append((language, String(decoding: bytes[block.sample], as: UTF8.self)))
        }
        return (samples, highlightOff)
    }

    /// `bytes` without the spaces, tabs and carriage returns at either end.
    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let blank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }
        guard let first = bytes.firstIndex(where: { !blank($0) }), let last = bytes.lastIndex(where: { !blank($0) })
        else { return [] }
        return bytes[first...last]
    }

    /// Whether a front matter line `highlight: …` turns highlighting off; nil for another line.
    private static func frontMatterTurnsHighlightingOff(_ line: ArraySlice<UInt8>) -> Bool? {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")),
            trimmed(line[..<colon]).elementsEqual("highlight".utf8)
        else { return nil }
        return turnsHighlightingOff(String(decoding: line[(colon + 1)...], as: UTF8.self))
    }

    /// The first ``scannedBytes`` bytes of the regular file `path`, nil when it cannot be read.
    private static func leadingBytes(of path: String) -> [UInt8]? {
        guard let file = try? FileReader.open(path, limit: .max) else { return nil }
        defer { close(file.descriptor) }
        let count = min(file.size, scannedBytes)
        var bytes = [UInt8](repeating: 0, count: count)
        let read = bytes.withUnsafeMutableBytes { Foundation.read(file.descriptor, $0.baseAddress, count) }
        guard read > 0 else { return nil }
        bytes.removeSubrange(read...)
        return bytes
    }

    /// Whether a `highlight` value (front matter or `-V`) turns highlighting off, as the styler
    /// reads it.
    private static func turnsHighlightingOff(_ value: String?) -> Bool {
        guard let value else { return false }
        let unquoted = value.trimmingCharacters(in: CharacterSet(charactersIn: "\"' \t\r"))
        return ["false", "no", "off", "0"].contains(unquoted.lowercased())
    }
}
