import DocumentModel

/// References to Pandoc's labelled examples (Pandoc's manual, "Numbered example lists"):
/// `@good` in the text, where an example is labelled `(@good)`, is that example's number, so
/// `As (@good) shows` reads `As (2) shows`. A `@` after a letter or figure (an address,
/// `me@good`) and one in code are left as written, and so is a label no example has (Pandoc
/// reads it as a citation).
struct ExampleReferences {
    /// The number of each labelled example.
    let numbers: [String: Int]

    /// `document` with every reference in its blocks and notes made its example's number.
    func apply(to document: Document) -> Document {
        document.mappingInlines(apply)
    }

    /// `inlines` with their references made numbers, inside emphasis, links and spans too.
    private func apply(_ inlines: [Inline]) -> [Inline] {
        inlines.map { inline in
            switch inline {
            case .text(let text) where text.containsUTF8Byte(UInt8(ascii: "@")): .text(replacing(in: text))
            case .emphasis(let children): .emphasis(apply(children))
            case .strong(let children): .strong(apply(children))
            case .strikethrough(let children): .strikethrough(apply(children))
            case .link(let destination, let title, let children):
                .link(destination: destination, title: title, children: apply(children))
            case .span(let attributes, let children): .span(attributes, apply(children))
            case .presentation(let presentation, let children): .presentation(presentation, apply(children))
            default: inline
            }
        }
    }

    /// `text` with each `@label` of a known example made its number.
    func replacing(in text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let at = rest.firstIndex(of: "@") {
            let before = rest[..<at]
            result += before
            let label = rest[rest.index(after: at)...].prefix {
                $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-")
            }
            let afterWord = (before.last ?? result.last).map { $0.isLetter || $0.isNumber } ?? false
            if !afterWord, let number = numbers[String(label)] {
                result += String(number)
                rest = rest[label.endIndex...]
            } else {
                result += "@"
                rest = rest[rest.index(after: at)...]
            }
        }
        return result + rest
    }
}
