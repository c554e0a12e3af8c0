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
        ConflictName.path(for: path, stamp: stamp(time), label: deviceLabel(device), taken: taken)
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
            try editor.set("id", to: ConflictName.derivedID(notePath: notePath, content: remote))
        } catch { return remote }
        return Array(editor.text.utf8)
    }

    static func stamp(_ time: Date) -> String {
        ConflictName.stamp(secondsSince1970: Int(time.timeIntervalSince1970.rounded(.down)))
    }

    /// The device name as a file-name part: safe characters only, blanks as `-`.
    static func deviceLabel(_ device: String) -> String {
        var stem = NoteFileName.stem(for: device)
        while stem.utf8.count > 40 { stem.removeLast() }  // a remote's commit names the device
        let label = stem.map { $0 == " " ? "-" : $0 }
        return label.isEmpty ? "remote" : String(label)
    }
}
