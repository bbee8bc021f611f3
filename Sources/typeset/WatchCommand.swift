import Foundation
import Typesetter

/// `typeset watch INPUT [-o OUTPUT] [options]`: renders, then renders again whenever the
/// document, its images, its theme or its font folders change, until interrupted. An INPUT
/// that cannot be read at the start is an error (status 1); one that goes missing later is
/// watched for. A warning is printed once, and again only after a render without it.
enum WatchCommand {
    static let spec = OptionTable.command("watch")

    static func run(_ arguments: [String]) throws {
        let args = try OptionTable.parse(
            DefaultsFile.expand(PandocOptions.strip(arguments).arguments, for: spec), for: spec)
        if args.has("--help") {
            print(OptionTable.helpText(spec), terminator: "")
            return
        }
        guard args.positional.count == 1, args.positional[0] != "-" else {
            throw UsageError("watch takes one INPUT file (not standard input)")
        }
        let input = args.positional[0]
        var options = try RenderCommand.renderOptions(from: args)
        _ = try RenderCommand.applyPandocVariables(args, to: &options)
        try RenderCommand.confine(&options, inputs: [input], args: args)
        let variables = try RenderCommand.variables(from: args)
        let format = try Messages.Format(args)
        let ext = options.preview?.format.rawValue ?? "pdf"
        var target = args.value("--output") ?? RenderCommand.defaultOutput(for: input, format: ext)
        if RenderCommand.isFolder(target) { target = try RenderCommand.inFolder(target, for: input, format: ext) }
        try OutputTargets.refuseOverwriting(
            [(input, "the input file"), (args.value("--theme"), "the theme file")], with: target)
        try RenderCommand.checkOutputExtension(
            args.value("--output"), format: ext, explicit: args.value("--format") != nil)
        var limit: Int?
        if let text = args.value("--renders") {
            guard let count = Int(text), count >= 1 else {
                throw UsageError("--renders takes a number of renders of at least 1, not '\(text)'")
            }
            limit = count
        }
        var renders = 0
        var changed: [String] = []
        var lastWatched = [input]
        var shownWarnings = Set<String>()
        while true {
            let start = Date()
            // After a failed render, the files of the last good one are still watched.
            var watched = lastWatched
            do {
                // A book (a book file, or an include: list) is watched in every one of its files.
                var parsed = try BookInputs.load(
                    [input], book: BookInputs.makeBook([input], output: nil, outputDir: nil), args: args,
                    variables: variables, target: target, sandbox: options.sandbox)
                watched = parsed.files
                parsed.diagnostics =
                    try SectionAndFileOptions.fillMetadata(&parsed.document, from: args) + parsed.diagnostics
                for (key, value) in variables { parsed.document.metadata.set(key, to: value) }
                watched += Typesetter.dependencies(of: parsed.document, options: options)
                lastWatched = watched
                var report = try Typesetter.render(
                    document: parsed.document, diagnostics: parsed.diagnostics, to: target, options: options)
                let unchanged = WatchWarnings.keepNew(&report, format: format, shown: &shownWarnings)
                Messages.report(report, output: target, quiet: args.has("--quiet"), format: format)
                if unchanged > 0, !args.has("--quiet") {
                    Messages.error("(\(unchanged) warning\(unchanged == 1 ? "" : "s") as before, not repeated)")
                }
                if format == .text, !args.has("--quiet") {
                    let why = changed.isEmpty ? "" : "\(changed.map(shortName).joined(separator: ", ")) changed; "
                    Messages.error(
                        "[\(clock())] \(why)rendered in \(String(format: "%.2f", Date().timeIntervalSince(start))) "
                            + "s; watching \(watched.count) file\(watched.count == 1 ? "" : "s")"
                    )
                }
            } catch let error as TypesetError {
                // A file missing or unreadable from the start is a mistake in the command, not
                // an edit in progress: stop as `render` does (status 1).
                if renders == 0, case .unreadableInput = error { throw error }
                Messages.failure(error, format: format)
                if format == .text { Messages.error("[\(clock())] not rendered; watching for the next change") }
            }
            renders += 1
            if let limit, renders >= limit { return }
            let watcher = FileWatcher(paths: watched)
            changed = []
            while changed.isEmpty { changed = watcher.waitForChanges() }
        }
    }

    static func shortName(_ path: String) -> String {
        let cwd = FileManager.default.currentDirectoryPath + "/"
        return path.hasPrefix(cwd) ? String(path.dropFirst(cwd.count)) : path
    }

    static func clock() -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss"
        return formatter.string(from: Date())
    }
}
