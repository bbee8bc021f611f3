import TestSupport
import Testing

@testable import Layout

/// The search visits the active breaks a group at a time (the nodes made at one break share
/// the line from there) and skips a node that another of its group dominates. The result
/// must be the one node-at-a-time search's, to the bit: checked here against that search,
/// kept as a reference, over seeded random paragraphs of words, hyphens, emergency breaks,
/// forced breaks and hanging punctuation, justified and ragged, on every pass.
@Suite struct LineBreakerGroupingTests {
    static func paragraph(_ random: inout SeededRandom) -> [LineBreaker.Item] {
        var items: [LineBreaker.Item] = []
        let words = 1 + random.below(80)
        for w in 0..<words {
            if w > 0 {
                if random.below(12) == 0 { items.append(.penalty(cost: -.infinity)) }
                items.append(.glue(3 + random.unit(), stretch: 1.5, shrink: 1, hang: random.below(6) == 0 ? 2 : 0))
            }
            // Long unspaced words now and then: emergency breaks between letters.
            let letters = random.below(10) == 0 ? 40 + random.below(120) : 1 + random.below(12)
            let emergency = letters > 30
            for l in 0..<letters {
                if l > 0 && emergency { items.append(.penalty(cost: 500, emergency: true)) }
                if l > 1 && !emergency && random.below(5) == 0 { items.append(.penalty(4, cost: 50, flagged: true)) }
                items.append(.box(4 + 3 * random.unit(), stretch: random.below(8) == 0 ? 0.5 : 0))
            }
        }
        items.append(.penalty(cost: -.infinity))
        return items
    }

    @Test func groupedSearchEqualsNodeAtATimeSearch() {
        var random = SeededRandom(seed: 20_261_201)
        for case_ in 0..<100 {
            let items = Self.paragraph(&random)
            var parameters = LineBreaker.Parameters()
            if case_ % 2 == 1 { parameters.raggedStretch = 20 }
            if case_ % 5 == 0 { parameters.tolerance = 1 }
            let width = 60 + Double(random.below(400))
            let result = LineBreaker(parameters: parameters).breakLines(items, width: width)
            let reference = ReferenceLineBreaker(parameters: parameters).breakLines(items, width: width)
            #expect(result.lines == reference.lines, "case \(case_), width \(width)")
            #expect(result.emergency == reference.emergency && result.overfull == reference.overfull, "case \(case_)")
        }
    }

    /// The search drops the nodes no active break descends from once it has made
    /// ``LineBreaker/compactionThreshold`` of them (a paragraph of a megabyte made 800,000 and
    /// kept them all). Compacting after every few nodes — renumbering the survivors, the
    /// active groups and the last resort of an overfull line — must not change a single break,
    /// ratio or width: checked against the reference on random paragraphs, long ones among
    /// them, on every pass (emergency breaks and overfull lines included).
    @Test func compactedSearchEqualsReference() {
        var random = SeededRandom(seed: 15_000_001)
        for case_ in 0..<120 {
            var items = Self.paragraph(&random)
            if case_ % 4 == 0 {
                // A long paragraph: several random ones run together (forced breaks inside).
                for _ in 0..<6 {
                    items.removeLast()
                    items += [.glue(3.5, stretch: 1.5, shrink: 1)] + Self.paragraph(&random)
                }
            }
            var parameters = LineBreaker.Parameters()
            if case_ % 2 == 1 { parameters.raggedStretch = 20 }
            if case_ % 5 == 0 { parameters.tolerance = 1 }
            let width = 40 + Double(random.below(400))
            var breaker = LineBreaker(parameters: parameters)
            breaker.compactionThreshold = 1 + random.below(24)
            let result = breaker.breakLines(items, width: width)
            let reference = ReferenceLineBreaker(parameters: parameters).breakLines(items, width: width)
            #expect(
                result.lines == reference.lines,
                "case \(case_), width \(width), threshold \(breaker.compactionThreshold)")
            #expect(result.emergency == reference.emergency && result.overfull == reference.overfull, "case \(case_)")
        }
    }

    /// A 3,000-letter word (an emergency break between every two letters) is broken into full
    /// lines, the last one short, as the reference search breaks it.
    @Test func longWordBreaksLikeTheReference() {
        var items: [LineBreaker.Item] = []
        for l in 0..<3_000 {
            if l > 0 { items.append(.penalty(cost: 500, emergency: true)) }
            items.append(.box(5 + Double(l % 7) * 0.25))
        }
        items.append(.penalty(cost: -.infinity))
        var parameters = LineBreaker.Parameters()
        parameters.raggedStretch = 21
        let result = LineBreaker(parameters: parameters).breakLines(items, width: 453.5)
        #expect(result.emergency)
        #expect(result.lines == ReferenceLineBreaker(parameters: parameters).breakLines(items, width: 453.5).lines)
        for line in result.lines.dropLast() { #expect(line.naturalWidth <= 453.5 && line.naturalWidth > 453.5 - 7) }
    }

    /// A word of 40,000 letters, where paths a letter apart never meet and compaction alone
    /// settles nothing (the search held more nodes the longer the word: 44,000 at 80,000
    /// letters), is cut to
    /// the best path's descendants sixteen lines back (``LineBreaker/emergencyNodeLimit``): the
    /// search holds a bounded number of nodes whatever the word's length, and its lines are
    /// still every one full, the lines the reference search (which holds every node) chooses.
    @Test func aVeryLongWordIsBrokenLikeTheReferenceHoldingFewNodes() {
        func word(_ letters: Int) -> [LineBreaker.Item] {
            var items: [LineBreaker.Item] = []
            for l in 0..<letters {
                if l > 0 { items.append(.penalty(cost: 500, emergency: true)) }
                items.append(.box(5 + Double(l % 7) * 0.25))
            }
            return items + [.penalty(cost: -.infinity)]
        }
        let items = word(40_000)
        var held = 0
        let result = LineBreaker().breakLines(items, width: 453.5, mostNodes: &held)
        #expect(held <= 4 * LineBreaker.emergencyNodeLimit, "\(held) nodes held")
        var heldByTwice = 0
        _ = LineBreaker().breakLines(word(80_000), width: 453.5, mostNodes: &heldByTwice)
        #expect(heldByTwice <= 4 * LineBreaker.emergencyNodeLimit, "\(heldByTwice) nodes held")
        let reference = ReferenceLineBreaker(parameters: LineBreaker.Parameters()).breakLines(items, width: 453.5)
        #expect(result.lines == reference.lines)
        for line in result.lines.dropLast() { #expect(line.naturalWidth <= 453.5 && line.naturalWidth > 453.5 - 7) }
    }
}

/// The node-at-a-time total-fit search as ``LineBreaker`` ran it before breaks were grouped
/// (Knuth & Plass 1981; the same passes, demerits and tie-breaking), kept as the reference.
struct ReferenceLineBreaker {
    var parameters: LineBreaker.Parameters
    typealias Item = LineBreaker.Item

    private struct Node {
        var position: Int, line: Int, fitness: Int, hyphens: Int
        var totalWidth: Double, totalStretch: Double, totalShrink: Double
        var demerits: Double, previous: Int, ratio: Double, hyphenated: Bool
    }

    func breakLines(_ items: [Item], width: Double) -> LineBreaker.Result {
        var items = items
        if items.last.map({ !($0.kind == .penalty && $0.cost == -.infinity) }) ?? true {
            items.append(.penalty(cost: -.infinity, position: items.last.map { $0.position } ?? 0))
        }
        if let lines = search(items, width: width, tolerance: parameters.tolerance, emergency: false)
            ?? search(items, width: width, tolerance: .infinity, emergency: false)
        {
            return LineBreaker.Result(lines: lines, emergency: false, overfull: false)
        }
        let lines = search(items, width: width, tolerance: .infinity, emergency: true)!
        let overfull = lines.contains { $0.naturalWidth - width - $0.hang > 0.01 && $0.ratio <= -1 }
        return LineBreaker.Result(lines: lines, emergency: true, overfull: overfull)
    }

    private func fitness(_ r: Double) -> Int { r < -0.5 ? 3 : r <= 0.5 ? 2 : r <= 1 ? 1 : 0 }

    private func lineStart(after i: Int, _ items: [Item]) -> Int {
        var j = i
        if items[j].kind != .box { j += 1 }
        while j < items.count, items[j].kind != .box, !(items[j].kind == .penalty && items[j].cost == -.infinity) {
            j += 1
        }
        return j
    }

    private func search(_ items: [Item], width: Double, tolerance: Double, emergency: Bool) -> [LineBreaker.Line]? {
        let p = parameters
        let count = items.count
        var sumWidth = [Double](repeating: 0, count: count + 1)
        var sumStretch = sumWidth
        var sumShrink = sumWidth
        for i in 0..<count {
            let item = items[i]
            let counts = item.kind != .penalty
            sumWidth[i + 1] = sumWidth[i] + (counts ? item.width : 0)
            sumStretch[i + 1] = sumStretch[i] + (counts ? item.stretch : 0)
            sumShrink[i + 1] = sumShrink[i] + (counts ? item.shrink : 0)
        }
        var nodes: [Node] = [
            Node(
                position: -1, line: 0, fitness: 2, hyphens: 0, totalWidth: 0, totalStretch: 0,
                totalShrink: 0, demerits: 0, previous: -1, ratio: 0, hyphenated: false)
        ]
        var active: [Int] = [0]
        var survivors: [Int] = []
        var lastResort: Int? = nil
        let slots = 4 * 3
        var best = [(demerits: Double, from: Int, ratio: Double)](repeating: (.infinity, -1, 0), count: slots)
        for i in 0..<count {
            let item = items[i]
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
            for a in active {
                let node = nodes[a]
                let natural = sumWidth[i] - node.totalWidth + breakWidth
                let available = width + item.hang
                let stretch = p.raggedStretch ?? (sumStretch[i] - node.totalStretch)
                let shrink = p.raggedStretch == nil ? sumShrink[i] - node.totalShrink : 0
                var ratio: Double
                if natural > available + 1e-9 {
                    ratio = shrink > 0 ? (available - natural) / shrink : -.infinity
                } else if forced || natural >= available - 1e-9 {
                    ratio = 0
                } else {
                    ratio = (available - natural) / (stretch > 0 ? stretch : width * p.rigidLineStretch)
                }
                if ratio < -1 {
                    lastResort = a
                    continue
                }
                survivors.append(a)
                if ratio > tolerance { continue }
                // A hyphen fragment alone on a last line (after a hyphenation or a word ending in a
                // hyphen): refused but in the emergency pass, where it costs 1e7.
                let unspaced =
                    forced && node.position >= 0 && !(node.position + 1..<i).contains { items[$0].kind == .glue }
                let fragment = unspaced && items[node.position].flagged
                if fragment && !emergency { continue }
                let hyphens = hyphenated ? node.hyphens + 1 : 0
                if hyphens > p.maxConsecutiveHyphens && !emergency { continue }
                let badness = ratio.isInfinite ? 1e7 : min(1e7, 100 * (abs(ratio) * abs(ratio) * abs(ratio)))
                var demerits = (p.linePenalty + badness) * (p.linePenalty + badness)
                if isPenalty && item.cost > 0 {
                    let weight = item.emergency && p.raggedStretch != nil ? p.raggedEmergencyWeight : 1
                    demerits += item.cost * item.cost * weight
                } else if isPenalty && item.cost < 0 && !forced {
                    demerits -= item.cost * item.cost
                }
                if hyphenated && node.hyphenated { demerits += p.doubleHyphenDemerits }
                if isLast && node.hyphenated { demerits += p.finalHyphenDemerits }
                let f = fitness(ratio)
                if abs(f - node.fitness) > 1 { demerits += p.adjacentDemerits }
                if isLast && unspaced && natural < width * p.shortLastLine { demerits += p.shortLastLineDemerits }
                if fragment { demerits += 1e7 }
                demerits += node.demerits
                let key = f * 3 + min(hyphens, 2)
                if demerits < best[key].demerits {
                    best[key] = (demerits, a, ratio)
                    found = true
                }
            }
            swap(&active, &survivors)
            if !found && active.isEmpty && emergency, let a = lastResort {
                best[2 * 3] = (nodes[a].demerits + 1e8, a, -1)
                found = true
            }
            if forced { active.removeAll(keepingCapacity: true) }
            if !found { continue }
            let after = lineStart(after: i, items)
            for key in 0..<slots where best[key].from >= 0 {
                let candidate = best[key]
                nodes.append(
                    Node(
                        position: i, line: nodes[candidate.from].line + 1, fitness: key / 3, hyphens: key % 3,
                        totalWidth: sumWidth[after], totalStretch: sumStretch[after], totalShrink: sumShrink[after],
                        demerits: candidate.demerits, previous: candidate.from, ratio: candidate.ratio,
                        hyphenated: hyphenated))
                active.append(nodes.count - 1)
            }
        }
        guard
            let end = active.filter({ nodes[$0].position == count - 1 }).min(by: {
                nodes[$0].demerits < nodes[$1].demerits
            })
        else { return nil }
        var chain: [Int] = []
        var n = end
        while n > 0 {
            chain.append(n)
            n = nodes[n].previous
        }
        var lines: [LineBreaker.Line] = []
        var start = 0
        for n in chain.reversed() {
            let node = nodes[n]
            let i = node.position
            let item = items[i]
            let natural = sumWidth[i] - sumWidth[start] + (item.kind == .penalty ? item.width : 0)
            lines.append(
                LineBreaker.Line(
                    breakIndex: i, start: start, ratio: node.ratio.isFinite ? node.ratio : 0,
                    naturalWidth: natural, hyphenated: node.hyphenated, hang: item.hang))
            start = lineStart(after: i, items)
        }
        return lines
    }
}
