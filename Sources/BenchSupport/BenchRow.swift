import Foundation

/// One row of the benchmark's table: an input, Typeset's median time and peak memory on it,
/// and — for the generated corpus — the floor's beside it (the least any Pango + Cairo program
/// costs for the same text), and the time per megabyte beside the ordinary `large` document's.
public struct BenchRow: Sendable, Equatable {
    /// The input's name (`one`, `large`, `paragraph-1MB` …) and how it was run.
    public var input: String
    /// The input's size in megabytes (10⁶ bytes).
    public var megabytes: Double
    /// Pages Typeset wrote (`nil` for a command that writes none).
    public var pages: Int?
    /// Runs (pairs, when there is a floor).
    public var runs: Int
    /// Typeset's median wall time, seconds.
    public var seconds: Double
    /// The floor's median wall time, seconds (`nil`: no floor for this input).
    public var floorSeconds: Double?
    /// The floor's page count.
    public var floorPages: Int?
    /// The median of the per-pair ratios Typeset ÷ floor.
    public var ratio: Double?
    /// Seconds per megabyte net of start-up (see
    /// ``PairedStatistics/secondsPerMegabyte(seconds:bytes:baselineSeconds:baselineBytes:)``).
    public var secondsPerMegabyte: Double?
    /// ``secondsPerMegabyte`` ÷ the `large` document's.
    public var timesLarge: Double?
    /// Typeset's largest peak resident set over the runs, MiB (2²⁰ bytes).
    public var peakMiB: Double
    /// The floor's largest peak resident set, MiB.
    public var floorPeakMiB: Double?

    /// A row with every optional figure absent.
    public init(input: String, megabytes: Double, pages: Int?, runs: Int, seconds: Double, peakMiB: Double) {
        self.input = input
        self.megabytes = megabytes
        self.pages = pages
        self.runs = runs
        self.seconds = seconds
        self.peakMiB = peakMiB
    }

    /// The column headings, in order.
    public static let headings = [
        "input", "MB", "pages", "runs", "Typeset s", "floor s", "× floor",
        "pages/s", "floor pages/s", "s/MB", "× large s/MB", "peak MiB", "floor MiB",
    ]
    /// Each column's width in characters (a cell is padded to it; a longer cell widens its row only).
    static let widths = [34, 5, 5, 4, 9, 7, 7, 7, 13, 5, 12, 8, 9]

    /// The table's first two lines: headings and the Markdown delimiter row (numbers right-aligned).
    public static func header() -> String {
        line(headings) + "\n" + "|"
            + widths.enumerated().map { index, width in
                index == 0
                    ? " " + String(repeating: "-", count: width) + " "
                    : " " + String(repeating: "-", count: width - 1) + ": "
            }.joined(separator: "|") + "|"
    }

    /// The row as one Markdown table line; an absent figure is `–`.
    public var markdown: String {
        func f(_ value: Double?, _ digits: Int) -> String {
            guard let value, value.isFinite else { return "–" }
            return String(format: "%.\(digits)f", value)
        }
        let pagesPerSecond = pages.map { Double($0) / seconds }
        let floorPerSecond = floorPages.flatMap { p in floorSeconds.map { Double(p) / $0 } }
        return Self.line([
            input, f(megabytes, megabytes < 0.1 ? 3 : 2), pages.map(String.init) ?? "–", String(runs),
            f(seconds, seconds < 1 ? 3 : 2), f(floorSeconds, (floorSeconds ?? 0) < 1 ? 3 : 2),
            ratio.map { f($0, 2) + "×" } ?? "–",
            f(pagesPerSecond, 0), f(floorPerSecond, 0), f(secondsPerMegabyte, 2),
            timesLarge.map { f($0, 2) + "×" } ?? "–",
            f(peakMiB, 0), f(floorPeakMiB, 0),
        ])
    }

    static func line(_ cells: [String]) -> String {
        "|"
            + zip(cells, widths).enumerated().map { index, pair in
                let (cell, width) = pair
                let padding = String(repeating: " ", count: Swift.max(0, width - cell.count))
                return " " + (index == 0 ? cell + padding : padding + cell) + " "
            }.joined(separator: "|") + "|"
    }
}
