// The server's requests share one index and the paths and resolver derived from it
// (`SharedIndex`); with the watcher running in the server's process, a page asked after a file
// changed must show the change: a new note's page and backlink, an edited line, and no page or
// backlink for a note that is gone.
import Foundation
import SheafCore
import SheafKit
import Testing
import TestSupport
@testable import SheafServe

@Suite struct FreshPageTests {
    @Test func aPageAfterAChangeTheWatcherSawShowsItThoughTheServerKeepsTheIndexOpen() async throws {
        var options = ServeOptions()
        options.sync = false
        let served = try ServedVault(["Lisbon.md": "# Lisbon\n"], options: options)
        let seen = SeenPaths()
        let watcher = served.server.startWatcher { event in seen.record(event) }
        defer { watcher.stop() }
        #expect(eventually(timeout: 30) { seen.caughtUp })
        try await served.browse { browser in
            #expect(try await browser.get("/n/Lisbon.md").body.contains("Porto") == false)
            #expect(try await browser.get("/n/Porto.md").status == .notFound)

            // Asked at once: the request waits for the watcher to apply what came before it.
            TestFile.write("Trains to [[Lisbon]] daily.\n", to: served.root + "/Porto.md")
            #expect(try await browser.get("/n/Lisbon.md").body.contains("Trains to [[Lisbon]] daily."))
            #expect(try await browser.get("/n/Porto.md").status == .ok)

            TestFile.write("Boats to [[Lisbon]] now.\n", to: served.root + "/Porto.md")
            let edited = try await browser.get("/n/Lisbon.md").body
            #expect(edited.contains("Boats to [[Lisbon]] now.") && !edited.contains("Trains to"))

            unlink(served.root + "/Porto.md")
            #expect(eventually(timeout: 30) { seen.removed.contains("Porto.md") })
            #expect(try await browser.get("/n/Porto.md").status == .notFound)
            #expect(try await browser.get("/file/Porto.md").status == .notFound)
            #expect(try await browser.get("/n/Lisbon.md").body.contains("Boats to") == false)
        }
    }
}

/// What the watcher reported: caught up, and the paths its batches removed.
final class SeenPaths: @unchecked Sendable {
    private let lock = NSLock()
    private var rescanned = false
    private var gone: Set<String> = []

    func record(_ event: VaultEvent) {
        lock.withLock {
            switch event {
            case .rescanned: rescanned = true
            case .indexed(let changes): gone.formUnion(changes.removed.map(\.path))
            default: break
            }
        }
    }

    var caughtUp: Bool { lock.withLock { rescanned } }
    var removed: Set<String> { lock.withLock { gone } }
}
