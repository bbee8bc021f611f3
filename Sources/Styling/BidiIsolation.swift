/// Code spans and formulas kept left to right in right-to-left text.
///
/// A code span is written left to right whatever surrounds it, and so is a formula; in a
/// paragraph with right-to-left text (Hebrew, Arabic, Persian), Unicode's bidirectional
/// algorithm (UAX #9) would give their neutral characters the direction around them: `x = 1;`
/// drawn `;x = 1`, a formula set in two parts at its `=` drawn with its second part first. So in
/// a paragraph holding a right-to-left letter each stretch of code runs and each stretch of
/// formula runs is made a left-to-right isolate (U+2066 LEFT-TO-RIGHT ISOLATE … U+2069 POP
/// DIRECTIONAL ISOLATE, UAX #9 §2.7), as HTML's `<bdi dir="ltr">` is: ordered left to right
/// within itself and placed as one neutral character among its neighbours. The two controls
/// draw nothing and read as nothing. Paragraphs without right-to-left letters are untouched.
enum BidiIsolation {
    /// U+2066 LEFT-TO-RIGHT ISOLATE.
    static let leftToRightIsolate = "\u{2066}"
    /// U+2069 POP DIRECTIONAL ISOLATE.
    static let popIsolate = "\u{2069}"

    /// Whether `scalar` is a letter written right to left: Hebrew, Arabic, Syriac, Thaana, N'Ko,
    /// Samaritan, Mandaic and their presentation forms, and the historic right-to-left scripts
    /// of the supplementary planes (Unicode's Bidi_Class R and AL blocks).
    static func isRightToLeft(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF:
            scalar.properties.isAlphabetic
        default: false
        }
    }

    /// `runs` with each stretch of code runs and of formula runs isolated left to right, when
    /// one of them holds a right-to-left letter. The controls go inside a code span's own
    /// runs, and in runs of their own around a formula (whose runs are its pictures).
    static func isolatingLeftToRight(_ runs: inout [StyledRun]) {
        // Every right-to-left letter is U+0590 or above, which UTF-8 starts with 0xD6 or above.
        guard
            runs.contains(where: {
                !$0.style.isCode && $0.text.withUTF8Bytes { $0.contains { $0 >= 0xD6 } }
                    && $0.text.unicodeScalars.contains(where: isRightToLeft)
            })
        else { return }
        var result: [StyledRun] = []
        result.reserveCapacity(runs.count + 2)
        var index = runs.startIndex
        while index < runs.endIndex {
            let isFormula = runs[index].style.inlineFormula != nil
            guard isFormula || runs[index].style.isCode else {
                result.append(runs[index])
                index += 1
                continue
            }
            var end = index + 1
            while end < runs.endIndex, isFormula ? runs[end].style.inlineFormula != nil : runs[end].style.isCode {
                end += 1
            }
            if isFormula {
                var control = runs[index].style
                control.inlineFormula = nil
                result.append(StyledRun(leftToRightIsolate, style: control))
                result.append(contentsOf: runs[index..<end])
                result.append(StyledRun(popIsolate, style: control))
            } else {
                var stretch = Array(runs[index..<end])
                stretch[0].text = leftToRightIsolate + stretch[0].text
                stretch[stretch.count - 1].text += popIsolate
                result.append(contentsOf: stretch)
            }
            index = end
        }
        runs = result
    }
}
