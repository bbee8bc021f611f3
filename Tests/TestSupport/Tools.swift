import Foundation

extension PDFProbe {
    /// Runs `tool` (a name looked up on `PATH`, or an absolute path such as `Render.binary`)
    /// with `arguments`, writing `stdin` to its standard input when given, and waits for it.
    /// Returns its exit status and standard output, with standard error appended unless
    /// `standardErrorToo` is false (then standard error is discarded). This is the one way the
    /// tests run a program to its end; `start` is the one way they start one and go on.
    /// Throws when the tool cannot be started.
    @discardableResult
    public static func run(
        _ tool: String, _ arguments: [String], stdin: Data? = nil, standardErrorToo: Bool = true
    ) throws -> (status: Int32, output: String) {
        let output = Pipe()
        let input = Pipe()
        let process = try start(
            tool, arguments, standardInput: stdin == nil ? nil : input, standardOutput: output,
            standardError: standardErrorToo ? output : FileHandle.nullDevice)
        if let stdin {
            input.fileHandleForWriting.write(stdin)
            try input.fileHandleForWriting.close()
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Starts `tool` with `arguments` and returns the running process without waiting: for
    /// tests that signal a render under way or watch a long-running command. `environment`
    /// entries are added to (or replace) the test process's own; `standardInput`,
    /// `standardOutput` and `standardError` are a `Pipe` or a `FileHandle` (nil: inherited
    /// input, discarded output and error). Throws when the tool cannot be started.
    public static func start(
        _ tool: String, _ arguments: [String], environment: [String: String] = [:],
        standardInput: Any? = nil, standardOutput: Any? = nil, standardError: Any? = nil
    ) throws -> Process {
        let process = Process()
        if tool.hasPrefix("/") {
            process.executableURL = URL(fileURLWithPath: tool)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [tool] + arguments
        }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, added in added }
        }
        if let standardInput { process.standardInput = standardInput }
        process.standardOutput = standardOutput ?? FileHandle.nullDevice
        process.standardError = standardError ?? FileHandle.nullDevice
        try process.run()
        return process
    }
}

/// Runs the `typeset` executable (`Render.binary`) with `arguments` (and `stdin`, if given)
/// and waits for it; returns its exit status and its standard output and error together.
/// Throws when the executable cannot be started.
@discardableResult
public func typeset(_ arguments: [String], stdin: Data? = nil) throws -> (status: Int32, output: String) {
    try PDFProbe.run(Render.binary, arguments, stdin: stdin)
}
