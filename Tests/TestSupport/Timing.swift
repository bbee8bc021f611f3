import Foundation
import Testing

/// Wall time for the scaling tests. A time is only ever compared with another measured in the
/// same run (size n against 4n or 8n, say), never with a fixed number of seconds, which depends
/// on the machine and on what else it runs.
public enum Timing {
    /// The shortest wall time in s of `runs` runs of `body`, so that one stall of a busy
    /// machine does not decide a bound. Rethrows what `body` throws.
    public static func bestSeconds(of runs: Int = 2, _ body: () throws -> Void) rethrows -> Double {
        var best = Double.infinity
        for _ in 0..<max(1, runs) {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return best
    }

    /// The shortest processor time in s that the calling thread spent in `runs` runs of
    /// `body` (`CLOCK_THREAD_CPUTIME_ID`): unlike wall time, not stretched when other tests
    /// or processes take the cores, so a ratio of two such times holds on a busy machine. Only
    /// for work done on the calling thread. Rethrows what `body` throws.
    public static func bestThreadSeconds(of runs: Int = 3, _ body: () throws -> Void) rethrows -> Double {
        func now() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        }
        var best = Double.infinity
        for _ in 0..<max(1, runs) {
            let start = now()
            try body()
            best = min(best, now() - start)
        }
        return best
    }

    /// Takes a measurement with `trial` until one `holds`, at most `attempts` times, and
    /// returns the last one taken. A bound on a ratio of two figures measured on a machine
    /// other work shares then fails only when it fails every time, as a cost that grows
    /// faster than it should does, and not when one moment of load stretched one figure.
    /// Rethrows what `trial` throws.
    public static func firstHolding<Figures>(
        attempts: Int = 3, _ trial: () throws -> Figures, holds: (Figures) -> Bool
    ) rethrows -> Figures {
        var figures = try trial()
        for _ in 1..<max(1, attempts) where !holds(figures) {
            figures = try trial()
        }
        return figures
    }

    /// The seconds `seconds` takes for 2,000 and for 16,000 of something (`seconds(2_000)`,
    /// `seconds(16_000)`), the pair measured again until eight times the input takes under
    /// sixteen times as long (``firstHolding(attempts:_:holds:)``): linear with slack, where a
    /// quadratic cost takes about 64 times as long. The caller expects the bound of the figures
    /// returned.
    public static func eightfold(_ seconds: (Int) -> Double) -> [Double] {
        firstHolding {
            [seconds(2_000), seconds(16_000)]
        } holds: {
            $0[1] < 16 * $0[0]
        }
    }
}

extension Render {
    /// Renders `markdown` (written as `name`.md in a scratch folder named after `scratch`) with
    /// the typeset command, tagged as by default: processor time in s (user and system: unlike
    /// the time on the clock, not stretched by other processes on a busy machine) and peak
    /// resident size in MiB (GNU time), and the PDF's text. Infinite figures when time reports
    /// none; a nonzero exit status is recorded as a failed expectation.
    public static func measured(_ markdown: String, name: String, scratch: String) throws -> (
        seconds: Double, mebibytes: Double, text: String
    ) {
        let folder = try scratchFolder(scratch)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let input = folder + "/\(name).md"
        let pdf = folder + "/\(name).pdf"
        let report = folder + "/\(name).time"
        try markdown.write(toFile: input, atomically: false, encoding: .utf8)
        let run = try PDFProbe.run("time", ["-f", "%M %U %S", "-o", report, binary, "render", input, "-q", "-o", pdf])
        #expect(run.status == 0, "\(name): \(run.output)")
        let figures =
            try String(contentsOfFile: report, encoding: .utf8).split(separator: "\n").last?
            .split(separator: " ").compactMap { Double(String($0)) } ?? []
        guard figures.count == 3 else { return (.infinity, .infinity, try PDFProbe.text(pdf)) }
        return (figures[1] + figures[2], figures[0] / 1024, try PDFProbe.text(pdf))
    }
}

extension Render {
    /// Renders the Markdown `markdown` makes of size `size` and of eight times it
    /// (``measured(_:name:scratch:)``), the pair measured again, up to three times, until it
    /// holds (``Timing/firstHolding(attempts:_:holds:)``), and expects eight times the size to
    /// take at most ten times the processor time and the peak memory; returns the larger
    /// render's figures and text.
    public static func expectLinear(
        _ name: String, size: Int, scratch: String, markdown: (Int) -> String
    ) throws -> (seconds: Double, mebibytes: Double, text: String) {
        let slug = name.replacingOccurrences(of: " ", with: "-")
        let (small, large) = try Timing.firstHolding {
            (
                try measured(markdown(size), name: "\(slug)-1", scratch: scratch),
                try measured(markdown(8 * size), name: "\(slug)-8", scratch: scratch)
            )
        } holds: {
            $0.1.seconds <= 10 * $0.0.seconds && $0.1.mebibytes <= 10 * $0.0.mebibytes
        }
        let figures =
            "\(name): n \(String(format: "%.2f", small.seconds)) s \(Int(small.mebibytes)) MiB, "
            + "8n \(String(format: "%.2f", large.seconds)) s \(Int(large.mebibytes)) MiB"
        #expect(large.seconds <= 10 * small.seconds, "\(figures)")
        #expect(large.mebibytes <= 10 * small.mebibytes, "\(figures)")
        return large
    }
}
