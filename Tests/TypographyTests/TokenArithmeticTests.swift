import Foundation
import Testing

@testable import Typography

/// Arithmetic in token values is read wherever a value is, with or without an alias in it, as
/// Tokens Studio reads every string value: `16 * 1.25` as `{base} * 1.25`.
@Suite struct TokenArithmeticTests {
    /// A Tokens Studio file with one typography token, Body, whose fields are `fields` (JSON
    /// members), after `extra` tokens (JSON members) at the top.
    static func studio(_ fields: String, extra: String = "") -> String {
        """
        {\(extra.isEmpty ? "" : extra + ",")
          "body": { "type": "typography", "value": { "fontFamily": "Inter", "fontWeight": "Regular", \(fields) } }
        }
        """
    }

    /// The error messages an import of `json` is refused with (empty when it is not refused).
    static func errors(_ json: String) -> [String] {
        do {
            _ = try TokenImporter.importTokens(Data(json.utf8), file: "t.json")
            return []
        } catch let error as ThemeError {
            return error.problems.filter { $0.severity == .error }.map(\.message)
        } catch {
            return ["\(error)"]
        }
    }

    /// Every field that takes a dimension takes arithmetic written without an alias.
    @Test func arithmeticWithoutAnAliasIsEvaluatedInEveryField() throws {
        let json = Self.studio(
            #""fontSize": "16 * 1.25", "lineHeight": "(16 + 8) * 1.25", "letterSpacing": "-0.25 * 2", "#
                + #""paragraphSpacing": "4 * 3px""#)
        let (theme, warnings) = try TokenImporter.importTokens(Data(json.utf8), file: "t.json")
        let body = theme[.body]
        #expect(body.size == 20, "\(warnings)")
        #expect(body.lineHeight == .absolute(30))
        #expect(body.tracking == .points(-0.5))
        #expect(body.spaceAfter == 12)
        let rem = try TokenImporter.importTokens(
            Data(Self.studio(#""fontSize": "2rem / 2", "lineHeight": "150%""#).utf8), file: "t.json")
        #expect(rem.theme[.body].size == 16)
        // A dimension token that is arithmetic, used through an alias.
        let aliased = try TokenImporter.importTokens(
            Data(
                Self.studio(
                    #""fontSize": "{size}", "lineHeight": "150%""#,
                    extra: #""size": { "type": "dimension", "value": "(12 + 2) * 1.5" }"#
                ).utf8), file: "t.json")
        #expect(aliased.theme[.body].size == 21)
    }

    /// Division by zero is named as such whether or not an alias is in the expression.
    @Test func divisionByZeroIsNamedWithOrWithoutAnAlias() {
        #expect(Self.errors(Self.studio(#""fontSize": "16 / 0""#)) == ["expression '16 / 0' divides by zero"])
        #expect(
            Self.errors(Self.studio(#""fontSize": "16px / (2 - 2)""#))
                == ["expression '16px / (2 - 2)' divides by zero"])
        let withUnits = Self.studio(
            #""fontSize": "16px / ({zero} * 1px)""#, extra: #""zero": { "type": "number", "value": "0" }"#)
        #expect(Self.errors(withUnits) == ["expression '16px / ({zero} * 1px)' divides by zero"])
    }

    /// Numbers written with an exponent, and intermediate values too large for twelve digits,
    /// are arithmetic, read in place or through an alias.
    @Test func exponentsAndLargeIntermediatesAreArithmetic() throws {
        func size(_ json: String) throws -> Double {
            try TokenImporter.importTokens(Data(json.utf8), file: "t.json").theme[.body].size
        }
        let exponent = Self.studio(
            #""fontSize": "{a} + 6", "lineHeight": "150%""#, extra: #""a": { "type": "number", "value": "1e1" }"#)
        #expect(try size(exponent) == 16)
        #expect(try size(Self.studio(#""fontSize": "1.5e1 + 1", "lineHeight": "150%""#)) == 16)
        #expect(try size(Self.studio(#""fontSize": "16e0px * 1", "lineHeight": "150%""#)) == 16)
        let large = Self.studio(
            #""fontSize": "{big} / 1e19", "lineHeight": "150%""#,
            extra: #""a": { "type": "number", "value": 100000 }, "#
                + #""big": { "type": "number", "value": "{a} * {a} * {a} * {a}" }"#)
        #expect(try size(large) == 10)
        let inOne = Self.studio(
            #""fontSize": "{a} * {a} * {a} * {a} / 1e19", "lineHeight": "150%""#,
            extra: #""a": { "type": "number", "value": 100000 }"#)
        #expect(try size(inOne) == 10)
        // `1em` is a unit, not an exponent.
        let em = Self.studio(#""fontSize": "16", "lineHeight": "150%", "letterSpacing": "0.01em * 2""#)
        #expect(
            try TokenImporter.importTokens(Data(em.utf8), file: "t.json").theme[.body].tracking == .percentOfSize(2))
    }

    /// What is not arithmetic still refuses the import, saying why; values that merely hold a
    /// hyphen or a number (families, weights, percentages) are not read as arithmetic.
    @Test func whatIsNotArithmeticIsRefusedAndWordsAreLeftAlone() throws {
        let syntax = Self.errors(Self.studio(#""fontSize": "16 * * 2""#))
        #expect(syntax.count == 1 && syntax[0].hasPrefix("expression '16 * * 2' is not arithmetic"), "\(syntax)")
        let mixed = Self.errors(Self.studio(#""fontSize": "16px + 1rem""#))
        #expect(mixed.count == 1 && mixed[0].contains("mixes px and rem"), "\(mixed)")
        let unit = Self.errors(Self.studio(#""fontSize": "12furlong * 2""#))
        #expect(unit.count == 1 && unit[0].contains("'furlong' is no unit"), "\(unit)")
        let huge = Self.errors(
            Self.studio(#""fontSize": "{a} * {a} / 2""#, extra: #""a": { "type": "number", "value": "1e200" }"#))
        #expect(huge.count == 1 && huge[0].contains("too large"), "\(huge)")
        let words = """
            { "body": { "type": "typography", "value": { "fontFamily": "Noto Sans-Serif, Inter",
              "fontWeight": "Semi Bold", "fontSize": "16", "lineHeight": "150%", "letterSpacing": "-2%" } } }
            """
        let (theme, _) = try TokenImporter.importTokens(Data(words.utf8), file: "t.json")
        #expect(theme[.body].families.prefix(2) == ["Noto Sans-Serif", "Inter"])
        #expect(theme[.body].weight == .semibold)
        #expect(theme[.body].tracking == .percentOfSize(-2))
    }

    /// The evaluator itself: exponents, a unit after a parenthesis, results written without an
    /// exponent so that they read back.
    @Test(arguments: [
        ("1e1 + 6", "16"), ("1.5e-1 * 100px", "15px"), ("(12 + 4)px", "16px"),
        ("100000 * 100000 * 100000", "1000000000000000"),
        ("1e20 / 1e19", "10"), ("-2%", "-2%"), ("2 * -3", "-6"),
    ])
    func evaluates(_ text: String, _ expected: String) throws {
        #expect(try TokenExpressions.evaluate(text).get() == expected)
    }
}
