// The index's content hash is git's blob id, so a committed note's hash is the id git stores.
import Foundation
import GRDB
import SheafCore
import SheafFiles
import Testing
import TestSupport
@testable import SheafIndex

@Suite struct ContentHashTests {
    func makeVault() -> (Vault, String) {
        let root = TempDir.make("hash")
        try! FileManager.default.createDirectory(atPath: root + "/.sheaf", withIntermediateDirectories: true)
        return (Vault(root: root), root)
    }

    func write(_ bytes: [UInt8], _ path: String) { TestFile.write(bytes, to: path) }

    @discardableResult
    func git(_ arguments: [String], in root: String) throws -> String {
        let r = GitCLI.run(["-c", "core.autocrlf=false"] + arguments, in: root)
        #expect(r.status == 0, "git \(arguments)")
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func storedHashes(_ vault: Vault) throws -> [String: String] {
        let db = try DatabaseQueue(path: vault.stateDirectory + "/index.sqlite")
        defer { try? db.close() }
        return try db.read { db in
            Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT path, hash FROM notes").map { ($0[0], $0[1]) })
        }
    }

    /// Regression: the index hashed notes with FNV-1a 64, a hash git knows nothing of; a note
    /// committed and unchanged must have the id `git rev-parse HEAD:path` prints.
    @Test func theIndexHashOfACommittedUnchangedNoteIsGitsBlobID() throws {
        let (vault, root) = makeVault()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let notes: [String: [UInt8]] = [
            "a.md": Array("# A\nalpha\n".utf8),
            "Trips/Lisbon.md": Array("---\ntags: [travel]\n---\n# Lisbon\r\nTram 28. Café\n".utf8),
            "empty.md": [],
            "huge.md": Array("# Huge\n".utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: Note.sizeLimit + 10),
        ]
        for (path, bytes) in notes { write(bytes, root + "/" + path) }
        try git(["init", "-q"], in: root)
        try "/.sheaf/\n".write(toFile: root + "/.gitignore", atomically: true, encoding: .utf8)
        try git(["add", "-A"], in: root)
        try git(["commit", "-q", "-m", "notes"], in: root)
        _ = try NoteIndex(vault: vault).scan(vault: vault, walker: VaultWalker(vault: vault))
        let stored = try storedHashes(vault)
        for path in notes.keys where path != "huge.md" {
            #expect(stored[path] == (try git(["rev-parse", "HEAD:" + path], in: root)), "\(path)")
        }
        // A note over the limit is known by its head and size (GitBlobID.of(_:absolutePath:)),
        // never by a blob id it would take reading the whole file to make.
        let huge = notes["huge.md"]!
        var head = Array(huge.prefix(NoteBytes.headLimit))
        if let end = head.lastIndex(of: UInt8(ascii: "\n")) { head.removeSubrange((end + 1)...) }  // as NoteBytes cuts it
        #expect(stored["huge.md"] == "head-\(huge.count)-" + GitBlobID.of(head))
        // A rename keeps the id, and the index pairs it by that id.
        try FileManager.default.moveItem(atPath: root + "/a.md", toPath: root + "/Trips/b.md")
        let report = try NoteIndex(vault: vault).scan(vault: vault, walker: VaultWalker(vault: vault))
        #expect(report.renamed == 1)
        #expect(try storedHashes(vault)["Trips/b.md"] == (try git(["rev-parse", "HEAD:a.md"], in: root)))
    }

    /// An index made before blob ids (FNV hashes, thumbnails named by them) is rebuilt: no old
    /// hash survives, and no attachment keeps a thumbnail named by the old digest.
    @Test func anIndexWithOldHashesIsRebuiltAndItsThumbnailsForgotten() throws {
        let (vault, root) = makeVault()
        defer { try? FileManager.default.removeItem(atPath: root) }
        write(Array("# A\nalpha\n".utf8), root + "/a.md")
        write([0xFF, 0xD8, 0xFF], root + "/photo.jpg")
        var config = Configuration()
        config.prepareDatabase { db in db.add(tokenizer: StemAndWordTokenizer.self) }
        let pool = try DatabasePool(path: vault.stateDirectory + "/index.sqlite", configuration: config)
        try Schema.migrator.migrate(pool, upTo: "v2-attachments")
        try pool.write { db in
            try db.execute(sql: """
                INSERT INTO attachments (path, type, size, mtime_ns, inode, state, hash, thumbnail)
                VALUES ('photo.jpg', 'image/jpeg', 3, 0, 0, 'ready', '0123456789abcdef', '0123456789abcdef-256.jpg')
                """)
            try db.execute(sql: "DELETE FROM meta WHERE key = 'needs_rebuild'")
        }
        try pool.close()
        // Migrated in place (a full build into a new file starts from an empty database anyway).
        let report = try NoteIndex(vault: vault).scan(vault: vault, walker: VaultWalker(vault: vault))
        #expect(report.rebuilt == .schemaChanged)
        #expect(try storedHashes(vault)["a.md"] == GitBlobID.of(Array("# A\nalpha\n".utf8)))
        let db = try DatabaseQueue(path: vault.stateDirectory + "/index.sqlite")
        defer { try? db.close() }
        let thumbnails = try db.read { db in try String?.fetchAll(db, sql: "SELECT thumbnail FROM attachments") }
        #expect(!thumbnails.contains("0123456789abcdef-256.jpg"))
    }
}
