// Sheaf's threads of their own (a pull's early index pass, the background sync, a fetch, the
// watcher of `sheaf serve`), made with pthreads. Foundation's `Thread` holds its closure until the
// thread's thread-specific data is destroyed, after the thread function has returned: whatever
// that closure held last was deinitialised there, after libdispatch had torn down the thread's
// own state. A GRDB database closed from there (its dispatch queues disposed) corrupted the heap:
// the early pass's test crashed in malloc about once in a hundred runs, always later and
// elsewhere. Here the closure is released before the thread function returns.
import Foundation

public enum WorkerThread {
    /// Runs `body` on a new detached thread of `stackSize` bytes, named `name` (the kernel keeps
    /// its first 15 bytes). When no thread can be made (the process is out of them), `body`
    /// runs on a dispatch queue of its own instead: the work is never dropped.
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
            Thread.current.name = body.name  // what `top -H` and a backtrace show; holds nothing of the body
            body.run()
        }
    }
}
