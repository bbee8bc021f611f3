import DocumentModel

/// Total-fit line breaking: Knuth & Plass, "Breaking Paragraphs into Lines", Software—Practice
/// and Experience 11 (1981). The paragraph is a list of boxes (rigid material), glue (word
/// spaces that may stretch and shrink) and penalties (break opportunities with a cost, such as
/// hyphenation points); the breaker chooses the breaks that minimise the total demerits of
/// the whole paragraph, instead of filling each line in turn as a first-fit breaker does.
///
/// Pure Swift and independent of any font: the backend measures (widths from the shaper's glyph
/// advances) and this type decides. Time is linear in the paragraph's length: an active break
/// is dropped as soon as a line from it would be overfull, so the active list never holds more
/// than about one line's worth of breaks. Memory beyond the items is about one break per line:
/// the search keeps running sums, not sums per item, and drops the breaks no best path can
/// pass through any more.
public struct LineBreaker: Sendable {
    /// One element of the paragraph, in pt.
    public struct Item: Sendable {
        /// What kind of element the item is.
        public enum Kind: Sendable, Equatable {
            /// Rigid material (letters, a word or part of one). `stretch` is extra room the box
            /// may take when the line is justified (Hangul inter-syllable spacing, W3C KLREQ
            /// §3.8); it is never a break opportunity.
            case box
            /// A word space: a break opportunity when it follows a box; at a break it vanishes.
            case glue
            /// A break opportunity with a cost; `width` is what the line gains when it breaks
            /// here (a hyphen). Not a break opportunity when `cost` is `infinity`; a forced
            /// break when `cost` is `-infinity`.
            case penalty
        }
        // The one-byte properties and the position come first: an item is 48 bytes, not 72 (a
        // paragraph of a megabyte has about a million items).
        /// Box, glue or penalty.
        public var kind: Kind
        /// A flagged penalty (a hyphen): two flagged breaks in a row cost ``Parameters/doubleHyphenDemerits``
        /// and at most ``Parameters/maxConsecutiveHyphens`` may follow one another. Flagged glue
        /// follows a word ending in a hyphen or dash: a line ending there looks hyphenated, and
        /// the last line after it is held to the fragment rule (``fragmentDemerits``) only.
        public var flagged: Bool
        /// Only for the emergency pass (a break inside a word wider than the measure).
        public var emergency: Bool
        /// ``position``, in the four bytes after the one-byte properties.
        private var storedPosition: Int32
        /// Natural width, pt (for a penalty: the width added when breaking there).
        public var width: Double
        /// How far the item may grow, pt, when the line is short.
        public var stretch: Double
        /// How far it may shrink, pt, when the line is long.
        public var shrink: Double
        /// Penalty cost (TeX's \penalty values: 50 for a hyphen, 10000 = never).
        public var cost: Double
        /// Width that may hang into the margin, pt (character protrusion, optical margin
        /// alignment): for glue or a penalty, into the right margin when a line ends here (a
        /// final period, comma, quote, hyphen or letter with overhang); for a box, into the
        /// left margin when a line starts with it (an opening quote, a `T` or `A`).
        public var hang: Double
        /// The caller's position for the item (the composer's scalar index in the text).
        public var position: Int {
            get { Int(storedPosition) }
            set { storedPosition = Int32(newValue) }
        }

        private init(
            kind: Kind, flagged: Bool, emergency: Bool, width: Double, stretch: Double, shrink: Double, cost: Double,
            hang: Double, position: Int
        ) {
            self.kind = kind
            self.flagged = flagged
            self.emergency = emergency
            storedPosition = Int32(position)
            self.width = width
            self.stretch = stretch
            self.shrink = shrink
            self.cost = cost
            self.hang = hang
        }

        /// A box of `width` pt that may stretch by `stretch` and shrink by `shrink` pt when
        /// justified; `hang` pt of it may protrude into the left margin when a line starts with it.
        public static func box(
            _ width: Double, stretch: Double = 0, shrink: Double = 0, hang: Double = 0, position: Int = 0
        ) -> Item {
            Item(
                kind: .box, flagged: false, emergency: false, width: width, stretch: stretch, shrink: shrink, cost: 0,
                hang: hang, position: position)
        }
        /// Glue of `width` pt that may stretch by `stretch` and shrink by `shrink` pt; `hang` pt
        /// of the material before it may hang into the margin when a line ends here. `flagged`:
        /// the material before it ends in a hyphen or dash (`land-on-`), so a line ending here
        /// looks hyphenated and a last line after it is held to the fragment rule.
        public static func glue(
            _ width: Double, stretch: Double, shrink: Double, hang: Double = 0, flagged: Bool = false,
            position: Int = 0
        ) -> Item {
            Item(
                kind: .glue, flagged: flagged, emergency: false, width: width, stretch: stretch, shrink: shrink,
                cost: 0, hang: hang, position: position)
        }
        /// A penalty: a break costing `cost`, adding `width` pt (a hyphen) when taken.
        public static func penalty(
            _ width: Double = 0, cost: Double, flagged: Bool = false, hang: Double = 0,
            emergency: Bool = false, position: Int = 0
        ) -> Item {
            Item(
                kind: .penalty, flagged: flagged, emergency: emergency, width: width, stretch: 0, shrink: 0, cost: cost,
                hang: hang, position: position)
        }
    }

    /// The knobs of the search; defaults are TeX's plain-format values where TeX has one.
    public struct Parameters: Sendable {
        /// Largest adjustment ratio accepted on the first pass (1 = every space at its full stretch).
        public var tolerance: Double = 2
        /// Font expansion's limit (0.02: ±2 %) when the boxes' and glue's stretch and shrink
        /// include it (``ParagraphComposer``): a line stretched past its full stretch is rated by
        /// how far its word spaces alone widen (``visibleRatio(_:natural:stretch:)``).
        public var fontExpansion: Double = 0
        /// Added to every line's badness before squaring (TeX \linepenalty = 10).
        public var linePenalty: Double = 10
        /// Two hyphenated lines in a row (TeX \doublehyphendemerits = 10000).
        public var doubleHyphenDemerits: Double = 10000
        /// A hyphen on the second-last line (TeX \finalhyphendemerits = 5000).
        public var finalHyphenDemerits: Double = 5000
        /// Adjacent lines of incompatible fitness, e.g. a very loose line after a tight one (TeX \adjdemerits = 10000).
        public var adjacentDemerits: Double = 10000
        /// At most this many hyphenated lines follow one another.
        public var maxConsecutiveHyphens: Int = 2
        /// A last line narrower than this fraction of the measure holding a single word costs
        /// ``shortLastLineDemerits`` (a "runt").
        public var shortLastLine: Double = 0.15
        /// Demerits of a runt last line.
        public var shortLastLineDemerits: Double = 15000
        /// Demerits of a last line that is one unbreakable box after a break between two
        /// letters (no space): one CJK character and the punctuation that clings to it, which
        /// W3C JLREQ and KLREQ ask compositors to avoid at a paragraph's end.
        public var loneCharacterDemerits: Double = 1_000_000
        /// Ragged text: lines are not justified; each line's stretch is this fixed amount (pt),
        /// so the badness measures how far the line falls short (TeX's ragged-right
        /// \rightskip = 0pt plus 2em, with rigid spaces).
        public var raggedStretch: Double? = nil
        /// In ragged text, the factor on the squared cost of an emergency break (a word wider
        /// than the measure broken between its parts or letters): a ragged line that falls short
        /// by up to about twenty em costs less than breaking a word where a better place fits,
        /// so an identifier breaks at its period and not between two letters of a part.
        public var raggedEmergencyWeight = 1000.0
        /// A line with nothing to stretch (a word broken by the emergency pass, unspaced text)
        /// is rated as if it could stretch this fraction of the measure: its badness grows with
        /// its shortfall instead of being infinite.
        public var rigidLineStretch = 0.05
        /// Creates the defaults.
        public init() {}
    }

    /// The result: where lines end, and how each line is adjusted.
    public struct Line: Sendable, Equatable {
        /// Index of the item at which the line ends (a glue, a penalty, or the last item).
        public var breakIndex: Int
        /// Index of the first item of the line (after discarded glue and penalties).
        public var start: Int
        /// Adjustment ratio: > 0 the stretch used (1 = all), < 0 the shrink used; 0 for a last
        /// line or a line ended by a forced break.
        public var ratio: Double
        /// Natural width of the line, pt (hyphen included).
        public var naturalWidth: Double
        /// The line ends at a flagged penalty (a hyphen).
        public var hyphenated: Bool
        /// Width hanging into the margin at the line's end, pt.
        public var hang: Double
        /// Width hanging into the margin at the line's start, pt (its first box's ``Item/hang``).
        public var startHang: Double = 0
    }

    /// The chosen lines and whether the emergency pass was needed.
    public struct Result: Sendable {
        /// The lines, top to bottom.
        public var lines: [Line]
        /// The first passes found no feasible set of breaks: the emergency pass broke inside a
        /// word wider than the measure, or a line is overfull.
        public var emergency: Bool
        /// Some line is wider than the measure even at full shrink (only when a single
        /// unbreakable piece is wider than the measure).
        public var overfull: Bool
    }

    /// The search parameters.
    public var parameters: Parameters
    /// The render's cancellation: once raised, the search stops within 1,024 items and
    /// ``breakLines(_:width:)`` returns no lines (a long paragraph's search takes tenths of a
    /// second).
    public var cancellation: Cancellation?
    /// Creates a breaker with `parameters`.
    public init(parameters: Parameters = Parameters()) { self.parameters = parameters }

    /// How many nodes the search holds before it drops those no active break descends from and
    /// sets aside the breaks every active one descends from (then again whenever it holds twice
    /// what was left, and at least this many): enough that an ordinary paragraph never
    /// compacts; tests set it low. The result is the same at any value (but where the
    /// emergency pass cuts its paths, ``emergencyNodeLimit``, which it checks as it compacts).
    var compactionThreshold = 4096

    /// A break the search reached, with the best line to it from a break before. What every
    /// node made at one break shares (its item, the sums after it, the next line's left
    /// protrusion) is kept once for the break's active group (``ActiveGroup``), and worked out
    /// again from the items for the chosen lines (``chosenLines(_:nodes:active:settled:)``): a
    /// node is 32 bytes. In text whose paths never meet (a paragraph of one word repeated) the
    /// search holds every node of about a hundred paths, one a line each.
    private struct Node {
        var demerits: Double
        var ratio: Double
        var position: Int32  // item index of the break (-1 for the paragraph start)
        var line: Int32
        var previous: Int32  // index into `nodes`, -1 for none
        var fitness: UInt8
        var hyphens: UInt8  // consecutive hyphenated lines ending here
        var hyphenated: Bool
        /// Another node of its break costs less by more than any later line can change
        /// (``markDominated(_:from:)``): no best line starts here.
        var dominated = false
    }

    /// The nodes made at one break that are still active (consecutive in the search's nodes),
    /// with what they share: the break's item index and the sums of the items before the
    /// first item of the line after it, and what that line's first box may protrude into the
    /// left margin.
    private struct ActiveGroup {
        var nodes: Range<Int>
        var position: Int
        var totalWidth: Double, totalStretch: Double, totalShrink: Double
        var startHang: Double
    }

    /// Breaks `items` into lines of `width` pt. The last item should be a forced break
    /// (`penalty(cost: -infinity)`); one is assumed when missing. Never fails: a first pass
    /// accepts lines up to ``Parameters/tolerance``; a second any looseness; a third (the
    /// emergency pass) also breaks at emergency penalties, and as a last resort leaves a line
    /// overfull. No lines only once ``cancellation`` is raised.
    public func breakLines(_ items: [Item], width: Double) -> Result {
        var mostNodes = 0
        return breakLines(items, width: width, mostNodes: &mostNodes)
    }

    /// ``breakLines(_:width:)``, counting in `mostNodes` the most nodes any pass held at once
    /// after compacting them (the search's memory, for tests).
    func breakLines(_ items: [Item], width: Double, mostNodes: inout Int) -> Result {
        var items = items
        if items.last.map({ !($0.kind == .penalty && $0.cost == -.infinity) }) ?? true {
            items.append(.penalty(cost: -.infinity, position: items.last.map { $0.position } ?? 0))
        }
        if let lines = search(
            items, width: width, tolerance: parameters.tolerance, emergency: false, mostNodes: &mostNodes)
            ?? search(items, width: width, tolerance: .infinity, emergency: false, mostNodes: &mostNodes)
        {
            return Result(lines: lines, emergency: false, overfull: false)
        }
        // The emergency pass always finds lines, unless the render was cancelled.
        guard cancellation?.isCancelled != true,
            let lines = search(items, width: width, tolerance: .infinity, emergency: true, mostNodes: &mostNodes)
        else { return Result(lines: [], emergency: false, overfull: false) }
        let overfull = lines.contains { $0.naturalWidth - width - $0.hang > 0.01 && $0.ratio <= -1 }
        return Result(lines: lines, emergency: true, overfull: overfull)
    }

    /// TeX's fitness class of a line set at adjustment `ratio`: 3 tight, 2 decent, 1 loose,
    /// 0 very loose.
    private func fitness(_ ratio: Double) -> Int { ratio < -0.5 ? 3 : ratio <= 0.5 ? 2 : ratio <= 1 ? 1 : 0 }

    /// The first item of a line that starts after a break at `i`: glue and penalties vanish
    /// at a line start (up to the next box or forced break).
    private func lineStart(after i: Int, _ items: [Item]) -> Int {
        var start = i
        if items[start].kind != .box { start += 1 }
        while start < items.count, items[start].kind != .box,
            !(items[start].kind == .penalty && items[start].cost == -.infinity)
        {
            start += 1
        }
        return start
    }

    /// What the first item of the line that starts after a break at `i` (-1: the paragraph's
    /// first line) may protrude into the left margin, pt: its ``Item/hang`` when it is a box.
    private func startHang(after i: Int, _ items: [Item]) -> Double {
        let start = i < 0 ? 0 : lineStart(after: i, items)
        return start < items.count && items[start].kind == .box ? items[start].hang : 0
    }

    /// The node of the paragraph's start: no line yet, decent fitness.
    private static let startNode = Node(
        demerits: 0, ratio: 0, position: -1, line: 0, previous: -1, fitness: 2, hyphens: 0, hyphenated: false)

    /// One pass of the search; nil when no feasible breaks exist (never nil when `emergency`),
    /// and once ``cancellation`` is raised.
    private func search(
        _ items: [Item], width: Double, tolerance: Double, emergency: Bool, mostNodes: inout Int
    ) -> [Line]? {
        let count = items.count
        // Running sums of the items before item `i` (boxes and glue; penalties count only at a
        // break), kept as the loop goes, not as arrays over the whole paragraph: a node keeps
        // the sums it needs. The additions are made in item order, so each sum is the same
        // double however it is reached.
        var sumWidth = 0.0
        var sumStretch = 0.0
        var sumShrink = 0.0
        var nodes = [Self.startNode]
        var nodeLimit = compactionThreshold
        var settled: [Node] = []  // the breaks every active break descends from, in order (see `compact`)
        // The active breaks in groups: the nodes made at one break (consecutive in `nodes`)
        // share their position and totals, so a line from any of them has the same width,
        // ratio and badness: computed once per group. In order, as the nodes were made.
        var active = [
            ActiveGroup(
                nodes: 0..<1, position: -1, totalWidth: 0, totalStretch: 0, totalShrink: 0,
                startHang: startHang(after: -1, items))
        ]
        var survivors: [ActiveGroup] = []
        var lastResort: Int? = nil  // the most recent node dropped, for an overfull line
        let slots = 4 * 3  // fitness class × consecutive hyphens (0, 1, 2+)
        var best = [(demerits: Double, from: Int, ratio: Double)](repeating: (.infinity, -1, 0), count: slots)
        for i in 0..<count {
            if i & 1023 == 1023, cancellation?.isCancelled == true { return nil }
            let item = items[i]
            let widthBefore = sumWidth
            let stretchBefore = sumStretch
            let shrinkBefore = sumShrink
            if item.kind != .penalty {
                sumWidth += item.width
                sumStretch += item.stretch
                sumShrink += item.shrink
            }
            switch item.kind {
            case .box: continue
            case .glue: if i == 0 || items[i - 1].kind != .box { continue }
            case .penalty: if item.cost >= 10000 || (item.emergency && !emergency) { continue }
            }
            let isPenalty = item.kind == .penalty
            let breakWidth = isPenalty ? item.width : 0
            let forced = isPenalty && item.cost == -.infinity
            let isLast = i == count - 1
            let hyphenated = isPenalty && item.flagged
            for k in 0..<slots { best[k] = (.infinity, -1, 0) }
            var found = false
            survivors.removeAll(keepingCapacity: true)
            for group in active {
                let natural = widthBefore - group.totalWidth + breakWidth
                let available = width + item.hang + group.startHang
                let stretch = parameters.raggedStretch ?? (stretchBefore - group.totalStretch)
                let shrink = parameters.raggedStretch == nil ? shrinkBefore - group.totalShrink : 0
                let ratio = adjustmentRatio(
                    natural: natural, available: available, stretch: stretch, shrink: shrink,
                    forced: forced, width: width)
                if ratio < -1 {
                    // Overfull from here on: these nodes can never start a line reaching further.
                    lastResort = group.nodes.upperBound - 1
                    continue
                }
                survivors.append(group)
                if ratio > tolerance { continue }
                let lineDemerits = demerits(
                    ratio: visibleRatio(ratio, natural: natural, stretch: stretch), at: item, forced: forced)
                let lineFitness = fitness(ratio)
                let unspaced =
                    forced && group.position >= 0 && !(group.position + 1..<i).contains { items[$0].kind == .glue }
                let runt = isLast && unspaced && natural < width * parameters.shortLastLine
                let lone = runt && Self.isLoneBox(items, after: group.position, before: i)
                // The rest of a hyphenated word alone on a paragraph's last line (or a line a hard
                // break ends), or one word after a line ending in a hyphen or dash (`land-on-` |
                // `label.`, which reads as one word broken): never in the first two passes, a
                // last resort in the emergency pass.
                let fragment = unspaced && items[group.position].flagged
                if fragment && !emergency { continue }
                for a in group.nodes where !nodes[a].dominated {
                    let node = nodes[a]
                    let hyphens = hyphenated ? Int(node.hyphens) + 1 : 0
                    if hyphens > parameters.maxConsecutiveHyphens && !emergency { continue }
                    // The same additions in the same order as for one node at a time.
                    var demerits = lineDemerits
                    if hyphenated && node.hyphenated { demerits += parameters.doubleHyphenDemerits }
                    if isLast && node.hyphenated { demerits += parameters.finalHyphenDemerits }
                    if abs(lineFitness - Int(node.fitness)) > 1 { demerits += parameters.adjacentDemerits }
                    if runt { demerits += parameters.shortLastLineDemerits }
                    if lone { demerits += parameters.loneCharacterDemerits }
                    if fragment { demerits += Self.fragmentDemerits }
                    demerits += node.demerits
                    let key = lineFitness * 3 + min(hyphens, 2)
                    if demerits < best[key].demerits {
                        best[key] = (demerits, a, ratio)
                        found = true
                    }
                }
            }
            swap(&active, &survivors)
            if !found && active.isEmpty && emergency, let dropped = lastResort {
                // Nothing fits: leave one line overfull from the last dropped node.
                best[2 * 3] = (nodes[dropped].demerits + 1e8, dropped, -1)
                found = true
            }
            // Nothing reaches across a forced break, even when no line may end there (a fragment
            // refused): the pass then fails and the next one tries.
            if forced { active.removeAll(keepingCapacity: true) }
            if !found { continue }
            active.append(
                appendNodes(
                    at: i, items, best: best, sumsBefore: (widthBefore, stretchBefore, shrinkBefore),
                    hyphenated: hyphenated, to: &nodes))
            if nodes.count >= nodeLimit {
                nodeLimit = compactHeld(
                    &nodes, active: &active, lastResort: &lastResort, settled: &settled, emergency: emergency,
                    mostNodes: &mostNodes)
            }
        }
        return chosenLines(items, nodes: nodes, active: active, settled: settled)
    }

    /// The demerits of a line set at adjustment `ratio` that ends at `item` (a `forced` break
    /// or not), before the terms that depend on the line before it: (line penalty + badness)²,
    /// plus the square of a positive penalty's cost, less that of a negative one (Knuth &
    /// Plass 1981, eq. 8).
    private func demerits(ratio: Double, at item: Item, forced: Bool) -> Double {
        let badness = ratio.isInfinite ? 1e7 : min(1e7, 100 * pow3(abs(ratio)))
        var lineDemerits = (parameters.linePenalty + badness) * (parameters.linePenalty + badness)
        if item.kind == .penalty && item.cost > 0 {
            let weight = item.emergency && parameters.raggedStretch != nil ? parameters.raggedEmergencyWeight : 1
            lineDemerits += item.cost * item.cost * weight
        } else if item.kind == .penalty && item.cost < 0 && !forced {
            lineDemerits -= item.cost * item.cost
        }
        return lineDemerits
    }

    /// Appends to `nodes` a node for each fitness class and hyphen count with a `best` line
    /// ending at the break at item `index` (from its predecessor, with its demerits and ratio),
    /// not yet dominated, then marks those dominated (``markDominated(_:from:)``), and returns
    /// them as an active group. `sumsBefore` are the running sums before the item.
    private func appendNodes(
        at index: Int, _ items: [Item], best: [(demerits: Double, from: Int, ratio: Double)],
        sumsBefore: (width: Double, stretch: Double, shrink: Double), hyphenated: Bool,
        to nodes: inout [Node]
    ) -> ActiveGroup {
        // The sums before the next line's first item: those before this one plus the items
        // from here to there, added in order.
        let (afterWidth, afterStretch, afterShrink) = sums(
            after: index, items, width: sumsBefore.width, stretch: sumsBefore.stretch, shrink: sumsBefore.shrink)
        let first = nodes.count
        for key in best.indices where best[key].from >= 0 {
            let candidate = best[key]
            nodes.append(
                Node(
                    demerits: candidate.demerits, ratio: candidate.ratio, position: Int32(index),
                    line: nodes[candidate.from].line + 1, previous: Int32(candidate.from), fitness: UInt8(key / 3),
                    hyphens: UInt8(key % 3), hyphenated: hyphenated))
        }
        markDominated(&nodes, from: first)
        return ActiveGroup(
            nodes: first..<nodes.count, position: index, totalWidth: afterWidth, totalStretch: afterStretch,
            totalShrink: afterShrink, startHang: startHang(after: index, items))
    }

    /// The adjustment ratio a line set at `ratio` shows in its word spaces, for its badness: past
    /// 1 (its full stretch), font expansion stands at its limit (``Parameters/fontExpansion``,
    /// about that fraction of the line's `natural` width, of its `stretch`) and every further
    /// point of slack goes to the word spaces' share of the stretch alone, so the spaces widen
    /// faster than `ratio` says: a line 20 % past its stretch, 29 % of which was expansion, has
    /// spaces 28 % past theirs. Below 1 (and without expansion, or in ragged text), `ratio`.
    private func visibleRatio(_ ratio: Double, natural: Double, stretch: Double) -> Double {
        guard ratio > 1, ratio.isFinite, parameters.fontExpansion > 0, parameters.raggedStretch == nil else {
            return ratio
        }
        let own = stretch - parameters.fontExpansion * natural
        guard own > 0.05 * stretch else { return ratio }
        return 1 + (ratio - 1) * stretch / own
    }

    /// The adjustment ratio of a line of `natural` width set in `available` pt: how much of its
    /// `stretch` (or `shrink`) it uses (The TeXbook, ch. 14; Knuth & Plass 1981, eq. 4). A line
    /// that ends at a forced break, or one that just fits, is set at its natural width (0); one
    /// with nothing to stretch uses ``Parameters/rigidLineStretch`` of the measure.
    private func adjustmentRatio(
        natural: Double, available: Double, stretch: Double, shrink: Double, forced: Bool,
        width: Double
    ) -> Double {
        if natural > available + 1e-9 {
            return shrink > 0 ? (available - natural) / shrink : -.infinity
        } else if forced || natural >= available - 1e-9 {
            return 0  // a last line, or one before a hard break, is set at its natural width
        }
        return (available - natural) / (stretch > 0 ? stretch : width * parameters.rigidLineStretch)
    }

    /// The sums before the first item of the line that starts after a break at `i`: those
    /// before item `i` plus the items from there to the line's start, added in order (so each
    /// sum is the same double however it is reached).
    private func sums(
        after i: Int, _ items: [Item], width: Double, stretch: Double,
        shrink: Double
    ) -> (width: Double, stretch: Double, shrink: Double) {
        let after = lineStart(after: i, items)
        var afterWidth = width
        var afterStretch = stretch
        var afterShrink = shrink
        for k in i..<after where items[k].kind != .penalty {
            afterWidth += items[k].width
            afterStretch += items[k].stretch
            afterShrink += items[k].shrink
        }
        return (afterWidth, afterStretch, afterShrink)
    }

    /// Marks the nodes made at one break (from `first` on) that never end a best line: a node
    /// that costs more than another with the same hyphen count plus the most the fitness
    /// classes can add (``Parameters/adjacentDemerits``), since every line from either adds the
    /// same demerits but for that term.
    private func markDominated(_ nodes: inout [Node], from first: Int) {
        for a in first..<nodes.count {
            for b in first..<nodes.count
            where b != a && nodes[b].hyphens == nodes[a].hyphens
                && nodes[b].demerits + parameters.adjacentDemerits < nodes[a].demerits
            {
                nodes[a].dominated = true
                break
            }
        }
    }

    /// The lines of the best path: from the active node at the last item with the least
    /// demerits (the first of them), back through its predecessors, after the `settled`
    /// breaks; nil when no node reaches the last item. Each line's natural width is worked out
    /// from the sums of the items' widths before its break and after the break before it,
    /// added in item order as the search added them, so each is the same double.
    private func chosenLines(_ items: [Item], nodes: [Node], active: [ActiveGroup], settled: [Node]) -> [Line]? {
        var end: Int?
        for group in active where group.position == items.count - 1 {
            for a in group.nodes where end.map({ nodes[a].demerits < nodes[$0].demerits }) ?? true { end = a }
        }
        guard let end else { return nil }
        var chain: [Int] = []
        var link = end
        while link > 0 {
            chain.append(link)
            link = Int(nodes[link].previous)
        }
        var lines: [Line] = []
        lines.reserveCapacity(settled.count + chain.count)
        var start = 0
        var startWidth = 0.0
        var startHang = startHang(after: -1, items)
        var sumWidth = 0.0  // the widths of the boxes and glue before item `summed`
        var summed = 0
        for node in settled + chain.reversed().map({ nodes[$0] }) {
            let breakIndex = Int(node.position)
            while summed < breakIndex {
                if items[summed].kind != .penalty { sumWidth += items[summed].width }
                summed += 1
            }
            let item = items[breakIndex]
            let natural = sumWidth - startWidth + (item.kind == .penalty ? item.width : 0)
            lines.append(
                Line(
                    breakIndex: breakIndex, start: start, ratio: node.ratio.isFinite ? node.ratio : 0,
                    naturalWidth: natural, hyphenated: node.hyphenated, hang: item.hang, startHang: startHang))
            start = lineStart(after: breakIndex, items)
            startWidth = sums(after: breakIndex, items, width: sumWidth, stretch: 0, shrink: 0).width
            startHang = self.startHang(after: breakIndex, items)
        }
        return lines
    }

    /// Compacts the nodes (``compact(_:active:lastResort:settled:)``), in the emergency
    /// pass cutting the paths to the best one's when compaction left more than
    /// ``emergencyNodeLimit``; notes the nodes left in `mostNodes`, and returns how many the
    /// search may hold before it compacts again (twice what was left, and at least
    /// ``compactionThreshold``).
    private func compactHeld(
        _ nodes: inout [Node], active: inout [ActiveGroup], lastResort: inout Int?, settled: inout [Node],
        emergency: Bool, mostNodes: inout Int
    ) -> Int {
        compact(&nodes, active: &active, lastResort: &lastResort, settled: &settled)
        if emergency, nodes.count > Self.emergencyNodeLimit {
            keepDescendantsOfTheBest(&active, nodes: nodes)
            compact(&nodes, active: &active, lastResort: &lastResort, settled: &settled)
        }
        mostNodes = max(mostNodes, nodes.count)
        return max(compactionThreshold, 2 * nodes.count)
    }

    /// How many lines back the emergency pass settles the best break's path when its paths do
    /// not meet (``keepDescendantsOfTheBest(_:nodes:)``).
    static let emergencyHorizon = 16

    /// How many nodes compaction may leave in the emergency pass before the paths are cut to the
    /// best one's (``keepDescendantsOfTheBest(_:nodes:)``): a paragraph's few
    /// thousand nodes of its last lines are never cut.
    static let emergencyNodeLimit = 8192

    /// Keeps, of the active breaks, those that descend from the break the best of them (the
    /// fewest demerits) descends from ``emergencyHorizon`` lines back. In the emergency pass a
    /// word wider than the measure may break between any two letters, every line inside it is
    /// as full as the next, and paths a letter apart never meet: compaction then settles
    /// nothing and the search holds every node of the word (a word of a megabyte: hundreds of
    /// MB). Run only when compaction left more than ``emergencyNodeLimit`` nodes, in the
    /// emergency pass: a choice between paths that parted more than sixteen lines back is given
    /// up there.
    private func keepDescendantsOfTheBest(_ active: inout [ActiveGroup], nodes: [Node]) {
        var best = -1
        for group in active {
            for a in group.nodes where !nodes[a].dominated && (best < 0 || nodes[a].demerits < nodes[best].demerits) {
                best = a
            }
        }
        guard best >= 0 else { return }
        let target = nodes[best].line - Int32(Self.emergencyHorizon)
        guard target > 0 else { return }
        func ancestor(_ node: Int) -> Int {
            var link = node
            while link >= 0, nodes[link].line > target { link = Int(nodes[link].previous) }
            return link
        }
        let anchor = ancestor(best)
        var kept: [ActiveGroup] = []
        for group in active {
            var start: Int?
            for a in group.nodes {
                if ancestor(a) == anchor {
                    if start == nil { start = a }
                } else if let first = start {
                    var part = group
                    part.nodes = first..<a
                    kept.append(part)
                    start = nil
                }
            }
            if let first = start {
                var part = group
                part.nodes = first..<group.nodes.upperBound
                kept.append(part)
            }
        }
        active = kept
    }

    /// Drops the nodes that neither an active break nor ``search``'s last resort descends from
    /// (the breaks no best path can pass through any more), keeping the others in their order
    /// so that every later comparison and tie is the same; and moves the breaks all of those
    /// descend from — lines that are settled whatever follows — to `settled`, their last one
    /// staying as the new first node. A paragraph of a megabyte made 800,000 nodes and kept
    /// them all (69 MB); what remains is the few thousand nodes of the last lines. The nodes
    /// are moved down in place, so the search never holds two arrays of them.
    private func compact(
        _ nodes: inout [Node], active: inout [ActiveGroup], lastResort: inout Int?, settled: inout [Node]
    ) {
        // The deepest break every kept node descends from (`line` counts the breaks from the start).
        var common = active[0].nodes.lowerBound
        func meet(_ other: Int) {
            var mine = common
            var theirs = other
            while mine != theirs {
                if nodes[mine].line >= nodes[theirs].line {
                    mine = Int(nodes[mine].previous)
                } else {
                    theirs = Int(nodes[theirs].previous)
                }
            }
            common = mine
        }
        for group in active { for a in group.nodes { meet(a) } }
        if let lastResort { meet(lastResort) }
        // The breaks from the present first node (settled already, or the paragraph's start) to
        // `common`, settled now.
        var path: [Int] = []
        var link = common
        while link > 0 {
            path.append(link)
            link = Int(nodes[link].previous)
        }
        settled += path.reversed().map { nodes[$0] }

        var kept = [Bool](repeating: false, count: nodes.count)
        kept[common] = true
        func keep(_ start: Int) {
            var link = start
            while link >= 0, !kept[link] {
                kept[link] = true
                link = Int(nodes[link].previous)
            }
        }
        for group in active { for a in group.nodes { keep(a) } }
        if let lastResort { keep(lastResort) }
        // Each kept node's new index. `common` is the first kept node (the others descend from
        // it, so were made after it), and a node moves to an index at or below its own, after
        // its predecessor: the nodes are moved down in order.
        var newIndex = [Int32](repeating: -1, count: nodes.count)
        var written = 0
        for n in common..<nodes.count where kept[n] {
            newIndex[n] = Int32(written)
            var node = nodes[n]
            node.previous = n == common ? -1 : newIndex[Int(node.previous)]
            nodes[written] = node
            written += 1
        }
        nodes.removeLast(nodes.count - written)
        // An active group's nodes are all kept, so it stays one run of consecutive nodes.
        for k in active.indices {
            let first = Int(newIndex[active[k].nodes.lowerBound])
            active[k].nodes = first..<(first + active[k].nodes.count)
        }
        lastResort = lastResort.map { Int(newIndex[$0]) }
    }

    private func pow3(_ x: Double) -> Double { x * x * x }

    /// Whether the line from the break at `start` to `end` is one box after a break between two
    /// letters (an unflagged penalty, not a space): one CJK character and its punctuation.
    static func isLoneBox(_ items: [Item], after start: Int, before end: Int) -> Bool {
        items[start].kind == .penalty && !items[start].flagged
            && (start + 1..<end).count(where: { items[$0].kind == .box }) == 1
    }

    /// What a hyphen fragment alone on a last line costs in the emergency pass (the rest of a
    /// word hyphenated on the line before, or one word after a line ending in a hyphen or
    /// dash; the last line has no word space): more than any line of
    /// finite badness, less than an overfull line, so it is taken only when nothing else fits.
    static let fragmentDemerits = 1e7
}
