import Styling

// The cut stage of paragraph layout (``ParagraphLayout``) where the backend shapes chosen
// lines again: the lines in groups, each group's text with a line separator at each break,
// and each line's source text.

extension ParagraphLayout {
    /// The composition's lines in groups (ranges of line indices), each shaped in one piece
    /// and handed on before the next is made: a group holds at most `maximumRuns` runs (the
    /// backend's ``ParagraphShaping/maximumRunsPerShaping``), ``maximumGroupLines`` lines and
    /// ``maximumGroupScalars`` scalars (the drawable lines held at once, about 3 KB a line,
    /// stay bounded whatever the paragraph's length); a line over a limit is a group of its
    /// own. A paragraph within every limit is one group.
    public static func lineGroups(
        _ composition: Composition, prepared: PreparedParagraph, maximumRuns: Int
    ) -> [Range<Int>] {
        let count = composition.lines.count
        let runIndex = prepared.runIndex
        guard let lastRun = runIndex.last else { return [0..<count] }
        let withinLimits =
            lastRun < maximumRuns && count <= maximumGroupLines && prepared.scalars.count <= maximumGroupScalars
        if withinLimits { return [0..<count] }
        var groups: [Range<Int>] = []
        var start = 0
        for (index, line) in composition.lines.enumerated() where index > start {
            let startScalar = composition.lines[start].start
            let first = runIndex[min(startScalar, runIndex.count - 1)]
            let runsFull = runIndex[min(line.end, runIndex.count - 1)] - first >= maximumRuns
            let linesFull = index - start >= maximumGroupLines
            let textFull = line.end - startScalar > maximumGroupScalars
            if runsFull || linesFull || textFull {
                groups.append(start..<index)
                start = index
            }
        }
        groups.append(start..<count)
        return groups
    }

    /// The UTF-8 byte range of each composed line's source text (what the PDF embeds for
    /// copying) in the paragraph whose scalars are `scalars`: what the line holds, with the
    /// space it ends at (as Pango's wrapped lines have), up to the next line's start; a line
    /// ending at a separator stops before it. A line ending at a hyphen still includes a soft
    /// hyphen it ends at (finalizing prints it as "-").
    static func sourceTextRanges(_ composition: Composition, scalars: [Unicode.Scalar]) -> [Range<Int>] {
        // Byte offsets of scalar offsets, walked from the last one asked (lines ask in order).
        var cursor = 0
        var cursorByte = 0
        func byte(_ scalar: Int) -> Int {
            while cursor < scalar {
                cursorByte += UTF8.width(scalars[cursor])
                cursor += 1
            }
            while cursor > scalar {
                cursor -= 1
                cursorByte -= UTF8.width(scalars[cursor])
            }
            return cursorByte
        }
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(composition.lines.count)
        for (index, composed) in composition.lines.enumerated() {
            let end = index + 1 < composition.lines.count ? composition.lines[index + 1].start : scalars.count
            let first = byte(composed.start)
            let last = byte(max(composed.start, composed.ending == .separator ? composed.end : end))
            ranges.append(first..<last)
        }
        return ranges
    }
}

/// The text of a group of chosen lines, for the backend to shape in one piece
/// (``ParagraphShaping/shapeLines(_:composed:)``): a U+2028 line separator at each break
/// (replacing the word space there), a hyphen at each hyphenation break (replacing a soft
/// hyphen), and where justification widens it.
public struct LineSet {
    /// The lines' text.
    public var text: String
    /// The UTF-8 byte offset in ``text`` at which each run of ``paragraph`` starts.
    public var starts: [Int]
    /// The paragraph with the runs the lines touch, each holding its part of ``text``.
    public var paragraph: StyledParagraph
    /// Per byte of ``text``: a word space that justification widens.
    public var stretchableSpace: [Bool]
    /// Per byte of ``text``: a Hangul syllable followed by another on its line.
    public var syllableGap: [Bool]

    /// The text of the composition's lines `group` (indices into its lines) of `paragraph`,
    /// whose scalars and their runs are `prepared`'s. For some of the lines, the paragraph
    /// holds only the runs they touch.
    init(
        _ composition: Composition, lines group: Range<Int>, prepared: PreparedParagraph,
        paragraph: StyledParagraph
    ) {
        let scalars = prepared.scalars
        let runIndex = prepared.runIndex
        // The runs the group's text comes from: every run when the group is every line.
        var runRange = paragraph.runs.indices
        if group != composition.lines.indices, !runIndex.isEmpty {
            let first = runIndex[min(composition.lines[group.lowerBound].start, runIndex.count - 1)]
            let last = runIndex[min(composition.lines[group.upperBound - 1].end, runIndex.count - 1)]
            runRange = first..<(last + 1)
        }
        let base = runRange.lowerBound
        var runTexts = [String.UnicodeScalarView](repeating: String.UnicodeScalarView(), count: runRange.count)
        var spaceFlags: [(run: Int, offset: Int)] = []  // (run − base, scalar index within the run's new text)
        var gapFlags: [(run: Int, offset: Int)] = []
        var runCounts = [Int](repeating: 0, count: runRange.count)
        let justified = paragraph.style.alignment == .justify
        let isCode = paragraph.runs[runRange].map(\.style.isCode)  // by run − base
        func append(_ scalar: Unicode.Scalar, run: Int) {
            runTexts[run - base].append(scalar)
            runCounts[run - base] += 1
        }
        for index in group {
            let line = composition.lines[index]
            let isLast = index == group.upperBound - 1
            for scalarIndex in line.start..<max(line.start, line.end) {
                let scalar = scalars[scalarIndex]
                let run = runIndex[scalarIndex]
                if line.ending == .hyphen && scalarIndex == line.end - 1 && scalar == "\u{AD}" {
                    append("-", run: run)
                    continue
                }
                if (justified || line.wordSpace != nil) && ParagraphComposer.isBreakingSpace(scalar)
                    && !isCode[run - base]
                {
                    spaceFlags.append((run - base, runCounts[run - base]))
                }
                if justified && ParagraphComposer.isHangul(scalar) && scalarIndex + 1 < line.end
                    && ParagraphComposer.isHangul(scalars[scalarIndex + 1])
                {
                    gapFlags.append((run - base, runCounts[run - base]))
                }
                append(scalar, run: run)
            }
            let lastRun = line.end > line.start ? runIndex[line.end - 1] : runIndex[min(line.start, scalars.count - 1)]
            if line.ending == .hyphen && !(line.end > 0 && scalars[line.end - 1] == "\u{AD}") {
                append("-", run: lastRun)
            }
            if isLast { break }
            if line.ending == .separator {
                append(scalars[line.end], run: runIndex[line.end])
            } else {
                append("\u{2028}", run: line.ending == .space ? runIndex[line.end] : lastRun)
            }
            // Scalars skipped between this line's end and the next line's start (extra spaces) are dropped.
        }
        var finalParagraph = paragraph
        if runRange != paragraph.runs.indices { finalParagraph.runs = Array(paragraph.runs[runRange]) }
        var starts: [Int] = []
        var text = ""
        for index in finalParagraph.runs.indices {
            starts.append(text.utf8.count)
            let runText = String(runTexts[index])
            finalParagraph.runs[index].text = runText
            text += runText
        }
        let byteCount = text.utf8.count
        var spaces = [Bool](repeating: false, count: byteCount + 1)
        var gaps = spaces
        // Scalar offsets within runs → byte offsets in the text.
        func byteOffsets(_ flags: [(run: Int, offset: Int)], into array: inout [Bool]) {
            var cache: [Int: [Int]] = [:]
            for flag in flags {
                if cache[flag.run] == nil {
                    var offsets: [Int] = []
                    var byte = starts[flag.run]
                    for scalar in runTexts[flag.run] {
                        offsets.append(byte)
                        byte += UTF8.width(scalar)
                    }
                    cache[flag.run] = offsets
                }
                array[cache[flag.run]![flag.offset]] = true
            }
        }
        byteOffsets(spaceFlags, into: &spaces)
        byteOffsets(gapFlags, into: &gaps)
        self.text = text
        self.starts = starts
        self.paragraph = finalParagraph
        stretchableSpace = spaces
        syllableGap = gaps
    }
}
