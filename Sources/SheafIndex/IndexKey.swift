// Why: the index compares names in SQL, byte for byte (a tag's key, a link's target key, an
// attachment's name key), where Sheaf everywhere else compares them as a reader does: without
// case and with canonically equal spellings equal (`café` typed in NFC is `café` written in NFD,
// as a Mac writes it). Stored lower-cased only, `tag:café` missed the notes tagged `#café` in
// NFD that `sheaf tags` counted, and `backlinks` missed `[[Café]]` in NFD to `Café.md` in NFC,
// which `show` resolved. Every such key is made here, stored and asked alike: lower-cased, then
// composed (NFC), so two spellings are one key exactly when Swift's `==` says they are equal.
import Foundation
import SheafCore

enum IndexKey {
    /// `text` lower-cased and in NFC (ASCII, most names, is its own NFC).
    static func of(_ text: String) -> String {
        let lower = text.lowercased()
        return lower.utf8.allSatisfy { $0 < 0x80 } ? lower : lower.precomposedStringWithCanonicalMapping
    }
}

extension NoteIndex {
    /// The key a link target (or the path of a file it may reach) is looked up by: its file name
    /// as `IndexKey` makes keys, without a note extension (cut after lower-casing, so that two
    /// names one key equal have one key here too).
    public static func linkKey(_ target: String) -> String {
        VaultPath.withoutNoteExtension(IndexKey.of(VaultPath.fileName(target)))
    }

    /// Whether a link target ends in no file name (`Folder/`, `Note.md/.`, `x.`): its key says
    /// little, and only its whole path decides what it reaches (`links.no_name`).
    static func endsInNoName(_ target: String) -> Bool {
        target.utf8.last == UInt8(ascii: ".") || target.utf8.last == UInt8(ascii: "/")
    }

    /// The key of a file's name in the `files` table.
    static func nameKey(_ path: String) -> String { IndexKey.of(VaultPath.fileName(path)) }

    /// The key of a tag (`#Travel/Lisbon`, front-matter `tags`).
    static func tagKey(_ tag: String) -> String { IndexKey.of(tag) }
}
