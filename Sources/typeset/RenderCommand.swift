import Foundation
import Typesetter
import Typography

/// `typeset render INPUT [-o OUTPUT] [options]`.
enum RenderCommand {
    static let valueOptions: Set<String> = ["--output", "--theme", "--paper", "--fonts", "--family", "--size-adjust", "--size-category"]
    static let flagOptions: Set<String> = ["--strict", "--quiet", "--bold-text", "--justify"]
    static let aliases = ["-o": "--output", "-q": "--quiet"]

    static func run(_ arguments: [String]) throws {
        let args = try parseArguments(arguments, valueOptions: valueOptions, flagOptions: flagOptions, aliases: aliases)
        guard args.positional.count == 1 else {
            throw UsageError(args.positional.isEmpty ? "render needs an INPUT file" : "render takes one INPUT file")
        }
        let input = args.positional[0]
        var options = RenderOptions()
        if let paper = args.value("--paper") {
            guard let size = PaperSize(name: paper) else { throw UsageError("unknown paper '\(paper)' (a4, a5, letter, legal or 'W x H')") }
            options.paper = size
        }
        options.strict = args.has("--strict")
        if args.has("--justify") { options.justify = true }
        let output = args.value("--output") ?? defaultOutput(for: input)
        let text = try InputFile.read(input)
        let report = try Typesetter.render(markdown: text, file: input, to: output, options: options)
        if !args.has("--quiet") {
            for diagnostic in report.diagnostics { FileHandle.standardError.write(Data("\(diagnostic)\n".utf8)) }
        }
        if output != "-" && !args.has("--quiet") {
            FileHandle.standardError.write(Data("\(output): \(report.pageCount) page\(report.pageCount == 1 ? "" : "s")\n".utf8))
        }
    }

    /// `output/<input name>.pdf` (the folder is created); standard output for standard input.
    static func defaultOutput(for input: String) -> String {
        if input == "-" { return "-" }
        try? FileManager.default.createDirectory(atPath: "output", withIntermediateDirectories: true)
        let name = URL(fileURLWithPath: input).deletingPathExtension().lastPathComponent
        return "output/\(name).pdf"
    }
}
