internal import CHyphen
import Foundation

/// Hyphenation points from libhyphen (Liang's algorithm, the pattern library LibreOffice uses)
/// with the pattern files of Debian's `hyphen-*` packages in `/usr/share/hyphen`
/// (`hyph_en_US.dic`, `hyph_de_DE.dic`, `hyph_fr.dic`, …). Dictionaries are loaded once per
/// language and shared; lookups are thread-safe (libhyphen reads a loaded dictionary only).
public enum Hyphenator {
    /// Folders searched for `hyph_<language>.dic`.
    static let folders = ["/usr/share/hyphen"]

    private final class Dictionary: @unchecked Sendable {
        let pointer: UnsafeMutablePointer<HyphenDict>
        let utf8: Bool
        init(_ pointer: UnsafeMutablePointer<HyphenDict>) {
            self.pointer = pointer
            utf8 = pointer.pointee.utf8 != 0
        }
        deinit { hnj_hyphen_free(pointer) }
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var loaded: [String: Dictionary?] = [:]

    /// The pattern file for a BCP 47 tag: `de-CH` tries `hyph_de_CH.dic`, then `hyph_de.dic`,
    /// then `hyph_de_DE.dic`; English falls back to `hyph_en_US.dic`. nil when none is installed.
    static func path(for language: String) -> String? {
        let parts = language.replacingOccurrences(of: "-", with: "_").split(separator: "_").map(String.init)
        guard let primary = parts.first?.lowercased(), !primary.isEmpty else { return nil }
        var names: [String] = []
        if parts.count > 1 { names.append("\(primary)_\(parts[parts.count - 1].uppercased())") }
        names += [primary, "\(primary)_\(primary.uppercased())"]
        if primary == "en" { names.append("en_US") }
        for folder in folders {
            for name in names {
                let path = "\(folder)/hyph_\(name).dic"
                if FileManager.default.isReadableFile(atPath: path) { return path }
            }
        }
        return nil
    }

    private static func dictionary(_ language: String) -> Dictionary? {
        lock.lock()
        defer { lock.unlock() }
        if let cached = loaded[language] { return cached }
        var dictionary: Dictionary?
        if let path = path(for: language), let pointer = hnj_hyphen_load(path) { dictionary = Dictionary(pointer) }
        loaded[language] = dictionary
        return dictionary
    }

    /// Whether patterns for `language` are installed.
    public static func hasPatterns(for language: String) -> Bool { dictionary(language) != nil }

    /// Hyphenation points of a lower-case `word` in `language`: offsets `k` (in Unicode scalars)
    /// such that a hyphen may follow the first `k` scalars. Empty when the language has no
    /// installed patterns or the word cannot be written in the patterns' encoding. The caller
    /// applies its own left and right minimums.
    public static func points(in word: String, language: String) -> [Int] {
        guard let dictionary = dictionary(language) else { return [] }
        // libhyphen reads the word as a C string besides its length: it looks for the
        // dictionary's NOHYPHEN strings with `strstr` and marks the hyphen beside each match, so
        // the word is passed with its terminating NUL, or it reads, and may write, past it.
        var terminated: [UInt8] = []
        terminated.reserveCapacity(word.utf8.count + 1)
        if dictionary.utf8 {
            terminated.append(contentsOf: word.utf8)
        } else {
            // ISO 8859-1 pattern files (German): one byte per scalar.
            for s in word.unicodeScalars {
                guard s.value < 256 else { return [] }
                terminated.append(UInt8(s.value))
            }
        }
        let byteCount = terminated.count
        terminated.append(0)
        guard byteCount > 1, byteCount < 256 else { return [] }
        var hyphens = [CChar](repeating: 0, count: byteCount + 5)
        var rep: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = nil
        var pos: UnsafeMutablePointer<Int32>? = nil
        var cut: UnsafeMutablePointer<Int32>? = nil
        let status = terminated.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: terminated.count) { text in
                hnj_hyphen_hyphenate3(
                    dictionary.pointer, text, Int32(byteCount), &hyphens, nil, &rep, &pos, &cut,
                    1, 1, 1, 1)
            }
        }
        guard status == 0 else {
            if let rep {
                for i in 0..<byteCount { free(rep[i]) }
                free(rep)
                free(pos)
                free(cut)
            }
            return []
        }
        // Byte offsets → scalar offsets. Non-standard points (`rep`, e.g. old German "ck" →
        // "k-k") are skipped: the word must rejoin unchanged.
        var result: [Int] = []
        var scalar = 0
        for i in 0..<byteCount {
            if !dictionary.utf8 || (terminated[i] & 0xC0) != 0x80 { scalar += 1 }
            if hyphens[i] & 1 == 1, i + 1 < byteCount, !dictionary.utf8 || (terminated[i + 1] & 0xC0) != 0x80,
                rep?[i] == nil
            {
                result.append(scalar)
            }
        }
        if let rep {
            for i in 0..<byteCount { free(rep[i]) }
            free(rep)
            free(pos)
            free(cut)
        }
        return result
    }
}
