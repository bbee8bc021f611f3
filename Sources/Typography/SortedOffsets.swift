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

extension Array where Element: Comparable {
    /// In an ascending array, the index of the first element not less than `value`: where
    /// `value` goes to keep the order (a binary search, log₂ of the count steps).
    package func insertionIndex(of value: Element) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
