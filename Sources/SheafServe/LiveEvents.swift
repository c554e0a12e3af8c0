// Live pages: the in-process watcher's events (Kit's VaultEvent, as `sheaf watch --json` writes
// them: WatchEventJSON) pushed to every open page as server-sent events on /events. A page
// reloads its content when its note or list changed, and the bar shows the sync's state. A
// listener that cannot keep up loses the oldest events, never the server's memory; every stream
// ends when the server shuts down.
import Foundation
import Hummingbird
import ServiceLifecycle
import SheafKit
import Synchronization

final class LiveEvents: Sendable {
    private let listeners = Mutex<[Int: AsyncStream<String>.Continuation]>([:])
    private let nextID = Mutex(0)

    /// Tells every listener; events of no page's concern (a lock wait, index progress) are not sent.
    func send(_ event: VaultEvent) {
        guard let json = WatchEventJSON(event), let data = try? VaultJSON.encode(json, pretty: false) else { return }
        let message = "event: vault\ndata: " + String(decoding: data, as: UTF8.self) + "\n\n"
        listeners.withLock { for listener in $0.values { listener.yield(message) } }
    }

    /// A new listener's stream: a comment first (so the page knows it is connected), then events.
    func listen() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(64))
        let id = nextID.withLock { $0 += 1; return $0 }
        continuation.onTermination = { [weak self] _ in _ = self?.listeners.withLock { $0.removeValue(forKey: id) } }
        continuation.yield(": listening\n\n")
        listeners.withLock { $0[id] = continuation }
        return stream
    }

    var count: Int { listeners.withLock { $0.count } }

    func add(to router: Router<BasicRequestContext>) {
        router.get("/events") { _, _ in
            let stream = self.listen().cancelOnGracefulShutdown().map { ByteBuffer(string: $0) }
            return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store"],
                            body: ResponseBody(asyncSequence: stream))
        }
    }
}
