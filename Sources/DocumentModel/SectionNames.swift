/// The names of the sections Typeset makes itself, in the document's language (`lang`, BCP 47:
/// its primary subtag), as LaTeX's babel and polyglossia set them for Pandoc's PDF output (their
/// language definition files, `\contentsname` and `\abstractname`); English for a language
/// not listed.
public enum SectionNames {
    /// The contents' heading: "Contents", "목차", "Inhaltsverzeichnis"…
    public static func contents(language: String?) -> String {
        names(language)?.contents ?? "Contents"
    }

    /// The abstract's label: "Abstract", "초록", "Zusammenfassung"…
    public static func abstract(language: String?) -> String {
        names(language)?.abstract ?? "Abstract"
    }

    private static func names(_ language: String?) -> (contents: String, abstract: String)? {
        guard let language else { return nil }
        let primary = language.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map(String.init)
        return primary.flatMap { byLanguage[$0] }
    }

    private static let byLanguage: [String: (contents: String, abstract: String)] = [
        "ko": ("목차", "초록"),
        "de": ("Inhaltsverzeichnis", "Zusammenfassung"),
        "fr": ("Table des matières", "Résumé"),
        "es": ("Índice", "Resumen"),
        "it": ("Indice", "Sommario"),
        "pt": ("Sumário", "Resumo"),
        "nl": ("Inhoudsopgave", "Samenvatting"),
        "sv": ("Innehåll", "Sammanfattning"),
        "da": ("Indhold", "Resumé"),
        "nb": ("Innhold", "Sammendrag"),
        "fi": ("Sisällys", "Tiivistelmä"),
        "pl": ("Spis treści", "Streszczenie"),
        "cs": ("Obsah", "Abstrakt"),
        "ru": ("Содержание", "Аннотация"),
        "ja": ("目次", "概要"),
        "zh": ("目录", "摘要"),
        "no": ("Innhold", "Sammendrag"),
        "hu": ("Tartalomjegyzék", "Kivonat"),
        "tr": ("İçindekiler", "Özet"),
        "uk": ("Зміст", "Анотація"),
        "el": ("Περιεχόμενα", "Περίληψη"),
        "he": ("תוכן העניינים", "תקציר"),
        "ar": ("المحتويات", "ملخص"),
        "fa": ("فهرست مطالب", "چکیده"),
        "hi": ("विषय सूची", "सारांश"),
        "th": ("สารบัญ", "บทคัดย่อ"),
    ]
}
