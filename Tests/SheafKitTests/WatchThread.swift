// `VaultSession.watch` run on a thread of its own, as `sheaf watch` runs it, for the Kit tests
// that watch a vault in process: what it reported (events, batches, how it ended) is read by
// the test's thread, and the test stops it with its `WatchStopper`.
import Foundation
import SheafCore
import TestSupport
@testable import SheafKit

/// What the watcher thread reported, read by the test thread.
final class Reported: @unchecked Sendable {
    private let lock = NSLock()
    private var _events: [VaultEvent] = []
    private var _batches: [VaultChangeSet] = []
    private var _error: SheafError?
    private var _ended = false

    func event(_ e: VaultEvent) { lock.withLock { _events.append(e) } }
    func batch(_ c: VaultChangeSet) { lock.withLock { _batches.append(c) } }
    func end(_ error: SheafError?) { lock.withLock { _error = error; _ended = true } }
    var events: [VaultEvent] { lock.withLock { _events } }
    var batches: [VaultChangeSet] { lock.withLock { _batches } }
    var error: SheafError? { lock.withLock { _error } }
    var ended: Bool { lock.withLock { _ended } }

    /// Waits up to 30 s for `done`.
    func wait(until done: (Reported) -> Bool) -> Bool {
        for _ in 0..<1500 where !done(self) { usleep(20_000) }
        return done(self)
    }
}

/// A watcher on the vault at `root`, running until `stopper` stops it.
@discardableResult
func startWatching(_ root: String, options: VaultWatchOptions, stopper: WatchStopper) -> Reported {
    let reported = Reported()
    Thread.detachNewThread {
        do {
            let session = try VaultSession.open(explicit: root, environment: [:], workingDirectory: root)
            session.subscribe { reported.event($0) }
            try session.watch(options: options, stopper: stopper, afterBatch: { reported.batch($0) })
            reported.end(nil)
        } catch {
            reported.end(error as? SheafError ?? SheafError("\(error)"))
        }
    }
    return reported
}
