// What the background sync tests share: clones of one vault syncing through a real bare
// repository on disk (made by plain git; the first clone pushed by Sheaf's own sync, the others
// made by `VaultSession.clone`), the events a `BackgroundSync` reported, and polling with a deadline.
import Foundation
import SheafCore
import TestSupport
@testable import SheafKit

/// A bare repository and `count` vaults cloned from it, each with its own device name.
final class SyncedClones: @unchecked Sendable {  // set up in init, then only read
    let temp = TempDir("bgsync")
    let bare: String
    private(set) var roots: [String] = []

    init(_ count: Int) throws {
        bare = temp.path + "/remote.git"
        runProcess("/usr/bin/git", ["init", "-q", "--bare", "-b", "main", bare], in: temp.path)
        let first = try KitVault("c0", in: temp)
        try first.write("# Start\n\nfirst line\n", "Start.md")
        let session = try first.session()
        try session.setConfig("device", "c0")
        try session.addRemote(name: "origin", url: bare)
        _ = try session.sync(SyncOptions())
        roots.append(first.root)
        for i in 1..<count {
            let (clone, _) = try VaultSession.clone(url: bare, into: temp.path + "/c\(i)", branch: "main",
                                                    options: SyncOptions())
            try clone.setConfig("device", "c\(i)")
            roots.append(clone.vault.root)
        }
    }

    subscript(i: Int) -> String { roots[i] }

    func vault(_ i: Int) -> Vault { Vault(root: roots[i]) }

    /// Writes a file the way an editor saves: a temporary file, then a rename over the note.
    func save(_ i: Int, _ path: String, _ text: String) {
        let full = roots[i] + "/" + path
        try? FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent,
                                                 withIntermediateDirectories: true)
        // The temporary file is beside the vault (same file system), so no commit can catch it.
        let temp = self.temp.path + "/.save-\(i)-\(UUID().uuidString)"
        _ = FileManager.default.createFile(atPath: temp, contents: Data(text.utf8))
        rename(temp, full)
    }

    func read(_ i: Int, _ path: String) -> String {
        FileManager.default.contents(atPath: roots[i] + "/" + path).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// Every file git would track in a clone (no `.git`, `.sheaf`, or dot-names), with its text.
    func files(_ i: Int) -> [String: String] {
        var result: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(atPath: roots[i])!
        while let rel = enumerator.nextObject() as? String {
            if (rel as NSString).pathComponents.contains(where: { $0.hasPrefix(".") }) { continue }
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: roots[i] + "/" + rel, isDirectory: &isFolder), !isFolder.boolValue {
                result[rel] = read(i, rel)
            }
        }
        return result
    }

    func conflictFiles(_ i: Int) -> [String] { files(i).keys.filter { ConflictName.isConflict($0) }.sorted() }

    @discardableResult
    func git(_ i: Int, _ arguments: [String]) -> RunResult {
        GitCLI.run(arguments, in: roots[i])
    }

    func head(_ i: Int) -> String { git(i, ["rev-parse", "HEAD"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) }

    /// The remote's branch as plain git sees it.
    func remoteHead() -> String {
        runProcess("/usr/bin/git", ["--git-dir", bare, "rev-parse", "main"], in: temp.path).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Whether a clone has nothing uncommitted (ignored files aside).
    func isClean(_ i: Int) -> Bool { git(i, ["status", "--porcelain"]).stdout.isEmpty }
}

/// The events one background sync (or one session) reported, in order.
final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [VaultEvent] = []

    var events: [VaultEvent] { lock.withLock { items } }

    func record(_ event: VaultEvent) { lock.withLock { items.append(event) } }

    func count(_ match: (VaultEvent) -> Bool) -> Int { events.filter(match).count }

    var offline: Int { count { if case .offline = $0 { true } else { false } } }
    var online: Int { count { if case .online = $0 { true } else { false } } }
    var waiting: [String] { events.compactMap { if case .syncWaiting(let reason) = $0 { reason } else { nil } } }
    var conflictPaths: [String] {
        events.flatMap { (event: VaultEvent) -> [String] in
            if case .conflicts(let paths) = event { return paths }
            return []
        }
    }
    var problems: [SheafError] { events.compactMap { if case .problem(let e) = $0 { e } else { nil } } }
    var synced: Int { count { if case .synced = $0 { true } else { false } } }
    var committedLocally: Int { count { if case .committedLocally = $0 { true } else { false } } }
    var warnings: [VaultWarning] { events.compactMap { if case .warning(let w) = $0 { w } else { nil } } }
}

/// The options of the tests: short waits, so a test runs in seconds.
func quickOptions(interval: Double = 0.5, quiet: Double = 0.2) -> BackgroundSyncOptions {
    BackgroundSyncOptions(interval: interval, quietPeriod: quiet, backoff: SyncBackoff.standard.scaled(0.02), recheck: 0.1)
}
