// Real vaults in temporary folders, changed by real commands (`sed`, `mv`, `cp`), watched by a
// real inotify watcher. Batches are gathered until what a test waits for has arrived, or a
// deadline passes (then the test fails on what it got).
import Foundation
import Glibc
import SheafCore
import TestSupport
@testable import SheafWatch

/// A temporary vault (a folder holding `.sheaf/`), removed by `remove()`.
struct TemporaryVault {
    let root: String
    var vault: Vault { Vault(root: root) }

    init() {
        root = NSTemporaryDirectory() + "sheaf-watch-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: root + "/.sheaf", withIntermediateDirectories: true)
    }

    /// In place, closed on exec (`TestFile`): a child another test spawns meanwhile must not
    /// inherit the descriptor (seen once: a rule file written before the watcher started was
    /// reported changed when such a child exited).
    func write(_ text: String, _ path: String) { TestFile.write(text, to: root + "/" + path) }

    func remove() { try? FileManager.default.removeItem(atPath: root) }
}

/// Runs a shell command in `folder`; returns its exit status.
@discardableResult
func shell(_ command: String, in folder: String) -> Int32 {
    runProcess("/bin/sh", ["-c", command], in: folder).status
}

/// Batches gathered from a watcher.
struct Gathered {
    var batches: [WatchBatch] = []
    var changes: VaultChangeSet { batches.reduce(VaultChangeSet()) { $0.followed(by: $1.changes) } }
    var rescanNeeded: Bool { batches.contains { $0.rescanNeeded } }
    var reasons: [String] { batches.flatMap(\.reasons) }
}

/// Takes batches until `done` holds for what was gathered, or `timeout` seconds pass.
func gather(_ watcher: VaultWatcher, timeout: Double = 20, until done: (Gathered) -> Bool) throws -> Gathered {
    var gathered = Gathered()
    let stop = watcher.stop
    let timer = DispatchWorkItem { stop.stop() }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: timer)
    defer { timer.cancel() }
    while !done(gathered), let batch = try watcher.nextBatch() {
        gathered.batches.append(batch)
    }
    return gathered
}

extension VaultChangeSet {
    /// Whether `path` is among the paths that hold new bytes.
    func wrote(_ path: String) -> Bool { written.contains(PathKey(path)) }
    /// Whether `path` holds no file any more according to the set.
    func lost(_ path: String) -> Bool { gone.contains(PathKey(path)) }
}
