/// Spaces that tie a number to its unit, so that no line ends between them.
///
/// A reader who meets `16` at a line's end and `GB` at the next line's start reads a bare
/// number first; typesetters tie the two (TeX's `16~GB`, siunitx's unbreakable space between a
/// value and its unit), and Unicode's line breaking says the same of its postfix and prefix
/// signs: "there is no break opportunity in `(12.00) %`" nor in `$ (100.00)` (UAX #14, classes
/// PO and PR). Korean writes counters and units after a number with a space (`240만 명`,
/// `3 개`: Hangul orthography, article 43), and a Korean reader sees a line that ends in
/// `240만` the same way. Tied here, where a space run stands:
/// - after a number (a word ending in a digit, or in a Korean numeral after digits: `240만`,
///   `3천`; a closing bracket after it is allowed) and before a postfix sign (`%`, `‰`, `°`,
///   `℃`, `′`, `″`), a unit symbol (`GB`, `kg`, `ms`, `°C`, `km/h`: ``unitSymbols``, or a
///   quotient of two, `Mbit/s`, `kg/m²`) or a Korean
///   counter or unit (`명`, `개`, `원`, `년`, `킬로그램`: ``koreanCounters``, with or without its
///   particle);
/// - after a prefix sign alone (`$`, `€`, `£`, `¥`, `₩`, `№`) and before a number;
/// - after a label that names the number (`Chapter 8`, `Figure 3`, `Listing 16-1`, `p. 12`,
///   `예제 16-2`: ``labels``) or a comparison sign (`>= 2.28`: ``comparisons``) and before it;
/// - between the numbers of a date written with periods (`2026. 12. 7.`: ``isDatePart(_:_:)``).
///
/// Only that space run is tied; the line may still break anywhere else. A tied space breaks
/// only in the line breaker's emergency pass (``ParagraphComposer/tiedBreakCost``), so a
/// measure narrower than the pair sets it on two lines rather than past its edge.
enum NumberUnitTies {
    /// By scalar: whether the run of breaking spaces starting here ties a number to its unit.
    static func tiedSpaces(_ scalars: [Unicode.Scalar]) -> [Bool] {
        let isSpace = ParagraphComposer.isBreakingSpace
        let isLineEnd = ParagraphComposer.isSeparator
        var tied = [Bool](repeating: false, count: scalars.count + 1)
        var index = 0
        while index < scalars.count {
            guard isSpace(scalars[index]), index > 0, !isSpace(scalars[index - 1]) else {
                index += 1
                continue
            }
            var end = index
            while end < scalars.count, isSpace(scalars[end]) { end += 1 }
            defer { index = end }
            // Only a number's last scalar, a prefix sign, or the end of a label or comparison
            // before a number stands before a tied space.
            let beforeNumber = end < scalars.count && isDigit(scalars[end])
            guard
                mayEndNumber(scalars[index - 1]) || prefixSigns.contains(scalars[index - 1])
                    || (beforeNumber && mayEndLabel(scalars[index - 1]))
            else { continue }
            var wordStart = index
            while wordStart > 0, !isSpace(scalars[wordStart - 1]), !isLineEnd(scalars[wordStart - 1]) {
                wordStart -= 1
            }
            var wordEnd = end
            while wordEnd < scalars.count, !isSpace(scalars[wordEnd]), !isLineEnd(scalars[wordEnd]) { wordEnd += 1 }
            let before = scalars[wordStart..<index]
            let after = scalars[end..<wordEnd]
            tied[index] =
                (isNumber(before) && isUnit(after)) || (isPrefixSign(before) && startsNumber(after))
                || (beforeNumber && isLabel(before)) || isDatePart(before, after)
        }
        return tied
    }

    /// Whether `before` and `after` are parts of a date written with periods (`2026. 12. 7.`,
    /// `2027. 2. 28.까지`, the form Korean orthography gives numerals of a date): a number of at
    /// most four digits and its period, and after the space one of at most two digits and its
    /// period, with what follows (a particle, a weekday).
    static func isDatePart(_ before: ArraySlice<Unicode.Scalar>, _ after: ArraySlice<Unicode.Scalar>) -> Bool {
        func digits(_ part: ArraySlice<Unicode.Scalar>) -> Int { part.prefix(while: isDigit).count }
        let year = digits(before)
        let day = digits(after)
        return (1...4).contains(year) && before.count == year + 1 && before.last == "."
            && (1...2).contains(day) && after.count > day && after[after.startIndex + day] == "."
    }

    /// Whether `scalar` may end a label or a comparison before a number: a letter, a period
    /// (`Fig.`), the section sign, or a comparison sign.
    static func mayEndLabel(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "." || scalar == "§" || comparisons.contains(String(scalar)) || scalar.properties.isAlphabetic
    }

    /// Whether `word` names what the number after it numbers (``labels``), in any case, or
    /// compares with it (``comparisons``).
    static func isLabel(_ word: ArraySlice<Unicode.Scalar>) -> Bool {
        guard word.count <= 12 else { return false }
        let text = String(String.UnicodeScalarView(word))
        return comparisons.contains(text) || labels.contains(text.lowercased())
    }

    /// Words a number follows as its name, tied to it as TeX ties `Chapter~8` and `Figure~3`
    /// (The TeXbook, chapter 14: "ties" before a number in a reference), and their Korean
    /// counterparts (`예제 16-2`, `그림 3`, `표 2`, `제 3장`).
    static let labels: Set<String> = [
        "chapter", "chapters", "section", "sections", "§", "§§", "figure", "figures", "fig.", "table", "tables",
        "listing", "listings", "example", "examples", "page", "pages", "p.", "pp.", "part", "appendix", "equation",
        "eq.", "step", "volume", "vol.", "no.", "version", "line", "lines", "article", "issue", "item", "rule", "level",
        "phase", "exercise", "theorem", "lemma", "예제", "그림", "표", "목록", "제", "부록", "식", "단계", "버전",
    ]

    /// Comparison signs written before a number (`>= 2.28`, `≥ 3`, `< 10`).
    static let comparisons: Set<String> = [">=", "<=", ">", "<", "=", "==", "!=", "≥", "≤", "≠", "≈", "~", "≃"]

    /// Whether `word` is a number: it ends in a digit, or in Korean numerals (만, 억, 조, 천,
    /// 백, 십) after a digit, a closing bracket or quote allowed after either.
    static func isNumber(_ word: ArraySlice<Unicode.Scalar>) -> Bool {
        var last = word.endIndex
        while last > word.startIndex, isClosing(word[last - 1]) { last -= 1 }
        while last > word.startIndex, isKoreanNumeral(word[last - 1]) { last -= 1 }
        return last > word.startIndex && isDigit(word[last - 1])
    }

    /// Whether `scalar` may end a number: a digit, a Korean numeral, a closing bracket or quote.
    static func mayEndNumber(_ scalar: Unicode.Scalar) -> Bool {
        isDigit(scalar) || isKoreanNumeral(scalar) || isClosing(scalar)
    }

    static func isClosing(_ scalar: Unicode.Scalar) -> Bool {
        scalar == ")" || scalar == "]" || scalar == "\u{201D}"
    }

    /// 만, 억, 조, 천, 백, 십: the numerals Korean writes after digits (`240만`, `3천`).
    static func isKoreanNumeral(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "만", "억", "조", "천", "백", "십": true
        default: false
        }
    }

    /// Whether `word` is a unit after a number: a postfix sign first, a unit symbol (with the
    /// punctuation after it, and the Korean particle or Japanese kana written onto it: `km이다`,
    /// `GB의`, `kgを`), or a Korean counter or unit (with the particle after it).
    static func isUnit(_ word: ArraySlice<Unicode.Scalar>) -> Bool {
        guard let first = word.first else { return false }
        if postfixSigns.contains(first) { return true }
        var end = word.endIndex
        while end > word.startIndex, trailsUnit(word[end - 1]) { end -= 1 }
        let symbol = String(String.UnicodeScalarView(word[word.startIndex..<end]))
        if unitSymbols.contains(symbol) { return true }
        // A quotient of two symbols (`Mbit/s`, `kg/m²`, `mol/L`).
        let parts = symbol.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count == 2, parts.allSatisfy({ unitSymbols.contains(String($0)) }) { return true }
        let text = String(String.UnicodeScalarView(word))
        return koreanCounters.contains { text.hasPrefix($0) }
    }

    /// Whether `scalar` may follow a unit symbol in its word: punctuation, a Hangul syllable
    /// (a particle: `이다`, `의`, `를`) or a hiragana (`の`, `を`).
    static func trailsUnit(_ scalar: Unicode.Scalar) -> Bool {
        ".,;:!?)]\u{201D}\u{3001}\u{3002}".unicodeScalars.contains(scalar) || (0xAC00...0xD7A3).contains(scalar.value)
            || (0x3041...0x309F).contains(scalar.value)
    }

    /// Whether `word` is a prefix sign alone, an opening bracket allowed before it.
    static func isPrefixSign(_ word: ArraySlice<Unicode.Scalar>) -> Bool {
        let sign = word.drop { "([\u{201C}".unicodeScalars.contains($0) }
        return sign.count == 1 && prefixSigns.contains(sign[sign.startIndex])
    }

    /// Whether `word` starts a number: a digit, after an opening bracket or a sign.
    static func startsNumber(_ word: ArraySlice<Unicode.Scalar>) -> Bool {
        word.first { !"([+-\u{2212}".unicodeScalars.contains($0) }.map(isDigit) ?? false
    }

    static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }

    /// Signs that follow a number (UAX #14 class PO): percent, per mille, per ten thousand,
    /// degree, degree Celsius and Fahrenheit, prime and double prime.
    static let postfixSigns: Set<Unicode.Scalar> = [
        "%", "\u{2030}", "\u{2031}", "\u{00B0}", "\u{2103}", "\u{2109}", "\u{2032}", "\u{2033}", "\u{FF05}",
    ]

    /// Signs that precede a number (UAX #14 class PR): currencies, the numero sign and plus-minus.
    static let prefixSigns: Set<Unicode.Scalar> = [
        "$", "\u{20AC}", "\u{00A3}", "\u{00A5}", "\u{20A9}", "\u{FFE6}", "\u{2116}", "\u{00B1}",
    ]

    /// Unit symbols written after a number: SI units with their prefixes as written in text,
    /// data sizes and rates, and the everyday units of screens, print and speed.
    static let unitSymbols: Set<String> = {
        let base = [
            "m", "g", "s", "Hz", "W", "Wh", "V", "A", "J", "N", "Pa", "L", "B", "bit", "bps", "b", "t", "cal", "lm",
        ]
        let prefixes = ["", "k", "K", "M", "G", "T", "P", "m", "µ", "μ", "n", "c", "h", "d", "Ki", "Mi", "Gi", "Ti"]
        var symbols = Set(base.flatMap { unit in prefixes.map { $0 + unit } })
        symbols.formUnion([
            "min", "h", "ml", "dB", "°C", "°F", "K", "mol", "ha", "px", "pt", "pc", "em", "rem", "dpi", "ppi", "fps",
            "rpm", "mph", "km/h", "m/s", "mAh", "m²", "m³", "cm²", "km²", "Ω", "kΩ", "in", "ft", "yd", "mi", "oz",
            "lb", "lbs",
        ])
        return symbols
    }()

    /// Korean counters and units written after a number with a space (a word starting with one
    /// of them, its particle after it: `명이`, `개를`, `원의`).
    static let koreanCounters: [String] = [
        "명", "개", "원", "년", "월", "일", "시", "분", "초", "번", "회", "차", "권", "대", "마리", "살", "세", "층",
        "호", "건", "곳", "장", "잔", "병", "벌", "켤레", "채", "척", "그루", "송이", "가지", "배", "점", "위", "등",
        "쪽", "줄", "편", "부", "주", "달", "미터", "킬로", "그램", "리터", "퍼센트", "달러", "엔", "바이트", "메가",
        "기가", "인분", "평", "톤", "도", "표", "곡", "통", "알",
    ]
}
