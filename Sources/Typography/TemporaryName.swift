/// Names of temporary files written beside an output and renamed over it when complete: within
/// the 255 bytes a file name may have (POSIX `NAME_MAX` on Linux file systems), however long
/// the output's own name.
public enum TemporaryName {
    /// The most bytes of a file name.
    public static let maxBytes = 255

    /// `.NAME` + `suffix`, with NAME shortened (whole characters kept, from its start) so that
    /// the whole is at most ``maxBytes`` bytes. `reserve` bytes more are kept free (for a page
    /// number that varies between names sharing one prefix).
    public static func hidden(_ name: String, suffix: String, reserve: Int = 0) -> String {
        "." + shortened(name, toBytes: maxBytes - 1 - suffix.utf8.count - reserve) + suffix
    }

    /// `text` cut to at most `bytes` UTF-8 bytes at a character boundary.
    public static func shortened(_ text: String, toBytes bytes: Int) -> String {
        guard text.utf8.count > bytes else { return text }
        var result = ""
        var used = 0
        for character in text {
            let size = character.utf8.count
            guard used + size <= bytes else { break }
            result.append(character)
            used += size
        }
        return result
    }
}
