// The line diff (LineDiff, git's xdiff rules) on any sequence of items, for the front-matter
// list merge: its time and memory stay near linear in the items on any input, where a table of
// longest common subsequences took the product of both lists' lengths.

/// Where `side` differs from `base`, item by item (items compare by equality).
public enum SequenceDiff {
    /// The stretches where `side` differs from `base`, in order: the items of `base` it removed
    /// there and the items it wrote there.
    public static func gaps<Item: Hashable>(_ base: [Item], _ side: [Item]) -> [(base: Range<Int>, side: Range<Int>)] {
        var ids: [Item: Int] = [:]
        func id(_ item: Item) -> Int {
            if let known = ids[item] { return known }
            ids[item] = ids.count
            return ids.count - 1
        }
        let a = DiffSide(ids: base.map(id)), b = DiffSide(ids: side.map(id))
        return LineDiff.changes(a, b).map { ($0.i1..<($0.i1 + $0.chg1), $0.i2..<($0.i2 + $0.chg2)) }
    }
}
