// `VaultSession.watch` in process: the hook the background sync hangs on (`afterBatch`, called
// with each batch's changes once they are in the index), the events, a reader in the same
// process that the watcher vouches for, and `WatchStopper` ending the loop.
import Foundation
import Testing
import SheafCore
import TestSupport
@testable import SheafKit

/// What the watcher thread reported, read by the test thread.
private final class Reported: @unchecked Sendable {
    private let lock = NSLock()
    private var _events: [WatchEvent] = []
    private var _batches: [VaultChangeSet] = []
    private var _error: SheafError?
    private var _ended = false

    func event(_ e: WatchEvent) { lock.withLock { _events.append(e) } }
    func batch(_ c: VaultChangeSet) { lock.withLock { _batches.append(c) } }
    func end(_ error: SheafError?) { lock.withLock { _error = error; _ended = true } }
    var events: [WatchEvent] { lock.withLock { _events } }
    var batches: [VaultChangeSet] { lock.withLock { _batches } }
    var error: SheafError? { lock.withLock { _error } }
    var ended: Bool { lock.withLock { _ended } }

    /// Waits up to 30 s for `done`.
    func wait(until done: (Reported) -> Bool) -> Bool {
        for _ in 0..<1500 where !done(self) { usleep(20_000) }
        return done(self)
    }
}

@Suite struct KitWatchTests {
    @Test func afterBatchGetsEachBatchOnceIndexedAndTheStopperEndsTheWatch() throws {
        // Read commands wait long for the watcher's answer here (a loaded machine), so the test
        // checks the watcher's index, not a walk. Read once, when a watcher is first asked.
        setenv("SHEAF_WATCHER_WAIT_MS", "20000", 1)
        let vault = try KitVault()
        try vault.write("# A\n\nalpha\n", "A.md")
        let stopper = WatchStopper()
        let reported = Reported()
        let root = vault.root
        Thread.detachNewThread {
            do {
                let session = try VaultSession.open(explicit: root, environment: [:], workingDirectory: root)
                var options = VaultWatchOptions()
                options.sync = false  // this test is about the index; BackgroundSyncTests sync
                try session.watch(options: options, stopper: stopper,
                                  events: { reported.event($0) }, afterBatch: { reported.batch($0) })
                reported.end(nil)
            } catch {
                reported.end(error as? SheafError ?? SheafError("\(error)"))
            }
        }
        defer { stopper.stop() }
        // The first scan catches up with A.md (and the hook hears of it).
        #expect(reported.wait { $0.batches.contains { $0.added.contains(PathKey("A.md")) } }, "\(reported.events)")
        guard case .started = reported.events.first else { Issue.record("no started event first: \(reported.events)"); return }

        try vault.write("# B\n\nbravo\n", "Notes/B.md")
        #expect(reported.wait { $0.batches.contains { $0.added.contains(PathKey("Notes/B.md")) } }, "\(reported.events)")
        #expect(reported.events.contains(.indexed(VaultChangeSet(added: ["Notes/B.md"]))), "\(reported.events)")

        // A reader (here, in the same process) is vouched for and finds what was just written.
        try vault.write("# B\n\ncharlie\n", "Notes/B.md")
        let reader = try vault.session()
        var vouched = false
        reader.onWatcherVouched = { vouched = true }
        let hits = try reader.search("charlie", limit: 10, snippets: false).hits
        #expect(hits.map(\.path) == ["Notes/B.md"])
        #expect(vouched)
        // The search took the index as one read-only connection; a caller that may write (here
        // the same session asking again without `queryOnly`) gets a writable one.
        #expect(reader.cachedIndex?.0.isReadOnly == true)
        #expect(try reader.freshIndex().0.isReadOnly == false)
        #expect(try reader.search("charlie", limit: 10, snippets: true).hits.map(\.path) == ["Notes/B.md"])

        stopper.stop()
        #expect(reported.wait { $0.ended })
        #expect(reported.error == nil)
        #expect(reported.events.last == .stopped(reason: "asked to stop"))
        // The claim went with it: another watcher may start.
        #expect(!FileManager.default.fileExists(atPath: root + "/.sheaf/watcher"))
    }
}
