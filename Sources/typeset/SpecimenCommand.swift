import Foundation
import Typesetter
import Typography

/// `typeset specimen [--theme NAME|PATH] [-o OUTPUT] [--text TEXT] [--guides] [options]`.
enum SpecimenCommand {
    static let valueOptions: Set<String> = [
        "--output", "--theme", "--paper", "--fonts", "--family", "--size-adjust", "--size-category", "--text", "--template",
    ]
    static let flagOptions: Set<String> = ["--strict", "--quiet", "--bold-text", "--guides"]
    static let aliases = ["-o": "--output", "-q": "--quiet"]

    static func run(_ arguments: [String]) throws {
        let args = try parseArguments(arguments, valueOptions: valueOptions, flagOptions: flagOptions, aliases: aliases)
        guard args.positional.isEmpty else { throw UsageError("specimen takes no INPUT (unexpected '\(args.positional[0])')") }
        var request = ThemeRequest(theme: args.value("--theme"), fontFolders: args.all("--fonts"), family: args.value("--family"),
                                   boldText: args.has("--bold-text"))
        if let adjust = args.value("--size-adjust") {
            if adjust.lowercased() == "x-height" || adjust.lowercased() == "xheight" { request.sizeAdjustment = .matchXHeight }
            else if let points = Double(adjust.hasSuffix("pt") ? String(adjust.dropLast(2)) : adjust) { request.sizeAdjustment = .points(points) }
            else { throw UsageError("--size-adjust is a number of pt or 'x-height', not '\(adjust)'") }
            if request.family == nil { throw UsageError("--size-adjust needs --family") }
        }
        if let name = args.value("--size-category") {
            guard let category = SizeCategory(name: name) else {
                throw UsageError("unknown size category '\(name)' (xSmall, small, medium, large, xLarge, xxLarge, xxxLarge, AX1 … AX5)")
            }
            request.sizeCategory = category
        }
        var options = SpecimenOptions(sample: args.value("--text"), guides: args.has("--guides"), templatePath: args.value("--template"),
                                      strict: args.has("--strict"))
        if let paper = args.value("--paper") {
            guard let size = PaperSize(name: paper) else { throw UsageError("unknown paper '\(paper)' (a4, a5, letter, legal or 'W x H')") }
            options.paper = size
        }
        if let text = options.sample, text.trimmingCharacters(in: .whitespaces).isEmpty { throw UsageError("--text needs a non-empty sample") }
        let output = args.value("--output") ?? defaultOutput(theme: request.theme)
        let report = try Typesetter.renderSpecimen(request: request, options: options, to: output)
        if !args.has("--quiet") {
            for diagnostic in report.diagnostics { FileHandle.standardError.write(Data("\(diagnostic)\n".utf8)) }
            if output != "-" {
                FileHandle.standardError.write(Data("\(output): \(report.pageCount) page\(report.pageCount == 1 ? "" : "s")\n".utf8))
            }
        }
    }

    /// `output/specimen-<theme name>.pdf` (the folder is created); for a theme file, its file name.
    static func defaultOutput(theme: String?) -> String {
        try? FileManager.default.createDirectory(atPath: "output", withIntermediateDirectories: true)
        let name = URL(fileURLWithPath: theme ?? "default").deletingPathExtension().lastPathComponent
        return "output/specimen-\(name).pdf"
    }
}
