// The line diff under Sheaf's three-way merge, in pure Swift so a merge needs no libgit2 (whose
// start-up parses every system CA certificate: most of what `sheaf merge-file` cost as git's
// merge driver). It follows the rules of git's xdiff Myers diff (the default of `git merge-file`),
// because the merge is held to git's answers (`LineMergeAgreesWithGitTests`): a clean merge must
// give git's bytes, and where git merges cleanly so must Sheaf. So, as xdiff does:
//   - lines are compared with their terminator (a last line without "\n" differs from one with);
//   - common lines at both ends are set aside, then lines absent from the other file, and lines
//     found too often there inside a run of such lines, are marked changed before the search;
//   - the search is Myers' middle snake, divided and conquered, with xdiff's cost cut-offs;
//   - each group of changed lines is slid down as far as it goes, then back up to line up with a
//     change in the other file when it can.

#if canImport(Glibc)
import Glibc
#endif

/// One side of a diff: its lines (each with its "\n", except possibly the last) as ids shared
/// with the other side (equal ids, equal bytes).
struct DiffSide {
    var ids: [Int]
    var count: Int { ids.count }
}

/// A run of changed lines: `chg1` lines of the old side at `i1` became `chg2` lines of the new
/// side at `i2`.
struct LineChange: Equatable {
    var i1: Int, chg1: Int, i2: Int, chg2: Int
}

/// The lines of a text, each with its line break; the last may have none.
struct TextLines {
    let bytes: [UInt8]
    /// Start offsets of each line, plus `bytes.count` at the end.
    let starts: [Int]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var starts: [Int] = []
        // memchr finds the line breaks: a byte-by-byte Swift loop is ~50x slower in a debug build,
        // and a writer redoes its merge on every try against a busy editor.
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, !buffer.isEmpty else { return }
            starts.reserveCapacity(buffer.count / 32 + 2)
            starts.append(0)
            var at = 0
            while at < buffer.count, let hit = memchr(base + at, 10, buffer.count - at) {
                let next = base.distance(to: hit.assumingMemoryBound(to: UInt8.self)) + 1
                if next < buffer.count { starts.append(next) }
                at = next
            }
        }
        starts.append(bytes.count)
        self.starts = starts
    }

    var count: Int { starts.count - 1 }

    subscript(line: Int) -> ArraySlice<UInt8> { bytes[starts[line]..<starts[line + 1]] }

    /// The bytes of lines `start ..< start + count`.
    func slice(_ start: Int, _ count: Int) -> ArraySlice<UInt8> {
        count <= 0 ? [] : bytes[starts[start]..<starts[start + count]]
    }
}

/// Gives equal lines equal ids across every text it has seen.
struct LineClassifier {
    private var ids: [LineKey: Int] = [:]

    mutating func side(_ lines: TextLines) -> DiffSide {
        var out: [Int] = []
        out.reserveCapacity(lines.count)
        for line in 0..<lines.count {
            let key = LineKey(lines[line])
            if let id = ids[key] {
                out.append(id)
            } else {
                out.append(ids.count)
                ids[key] = ids.count
            }
        }
        return DiffSide(ids: out)
    }
}

/// A line as a dictionary key, hashed and compared as one block of bytes (`Hasher.combine(bytes:)`
/// and `memcmp`) rather than byte by byte through the generic `ArraySlice` conformances.
private struct LineKey: Hashable {
    let text: ArraySlice<UInt8>

    init(_ text: ArraySlice<UInt8>) { self.text = text }

    func hash(into hasher: inout Hasher) {
        text.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    static func == (a: LineKey, b: LineKey) -> Bool {
        guard a.text.count == b.text.count else { return false }
        return a.text.withUnsafeBytes { x in
            b.text.withUnsafeBytes { y in x.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 }
        }
    }
}

enum LineDiff {
    /// The changes that turn `a` into `b`, in order.
    static func changes(_ a: DiffSide, _ b: DiffSide) -> [LineChange] {
        var changed1 = [Bool](repeating: false, count: a.count + 2)  // index + 1; sentinels at both ends
        var changed2 = [Bool](repeating: false, count: b.count + 2)
        search(a, b, &changed1, &changed2)
        compact(a, &changed1, &changed2)
        compact(b, &changed2, &changed1)
        return script(changed1, changed2, a.count, b.count)
    }

    // MARK: Preparing: trimmed ends, discarded lines

    /// Integer square root by powers of four, as xdiff rounds it.
    static func roughSquareRoot(_ n: Int) -> Int {
        var n = n, root = 1
        while n > 0 { root <<= 1; n >>= 2 }
        return root
    }

    private static func search(_ a: DiffSide, _ b: DiffSide, _ changed1: inout [Bool], _ changed2: inout [Bool]) {
        // Common lines at both ends.
        let limit = min(a.count, b.count)
        var start = 0
        while start < limit, a.ids[start] == b.ids[start] { start += 1 }
        var tail = 0
        while tail < limit - start, a.ids[a.count - 1 - tail] == b.ids[b.count - 1 - tail] { tail += 1 }
        let (end1, end2) = (a.count - tail - 1, b.count - tail - 1)

        // How often each id occurs on each side (the whole side, as xdiff's hash chains hold it).
        // Ids are dense (a classifier hands out 0, 1, 2, ...), so counts live in arrays.
        let idCount = max(a.ids.max() ?? -1, b.ids.max() ?? -1) + 1
        var inA = [Int](repeating: 0, count: idCount), inB = [Int](repeating: 0, count: idCount)
        for id in a.ids { inA[id] += 1 }
        for id in b.ids { inB[id] += 1 }
        let index1 = kept(a, from: start, to: end1, occurrences: inB)
        let index2 = kept(b, from: start, to: end2, occurrences: inA)
        markUnkept(index1, from: start, to: end1, in: &changed1)
        markUnkept(index2, from: start, to: end2, in: &changed2)

        var myers = Myers(ha1: index1.map { a.ids[$0] }, ha2: index2.map { b.ids[$0] })
        myers.compare(0, index1.count, 0, index2.count, needMinimal: false)
        for (k, line) in index1.enumerated() where myers.changed1[k] { changed1[line + 1] = true }
        for (k, line) in index2.enumerated() where myers.changed2[k] { changed2[line + 1] = true }
    }

    /// The lines of `side` between `start` and `end` that take part in the search: those found on
    /// the other side, except lines found there often that sit in a run of lines not found.
    /// In ascending order.
    private static func kept(_ side: DiffSide, from start: Int, to end: Int, occurrences: [Int]) -> [Int] {
        guard end >= start else { return [] }
        let limit = min(roughSquareRoot(side.count), 1024)
        // 0: not on the other side; 1: found; 2: found `limit` times or more.
        var mark = [UInt8](repeating: 0, count: side.count + 1)
        for i in start...end {
            let n = min(occurrences[side.ids[i]], limit)
            mark[i] = n == 0 ? 0 : n >= limit ? 2 : 1
        }
        var kept: [Int] = []
        for i in start...end where mark[i] == 1 || (mark[i] == 2 && !inRunOfUnmatched(mark, i, start, end)) {
            kept.append(i)
        }
        return kept
    }

    /// Marks changed every line from `start` through `end` that `kept` (ascending) leaves out.
    private static func markUnkept(_ kept: [Int], from start: Int, to end: Int, in changed: inout [Bool]) {
        guard end >= start else { return }
        var k = 0
        for i in start...end {
            if k < kept.count && kept[k] == i { k += 1 } else { changed[i + 1] = true }
        }
    }

    /// Whether the often-found line `i` sits among lines not found (enough of them on both sides
    /// within a window of 100 lines) and should be treated as changed.
    private static func inRunOfUnmatched(_ mark: [UInt8], _ i: Int, _ start: Int, _ end: Int) -> Bool {
        let s = i - start > 100 ? i - 100 : start
        let e = end - i > 100 ? i + 100 : end
        var unmatchedBefore = 0, multiBefore = 1, r = 1
        while i - r >= s {
            if mark[i - r] == 0 { unmatchedBefore += 1 } else if mark[i - r] == 2 { multiBefore += 1 } else { break }
            r += 1
        }
        if unmatchedBefore == 0 { return false }
        var unmatchedAfter = 0, multiAfter = 1
        r = 1
        while i + r <= e {
            if mark[i + r] == 0 { unmatchedAfter += 1 } else if mark[i + r] == 2 { multiAfter += 1 } else { break }
            r += 1
        }
        if unmatchedAfter == 0 { return false }
        let unmatched = unmatchedBefore + unmatchedAfter, multi = multiBefore + multiAfter
        return multi * 4 < multi + unmatched
    }

    // MARK: Sliding groups of changed lines

    /// A group of changed lines `start ..< end` (line numbers; `changed` is offset by one).
    private struct Group { var start = 0, end = 0 }

    private static func firstGroup(_ changed: [Bool]) -> Group {
        var g = Group()
        while changed[g.end + 1] { g.end += 1 }
        return g
    }

    private static func next(_ g: inout Group, _ changed: [Bool], _ count: Int) -> Bool {
        if g.end == count { return false }
        g.start = g.end + 1
        g.end = g.start
        while changed[g.end + 1] { g.end += 1 }
        return true
    }

    private static func previous(_ g: inout Group, _ changed: [Bool]) -> Bool {
        if g.start == 0 { return false }
        g.end = g.start - 1
        g.start = g.end
        while changed[g.start] { g.start -= 1 }  // changed[g.start] is line g.start - 1
        return true
    }

    private static func slideDown(_ g: inout Group, _ side: DiffSide, _ changed: inout [Bool]) -> Bool {
        guard g.end < side.count, side.ids[g.start] == side.ids[g.end] else { return false }
        changed[g.start + 1] = false
        g.start += 1
        changed[g.end + 1] = true
        g.end += 1
        while changed[g.end + 1] { g.end += 1 }
        return true
    }

    private static func slideUp(_ g: inout Group, _ side: DiffSide, _ changed: inout [Bool]) -> Bool {
        guard g.start > 0, side.ids[g.start - 1] == side.ids[g.end - 1] else { return false }
        g.start -= 1
        changed[g.start + 1] = true
        g.end -= 1
        changed[g.end + 1] = false
        while changed[g.start] { g.start -= 1 }
        return true
    }

    /// Slides each group of `side`'s changed lines down as far as it goes (joining groups it
    /// meets), then back up to end with a group of the other side's changes when one lines up.
    private static func compact(_ side: DiffSide, _ changed: inout [Bool], _ other: inout [Bool]) {
        let otherCount = other.count - 2
        var g = firstGroup(changed), go = firstGroup(other)
        while true {
            if g.end != g.start {
                var size = 0, earliestEnd = 0, matchingEnd = -1
                repeat {
                    size = g.end - g.start
                    matchingEnd = -1
                    while slideUp(&g, side, &changed) { _ = previous(&go, other) }
                    earliestEnd = g.end
                    if go.end > go.start { matchingEnd = g.end }
                    while slideDown(&g, side, &changed) {
                        _ = next(&go, other, otherCount)
                        if go.end > go.start { matchingEnd = g.end }
                    }
                } while size != g.end - g.start
                if g.end != earliestEnd, matchingEnd != -1 {
                    while go.end == go.start {
                        _ = slideUp(&g, side, &changed)
                        _ = previous(&go, other)
                    }
                }
            }
            if !next(&g, changed, side.count) { break }
            _ = next(&go, other, otherCount)
        }
    }

    /// The runs of changed lines, in order.
    private static func script(_ changed1: [Bool], _ changed2: [Bool], _ n1: Int, _ n2: Int) -> [LineChange] {
        var out: [LineChange] = []
        var i1 = n1, i2 = n2
        while i1 >= 0 || i2 >= 0 {
            // Index i of `changed` is line i - 1; the sentinels at both ends are never changed.
            func at(_ changed: [Bool], _ i: Int) -> Bool { i >= 0 && changed[i] }
            if at(changed1, i1) || at(changed2, i2) {
                let (l1, l2) = (i1, i2)
                while at(changed1, i1) { i1 -= 1 }
                while at(changed2, i2) { i2 -= 1 }
                out.append(LineChange(i1: i1, chg1: l1 - i1, i2: i2, chg2: l2 - i2))
            }
            i1 -= 1; i2 -= 1
        }
        return out.reversed()
    }
}

/// Myers' O(ND) search by middle snakes, on the lines left after preparing, with xdiff's
/// cut-offs for costly inputs (an edit cost over 256 with a long snake in sight, or over the
/// rough square root of the size: the furthest-reaching path is taken instead).
private struct Myers {
    let ha1: [Int], ha2: [Int]
    var changed1: [Bool], changed2: [Bool]
    private var forward: [Int], backward: [Int]
    private let offset: Int, maxCost: Int
    private let snakeCount = 20, heuristicMinimum = 256
    private static let lineMax = Int.max

    init(ha1: [Int], ha2: [Int]) {
        self.ha1 = ha1
        self.ha2 = ha2
        changed1 = [Bool](repeating: false, count: ha1.count)
        changed2 = [Bool](repeating: false, count: ha2.count)
        let diagonals = ha1.count + ha2.count + 3
        forward = [Int](repeating: 0, count: diagonals + 1)
        backward = [Int](repeating: 0, count: diagonals + 1)
        offset = ha2.count + 1
        maxCost = max(256, LineDiff.roughSquareRoot(diagonals))
    }

    mutating func compare(_ off1: Int, _ lim1: Int, _ off2: Int, _ lim2: Int, needMinimal: Bool) {
        var (off1, lim1, off2, lim2) = (off1, lim1, off2, lim2)
        while off1 < lim1, off2 < lim2, ha1[off1] == ha2[off2] { off1 += 1; off2 += 1 }
        while off1 < lim1, off2 < lim2, ha1[lim1 - 1] == ha2[lim2 - 1] { lim1 -= 1; lim2 -= 1 }
        if off1 == lim1 {
            for i in off2..<max(off2, lim2) { changed2[i] = true }
        } else if off2 == lim2 {
            for i in off1..<lim1 { changed1[i] = true }
        } else {
            let split = self.split(off1, lim1, off2, lim2, needMinimal: needMinimal)
            compare(off1, split.i1, off2, split.i2, needMinimal: split.minLow)
            compare(split.i1, lim1, split.i2, lim2, needMinimal: split.minHigh)
        }
    }

    private mutating func split(_ off1: Int, _ lim1: Int, _ off2: Int, _ lim2: Int, needMinimal: Bool)
        -> (i1: Int, i2: Int, minLow: Bool, minHigh: Bool) {
        let o = offset
        let dmin = off1 - lim2, dmax = lim1 - off2
        let fmid = off1 - off2, bmid = lim1 - lim2
        let odd = (fmid - bmid) & 1 != 0
        var fmin = fmid, fmax = fmid, bmin = bmid, bmax = bmid
        forward[fmid + o] = off1
        backward[bmid + o] = lim1
        var cost = 1
        while true {
            var gotSnake = false
            if fmin > dmin { fmin -= 1; forward[fmin - 1 + o] = -1 } else { fmin += 1 }
            if fmax < dmax { fmax += 1; forward[fmax + 1 + o] = -1 } else { fmax -= 1 }
            var d = fmax
            while d >= fmin {
                var i1 = forward[d - 1 + o] >= forward[d + 1 + o] ? forward[d - 1 + o] + 1 : forward[d + 1 + o]
                let previous = i1
                var i2 = i1 - d
                while i1 < lim1, i2 < lim2, ha1[i1] == ha2[i2] { i1 += 1; i2 += 1 }
                if i1 - previous > snakeCount { gotSnake = true }
                forward[d + o] = i1
                if odd, bmin <= d, d <= bmax, backward[d + o] <= i1 { return (i1, i2, true, true) }
                d -= 2
            }
            if bmin > dmin { bmin -= 1; backward[bmin - 1 + o] = Self.lineMax } else { bmin += 1 }
            if bmax < dmax { bmax += 1; backward[bmax + 1 + o] = Self.lineMax } else { bmax -= 1 }
            d = bmax
            while d >= bmin {
                var i1 = backward[d - 1 + o] < backward[d + 1 + o] ? backward[d - 1 + o] : backward[d + 1 + o] - 1
                let previous = i1
                var i2 = i1 - d
                while i1 > off1, i2 > off2, ha1[i1 - 1] == ha2[i2 - 1] { i1 -= 1; i2 -= 1 }
                if previous - i1 > snakeCount { gotSnake = true }
                backward[d + o] = i1
                if !odd, fmin <= d, d <= fmax, i1 <= forward[d + o] { return (i1, i2, true, true) }
                d -= 2
            }
            if needMinimal { cost += 1; continue }

            if gotSnake, cost > heuristicMinimum {
                var best = 0, found = (0, 0)
                d = fmax
                while d >= fmin {
                    let dd = d > fmid ? d - fmid : fmid - d
                    let i1 = forward[d + o], i2 = i1 - d
                    let v = (i1 - off1) + (i2 - off2) - dd
                    if v > 4 * cost, v > best, off1 + snakeCount <= i1, i1 < lim1, off2 + snakeCount <= i2, i2 < lim2 {
                        var k = 1
                        while ha1[i1 - k] == ha2[i2 - k] {
                            if k == snakeCount { best = v; found = (i1, i2); break }
                            k += 1
                        }
                    }
                    d -= 2
                }
                if best > 0 { return (found.0, found.1, true, false) }
                best = 0
                d = bmax
                while d >= bmin {
                    let dd = d > bmid ? d - bmid : bmid - d
                    let i1 = backward[d + o], i2 = i1 - d
                    let v = (lim1 - i1) + (lim2 - i2) - dd
                    if v > 4 * cost, v > best, off1 < i1, i1 <= lim1 - snakeCount, off2 < i2, i2 <= lim2 - snakeCount {
                        var k = 0
                        while ha1[i1 + k] == ha2[i2 + k] {
                            if k == snakeCount - 1 { best = v; found = (i1, i2); break }
                            k += 1
                        }
                    }
                    d -= 2
                }
                if best > 0 { return (found.0, found.1, false, true) }
            }

            if cost >= maxCost {
                var fbest = -1, fbest1 = -1
                d = fmax
                while d >= fmin {
                    var i1 = min(forward[d + o], lim1), i2 = i1 - d
                    if lim2 < i2 { i1 = lim2 + d; i2 = lim2 }
                    if fbest < i1 + i2 { fbest = i1 + i2; fbest1 = i1 }
                    d -= 2
                }
                var bbest = Self.lineMax, bbest1 = Self.lineMax
                d = bmax
                while d >= bmin {
                    var i1 = max(off1, backward[d + o]), i2 = i1 - d
                    if i2 < off2 { i1 = off2 + d; i2 = off2 }
                    if i1 + i2 < bbest { bbest = i1 + i2; bbest1 = i1 }
                    d -= 2
                }
                if (lim1 + lim2) - bbest < fbest - (off1 + off2) {
                    return (fbest1, fbest - fbest1, true, false)
                }
                return (bbest1, bbest - bbest1, false, true)
            }
            cost += 1
        }
    }
}
