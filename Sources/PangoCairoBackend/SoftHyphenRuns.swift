import Styling

extension StyledParagraph {
    /// The paragraph with each run of consecutive soft hyphens (U+00AD, across runs too) cut to
    /// its first: the same hyphenation point, printed the same way (nothing, or one hyphen at a
    /// line's end). Pango 1.50 shapes a run of soft hyphens in time quadratic in its length
    /// (20,000 in a row took 2.3 s, 50,000 about a minute); one soft hyphen costs what any
    /// character does. The paragraph itself when it has no two soft hyphens in a row.
    func collapsingSoftHyphenRuns() -> StyledParagraph {
        var previous: Unicode.Scalar = " "
        var found = false
        search: for run in runs {
            for scalar in run.text.unicodeScalars {
                if scalar == "\u{AD}" && previous == "\u{AD}" {
                    found = true
                    break search
                }
                previous = scalar
            }
        }
        guard found else { return self }
        // Token colours are kept by byte: the bytes left out would move them.
        var collapsed = expandingTokenColors()
        let runs = collapsed.runs
        var afterSoftHyphen = false
        for index in collapsed.runs.indices {
            var text = String.UnicodeScalarView()
            for scalar in runs[index].text.unicodeScalars {
                if scalar == "\u{AD}" && afterSoftHyphen { continue }
                afterSoftHyphen = scalar == "\u{AD}"
                text.append(scalar)
            }
            collapsed.runs[index].text = String(text)
        }
        return collapsed
    }
}
