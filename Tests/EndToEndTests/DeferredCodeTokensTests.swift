import DocumentModel
import Foundation
import MarkdownParser
import TestSupport
import Testing
import Typography

@testable import CodeHighlighting
@testable import Typesetter

/// The survey sets highlighted code blocks without their tokens, their languages loaded on
/// another thread meanwhile, only when every face a token may take resolves as asked; what it
/// finds, and so the PDF and its warnings, is then what the survey that highlights in line
/// (`TYPESET_THREADS=1`) finds.
@Suite(.serialized) struct DeferredCodeTokensTests {
    static let fixed = Date(timeIntervalSince1970: 1_700_000_000)

    static let markdown = """
        # Code

        Inline `print(1)`{.python} and `x`.

        ```python
        def area(r):  # 원의 넓이
            return 3.14 * r ** 2
        ```

        ```c
        int main(void) { return 0; }
        ```

        ```{.rust .numberLines}
        fn main() { println!("é"); }
        ```

        ```nohighlight
        plain text
        ```

        ```no-such-language
        kept plain
        ```
        """

    /// The default theme with its monospaced families replaced by `families`, its comments
    /// italic when `italicComments`.
    static func theme(mono families: [String], italicComments: Bool = false) throws -> Theme {
        var theme = try #require(ThemeLoader.builtIn(named: "default"))
        theme.monospaceFamilies = families
        if italicComments {
            theme.code.tokens[.comment] = CodeTokenStyle(color: RGBAColor(hex: "#5F6670")!, italic: true)
        }
        return theme
    }

    static func settings(_ theme: Theme, document: Document) throws -> ResolvedSettings {
        var options = RenderOptions(creationDate: fixed)
        options.theme = theme
        return try ResolvedSettings(resolving: options, for: document, parseDiagnostics: [])
    }

    /// The survey hands every block it defers to the loader, not only its language's first, so
    /// the pass that draws finds each block's tokens found on the loader's thread.
    @Test func theSurveyHasEveryDeferredBlockHighlightedAhead() throws {
        let mark = UUID().uuidString
        let bodies = [
            ("Python", "def first():  # \(mark) 1\n    return 1"),
            ("Python", "def second():  # \(mark) 2\n    return 2"),
            ("C", "int third(void) { return 3; } /* \(mark) */"),
            ("Python", "print('\(mark)')  # 4"),
        ]
        let markdown = bodies.map { "```\($0.0.lowercased())\n\($0.1)\n```\n" }.joined(separator: "\n")
        let parsed = MarkdownParser.parse(markdown, file: "every-block.md")
        let installed = try Self.settings(try Self.theme(mono: ["DejaVu Sans Mono"]), document: parsed.document)
        let (survey, _) = DocumentSurvey.survey(parsed.document, settings: installed, threaded: true)
        let loader = try #require(survey.definitionLoader)
        loader.finish()
        for (definition, body) in bodies {
            let kept = CodeHighlighter.spanCache.value(for: SpanKey(definition: definition, text: body))
            #expect(kept?.isEmpty == false, "\(body)")
        }
    }

    @Test func theSurveyDefersTokensOnlyWhenTheirFacesResolve() throws {
        let parsed = MarkdownParser.parse(Self.markdown, file: "deferred.md")
        let installed = try Self.settings(try Self.theme(mono: ["DejaVu Sans Mono"]), document: parsed.document)
        #expect(DocumentSurvey.codeTokenFacesResolve(installed.theme, fonts: installed.fonts))
        let (survey, _) = DocumentSurvey.survey(parsed.document, settings: installed, threaded: true)
        let loader = try #require(survey.definitionLoader)
        loader.finish()
        // Block languages in order, each once; `nohighlight` and unknown languages are not loaded.
        #expect(loader.definitionsLoaded == ["Python", "C", "Rust"])

        let inLine = DocumentSurvey.survey(parsed.document, settings: installed, threaded: false)
        #expect(inLine.survey.definitionLoader == nil)

        // Noto Mono has no italic: an italic comment's face is synthesized.
        let synthesized = try Self.settings(
            try Self.theme(mono: ["Noto Mono"], italicComments: true), document: parsed.document)
        #expect(!DocumentSurvey.codeTokenFacesResolve(synthesized.theme, fonts: synthesized.fonts))
        let exact = DocumentSurvey.survey(parsed.document, settings: synthesized, threaded: true)
        #expect(exact.survey.definitionLoader == nil)
    }

    /// Deferred or not, the same PDF bytes and the same warnings: with faces that resolve, with
    /// a family listed but not installed, and with italic comments in a family without italic
    /// (the survey then highlights in line, and the warning stands at the first comment).
    @Test(arguments: [
        ["DejaVu Sans Mono", "Noto Sans Mono CJK KR"], ["No Such Mono", "DejaVu Sans Mono"], ["Noto Mono"],
    ])
    func deferredAndInLineSurveysRenderAlike(mono: [String]) throws {
        var options = RenderOptions(creationDate: Self.fixed)
        options.theme = try Self.theme(mono: mono, italicComments: mono == ["Noto Mono"])
        let parsed = MarkdownParser.parse(Self.markdown, file: "deferred.md")
        let outputs = try Render.onOneThreadAndMore(parsed, options: options, name: "deferred-\(mono[0])")
        #expect(outputs[0].0 == outputs[1].0, "\(mono): PDF bytes differ")
        #expect(outputs[0].1 == outputs[1].1, "\(mono): diagnostics differ")
        if mono == ["Noto Mono"] {
            let italic = outputs[1].1.first { $0.message.contains("italic") }
            #expect(italic?.location?.line == 6 && italic?.location?.column == 15, "\(outputs[1].1)")
        }
    }
}
