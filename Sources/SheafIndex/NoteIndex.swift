// `.sheaf/index.sqlite`: the catalog and the FTS5 index, a cache of the files. Opening it never
// asks the user to repair anything: a missing, corrupt or foreign database is moved aside and
// rebuilt from the files.
import Foundation
import GRDB
import SheafCore

/// Why the index had to be rebuilt from scratch.
public enum RebuildReason: String, Sendable {
    case missing = "no index yet"
    case unreadable = "the index was unreadable"
    case schemaChanged = "the index format changed"
    case requested = "rebuild requested"
}

public final class NoteIndex: @unchecked Sendable {
    private(set) var pool: DatabasePool
    public let path: String
    /// Set when this open created the database anew; the next scan reads every file.
    public private(set) var rebuildReason: RebuildReason?
    /// Dead FTS rows below this count never trigger a compaction (tests lower it).
    var compactionMinimum = 1000

    /// Opens (or creates) the index of `vault`.
    public init(vault: Vault, rebuild: Bool = false) throws(SheafError) {
        path = vault.stateDirectory + "/index.sqlite"
        let fm = FileManager.default
        var reason: RebuildReason? = fm.fileExists(atPath: path) ? nil : .missing
        if rebuild {
            Self.remove(path)
            reason = .requested
        }
        var opened: DatabasePool
        do {
            opened = try Self.openAndMigrate(path)
            if try opened.read({ db in try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'needs_rebuild'") }) != nil {
                reason = reason ?? .schemaChanged
            }
        } catch {
            // Corrupt, truncated, garbage or from an unknown newer schema: start again.
            Self.remove(path)
            reason = .unreadable
            do { opened = try Self.openAndMigrate(path) }
            catch { throw SheafError("cannot create the index", path: path, cause: "\(error)") }
        }
        pool = opened
        rebuildReason = reason
    }

    private static func openAndMigrate(_ path: String) throws -> DatabasePool {
        var config = Configuration()
        config.busyMode = .timeout(5)
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            try db.execute(sql: "PRAGMA foreign_keys = ON")
            db.add(tokenizer: StemAndWordTokenizer.self)  // the FTS table's tokenizer, on every connection
        }
        let pool = try DatabasePool(path: path, configuration: config)
        let migrator = Schema.migrator
        let applied = try pool.read { db in try migrator.appliedIdentifiers(db) }
        let known = Set(migrator.migrations)
        if !applied.isSubset(of: known) {
            throw SheafError("index from a newer Sheaf")
        }
        try migrator.migrate(pool)
        // No `PRAGMA quick_check` here: it reads every page (38 ms at 10k notes, on every
        // command). A garbage file already failed above; damage deeper in the file surfaces as
        // SQLITE_CORRUPT during the scan, which then rebuilds (see `startOver`).
        return pool
    }

    /// Whether `error` says the database file is damaged.
    static func isCorruption(_ error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB
    }

    /// Moves a damaged database aside and starts an empty one; the next scan fills it.
    func startOver() throws(SheafError) {
        try? pool.close()
        Self.remove(path)
        do { pool = try Self.openAndMigrate(path) }
        catch { throw SheafError("cannot create the index", path: path, cause: "\(error)") }
        rebuildReason = .unreadable
    }

    static func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    /// Marks the index as rebuilt once a full scan has filled it.
    func clearRebuildMark(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM meta WHERE key = 'needs_rebuild'")
        rebuildReason = nil
    }
}
