// `sheaf serve`: the vault in a browser. The server is a client of SheafKit like the CLI: each
// request opens a VaultSession (all of them reading through one `SharedIndex`); the watcher runs in the same process, on a thread of its own, as
// `sheaf watch` runs it (index kept fresh, background sync unless --no-sync), so a page needs no
// walk of the vault and reads what is on disk now. Security model: docs/serve.md.
import Dispatch
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import SheafCore
import SheafKit

public struct SheafServer: Sendable {
    public let vault: Vault
    public let options: ServeOptions
    let access: AccessGuard
    /// The watcher's events, for every open page.
    let live = LiveEvents()
    /// The shares' line in the bar, made again after each sync report.
    let shares = ShareLine()
    /// The index every request reads through.
    let index: SharedIndex

    public init(vault: Vault, options: ServeOptions) {
        self.vault = vault
        self.options = options
        self.access = AccessGuard(listen: options.address, secure: options.tls != nil)
        self.index = SharedIndex(vault: vault)
    }

    /// The random token of this server's URL.
    public var token: String { access.token }

    /// Every route behind the access guard.
    func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: AccessMiddleware(access: access))
        VaultRoutes(vault: vault, access: access, readOnly: options.readOnly, shares: shares, index: index).add(to: router)
        live.add(to: router)
        return router
    }

    /// The application on the options' address, speaking https with TLS options (whose files are
    /// read here, so a bad one stops the start); `running` gets the URL to open once it listens.
    func application(running: @escaping @Sendable (String) -> Void = { _ in }) throws(SheafError) -> some ApplicationProtocol {
        var logger = Logger(label: "sheaf-serve")
        logger.logLevel = .warning
        let access = self.access, token = self.token
        let host = options.address.contains(":") ? "[\(options.address)]" : options.address
        let shown = options.address == "0.0.0.0" || options.address == "::" ? "127.0.0.1" : host
        let scheme = options.scheme
        var server = HTTPServerBuilder.http1()
        if let tls = options.tls {
            let configuration = try tls.configuration()
            do { server = try .tls(.http1(), tlsConfiguration: configuration) } catch {
                throw SheafError("cannot serve https", path: tls.certificateFile, cause: String(describing: error))
            }
        }
        return Application(
            router: router(),
            server: server,
            configuration: .init(address: .hostname(options.address, port: options.port), serverName: nil),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                access.bound(port: port)
                running("\(scheme)://\(shown):\(port)/?token=\(token)")
            },
            logger: logger)
    }

    /// Serves until SIGINT or SIGTERM. `running` is told the URL; `events` every event of the
    /// watcher (which does not run when another process already watches the vault: its index
    /// is as fresh, and `problem` says so).
    public func run(running: @escaping @Sendable (String) -> Void, events: @escaping @Sendable (VaultEvent) -> Void) throws {
        if let refusal = options.refusal() { throw refusal }
        let app = try application(running: running)  // (a bad TLS file stops the start before the watcher's)
        let watcher = startWatcher(events: events)
        let served = DispatchSemaphore(value: 0)
        let failure = ServeFailure()
        Task.detached {
            do { try await app.runService(gracefulShutdownSignals: [.sigterm, .sigint]) }
            catch { failure.set(error) }
            served.signal()
        }
        served.wait()
        watcher.stop()
        if let error = failure.error {
            throw SheafError("the server stopped", path: options.address, cause: String(describing: error))
        }
    }
}

extension SheafServer {
    /// Starts the watcher on a thread of its own, as `sheaf watch` runs it; its events go to
    /// `events` and to every live page. When another process watches the vault already, it
    /// says so (`problem`) and stops: that one keeps the index as fresh.
    func startWatcher(events: @escaping @Sendable (VaultEvent) -> Void) -> WatcherThread {
        let thread = WatcherThread()
        var watchOptions = VaultWatchOptions()
        watchOptions.sync = options.sync
        let (vault, live, shares, watching) = (self.vault, self.live, self.shares, watchOptions)
        WorkerThread.start(name: "sheaf-watch") {
            do {  // the session (its index, its repository) is gone before `done` says so
                let session = VaultSession(vault: vault, workingDirectory: vault.root)
                session.subscribe { event in
                    events(event)
                    live.send(event)
                    switch event {
                    case .synced, .offline, .online, .conflicts: shares.forget()
                    default: break
                    }
                }
                do throws(SheafError) { try session.watch(options: watching, stopper: thread.stopper) }
                catch { events(.problem(error)) }
            }
            thread.done.signal()
        }
        return thread
    }
}

/// The watcher's thread: `stop()` ends the watch (the batch in progress finished) and waits.
final class WatcherThread: Sendable {
    let stopper = WatchStopper()
    let done = DispatchSemaphore(value: 0)

    func stop() {
        stopper.stop()
        done.wait()
    }
}

/// The error the server's task ended with, handed to the waiting thread.
private final class ServeFailure: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: (any Error)?
    func set(_ error: any Error) { lock.withLock { stored = error } }
    var error: (any Error)? { lock.withLock { stored } }
}
