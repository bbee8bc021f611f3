import Foundation
import Testing

extension Trait where Self == ConditionTrait {
    /// Marks a suite or test as slow: scaling, memory peaks, fuzzing and huge inputs, which
    /// render megabytes in child processes. `make test` runs them; `make test-fast` sets
    /// `TYPESET_SKIP_SLOW=1`, and then they are skipped (reported as skipped, with this reason).
    public static var slow: Self {
        .disabled(if: SlowTests.skipped, "slow: skipped when TYPESET_SKIP_SLOW is set (make test-fast)")
    }
}

/// Whether this run skips the tests marked `.slow`.
public enum SlowTests {
    /// True when the environment variable `TYPESET_SKIP_SLOW` is set to anything but "" or "0".
    public static var skipped: Bool {
        let value = ProcessInfo.processInfo.environment["TYPESET_SKIP_SLOW"] ?? ""
        return !value.isEmpty && value != "0"
    }
}
