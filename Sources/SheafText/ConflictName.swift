// Conflict files are named `<stem>.conflict-<yyyyMMdd-HHmmss>-<device><ext>` (docs/sync.md,
// "Conflict files"). The name and the `id` are made here, without Foundation: `sheaf` (SheafSync's
// `ConflictFile`) and the small merge driver `sheaf-merge-file` name and mark the remote side of
// an overlap with this one code, so both give the same file for the same merge.
#if canImport(Glibc)
import Glibc
#endif

public enum ConflictName {
    /// Whether `path` is named as a conflict file.
    public static func isConflict(_ path: String) -> Bool {
        let stem = Array(VaultPath.stem(path).utf8), marker = Array(".conflict-".utf8)
        guard stem.count >= marker.count,
              let start = (0...(stem.count - marker.count)).last(where: { stem[$0..<($0 + marker.count)].elementsEqual(marker) })
        else { return false }
        let digits = stem[(start + marker.count)...].prefix(15)
        return digits.count == 15 && digits.enumerated().allSatisfy { i, c in
            i == 8 ? c == UInt8(ascii: "-") : (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9"))
        }
    }

    /// `<stem>.conflict-<stamp>-<label><ext>` beside `path`. `taken(candidate)` answers whether a
    /// path is used by a different file; a clash adds `-2`, `-3`, ... A long note name is cut
    /// (deterministically) so the name fits 255 bytes.
    public static func path(for path: String, stamp: String, label: String, taken: (String) -> Bool) -> String {
        var ext = VaultPath.fileExtension(path)
        var stem = VaultPath.stem(path)
        if ext.utf8.count > 32 { stem = VaultPath.fileName(path); ext = "" }
        let folder = VaultPath.folder(path)
        let marker = ".conflict-\(stamp)-\(label)"
        var n = 1
        while true {
            let name = VaultPath.fittedName(stem: stem, suffix: n == 1 ? marker : "\(marker)-\(n)", ext: ext)
            let candidate = VaultPath.join(folder, name)
            if !taken(candidate) { return candidate }
            n += 1
        }
    }

    /// `yyyyMMdd-HHmmss` in UTC for a time in whole seconds since 1970.
    public static func stamp(secondsSince1970 seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let year = String(parts.tm_year + 1900)
        return String(repeating: "0", count: max(0, 4 - year.count)) + year + two(parts.tm_mon + 1) + two(parts.tm_mday)
            + "-" + two(parts.tm_hour) + two(parts.tm_min) + two(parts.tm_sec)
    }

    /// A name-based UUID (version 8 layout) from two FNV-1a 64 hashes of the inputs: the same
    /// note path and content give the same `id` on every machine.
    public static func derivedID(notePath: String, content: [UInt8]) -> String {
        var a: UInt64 = 0xcbf2_9ce4_8422_2325, b: UInt64 = 0x8422_2325_cbf2_9ce4
        for byte in Array(notePath.utf8) + [0] + content {
            a = (a ^ UInt64(byte)) &* 0x100_0000_01b3
            b = (b ^ UInt64(byte)) &* 0x100_0000_01b3 ^ (b >> 29)
        }
        var bytes = withUnsafeBytes(of: a.bigEndian, Array.init) + withUnsafeBytes(of: b.bigEndian, Array.init)
        bytes[6] = (bytes[6] & 0x0f) | 0x80
        bytes[8] = (bytes[8] & 0x3f) | 0x80
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        for (i, byte) in bytes.enumerated() {
            if i == 4 || i == 6 || i == 8 || i == 10 { hex.append(UInt8(ascii: "-")) }
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: hex, as: UTF8.self)
    }
}
