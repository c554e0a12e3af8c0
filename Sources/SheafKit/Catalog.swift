// The vault as read right now: every file from the walk and every note parsed, in parallel.
// Until the index arrives this is how read commands see the vault; it is rebuilt per command.
import Foundation
import SheafCore
import SheafFiles

/// A note with the file facts the listing needs.
public struct CatalogNote: Sendable {
    public let note: Note
    public let file: VaultFile

    public var path: String { note.path }
    /// Front-matter `modified`/`updated`, else the file's mtime.
    public var modified: Date { note.modified ?? Date(timeIntervalSince1970: Double(file.mtimeNanoseconds) / 1e9) }
    /// Front-matter `created`/`date`, else the file's mtime.
    public var created: Date { note.created ?? Date(timeIntervalSince1970: Double(file.mtimeNanoseconds) / 1e9) }
    public var handle: NoteHandle { NoteHandle(path: note.path, title: note.title, id: note.id, aliases: note.aliases) }
}

public struct Catalog: Sendable {
    public let files: [VaultFile]
    public let notes: [CatalogNote]
    public let warnings: [VaultWarning]

    public var handles: [NoteHandle] { notes.map(\.handle) }
    public var linkTargets: LinkTargets { LinkTargets(paths: files.map(\.path)) }

    /// The note at `path`, by its bytes: NFC/NFD twins are two notes.
    public func note(at path: String) -> CatalogNote? { notes.first { PathBytes.same($0.path, path) } }

    /// Walks the vault and parses every note on all cores.
    static func load(vault: Vault, walker: VaultWalker) -> Catalog {
        let (files, walkWarnings) = walker.files()
        let notes = parse(files.filter(\.isNote), in: vault)
        var warnings = walkWarnings
        for n in notes { warnings += n.note.warnings.map { VaultWarning(path: n.path, message: $0.description) } }
        return Catalog(files: files, notes: notes, warnings: warnings)
    }

    /// The notes `noteFiles` parsed on all cores; a file that vanished or became unreadable since
    /// the walk is left out.
    static func parse(_ noteFiles: [VaultFile], in vault: Vault) -> [CatalogNote] {
        let results = ConcurrentSlots<CatalogNote>(count: noteFiles.count)
        DispatchQueue.concurrentPerform(iterations: noteFiles.count) { i in
            let file = noteFiles[i]
            guard let read = NoteBytes.read(vault.absolute(file.path)) else { return }
            results.set(i, CatalogNote(note: Note(path: file.path, read: read), file: file))
        }
        return results.values
    }
}
