import DocumentModel
import Foundation
import MarkdownParser
import Styling
import Typography

/// How several Markdown files become one book.
public struct BookOptions: Sendable {
    /// Every chapter after the first opens on a right-hand (odd-numbered) page, with a blank
    /// left-hand page before it when needed (LaTeX's `openright`), and so does the first after
    /// a table of contents (``tableOfContents``); nil: the book's front matter `open-right`,
    /// else false (each chapter opens on the next page).
    public var openRight: Bool?
    /// Whether the book opens with a table of contents, as ``RenderOptions/tableOfContents``
    /// asks (`--toc`); nil: the first file's front matter `toc`. With ``openRight`` the first
    /// chapter then opens on a right-hand page after the contents, as LaTeX's `\chapter`
    /// clears to one after `\tableofcontents`.
    public var tableOfContents: Bool?
    /// The folder relative image paths resolve against for every chapter (`--resource-path`);
    /// nil: each chapter's images resolve against the chapter's own folder.
    public var resourcePath: String?
    /// The folders every `include:` must lie in (``RenderOptions/sandbox``, the same rule as
    /// images and themes); nil: the folder of the input the include was reached from.
    public var sandbox: Sandbox?

    /// Creates options; nil leaves each setting to the book's front matter or its default.
    public init(
        openRight: Bool? = nil, tableOfContents: Bool? = nil, resourcePath: String? = nil, sandbox: Sandbox? = nil
    ) {
        self.openRight = openRight
        self.tableOfContents = tableOfContents
        self.resourcePath = resourcePath
        self.sandbox = sandbox
    }
}

/// Several Markdown files set as one document: one outline, one table of contents, one page
/// sequence, each chapter opening a new page, links between the files resolved inside the PDF.
///
/// The files are the inputs in order, each followed by the files its front matter's `include:`
/// (or `chapters:`) list names, depth first; a `.yaml` or `.yml` input is a book file: front
/// matter with no text of its own. The first file's front matter sets the whole book (title,
/// theme, paper, contents); a later file's is read for its `include:` list only.
public struct Book: Sendable {
    /// The book as one document, named after its first file (relative paths in its settings
    /// resolve against that file's folder).
    public var document: Document
    /// Every file's parse warnings, then the book's own (a link to a part of another file that
    /// does not exist).
    public var diagnostics: [Diagnostic]
    /// The files of the book, in order, as named (for messages and for `watch`).
    public var files: [String]
}

extension Typesetter {
    /// Reads `inputs` (and the files they include) and joins them into one ``Book``.
    ///
    /// An included path is relative to the including file's folder and must stay inside the
    /// folder of the input it was reached from (symbolic links followed): a book reads no file
    /// beside or above its own folder. With ``BookOptions/sandbox`` it must stay inside the
    /// sandbox's folders instead, as every other file a document names. Heading ids stay unique
    /// across the files: an id an earlier file already uses gets the file's name as a prefix
    /// (`ch2-setup`), and every link to it (`#setup` inside that file, `ch2.md#setup` from
    /// another) goes to the renamed id; a link to a file of the book (`ch2.md`) goes to the start
    /// of its chapter.
    /// - Throws: ``TypesetError/unreadableInput(path:reason:)`` for an input that cannot be
    ///   read; ``TypesetError/invalidInput(_:)`` with the `file:line:column` of an include that
    ///   is missing, outside the book's folder, or already part of the book.
    public static func book(_ inputs: [String], options: BookOptions = BookOptions()) throws -> Book {
        var gathering = BookGathering()
        for input in inputs {
            let root = options.sandbox?.folders ?? [BookPaths.canonical((input as NSString).deletingLastPathComponent)]
            try gathering.add(input, root: root, includedAt: nil)
        }
        let chapters = gathering.chapters
        guard let first = chapters.first else {
            throw TypesetError.unreadableInput(path: inputs.first ?? "-", reason: "no Markdown file to read")
        }
        if chapters.count == 1, BookPaths.isBookFile(first.file) {
            // A book file is its YAML: what made it unreadable (a bracket left open) is the error.
            let unread = gathering.diagnostics.filter { $0.kind == .frontMatter && $0.location?.file == first.file }
            if !unread.isEmpty {
                throw TypesetError.invalidInput(
                    unread.map {
                        let message = $0.message.replacingOccurrences(of: "; front matter ignored", with: "")
                        return Diagnostic(
                            .error, message + "; the book file cannot be read", at: $0.location, kind: .frontMatter)
                    })
            }
            throw TypesetError.invalidInput([
                Diagnostic(
                    .error,
                    "a book file lists its chapters under include: (include: [intro.md, usage.md]); this one "
                        + "lists none", at: SourceLocation(file: first.file, line: 1, column: 1), kind: .structure)
            ])
        }
        var diagnostics = gathering.diagnostics
        let openRight = options.openRight ?? BookPaths.isTrue(first.document.metadata.fields["open-right"])
        let contents = options.tableOfContents ?? BookPaths.isTrue(first.document.metadata.fields["toc"])
        let rootFolder =
            options.resourcePath.map(BookPaths.canonical)
            ?? BookPaths.canonical((first.file as NSString).deletingLastPathComponent)
        var plan = BookPlan(chapters: chapters, rootFolder: rootFolder, rebasesImages: options.resourcePath == nil)
        diagnostics += plan.assignIdentifiers()
        var document = Document(
            blockList: BlockList(plan.blocks(openRight: openRight, afterContents: contents)),
            metadata: first.document.metadata,
            footnotes: plan.footnotes(), file: first.file)
        document.metadata.includes = []
        document.source = SourcePositions(
            chapters: Dictionary(
                chapters.map { ($0.file, $0.document.source) }, uniquingKeysWith: { first, _ in first }))
        return Book(document: document, diagnostics: diagnostics, files: chapters.map(\.file))
    }
}

/// One file of a book, parsed.
struct BookChapter: Sendable {
    /// The path as named (an input as given, an include joined to its file's folder).
    var file: String
    /// The absolute path with symbolic links followed: the file's identity in the book.
    var key: String
    var document: Document
}

/// Paths as a book compares them.
enum BookPaths {
    /// `path` absolute, `.` and `..` resolved and symbolic links followed (as far as it exists).
    static func canonical(_ path: String) -> String {
        Sandbox.canonical(path)
    }

    /// Whether `folder` is `root` or inside it.
    static func isInside(_ path: String, root: String) -> Bool {
        path == root || path.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }

    /// A front-matter flag written `true`, `yes` or `on`.
    static func isTrue(_ value: String?) -> Bool {
        ["true", "yes", "on"].contains(value?.lowercased() ?? "")
    }

    /// Markdown by its extension (a link into such a file may be a link into the book).
    static func isMarkdown(_ path: String) -> Bool {
        ["md", "markdown", "mdown", "mkd"].contains((path as NSString).pathExtension.lowercased())
    }

    /// A book file by its extension: YAML read as front matter.
    static func isBookFile(_ path: String) -> Bool {
        ["yaml", "yml"].contains((path as NSString).pathExtension.lowercased())
    }

    /// A destination with a scheme (`https:`, `mailto:`) or a protocol-relative one: never a file of the book.
    static func hasScheme(_ destination: String) -> Bool {
        if destination.hasPrefix("//") { return true }
        guard let colon = destination.firstIndex(of: ":") else { return false }
        return !destination[..<colon].contains("/")
    }
}

/// Reads the files of a book in order, following `include:` lists depth first.
struct BookGathering {
    var chapters: [BookChapter] = []
    var diagnostics: [Diagnostic] = []
    /// Each file's key, with where it was first named (nil: on the command line).
    var seen: [String: SourceLocation?] = [:]

    /// Reads `path` and what it includes. `root` holds the folders its includes must stay inside.
    mutating func add(_ path: String, root: [String], includedAt include: IncludedFile?) throws {
        let key = BookPaths.canonical(path)
        if let earlier = seen[key] {
            let firstNamed = earlier.map { " (first named at \($0.file):\($0.line))" } ?? ""
            throw TypesetError.invalidInput([
                Diagnostic(
                    .error, "'\(path)' is already part of the book\(firstNamed); each file is read once",
                    at: include?.location, kind: .structure)
            ])
        }
        // updateValue: assigning nil through the subscript would remove the key.
        seen.updateValue(include?.location, forKey: key)
        let text: InputFile.Text
        do {
            // An included file is judged where it is opened (``FileReader/confining(to:_:)``).
            text = try FileReader.confining(to: include == nil ? nil : root) {
                try InputFile.read(path, streams: include == nil)
            }
        } catch let error as TypesetError {
            guard let include, case .unreadableInput(_, let reason) = error else { throw error }
            throw TypesetError.invalidInput([
                Diagnostic(.error, "include '\(include.path)': cannot read \(path): \(reason)", at: include.location)
            ])
        }
        let parsed =
            BookPaths.isBookFile(path)
            ? MarkdownParser.parse(yaml: text.text, file: path) : MarkdownParser.parse(text.text, file: path)
        diagnostics += text.diagnostics + parsed.diagnostics
        chapters.append(BookChapter(file: path, key: key, document: parsed.document))
        let folder = (path as NSString).deletingLastPathComponent
        for included in parsed.document.metadata.includes {
            let joined =
                included.path.hasPrefix("/") || folder.isEmpty
                ? included.path : (folder as NSString).appendingPathComponent(included.path)
            let named = Sandbox.lexicallyStandardized(joined)
            // Judged as every file a document names (``Sandbox/resolve(_:within:)``): a link out
            // of the folders is outside whether or not its target exists.
            guard Sandbox.resolve(named, within: root) != nil else {
                let folders = root.joined(separator: ", ")
                throw TypesetError.invalidInput([
                    Diagnostic(
                        .error,
                        "include '\(included.path)' is outside \(folders), the folder\(root.count == 1 ? "" : "s") "
                            + "this book may read; move the file into it",
                        at: included.location, kind: .structure)
                ])
            }
            try add(named, root: root, includedAt: included)
        }
    }
}
