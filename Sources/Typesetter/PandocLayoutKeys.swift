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

    /// `geometry`: the LaTeX geometry package's options, `margin=2cm` or `top=1in, left=2cm, …`
    /// (also `hmargin`, `vmargin`, `inner`, `outer`), read into `sides` (CSS side → length).
    /// - Throws: ``Problem`` for an option that is no margin or a length without a unit.
    public static func readGeometry(_ value: String, into sides: inout [String: String]) throws(Problem) {
        for option in value.split(separator: ",") {
            let parts = option.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, Length.pointsWithUnit(parts[1]) != nil else {
                throw Problem("takes margin=LENGTH or SIDE=LENGTH with a unit (2cm), not '\(option)'")
            }
            let length = parts[1]
            switch parts[0].lowercased() {
            case "margin": for side in ["top", "right", "bottom", "left"] { sides[side] = length }
            case "hmargin": for side in ["right", "left"] { sides[side] = length }
            case "vmargin": for side in ["top", "bottom"] { sides[side] = length }
            case "top", "bottom", "left", "right": sides[parts[0].lowercased()] = length
            case "inner": sides["left"] = length
            case "outer": sides["right"] = length
            default:
                throw Problem(
                    "takes margin, hmargin, vmargin, top, bottom, left, right, inner or outer, not '\(parts[0])'")
            }
        }
    }

    /// `sides` read by ``readGeometry(_:into:)`` as a `margins` value (top, right, bottom, left).
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
