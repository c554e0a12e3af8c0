// A diff for people to read: `sheaf serve` shows a version of a note against the note today.
// It is the line diff the three-way merge runs on (LineDiff, git's xdiff rules), given as the
// lines of both texts in order, each kept, removed or added, so a reader sees what the merge sees.

/// The lines of `old` and `new` in order, each marked kept, removed (only in `old`) or added
/// (only in `new`); a change's removed lines come before its added ones.
public enum TextDiff {
    public enum Kind: Sendable, Equatable { case kept, removed, added }

    public struct Line: Sendable, Equatable {
        public let kind: Kind
        /// The line's bytes without its line break.
        public let bytes: ArraySlice<UInt8>
    }

    public static func lines(from old: [UInt8], to new: [UInt8]) -> [Line] {
        let a = TextLines(old), b = TextLines(new)
        var classifier = LineClassifier()
        let changes = LineDiff.changes(classifier.side(a), classifier.side(b))
        var out: [Line] = []
        out.reserveCapacity(max(a.count, b.count))
        func line(_ kind: Kind, _ text: TextLines, _ i: Int) -> Line {
            var bytes = text[i]
            if bytes.last == 10 { bytes = bytes.dropLast() }
            if bytes.last == 13 { bytes = bytes.dropLast() }
            return Line(kind: kind, bytes: bytes)
        }
        var i1 = 0, i2 = 0
        for change in changes + [LineChange(i1: a.count, chg1: 0, i2: b.count, chg2: 0)] {
            while i1 < change.i1 { out.append(line(.kept, a, i1)); i1 += 1; i2 += 1 }
            for i in change.i1..<change.i1 + change.chg1 { out.append(line(.removed, a, i)) }
            for i in change.i2..<change.i2 + change.chg2 { out.append(line(.added, b, i)) }
            i1 = change.i1 + change.chg1
            i2 = change.i2 + change.chg2
        }
        return out
    }
}
