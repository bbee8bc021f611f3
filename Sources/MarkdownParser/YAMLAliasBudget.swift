internal import CYAML
import DocumentModel

/// Checks YAML aliases before libyaml's document loader builds the node graph, so that front
/// matter can neither recurse forever nor multiply ("billion laughs": nine aliases of nine
/// aliases … of one string is 10⁹ values in a few hundred bytes).
///
/// One pass over libyaml's event stream (O(n) in the text): every value's size is the number
/// of values it holds once every alias is expanded; an alias to a collection that is still open
/// is recursive; a stream whose aliases together stand for more than ``budget`` values, or for
/// more than ``byteBudget`` bytes of text (one long string repeated: 10 KB of front matter that
/// stood for 8 MB took 15 s and 700 MB to set), is refused. Values written out cost what their
/// text costs and are not counted: 60,000 plain keys are front matter, not a bomb. Each refusal
/// names the line and column of the alias.
enum YAMLAliasBudget {
    /// The most values (scalars and collections) the aliases of one front matter may stand
    /// for once expanded: far beyond any real front matter, and read in milliseconds.
    static let budget = 100_000
    /// The most bytes of scalar text the aliases of one front matter may stand for once
    /// expanded: 1 MiB, a hundred abstracts.
    static let byteBudget = 1 << 20

    /// A refused alias: what is wrong and where (0-based libyaml marks).
    struct Problem: Error {
        var message: String
        var line: Int, column: Int
    }

    /// nil when `text` is safe to load (or not valid YAML, which the loader then reports).
    static func check(_ text: UnsafeBufferPointer<UInt8>) -> Problem? {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) != 0 else { return nil }
        defer { yaml_parser_delete(&parser) }
        yaml_parser_set_input_string(&parser, text.baseAddress, text.count)

        // Sizes are values and bytes of scalar text, each once every alias is expanded.
        var sizes: [String: (values: Int, bytes: Int)] = [:]  // anchor → expanded size of its value
        var open: [(anchor: String?, size: (values: Int, bytes: Int))] = []  // collections being read
        var expanded = (values: 0, bytes: 0)  // what aliases stand for so far
        func anchorName(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
            pointer.map { String(cString: $0) }
        }
        func add(_ size: (values: Int, bytes: Int)) {
            guard !open.isEmpty else { return }
            open[open.count - 1].size.values = open[open.count - 1].size.values &+ size.values
            open[open.count - 1].size.bytes = open[open.count - 1].size.bytes &+ size.bytes
        }
        while true {
            var event = yaml_event_t()
            guard yaml_parser_parse(&parser, &event) != 0 else { return nil }
            defer { yaml_event_delete(&event) }
            let mark = event.start_mark
            switch event.type {
            case YAML_STREAM_END_EVENT:
                return nil
            case YAML_SCALAR_EVENT:
                let size = (values: 1, bytes: Int(event.data.scalar.length))
                if let anchor = anchorName(event.data.scalar.anchor) { sizes[anchor] = size }
                add(size)
            case YAML_SEQUENCE_START_EVENT:
                open.append((anchorName(event.data.sequence_start.anchor), (1, 0)))
            case YAML_MAPPING_START_EVENT:
                open.append((anchorName(event.data.mapping_start.anchor), (1, 0)))
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                guard let done = open.popLast() else { break }
                if let anchor = done.anchor { sizes[anchor] = done.size }
                add(done.size)
            case YAML_ALIAS_EVENT:
                let name = anchorName(event.data.alias.anchor) ?? ""
                if open.contains(where: { $0.anchor == name }) {
                    return Problem(
                        message: "alias *\(name) refers to a value that contains it (a recursive alias)",
                        line: Int(mark.line), column: Int(mark.column))
                }
                // An undefined alias is the loader's error to report.
                let size = sizes[name] ?? (1, 0)
                add(size)
                expanded.values = expanded.values &+ size.values
                expanded.bytes = expanded.bytes &+ size.bytes
            default:
                break
            }
            if expanded.values > budget || expanded.values < 0 {
                return Problem(
                    message: "aliases expand to more than \(budget) values (an alias bomb?); "
                        + "write the values out, or use fewer aliases",
                    line: Int(mark.line), column: Int(mark.column))
            }
            if expanded.bytes > byteBudget || expanded.bytes < 0 {
                return Problem(
                    message: "aliases expand to more than \(byteBudget >> 20) MiB of text (an alias bomb?); "
                        + "write the values out, or use fewer aliases",
                    line: Int(mark.line), column: Int(mark.column))
            }
        }
    }
}
