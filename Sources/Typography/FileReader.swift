import Foundation

/// The one way Typeset opens a file it reads (Markdown, themes, design tokens, images, fonts):
/// only regular files, their size read before their contents and held to a limit, with a
/// message that says what is wrong.
///
/// - A path is looked up with POSIX `stat` (symbolic links followed) and refused at once unless
///   it is a regular file: `/dev/zero` "is a character device", a FIFO "is a FIFO (named pipe)",
///   `/tmp` "is a folder". Nothing is opened that could block or never end.
/// - It is then opened with `O_NONBLOCK` (opening a FIFO never waits for a writer) and the
///   opened descriptor is checked again with `fstat`: a file swapped for a FIFO or device
///   between the look-up and the open is refused just the same.
/// - Its size is read before its contents: a file over the caller's limit is refused without
///   reading it, and reading stops at the size `fstat` gave (a file growing meanwhile is cut
///   there, never read without end).
///
/// The Markdown input may also be a pipe (standard input, `<(…)`): ``readStream(_:limit:)``.
public enum FileReader {
    /// The most bytes a theme or design-token file may have (the built-in themes are under
    /// 20 KB).
    public static let themeLimit = 16 << 20
    /// The most bytes a Markdown input may have.
    public static let markdownLimit = 512 << 20
    /// The most bytes an image file may have (a PNG of the largest picture Typeset decodes,
    /// 100 million pixels, is rarely over 200 MB).
    public static let imageLimit = 256 << 20
    /// The most bytes an SVG file may have: its drawing work grows with its elements (and
    /// with `<use>` references to them), so a larger one is refused before librsvg parses it.
    public static let svgLimit = 4 << 20
    /// The most bytes a font file may have (a CJK collection is about 30 MB).
    public static let fontLimit = 128 << 20

    /// Why a name holding a NUL character (U+0000, `%00` decoded) is read as no file: the
    /// system's calls would read it only up to the NUL, a file other than the one named.
    public static let nulInName = "its name holds a NUL character (U+0000), which no file name may"

    /// The bytes of the regular file `path`, at most `limit` of them.
    /// - Throws: ``FileReader/Failure`` with a one-line reason: `no such file`, `it is a folder`,
    ///   `it is a character device, not a regular file`, `it is 20.0 MB, more than the 16.0 MB
    ///   a theme may have`, `permission denied`, or the system's message (`strerror`).
    public static func read(_ path: String, limit: Int = themeLimit, what: String) throws(Failure) -> Data {
        let file = try open(path, limit: limit, what: what)
        defer { close(file.descriptor) }
        return try readAll(file.descriptor, count: file.size, path: path)
    }

    /// An open regular file: its descriptor (the caller closes it) and its size in bytes.
    public struct OpenFile: Sendable {
        /// The POSIX file descriptor, open for reading.
        public var descriptor: Int32
        /// The size `fstat` gave, bytes.
        public var size: Int
    }

    /// Opens the regular file `path` for reading (see the type's summary for the checks).
    /// - Throws: ``FileReader/Failure`` as ``read(_:limit:what:)``.
    public static func open(_ path: String, limit: Int, what: String = "a file") throws(Failure) -> OpenFile {
        guard !path.isEmpty else { throw Failure(reason: "no such file") }
        // The system's calls read a name up to its first NUL: `in.png%00.png` would open `in.png`.
        guard !path.utf8.contains(0) else { throw Failure(reason: nulInName) }
        var info = stat()
        guard stat(path, &info) == 0 else { throw Failure(reason: reason(errno)) }
        if let kind = nonRegularKind(info.st_mode) { throw Failure(reason: refusal(kind)) }
        let descriptor = Foundation.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { throw Failure(reason: reason(errno)) }
        var opened = stat()
        guard fstat(descriptor, &opened) == 0 else {
            let code = errno
            close(descriptor)
            throw Failure(reason: reason(code))
        }
        if let kind = nonRegularKind(opened.st_mode) {
            close(descriptor)
            throw Failure(reason: refusal(kind))
        }
        if let folders = confinement, let opened = openedPath(descriptor),
            !folders.contains(where: { Sandbox.isInside(opened, folder: $0) })
        {
            close(descriptor)
            throw Failure(reason: "it is outside the folders this render may read")
        }
        // Reads from a regular file never block; the flag is cleared for ordinary reads.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        let size = Int(opened.st_size)
        guard size <= limit else {
            close(descriptor)
            throw Failure(reason: "it is \(megabytes(size)), more than the \(megabytes(limit)) \(what) may have")
        }
        return OpenFile(descriptor: descriptor, size: size)
    }

    /// Runs `body` with every file the calling thread opens through ``open(_:limit:what:)``
    /// held inside `folders` (a render's ``Sandbox/folders``; nil: no limit) as the file opened
    /// is, not as its path was when checked: the path the kernel opened the descriptor at
    /// (`/proc/self/fd/N`) must lie in one of them. A folder of the path swapped for a symbolic
    /// link to elsewhere after the render's check of the path is then refused, never read.
    public static func confining<Result>(to folders: [String]?, _ body: () throws -> Result) rethrows -> Result {
        guard let folders else { return try body() }
        let dictionary = Thread.current.threadDictionary
        let saved = dictionary[confinementKey]
        dictionary[confinementKey] = folders
        defer { dictionary[confinementKey] = saved }
        return try body()
    }

    private static let confinementKey = "typeset.file-confinement"

    /// The calling thread's folders (``confining(to:_:)``); nil: none.
    private static var confinement: [String]? { Thread.current.threadDictionary[confinementKey] as? [String] }

    /// The absolute path `descriptor` was opened at, symbolic links resolved (Linux's
    /// `/proc/self/fd`); nil when it cannot be told (no `/proc`).
    private static func openedPath(_ descriptor: Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/fd/\(descriptor)", &buffer, Int(PATH_MAX))
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Why `path` is not a regular file Typeset may read (`it is a FIFO (named pipe), not a
    /// regular file`), or nil when it is one (or does not exist: the caller reports that as it
    /// reads). For paths handed to a library that opens them itself.
    public static func refusal(ofPath path: String) -> String? {
        guard !path.utf8.contains(0) else { return nulInName }
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return nonRegularKind(info.st_mode).map(refusal)
    }

    /// The bytes of `path` when it may be a stream — `-` (standard input), a pipe or FIFO
    /// (`<(…)`), `/dev/stdin` — else as ``read(_:limit:what:)``. A stream is read until its end
    /// or `limit` bytes, whichever comes first; more is refused. A FIFO that no program has
    /// open for writing is refused at once. A device that is not a
    /// terminal (`/dev/zero`, `/dev/urandom`) is refused at once; `/dev/null` reads as empty.
    /// - Throws: ``FileReader/Failure``.
    public static func readStream(
        _ path: String, limit: Int = markdownLimit, what: String = "a file"
    ) throws(Failure) -> Data {
        var descriptor: Int32 = STDIN_FILENO
        var isFIFO = false
        if path != "-" {
            var info = stat()
            guard stat(path, &info) == 0 else { throw Failure(reason: reason(errno)) }
            let type = info.st_mode & S_IFMT
            if path == "/dev/null" { return Data() }
            if type == S_IFREG || type == S_IFDIR || type == S_IFBLK || type == S_IFSOCK
                || (type == S_IFCHR && !isStandardInput(path))
            {
                return try read(path, limit: limit, what: what)
            }
            // A FIFO is opened without waiting for a program to open it for writing (an open
            // for reading waits for one: a FIFO no program writes to hung the render).
            isFIFO = type == S_IFIFO
            descriptor = Foundation.open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | (isFIFO ? O_NONBLOCK : 0))
            guard descriptor >= 0 else { throw Failure(reason: reason(errno)) }
        }
        defer { if descriptor != STDIN_FILENO { close(descriptor) } }
        var info = stat()
        if fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG {
            guard Int(info.st_size) <= limit else {
                throw Failure(
                    reason: "it is \(megabytes(Int(info.st_size))), more than the \(megabytes(limit)) \(what) may have")
            }
        }
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if isFIFO {
                // The first read tells a FIFO that a program writes to (data, or none yet) from
                // one that none does (its end at once); then reads wait for data as a pipe's do.
                guard count != 0 else { throw Failure(reason: "it is a FIFO that no program writes to") }
                guard count > 0 || errno == EAGAIN else { throw Failure(reason: reason(errno)) }
                _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
                isFIFO = false
                if count < 0 { continue }
            }
            if count < 0 { throw Failure(reason: reason(errno)) }
            if count == 0 { break }
            guard data.count + count <= limit else {
                throw Failure(reason: "it is more than the \(megabytes(limit)) \(what) may have")
            }
            data.append(contentsOf: chunk[0..<count])
        }
        return data
    }

    /// Whether `path` names this process's standard input (`/dev/stdin`, `/dev/fd/0`,
    /// `/proc/self/fd/0`), which may be a terminal the user types into.
    static func isStandardInput(_ path: String) -> Bool {
        ["/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"].contains(path)
    }

    /// Reads `count` bytes from the start of `descriptor`, fewer when the file ends sooner.
    private static func readAll(_ descriptor: Int32, count: Int, path: String) throws(Failure) -> Data {
        var data = Data(count: count)
        var filled = 0
        while filled < count {
            let got = data.withUnsafeMutableBytes {
                Foundation.read(descriptor, $0.baseAddress! + filled, count - filled)
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw Failure(reason: reason(errno))
            }
            if got == 0 { break }
            filled += got
        }
        if filled < count { data.removeSubrange(filled..<count) }
        return data
    }

    /// What a file that is not a regular file is, in words (`a folder`, `a FIFO (named
    /// pipe)`…); nil for a regular file.
    public static func nonRegularKind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a folder"
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        case S_IFLNK: "a symbolic link"
        default: "not a regular file"
        }
    }

    private static func refusal(_ kind: String) -> String {
        kind == "a folder" ? "it is a folder" : "it is \(kind), not a regular file"
    }

    /// `size` bytes in megabytes, one decimal (`16.0 MB`; 1 MB = 2^20 bytes).
    public static func megabytes(_ size: Int) -> String {
        String(format: "%.1f MB", Double(size) / Double(1 << 20))
    }

    /// Why a file could not be read, in one line.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// E.g. `it is a folder`.
        public var reason: String
        /// The reason.
        public var description: String { reason }
        /// A failure with `reason`.
        public init(reason: String) { self.reason = reason }
    }

    static func reason(_ code: Int32) -> String {
        switch code {
        case ENOENT, ENOTDIR: "no such file"
        case EACCES, EPERM: "permission denied"
        case EISDIR: "it is a folder"
        case ELOOP: "its symbolic links form a loop"
        case ENAMETOOLONG: "its name is too long"
        default: String(cString: strerror(code))
        }
    }
}
