// VaultSession in process: finding and opening a vault, creating notes (never over a file, never
// outside the vault's notes), and the writer lock that serialises commands that change a vault.
import Foundation
import SheafCore
import Testing
import TestSupport
@testable import SheafKit

@Suite struct VaultSessionTests {
    @Test func openFindsTheVaultAboveTheWorkingFolder() throws {
        let v = try KitVault()
        try FileManager.default.createDirectory(atPath: v.root + "/Trips/Japan", withIntermediateDirectories: true)
        let session = try v.session(in: "Trips/Japan")
        #expect(session.vault.root == v.root)
        #expect(session.workingFolder == "Trips/Japan")
        let explicit = try VaultSession.open(explicit: v.root, environment: [:], workingDirectory: "/")
        #expect(explicit.vault.root == v.root)
        let fromEnvironment = try VaultSession.open(explicit: nil, environment: ["SHEAF_VAULT": v.root], workingDirectory: "/")
        #expect(fromEnvironment.vault.root == v.root)
    }

    @Test func openNeverAdoptsAGitRepositoryWithoutSheafState() throws {
        let temp = TempDir("kit")
        let plain = temp.path + "/plain"
        try FileManager.default.createDirectory(atPath: plain + "/.git", withIntermediateDirectories: true)
        #expect(throws: SheafError.self) { try VaultSession.open(explicit: nil, environment: [:], workingDirectory: plain) }
    }

    @Test func createNoteWritesFrontMatterAndIsFoundInTheIndex() throws {
        let v = try KitVault()
        let session = try v.session()
        let report = try session.createNote(title: "Lisbon budget", folder: "Trips", tags: ["travel"], body: "rent: 500")
        #expect(report.path == "Trips/Lisbon budget.md")
        let text = try #require(v.read(report.path))
        #expect(text.contains("id: \(report.id)") && text.contains("title: Lisbon budget") && text.hasSuffix("rent: 500\n"))
        #expect(try session.freshIndex().0.summaries().map(\.path) == ["Trips/Lisbon budget.md"])
    }

    @Test func createNoteNamesASecondNoteOfTheSameTitleApart() throws {
        let v = try KitVault()
        let first = try v.session().createNote(title: "Plan", folder: nil, tags: [], body: "first")
        let second = try v.session().createNote(title: "Plan", folder: nil, tags: [], body: "second")
        #expect(first.path != second.path)
        #expect(v.read(first.path)?.hasSuffix("first\n") == true && v.read(second.path)?.hasSuffix("second\n") == true)
    }

    /// The file appears after the session listed the vault and before it writes: the create is a
    /// rename that refuses to replace (RENAME_NOREPLACE), so the other file keeps its bytes.
    @Test func createNoteNeverReplacesAFileThatAppearedMeanwhile() throws {
        let v = try KitVault()
        let session = try v.session()
        _ = try session.catalog()
        try v.write("an editor's note\n", "2026-05-02.md")
        #expect(throws: SheafError.self) {
            try session.createNote(title: "2026-05-02", folder: nil, tags: [], body: "daily", exactName: true)
        }
        #expect(v.read("2026-05-02.md") == "an editor's note\n")
    }

    @Test func createNoteRefusesFoldersOutsideTheNotes() throws {
        let v = try KitVault()
        let session = try v.session()
        for folder in [".git", ".sheaf", "../elsewhere", "Notes/.hidden"] {
            #expect(throws: SheafError.self, "\(folder)") { try session.createNote(title: "x", folder: folder, tags: [], body: "") }
        }
        let outside = TempDir("kit-outside")
        try FileManager.default.createSymbolicLink(atPath: v.root + "/Linked", withDestinationPath: outside.path)
        #expect(throws: SheafError.self) { try session.createNote(title: "x", folder: "Linked", tags: [], body: "") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty)
    }

    @Test func writerLockIsHeldForTheBodyAndReleasedAfter() throws {
        let v = try KitVault()
        let session = try v.session()
        let takenInside = try session.withWriterLock { (_) throws(SheafError) -> Bool in
            try VaultLock.take(session.vault.lockPath, wait: false) != nil
        }
        #expect(!takenInside)
        #expect(try VaultLock.take(session.vault.lockPath, wait: false) != nil)
    }

    /// `move` is a writer: while another holder has `.sheaf/lock` it waits (saying so) and moves
    /// only once the lock is free.
    @Test func moveWaitsForTheWriterLock() throws {
        let v = try KitVault()
        let session = try v.session()
        let created = try session.createNote(title: "Plan", folder: nil, tags: [], body: "text")
        _ = try session.commit()
        let note = try session.resolve(created.path)
        let other = OtherHolder(try VaultLock.take(session.vault.lockPath, wait: false))
        #expect(other.lock != nil)
        let told = EventLog()
        let root = v.root
        session.subscribe { event in
            guard event == .lockWait else { return }
            told.record(event)
            #expect(FileManager.default.fileExists(atPath: root + "/Plan.md"), "moved before the lock was free")
            other.lock = nil  // the other holder lets go
        }
        _ = try session.move(note, to: "Archive/Plan.md")
        #expect(told.events.contains(.lockWait))
        #expect(v.read("Archive/Plan.md")?.hasSuffix("text\n") == true && v.read("Plan.md") == nil)
    }
}

@Suite struct DoctorNameTests {
    /// NFC and NFD spellings of one name: Swift's `!=` calls them equal, so doctor said
    /// "differs only by case from :" with no name, and it is not a case difference.
    @Test func twinsThatDifferOnlyInTheirUnicodeFormAreNamedAsSuch() {
        let nfc = "Caf\u{E9}.md", nfd = "Cafe\u{301}.md"
        let findings = VaultSession.nameFindings([nfc, nfd, "Notes/a.md", "Notes/A.md", "b.md"])
        let byPath = Dictionary(grouping: findings, by: { Array($0.path.utf8) })
        #expect(byPath[Array(nfc.utf8)]?.first?.message == "differs only in its Unicode form (NFC or NFD) from \(nfd): one of them is lost on macOS and Windows")
        #expect(byPath[Array(nfd.utf8)]?.first?.message.contains("from \(nfc):") == true)
        #expect(byPath[Array("Notes/a.md".utf8)]?.first?.message.hasPrefix("differs only by case from Notes/A.md") == true)
        #expect(byPath[Array("b.md".utf8)] == nil)
    }
}

/// Another holder of `.sheaf/lock`, which a session's event handler can make let go.
private final class OtherHolder: @unchecked Sendable {  // set by the one thread that runs the test
    var lock: VaultLock?
    init(_ lock: VaultLock?) { self.lock = lock }
}
