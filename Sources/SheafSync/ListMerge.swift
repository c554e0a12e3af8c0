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
        var anchor = -1
        var used: [String: Int] = [:]
        for (j, k) in sk.enumerated() {
            if inserted.contains(j) {
                var at = anchor + 1
                while at < result.count, case .existing(let i) = result[at].slot, localInsertions.contains(i) { at += 1 }
                result.insert((.new(s[j]), k), at: at)
                anchor = at
            } else {
                // The n-th occurrence of this item in the secondary list is the n-th in the result.
                let n = used[k, default: 0]
                used[k] = n + 1
                let matches = result.indices.filter { result[$0].key == k }
                if n < matches.count { anchor = matches[n] }
            }
        }
        return .merged(result.map(\.slot))
    }

    /// Whether both sides replaced the same ancestor items, each by different items.
    private static func bothReplacedTheSameItemDifferently(base: [String], primary: [String], secondary: [String]) -> Bool {
        let ours = gaps(base, primary).filter { !$0.base.isEmpty && !$0.side.isEmpty }
        let theirs = gaps(base, secondary).filter { !$0.base.isEmpty && !$0.side.isEmpty }
        for a in ours {
            for b in theirs where a.base.overlaps(b.base) && primary[a.side] != secondary[b.side] { return true }
        }
        return false
    }

    /// The stretches where `side` differs from `base` (by a longest common subsequence): the
    /// ancestor items it removed there and the items it wrote there.
    static func gaps(_ base: [String], _ side: [String]) -> [(base: Range<Int>, side: Range<Int>)] {
        let n = base.count, m = side.count
        var table = Array(repeating: Array(repeating: 0, count: m + 1), count: n + 1)
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                table[i][j] = base[i] == side[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        var result: [(base: Range<Int>, side: Range<Int>)] = []
        var (i, j, gi, gj) = (0, 0, 0, 0)
        func closeGap() {
            if i > gi || j > gj { result.append((gi..<i, gj..<j)) }
        }
        while i < n && j < m {
            if base[i] == side[j] {
                closeGap(); i += 1; j += 1; gi = i; gj = j
            } else if table[i + 1][j] >= table[i][j + 1] { i += 1 } else { j += 1 }
        }
        i = n; j = m
        closeGap()
        return result
    }
}
