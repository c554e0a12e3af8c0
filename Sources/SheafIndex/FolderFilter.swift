// Why: `ls --folder` and `search in:` are one rule, written once, in SQL. A note is in folder F
// when its folder is F or below F (`Trips` holds `Trips/Kyoto`, not `Trips-old`), compared
// without case in every script (`trips` finds `Trips`, `été` finds `Été`) and with canonically
// equal spellings equal (a name typed in NFC finds a folder stored in NFD). SQLite's NOCASE and
// lower() fold ASCII only, so the comparison is an SQL function of its own, `sheaf_in_folder`,
// registered on every connection: plain ASCII folders (most of them) are compared byte by byte
// without a Swift string; others are folded with Foundation's case folding.
import Foundation
import GRDB
import GRDBSQLite

enum FolderFilter {
    static let function = "sheaf_in_folder"

    /// The SQL condition on `notes n` for folder `folder` (vault-relative, normalized; "" is the
    /// whole vault) and its argument.
    static func condition(_ folder: String) -> (String, [DatabaseValueConvertible]) {
        ("\(function)(n.folder, ?)", [key(folder)])
    }

    /// `folder` as the comparison sees it: case-folded.
    static func key(_ folder: String) -> String {
        TextFolding.isASCII(folder) ? folder.lowercased() : folder.folding(options: .caseInsensitive, locale: nil)
    }

    /// Whether `folder` (as stored) is the folder `key` (a `key(_:)`) or below it.
    static func contains(folder: String, key: String) -> Bool {
        let folded = Self.key(folder)
        return key.isEmpty || folded == key || folded.hasBytePrefix(key + "/")
    }

    /// Adds `sheaf_in_folder(folder, key)` to a connection.
    static func register(_ db: Database) throws {
        let rc = sqlite3_create_function_v2(
            db.sqliteConnection, function, 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
            { context, _, arguments in
                guard let arguments, let folderValue = arguments[0], let keyValue = arguments[1] else {
                    sqlite3_result_int(context, 0)
                    return
                }
                let folder = UnsafeBufferPointer(start: sqlite3_value_text(folderValue), count: Int(sqlite3_value_bytes(folderValue)))
                let key = UnsafeBufferPointer(start: sqlite3_value_text(keyValue), count: Int(sqlite3_value_bytes(keyValue)))
                sqlite3_result_int(context, FolderFilter.matches(folder: folder, key: key) ? 1 : 0)
            }, nil, nil, nil)
        guard rc == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: rc), message: "cannot add \(function)") }
    }

    /// The function's body on raw UTF-8. ASCII against ASCII compares bytes with ASCII case
    /// folding; anything else goes through `contains(folder:key:)`.
    static func matches(folder: UnsafeBufferPointer<UInt8>, key: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !key.isEmpty else { return true }
        let ascii = !folder.contains { $0 >= 0x80 } && !key.contains { $0 >= 0x80 }
        guard ascii else {
            return contains(folder: String(decoding: folder, as: UTF8.self), key: String(decoding: key, as: UTF8.self))
        }
        guard folder.count >= key.count else { return false }
        if folder.count > key.count && folder[key.count] != UInt8(ascii: "/") { return false }
        for i in 0..<key.count {
            var b = folder[i]
            if b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z") { b += 32 }
            if b != key[i] { return false }
        }
        return true
    }
}
