import Foundation
import Styling
import Typography

/// Images: scaled down to the measure (and to the page), kept whole, with an optional caption;
/// an unreadable or remote image becomes a visible placeholder box with its alt text.
struct ImageLayout {
    let shaper: TextShaper
    let options: LayoutOptions

    /// `path` ends in the image's `Figure` element; the caption is its sibling `Caption`; a
    /// placeholder (box and alt text) stands for the figure.
    func items(for image: StyledImage, path: [StructureElement]) -> [Item] {
        // The caption's paragraph carries its own indent; the image and its placeholder are
        // set in the measure less the figure's indents (inside a list item, quote or div).
        let left = options.page.margins.left + image.leftIndent
        let measure = max(1, options.page.measure - image.leftIndent - image.rightIndent)
        let id = path.last?.id ?? 0
        // The caption, beside the figure rather than in it, reads in the figure's language.
        let captionPath =
            path.last?.role == .figure
            ? Array(path.dropLast()) + [StructureElement(.caption, id: id, language: path.last?.language)] : path
        var items: [Item] = []
        if let size = shaper.imageSize(ofFile: image.path), size.width > 0, size.height > 0 {
            // The natural size (the file's resolution, else 1 px = 0.75 pt), or the size the
            // source asks for (one side given: the other in proportion); never wider than the
            // measure nor taller than 70% of the text area.
            var width = size.width
            var height = size.height
            (width, height) = Self.requested(
                image, natural: (width, height), measure: measure, textHeight: options.page.textHeight)
            let scale = min(1, measure / width, options.page.textHeight * 0.7 / height)
            width *= scale
            height *= scale
            let imageLeft =
                switch image.alignment {
                case .left, .justify: left
                case .right: left + measure - width
                case .center: left + (measure - width) / 2
                }
            items.append(
                Item(
                    height: height,
                    elements: [
                        .structure(path),
                        .image(path: image.path, rect: Rect(x: imageLeft, y: 0, width: width, height: height)),
                    ]))
        } else {
            // The placeholder takes the size the source asks for (`width="100"`: 75 pt, at least
            // 36 pt, at most the measure) at its alignment's side, else the measure; it holds
            // the whole caption (every line: a long alt text is never cut to its first line),
            // at least 72 pt tall unless a height is asked for.
            let asked = Self.requested(
                image, natural: (measure, 72), measure: measure, textHeight: options.page.textHeight)
            let boxWidth = image.width == nil ? measure : min(measure, max(36, asked.0))
            let left =
                switch image.alignment {
                case .left, .justify: left
                case .right: left + measure - boxWidth
                case .center: left + (measure - boxWidth) / 2
                }
            let measure = boxWidth
            let label = (image.caption ?? image.placeholderLabel).map { caption in
                StyledParagraph(runs: caption.runs.map { StyledRun(($0.text), style: $0.style) }, style: caption.style)
            }
            let lines = label.map { shaper.shape($0, width: max(1, measure - 12)).lines } ?? []
            let textHeight = lines.reduce(0) { $0 + $1.ascent + $1.descent }
            let height = max(image.height == nil ? 72.0 : min(asked.1, options.page.textHeight * 0.7), textHeight + 12)
            var item = Item(
                height: height,
                elements: [
                    .structure(path),
                    .fill(Rect(x: left, y: 0, width: measure, height: height), RGBAColor(hex: "#F1F2F5")!),
                    .line(
                        from: Point(x: left, y: 0), to: Point(x: left + measure, y: height), width: 0.4,
                        color: RGBAColor(hex: "#C9CCD3")!),
                    .line(
                        from: Point(x: left + measure, y: 0), to: Point(x: left, y: height), width: 0.4,
                        color: RGBAColor(hex: "#C9CCD3")!),
                ])
            var top = (height - textHeight) / 2
            for line in lines {
                item.elements.append(
                    .fill(
                        Rect(
                            x: left + 6 + line.x - 6, y: top - 3, width: line.width + 12,
                            height: line.ascent + line.descent + 6), RGBAColor(hex: "#F1F2F5")!))
                item.elements.append(.text(line, x: left + 6 + line.x, baseline: top + line.ascent))
                top += line.ascent + line.descent
            }
            items.append(item)
            return items
        }
        if let caption = image.caption {
            let left = options.page.margins.left
            let shaped = shaper.shape(caption, width: options.page.measure)
            // A caption's lines keep their words apart as a paragraph's do (``WordSpaces``).
            var wordSpaces = WordSpaces(caption)
            let boxes = LineGrid(shaper: shaper, style: caption.style).boxes(for: shaped.lines)
            for (index, (line, box)) in zip(shaped.lines, boxes).enumerated() {
                let notLast = index < shaped.lines.count - 1
                let endsBetweenWords = notLast && wordSpaces.endsBetweenWords(line)
                items.append(
                    Item(
                        height: box.above + box.below, spaceBefore: 0, breakBefore: .avoid,
                        elements: StructureMarks.line(
                            line, x: left, baseline: box.above, path: captionPath, linksBefore: 0,
                            endsBetweenWords: endsBetweenWords,
                            endsInAddedHyphen: notLast && wordSpaces.endedInAddedHyphen)))
            }
            if items.count > 1 { items[1].spaceBefore = 4 }
        }
        return items
    }
}

extension ImageLayout {
    /// The size in pt the `width`/`height` attributes ask for: one given keeps the aspect ratio,
    /// both given set both; a fraction is of the measure (width) or the text area's height.
    static func requested(_ image: StyledImage, natural: (Double, Double), measure: Double, textHeight: Double) -> (
        Double, Double
    ) {
        func points(_ dimension: ImageDimension?, of whole: Double) -> Double? {
            switch dimension {
            case .points(let value)?: value
            case .fraction(let fraction)?: fraction * whole
            case nil: nil
            }
        }
        let width = points(image.width, of: measure)
        let height = points(image.height, of: textHeight)
        switch (width, height) {
        case (let width?, let height?): return (width, height)
        case (let width?, nil): return (width, natural.1 * width / natural.0)
        case (nil, let height?): return (natural.0 * height / natural.1, height)
        case (nil, nil): return natural
        }
    }
}

/// Reads an image's size from its header (PNG IHDR, JPEG SOFn, the SVG root element) without
/// decoding it.
public enum ImageProbe {
    /// The longest side, pixels, of a PNG drawn: Cairo decodes PNGs into memory, and beyond
    /// this a picture is not one we can draw.
    public static let maxSide = 30_000
    /// The most pixels a picture may have to be decoded (a 16 000 × 16 000 px photo would need
    /// 1 GB of memory as a Cairo surface).
    public static let maxPixels = 100_000_000

    /// Width and height of a PNG or JPEG file in pixels, or of an SVG file in CSS pixels
    /// (1 px = 0.75 pt; from `width`/`height`, else the `viewBox`); nil when the file is none of
    /// these or unreadable (``problem(ofFile:)`` says why).
    public static func pixelSize(ofFile path: String) -> (width: Int, height: Int)? {
        examine(path).size
    }

    /// Why ``pixelSize(ofFile:)`` gives no size, in words that say what to fix (to follow "image
    /// 'x'"): an empty file, an SVG with no size (neither `width`/`height` nor a `viewBox`: SVG
    /// 1.1 §7.7 gives it no intrinsic size), a PNG, JPEG or SVG cut short (no IEND chunk, EOI
    /// marker or `</svg>` at its end), a picture too large to draw, or a format it does not
    /// read; nil when it gives one.
    public static func problem(ofFile path: String) -> String? {
        examine(path).problem
    }

    /// What a picture's file says of itself, read from its header and end without decoding it.
    public struct Examination: Sendable {
        /// Width and height, pixels (CSS pixels for an SVG), as ``ImageProbe/pixelSize(ofFile:)``
        /// gives them.
        public var size: (width: Int, height: Int)?
        /// Why there is no size, as ``ImageProbe/problem(ofFile:)`` says it.
        public var problem: String?
        /// For an SVG, the files it links to (``SVGWork/linkedFiles(_:)``), which are not read.
        public var linkedFiles: [String] = []
        /// Whether the file opens with the signature of a raster format pictures are read in:
        /// PNG, JPEG, GIF, WebP, BMP or TIFF (a file of any other kind, a 200 MB file named
        /// `.png`, is refused without reading the rest of it).
        public var opensAsRaster = false

        static func size(_ width: Int, _ height: Int) -> Examination {
            Examination(size: (width, height))
        }

        static func problem(_ text: String) -> Examination {
            Examination(problem: text)
        }
    }

    /// The file's header (its first mebibyte) and end (its last 64 bytes), read once: the size,
    /// or what is wrong, and whether it opens as a raster picture.
    public static func examine(_ path: String) -> Examination {
        let file: FileReader.OpenFile
        do { file = try FileReader.open(path, limit: FileReader.imageLimit, what: "an image") } catch {
            return .problem(phrase(error))
        }
        let handle = FileHandle(fileDescriptor: file.descriptor, closeOnDealloc: true)
        guard file.size > 0, let data = try? handle.read(upToCount: 1 << 20), !data.isEmpty else {
            return .problem("is empty (0 bytes)")
        }
        let header = [UInt8](data)
        // The end of the file: a PNG ends with its IEND chunk, a JPEG with EOI, an SVG with
        // </svg>; a file cut short draws nothing, so it counts as unreadable.
        let end =
            (try? handle.seek(toOffset: UInt64(max(0, file.size - 64)))).flatMap { _ in
                (try? handle.read(upToCount: 64)).map { [UInt8]($0) }
            } ?? []
        var examination = measure(path, header: header, end: end, fileSize: file.size)
        examination.opensAsRaster = opensAsRaster(header)
        return examination
    }

    /// The size `header` and `end` give the picture of `fileSize` bytes at `path`, or what is
    /// wrong.
    private static func measure(_ path: String, header: [UInt8], end: [UInt8], fileSize: Int) -> Examination {
        let other = Examination.problem(
            "is not in a format it reads (PNG, JPEG, GIF, WebP, BMP, TIFF or SVG) or is damaged")
        if containsSVGTag(header.prefix(svgProlog)) {
            guard fileSize <= FileReader.svgLimit else {
                let limit = FileReader.megabytes(FileReader.svgLimit)
                return .problem(
                    "is an SVG of \(FileReader.megabytes(fileSize)), more than the \(limit) an SVG image may have")
            }
            guard String(decoding: end, as: UTF8.self).contains("</svg>") || svgRootClosesItself(header) else {
                return .problem("is an SVG cut short (no </svg> at its end)")
            }
            guard let whole = try? FileReader.read(path, limit: FileReader.svgLimit, what: "an SVG image") else {
                return other
            }
            let expanded = SVGWork.expandedElementCount([UInt8](whole), limit: SVGWork.maxElements)
            guard expanded <= SVGWork.maxElements else {
                return .problem(
                    "is an SVG whose elements, with what its <use>, filters, masks, clip paths, markers and "
                        + "patterns draw again and each filter primitive counting "
                        + "\(SVGWork.filterPrimitiveWeight) a pass over its pixels, are more than "
                        + "\(SVGWork.maxElements), too many to draw")
            }
            guard let size = svgSize(header) else {
                return .problem(
                    "is an SVG with no size: give its <svg> element width and height (not in %), or a viewBox")
            }
            var examination = Examination.size(size.width, size.height)
            examination.linkedFiles = SVGWork.linkedFiles([UInt8](whole))
            return examination
        }
        guard header.count > 24 else { return other }
        if header.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            guard end.suffix(12).starts(with: [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44]) else {
                return .problem("is a PNG cut short (no IEND chunk at its end)")
            }
            let pixelWidth = Int(header[16]) << 24 | Int(header[17]) << 16 | Int(header[18]) << 8 | Int(header[19])
            let pixelHeight = Int(header[20]) << 24 | Int(header[21]) << 16 | Int(header[22]) << 8 | Int(header[23])
            guard pixelWidth > 0, pixelHeight > 0 else { return other }
            guard pixelWidth <= maxSide, pixelHeight <= maxSide else {
                return .problem(
                    "is a PNG of \(pixelWidth) × \(pixelHeight) pixels, too large to draw "
                        + "(at most \(maxSide) a side and "
                        + "\(maxPixels / 1_000_000) million in all)"
                )
            }
            return .size(pixelWidth, pixelHeight)
        }
        if header[0] == 0xFF, header[1] == 0xD8 {
            guard end.suffix(2).elementsEqual([0xFF, 0xD9]) else {
                return .problem("is a JPEG cut short (no end-of-image marker)")
            }
            var offset = 2
            while offset + 9 < header.count {
                guard header[offset] == 0xFF else {
                    offset += 1
                    continue
                }
                let marker = header[offset + 1]
                let length = Int(header[offset + 2]) << 8 | Int(header[offset + 3])
                if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
                    let pixelHeight = Int(header[offset + 5]) << 8 | Int(header[offset + 6])
                    let pixelWidth = Int(header[offset + 7]) << 8 | Int(header[offset + 8])
                    return pixelWidth > 0 && pixelHeight > 0 ? .size(pixelWidth, pixelHeight) : other
                }
                offset += 2 + length
            }
        }
        return other
    }

    /// Whether `header` opens with the signature of PNG, JPEG, GIF, WebP, BMP or TIFF.
    static func opensAsRaster(_ header: [UInt8]) -> Bool {
        func at(_ offset: Int, _ text: String) -> Bool {
            header.count >= offset + text.utf8.count && header[offset...].starts(with: Array(text.utf8))
        }
        return header.starts(with: [0x89, 0x50, 0x4E, 0x47]) || header.starts(with: [0xFF, 0xD8, 0xFF])
            || at(0, "GIF87a") || at(0, "GIF89a") || (at(0, "RIFF") && at(8, "WEBP")) || at(0, "BM")
            || header.starts(with: [0x49, 0x49, 0x2A, 0x00]) || header.starts(with: [0x4D, 0x4D, 0x00, 0x2A])
    }

    /// Whether `path` holds an SVG document (an `<svg` root within its first ``svgProlog``
    /// bytes, read 4 KiB at a time until the tag is found); false for a raster picture (its first
    /// bytes) and for anything but a regular file.
    public static func isSVG(_ path: String) -> Bool {
        guard let file = try? FileReader.open(path, limit: FileReader.imageLimit) else { return false }
        let handle = FileHandle(fileDescriptor: file.descriptor, closeOnDealloc: true)
        var read: [UInt8] = []
        while read.count < svgProlog, let data = try? handle.read(upToCount: 4096), !data.isEmpty {
            // The chunk and the three bytes before it: a tag may stand across two chunks.
            let start = max(0, read.count - 3)
            read += data
            // A raster picture is known by its first bytes: the rest of it is not read.
            if start == 0, opensAsRaster(read) { return false }
            if containsSVGTag(read[start...]) { return true }
        }
        return false
    }

    /// How far into a file its `<svg` root may start, bytes: 1 MiB, room for the XML declaration,
    /// comments (a licence of several kilobytes) and a document type declaration before it.
    static let svgProlog = 1 << 20

    /// Whether `bytes` hold `<svg` (a byte search: a PNG's or JPEG's binary header is not
    /// decoded as text).
    static func containsSVGTag<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) || bytes.starts(with: [0xFF, 0xD8]) { return false }
        let tag = Array("<svg".utf8)
        var matched = 0
        for byte in bytes {
            matched = byte == tag[matched] ? matched + 1 : (byte == tag[0] ? 1 : 0)
            if matched == tag.count { return true }
        }
        return false
    }

    /// A reader's failure as words to follow "image 'x'": `is a folder`, `is a FIFO (named
    /// pipe), not a regular file`, `cannot be read: no such file`.
    static func phrase(_ failure: FileReader.Failure) -> String {
        failure.reason.hasPrefix("it is ") ? String(failure.reason.dropFirst(3)) : "cannot be read: \(failure.reason)"
    }

    /// Whether the root element of the SVG that `header` begins is an empty element
    /// (`<svg … />`, valid XML with no `</svg>`: a picture of nothing, of its size).
    static func svgRootClosesItself(_ header: [UInt8]) -> Bool {
        let head = String(decoding: header, as: UTF8.self)
        guard let open = head.range(of: "<svg"), let close = head[open.upperBound...].firstIndex(of: ">") else {
            return false
        }
        return head[..<close].hasSuffix("/")
    }

    static func svgSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        // The root's start tag, wherever the prolog before it ends (``svgProlog``).
        let root = Array("<svg".utf8)
        let start = bytes.indices.first { bytes[$0...].starts(with: root) } ?? 0
        let head = String(decoding: bytes[start...].prefix(8192), as: UTF8.self)
        guard let open = head.range(of: "<svg"), let close = head[open.upperBound...].firstIndex(of: ">") else {
            return nil
        }
        let tag = String(head[open.upperBound..<close])
        func attribute(_ name: String) -> String? {
            guard
                let found = tag.range(of: #"(^|\s)"# + name + #"\s*=\s*["']([^"']*)["']"#, options: .regularExpression)
            else { return nil }
            let match = tag[found]
            guard let quote = match.firstIndex(where: { $0 == "\"" || $0 == "'" }) else { return nil }
            return String(match[match.index(after: quote)...].dropLast())
        }
        /// CSS px from an SVG length (`120`, `120px`, `90pt`, `30mm`, `2in`); nil for `%`.
        func pixels(_ length: String?) -> Double? {
            guard let length, !length.hasSuffix("%") else { return nil }
            if let number = Double(length) { return number }
            return Length.points(length).map { $0 / 0.75 }
        }
        let box = attribute("viewBox")?.split(whereSeparator: { $0 == " " || $0 == "," }).compactMap { Double($0) }
        var width = pixels(attribute("width"))
        var height = pixels(attribute("height"))
        if let box, box.count == 4, box[2] > 0, box[3] > 0 {
            if width == nil && height == nil {
                width = box[2]
                height = box[3]
            } else if width == nil, let knownHeight = height {
                width = knownHeight * box[2] / box[3]
            } else if height == nil, let knownWidth = width {
                height = knownWidth * box[3] / box[2]
            }
        }
        guard let pixelWidth = width, let pixelHeight = height, pixelWidth > 0, pixelHeight > 0,
            pixelWidth.isFinite, pixelHeight.isFinite
        else { return nil }
        // The size gives the picture's proportions and natural size; one past a billion pixels
        // (`width="1e19"`) is scaled down to it, proportions kept, so it stays a whole number.
        let scale = min(1, 1e9 / max(pixelWidth, pixelHeight))
        return (max(1, Int((pixelWidth * scale).rounded())), max(1, Int((pixelHeight * scale).rounded())))
    }
}
