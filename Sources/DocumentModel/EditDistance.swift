/// Edit distances between names, for "did you mean" hints on names that are almost known.
public enum EditDistance {
    /// Whether `first` and `second` differ by at most one insertion, deletion or substitution
    /// of a character, or one swap of two adjacent characters (Damerau–Levenshtein distance
    /// ≤ 1: `titel` for `title`), in time linear in their length.
    public static func withinOne(_ first: String, _ second: String) -> Bool {
        let shorter = Array(first.count <= second.count ? first : second)
        let longer = Array(first.count <= second.count ? second : first)
        guard longer.count - shorter.count <= 1 else { return false }
        var index = 0
        while index < shorter.count, shorter[index] == longer[index] { index += 1 }
        if index == shorter.count { return true }
        if shorter.count == longer.count {
            if shorter[(index + 1)...] == longer[(index + 1)...] { return true }
            return index + 1 < shorter.count && shorter[index] == longer[index + 1]
                && shorter[index + 1] == longer[index] && shorter[(index + 2)...] == longer[(index + 2)...]
        }
        return shorter[index...] == longer[(index + 1)...]
    }
}
