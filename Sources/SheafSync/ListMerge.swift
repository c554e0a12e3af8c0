// A front-matter list both sides changed, merged as a multiset in order (docs/merging.md):
// each item's count takes both sides' changes (so removing one of two equal entries is seen),
// the primary side's order is kept, and an item the other side added goes after its predecessor
// in the other side's order, behind the primary side's own additions there. One item that both
// sides replaced by different items is a conflict, not two items.
import SheafCore

enum ListMerge {
    enum Outcome: Equatable {
        /// The primary list rewritten: its own items by index, the other side's additions as text.
        case merged([FrontMatterEditor.ListSlot])
        case conflict
    }

    /// Merges `secondary`'s changes (against `base`) into `primary`; items compare by `key`.
    static func merge(primary p: [String], secondary s: [String], base b: [String],
                      key: (String) -> String) -> Outcome {
        let (pk, sk, bk) = (p.map(key), s.map(key), b.map(key))
        if bothReplacedTheSameItemDifferently(base: bk, primary: pk, secondary: sk) { return .conflict }

        func counts(_ keys: [String]) -> [String: Int] { keys.reduce(into: [:]) { $0[$1, default: 0] += 1 } }
        let (np, ns, nb) = (counts(pk), counts(sk), counts(bk))
        var target: [String: Int] = [:]
        for k in Set(pk).union(sk).union(bk) {
            let (x, y, z) = (np[k] ?? 0, ns[k] ?? 0, nb[k] ?? 0)
            if x == z { target[k] = y }
            else if y == z { target[k] = x }
            else if x > z && y > z { target[k] = max(x, y) }   // both added it: once
            else if x < z && y < z { target[k] = min(x, y) }   // both removed it
            else { target[k] = max(0, x + y - z) }
        }

        // The primary list without the occurrences that go (its last ones).
        var result: [(slot: FrontMatterEditor.ListSlot, key: String)] = []
        var seen: [String: Int] = [:]
        for (i, k) in pk.enumerated() {
            seen[k, default: 0] += 1
            if seen[k]! <= (target[k] ?? 0) { result.append((.existing(i), k)) }
        }

        // The secondary side's additions (its last occurrences beyond the kept count), each
        // after its predecessor in the secondary order.
        var extra: [String: Int] = [:]
        for k in Set(sk) { extra[k] = max(0, (target[k] ?? 0) - (np[k] ?? 0)) }
        var remaining = counts(sk)
        var inserted = Set<Int>()
        for (j, k) in sk.enumerated() {
            if remaining[k]! <= (extra[k] ?? 0) { inserted.insert(j) }
            remaining[k]! -= 1
        }
        // The primary side's own insertions (not replacements): additions at one place go
        // local first.
        let localInsertions = Set(gaps(bk, pk).filter { $0.base.isEmpty }.flatMap { Array($0.side) })
        // The result as a list linked in order (an insertion is no shift of what follows), and
        // the places of each key's kept primary items: a secondary item that is not an addition
        // comes before that key's additions in the secondary list, so its n-th occurrence is
        // the n-th kept primary one.
        // Node 0 is the start, node i + 1 is result[i], each added item a node appended.
        var slots: [FrontMatterEditor.ListSlot?] = [nil] + result.map(\.slot)
        var next = (0..<result.count).map { $0 + 1 } + [-1]
        var keptPlaces: [String: [Int]] = [:]
        for (i, entry) in result.enumerated() { keptPlaces[entry.key, default: []].append(i + 1) }
        func isLocalInsertion(_ node: Int) -> Bool {
            if node <= result.count, case .existing(let i)? = slots[node] { return localInsertions.contains(i) }
            return false
        }
        var anchor = 0
        var used: [String: Int] = [:]
        for (j, k) in sk.enumerated() {
            if inserted.contains(j) {
                var at = anchor
                while next[at] >= 0, isLocalInsertion(next[at]) { at = next[at] }
                slots.append(.new(s[j]))
                next.append(next[at])
                next[at] = slots.count - 1
                anchor = slots.count - 1
            } else {
                let n = used[k, default: 0]
                used[k] = n + 1
                if let places = keptPlaces[k], n < places.count { anchor = places[n] }
            }
        }
        var merged: [FrontMatterEditor.ListSlot] = []
        var node = next[0]
        while node >= 0, let slot = slots[node] { merged.append(slot); node = next[node] }
        return .merged(merged)
    }

    /// Whether both sides replaced the same ancestor items, each by different items. Each side's
    /// replacements are in order and apart, so one sweep meets every overlapping pair.
    private static func bothReplacedTheSameItemDifferently(base: [String], primary: [String], secondary: [String]) -> Bool {
        let ours = gaps(base, primary).filter { !$0.base.isEmpty && !$0.side.isEmpty }
        let theirs = gaps(base, secondary).filter { !$0.base.isEmpty && !$0.side.isEmpty }
        var (i, j) = (0, 0)
        while i < ours.count && j < theirs.count {
            let (a, b) = (ours[i], theirs[j])
            if a.base.overlaps(b.base) && primary[a.side] != secondary[b.side] { return true }
            if a.base.upperBound <= b.base.upperBound { i += 1 } else { j += 1 }
        }
        return false
    }

    /// The stretches where `side` differs from `base`: the ancestor items it removed there and
    /// the items it wrote there (the line diff's, on items: a table of common subsequences was
    /// the product of both lengths, and a synced list of 8,000 tags took half a gigabyte and
    /// minutes in every pull that merged it; regression).
    static func gaps(_ base: [String], _ side: [String]) -> [(base: Range<Int>, side: Range<Int>)] {
        SequenceDiff.gaps(base, side)
    }
}
