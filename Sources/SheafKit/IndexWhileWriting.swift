// Indexing the files a pull writes while it writes the rest. A clone writes every file of the
// vault, and reading them back only after the last one had the index wait for the whole checkout,
// one core busy creating files and the other idle. The work-tree update names each path as its
// file is written (`Syncer.onWritten`); a thread of this command applies them to the index in
// batches, the first ones as they land and the rest once a batch was written a clock tick ago
// (below) (`NoteIndex.apply`: what is on disk decides; `namedOnly`, so an index being built from
// nothing stays marked as such). The update's
// whole change set is still applied after the update, to the same index
// (`updateIndex(after:into:early:)`; for an index built from nothing, a clone's, that is the scan
// that completes the build): a path read here a tick after its write is then one stat whose
// identity matches what was stored, and what the early pass could not settle is settled there as
// if it had not run:
// - a file read within one tick of its write, which the index records as racily clean (inode
//   0, `BatchWriter.recordedInode`), is read, parsed and hashed again (a changed hash rewrites
//   its row, so an edit made after the early read and hidden from the clock is still found);
// - rules that files written later change (`.gitignore`, `.obsidian/app.json`) hold for every
//   path, because that walker is made after the update;
// - the paths the update wrote last, and those of a pull of fewer than `eagerBatch` files;
// - a path read here that the whole change set no longer names (a sync whose push was rejected
//   pulls again, and its second pull deletes or moves a file the first one wrote) is looked at
//   again with it (`read`).
// The first `batch` paths are read as soon as they are written, in batches of whatever is there
// (`eagerBatch` at least), without waiting out the tick: a pull of a hundred notes is written in
// about as long as a tick, so a pass that waited would read none of them, and the index's work
// (parsing, the old rows' deletion, the new rows) would wait for the last write instead of
// running on the other core while the writes wait on the disk. Those rows are racily clean, and
// settling them costs a read, a parse, a hash and an identity update each (no FTS work when the
// hash matches); past the first `batch`, paths wait out the tick, so a clone reads no more than
// that twice.
import Foundation
import SheafCore
import SheafFiles
import SheafIndex

final class IndexWhileWriting: @unchecked Sendable {
    /// The most paths read at once, and how many of the first are read without waiting out `settle`.
    static let batch = NoteIndex.batchSize
    /// How long ago a file must have been written to be read here: one tick of a clock that
    /// keeps fractions of seconds (`BatchWriter.recordedInode`). A file read sooner would be
    /// recorded as racily clean and read again after the update (as the first `batch` are).
    static let settle: UInt64 = 100_000_000
    /// The fewest paths an eager read takes (a pull of fewer never starts the pass).
    static let eagerBatch = 16

    /// The index and the walk's rules for the early pass, made on the updating thread when the
    /// first `eagerBatch` paths are written (the session is that thread's; nil when the index
    /// cannot be opened: the update of the whole change set then says why).
    private let open: () -> (NoteIndex, VaultWalker)?
    private let condition = NSCondition()
    /// Paths written, in the order written, with when (CLOCK_MONOTONIC); those from `next` on
    /// are not yet read here.
    private var pending: [(path: String, at: UInt64)] = []
    private var next = 0
    /// How many of the first paths are still to be read eagerly (see the header).
    private var eagerLeft = IndexWhileWriting.batch
    /// Every path read here (written by its thread, read after it stopped).
    private var read: [String] = []
    private var finished = false
    private var started = false
    private var stopped: DispatchSemaphore?
    private var opened: NoteIndex?
    /// The walk's rules its thread applies (set before it starts).
    private var walker: VaultWalker?
    /// What the early pass did (nil when it read nothing). Written by its thread, read after it stopped.
    private var report: SheafIndex.ScanReport?

    init(open: @escaping () -> (NoteIndex, VaultWalker)?) { self.open = open }

    /// A path the update wrote (on the updating thread).
    func wrote(_ path: String) {
        condition.lock()
        pending.append((path, Self.now()))
        let start = !started && pending.count - next >= Self.eagerBatch
        if start { started = true }
        condition.signal()
        condition.unlock()
        if start { begin() }
    }

    /// Stops the early pass (waiting for the batch it is reading) and hands over its index and
    /// report; paths it did not read are left to the caller's update of the whole change set.
    /// Called again, it gives the same.
    func finish() -> (index: NoteIndex, report: SheafIndex.ScanReport?, read: [String])? {
        condition.lock()
        finished = true
        condition.signal()
        let stopped = stopped
        self.stopped = nil
        condition.unlock()
        stopped?.wait()
        condition.lock()
        defer { condition.unlock() }
        return opened.map { ($0, report, read) }
    }

    private func begin() {
        guard let (index, walker) = open() else { return }
        let stopped = DispatchSemaphore(value: 0)
        condition.lock()
        opened = index
        self.walker = walker
        self.stopped = stopped
        condition.unlock()
        // Notes are parsed on this thread too (8 MB of stack, as on the main thread). Nothing is
        // held past `stopped`: the caller holds this object while the pass runs, and whatever
        // the index releases when it goes is released by the caller, under the writer lock.
        WorkerThread.start(name: "sheaf-index") { [weak self] in
            self?.run()
            stopped.signal()
        }
    }

    private func run() {
        guard let walker, let index = opened else { return }
        while let paths = nextBatch() {
            read += paths
            do throws(SheafError) {
                let done = try index.apply(VaultChangeSet(added: paths), vault: walker.vault, walker: walker, namedOnly: true)
                report = report.map { $0.followed(by: done) } ?? done
            } catch {
                return  // the update of the whole change set meets it again, and says it
            }
        }
    }

    /// The first paths as soon as enough are written, then those written at least `settle` ago
    /// once there is a batch of them; nil once finished.
    private func nextBatch() -> [String]? {
        condition.lock()
        defer { condition.unlock() }
        func take(_ count: Int) -> [String] {
            defer {
                next += count
                if next >= 8 * Self.batch { pending.removeFirst(next); next = 0 }  // not once per batch
            }
            return pending[next..<(next + count)].map(\.path)
        }
        while !finished {
            let waiting = pending[next...]
            if eagerLeft > 0 {
                let count = min(waiting.count, eagerLeft)
                if count >= min(Self.eagerBatch, eagerLeft) {
                    eagerLeft -= count
                    return take(count)
                }
                condition.wait()
                continue
            }
            let now = Self.now()
            let ripe = waiting.prefix(Self.batch).prefix { now - $0.at >= Self.settle }.count
            if ripe == Self.batch { return take(ripe) }
            if waiting.count >= Self.batch {
                // The batch is there; its last path ripens within `settle`.
                let wait = Self.settle - (now - pending[next + Self.batch - 1].at)
                _ = condition.wait(until: Date(timeIntervalSinceNow: Double(wait) / 1e9))
            } else {
                condition.wait()
            }
        }
        return nil
    }

    private static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
