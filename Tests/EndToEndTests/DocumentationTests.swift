import Foundation
import TestSupport
import Testing

/// The README and `docs/` say what the project is: the README stays short, names the packages
/// the Makefile installs and every command `typeset help` lists, and no link in either points
/// at a file or heading that is not there.
@Suite struct DocumentationTests {
    static let root = Render.packageRoot

    /// README.md and every Markdown file under docs/, with their paths relative to the root.
    static func documents() throws -> [(path: String, text: String)] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: root + "/docs")
            .filter { $0.hasSuffix(".md") }
            .sorted()
            .map { "docs/" + $0 }
        return try (["README.md"] + docs).map { path in
            (path, try String(contentsOfFile: root + "/" + path, encoding: .utf8))
        }
    }

    /// A newcomer reads the README in minutes: it stays under 15 KB; the rest is in docs/.
    @Test func readmeIsShort() throws {
        let size = try Data(contentsOf: URL(fileURLWithPath: Self.root + "/README.md")).count
        #expect(size < 15_000, "README.md is \(size) bytes")
    }

    /// The README's package list is the Makefile's `APT_PACKAGES`, in the same order.
    @Test func readmeListsTheMakefilesPackages() throws {
        let makefile = try String(contentsOfFile: Self.root + "/Makefile", encoding: .utf8)
        let assignment = try #require(
            makefile.range(
                of: #"APT_PACKAGES = (?:[^\n]*\\\n)*[^\n]*"#,
                options: .regularExpression))
        let packages = makefile[assignment]
            .dropFirst("APT_PACKAGES = ".count)
            .split(whereSeparator: { $0 == " " || $0 == "\\" || $0 == "\n" })
            .map(String.init)
        #expect(packages.count > 10)
        let readme = try String(contentsOfFile: Self.root + "/README.md", encoding: .utf8)
        // The fenced block that starts with the first package.
        let blocks = readme.components(separatedBy: "```\n")
        let listed = try #require(blocks.first { $0.hasPrefix(packages[0] + " ") })
            .split(whereSeparator: { $0 == " " || $0 == "\n" })
            .map(String.init)
        #expect(listed == packages, "README \(listed)\nMakefile \(packages)")
    }

    /// Every command `typeset help` lists is in the README's synopsis.
    @Test func readmeSynopsisNamesEveryCommand() throws {
        let help = try typeset(["help"])
        #expect(help.status == 0)
        // Command lines are indented two spaces; their descriptions, six.
        let commands = help.output.split(separator: "\n")
            .filter { $0.hasPrefix("  typeset ") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .compactMap { line -> String? in
                let words = line.split(separator: " ").dropFirst()
                guard let first = words.first else { return nil }
                // `theme import`, `theme check`: the subcommand names the line.
                if first == "theme", words.count > 1 { return "theme " + words.dropFirst().first! }
                return String(first)
            }
        #expect(commands.count >= 8, "\(commands)")
        let readme = try String(contentsOfFile: Self.root + "/README.md", encoding: .utf8)
        for command in commands {
            #expect(
                readme.contains("typeset " + command) || readme.contains("| " + command),
                "the README's synopsis lacks `typeset \(command)`")
        }
    }

    /// Every relative link or image in the README and docs/ names a file that exists, and every
    /// `#fragment` into a Markdown file names one of its headings (GitHub's anchors).
    @Test func relativeLinksResolve() throws {
        let link = try Regex(#"\]\(([^)\s]+)\)"#)
        var checked = 0
        for (path, text) in try Self.documents() {
            let folder = (path as NSString).deletingLastPathComponent
            // Links in code are examples, not links.
            for match in Self.outsideCode(text).matches(of: link) {
                let target = String(match.output[1].substring ?? "")
                if target.contains("://") || target.hasPrefix("mailto:") { continue }
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let file = parts[0].isEmpty ? path : (folder.isEmpty ? "" : folder + "/") + parts[0]
                let resolved = (Self.root + "/" + file as NSString).standardizingPath
                #expect(FileManager.default.fileExists(atPath: resolved), "\(path): \(target)")
                if parts.count == 2, file.hasSuffix(".md"),
                    let linked = try? String(contentsOfFile: resolved, encoding: .utf8)
                {
                    #expect(Self.anchors(linked).contains(String(parts[1])), "\(path): \(target) names no heading")
                }
                checked += 1
            }
        }
        #expect(checked >= 20)
    }

    /// `text` without its fenced code blocks.
    static func outsideFences(_ text: String) -> String {
        var lines: [Substring] = []
        var fenced = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                fenced.toggle()
                continue
            }
            if !fenced { lines.append(line) }
        }
        return lines.joined(separator: "\n")
    }

    /// `text` without its fenced code blocks and inline code spans.
    static func outsideCode(_ text: String) -> String {
        outsideFences(text).replacing(try! Regex("`[^`\n]*`"), with: "")
    }

    /// The anchors GitHub gives the headings of `markdown`: lowercased, punctuation dropped,
    /// spaces as hyphens.
    static func anchors(_ markdown: String) -> Set<String> {
        var anchors = Set<String>()
        for line in outsideFences(markdown).split(separator: "\n") where line.hasPrefix("#") {
            let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
            let slug = title.lowercased().unicodeScalars
                .filter { CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == " " || $0 == "_" }
                .map { $0 == " " ? "-" : String($0) }
                .joined()
            anchors.insert(slug)
        }
        return anchors
    }
}
