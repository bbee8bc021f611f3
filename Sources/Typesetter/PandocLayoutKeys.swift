import Foundation
import Typography

/// The variables Pandoc's LaTeX template reads for the page and the type (Pandoc manual,
/// "Variables for LaTeX": `papersize`, `geometry`, `fontsize`, `linestretch`, `mainfont`,
/// `sansfont`, `monofont`), read the same way from front matter and from `-V KEY=VALUE`. Each
/// reading returns the value Typeset uses, or throws a ``Problem`` whose message says what the
/// key takes.
public enum PandocLayoutKeys {
    /// A value a key cannot take: the message says what it takes, without naming where the
    /// value came from (the caller says `front matter 'fontsize'` or `-V fontsize`).
    public struct Problem: Error, Sendable, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// The keys read here, lowercased.
    public static let keys: Set<String> = [
        "papersize", "geometry", "fontsize", "linestretch", "mainfont", "sansfont", "monofont",
    ]

    /// `papersize`: LaTeX's paper name, `a4` or `a4paper`, as a ``PaperSize`` name.
    public static func paperName(_ value: String) -> String {
        var name = value.trimmingCharacters(in: .whitespaces).lowercased()
        if name.hasSuffix("paper") { name = String(name.dropLast(5)) }
        return name
    }

    /// `fontsize`: the Body size in pt, such as `12pt`, within ``TypographicLimits/size``.
    /// - Throws: ``Problem`` for anything else.
    public static func bodySize(_ value: String) throws(Problem) -> Double {
        guard let points = Length.points(value), TypographicLimits.size.contains(points) else {
            throw Problem("takes a size such as 12pt (1–1000 pt), not '\(value)'")
        }
        return points
    }

    /// `linestretch`: a factor on every role's line height, from 0.5 to 4.
    /// - Throws: ``Problem`` for anything else.
    public static func lineStretch(_ value: String) throws(Problem) -> Double {
        guard let factor = Double(value.trimmingCharacters(in: .whitespaces)), (0.5...4).contains(factor) else {
            throw Problem("takes a factor from 0.5 to 4 (1.5: half as much again), not '\(value)'")
        }
        return factor
    }

    /// What a `geometry` value sets (``geometry(_:)``).
    public struct Geometry: Sendable, Equatable {
        /// The margins it sets: CSS side (`top`, `right`, `bottom`, `left`) → length as written.
        public var sides: [String: String] = [:]
        /// The paper's name as ``PaperSize`` reads it (`a4`, from `a4paper` or `paper=a4paper`).
        public var paperName: String?
        /// The paper's width and height as written (`paperwidth=`, `paperheight=`, `papersize=`).
        public var paperWidth: String?
        public var paperHeight: String?
        /// `landscape` (true) or `portrait` (false), when an option turns the paper.
        public var landscape: Bool?
        /// The options Typeset does not apply (the text block's size, the running head's
        /// space, a binding offset, `showframe`, a misspelt key), each as written.
        public var ignored: [String] = []

        /// The paper it names, as ``PaperSize/init(parsing:)`` reads it (`a4`, `6in x 9in`),
        /// unturned; nil when no option names one.
        /// - Throws: ``Problem`` when a width is given without a height, or the other way round.
        public func paper() throws(Problem) -> String? {
            guard paperWidth != nil || paperHeight != nil else { return paperName }
            guard let paperWidth, let paperHeight else {
                throw Problem("gives the paper's \(paperWidth == nil ? "height" : "width") alone; give both")
            }
            return "\(paperWidth) x \(paperHeight)"
        }

        /// `paper` (as ``PaperSize/init(parsing:)`` reads it) turned as ``landscape`` says.
        public func turning(_ paper: String) -> String {
            guard let landscape else { return paper }
            return paper + (landscape ? " landscape" : " portrait")
        }

        /// The warning for `landscape` or `portrait` given with no paper to turn.
        public var unturnedMessage: String? {
            guard let landscape else { return nil }
            return "option '\(landscape ? "landscape" : "portrait")' turns the paper geometry or papersize names, and "
                + "neither names one (a4paper, papersize: a4); ignored"
        }
    }

    /// `geometry`: the LaTeX geometry package's options, as Pandoc hands them to it
    /// (`margin=2cm`, `a4paper, top=1in, left=2cm`, or a YAML list of them). Typeset applies the
    /// paper (`a4paper`, `paper=`, `papername=`, `paperwidth=`, `paperheight=`, `papersize=`;
    /// `landscape` and `portrait` turn it, or the paper `papersize` names) and the margins
    /// (`margin`, `hmargin`, `vmargin` — one length, or `{A,B}` as the package reads it —
    /// `top`, `bottom`, `left`, `right`, `inner`, `outer`, `tmargin`, `bmargin`, `lmargin`,
    /// `rmargin`); later options win. Every other option is listed in ``Geometry/ignored``.
    /// - Throws: ``Problem`` for a margin or paper length without a unit, or a paper name
    ///   ``PaperSize`` does not know.
    public static func geometry(_ value: String) throws(Problem) -> Geometry {
        var geometry = Geometry()
        func length(_ written: String, _ key: String) throws(Problem) -> String {
            guard Length.pointsWithUnit(written) != nil else {
                throw Problem("option \(key) takes a length with a unit (2cm), not '\(written)'")
            }
            return written
        }
        func pair(_ written: String, _ key: String) throws(Problem) -> (String, String) {
            let parts = braced(written).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2 { return (try length(parts[0], key), try length(parts[1], key)) }
            let one = try length(parts.joined(separator: ","), key)
            return (one, one)
        }
        for option in topLevelOptions(value) {
            let parts = option.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            let key = parts[0].lowercased()
            guard parts.count == 2 else {
                if key == "landscape" || key == "portrait" {
                    geometry.landscape = key == "landscape"
                } else if key.hasSuffix("paper") && key.count > 5 || Self.isJISPreset(key) {
                    geometry.paperName = try paperName(key, option: option)
                } else {
                    geometry.ignored.append(option)
                }
                continue
            }
            let value = parts[1]
            switch key {
            case "margin":
                let (horizontal, vertical) = try pair(value, key)
                for side in ["right", "left"] { geometry.sides[side] = horizontal }
                for side in ["top", "bottom"] { geometry.sides[side] = vertical }
            case "hmargin": (geometry.sides["left"], geometry.sides["right"]) = try pair(value, key)
            case "vmargin": (geometry.sides["top"], geometry.sides["bottom"]) = try pair(value, key)
            case "top", "tmargin": geometry.sides["top"] = try length(value, key)
            case "bottom", "bmargin": geometry.sides["bottom"] = try length(value, key)
            case "left", "lmargin", "inner": geometry.sides["left"] = try length(value, key)
            case "right", "rmargin", "outer": geometry.sides["right"] = try length(value, key)
            case "paper", "papername": geometry.paperName = try paperName(value, option: option)
            case "paperwidth": geometry.paperWidth = try length(value, key)
            case "paperheight": geometry.paperHeight = try length(value, key)
            case "papersize": (geometry.paperWidth, geometry.paperHeight) = try pair(value, key)
            case "landscape", "portrait":
                let on = ["true", "yes", "on"].contains(value.lowercased())
                geometry.landscape = (key == "landscape") == on
            default: geometry.ignored.append(option)
            }
        }
        return geometry
    }

    /// Whether `key` is one of the geometry package's JIS B presets, `b0j` … `b6j`.
    private static func isJISPreset(_ key: String) -> Bool {
        key.count == 3 && key.hasPrefix("b") && key.hasSuffix("j") && key.dropFirst().first?.isNumber == true
    }

    /// A geometry paper option's name (`a4paper`, `b5j`) as ``PaperSize`` names it.
    private static func paperName(_ written: String, option: String) throws(Problem) -> String {
        var name = paperName(written)
        if isJISPreset(name) { name = "jis-" + name.dropLast() }
        guard (try? PaperSize(parsing: name)) != nil else {
            throw Problem("names a paper Typeset does not know, '\(option)' (a4paper, letterpaper, legalpaper…)")
        }
        return name
    }

    /// `value`'s comma-separated options, commas inside braces kept (`hmargin={1cm,2cm}`),
    /// empty ones dropped.
    private static func topLevelOptions(_ value: String) -> [String] {
        var options: [String] = []
        var current = ""
        var depth = 0
        for character in value {
            if character == "{" { depth += 1 }
            if character == "}" { depth = max(0, depth - 1) }
            if character == ",", depth == 0 {
                options.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        options.append(current)
        return options.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// A braced value's parts (`{1cm,2cm}` → `1cm`, `2cm`); an unbraced value whole.
    private static func braced(_ value: String) -> [String] {
        guard value.hasPrefix("{"), value.hasSuffix("}") else { return [value] }
        return value.dropFirst().dropLast().split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }

    /// The warning for the geometry options Typeset does not apply (``Geometry/ignored``), or
    /// nil when there are none.
    public static func ignoredGeometryMessage(_ options: [String]) -> String? {
        guard !options.isEmpty else { return nil }
        let list = options.map { "'\($0)'" }.joined(separator: ", ")
        return "\(options.count == 1 ? "option" : "options") \(list) "
            + "\(options.count == 1 ? "is" : "are") not applied (Typeset reads the paper and the margins of "
            + "geometry's options); ignored"
    }

    /// `sides` read by ``geometry(_:)`` as a `margins` value (top, right, bottom, left).
    /// - Throws: ``Problem`` when a side is left unset.
    public static func margins(_ sides: [String: String]) throws(Problem) -> String {
        let order = ["top", "right", "bottom", "left"]
        guard order.allSatisfy({ sides[$0] != nil }) else {
            throw Problem(
                "leaves \(order.filter { sides[$0] == nil }.joined(separator: ", ")) unset; give margin=LENGTH, or "
                    + "every side")
        }
        return order.map { sides[$0]! }.joined(separator: " ")
    }
}
