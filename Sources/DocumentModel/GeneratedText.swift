/// The words Typeset writes into a document's pages beside its content, in the document's or
/// the block's language (`lang`, BCP 47: its primary subtag), English for a language not
/// listed: the cue on a code block continued from the page before, and the line above each
/// part of a table split into parts of columns.
public enum GeneratedText {
    /// A language's words and the language they are in: the one asked for, or `en` when it is
    /// not listed.
    public struct Words: Sendable {
        /// BCP 47 tag of the words (`ko`, `en`).
        public let language: String
        /// The cue on a code block continued from the page before: "(continued)", "(계속)".
        public let continued: String
        /// The line above a table's first part and above the others, with `{range}` for the
        /// columns, `{total}` for their number and `{first}` for ``withFirstColumn``.
        let firstPart: String
        let laterPart: String
        /// What names the first column again before a later part's range ("1 and ").
        let withFirstColumn: String

        /// Whether the words are in `language` (by its primary subtag): false for English
        /// words standing in for a language not listed, which are tagged as English.
        public func areIn(_ language: String?) -> Bool {
            GeneratedText.primarySubtag(language) == self.language
        }

        /// The line above a table's part of columns: which columns (`range`, "1–7", counted
        /// from 1) of `total` it holds, and that it continues below (the first part) or is
        /// continued (a later part, holding the first column again when `withFirstColumn`).
        public func tablePart(first: Bool, columns range: String, of total: Int, withFirstColumn: Bool) -> String {
            (first ? firstPart : laterPart).replacing("{range}", with: range)
                .replacing("{total}", with: String(total))
                .replacing("{first}", with: withFirstColumn ? self.withFirstColumn : "")
        }
    }

    /// The languages of the words whose scripts are not set in italics (Hangul, Han and kana),
    /// so that what other languages set italic they set upright.
    public static let scriptsWithoutItalics: Set<String> = ["ko", "ja", "zh"]

    /// The words in `language`, English for a language not listed.
    public static func words(language: String?) -> Words {
        primarySubtag(language).flatMap { byLanguage[$0] } ?? english
    }

    static func primarySubtag(_ language: String?) -> String? {
        language?.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map(String.init)
    }

    private static let english = Words(
        language: "en", continued: "(continued)", firstPart: "Columns {range} of {total}; the table continues below.",
        laterPart: "Continued: columns {first}{range} of {total}.", withFirstColumn: "1 and ")

    private static let byLanguage: [String: Words] = [
        "en": english,
        "ko": Words(
            language: "ko", continued: "(계속)", firstPart: "전체 {total}열 중 {range}열. 표는 아래에 이어집니다.",
            laterPart: "이어짐: 전체 {total}열 중 {first}{range}열.", withFirstColumn: "1열과 "),
        "de": Words(
            language: "de", continued: "(Fortsetzung)",
            firstPart: "Spalten {range} von {total}; die Tabelle wird unten fortgesetzt.",
            laterPart: "Fortsetzung: Spalten {first}{range} von {total}.", withFirstColumn: "1 und "),
        "fr": Words(
            language: "fr", continued: "(suite)",
            firstPart: "Colonnes {range} sur {total}\u{202F}; le tableau continue ci-dessous.",
            laterPart: "Suite\u{202F}: colonnes {first}{range} sur {total}.", withFirstColumn: "1 et "),
        "es": Words(
            language: "es", continued: "(continuación)",
            firstPart: "Columnas {range} de {total}; la tabla continúa abajo.",
            laterPart: "Continuación: columnas {first}{range} de {total}.", withFirstColumn: "1 y "),
        "ja": Words(
            language: "ja", continued: "（続き）", firstPart: "全{total}列のうち{range}列。表は下に続きます。",
            laterPart: "続き：全{total}列のうち{first}{range}列。", withFirstColumn: "1列と"),
        "zh": Words(
            language: "zh", continued: "（续）", firstPart: "第{range}列，共{total}列；表格在下方继续。",
            laterPart: "续：第{first}{range}列，共{total}列。", withFirstColumn: "1和"),
    ]
}
