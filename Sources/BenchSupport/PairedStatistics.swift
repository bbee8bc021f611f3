/// The arithmetic of a paired benchmark: on a shared, busy machine only times measured side by
/// side mean anything, so each Typeset run is divided by the floor run next to it and the
/// median of those ratios is reported, not the ratio of two medians.
public enum PairedStatistics {
    /// The median of `values`: the middle value, or the mean of the two middle values when the
    /// count is even; `nil` for no values. Non-finite values are sorted like any other.
    public static func median(_ values: [Double]) -> Double? {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return nil }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The median of the per-pair ratios `numerators[i] / denominators[i]` (pairs beyond the
    /// shorter array are ignored; a pair whose denominator is not above zero is skipped);
    /// `nil` when no pair remains.
    public static func medianOfRatios(_ numerators: [Double], _ denominators: [Double]) -> Double? {
        median(zip(numerators, denominators).filter { $0.1 > 0 }.map { $0.0 / $0.1 })
    }

    /// Seconds per megabyte (10⁶ bytes) of input, net of start-up: the slope between a
    /// minimal input of the same kind (`baselineSeconds` for `baselineBytes`, such as an empty
    /// document) and the measured one (`seconds` for `bytes`). `nil` when the input is not at
    /// least 10,000 bytes larger than the baseline, where start-up noise would dominate.
    public static func secondsPerMegabyte(seconds: Double, bytes: Int, baselineSeconds: Double, baselineBytes: Int)
        -> Double?
    {
        guard bytes - baselineBytes >= 10_000 else { return nil }
        return (seconds - baselineSeconds) / (Double(bytes - baselineBytes) / 1_000_000)
    }
}
