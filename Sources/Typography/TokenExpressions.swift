import Foundation

/// Arithmetic in token values, as Tokens Studio writes it (`16 * 1.25`, `{size.base} * 1.25`,
/// `({space.md} + 2) / 2`): the four operators and parentheses over numbers with an optional
/// unit (`px`, `pt`, `rem`, `em`, `%`), after ``TokenImporter`` has put each alias's value in
/// its place. A number may carry an exponent (`1e1`, `1.5e-3px`). Units follow the rules of CSS
/// `calc()`: a product or quotient has at most one operand with a unit (`16px * 1.25` = `20px`),
/// a sum's operands share a unit or have none.
enum TokenExpressions {
    /// A number and its unit ("" for none).
    struct Quantity: Equatable {
        var amount: Double
        var unit: String
    }

    /// Why a value is no arithmetic Typeset can evaluate.
    enum Failure: Error, Equatable {
        /// Something that is no number, unit, operator or parenthesis, or an operator with
        /// nothing after it, at a character offset of the text as evaluated.
        case syntax
        /// A unit other than px, pt, rem, em and %.
        case unknownUnit(String)
        /// Two units where CSS `calc()` allows one (`16px + 1rem`, `2px * 3px`).
        case mixedUnits(String, String)
        /// A quotient whose divisor is 0.
        case divisionByZero
        /// A result or intermediate value beyond the range of a double (about 1.8e308).
        case outOfRange
    }

    /// The value of `text` as `amount` + unit (`"20px"`, `"1.5"`), written without an exponent,
    /// or why it is none.
    static func evaluate(_ text: String) -> Result<String, Failure> {
        var parser = Parser(characters: Array(text))
        do {
            let quantity = try parser.sum()
            guard parser.atEnd else { return .failure(.syntax) }
            guard quantity.amount.isFinite else { return .failure(.outOfRange) }
            let rounded = (quantity.amount * 10_000).rounded() / 10_000
            return .success(written(rounded) + quantity.unit)
        } catch {
            return .failure(error)
        }
    }

    /// `amount` in plain decimal notation (`100000000000000000000`, `0.0625`), which the parser
    /// and every reader of dimensions read back; Swift's `description` writes `1e+20`.
    static func written(_ amount: Double) -> String {
        if amount == amount.rounded(), abs(amount) < 1e15 { return String(Int(amount)) }
        let text = String(format: "%.4f", amount)
        var trimmed = Substring(text)
        while trimmed.hasSuffix("0") { trimmed = trimmed.dropLast() }
        if trimmed.hasSuffix(".") { trimmed = trimmed.dropLast() }
        return String(trimmed)
    }

    /// Whether `text` is meant as arithmetic though it holds no alias, as Tokens Studio reads
    /// every string value: numbers (each perhaps followed by a unit), operators, parentheses and
    /// spaces only, with at least one operator between two operands (`16 * 1.25`, `16 / 0`,
    /// `(12 + 4)px`). A plain dimension (`-2%`, `1e1`), a family (`Inter`, `Noto Sans-Serif`)
    /// or a weight (`Semi Bold`) is not.
    static func isArithmetic(_ text: String) -> Bool {
        var previousIsOperand = false
        var sawBinaryOperator = false
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character.isWhitespace {
                index = text.index(after: index)
            } else if character.isASCII && (character.isNumber || character == ".") {
                index = afterNumber(in: text, from: index)
                // A unit directly after its number.
                while index < text.endIndex, text[index].isLetter || text[index] == "%" {
                    index = text.index(after: index)
                }
                previousIsOperand = true
            } else if "+-*/".contains(character) {
                if previousIsOperand { sawBinaryOperator = true }
                previousIsOperand = false
                index = text.index(after: index)
            } else if character == "(" {
                previousIsOperand = false
                index = text.index(after: index)
            } else if character == ")" {
                previousIsOperand = true
                index = text.index(after: index)
                while index < text.endIndex, text[index].isLetter || text[index] == "%" {
                    index = text.index(after: index)
                }
            } else {
                return false
            }
        }
        return sawBinaryOperator
    }

    /// The index after the number that starts at `start`: digits and points, then an exponent
    /// (`e`, an optional sign, digits) when one follows; `1em` keeps its `em` as a unit.
    static func afterNumber(in text: String, from start: String.Index) -> String.Index {
        var index = start
        while index < text.endIndex, text[index].isASCII, text[index].isNumber || text[index] == "." {
            index = text.index(after: index)
        }
        guard index < text.endIndex, text[index] == "e" || text[index] == "E" else { return index }
        var exponent = text.index(after: index)
        if exponent < text.endIndex, text[exponent] == "+" || text[exponent] == "-" {
            exponent = text.index(after: exponent)
        }
        guard exponent < text.endIndex, text[exponent].isASCII, text[exponent].isNumber else { return index }
        while exponent < text.endIndex, text[exponent].isASCII, text[exponent].isNumber {
            exponent = text.index(after: exponent)
        }
        return exponent
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

        mutating func sum() throws(Failure) -> Quantity {
            var result = try product()
            while true {
                let adding = take("+")
                guard adding || take("-") else { return result }
                let next = try product()
                if result.unit != next.unit && !result.unit.isEmpty && !next.unit.isEmpty {
                    throw .mixedUnits(result.unit, next.unit)
                }
                result = Quantity(
                    amount: adding ? result.amount + next.amount : result.amount - next.amount,
                    unit: result.unit.isEmpty ? next.unit : result.unit)
                guard result.amount.isFinite else { throw .outOfRange }
            }
        }

        mutating func product() throws(Failure) -> Quantity {
            var result = try factor()
            while true {
                let multiplying = take("*")
                guard multiplying || take("/") else { return result }
                let next = try factor()
                if multiplying {
                    guard result.unit.isEmpty || next.unit.isEmpty else { throw .mixedUnits(result.unit, next.unit) }
                    result = Quantity(amount: result.amount * next.amount, unit: result.unit + next.unit)
                } else {
                    guard next.unit.isEmpty || next.unit == result.unit else {
                        throw .mixedUnits(result.unit, next.unit)
                    }
                    guard next.amount != 0 else { throw .divisionByZero }
                    let unit = next.unit.isEmpty ? result.unit : ""
                    result = Quantity(amount: result.amount / next.amount, unit: unit)
                }
                guard result.amount.isFinite else { throw .outOfRange }
            }
        }

        mutating func factor() throws(Failure) -> Quantity {
            if take("-") {
                let negated = try factor()
                return Quantity(amount: -negated.amount, unit: negated.unit)
            }
            if take("(") {
                var inner = try sum()
                guard take(")") else { throw .syntax }
                // A unit after the parenthesis applies to a unitless sum: `(12 + 4)px`.
                let unit = try self.unit()
                if !unit.isEmpty {
                    guard inner.unit.isEmpty else { throw .mixedUnits(inner.unit, unit) }
                    inner.unit = unit
                }
                return inner
            }
            skipSpaces()
            let text = String(characters[index...])
            let end = TokenExpressions.afterNumber(in: text, from: text.startIndex)
            let literal = text[..<end]
            guard let amount = Double(literal) else { throw .syntax }
            guard amount.isFinite else { throw .outOfRange }
            index += literal.count
            return Quantity(amount: amount, unit: try unit())
        }

        /// The unit written directly here ("" for none), lower-cased.
        mutating func unit() throws(Failure) -> String {
            let start = index
            while index < characters.count, characters[index].isLetter || characters[index] == "%" { index += 1 }
            let unit = String(characters[start..<index]).lowercased()
            guard ["", "px", "pt", "rem", "em", "%"].contains(unit) else { throw .unknownUnit(unit) }
            return unit
        }
    }
}
