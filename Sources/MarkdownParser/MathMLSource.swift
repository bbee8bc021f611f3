import Foundation

/// A MathML `<math>` element read for the page: as TeX source for the document's formulas when
/// it is written in the presentation elements whose layout TeX has (MathML Core §3), or as its
/// text in reading order when it is not.
///
/// A `<semantics>` element shows its first child (MathML Core §3.1.4); its `<annotation>` in
/// TeX (`encoding="application/x-tex"`, as KaTeX, MathJax and Pandoc write it) is the formula's
/// own source and is taken first.
enum MathMLSource {
    /// The TeX encodings an `<annotation>` may name.
    static let texEncodings: Set<String> = ["application/x-tex", "application/x-latex", "tex", "latex", "text/x-tex"]

    /// Elements a reader never sees: the annotations of `<semantics>`, an `<mphantom>`'s
    /// content (it takes room and is not drawn) and an `<mprescripts>`'s marker.
    static let unseen: Set<String> = ["annotation", "annotation-xml", "mphantom", "none", "mprescripts"]

    /// The TeX source of the `<math>` element whose children are `children`: its TeX
    /// annotation, else its presentation MathML converted; nil when an element has no TeX form
    /// here.
    static func tex(_ children: [HTMLNode]) -> String? {
        if let annotation = texAnnotation(children) { return annotation }
        guard let source = row(children, depth: 0) else { return nil }
        let trimmed = source.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// The text of a TeX `<annotation>` of a `<semantics>` directly inside `<math>` (or inside
    /// its only `<mrow>`), trimmed; nil when there is none.
    static func texAnnotation(_ children: [HTMLNode]) -> String? {
        for case .element(let name, let attributes, let inner) in children {
            if name == "mrow" || name == "semantics" {
                if let found = texAnnotation(inner) { return found }
                continue
            }
            guard name == "annotation", let encoding = attributes["encoding"],
                texEncodings.contains(encoding.lowercased())
            else { continue }
            let text = RawHTML.text(inner).trimmingCharacters(in: .whitespacesAndNewlines)
            if !text.isEmpty { return text }
        }
        return nil
    }

    /// The text of a `<math>` element's `children` in reading order: each token element's text
    /// trimmed (white space between MathML elements is not shown), the annotations and phantoms
    /// left out, a `<semantics>` read as its first child.
    static func text(_ children: [HTMLNode]) -> String {
        var out = ""
        for node in children {
            switch node {
            case .text(let text):
                out += visible(RawHTML.collapsed(text).trimmingCharacters(in: .whitespaces))
            case .element(let name, _, let inner) where !unseen.contains(name):
                if name == "semantics" {
                    out += text(Array(elements(inner).prefix(1)))
                } else if name == "mtext" || name == "ms" {
                    out += RawHTML.collapsed(RawHTML.text(inner))
                } else {
                    out += text(inner)
                }
            default:
                continue
            }
        }
        return out
    }

    /// The element nodes among `nodes` (the white space between them left out).
    private static func elements(_ nodes: [HTMLNode]) -> [HTMLNode] {
        nodes.filter { if case .element = $0 { true } else { false } }
    }

    /// Elements nested deeper than this are not converted (the text is shown instead).
    static let maximumDepth = 48

    /// The TeX of a row of nodes (the children of `<math>`, `<mrow>`, `<msqrt>`…); nil when one
    /// of them has no TeX form.
    private static func row(_ nodes: [HTMLNode], depth: Int) -> String? {
        guard depth < maximumDepth else { return nil }
        var out = ""
        for node in nodes {
            switch node {
            case .hidden:
                continue
            case .text(let text):
                // Text outside a token element: only white space belongs there.
                guard text.allSatisfy(\.isWhitespace) else { return nil }
            case .element(let name, let attributes, let children):
                guard let tex = element(name, attributes, children, depth: depth + 1) else { return nil }
                out += tex
            }
        }
        return out
    }

    /// `tex` as a base of scripts: in braces when it is more than one character or command.
    private static func base(_ tex: String) -> String {
        let single = tex.count == 1 || (tex.hasPrefix("\\") && tex.dropFirst().allSatisfy(\.isLetter))
        return single ? tex : "{" + tex + "}"
    }

    /// The TeX of the element `name`; nil when it has none here.
    private static func element(
        _ name: String, _ attributes: [String: String], _ children: [HTMLNode], depth: Int
    ) -> String? {
        let parts = elements(children)
        // The TeX of each child element, the first as a base of scripts.
        func arguments(_ count: Int) -> [String]? {
            guard parts.count == count else { return nil }
            let converted = parts.compactMap { row([$0], depth: depth) }
            guard converted.count == count else { return nil }
            return [base(converted[0])] + converted.dropFirst()
        }
        switch name {
        case "mi":
            let text = token(children)
            if text.count > 1 || attributes["mathvariant"] == "normal" { return "\\mathrm{" + text + "}" }
            return text
        case "mn":
            return token(children)
        case "mo":
            let text = token(children)
            return text.count > 1 && text.allSatisfy(\.isLetter) ? "\\mathrm{" + text + "}" : text
        case "mtext", "ms":
            let text = RawHTML.collapsed(RawHTML.text(children))
            return "\\text{" + escaped(text) + "}"
        case "mspace":
            return "\\ "
        case "mrow", "mstyle", "mpadded", "merror", "math":
            return row(children, depth: depth)
        case "semantics":
            guard let first = parts.first else { return "" }
            return row([first], depth: depth)
        case "mphantom", "annotation", "annotation-xml":
            return ""
        case "msqrt":
            return row(children, depth: depth).map { "\\sqrt{" + $0 + "}" }
        case "mroot", "mfrac":
            guard parts.count == 2, let first = row([parts[0]], depth: depth),
                let second = row([parts[1]], depth: depth)
            else { return nil }
            return name == "mroot" ? "\\sqrt[" + second + "]{" + first + "}" : "\\frac{" + first + "}{" + second + "}"
        case "msup", "mover":
            return arguments(2).map { $0[0] + "^{" + $0[1] + "}" }
        case "msub", "munder":
            return arguments(2).map { $0[0] + "_{" + $0[1] + "}" }
        case "msubsup", "munderover":
            return arguments(3).map { $0[0] + "_{" + $0[1] + "}^{" + $0[2] + "}" }
        case "mtable":
            return table(parts, depth: depth)
        default:
            return nil
        }
    }

    /// `\begin{matrix}` … `\end{matrix}` of an `<mtable>`'s rows (`<mtr>` of `<mtd>`).
    private static func table(_ rows: [HTMLNode], depth: Int) -> String? {
        var lines: [String] = []
        for row in rows {
            guard case .element("mtr", _, let cells) = row else { return nil }
            var converted: [String] = []
            for cell in elements(cells) {
                guard case .element("mtd", _, let content) = cell, let tex = Self.row(content, depth: depth + 1)
                else { return nil }
                converted.append(tex)
            }
            lines.append(converted.joined(separator: " & "))
        }
        return "\\begin{matrix}" + lines.joined(separator: " \\\\ ") + "\\end{matrix}"
    }

    /// A token element's text, trimmed, TeX's special characters escaped.
    private static func token(_ children: [HTMLNode]) -> String {
        escaped(visible(RawHTML.collapsed(RawHTML.text(children)).trimmingCharacters(in: .whitespaces)))
    }

    /// `text` without the invisible operators (U+2061 function application, U+2062 invisible
    /// times, U+2063 invisible separator, U+2064 invisible plus), which show nothing.
    static func visible(_ text: String) -> String {
        text.unicodeScalars.contains { (0x2061...0x2064).contains($0.value) }
            ? String(String.UnicodeScalarView(text.unicodeScalars.filter { !(0x2061...0x2064).contains($0.value) }))
            : text
    }

    /// `text` with TeX's special characters written as the characters they stand for.
    static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "\\": out += "\\backslash "
            case "{", "}", "#", "$", "%", "&", "_": out += "\\" + String(character)
            case "^": out += "\\hat{}"
            case "~": out += "\\sim "
            default: out.append(character)
            }
        }
        return out
    }
}
