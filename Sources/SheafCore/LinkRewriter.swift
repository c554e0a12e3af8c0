// Rewriting links after files move. Only the target text of links that pointed at a moved file
// changes; every other byte of the note stays. Wiki-links keep their form (a bare name stays a
// bare name when that name is still unique), markdown links get a new relative path in the
// encoding they were written with.

public enum LinkRewriter {
    /// Rewrites the links of one note's body.
    /// - Parameters:
    ///   - notePath: where the note was; `newNotePath` where it is now (the same unless it moved).
    ///   - moves: old vault path -> new vault path of every moved file.
    ///   - before, after: the vault's files before and after the move.
    /// - Returns: the new body, or nil when no link changed.
    public static func rewrite(body: String, links: [Link], notePath: String, newNotePath: String,
                               moves: [String: String], before: LinkTargets, after: LinkTargets) -> String? {
        var bytes = Array(body.utf8)
        var changed = false
        let folderMoved = VaultPath.folder(notePath) != VaultPath.folder(newNotePath)
        for link in links.sorted(by: { $0.targetRange.lowerBound > $1.targetRange.lowerBound }) {
            guard let resolved = before.resolve(link, from: notePath) else { continue }
            let moved = moves[resolved]
            let target = moved ?? resolved
            let written = String(decoding: bytes[link.targetRange], as: UTF8.self)
            let replacement: String
            if link.isWiki {
                guard moved != nil else { continue }
                replacement = wikiTarget(written: written, newPath: target, after: after)
            } else {
                guard moved != nil || folderMoved else { continue }
                let angle = link.targetRange.lowerBound > 0 && bytes[link.targetRange.lowerBound - 1] == UInt8(ascii: "<")
                replacement = markdownTarget(written: written, newPath: target, from: newNotePath, angleBrackets: angle)
            }
            if replacement != written {
                bytes.replaceSubrange(link.targetRange, with: Array(replacement.utf8))
                changed = true
            }
        }
        return changed ? String(decoding: bytes, as: UTF8.self) : nil
    }

    public static func wikiTarget(written: String, newPath: String, after: LinkTargets) -> String {
        let keepsExtension = !VaultPath.isNote(newPath) || VaultPath.isNote(written)
        let pathForm = keepsExtension ? newPath : VaultPath.withoutNoteExtension(newPath)
        if written.contains("/") { return pathForm }
        let name = keepsExtension ? VaultPath.fileName(newPath) : VaultPath.stem(newPath)
        // A bare name only while no other file shares it, so every tool resolves it the same way.
        return after.nameIsUnique(name, for: newPath) ? name : pathForm
    }

    static func markdownTarget(written: String, newPath: String, from notePath: String, angleBrackets: Bool) -> String {
        var path = written.hasPrefix("/") ? "/" + newPath : VaultPath.relative(from: VaultPath.folder(notePath), to: newPath)
        if !VaultPath.isNote(written) && VaultPath.fileExtension(written).isEmpty && VaultPath.isNote(path) {
            path = VaultPath.withoutNoteExtension(path)  // `[x](Other)` stays without `.md`
        }
        if angleBrackets { return path }
        if written.contains("%") || path.contains(" ") { return percentEncoded(path) }
        return path
    }

    /// Encodes the characters that end or break a markdown link target; other letters stay.
    public static func percentEncoded(_ path: String) -> String {
        var out = ""
        for scalar in path.unicodeScalars {
            switch scalar {
            case " ": out += "%20"
            case "%": out += "%25"
            case "(": out += "%28"
            case ")": out += "%29"
            case "#": out += "%23"
            case "?": out += "%3F"
            case "<": out += "%3C"
            case ">": out += "%3E"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
