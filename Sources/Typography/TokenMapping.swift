import Foundation

extension TokenImporter {
    /// The role names a mapping takes, as messages list them (`display, large-title, …`).
    public static var roleNames: String {
        TextRole.allCases.map { role in
            role.rawValue.reduce(into: "") { name, character in
                if character.isUppercase { name += "-" }
                name += character.lowercased()
            }
        }.joined(separator: ", ")
    }

    /// Reads a mapping file (`typeset theme import --map-file roles.json`): a JSON object whose
    /// `roles` key is written like a theme's, role → token path
    /// (`{"roles": {"body": "sys.typescale.body-large", "title": "sys.typescale.headline-large"}}`),
    /// or a flat object of token path → role (`{"sys.typescale.body-large": "body"}`). Keys
    /// starting with `$` are comments. Roles are read by ``TextRole/init(name:)``.
    /// - Returns: token path → role, as ``importTokens(_:file:mapping:base:)`` takes it.
    /// - Throws: ``ThemeError`` at the offending key or value: invalid JSON, not an object, a
    ///   value that is not a string, a name that is no role (listing the roles), a role given twice.
    public static func mapping(fromFile data: Data, file: String) throws -> [String: TextRole] {
        try placedMapping(fromFile: data, file: file).mapping
    }

    /// ``mapping(fromFile:file:)`` with where each token path is written in the file (line and
    /// column, 1-based), for a message about a path that names no token.
    /// - Throws: as ``mapping(fromFile:file:)``.
    public static func placedMapping(fromFile data: Data, file: String) throws -> (
        mapping: [String: TextRole], places: [String: (line: Int, column: Int)]
    ) {
        let root: JSONNode
        do { root = try JSONSource.parse(data) } catch {
            throw ThemeError(problems: [ThemeProblem(file: file, at: error.position, "invalid JSON: \(error.message)")])
        }
        guard let members = root.members else {
            throw ThemeError(problems: [
                ThemeProblem(
                    file: file, at: root.position, "a mapping file must be a JSON object, not \(root.typeName)")
            ])
        }
        var problems: [ThemeProblem] = []
        var mapping: [String: TextRole] = [:]
        var places: [String: (line: Int, column: Int)] = [:]
        let rolesFirst = root["roles"]?.members != nil
        let entries = (root["roles"]?.members ?? members).filter { !$0.key.hasPrefix("$") }
        var seenRoles: [TextRole: SourcePosition] = [:]
        for entry in entries {
            guard let text = entry.value.string else {
                problems.append(
                    ThemeProblem(
                        file: file, at: entry.value.position,
                        "'\(entry.key)' must map to a string (a \(rolesFirst ? "token path" : "role")), not "
                            + entry.value.typeName))
                continue
            }
            let (roleName, token, rolePosition) =
                rolesFirst ? (entry.key, text, entry.keyPosition) : (text, entry.key, entry.value.position)
            guard let role = TextRole(name: roleName) else {
                problems.append(
                    ThemeProblem(file: file, at: rolePosition, "'\(roleName)' is no role; roles are \(roleNames)"))
                continue
            }
            if rolesFirst, let first = seenRoles[role] {
                problems.append(
                    ThemeProblem(file: file, at: rolePosition, "role \(role.displayName) is already mapped at \(first)")
                )
                continue
            }
            seenRoles[role] = rolePosition
            mapping[token] = role
            let place = rolesFirst ? entry.value.position : entry.keyPosition
            places[token] = (place.line, place.column)
        }
        if !problems.isEmpty { throw ThemeError(problems: problems) }
        return (mapping, places)
    }
}
