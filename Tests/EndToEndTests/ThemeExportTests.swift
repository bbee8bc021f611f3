import Foundation
import TestSupport
import Testing

/// `typeset theme export`: the SwiftUI export of every built-in theme parses (`swiftc -parse`)
/// and states the sizes, weights and letter spacing `theme show` states; the CSS export has one
/// class per role with the same numbers.
@Suite(.serialized) struct ThemeExportTests {
    /// Each role's size, weight and tracking as `theme show` prints them.
    static func shownRoles(_ theme: String) throws -> [String: (size: Double, weight: Int, tracking: Double?)] {
        let shown = try typeset(["theme", "show", theme])
        let json = try JSONSerialization.jsonObject(with: Data(shown.output.utf8)) as! [String: Any]
        let roles = json["roles"] as! [String: [String: Any]]
        return roles.mapValues {
            ($0["size"] as! Double, $0["weight"] as! Int, $0["tracking"] as? Double)
        }
    }

    @Test(arguments: ["default", "hig", "pretendard"]) func swiftUIParsesAndStatesTheTheme(theme: String) throws {
        let export = try typeset(["theme", "export", theme, "--format", "swiftui"])
        #expect(export.status == 0, "\(export.output)")
        let dir = try Render.scratchFolder("export")
        let file = dir + "/\(theme).swift"
        try export.output.write(toFile: file, atomically: true, encoding: .utf8)
        let parsed = try PDFProbe.run("swiftc", ["-parse", file])
        #expect(parsed.status == 0, "\(parsed.output)")
        let weights = [
            100: "ultraLight", 200: "thin", 300: "light", 400: "regular", 500: "medium", 600: "semibold",
            700: "bold", 800: "heavy", 900: "black",
        ]
        for (role, values) in try Self.shownRoles(theme) {
            let name = theme + role.prefix(1).uppercased() + role.dropFirst()
            let size = String(format: "%g", values.size)
            let line = export.output.split(separator: "\n").first { $0.contains("static let \(name) = ") }
            #expect(line?.contains("size: \(size),") == true, "\(role): \(line ?? "none")")
            #expect(line?.contains(".weight(.\(weights[values.weight]!))") == true, "\(role): \(line ?? "none")")
            if let tracking = values.tracking {
                #expect(export.output.contains(".tracking(\(String(format: "%g", tracking)))"), "\(role)")
            }
            #expect(export.output.contains("func \(name)Style() -> some View"))
        }
    }

    @Test func cssHasAClassPerRoleWithTheThemesNumbers() throws {
        let export = try typeset(["theme", "export", "default", "--format", "css"])
        #expect(export.status == 0)
        for (role, values) in try Self.shownRoles("default") {
            let name = role.reduce(into: "") { $0 += $1.isUppercase ? "-" + $1.lowercased() : String($1) }
            #expect(export.output.contains("\n.\(name) {\n"), "\(name)")
            #expect(export.output.contains("--\(name)-font-size: \(String(format: "%g", values.size))px;"), "\(name)")
            #expect(export.output.contains("--\(name)-font-weight: \(values.weight);"), "\(name)")
        }
        let bad = try typeset(["theme", "export", "default", "--format", "kotlin"])
        #expect(bad.status == 2 && bad.output.contains("swiftui, css"))
    }
}
