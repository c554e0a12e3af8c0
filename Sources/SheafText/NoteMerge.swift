// The note merge: one note edited on two sides, merged against the ancestor (docs/merging.md).
// It is a pure function of three texts. Front-matter merges key by key, the body by lines
// through `Diff3` (git's answers, no libgit2), all three compared without BOM and with LF endings (`TextShape`); where
// edits overlap the note keeps the local side and the remote side's version goes to a conflict
// file, so no conflict marker is ever written into a note. What YAML means is asked of the
// `FrontMatterRules` given (SheafSync's `NoteMerge.merge` gives Sheaf's own, read with Yams).
#if canImport(Glibc)
import Glibc
#endif

/// What merging one file's two sides gave.
public struct FileMerge: Sendable, Equatable {
    /// The bytes the file holds after the merge (the local side in every overlap).
    public var merged: [UInt8]
    /// The remote side's version when the edits overlapped: the content of the conflict file.
    public var remote: [UInt8]?
    /// Front-matter keys both sides changed differently (one may have removed it), in the order
    /// of the local note, then keys the local side removed.
    public var conflictingKeys: [String]
    /// Whether body lines overlapped.
    public var bodyOverlap: Bool

    public var isClean: Bool { remote == nil }

    public init(merged: [UInt8], remote: [UInt8]?, conflictingKeys: [String], bodyOverlap: Bool) {
        self.merged = merged
        self.remote = remote
        self.conflictingKeys = conflictingKeys
        self.bodyOverlap = bodyOverlap
    }
}

public enum NoteMerge {
    /// Merges a note (or any text file) edited on both sides. `base` is nil when both sides
    /// added the file (merged against an empty ancestor). Binary content (a NUL byte or invalid
    /// UTF-8) is not merged: the local bytes stay, the remote ones become the conflict.
    /// With `keepBoth`, body lines that overlap are all kept in `merged`, the local side's first
    /// (the write path's merge, where both sides are the user's and no line may be dropped).
    /// Nil when `rules` cannot tell what the front-matter means.
    public static func merge(base: [UInt8]?, ours: [UInt8], theirs: [UInt8], isNote: Bool = true,
                             keepBoth: Bool = false, rules: some FrontMatterRules) -> FileMerge? {
        let added = base == nil
        let base = base ?? []
        if ours == theirs || theirs == base { return FileMerge(merged: ours, remote: nil, conflictingKeys: [], bodyOverlap: false) }
        if ours == base { return FileMerge(merged: theirs, remote: nil, conflictingKeys: [], bodyOverlap: false) }
        guard text(base) != nil, text(ours) != nil, text(theirs) != nil else {
            return FileMerge(merged: ours, remote: theirs, conflictingKeys: [], bodyOverlap: false)
        }
        // The texts are merged without BOM and with LF endings; the note gets the local side's
        // shape back, the conflict file the remote side's.
        let local = TextShape(of: ours, others: [theirs, base])
        let remote = TextShape(of: theirs, others: [ours, base])
        var (b, o, t) = (TextShape.normalized(base), TextShape.normalized(ours), TextShape.normalized(theirs))
        // Both sides made the file: what they both start with (the template of a daily note)
        // is their ancestor, so what each wrote after it is an insertion of its own.
        if added {
            guard let shared = template(ours: o, theirs: t, isNote: isNote, rules: rules) else { return nil }
            b = shared
        }
        if o == t || t == b { return FileMerge(merged: ours, remote: nil, conflictingKeys: [], bodyOverlap: false) }
        if o == b { return FileMerge(merged: local.apply(to: t), remote: nil, conflictingKeys: [], bodyOverlap: false) }
        guard var result = mergeNormalized(base: b, ours: o, theirs: t, isNote: isNote, keepBoth: keepBoth, rules: rules)
        else { return nil }
        result.merged = local.apply(to: result.merged)
        result.remote = result.remote.map(remote.apply)
        return result
    }

    /// The merge of three valid UTF-8 texts without BOM and with LF endings.
    private static func mergeNormalized(base: [UInt8], ours: [UInt8], theirs: [UInt8], isNote: Bool,
                                        keepBoth: Bool, rules: some FrontMatterRules) -> FileMerge? {
        let docs = (NoteDocument(text: String(decoding: base, as: UTF8.self)),
                    NoteDocument(text: String(decoding: ours, as: UTF8.self)),
                    NoteDocument(text: String(decoding: theirs, as: UTF8.self)))
        guard let allParse = isNote ? parse([docs.0, docs.1, docs.2], rules) : false else { return nil }
        guard allParse else {
            let input = Diff3.Input(base: base, ours: ours, theirs: theirs)
            let lines = BodyMerge.merge(input)
            let merged = keepBoth && lines.remote != nil ? input.merge(favor: .union).bytes : lines.local
            return FileMerge(merged: merged, remote: lines.remote, conflictingKeys: [], bodyOverlap: lines.remote != nil)
        }
        guard let head = FrontMatterMerge.merge(base: docs.0, ours: docs.1, theirs: docs.2, rules: rules) else { return nil }
        let bodies = Diff3.Input(base: Array(docs.0.body.utf8), ours: Array(docs.1.body.utf8), theirs: Array(docs.2.body.utf8))
        let body = BodyMerge.merge(bodies)
        var local = docs.1
        local.frontMatter = head.local
        local.body = String(decoding: body.local, as: UTF8.self)
        if keepBoth && body.remote != nil {
            let union = bodies.merge(favor: .union)
            local.body = String(decoding: union.bytes, as: UTF8.self)
        }
        guard head.remote != nil || body.remote != nil else {
            return FileMerge(merged: Array(local.rendered.utf8), remote: nil, conflictingKeys: [], bodyOverlap: false)
        }
        var remote = docs.2
        remote.frontMatter = head.remote ?? head.local
        remote.body = String(decoding: body.remote ?? body.local, as: UTF8.self)
        return FileMerge(merged: Array(local.rendered.utf8), remote: Array(remote.rendered.utf8),
                         conflictingKeys: head.conflictingKeys, bodyOverlap: body.remote != nil)
    }

    /// The ancestor of a file both sides added: the whole lines both start with; for notes whose
    /// front-matter parses, the front-matter when both have the same block, and the lines both
    /// bodies start with.
    static func template(ours: [UInt8], theirs: [UInt8], isNote: Bool, rules: some FrontMatterRules) -> [UInt8]? {
        let (o, t) = (NoteDocument(text: String(decoding: ours, as: UTF8.self)),
                      NoteDocument(text: String(decoding: theirs, as: UTF8.self)))
        guard isNote, o.frontMatter != nil || t.frontMatter != nil else { return BodyMerge.sharedStart(ours, theirs) }
        guard let bothParse = parse([o, t], rules) else { return nil }
        guard bothParse else { return BodyMerge.sharedStart(ours, theirs) }
        var shared = o
        if o.frontMatter != t.frontMatter { shared.frontMatter = nil }
        shared.body = String(decoding: BodyMerge.sharedStart(Array(o.body.utf8), Array(t.body.utf8)), as: UTF8.self)
        return Array(shared.rendered.utf8)
    }

    /// The bytes as text, nil for binary content.
    public static func text(_ bytes: [UInt8]) -> String? {
        let hasNUL = bytes.withUnsafeBufferPointer { $0.baseAddress.map { memchr($0, 0, bytes.count) != nil } ?? false }
        if hasNUL { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Whether every document's front-matter parses (a document without one does); nil when
    /// the rules cannot tell for one of them and none is known not to parse.
    private static func parse(_ docs: [NoteDocument], _ rules: some FrontMatterRules) -> Bool? {
        var unknown = false
        for doc in docs {
            guard let block = doc.frontMatter else { continue }
            switch rules.parses(block) {
            case false?: return false
            case nil: unknown = true
            case true?: break
            }
        }
        return unknown ? nil : true
    }
}
