import Foundation
import Testing

@testable import Typography

/// Figma Variables as the REST API returns them (`GET /v1/files/:key/variables/local`) import
/// as tokens: names split at `/`, the default mode's value, aliases followed, colours read.
@Suite struct FigmaVariablesTests {
    static func variable(
        _ id: String, _ name: String, _ type: String, _ value: String, scopes: [String] = ["ALL_SCOPES"]
    ) -> String {
        let scopeList = scopes.map { "\"\($0)\"" }.joined(separator: ", ")
        return """
            "\(id)": {"id": "\(id)", "name": "\(name)", "key": "k\(id)",
              "variableCollectionId": "VariableCollectionId:1:0",
              "resolvedType": "\(type)", "valuesByMode": {"1:1": 1, "1:0": \(value)}, "remote": false,
              "description": "", "hiddenFromPublishing": false, "scopes": [\(scopeList)], "codeSyntax": {}}
            """
    }

    static let response = """
        {"status": 200, "error": false, "meta": {
          "variableCollections": {"VariableCollectionId:1:0": {"id": "VariableCollectionId:1:0", "name": "Type",
            "modes": [{"modeId": "1:0", "name": "Default"}, {"modeId": "1:1", "name": "Compact"}],
            "defaultModeId": "1:0", "remote": false, "hiddenFromPublishing": false, "variableIds": []}},
          "variables": {
            \(variable("VariableID:1:1", "base/family", "STRING", "\"Inter\"")),
            \(variable("VariableID:1:2", "typography/body/font-size", "FLOAT", "15")),
            \(variable("VariableID:1:3", "typography/body/line-height", "FLOAT", "22")),
            \(variable("VariableID:1:4", "typography/body/font-family", "STRING",
                "{\"type\": \"VARIABLE_ALIAS\", \"id\": \"VariableID:1:1\"}")),
            \(variable("VariableID:1:5", "typography/title/24", "FLOAT", "24", scopes: ["FONT_SIZE"])),
            \(variable("VariableID:1:6", "typography/title/weight", "FLOAT", "700")),
            \(variable("VariableID:1:7", "typography/title/tracking", "FLOAT", "-0.3")),
            \(variable("VariableID:1:8", "color/accent", "COLOR", "{\"r\": 1, \"g\": 0, \"b\": 0.5, \"a\": 1}"))
          }}}
        """

    @Test func restVariablesImportWithTheDefaultModesValues() throws {
        let data = Data(Self.response.utf8)
        #expect(TokenImporter.isTokenFile(data))
        let (theme, warnings) = try TokenImporter.importTokens(data, file: "figma.json")
        #expect(theme[.body].size == 15, "the default mode's value, not the compact mode's 1")
        #expect(theme[.body].lineHeight == .absolute(22))
        #expect(theme[.body].primaryFamily == "Inter", "the alias followed")
        #expect(theme[.title].size == 24, "a name that is no property: its FONT_SIZE scope")
        #expect(theme[.title].weight == .bold)
        #expect(theme[.title].tracking == .points(-0.3))
        #expect(theme.colors["accent"]?.hex == "#FF0080")
        #expect(!warnings.contains { $0.contains("not used") }, "\(warnings)")
    }

    @Test func theMetaObjectAloneIsReadToo() throws {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(Self.response.utf8)) as? [String: Any])
        let meta = try JSONSerialization.data(withJSONObject: json["meta"]!)
        let (theme, _) = try TokenImporter.importTokens(meta, file: "meta.json")
        #expect(theme[.body].size == 15)
    }
}
