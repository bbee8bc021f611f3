import DocumentModel
import Foundation

/// The HTML elements a browser draws as something other than their text — form controls,
/// media, plugins, drawings, formulas — and those it never draws, read for a printed page: what
/// a reader sees of each when a browser prints the page without scripting, plugins or media
/// playback (HTML Living Standard §15, "Rendering"), which a PDF has none of. Each element not
/// set as a browser draws it is named in the one warning per element name and ``Fate``.
extension RawHTML {
    /// Elements a browser never shows, with their content: the rendering section hides them
    /// (§15.3.1, "Hidden elements": `display: none`), a `<template>`'s content is never part of
    /// the document, and an `<iframe>`'s content is never shown (its content model is nothing):
    /// the page it frames, like what an `<embed>` embeds, cannot be set in a PDF.
    static let hidden: Set<String> = [
        "script", "style", "template", "head", "title", "meta", "link", "base", "iframe", "embed", "noembed",
        "noframes", "datalist",
    ]

    /// Media, plugins and scripted drawings, which a PDF cannot play or run: what each holds
    /// besides its sources and parameters is the fallback a browser shows when it cannot play
    /// them (§4.8.6 `<object>`, §4.8.8 media elements, §4.12.5 `<canvas>`), and it is set.
    static let fallbackElements: Set<String> = ["object", "video", "audio", "canvas"]

    /// Elements whose start tag in a paragraph's inline HTML is read together with everything up
    /// to its end tag, as one HTML fragment: what they show depends on the whole element (the
    /// option a `<select>` shows, the `<text>` of an `<svg>`, the layout of `<math>`), or their
    /// content is text (`<textarea>`, `<title>`) or never shown.
    static let readWhole: Set<String> = hidden.subtracting(voidElements).union(["select", "svg", "math", "textarea"])

    /// Elements nested in themselves when read whole (``readWhole``): a `<select>`'s start tag
    /// inside a `<select>` ends it, and the text elements end at their first end tag.
    static let nestingWhenReadWhole: Set<String> = ["svg", "math", "template", "datalist", "head"]

    /// The name of the tag `html` (lower case), and whether it is an end tag; nil for a
    /// comment, a declaration or text.
    static func tagName(_ html: String) -> (name: String, closing: Bool)? {
        let trimmed = html.drop { $0 == " " || $0 == "\t" || $0 == "\n" }
        guard trimmed.hasPrefix("<") else { return nil }
        let closing = trimmed.hasPrefix("</")
        let name = trimmed.dropFirst(closing ? 2 : 1).prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        return name.isEmpty ? nil : (name.lowercased(), closing)
    }

    /// The end (exclusive) of the element whose start tag `tag` is `inlines[start]`, when it is
    /// one read whole (``readWhole``): just past its end tag (the one that closes it, nested
    /// elements of its name counted), or the end of the sequence when it is never closed. Nil
    /// for any other tag.
    static func wholeElementEnd(_ tag: String, in inlines: [Inline], at start: Int) -> Int? {
        guard let (name, closing) = tagName(tag), !closing, readWhole.contains(name) else { return nil }
        if tag.hasSuffix("/>"), nestingWhenReadWhole.contains(name) { return start + 1 }
        var depth = 1
        for index in (start + 1)..<inlines.endIndex {
            guard case .rawHTML(let html, _) = inlines[index], let (other, ends) = tagName(html), other == name else {
                continue
            }
            if ends {
                depth -= 1
                if depth == 0 { return index + 1 }
            } else if nestingWhenReadWhole.contains(name), !html.hasSuffix("/>") {
                depth += 1
            } else if name == "select" {
                return index  // a `<select>` start tag inside a `<select>` ends it
            }
        }
        return inlines.endIndex
    }

    /// The element whose start tag `tag` is `inlines[start]`, when it is read whole
    /// (``readWhole``): the end of its inlines (``wholeElementEnd(_:in:at:)``) and what it
    /// shows, read as an HTML block's element is. Nil for any other tag.
    mutating func readWhole(
        _ tag: String, in inlines: [Inline], at start: Int, location: SourceLocation?
    ) -> (end: Int, content: [Inline])? {
        guard let end = Self.wholeElementEnd(tag, in: inlines, at: start) else { return nil }
        let nodes = HTMLFragment.parse(Self.html(of: inlines[start..<end]))
        return (end, self.inlines(nodes, location: location, depth: 0))
    }

    /// Inlines written back as HTML, to be read as one fragment: tags as written, text with `&`
    /// and `<` escaped, emphasis, strong and struck text, code and links as their HTML twins
    /// (their content alone when it holds tags, which the HTML reading pairs), line endings as
    /// newlines, hard breaks as `<br>`, anything else as its text.
    static func html(of inlines: ArraySlice<Inline>) -> String {
        var out = ""
        func escaped(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        }
        func wrapped(_ name: String, _ children: [Inline]) -> String {
            let holdsTags = children.contains { if case .rawHTML = $0 { true } else { false } }
            let inner = html(of: children[...])
            return holdsTags ? inner : "<\(name)>" + inner + "</\(name)>"
        }
        for inline in inlines {
            switch inline {
            case .rawHTML(let html, _): out += html
            case .text(let text): out += escaped(text)
            case .softBreak: out += "\n"
            case .lineBreak: out += "<br>"
            case .code(let code): out += "<code>" + escaped(code) + "</code>"
            case .emphasis(let children): out += wrapped("em", children)
            case .strong(let children): out += wrapped("strong", children)
            case .strikethrough(let children): out += wrapped("del", children)
            case .link(let destination, _, let children):
                let href = escaped(destination).replacingOccurrences(of: "\"", with: "&quot;")
                out += "<a href=\"\(href)\">" + html(of: children[...]) + "</a>"
            default: out += escaped(inline.plainText)
            }
        }
        return out
    }

    /// Whether `inlines` show nothing: no text but white space, and no picture.
    static func showsNothing(_ inlines: [Inline]) -> Bool {
        inlines.allSatisfy { inline in
            switch inline {
            case .text(let text), .code(let text): text.allSatisfy(\.isWhitespace)
            case .softBreak, .lineBreak, .anchor, .rawHTML: true
            case .image, .math, .footnoteReference: false
            case .emphasis(let children), .strong(let children), .strikethrough(let children),
                .span(_, let children), .presentation(_, let children), .link(_, _, let children):
                showsNothing(children)
            }
        }
    }

    /// The inlines of a `<noscript>`, `<button>` or media element (``fallbackElements``) whose
    /// content is `content` (from inline HTML's paired tags), with its warning; nil for any
    /// other element.
    mutating func renderedElement(_ name: String, content: [Inline], location: SourceLocation?) -> [Inline]? {
        switch name {
        case "noscript":
            // A PDF runs no scripts: what a browser with scripting disabled shows.
            return content
        case "button":
            let empty = Self.showsNothing(content)
            warnUnsupported(name, at: location, fate: empty ? .emptyControl : .control)
            return content
        case _ where Self.fallbackElements.contains(name):
            let empty = Self.showsNothing(content)
            warnUnsupported(name, at: location, fate: empty ? .noFallback : .fallback)
            return content
        default:
            return nil
        }
    }

    /// The inlines of an element of an HTML fragment that a browser draws as something other
    /// than its text, or never draws (``hidden``), with its warning; nil for any other element.
    mutating func renderedElement(
        _ name: String, _ attributes: [String: String], _ children: [HTMLNode], location: SourceLocation?, depth: Int
    ) -> [Inline]? {
        switch name {
        case "iframe", "embed":
            warnUnsupported(name, at: location, fate: .embedded)
            return []
        case _ where Self.hidden.contains(name):
            // Not descended into: nothing inside is shown, so nothing inside is warned about.
            let empty = !Self.voidElements.contains(name) && Self.text(children).allSatisfy(\.isWhitespace)
            warnUnsupported(name, at: location, fate: empty ? .tagsOnly : .hidden)
            return []
        case _ where name == "noscript" || name == "button" || Self.fallbackElements.contains(name):
            let content = inlines(children, location: location, depth: depth + 1)
            return renderedElement(name, content: content, location: location)
        case "textarea":
            return textArea(children, location: location)
        case "select":
            return select(attributes, children, location: location)
        case "svg":
            return drawing(attributes, children, location: location, depth: depth)
        case "math":
            return math(attributes, children, location: location)
        case "input":
            return input(attributes, location: location)
        default:
            return nil
        }
    }

    /// A `<textarea>`'s text, as its box shows it: its lines kept (a newline right after the
    /// start tag is dropped, as HTML's parser drops it), the spaces of each collapsed.
    private mutating func textArea(_ children: [HTMLNode], location: SourceLocation?) -> [Inline] {
        var text = Self.text(children)
        if text.hasPrefix("\n") { text.removeFirst() }
        if text.allSatisfy(\.isWhitespace) {
            warnUnsupported("textarea", at: location, fate: .emptyControl)
            return []
        }
        warnUnsupported("textarea", at: location, fate: .control)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            Inline.text(Self.collapsed(String($0)))
        }
        return Array(lines.map { [$0] }.joined(separator: [.lineBreak]))
    }

    /// The text an `<option>` shows: its `label`, else its text with white space stripped and
    /// collapsed (HTML, "The option element").
    private static func optionLabel(_ attributes: [String: String], _ children: [HTMLNode]) -> String {
        if let label = attributes["label"], !label.isEmpty { return label }
        return collapsed(text(children)).trimmingCharacters(in: .whitespaces)
    }

    /// The `<option>` elements of a `<select>`'s children, in tree order (inside `<optgroup>`
    /// elements too).
    private static func options(_ nodes: [HTMLNode]) -> [(attributes: [String: String], children: [HTMLNode])] {
        var found: [(attributes: [String: String], children: [HTMLNode])] = []
        for case .element(let name, let attributes, let children) in nodes {
            if name == "option" {
                found.append((attributes, children))
            } else {
                found += options(children)
            }
        }
        return found
    }

    /// A `<select>`: a drop-down box shows one option, the last marked `selected`, else the
    /// first not `disabled` (HTML, "The select element", its selectedness setting algorithm); a
    /// list box (`multiple`, or `size` over 1) shows its options one under another.
    private mutating func select(
        _ attributes: [String: String], _ children: [HTMLNode], location: SourceLocation?
    ) -> [Inline] {
        let options = Self.options(children)
        guard !options.isEmpty else {
            warnUnsupported("select", at: location, fate: .emptyControl)
            return []
        }
        if attributes["multiple"] != nil || (Self.spanValue(attributes["size"]) ?? 1) > 1 {
            warnUnsupported("select", at: location, fate: .listBox)
            let labels = options.map { [Inline.text(Self.optionLabel($0.attributes, $0.children))] }
            return [.lineBreak] + Array(labels.joined(separator: [.lineBreak])) + [.lineBreak]
        }
        warnUnsupported("select", at: location, fate: .selected)
        let shown =
            options.last { $0.attributes["selected"] != nil } ?? options.first { $0.attributes["disabled"] == nil }
            ?? options[0]
        return [.text(Self.optionLabel(shown.attributes, shown.children))]
    }

    /// SVG elements whose content is never drawn (or drawn only where another element uses it).
    static let undrawnInDrawing: Set<String> = [
        "title", "desc", "metadata", "style", "script", "defs", "symbol", "clippath", "mask", "pattern", "marker",
        "lineargradient", "radialgradient", "filter",
    ]

    /// The words an `<svg>` draws: the text of each `<text>` element (with its `<tspan>` and
    /// `<textPath>`), a space between two, and the HTML of a `<foreignObject>`. SVG draws no
    /// other text (SVG 2 §11, "Text").
    private mutating func drawnWords(
        _ nodes: [HTMLNode], inText: Bool, location: SourceLocation?, depth: Int
    ) -> [Inline] {
        var result: [Inline] = []
        for node in nodes {
            switch node {
            case .text(let text) where inText:
                result.append(.text(Self.collapsed(text)))
            case .element("text", _, let children) where !inText:
                let words = Self.trimmed(drawnWords(children, inText: true, location: location, depth: depth + 1))
                if !words.isEmpty { result += (result.isEmpty ? [] : [.text(" ")]) + words }
            case .element("foreignobject", _, let children):
                let content = Self.trimmed(inlines(children, location: location, depth: depth + 1))
                if !content.isEmpty { result += (result.isEmpty ? [] : [.text(" ")]) + content }
            case .element(let name, _, let children) where !Self.undrawnInDrawing.contains(name):
                result += drawnWords(children, inText: inText, location: location, depth: depth + 1)
            default:
                continue
            }
        }
        return result
    }

    /// An `<svg>`, whose drawing a PDF page here does not hold: the words it draws; with none,
    /// its name (`aria-label`, else its `<title>`) in its place, as an image that cannot be
    /// drawn shows its alt text.
    private mutating func drawing(
        _ attributes: [String: String], _ children: [HTMLNode], location: SourceLocation?, depth: Int
    ) -> [Inline] {
        let words = drawnWords(children, inText: false, location: location, depth: depth)
        if !Self.showsNothing(words) {
            warnUnsupported("svg", at: location, fate: .drawingText)
            return words
        }
        var name = attributes["aria-label"].map { Self.collapsed($0).trimmingCharacters(in: .whitespaces) } ?? ""
        if name.isEmpty {
            for case .element("title", _, let title) in children {
                name = Self.collapsed(Self.text(title)).trimmingCharacters(in: .whitespaces)
                break
            }
        }
        warnUnsupported("svg", at: location, fate: name.isEmpty ? .drawingOnly : .drawingTitle)
        return name.isEmpty ? [] : [.text(name)]
    }

    /// A MathML `<math>`: a formula of the document from its TeX annotation or its presentation
    /// elements (``MathMLSource``), displayed when `display="block"`; else its text in reading
    /// order, with a warning.
    private mutating func math(
        _ attributes: [String: String], _ children: [HTMLNode], location: SourceLocation?
    ) -> [Inline] {
        let display = attributes["display"]?.lowercased() == "block"
        if let tex = MathMLSource.tex(children) {
            return [.math(tex, display: display, location: location)]
        }
        let text = MathMLSource.text(children)
        guard !text.isEmpty else {
            warnUnsupported("math", at: location, fate: .tagsOnly)
            return []
        }
        warnUnsupported("math", at: location, fate: .mathText)
        return [.text(text)]
    }

    /// An `<input>`: the text its box shows — its `value`, else its `placeholder` (a password's
    /// value as bullets; a submit or reset button without a value its default label); a
    /// checkbox or radio button as a box or circle, filled when `checked`; an image button its
    /// `alt`. A hidden input shows nothing in a browser either: silently nothing.
    private mutating func input(_ attributes: [String: String], location: SourceLocation?) -> [Inline] {
        let type = attributes["type"]?.trimmingCharacters(in: .whitespaces).lowercased() ?? "text"
        let value = attributes["value"].flatMap { $0.isEmpty ? nil : $0 }
        let placeholder = attributes["placeholder"].flatMap { $0.isEmpty ? nil : $0 }
        var text: String?
        switch type {
        case "hidden":
            return []
        case "checkbox", "radio":
            let checked = attributes["checked"] != nil
            let mark = type == "checkbox" ? (checked ? "☑" : "☐") : (checked ? "◉" : "○")
            warnUnsupported("input", at: location, fate: .checkbox)
            return [.text(mark)]
        case "submit": text = value ?? "Submit"
        case "reset": text = value ?? "Reset"
        case "button": text = value
        case "image": text = attributes["alt"].flatMap { $0.isEmpty ? nil : $0 } ?? value
        case "file", "range", "color": text = nil
        case "password": text = value.map { String(repeating: "•", count: $0.count) } ?? placeholder
        default: text = value ?? placeholder
        }
        guard let text else {
            warnUnsupported("input", at: location, fate: .emptyField)
            return []
        }
        warnUnsupported("input", at: location, fate: .control)
        return [.text(Self.collapsed(text))]
    }
}
