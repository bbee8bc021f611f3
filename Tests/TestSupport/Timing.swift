import Foundation

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
