import Foundation
import Typesetter
import Typography

/// `typeset render INPUT [-o OUTPUT] [options]`.
enum RenderCommand {
    static func run(_ arguments: [String]) throws {
        let args = try parseArguments(arguments, valueOptions: ThemeOptions.valueOptions,
                                      flagOptions: ThemeOptions.flagOptions.union(["--justify", "--no-tags"]), aliases: ThemeOptions.aliases)
        guard args.positional.count == 1 else {
            throw UsageError(args.positional.isEmpty ? "render needs an INPUT file" : "render takes one INPUT file")
        }
        let input = args.positional[0]
        var options = RenderOptions(themeRequest: try ThemeOptions.request(from: args), paper: try ThemeOptions.paper(from: args),
                                    strict: args.has("--strict"))
        if args.has("--justify") { options.justify = true }
        if args.has("--no-tags") { options.tagged = false }
        let output = args.value("--output") ?? defaultOutput(for: input)
        if InputFile.isSameFile(input, as: output) {
            throw TypesetError.unwritableOutput(path: output, reason: "it is the input file; choose another output")
        }
        let text = try InputFile.read(input)
        let report = try Typesetter.render(markdown: text, file: input == "-" ? "<stdin>" : input, to: output, options: options)
        Messages.report(report, output: output, quiet: args.has("--quiet"))
    }

    /// `output/<input name>.pdf` (the folder is created); standard output for standard input.
    static func defaultOutput(for input: String) -> String {
        if input == "-" { return "-" }
        try? FileManager.default.createDirectory(atPath: "output", withIntermediateDirectories: true)
        let name = URL(fileURLWithPath: input).deletingPathExtension().lastPathComponent
        return "output/\(name).pdf"
    }
}

/// What the CLI prints on standard error.
enum Messages {
    static func error(_ line: String) { FileHandle.standardError.write(Data((line + "\n").utf8)) }

    /// Each warning on its own line, then `OUTPUT: N pages` (nothing with `--quiet`).
    static func report(_ report: RenderReport, output: String, quiet: Bool) {
        guard !quiet else { return }
        for diagnostic in report.diagnostics { error(diagnostic.description) }
        if output != "-" { error("\(output): \(report.pageCount) page\(report.pageCount == 1 ? "" : "s")") }
    }
}
