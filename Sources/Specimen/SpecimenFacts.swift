import Typography

/// The classes of characters a specimen checks each role's fonts for.
public enum SampleClass: String, CaseIterable, Sendable, Hashable {
    /// Basic Latin letters, Hangul syllables, ASCII digits, common punctuation.
    case latin, hangul, digits, punctuation

    /// The heading the coverage table uses.
    public var displayName: String {
        switch self {
        case .latin: "Latin"
        case .hangul: "Hangul"
        case .digits: "Digits"
        case .punctuation: "Punctuation"
        }
    }

    /// The characters checked: the basic Latin alphabet; common and rare Hangul syllables
    /// (KS X 1001 ones and a few outside it, e.g. 똠 펲 뷁); the ten digits; ASCII and typographic
    /// punctuation.
    public var characters: String {
        switch self {
        case .latin: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
        case .hangul: "가나다라마바사아자차카타파하한글각똠펲뷁햏쌰뢔"
        case .digits: "0123456789"
        case .punctuation: ".,:;!?'\"()[]{}-–—…‘’“”&@#%*/·"
        }
    }
}

/// Which family renders one character through a role's fallback list (nil: no face has it).
public struct CharacterCoverage: Hashable, Sendable {
    /// The character checked.
    public var character: Character
    /// The family that renders it; nil when no face in the fallback list has it.
    public var family: String?
    /// Creates a coverage entry from its parts.
    public init(character: Character, family: String?) {
        self.character = character
        self.family = family
    }
}

/// What a specimen needs to know about the fonts that only the font system can say, measured by
/// the caller (the Typesetter facade, through the Pango backend) so that this module stays pure.
public struct SpecimenFacts: Sendable {
    /// Facts about one role's primary face at the role's size.
    public struct RoleFacts: Sendable {
        /// Ascent and descent (positive), x-height and cap height, pt, of the primary face at
        /// the role's size (`PangoShaper.metrics(of:)`).
        public var ascent: Double
        /// Depth below the baseline, pt (positive).
        public var descent: Double
        /// Height of lowercase `x`, pt.
        public var xHeight: Double
        /// Height of capital letters, pt.
        public var capHeight: Double
        /// The face fontconfig resolves the primary family and weight to, e.g. `Inter Bold`.
        public var face: String
        /// Per sample class, which family renders each of its characters.
        public var coverage: [SampleClass: [CharacterCoverage]]
        /// Weight without and with Bold Text (``Theme/applyingBoldText(availableWeights:)``).
        public var regularWeight: FontWeight
        /// The weight with Bold Text applied.
        public var boldWeight: FontWeight
        /// The faces those weights resolve to (`Inter Regular`, `Inter Medium`).
        public var regularFace: String
        /// The face ``boldWeight`` resolves to.
        public var boldFace: String
        /// Why Bold Text leaves the weight unchanged, when it does.
        public var boldNote: String?

        /// ascent + descent, pt: the natural line height a `lineHeightMultiple` multiplies.
        public var naturalHeight: Double { ascent + descent }

        /// Creates facts from their parts (pt for the metrics).
        public init(
            ascent: Double, descent: Double, xHeight: Double, capHeight: Double, face: String,
            coverage: [SampleClass: [CharacterCoverage]], regularWeight: FontWeight, boldWeight: FontWeight,
            regularFace: String, boldFace: String, boldNote: String? = nil
        ) {
            self.ascent = ascent
            self.descent = descent
            self.xHeight = xHeight
            self.capHeight = capHeight
            self.face = face
            self.coverage = coverage
            self.regularWeight = regularWeight
            self.boldWeight = boldWeight
            self.regularFace = regularFace
            self.boldFace = boldFace
            self.boldNote = boldNote
        }
    }

    /// One entry per role.
    public var roles: [TextRole: RoleFacts]
    /// The theme before Dynamic Type and Bold Text were applied (sizes as written, Large):
    /// the Dynamic Type table scales from it.
    public var baseTheme: Theme
    /// Every face the specimen uses, in first-use order, e.g. `Inter Bold`, `Noto Sans CJK KR Regular`.
    public var faces: [String]
    /// The width in pt of a text set in a style (its families, weight, slant, size, letter
    /// spacing and case), as the font system shapes it; nil: widths are estimated from the size.
    public var textWidth: (@Sendable (_ text: String, _ style: TextStyle) -> Double)?

    /// Creates facts from their parts.
    public init(
        roles: [TextRole: RoleFacts], baseTheme: Theme, faces: [String],
        textWidth: (@Sendable (_ text: String, _ style: TextStyle) -> Double)? = nil
    ) {
        self.roles = roles
        self.baseTheme = baseTheme
        self.faces = faces
        self.textWidth = textWidth
    }
}
