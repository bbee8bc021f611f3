import DocumentModel
import Foundation
import Styling

/// What a book changes in each file's blocks: heading ids made explicit and unique across the
/// files, links between the files turned into links inside the document, footnotes numbered
/// on through the book, image paths made relative to the book's folder.
struct BookPlan {
    /// What one chapter's blocks become (immutable once planned; read from any thread).
    struct ChapterPlan: Sendable {
        var file: String
        /// The chapter's folder, absolute.
        var folder: String
        /// The ids of the headings inside each top-level block, in reading order (nil: a heading
        /// whose written id is taken in its own file, or one with no text: left as written).
        var headingIDs: [[String?]] = []
        /// Each id the file claims (headings', divs', spans', anchors'), as the file has it, to
        /// the id the book gives it.
        var renamed: [String: String] = [:]
        /// Matches a fragment (`#Setup`, `#setup`) to one of the file's own ids, as the file has it.
        var matcher = AnchorMatcher(anchors: [])
        /// The destination of a link to the file itself: its first heading, or an anchor at its top.
        var anchor = ""
        /// The anchor set at the chapter's top, when its first block is not a heading.
        var insertedAnchor: String?
        /// Added to every footnote number of the file.
        var footnoteOffset = 0
        /// Put before a relative image path (nil: the chapter shares the book's folder).
        var imagePrefix: String?
        /// Links to other files of the book, with the block they are in, for the check of their fragments.
        var crossLinks: [(destination: String, location: SourceLocation?)] = []
    }

    let chapters: [BookChapter]
    var plans: [ChapterPlan]
    /// Chapter index by file key.
    let byKey: [String: Int]

    init(chapters: [BookChapter], rootFolder: String, rebasesImages: Bool) {
        self.chapters = chapters
        var byKey: [String: Int] = [:]
        for (index, chapter) in chapters.enumerated() where byKey[chapter.key] == nil { byKey[chapter.key] = index }
        self.byKey = byKey
        var offset = 0
        plans = chapters.map { chapter in
            let folder = (chapter.key as NSString).deletingLastPathComponent
            var plan = ChapterPlan(file: chapter.file, folder: folder)
            plan.footnoteOffset = offset
            offset += chapter.document.footnotes.keys.max() ?? 0
            if rebasesImages, folder != rootFolder {
                plan.imagePrefix =
                    BookPaths.isInside(folder, root: rootFolder)
                    ? String(folder.dropFirst(rootFolder.count + 1)) + "/" : folder + "/"
            }
            return plan
        }
    }

    // MARK: Identifiers

    /// Reads every file's ids (as the styler gives them: written ids claimed, headings slugged
    /// in order), renames those an earlier file already uses, and checks the fragments of the
    /// links between files. Returns a warning for each such link whose fragment names nothing.
    mutating func assignIdentifiers() -> [Diagnostic] {
        var taken = Set<String>()
        for index in chapters.indices {
            let claims = collectIdentifiers(of: index)
            let stem = Self.stem(of: chapters[index].file)
            for id in claims {
                var final = id
                if taken.contains(id) { final = Self.unused("\(stem)-\(id)", in: taken) }
                taken.insert(final)
                if plans[index].renamed[id] == nil { plans[index].renamed[id] = final }
            }
            plans[index].matcher = AnchorMatcher(anchors: Set(claims))
            let firstHeading = plans[index].headingIDs.first?.first ?? nil
            if case .heading = chapters[index].document.blocks.first?.kind, let firstHeading {
                plans[index].anchor = plans[index].renamed[firstHeading] ?? firstHeading
            } else {
                let anchor = Self.unused(stem, in: taken)
                taken.insert(anchor)
                plans[index].anchor = anchor
                plans[index].insertedAnchor = anchor
            }
        }
        return checkCrossLinks()
    }

    /// The ids file `index` claims, in order; fills its heading ids and its links to other files.
    mutating func collectIdentifiers(of index: Int) -> [String] {
        var slugs = SlugGenerator()
        var claims: [String] = []
        var headingIDs: [[String?]] = []
        var crossLinks: [(String, SourceLocation?)] = []
        let plan = plans[index]
        let byKey = byKey
        for block in chapters[index].document.blocks {
            var ids: [String?] = []
            _ = BookRewrite.block(
                block,
                visit: { block in
                    if case .heading(_, let inlines) = block.kind {
                        let title = inlines.plainText.trimmingCharacters(in: .whitespaces)
                        var id: String?
                        if let written = block.attributes.id {
                            id = slugs.register(written) ? written : nil
                        } else if !title.isEmpty {
                            id = slugs.slug(for: title)
                        }
                        if title.isEmpty { id = nil }
                        ids.append(id)
                        if let id { claims.append(id) }
                    } else if case .div = block.kind, let written = block.attributes.id, slugs.register(written) {
                        claims.append(written)
                    }
                },
                inline: { inline in
                    switch inline {
                    case .span(let attributes, _):
                        if let written = attributes.id, slugs.register(written) { claims.append(written) }
                    case .anchor(let written):
                        if slugs.register(written) { claims.append(written) }
                    case .link(let destination, _, _):
                        if Self.bookTarget(of: destination, folder: plan.folder, byKey: byKey) != nil {
                            crossLinks.append((destination, block.location))
                        }
                    default: break
                    }
                    return inline
                })
            headingIDs.append(ids)
        }
        plans[index].headingIDs = headingIDs
        plans[index].crossLinks = crossLinks
        return claims
    }

    /// A warning for each link to another file of the book whose fragment names no id there.
    func checkCrossLinks() -> [Diagnostic] {
        var warnings: [Diagnostic] = []
        for plan in plans {
            for (destination, location) in plan.crossLinks {
                guard let (target, fragment) = Self.bookTarget(of: destination, folder: plan.folder, byKey: byKey),
                    let fragment
                else { continue }
                if plans[target].matcher.match(fragment) == nil {
                    warnings.append(
                        Diagnostic(
                            .warning,
                            "link '\(destination)': \(plans[target].file) has no heading or id '\(fragment)'; the "
                                + "link goes to the start of its chapter",
                            at: location, kind: .link, subject: destination))
                }
            }
        }
        return warnings
    }

    /// The chapter a link into a file of the book goes to, with its fragment (nil: none, or an
    /// empty one); nil for any other destination.
    static func bookTarget(of destination: String, folder: String, byKey: [String: Int]) -> (Int, String?)? {
        guard !destination.hasPrefix("#"), !BookPaths.hasScheme(destination) else { return nil }
        let parts = destination.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let written = String(parts[0])
        let path = written.removingPercentEncoding ?? written
        guard !path.isEmpty, BookPaths.isMarkdown(path) else { return nil }
        let joined = path.hasPrefix("/") ? path : (folder as NSString).appendingPathComponent(path)
        guard let target = byKey[BookPaths.canonical(joined)] else { return nil }
        let fragment = parts.count > 1 && !parts[1].isEmpty ? String(parts[1]) : nil
        return (target, fragment)
    }

    /// The file's name without its extension, as a heading slug (`Chapter 2.md` → `chapter-2`).
    static func stem(of file: String) -> String {
        var slugs = SlugGenerator()
        return slugs.slug(for: ((file as NSString).lastPathComponent as NSString).deletingPathExtension)
    }

    /// `id`, or `id-1`, `id-2`… the first one `taken` does not hold.
    static func unused(_ id: String, in taken: Set<String>) -> String {
        var candidate = id
        var number = 0
        while taken.contains(candidate) {
            number += 1
            candidate = "\(id)-\(number)"
        }
        return candidate
    }

    // MARK: The joined document

    /// The book's top-level blocks: each chapter's, rewritten as each is read, after a page
    /// break (from the second chapter on, and before the first when chapters open on
    /// right-hand pages and a table of contents comes first, as LaTeX's `\chapter` clears to a
    /// right-hand page after `\tableofcontents`) and, when it opens with no heading, an anchor.
    func blocks(openRight: Bool, afterContents: Bool = false) -> BookBlocks {
        var segments: [BookBlocks.Segment] = []
        for (index, chapter) in chapters.enumerated() where !chapter.document.blocks.isEmpty {
            var leading: [Block] = []
            if !segments.isEmpty || (openRight && afterContents) {
                let classes = openRight ? [Block.rightHandPageClass] : []
                leading.append(Block(.pageBreak, attributes: Attributes(classes: classes)))
            }
            if let anchor = plans[index].insertedAnchor {
                leading.append(Block(.div([]), attributes: Attributes(id: anchor)))
            }
            let rewriter = BookRewrite(plan: plans[index], book: self)
            let language = chapterLanguage(index)
            segments.append(
                BookBlocks.Segment(
                    leading: leading, blocks: chapter.document.blocks,
                    transform: { index, block in
                        Self.setting(rewriter.rewrite(block, headingIDs: rewriter.headingIDs(index)), in: language)
                    }))
        }
        return BookBlocks(segments)
    }

    /// Every file's footnotes, numbered on through the book, rewritten as the blocks are.
    func footnotes() -> [Int: [Block]] {
        var all: [Int: [Block]] = [:]
        for (index, chapter) in chapters.enumerated() {
            let rewriter = BookRewrite(plan: plans[index], book: self)
            let language = chapterLanguage(index)
            for (number, blocks) in chapter.document.footnotes {
                all[number + plans[index].footnoteOffset] = blocks.map {
                    Self.setting(rewriter.rewrite($0, headingIDs: []), in: language)
                }
            }
        }
        return all
    }

    /// The language chapter `index`'s own front matter gives (`lang: ko`) when it is not the
    /// book's (the first file's): the chapter is set and tagged in it (hyphenation, quotation
    /// marks, each structure element's `/Lang`, PDF/UA-1 §7.2), as a `::: {lang=ko}` div is.
    func chapterLanguage(_ index: Int) -> String? {
        guard let language = chapters[index].document.metadata.lang, !language.isEmpty,
            language.lowercased() != chapters.first?.document.metadata.lang?.lowercased()
        else { return nil }
        return language
    }

    /// `block` inside a div in `language` (nil: as it is).
    static func setting(_ block: Block, in language: String?) -> Block {
        guard let language else { return block }
        return Block(
            .div([block]), attributes: Attributes(pairs: [Attributes.Pair(key: "lang", value: language)]),
            location: block.location)
    }
}

/// The book's top-level blocks: chapters' blocks made on demand, each passed through its
/// chapter's rewrite as it is made.
final class BookBlocks: ElementProvider {
    typealias Element = Block

    /// One chapter: blocks set before it, then its own.
    struct Segment: Sendable {
        var leading: [Block]
        var blocks: BlockList
        var transform: @Sendable (Int, Block) -> Block
    }

    let segments: [Segment]
    /// The index of each segment's first block in the book.
    let starts: [Int]
    let count: Int

    init(_ segments: [Segment]) {
        self.segments = segments
        var starts: [Int] = []
        var total = 0
        for segment in segments {
            starts.append(total)
            total += segment.leading.count + segment.blocks.count
        }
        self.starts = starts
        count = total
    }

    func element(at index: Int) -> Block {
        var low = 0
        var high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= index { low = middle } else { high = middle - 1 }
        }
        let segment = segments[low]
        let offset = index - starts[low]
        if offset < segment.leading.count { return segment.leading[offset] }
        let blockIndex = offset - segment.leading.count
        return segment.transform(blockIndex, segment.blocks[blockIndex])
    }

    func releaseSource() {
        for segment in segments { segment.blocks.releaseSource() }
    }
}
