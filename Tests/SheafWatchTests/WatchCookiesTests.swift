import Foundation
import SheafCore
import Synchronization
import Testing
@testable import SheafWatch

/// What a consumer thread applied, in order, shared with the test.
final class AppliedLog: Sendable {
    private let paths = Mutex<[PathKey]>([])
    func append(_ keys: [PathKey]) { paths.withLock { $0 += keys } }
    var all: [PathKey] { paths.withLock { $0 } }
}

/// Runs a watcher on a thread of its own as a consumer would: apply (here: log) each batch,
/// then acknowledge its cookies.
final class ConsumerThread: @unchecked Sendable {
    let log = AppliedLog()
    private let watcher: VaultWatcher
    private let fresh: Bool
    private let done = DispatchSemaphore(value: 0)

    init(_ watcher: VaultWatcher, answerFresh: Bool = true) {
        self.watcher = watcher
        fresh = answerFresh
        Thread.detachNewThread { [self] in
            while let batch = try? self.watcher.nextBatch() {
                log.append(batch.changes.paths)
                WatchCookies.acknowledge(batch.cookies, vault: self.watcher.vault, fresh: fresh)
            }
            done.signal()
        }
    }

    func stop() {
        watcher.stop.stop()
        done.wait()
    }
}

@Suite struct WatchCookiesTests {
    @Test func aCookieIsAnsweredOnlyAfterTheBatchHoldingEveryEarlierWrite() throws {
        let box = TemporaryVault()
        defer { box.remove() }
        // A long quiet period: without the cookie, the note's batch would wait for it.
        let watcher = try VaultWatcher(vault: box.vault, options: WatchOptions(quietPeriod: 30, maxLatency: 60))
        let consumer = ConsumerThread(watcher)
        defer { consumer.stop() }
        for round in 0..<5 {
            box.write("round \(round)\n", "n\(round).md")
            #expect(shell("sed -i s/round/turn/ n\(round).md", in: box.root) == 0)
            #expect(WatchCookies.ask(vault: box.vault, timeout: 10) == .fresh)
            #expect(consumer.log.all.contains(PathKey("n\(round).md")), "round \(round)")
        }
        // The cookie files are gone, and were never reported as vault changes.
        #expect(try FileManager.default.contentsOfDirectory(atPath: WatchCookies.folder(box.vault)).isEmpty)
        #expect(!consumer.log.all.contains { $0.path.contains("cookie") })
    }

    @Test func aConsumerThatCannotVouchAnswersStale() throws {
        let box = TemporaryVault()
        defer { box.remove() }
        let watcher = try VaultWatcher(vault: box.vault)
        let consumer = ConsumerThread(watcher, answerFresh: false)
        defer { consumer.stop() }
        #expect(WatchCookies.ask(vault: box.vault, timeout: 10) == .stale)
        #expect(try FileManager.default.contentsOfDirectory(atPath: WatchCookies.folder(box.vault)).isEmpty)
    }

    @Test func withoutAWatcherOrWithAStuckOneTheAnswerIsNoAnswer() throws {
        let box = TemporaryVault()
        defer { box.remove() }
        #expect(WatchCookies.ask(vault: box.vault, timeout: 0.1) == .noAnswer)  // no cookie folder
        let watcher = try VaultWatcher(vault: box.vault)  // never asked for batches: stuck
        #expect(WatchCookies.ask(vault: box.vault, timeout: 0.3) == .noAnswer)
        #expect(try FileManager.default.contentsOfDirectory(atPath: WatchCookies.folder(box.vault)).isEmpty)
        _ = watcher
    }

    @Test func aCookieLeftBeforeTheWatcherStartedIsAnsweredStaleNotFresh() throws {
        let box = TemporaryVault()
        defer { box.remove() }
        let folder = WatchCookies.folder(box.vault)
        mkdir(folder, 0o700)
        close(open(folder + "/4242-early", O_CREAT | O_WRONLY, 0o600))
        let watcher = try VaultWatcher(vault: box.vault)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(names == ["4242-early.stale"])
        _ = watcher
    }
}
