// A note as the index stores it, and the reading that makes it: files read, hashed (git blob id)
// and parsed on all cores, one batch ahead of the single writer. Used by the scan, by applying a
// change set and by compaction.
import Foundation
import SheafCore
import SheafFiles

/// One note read from disk, ready to be written to the catalog.
struct IndexedNote: Sendable {
    let file: VaultFile
    let hash: String
    let note: Note
    /// The FTS columns, made while parsing (on all cores) rather than by the single writer.
    let text: [String]

    init(file: VaultFile, hash: String, note: Note) {
        self.file = file
        self.hash = hash
        self.note = note
        text = Self.ftsColumns(note, path: file.path)
    }

    /// title, aliases, tags, path, meta, body, cjk: Greek folded. A tag's and a path's parts are
    /// words as they stand: unicode61 splits at `/` (punctuation is no token character), so the
    /// slashes need no replacing (Foundation's replacing was 2.8 % of a cold index's CPU).
    /// The file name joins the aliases when it differs from the title: people name a note by
    /// either (Obsidian shows the file name), so it ranks as a title does (`title:` still
    /// searches the title alone).
    static func ftsColumns(_ note: Note, path: String) -> [String] {
        let stem = VaultPath.stem(path)
        let names = stem.lowercased() == note.title.lowercased() ? note.aliases : note.aliases + [stem]
        let aliases = names.joined(separator: "\n")
        let meta = note.frontMatter.entries
            .filter { !["id", "title", "tags", "aliases"].contains($0.key) }
            .map { ([$0.key] + $0.value.flattenedText).joined(separator: " ") }
            .joined(separator: "\n")
        return [TextFolding.foldGreek(note.title), TextFolding.foldGreek(aliases),
                note.tags.joined(separator: " "), VaultPath.withoutNoteExtension(path),
                TextFolding.foldGreek(meta), TextFolding.foldGreek(note.body),
                CJKBigrams.of([note.title, aliases, meta, note.body])]
    }
}

extension NoteIndex {
    /// How many notes are read ahead of the writer and written in one transaction.
    public static let batchSize = 500

    /// Reads, hashes and parses files on all cores, a batch at a time; `consume` gets each batch
    /// (on the calling thread, in order) while the next one is being read.
    static func readNotes(vault: Vault, _ files: [VaultFile], progress: (@Sendable (Int, Int) -> Void)?,
                          consume: ([IndexedNote]) throws -> Void) throws {
        let counter = ConcurrentSlots<Int>(count: 0)
        @Sendable func read(_ range: Range<Int>) -> [IndexedNote] {
            let results = ConcurrentSlots<IndexedNote>(count: range.count)
            DispatchQueue.concurrentPerform(iterations: range.count) { i in
                let file = files[range.lowerBound + i]
                // A file that vanished since the walk is simply skipped: the next scan removes it.
                // Read in bounded memory: a note over 10 MB is read only as far as its title.
                let absolute = vault.absolute(file.path)
                guard let read = NoteBytes.read(absolute), let hash = GitBlobID.of(read, absolutePath: absolute) else { return }
                results.set(i, IndexedNote(file: file, hash: hash, note: Note(path: file.path, read: read)))
                if let progress { progress(counter.increment(), files.count) }
            }
            return results.values
        }
        let ranges = stride(from: 0, to: files.count, by: batchSize).map { $0..<min($0 + batchSize, files.count) }
        guard !ranges.isEmpty else { return }
        var current = read(ranges[0])
        for next in ranges.dropFirst() {
            let ahead = ConcurrentSlots<[IndexedNote]>(count: 1)
            let group = DispatchGroup()
            DispatchQueue.global().async(group: group) { ahead.set(0, read(next)) }
            defer { group.wait() }
            try consume(current)
            group.wait()
            current = ahead.values.first ?? []
        }
        try consume(current)
    }
}
