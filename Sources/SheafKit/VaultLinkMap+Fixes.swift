// What an editor offers to mend a link: its target spelt as the file it reaches is spelt (the
// case only), and where the note a broken link names would be created so that the link reaches
// it. Both by the rules every command uses (`LinkRewriter`, `LinkTargets`).
import SheafCore

extension VaultLinkMap {
    /// `target` in the case of the file it reaches (`open questions` for `Open questions.md`),
    /// in the style it was written; nil when it is spelt so already, or needs more than case.
    public func spelling(of target: String, reaching path: String, from notePath: String) -> String? {
        let written = LinkRewriter.wikiTarget(written: target, want: path, from: notePath, after: targets)
        guard written != target, written.lowercased() == target.lowercased() else { return nil }
        return written
    }

    /// Where the note a broken wiki-link names would be made so that the link reaches it: the
    /// path it names (relative to the linking note for `./` and `../`), at the vault root for a
    /// bare name, as Obsidian makes one by default; `.md` added. Nil for a target that names a
    /// file of another kind, lies outside the vault, or would still not be reached.
    public func newNotePath(for target: String, from notePath: String) -> String? {
        let ext = VaultPath.fileExtension(target)
        guard ext.isEmpty || VaultPath.isNote(target) || !ext.allSatisfy({ $0.isLetter || $0.isNumber }) else { return nil }
        let written: String
        if target.hasBytePrefix("./") || target.hasBytePrefix("../") { written = VaultPath.join(VaultPath.folder(notePath), target) }
        else { written = String(target.drop { $0 == "/" }) }
        guard let normalized = VaultPath.normalize(written), !normalized.isEmpty,
              !normalized.pathParts().contains(where: { $0.hasBytePrefix(".") }) else { return nil }
        let path = VaultPath.isNote(normalized) ? normalized : normalized + ".md"
        var after = targets
        after.add(path)
        return after.reaches(target, from: notePath, file: path) ? path : nil
    }
}
