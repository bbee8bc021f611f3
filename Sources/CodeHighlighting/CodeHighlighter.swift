import CSyntaxHighlighting
import Foundation
import Typography

/// One highlighted stretch of source code: UTF-8 byte offsets into the text highlighted, and the
/// kind of token it is.
public struct TokenSpan: Hashable, Sendable {
    /// First UTF-8 byte of the token in the text.
    public var start: Int
    /// Length of the token in UTF-8 bytes.
    public var length: Int
    /// What the token is (keyword, string, comment…).
    public var token: CodeToken
    /// A span of `length` bytes from byte `start`.
    public init(start: Int, length: Int, token: CodeToken) {
        self.start = start
        self.length = length
        self.token = token
    }
    /// The span's byte range.
    public var range: Range<Int> { start..<(start + length) }
}

/// Syntax highlighting through KSyntaxHighlighting (KDE Frameworks), the engine of Kate and Qt
/// Creator, with its 300-odd syntax definitions: the one module that calls it. Safe from any
/// thread (the library is called under one lock).
public enum CodeHighlighter {
    /// The syntax definition a fenced block's language names, or nil when none does (the block
    /// is then set plain): the definition's name in any case (`python`, `C++`), a file
    /// extension a definition claims (`py`, `rs`, `ts`), a file name (`Dockerfile`), or one of
    /// GitHub Linguist's common aliases (`shell`, `golang`, `js`, `objective-c`).
    public static func definition(forLanguage language: String) -> String? {
        // The name as written, as a block of the same language wrote it before.
        if let known = cache.value(for: language) { return known.isEmpty ? nil : known }
        let trimmed = language.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.utf8.count < 200 else { return nil }
        if sessionNames.contains(trimmed.lowercased()) { return shellSession }
        if let known = cache.value(for: trimmed.lowercased()) { return known.isEmpty ? nil : known }
        let candidates = [trimmed] + (aliases[trimmed.lowercased()].map { [$0] } ?? [])
        var found: String?
        for candidate in candidates.reversed() {
            var buffer = [CChar](repeating: 0, count: 256)
            if tshl_resolve_language(candidate, &buffer, Int32(buffer.count)) > 0 {
                found = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                break
            }
        }
        cache.store(found ?? "", for: trimmed.lowercased())
        if language.utf8.count < 200 { cache.store(found ?? "", for: language) }
        return found
    }

    /// The tokens of `text` under the syntax definition named `definition` (as
    /// ``definition(forLanguage:)`` returns it), in order, not overlapping; plain stretches have
    /// none. Lines end at `\n`; a construct open at a line's end (a block comment, a
    /// here-document) carries on into the next. A line longer than ``longestHighlightedLine``
    /// bytes has no tokens (it is set plain, the lines after it highlighted in the state before
    /// it): some definitions take time growing faster than a line's length. Empty when no
    /// definition has that name.
    public static func tokens(in text: String, definition: String) -> [TokenSpan] {
        let key = SpanKey(definition: definition, text: text)
        if let known = spanCache.value(for: key) { return known }
        let spans = highlight(text, definition: definition)
        spanCache.store(spans, for: key, size: text.utf8.count)
        return spans
    }

    static func highlight(_ text: String, definition: String) -> [TokenSpan] {
        if definition == shellSession { return sessionTokens(text) }
        if definition == php, !text.contains("<?") { return phpSnippetTokens(text) }
        var storage: UnsafeMutablePointer<TSHighlightSpan>?
        let count = text.withCString { chars in
            tshl_highlight(definition, chars, text.utf8.count, &storage)
        }
        defer { tshl_free_spans(storage) }
        guard count > 0, let storage else { return [] }
        var spans: [TokenSpan] = []
        spans.reserveCapacity(Int(count))
        for index in 0..<Int(count) {
            let span = storage[index]
            guard let token = token(forTextStyle: Int(span.style)) else { continue }
            spans.append(TokenSpan(start: Int(span.start), length: Int(span.length), token: token))
        }
        if definition == "Swift" { return SwiftStringTokens.corrected(spans, in: Array(text.utf8)) }
        return spans
    }

    /// The library's definition of PHP, which starts outside PHP, in the page around it, until
    /// an opening tag (`<?php`).
    static let php = "PHP/PHP"

    /// The tokens of `text`, PHP code without an opening tag (most snippets in documentation
    /// leave `<?php` out): highlighted as the code after `<?php` and a line end, as highlight.js
    /// and Pygments' `startinline` read such a snippet. The library alone set it all plain.
    static func phpSnippetTokens(_ text: String) -> [TokenSpan] {
        let opening = "<?php\n"
        let shift = opening.utf8.count
        return highlight(opening + text, definition: php).compactMap { span in
            guard span.start + span.length > shift else { return nil }
            let start = max(span.start, shift)
            return TokenSpan(start: start - shift, length: span.start + span.length - start, token: span.token)
        }
    }

    /// The definition of a shell session (```` ```console ````, ```` ```shell-session ````), as
    /// GitHub Linguist's ShellSession reads one: a line that starts with a prompt (`$ `, `# `,
    /// `% `, `> `, `PS> `, or `user@host:~$ `) is a command, highlighted as Bash after its
    /// prompt; every other line is the commands' output, set plain. The library has no such
    /// definition: Bash alone coloured the output's first words as commands and a root prompt's
    /// line as a comment.
    public static let shellSession = "Shell Session"

    /// The info strings that name a shell session.
    static let sessionNames: Set<String> = ["console", "shell-session", "sh-session", "shellsession", "terminal"]

    /// The tokens of `text`, a shell session (``shellSession``): each command's, after its
    /// prompt, as Bash gives them for that command alone; the prompts and the output have none.
    /// A command ending in `\` goes on into the next line. Each command is highlighted on its
    /// own, as GitHub Linguist's ShellSession reads each prompt line: a here-document or an
    /// open quote, whose end is in the output (`cat <<EOF`, then its lines), colours no later
    /// command.
    static func sessionTokens(_ text: String) -> [TokenSpan] {
        let bytes = Array(text.utf8)
        var tokens: [TokenSpan] = []
        var command: [UInt8] = []
        // Where each byte of `command` stands in `text`.
        var places: [Int] = []
        func highlightCommand() {
            guard !command.isEmpty else { return }
            let spans = highlight(String(decoding: command, as: UTF8.self), definition: "Bash")
            for span in spans {
                let first = places[span.start]
                let last = places[span.start + span.length - 1]
                // A token runs over the end of a line only where the command goes on.
                tokens.append(TokenSpan(start: first, length: last - first + 1, token: span.token))
            }
            command = []
            places = []
        }
        var start = 0
        var continued = false
        while start <= bytes.count {
            let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
            let line = bytes[start..<end]
            if let prompt = continued ? 0 : promptLength(line) {
                if !continued { highlightCommand() }
                let range = (start + prompt)..<end
                command += bytes[range] + [0x0A]
                places += Array(range) + [end]
                continued = line.last == UInt8(ascii: "\\")
            }
            start = end + 1
        }
        highlightCommand()
        return tokens
    }

    /// The length of the prompt `line` starts with, in bytes; nil when it starts with none.
    static func promptLength(_ line: ArraySlice<UInt8>) -> Int? {
        let text = String(decoding: line.prefix(160), as: UTF8.self)
        for prompt in ["$ ", "# ", "% ", "> ", "PS> "] where text.hasPrefix(prompt) { return prompt.utf8.count }
        // `user@host:~/dir$ ` or `[user@host dir]# `: a sign and a space after a user's name
        // and host, a path or a bracket.
        for sign in ["$ ", "# ", "% ", "> "] {
            guard let found = text.range(of: sign) else { continue }
            let before = text[..<found.lowerBound]
            if before.contains("@") || before.hasSuffix("]") || before.hasSuffix("~") {
                return text[..<found.upperBound].utf8.count
            }
        }
        return nil
    }

    /// The longest line, in UTF-8 bytes, that is highlighted (the library's limit): HTML's
    /// definition took 3.9 s for 240 KB of `<a b="` on one line, where lines of up to 8,000
    /// bytes take the same time per byte.
    public static let longestHighlightedLine = 4_096

    /// Whether the highlighting library (`libTypesetSyntaxHighlighting.so`, beside the
    /// executable or in `../lib/typeset/` from it) can be loaded: without it every block is set
    /// plain. Loads the library, not its definitions, the first time it is asked.
    public static var isAvailable: Bool { tshl_is_available() != 0 }

    /// How many syntax definitions the library holds.
    public static var definitionCount: Int { Int(tshl_definition_count()) }

    /// The token kind of KSyntaxHighlighting's `Theme::TextStyle` value `style`, or of the two
    /// styles past them the highlighter gives a diff's removed (31) and added (32) lines; nil for
    /// Normal and unknown values.
    static func token(forTextStyle style: Int) -> CodeToken? {
        switch style {
        case 1: .keyword
        case 2: .function
        case 3: .variable
        case 4: .controlFlow
        case 5: .operator
        case 6: .builtIn
        case 7: .extension
        case 8: .preprocessor
        case 9: .attribute
        case 10: .char
        case 11: .escape
        case 12: .string
        case 13: .verbatimString
        case 14: .specialString
        case 15: .import
        case 16: .type
        case 17, 18, 19: .number
        case 20: .constant
        case 21: .comment
        case 22: .documentation
        case 23: .annotation
        case 24: .commentVariable
        case 25: .regionMarker
        case 26: .information
        case 27: .warning
        case 28: .alert
        case 29: .error
        case 30: .others
        case 31: .deleted
        case 32: .inserted
        default: nil
        }
    }

    /// Names GitHub Linguist and Pandoc accept that are neither a definition's name (as
    /// written, or without its spaces and punctuation: `commonlisp`), the name Pandoc's
    /// skylighting gives it (its file's: `isocpp`, `sqlpostgresql`, `fortranfree`), nor a file
    /// extension one claims, by lowercased name. A language close enough where the library has
    /// none of its own: CUDA as C++, Jinja and Twig as Django's templates, JSON with comments
    /// as JavaScript (the JSON definition marks comments as errors).
    static let aliases: [String: String] = [
        "shell": "Bash", "sh": "Bash", "zsh": "Zsh", "dotenv": "Bash", "env": "Bash", "golang": "Go",
        "js": "JavaScript", "node": "JavaScript",
        "jsx": "JavaScript React (JSX)", "ts": "TypeScript", "tsx": "TypeScript React (TSX)", "c++": "C++",
        "cpp": "C++", "cxx": "C++", "cuda": "C++", "cu": "C++", "objective-c": "Objective-C", "objc": "Objective-C",
        "obj-c": "Objective-C", "objective-c++": "Objective-C++", "c#": "C#", "csharp": "C#", "cs": "C#",
        "f#": "FSharp", "fsharp": "FSharp", "kt": "Kotlin", "py": "Python", "python3": "Python", "py3": "Python",
        "rb": "Ruby", "erb": "Ruby/Rails/RHTML", "rs": "Rust", "yml": "YAML", "md": "Markdown", "docker": "Dockerfile",
        "containerfile": "Dockerfile", "patch": "Diff", "udiff": "Diff", "html5": "HTML", "xhtml": "HTML",
        "xml": "XML", "svg": "XML", "plist": "XML", "tex": "LaTeX", "latex": "LaTeX", "make": "Makefile",
        "mk": "Makefile", "cmake": "CMake", "ps1": "PowerShell", "powershell": "PowerShell", "pwsh": "PowerShell",
        "bat": "MS-DOS Batch", "batch": "MS-DOS Batch", "cmd": "MS-DOS Batch", "dosbatch": "MS-DOS Batch",
        "elisp": "Common Lisp", "emacs-lisp": "Common Lisp", "toml": "TOML", "ini": "INI Files", "hs": "Haskell",
        "ex": "Elixir", "exs": "Elixir", "erl": "Erlang", "pl": "Perl", "proto": "Protobuf", "protobuf": "Protobuf",
        "graphql": "GraphQL", "gql": "GraphQL", "json": "JSON", "jsonl": "JSON", "ndjson": "JSON",
        "jsonc": "JavaScript", "json5": "JavaScript", "sql": "SQL", "sqlite": "SQL", "postgresql": "SQL (PostgreSQL)",
        "postgres": "SQL (PostgreSQL)", "psql": "SQL (PostgreSQL)", "plpgsql": "SQL (PostgreSQL)",
        "mysql": "SQL (MySQL)", "plsql": "SQL (Oracle)", "scss": "SCSS", "sass": "SASS", "less": "LESSCSS",
        "vue": "HTML", "jinja": "Django HTML Template", "jinja2": "Django HTML Template", "j2": "Django HTML Template",
        "twig": "Django HTML Template", "django": "Django HTML Template", "hcl": "Terraform", "tf": "Terraform",
        "ocaml": "Objective Caml", "ml": "Objective Caml", "r": "R Script", "rscript": "R Script",
        "rmd": "R Markdown", "matlab": "Matlab", "asm": "GNU Assembler", "nasm": "Intel x86 (NASM)",
        "tcl": "Tcl/Tk", "dot": "dot", "graphviz": "dot", "ignore": "Git Ignore",
        "fortran": "Fortran (Free Format)", "html+erb": "Ruby/Rails/RHTML", "rhtml": "Ruby/Rails/RHTML",
        "htmldjango": "Django HTML Template", "html+django": "Django HTML Template",
        "html+jinja": "Django HTML Template", "shell-script": "Bash", "bash-script": "Bash", "ksh": "Bash",
        "posh": "PowerShell", "bsdmake": "Makefile", "gnumake": "Makefile", "arduino": "C++", "ino": "C++",
        "xaml": "XML", "xsd": "XML", "wsdl": "XML", "rss": "XML", "atom": "XML", "html+php": "PHP (HTML)",
        "vbnet": "MonoBasic", "vb.net": "MonoBasic", "visual basic": "MonoBasic", "batchfile": "MS-DOS Batch",
        "dosini": "INI Files", "cfg": "INI Files", "starlark": "Python", "bazel": "Python", "bzl": "Python",
        "pycon": "Python", "pandoc": "Markdown", "cperl": "Perl", "mak": "Makefile", "mf": "Makefile",
        "apacheconf": "Apache Configuration", "aconf": "Apache Configuration", "tsql": "SQL",
        "coffee": "CoffeeScript", "coffee-script": "CoffeeScript",
        "gradle": "Groovy", "kts": "Kotlin", "mjs": "JavaScript", "cjs": "JavaScript", "raku": "Raku",
        "perl6": "Raku", "lisp": "Common Lisp", "clj": "Clojure", "sv": "SystemVerilog", "vhd": "VHDL",
    ]

    static let cache = LanguageCache()
    /// The tokens of texts already highlighted: the library is asked once per block.
    static let spanCache = TextKeyedCache<SpanKey, [TokenSpan]>(capacity: 8 << 20)
}

/// The tokens of a text in a syntax definition (``TextKeyedCache``).
struct SpanKey: Hashable {
    var definition: String
    var text: String
}

/// The definitions already resolved, by lowercased language name ("" for none), so a document
/// of many blocks asks the library once per language.
final class LanguageCache: @unchecked Sendable {
    private var names: [String: String] = [:]
    private let lock = NSLock()

    func value(for key: String) -> String? {
        lock.lock()
        defer { lock.unlock() }
        return names[key]
    }

    func store(_ value: String, for key: String) {
        lock.lock()
        defer { lock.unlock() }
        names[key] = value
    }
}
