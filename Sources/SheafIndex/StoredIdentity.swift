// The catalog's side of the comparison with the walk: each row's file identity (size, mtime_ns,
// inode), read with one statement, and the content hashes of only the rows a scan compares.
import GRDB
import SheafCore

/// A catalog row's file identity. The content hash is fetched only for the rows a scan compares
/// (`storedHashes`): 100k hash strings allocated and freed were a tenth of a no-change scan.
struct StoredIdentity {
    let rowid: Int64
    let size: Int
    let mtimeNs: Int64
    let inode: UInt64

    func matches(_ f: VaultFile) -> Bool { size == f.size && mtimeNs == f.mtimeNanoseconds && inode == f.inode }
}

extension NoteIndex {
    /// The catalog's file identities by path, read with one statement.
    func storedIdentities() throws -> [PathKey: StoredIdentity] {
        try pool.read { db in
            var stored: [PathKey: StoredIdentity] = [:]
            stored.reserveCapacity(try Int.fetchOne(db, sql: "SELECT count(*) FROM notes") ?? 0)
            let statement = try db.makeStatement(sql: "SELECT path, rowid, size, mtime_ns, inode FROM notes")
            let rows = try Row.fetchCursor(statement)
            while let row = try rows.next() {
                stored[PathKey(row[0])] = StoredIdentity(rowid: row[1], size: row[2], mtimeNs: row[3],
                                                inode: UInt64(bitPattern: row[4]))
            }
            return stored
        }
    }

    /// The content hashes of the catalog rows `rowids`.
    func storedHashes(_ rowids: [Int64]) throws -> [Int64: String] {
        guard !rowids.isEmpty else { return [:] }
        return try pool.read { db in
            let statement = try db.makeStatement(sql: "SELECT hash FROM notes WHERE rowid = ?")
            var hashes: [Int64: String] = [:]
            for rowid in rowids { hashes[rowid] = try String.fetchOne(statement, arguments: [rowid]) }
            return hashes
        }
    }
}
