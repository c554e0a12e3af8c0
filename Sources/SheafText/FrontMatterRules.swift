// What the note merge needs to know about YAML, behind one protocol, so the merge itself needs no
// YAML library: SheafSync's rules read the front-matter with Yams and merge key by key; the
// plain rules (`PlainFrontMatter`) answer only for blocks whose reading is certain without a
// parser, and say "cannot tell" otherwise (`sheaf-merge-file` then hands the merge to `sheaf`).

/// Answers about front-matter blocks for the note merge. Every answer may be nil: "these rules
/// cannot tell", which makes the merge answer nil too, never a guess.
public protocol FrontMatterRules {
    /// Whether the block parses as a YAML mapping (or is empty).
    func parses(_ block: FrontMatterBlock) -> Bool?
    /// Whether the block parses as a mapping whose top-level keys are unique byte for byte.
    func isValidMapping(_ block: FrontMatterBlock) -> Bool?
    /// The key-by-key merge of three parsing front-matters none of which equals another
    /// (docs/merging.md, "Front-matter").
    func mergeKeyByKey(base: NoteDocument, ours: NoteDocument, theirs: NoteDocument) -> FrontMatterMerge?
}

/// The front-matter half of a note merge.
public struct FrontMatterMerge: Sendable, Equatable {
    /// The local block.
    public var local: FrontMatterBlock?
    /// The remote side's block when some key conflicted.
    public var remote: FrontMatterBlock?
    /// The keys both sides changed differently, in the local note's order, then keys the local side removed.
    public var conflictingKeys: [String]

    public init(local: FrontMatterBlock?, remote: FrontMatterBlock?, conflictingKeys: [String]) {
        self.local = local
        self.remote = remote
        self.conflictingKeys = conflictingKeys
    }

    /// Merges the front-matter of three documents whose front-matter parses (the caller checks).
    /// A side that alone changed the block wins it whole. Otherwise the YAML lines are merged like
    /// any text: when that is clean and still a valid mapping with unique keys, comments and
    /// layout of both sides survive. Otherwise the rules merge key by key. Nil when the rules
    /// cannot tell.
    public static func merge(base: NoteDocument, ours: NoteDocument, theirs: NoteDocument,
                             rules: some FrontMatterRules) -> FrontMatterMerge? {
        let (b, o, t) = (base.frontMatter, ours.frontMatter, theirs.frontMatter)
        if o == t || t == b { return FrontMatterMerge(local: o, remote: nil, conflictingKeys: []) }
        if o == b { return FrontMatterMerge(local: t, remote: nil, conflictingKeys: []) }

        let shape = o ?? t!
        let lines = Diff3.merge(base: yamlBytes(b), ours: yamlBytes(o), theirs: yamlBytes(t), favor: .none)
        if lines.clean, let text = String(validating: lines.bytes, as: UTF8.self) {
            let block = FrontMatterBlock(opening: shape.opening, lines: Lines.split(text).map(String.init),
                                         closing: shape.closing)
            switch rules.isValidMapping(block) {
            case true?: return FrontMatterMerge(local: block, remote: nil, conflictingKeys: [])
            case false?: break
            case nil: return nil
            }
        }
        return rules.mergeKeyByKey(base: base, ours: ours, theirs: theirs)
    }

    private static func yamlBytes(_ block: FrontMatterBlock?) -> [UInt8] {
        Array((block?.lines.joined() ?? "").utf8)
    }
}
