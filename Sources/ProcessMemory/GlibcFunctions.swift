import Foundation

/// The glibc functions this module calls, looked up by name once (`dlsym(3)` with the default
/// handle: every loaded library), nil with a C library that lacks them.
///
/// Each lookup takes the dynamic linker's lock, which `dlopen(3)` holds for the whole load of
/// a library and its dependencies: a lookup made while another thread opens the syntax
/// highlighting library (Qt, about 10 ms) waits for it. So every function is looked up at once,
/// before any library is opened on another thread (``lookUp()``), and never again.
package enum GlibcFunctions {
    typealias MallOpt = @convention(c) (Int32, Int32) -> Int32
    typealias Trim = @convention(c) (Int) -> Int32
    typealias GetTID = @convention(c) () -> pid_t

    /// `mallopt(3)`.
    static let mallopt: MallOpt? = dlsym(nil, "mallopt").map { unsafeBitCast($0, to: MallOpt.self) }
    /// `malloc_trim(3)`.
    static let mallocTrim: Trim? = dlsym(nil, "malloc_trim").map { unsafeBitCast($0, to: Trim.self) }
    /// `gettid(2)`'s wrapper.
    static let gettid: GetTID? = dlsym(nil, "gettid").map { unsafeBitCast($0, to: GetTID.self) }

    /// Looks every function up now, if not yet done: call before starting a thread that opens
    /// libraries.
    package static func lookUp() {
        _ = (mallopt, mallocTrim, gettid)
    }
}
