// Change sets through Kit: the paths a pull wrote reach the index from its change set, with no
// walk of the vault (a file the change set does not name stays unknown until a scan).
import Foundation
import GRDB
import SheafCore
@testable import SheafIndex
import Testing
import TestSupport
@testable import SheafKit

@Suite struct KitChangeSetTests {
    @Test func updateIndexLearnsExactlyThePathsOfTheChangeSet() throws {
        let v = try KitVault()
        let session = try v.session()
        _ = try session.createNote(title: "Old", folder: nil, tags: [], body: "old")
        _ = try session.freshIndex()
        try v.write("# Pulled\n", "Inbox/Pulled.md")
        try v.write("# Unannounced\n", "Inbox/Unannounced.md")
        try FileManager.default.removeItem(atPath: v.root + "/Old.md")
        var run = SyncRun(remote: "origin")
        session.updateIndex(after: VaultChangeSet(added: ["Inbox/Pulled.md"], removed: ["Old.md"]), into: &run)
        #expect(run.warnings.isEmpty, "\(run.warnings)")
        #expect(run.indexed != nil)
        let (paths, asIs) = try session.indexedPathsAsIs()
        #expect(asIs)
        #expect(paths == ["Inbox/Pulled.md"])
    }

    /// A pull through a real bare repository: the notes another clone pushed are in the pull's
    /// change set and in the index right after it, without a scan.
    @Test func aPullsChangeSetReachesTheIndex() throws {
        let temp = TempDir("kit")
        let bare = bareRemote(in: temp)
        let a = try KitVault("a", in: temp)
        let sessionA = try a.session()
        _ = try sessionA.createNote(title: "First", folder: nil, tags: [], body: "one")
        try sessionA.addRemote(name: "origin", url: bare)
        _ = try sessionA.sync(SyncOptions())

        let b = try KitVault("b", in: temp)
        let sessionB = try b.session()
        try sessionB.addRemote(name: "origin", url: bare)
        let first = try sessionB.pull(SyncOptions())
        #expect(first.changes.added.map(\.path) == ["First.md"])

        _ = try sessionA.createNote(title: "Second", folder: "Trips", tags: [], body: "two")
        try sessionA.append("more", to: sessionA.resolve("First"))
        _ = try sessionA.sync(SyncOptions())
        let run = try b.session().pull(SyncOptions())
        #expect(run.warnings.isEmpty, "\(run.warnings)")
        #expect(run.changes.added.map(\.path) == ["Trips/Second.md"])
        #expect(run.changes.changed.map(\.path) == ["First.md"])
        #expect(run.indexed != nil)
        let (paths, asIs) = try b.session().indexedPathsAsIs()
        #expect(asIs)
        #expect(paths == ["First.md", "Trips/Second.md"])
        #expect(b.read("First.md")?.hasSuffix("one\nmore\n") == true)
    }

    /// One vocabulary from status to a pull's report: an edit is `.changed` and a deletion
    /// `.removed` in both (a pull said updated and deleted, git's status edited and deleted),
    /// while `pull --json` and `status --json` keep the words version 1 documents.
    @Test func aPullAndStatusNameTheSameChangeWithTheSameWord() throws {
        let temp = TempDir("kit")
        let bare = bareRemote(in: temp)
        let a = try KitVault("a", in: temp)
        let sessionA = try a.session()
        _ = try sessionA.createNote(title: "First", folder: nil, tags: [], body: "one")
        _ = try sessionA.createNote(title: "Gone", folder: nil, tags: [], body: "bye")
        try sessionA.addRemote(name: "origin", url: bare)
        _ = try sessionA.sync(SyncOptions())
        let b = try KitVault("b", in: temp)
        let sessionB = try b.session()
        try sessionB.addRemote(name: "origin", url: bare)
        _ = try sessionB.pull(SyncOptions())

        try sessionA.append("more", to: sessionA.resolve("First"))
        try FileManager.default.removeItem(atPath: a.root + "/Gone.md")
        let local = try a.session().status().changes.sorted { $0.path < $1.path }
        #expect(local.map(\.kind) == [.changed, .removed], "\(local)")
        _ = try a.session().sync(SyncOptions())

        let run = try b.session().pull(SyncOptions())
        let pulled = try #require(run.pull).outcomes.sorted { $0.path < $1.path }
        #expect(pulled == [VaultChange(kind: .changed, path: "First.md"), VaultChange(kind: .removed, path: "Gone.md")])
        #expect(pulled.map(\.kind.pulledWord) == ["updated", "deleted"])
        #expect(local.map(\.kind.committedWord) == ["edited", "deleted"])
        let json = try JSONSerialization.jsonObject(with: VaultJSON.encode(SyncJSON(run))) as? [String: Any]
        let paths = (json?["pull"] as? [String: Any])?["paths"] as? [[String: Any]] ?? []
        #expect(paths.compactMap { $0["kind"] as? String }.sorted() == ["deleted", "updated"])
    }

    /// The FTS rows of the notes a pull replaces or removes are deleted with the text of their
    /// committed versions (read back from the repository by the blob ids the index keeps), so
    /// pulls leave no dead rows and never make the index re-read every note to compact them.
    @Test func aPullDeletesTheFTSRowsOfTheNotesItReplaces() throws {
        let temp = TempDir("kitfts")
        let bare = bareRemote(in: temp)
        let a = try KitVault("a", in: temp)
        let sessionA = try a.session()
        for name in ["One", "Two", "Three"] { _ = try sessionA.createNote(title: name, folder: nil, tags: [], body: "\(name) firstword") }
        try sessionA.addRemote(name: "origin", url: bare)
        _ = try sessionA.sync(SyncOptions())
        let b = try KitVault("b", in: temp)
        try b.session().addRemote(name: "origin", url: bare)
        _ = try b.session().pull(SyncOptions())

        try a.write("# One\n\nsecondword\n", "One.md")
        try FileManager.default.removeItem(atPath: a.root + "/Two.md")
        try FileManager.default.moveItem(atPath: a.root + "/Three.md", toPath: a.root + "/Renamed.md")
        _ = try a.session().sync(SyncOptions())
        let run = try b.session().pull(SyncOptions())
        #expect(run.warnings.isEmpty, "\(run.warnings)")
        let index = try NoteIndex(vault: Vault(root: b.root))
        let dead = try index.pool.read { db in try Int.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'dead_fts_rows'") }
        #expect(dead == 0)
        let live = try index.pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM note_fts_docsize") }
        #expect(live == 2)
        let hits = try b.session().search("firstword", limit: 10, snippets: false).hits.map(\.path)
        #expect(hits == ["Renamed.md"])
    }
}
