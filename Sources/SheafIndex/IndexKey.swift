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
        return TextFolding.isASCII(lower) ? lower : lower.precomposedStringWithCanonicalMapping
    }
}

extension NoteIndex {
    /// The key a link target (or the path of a file it may reach) is looked up by: its file name
    /// as `IndexKey` makes keys, without a note extension (cut after lower-casing, so that two
    /// names one key equal have one key here too).
    public static func linkKey(_ target: String) -> String {
        VaultPath.withoutNoteExtension(IndexKey.of(VaultPath.fileName(target)))
    }

    /// The key of a file's name in the `files` table.
    static func nameKey(_ path: String) -> String { IndexKey.of(VaultPath.fileName(path)) }

    /// The key of a tag (`#Travel/Lisbon`, front-matter `tags`).
    static func tagKey(_ tag: String) -> String { IndexKey.of(tag) }
}
