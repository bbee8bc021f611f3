internal import CBuildInfo

/// What the binary was built from.
enum BuildInfo {
    /// The git commit (`make build` records it), or `unknown` for a plain `swift build`.
    static var commit: String { String(cString: typeset_build_commit()) }
}
