import DocumentModel

/// One element of a tagged PDF's logical structure: what a screen reader announces and reads
/// in order. Roles are the standard structure types of PDF 1.7 (ISO 32000-1 §14.8.4).
///
/// Elements travel as values from styling through layout to the renderer: a block carries the
/// path of elements from the document root to its own element (``StyledBlock/structure``), and
/// layout marks what it draws with such paths. `id` names the block an element comes from and
/// `index` the part inside it (a table row, a cell, a line), so two marks with the same role,
/// `id` and `index` are one element, even when its content runs onto the next page.
public struct StructureElement: Hashable, Sendable {
    /// PDF 1.7 standard structure types (ISO 32000-1 Tables 333–338), plus ``artifact``.
    public enum Role: String, Hashable, Sendable, CaseIterable {
        /// `P`: a paragraph.
        case paragraph = "P"
        /// `H1` … `H6`: headings by level.
        case heading1 = "H1"
        case heading2 = "H2"
        case heading3 = "H3"
        case heading4 = "H4"
        case heading5 = "H5"
        case heading6 = "H6"
        /// `L`: a list; `LI` an item, `Lbl` its bullet or number, `LBody` its content.
        case list = "L"
        case listItem = "LI"
        case label = "Lbl"
        case listBody = "LBody"
        /// `BlockQuote`: a quoted block.
        case blockQuote = "BlockQuote"
        /// `Code`: a code block.
        case code = "Code"
        /// `Table`, `TR` a row, `TH` a header cell, `TD` a data cell.
        case table = "Table"
        case tableRow = "TR"
        case tableHeader = "TH"
        case tableData = "TD"
        /// `Figure`: an image (with alternative text); `Caption` its caption.
        case figure = "Figure"
        /// A mathematical formula (PDF 32000-1 §14.8.4.5, table 340), its `/Alt` the TeX source.
        case formula = "Formula"
        case caption = "Caption"
        /// `Note`: a footnote; `Reference`: its marker in the text.
        case note = "Note"
        case reference = "Reference"
        /// `TOC`: a table of contents; `TOCI` one entry.
        case toc = "TOC"
        case tocItem = "TOCI"
        /// `Span`: a run of text inside a block.
        case span = "Span"
        /// Not content: page furniture (running heads, page numbers, rules, panels) that
        /// assistive technology skips — PDF 1.7 §14.8.2.2 artifacts. Never has children.
        case artifact = "Artifact"

        /// The heading role for level 1…6 (levels outside clamp).
        public static func heading(level: Int) -> Role {
            [.heading1, .heading2, .heading3, .heading4, .heading5, .heading6][min(6, max(1, level)) - 1]
        }
    }

    /// The structure type.
    public var role: Role
    /// The block the element belongs to (unique in a document).
    public var id: Int
    /// The part of the block (row, cell, line), 0 for the block's own element.
    public var index: Int
    /// The rarely set texts, boxed: an element is 32 bytes, and a block's path of them (a list
    /// item's paragraph has four) costs little when a document has 100,000 blocks.
    private var texts: Texts?

    /// An element's alternative text, language, header scope and list numbering, shared
    /// between copies of the element.
    private final class Texts: Hashable, Sendable {
        let alternativeText: String?
        let language: String?
        let headerScope: HeaderScope?
        let listNumbering: ListNumbering?

        init(alternativeText: String?, language: String?, headerScope: HeaderScope?, listNumbering: ListNumbering?) {
            self.alternativeText = alternativeText
            self.language = language
            self.headerScope = headerScope
            self.listNumbering = listNumbering
        }

        static func == (left: Texts, right: Texts) -> Bool {
            left.alternativeText == right.alternativeText && left.language == right.language
                && left.headerScope == right.headerScope && left.listNumbering == right.listNumbering
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(alternativeText)
            hasher.combine(language)
            hasher.combine(headerScope)
            hasher.combine(listNumbering)
        }

        /// A box for the four, nil when none is set.
        static func boxing(
            _ alternativeText: String?, _ language: String?, _ headerScope: HeaderScope?,
            _ listNumbering: ListNumbering?
        ) -> Texts? {
            alternativeText == nil && language == nil && headerScope == nil && listNumbering == nil
                ? nil
                : Texts(
                    alternativeText: alternativeText, language: language, headerScope: headerScope,
                    listNumbering: listNumbering)
        }
    }

    /// Alternative text (`/Alt`): what a figure shows, in words.
    public var alternativeText: String? {
        get { texts?.alternativeText }
        set { texts = Texts.boxing(newValue, language, headerScope, listNumbering) }
    }
    /// The language of the element's text (`/Lang`, a BCP 47 tag) when it differs from the
    /// document's.
    public var language: String? {
        get { texts?.language }
        set { texts = Texts.boxing(alternativeText, newValue, headerScope, listNumbering) }
    }
    /// What a `TH` heads when not its column (`/Scope /Row` for an HTML `<th>` heading a body
    /// row); nil for a header-row cell, which heads its column.
    public var headerScope: HeaderScope? {
        get { texts?.headerScope }
        set { texts = Texts.boxing(alternativeText, language, newValue, listNumbering) }
    }
    /// How an `L` element's items are numbered (`/ListNumbering`, PDF 1.7 §14.8.5.5, Table
    /// 347, ``ListNumbering/structureAttributeName``); nil for a bullet list.
    public var listNumbering: ListNumbering? {
        get { texts?.listNumbering }
        set { texts = Texts.boxing(alternativeText, language, headerScope, newValue) }
    }

    /// Creates an element of `role` for block `id`, part `index`.
    public init(_ role: Role, id: Int, index: Int = 0, alternativeText: String? = nil, language: String? = nil) {
        self.role = role
        self.id = id
        self.index = index
        texts = Texts.boxing(alternativeText, language, nil, nil)
    }

    /// Page furniture: not read aloud, not in the structure tree.
    public static let artifact = StructureElement(.artifact, id: 0)

    /// Whether `other` is the same element (role, block and part), whatever else it carries.
    public func isSame(as other: StructureElement) -> Bool {
        role == other.role && id == other.id && index == other.index
    }
}

extension ListNumbering {
    /// The name of this numbering among the values of the `/ListNumbering` attribute (PDF 1.7
    /// §14.8.5.5, Table 347): `Decimal`, `LowerAlpha`, `UpperAlpha`, `LowerRoman`,
    /// `UpperRoman`; nil for ``hangul``, which the table does not name.
    public var structureAttributeName: String? {
        switch self {
        case .decimal: "Decimal"
        case .lowerAlpha: "LowerAlpha"
        case .upperAlpha: "UpperAlpha"
        case .lowerRoman: "LowerRoman"
        case .upperRoman: "UpperRoman"
        case .hangul: nil
        }
    }
}
