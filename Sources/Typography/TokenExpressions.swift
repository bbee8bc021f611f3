import Foundation

/// Arithmetic in token values, as Tokens Studio writes it (`{size.base} * 1.25`,
/// `({space.md} + 2) / 2`): the four operators and parentheses over numbers with an optional
/// unit (`px`, `pt`, `rem`, `em`, `%`), after ``TokenImporter`` has put each alias's value in
/// its place. Units follow the rules of CSS `calc()`: a product or quotient has at most one
/// operand with a unit (`16px * 1.25` = `20px`), a sum's operands share a unit or have none.
enum TokenExpressions {
    /// A number and its unit ("" for none).
    struct Quantity: Equatable {
        var amount: Double
        var unit: String
    }

    /// The value of `text` as `amount` + unit (`"20px"`, `"1.5"`), or nil when it is not such an
    /// expression (a word, mixed units, division by zero, an operator with nothing after it).
    static func evaluate(_ text: String) -> String? {
        var parser = Parser(characters: Array(text))
        guard let quantity = parser.sum(), parser.atEnd, quantity.amount.isFinite else { return nil }
        let rounded = (quantity.amount * 10_000).rounded() / 10_000
        let number =
            rounded == rounded.rounded() && abs(rounded) < 1e12 ? String(Int(rounded)) : String(rounded)
        return number + quantity.unit
    }

    private struct Parser {
        let characters: [Character]
        var index = 0

        var atEnd: Bool {
            mutating get {
                skipSpaces()
                return index == characters.count
            }
        }

        mutating func skipSpaces() {
            while index < characters.count, characters[index].isWhitespace { index += 1 }
        }

        mutating func take(_ character: Character) -> Bool {
            skipSpaces()
            guard index < characters.count, characters[index] == character else { return false }
            index += 1
            return true
        }

        mutating func sum() -> Quantity? {
            guard var result = product() else { return nil }
            while true {
                let adding = take("+")
                guard adding || take("-") else { return result }
                guard let next = product() else { return nil }
                if result.unit != next.unit && !result.unit.isEmpty && !next.unit.isEmpty { return nil }
                result = Quantity(
                    amount: adding ? result.amount + next.amount : result.amount - next.amount,
                    unit: result.unit.isEmpty ? next.unit : result.unit)
            }
        }

        mutating func product() -> Quantity? {
            guard var result = factor() else { return nil }
            while true {
                let multiplying = take("*")
                guard multiplying || take("/") else { return result }
                guard let next = factor() else { return nil }
                if multiplying {
                    guard result.unit.isEmpty || next.unit.isEmpty else { return nil }
                    result = Quantity(amount: result.amount * next.amount, unit: result.unit + next.unit)
                } else {
                    guard next.unit.isEmpty || next.unit == result.unit, next.amount != 0 else { return nil }
                    let unit = next.unit.isEmpty ? result.unit : ""
                    result = Quantity(amount: result.amount / next.amount, unit: unit)
                }
            }
        }

        mutating func factor() -> Quantity? {
            if take("-") { return factor().map { Quantity(amount: -$0.amount, unit: $0.unit) } }
            if take("(") {
                guard let inner = sum(), take(")") else { return nil }
                return inner
            }
            skipSpaces()
            let start = index
            while index < characters.count, characters[index].isNumber || characters[index] == "." { index += 1 }
            guard let amount = Double(String(characters[start..<index])) else { return nil }
            let unitStart = index
            while index < characters.count, characters[index].isLetter || characters[index] == "%" { index += 1 }
            let unit = String(characters[unitStart..<index]).lowercased()
            guard ["", "px", "pt", "rem", "em", "%"].contains(unit) else { return nil }
            return Quantity(amount: amount, unit: unit)
        }
    }
}
