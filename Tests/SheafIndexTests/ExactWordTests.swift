// `=word` matches the word as written, without stemming, while words, phrases and prefixes keep
// matching as before; an index made before exact words is rebuilt.
import Foundation
import SheafCore
import SheafFiles
import Testing
@testable import SheafIndex

@Suite struct ExactWordTests {
    /// A vault of one note per form of `copy` and `run`, indexed.
    func indexed(_ notes: [String: String]) throws -> (NoteIndex, Vault, String) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("sheaf-exact-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root + "/.sheaf", withIntermediateDirectories: true)
        for (path, text) in notes { try Data(text.utf8).write(to: URL(fileURLWithPath: root + "/" + path)) }
        let vault = Vault(root: root)
        let index = try NoteIndex(vault: vault)
        _ = try index.scan(vault: vault, walker: VaultWalker(vault: vault))
        return (index, vault, root)
    }

    static let notes = [
        "copy.md": "# One\nPlease copy this.\n",
        "copied.md": "# Two\nShe copied the file.\n",
        "copying.md": "# Three\nCopying files takes time.\n",
        "copies.md": "# Four\nTwo copies were made.\n",
        "run.md": "# Five\nA long run today.\n",
        "running.md": "# Six\nHe was running late.\n",
        "runs.md": "# Seven\nShe runs daily.\n",
        "phrase.md": "# Eight\nWe were copying files all day, then running home.\n",
        "Copying Machines.md": "Nothing in the body.\n",
    ]

    func paths(_ index: NoteIndex, _ vault: Vault, _ query: String) throws -> [String] {
        try index.search(SearchQuery.parse(query), vault: vault, options: SearchOptions(limit: 50, snippets: false)).map(\.path).sorted()
    }

    /// Regression: `copying` found every note with `copy`, `copied` or `copies` (6,547 of 6,571 in
    /// one real vault, ripgrep 23), and there was no way to ask for the word itself. A word equal to
    /// its own stem (`run`) was indexed only as the stem, which `running` also produced.
    @Test func anExactWordDoesNotMatchItsOtherForms() throws {
        let (index, vault, root) = try indexed(Self.notes)
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(try paths(index, vault, "=copying") == ["Copying Machines.md", "copying.md", "phrase.md"])
        #expect(try paths(index, vault, "=COPYING") == ["Copying Machines.md", "copying.md", "phrase.md"])
        #expect(try paths(index, vault, "=copy") == ["copy.md"])
        #expect(try paths(index, vault, "=copied") == ["copied.md"])
        #expect(try paths(index, vault, "=run") == ["run.md"])
        #expect(try paths(index, vault, "=running") == ["phrase.md", "running.md"])
        #expect(try paths(index, vault, "=runs") == ["runs.md"])
        // A phrase, a title, an OR, an exclusion.
        #expect(try paths(index, vault, "=\"copying files\"") == ["copying.md", "phrase.md"])
        #expect(try paths(index, vault, "=\"copy files\"").isEmpty)
        #expect(try paths(index, vault, "title:=copying") == ["Copying Machines.md"])
        #expect(try paths(index, vault, "title:=copy").isEmpty)
        #expect(try paths(index, vault, "=run OR =runs") == ["run.md", "runs.md"])
        #expect(try paths(index, vault, "run -=running") == ["run.md", "runs.md"])
    }

    /// Words, phrases and prefixes match as they did before exact words.
    @Test func stemsPhrasesAndPrefixesStillMatchEveryForm() throws {
        let (index, vault, root) = try indexed(Self.notes)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let copyForms = ["Copying Machines.md", "copied.md", "copies.md", "copy.md", "copying.md", "phrase.md"]
        #expect(try paths(index, vault, "copying") == copyForms)
        #expect(try paths(index, vault, "copy") == copyForms)
        #expect(try paths(index, vault, "run") == ["phrase.md", "run.md", "running.md", "runs.md"])
        #expect(try paths(index, vault, "running") == ["phrase.md", "run.md", "running.md", "runs.md"])
        #expect(try paths(index, vault, "\"copy file\"") == ["copying.md", "phrase.md"])
        #expect(try paths(index, vault, "copy*") == ["Copying Machines.md", "copy.md", "copying.md", "phrase.md"])
        #expect(try paths(index, vault, "runn*") == ["phrase.md", "running.md"])
        #expect(try paths(index, vault, "=runn*") == ["phrase.md", "running.md"])
        #expect(try paths(index, vault, "title:copy") == ["Copying Machines.md"])
    }

    /// The snippet marks the exact word and not the other forms on the same line.
    @Test func anExactTermHighlightsOnlyTheWordItself() throws {
        let (index, vault, root) = try indexed(["mixed.md": "# Mixed\nrun, running, runs and Run.\n"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let marked = { (query: String) throws -> [String] in
            try index.search(SearchQuery.parse(query), vault: vault).first?.snippet.filter(\.match).map(\.text) ?? []
        }
        #expect(try marked("=run") == ["run", "Run"])
        #expect(try marked("=running") == ["running"])
        #expect(try marked("run") == ["run", "running", "runs", "Run"])
        #expect(try marked("runn*") == ["running"])
    }

    /// An index made before "v4-exact-words" holds stems that cannot be told from words: it is
    /// rebuilt, and then `=run` tells them apart.
    @Test func anIndexFromBeforeExactWordsIsRebuilt() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("sheaf-exact-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root + "/.sheaf", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Data("# Six\nHe was running late.\n".utf8).write(to: URL(fileURLWithPath: root + "/running.md"))
        try OldIndex.make(in: root, upTo: "v3-links-from-blocks")
        let vault = Vault(root: root)
        let index = try NoteIndex(vault: vault)
        #expect(index.rebuildReason == .schemaChanged)
        let r = try index.scan(vault: vault, walker: VaultWalker(vault: vault))
        #expect(r.added == 1 && r.rebuilt == .schemaChanged)
        #expect(try paths(index, vault, "=run").isEmpty)
        #expect(try paths(index, vault, "run") == ["running.md"])
    }

    /// The compiled FTS5 text: an exact term carries the marker; a user's own marker is dropped.
    @Test func exactTermsCompileWithTheMarker() {
        #expect(NoteIndex.compile(.exact("copying")) == "\"\u{2}copying\"")
        #expect(NoteIndex.compile(.word("\u{2}copying")) == "\"copying\"")
        #expect(NoteIndex.compile(.exact("東京 x")) == "(cjk : \"東京\" AND \"\u{2} x\")")
    }
}
