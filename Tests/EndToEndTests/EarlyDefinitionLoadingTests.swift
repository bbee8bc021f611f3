import CodeHighlighting
import Foundation
import TestSupport
import Testing

@testable import Typesetter

/// The languages a render's inputs name are loaded before the inputs are parsed, guessed from
/// their fence lines; the guess decides only what loads early, never what is printed.
@Suite struct EarlyDefinitionLoadingTests {
    static let markdown = """
        # Code

        ```python
        def area(r):
            return 3.14 * r ** 2
        ```

        - In a list:

          ~~~ {.c .numberLines}
          int main(void) { return 0; }
          ~~~

        > ```rust
        > fn main() {}
        > ```

        ````markdown
        ```swift
        let shown = "as text, not a fence"
        ```
        ````

        ```nohighlight
        plain
        ```

        ``` `not an info string`
        ```

        ```Python
        print("the same language again")
        ```

        ```go
        package main
        """

    @Test func fenceLinesNameTheLanguagesInOrderOnceEach() {
        let scan = Typesetter.fencedCodeSamples(in: Array(Self.markdown.utf8))
        #expect(scan.samples.map(\.language) == ["python", "c", "rust", "markdown", "go"])
        #expect(scan.samples.first?.sample == "def area(r):\n    return 3.14 * r ** 2")
        // A fence inside a longer fence is the block's text.
        #expect(scan.samples[3].sample.contains("```swift"))
        // A block still open at the end of the text keeps the lines it has.
        #expect(scan.samples.last?.sample == "package main")
        #expect(!scan.highlightOff)
    }

    @Test(arguments: [
        ("---\ntitle: A\nhighlight: false\n---\n", true), ("---\nhighlight: \"off\"\n...\n", true),
        ("---\nhighlight: no\n---\n", true), ("---\nhighlight: true\n---\n", false),
        ("# Not front matter\n\nhighlight: false\n", false),
    ])
    func frontMatterTurningHighlightingOffStartsNothing(frontMatter: String, off: Bool) {
        let scan = Typesetter.fencedCodeSamples(in: Array((frontMatter + "\n```python\nx = 1\n```\n").utf8))
        #expect(scan.highlightOff == off, "\(frontMatter)")
        #expect(scan.samples.map(\.language) == ["python"])
    }

    @Test func theInputsLanguagesAreLoadedUnlessHighlightingIsOff() throws {
        let path = Render.folder + "/early-definitions.md"
        try Self.markdown.write(toFile: path, atomically: false, encoding: .utf8)
        let loading = try #require(Typesetter.startLoadingCodeDefinitions(forInputs: ["-", "/dev/null", path]))
        loading.loader.finish()
        // `markdown` and `go` are loaded too: definitions that know them.
        #expect(loading.loader.definitionsLoaded == ["Python", "C", "Rust", "Markdown", "Go"])
        #expect(Typesetter.startLoadingCodeDefinitions(forInputs: [path], highlight: "false") == nil)
        #expect(Typesetter.startLoadingCodeDefinitions(forInputs: ["/dev/zero", Render.folder]) == nil)
    }

    /// The command line loads definitions early unless `TYPESET_THREADS=1`; the PDF is the same.
    @Test func earlyLoadingChangesNoByte() throws {
        let path = Render.folder + "/early-definitions-cli.md"
        try Self.markdown.write(toFile: path, atomically: false, encoding: .utf8)
        var outputs: [Data] = []
        for threads in ["0", "1"] {
            let output = Render.folder + "/early-definitions-\(threads).pdf"
            let process = try PDFProbe.start(
                Render.binary, ["render", path, "-o", output, "-q"],
                environment: ["TYPESET_THREADS": threads, "SOURCE_DATE_EPOCH": "0"])
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            outputs.append(try Data(contentsOf: URL(fileURLWithPath: output)))
        }
        #expect(outputs[0] == outputs[1])
    }
}
