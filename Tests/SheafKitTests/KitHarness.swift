// What the Kit tests share: a real vault in a temporary folder (`VaultSession.initialize`, so a
// real git repository and `.sheaf/`), opened the way a command opens one.
import Foundation
import SheafCore
import TestSupport
@testable import SheafKit

/// A vault made by `sheaf init`'s own code, removed with the value.
final class KitVault {
    let temp: TempDir
    let root: String

    init(_ name: String = "vault", in temp: TempDir = TempDir("kit")) throws {
        self.temp = temp
        root = temp.path + "/" + name
        _ = try VaultSession.initialize(folder: root)
    }

    /// A session opened at the vault's root (or `folder` inside it), as a command opens one.
    func session(in folder: String = "") throws -> VaultSession {
        try VaultSession.open(explicit: nil, environment: [:], workingDirectory: folder.isEmpty ? root : root + "/" + folder)
    }

    func write(_ text: String, _ path: String) throws { TestFile.write(text, to: root + "/" + path) }

    func read(_ path: String) -> String? {
        FileManager.default.contents(atPath: root + "/" + path).map { String(decoding: $0, as: UTF8.self) }
    }
}

/// An empty bare repository `remote.git` in `temp` (branch main): the remote of a test's vaults.
func bareRemote(in temp: TempDir) -> String {
    let bare = temp.path + "/remote.git"
    let made = runProcess("/usr/bin/git", ["init", "-q", "--bare", "-b", "main", bare], in: temp.path)
    precondition(made.status == 0, "git init --bare failed: \(made.stderr)")
    return bare
}

extension VaultSession {
    /// The paths the index holds now, read without a freshness scan: the test holds `.sheaf/lock`
    /// meanwhile, so the session answers from the index as it is (and says so: `.indexBusy`).
    func indexedPathsAsIs() throws -> (paths: [String], answeredAsIs: Bool) {
        invalidate()
        let held = try VaultLock.take(vault.lockPath, wait: false)
        precondition(held != nil, "the lock was taken")
        let told = EventLog()
        subscribe(told.record)
        let paths = try freshIndex().0.summaries().map(\.path)
        withExtendedLifetime(held) {}
        return (paths.sorted(), told.events.contains(.indexBusy))
    }
}
