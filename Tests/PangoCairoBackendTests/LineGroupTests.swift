import Layout
import Styling
import TestSupport
import Testing
import Typography

@testable import PangoCairoBackend

/// A long paragraph's chosen lines come a group at a time (``PangoShaper/shape(_:width:inGroups:)``):
/// the same lines as ``PangoShaper/shape(_:width:)`` makes, in bounded groups, and the shaper
/// keeps nothing of a group once it is handed on.
@Suite struct LineGroupTests {
    let shaper = PangoShaper()
    static let measure = 300.0

    /// Kinds of long paragraphs, each too wide to measure in one layout (past
    /// ``PangoShaper/composedWidth`` at 2 em a character, or of more than
    /// ``ParagraphPieces/maximumRuns`` runs), so that its chosen lines are laid out again:
    /// words in one run, many links (a run each), hard breaks, and justified words with soft
    /// hyphens.
    static func paragraphs() -> [(name: String, paragraph: StyledParagraph)] {
        let style = Support.style(Support.inter, size: 11)
        let words = Array(repeating: "typeset measure composer paragraph grey", count: 1_200).joined(separator: " ")
        var linked = style
        linked.link = .external("https://example.com")
        linked.color = RGBAColor(red: 0, green: 0, blue: 1)
        var runs: [StyledRun] = []
        for index in 0..<1_200 {
            runs.append(StyledRun("link\(index)", style: linked))
            runs.append(StyledRun(" ", style: style))
        }
        let breaks = (0..<12_000).map { "w\($0)" }.joined(separator: "\u{2028}")
        let hyphenated = Array(repeating: "extra\u{AD}ordinary compre\u{AD}hensive", count: 2_000)
            .joined(separator: " ")
        return [
            ("words", Support.paragraph(words, style)),
            ("links", StyledParagraph(runs: runs, style: ParagraphStyle(baseFont: style.font))),
            ("hard breaks", Support.paragraph(breaks, style)),
            ("justified", Support.paragraph(hyphenated, style, alignment: .justify)),
        ]
    }

    @Test(arguments: 0..<4)
    func groupsHoldTheParagraphsLinesInBoundedRuns(kind: Int) {
        let (name, paragraph) = Self.paragraphs()[kind]
        let inPieces =
            paragraph.runs.count > ParagraphPieces.maximumRuns
            || PangoShaper.unwrappedWidthBound(paragraph) >= PangoShaper.composedWidth
        #expect(inPieces, "\(name) is measured in pieces")
        let whole = shaper.shape(paragraph, width: Self.measure).lines
        var grouped: [ShapedLine] = []
        var groupSizes: [Int] = []
        shaper.shape(paragraph, width: Self.measure) { group in
            #expect(group.first == grouped.count, "\(name): groups follow one another")
            #expect(group.lineCount == whole.count, "\(name): every group knows the paragraph's line count")
            grouped += group.lines
            groupSizes.append(group.lines.count)
        }
        #expect(groupSizes.count > 1, "\(name): \(whole.count) lines in \(groupSizes.count) group")
        #expect(groupSizes.allSatisfy { $0 <= ParagraphLayout.maximumGroupLines }, "\(name): groups of \(groupSizes)")
        #expect(grouped.count == whole.count, "\(name): \(grouped.count) of \(whole.count) lines")
        for (index, (line, reference)) in zip(grouped, whole).enumerated() {
            #expect(
                line.text == reference.text && line.x == reference.x && line.width == reference.width
                    && line.links == reference.links && line.isWrapContinuation == reference.isWrapContinuation,
                "\(name), line \(index): \(line.text) against \(reference.text)")
            if line.text != reference.text { break }
        }
    }

    /// Once the caller lets a group go, its lines and their layout are released before the next
    /// group is made: what is held at once is one group, whatever the paragraph's length.
    @Test func aGroupHandedOnIsReleasedBeforeTheNextIsMade() {
        let (_, paragraph) = Self.paragraphs()[0]
        weak var previousHandle: PangoLineHandle?
        var groups = 0
        var released = 0
        shaper.shape(paragraph, width: Self.measure) { group in
            if groups > 0, previousHandle == nil { released += 1 }
            previousHandle = group.lines.first?.handle as? PangoLineHandle
            #expect(previousHandle != nil)
            groups += 1
        }
        #expect(groups > 2)
        #expect(released == groups - 1, "\(released) of \(groups - 1) groups released before the next")
    }
}
