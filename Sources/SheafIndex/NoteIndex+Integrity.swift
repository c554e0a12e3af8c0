// The index's own health for `sheaf doctor`: SQLite's quick_check, read-only. The index is a
// cache, so the remedy for any problem found is a rebuild from the files.
import GRDB
import SheafCore

extension NoteIndex {
    /// What SQLite's `PRAGMA quick_check` reports; empty when the database is sound.
    public func integrityProblems() throws(SheafError) -> [String] {
        let rows = try reading { db in try String.fetchAll(db, sql: "PRAGMA quick_check") }
        return rows == ["ok"] ? [] : rows
    }
}
