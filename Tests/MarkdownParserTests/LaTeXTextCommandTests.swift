import DocumentModel
import TestSupport
import Testing

@testable import MarkdownParser

/// LaTeX's text commands in a paragraph (Pandoc's raw TeX): those that only style their
/// argument set as that style, others left as written with a warning where written, and
/// nothing read in code, escaped or unclosed.
@Suite struct LaTeXTextCommandTests {
    private func parsed(_ text: String) -> (inlines: [Inline], warnings: [Diagnostic]) {
        let result = MarkdownParser.parse(text, file: "t.md")
        guard case .paragraph(let inlines)? = result.document.blocks.first?.kind else { return ([], []) }
        return (inlines, result.diagnostics.filter { $0.message.contains("raw LaTeX") })
    }

    @Test func aStylingCommandIsItsStyle() {
        #expect(parsed("a \\emph{b} c").inlines == [.text("a "), .emphasis([.text("b")]), .text(" c")])
        #expect(parsed("\\textit{b}").inlines == [.emphasis([.text("b")])])
        #expect(parsed("\\textbf{b}").inlines == [.strong([.text("b")])])
        #expect(parsed("\\texttt{x_y}").inlines == [.code("x_y")])
        #expect(parsed("\\underline{u}").inlines == [.presentation(.underline, [.text("u")])])
        #expect(parsed("\\textsc{Small}").inlines == [.span(Attributes(classes: ["smallcaps"]), [.text("Small")])])
        #expect(parsed("\\textbf{a \\emph{b}}").inlines == [.strong([.text("a "), .emphasis([.text("b")])])])
        #expect(parsed("\\emph{a {b} c}").inlines == [.emphasis([.text("a {b} c")])])
        #expect(parsed("\\emph{b}").warnings.isEmpty)
    }

    /// Another command is left as written, warned about at its backslash.
    @Test func anotherCommandIsTextWithAWarningWhereWritten() {
        let (inlines, warnings) = parsed("See \\cite{knuth} and\n\\autoref{fig:one}.")
        #expect(inlines.plainText == "See \\cite{knuth} and \\autoref{fig:one}.")
        #expect(warnings.map { "\($0.location?.line ?? 0):\($0.location?.column ?? 0)" } == ["1:5", "2:1"])
        #expect(warnings.first?.message.contains("\\cite{…}") == true, "\(warnings)")
    }

    /// A control word without an argument that writes a symbol is that symbol, and one that
    /// only lays the page out is left out, each with the spaces or empty group after it, as
    /// TeX takes them (a control space keeps its space); an unknown one (a Windows path's
    /// `\Users`) stays as written, without a warning.
    @Test(arguments: [
        ("\\noindent\\textit{Italic} text", "Italic text"), ("\\LaTeX{} and \\TeX\\ too", "LaTeX and TeX too"),
        ("Left \\hfill right", "Left right"), ("\\S 5 and \\ldots{} end", "§5 and … end"),
        ("a\\quad b", "a\u{2003}b"), ("\\small\\bfseries Word", "Word"), ("C:\\Users\\name", "C:\\Users\\name"),
        ("on \\today.", "on \\today."),
    ])
    func aControlWordWithoutAnArgumentIsItsText(_ markdown: String, _ text: String) {
        let (inlines, warnings) = parsed(markdown)
        #expect(inlines.plainText == text, "\(markdown): \(inlines)")
        #expect(warnings.isEmpty, "\(markdown): \(warnings)")
    }

    /// `\url{address}` and `\href{address}{text}` are links, as Pandoc reads them, also where
    /// GitHub's autolinking took the address with the brace after it; the text of `\href` keeps
    /// its styles. Members: a web address, a `www.` address, a relative one, `\href` with
    /// emphasis inside, an `\href` missing its text (as written, warned).
    @Test func urlAndHrefAreLinks() {
        func links(_ inlines: [Inline]) -> [(String, String)] {
            inlines.compactMap { if case .link(let to, _, let children) = $0 { (to, children.plainText) } else { nil } }
        }
        let (web, webWarnings) = parsed("See \\url{https://example.com/a_b} now.")
        #expect(
            links(web).map(\.0) == ["https://example.com/a_b"] && links(web).map(\.1) == ["https://example.com/a_b"])
        #expect(web.plainText == "See https://example.com/a_b now." && webWarnings.isEmpty, "\(web)")
        #expect(links(parsed("\\url{www.example.org/p}").inlines).map(\.0) == ["http://www.example.org/p"])
        #expect(links(parsed("\\url{docs/guide.md}").inlines).map(\.0) == ["docs/guide.md"])
        let (styled, _) = parsed("A \\href{https://example.com/x}{a \\emph{fine} link}.")
        #expect(links(styled).map(\.0) == ["https://example.com/x"] && links(styled).map(\.1) == ["a fine link"])
        guard case .link(_, _, let children)? = styled.first(where: { if case .link = $0 { true } else { false } })
        else { return }
        #expect(children.contains { if case .emphasis = $0 { true } else { false } }, "\(children)")
        let (bare, bareWarnings) = parsed("\\href{https://example.com} alone")
        #expect(links(bare).isEmpty && bareWarnings.count == 1, "\(bare) \(bareWarnings)")
    }

    /// A command whose argument only lays the page out (`\vspace{1cm}`, `\hspace{2em}`) and
    /// the `\begin` and `\end` of an environment that only aligns or sizes its text are left
    /// out, the text inside kept, without a warning; another environment's stay as written,
    /// with one.
    @Test(arguments: [
        ("A \\vspace{1cm}b", "A b", 0), ("a\\hspace{2em} b", "a b", 0),
        ("\\begin{center}\\textbf{Mid}\\end{center}", "Mid", 0), ("\\begin{flushright}R\\end{flushright}", "R", 0),
        ("\\begin{small}s\\end{small}", "s", 0),
        ("\\begin{itemize}i\\end{itemize}", "\\begin{itemize}i\\end{itemize}", 2),
    ])
    func aCommandThatOnlyLaysOutIsLeftOut(_ markdown: String, _ text: String, _ warned: Int) {
        let (inlines, warnings) = parsed(markdown)
        #expect(inlines.plainText == text, "\(markdown): \(inlines)")
        #expect(warnings.count == warned, "\(markdown): \(warnings)")
    }

    /// An escaped backslash, code, a formula, a command with no braced argument and one whose
    /// argument never closes are text, and warn about nothing.
    @Test func whatIsNotACommandStaysAsWritten() {
        for markdown in ["\\\\emph{not}", "`\\emph{code}`", "\\LaTeX is", "\\emph {spaced}", "\\emph{open", "a\\{b}"] {
            let (inlines, warnings) = parsed(markdown)
            #expect(!inlines.contains { if case .emphasis = $0 { true } else { false } }, "\(markdown): \(inlines)")
            #expect(warnings.isEmpty, "\(markdown): \(warnings)")
        }
    }

    /// Commands nested deep, and arguments that never close, 2,000 and 16,000 times: eight
    /// times the input takes well under sixteen times as long.
    @Test(arguments: ["nested", "unclosed", "unknown"])
    func commandsAreReadInLinearTime(kind: String) {
        func source(_ count: Int) -> String {
            switch kind {
            case "nested": String(repeating: "\\emph{a ", count: count) + String(repeating: "}", count: count)
            case "unclosed": String(repeating: "\\emph{a ", count: count)
            default: String(repeating: "\\cite{k} ", count: count)
            }
        }
        func seconds(_ count: Int) -> Double {
            let text = source(count) + "\n"
            return Timing.bestSeconds { _ = MarkdownParser.parse(text, file: "t.md") }
        }
        let figures = Timing.eightfold(seconds)
        #expect(figures[1] < 16 * figures[0], "\(kind): \(figures) s for 2,000 and 16,000")
    }
}
