// Two files whose names differ only in bytes: `café.md` in NFC beside `café.md` in NFD (equal as
// Swift Strings, two files on Linux), and a name with a byte that is not UTF-8 beside the same
// name with U+FFFD (what Swift makes of that byte). Names are made from bytes with open(2).
import Foundation
import SheafCore
import Testing
import TestSupport
@testable import SheafIndex
#if canImport(Glibc)
import Glibc
import SheafFiles
#endif

@Suite struct PathBytesTests {
    static let nfc: [UInt8] = Array("caf\u{E9}.md".utf8)          // c a f C3 A9 . m d
    static let nfd: [UInt8] = Array("cafe\u{301}.md".utf8)        // c a f e CC 81 . m d
    static let invalid: [UInt8] = Array("bad".utf8) + [0xFF] + Array(".md".utf8)
    static let replacement: [UInt8] = Array("bad\u{FFFD}.md".utf8)

    func makeVault() -> (Vault, String) {
        let root = TempDir.make("bytes")
        try! FileManager.default.createDirectory(atPath: root + "/.sheaf", withIntermediateDirectories: true)
        return (Vault(root: root), root)
    }

    func scan(_ index: NoteIndex, _ vault: Vault) throws -> ScanReport {
        try index.scan(vault: vault, walker: VaultWalker(vault: vault))
    }

    func paths(_ index: NoteIndex) throws -> [[UInt8]] {
        try index.summaries().map { Array($0.path.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
    }

    /// Regression: the catalog was keyed by String (canonical equivalence), so the second scan
    /// took the NFD twin for the NFC one and failed with `UNIQUE constraint failed: notes.path`.
    @Test func nfcAndNfdTwinNamesAreTwoNotes() throws {
        let (vault, root) = makeVault()
        defer { try? FileManager.default.removeItem(atPath: root) }
        ByteName.write("# Composed\nnfcword\n", name: Self.nfc, in: root)
        ByteName.write("# Decomposed\nnfdword\n", name: Self.nfd, in: root)
        let index = try NoteIndex(vault: vault)
        #expect(try scan(index, vault).added == 2)
        #expect(try paths(index) == [Self.nfc, Self.nfd].sorted { $0.lexicographicallyPrecedes($1) })
        // A second scan, and one after an edit of each twin in turn.
        _ = try scan(index, vault)
        ByteName.write("# Decomposed\nnfdword edited\n", name: Self.nfd, in: root)
        #expect(try scan(index, vault).changed == 1)
        ByteName.write("# Composed again\nnfcword\n", name: Self.nfc, in: root)
        #expect(try scan(index, vault).changed == 1)
        let titles = Dictionary(uniqueKeysWithValues: try index.summaries().map { (Array($0.path.utf8), $0.title) })
        #expect(titles[Self.nfc] == "Composed again")
        #expect(titles[Self.nfd] == "Decomposed")
        // Each is found by its own words, at its own path.
        let nfd = try index.search(SearchQuery.parse("nfdword"), vault: vault)
        #expect(nfd.map { Array($0.path.utf8) } == [Self.nfd])
        #expect(nfd.first?.snippet.map(\.text).joined().contains("edited") == true)
        #expect(try index.search(SearchQuery.parse("nfcword"), vault: vault).map { Array($0.path.utf8) } == [Self.nfc])
        // Removing one twin removes that one only.
        ByteName.remove(name: Self.nfc, in: root)
        #expect(try scan(index, vault).removed == 1)
        #expect(try paths(index) == [Self.nfd])
    }

    /// Regression: the walk read `bad\xFF.md` as `bad\u{FFFD}.md` and stat'ed its twin under that
    /// name, so both rows had one path: `UNIQUE constraint failed: notes.path` on the first scan.
    @Test func invalidUTF8NameBesideItsReplacementTwin() throws {
        let (vault, root) = makeVault()
        defer { try? FileManager.default.removeItem(atPath: root) }
        ByteName.write("# Raw\nrawword\n", name: Self.invalid, in: root)
        ByteName.write("# Replaced\nreplword\n", name: Self.replacement, in: root)
        let index = try NoteIndex(vault: vault)
        let report = try scan(index, vault)
        #expect(try paths(index) == [Self.replacement])
        #expect(report.walkWarnings.map(\.path) == ["bad\\xFF.md"])
        #expect(try index.search(SearchQuery.parse("replword"), vault: vault).map(\.title) == ["Replaced"])
        #expect(try index.search(SearchQuery.parse("rawword"), vault: vault).isEmpty)
        _ = try scan(index, vault)
        // Alone (no twin), the name is still named and skipped, never read as another file.
        ByteName.remove(name: Self.replacement, in: root)
        let alone = try scan(index, vault)
        #expect(try paths(index).isEmpty)
        #expect(alone.walkWarnings.map(\.path) == ["bad\\xFF.md"])
    }

    /// Attachments are keyed the same way: two twin images are two rows.
    @Test func nfcAndNfdTwinAttachmentsAreTwoRows() throws {
        let (vault, root) = makeVault()
        defer { try? FileManager.default.removeItem(atPath: root) }
        ByteName.write("a", name: Array("caf\u{E9}.png".utf8), in: root)
        ByteName.write("bb", name: Array("cafe\u{301}.png".utf8), in: root)
        let index = try NoteIndex(vault: vault)
        _ = try scan(index, vault)
        ByteName.write("ccc", name: Array("cafe\u{301}.png".utf8), in: root)
        _ = try scan(index, vault)
        let sizes = try index.attachments().map { (Array($0.path.utf8), $0.size) }
        #expect(sizes.count == 2)
        #expect(sizes.contains { $0.0 == Array("caf\u{E9}.png".utf8) && $0.1 == 1 })
        #expect(sizes.contains { $0.0 == Array("cafe\u{301}.png".utf8) && $0.1 == 3 })
    }

    @Test func displayNameEscapesOnlyTheBadBytes() {
        #expect(PathBytes.displayName(Self.invalid) == "bad\\xFF.md")
        #expect(PathBytes.displayName(Array("caf\u{E9}".utf8) + [0xC3]) == "caf\u{E9}\\xC3")
        #expect(PathKey("caf\u{E9}") != PathKey("cafe\u{301}"))
        #expect(Set([PathKey("caf\u{E9}"), PathKey("cafe\u{301}"), PathKey("caf\u{E9}")]).count == 2)
    }
}
