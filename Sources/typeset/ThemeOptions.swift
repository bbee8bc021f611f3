import Typesetter
import Typography

/// The options `render` and `specimen` share: which theme and how to adapt it, paper,
/// strictness, verbosity.
enum ThemeOptions {
    /// `error` about a theme or font folder the command line named, saying which option gave
    /// it (`--theme 'nosuch': no such theme …`, `-V theme 'nosuch': …`, `--fonts 'DIR': …`);
    /// still a theme or font error (status 1). Other errors, and problems inside a theme file
    /// (placed at their `file:line:column`), are returned as they are.
    static func namingOption(of error: TypesetError, request: ThemeRequest, variables: [(String, String)] = [])
        -> TypesetError
    {
        switch error {
        case .invalidTheme(let problems):
            guard problems.count == 1, let problem = problems.first else { return error }
            let named: [(option: String, value: String?)] = [
                ("--theme", request.theme), ("-V theme", variables.last { $0.0 == "theme" }?.1),
            ]
            for (option, value) in named {
                guard let value, problem.hasPrefix("\(value): ") else { continue }
                return .invalidTheme(problems: ["\(option) '\(value)': \(problem.dropFirst(value.count + 2))"])
            }
            return error
        case .fontFolder(let path, let reason) where request.fontFolders.contains(path):
            return .fontFolder(path: "--fonts '\(path)'", reason: reason)
        default:
            return error
        }
    }

    /// The theme request the options describe.
    /// - Throws: ``UsageError`` for an unknown size category or a malformed size adjustment.
    static func request(from args: ParsedArguments) throws -> ThemeRequest {
        var request = ThemeRequest(
            theme: args.value("--theme"), fontFolders: args.all("--fonts"),
            family: args.value("--family"), boldText: args.has("--bold-text"))
        if let category = args.value("--size-category") {
            guard let sizeCategory = SizeCategory(name: category) else {
                throw UsageError(
                    "unknown size category '\(category)' (xSmall, small, medium, large, xLarge, xxLarge, xxxLarge, "
                        + "AX1…AX5)"
                )
            }
            request.sizeCategory = sizeCategory
        }
        if let adjust = args.value("--size-adjust") {
            if ["x-height", "xheight"].contains(adjust.lowercased()) {
                request.sizeAdjustment = .matchXHeight
            } else if let points = Double(adjust.hasSuffix("pt") ? String(adjust.dropLast(2)) : adjust), points.isFinite
            {
                request.sizeAdjustment = .points(points)
            } else {
                throw UsageError("--size-adjust takes a number of pt or 'x-height', not '\(adjust)'")
            }
            if request.family == nil { throw UsageError("--size-adjust goes with --family") }
            if case .points(let points)? = request.sizeAdjustment,
                let theme = try? ThemeLoader.resolve(nameOrPath: request.theme ?? "default")
            {
                // Every role's size must stay within the limits every theme obeys (1–1000 pt),
                // rather than be clamped to 1 pt or run past 1000 pt.
                let sizes = TextRole.allCases.map { theme[$0].size }
                let smallest = sizes.min() ?? 1
                let largest = sizes.max() ?? 1
                if smallest + points < TypographicLimits.size.lowerBound
                    || largest + points > TypographicLimits.size.upperBound
                {
                    let low = TypographicLimits.size.lowerBound - smallest
                    let high = TypographicLimits.size.upperBound - largest
                    throw UsageError(
                        "--size-adjust \(adjust) would set sizes from \((smallest + points).wholePointsText) to "
                            + "\((largest + points).wholePointsText) pt; "
                            + "every role's size must stay within 1–1000 pt, so with this theme N must be from "
                            + "\(low.wholePointsText) to \(high.wholePointsText)"
                    )
                }
            }
        }
        return request
    }

    /// `--paper`, if given.
    static func paper(from args: ParsedArguments) throws -> PaperSize? {
        guard let paper = args.value("--paper") else { return nil }
        do { return try PaperSize(parsing: paper) } catch { throw UsageError("--paper: \(error.description)") }
    }
}
