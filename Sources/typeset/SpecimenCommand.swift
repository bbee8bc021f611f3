import Foundation
import Typesetter
import Typography

/// `typeset specimen [--theme NAME|PATH] [-o OUTPUT] [--text TEXT] [--guides] [--template PATH] [options]`.
enum SpecimenCommand {
    static func run(_ arguments: [String]) throws {
        let spec = OptionTable.command("specimen")
        let args = try OptionTable.parse(arguments, for: spec)
        if args.has("--help") {
            print(OptionTable.helpText(spec), terminator: "")
            return
        }
        guard args.positional.isEmpty else {
            throw UsageError("specimen takes no INPUT (unexpected '\(args.positional[0])')")
        }
        let request = try ThemeOptions.request(from: args)
        var options = SpecimenOptions(
            sample: args.value("--text"), guides: args.has("--guides"), templatePath: args.value("--template"),
            strict: args.has("--strict"))
        options.paper = try ThemeOptions.paper(from: args)
        options.compare = args.value("--compare")
        if let text = options.sample, text.trimmingCharacters(in: .whitespaces).isEmpty {
            throw UsageError("--text needs a non-empty sample")
        }
        let output = try OutputTargets.file(
            args.value("--output") ?? defaultOutput(theme: request.theme),
            named: "specimen-"
                + URL(fileURLWithPath: request.theme ?? "default").deletingPathExtension().lastPathComponent, ext: "pdf"
        )
        try OutputTargets.refuseOverwriting(
            [(request.theme, "the theme file"), (options.templatePath, "the template")], with: output)
        // A specimen is a PDF: a name saying otherwise (`-o sheet.png`) is refused, not obeyed in silence.
        let ext = (output as NSString).pathExtension
        if output != "-", !ext.isEmpty, ext.lowercased() != "pdf" {
            throw UsageError("-o \(output): specimen writes a PDF, not .\(ext); name the file .pdf")
        }
        let report: RenderReport
        do {
            report = try Typesetter.renderSpecimen(request: request, options: options, to: output)
        } catch let error as TypesetError {
            throw ThemeOptions.namingOption(of: error, request: request)
        }
        Messages.report(report, output: output, quiet: args.has("--quiet"), format: try Messages.Format(args))
    }

    /// `specimen-<theme name>.pdf` in the current folder (a specimen has no input to write
    /// beside); for a theme file, its file name.
    static func defaultOutput(theme: String?) -> String {
        let name = URL(fileURLWithPath: theme ?? "default").deletingPathExtension().lastPathComponent
        return "specimen-\(name).pdf"
    }
}
