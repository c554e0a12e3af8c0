// The content hash thumbnails are stored under: FNV-1a 64 of the file's bytes, read in 1 MB
// chunks so a large attachment is never held in memory. A renamed or copied attachment keeps its
// hash, so it keeps its thumbnail.
import Foundation
import SheafCore

public enum ContentDigest {
    public static func ofFile(_ path: String) throws(SheafError) -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw SheafError("cannot read", path: path, cause: "the file vanished or is unreadable")
        }
        defer { try? handle.close() }
        var state: UInt64 = 0xcbf29ce484222325
        while true {
            let chunk: Data
            do { chunk = try handle.read(upToCount: 1 << 20) ?? Data() }
            catch { throw SheafError("cannot read", path: path, cause: error.localizedDescription) }
            if chunk.isEmpty { break }
            chunk.withUnsafeBytes { bytes in
                for byte in bytes { state = (state ^ UInt64(byte)) &* 0x100000001b3 }
            }
        }
        let hex = String(state, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
