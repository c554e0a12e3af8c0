// The front-matter half of the note merge as Sheaf's own merge does it, read with Yams. SheafText's
// `FrontMatterMerge` first merges the YAML lines like any text; where that is not clean or not a
// valid mapping with unique keys, each top-level key is merged on its own here (docs/merging.md,
// "Front-matter"): a key one side changed takes that side's lines verbatim; lists merge as
// multisets; keys that record a change time (`modified`, `updated`, `lastmod` and their usual
// spellings) take the later time, and such a timestamp one side removed stays removed; any other
// key both sides changed differently is a conflict, dates included (a publish `date:` is a
// decision, not a clock).
import Foundation
import SheafCore

/// The front-matter rules of Sheaf's own merge: blocks read with Yams, key by key where the
/// lines do not merge.
public struct YAMLFrontMatterRules: FrontMatterRules {
    public init() {}

    public func parses(_ block: FrontMatterBlock) -> Bool? {
        (try? FrontMatter(parsing: block)) != nil
    }

    /// A block that parses as a mapping whose top-level keys are unique.
    public func isValidMapping(_ block: FrontMatterBlock) -> Bool? {
        guard let parsed = try? FrontMatter(parsing: block) else { return false }
        return Set(parsed.entries.map { Array($0.key.utf8) }).count == parsed.entries.count
    }

    public func mergeKeyByKey(base: NoteDocument, ours: NoteDocument, theirs: NoteDocument) -> FrontMatterMerge? {
        let local = Self.keyByKey(primary: ours, secondary: theirs, base: base)
        guard !local.conflicts.isEmpty else {
            return FrontMatterMerge(local: local.block, remote: nil, conflictingKeys: [])
        }
        let remote = Self.keyByKey(primary: theirs, secondary: ours, base: base)
        return FrontMatterMerge(local: local.block, remote: remote.block, conflictingKeys: local.conflicts)
    }

    /// How many block lines the key-by-key merge may read again (changed keys times the block's
    /// lines): 250,000 is a block of 500 keys each changed, a second or so of YAML parsing.
    static let keyByKeyBudget = 250_000

    /// Keys that hold sets whose items compare without case and without a leading `#`.
    private static let caseInsensitiveLists: Set<String> = ["tags", "aliases"]
    /// Keys that record when the note last changed, as `recordsChangeTime` spells them: of two
    /// changes the later time wins. Any other date is a value like any other.
    private static let changeTimeKeys: Set<String> = [
        "modified", "updated", "lastmod", "lastmodified", "lastupdated", "modifiedat", "updatedat",
        "lastmodifiedat", "lastupdatedat", "datemodified", "dateupdated", "modifieddate", "updateddate",
        "modifiedon", "updatedon", "mtime",
    ]

    /// Whether a key records a change time, in any of its usual spellings: case, `_`, `-` and
    /// spaces aside (`lastmod`, `last_modified`, `lastModified`, `date modified`, `updated-at`).
    static func recordsChangeTime(_ key: String) -> Bool {
        changeTimeKeys.contains(String(key.lowercased().filter { !"_- ".contains($0) }))
    }

    /// `primary`'s front-matter with `secondary`'s changes applied where they do not conflict.
    /// The conflicting keys keep `primary`'s value.
    private static func keyByKey(primary: NoteDocument, secondary: NoteDocument, base: NoteDocument)
        -> (block: FrontMatterBlock?, conflicts: [String]) {
        // All three parse (checked by the caller), so the editors cannot throw.
        guard var editor = try? FrontMatterEditor(document: primary),
              let other = try? FrontMatterEditor(document: secondary),
              let ancestor = try? FrontMatterEditor(document: base) else { return (primary.frontMatter, []) }
        // Keys and lines compare byte for byte: "café" and "cafe\u{301}" are two YAML keys.
        func byKey(_ e: FrontMatterEditor) -> [[UInt8]: [String]] {
            Dictionary(e.keyedLines.map { (Array($0.key.utf8), $0.lines) }, uniquingKeysWith: { a, _ in a })
        }
        func same(_ x: [String]?, _ y: [String]?) -> Bool {
            switch (x, y) {
            case (nil, nil): return true
            case let (x?, y?): return x.isIdentical(to: y)
            default: return false
            }
        }
        let (p, s, b) = (byKey(editor), byKey(other), byKey(ancestor))
        let (pValues, sValues, bValues) = (editor.frontMatter, other.frontMatter, ancestor.frontMatter)

        var conflicts: [String] = []
        var previousInSecondary: String? = nil
        let order = other.keyedLines.map(\.key) + editor.keyedLines.map(\.key) + ancestor.keyedLines.map(\.key)
        var seen = Set<[UInt8]>()
        // Each edit reads the block again to check that it means what it intends: the block's
        // lines once per changed key. Past a budget, every changed key is a conflict (this side's
        // value stays, the other's goes to the conflict file): a synced block of 2,000 keys, each
        // changed, took minutes in every pull that merged it (regression).
        let changed = order.filter { key in
            let k = Array(key.utf8)
            return seen.insert(k).inserted && !same(s[k], b[k]) && !same(p[k], s[k])
        }
        seen = []
        let blockLines = [editor, other, ancestor].map { ($0.document.frontMatter?.lines.count ?? 0) + 1 }.max() ?? 1
        let overBudget = changed.count * blockLines > Self.keyByKeyBudget
        if overBudget { conflicts = changed }
        for key in order where !overBudget && seen.insert(Array(key.utf8)).inserted {
            defer { if s[Array(key.utf8)] != nil { previousInSecondary = key } }
            let (pl, sl, bl) = (p[Array(key.utf8)], s[Array(key.utf8)], b[Array(key.utf8)])
            if same(sl, bl) || same(pl, sl) { continue }
            if same(pl, bl) {
                // Only the secondary side changed this key: its lines, verbatim (a change the line
                // editor cannot make safely is a conflict).
                do {
                    if let sl { try editor.replaceLines(of: key, with: sl, after: previousInSecondary) }
                    else { try editor.remove(key) }
                } catch { conflicts.append(key) }
                continue
            }
            guard let pv = pValues[key], let sv = sValues[key] else {
                // One side removed a change time the other bumped (moved later): the removal wins.
                if recordsChangeTime(key), let bv = bValues[key].flatMap(date),
                   let changed = (pValues[key] ?? sValues[key]).flatMap(date), changed > bv {
                    if sl == nil, (try? editor.remove(key)) == nil { conflicts.append(key) }
                    continue
                }
                conflicts.append(key); continue
            }
            if pv == sv { continue }
            if let lists = lists(key: key, primary: pValues, secondary: sValues, base: bValues) {
                let normalize = normalizer(for: key)
                switch ListMerge.merge(primary: lists.primary, secondary: lists.secondary, base: lists.base, key: normalize) {
                case .conflict:
                    conflicts.append(key)
                case .merged(let slots) where lists.primary.isEmpty:
                    let added = slots.compactMap { if case .new(let t) = $0 { t } else { nil } }
                    if (try? editor.addItems(added, to: key, normalize: normalize)) == nil { conflicts.append(key) }
                case .merged(let slots):
                    if slots != lists.primary.indices.map({ .existing($0) }), !editor.arrangeItems(of: key, slots) {
                        conflicts.append(key)  // a list with comments between its items: not rewritten
                    }
                }
                continue
            }
            // A change time both sides moved: the later wins.
            if recordsChangeTime(key), let pt = date(pv), let st = date(sv) {
                if st > pt, let sl, (try? editor.replaceLines(of: key, with: sl, after: previousInSecondary)) == nil {
                    conflicts.append(key)
                }
                continue
            }
            conflicts.append(key)
        }
        // In the primary side's order; a key the primary side removed comes last.
        let present = editor.keyedLines.map(\.key)
        let (conflicting, kept) = (Set(conflicts.map { Array($0.utf8) }), Set(present.map { Array($0.utf8) }))
        let ordered = present.filter { conflicting.contains(Array($0.utf8)) } + conflicts.filter { !kept.contains(Array($0.utf8)) }
        return (editor.document.frontMatter, ordered)
    }

    /// The date a value holds when it is nothing but a date (`2026-05-02`, `2026-05-02T09:30+01:00`).
    static func date(_ value: YAMLValue) -> Date? {
        guard let text = value.text?.trimmingHorizontalWhitespace, text.utf8.count >= 10,
              text.allSatisfy({ $0.isASCII && ($0.isNumber || "-:.,+TtZz ".contains($0)) }) else { return nil }
        return NoteDate.parse(text)
    }

    /// For a key that is a list on both sides (or a list-like string for tags and aliases): the
    /// three lists' items; nil for any other value.
    private static func lists(key: String, primary: FrontMatter, secondary: FrontMatter, base: FrontMatter)
        -> (primary: [String], secondary: [String], base: [String])? {
        let listLike = caseInsensitiveLists.contains(key.lowercased())
        func items(_ fm: FrontMatter) -> [String]? {
            switch fm[key] {
            case .list(let values)?:
                let texts = values.compactMap(\.text)
                return texts.count == values.count ? texts : nil
            case .scalar?: return listLike ? fm.stringList(key) : nil
            case .null?, nil: return []
            default: return nil
            }
        }
        guard primary[key] != nil, secondary[key] != nil,
              let p = items(primary), let s = items(secondary), let b = items(base) else { return nil }
        if case .scalar? = primary[key], !listLike { return nil }
        return (p, s, b)
    }

    private static func normalizer(for key: String) -> (String) -> String {
        guard caseInsensitiveLists.contains(key.lowercased()) else { return { $0 } }
        return { item in
            let trimmed = item.hasPrefix("#") ? String(item.dropFirst()) : item
            return trimmed.lowercased()
        }
    }
}
