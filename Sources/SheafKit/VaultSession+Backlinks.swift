// The notes linking to a note, with the lines that hold their links: what a page of backlinks
// shows. The index keeps where each link is written (`Note.linkOffsets`), not its line, which
// took a quarter of the index; the lines are cut from the linking notes when the page is made,
// each file read once. A file whose identity (size, mtime, inode) and hash are no longer the ones
// indexed (edited with no watcher, or before the watcher caught up) has other bytes at those
// offsets: it is parsed again and its links found anew, so a line is never cut from the wrong
// place. The identity, the scan's own rule, spares hashing every linking note.
import Foundation
import SheafCore
import SheafIndex

extension VaultSession {
    /// The notes whose links reach `path`, by path, each with its title and the lines (each
    /// once, in the note's order) holding those links; a note that is gone, or no longer links
    /// here, is left out.
    func backlinks(to path: String, index: NoteIndex, targets: LinkTargets) throws(SheafError) -> [Backlink] {
        // By bytes: an NFC/NFD twin of a linking note or of `path` is another file.
        func reaches(_ resolved: String?) -> Bool { resolved.map { PathBytes.same($0, path) } ?? false }
        var byNote: [PathKey: [StoredLinkPlace]] = [:]
        for row in try index.linkPlaces(concerning: [path])
        where reaches(targets.resolve(row.link.target, from: row.link.notePath)) {
            byNote[PathKey(row.link.notePath), default: []].append(row)
        }
        return byNote.keys.map(\.path).sorted(by: PathBytes.precedes).compactMap { from in
            guard let rows = byNote[PathKey(from)], let (read, file) = readNoteFile(at: from) else { return nil }
            let text = String(decoding: read.bytes, as: UTF8.self)
            var title = rows[0].noteTitle
            var places = rows.map { Note.Place(offset: $0.offset, kind: $0.link.kind, target: $0.link.target) }
            if file != rows[0].noteFile, GitBlobID.of(read, absolutePath: vault.absolute(from)) != rows[0].noteHash {
                let note = Note(path: from, read: read)
                title = note.title
                places = zip(note.links, note.linkOffsets).filter { link, _ in
                    !link.target.isEmpty && reaches(targets.resolve(link, from: from))
                }.map { Note.Place(offset: $1, kind: $0.kind, target: $0.target) }
            }
            var lines: [String] = []
            var seen = Set<String>()
            for line in Note.linkLines(at: places, inText: text) where seen.insert(line).inserted { lines.append(line) }
            return lines.isEmpty ? nil : Backlink(path: from, title: title, lines: lines)
        }
    }
}
