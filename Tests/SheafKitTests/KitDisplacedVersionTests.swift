import Foundation
import GRDB
import SheafCore
@testable import SheafIndex
import Testing
import TestSupport
@testable import SheafKit

/// The FTS row of a version Sheaf's own write replaced is deleted with that version's text, kept
/// by the session, whether or not the version was ever committed.
@Suite struct KitDisplacedVersionTests {
    static func deadAndLiveRows(_ root: String) throws -> (dead: Int?, live: Int?) {
        let index = try NoteIndex(vault: Vault(root: root))
        return try index.pool.read { db in
            (try Int.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'dead_fts_rows'"),
             try Int.fetchOne(db, sql: "SELECT count(*) FROM note_fts_docsize"))
        }
    }

    /// Regression, "an attach to a note edited since the last commit left a dead FTS row (and
    /// loaded libgit2 to look for the version)": the version an append or an attach replaced was
    /// in no commit, so its row stayed as a dead one, skipped by every search until a compaction
    /// read every note again. Now each command's own replaced versions are at hand.
    @Test func editsOfANoteNeverCommittedLeaveNoDeadRow() throws {
        let vault = try KitVault("displaced")
        _ = try vault.session().createNote(title: "Trip", folder: nil, tags: [], body: "firstword\n")
        _ = try vault.session().createNote(title: "Other", folder: nil, tags: [], body: "otherword\n")
        _ = try vault.session().search("firstword", limit: 10, snippets: false)
        for word in ["secondword", "thirdword"] {
            let session = try vault.session()
            try session.append(word, to: session.resolve("Trip"))
            _ = try session.search(word, limit: 10, snippets: false)  // the index takes the edit
        }
        let rows = try Self.deadAndLiveRows(vault.root)
        #expect(rows.dead == 0)
        #expect(rows.live == 2)
        for word in ["firstword", "secondword", "thirdword"] {
            #expect(try vault.session().search(word, limit: 10, snippets: false).hits.map(\.path) == ["Trip.md"])
        }
    }
}
