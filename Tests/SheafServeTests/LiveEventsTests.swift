// Live pages: with the watcher running in the server's process, a file changed on disk reaches
// an open /events stream as a server-sent event naming it, without any request for it.
import Foundation
import HTTPTypes
import SheafCore
import SheafKit
import Testing
import TestSupport
@testable import SheafServe

@Suite struct LiveEventsTests {
    @Test func aFileChangedOnDiskReachesAnOpenPageAsAnEvent() async throws {
        var options = ServeOptions()
        options.port = 0
        options.sync = false
        let served = try ServedVault(["Plan.md": "first\n"], options: options)
        let started = EventFlag()
        let watcher = served.server.startWatcher { event in if case .rescanned = event { started.set() } }
        defer { watcher.stop() }
        #expect(eventually(timeout: 30) { started.isSet })
        let token = served.server.token
        let received = try await served.server.application().test(.live) { client in
            let port = try #require(client.port)
            let opened = try await client.execute(uri: "/?token=\(token)", method: .get)
            let cookie = String(try #require(opened.headers[.setCookie]).split(separator: ";")[0])
            let stream = try RawHTTP.open(port: port, request: "GET /events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nCookie: \(cookie)\r\n\r\n")
            defer { close(stream) }
            #expect(await RawHTTP.read(stream, until: ": listening").contains("text/event-stream"))
            TestFile.write("second\n", to: served.root + "/Live.md")
            return await RawHTTP.read(stream, until: "Live.md")
        }
        #expect(received.contains("event: vault") && received.contains("\"kind\":\"indexed\"") && received.contains("Live.md"), "\(received)")
    }
}

/// A flag one thread sets and another waits for.
final class EventFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
