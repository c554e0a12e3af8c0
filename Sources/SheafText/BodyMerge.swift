// The line merge of a note's body (or of any text file), with one rule on top of git's: where
// both sides only inserted lines at the same place (two devices appending to today's journal,
// two new CHANGELOG sections) both insertions are kept, the local side's first, and a line both
// added identically at the edges is written once. git calls that a conflict. The overlaps are
// read from the `diff3` regions (`Diff3.regions`, cut as git's `diff3` style cuts them), which keep the blank
// line that separates two insertions inside the overlap; every other overlap stays a conflict (docs/merging.md).

enum BodyMerge {
    /// The merged bytes with the local side in each real overlap, and the remote side's version
    /// (remote side in each real overlap) when one is left; nil when the merge is clean.
    static func merge(base: [UInt8], ours: [UInt8], theirs: [UInt8]) -> (local: [UInt8], remote: [UInt8]?) {
        merge(Diff3.Input(base: base, ours: ours, theirs: theirs))
    }

    /// `merge` of texts already split and classified (the caller may ask more of them).
    static func merge(_ input: Diff3.Input) -> (local: [UInt8], remote: [UInt8]?) {
        let plain = input.merge(favor: .none)
        if plain.clean { return (plain.bytes, nil) }  // git's answer wherever git's merge is clean
        let regions = input.regions()
        guard regions.contains(where: isBothInserted) else {
            return input.mergeBothWays()
        }
        var local: [UInt8] = [], remote: [UInt8] = [], clean = true
        for region in regions {
            switch region {
            case .settled(let text):
                local += text; remote += text
            case let .overlap(_, o, t) where isBothInserted(region):
                let both = bothInsertions(ours: o, theirs: t)
                local += both; remote += both
            case let .overlap(_, o, t):
                local += o; remote += t; clean = false
            }
        }
        return (local, clean ? nil : remote)
    }

    /// An overlap where neither side changed or removed an ancestor line.
    static func isBothInserted(_ region: Diff3.Region) -> Bool {
        guard case let .overlap(base, ours, theirs) = region else { return false }
        return base.isEmpty && !ours.isEmpty && !theirs.isEmpty
    }

    /// The local insertion, then the remote one. Non-blank lines both start with (up to the last
    /// non-blank one of that run) and non-blank lines both end with are written once; blank lines
    /// at the edges stay with each side, so the insertions keep their separators.
    static func bothInsertions(ours: [UInt8], theirs: [UInt8]) -> [UInt8] {
        let o = lines(ours), t = lines(theirs)
        var head = 0
        while head < o.count, head < t.count, o[head] == t[head] { head += 1 }
        while head > 0, isBlank(o[head - 1]) { head -= 1 }
        var tail = 0
        while tail < min(o.count, t.count) - head, o[o.count - 1 - tail] == t[t.count - 1 - tail] { tail += 1 }
        while tail > 0, isBlank(o[o.count - tail]) { tail -= 1 }
        let picked = o[..<(o.count - tail)] + t[head..<(t.count - tail)] + o[(o.count - tail)...]
        var out: [UInt8] = []
        for line in picked { out += line; out.append(10) }
        // The last line keeps its own side's ending (only a file's last line can lack a break).
        let lastFromOurs = tail > 0 || head == t.count - tail
        if (lastFromOurs ? ours : theirs).last != 10, out.last == 10 { out.removeLast() }
        return out
    }

    /// The lines of `bytes` without their line breaks.
    static func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var out: [ArraySlice<UInt8>] = []
        var start = 0
        for (i, byte) in bytes.enumerated() where byte == 10 {
            out.append(bytes[start..<i]); start = i + 1
        }
        if start < bytes.count { out.append(bytes[start...]) }
        return out
    }

    static func isBlank(_ line: ArraySlice<UInt8>) -> Bool {
        line.allSatisfy { $0 == 32 || $0 == 9 || $0 == 13 }
    }

    /// The whole lines both texts start with: the template two devices filled in when each made
    /// the same note (a daily note) on its own.
    static func sharedStart(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        var end = 0, i = 0
        while i < a.count, i < b.count, a[i] == b[i] {
            if a[i] == 10 { end = i + 1 }
            i += 1
        }
        return Array(a[..<end])
    }
}
