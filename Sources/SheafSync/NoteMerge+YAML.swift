// The note merge with Sheaf's own front-matter rules (read with Yams): what sync, the write path
// and `sheaf merge-file` run.
import SheafCore

extension NoteMerge {
    /// `merge(base:ours:theirs:isNote:keepBoth:rules:)` with `YAMLFrontMatterRules`, which answer
    /// every question, so the merge always has a result.
    public static func merge(base: [UInt8]?, ours: [UInt8], theirs: [UInt8], isNote: Bool = true,
                             keepBoth: Bool = false) throws(MergeFailure) -> FileMerge {
        guard let result = merge(base: base, ours: ours, theirs: theirs, isNote: isNote, keepBoth: keepBoth,
                                 rules: YAMLFrontMatterRules())
        else { throw MergeFailure(message: "the front-matter rules could not decide") }
        return result
    }
}
