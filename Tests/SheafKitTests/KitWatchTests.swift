// `VaultSession.watch` in process: the hook the background sync hangs on (`afterBatch`, called
// with each batch's changes once they are in the index), the events, a reader in the same
// process that the watcher vouches for, and `WatchStopper` ending the loop.
import Foundation
import Testing
import SheafCore
import TestSupport
@testable import SheafKit

@Suite struct KitWatchTests {
    /// A warning the session itself gives while watching (an ignore filter of .obsidian/app.json
    /// it cannot use) reaches the one stream the caller subscribed to, with the watcher's events.
    /// It went to a callback of its own before, so `watch --json` wrote it as text on stderr
    /// instead of a `warning` object.
    @Test func watchGivesItsSessionsWarningsOnTheOneEventStream() throws {
        let vault = try KitVault()
        try vault.write(#"{"userIgnoreFilters": ["/(a)\\1/"]}"#, ".obsidian/app.json")
        let stopper = WatchStopper()
        var options = VaultWatchOptions()
        options.sync = false
        let reported = startWatching(vault.root, options: options, stopper: stopper)
        defer { stopper.stop() }
        #expect(reported.wait { $0.events.contains { if case .warning(let w) = $0 { w.path == ".obsidian/app.json" } else { false } } },
                "\(reported.events)")
    }

    @Test func afterBatchGetsEachBatchOnceIndexedAndTheStopperEndsTheWatch() throws {
        // Read commands wait long for the watcher's answer here (a loaded machine), so the test
        // checks the watcher's index, not a walk. Read once, when a watcher is first asked.
        setenv("SHEAF_WATCHER_WAIT_MS", "20000", 1)
        let vault = try KitVault()
        try vault.write("# A\n\nalpha\n", "A.md")
        let stopper = WatchStopper()
        let root = vault.root
        var options = VaultWatchOptions()
        options.sync = false  // this test is about the index; BackgroundSyncTests sync
        let reported = startWatching(root, options: options, stopper: stopper)
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
        let told = EventLog()
        reader.subscribe(told.record)
        let hits = try reader.search("charlie", limit: 10, snippets: false).hits
        #expect(hits.map(\.path) == ["Notes/B.md"])
        #expect(told.events.contains(.watcherVouched))
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
