import Foundation

/// Figma Variables as the Figma REST API returns them (`GET /v1/files/:key/variables/local`:
/// `{"meta": {"variables": {id: variable}, "variableCollections": {id: collection}}}`, or the
/// `meta` object alone): each variable is a token whose path is its name split at `/`
/// (`typography/body/font-size`) and whose value is the one for its collection's default mode;
/// a `VARIABLE_ALIAS` value refers to the variable it names. `COLOR` variables (`r`, `g`, `b`,
/// `a` 0–1) are colours; `FLOAT` and `STRING` variables are font properties, grouped into
/// typography tokens by their last name part (`font-size`, `line-height`, `weight`, …, as
/// other property groups) or, when that names no property, by their one font scope
/// (`FONT_SIZE`, `LINE_HEIGHT`, `LETTER_SPACING`, `FONT_WEIGHT`, `FONT_FAMILY`,
/// `PARAGRAPH_SPACING`), which then stands for the last part (`typography/title/24` with
/// `FONT_SIZE` is `typography.title.fontSize`). Numbers are px (= pt). Figma's Dev Mode and plugin exports that write
/// DTCG `$value`/`$type` files are read as DTCG.
extension TokenReader {
    /// The Figma scope that names a font property, and the property's token name.
    static let figmaScopes: [String: String] = [
        "FONT_SIZE": "fontSize", "LINE_HEIGHT": "lineHeight", "LETTER_SPACING": "letterSpacing",
        "FONT_WEIGHT": "fontWeight", "FONT_FAMILY": "fontFamily", "PARAGRAPH_SPACING": "paragraphSpacing",
    ]

    /// The `meta` object of a Figma REST variables response, when `root` is one.
    static func figmaVariables(_ root: JSONNode) -> JSONNode? {
        let meta = root["meta"] ?? root
        guard meta["variables"]?.members != nil, meta["variableCollections"]?.members != nil else { return nil }
        return meta
    }

    /// Reads every variable of a Figma REST response's `meta` as a token.
    mutating func collectFigmaVariables(_ meta: JSONNode) {
        let collections = meta["variableCollections"]?.members ?? []
        var defaultMode: [String: String] = [:]
        for collection in collections {
            if let mode = collection.value["defaultModeId"]?.string { defaultMode[collection.key] = mode }
        }
        var names: [String: String] = [:]
        let variables = meta["variables"]?.members ?? []
        for variable in variables {
            if let name = variable.value["name"]?.string { names[variable.key] = name }
        }
        for variable in variables {
            let node = variable.value
            guard let name = names[variable.key], let modes = node["valuesByMode"]?.members, !modes.isEmpty
            else { continue }
            let mode = node["variableCollectionId"]?.string.flatMap { defaultMode[$0] }
            guard let value = modes.first(where: { $0.key == mode })?.value ?? modes.first?.value else { continue }
            var path = name.split(separator: "/").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            guard !path.isEmpty else { continue }
            let resolvedType = node["resolvedType"]?.string ?? ""
            let scopes = (node["scopes"]?.array ?? []).compactMap(\.string).compactMap { Self.figmaScopes[$0] }
            if resolvedType != "COLOR", Self.propertyFields[TextRole.normalizedKey(path.last!)] == nil,
                scopes.count == 1
            {
                // `typography/title/24` with the scope FONT_SIZE is the title group's font size.
                path[path.count - 1] = scopes[0]
            }
            add(
                DesignToken(
                    path: path, keyPosition: variable.keyPosition, value: figmaValue(value, names: names),
                    type: resolvedType == "COLOR" ? "color" : nil))
        }
        synthesizePropertyGroups()
    }

    /// A Figma variable value as a token value: an alias becomes a `{path}` reference, a colour
    /// a DTCG sRGB colour object; numbers and strings stay.
    func figmaValue(_ value: JSONNode, names: [String: String]) -> JSONNode {
        if value["type"]?.string == "VARIABLE_ALIAS", let id = value["id"]?.string, let target = names[id] {
            let path = target.split(separator: "/").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                !$0.isEmpty
            }
            return JSONNode(value: .string("{\(path.joined(separator: "."))}"), position: value.position)
        }
        if let red = value["r"]?.number, let green = value["g"]?.number, let blue = value["b"]?.number {
            func number(_ amount: Double) -> JSONNode {
                JSONNode(value: .number(amount, literal: String(amount)), position: value.position)
            }
            var members = [
                JSONNode.Member(
                    key: "colorSpace", keyPosition: value.position,
                    value: JSONNode(value: .string("srgb"), position: value.position)),
                JSONNode.Member(
                    key: "components", keyPosition: value.position,
                    value: JSONNode(
                        value: .array([number(red), number(green), number(blue)]), position: value.position)),
            ]
            if let alpha = value["a"]?.number {
                members.append(JSONNode.Member(key: "alpha", keyPosition: value.position, value: number(alpha)))
            }
            return JSONNode(value: .object(members), position: value.position)
        }
        return value
    }
}
