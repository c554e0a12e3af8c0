// Paths compared by their bytes. Swift's `String ==` is canonical equivalence, so `café.md` in
// NFC and in NFD are one dictionary key, yet on Linux they are two files. Every table that maps
// paths to files (the scanner's catalog, the attachments, the walk's sets) is keyed by PathKey.
// A file name that is not UTF-8 cannot be a String at all: the walk reports and skips it
// (`PathBytes.displayName` names it in the warning).

#if canImport(Glibc)
import Glibc
#endif

/// A vault path that compares and hashes by its UTF-8 bytes, never by canonical equivalence.
public struct PathKey: Hashable, Sendable, CustomStringConvertible {
    public let path: String

    public init(_ path: String) { self.path = path }

    public static func == (a: PathKey, b: PathKey) -> Bool { PathBytes.same(a.path, b.path) }

    public func hash(into hasher: inout Hasher) {
        var path = path
        path.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        hasher.combine(path.utf8.count)
    }

    public var description: String { path }
}

public enum PathBytes {
    /// Whether two paths are the same bytes (the same file on Linux).
    /// Native strings are compared as two buffers by `memcmp` (a freshness walk compares 10k
    /// paths per scan; `elementsEqual`, over the UTF-8 views or over the buffers, went a byte at
    /// a time: 3 % of a no-change walk's CPU).
    public static func same(_ a: String, _ b: String) -> Bool {
        let (x, y) = (a.utf8, b.utf8)
        guard x.count == y.count else { return false }
        guard x.count > 0 else { return true }
        let contiguous = x.withContiguousStorageIfAvailable { bx in
            y.withContiguousStorageIfAvailable { by in memcmp(bx.baseAddress!, by.baseAddress!, bx.count) == 0 }
        }
        return (contiguous ?? nil) ?? x.elementsEqual(y)
    }

    /// Byte order: deterministic even between canonically equivalent twins, and, for UTF-8, the
    /// order of code points.
    public static func precedes(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }

    /// String order (what a listing showed before), and byte order between canonically
    /// equivalent twins, which String order calls equal (an unstable sort swapped them).
    public static func sortsBefore(_ a: String, _ b: String) -> Bool { a == b ? precedes(a, b) : a < b }

    /// The bytes as a String when they are valid UTF-8, else nil (no U+FFFD repair).
    public static func string<C: Collection>(_ bytes: C) -> String? where C.Element == UInt8 {
        String(validating: bytes, as: UTF8.self)
    }

    /// A name for messages: valid UTF-8 as it is, every other byte as `\xFF`.
    public static func displayName<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        if let text = string(bytes) { return text }
        var out = ""
        var rest = Array(bytes)[...]
        while !rest.isEmpty {
            // One character at a time (1 to 4 bytes); a byte that starts none is escaped.
            if let k = (1...min(4, rest.count)).first(where: { String(validating: rest.prefix($0), as: UTF8.self) != nil }) {
                out += String(decoding: rest.prefix(k), as: UTF8.self)
                rest = rest.dropFirst(k)
            } else {
                out += "\\x" + String(rest.first!, radix: 16, uppercase: true).leftPadded(2)
                rest = rest.dropFirst()
            }
        }
        return out
    }
}

private extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
