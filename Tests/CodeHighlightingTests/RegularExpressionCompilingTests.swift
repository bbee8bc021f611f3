import CodeHighlighting
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The highlighting library's regular expressions are compiled to machine code for whole
/// matches only: Qt's call to PCRE2's `pcre2_jit_compile_16` reaches the highlighting library's
/// own, which drops the two partial-matching modes KSyntaxHighlighting never runs.
@Suite struct RegularExpressionCompilingTests {
    @Test func qtsCompilingReachesTheHighlightingLibrary() throws {
        let definition = try #require(CodeHighlighter.definition(forLanguage: "python"))
        // Highlighting compiles the definition's expressions (and loads the library).
        #expect(CodeHighlighter.tokens(in: "x = 1  # c\n", definition: definition).contains { $0.token == .comment })
        let maps = try Self.memoryMaps()
        let line = try #require(maps.split(separator: "\n").first { $0.hasSuffix("/libTypesetSyntaxHighlighting.so") })
        let path = String(try #require(line.split(separator: " ", omittingEmptySubsequences: true).last))
        let handle = try #require(dlopen(path, RTLD_LAZY | RTLD_NOLOAD))
        defer { dlclose(handle) }
        // The first definition in the library's load order: the one Qt, loaded with it, calls.
        let compile = UInt(bitPattern: try #require(dlsym(handle, "pcre2_jit_compile_16")))
        let holder = maps.split(separator: "\n").first { line in
            let range = line.prefix { $0 != " " }.split(separator: "-").compactMap { UInt($0, radix: 16) }
            return range.count == 2 && range[0] <= compile && compile < range[1]
        }
        #expect(
            holder?.hasSuffix("/libTypesetSyntaxHighlighting.so") == true, "pcre2_jit_compile_16 is in \(holder ?? "")")
    }

    /// The process's mappings (proc(5)), read whole: the file's size is 0, and it is read
    /// until a read returns nothing.
    static func memoryMaps() throws -> String {
        let file = try #require(FileHandle(forReadingAtPath: "/proc/self/maps"))
        defer { try? file.close() }
        var bytes = Data()
        while let chunk = try file.read(upToCount: 1 << 16), !chunk.isEmpty { bytes.append(chunk) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
