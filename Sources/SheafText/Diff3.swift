// Sheaf's line-by-line three-way merge, in pure Swift (no libgit2: a merge driver process pays
// only for the merge). It gives git's answers, as `git merge-file` computes them with xdiff
// (`LineMergeAgreesWithGitTests` holds it to the real git): each side is diffed against the
// ancestor (`LineDiff`), the two scripts are walked together, a change one side made alone is
// taken, the same change on both sides is taken once, and changes that touch or overlap form one
// overlap. Then, "zealously", each overlap is cut down to the lines the two sides really disagree
// on (a diff of one side's lines against the other's). Sheaf never keeps marker output: it asks
// for the clean result, for the result favouring one side in every overlap, or for the regions.

/// Which side fills a region both sides changed.
public enum MergeFavor: Sendable {
    /// Neither: the region is an overlap and the merge is not clean.
    case none, ours, theirs
    /// Both sides' lines, ours first (git's `merge=union`).
    case union
}

public enum Diff3 {
    /// One region of a three-way merge as git's `diff3` style shows it.
    public enum Region: Sendable, Equatable {
        /// Lines the merge settled (unchanged, or changed on one side only, or the same on both).
        case settled([UInt8])
        /// Lines both sides changed: the ancestor's lines and each side's, every line with its
        /// terminator except possibly the last line of a file.
        case overlap(base: [UInt8], ours: [UInt8], theirs: [UInt8])
    }

    /// Merges `ours` and `theirs` against `base`. Returns the merged bytes and whether every
    /// region merged cleanly. With `favor` other than `.none` an overlapping region takes that
    /// side's lines (both for `.union`); `clean` is then true, as git reports it.
    /// With `favor: .none` and an overlap, `bytes` holds the local side in each overlap.
    public static func merge(base: [UInt8], ours: [UInt8], theirs: [UInt8],
                             favor: MergeFavor) -> (bytes: [UInt8], clean: Bool) {
        Input(base: base, ours: ours, theirs: theirs).merge(favor: favor)
    }

    /// Merges cleanly when it can; otherwise returns both one-sided results.
    public static func mergeBothWays(base: [UInt8], ours: [UInt8], theirs: [UInt8]) -> (local: [UInt8], remote: [UInt8]?) {
        Input(base: base, ours: ours, theirs: theirs).mergeBothWays()
    }

    /// The merge cut into regions, as git's `diff3` style cuts it: overlaps are not refined
    /// (trimming the lines both sides share would move a blank line that separates two
    /// insertions out of the overlap).
    public static func regions(base: [UInt8], ours: [UInt8], theirs: [UInt8]) -> [Region] {
        Input(base: base, ours: ours, theirs: theirs).regions()
    }

    /// The three texts split into lines and classified once, for several answers about them
    /// (a note merge asks for the plain merge, the regions and the union of the same inputs).
    struct Input {
        let b: TextLines, o: TextLines, t: TextLines
        let sb: DiffSide, so: DiffSide, st: DiffSide
        /// The zealous hunks, computed once (nil: one side changed nothing).
        private(set) var zealousHunks: [Hunk]? = nil

        init(base: [UInt8], ours: [UInt8], theirs: [UInt8]) {
            (b, o, t) = (TextLines(base), TextLines(ours), TextLines(theirs))
            var classifier = LineClassifier()
            (sb, so, st) = (classifier.side(b), classifier.side(o), classifier.side(t))
            zealousHunks = hunks(zealous: true, simplify: false)
        }

        func merge(favor: MergeFavor) -> (bytes: [UInt8], clean: Bool) {
            guard let hunks = zealousHunks else { return trivial }
            let clean = favor != .none || !hunks.contains { $0.mode == .overlap }
            return (render(hunks, favor: favor == .none ? .ours : favor), clean)
        }

        func mergeBothWays() -> (local: [UInt8], remote: [UInt8]?) {
            guard let hunks = zealousHunks else { return (trivial.bytes, nil) }
            let local = render(hunks, favor: .ours)
            guard hunks.contains(where: { $0.mode == .overlap }) else { return (local, nil) }
            return (local, render(hunks, favor: .theirs))
        }

        func regions() -> [Region] {
            guard let hunks = hunks(zealous: false, simplify: false) else {
                let bytes = trivial.bytes
                return bytes.isEmpty ? [] : [.settled(bytes)]
            }
            var regions: [Region] = []
            var settled: [UInt8] = []
            var next = 0  // the next line of ours not yet written
            for hunk in hunks {
                switch hunk.mode {
                case .ours, .theirs:
                    settled += o.slice(next, hunk.i1 - next)
                    settled += hunk.mode == .ours ? o.slice(hunk.i1, hunk.chg1) : t.slice(hunk.i2, hunk.chg2)
                case .overlap:
                    settled += o.slice(next, hunk.i1 - next)
                    if !settled.isEmpty { regions.append(.settled(settled)); settled = [] }
                    regions.append(.overlap(base: Array(b.slice(hunk.i0, hunk.chg0)),
                                            ours: Array(o.slice(hunk.i1, hunk.chg1)),
                                            theirs: Array(t.slice(hunk.i2, hunk.chg2))))
                case .same:
                    continue
                }
                next = hunk.i1 + hunk.chg1
            }
            settled += o.slice(next, o.count - next)
            if !settled.isEmpty { regions.append(.settled(settled)) }
            return regions
        }
    }

    /// git's own level (`git merge-file`'s default), which also joins overlaps only a few lines
    /// (or lines without a letter or digit) apart. Only `union` output can differ from `merge`;
    /// the agreement test uses it to hold the union rule to git's.
    static func mergeAsGitMergeFile(base: [UInt8], ours: [UInt8], theirs: [UInt8], favor: MergeFavor) -> (bytes: [UInt8], clean: Bool) {
        let input = Input(base: base, ours: ours, theirs: theirs)
        guard let hunks = input.hunks(zealous: true, simplify: true) else { return input.trivial }
        let clean = favor != .none || !hunks.contains { $0.mode == .overlap }
        return (input.render(hunks, favor: favor == .none ? .ours : favor), clean)
    }

    // MARK: The merge

    /// A region of the merge: lines `i0 ..< i0 + chg0` of the ancestor, `i1 ..< i1 + chg1` of
    /// ours and `i2 ..< i2 + chg2` of theirs.
    struct Hunk {
        enum Mode { case overlap, ours, theirs, same }
        var mode: Mode
        var i0: Int, chg0: Int, i1: Int, chg1: Int, i2: Int, chg2: Int
    }
}

extension Diff3.Input {
    typealias Hunk = Diff3.Hunk

    /// A side that changed nothing: the other side is the answer.
    var trivial: (bytes: [UInt8], clean: Bool) {
        LineDiff.changes(sb, so).isEmpty ? (t.bytes, true) : (o.bytes, true)
    }

    /// The merge's hunks; nil when one side changed nothing (`trivial` is the answer).
    func hunks(zealous: Bool, simplify: Bool) -> [Hunk]? {
        let x1 = LineDiff.changes(sb, so), x2 = LineDiff.changes(sb, st)
        if x1.isEmpty || x2.isEmpty { return nil }
        var hunks: [Hunk] = []
        func append(_ h: Hunk) {
            if var last = hunks.last, h.i1 <= last.i1 + last.chg1 || h.i2 <= last.i2 + last.chg2 {
                if h.mode != last.mode { last.mode = .overlap }
                last.chg0 = h.i0 + h.chg0 - last.i0
                last.chg1 = h.i1 + h.chg1 - last.i1
                last.chg2 = h.i2 + h.chg2 - last.i2
                hunks[hunks.count - 1] = last
            } else {
                hunks.append(h)
            }
        }
        var (k1, k2) = (0, 0)
        while k1 < x1.count, k2 < x2.count {
            let (c1, c2) = (x1[k1], x2[k2])
            if c1.i1 + c1.chg1 < c2.i1 {
                append(Hunk(mode: .ours, i0: c1.i1, chg0: c1.chg1, i1: c1.i2, chg1: c1.chg2,
                            i2: c2.i2 - c2.i1 + c1.i1, chg2: c1.chg1))
                k1 += 1
                continue
            }
            if c2.i1 + c2.chg1 < c1.i1 {
                append(Hunk(mode: .theirs, i0: c2.i1, chg0: c2.chg1, i1: c1.i2 - c1.i1 + c2.i1, chg1: c2.chg1,
                            i2: c2.i2, chg2: c2.chg2))
                k2 += 1
                continue
            }
            let same = c1.i1 == c2.i1 && c1.chg1 == c2.chg1 && c1.chg2 == c2.chg2
                && (0..<c1.chg2).allSatisfy { so.ids[c1.i2 + $0] == st.ids[c2.i2 + $0] }
            if !same {
                let off = c1.i1 - c2.i1, ffo = off + c1.chg1 - c2.chg1
                var (i0, i1, i2) = (c1.i1, c1.i2, c2.i2)
                if off > 0 { i0 -= off; i1 -= off } else { i2 += off }
                var chg0 = c1.i1 + c1.chg1 - i0, chg1 = c1.i2 + c1.chg2 - i1, chg2 = c2.i2 + c2.chg2 - i2
                if ffo < 0 { chg0 -= ffo; chg1 -= ffo } else { chg2 += ffo }
                append(Hunk(mode: .overlap, i0: i0, chg0: chg0, i1: i1, chg1: chg1, i2: i2, chg2: chg2))
            }
            let (end1, end2) = (c1.i1 + c1.chg1, c2.i1 + c2.chg1)
            if end1 >= end2 { k2 += 1 }
            if end2 >= end1 { k1 += 1 }
        }
        for c1 in x1[k1...] {
            append(Hunk(mode: .ours, i0: c1.i1, chg0: c1.chg1, i1: c1.i2, chg1: c1.chg2,
                        i2: c1.i1 + st.count - sb.count, chg2: c1.chg1))
        }
        for c2 in x2[k2...] {
            append(Hunk(mode: .theirs, i0: c2.i1, chg0: c2.chg1, i1: c2.i1 + so.count - sb.count, chg1: c2.chg1,
                        i2: c2.i2, chg2: c2.chg2))
        }
        guard zealous else { return hunks }
        hunks = refined(hunks)
        return simplify ? simplified(hunks) : hunks
    }

    /// Each overlap cut to the lines where the two sides differ; an overlap whose sides are
    /// equal is settled (`same`, written from ours).
    private func refined(_ hunks: [Hunk]) -> [Hunk] {
        var out: [Hunk] = []
        for hunk in hunks {
            guard hunk.mode == .overlap, hunk.chg1 > 0, hunk.chg2 > 0 else { out.append(hunk); continue }
            var classifier = LineClassifier()
            let a = classifier.side(TextLines(Array(o.slice(hunk.i1, hunk.chg1))))
            let c = classifier.side(TextLines(Array(t.slice(hunk.i2, hunk.chg2))))
            let changes = LineDiff.changes(a, c)
            if changes.isEmpty {
                var same = hunk
                same.mode = .same
                out.append(same)
                continue
            }
            for change in changes {
                var piece = hunk
                piece.i1 = hunk.i1 + change.i1; piece.chg1 = change.chg1
                piece.i2 = hunk.i2 + change.i2; piece.chg2 = change.chg2
                out.append(piece)
            }
        }
        return out
    }

    /// Overlaps at most three lines apart, or apart by lines without a letter or digit,
    /// joined into one (git's `XDL_MERGE_ZEALOUS_ALNUM`).
    private func simplified(_ hunks: [Hunk]) -> [Hunk] {
        var out: [Hunk] = []
        for hunk in hunks {
            if var last = out.last, last.mode == .overlap, hunk.mode == .overlap {
                let (begin, end) = (last.i1 + last.chg1, hunk.i1)
                let hasAlnum = o.slice(begin, end - begin).contains { byte in
                    (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte)
                }
                if end - begin <= 3 || !hasAlnum {
                    last.chg1 = hunk.i1 + hunk.chg1 - last.i1
                    last.chg2 = hunk.i2 + hunk.chg2 - last.i2
                    out[out.count - 1] = last
                    continue
                }
            }
            out.append(hunk)
        }
        return out
    }

    /// The merged bytes with `favor` (not `.none`) filling every overlap.
    func render(_ hunks: [Hunk], favor: MergeFavor) -> [UInt8] {
        var out: [UInt8] = []
        var next = 0
        for hunk in hunks {
            var takeOurs = hunk.mode == .ours, takeTheirs = hunk.mode == .theirs
            switch hunk.mode {
            case .same: continue
            case .ours, .theirs: break
            case .overlap:
                takeOurs = favor == .ours || favor == .union
                takeTheirs = favor == .theirs || favor == .union
            }
            out += o.slice(next, hunk.i1 - next)
            if takeOurs {
                out += o.slice(hunk.i1, hunk.chg1)
                // In a union, a last line of ours without a break gets one before theirs.
                if takeTheirs, hunk.chg1 > 0, out.last != 10 {
                    if crNeeded(hunk) { out.append(13) }
                    out.append(10)
                }
            }
            if takeTheirs { out += t.slice(hunk.i2, hunk.chg2) }
            next = hunk.i1 + hunk.chg1
        }
        out += o.slice(next, o.count - next)
        return out
    }

    /// Whether a line break added in a union should be CRLF: when the lines before the
    /// hunk on both sides (or their first lines) and the ancestor's first line end in CRLF.
    private func crNeeded(_ hunk: Hunk) -> Bool {
        func crlf(_ lines: TextLines, _ i: Int) -> Bool? {
            func endsCRLF(_ line: ArraySlice<UInt8>) -> Bool { line.count > 1 && line[line.endIndex - 2] == 13 }
            if lines.count == 0 { return nil }
            if i < lines.count - 1 { return endsCRLF(lines[i]) }
            let last = lines[i]
            if last.last == 10 { return endsCRLF(last) }
            if i == 0 { return nil }
            return endsCRLF(lines[i - 1])
        }
        var needed = crlf(o, hunk.i1 > 0 ? hunk.i1 - 1 : 0)
        if needed != false { needed = crlf(t, hunk.i2 > 0 ? hunk.i2 - 1 : 0) }
        if needed != false { needed = crlf(b, 0) }
        return needed ?? false
    }
}
