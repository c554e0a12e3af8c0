// Sheaf's threads of their own (a pull's early index pass, the background sync, a fetch, the
// watchers of `sheaf serve` and `sheaf lsp`, the language server's reader), made with pthreads. Foundation's `Thread` holds its closure until the
// thread's thread-specific data is destroyed, after the thread function has returned: whatever
// that closure held last was deinitialised there, after libdispatch had torn down the thread's
// own state. A GRDB database closed from there (its dispatch queues disposed) corrupted the heap:
// the early pass's test crashed in malloc about once in a hundred runs, always later and
// elsewhere. Here the closure is released before the thread function returns.
import Foundation

public enum WorkerThread {
    /// Runs `body` on a new detached thread of `stackSize` bytes, named `name` (its first 15
    /// bytes, the kernel's limit). When no thread can be made (the process is out of them),
    /// `body` runs on a dispatch queue of its own instead, with that queue's stack: the work is
    /// never dropped. A caller that waits for the body (a semaphore it signals last) should let
    /// it hold weakly what must be released before then.
    public static func start(name: String, stackSize: Int = 8 << 20, _ body: @escaping @Sendable () -> Void) {
        let work = Body(name: name, run: body)
        let context = Unmanaged.passRetained(work).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackSize)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let created = pthread_create(&thread, &attributes, { context in
            Body.run(context!)
            return nil
        }, context)
        if created != 0 {
            Unmanaged<Body>.fromOpaque(context).release()
            DispatchQueue(label: name).async { work.run() }
        }
    }

    private final class Body: @unchecked Sendable {
        let name: String
        let run: @Sendable () -> Void

        init(name: String, run: @escaping @Sendable () -> Void) {
            self.name = name
            self.run = run
        }

        /// Takes the body back from `context` and runs it; the body and all it captured are
        /// released when this returns, still within the thread's life.
        static func run(_ context: UnsafeMutableRawPointer) {
            let body = Unmanaged<Body>.fromOpaque(context).takeRetainedValue()
            // What `top -H` and a backtrace show. Foundation passes the name to the kernel whole, which
            // refuses one over 15 bytes; the Thread it makes for this pthread holds nothing of the body.
            Thread.current.name = String(decoding: body.name.utf8.prefix(15), as: UTF8.self)
            body.run()
        }
    }
}
