// Conflict files: the remote side of an overlapping edit, kept beside the note. The name and the
// content depend only on the merge's inputs (the remote commit's time and device, the texts), so
// two machines making the same merge write the same file, and a merge that is redone after a
// crash finds its conflict file already in place instead of adding a second one.
import Foundation
import SheafCore

public enum ConflictFile {
    /// `<stem>.conflict-<yyyyMMdd-HHmmss>-<device><ext>` beside `path`, the time in UTC.
    /// `taken(candidate)` answers whether a path is used by a different file; a clash adds
    /// `-2`, `-3`, ... A long note name is cut (deterministically) so the name fits 255 bytes.
    public static func path(for path: String, time: Date, device: String, taken: (String) -> Bool) -> String {
        var ext = VaultPath.fileExtension(path)
        var stem = VaultPath.stem(path)
        if ext.utf8.count > 32 { stem = VaultPath.fileName(path); ext = "" }
        let folder = VaultPath.folder(path)
        let marker = ".conflict-\(stamp(time))-\(deviceLabel(device))"
        var n = 1
        while true {
            let name = VaultPath.fittedName(stem: stem, suffix: n == 1 ? marker : "\(marker)-\(n)", ext: ext)
            let candidate = VaultPath.join(folder, name)
            if !taken(candidate) { return candidate }
            n += 1
        }
    }

    /// The conflict file's bytes: the remote version of a note, with `conflict-of: <note path>`
    /// and an `id` of its own (derived from the inputs, so it is the same on every machine).
    /// A front-matter block is added when the note had none. Other files, and notes whose
    /// front-matter does not parse, are kept as they are: the name marks them.
    public static func content(remote: [UInt8], notePath: String, isNote: Bool) -> [UInt8] {
        guard isNote, let text = NoteMerge.text(remote), var editor = try? FrontMatterEditor(text: text) else {
            return remote
        }
        // Front-matter the line editor cannot change safely: kept as it is, like one that does
        // not parse (the name still marks the file).
        do {
            try editor.set("conflict-of", to: notePath)
            try editor.set("id", to: derivedID(notePath: notePath, content: remote))
        } catch { return remote }
        return Array(editor.text.utf8)
    }

    /// A name-based UUID (version 8 layout) from two FNV-1a 64 hashes of the inputs.
    static func derivedID(notePath: String, content: [UInt8]) -> String {
        var a: UInt64 = 0xcbf2_9ce4_8422_2325, b: UInt64 = 0x8422_2325_cbf2_9ce4
        for byte in Array(notePath.utf8) + [0] + content {
            a = (a ^ UInt64(byte)) &* 0x100_0000_01b3
            b = (b ^ UInt64(byte)) &* 0x100_0000_01b3 ^ (b >> 29)
        }
        var bytes = withUnsafeBytes(of: a.bigEndian, Array.init) + withUnsafeBytes(of: b.bigEndian, Array.init)
        bytes[6] = (bytes[6] & 0x0f) | 0x80
        bytes[8] = (bytes[8] & 0x3f) | 0x80
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        let parts = [hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4),
                     hex.dropFirst(16).prefix(4), hex.dropFirst(20)]
        return parts.joined(separator: "-")
    }

    static func stamp(_ time: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: time)
        return String(format: "%04d%02d%02d-%02d%02d%02d", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!)
    }

    /// The device name as a file-name part: safe characters only, blanks as `-`.
    static func deviceLabel(_ device: String) -> String {
        var stem = NoteFileName.stem(for: device)
        while stem.utf8.count > 40 { stem.removeLast() }  // a remote's commit names the device
        let label = stem.map { $0 == " " ? "-" : $0 }
        return label.isEmpty ? "remote" : String(label)
    }
}
