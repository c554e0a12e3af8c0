// Rewriting links after files move. One rule for every link form (wiki-link, embed, `\|` in a
// table, markdown link, front-matter property): a link is rewritten only when, after the move,
// it would no longer reach the file it reached before (the moved file, or another file whose name
// the move made ambiguous); every other byte of the note stays. A rewritten link keeps its style
// (bare name, vault path, `./` or `/` path, relative markdown path and its encoding), and the text
// a reader sees stays the same: a wiki-link whose visible text would change gets the old text as
// its label (`[[Trips/Lisbon|Lisbon]]`), and a label Sheaf added is folded back once the plain
// form reads the same again, so a move and the move back restore every byte.

public enum LinkRewriter {
    /// Whether any of `links` would stop reaching its file after `moves` (see `rewrite`).
    public static func needsRewrite(links: [Link], notePath: String, newNotePath: String,
                                    moves: [PathKey: String], before: LinkTargets, after: LinkTargets) -> Bool {
        let change = unmoved(notePath, newNotePath, moves)
        return links.contains { link in
            if let change, !change.mayConcern(link.target, from: notePath) { return false }
            guard let old = before.resolve(link, from: notePath) else { return false }
            return !after.reaches(link, from: newNotePath, file: moves[PathKey(old)] ?? old)
        }
    }

    /// For a note that stays where it is, the change `moves` makes to the vault: a link it cannot
    /// concern (`LinkTargets.Change`) reaches the same file after the moves, so it is left alone
    /// without being looked up (a partial table need not hold its files). Nil for a moving note,
    /// whose relative links change with its folder.
    static func unmoved(_ notePath: String, _ newNotePath: String, _ moves: [PathKey: String]) -> LinkTargets.Change? {
        guard PathBytes.same(notePath, newNotePath) else { return nil }
        return LinkTargets.Change(paths: moves.flatMap { [$0.key.path, $0.value] })
    }

    /// Rewrites the links of one note, front-matter and body.
    /// - Parameters:
    ///   - notePath: where the note was; `newNotePath` where it is now (the same unless it moved).
    ///   - moves: old vault path -> new vault path of every moved file, keyed by bytes.
    ///   - before, after: the vault's files before and after the move.
    /// - Returns: whether anything changed.
    public static func rewrite(_ document: inout NoteDocument, links: [Link], notePath: String, newNotePath: String,
                               moves: [PathKey: String], before: LinkTargets, after: LinkTargets) -> Bool {
        var changed = false
        if let block = document.frontMatter {
            let own = links.filter(\.inFrontMatter)
            if !own.isEmpty, let text = rewrite(text: block.rendered, links: own, notePath: notePath, newNotePath: newNotePath,
                                                moves: moves, before: before, after: after),
               let (newBlock, rest) = FrontMatterBlock.take(from: Substring(text)), rest.isEmpty {
                document.frontMatter = newBlock
                changed = true
            }
        }
        let bodyLinks = links.filter { !$0.inFrontMatter }
        if let body = rewrite(text: document.body, links: bodyLinks, notePath: notePath, newNotePath: newNotePath,
                              moves: moves, before: before, after: after) {
            document.body = body
            changed = true
        }
        return changed
    }

    /// Rewrites `links` (whose ranges count in `text`) in `text`; nil when none changed.
    public static func rewrite(text: String, links: [Link], notePath: String, newNotePath: String,
                               moves: [PathKey: String], before: LinkTargets, after: LinkTargets) -> String? {
        var bytes = Array(text.utf8)
        var changed = false
        let folderMoved = !PathBytes.same(VaultPath.folder(notePath), VaultPath.folder(newNotePath))
        let change = unmoved(notePath, newNotePath, moves)
        for link in links.sorted(by: { $0.targetRange.lowerBound > $1.targetRange.lowerBound }) {
            if let change, !change.mayConcern(link.target, from: notePath) { continue }
            guard let old = before.resolve(link, from: notePath) else { continue }
            let want = moves[PathKey(old)] ?? old
            let written = String(decoding: bytes[link.targetRange], as: UTF8.self)
            if after.reaches(link, from: newNotePath, file: want) {
                // It still reaches its file. Only a note that changed folders re-expresses a link
                // it wrote as the direct relative path (`../pic.png`), so that path stays direct
                // (`../../A/pic.png`, not a detour that happens to arrive) and a move back restores it.
                guard folderMoved, link.target.hasBytePrefix("./") || link.target.hasBytePrefix("../") || (!link.isWiki && link.target.contains("/")),
                      PathBytes.same(styled(link, written: written, want: old, from: notePath, before: before, after: before), written),
                      !PathBytes.same(styled(link, written: written, want: want, from: newNotePath, before: before, after: after), written) else { continue }
            }
            if link.isWiki {
                guard let edit = wikiEdit(link, written: written, bytes: bytes, want: want, from: newNotePath, after: after) else { continue }
                bytes.replaceSubrange(edit.range, with: Array(edit.text.utf8))
            } else {
                let range = link.targetRange
                let angle = range.lowerBound > 0 && bytes[range.lowerBound - 1] == UInt8(ascii: "<")
                let replacement = markdownTarget(written: written, want: want, from: newNotePath, before: before,
                                                 oldNotePath: notePath, after: after, angleBrackets: angle)
                guard !PathBytes.same(replacement, written) else { continue }
                bytes.replaceSubrange(range, with: Array(replacement.utf8))
            }
            changed = true
        }
        return changed ? String(decoding: bytes, as: UTF8.self) : nil
    }

    /// The target text Sheaf writes for `link` to reach `want` from `notePath`, in its style.
    static func styled(_ link: Link, written: String, want: String, from notePath: String,
                       before: LinkTargets, after: LinkTargets) -> String {
        if link.isWiki { return wikiTarget(written: written, want: want, from: notePath, after: after) }
        return markdownTarget(written: written, want: want, from: notePath, before: before, oldNotePath: notePath,
                              after: after, angleBrackets: false)
    }

    // MARK: - Wiki-links

    /// The new text from the target's first byte to the closing `]]`: target, the fragment as
    /// written, and a label that keeps what the reader sees.
    static func wikiEdit(_ link: Link, written: String, bytes: [UInt8], want: String, from notePath: String,
                         after: LinkTargets) -> (range: Range<Int>, text: String)? {
        // The closing `]]` and the bar (`|` or `\|`) before the label, if any.
        var close = link.targetRange.upperBound
        while close + 1 < bytes.count && !(bytes[close] == 0x5D && bytes[close + 1] == 0x5D) { close += 1 }
        guard close + 1 < bytes.count else { return nil }
        var middleEnd = close  // end of `#fragment` as written
        if link.label != nil, let bar = bytes[link.targetRange.upperBound..<close].firstIndex(of: 0x7C) {
            middleEnd = bar > link.targetRange.upperBound && bytes[bar - 1] == 0x5C ? bar - 1 : bar
        }
        let middle = String(decoding: bytes[link.targetRange.upperBound..<middleEnd], as: UTF8.self)
        let bar = link.inTable ? "\\|" : "|"
        let embed = link.kind == .wikiEmbed

        // A label that reads as a plain link would (the label Sheaf adds): fold it back when that
        // plain link reaches the file again.
        if let label = link.label, !embed, let plain = plainTarget(reading: label, fragment: link.fragment),
           !plain.contains("|"), !plain.contains("]]"), !plain.contains("#"),
           after.reaches(plain, from: notePath, file: want) {
            return (link.targetRange.lowerBound..<close, plain + middle)
        }
        let target = wikiTarget(written: written, want: want, from: notePath, after: after)
        // A label stays as written, its bar included.
        var label = String(decoding: bytes[middleEnd..<close], as: UTF8.self)
        if link.label == nil && !embed {
            let seen = visible(written, fragment: link.fragment)
            if visible(target, fragment: link.fragment) != seen, labelFits(seen, in: link) { label = bar + seen }
        }
        return (link.targetRange.lowerBound..<close, target + middle + label)
    }

    /// What Obsidian shows for a wiki-link without a label: its target, and ` > heading`.
    static func visible(_ target: String, fragment: String?) -> String {
        fragment.map { target + " > " + $0 } ?? target
    }

    /// The target whose unlabelled link shows `label`, nil when there is none.
    static func plainTarget(reading label: String, fragment: String?) -> String? {
        guard let fragment else { return label.isEmpty ? nil : label }
        let tail = " > " + fragment
        guard label.hasSuffix(tail), label.count > tail.count else { return nil }
        return String(label.dropLast(tail.count))
    }

    /// A label must not end the link or, in a quoted YAML value, the string.
    static func labelFits(_ label: String, in link: Link) -> Bool {
        if label.contains("]]") || label.contains("|") { return false }
        if link.kind == .property && (label.contains("\"") || label.contains("'") || label.contains("\\")) { return false }
        return true
    }

    /// The new target text for a wiki-link that must reach `want`, in the style it was written:
    /// `./` or `../` relative, `/` rooted, a vault path, or a bare name (a vault path when the
    /// name alone would reach another file). `.md` is written when it was.
    public static func wikiTarget(written: String, want: String, from notePath: String, after: LinkTargets) -> String {
        let keepsExtension = !VaultPath.isNote(want) || VaultPath.isNote(written)
        let path = keepsExtension ? want : VaultPath.withoutNoteExtension(want)
        var candidate: String
        if written.hasBytePrefix("./") || written.hasBytePrefix("../") {
            let relative = VaultPath.relative(from: VaultPath.folder(notePath), to: path)
            candidate = relative.hasBytePrefix("../") ? relative : "./" + relative
        } else if written.hasBytePrefix("/") {
            candidate = "/" + path
        } else if written.contains("/") {
            candidate = path
        } else {
            candidate = keepsExtension ? VaultPath.fileName(want) : VaultPath.stem(want)
        }
        if after.reaches(candidate, from: notePath, file: want) { return candidate }
        return after.reaches(path, from: notePath, file: want) ? path : "/" + path
    }

    // MARK: - Markdown links

    /// The new target of a markdown link that must reach `want`: a bare file name stays one while
    /// it reaches the file; a `/` path stays rooted; a path that was a vault path stays one; any
    /// other becomes a path relative to the note's folder. Encoded as it was written.
    static func markdownTarget(written: String, want: String, from notePath: String, before: LinkTargets,
                               oldNotePath: String, after: LinkTargets, angleBrackets: Bool) -> String {
        let decoded = MarkdownScan.percentDecoded(written) ?? written
        let dropsExtension = !VaultPath.isNote(decoded) && VaultPath.fileExtension(decoded).isEmpty && VaultPath.isNote(want)
        let path = dropsExtension ? VaultPath.withoutNoteExtension(want) : want
        var candidates: [String] = []
        if decoded.hasBytePrefix("/") {
            candidates.append("/" + path)
        } else if !decoded.contains("/") {
            candidates.append(VaultPath.fileName(path))
        } else if !decoded.hasBytePrefix("./") && !decoded.hasBytePrefix("../") && before.exact(decoded) != nil {
            candidates.append(path)
        }
        // A relative path stays one, also to a file beside the note (`./name`, not a bare name).
        let relative = VaultPath.relative(from: VaultPath.folder(notePath), to: path)
        candidates += relative.contains("/") ? [relative, "./" + relative] : ["./" + relative]
        candidates.append("/" + path)
        let chosen = candidates.first { after.reaches($0, from: notePath, file: want) } ?? "/" + path
        if angleBrackets { return chosen }
        if written.contains("%") || chosen.contains(" ") { return percentEncoded(chosen) }
        return chosen
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
