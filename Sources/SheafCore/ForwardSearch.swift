/// The first position at or after `from` where a test holds, with what earlier searches found
/// kept: a search that found nothing is not made again from a later position, and one that found
/// a match answers every later search that starts at or before that match. The scanners look for
/// a closer from each opener (`]` after every `[`); without this a line of 200,000 `[` took
/// minutes, and a synced note hung every command that read it (regression).
///
/// Linear over a whole line when the searches start in increasing order and each match found is
/// either skipped past or searched for again from a position at or before it, as in the scanners.
struct ForwardSearch {
    /// No position in `noneFrom..<limit` holds.
    private var noneFrom: Int
    /// The search from `lastFrom` found `lastAt`: no position in `lastFrom..<lastAt` holds.
    private var lastFrom = Int.max, lastAt = Int.min

    init(limit: Int) { noneFrom = limit }

    mutating func first(from: Int, where holds: (Int) -> Bool) -> Int? {
        if from >= noneFrom { return nil }
        if from >= lastFrom && from <= lastAt { return lastAt }
        var k = from
        while k < noneFrom {
            if holds(k) { lastFrom = from; lastAt = k; return k }
            k += 1
        }
        noneFrom = from
        return nil
    }
}
