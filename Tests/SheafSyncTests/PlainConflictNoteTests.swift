// The conflict file the small merge driver writes without a YAML library (`PlainConflictNote`)
// is, whenever it answers, the one `sheaf` writes (`ConflictFile.content`, the line editor and
// Yams), byte for byte; and it answers for the notes real vaults hold.
import Foundation
import SheafCore
import Testing
import TestSupport
@testable import SheafSync
@testable import SheafText

@Suite struct PlainConflictNoteTests {
    static let paths = ["Trips/Lisbon.md", "n.md", "Notes/a: b.md", "#hash.md", "- dash.md", "[[x]].md", "on.md",
                        "a #b.md", "Ünïcödé/日本.markdown", "x.MD", "end:.md", "quote\".md", "back\\slash.md",
                        "tab\there.md", "  lead.md", "readme.txt", "Folder/.hidden.md"]

    @Test func everyConflictFileThePlainWriterAnswersIsSheafsOwn() {
        var answered = 0, unanswered = 0
        for seed in 0..<3000 {
            var rng = SeededRandom(seed: seed)
            var note = FuzzNote.random(&rng)
            note.edit(&rng, tag: "theirs")
            let path = Self.paths[seed % Self.paths.count]
            let isNote = VaultPath.isNote(path)
            let full = ConflictFile.content(remote: note.bytes, notePath: path, isNote: isNote)
            guard let plain = PlainConflictNote.content(remote: note.bytes, notePath: path, isNote: isNote) else {
                unanswered += 1
                continue
            }
            answered += 1
            #expect(plain == full, "seed \(seed): \(String(decoding: plain, as: UTF8.self)) / \(String(decoding: full, as: UTF8.self))")
        }
        #expect(answered > 1500 && unanswered > 100, "answered \(answered), unanswered \(unanswered)")
    }

    /// Shapes real notes have at the edges of a block: none, an empty one, blank and comment
    /// lines last, a list last, an open key last, CRLF, a BOM, a body that looks like a block.
    @Test func theEdgesOfABlockGetTheKeysWhereSheafPutsThem() {
        let remotes = ["just text\n", "", "no final break", "---\n---\nbody\n", "---\ntitle: T\n\n\n---\nbody\n",
                       "---\ntitle: T\n# last words\n---\n", "---\ntags:\n- a\n- b\n---\nx\n", "---\nopen:\n---\nx\n",
                       "---\r\ntitle: T\r\n---\r\nbody\r\n", "\u{FEFF}---\ntitle: T\n---\nbody\n", "\u{FEFF}text\r\nmore\r\n",
                       "---\nnot closed\n", "--- \ntitle: T\n---\nx\n", "---\ntitle: T\n---", "a\r\nb\nc\r\n",
                       "---\nid: 7\n---\nx\n", "---\nconflict-of: x.md\n---\n", "---\na: 1\na: 2\n---\n",
                       "---\nmeta:\n  nested: 1\n---\n", "bin\u{0}ary"]
        for remote in remotes {
            for path in Self.paths {
                let isNote = VaultPath.isNote(path)
                let full = ConflictFile.content(remote: Array(remote.utf8), notePath: path, isNote: isNote)
                guard let plain = PlainConflictNote.content(remote: Array(remote.utf8), notePath: path, isNote: isNote) else { continue }
                #expect(plain == full, "\(remote.debugDescription) at \(path.debugDescription)")
            }
        }
        // What needs a parser is left to it: a key already there, a key twice, a nested mapping.
        for remote in ["---\nid: 7\n---\nx\n", "---\na: 1\na: 2\n---\n", "---\nmeta:\n  nested: 1\n---\n"] {
            #expect(PlainConflictNote.content(remote: Array(remote.utf8), notePath: "n.md", isNote: true) == nil)
        }
    }

    /// The name both executables give: the shared `ConflictName`, from SheafSync's `Date` and
    /// from the driver's whole seconds alike.
    @Test func theNameFromWholeSecondsIsTheNameFromADate() {
        for seconds in [0, 1_795_000_000, 1_795_000_000 + 86_399, 4_102_444_800, 951_782_400] {
            let fromDate = ConflictFile.path(for: "a/b.md", time: Date(timeIntervalSince1970: Double(seconds) + 0.75),
                                             device: "git-merge", taken: { _ in false })
            let plain = ConflictName.path(for: "a/b.md", stamp: ConflictName.stamp(secondsSince1970: seconds),
                                          label: "git-merge", taken: { _ in false })
            #expect(fromDate == plain)
        }
        #expect(ConflictName.stamp(secondsSince1970: 951_782_400) == "20000229-000000")
    }
}
