// `.sheaf/index.sqlite`: the catalog and the FTS5 index, a cache of the files. Opening it never
// asks the user to repair anything: a missing, corrupt or foreign database is rebuilt from the
// files. Two rules keep that safe:
// - Only damage (SQLITE_CORRUPT, SQLITE_NOTADB, an unknown schema) is repaired by rebuilding.
//   A full disk, a read-only folder or an I/O error is reported as such and nothing is
//   deleted: rebuilding cannot fix those, and the old index still answers read commands.
// - A full build (`atomicBuild`) fills a separate file, `index.sqlite.building`, and
//   `finishBuild` puts it in place: copied into the live database in one transaction (SQLite's
//   backup, so readers keep their snapshot) or, when there was no usable one, renamed over it.
//   A read command running meanwhile sees the old index or the new one, never half of one.
import Foundation
import GRDB
import GRDBSQLite
import SheafCore

/// Why the index had to be rebuilt from scratch.
public enum RebuildReason: String, Sendable {
    case missing = "no index yet"
    case unreadable = "the index was unreadable"
    case schemaChanged = "the index format changed"
    case requested = "rebuild requested"
}

public final class NoteIndex: @unchecked Sendable {
    /// What reads go through: a pool for commands that may write, one read-only connection for
    /// a query (`queryOnly`). Writes go through `writer()`.
    private(set) var pool: any DatabaseWriter
    /// The live index's read-only stand-in (`openLive`), which is `pool` until the first write.
    private var standIn: DatabaseQueue?
    public let path: String
    /// Set when this open created the database anew; the next scan reads every file.
    public private(set) var rebuildReason: RebuildReason?
    /// Dead FTS rows below this count never trigger a compaction (tests lower it).
    var compactionMinimum = 1000
    /// A note version's bytes by its content hash (git's blob id), nil when not at hand: with it,
    /// the FTS row of a replaced or removed note is deleted instead of left dead (FTSDeletes.swift).
    public var previousVersion: ((String) -> [UInt8]?)?
    /// Full builds go to a separate file that `finishBuild` puts in place.
    private let atomicBuild: Bool
    /// A full build under way in `buildingPath`, and how it will replace the live file.
    private var build = Build.none
    /// The index was opened for reading only: it could not be written (see `openForReading`).
    public private(set) var isReadOnly = false
    /// What this open found at the index's paths that could not be the index (a folder, a
    /// symlink, a file Sheaf may not read or write) and moved aside, so the index is rebuilt:
    /// each with the name it now has.
    public private(set) var setAside: [(file: String, movedTo: String, what: String)] = []

    /// The `what` of the error for an index that cannot be written (full disk, read-only, I/O).
    public static let cannotWrite = "cannot write the index"

    var buildingPath: String { path + ".building" }

    /// Opens (or creates) the index of `vault`. With `atomicBuild`, a full build (missing,
    /// damaged, changed format or `rebuild`) goes to a separate file: call `finishBuild` after
    /// the scan. Without it the database is rebuilt in place.
    public init(vault: Vault, rebuild: Bool = false, atomicBuild: Bool = false) throws(SheafError) {
        path = vault.stateDirectory + "/index.sqlite"
        self.atomicBuild = atomicBuild
        setAside = Self.setAsideUnusable(path)
        let exists = FileManager.default.fileExists(atPath: path)
        var reason: RebuildReason? = exists ? nil : .missing
        if rebuild { reason = .requested }
        var live: Live?
        if exists {
            do {
                let opened = try Self.openLive(path)
                live = opened
                if !rebuild {
                    switch try Self.schemaState(opened.database) {
                    case .current: break
                    case .behind where !atomicBuild:
                        let pool = try opened.pool(path)
                        live = .pool(pool)
                        try Self.migrate(pool)
                    case .behind: reason = .schemaChanged
                    case .unknown: reason = .unreadable; live = nil
                    }
                    if reason == nil, try Self.needsRebuild(live!.database) { reason = .schemaChanged }
                }
            } catch let error where Self.isCorruption(error) {
                reason = .unreadable
                live = nil
            } catch {
                throw Self.describe(error, path: path, writing: true)
            }
        }
        if var reason, atomicBuild {
            // The live database the build will be copied into, opened for writing before the
            // build starts. Writing can meet damage that reading did not (a broken free-list
            // page): then the build replaces the file instead.
            var target: DatabasePool?
            do { target = try live?.pool(path) }
            catch where Self.isCorruption(error) { try? live?.database.close(); reason = .unreadable }
            catch { throw Self.describe(error, path: path, writing: true) }
            pool = try Self.startBuild(at: path + ".building")
            build = target.map { .copyInto($0) } ?? .renameOver
            rebuildReason = reason
        } else if let reason, live == nil || reason == .requested {
            try? live?.database.close()
            Self.remove(path)
            do { pool = try Self.open(path); try Self.migrate(pool) }
            catch { throw Self.describe(error, path: path, writing: true) }
            rebuildReason = reason
        } else if let live {
            pool = live.database
            if case .reader(let reader) = live { standIn = reader }
            rebuildReason = reason
            // A full build that was stopped (Ctrl-C, kill) left its file behind; the writer lock
            // this is opened under means no build runs now, so nothing will finish it.
            if atomicBuild { Self.remove(buildingPath) }
        } else {
            throw SheafError("cannot open the index", path: path)  // unreachable: no file means a reason
        }
    }

    /// Opens the existing index to answer from it as it is, without changing it: nil when there
    /// is none that can answer (missing, damaged, being created, of another format). When the
    /// folder or disk cannot be written, it is opened read-only (`isReadOnly`).
    ///
    /// `queryOnly`: the caller only reads (a search). The index is then one read-only connection
    /// (`isReadOnly`), not a pool: no writer connection, no journal-mode set-up, and closing it
    /// never checkpoints or deletes the WAL, which the last writable connection to close does.
    public static func openForReading(vault: Vault, queryOnly: Bool = false) throws(SheafError) -> NoteIndex? {
        let path = vault.stateDirectory + "/index.sqlite"
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        var lastError: any Error = SheafError("cannot open the index")
        for mode in queryOnly ? [ReadMode.readOnly, .immutable] : [.normal, .readOnly, .immutable] {
            do {
                let reader: any DatabaseWriter = queryOnly ? try openQueue(path, mode: mode) : try open(path, mode: mode)
                guard try canAnswer(reader) else { return nil }
                return NoteIndex(path: path, pool: reader, readOnly: mode != .normal)
            } catch {
                if isCorruption(error) { return nil }
                lastError = error
            }
        }
        throw describe(lastError, path: path, writing: false)
    }

    /// Opens the existing index for many readers at once, for as long as a server runs: a
    /// read-only pool (its connections read side by side), or nil as `openForReading` answers
    /// nil. It never writes, so it never checkpoints. Not mapped: over a server's life its readers
    /// would touch most of the file, and each mapped page counts in the process's memory.
    public static func openReaders(vault: Vault) throws(SheafError) -> NoteIndex? {
        let path = vault.stateDirectory + "/index.sqlite"
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        var lastError: any Error = SheafError("cannot open the index")
        for mode in [ReadMode.readOnly, .immutable] {
            do {
                let readers = try DatabasePool(path: location(path, mode), configuration: configuration(mode))
                guard try canAnswer(readers) else { return nil }
                return NoteIndex(path: path, pool: readers, readOnly: true)
            } catch {
                if isCorruption(error) { return nil }
                lastError = error
            }
        }
        throw describe(lastError, path: path, writing: false)
    }

    /// SQLite's `data_version` of this index's connection: it changes whenever another
    /// connection (of this process or another) committed to the database since it was last
    /// read. Meaningful on one connection only: an index from `openForReading(queryOnly: true)`.
    public func dataVersion() throws(SheafError) -> Int64 {
        try reading { db in try Int64.fetchOne(db, sql: "PRAGMA data_version") ?? 0 }
    }

    /// Whether an opened index can answer as it is: at the current schema, not marked for a
    /// rebuild. One read transaction (it also turns a garbage file into SQLITE_NOTADB now).
    private static func canAnswer(_ reader: any DatabaseWriter) throws -> Bool {
        try reader.read { db in
            try schemaState(db) == .current && !needsRebuild(db)
        }
    }

    private init(path: String, pool: any DatabaseWriter, readOnly: Bool) {
        self.path = path
        self.pool = pool
        self.atomicBuild = false
        self.isReadOnly = readOnly
    }

    /// Puts a full build in place once the scan filled it (nothing to do otherwise). On failure
    /// the live index is left as it was and the build is deleted.
    public func finishBuild() throws(SheafError) {
        if case .none = build { return }
        let built = pool
        do {
            if case .copyInto(let live) = build {
                // One write transaction on the live database: its readers see the old index or the new.
                try built.backup(to: live)
                try? live.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
                try built.close()
                Self.remove(buildingPath)
                pool = live
            } else {
                try built.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
                try built.close()  // the last connection: the file is now whole without its -wal
                for suffix in ["-wal", "-shm"] { unlink(path + suffix) }
                guard rename(buildingPath, path) == 0 else {
                    throw SheafError(Self.cannotWrite, path: path, cause: String(cString: strerror(errno)), kind: .indexNotWritable)
                }
                Self.remove(buildingPath)
                pool = try Self.open(path)
            }
            build = .none
        } catch {
            try? built.close()
            Self.remove(buildingPath)
            throw Self.describe(error, path: path, writing: true)
        }
    }

    /// How a full build replaces the live file: copied into the usable live database, or renamed
    /// over a missing or damaged one.
    private enum Build { case none, copyInto(DatabasePool), renameOver }

    enum SchemaState { case current, behind, unknown }

    enum ReadMode { case normal, readOnly, immutable }

    private static func open(_ path: String, mode: ReadMode = .normal) throws -> DatabasePool {
        let pool = try DatabasePool(path: location(path, mode), configuration: configuration(mode))
        // Reading the schema here turns a garbage file into SQLITE_NOTADB now, not mid-command.
        _ = try pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
        return pool
    }

    /// The live index as a command that may write first opens it: one read-only connection
    /// when it can be, else the pool. Opening a pool writes (GRDB's set-up of WAL mode makes and
    /// drops a table whenever the -wal is empty, as the last close leaves it), and its last
    /// close checkpoints: a command that finds nothing to change (a search, a no-change walk)
    /// then wrote the index and synced it to disk four times, and changed its schema, which
    /// made every other process's statements prepare again. The pool opens on the first write
    /// (`writer()`). A read-only connection cannot open a WAL database whose -wal is missing:
    /// then, and on any error but damage, this opens the pool as before.
    private static func openLive(_ path: String) throws -> Live {
        do {
            // Not mapped, as the pool it stands in for is not (a watcher may never write).
            let reader = try DatabaseQueue(path: location(path, .readOnly), configuration: configuration(.readOnly))
            _ = try reader.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
            return .reader(reader)
        } catch where isCorruption(error) {
            throw error
        } catch {
            return .pool(try open(path))
        }
    }

    /// The live index as `openLive` opened it.
    private enum Live {
        case reader(DatabaseQueue)
        case pool(DatabasePool)

        var database: any DatabaseWriter {
            switch self {
            case .reader(let reader): reader
            case .pool(let pool): pool
            }
        }

        /// The pool, opened now in place of the read-only connection if that is what this is.
        func pool(_ path: String) throws -> DatabasePool {
            switch self {
            case .pool(let pool): return pool
            case .reader(let reader):
                let pool = try NoteIndex.open(path)
                try? reader.close()
                return pool
            }
        }
    }

    /// What writes go through: the pool, opened now if the index was opened as a read-only
    /// stand-in (`openLive`); reads then go through the pool too.
    func writer() throws -> any DatabaseWriter {
        guard let standIn else { return pool }
        let opened = try Live.reader(standIn).pool(path)
        pool = opened
        self.standIn = nil
        return opened
    }

    /// One read-only connection (`openForReading` with `queryOnly`); `mode` is not `.normal`.
    private static func openQueue(_ path: String, mode: ReadMode) throws -> DatabaseQueue {
        try DatabaseQueue(path: location(path, mode), configuration: mappedConfiguration(mode))
    }

    /// A reader's configuration: a query reads pages all over the file (the FTS postings, then a
    /// catalog row and a document size per hit): mapped, they are read without a system call
    /// and a copy each.
    private static func mappedConfiguration(_ mode: ReadMode) -> Configuration {
        var config = configuration(mode)
        config.prepareDatabase { db in try db.execute(sql: "PRAGMA mmap_size = 1073741824") }
        return config
    }

    private static func configuration(_ mode: ReadMode) -> Configuration {
        var config = Configuration()
        config.busyMode = .timeout(5)
        config.readonly = mode != .normal
        config.prepareDatabase { db in
            if mode == .normal {
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
                try db.execute(sql: "PRAGMA foreign_keys = ON")
                try keepWALFiles(db)
            }
            db.add(tokenizer: StemAndWordTokenizer.self)  // the FTS table's tokenizer, on every connection
            try FolderFilter.register(db)  // `in:` and `ls --folder`
        }
        return config
    }

    /// The -wal and -shm files stay between commands, the -wal emptied by the last connection to
    /// close (once its checkpoint is on disk). By default SQLite deletes both at that close, so
    /// every command created two files and deleted them again: a tenth of a `sheaf search` in a
    /// 200-note vault was the kernel making and freeing those inodes. An empty -wal holds no
    /// frame to replay, so a database put in its place (a full build renamed over it, which
    /// also removes both first) never meets an old one's pages.
    private static func keepWALFiles(_ db: Database) throws {
        var persist: Int32 = 1
        _ = sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_PERSIST_WAL, &persist)
        // Any limit at all makes the last close truncate the -wal to zero bytes; 64 MB also
        // bounds what a long write leaves allocated between its checkpoints.
        try db.execute(sql: "PRAGMA journal_size_limit = 67108864")
    }

    /// A WAL database in a folder that cannot be written opens only as immutable (SQLite
    /// cannot create its -shm file there): a URI, which Debian's SQLite accepts.
    private static func location(_ path: String, _ mode: ReadMode) -> String {
        mode == .immutable ? "file:" + uriEscaped(path) + "?immutable=1" : path
    }

    private static func uriEscaped(_ path: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%")
        return path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
    }

    /// Whether the database has every migration this Sheaf knows and no other.
    static func schemaState(_ pool: any DatabaseReader) throws -> SchemaState {
        try pool.read { db in try schemaState(db) }
    }

    static func schemaState(_ db: Database) throws -> SchemaState {
        let migrator = Schema.migrator
        let applied = try migrator.appliedIdentifiers(db)
        let known = Set(migrator.migrations)
        if !applied.isSubset(of: known) { return .unknown }  // from a newer Sheaf
        return applied == known ? .current : .behind
    }

    static func needsRebuild(_ pool: any DatabaseReader) throws -> Bool {
        try pool.read { db in try needsRebuild(db) }
    }

    static func needsRebuild(_ db: Database) throws -> Bool {
        // One row of sqlite_master, not GRDB's `tableExists`: that reads the whole schema into
        // its cache (a twentieth of a search of 200 notes), on every command's open.
        guard try Int.fetchOne(db, sql: "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'") != nil else { return false }
        return try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'needs_rebuild'") != nil
    }

    private static func migrate(_ pool: any DatabaseWriter) throws {
        guard try schemaState(pool) != .unknown else { throw DatabaseError(resultCode: .SQLITE_NOTADB, message: "index from a newer Sheaf") }
        try Schema.migrator.migrate(pool)
        // No `PRAGMA quick_check` here: it reads every page (38 ms at 10k notes, on every
        // command). A garbage file already failed above; damage deeper in the file surfaces as
        // SQLITE_CORRUPT during the scan, which then rebuilds (see `startOver`).
    }

    /// A fresh, migrated database at `building`, replacing what a killed build left there.
    private static func startBuild(at building: String) throws(SheafError) -> DatabasePool {
        remove(building)
        do {
            let pool = try open(building)
            try migrate(pool)
            return pool
        } catch {
            remove(building)
            throw describe(error, path: String(building.dropLast(".building".count)), writing: true)
        }
    }

    /// Whether `error` says the database file is damaged (never a full disk or an I/O error).
    static func isCorruption(_ error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB
    }

    /// An error of the database as a message for people: what failed and why, in words. The
    /// cause comes from the folder when it says more than SQLite's code (a full disk surfaces
    /// as SQLITE_FULL, but also as SQLITE_IOERR; a read-only mount as SQLITE_CANTOPEN).
    public static func describe(_ error: any Error, path: String, writing: Bool) -> SheafError {
        if let error = error as? SheafError { return error }
        let what = writing ? cannotWrite : "cannot read the index"
        let kind: SheafError.Kind = writing ? .indexNotWritable : .failure
        guard let error = error as? DatabaseError else { return SheafError(what, path: path, cause: "\(error)", kind: kind) }
        let folder = (path as NSString).deletingLastPathComponent
        switch (error.resultCode, folderProblem(folder)) {
        case (.SQLITE_BUSY, _), (.SQLITE_LOCKED, _):
            return SheafError("the index is busy", path: path, cause: "another program holds it locked",
                              hint: "close other programs that use .sheaf/index.sqlite, then run this again")
        case (.SQLITE_NOMEM, _):
            return SheafError("out of memory while using the index", path: path)
        case (_, .full), (.SQLITE_FULL, _):
            return SheafError(cannotWrite, path: path, cause: "the disk is full",
                              hint: "free some space on the disk that holds .sheaf/, then run this again", kind: .indexNotWritable)
        case (_, .readOnlyMount):
            return SheafError(cannotWrite, path: path, cause: "the file system is mounted read-only",
                              hint: "remount it writable (or copy the vault somewhere writable), then run this again",
                              kind: .indexNotWritable)
        case (_, .notWritable):
            return SheafError(writing ? cannotWrite : "cannot open the index", path: path,
                              cause: "its folder is read-only (no permission to write)",
                              hint: "make .sheaf/ writable, then run this again",
                              kind: writing ? .indexNotWritable : .failure)
        case (.SQLITE_READONLY, _), (.SQLITE_CANTOPEN, _), (.SQLITE_PERM, _):
            let problem = unusable(path) ?? unusable(path + "-wal").map { "its -wal file is \($0)" }
                ?? unusable(path + "-shm").map { "its -shm file is \($0)" }
            return SheafError(writing ? cannotWrite : "cannot open the index", path: path,
                              cause: problem.map { $0.hasPrefix("its") ? $0 : "it is \($0)" }
                                ?? "SQLite could not open it (\(error.message ?? "code \(error.extendedResultCode.rawValue)"))",
                              hint: "move it out of .sheaf/ (the index is rebuilt from the files), then run this again",
                              kind: writing ? .indexNotWritable : .failure)
        case (.SQLITE_IOERR, _):
            return SheafError(what, path: path, cause: "the disk reported an input/output error (SQLite code \(error.extendedResultCode.rawValue))",
                              hint: "check the disk and its free space, then run this again", kind: writing ? .indexNotWritable : .failure)
        default:
            return SheafError(what, path: path, cause: error.message ?? "SQLite error \(error.resultCode.rawValue)", kind: kind)
        }
    }

    enum FolderProblem { case none, full, readOnlyMount, notWritable }

    /// Why the file at `path` cannot be (part of) the index, nil when it is absent or could be.
    static func unusable(_ path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return access(path, R_OK | W_OK) == 0 ? nil : "a file Sheaf may not read and write"
        case S_IFDIR: return "a folder"
        case S_IFLNK: return "a symlink"
        default: return "not a regular file"
        }
    }

    /// The index is a cache: whatever stands at its paths and cannot be it is renamed
    /// `<name>.unusable-<unix time>` beside it (never deleted: a folder may hold anything), so the
    /// index is rebuilt. Nothing moves when the folder cannot be written; `describe` names why.
    static func setAsideUnusable(_ path: String) -> [(file: String, movedTo: String, what: String)] {
        guard folderProblem((path as NSString).deletingLastPathComponent) == .none else { return [] }
        var moved: [(String, String, String)] = []
        for file in [path, path + "-wal", path + "-shm"] {
            guard let what = unusable(file) else { continue }
            let aside = file + ".unusable-\(time(nil))"
            if rename(file, aside) == 0 { moved.append((file, aside, what)) }
        }
        return moved
    }

    /// What is wrong with the folder of the index, if anything a user can fix.
    static func folderProblem(_ folder: String) -> FolderProblem {
        var info = statvfs()
        if statvfs(folder, &info) == 0 {
            if info.f_flag & UInt(ST_RDONLY) != 0 { return .readOnlyMount }
            if info.f_bavail == 0 { return .full }
        }
        return access(folder, W_OK) == 0 ? .none : .notWritable
    }

    /// Moves a damaged database aside and starts an empty one; the next scan fills it (with
    /// `atomicBuild` in a separate file that replaces the damaged one).
    func startOver() throws(SheafError) {
        try? pool.close()
        standIn = nil
        if atomicBuild {
            if case .copyInto(let live) = build { try? live.close() }
            pool = try Self.startBuild(at: buildingPath)
            build = .renameOver
        } else {
            Self.remove(path)
            do { pool = try Self.open(path); try Self.migrate(pool) }
            catch { throw Self.describe(error, path: path, writing: true) }
        }
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
