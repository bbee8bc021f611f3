import DocumentModel
import Foundation
import Typesetter
import Typography

/// The inputs of `render` as one document: a single Markdown file, or a book — several files
/// with `-o FILE`, a file whose front matter lists others under `include:`, or a `book.yaml`.
enum BookInputs {
    /// The option that asks for right-hand chapter openings (front matter `open-right: true`).
    static let options: [OptionSpec] = [
        OptionSpec(
            name: "--open-right",
            help: "with several INPUTs (a book): each chapter opens on a right-hand page, after a blank page if needed")
    ]

    /// Whether `inputs` written to `output` make one book rather than one PDF each: several
    /// inputs and `-o` naming a file (not a folder), or one `.yaml`/`.yml` book file.
    static func makeBook(_ inputs: [String], output: String?, outputDir: String?) -> Bool {
        if inputs.count == 1 { return ["yaml", "yml"].contains((inputs[0] as NSString).pathExtension.lowercased()) }
        guard outputDir == nil, let output else { return false }
        return !RenderCommand.isFolder(output)
    }

    /// The document to render, its parse warnings and the Markdown files it was read from:
    /// `inputs[0]` alone, or the book `inputs` make (also when the one input's front matter
    /// includes other files).
    /// - Throws: ``TypesetError`` for a file that cannot be read or a bad include;
    ///   ``UsageError`` when the output is one of the book's files.
    static func load(
        _ inputs: [String], book: Bool, args: ParsedArguments, variables: [(String, String)], target: String,
        sandbox: Sandbox? = nil
    ) throws -> (document: Document, diagnostics: [Diagnostic], files: [String]) {
        if !book {
            let input = inputs[0]
            let read = try InputFile.read(input)
            let parsed = Typesetter.parse(
                markdown: read.text, file: input == "-" ? "<stdin>" : input, variables: variables)
            if input == "-" || parsed.document.metadata.includes.isEmpty {
                return (parsed.document, read.diagnostics + parsed.diagnostics, [input])
            }
        }
        let openRight =
            args.has("--open-right")
            ? true : variables.last { $0.0.lowercased() == "open-right" }.map { ["true", "yes", "on"].contains($0.1) }
        let assembled = try Typesetter.book(
            inputs,
            options: BookOptions(
                openRight: openRight, tableOfContents: args.has("--toc") ? true : nil,
                resourcePath: args.value("--resource-path"), sandbox: sandbox))
        try OutputTargets.refuseOverwriting(assembled.files.map { ($0, "a file of the book") }, with: target)
        return (assembled.document, assembled.diagnostics, assembled.files)
    }
}
