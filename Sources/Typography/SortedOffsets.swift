extension Array where Element == Int {
    /// In an array of increasing offsets whose first is at most `value`, the index of the last
    /// offset at most `value`: the stretch that holds `value` when each offset starts one (a
    /// binary search, log₂ of the count steps). 0 when the first offset is past `value`.
    package func stretchIndex(holding value: Int) -> Int {
        var low = 0
        var high = count
        while high - low > 1 {
            let middle = (low + high) / 2
            if self[middle] <= value { low = middle } else { high = middle }
        }
        return low
    }
}
