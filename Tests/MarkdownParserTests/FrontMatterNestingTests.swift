import DocumentModel
import Foundation
import TestSupport
import Testing

@testable import MarkdownParser

/// Front matter whose flow collections nest deeper than anything is read: libyaml took time
/// quadratic in the depth (`title: ` then 50,000 `[` and as many `]`, 100 KB, 18 s), only for
/// the reader to cut at ``FrontMatter/maxDepth``. The deep part is blanked first
/// (``YAMLFlowDepth``): the same warning at the same place, in linear time.
@Suite struct FrontMatterNestingTests {
    /// Front matter of `key: value` then `subtitle: After`.
    func document(_ value: String, key: String = "title") -> String {
        "---\n\(key): \(value)\nsubtitle: After\n---\n\nBody.\n"
    }

    /// The ways to nest: lists, mappings (in a list: `title` takes no mapping), lists over
    /// lines, lists and mappings by turns.
    static let kinds = ["lists", "mappings", "lines", "mixed"]

    /// `depth` nested collections of `kind`.
    func nested(_ kind: String, depth: Int) -> String {
        switch kind {
        case "lists": String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        case "mappings": "[" + String(repeating: "{a: ", count: depth) + String(repeating: "}", count: depth) + "]"
        case "lines": String(repeating: "[\n  ", count: depth) + String(repeating: "]", count: depth)
        default: String(repeating: "[{a: ", count: depth / 2) + String(repeating: "}]", count: depth / 2)
        }
    }

    /// Eight times the depth takes well under sixteen times as long, whatever the nesting.
    @Test(arguments: kinds)
    func deepNestingIsReadInLinearTime(kind: String) {
        func seconds(_ depth: Int) -> Double {
            let text = document(nested(kind, depth: depth))
            return Timing.bestSeconds { _ = MarkdownParser.parse(text, file: "t.md") }
        }
        let figures = Timing.eightfold(seconds)
        #expect(figures[1] < 16 * figures[0], "\(kind): \(figures) s for depths 2,000 and 16,000")
    }

    /// However deep, the nesting is said once, at the collection past the limit, as before;
    /// the keys after it are read.
    @Test(arguments: kinds)
    func deepNestingKeepsItsWarningAndTheKeysAfter(kind: String) {
        for depth in [40, 200, 5_000] {
            let result = MarkdownParser.parse(document(nested(kind, depth: depth)), file: "t.md")
            let warnings = result.diagnostics.filter { $0.message.contains("more than 16 deep") }
            #expect(warnings.count == 1, "\(kind) \(depth): \(result.diagnostics.map(\.description))")
            #expect(result.document.metadata.subtitle == "After", "\(kind) \(depth)")
            if kind == "lists" {
                // Line 2, after `title: ` and 16 brackets: the 17th.
                #expect(warnings.first?.location?.line == 2 && warnings.first?.location?.column == 24)
            }
        }
    }

    /// Brackets in quoted scalars, comments and block scalars are text, never blanked.
    @Test func bracketsInTextAreKept() {
        let deep = String(repeating: "[", count: 300)
        let quoted = MarkdownParser.parse(document("\"\(deep)\""), file: "t.md")
        #expect(quoted.document.metadata.title == deep)
        let single = MarkdownParser.parse(document("'it''s \(deep)'"), file: "t.md")
        #expect(single.document.metadata.title == "it's \(deep)")
        let block = MarkdownParser.parse("---\ntitle: |\n  \(deep)\nsubtitle: After\n---\n\nBody.\n", file: "t.md")
        #expect(block.document.metadata.title?.hasPrefix(deep) == true)
        #expect(block.document.metadata.subtitle == "After")
        let comment = MarkdownParser.parse(document("Plain # \(deep)"), file: "t.md")
        #expect(comment.document.metadata.title == "Plain")
        #expect(YAMLFlowDepth.flattened(Array("a: \"\(deep)\"\n".utf8)) == Array("a: \"\(deep)\"\n".utf8))
    }

    /// Unclosed or wrongly closed deep nesting stays invalid YAML, said as such.
    @Test func unclosedDeepNestingIsStillInvalid() {
        for value in [String(repeating: "[", count: 300), String(repeating: "[", count: 300) + "}"] {
            let result = MarkdownParser.parse(document(value), file: "t.md")
            #expect(result.document.metadata.subtitle == nil)
            #expect(result.diagnostics.contains { $0.message.contains("front matter") }, "\(result.diagnostics)")
        }
    }

    /// A settings or metadata file nested as deep is read in linear time too.
    @Test func deepSettingsFilesAreReadInLinearTime() {
        func seconds(_ depth: Int) -> Double {
            let bytes = Array("toc: \(nested("lists", depth: depth))\n".utf8)
            return Timing.bestSeconds {
                _ = try? SettingsFile.mapping(bytes, file: "s.yaml")
                _ = try? SettingsFile.metadata(bytes, file: "s.yaml")
            }
        }
        let figures = Timing.eightfold(seconds)
        #expect(figures[1] < 16 * figures[0], "\(figures) s for depths 2,000 and 16,000")
    }
}
