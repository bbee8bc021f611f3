import Testing
import Typography

@testable import CodeHighlighting

/// The tokens KSyntaxHighlighting finds, read back as text: what each kind covers in a sample.
@Suite struct CodeHighlighterTests {
    /// The text of every span of `token` in `source` under `language`.
    func texts(_ token: CodeToken, in source: String, language: String) -> [String] {
        guard let definition = CodeHighlighter.definition(forLanguage: language) else { return [] }
        let bytes = Array(source.utf8)
        return CodeHighlighter.tokens(in: source, definition: definition).filter { $0.token == token }.map {
            String(decoding: bytes[$0.range], as: UTF8.self)
        }
    }

    @Test func pythonKeywordsStringsCommentsNumbers() {
        let source = "def area(r):\n    # the circle's\n    return 3.14 * r * r  # é\nname = \"naïve\"\n"
        #expect(texts(.keyword, in: source, language: "python").contains("def"))
        #expect(texts(.controlFlow, in: source, language: "python").contains("return"))
        #expect(texts(.comment, in: source, language: "python").contains { $0.contains("the circle's") })
        #expect(texts(.comment, in: source, language: "python").contains { $0.contains("# é") })
        #expect(texts(.number, in: source, language: "python") == ["3.14"])
        #expect(texts(.string, in: source, language: "python").joined().contains("naïve"))
    }

    @Test func swiftKeywordsStringsCommentsNumbers() {
        let source = "/* a\n block */\nlet answer = 42\nfunc greet() -> String { return \"hi\" }\n"
        #expect(texts(.keyword, in: source, language: "swift").contains("let"))
        #expect(texts(.keyword, in: source, language: "Swift").contains("func"))
        // The block comment's second line is still comment: the state carries across lines.
        #expect(texts(.comment, in: source, language: "swift").contains { $0.contains("block */") })
        #expect(texts(.number, in: source, language: "swift") == ["42"])
        #expect(texts(.string, in: source, language: "swift").joined().contains("hi"))
    }

    /// Swift's string interpolations and Unicode scalars, in one-line and multi-line strings,
    /// and a backslash in a raw string are never errors (the library's definition marks them
    /// so); the expression interpolated is set as text; an escape Swift does not have stays an
    /// error.
    @Test func swiftInterpolationsAndUnicodeScalarsAreNotErrors() {
        let source =
            "print(\"Hi, \\(user.name(at: 1))! \\u{1F600} \\q\")\nlet m = \"\"\"\n    Line \\(n)\n    \"\"\"\n"
            + "let raw = #\"raw \\d+\"#\nlet c: Character = \"\\u{41}\"\n"
        #expect(texts(.escape, in: source, language: "swift") == ["\\(", ")", "\\u{1F600}", "\\(", ")", "\\u{41}"])
        #expect(texts(.error, in: source, language: "swift") == ["\\q"])
        #expect(texts(.string, in: source, language: "swift").joined().contains("raw \\d+"))
        #expect(!texts(.string, in: source, language: "swift").joined().contains("user.name"))
    }

    @Test func jsonKeysStringsNumbersConstants() {
        let source = "{\"name\": \"Ada\", \"age\": 36, \"ok\": true}"
        #expect(texts(.string, in: source, language: "JSON").joined().contains("Ada"))
        #expect(texts(.number, in: source, language: "json") == ["36"])
        let literal = source.utf8.count - "true}".utf8.count
        let spans = CodeHighlighter.tokens(in: source, definition: "JSON")
        #expect(spans.contains { $0.range.contains(literal) })
    }

    @Test func languagesByNameAliasAndExtension() {
        #expect(CodeHighlighter.definition(forLanguage: "PYTHON") == "Python")
        #expect(CodeHighlighter.definition(forLanguage: "py") == "Python")
        #expect(CodeHighlighter.definition(forLanguage: "rs") == "Rust")
        #expect(CodeHighlighter.definition(forLanguage: "golang") == "Go")
        #expect(CodeHighlighter.definition(forLanguage: "sh") == "Bash")
        #expect(CodeHighlighter.definition(forLanguage: "yml") == "YAML")
        #expect(CodeHighlighter.definition(forLanguage: "c++") == "C++")
        #expect(CodeHighlighter.definition(forLanguage: "dockerfile") == "Dockerfile")
        #expect(CodeHighlighter.definition(forLanguage: "no-such-language") == nil)
        #expect(CodeHighlighter.definition(forLanguage: "") == nil)
        #expect(CodeHighlighter.definitionCount > 250)
    }

    /// The names Pandoc's skylighting gives its languages (its definitions' file names) and
    /// names written without their spaces and punctuation resolve to the same definitions:
    /// each of these was set plain.
    @Test func pandocsNamesResolve() {
        let expected = [
            "sqlpostgresql": "SQL (PostgreSQL)", "commonlisp": "Common Lisp", "objectivec": "Objective-C",
            "objectivecpp": "Objective-C++", "ocaml": "Objective Caml", "fortranfree": "Fortran (Free Format)",
            "fortranfixed": "Fortran (Fixed Format)", "isocpp": "ISO C++", "actionscript": "ActionScript 2.0",
            "apache": "Apache Configuration", "djangotemplate": "Django HTML Template",
            "javascriptreact": "JavaScript React (JSX)", "literatehaskell": "Literate Haskell",
            "nasm": "Intel x86 (NASM)", "orgmode": "Org Mode", "rest": "reStructuredText", "sqlmysql": "SQL (MySQL)",
            "xorg": "x.org Configuration", "yacc": "Yacc/Bison", "gitignore": "Git Ignore",
            "Literate-Haskell": "Literate Haskell",
        ]
        for (name, definition) in expected {
            #expect(CodeHighlighter.definition(forLanguage: name) == definition, "\(name)")
        }
    }

    /// Every alias names a definition the library has (an alias to a name it lacks set its
    /// blocks plain: `batch` named "Windows Batch"), and GitHub's info strings resolve.
    @Test func everyAliasNamesADefinition() {
        for (alias, definition) in CodeHighlighter.aliases {
            #expect(CodeHighlighter.definition(forLanguage: alias) == definition, "\(alias) → \(definition)")
        }
        for name in [
            "sh-session", "batch", "cmd", "jsonl", "erb", "hcl", "cuda", "dotenv", "plpgsql", "sqlite", "jinja", "twig",
            "fortran", "html+erb", "htmldjango", "html+jinja", "shell-script", "posh", "bsdmake", "arduino", "xaml",
        ] {
            #expect(CodeHighlighter.definition(forLanguage: name) != nil, "\(name)")
        }
    }

    /// PHP written without its opening tag, as most snippets are, is highlighted as PHP code
    /// (the library's definition starts outside PHP and set it all plain); with the tag, as the
    /// library reads it.
    @Test func phpWithoutItsOpeningTagIsCode() {
        for source in ["$x = \"hi\"; echo $x; // c", "function f($a) { return 42; }", "echo 'a';\n# c\n"] {
            let spans = CodeHighlighter.tokens(in: source, definition: "PHP/PHP")
            #expect(spans.contains { $0.token == .keyword || $0.token == .controlFlow }, "\(source)")
            #expect(spans.allSatisfy { $0.start >= 0 && $0.start + $0.length <= source.utf8.count }, "\(source)")
        }
        #expect(texts(.string, in: "$x = \"hi\";", language: "php") == ["\"hi\""])
        let tagged = "<?php echo 1; ?>\n<b>x</b>"
        #expect(!CodeHighlighter.tokens(in: tagged, definition: "PHP/PHP").isEmpty)
    }

    /// JSON with comments (`jsonc`, `json5`) reads its comments as comments, not errors.
    @Test func jsonWithCommentsHasComments() {
        let source = "{\n  // a comment\n  \"a\": 1 /* block */\n}\n"
        for language in ["jsonc", "json5"] {
            #expect(texts(.comment, in: source, language: language).contains { $0.contains("a comment") })
            #expect(texts(.error, in: source, language: language).isEmpty)
        }
    }

    /// A shell session colours its commands after their prompts as Bash and leaves the output
    /// plain, as GitHub's ShellSession does: Bash alone coloured output's first words as
    /// commands and a root prompt's line as a comment.
    @Test func aShellSessionColoursItsCommandsAndNotItsOutput() {
        let source = """
            $ echo "hi" # greet
            hi
            # export PATH=/x
            added 3 packages in 2s
            user@host:~/dir$ for f in *; do echo $f; done
            [root@box tmp]# echo "x" \\
            > | grep "b"
            done
            """
        let bytes = Array(source.utf8)
        let spans = CodeHighlighter.tokens(in: source, definition: CodeHighlighter.shellSession)
        func tokens(onLine index: Int) -> [(CodeToken, String)] {
            let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
            let start = lines[..<index].reduce(0) { $0 + $1.utf8.count + 1 }
            let range = start..<(start + lines[index].utf8.count)
            return spans.filter { range.overlaps($0.range) }.map {
                ($0.token, String(decoding: bytes[$0.range], as: UTF8.self))
            }
        }
        for language in ["console", "shell-session", "sh-session", "Console"] {
            #expect(CodeHighlighter.definition(forLanguage: language) == CodeHighlighter.shellSession)
        }
        #expect(tokens(onLine: 0).contains { $0.0 == .string && $0.1.contains("hi") })
        #expect(tokens(onLine: 0).contains { $0.0 == .comment && $0.1.contains("greet") })
        #expect(!tokens(onLine: 0).contains { $0.1.contains("$") }, "the prompt is no token")
        for output in [1, 3, 7] { #expect(tokens(onLine: output).isEmpty, "output line \(output)") }
        #expect(!tokens(onLine: 2).contains { $0.0 == .comment }, "a root prompt is no comment")
        #expect(tokens(onLine: 4).contains { $0.0 == .controlFlow || $0.0 == .keyword })
        #expect(tokens(onLine: 5).contains { $0.0 == .string && $0.1.contains("x") }, "a bracketed root prompt")
        #expect(tokens(onLine: 6).contains { $0.0 == .string && $0.1.contains("b") }, "a continued command")
    }

    /// Each command of a session is highlighted on its own: a here-document, an open quote or
    /// an open `case` whose end is in the output coloured every later command (`# list` drawn
    /// as a string), as the commands were one script.
    @Test(arguments: [
        "$ cat <<EOF > notes.txt\nhello\nEOF\n", "$ echo \"open\nclosed\"\n", "$ echo 'a\nb'\n",
        "$ case $x in\nesac\n",
    ])
    func aCommandsOpenConstructColoursNoLaterCommand(_ opening: String) {
        let source = opening + "$ ls -la # list\n$ echo \"done\"\n"
        let bytes = Array(source.utf8)
        let spans = CodeHighlighter.tokens(in: source, definition: CodeHighlighter.shellSession)
        func token(of text: String) -> CodeToken? {
            guard let range = source.range(of: text) else { return nil }
            let start = source.utf8.distance(from: source.utf8.startIndex, to: range.lowerBound)
            return spans.first { $0.range.contains(start) }?.token
        }
        #expect(
            token(of: "# list") == .comment,
            "\(spans.map { ($0.token, String(decoding: bytes[$0.range], as: UTF8.self)) })")
        #expect(token(of: "\"done\"") == .string)
        #expect(token(of: "ls") != .string)
    }

    @Test func spansStayInsideTheTextAndInOrder() {
        let source = "int main() { return 0; } // 한국어 😀 \"x\"\n#include <stdio.h>\n"
        let spans = CodeHighlighter.tokens(in: source, definition: "C")
        #expect(!spans.isEmpty)
        var end = 0
        for span in spans {
            #expect(span.start >= end)
            #expect(span.length > 0)
            end = span.start + span.length
        }
        #expect(end <= source.utf8.count)
        #expect(CodeHighlighter.tokens(in: source, definition: "No Such Definition").isEmpty)
    }

    /// A line met again takes the tokens it had only in the state it had then: the same line
    /// inside a block comment and outside, in one text and across texts, and in another order.
    @Test func aRepeatedLineKeepsTheTokensOfItsState() {
        let line = "let total = 12 // sum"
        let texts = [
            "\(line)\n/* open\n\(line)\n*/\n\(line)\n",
            "/* first\n\(line)\n*/\n\(line)\n\(line)\n/*\n\(line)\n*/\n",
            "\(line)\n\(line)\n",
        ]
        // Whether each line of `text` equal to `line` holds the keyword `let`, in order.
        func keywordLines(_ text: String) -> [Bool] {
            let bytes = Array(text.utf8)
            let spans = CodeHighlighter.tokens(in: text, definition: "Swift")
            var start = 0
            var found: [Bool] = []
            for textLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
                let end = start + textLine.utf8.count
                if textLine == line {
                    found.append(
                        spans.contains {
                            $0.token == .keyword && $0.range.lowerBound >= start && $0.range.upperBound <= end
                                && String(decoding: bytes[$0.range], as: UTF8.self) == "let"
                        })
                }
                start = end + 1
            }
            return found
        }
        #expect(keywordLines(texts[0]) == [true, false, true])
        #expect(keywordLines(texts[1]) == [false, true, true, false])
        #expect(keywordLines(texts[2]) == [true, true])
        #expect(keywordLines(texts[0]) == [true, false, true])
    }

    /// A raw string is read as Swift reads it: its backslashes are characters but for the
    /// escapes of its delimiter (`\#(…)`, `\#n`, `\##(…)` with two hashes); a plain string
    /// beside it keeps its escapes. The library read `\t` in a raw string as an escape and
    /// `\(x)` as an interpolation, and `\#(name)` as string.
    @Test func aRawStringsBackslashesAreItsCharacters() {
        // Written with `B` for a backslash and `Q` for a quote, so that the Swift below is
        // read as it stands.
        let lines = [
            "let path = #QC:BtempBfile B(notInterp)Q#",
            "let greeting = #Qhi B#(name)B#nQ#",
            "let two = ##Qa Q# b B#(no) B##(yes)Q##",
            "let plain = QtabBtend B(value)Q",
            "let block = #QQQ",
            "    raw Bn and B#(line)",
            "    QQQ#",
        ]
        func swift(_ text: String) -> String {
            text.replacingOccurrences(of: "B", with: "\\").replacingOccurrences(of: "Q", with: "\"")
        }
        let source = swift(lines.joined(separator: "\n")) + "\n"
        let bytes = Array(source.utf8)
        let spans = CodeHighlighter.tokens(in: source, definition: "Swift")
        let shown = spans.map { ($0.token, String(decoding: bytes[$0.range], as: UTF8.self)) }
        func token(of written: String, after marker: String) -> CodeToken? {
            let text = swift(written)
            guard let from = source.range(of: marker),
                let range = source.range(of: text, range: from.upperBound..<source.endIndex)
            else { return nil }
            let start = source.utf8.distance(from: source.utf8.startIndex, to: range.lowerBound)
            return spans.first { $0.range.contains(start) }?.token
        }
        #expect(token(of: "Bt", after: "path") == .string, "\(shown)")
        #expect(token(of: "B(", after: "path") == .string, "\(shown)")
        #expect(token(of: "B#(", after: "greeting") == .escape, "\(shown)")
        #expect(token(of: "B#n", after: "greeting") == .escape, "\(shown)")
        #expect(token(of: "B#(", after: "two") == .string, "\(shown)")
        #expect(token(of: "B##(", after: "two") == .escape, "\(shown)")
        #expect(token(of: "Bt", after: "plain") == .escape, "\(shown)")
        #expect(token(of: "Bn", after: "block") == .string, "\(shown)")
        #expect(token(of: "B#(", after: "block") == .escape, "\(shown)")
        var end = 0
        for span in spans {
            #expect(span.start >= end && span.length > 0, "\(shown)")
            end = span.range.upperBound
        }
    }
}
